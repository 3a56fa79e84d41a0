/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memqos-perfllc BYTES PASSES [PERIOD]: write a buffer of BYTES (its
 * pages in), read it once (warm), then count with perf_event_open the
 * user-mode LLC references and misses (PERF_COUNT_HW_CACHE_REFERENCES/
 * _MISSES, LONGEST_LAT_CACHE on Intel, exclude_kernel: what the resctrl
 * CAT selftest opens) of PASSES more reads, one load a 64-byte line.
 * With PERIOD the misses event samples every PERIOD misses, so each
 * overflow is a PMI, which Linux counts in /proc/interrupts' PMI row; the
 * program then runs on the last CPU, not the boot CPU, whose local APIC
 * Linux sets up differently (LINT1 NMI only there).  Prints
 *   bytes=BYTES lines=L references=R misses=M pmis=P cpu=C
 * where L = BYTES / 64 * PASSES is the loads counted and P the PMIs taken
 * meanwhile (every CPU's; the NMI watchdog's are rare).  The x86 PMU's
 * guest check (guest-tests/scenarios-x86/x86-pmu.sh, docs/x86-pmu-design.md):
 * a buffer twice the L3 misses on every line, one that fits in the L3 but
 * not in the L2 references every line and misses none.
 */
#define _GNU_SOURCE
#include <linux/perf_event.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#define LINE 64

static int counter(uint64_t config, int group, uint64_t period)
{
    struct perf_event_attr a;
    int fd;

    memset(&a, 0, sizeof(a));
    a.size = sizeof(a);
    a.type = PERF_TYPE_HARDWARE;
    a.config = config;
    a.sample_period = period;
    a.disabled = group < 0;
    a.exclude_kernel = 1;
    a.exclude_hv = 1;
    fd = syscall(SYS_perf_event_open, &a, 0, -1, group, 0);
    if (fd < 0) {
        perror("memqos-perfllc: perf_event_open");
        exit(1);
    }
    return fd;
}

static uint64_t value(int fd)
{
    uint64_t v;

    if (read(fd, &v, sizeof(v)) != sizeof(v)) {
        perror("memqos-perfllc: read");
        exit(1);
    }
    return v;
}

/* The PMI row of /proc/interrupts, summed over the CPUs. */
static unsigned long long pmis(void)
{
    char line[4096];
    unsigned long long sum = 0;
    FILE *f = fopen("/proc/interrupts", "r");

    while (f && fgets(line, sizeof(line), f)) {
        char *p = line, *end;

        while (*p == ' ') {
            p++;
        }
        if (strncmp(p, "PMI:", 4)) {
            continue;
        }
        for (p += 4;; p = end) {
            unsigned long long v = strtoull(p, &end, 10);

            if (end == p) {
                break;
            }
            sum += v;
        }
    }
    if (f) {
        fclose(f);
    }
    return sum;
}

/* One load a line; the sum keeps the loads. */
static uint64_t walk(const volatile uint8_t *buf, size_t n)
{
    uint64_t sum = 0;

    for (size_t i = 0; i < n; i += LINE) {
        sum += buf[i];
    }
    return sum;
}

int main(int argc, char **argv)
{
    size_t n;
    unsigned long passes;
    unsigned long long period = 0, pmi0;
    uint64_t sum = 0;
    uint8_t *buf;
    int refs, misses;

    if ((argc != 3 && argc != 4) || !(n = strtoull(argv[1], NULL, 0)) ||
        n % LINE || !(passes = strtoul(argv[2], NULL, 0)) ||
        (argc == 4 && !(period = strtoull(argv[3], NULL, 0)))) {
        fprintf(stderr, "usage: memqos-perfllc BYTES PASSES [PERIOD] (BYTES a multiple of %d)\n",
                LINE);
        return 2;
    }
    buf = aligned_alloc(4096, n);
    if (!buf) {
        perror("memqos-perfllc: aligned_alloc");
        return 1;
    }
    if (period) {
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(sysconf(_SC_NPROCESSORS_ONLN) - 1, &set);
        if (sched_setaffinity(0, sizeof(set), &set)) {
            perror("memqos-perfllc: sched_setaffinity");
            return 1;
        }
    }
    memset(buf, 1, n);
    sum += walk(buf, n);
    refs = counter(PERF_COUNT_HW_CACHE_REFERENCES, -1, 0);
    misses = counter(PERF_COUNT_HW_CACHE_MISSES, refs, period);
    pmi0 = pmis();
    ioctl(refs, PERF_EVENT_IOC_ENABLE, PERF_IOC_FLAG_GROUP);
    for (unsigned long p = 0; p < passes; p++) {
        sum += walk(buf, n);
    }
    ioctl(refs, PERF_EVENT_IOC_DISABLE, PERF_IOC_FLAG_GROUP);
    printf("bytes=%zu lines=%zu references=%llu misses=%llu pmis=%llu cpu=%d sum=%llu\n",
           n, n / LINE * passes, (unsigned long long)value(refs),
           (unsigned long long)value(misses), pmis() - pmi0, sched_getcpu(),
           (unsigned long long)sum);
    return 0;
}
