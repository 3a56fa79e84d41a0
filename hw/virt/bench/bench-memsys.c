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
 *   load:   no vCPU: seed 000's background load (one agent of 948 misses
 *           in flight, random over 64 GiB, PARTID 2) through the L3 MSC,
 *           the memory MSC and the DDR model of the seed-000 preset for [accesses] modeled
 *           microseconds, advanced 1 us at a time as the vCPUs' clocks
 *           do; prints host ns per agent request (docs/benchmarks.md,
 *           "DRAM under load")
 * Usage: bench-memsys [stream|random|load] [accesses] [bytes]; prints
 * accesses per second.  Not a test: docs/benchmarks.md records the numbers and commands.
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

/* Kept out of line so callgrind can count just this (--toggle-collect). */
static void __attribute__((noinline))
bench_load_run(AgentSet *set, uint64_t us)
{
    for (uint64_t i = 1; i <= us; i++) {
        agents_advance(set, i * 1000000ull);
    }
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

/* The load mode: host ns per agent request. */
static int bench_load(MpamMsc *l3, MpamMsc *mem, uint64_t us)
{
    DdrConfig dcfg;
    DdrQos *ddr;
    MemsysPorts ports;
    MemsysAgentPort ap;
    AgentSet *set;
    MemsysTiming t;
    AgentConfig c = {
        .name = "load", .has_outstanding = true, .outstanding = 948,
        .footprint = 64ll << 30, .base = 1ull << 32, .pattern = AGENT_RANDOM,
        .seed = 1, .label = { 2, 0 },
    };
    uint64_t req;
    gint64 t0;
    double s;

    /* the seed-000 preset's DDR (scripts/presets.py) */
    ddr_config_default(&dcfg);
    dcfg.channels = 24;
    dcfg.frontend_ps = 31000;
    dcfg.trfc_ps = 410000;
    dcfg.vpr_timeout = 48;
    ddr = ddr_qos_new(&dcfg, NULL);
    ports = memsys_mpam_ports(l3, mem, ddr);
    memsys_timing_default(&t);
    set = memsys_mpam_agents_new(&ap, &ports,
                                 memsys_level_fs(&t, MEMSYS_L3) / 1000);
    if (agents_add(set, &c, NULL) < 0) {
        fprintf(stderr, "agent refused\n");
        return 1;
    }
    t0 = g_get_monotonic_time();
    bench_load_run(set, us);
    s = (g_get_monotonic_time() - t0) / 1e6;
    req = agents_stats(set, 0)->requests;
    printf("load: %" PRIu64 " us modeled, %" PRIu64 " requests, %.1f GB/s "
           "modeled, %.3f s, %.1f host ns per request\n", us, req,
           req * 64.0 / us / 1e3, s, s * 1e9 / req);
    agents_free(set);
    ddr_qos_free(ddr);
    return 0;
}

int main(int argc, char **argv)
{
    bool random = argc > 1 && !strcmp(argv[1], "random");
    bool load = argc > 1 && !strcmp(argv[1], "load");
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

    if ((argc > 1 && strcmp(argv[1], "random") && strcmp(argv[1], "stream") &&
         !load) || bytes < LINE) {
        fprintf(stderr, "usage: %s [stream|random|load] [accesses] [bytes]\n",
                argv[0]);
        return 2;
    }
    if (load) {
        int rc = bench_load(l3, mem, argc > 2 ? n : 200);

        mpam_msc_free(l3);
        mpam_msc_free(mem);
        return rc;
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
