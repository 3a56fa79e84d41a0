/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the memory-bandwidth regulation of a memory MSC RIS
 * (hw/memsys/mbw.h, docs/mbw-regulation.md), programmed through the
 * MSC's registers as a guest does.  The resource is the DDR model's
 * default peak (ddr_config_peak_bytes_per_s: 8 x 4800 MT/s x 4 B =
 * 153.6 GB/s).  Expected values come from that, the register values and
 * the rules of the document, never from a run.
 */
#include "cunit-run.h"
#include <stdio.h>
#include <string.h>

#include "../msc-regs.h"
#include "../../ddr-qos/ddr-config.h"
#include "msc-test-util.h"

#define LINE 64
#define BWA_WD 8                    /* the memory RIS default */
#define US 1000000ull               /* ps */
#define WINWD_US(us) ((uint32_t)(us) << 8)

static uint64_t peak(void)
{
    DdrConfig d;

    ddr_config_default(&d);
    return ddr_config_peak_bytes_per_s(&d);
}

/* The hooks' context of the MSC under test (tc2: a second one). */
static TestCtx tc, tc2;

/* One memory RIS (the defaults: BWA_WD 8, 32 PBM portions, WINDWR). */
static MpamMsc *new_msc(TestCtx *t, uint64_t bytes_per_s)
{
    MpamMscConfig cfg;

    mpam_msc_config_default(&cfg);
    mpam_ris_config_default(&cfg.ris[0], MPAM_RIS_MEMORY);
    cfg.ris[0].mbw_bytes_per_s = bytes_per_s;
    return test_msc(t, &cfg);
}

/* Write control @reg of PARTID @partid, as the driver does. */
static void ctl(MpamMsc *m, unsigned partid, uint32_t reg, uint32_t v)
{
    wr(m, MPAMCFG_PART_SEL, partid);
    wr(m, reg, v);
}

/* resctrl's percent_to_mbw_max (guest-requirements.md §4.3). */
static uint32_t resctrl_mbw_max(unsigned pc)
{
    uint32_t v = ((pc << BWA_WD) + 50) / 100;

    return (MAX(v, 1) - 1) << (16 - BWA_WD);
}

/* ... and the fraction it reads back as: (v + 1) / 2^BWA_WD. */
static double mbw_max_frac(uint32_t max)
{
    return (double)((max >> (16 - BWA_WD)) + 1) / (1 << BWA_WD);
}

static MbwVerdict req(MpamMsc *m, unsigned partid, uint64_t t, uint32_t bytes)
{
    MemReq r = { .addr = 0x80000000, .size = bytes, .kind = MEMREQ_READ,
                 .label = { partid, 0 }, .t_ps = t };
    MbwVerdict v;

    mpam_msc_access_regulated(m, &r, &v);
    return v;
}

/*
 * A source of one line every @period ps that waits for each request to go
 * (as a core whose misses are limited by its MLP, here one at a time).
 */
typedef struct Stream {
    unsigned partid;
    uint64_t period;
    uint64_t t;             /* its next request */
    uint64_t bytes;         /* that went before the end */
    unsigned low, high;     /* verdicts with that preference */
} Stream;

/* Run @n streams, in time order, until @end_ps; returns nothing. */
static void run(MpamMsc *m, Stream *s, unsigned n, uint64_t end_ps)
{
    for (;;) {
        Stream *next = NULL;
        MbwVerdict v;

        for (unsigned i = 0; i < n; i++) {
            if (s[i].t < end_ps && (!next || s[i].t < next->t)) {
                next = &s[i];
            }
        }
        if (!next) {
            return;
        }
        v = req(m, next->partid, next->t, LINE);
        next->low += v.pref == MBW_PREF_LOW;
        next->high += v.pref == MBW_PREF_HIGH;
        if (next->t + v.delay_ps < end_ps) {
            next->bytes += LINE;
        }
        next->t += v.delay_ps + next->period;
    }
}

static double bw(const Stream *s, uint64_t end_ps)
{
    return (double)s->bytes * 1e12 / end_ps;
}

/* One line per period of the peak rounded up: just under the peak. */
static uint64_t peak_period(void)
{
    return (LINE * 1000000000000ull + peak() - 1) / peak();
}

#define WITHIN(x, want, rel) \
    CU_ASSERT((x) >= (want) * (1 - (rel)) && (x) <= (want) * (1 + (rel)))

/*
 * MB 25/50/75/100 % as resctrl writes MBW_MAX (BWA_WD 8), HARDLIM set: a
 * source asking twice the resource gets MAX of it, within 5 % over 50
 * windows of 10 us (in fact within a line per window); MB 100 % (all
 * ones) is the whole resource, so HARDLIM holds the source to it.
 */
static void test_mb_percent_hardlim(void)
{
    static const unsigned pcs[] = { 25, 50, 75, 100 };
    uint64_t end = 50 * 10 * US;
    double got[4];

    for (unsigned i = 0; i < 4; i++) {
        MpamMsc *m = new_msc(&tc, peak());
        uint32_t max = resctrl_mbw_max(pcs[i]);
        Stream s = { .partid = 1, .period = peak_period() / 2 };
        double want = mbw_max_frac(max) * peak();

        ctl(m, 1, MPAMCFG_MBW_WINWD, WINWD_US(10));
        ctl(m, 1, MPAMCFG_MBW_MAX, max | MPAMCFG_MBW_MAX_HARDLIM_MASK);
        CU_ASSERT_EQUAL(mpam_msc_read(m, MPAMCFG_MBW_MAX, 4),
                        max | MPAMCFG_MBW_MAX_HARDLIM_MASK);
        run(m, &s, 1, end);
        got[i] = bw(&s, end);
        printf("\n    MB %3u%%: MBW_MAX 0x%04x, %.2f GB/s (want %.2f)",
               pcs[i], max, got[i] / 1e9, want / 1e9);
        WITHIN(got[i], want, 0.05);
        mpam_msc_free(m);
    }
    printf("\n");      /* CUnit's verdict on a line of its own */
    for (unsigned i = 0; i < 4; i++) {
        WITHIN(got[i] / got[3], pcs[i] / 100.0, 0.05);
    }
}

/*
 * HARDLIM 0: alone, over its MAX, a PARTID goes on at LOW preference; with
 * a neighbour under its MAX active within its window it is held to MAX.
 */
static void test_softlim_contention(void)
{
    uint64_t end = 50 * 10 * US;
    uint32_t max = resctrl_mbw_max(25);
    double demand = LINE * 1e12 / peak_period();

    for (int with_neighbour = 0; with_neighbour < 2; with_neighbour++) {
        MpamMsc *m = new_msc(&tc, peak());
        Stream s[2] = {
            { .partid = 1, .period = peak_period() },
            /* reset controls: never over its MAX; one line a microsecond */
            { .partid = 2, .period = US },
        };

        ctl(m, 1, MPAMCFG_MBW_WINWD, WINWD_US(10));
        ctl(m, 1, MPAMCFG_MBW_MAX, max);
        run(m, s, 1 + with_neighbour, end);
        printf("\n    HARDLIM 0, %s: %.2f GB/s, %u LOW",
               with_neighbour ? "neighbour" : "alone", bw(&s[0], end) / 1e9,
               s[0].low);
        if (with_neighbour) {
            WITHIN(bw(&s[0], end), mbw_max_frac(max) * peak(), 0.05);
            CU_ASSERT_EQUAL(s[0].low, 0);
            /* the neighbour is not regulated at all */
            CU_ASSERT_EQUAL(s[1].bytes, end / US * LINE);
        } else {
            WITHIN(bw(&s[0], end), demand, 0.01);
            /* everything beyond MAX in each window went at LOW */
            WITHIN((double)s[0].low * LINE,
                   (1 - mbw_max_frac(max)) * demand * end / 1e12, 0.01);
        }
        mpam_msc_free(m);
    }
    printf("\n");      /* CUnit's verdict on a line of its own */
}

/* Window edges exactly where 256 x t / (WINWD x 10^6) crosses an integer. */
static void test_window_boundaries(void)
{
    uint32_t max = resctrl_mbw_max(25) | MPAMCFG_MBW_MAX_HARDLIM_MASK;
    /* 1 us window: 153600 B, of which 25 % is 38400 B = 600 lines */
    uint64_t cap_lines = peak() / 1000000 / 4 / LINE;
    MpamMsc *m = new_msc(&tc, peak());
    MbwReg *g;

    ctl(m, 1, MPAMCFG_MBW_WINWD, WINWD_US(1));
    ctl(m, 1, MPAMCFG_MBW_MAX, max);
    g = m->ris[0].mbw;
    CU_ASSERT_EQUAL(cap_lines, 600);
    CU_ASSERT_EQUAL(mbw_window_bytes(g, 1, 16384), 38400);
    for (uint64_t i = 0; i < cap_lines; i++) {
        CU_ASSERT_EQUAL(req(m, 1, 0, LINE).delay_ps, 0);
    }
    /* full: the last picosecond of window 0 waits one ps */
    CU_ASSERT_EQUAL(req(m, 1, US - 1, LINE).delay_ps, 1);
    /* ... and the first of window 1 was taken by it, not refused */
    CU_ASSERT_EQUAL(req(m, 1, US, LINE).delay_ps, 0);
    mpam_msc_free(m);

    /* WINWD 1 = 1/256 us = 3906.25 ps: windows start at 0, 3907, 7813 */
    m = new_msc(&tc, peak());
    ctl(m, 1, MPAMCFG_MBW_WINWD, 1);
    ctl(m, 1, MPAMCFG_MBW_MAX, max);
    g = m->ris[0].mbw;
    CU_ASSERT_EQUAL(mbw_window_start(g, 1, 1), 3907);
    CU_ASSERT_EQUAL(mbw_window_start(g, 1, 2), 7813);
    CU_ASSERT_EQUAL(mbw_window_start(g, 1, 4), 15625);
    /* 25 % of 600 B = 150 B: three lines (0, 64, 128 < 150) fit window 0 */
    CU_ASSERT_EQUAL(mbw_window_bytes(g, 1, 16384), 150);
    for (int i = 0; i < 3; i++) {
        CU_ASSERT_EQUAL(req(m, 1, 3906, LINE).delay_ps, 0);
    }
    /* 3906 is still window 0, so the fourth waits for 3907 */
    CU_ASSERT_EQUAL(req(m, 1, 3906, LINE).delay_ps, 1);
    /* window 1 starts at 192 - 150 = 42 carried: 42, 106 < 150 go */
    CU_ASSERT_EQUAL(req(m, 1, 3907, LINE).delay_ps, 0);
    /* 170: to window 2 at 7813 */
    CU_ASSERT_EQUAL(req(m, 1, 3907, LINE).delay_ps, 7813 - 3907);
    mpam_msc_free(m);
}

/*
 * MBW_MIN: while a PARTID's bytes in its window are below MIN its requests
 * are HIGH (docs: the DDR class escalation), MEDIUM after; each window
 * starts below again.  MIN above MAX counts as MAX.
 */
static void test_min_preference(void)
{
    MpamMsc *m = new_msc(&tc, peak());
    /* 4/256 of 1.536 MB per 10 us window: 24000 B = 375 lines */
    uint64_t min_lines = peak() / 100000 * 4 / 256 / LINE;
    uint32_t max25 = resctrl_mbw_max(25);
    unsigned high = 0;

    ctl(m, 1, MPAMCFG_MBW_WINWD, WINWD_US(10));
    ctl(m, 1, MPAMCFG_MBW_MIN, 4 << 8);
    CU_ASSERT_EQUAL(min_lines, 375);
    for (uint64_t i = 0; i < min_lines + 10; i++) {
        MbwVerdict v = req(m, 1, 5 * US, LINE);

        CU_ASSERT_EQUAL(v.delay_ps, 0);
        CU_ASSERT_EQUAL(v.pref, i < min_lines ? MBW_PREF_HIGH
                                              : MBW_PREF_MEDIUM);
    }
    CU_ASSERT_EQUAL(req(m, 1, 10 * US, LINE).pref, MBW_PREF_HIGH);
    /* MIN 0 (the reset) prefers nothing */
    CU_ASSERT_EQUAL(req(m, 2, 10 * US, LINE).pref, MBW_PREF_MEDIUM);

    /* MIN 50 % over a hard MAX 25 %: HIGH up to MAX, then held */
    ctl(m, 3, MPAMCFG_MBW_WINWD, WINWD_US(10));
    ctl(m, 3, MPAMCFG_MBW_MIN, 0x8000);
    ctl(m, 3, MPAMCFG_MBW_MAX, max25 | MPAMCFG_MBW_MAX_HARDLIM_MASK);
    for (;;) {
        MbwVerdict v = req(m, 3, 0, LINE);

        if (v.delay_ps) {
            CU_ASSERT_EQUAL(v.delay_ps, 10 * US);
            break;
        }
        CU_ASSERT_EQUAL(v.pref, MBW_PREF_HIGH);
        high++;
    }
    CU_ASSERT_EQUAL(high, peak() / 100000 / 4 / LINE);
    mpam_msc_free(m);
}

/*
 * MBW_PBM: a 32 us window in 32 portions of 1 us; a request outside the
 * portions its PBM allows waits for the next allowed one.
 */
static void test_pbm(void)
{
    MpamMsc *m = new_msc(&tc, peak());
    uint64_t end = 20 * 32 * US;
    Stream s = { .partid = 4, .period = peak_period() };

    for (unsigned p = 1; p <= 4; p++) {
        ctl(m, p, MPAMCFG_MBW_WINWD, WINWD_US(32));
    }
    ctl(m, 1, MPAMCFG_MBW_PBM, 0x0000FFFF);
    CU_ASSERT_EQUAL(req(m, 1, 3 * US, LINE).delay_ps, 0);
    CU_ASSERT_EQUAL(req(m, 1, 16 * US + US / 2, LINE).delay_ps,
                    32 * US - (16 * US + US / 2));
    ctl(m, 2, MPAMCFG_MBW_PBM, 1u << 5);
    CU_ASSERT_EQUAL(req(m, 2, 0, LINE).delay_ps, 5 * US);
    CU_ASSERT_EQUAL(req(m, 2, 5 * US + 1, LINE).delay_ps, 0);
    CU_ASSERT_EQUAL(req(m, 2, 6 * US, LINE).delay_ps, 31 * US);
    /* no portion: one request a window, never none (no hang) */
    ctl(m, 3, MPAMCFG_MBW_PBM, 0);
    CU_ASSERT_EQUAL(req(m, 3, US, LINE).delay_ps, 31 * US);
    CU_ASSERT_EQUAL(req(m, 3, US, LINE).delay_ps, 63 * US);
    /* 8 portions of 32: a stream at the peak moves a quarter of it */
    ctl(m, 4, MPAMCFG_MBW_PBM, 0xFF);
    run(m, &s, 1, end);
    WITHIN(bw(&s, end), LINE * 1e12 / peak_period() / 4, 0.01);
    mpam_msc_free(m);
}

/*
 * MBW_PROP: two PARTIDs with strides 1 and 3 (STRIDEM1 0 and 2) sharing
 * the resource get 3/4 and 1/4 of it; alone, PROP does not limit.
 */
static void test_prop(void)
{
    uint64_t end = 50 * 10 * US;
    double demand = LINE * 1e12 / peak_period();

    for (int both = 0; both < 2; both++) {
        MpamMsc *m = new_msc(&tc, peak());
        Stream s[2] = {
            { .partid = 1, .period = peak_period() },
            { .partid = 2, .period = peak_period() },
        };

        for (unsigned p = 1; p <= 2; p++) {
            ctl(m, p, MPAMCFG_MBW_WINWD, WINWD_US(10));
            ctl(m, p, MPAMCFG_MBW_PROP,
                MPAMCFG_MBW_PROP_EN_MASK | (p == 1 ? 0 : 2));
        }
        run(m, s, 1 + both, end);
        printf("\n    PROP %s: %.2f / %.2f GB/s", both ? "both" : "alone",
               bw(&s[0], end) / 1e9, bw(&s[1], end) / 1e9);
        if (both) {
            WITHIN(bw(&s[0], end), 0.75 * peak(), 0.05);
            WITHIN(bw(&s[1], end), 0.25 * peak(), 0.05);
        } else {
            WITHIN(bw(&s[0], end), demand, 0.01);
        }
        mpam_msc_free(m);
    }
    printf("\n");      /* CUnit's verdict on a line of its own */
}

/*
 * Bad programming: MBW_MAX 0 with HARDLIM is the smallest band (1/256),
 * not nothing; a zero window is 1/256 us; MIN all ones; a huge request;
 * requests out of time order.  Every verdict comes, none wraps.
 */
static void test_bad_values(void)
{
    MpamMsc *m = new_msc(&tc, peak());
    uint64_t end = 50 * 10 * US;
    Stream s = { .partid = 1, .period = peak_period() };
    MbwVerdict v;
    uint64_t t;

    ctl(m, 1, MPAMCFG_MBW_WINWD, WINWD_US(10));
    ctl(m, 1, MPAMCFG_MBW_MAX, MPAMCFG_MBW_MAX_HARDLIM_MASK);
    run(m, &s, 1, end);
    WITHIN(bw(&s, end), peak() / 256.0, 0.05);

    /* zero window and MAX 0: 2 B per 3906.25 ps window, a line per 32 */
    ctl(m, 2, MPAMCFG_MBW_WINWD, 0);
    ctl(m, 2, MPAMCFG_MBW_MAX, MPAMCFG_MBW_MAX_HARDLIM_MASK);
    CU_ASSERT_EQUAL(mbw_window_ps(m->ris[0].mbw, 2), 3906);
    CU_ASSERT_EQUAL(req(m, 2, 0, LINE).delay_ps, 0);
    /* 64 B counted against 2 B a window: next goes in window 32 */
    CU_ASSERT_EQUAL(req(m, 2, 0, LINE).delay_ps,
                    mbw_window_start(m->ris[0].mbw, 2, 32));

    /* MIN all ones, MAX no limit: preferred until 255/256, never held */
    ctl(m, 3, MPAMCFG_MBW_MIN, 0xFFFF);
    v = req(m, 3, 0, LINE);
    CU_ASSERT_EQUAL(v.delay_ps, 0);
    CU_ASSERT_EQUAL(v.pref, MBW_PREF_HIGH);

    /* 1 GiB at once at 25 %: it goes, the next waits for it to be paid */
    ctl(m, 4, MPAMCFG_MBW_WINWD, WINWD_US(10));
    ctl(m, 4, MPAMCFG_MBW_MAX,
        resctrl_mbw_max(25) | MPAMCFG_MBW_MAX_HARDLIM_MASK);
    CU_ASSERT_EQUAL(req(m, 4, 0, 1u << 30).delay_ps, 0);
    /*
     * R2: window k may take more once 2^30 - k x 384000 < 384000, i.e.
     * k > 2^30 / 384000 - 1 = 2795.2: window 2796
     */
    CU_ASSERT_EQUAL(req(m, 4, 0, LINE).delay_ps, 2796 * 10 * US);

    /* out of order: earlier than what was already counted, never < 0 */
    ctl(m, 5, MPAMCFG_MBW_WINWD, WINWD_US(1));
    ctl(m, 5, MPAMCFG_MBW_MAX,
        resctrl_mbw_max(25) | MPAMCFG_MBW_MAX_HARDLIM_MASK);
    t = 5 * US;
    for (int i = 0; i < 2000; i++) {
        v = req(m, 5, t - (i % 7) * 1000, LINE);
        CU_ASSERT(v.delay_ps < 10 * US);
    }
    mpam_msc_free(m);
}

/* Every control of PARTIDs 1..6 programmed (mixed_run). */
static void mixed_program(MpamMsc *m)
{
    ctl(m, 1, MPAMCFG_MBW_MAX, resctrl_mbw_max(30) |
                               MPAMCFG_MBW_MAX_HARDLIM_MASK);
    ctl(m, 2, MPAMCFG_MBW_MAX, resctrl_mbw_max(10));
    ctl(m, 3, MPAMCFG_MBW_MIN, 0x1000);
    ctl(m, 4, MPAMCFG_MBW_PBM, 0xF0F0F0F0);
    ctl(m, 5, MPAMCFG_MBW_PROP, MPAMCFG_MBW_PROP_EN_MASK | 3);
    ctl(m, 6, MPAMCFG_MBW_PROP, MPAMCFG_MBW_PROP_EN_MASK);
    for (unsigned p = 1; p <= 6; p++) {
        ctl(m, p, MPAMCFG_MBW_WINWD, WINWD_US(2) + p);
    }
}

/* @n random requests from *t on: their verdicts, hashed. */
static uint64_t mixed_requests(MpamMsc *m, GRand *r, uint64_t *t, int n)
{
    uint64_t h = 0;

    for (int i = 0; i < n; i++) {
        MbwVerdict v;

        *t += g_rand_int_range(r, 0, 200);
        v = req(m, g_rand_int_range(r, 0, 8), *t - g_rand_int_range(r, 0, 100),
                g_rand_int_range(r, 0, 8) ? LINE : g_rand_int_range(r, 1, 4096));
        h = (h ^ v.delay_ps ^ (uint64_t)v.pref << 60) * 0x100000001b3ull;
    }
    return h;
}

/* A mixed workload over every control: its verdicts, hashed. */
static uint64_t mixed_run(MpamMsc *m)
{
    GRand *r = g_rand_new_with_seed(0x4D4257);
    uint64_t t = 0, h;

    mixed_program(m);
    h = mixed_requests(m, r, &t, 200000);
    g_rand_free(r);
    return h;
}

static void test_determinism(void)
{
    MpamMsc *a = new_msc(&tc, peak()), *b = new_msc(&tc2, peak());
    uint64_t h = mixed_run(a);

    CU_ASSERT_EQUAL(mixed_run(b), h);
    mpam_msc_reset(a);
    CU_ASSERT_EQUAL(mixed_run(a), h);
    mpam_msc_free(a);
    mpam_msc_free(b);
}

/*
 * Migration: the controls (PARTID records) and the regulator's state words
 * copied to another MSC, then mpam_msc_post_load, as VMState does: the
 * rest of a mixed workload gets the same verdicts on both.  Without the
 * state words (controls only) they differ: the windows and counts matter.
 */
static void test_state_migrate(void)
{
    for (int with_state = 0; with_state < 2; with_state++) {
        MpamMsc *a = new_msc(&tc, peak()), *b = new_msc(&tc2, peak());
        MpamRisState *sa = &a->ris[0], *sb = &b->ris[0];
        GRand *ra = g_rand_new_with_seed(0x6D6967), *rb;
        uint64_t ta = 0, tb, ha, hb, ca = 0, cb = 0;

        mixed_program(a);
        mixed_requests(a, ra, &ta, 50000);
        CU_ASSERT_EQUAL(sb->n_mbw_state, sa->n_mbw_state);
        CU_ASSERT_EQUAL(sb->n_partid_words, sa->n_partid_words);
        memcpy(sb->partid_words, sa->partid_words, 4 * sa->n_partid_words);
        if (with_state) {
            memcpy(sb->mbw_state, sa->mbw_state, 8 * sa->n_mbw_state);
        }
        g_free(mpam_msc_post_load(b));
        /* the QOM property mbw-checksum says the same */
        CU_ASSERT_TRUE(mpam_msc_mbw_checksum(a, 0, &ca));
        CU_ASSERT_TRUE(mpam_msc_mbw_checksum(b, 0, &cb));
        CU_ASSERT_EQUAL(ca == cb, with_state);
        rb = g_rand_copy(ra);
        tb = ta;
        ha = mixed_requests(a, ra, &ta, 50000);
        hb = mixed_requests(b, rb, &tb, 50000);
        if (with_state) {
            CU_ASSERT_EQUAL(hb, ha);
        } else {
            CU_ASSERT_NOT_EQUAL(hb, ha);
        }
        g_rand_free(ra);
        g_rand_free(rb);
        mpam_msc_free(a);
        mpam_msc_free(b);
    }
}

/*
 * The host bandwidth policy over what Linux programs (MBW_MAX without
 * HARDLIM, MBW_MIN 0, MBW_PROP 0): HARDLIM holds a lone stream at MB 25 %
 * (without it, alone, it moves its whole demand); PROP strides 1 and 7
 * share the resource 7/8 : 1/8, and MIN 25 % keeps the stride-7 one at
 * 25 % while the other keeps its 7/8.  The guest reads back what it
 * wrote; the policy survives a reset; a bad policy is refused.
 */
static void test_host_policy(void)
{
    uint64_t end = 50 * 10 * US;
    uint32_t max = resctrl_mbw_max(25);
    double demand = LINE * 1e12 / peak_period();
    MpamMbwPolicy hard = { .hardlim = true };
    MpamMscConfig cfg;

    for (int round = 0; round < 3; round++) {
        MpamMsc *m = new_msc(&tc, peak());
        Stream s = { .partid = 1, .period = peak_period() };

        CU_ASSERT_TRUE(mpam_msc_set_mbw_policy(m, 0, 1, round ? &hard
                                               : &(MpamMbwPolicy){ 0 }));
        if (round == 2) {
            /* what a reset leaves: the policy, not the guest's MBW_MAX */
            ctl(m, 1, MPAMCFG_MBW_MAX, max);
            mpam_msc_reset(m);
        }
        ctl(m, 1, MPAMCFG_MBW_WINWD, WINWD_US(10));
        ctl(m, 1, MPAMCFG_MBW_MAX, max);
        CU_ASSERT_EQUAL(mpam_msc_read(m, MPAMCFG_MBW_MAX, 4), max);
        run(m, &s, 1, end);
        printf("\n    MB 25%%, policy %s: %.2f GB/s",
               round ? "HARDLIM" : "none", bw(&s, end) / 1e9);
        WITHIN(bw(&s, end), round ? mbw_max_frac(max) * peak() : demand, 0.05);
        mpam_msc_free(m);
    }
    for (int with_min = 0; with_min < 2; with_min++) {
        MpamMsc *m = new_msc(&tc, peak());
        Stream s[2] = {
            { .partid = 1, .period = peak_period() },
            { .partid = 2, .period = peak_period() },
        };
        MpamMbwPolicy hi = { .prop_stride = 1 };
        MpamMbwPolicy lo = { .prop_stride = 7, .has_min = with_min,
                             .min = 0x4000 };

        /* query-mpam lists a PARTID with a policy, not one cleared */
        CU_ASSERT_TRUE(mpam_msc_set_mbw_policy(m, 0, 3, &hard));
        CU_ASSERT_FALSE(mpam_msc_partid_is_reset(m, 0, 3));
        CU_ASSERT_TRUE(mpam_msc_set_mbw_policy(m, 0, 3, &(MpamMbwPolicy){ 0 }));
        CU_ASSERT_TRUE(mpam_msc_partid_is_reset(m, 0, 3));
        CU_ASSERT_TRUE(mpam_msc_set_mbw_policy(m, 0, 1, &hi));
        CU_ASSERT_TRUE(mpam_msc_set_mbw_policy(m, 0, 2, &lo));
        for (unsigned p = 1; p <= 2; p++) {
            ctl(m, p, MPAMCFG_MBW_WINWD, WINWD_US(10));
            CU_ASSERT_EQUAL(mpam_msc_read(m, MPAMCFG_MBW_PROP, 4), 0);
            CU_ASSERT_EQUAL(mpam_msc_read(m, MPAMCFG_MBW_MIN, 4), 0);
        }
        run(m, s, 2, end);
        printf("\n    PROP 1 : 7, MIN %s: %.2f / %.2f GB/s",
               with_min ? "25%" : "none", bw(&s[0], end) / 1e9,
               bw(&s[1], end) / 1e9);
        WITHIN(bw(&s[0], end), 7.0 / 8 * peak(), 0.05);
        WITHIN(bw(&s[1], end), (with_min ? 0.25 : 1.0 / 8) * peak(), 0.05);
        /* cleared: the guest's controls (reset) again, no limit */
        CU_ASSERT_TRUE(mpam_msc_set_mbw_policy(m, 0, 2, &(MpamMbwPolicy){ 0 }));
        CU_ASSERT_EQUAL(m->ris[0].mbw ? req(m, 2, end, 1u << 30).delay_ps : 1,
                        0);
        mpam_msc_free(m);
    }
    printf("\n");      /* CUnit's verdict on a line of its own */

    {
        MpamMsc *m = new_msc(&tc, peak());

        CU_ASSERT_FALSE(mpam_msc_set_mbw_policy(m, 0, 64, &hard));
        CU_ASSERT_FALSE(mpam_msc_set_mbw_policy(m, 1, 1, &hard));
        CU_ASSERT_FALSE(mpam_msc_set_mbw_policy(
            m, 0, 1, &(MpamMbwPolicy){ .prop_stride = 257 }));
        CU_ASSERT_TRUE(mpam_msc_set_mbw_policy(
            m, 0, 1, &(MpamMbwPolicy){ .prop_stride = 256 }));
        mpam_msc_free(m);
    }
    /* a cache RIS has no bandwidth controls */
    mpam_msc_config_default(&cfg);
    {
        MpamMsc *m = test_msc(&tc, &cfg);

        CU_ASSERT_FALSE(mpam_msc_set_mbw_policy(m, 0, 1, &hard));
        mpam_msc_free(m);
    }
}

/*
 * Reset controls regulate nothing: every verdict is {0, MEDIUM}, also
 * after programming and a reset.  Without mbw_bytes_per_s there is no
 * regulator, and a regulator on a cache RIS is refused.
 */
static void test_reset_unregulated(void)
{
    MpamMsc *m = new_msc(&tc, peak());
    MpamMscConfig cfg;
    g_autofree char *why = NULL;
    unsigned bad = 0;

    for (int round = 0; round < 2; round++) {
        for (int i = 0; i < 100000; i++) {
            MbwVerdict v = req(m, i % 64, (uint64_t)i * 10, i % 3 ? LINE : 4096);

            bad += v.delay_ps != 0 || v.pref != MBW_PREF_MEDIUM;
        }
        ctl(m, 0, MPAMCFG_MBW_MAX, MPAMCFG_MBW_MAX_HARDLIM_MASK);
        ctl(m, 0, MPAMCFG_MBW_MIN, 0xFF00);
        mpam_msc_reset(m);
    }
    CU_ASSERT_EQUAL(bad, 0);
    mpam_msc_free(m);

    m = new_msc(&tc, 0);
    CU_ASSERT_PTR_NULL(m->ris[0].mbw);
    CU_ASSERT_FALSE(mpam_msc_mbw_checksum(m, 0, &(uint64_t){ 0 }));
    ctl(m, 0, MPAMCFG_MBW_MAX, MPAMCFG_MBW_MAX_HARDLIM_MASK);
    CU_ASSERT_EQUAL(req(m, 0, 0, 1u << 30).delay_ps, 0);
    CU_ASSERT_EQUAL(req(m, 0, 0, LINE).delay_ps, 0);
    mpam_msc_free(m);

    mpam_msc_config_default(&cfg);
    cfg.ris[0].mbw_bytes_per_s = peak();
    why = mpam_msc_config_validate(&cfg);
    CU_ASSERT_PTR_NOT_NULL(why);
    CU_ASSERT(why && strstr(why, "needs a memory RIS"));
}

int main(void)
{
    static const CunitTest tests[] = {
        { "mb_percent_hardlim", test_mb_percent_hardlim },
        { "softlim_contention", test_softlim_contention },
        { "window_boundaries", test_window_boundaries },
        { "min_preference", test_min_preference },
        { "pbm", test_pbm },
        { "prop", test_prop },
        { "bad_values", test_bad_values },
        { "determinism", test_determinism },
        { "reset_unregulated", test_reset_unregulated },
        { "state_migrate", test_state_migrate },
        { "host_policy", test_host_policy },
    };

    return CUNIT_RUN("mbw", tests);
}
