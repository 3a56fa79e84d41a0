/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Qualcomm BWMON register maps, see bwmon-regs.h.  Offsets and field
 * widths are those of drivers/soc/qcom/icc-bwmon.c (Linux 7.3); what the
 * driver leaves open (reset values, bits outside its fields) is chosen in
 * docs/bwmon-model.md, "Registers".
 */
#include <string.h>

#include "bwmon-regs.h"

#define REG(id_, off, rgn, acc, vol, msk) \
    [id_] = { .name = #id_ + 6, .offset = (off), .region = (rgn), \
              .access = (acc), .is_volatile = (vol), .mask = (msk), \
              .reset = 0 }
#define MON BWMON_REGION_MONITOR
#define GLB BWMON_REGION_GLOBAL

/*
 * The monitor registers of v4, the same in both v4 layouts.  IRQ bits are
 * [7:4]; ENABLE keeps all 32 bits (the driver writes the whole register
 * "to disable other features"), only bit 0 counts; SAMPLE_WINDOW is 24 bits.
 */
#define V4_MONITOR_REGS                                                      \
    REG(BWMON_IRQ_STATUS,       0x100, MON, BWMON_RO, true,  0xF0),          \
    REG(BWMON_IRQ_CLEAR,        0x108, MON, BWMON_WO, false, 0xF0),          \
    REG(BWMON_IRQ_ENABLE,       0x10C, MON, BWMON_RW, false, 0xF0),          \
    REG(BWMON_ENABLE,           0x2A0, MON, BWMON_RW, false, 0xFFFFFFFF),    \
    REG(BWMON_CLEAR,            0x2A4, MON, BWMON_WO, false, 0x3),           \
    REG(BWMON_SAMPLE_WINDOW,    0x2A8, MON, BWMON_RW, false, 0xFFFFFF),      \
    REG(BWMON_THRESHOLD_HIGH,   0x2AC, MON, BWMON_RW, false, 0xFFF),         \
    REG(BWMON_THRESHOLD_MED,    0x2B0, MON, BWMON_RW, false, 0xFFF),         \
    REG(BWMON_THRESHOLD_LOW,    0x2B4, MON, BWMON_RW, false, 0xFFF),         \
    REG(BWMON_ZONE_ACTIONS,     0x2B8, MON, BWMON_RW, false, 0xFFFFFFFF),    \
    REG(BWMON_THRESHOLD_COUNT,  0x2BC, MON, BWMON_RW, false, 0xFFFFFFFF),    \
    REG(BWMON_ZONE0_MAX,        0x2E0, MON, BWMON_RO, true,  0xFFF),         \
    REG(BWMON_ZONE1_MAX,        0x2E4, MON, BWMON_RO, true,  0xFFF),         \
    REG(BWMON_ZONE2_MAX,        0x2E8, MON, BWMON_RO, true,  0xFFF),         \
    REG(BWMON_ZONE3_MAX,        0x2EC, MON, BWMON_RO, true,  0xFFF)

const BwmonLayout bwmon_layouts[BWMON_N_VARIANTS] = {
    [BWMON_V4_MSM8998] = {
        .name = "v4-msm8998", .compatible = "qcom,msm8998-bwmon",
        .has_global_irq = true, .n_regions = 2,
        .region_name = { "monitor", "global" },
        /* monitor: up to ZONE3_MAX; global: up to GLOBAL_IRQ_ENABLE */
        .region_size = { 0x300, 0x200 },
        .irq_shift = 4, .count_unit_bytes = 1024 * 1024,
        .regs = {
            REG(BWMON_GLOBAL_IRQ_CLEAR,  0x108, GLB, BWMON_WO, false, 0x1),
            REG(BWMON_GLOBAL_IRQ_ENABLE, 0x10C, GLB, BWMON_RW, false, 0x1),
            V4_MONITOR_REGS,
        },
    },
    [BWMON_V4_SDM845] = {
        .name = "v4-sdm845", .compatible = "qcom,sdm845-bwmon",
        .has_global_irq = true, .n_regions = 1,
        .region_name = { "monitor" },
        .region_size = { 0x600 },           /* sdm845.dtsi pmu@1436400 */
        .irq_shift = 4, .count_unit_bytes = 64 * 1024,
        .regs = {
            /* The global registers, 0x100 below their msm8998 offsets. */
            REG(BWMON_GLOBAL_IRQ_CLEAR,  0x008, MON, BWMON_WO, false, 0x1),
            REG(BWMON_GLOBAL_IRQ_ENABLE, 0x00C, MON, BWMON_RW, false, 0x1),
            V4_MONITOR_REGS,
        },
    },
    [BWMON_V5_LLCC] = {
        .name = "v5-llcc", .compatible = "qcom,sdm845-llcc-bwmon",
        .has_global_irq = false, .n_regions = 1,
        .region_name = { "monitor" },
        .region_size = { 0x1000 },          /* sdm845.dtsi pmu@114a000 */
        .irq_shift = 0, .count_unit_bytes = 1024 * 1024,
        .regs = {
            /* No global registers (BWMON_ABSENT). */
            REG(BWMON_IRQ_STATUS,       0x000, MON, BWMON_RO, true,  0xF),
            REG(BWMON_IRQ_CLEAR,        0x008, MON, BWMON_WO, false, 0xF),
            REG(BWMON_IRQ_ENABLE,       0x00C, MON, BWMON_RW, false, 0xF),
            REG(BWMON_ENABLE,           0x010, MON, BWMON_RW, false, 0xFFFFFFFF),
            REG(BWMON_CLEAR,            0x014, MON, BWMON_WO, false, 0x3),
            REG(BWMON_SAMPLE_WINDOW,    0x020, MON, BWMON_RW, false, 0xFFFFF),
            REG(BWMON_THRESHOLD_HIGH,   0x024, MON, BWMON_RW, false, 0xFFF),
            REG(BWMON_THRESHOLD_MED,    0x028, MON, BWMON_RW, false, 0xFFF),
            REG(BWMON_THRESHOLD_LOW,    0x02C, MON, BWMON_RW, false, 0xFFF),
            REG(BWMON_ZONE_ACTIONS,     0x030, MON, BWMON_RW, false, 0xFFFFFFFF),
            REG(BWMON_THRESHOLD_COUNT,  0x034, MON, BWMON_RW, false, 0xFFFFFFFF),
            REG(BWMON_ZONE0_MAX,        0x044, MON, BWMON_RO, true,  0xFFF),
            REG(BWMON_ZONE1_MAX,        0x048, MON, BWMON_RO, true,  0xFFF),
            REG(BWMON_ZONE2_MAX,        0x04C, MON, BWMON_RO, true,  0xFFF),
            REG(BWMON_ZONE3_MAX,        0x050, MON, BWMON_RO, true,  0xFFF),
        },
    },
};

BwmonRegId bwmon_reg_at(const BwmonLayout *layout, BwmonRegion region,
                        uint32_t offset)
{
    for (unsigned id = 0; id < BWMON_N_REGS; id++) {
        const BwmonRegInfo *r = &layout->regs[id];

        if (r->access != BWMON_ABSENT && r->region == region &&
            r->offset == offset) {
            return id;
        }
    }
    return BWMON_N_REGS;
}

BwmonVariant bwmon_variant_by_name(const char *name)
{
    for (unsigned v = 0; v < BWMON_N_VARIANTS; v++) {
        if (!strcmp(name, bwmon_layouts[v].name) ||
            !strcmp(name, bwmon_layouts[v].compatible)) {
            return v;
        }
    }
    return BWMON_N_VARIANTS;
}
