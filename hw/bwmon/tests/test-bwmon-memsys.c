/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the BWMON monitors on the modeled hierarchy
 * (bwmon-memsys.h): a CPU monitor (v4) and a memory monitor (v5) on the
 * ports of the MPAM MSCs (hw/mpam/msc-memsys.h) with the DDR model behind
 * memory.  Expected byte counts come from the cache sizes below and the
 * hierarchy's policies (hw/memsys/hierarchy.h), or, for what reaches
 * memory, from the DDR model's own count.
 */
#include "cunit-run.h"
#include <stdio.h>
#include <string.h>

#include "../bwmon-memsys.h"
#include "../../mpam/msc-memsys.h"

#define LINE    64
#define MS      1000000000ull

/* L1D 4 KiB, L2 16 KiB (256 lines), L3 64 KiB: streams of a few L3s. */
static const MemqosCacheTopo topo = {
    .l1d = { 4096, 4, LINE },
    .l1i = { 4096, 4, LINE },
    .l2 = { 16384, 8, LINE },
    .l3 = { 65536, 16, LINE },
};

typedef struct Fix {
    MpamMsc *l3, *mem;
    DdrQos *ddr;
    Bwmon *cpu_mon, *mem_mon;
    BwmonTap tap;
    Memsys *m;
    MemsysCpu *cpu;
    unsigned rearms;
    uint64_t rearm_t;
} Fix;

static void rearm(void *opaque, Bwmon *m, uint64_t t_ps)
{
    Fix *f = opaque;

    CU_ASSERT_PTR_EQUAL(m, f->cpu_mon);
    f->rearms++;
    f->rearm_t = t_ps;
}

/* With @effect (NULL: none) on the ports, as the platform puts it. */
static void fix_init_effect(Fix *f, OsmL3Effect *effect)
{
    MpamMscConfig cfg;
    MemsysPorts inner, ports;
    MemsysTiming t;
    DdrConfig dcfg;
    GError *err = NULL;

    memset(f, 0, sizeof(*f));
    mpam_msc_config_default(&cfg);
    cfg.ris[0].cache_size = topo.l3.size;
    cfg.ris[0].cache_ways = topo.l3.ways;
    f->l3 = mpam_msc_new(&cfg, NULL, NULL, &err);
    mpam_msc_config_default(&cfg);
    mpam_ris_config_default(&cfg.ris[0], MPAM_RIS_MEMORY);
    f->mem = mpam_msc_new(&cfg, NULL, NULL, &err);
    ddr_config_default(&dcfg);
    f->ddr = ddr_qos_new(&dcfg, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->ddr);
    /* Both monitors count, with no window (SAMPLE_WINDOW 0). */
    f->cpu_mon = bwmon_new(BWMON_V4_SDM845, 0);
    f->mem_mon = bwmon_new(BWMON_V5_LLCC, 0);
    bwmon_write(f->cpu_mon, BWMON_REGION_MONITOR, 0x2A0, 1, 0);
    bwmon_write(f->mem_mon, BWMON_REGION_MONITOR, 0x010, 1, 0);
    inner = memsys_mpam_ports(f->l3, f->mem, f->ddr);
    ports = bwmon_tap_ports(&f->tap, &inner, f->cpu_mon, f->mem_mon, rearm,
                            f);
    if (effect) {
        osm_l3_effect_ports(effect, &ports);
    }
    memsys_timing_default(&t);
    f->m = memsys_new(&topo, &t, &ports, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->m);
    f->cpu = memsys_cpu_new(f->m, 0);
}

static void fix_init(Fix *f)
{
    fix_init_effect(f, NULL);
}

static void fix_fini(Fix *f)
{
    memsys_cpu_free(f->cpu);
    memsys_free(f->m);
    ddr_qos_free(f->ddr);
    mpam_msc_free(f->l3);
    mpam_msc_free(f->mem);
    bwmon_free(f->cpu_mon);
    bwmon_free(f->mem_mon);
}

/* One lap of 8-byte accesses of @kind, one per line, over @bytes. */
static void lap(Fix *f, uint64_t base, uint64_t bytes, uint8_t kind)
{
    for (uint64_t a = 0; a < bytes; a += LINE) {
        MemReq req = { .addr = base + a, .size = 8, .kind = kind,
                       .label = { 3, 0 }, .src = 0, .t_ps = a };
        MemsysOutcome out;

        memsys_cpu_access(f->m, f->cpu, &req, &out);
    }
}

static uint64_t counted(Bwmon *m)
{
    return bwmon_state(m)->bytes;
}

/* What the DDR model served: every byte that reached memory. */
static uint64_t ddr_bytes(Fix *f)
{
    const DdrStats *st;
    uint64_t n = 0;

    ddr_qos_drain(f->ddr);
    st = ddr_qos_stats(f->ddr);
    for (unsigned c = 0; c < DDR_N_CLASSES; c++) {
        n += st->cls[c].bytes;
    }
    return n;
}

/*
 * Reads: a cold stream of 4 x L3 misses everywhere (both monitors see
 * every line); a 32 KiB block (more than the L2, less than the L3) read
 * again is L2 misses for the CPU monitor and nothing for memory's.
 */
static void test_reads(void)
{
    Fix f;

    fix_init(&f);
    lap(&f, 0x40000000, 4 * 65536, MEMREQ_READ);
    CU_ASSERT_EQUAL(counted(f.cpu_mon), 4 * 65536);
    CU_ASSERT_EQUAL(counted(f.mem_mon), 4 * 65536);
    lap(&f, 0x50000000, 32768, MEMREQ_READ);
    CU_ASSERT_EQUAL(counted(f.cpu_mon), 4 * 65536 + 32768);
    CU_ASSERT_EQUAL(counted(f.mem_mon), 4 * 65536 + 32768);
    for (int i = 0; i < 3; i++) {
        lap(&f, 0x50000000, 32768, MEMREQ_READ);
    }
    CU_ASSERT_EQUAL(counted(f.cpu_mon), 4 * 65536 + 4 * 32768);
    CU_ASSERT_EQUAL(counted(f.mem_mon), 4 * 65536 + 32768);
    CU_ASSERT_EQUAL(counted(f.mem_mon), ddr_bytes(&f));
    fix_fini(&f);
}

/*
 * Writes (write-allocate): the CPU monitor sees each line's fill and,
 * for all but the 256 lines the private caches still hold dirty at the
 * end (the L2's size: the last 64 in L1D, the 192 before in L2), its
 * write-back.  Memory's sees what the DDR model served: fills and the L3's
 * dirty victims.
 */
static void test_writes(void)
{
    const uint64_t lines = 4 * 65536 / LINE;
    Fix f;

    fix_init(&f);
    lap(&f, 0x40000000, 4 * 65536, MEMREQ_WRITE);
    CU_ASSERT_EQUAL(counted(f.cpu_mon), (lines + lines - 256) * LINE);
    CU_ASSERT_EQUAL(counted(f.mem_mon), ddr_bytes(&f));
    CU_ASSERT(counted(f.mem_mon) > lines * LINE);
    fix_fini(&f);
}

/* DMA reaches memory: the memory monitor counts it, the CPU one not. */
static void test_dma(void)
{
    MemReq dma = { .addr = 0x60000000, .size = 4096, .kind = MEMREQ_WRITE,
                   .src = MEMREQ_SRC_DMA, .t_ps = 5 };
    Fix f;

    fix_init(&f);
    memsys_dma_access(f.m, &dma);
    dma.kind = MEMREQ_READ;
    memsys_dma_access(f.m, &dma);
    CU_ASSERT_EQUAL(counted(f.cpu_mon), 0);
    CU_ASSERT_EQUAL(counted(f.mem_mon), 8192);
    CU_ASSERT_EQUAL(ddr_bytes(&f), 8192);
    fix_fini(&f);
}

/*
 * The glue's timer: traffic that makes the CPU monitor's window reach
 * zone 3 (HIGH = 1 unit of 64 KiB, zone 3 enabled) moves its next change
 * to the window's end, once.
 */
static void test_rearm(void)
{
    Fix f;

    fix_init(&f);
    bwmon_write(f.cpu_mon, BWMON_REGION_MONITOR, 0x2A8, 76800, 0);
    bwmon_write(f.cpu_mon, BWMON_REGION_MONITOR, 0x2AC, 1, 0);
    bwmon_write(f.cpu_mon, BWMON_REGION_MONITOR, 0x2B0, 1, 0);
    bwmon_write(f.cpu_mon, BWMON_REGION_MONITOR, 0x2B8, 0x95250901, 0);
    bwmon_write(f.cpu_mon, BWMON_REGION_MONITOR, 0x2BC, 0x01FF10FF, 0);
    bwmon_write(f.cpu_mon, BWMON_REGION_MONITOR, 0x00C, 1, 0);
    bwmon_write(f.cpu_mon, BWMON_REGION_MONITOR, 0x10C, 0x80, 0);
    lap(&f, 0x40000000, 32768, MEMREQ_READ);
    CU_ASSERT_EQUAL(f.rearms, 0);                   /* half a unit */
    lap(&f, 0x40008000, 32768, MEMREQ_READ);
    CU_ASSERT_EQUAL(f.rearms, 1);
    CU_ASSERT_EQUAL(f.rearm_t, 4 * MS);
    lap(&f, 0x40010000, 32768, MEMREQ_READ);
    CU_ASSERT_EQUAL(f.rearms, 1);
    bwmon_advance(f.cpu_mon, 4 * MS);
    CU_ASSERT_TRUE(bwmon_irq(f.cpu_mon));
    fix_fini(&f);
}

/*
 * The platform gives background agents the ports behind the taps: the
 * wrapped ports keep the inner ports' agents (memsys_mpam_sync reaches
 * them through either), and the inner copy counts memory on the LLCC
 * monitor (mem_tap), not on the CPU monitor.
 */
static void test_agents(void)
{
    BwmonTap tap;
    Bwmon *cpu = bwmon_new(BWMON_V4_SDM845, 0);
    Bwmon *mem = bwmon_new(BWMON_V5_LLCC, 0);
    int agents;
    MemsysPorts inner = { .agents = &agents };
    MemsysPorts ports = bwmon_tap_ports(&tap, &inner, cpu, mem, rearm, NULL);

    CU_ASSERT_PTR_EQUAL(ports.agents, &agents);
    CU_ASSERT_PTR_EQUAL(tap.inner.agents, &agents);
    CU_ASSERT_PTR_NOT_NULL(tap.inner.mem_tap);
    CU_ASSERT_PTR_EQUAL(tap.inner.mem_tap_opaque, &tap);
    bwmon_free(cpu);
    bwmon_free(mem);
}

/* Read stalls of one lap, one access per line, summed, in fs. */
static uint64_t lap_stall_fs(Fix *f, uint64_t base, uint64_t bytes,
                             unsigned level, unsigned *n)
{
    uint64_t sum = 0;

    *n = 0;
    for (uint64_t a = 0; a < bytes; a += LINE) {
        MemReq req = { .addr = base + a, .size = 8, .kind = MEMREQ_READ,
                       .label = { 3, 0 }, .src = 0, .t_ps = a };
        MemsysOutcome out;

        memsys_cpu_access(f->m, f->cpu, &req, &out);
        if (out.level == level) {
            sum += out.stall_fs;
            (*n)++;
        }
    }
    return sum;
}

/* @cycles at @hz in femtoseconds, to the nearest (the test's own). */
static uint64_t cycles_fs(uint64_t cycles, uint64_t hz)
{
    return (uint64_t)(cycles * 1e15 / hz + 0.5);
}

/*
 * The effect of the providers' frequencies (OsmL3Effect, sdm845 defaults)
 * on the hierarchy: the same accesses at the same times, once with both
 * providers at their lowest row (300 MHz) and once pinned at the top.
 * At the top every latency is the timing model's configured one (the same
 * stalls as without the effect); at the lowest an L3 hit takes 16 L3
 * clocks at 300 MHz instead of at 1593.6 MHz longer, a line from memory
 * that and 16 memory-path clocks at 300 MHz instead of 480 MHz longer
 * (values from the LUT and the configured cycles); private-cache hits are
 * the same.
 */
static void test_effect(void)
{
    static const unsigned levels[] = { MEMSYS_L1, MEMSYS_L3, MEMSYS_MEM };
    uint64_t want[] = {
        0,
        cycles_fs(OSM_L3_EFFECT_L3_CYCLES, 300000000) -
        cycles_fs(OSM_L3_EFFECT_L3_CYCLES, 19200000ull * 83),
        cycles_fs(OSM_L3_EFFECT_L3_CYCLES, 300000000) -
        cycles_fs(OSM_L3_EFFECT_L3_CYCLES, 19200000ull * 83) +
        cycles_fs(OSM_L3_EFFECT_MEM_CYCLES, 300000000) -
        cycles_fs(OSM_L3_EFFECT_MEM_CYCLES, OSM_L3_EFFECT_MEM_FULL_HZ),
    };
    OsmL3Config cfg;
    OsmL3 *l3, *mem;
    OsmL3Effect e;
    char *why;

    osm_l3_config_default(&cfg);
    l3 = osm_l3_new(&cfg, &why);
    mem = osm_l3_new(&cfg, &why);
    osm_l3_effect_default(&e, l3, mem);
    /* 16 L3 clocks: 53.333 - 10.040 ns at the L3, 20 ns more from memory */
    CU_ASSERT_EQUAL(want[1], 43293172);
    CU_ASSERT_EQUAL(want[2] - want[1], 20000000);
    printf("\n");              /* CUnit's verdict comes on a line of its own */
    for (unsigned i = 0; i < G_N_ELEMENTS(levels); i++) {
        uint64_t stall[3];
        unsigned n[3];

        for (unsigned run = 0; run < 3; run++) {
            Fix f;

            osm_l3_pin(l3, run == 1 ? OSM_L3_PIN_TOP : 0);
            osm_l3_pin(mem, run == 1 ? OSM_L3_PIN_TOP : 0);
            fix_init_effect(&f, run == 2 ? NULL : &e);
            /* the lap: cold (memory), again (L3), small again (L1) */
            if (levels[i] == MEMSYS_L1) {
                lap(&f, 0x40000000, 2048, MEMREQ_READ);
            } else if (levels[i] == MEMSYS_L3) {
                lap(&f, 0x40000000, 32768, MEMREQ_READ);
                lap(&f, 0x48000000, 32768, MEMREQ_READ);   /* out of L2 */
            }
            stall[run] = lap_stall_fs(&f, 0x40000000,
                                      levels[i] == MEMSYS_L1 ? 2048 : 32768,
                                      levels[i], &n[run]);
            fix_fini(&f);
        }
        CU_ASSERT_TRUE(n[0] > 0);
        CU_ASSERT_EQUAL(n[0], n[1]);
        CU_ASSERT_EQUAL(n[1], n[2]);
        CU_ASSERT_EQUAL(stall[1], stall[2]);            /* top: no effect */
        CU_ASSERT_EQUAL(stall[0] - stall[1], n[0] * want[i]);
        printf("level %u: %u accesses, %.3f ns each at the top, +%.3f ns "
               "at the lowest row\n", levels[i], n[0],
               stall[1] / 1e6 / n[0], (stall[0] - stall[1]) / 1e6 / n[0]);
    }
    /* Either path alone, and none. */
    osm_l3_pin(l3, 0);
    osm_l3_pin(mem, 0);
    e.mem = NULL;
    CU_ASSERT_EQUAL(osm_l3_effect_fs(&e, MEMSYS_MEM), want[1]);
    CU_ASSERT_EQUAL(osm_l3_effect_fs(&e, MEMSYS_L2), 0);
    e.l3 = NULL;
    CU_ASSERT_EQUAL(osm_l3_effect_fs(&e, MEMSYS_MEM), 0);
    osm_l3_free(l3);
    osm_l3_free(mem);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "reads", test_reads },
        { "writes", test_writes },
        { "dma", test_dma },
        { "rearm", test_rearm },
        { "agents", test_agents },
        { "effect", test_effect },
    };

    return CUNIT_RUN("bwmon-memsys", tests);
}
