/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Random guest accesses and traffic against the BWMON and OSM L3 models
 * (10^6 operations per layout, ASan + UBSan): any offset (also unaligned
 * and outside the map), any value, traffic at times that jump and go
 * back.  Checked on every step, against rules, not recorded output:
 *   - registers: an RW register reads what was last written to it,
 *     masked; command registers and holes read 0; IRQ_STATUS has no bit
 *     outside its field, ZONE_MAX stays within 12 bits;
 *   - lazy time: a second monitor fed the same operations but also
 *     brought to every window end one by one ends in the same state, and
 *     its line changes exactly at the times bwmon_next_change() named.
 * Deterministic: a fixed seed per layout.
 */
#include "cunit-run.h"
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "../bwmon.h"
#include "../osm-l3.h"

#define OPS     1000000

/* A value for @id that makes windows short and zones and counts reachable. */
static uint32_t value_for(GRand *r, BwmonRegId id)
{
    if (g_rand_int_range(r, 0, 16) == 0) {
        return g_rand_int(r);                       /* anything */
    }
    switch (id) {
    case BWMON_SAMPLE_WINDOW:
        return g_rand_int_range(r, 0, 256);         /* 0 .. 13 us */
    case BWMON_THRESHOLD_HIGH:
    case BWMON_THRESHOLD_MED:
    case BWMON_THRESHOLD_LOW:
        return g_rand_int_range(r, 0, 40);
    case BWMON_THRESHOLD_COUNT:
        return g_rand_int(r) & 0x07070707;          /* counts 0..7 */
    case BWMON_ENABLE:
        return g_rand_int_range(r, 0, 4) != 0;
    default:
        return g_rand_int(r) & 0xFF;
    }
}

/* Bring @a to @t one window at a time; its line changes where predicted. */
static void step_to(Bwmon *a, uint64_t t, unsigned *changes)
{
    for (;;) {
        const BwmonState *st = bwmon_state(a);
        uint64_t len = bwmon_window_ps(a);
        uint64_t end = st->win_start_ps + len;
        uint64_t predicted = bwmon_next_change(a);
        bool line = bwmon_irq(a);

        if (!(bwmon_peek(a, BWMON_ENABLE) & 1) || !len || end > t ||
            end <= st->now_ps) {
            break;
        }
        bwmon_advance(a, end);
        if (bwmon_irq(a) != line) {
            CU_ASSERT_EQUAL(predicted, end);
            (*changes)++;
        } else {
            CU_ASSERT_NOT_EQUAL(predicted, end);
        }
    }
    /* Nothing can change between the last window end and @t. */
    CU_ASSERT(bwmon_next_change(a) > t || bwmon_state(a)->now_ps >= t);
}

static void fuzz_layout(BwmonVariant v, guint32 seed)
{
    const BwmonLayout *l = &bwmon_layouts[v];
    Bwmon *a = bwmon_new(v, 1024), *b = bwmon_new(v, 1024);
    uint32_t shadow[BWMON_N_REGS] = { 0 };
    GRand *r = g_rand_new_with_seed(seed);
    unsigned changes = 0, mismatches = 0;
    uint64_t t = 0, at;

    for (unsigned op = 0; op < OPS; op++) {
        unsigned kind = g_rand_int_range(r, 0, 10);
        BwmonRegion region = g_rand_int_range(r, 0, 8) ? BWMON_REGION_MONITOR
                                                       : BWMON_REGION_GLOBAL;
        BwmonRegId id = g_rand_int_range(r, 0, BWMON_N_REGS);
        const BwmonRegInfo *ri = &l->regs[id];
        uint32_t off;

        /* Time moves on by up to 20 us, now and then back by up to 1 us. */
        if (g_rand_int_range(r, 0, 32)) {
            t += g_rand_int_range(r, 0, 20000000);
        }
        if (ri->access != BWMON_ABSENT && g_rand_int_range(r, 0, 8)) {
            region = ri->region;
            off = ri->offset;
        } else {
            off = g_rand_int_range(r, 0, l->region_size[0] + 64);
            id = region < l->n_regions ? bwmon_reg_at(l, region, off)
                                       : BWMON_N_REGS;
            ri = id < BWMON_N_REGS ? &l->regs[id] : NULL;
        }
        /* Traffic now and then at an earlier time than the last access. */
        at = kind >= 4 && kind < 8 && !g_rand_int_range(r, 0, 16)
            ? t - MIN(t, 1000000) : t;
        step_to(a, at, &changes);
        if (kind < 4) {
            uint32_t val = value_for(r, id);

            bwmon_write(a, region, off, val, t);
            bwmon_write(b, region, off, val, t);
            if (ri && ri->access == BWMON_RW) {
                shadow[id] = val & ri->mask;
            }
        } else if (kind < 8) {
            uint64_t bytes = g_rand_int_range(r, 0, 8) * 1024;

            bwmon_count(a, at, bytes);
            bwmon_count(b, at, bytes);
        } else {
            BwmonErr err;
            uint32_t got = bwmon_read(b, region, off, t, &err);

            bwmon_read(a, region, off, t, NULL);
            if (!ri || ri->access == BWMON_WO) {
                CU_ASSERT_EQUAL(got, 0);
            } else if (ri->access == BWMON_RW) {
                CU_ASSERT_EQUAL(got, shadow[id]);
            } else {
                CU_ASSERT_EQUAL(got & ~ri->mask, 0);
            }
        }
        mismatches += memcmp(bwmon_state(a), bwmon_state(b),
                             sizeof(BwmonState)) != 0 ||
                      bwmon_irq(a) != bwmon_irq(b) ||
                      bwmon_next_change(a) != bwmon_next_change(b);
    }
    CU_ASSERT_EQUAL(mismatches, 0);
    /* The operations did exercise the line and the windows. */
    CU_ASSERT(changes > 100);
    CU_ASSERT(bwmon_state(b)->windows > 100000);
    printf("\n    %s: %u line changes, %" G_GUINT64_FORMAT " windows\n", l->name,
           changes, bwmon_state(b)->windows);
    g_rand_free(r);
    bwmon_free(a);
    bwmon_free(b);
}

static void test_v4_msm8998(void)
{
    fuzz_layout(BWMON_V4_MSM8998, 8998);
}

static void test_v4_sdm845(void)
{
    fuzz_layout(BWMON_V4_SDM845, 845);
}

static void test_v5_llcc(void)
{
    fuzz_layout(BWMON_V5_LLCC, 5);
}

/* OSM L3: any access; the row stays in the table, the LUT never changes. */
static void test_osm_l3(void)
{
    GRand *r = g_rand_new_with_seed(3);
    OsmL3Config cfg;
    OsmL3Err err;
    char *why;
    OsmL3 *o;

    osm_l3_config_default(&cfg);
    o = osm_l3_new(&cfg, &why);
    for (unsigned op = 0; op < OPS; op++) {
        uint32_t off = g_rand_int_range(r, 0, OSM_L3_MMIO_SIZE);
        uint32_t val = g_rand_int_range(r, 0, 2) ? (uint32_t)g_rand_int_range(r, 0, 20)
                                                 : g_rand_int(r);

        if (g_rand_int_range(r, 0, 4) == 0) {
            off = OSM_L3_REG_PERF_STATE;
        }
        osm_l3_write(o, off, val);
        CU_ASSERT(osm_l3_perf_state(o) < cfg.n_rows);
        if (off == OSM_L3_REG_PERF_STATE) {
            CU_ASSERT_EQUAL(osm_l3_perf_state(o), MIN(val, cfg.n_rows - 1));
        }
    }
    for (unsigned i = 0; i < OSM_L3_LUT_MAX; i++) {
        CU_ASSERT_EQUAL(osm_l3_read(o, OSM_L3_REG_FREQ_LUT + 32 * i, &err),
                        cfg.lut[MIN(i, cfg.n_rows - 1)]);
    }
    g_rand_free(r);
    osm_l3_free(o);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "v4-msm8998", test_v4_msm8998 },
        { "v4-sdm845", test_v4_sdm845 },
        { "v5-llcc", test_v5_llcc },
        { "osm-l3", test_osm_l3 },
    };

    return CUNIT_RUN("bwmon-fuzz", tests);
}
