/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Qualcomm BWMON register maps, as data (docs/bwmon-model.md, "Registers").
 * Three layouts, named by the compatible the Linux driver
 * (drivers/soc/qcom/icc-bwmon.c) binds them with:
 *   qcom,msm8998-bwmon       BWMON v4, a "monitor" region and a separate
 *                            "global" region (GLOBAL_IRQ_* at 0x108/0x10C)
 *   qcom,sdm845-bwmon        BWMON v4, one region: the global registers
 *                            0x100 below the monitor's (at 0x008/0x00C)
 *   qcom,sdm845-llcc-bwmon   BWMON v5, one region, no global registers
 * A register is described once per layout: offset, region, which bits
 * hold state, how the guest may access it and its reset value.  The model
 * (bwmon.c) reads, writes, resets and shows registers from these tables.
 * Pure C, no QEMU types.
 */
#ifndef MEMQOS_BWMON_REGS_H
#define MEMQOS_BWMON_REGS_H

#include <stdbool.h>
#include <stdint.h>

/* The monitor's sampling clock: SAMPLE_WINDOW counts its ticks. */
#define BWMON_HW_TIMER_HZ       19200000u

typedef enum BwmonVariant {
    BWMON_V4_MSM8998,
    BWMON_V4_SDM845,
    BWMON_V5_LLCC,
    BWMON_N_VARIANTS,
} BwmonVariant;

/* The registers every layout has (or lacks: v5 has no global ones). */
typedef enum BwmonRegId {
    BWMON_GLOBAL_IRQ_CLEAR,
    BWMON_GLOBAL_IRQ_ENABLE,
    BWMON_IRQ_STATUS,
    BWMON_IRQ_CLEAR,
    BWMON_IRQ_ENABLE,
    BWMON_ENABLE,
    BWMON_CLEAR,
    BWMON_SAMPLE_WINDOW,
    BWMON_THRESHOLD_HIGH,
    BWMON_THRESHOLD_MED,
    BWMON_THRESHOLD_LOW,
    BWMON_ZONE_ACTIONS,
    BWMON_THRESHOLD_COUNT,
    BWMON_ZONE0_MAX,
    BWMON_ZONE1_MAX,
    BWMON_ZONE2_MAX,
    BWMON_ZONE3_MAX,
    BWMON_N_REGS,
} BwmonRegId;

#define BWMON_N_ZONES       4

/* Memory-mapped regions: the msm8998 layout has two, the others one. */
typedef enum BwmonRegion {
    BWMON_REGION_MONITOR,
    BWMON_REGION_GLOBAL,
    BWMON_N_REGIONS,
} BwmonRegion;

typedef enum BwmonAccess {
    BWMON_ABSENT,           /* not in this layout */
    BWMON_RW,               /* holds what is written (the mask's bits) */
    BWMON_RO,               /* state of the monitor: writes are ignored */
    BWMON_WO,               /* a command: reads as 0, holds nothing */
} BwmonAccess;

typedef struct BwmonRegInfo {
    const char *name;
    uint32_t offset;        /* in its region */
    uint8_t region;         /* BwmonRegion */
    uint8_t access;         /* BwmonAccess */
    /*
     * Changes without a write (the monitor's state): the driver's regmap
     * reads it from the hardware every time instead of its cache.
     */
    bool is_volatile;
    uint32_t mask;          /* the bits that exist */
    uint32_t reset;
} BwmonRegInfo;

typedef struct BwmonLayout {
    const char *name;           /* "v4-msm8998" ... */
    const char *compatible;     /* what the driver matches */
    bool has_global_irq;        /* GLOBAL_IRQ_ENABLE gates the line */
    unsigned n_regions;
    const char *region_name[BWMON_N_REGIONS];   /* DT reg-names */
    uint32_t region_size[BWMON_N_REGIONS];      /* bytes, as DT reg sizes */
    /* IRQ_STATUS/CLEAR/ENABLE: zone z is bit irq_shift + z. */
    unsigned irq_shift;
    /* The traffic one count unit stands for, bytes (the driver's
     * count_unit_kb, but in binary units: docs/bwmon-model.md). */
    uint32_t count_unit_bytes;
    BwmonRegInfo regs[BWMON_N_REGS];
} BwmonLayout;

extern const BwmonLayout bwmon_layouts[BWMON_N_VARIANTS];

/*
 * The register of @layout at @offset of @region, BWMON_N_REGS if none
 * (also for an offset that is not a multiple of 4: registers are words).
 */
BwmonRegId bwmon_reg_at(const BwmonLayout *layout, BwmonRegion region,
                        uint32_t offset);
/* The variant whose name or compatible is @name, BWMON_N_VARIANTS if none. */
BwmonVariant bwmon_variant_by_name(const char *name);

#endif
