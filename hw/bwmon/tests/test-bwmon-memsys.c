/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the BWMON monitors on the modeled hierarchy
 * (bwmon-memsys.h): a CPU monitor (v4) and a memory monitor (v5) on the
 * ports of the MPAM MSCs (hw/virt/msc-memsys.h) with the DDR model behind
 * memory.  Expected byte counts come from the cache sizes below and the
 * hierarchy's policies (hw/memsys/hierarchy.h), or, for what reaches
 * memory, from the DDR model's own count.
 */
#include "cunit-run.h"
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <inttypes.h>
#include "../bwmon-memsys.h"
#include "../../virt/msc-memsys.h"

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
    bool scatter;           /* the guest's pages in reverse physical order */
} Fix;

/*
 * The vCPU's translation (memsys_cpu_set_translate): virtual pages at
 * STREAM_BASE map to the same physical page, or with f->scatter to the
 * pages of a 1 MiB region in reverse order, so that no page is followed
 * by the next physical one.
 */
#define STREAM_BASE     0x40000000ull
#define PAGE            4096ull
#define SCATTER_PAGES   256

static uint64_t fix_pa(const Fix *f, uint64_t va)
{
    uint64_t page = (va - STREAM_BASE) / PAGE;

    return !f->scatter ? va :
           STREAM_BASE + (SCATTER_PAGES - 1 - page % SCATTER_PAGES) * PAGE +
           page / SCATTER_PAGES * SCATTER_PAGES * PAGE + va % PAGE;
}

static bool fix_translate(void *opaque, uint64_t va, uint64_t *pa)
{
    *pa = fix_pa(opaque, va);
    return true;
}

static void rearm(void *opaque, Bwmon *m, uint64_t t_ps)
{
    Fix *f = opaque;

    CU_ASSERT_PTR_EQUAL(m, f->cpu_mon);
    f->rearms++;
    f->rearm_t = t_ps;
}

/*
 * With @effect (NULL: none) on the ports, as the platform puts it, and
 * timing @t (NULL: the defaults); @ddr: the DDR model behind memory, else
 * timing-mem-ns.
 */
static void fix_init_timing(Fix *f, OsmL3Effect *effect,
                            const MemsysTiming *t, bool ddr)
{
    MpamMscConfig cfg;
    MemsysPorts inner, ports;
    MemsysTiming dt;
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
    inner = memsys_mpam_ports(f->l3, f->mem, ddr ? f->ddr : NULL);
    ports = bwmon_tap_ports(&f->tap, &inner, f->cpu_mon, f->mem_mon, rearm,
                            f);
    if (effect) {
        osm_l3_effect_ports(effect, &ports);
    }
    memsys_timing_default(&dt);
    f->m = memsys_new(&topo, t ? t : &dt, &ports, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(f->m);
    f->cpu = memsys_cpu_new(f->m, 0);
    memsys_cpu_set_translate(f->cpu, fix_translate, f);
}

static void fix_init_effect(Fix *f, OsmL3Effect *effect)
{
    fix_init_timing(f, effect, NULL, true);
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

/* Both providers with the sdm845 LUT (*cfg) and their default effect. */
static void providers_new(OsmL3Config *cfg, OsmL3 **l3, OsmL3 **mem,
                          OsmL3Effect *e)
{
    char *why;

    osm_l3_config_default(cfg);
    *l3 = osm_l3_new(cfg, &why);
    *mem = osm_l3_new(cfg, &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*l3);
    CU_ASSERT_PTR_NOT_NULL_FATAL(*mem);
    osm_l3_effect_default(e, *l3, *mem);
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

    providers_new(&cfg, &l3, &mem, &e);
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

/*
 * The streaming core (docs/memsys-model.md, "Streaming"; docs/bwmon-model.md,
 * "The port"): a prefetcher 32 lines ahead (half the L1D), a store buffer
 * of 8 lines, ports of 20 bytes per L3 clock, memory at timing-mem-ns 40
 * without a DDR model, so that at every row of the LUT 32 lines on the
 * port take longer than a line's latency: the port, not the latency, sets
 * a stream's pace.  The test's core spends STREAM_CORE_FS per line besides
 * its accesses' stalls.
 */
#define STREAM_PREFETCH     32
#define STREAM_MEM_NS       40
#define STREAM_PORT_BYTES   20
#define STREAM_STORE_LINES  8
#define STREAM_CORE_FS      500000ull
#define STREAM_LINES        16384       /* 16 x the L3: from memory */
#define STREAM_FROM         1024        /* past the start and a full L2 */

static void stream_timing(MemsysTiming *t, uint32_t prefetch)
{
    memsys_timing_default(t);
    t->mem_ns = STREAM_MEM_NS;
    t->prefetch_lines = prefetch;
    t->store_lines = STREAM_STORE_LINES;
}

/* What a walk's accesses found: prefetcher's lines, misses, port crossings. */
typedef struct Walk {
    uint64_t prefetched;    /* lines the prefetcher fetched, any level */
    uint64_t misses;        /* accesses the L1D did not serve */
    uint64_t crossed;       /* lines from the L3 or beyond, either way */
} Walk;

/*
 * @n accesses of @kind, @stride bytes apart, in order (@seq) or in a
 * permutation, on the test's core; the femtoseconds per access from access
 * STREAM_FROM on, and what they found in *@w (may be NULL).
 */
static uint64_t walk_period_fs(Fix *f, uint8_t kind, uint64_t n,
                               uint64_t stride, bool seq, Walk *w)
{
    uint64_t t_fs = 0, t_from = 0;
    Walk sink;

    w = w ? w : &sink;
    memset(w, 0, sizeof(*w));
    for (uint64_t i = 0; i < n; i++) {
        uint64_t va = STREAM_BASE + (seq ? i : i * 2654435761u % n) * stride;
        MemReq req = { .addr = fix_pa(f, va), .va = va, .size = 8,
                       .kind = kind, .label = { 3, 0 }, .src = 0,
                       .t_ps = t_fs / 1000 };
        MemsysOutcome out;

        if (i == STREAM_FROM) {
            t_from = t_fs;
        }
        memsys_cpu_access(f->m, f->cpu, &req, &out);
        for (unsigned l = MEMSYS_L2; l <= MEMSYS_MEM; l++) {
            w->prefetched += out.prefetched[l];
            w->crossed += l > MEMSYS_L2 ? out.prefetched[l] : 0;
        }
        w->misses += out.level > MEMSYS_L1;
        w->crossed += out.level > MEMSYS_L2;
        t_fs += out.stall_fs + STREAM_CORE_FS;
    }
    return (t_fs - t_from) / (n - STREAM_FROM);
}

/* One access of @kind per line over STREAM_LINES lines (walk_period_fs). */
static uint64_t stream_period_fs(Fix *f, uint8_t kind, bool seq)
{
    return walk_period_fs(f, kind, STREAM_LINES, LINE, seq, NULL);
}

/*
 * At every row of the CPU path's LUT a sequential read stream moves one
 * line per port time (64 bytes at 20 bytes per clock) within 0.1 %, a
 * write stream one line per two (its fill and its dirty victim's
 * write-back) within the lines prefetched and buffered over the span;
 * the CPU monitor counts every line the stream and its prefetches took.
 * Without the port the core sets the pace, without the prefetcher the
 * latency, and a random stream is not prefetched; without a store buffer
 * depth (timing-store-lines 0) stores never stall.
 */
static void test_stream(void)
{
    OsmL3Config cfg;
    OsmL3 *l3, *mem;
    OsmL3Effect e;
    MemsysTiming t;
    uint64_t line_fs;

    providers_new(&cfg, &l3, &mem, &e);
    e.port_bytes = STREAM_PORT_BYTES;
    stream_timing(&t, STREAM_PREFETCH);
    printf("\n");
    for (unsigned row = 0; row < cfg.n_rows; row++) {
        uint64_t hz = osm_l3_lut_hz(&cfg, cfg.lut[row]), period[2];

        line_fs = (uint64_t)(LINE * 1e15 / (STREAM_PORT_BYTES * hz) + 0.5);

        osm_l3_pin(l3, row);
        osm_l3_pin(mem, row);
        for (unsigned k = 0; k < 2; k++) {
            Fix f;

            fix_init_timing(&f, &e, &t, false);
            period[k] = stream_period_fs(&f, k ? MEMREQ_WRITE : MEMREQ_READ,
                                         true);
            if (!k) {
                /* every line once, and the prefetches past the end */
                CU_ASSERT_EQUAL(counted(f.cpu_mon),
                                (STREAM_LINES + STREAM_PREFETCH) * LINE);
            }
            fix_fini(&f);
        }
        CU_ASSERT_EQUAL(osm_l3_effect_port_fs(&e), line_fs);
        CU_ASSERT_TRUE(period[0] * 1000 >= line_fs * 999 &&
                       period[0] * 1000 <= line_fs * 1001);
        /*
         * Stores into lines already there do not wait: the ends of the
         * span may differ by up to the lines prefetched and buffered.
         */
        CU_ASSERT_TRUE(fabs(period[1] / (2.0 * line_fs) - 1) <=
                       (double)(STREAM_PREFETCH + STREAM_STORE_LINES) /
                       (STREAM_LINES - STREAM_FROM));
        printf("%7.1f MHz: port %.3f GB/s, reads %.3f GB/s, writes %.3f "
               "GB/s\n", hz / 1e6, LINE * 1e6 / line_fs,
               LINE * 1e6 / period[0], LINE * 1e6 / period[1]);
    }
    /* Switched off, each part: at the lowest row (a 10.667 ns line). */
    osm_l3_pin(l3, 0);
    osm_l3_pin(mem, 0);
    line_fs = osm_l3_effect_port_fs(&e);
    for (unsigned off = 0; off < 3; off++) {
        uint64_t period;
        Fix f;

        e.port_bytes = off == 0 ? 0 : STREAM_PORT_BYTES;
        stream_timing(&t, off == 1 ? 0 : STREAM_PREFETCH);
        fix_init_timing(&f, &e, &t, false);
        period = stream_period_fs(&f, MEMREQ_READ, off != 2);
        if (off == 0) {
            /* no port: the core's pace, far above the port's */
            CU_ASSERT_TRUE(period < line_fs / 2);
        } else {
            /* no prefetcher, or a random stream: one latency per line */
            CU_ASSERT_TRUE(period > memsys_level_fs(&t, MEMSYS_MEM));
            CU_ASSERT_EQUAL(counted(f.cpu_mon), STREAM_LINES * LINE);
        }
        printf("%s: %.3f ns per line\n",
               (const char *[]){ "no port", "no prefetcher",
                                 "random" }[off], period / 1e6);
        fix_fini(&f);
    }
    {
        /* timing-store-lines 0: a write stream never stalls */
        Fix f;

        e.port_bytes = STREAM_PORT_BYTES;
        stream_timing(&t, STREAM_PREFETCH);
        t.store_lines = 0;
        fix_init_timing(&f, &e, &t, false);
        CU_ASSERT_EQUAL(stream_period_fs(&f, MEMREQ_WRITE, true),
                        STREAM_CORE_FS);
        fix_fini(&f);
    }
    osm_l3_free(l3);
    osm_l3_free(mem);
}

/*
 * One read of virtual line @line at *t_fs on the test's core; its level,
 * and its outcome in *@o (may be NULL).
 */
static unsigned stream_read(Fix *f, uint64_t line, uint64_t *t_fs,
                            MemsysOutcome *o)
{
    uint64_t va = STREAM_BASE + line * LINE;
    MemReq req = { .addr = fix_pa(f, va), .va = va, .size = 8,
                   .kind = MEMREQ_READ, .label = { 3, 0 }, .src = 0,
                   .t_ps = *t_fs / 1000 };
    MemsysOutcome out;

    o = o ? o : &out;
    memsys_cpu_access(f->m, f->cpu, &req, o);
    *t_fs += o->stall_fs + STREAM_CORE_FS;
    return o->level;
}

/*
 * The prefetcher's rule (docs/memsys-model.md, "Streaming"): two L1D
 * misses on adjacent lines, as random accesses make now and then, start
 * no stream; a third on the next line confirms it, and the stream then
 * keeps STREAM_PREFETCH lines ahead.  It follows virtual lines: over
 * pages that no physical page follows (f->scatter) every line of a
 * confirmed stream is prefetched, the first of each page too, and the
 * port carries nothing but the stream and the lines ahead of its end.
 * Without a translation a stream stops at each page's end and goes on
 * at the next page's first line, which misses.
 */
static void test_stream_rule(void)
{
    const uint64_t pages = 4, lines = pages * PAGE / LINE;
    MemsysTiming t;
    uint64_t t_fs = 0;
    Fix f;

    stream_timing(&t, STREAM_PREFETCH);
    for (unsigned scatter = 0; scatter < 2; scatter++) {
        fix_init_timing(&f, NULL, &t, false);
        f.scatter = scatter;
        /* a random miss, then two adjacent ones: nothing prefetched */
        CU_ASSERT_NOT_EQUAL(stream_read(&f, 1000, &t_fs, NULL), MEMSYS_L1);
        CU_ASSERT_NOT_EQUAL(stream_read(&f, 100, &t_fs, NULL), MEMSYS_L1);
        CU_ASSERT_NOT_EQUAL(stream_read(&f, 101, &t_fs, NULL), MEMSYS_L1);
        CU_ASSERT_EQUAL(counted(f.cpu_mon), 3 * LINE);
        /* the third consecutive miss confirms the stream */
        CU_ASSERT_NOT_EQUAL(stream_read(&f, 102, &t_fs, NULL), MEMSYS_L1);
        CU_ASSERT_EQUAL(counted(f.cpu_mon), (4 + STREAM_PREFETCH) * LINE);
        for (uint64_t l = 103; l < 103 + 2 * STREAM_PREFETCH; l++) {
            CU_ASSERT_EQUAL(stream_read(&f, l, &t_fs, NULL), MEMSYS_L1);
        }
        fix_fini(&f);

        /* a stream over pages, from a page's first line */
        fix_init_timing(&f, NULL, &t, false);
        f.scatter = scatter;
        for (uint64_t l = 0; l < lines; l++) {
            unsigned level = stream_read(&f, l, &t_fs, NULL);

            CU_ASSERT_TRUE(l < 3 ? level != MEMSYS_L1 : level == MEMSYS_L1);
        }
        CU_ASSERT_EQUAL(counted(f.cpu_mon), (lines + STREAM_PREFETCH) * LINE);
        fix_fini(&f);

        /* no translation: each page's first line misses, nothing past it */
        fix_init_timing(&f, NULL, &t, false);
        f.scatter = scatter;
        memsys_cpu_set_translate(f.cpu, NULL, NULL);
        for (uint64_t l = 0; l < lines; l++) {
            unsigned level = stream_read(&f, l, &t_fs, NULL);

            CU_ASSERT_TRUE(l < 3 || l % (PAGE / LINE) == 0 ?
                           level != MEMSYS_L1 : level == MEMSYS_L1);
        }
        CU_ASSERT_EQUAL(counted(f.cpu_mon), lines * LINE);
        fix_fini(&f);
    }
}

/*
 * A slot whose line is still in flight is not taken: a second stream
 * confirmed at the moment a first was, whose 32 lines ahead are all in flight in
 * the same slots (virtual lines 1024 apart share slot line % 32), skips
 * all 32 of its own; the first stream's lines keep their slots, so its
 * next read waits for its line and is no miss.
 */
static void test_stream_busy(void)
{
    MemsysTiming t;
    MemsysOutcome o;
    uint64_t t_fs = 0;
    Fix f;

    stream_timing(&t, STREAM_PREFETCH);
    fix_init_timing(&f, NULL, &t, false);
    /* every read at one moment: the first stream's lines stay in flight */
    for (uint64_t l = 0; l < 3; l++) {
        uint64_t at = t_fs;

        stream_read(&f, l, &at, &o);
    }
    CU_ASSERT_EQUAL(o.prefetched[MEMSYS_MEM], STREAM_PREFETCH);
    for (uint64_t l = 1024; l < 1027; l++) {
        uint64_t at = t_fs;

        stream_read(&f, l, &at, &o);
    }
    CU_ASSERT_EQUAL(o.prefetched[0], STREAM_PREFETCH);
    CU_ASSERT_EQUAL(o.prefetched[MEMSYS_L3] + o.prefetched[MEMSYS_MEM], 0);
    CU_ASSERT_EQUAL(stream_read(&f, 3, &t_fs, &o), MEMSYS_L1);
    /* its data arrives a memory latency after that moment */
    CU_ASSERT_TRUE(o.stall_fs >= memsys_level_fs(&t, MEMSYS_MEM) -
                                 memsys_unit_fs(&t));
    fix_fini(&f);
}

/*
 * A fixed stride beyond a line (timing-prefetch-stride): the resctrl
 * selftests' fill_buf reads every 23rd half line (FILL_IDX_MULT), 736
 * bytes apart, so that a prefetcher of consecutive lines never starts.
 * Without timing-prefetch-stride every read misses and waits for memory.
 * With it 2048, the first three misses confirm a stream at 736 bytes, and
 * every later read finds its line prefetched (the slots go by stride, so
 * the 11- and 12-line steps never share one): every line reaches the L3
 * (the CPU monitor counts at least the reads'
 * lines and at most the lines ahead of the end more), each prefetched
 * line is reported by the level that served it (a PMU's prefetch fills:
 * those from the L3 or beyond, with the reads' own misses there, are all
 * the lines that crossed the port), and a read takes under a quarter of
 * the latency-bound time.  A stride one byte
 * past the limit is not followed.
 */
#define STRIDE_FILL_BUF     (23 * LINE / 2)
#define STRIDE_READS        4096
#define STRIDE_MAX          2048

static void test_stream_stride(void)
{
    MemsysTiming t;
    uint64_t bound, period;
    Walk w;
    Fix f;

    stream_timing(&t, STREAM_PREFETCH);
    for (unsigned scatter = 0; scatter < 2; scatter++) {
        t.prefetch_stride = 0;
        fix_init_timing(&f, NULL, &t, false);
        f.scatter = scatter;
        bound = walk_period_fs(&f, MEMREQ_READ, STRIDE_READS, STRIDE_FILL_BUF, true,
                               &w);
        CU_ASSERT_EQUAL(w.prefetched, 0);
        CU_ASSERT_EQUAL(w.misses, STRIDE_READS);
        CU_ASSERT_EQUAL(counted(f.cpu_mon), STRIDE_READS * LINE);
        CU_ASSERT_EQUAL(bound, memsys_level_fs(&t, MEMSYS_MEM) -
                               memsys_unit_fs(&t) + STREAM_CORE_FS);
        fix_fini(&f);

        t.prefetch_stride = STRIDE_MAX;
        fix_init_timing(&f, NULL, &t, false);
        f.scatter = scatter;
        period = walk_period_fs(&f, MEMREQ_READ, STRIDE_READS, STRIDE_FILL_BUF, true,
                               &w);
        CU_ASSERT_TRUE(period * 4 < bound);
        /* the three misses that confirm it; every later line in time */
        CU_ASSERT_EQUAL(w.misses, 3);
        CU_ASSERT_EQUAL(w.prefetched, STRIDE_READS - 3 + STREAM_PREFETCH);
        CU_ASSERT_EQUAL(w.crossed * LINE, counted(f.cpu_mon));
        CU_ASSERT_TRUE(counted(f.cpu_mon) >= STRIDE_READS * LINE);
        CU_ASSERT_TRUE(counted(f.cpu_mon) <=
                       (STRIDE_READS + STREAM_PREFETCH) * LINE);
        /* a line of its own after CUnit's "Test: ..." (tests/run-unit.sh) */
        printf("\n    stride %u, scatter %u: %.3f ns per read (latency-bound "
               "%.3f), %" PRIu64 " prefetched, %" PRIu64 " missed",
               STRIDE_FILL_BUF, scatter, period / 1e6, bound / 1e6,
               w.prefetched, w.misses);
        fix_fini(&f);

        fix_init_timing(&f, NULL, &t, false);
        f.scatter = scatter;
        walk_period_fs(&f, MEMREQ_READ, STRIDE_READS, STRIDE_MAX + 1, true, &w);
        CU_ASSERT_EQUAL(w.prefetched, 0);
        CU_ASSERT_EQUAL(counted(f.cpu_mon), STRIDE_READS * LINE);
        fix_fini(&f);
    }
    printf("\n");      /* CUnit's verdict on a line of its own */
}

/* Migration: a stride beyond timing-prefetch-stride is refused. */
static void test_stream_state(void)
{
    MemsysTiming t;
    uint32_t len;
    uint64_t *w;
    GError *err = NULL;
    Fix f;

    stream_timing(&t, 16);
    fix_init_timing(&f, NULL, &t, false);
    w = memsys_cpu_stream_state(f.cpu, &len);
    CU_ASSERT_EQUAL(len, MEMSYS_STREAM_WORDS(16));
    stream_period_fs(&f, MEMREQ_READ, true);
    CU_ASSERT_TRUE(memsys_cpu_post_load(f.cpu, NULL));
    /* the stride, the word before the slots: 736 with the limit 0 */
    w[MEMSYS_STREAM_WORDS(0) - 1] = STRIDE_FILL_BUF;
    CU_ASSERT_FALSE(memsys_cpu_post_load(f.cpu, &err));
    CU_ASSERT_PTR_NOT_NULL(err);
    g_clear_error(&err);
    fix_fini(&f);
    /* nothing to migrate without a streaming part */
    fix_init(&f);
    CU_ASSERT_PTR_NULL(memsys_cpu_stream_state(f.cpu, &len));
    CU_ASSERT_EQUAL(len, 0);
    fix_fini(&f);
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
        { "stream", test_stream },
        { "stream-rule", test_stream_rule },
        { "stream-busy", test_stream_busy },
        { "stream-stride", test_stream_stride },
        { "stream-state", test_stream_state },
    };

    return CUNIT_RUN("bwmon-memsys", tests);
}
