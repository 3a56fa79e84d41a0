// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the guest measurement programs (memqos-chase, memqos-stream,
 * memqos-mops-alias) share: sizes with K/M/G suffixes, pinning to a CPU,
 * joining a resctrl group, the monotonic clock, reading a resctrl monitor
 * file, a fixed-seed generator, evicting the caches and the dependent-load
 * chase.
 */
#ifndef MEMQOS_PROG_H
#define MEMQOS_PROG_H

#define _GNU_SOURCE
#include <errno.h>
#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#define LINE 64
#define LOADS_PER_ITER 64

static const char *prog_name;
/* Where sums of loaded values go, so that the compiler keeps the loads. */
static volatile uint64_t prog_sink;

static void __attribute__((noreturn, format(printf, 1, 2)))
prog_die(const char *fmt, ...)
{
    va_list ap;

    fprintf(stderr, "%s: ", prog_name);
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    exit(1);
}

/* "4096", "64K", "8M", "1G" -> bytes; dies on anything else. */
static inline uint64_t prog_size(const char *opt, const char *s)
{
    char *end;
    errno = 0;
    uint64_t v = strtoull(s, &end, 0);
    unsigned shift = 0;

    switch (*end) {
    case 'K': case 'k': shift = 10; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    }
    if (errno || end == s || *end || *s == '-' || v > (UINT64_MAX >> shift)) {
        prog_die("%s '%s' is not a size (bytes, or a number with K, M or G)", opt, s);
    }
    return v << shift;
}

/* A whole number >= min; dies on anything else. */
static inline uint64_t prog_count(const char *opt, const char *s, uint64_t min)
{
    char *end;
    errno = 0;
    uint64_t v = strtoull(s, &end, 0);

    if (errno || end == s || *end || *s == '-' || v < min) {
        prog_die("%s '%s' is not a whole number >= %" PRIu64, opt, s, min);
    }
    return v;
}

static inline void prog_pin(int cpu)
{
    cpu_set_t set;

    CPU_ZERO(&set);
    CPU_SET(cpu, &set);
    if (sched_setaffinity(0, sizeof(set), &set)) {
        prog_die("--cpu %d: sched_setaffinity: %s", cpu, strerror(errno));
    }
}

/* Move this process into the resctrl group DIR (its tasks file). */
static inline void prog_join(const char *dir)
{
    char path[4096];
    snprintf(path, sizeof(path), "%s/tasks", dir);
    FILE *f = fopen(path, "w");

    if (!f || fprintf(f, "%d\n", getpid()) < 0 || fclose(f)) {
        prog_die("--resctrl-dir: cannot write my pid to %s: %s", path, strerror(errno));
    }
}

static inline uint64_t prog_now_ns(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + ts.tv_nsec;
}

/* A resctrl monitor file (llc_occupancy, mbm_total_bytes): its number, or
 * -1 when it cannot be read or says "Unavailable"/"Error" (reported on
 * stderr; the caller prints "na"). */
static inline int64_t prog_monitor(const char *path)
{
    FILE *f = fopen(path, "r");
    char buf[64] = "";
    char *end;

    if (!f) {
        fprintf(stderr, "%s: %s: %s\n", prog_name, path, strerror(errno));
        return -1;
    }
    if (!fgets(buf, sizeof(buf), f)) {
        buf[0] = 0;
    }
    fclose(f);
    int64_t v = strtoll(buf, &end, 10);
    if (end == buf || (*end && *end != '\n')) {
        fprintf(stderr, "%s: %s reads '%s'\n", prog_name, path, strtok(buf, "\n") ?: "");
        return -1;
    }
    return v;
}

/* splitmix64: a fixed-seed generator, so that every run builds the same chain. */
static inline uint64_t prog_rng(void)
{
    static uint64_t state = 1;
    uint64_t z = (state += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Read one word of every line of a fresh BYTES buffer, which stays mapped. */
static inline void prog_evict(uint64_t bytes)
{
    uint64_t sum = 0;
    const uint64_t *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE,
                             MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

    if (p == MAP_FAILED) {
        prog_die("--evict: mmap of %" PRIu64 " bytes: %s", bytes, strerror(errno));
    }
    for (uint64_t i = 0; i < bytes / sizeof(*p); i += LINE / sizeof(*p)) {
        sum += p[i];
    }
    prog_sink = sum;
}

/* ITERS times 64 dependent loads; returns where the chase stopped. */
static inline void *prog_chase(void *p, uint64_t iters)
{
    __asm__ volatile("1:\n"
                     ".rept 64\n"
                     "ldr %0, [%0]\n"
                     ".endr\n"
                     "subs %1, %1, #1\n"
                     "b.ne 1b\n"
                     : "+r"(p), "+r"(iters) : : "cc", "memory");
    return p;
}

#endif
