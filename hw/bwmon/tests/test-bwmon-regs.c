/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the BWMON register maps (bwmon-regs.h) and the access
 * rules the monitor applies from them (bwmon.h): every register of every
 * layout against the driver's own description, its reset value, and what
 * a read and a write of it do.
 */
#include "cunit-run.h"
#include <stdio.h>
#include <glib.h>

#include "../bwmon-regs.h"
#include "../bwmon.h"

/*
 * The driver's view (drivers/soc/qcom/icc-bwmon.c, Linux 7.3): each
 * register's offset, the bits of its regmap field(s), whether the regmap
 * may read it (rd_table no_ranges) and whether it is volatile.
 */
typedef struct DrvReg {
    BwmonRegId id;
    uint32_t offset;
    uint8_t region;
    uint32_t field;         /* union of the driver's REG_FIELDs */
    bool noread;
    bool vol;
} DrvReg;

#define M BWMON_REGION_MONITOR
#define G BWMON_REGION_GLOBAL

static const DrvReg v4_monitor[] = {
    { BWMON_IRQ_STATUS,      0x100, M, 0xF0,       false, true },
    { BWMON_IRQ_CLEAR,       0x108, M, 0xF0,       true,  false },
    { BWMON_IRQ_ENABLE,      0x10c, M, 0xF0,       false, false },
    { BWMON_ENABLE,          0x2a0, M, 0xFFFFFFFF, false, false },
    { BWMON_CLEAR,           0x2a4, M, 0x3,        true,  false },
    { BWMON_SAMPLE_WINDOW,   0x2a8, M, 0xFFFFFF,   false, false },
    { BWMON_THRESHOLD_HIGH,  0x2ac, M, 0xFFF,      false, false },
    { BWMON_THRESHOLD_MED,   0x2b0, M, 0xFFF,      false, false },
    { BWMON_THRESHOLD_LOW,   0x2b4, M, 0xFFF,      false, false },
    { BWMON_ZONE_ACTIONS,    0x2b8, M, 0xFFFFFFFF, false, false },
    { BWMON_THRESHOLD_COUNT, 0x2bc, M, 0xFFFFFFFF, false, false },
    { BWMON_ZONE0_MAX,       0x2e0, M, 0xFFF,      false, true },
    { BWMON_ZONE1_MAX,       0x2e4, M, 0xFFF,      false, true },
    { BWMON_ZONE2_MAX,       0x2e8, M, 0xFFF,      false, true },
    { BWMON_ZONE3_MAX,       0x2ec, M, 0xFFF,      false, true },
};
static const DrvReg msm8998_global[] = {
    { BWMON_GLOBAL_IRQ_CLEAR,  0x108, G, 0x1, true,  false },
    { BWMON_GLOBAL_IRQ_ENABLE, 0x10c, G, 0x1, false, false },
};
/* BWMON_V4_GLOBAL_IRQ_*_845: 0x100 below. */
static const DrvReg sdm845_global[] = {
    { BWMON_GLOBAL_IRQ_CLEAR,  0x008, M, 0x1, true,  false },
    { BWMON_GLOBAL_IRQ_ENABLE, 0x00c, M, 0x1, false, false },
};
static const DrvReg v5[] = {
    { BWMON_IRQ_STATUS,      0x000, M, 0xF,        false, true },
    { BWMON_IRQ_CLEAR,       0x008, M, 0xF,        true,  false },
    { BWMON_IRQ_ENABLE,      0x00c, M, 0xF,        false, false },
    { BWMON_ENABLE,          0x010, M, 0xFFFFFFFF, false, false },
    { BWMON_CLEAR,           0x014, M, 0x3,        true,  false },
    { BWMON_SAMPLE_WINDOW,   0x020, M, 0xFFFFF,    false, false },
    { BWMON_THRESHOLD_HIGH,  0x024, M, 0xFFF,      false, false },
    { BWMON_THRESHOLD_MED,   0x028, M, 0xFFF,      false, false },
    { BWMON_THRESHOLD_LOW,   0x02c, M, 0xFFF,      false, false },
    { BWMON_ZONE_ACTIONS,    0x030, M, 0xFFFFFFFF, false, false },
    { BWMON_THRESHOLD_COUNT, 0x034, M, 0xFFFFFFFF, false, false },
    { BWMON_ZONE0_MAX,       0x044, M, 0xFFF,      false, true },
    { BWMON_ZONE1_MAX,       0x048, M, 0xFFF,      false, true },
    { BWMON_ZONE2_MAX,       0x04c, M, 0xFFF,      false, true },
    { BWMON_ZONE3_MAX,       0x050, M, 0xFFF,      false, true },
};

typedef struct DrvLayout {
    const DrvReg *parts[2];
    unsigned n[2];
} DrvLayout;

static const DrvLayout drv[BWMON_N_VARIANTS] = {
    [BWMON_V4_MSM8998] = { { msm8998_global, v4_monitor },
                           { G_N_ELEMENTS(msm8998_global),
                             G_N_ELEMENTS(v4_monitor) } },
    [BWMON_V4_SDM845] = { { sdm845_global, v4_monitor },
                          { G_N_ELEMENTS(sdm845_global),
                            G_N_ELEMENTS(v4_monitor) } },
    [BWMON_V5_LLCC] = { { v5 }, { G_N_ELEMENTS(v5) } },
};

/* Calls @fn for every register the driver knows in @v. */
static unsigned for_each_drv(BwmonVariant v,
                             void (*fn)(BwmonVariant, const DrvReg *))
{
    unsigned n = 0;

    for (unsigned p = 0; p < 2; p++) {
        for (unsigned i = 0; i < drv[v].n[p]; i++, n++) {
            fn(v, &drv[v].parts[p][i]);
        }
    }
    return n;
}

static void check_table(BwmonVariant v, const DrvReg *d)
{
    const BwmonRegInfo *r = &bwmon_layouts[v].regs[d->id];
    BwmonAccess want = d->noread ? BWMON_WO : d->vol ? BWMON_RO : BWMON_RW;

    CU_ASSERT_EQUAL(r->offset, d->offset);
    CU_ASSERT_EQUAL(r->region, d->region);
    CU_ASSERT_EQUAL(r->mask, d->field);
    CU_ASSERT_EQUAL(r->access, want);
    CU_ASSERT_EQUAL(r->is_volatile, d->vol);
    /* The regmap reads each register once: it must be 0 then. */
    CU_ASSERT_EQUAL(r->reset, 0);
    CU_ASSERT_EQUAL(bwmon_reg_at(&bwmon_layouts[v], d->region, d->offset),
                    d->id);
}

/* Each layout is the driver's, register for register, and no more. */
static void test_tables(void)
{
    for (unsigned v = 0; v < BWMON_N_VARIANTS; v++) {
        unsigned present = 0;
        unsigned n = for_each_drv(v, check_table);

        for (unsigned id = 0; id < BWMON_N_REGS; id++) {
            present += bwmon_layouts[v].regs[id].access != BWMON_ABSENT;
        }
        CU_ASSERT_EQUAL(present, n);
    }
    CU_ASSERT_EQUAL(bwmon_layouts[BWMON_V5_LLCC].regs[BWMON_GLOBAL_IRQ_ENABLE]
                    .access, BWMON_ABSENT);
    CU_ASSERT_TRUE(bwmon_layouts[BWMON_V4_MSM8998].has_global_irq);
    CU_ASSERT_TRUE(bwmon_layouts[BWMON_V4_SDM845].has_global_irq);
    CU_ASSERT_FALSE(bwmon_layouts[BWMON_V5_LLCC].has_global_irq);
    CU_ASSERT_EQUAL(bwmon_layouts[BWMON_V4_MSM8998].n_regions, 2);
    /* count_unit_kb 1024, 64, 1024, as binary units. */
    CU_ASSERT_EQUAL(bwmon_layouts[BWMON_V4_MSM8998].count_unit_bytes, 1 << 20);
    CU_ASSERT_EQUAL(bwmon_layouts[BWMON_V4_SDM845].count_unit_bytes, 1 << 16);
    CU_ASSERT_EQUAL(bwmon_layouts[BWMON_V5_LLCC].count_unit_bytes, 1 << 20);
}

/* Each mapped word of every region is one register, every other is RAZ. */
static void test_decode(void)
{
    for (unsigned v = 0; v < BWMON_N_VARIANTS; v++) {
        const BwmonLayout *l = &bwmon_layouts[v];
        unsigned mapped = 0, present = 0;

        for (unsigned r = 0; r < l->n_regions; r++) {
            for (uint32_t off = 0; off < l->region_size[r]; off++) {
                BwmonRegId id = bwmon_reg_at(l, r, off);

                if (id != BWMON_N_REGS) {
                    CU_ASSERT_EQUAL(off % 4, 0);
                    CU_ASSERT_EQUAL(l->regs[id].offset, off);
                    mapped++;
                }
            }
        }
        for (unsigned id = 0; id < BWMON_N_REGS; id++) {
            present += l->regs[id].access != BWMON_ABSENT;
            if (l->regs[id].access != BWMON_ABSENT) {
                CU_ASSERT(l->regs[id].offset < l->region_size[l->regs[id].region]);
            }
        }
        CU_ASSERT_EQUAL(mapped, present);
    }
    CU_ASSERT_EQUAL(bwmon_variant_by_name("qcom,sdm845-bwmon"), BWMON_V4_SDM845);
    CU_ASSERT_EQUAL(bwmon_variant_by_name("v5-llcc"), BWMON_V5_LLCC);
    CU_ASSERT_EQUAL(bwmon_variant_by_name("v6"), BWMON_N_VARIANTS);
}

static void check_reset(BwmonVariant v, const DrvReg *d)
{
    Bwmon *m = bwmon_new(v, 0);
    BwmonErr err;

    /* Dirty everything, then reset. */
    for (uint32_t off = 0; off < 0x300; off += 4) {
        bwmon_write(m, d->region, off, 0xFFFFFFFF, 1000);
    }
    bwmon_count(m, 5000000000ull, 1ull << 32);
    bwmon_reset(m, 6000000000ull);
    CU_ASSERT_EQUAL(bwmon_read(m, d->region, d->offset, 7000000000ull, &err),
                    0);
    CU_ASSERT_EQUAL(err, d->noread ? BWMON_ERR_WRITE_ONLY : BWMON_ERR_NONE);
    CU_ASSERT_FALSE(bwmon_irq(m));
    bwmon_free(m);
}

/* Every register reads 0 after reset (write-only ones read 0 always). */
static void test_reset(void)
{
    for (unsigned v = 0; v < BWMON_N_VARIANTS; v++) {
        for_each_drv(v, check_reset);
    }
}

static void check_access(BwmonVariant v, const DrvReg *d)
{
    Bwmon *m = bwmon_new(v, 0);
    const BwmonRegInfo *r = &bwmon_layouts[v].regs[d->id];
    BwmonErr werr = bwmon_write(m, d->region, d->offset, 0xFFFFFFFF, 1000);
    BwmonErr rerr;
    uint32_t got = bwmon_read(m, d->region, d->offset, 2000, &rerr);

    switch (r->access) {
    case BWMON_RW:
        /* Holds the field's bits, the rest is reserved. */
        CU_ASSERT_EQUAL(got, d->field);
        CU_ASSERT_EQUAL(werr, d->field == 0xFFFFFFFF ? BWMON_ERR_NONE
                                                     : BWMON_ERR_RESERVED);
        CU_ASSERT_EQUAL(rerr, BWMON_ERR_NONE);
        break;
    case BWMON_RO:
        /* Monitor state: the write did nothing. */
        CU_ASSERT_EQUAL(got, 0);
        CU_ASSERT_EQUAL(werr, BWMON_ERR_READ_ONLY);
        CU_ASSERT_EQUAL(rerr, BWMON_ERR_NONE);
        break;
    case BWMON_WO:
        CU_ASSERT_EQUAL(got, 0);
        CU_ASSERT_EQUAL(rerr, BWMON_ERR_WRITE_ONLY);
        CU_ASSERT_EQUAL(werr, d->field == 0xFFFFFFFF ? BWMON_ERR_NONE
                                                     : BWMON_ERR_RESERVED);
        break;
    default:
        CU_FAIL("absent register the driver uses");
    }
    bwmon_free(m);
}

/* RW holds its bits, RO ignores writes, WO reads as 0. */
static void test_access(void)
{
    for (unsigned v = 0; v < BWMON_N_VARIANTS; v++) {
        for_each_drv(v, check_access);
    }
}

/* Holes, unaligned offsets and a second region where there is none. */
static void test_unmapped(void)
{
    Bwmon *m = bwmon_new(BWMON_V5_LLCC, 0);
    BwmonErr err;

    CU_ASSERT_EQUAL(bwmon_write(m, BWMON_REGION_MONITOR, 0x018, 7, 0),
                    BWMON_ERR_UNMAPPED);
    CU_ASSERT_EQUAL(bwmon_read(m, BWMON_REGION_MONITOR, 0x018, 0, &err), 0);
    CU_ASSERT_EQUAL(err, BWMON_ERR_UNMAPPED);
    /* 0x022 is inside SAMPLE_WINDOW's word but not a register. */
    CU_ASSERT_EQUAL(bwmon_write(m, BWMON_REGION_MONITOR, 0x022, 7, 0),
                    BWMON_ERR_UNMAPPED);
    CU_ASSERT_EQUAL(bwmon_peek(m, BWMON_SAMPLE_WINDOW), 0);
    CU_ASSERT_EQUAL(bwmon_write(m, BWMON_REGION_GLOBAL, 0x00C, 1, 0),
                    BWMON_ERR_UNMAPPED);
    CU_ASSERT_EQUAL(bwmon_read(m, BWMON_REGION_GLOBAL, 0x020, 0, &err), 0);
    CU_ASSERT_EQUAL(err, BWMON_ERR_UNMAPPED);
    bwmon_free(m);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "tables", test_tables },
        { "decode", test_decode },
        { "reset", test_reset },
        { "access", test_access },
        { "unmapped", test_unmapped },
    };

    return CUNIT_RUN("bwmon-regs", tests);
}
