// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the guest measurement programs (memqos-chase, memqos-stream) share:
 * sizes with K/M/G suffixes, pinning to a CPU, joining a resctrl group,
 * the monotonic clock, and reading a resctrl monitor file.
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
#include <time.h>
#include <unistd.h>

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

#endif
