/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Linux icc-bwmon driver (drivers/soc/qcom/icc-bwmon.c, Linux 7.3)
 * replayed against the model: its regmap fields and regmap cache (reads
 * once, skips writes of an unchanged value, force-writes the write-only
 * registers), its probe / start / hard IRQ / IRQ thread sequences and its
 * OPP arithmetic, step for step as the driver does them, on traffic the
 * test feeds at modeled times.  Interrupts are delivered where the glue
 * would: at bwmon_next_change(), and only there.  Each variant runs the
 * same story: a medium stream (vote up at the first window), a low one
 * (vote down after 16 windows), idle (nothing), a stream above the top OPP
 * (vote to the top), idle again (vote down to the bottom).  Expected
 * votes and times come from the configured rates and the driver's
 * formulas; the sdm845 ones are also spelled out.
 */
#include "cunit-run.h"
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "../bwmon.h"

#define MS          1000000000ull       /* picoseconds */
#define CHUNK       (MS / 10)           /* traffic arrives every 100 us */
#define MSEC_PER_SEC 1000u
#define HW_TIMER_HZ 19200000u

/* ---- the driver's register fields (REG_FIELD) and regmap configs ---- */

enum {
    F_GLOBAL_IRQ_CLEAR, F_GLOBAL_IRQ_ENABLE,
    F_IRQ_STATUS, F_IRQ_CLEAR, F_IRQ_ENABLE, F_ENABLE, F_CLEAR,
    F_SAMPLE_WINDOW, F_THRESHOLD_HIGH, F_THRESHOLD_MED, F_THRESHOLD_LOW,
    F_ZONE_ACTIONS_ZONE0, F_ZONE_ACTIONS_ZONE1, F_ZONE_ACTIONS_ZONE2,
    F_ZONE_ACTIONS_ZONE3,
    F_THRESHOLD_COUNT_ZONE0, F_THRESHOLD_COUNT_ZONE1,
    F_THRESHOLD_COUNT_ZONE2, F_THRESHOLD_COUNT_ZONE3,
    F_ZONE0_MAX, F_ZONE1_MAX, F_ZONE2_MAX, F_ZONE3_MAX,
    F_NUM_FIELDS
};

typedef struct RegField {
    unsigned map;           /* 0: the monitor regmap, 1: the global one */
    uint32_t reg;
    unsigned lsb, msb;
} RegField;

#define V4_FIELDS                                                        \
    [F_IRQ_STATUS] = { 0, 0x100, 4, 7 },                                 \
    [F_IRQ_CLEAR] = { 0, 0x108, 4, 7 },                                  \
    [F_IRQ_ENABLE] = { 0, 0x10c, 4, 7 },                                 \
    [F_ENABLE] = { 0, 0x2a0, 0, 31 },                                    \
    [F_CLEAR] = { 0, 0x2a4, 0, 1 },                                      \
    [F_SAMPLE_WINDOW] = { 0, 0x2a8, 0, 23 },                             \
    [F_THRESHOLD_HIGH] = { 0, 0x2ac, 0, 11 },                            \
    [F_THRESHOLD_MED] = { 0, 0x2b0, 0, 11 },                             \
    [F_THRESHOLD_LOW] = { 0, 0x2b4, 0, 11 },                             \
    [F_ZONE_ACTIONS_ZONE0] = { 0, 0x2b8, 0, 7 },                         \
    [F_ZONE_ACTIONS_ZONE1] = { 0, 0x2b8, 8, 15 },                        \
    [F_ZONE_ACTIONS_ZONE2] = { 0, 0x2b8, 16, 23 },                       \
    [F_ZONE_ACTIONS_ZONE3] = { 0, 0x2b8, 24, 31 },                       \
    [F_THRESHOLD_COUNT_ZONE0] = { 0, 0x2bc, 0, 7 },                      \
    [F_THRESHOLD_COUNT_ZONE1] = { 0, 0x2bc, 8, 15 },                     \
    [F_THRESHOLD_COUNT_ZONE2] = { 0, 0x2bc, 16, 23 },                    \
    [F_THRESHOLD_COUNT_ZONE3] = { 0, 0x2bc, 24, 31 },                    \
    [F_ZONE0_MAX] = { 0, 0x2e0, 0, 11 },                                 \
    [F_ZONE1_MAX] = { 0, 0x2e4, 0, 11 },                                 \
    [F_ZONE2_MAX] = { 0, 0x2e8, 0, 11 },                                 \
    [F_ZONE3_MAX] = { 0, 0x2ec, 0, 11 }

static const RegField msm8998_fields[F_NUM_FIELDS] = {
    [F_GLOBAL_IRQ_CLEAR] = { 1, 0x108, 0, 0 },
    [F_GLOBAL_IRQ_ENABLE] = { 1, 0x10c, 0, 0 },
    V4_FIELDS,
};
static const RegField sdm845_fields[F_NUM_FIELDS] = {
    [F_GLOBAL_IRQ_CLEAR] = { 0, 0x108 - 0x100, 0, 0 },
    [F_GLOBAL_IRQ_ENABLE] = { 0, 0x10c - 0x100, 0, 0 },
    V4_FIELDS,
};
static const RegField v5_fields[F_NUM_FIELDS] = {
    [F_IRQ_STATUS] = { 0, 0x000, 0, 3 },
    [F_IRQ_CLEAR] = { 0, 0x008, 0, 3 },
    [F_IRQ_ENABLE] = { 0, 0x00c, 0, 3 },
    [F_ENABLE] = { 0, 0x010, 0, 31 },
    [F_CLEAR] = { 0, 0x014, 0, 1 },
    [F_SAMPLE_WINDOW] = { 0, 0x020, 0, 19 },
    [F_THRESHOLD_HIGH] = { 0, 0x024, 0, 11 },
    [F_THRESHOLD_MED] = { 0, 0x028, 0, 11 },
    [F_THRESHOLD_LOW] = { 0, 0x02c, 0, 11 },
    [F_ZONE_ACTIONS_ZONE0] = { 0, 0x030, 0, 7 },
    [F_ZONE_ACTIONS_ZONE1] = { 0, 0x030, 8, 15 },
    [F_ZONE_ACTIONS_ZONE2] = { 0, 0x030, 16, 23 },
    [F_ZONE_ACTIONS_ZONE3] = { 0, 0x030, 24, 31 },
    [F_THRESHOLD_COUNT_ZONE0] = { 0, 0x034, 0, 7 },
    [F_THRESHOLD_COUNT_ZONE1] = { 0, 0x034, 8, 15 },
    [F_THRESHOLD_COUNT_ZONE2] = { 0, 0x034, 16, 23 },
    [F_THRESHOLD_COUNT_ZONE3] = { 0, 0x034, 24, 31 },
    [F_ZONE0_MAX] = { 0, 0x044, 0, 11 },
    [F_ZONE1_MAX] = { 0, 0x048, 0, 11 },
    [F_ZONE2_MAX] = { 0, 0x04c, 0, 11 },
    [F_ZONE3_MAX] = { 0, 0x050, 0, 11 },
};

/* regmap_config: rd_table no_ranges (with reg_defaults 0), volatile. */
typedef struct MapCfg {
    uint32_t noread[3];
    unsigned n_noread;
    uint32_t vol_lo[2], vol_hi[2];
    unsigned n_vol;
} MapCfg;

static const MapCfg msm8998_map = { { 0x108, 0x2a4 }, 2,
                                    { 0x100, 0x2e0 }, { 0x100, 0x2ec }, 2 };
static const MapCfg msm8998_global_map = { { 0x108 }, 1, { 0 }, { 0 }, 0 };
static const MapCfg sdm845_map = { { 0x008, 0x108, 0x2a4 }, 3,
                                   { 0x100, 0x2e0 }, { 0x100, 0x2ec }, 2 };
static const MapCfg v5_map = { { 0x008, 0x014 }, 2,
                               { 0x000, 0x044 }, { 0x000, 0x050 }, 2 };

/* icc_bwmon_data, plus what the test needs: the model, OPPs, rates. */
typedef struct DrvData {
    const char *name;
    BwmonVariant variant;
    uint32_t unit_bytes;            /* the hardware's count unit */
    unsigned sample_ms, count_unit_kb;
    uint8_t zone1_thres_count, zone3_thres_count;
    bool has_global_irq, needs_force_clear;
    const RegField *fields;
    const MapCfg *maps[2];
    const uint32_t *opps;           /* opp-peak-kBps, ascending */
    unsigned n_opps;
    uint64_t mid_bps, low_bps, high_bps;    /* the story's rates, bytes/s */
} DrvData;

/* sdm845.dtsi cpu_bwmon_opp_table and llcc_bwmon_opp_table. */
static const uint32_t cpu_opps[] = {
    4800000, 9216000, 15052800, 20889600, 25497600,
};
static const uint32_t llcc_opps[] = {
    800000, 1804000, 3072000, 5412000, 7216000,
};

static const DrvData drv_data[] = {
    { "msm8998", BWMON_V4_MSM8998, 1 << 20, 4, 1024, 16, 1, true, false,
      msm8998_fields, { &msm8998_map, &msm8998_global_map },
      cpu_opps, G_N_ELEMENTS(cpu_opps), 10000000000ull, 1000000000ull,
      30000000000ull },
    { "sdm845-cpu", BWMON_V4_SDM845, 1 << 16, 4, 64, 16, 1, true, false,
      sdm845_fields, { &sdm845_map },
      cpu_opps, G_N_ELEMENTS(cpu_opps), 10000000000ull, 1000000000ull,
      30000000000ull },
    { "sdm845-llcc", BWMON_V5_LLCC, 1 << 20, 4, 1024, 16, 1, false, false,
      v5_fields, { &v5_map },
      llcc_opps, G_N_ELEMENTS(llcc_opps), 3000000000ull, 500000000ull,
      10000000000ull },
    /* sc7280-llcc: the v5 layout, 64 KiB units, NEEDS_FORCE_CLEAR. */
    { "sc7280-llcc", BWMON_V5_LLCC, 1 << 16, 4, 64, 16, 1, false, true,
      v5_fields, { &v5_map },
      llcc_opps, G_N_ELEMENTS(llcc_opps), 3000000000ull, 500000000ull,
      10000000000ull },
};

/* ---- a regmap (REGCACHE_MAPLE, disable_locking) over the model ---- */

#define MAP_WORDS   0x400

typedef struct Regmap {
    const MapCfg *cfg;
    BwmonRegion region;
    bool cached[MAP_WORDS];
    uint32_t cache[MAP_WORDS];
    unsigned hw_writes;
} Regmap;

typedef struct Drv {
    const DrvData *d;
    Bwmon *hw;
    uint64_t now;                   /* modeled time of the driver's accesses */
    Regmap maps[2];
    unsigned max_bw_kbps, min_bw_kbps, target_kbps, current_kbps;
    /* What the test observes. */
    unsigned irqs, irq_none, wasted_timers;
    uint64_t last_irq;
    unsigned votes;
    unsigned last_meas_kbps;
} Drv;

static bool readable(const Regmap *map, uint32_t reg)
{
    for (unsigned i = 0; i < map->cfg->n_noread; i++) {
        if (map->cfg->noread[i] == reg) {
            return false;
        }
    }
    return true;
}

static bool is_volatile(const Regmap *map, uint32_t reg)
{
    for (unsigned i = 0; i < map->cfg->n_vol; i++) {
        if (reg >= map->cfg->vol_lo[i] && reg <= map->cfg->vol_hi[i]) {
            return true;
        }
    }
    return false;
}

static void regmap_init(Regmap *map, const MapCfg *cfg, BwmonRegion region)
{
    memset(map, 0, sizeof(*map));
    map->cfg = cfg;
    map->region = region;
    for (unsigned i = 0; i < cfg->n_noread; i++) {
        map->cached[cfg->noread[i] / 4] = true;     /* reg_defaults: 0 */
    }
}

/* _regmap_read: the cache unless volatile, else the hardware (cached). */
static uint32_t regmap_read(Drv *drv, Regmap *map, uint32_t reg)
{
    BwmonErr err;
    uint32_t v;

    if (!is_volatile(map, reg) && map->cached[reg / 4]) {
        return map->cache[reg / 4];
    }
    CU_ASSERT_TRUE_FATAL(readable(map, reg));       /* -EIO otherwise */
    v = bwmon_read(drv->hw, map->region, reg, drv->now, &err);
    CU_ASSERT_EQUAL(err, BWMON_ERR_NONE);
    if (!is_volatile(map, reg)) {
        map->cached[reg / 4] = true;
        map->cache[reg / 4] = v;
    }
    return v;
}

/* _regmap_update_bits: read (cache), modify, write if changed or forced. */
static void regmap_update_bits(Drv *drv, Regmap *map, uint32_t reg,
                               uint32_t mask, uint32_t val, bool force)
{
    uint32_t orig = regmap_read(drv, map, reg);
    uint32_t tmp = (orig & ~mask) | (val & mask);

    if (force || tmp != orig) {
        if (!is_volatile(map, reg)) {
            map->cached[reg / 4] = true;
            map->cache[reg / 4] = tmp;
        }
        CU_ASSERT_EQUAL(bwmon_write(drv->hw, map->region, reg, tmp, drv->now),
                        BWMON_ERR_NONE);
        map->hw_writes++;
    }
}

static uint32_t field_mask(const RegField *f)
{
    return (uint32_t)(~0ull << f->lsb) & (uint32_t)(~0ull >> (63 - f->msb));
}

static Regmap *field_map(Drv *drv, unsigned f)
{
    return &drv->maps[drv->d->fields[f].map];
}

static void regmap_field_write_(Drv *drv, unsigned f, uint32_t val,
                                bool force)
{
    const RegField *rf = &drv->d->fields[f];

    regmap_update_bits(drv, field_map(drv, f), rf->reg, field_mask(rf),
                       val << rf->lsb, force);
}

static void regmap_field_write(Drv *drv, unsigned f, uint32_t val)
{
    regmap_field_write_(drv, f, val, false);
}

static void regmap_field_force_write(Drv *drv, unsigned f, uint32_t val)
{
    regmap_field_write_(drv, f, val, true);
}

static uint32_t regmap_field_read(Drv *drv, unsigned f)
{
    const RegField *rf = &drv->d->fields[f];

    return (regmap_read(drv, field_map(drv, f), rf->reg) & field_mask(rf))
        >> rf->lsb;
}

/* The cache never disagrees with the hardware it stands for. */
static void check_cache(Drv *drv)
{
    for (unsigned m = 0; m < (drv->d->maps[1] ? 2u : 1u); m++) {
        Regmap *map = &drv->maps[m];

        for (uint32_t w = 0; w < MAP_WORDS; w++) {
            if (map->cached[w] && readable(map, w * 4)) {
                CU_ASSERT_EQUAL(map->cache[w],
                                bwmon_read(drv->hw, map->region, w * 4,
                                           drv->now, NULL));
            }
        }
    }
}

/* ---- the OPP library: dev_pm_opp_find_bw_ceil / _floor ---- */

static bool find_bw_ceil(const DrvData *d, unsigned *bw)
{
    for (unsigned i = 0; i < d->n_opps; i++) {
        if (d->opps[i] >= *bw) {
            *bw = d->opps[i];
            return true;
        }
    }
    return false;                                   /* -ERANGE */
}

static bool find_bw_floor(const DrvData *d, unsigned *bw)
{
    for (unsigned i = d->n_opps; i-- > 0;) {
        if (d->opps[i] <= *bw) {
            *bw = d->opps[i];
            return true;
        }
    }
    return false;
}

static unsigned mult_frac(unsigned x, unsigned n, unsigned d)
{
    return (x / d) * n + ((x % d) * n) / d;
}

/* ---- icc-bwmon.c, step for step ---- */

#define BWMON_IRQ_ENABLE_MASK   ((1u << 1) | (1u << 3))

static void bwmon_clear_counters(Drv *drv, bool clear_all)
{
    regmap_field_force_write(drv, F_CLEAR, clear_all ? 0x3 : 0x1);
    if (drv->d->needs_force_clear) {
        regmap_field_force_write(drv, F_CLEAR, 0);
    }
}

static void bwmon_clear_irq(Drv *drv)
{
    regmap_field_force_write(drv, F_IRQ_CLEAR, BWMON_IRQ_ENABLE_MASK);
    if (drv->d->needs_force_clear) {
        regmap_field_force_write(drv, F_IRQ_CLEAR, 0);
    }
    if (drv->d->has_global_irq) {
        regmap_field_force_write(drv, F_GLOBAL_IRQ_CLEAR, 1);
    }
}

static void bwmon_disable(Drv *drv)
{
    if (drv->d->has_global_irq) {
        regmap_field_write(drv, F_GLOBAL_IRQ_ENABLE, 0);
    }
    regmap_field_write(drv, F_IRQ_ENABLE, 0);
    regmap_field_write(drv, F_ENABLE, 0);
}

static void bwmon_enable(Drv *drv, unsigned irq_enable)
{
    if (drv->d->has_global_irq) {
        regmap_field_write(drv, F_GLOBAL_IRQ_ENABLE, 1);
    }
    regmap_field_write(drv, F_IRQ_ENABLE, irq_enable);
    regmap_field_write(drv, F_ENABLE, 1);
}

static unsigned thres(const DrvData *d, unsigned kbps)
{
    return mult_frac(kbps / d->count_unit_kb, d->sample_ms, MSEC_PER_SEC);
}

static void bwmon_set_threshold(Drv *drv, unsigned f, unsigned kbps)
{
    regmap_field_write(drv, f, thres(drv->d, kbps));
}

static void bwmon_start(Drv *drv)
{
    const DrvData *d = drv->d;
    unsigned bw_low = 0;

    CU_ASSERT_TRUE(find_bw_ceil(d, &bw_low));
    bwmon_clear_counters(drv, true);
    regmap_field_write(drv, F_SAMPLE_WINDOW,
                       mult_frac(d->sample_ms, HW_TIMER_HZ, MSEC_PER_SEC));
    bwmon_set_threshold(drv, F_THRESHOLD_HIGH, bw_low);
    bwmon_set_threshold(drv, F_THRESHOLD_MED, bw_low);
    bwmon_set_threshold(drv, F_THRESHOLD_LOW, 0);
    regmap_field_write(drv, F_THRESHOLD_COUNT_ZONE0, 0xff);
    regmap_field_write(drv, F_THRESHOLD_COUNT_ZONE1, d->zone1_thres_count);
    regmap_field_write(drv, F_THRESHOLD_COUNT_ZONE2, 0xff);
    regmap_field_write(drv, F_THRESHOLD_COUNT_ZONE3, d->zone3_thres_count);
    regmap_field_write(drv, F_ZONE_ACTIONS_ZONE0, 0x01);
    regmap_field_write(drv, F_ZONE_ACTIONS_ZONE1, 0x09);
    regmap_field_write(drv, F_ZONE_ACTIONS_ZONE2, 0x25);
    regmap_field_write(drv, F_ZONE_ACTIONS_ZONE3, 0x95);
    bwmon_clear_irq(drv);
    bwmon_enable(drv, BWMON_IRQ_ENABLE_MASK);
}

/* The hard IRQ handler: false for IRQ_NONE. */
static bool bwmon_intr(Drv *drv)
{
    unsigned status = regmap_field_read(drv, F_IRQ_STATUS), max;
    int zone;

    status &= BWMON_IRQ_ENABLE_MASK;
    if (!status) {
        return false;
    }
    bwmon_disable(drv);
    zone = 31 - __builtin_clz(status);              /* get_bitmask_order - 1 */
    max = regmap_field_read(drv, F_ZONE0_MAX + zone);
    max += 1;
    max *= drv->d->count_unit_kb;
    drv->target_kbps = mult_frac(max, MSEC_PER_SEC, drv->d->sample_ms);
    return true;
}

static void bwmon_intr_thread(Drv *drv)
{
    const DrvData *d = drv->d;
    unsigned bw_kbps = drv->target_kbps, up_kbps, down_kbps, irq_enable;
    bool target_ok;

    drv->last_meas_kbps = drv->target_kbps;
    target_ok = find_bw_ceil(d, &bw_kbps) || find_bw_floor(d, &bw_kbps);
    CU_ASSERT_TRUE_FATAL(target_ok);
    drv->target_kbps = bw_kbps;
    bw_kbps--;
    down_kbps = find_bw_floor(d, &bw_kbps) ? bw_kbps : drv->target_kbps;
    up_kbps = drv->target_kbps + 1;
    if (drv->target_kbps >= drv->max_bw_kbps) {
        irq_enable = 1u << 1;
    } else if (drv->target_kbps <= drv->min_bw_kbps) {
        irq_enable = 1u << 3;
    } else {
        irq_enable = BWMON_IRQ_ENABLE_MASK;
    }
    bwmon_set_threshold(drv, F_THRESHOLD_HIGH, up_kbps);
    bwmon_set_threshold(drv, F_THRESHOLD_MED, down_kbps);
    bwmon_clear_counters(drv, false);
    bwmon_clear_irq(drv);
    bwmon_enable(drv, irq_enable);
    if (drv->target_kbps != drv->current_kbps) {
        drv->votes++;                               /* dev_pm_opp_set_opp */
        drv->current_kbps = drv->target_kbps;
    }
}

static void bwmon_probe(Drv *drv, const DrvData *d)
{
    memset(drv, 0, sizeof(*drv));
    drv->d = d;
    drv->hw = bwmon_new(d->variant, d->unit_bytes);
    regmap_init(&drv->maps[0], d->maps[0], BWMON_REGION_MONITOR);
    if (d->maps[1]) {
        regmap_init(&drv->maps[1], d->maps[1], BWMON_REGION_GLOBAL);
    }
    drv->max_bw_kbps = UINT32_MAX;
    CU_ASSERT_TRUE(find_bw_floor(d, &drv->max_bw_kbps));
    drv->min_bw_kbps = 0;
    CU_ASSERT_TRUE(find_bw_ceil(d, &drv->min_bw_kbps));
    bwmon_disable(drv);
    /* Reset values are 0: the regmap read them and skipped every write. */
    CU_ASSERT_EQUAL(drv->maps[0].hw_writes + drv->maps[1].hw_writes, 0);
    bwmon_start(drv);
    check_cache(drv);
}

/* ---- the glue's part: one timer at bwmon_next_change() ---- */

/* Deliver the interrupts due by @t, at the times the model names. */
static void run_until(Drv *drv, uint64_t t)
{
    uint64_t when;

    while ((when = bwmon_next_change(drv->hw)) <= t) {
        drv->now = when;
        bwmon_advance(drv->hw, when);
        if (!bwmon_irq(drv->hw)) {
            drv->wasted_timers++;
            continue;
        }
        /* A level interrupt, IRQF_ONESHOT: handler, then the thread. */
        if (!bwmon_intr(drv)) {
            drv->irq_none++;
            break;
        }
        bwmon_intr_thread(drv);
        check_cache(drv);
        drv->irqs++;
        drv->last_irq = when;
        CU_ASSERT_FALSE(bwmon_irq(drv->hw));
    }
}

/* @bps bytes per second from @t for @ms, in 100 us chunks, mid-chunk. */
static uint64_t stream(Drv *drv, uint64_t t, uint64_t bps, unsigned ms)
{
    for (unsigned k = 0; k < ms * 10; k++) {
        uint64_t at = t + k * CHUNK + CHUNK / 2;

        run_until(drv, at);
        if (bps) {
            bwmon_count(drv->hw, at, bps / 10000);
        }
    }
    run_until(drv, t + ms * MS);
    return t + ms * MS;
}

/* The vote the driver makes for a window carrying @bps (its formulas). */
static unsigned expected_vote(const DrvData *d, uint64_t bps)
{
    uint64_t units = bps * d->sample_ms / MSEC_PER_SEC / d->unit_bytes;
    unsigned kbps = MIN(units, BWMON_COUNT_MAX) + 1;
    bool ok;

    kbps = mult_frac(kbps * d->count_unit_kb, MSEC_PER_SEC, d->sample_ms);
    ok = find_bw_ceil(d, &kbps) || find_bw_floor(d, &kbps);
    g_assert(ok);
    return kbps;
}

static void story(const DrvData *d, unsigned *votes_out)
{
    uint64_t win = d->sample_ms * MS, t;
    Drv drv;

    bwmon_probe(&drv, d);
    /* What bwmon_start programmed, read back from the hardware. */
    CU_ASSERT_EQUAL(bwmon_peek(drv.hw, BWMON_SAMPLE_WINDOW), 76800);
    CU_ASSERT_EQUAL(bwmon_peek(drv.hw, BWMON_ZONE_ACTIONS), 0x95250901);
    CU_ASSERT_EQUAL(bwmon_peek(drv.hw, BWMON_THRESHOLD_COUNT), 0x01FF10FF);
    CU_ASSERT_EQUAL(bwmon_peek(drv.hw, BWMON_THRESHOLD_HIGH),
                    thres(d, d->opps[0]));
    CU_ASSERT_EQUAL(bwmon_peek(drv.hw, BWMON_IRQ_ENABLE),
                    BWMON_IRQ_ENABLE_MASK << bwmon_layout(drv.hw)->irq_shift);
    CU_ASSERT_EQUAL(bwmon_peek(drv.hw, BWMON_ENABLE), 1);

    /* A medium stream: zone 3 at the end of the first window. */
    t = stream(&drv, 0, d->mid_bps, 20);
    CU_ASSERT_EQUAL(drv.irqs, 1);
    CU_ASSERT_EQUAL(drv.last_irq, win);
    CU_ASSERT_EQUAL(drv.current_kbps, expected_vote(d, d->mid_bps));
    votes_out[0] = drv.current_kbps;
    /* It stays between the new thresholds: no more interrupts. */
    /* A low stream: zone 1, 16 windows after the drop. */
    t = stream(&drv, t, d->low_bps, 100);
    CU_ASSERT_EQUAL(drv.irqs, 2);
    CU_ASSERT_EQUAL(drv.last_irq, 20 * MS + 16 * win);
    CU_ASSERT_EQUAL(drv.current_kbps, expected_vote(d, d->low_bps));
    CU_ASSERT_EQUAL(drv.current_kbps, d->opps[0]);
    votes_out[1] = drv.current_kbps;
    /* Idle at the bottom: only zone 3 is enabled, nothing to time. */
    CU_ASSERT_EQUAL(bwmon_next_change(drv.hw), UINT64_MAX);
    t = stream(&drv, t, 0, 1000);
    CU_ASSERT_EQUAL(drv.irqs, 2);
    /* Above the top OPP: the top, at the first window. */
    t = stream(&drv, t, d->high_bps, 20);
    CU_ASSERT_EQUAL(drv.irqs, 3);
    CU_ASSERT_EQUAL(drv.last_irq, 1120 * MS + win);
    CU_ASSERT_EQUAL(drv.current_kbps, d->opps[d->n_opps - 1]);
    votes_out[2] = drv.current_kbps;
    /* Idle again: the idle windows are zone 1, the 16th brings it down. */
    stream(&drv, t, 0, 200);
    CU_ASSERT_EQUAL(drv.irqs, 4);
    CU_ASSERT_EQUAL(drv.last_irq, 1140 * MS + 16 * win);
    CU_ASSERT_EQUAL(drv.current_kbps, d->opps[0]);
    CU_ASSERT_EQUAL(drv.last_meas_kbps, 1 * d->count_unit_kb * 1000 / 4);
    votes_out[3] = drv.current_kbps;

    CU_ASSERT_EQUAL(drv.votes, 4);
    CU_ASSERT_EQUAL(drv.irq_none, 0);
    CU_ASSERT_EQUAL(drv.wasted_timers, 0);
    bwmon_free(drv.hw);
}

static void test_msm8998(void)
{
    unsigned v[4];

    story(&drv_data[0], v);
}

/*
 * sdm845 CPU (64 KiB units): 10 GB/s is 610 units a window, the driver
 * measures 611 * 64 * 1000 / 4 = 9776000 kBps and votes 15052800; 1 GB/s
 * (61 units) goes to the bottom, 30 GB/s to the top.
 */
static void test_sdm845_cpu(void)
{
    unsigned v[4];

    story(&drv_data[1], v);
    CU_ASSERT_EQUAL(v[0], 15052800);
    CU_ASSERT_EQUAL(v[1], 4800000);
    CU_ASSERT_EQUAL(v[2], 25497600);
    CU_ASSERT_EQUAL(v[3], 4800000);
}

/* sdm845 LLCC (1 MiB units): 3 GB/s is 11 units, 12 * 256000 = 3072000. */
static void test_sdm845_llcc(void)
{
    unsigned v[4];

    story(&drv_data[2], v);
    CU_ASSERT_EQUAL(v[0], 3072000);
    CU_ASSERT_EQUAL(v[2], 7216000);
}

/* sc7280 LLCC: its second writes of 0 to CLEAR and IRQ_CLEAR are no-ops. */
static void test_sc7280_llcc(void)
{
    unsigned v[4];

    story(&drv_data[3], v);
    CU_ASSERT_EQUAL(v[0], 3072000);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "msm8998", test_msm8998 },
        { "sdm845-cpu", test_sdm845_cpu },
        { "sdm845-llcc", test_sdm845_llcc },
        { "sc7280-llcc", test_sc7280_llcc },
    };

    return CUNIT_RUN("bwmon-driver", tests);
}
