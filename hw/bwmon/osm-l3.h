/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The OSM L3 frequency domain of Qualcomm SoCs as the Linux interconnect
 * provider drivers/interconnect/qcom/osm-l3.c drives it ("qcom,osm-l3",
 * "qcom,sdm845-osm-l3"; docs/bwmon-model.md, "The OSM L3 provider"):
 *   REG_ENABLE  0x000  bit 0: firmware has enabled the domain (read-only)
 *   FREQ_LUT    0x110 + 32 i, i < 40: LUT_SRC [31:30], LUT_L_VAL [7:0];
 *               frequency = LUT_SRC ? xo x L_VAL : alternate / 2, and the
 *               first row equal to the one before ends the table
 *   PERF_STATE  0x920  the LUT row the domain runs at (the driver writes it)
 * The frequency selected gives the L3's bandwidth (16 bytes per L3 clock,
 * the driver's buswidth) and the time of an L3-clock cycle, which the
 * timing model scales its L3 with.  Pure C + glib, no QEMU types.
 */
#ifndef MEMQOS_BWMON_OSM_L3_H
#define MEMQOS_BWMON_OSM_L3_H

#include <stdint.h>

#define OSM_L3_REG_ENABLE       0x000
#define OSM_L3_REG_FREQ_LUT     0x110
#define OSM_L3_LUT_ROW_SIZE     32
#define OSM_L3_REG_PERF_STATE   0x920
#define OSM_L3_MMIO_SIZE        0x1400  /* sdm845.dtsi interconnect@17d41000 */
#define OSM_L3_LUT_MAX          40      /* the driver's LUT_MAX_ENTRIES */
#define OSM_L3_LUT_SRC_SHIFT    30
#define OSM_L3_LUT_L_VAL_MASK   0xFFu
#define OSM_L3_BUSWIDTH         16      /* bytes per L3 clock (osm_l3_nodes) */

typedef struct OsmL3Config {
    uint32_t xo_hz;             /* clock "xo" (sdm845: RPMH_CXO_CLK) */
    uint32_t alt_hz;            /* clock "alternate" (sdm845: GPLL0) */
    unsigned n_rows;            /* rows in use, 1..OSM_L3_LUT_MAX */
    uint32_t lut[OSM_L3_LUT_MAX];   /* FREQ_LUT words of the rows in use */
} OsmL3Config;

typedef enum OsmL3Err {
    OSM_L3_ERR_NONE,
    OSM_L3_ERR_UNMAPPED,        /* no register there: RAZ/WI */
    OSM_L3_ERR_READ_ONLY,       /* write to REG_ENABLE or the LUT: ignored */
    OSM_L3_ERR_RANGE,           /* PERF_STATE past the table: the top row */
} OsmL3Err;

typedef struct OsmL3 OsmL3;

/*
 * sdm845: xo 19.2 MHz, GPLL0 600 MHz, and the 14 L3 frequencies the CPU
 * OPP tables of sdm845.dtsi vote for, 300 to 1593.6 MHz.
 */
void osm_l3_config_default(OsmL3Config *cfg);
/*
 * NULL if @cfg is valid, else a g_malloc'ed message: clocks not 0, 1..40
 * rows, every frequency above the one before (an equal one would end the
 * driver's table there, a lower one breaks its search).
 */
char *osm_l3_config_check(const OsmL3Config *cfg);
/* Frequency of LUT word @word, as the driver computes it. */
uint64_t osm_l3_lut_hz(const OsmL3Config *cfg, uint32_t word);

/* NULL with *why (g_malloc'ed) if osm_l3_config_check() refuses @cfg. */
OsmL3 *osm_l3_new(const OsmL3Config *cfg, char **why);
void osm_l3_free(OsmL3 *o);
/* PERF_STATE 0: the lowest frequency until the provider votes. */
void osm_l3_reset(OsmL3 *o);

/* A 32-bit guest access at @offset (other sizes: the glue's word). */
uint32_t osm_l3_read(const OsmL3 *o, uint32_t offset, OsmL3Err *err);
OsmL3Err osm_l3_write(OsmL3 *o, uint32_t offset, uint32_t value);

/* The row the domain runs at (PERF_STATE, within the table). */
unsigned osm_l3_perf_state(const OsmL3 *o);
/* Migration: the one piece of state. */
void osm_l3_set_perf_state(OsmL3 *o, unsigned index);
uint64_t osm_l3_freq_hz(const OsmL3 *o);
/* Bandwidth at the current frequency: freq x OSM_L3_BUSWIDTH. */
uint64_t osm_l3_bytes_per_s(const OsmL3 *o);
/* @cycles of the L3 clock at the current frequency, femtoseconds. */
uint64_t osm_l3_cycles_fs(const OsmL3 *o, uint64_t cycles);

#endif
