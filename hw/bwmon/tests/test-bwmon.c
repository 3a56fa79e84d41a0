/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the BWMON monitor (bwmon.h): windows in modeled time,
 * counting in units, zones, zone actions and counters, THRESHOLD_COUNT,
 * ZONE_MAX, IRQ_STATUS and the level interrupt (with the v4 global latch),
 * CLEAR and clear-all, enable, the lazy next-change time and bad values.
 * Register offsets are the v4-sdm845 / v5 layouts' (bwmon-regs.h).
 */
#include "cunit-run.h"
#include <stdio.h>
#include <glib.h>

#include "../bwmon.h"

#define MS          1000000000ull       /* picoseconds */
#define WIN_4MS     76800u              /* 4 ms of 19.2 MHz ticks */
#define UNIT        (64u * 1024)        /* v4-sdm845 count unit */
/* The driver's ZONE_ACTIONS and THRESHOLD_COUNT (icc-bwmon.c). */
#define DRV_ACTIONS 0x95250901u
#define DRV_COUNTS  0x01FF10FFu

static uint32_t off(Bwmon *m, BwmonRegId id)
{
    return bwmon_layout(m)->regs[id].offset;
}

static void wr(Bwmon *m, BwmonRegId id, uint32_t v, uint64_t t)
{
    CU_ASSERT_EQUAL(bwmon_write(m, bwmon_layout(m)->regs[id].region,
                                off(m, id), v, t), BWMON_ERR_NONE);
}

static uint32_t rd(Bwmon *m, BwmonRegId id, uint64_t t)
{
    return bwmon_read(m, bwmon_layout(m)->regs[id].region, off(m, id), t,
                      NULL);
}

/* IRQ_STATUS/ENABLE/CLEAR register value for zone bits @zones. */
static uint32_t irqv(Bwmon *m, uint32_t zones)
{
    return zones << bwmon_layout(m)->irq_shift;
}

/*
 * A monitor started at @t like the driver starts it: 4 ms windows, the
 * given thresholds, the driver's actions and counts, zones @irq enabled.
 */
static Bwmon *started(BwmonVariant v, uint32_t low, uint32_t med,
                      uint32_t high, uint32_t irq, uint64_t t)
{
    Bwmon *m = bwmon_new(v, 0);

    wr(m, BWMON_SAMPLE_WINDOW, WIN_4MS, t);
    wr(m, BWMON_THRESHOLD_LOW, low, t);
    wr(m, BWMON_THRESHOLD_MED, med, t);
    wr(m, BWMON_THRESHOLD_HIGH, high, t);
    wr(m, BWMON_ZONE_ACTIONS, DRV_ACTIONS, t);
    wr(m, BWMON_THRESHOLD_COUNT, DRV_COUNTS, t);
    if (bwmon_layout(m)->has_global_irq) {
        wr(m, BWMON_GLOBAL_IRQ_ENABLE, 1, t);
    }
    wr(m, BWMON_IRQ_ENABLE, irqv(m, irq), t);
    wr(m, BWMON_ENABLE, 1, t);
    return m;
}

/* @units count units spread over window @w (0-based) from @t0. */
static void window_traffic(Bwmon *m, uint64_t t0, unsigned w, uint32_t units)
{
    uint64_t start = t0 + w * 4 * MS;
    uint64_t bytes = (uint64_t)units * bwmon_count_unit(m);

    bwmon_count(m, start + 1 * MS, bytes / 2);
    bwmon_count(m, start + 3 * MS, bytes - bytes / 2);
}

/* A window counts floor(bytes / unit); it ends SAMPLE_WINDOW ticks on. */
static void test_window(void)
{
    Bwmon *m = started(BWMON_V4_SDM845, 0, 100, 200, 0x8, 10 * MS);

    CU_ASSERT_EQUAL(bwmon_window_ps(m), 4 * MS);
    bwmon_count(m, 11 * MS, 300ull * UNIT - 1);     /* 299 units */
    CU_ASSERT_FALSE(bwmon_irq(m));
    /* The window ends at 14 ms: not before. */
    bwmon_advance(m, 14 * MS - 1);
    CU_ASSERT_FALSE(bwmon_irq(m));
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE3_MAX, 14 * MS - 1), 0);
    CU_ASSERT_EQUAL(bwmon_state(m)->windows, 0);
    bwmon_advance(m, 14 * MS);
    CU_ASSERT_TRUE(bwmon_irq(m));
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE3_MAX, 14 * MS), 299);
    CU_ASSERT_EQUAL(rd(m, BWMON_IRQ_STATUS, 14 * MS), irqv(m, 0x8));
    CU_ASSERT_EQUAL(bwmon_state(m)->windows, 1);
    CU_ASSERT_EQUAL(bwmon_state(m)->last_count, 299);
    /* Bytes after the end belong to the next window. */
    bwmon_count(m, 14 * MS + 1, 50ull * UNIT);
    bwmon_advance(m, 18 * MS);
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE1_MAX, 18 * MS), 50);
    CU_ASSERT_EQUAL(bwmon_state(m)->windows, 2);
    CU_ASSERT_EQUAL(bwmon_state(m)->last_count, 50);
    /* Empty windows after it count 0. */
    bwmon_advance(m, 30 * MS);
    CU_ASSERT_EQUAL(bwmon_state(m)->windows, 5);
    CU_ASSERT_EQUAL(bwmon_state(m)->last_count, 0);
    bwmon_free(m);
}

/* Zone edges: a count equal to a threshold is in the zone above it. */
static void test_zone_edges(void)
{
    static const struct { uint32_t count; unsigned zone; } cases[] = {
        { 0, 0 }, { 9, 0 }, { 10, 1 }, { 99, 1 }, { 100, 2 },
        { 199, 2 }, { 200, 3 }, { 0xFFF, 3 },
    };
    Bwmon *m = started(BWMON_V4_SDM845, 10, 100, 200, 0, 0);

    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        uint32_t c = cases[i].count;
        unsigned z = cases[i].zone;

        CU_ASSERT_EQUAL(bwmon_zone_of(m, c), z);
        /* The window's zone is the one whose ZONE_MAX it raises. */
        wr(m, BWMON_CLEAR, 1, i * 4 * MS);
        window_traffic(m, i * 4 * MS, 0, c);
        bwmon_advance(m, (i + 1) * 4 * MS);
        for (unsigned zz = 0; zz < BWMON_N_ZONES; zz++) {
            CU_ASSERT_EQUAL(bwmon_peek(m, BWMON_ZONE0_MAX + zz),
                            zz == z ? c : 0);
        }
        CU_ASSERT_EQUAL(bwmon_state(m)->last_zone, z);
    }
    /* Thresholds out of order: checked from the top, HIGH first. */
    wr(m, BWMON_THRESHOLD_HIGH, 50, 100 * MS);
    CU_ASSERT_EQUAL(bwmon_zone_of(m, 60), 3);
    CU_ASSERT_EQUAL(bwmon_zone_of(m, 50), 3);
    CU_ASSERT_EQUAL(bwmon_zone_of(m, 49), 1);
    /* Reset thresholds (all 0): every window is in zone 3. */
    bwmon_reset(m, 0);
    CU_ASSERT_EQUAL(bwmon_zone_of(m, 0), 3);
    bwmon_free(m);
}

/*
 * The driver's actions and counts: zone 1 fires after 16 windows in a row
 * that zone 2 or 3 did not interrupt (zone 0 windows do not), then again
 * 16 windows later; zone 3 fires on its first window.
 */
static void test_zone_counters(void)
{
    Bwmon *m = started(BWMON_V4_SDM845, 10, 100, 200, 0xA, 0);
    unsigned w = 0;

    for (; w < 15; w++) {
        window_traffic(m, 0, w, 50);                /* zone 1 */
    }
    window_traffic(m, 0, w++, 150);                 /* zone 2: clears z1 */
    for (unsigned i = 0; i < 15; i++, w++) {
        window_traffic(m, 0, w, i == 7 ? 5 : 50);   /* a zone 0 inside */
    }
    bwmon_advance(m, w * 4 * MS);
    CU_ASSERT_EQUAL(bwmon_state(m)->zone_count[1], 14);
    CU_ASSERT_EQUAL(bwmon_state(m)->zone_count[2], 1);
    CU_ASSERT_FALSE(bwmon_irq(m));
    window_traffic(m, 0, w++, 50);
    window_traffic(m, 0, w++, 50);
    bwmon_advance(m, (w - 1) * 4 * MS);
    CU_ASSERT_FALSE(bwmon_irq(m));
    bwmon_advance(m, w * 4 * MS);
    CU_ASSERT_TRUE(bwmon_irq(m));
    CU_ASSERT_EQUAL(rd(m, BWMON_IRQ_STATUS, w * 4 * MS), irqv(m, 0x2));
    CU_ASSERT_EQUAL(bwmon_state(m)->zone_count[1], 0);
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE1_MAX, w * 4 * MS), 50);
    /* Cleared: 16 more zone-1 windows fire again, 15 do not. */
    wr(m, BWMON_IRQ_CLEAR, irqv(m, 0xA), w * 4 * MS);
    wr(m, BWMON_GLOBAL_IRQ_CLEAR, 1, w * 4 * MS);
    CU_ASSERT_FALSE(bwmon_irq(m));
    for (unsigned i = 0; i < 16; i++, w++) {
        window_traffic(m, 0, w, 50);
        bwmon_advance(m, (w + 1) * 4 * MS);
        CU_ASSERT_EQUAL(bwmon_irq(m), i == 15);
    }
    /* One window above HIGH: zone 3 fires at once, and clears z1, z2. */
    wr(m, BWMON_IRQ_CLEAR, irqv(m, 0xA), w * 4 * MS);
    wr(m, BWMON_GLOBAL_IRQ_CLEAR, 1, w * 4 * MS);
    window_traffic(m, 0, w, 50);
    window_traffic(m, 0, w + 1, 700);
    bwmon_advance(m, (w + 2) * 4 * MS);
    CU_ASSERT_EQUAL(rd(m, BWMON_IRQ_STATUS, (w + 2) * 4 * MS), irqv(m, 0x8));
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE3_MAX, (w + 2) * 4 * MS), 700);
    CU_ASSERT_EQUAL(bwmon_state(m)->zone_count[1], 0);
    CU_ASSERT_TRUE(bwmon_irq(m));
    bwmon_free(m);
}

/* Actions as programmed: none, clear and increment together; count 0. */
static void test_actions(void)
{
    Bwmon *m = started(BWMON_V5_LLCC, 0, 100, 200, 0xF, 0);

    /* No actions: nothing counts, nothing fires, ZONE_MAX still kept. */
    wr(m, BWMON_ZONE_ACTIONS, 0, 0);
    window_traffic(m, 0, 0, 300);
    bwmon_advance(m, 4 * MS);
    CU_ASSERT_FALSE(bwmon_irq(m));
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE3_MAX, 4 * MS), 300);
    /* Zone 1 windows increment counter 2 (0x20) with a count of 0 = 1. */
    wr(m, BWMON_ZONE_ACTIONS, 0x20 << 8, 4 * MS);
    wr(m, BWMON_THRESHOLD_COUNT, 0, 4 * MS);
    window_traffic(m, 4 * MS, 0, 50);
    bwmon_advance(m, 8 * MS);
    CU_ASSERT_EQUAL(rd(m, BWMON_IRQ_STATUS, 8 * MS), irqv(m, 0x4));
    CU_ASSERT_TRUE(bwmon_irq(m));
    /* Clear and increment counter 0 (0x03), count 2: stays at 1. */
    wr(m, BWMON_IRQ_CLEAR, 0xF, 8 * MS);
    wr(m, BWMON_ZONE_ACTIONS, 0x03 << 8, 8 * MS);
    wr(m, BWMON_THRESHOLD_COUNT, 2, 8 * MS);
    for (unsigned w = 0; w < 5; w++) {
        window_traffic(m, 8 * MS, w, 50);
    }
    bwmon_advance(m, 28 * MS);
    CU_ASSERT_EQUAL(bwmon_state(m)->zone_count[0], 1);
    CU_ASSERT_FALSE(bwmon_irq(m));
    /* Counter 1 at 5, its count lowered to 3: the next increment fires. */
    wr(m, BWMON_ZONE_ACTIONS, 0x08 << 8, 28 * MS);
    wr(m, BWMON_THRESHOLD_COUNT, 0xFF00, 28 * MS);
    for (unsigned w = 0; w < 5; w++) {
        window_traffic(m, 28 * MS, w, 50);
    }
    bwmon_advance(m, 48 * MS);
    CU_ASSERT_EQUAL(bwmon_state(m)->zone_count[1], 5);
    wr(m, BWMON_THRESHOLD_COUNT, 0x0300, 48 * MS);
    window_traffic(m, 48 * MS, 0, 50);
    bwmon_advance(m, 52 * MS);
    CU_ASSERT_EQUAL(bwmon_state(m)->zone_count[1], 0);
    CU_ASSERT_EQUAL(rd(m, BWMON_IRQ_STATUS, 52 * MS), 0x2);
    bwmon_free(m);
}

/*
 * The line: IRQ_STATUS & IRQ_ENABLE; on v4 latched globally, gated by
 * GLOBAL_IRQ_ENABLE and released only by GLOBAL_IRQ_CLEAR once the
 * monitor no longer asserts.
 */
static void test_irq_line(void)
{
    Bwmon *m = started(BWMON_V4_SDM845, 0, 100, 200, 0x2, 0);
    uint64_t t = 4 * MS;

    /* Zone 3 reaches its count but is not enabled: not recorded. */
    window_traffic(m, 0, 0, 300);
    bwmon_advance(m, t);
    CU_ASSERT_EQUAL(rd(m, BWMON_IRQ_STATUS, t), 0);
    CU_ASSERT_FALSE(bwmon_irq(m));
    CU_ASSERT_EQUAL(bwmon_state(m)->zone_count[3], 0);
    /* Enabled, the next such window asserts the line. */
    wr(m, BWMON_IRQ_ENABLE, irqv(m, 0xA), t);
    CU_ASSERT_FALSE(bwmon_irq(m));
    window_traffic(m, 0, 1, 300);
    t = 8 * MS;
    bwmon_advance(m, t);
    CU_ASSERT_EQUAL(rd(m, BWMON_IRQ_STATUS, t), irqv(m, 0x8));
    CU_ASSERT_TRUE(bwmon_irq(m));
    /* The global enable gates it. */
    wr(m, BWMON_GLOBAL_IRQ_ENABLE, 0, t);
    CU_ASSERT_FALSE(bwmon_irq(m));
    wr(m, BWMON_GLOBAL_IRQ_ENABLE, 1, t);
    CU_ASSERT_TRUE(bwmon_irq(m));
    /* Global clear while the monitor asserts: latched again. */
    wr(m, BWMON_GLOBAL_IRQ_CLEAR, 1, t);
    CU_ASSERT_TRUE(bwmon_irq(m));
    /* Monitor cleared: the latch holds the line until the global clear. */
    wr(m, BWMON_IRQ_CLEAR, irqv(m, 0x8), t);
    CU_ASSERT_EQUAL(rd(m, BWMON_IRQ_STATUS, t), 0);
    CU_ASSERT_TRUE(bwmon_irq(m));
    wr(m, BWMON_GLOBAL_IRQ_CLEAR, 1, t);
    CU_ASSERT_FALSE(bwmon_irq(m));
    bwmon_free(m);

    /* v5: no latch, the line follows status & enable. */
    m = started(BWMON_V5_LLCC, 0, 100, 200, 0x8, 0);
    bwmon_count(m, 1 * MS, 300ull << 20);
    bwmon_advance(m, t);
    CU_ASSERT_TRUE(bwmon_irq(m));
    wr(m, BWMON_IRQ_ENABLE, 0, t);
    CU_ASSERT_FALSE(bwmon_irq(m));
    wr(m, BWMON_IRQ_ENABLE, 0x8, t);
    CU_ASSERT_TRUE(bwmon_irq(m));
    wr(m, BWMON_IRQ_CLEAR, 0x8, t);
    CU_ASSERT_FALSE(bwmon_irq(m));
    CU_ASSERT_EQUAL(rd(m, BWMON_IRQ_STATUS, t), 0);
    bwmon_free(m);
}

/*
 * CLEAR bit 0: counters, ZONE_MAX and the window so far; bit 1 (clear
 * all) also IRQ_STATUS.  Writing 0 (sc7280's second write) does nothing.
 */
static void test_clear(void)
{
    Bwmon *m = started(BWMON_V5_LLCC, 0, 100, 200, 0x8, 0);
    uint64_t t = 4 * MS;

    bwmon_count(m, 1 * MS, 300ull << 20);
    bwmon_advance(m, t);
    bwmon_count(m, t + 1 * MS, 50ull << 20);        /* window 2, zone 1 */
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE3_MAX, t), 300);
    CU_ASSERT_EQUAL(bwmon_state(m)->zone_count[2], 0);
    wr(m, BWMON_CLEAR, 0, t + 2 * MS);
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE3_MAX, t + 2 * MS), 300);
    wr(m, BWMON_CLEAR, 1, t + 2 * MS);
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE3_MAX, t + 2 * MS), 0);
    CU_ASSERT_EQUAL(rd(m, BWMON_IRQ_STATUS, t + 2 * MS), 0x8);
    CU_ASSERT_TRUE(bwmon_irq(m));
    /* The window restarted at the clear, without the 50 units. */
    bwmon_advance(m, t + 6 * MS - 1);
    CU_ASSERT_EQUAL(bwmon_state(m)->windows, 1);
    bwmon_advance(m, t + 6 * MS);
    CU_ASSERT_EQUAL(bwmon_state(m)->windows, 2);
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE1_MAX, t + 6 * MS), 0);
    CU_ASSERT_EQUAL(bwmon_state(m)->last_zone, 1);
    wr(m, BWMON_CLEAR, 2, t + 6 * MS);
    CU_ASSERT_EQUAL(rd(m, BWMON_IRQ_STATUS, t + 6 * MS), 0);
    CU_ASSERT_FALSE(bwmon_irq(m));
    bwmon_free(m);
}

/* Only ENABLE.bit0 counts; enabling starts a window then. */
static void test_enable(void)
{
    Bwmon *m = started(BWMON_V5_LLCC, 0, 100, 200, 0x8, 0);

    wr(m, BWMON_ENABLE, 0, 1 * MS);
    bwmon_count(m, 2 * MS, 300ull << 20);           /* not counted */
    wr(m, BWMON_ENABLE, 0x100, 3 * MS);              /* bit 0 still 0 */
    bwmon_count(m, 3 * MS, 300ull << 20);
    bwmon_advance(m, 100 * MS);
    CU_ASSERT_EQUAL(bwmon_state(m)->windows, 0);
    CU_ASSERT_EQUAL(bwmon_state(m)->bytes, 0);
    wr(m, BWMON_ENABLE, 1, 101 * MS);
    bwmon_count(m, 102 * MS, 300ull << 20);
    bwmon_advance(m, 105 * MS - 1);
    CU_ASSERT_FALSE(bwmon_irq(m));
    bwmon_advance(m, 105 * MS);
    CU_ASSERT_TRUE(bwmon_irq(m));
    CU_ASSERT_EQUAL(bwmon_state(m)->bytes, 300ull << 20);
    /* Disabling drops the partial window: 150 + 150 is not one window. */
    wr(m, BWMON_IRQ_CLEAR, 0xF, 105 * MS);
    bwmon_count(m, 106 * MS, 150ull << 20);
    wr(m, BWMON_ENABLE, 0, 107 * MS);
    wr(m, BWMON_ENABLE, 1, 107 * MS);
    bwmon_count(m, 108 * MS, 150ull << 20);
    bwmon_advance(m, 111 * MS);
    CU_ASSERT_FALSE(bwmon_irq(m));
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE2_MAX, 111 * MS), 150);
    bwmon_free(m);
}

/*
 * Lazy time: a million idle windows cost one step and fire exactly when
 * per-window stepping would; bwmon_next_change() names that time first.
 */
static void test_lazy(void)
{
    Bwmon *m = started(BWMON_V5_LLCC, 10, 100, 200, 0x1, 0);
    uint64_t fire;

    /* The driver's zone 0 only clears counter 0: never fires. */
    CU_ASSERT_EQUAL(bwmon_next_change(m), UINT64_MAX);
    bwmon_advance(m, 1000000 * 4 * MS);
    CU_ASSERT_EQUAL(bwmon_state(m)->windows, 1000000);
    CU_ASSERT_FALSE(bwmon_irq(m));
    /* Zone 0 increments counter 0 (count 255): the 255th window fires. */
    wr(m, BWMON_ZONE_ACTIONS, 0x02, 1000000 * 4 * MS);
    fire = (1000000 + 255) * 4 * MS;
    CU_ASSERT_EQUAL(bwmon_next_change(m), fire);
    bwmon_advance(m, fire - 1);
    CU_ASSERT_FALSE(bwmon_irq(m));
    CU_ASSERT_EQUAL(bwmon_state(m)->zone_count[0], 254);
    CU_ASSERT_EQUAL(bwmon_next_change(m), fire);
    bwmon_advance(m, fire);
    CU_ASSERT_TRUE(bwmon_irq(m));
    /* Asserted: only an access changes it now. */
    CU_ASSERT_EQUAL(bwmon_next_change(m), UINT64_MAX);
    /* Two counters the idle zone counts: the one that gets there first. */
    wr(m, BWMON_IRQ_CLEAR, 0xF, fire);
    wr(m, BWMON_IRQ_ENABLE, 0x3, fire);
    wr(m, BWMON_THRESHOLD_COUNT, 0x0305, fire);
    wr(m, BWMON_ZONE_ACTIONS, 0x0A, fire);          /* increment 0 and 1 */
    CU_ASSERT_EQUAL(bwmon_next_change(m), fire + 3 * 4 * MS);
    wr(m, BWMON_ZONE_ACTIONS, 0x02, fire);
    wr(m, BWMON_IRQ_ENABLE, 0x1, fire);
    /* 25 windows in one step with a count of 10: fires, 5 counted on. */
    wr(m, BWMON_IRQ_CLEAR, 0xF, fire);
    wr(m, BWMON_THRESHOLD_COUNT, 10, fire);
    bwmon_advance(m, fire + 25 * 4 * MS);
    CU_ASSERT_TRUE(bwmon_irq(m));
    CU_ASSERT_EQUAL(bwmon_state(m)->zone_count[0], 5);
    bwmon_free(m);
}

/*
 * The driver's setup with LOW 0: idle windows are zone 1, the 16th fires.
 * Traffic moves the next change: a zone 2 window restarts the count, a
 * zone 3 window fires at its own end.
 */
static void test_next_change(void)
{
    Bwmon *m = started(BWMON_V4_SDM845, 0, 100, 200, 0xA, 0);

    CU_ASSERT_EQUAL(bwmon_next_change(m), 16 * 4 * MS);
    bwmon_count(m, 1 * MS, 150ull * UNIT);          /* zone 2: clears z1 */
    CU_ASSERT_EQUAL(bwmon_next_change(m), (1 + 16) * 4 * MS);
    bwmon_count(m, 2 * MS, 60ull * UNIT);           /* 210: zone 3 */
    CU_ASSERT_EQUAL(bwmon_next_change(m), 4 * MS);
    bwmon_advance(m, 4 * MS);
    CU_ASSERT_TRUE(bwmon_irq(m));
    CU_ASSERT_EQUAL(bwmon_next_change(m), UINT64_MAX);
    wr(m, BWMON_IRQ_CLEAR, irqv(m, 0xA), 4 * MS);
    wr(m, BWMON_GLOBAL_IRQ_CLEAR, 1, 4 * MS);
    bwmon_count(m, 5 * MS, 50ull * UNIT);
    /* With GLOBAL_IRQ_ENABLE off nothing can change the line. */
    wr(m, BWMON_GLOBAL_IRQ_ENABLE, 0, 5 * MS);
    CU_ASSERT_EQUAL(bwmon_next_change(m), UINT64_MAX);
    wr(m, BWMON_GLOBAL_IRQ_ENABLE, 1, 5 * MS);
    /* Window 2 (zone 1) counts 1, then 15 empty ones count z1 on. */
    CU_ASSERT_EQUAL(bwmon_next_change(m), (1 + 16) * 4 * MS);
    bwmon_advance(m, 17 * 4 * MS - 1);
    CU_ASSERT_FALSE(bwmon_irq(m));
    bwmon_advance(m, 17 * 4 * MS);
    CU_ASSERT_TRUE(bwmon_irq(m));
    bwmon_free(m);
}

/* Bad values: no window, saturation, time backwards, a shorter window. */
static void test_bad_values(void)
{
    Bwmon *m = started(BWMON_V4_SDM845, 0, 100, 200, 0x8, 0);

    /* SAMPLE_WINDOW 0: the window never ends, nothing fires. */
    wr(m, BWMON_SAMPLE_WINDOW, 0, 0);
    CU_ASSERT_EQUAL(bwmon_window_ps(m), 0);
    bwmon_count(m, 1 * MS, 1ull << 40);
    bwmon_advance(m, UINT64_MAX - 1);
    CU_ASSERT_EQUAL(bwmon_state(m)->windows, 0);
    CU_ASSERT_EQUAL(bwmon_next_change(m), UINT64_MAX);
    CU_ASSERT_FALSE(bwmon_irq(m));
    bwmon_free(m);

    /* A window longer than the new SAMPLE_WINDOW ends at the write. */
    m = started(BWMON_V4_SDM845, 0, 100, 200, 0x8, 0);
    wr(m, BWMON_SAMPLE_WINDOW, 0, 0);
    bwmon_count(m, 1 * MS, 1ull << 40);             /* saturates */
    wr(m, BWMON_SAMPLE_WINDOW, WIN_4MS, 50 * MS);
    CU_ASSERT_EQUAL(bwmon_state(m)->windows, 1);
    CU_ASSERT_EQUAL(rd(m, BWMON_ZONE3_MAX, 50 * MS), BWMON_COUNT_MAX);
    CU_ASSERT_TRUE(bwmon_irq(m));
    CU_ASSERT_EQUAL(bwmon_state(m)->win_start_ps, 50 * MS);
    /* Shortened below the time elapsed in the window: ends at the write. */
    wr(m, BWMON_IRQ_CLEAR, 0xF0, 50 * MS);
    wr(m, BWMON_GLOBAL_IRQ_CLEAR, 1, 50 * MS);
    bwmon_count(m, 52 * MS, 300ull * UNIT);
    wr(m, BWMON_SAMPLE_WINDOW, WIN_4MS / 4, 53 * MS);
    CU_ASSERT_EQUAL(bwmon_state(m)->windows, 2);
    CU_ASSERT_TRUE(bwmon_irq(m));
    /* Time backwards: counted in the current window, time kept. */
    bwmon_count(m, 10 * MS, 7);
    CU_ASSERT_EQUAL(bwmon_state(m)->now_ps, 53 * MS);
    CU_ASSERT_EQUAL(bwmon_state(m)->win_bytes, 7);
    /* The largest window: 2^24 - 1 ticks, about 874 ms. */
    CU_ASSERT_EQUAL(bwmon_write(m, BWMON_REGION_MONITOR,
                                off(m, BWMON_SAMPLE_WINDOW), 0xFFFFFFFF,
                                53 * MS), BWMON_ERR_RESERVED);
    CU_ASSERT_EQUAL(rd(m, BWMON_SAMPLE_WINDOW, 53 * MS), 0xFFFFFF);
    CU_ASSERT_EQUAL(bwmon_window_ps(m), (0xFFFFFFull * 156250 + 2) / 3);
    bwmon_free(m);

    /* A zero count unit is the layout's. */
    m = bwmon_new(BWMON_V5_LLCC, 0);
    CU_ASSERT_EQUAL(bwmon_count_unit(m), 1u << 20);
    bwmon_free(m);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "window", test_window },
        { "zone-edges", test_zone_edges },
        { "zone-counters", test_zone_counters },
        { "actions", test_actions },
        { "irq-line", test_irq_line },
        { "clear", test_clear },
        { "enable", test_enable },
        { "lazy", test_lazy },
        { "next-change", test_next_change },
        { "bad-values", test_bad_values },
    };

    return CUNIT_RUN("bwmon", tests);
}
