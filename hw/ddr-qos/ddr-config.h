/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Configuration of the DDR QoS scheduler model (docs/ddr-qos-model.md):
 * the DRAM part (channels, data rate, bus width, banks, rows and the JEDEC
 * timings), the controller's queues and the uMCTL2-style QoS controls (the
 * DSPRI -> traffic class maps, VPR/VPW timeouts, starvation guards, write
 * watermarks).  Every field is described once in ddr_config_fields[]: its
 * property name, unit, default and smallest valid value; the defaults are
 * a DDR5-4800B (40-39-39) 16 Gb x8 part, the sources are in the doc.
 * Pure C + glib, no QEMU types.
 */
#ifndef MEMQOS_DDR_CONFIG_H
#define MEMQOS_DDR_CONFIG_H

#include <stddef.h>
#include <stdint.h>

/* The traffic classes of the Synopsys uMCTL2 family (prior-art.md §5.1). */
typedef enum DdrClass {
    DDR_LPR,                /* low priority read */
    DDR_VPR,                /* variable priority read: LPR until its timeout */
    DDR_HPR,                /* high priority read, its own queue */
    DDR_NPW,                /* normal priority write */
    DDR_VPW,                /* variable priority write: NPW until its timeout */
    DDR_N_CLASSES,
} DdrClass;

/* DSPRI values the maps cover: 4 bits, as AxQoS and the platform's DSPRI_WD. */
#define DDR_DSPRI_LEVELS    16
#define DDR_UNMAPPED        0xff

typedef struct DdrConfig {
    /* The DRAM: one channel is one independent data bus. */
    uint32_t channels;          /* ddr-channels */
    uint32_t data_rate_mts;     /* ddr-data-rate-mts, transfers/s / 10^6 */
    uint32_t bus_bytes;         /* ddr-bus-bytes, data bus width */
    uint32_t burst_length;      /* ddr-burst-length, BL */
    uint32_t banks;             /* ddr-banks per channel (all bank groups) */
    uint32_t row_bytes;         /* ddr-row-bytes, one row across the channel */
    uint32_t interleave_bytes;  /* ddr-interleave-bytes, channel granule */
    /* JEDEC timings in clock cycles (nCK, tCK = 2 / data rate). */
    uint32_t cl;                /* ddr-cl: READ to data (tAA) */
    uint32_t cwl;               /* ddr-cwl: WRITE to data */
    uint32_t trcd;              /* ddr-trcd: ACT to READ/WRITE */
    uint32_t trp;               /* ddr-trp: PRE to ACT */
    uint32_t trrd_s;            /* ddr-trrd-s: ACT to ACT, other bank group */
    uint32_t tfaw;              /* ddr-tfaw: window of four ACTs */
    /* JEDEC timings in picoseconds. */
    uint32_t twtr_ps;           /* ddr-twtr-ps: end of write data to READ */
    uint32_t trfc_ps;           /* ddr-trfc-ps: all-bank refresh */
    uint32_t trefi_ps;          /* ddr-trefi-ps: refresh interval */
    /* Outside the DRAM: interconnect, controller pipeline, PHY. */
    uint32_t frontend_ps;       /* ddr-frontend-ps */
    /* Controller queues (CAM entries). */
    uint32_t lpr_entries;       /* ddr-lpr-entries: LPR store (LPR + VPR) */
    uint32_t hpr_entries;       /* ddr-hpr-entries: HPR store */
    uint32_t wr_entries;        /* ddr-wr-entries: write store (NPW + VPW) */
    uint32_t wr_high;           /* ddr-wr-high: start draining writes */
    uint32_t wr_low;            /* ddr-wr-low: stop draining */
    /* QoS controls (uMCTL2 PCFGQOS1, PCFGWQOS1, PERF*1), in nCK. */
    uint32_t vpr_timeout;       /* ddr-vpr-timeout: 0 = expired at once */
    uint32_t vpw_timeout;       /* ddr-vpw-timeout */
    uint32_t lpr_max_starve;    /* ddr-lpr-max-starve: 0 = no guard */
    uint32_t hpr_max_starve;    /* ddr-hpr-max-starve */
    uint32_t wr_max_starve;     /* ddr-wr-max-starve */
    uint32_t lpr_run;           /* ddr-lpr-run: served once critical */
    uint32_t hpr_run;           /* ddr-hpr-run */
    uint32_t wr_run;            /* ddr-wr-run */
    /* DSPRI -> class (ddr-read-map, ddr-write-map). */
    uint8_t read_map[DDR_DSPRI_LEVELS];
    uint8_t write_map[DDR_DSPRI_LEVELS];
} DdrConfig;

/* One numeric field of DdrConfig, as a property. */
typedef struct DdrConfigField {
    const char *name;           /* property name, "ddr-cl" */
    size_t offset;              /* of its uint32_t in DdrConfig */
    const char *unit;           /* "nCK", "ps", "bytes", "entries", "" */
    uint32_t def;               /* default */
    uint32_t min;               /* smallest valid value (0 or 1) */
    uint32_t max;               /* largest valid value */
} DdrConfigField;

extern const DdrConfigField ddr_config_fields[];
extern const unsigned ddr_config_n_fields;

const char *ddr_class_name(DdrClass c);         /* "LPR" ... */
void ddr_config_default(DdrConfig *cfg);
/*
 * Set property @name from the string @value, as QEMU properties and QMP
 * give it: a decimal or 0x integer for numeric fields, a map such as
 * "0-5:lpr,6-10:vpr,11-15:hpr" for ddr-read-map and ddr-write-map.  NULL
 * on success, else a g_malloc'ed message naming the property; @cfg is
 * unchanged then.  Only the syntax is checked here: ddr_config_check()
 * checks the whole configuration.
 */
char *ddr_config_set(DdrConfig *cfg, const char *name, const char *value);
/*
 * NULL if @map (DDR_DSPRI_LEVELS classes) is a valid read (@write false)
 * or write map, else a g_malloc'ed message: every DSPRI mapped, only to
 * classes of that direction, and monotonic (a higher DSPRI never maps to a
 * lower class: LPR < VPR < HPR, NPW < VPW).
 */
char *ddr_config_map_check(const uint8_t *map, int write);
/*
 * @map in the syntax ddr_config_set() takes, with the fewest ranges
 * ("0-5:lpr,6-10:vpr,11-15:hpr"); unmapped DSPRI values are left out.
 * g_malloc'ed.  What QEMU's property getter and QMP show.
 */
char *ddr_config_map_str(const uint8_t *map);
/* NULL if @cfg is valid, else a g_malloc'ed message naming the property. */
char *ddr_config_check(const DdrConfig *cfg);
/* @nck clock cycles in picoseconds at the configured data rate, rounded. */
uint64_t ddr_config_nck_ps(const DdrConfig *cfg, uint64_t nck);
/*
 * Peak data bandwidth in bytes per second: channels x data rate x bus
 * width (153.6 GB/s at the defaults).  What a memory MSC's bandwidth
 * controls are fractions of (MpamRisConfig.mbw_bytes_per_s).
 */
uint64_t ddr_config_peak_bytes_per_s(const DdrConfig *cfg);
/*
 * The channel serving @addr: its ddr-interleave-bytes granule modulo
 * ddr-channels.  The DDR scheduler queues there, and the iMC uncore PMU
 * (hw/intel/imc-pmu.h) counts there: one function for both.
 */
unsigned ddr_config_channel(const DdrConfig *cfg, uint64_t addr);

#endif
