// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memqos-load: generate CPU or memory traffic on one CPU for a while.
 *
 *   memqos-load [-c CPU] [-t SECONDS] [-m KIB]
 *
 * -c pins the process to CPU (so the host can look at that vCPU's MPAM
 * label in query-mpam), -t bounds the run time (default 10 s, 0 = forever),
 * -m streams reads and writes over a buffer of KIB KiB instead of spinning
 * (traffic for the MSC's bandwidth and occupancy monitors).
 */
#define _GNU_SOURCE
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_s(void)
{
    struct timespec ts;

    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void usage(void)
{
    fprintf(stderr, "usage: memqos-load [-c CPU] [-t SECONDS] [-m KIB]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    int cpu = -1, opt;
    double seconds = 10;
    size_t kib = 0;
    volatile unsigned long spin = 0;

    while ((opt = getopt(argc, argv, "c:t:m:")) != -1) {
        switch (opt) {
        case 'c': cpu = atoi(optarg); break;
        case 't': seconds = atof(optarg); break;
        case 'm': kib = strtoul(optarg, NULL, 0); break;
        default: usage();
        }
    }
    if (optind != argc) {
        usage();
    }
    if (cpu >= 0) {
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof(set), &set)) {
            perror("memqos-load: sched_setaffinity");
            return 1;
        }
    }

    unsigned long *buf = NULL;
    size_t words = kib * 1024 / sizeof(*buf);
    if (words) {
        buf = malloc(words * sizeof(*buf));
        if (!buf) {
            perror("memqos-load: malloc");
            return 1;
        }
        memset(buf, 0, words * sizeof(*buf));
    }

    double end = now_s() + seconds;
    unsigned long sum = 0;
    do {
        /* Check the clock only every so often: the loop is the point. */
        for (int i = 0; i < 64; i++) {
            if (buf) {
                for (size_t w = 0; w < words; w += 8) { /* one access per 64 B line */
                    sum += buf[w];
                    buf[w] = sum;
                }
            } else {
                for (int j = 0; j < 100000; j++) {
                    spin++;
                }
            }
        }
    } while (seconds <= 0 || now_s() < end);
    printf("memqos-load: done (%lu)\n", sum & 1);
    return 0;
}
