/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Throughput of the modeled memory hierarchy: memsys_cpu_access through
 * L1D, L2, the L3 cache MSC and the memory MSC, at the platform defaults
 * (L1D/L1I 64 KiB 4-way, L2 1 MiB 8-way, L3 8 MiB 16-way, timing defaults),
 * with four MBWU monitors enabled on each MSC as resctrl leaves them.
 *   stream: one vCPU reads a region line by line, by default 64 MiB
 *           (every access misses every level: the design budget is 250
 *           host instructions per line, docs/timing-design.md §4); a
 *           smaller [bytes] streams from L1 (32 KiB), L2 (512 KiB) or the
 *           L3 (4 MiB) as bench.py's guest streams do
 *   random: uniformly random lines of a 16 MiB working set
 * Usage: bench-memsys [stream|random] [accesses] [bytes]; prints accesses
 * per second.  Not a test: docs/benchmarks.md records the numbers and commands.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../memsys/bench/bench-rand.h"

#include "../msc-memsys.h"
#include "../../mpam/msc-regs.h"

#define LINE 64

static const MemqosCacheTopo topo = {
    .l1d = { 64 << 10, 4, LINE },
    .l1i = { 64 << 10, 4, LINE },
    .l2 = { 1 << 20, 8, LINE },
    .l3 = { 8 << 20, 16, LINE },
};

/* Kept out of line so callgrind can count just this (--toggle-collect). */
static uint64_t __attribute__((noinline))
bench_run(Memsys *m, MemsysCpu *c, bool random, uint64_t n, uint64_t bytes)
{
    uint64_t x = BENCH_RAND_SEED, mem = 0;

    for (uint64_t i = 0; i < n; i++) {
        MemReq req = { .size = 8, .kind = MEMREQ_READ, .label = { 1, 0 } };
        MemsysOutcome out;
        uint64_t line;

        if (random) {
            line = bench_rand(&x) % (16 << 20) / LINE;
        } else {
            line = i % (bytes / LINE);
        }
        req.addr = 0x40000000 + line * LINE;
        memsys_cpu_access(m, c, &req, &out);
        mem += out.level == MEMSYS_MEM;
    }
    return mem;
}

static MpamMsc *msc(MpamRisKind kind)
{
    MpamMscConfig cfg;
    GError *err = NULL;
    MpamMsc *m;

    mpam_msc_config_default(&cfg);
    mpam_ris_config_default(&cfg.ris[0], kind);
    cfg.ris[0].cache_size = topo.l3.size;
    cfg.ris[0].cache_ways = topo.l3.ways;
    m = mpam_msc_new(&cfg, NULL, NULL, &err);
    if (!m) {
        fprintf(stderr, "%s\n", err->message);
        exit(1);
    }
    for (unsigned mon = 0; mon < 4; mon++) {
        mpam_msc_write(m, MSMON_CFG_MON_SEL, mon, 4);
        mpam_msc_write(m, MSMON_CFG_MBWU_FLT, mon, 4);
        mpam_msc_write(m, MSMON_CFG_MBWU_CTL, 0x80010042, 4);
    }
    return m;
}

int main(int argc, char **argv)
{
    bool random = argc > 1 && !strcmp(argv[1], "random");
    uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 20000000;
    uint64_t bytes = argc > 3 ? strtoull(argv[3], NULL, 0) : 64 << 20;
    MpamMsc *l3 = msc(MPAM_RIS_CACHE), *mem = msc(MPAM_RIS_MEMORY);
    MemsysPorts ports = memsys_mpam_ports(l3, mem, NULL);
    GError *err = NULL;
    MemsysTiming t;
    Memsys *m;
    MemsysCpu *c;
    gint64 t0;
    uint64_t misses;
    double s;

    if ((argc > 1 && strcmp(argv[1], "random") && strcmp(argv[1], "stream")) ||
        bytes < LINE) {
        fprintf(stderr, "usage: %s [stream|random] [accesses] [bytes]\n",
                argv[0]);
        return 2;
    }
    memsys_timing_default(&t);
    m = memsys_new(&topo, &t, &ports, &err);
    if (!m) {
        fprintf(stderr, "%s\n", err->message);
        return 1;
    }
    c = memsys_cpu_new(m, 0);
    t0 = g_get_monotonic_time();
    misses = bench_run(m, c, random, n, bytes);
    s = (g_get_monotonic_time() - t0) / 1e6;
    printf("%s: %" PRIu64 " accesses, %" PRIu64 " from memory, %.3f s, "
           "%.2f M accesses/s\n", random ? "random" : "stream", n, misses, s,
           n / s / 1e6);
    memsys_cpu_free(c);
    memsys_free(m);
    mpam_msc_free(l3);
    mpam_msc_free(mem);
    return 0;
}
