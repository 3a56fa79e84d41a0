// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memqos-stream: read bandwidth and the bytes a resctrl group's
 * mbm_total_bytes counted for them.
 *
 *   memqos-stream [--size BYTES] [--passes N] [--loop-seconds S]
 *                 [--mbm FILE] [--resctrl-dir DIR] [--cpu N]
 *
 * Reads every 8-byte word of a buffer (default 4 x the L3 size that Linux
 * reports in /sys/devices/system/cpu/cpu0/cache, so that no pass hits in
 * the L3 left by the one before).  The buffer is written once (the kernel
 * gives zero pages) and read once untimed: that pass evicts the dirty lines
 * of the write, so the timed window has line fills only.  Then it reads
 * mbm_total_bytes (FILE, default DIR/mon_data/mon_L3_00/mbm_total_bytes with
 * --resctrl-dir), streams N passes (default 4) or, with --loop-seconds, as
 * many passes as fit in S seconds (a noisy neighbour), reads the counter
 * again and prints one line:
 *
 *   bytes=READ mbm_delta=COUNTED|na mb_per_s=MB/S passes=N size=BYTES
 *
 * --resctrl-dir joins the group first, so the writes are the group's too.
 */
#include "memqos-prog.h"   /* first: it defines _GNU_SOURCE */
#include <getopt.h>

/* 4 x the size of the level-3 cache of CPU 0 as Linux reports it. */
static uint64_t default_size(void)
{
    for (int i = 0; i < 8; i++) {
        char path[128], buf[32];
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/level", i);
        FILE *f = fopen(path, "r");
        int level = f && fgets(buf, sizeof(buf), f) ? atoi(buf) : 0;
        if (f) {
            fclose(f);
        }
        if (level != 3) {
            continue;
        }
        snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu0/cache/index%d/size", i);
        f = fopen(path, "r");
        if (f && fgets(buf, sizeof(buf), f)) {
            fclose(f);
            return 4 * prog_size(path, strtok(buf, "\n"));
        }
        if (f) {
            fclose(f);
        }
    }
    prog_die("no L3 size in /sys/devices/system/cpu/cpu0/cache: give --size");
}

/* One pass: every word, summed. */
static uint64_t pass(const uint64_t *buf, uint64_t words)
{
    uint64_t sum = 0;

    for (uint64_t i = 0; i < words; i++) {
        sum += buf[i];
    }
    return sum;
}

static void usage(void)
{
    fprintf(stderr, "usage: memqos-stream [--size BYTES] [--passes N] [--loop-seconds S]\n"
                    "                     [--mbm FILE] [--resctrl-dir DIR] [--cpu N]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"size", 1, 0, 's'}, {"passes", 1, 0, 'n'}, {"loop-seconds", 1, 0, 't'},
        {"mbm", 1, 0, 'm'}, {"resctrl-dir", 1, 0, 'r'}, {"cpu", 1, 0, 'p'}, {0, 0, 0, 0},
    };
    uint64_t size = 0, passes = 4, seconds = 0;
    const char *group = NULL, *mbm = NULL;
    char mbm_path[4096];
    int cpu = -1, opt;

    prog_name = "memqos-stream";
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case 's': size = prog_size("--size", optarg); break;
        case 'n': passes = prog_count("--passes", optarg, 1); break;
        case 't': seconds = prog_count("--loop-seconds", optarg, 1); break;
        case 'm': mbm = optarg; break;
        case 'r': group = optarg; break;
        case 'p': cpu = prog_count("--cpu", optarg, 0); break;
        default: usage();
        }
    }
    if (optind != argc) {
        usage();
    }
    if (!size) {
        size = default_size();
    }
    if (size % 64) {
        prog_die("--size %" PRIu64 " is not a multiple of 64", size);
    }
    if (!mbm && group) {
        snprintf(mbm_path, sizeof(mbm_path), "%s/mon_data/mon_L3_00/mbm_total_bytes", group);
        mbm = mbm_path;
    }
    if (cpu >= 0) {
        prog_pin(cpu);
    }
    if (group) {
        prog_join(group);
    }

    uint64_t words = size / sizeof(uint64_t);
    uint64_t *buf = malloc(size);
    if (!buf) {
        prog_die("out of memory for %" PRIu64 " bytes", size);
    }
    /*
     * Not memset(0): the compiler makes malloc+memset(0) a calloc, which
     * leaves fresh pages untouched, and reading them maps every page to
     * the kernel's one zero page (64 lines, always cached).
     */
    for (uint64_t i = 0; i < words; i++) {
        buf[i] = i;
    }
    uint64_t sum = pass(buf, words);                /* the untimed pass */

    int64_t before = mbm ? prog_monitor(mbm) : -1;
    uint64_t t0 = prog_now_ns(), end = t0 + seconds * 1000000000u, done = 0;
    while (seconds ? prog_now_ns() < end : done < passes) {
        sum += pass(buf, words);
        done++;
    }
    uint64_t ns = prog_now_ns() - t0;
    int64_t after = mbm ? prog_monitor(mbm) : -1;

    char delta[32] = "na";
    if (before >= 0 && after >= 0) {
        snprintf(delta, sizeof(delta), "%" PRId64, after - before);
    }
    prog_sink = sum;
    printf("bytes=%" PRIu64 " mbm_delta=%s mb_per_s=%.1f passes=%" PRIu64 " size=%" PRIu64 "\n",
           size * done, delta, ns ? size * done * 1e3 / ns : 0.0, done, size);
    return 0;
}
