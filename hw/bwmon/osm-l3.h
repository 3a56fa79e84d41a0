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
 * the driver's buswidth) and the time of an L3-clock cycle: an access
 * through the domain takes longer, by osm_l3_slowdown_fs(), at a row
 * below its full speed (docs/bwmon-model.md, "The effect").  A domain can
 * be pinned to a row (the three configurations: fixed, no votes, bwmon):
 * it then runs there whatever the guest writes.  Pure C + glib, no QEMU
 * types.
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

/* PERF_STATE as the guest wrote it (within the table). */
unsigned osm_l3_perf_state(const OsmL3 *o);
/*
 * Pin the domain to @row (clamped to the table: OSM_L3_PIN_TOP is the top
 * row), or OSM_L3_PIN_NONE: run at PERF_STATE.  A pinned domain keeps
 * PERF_STATE readable as the guest wrote it; only its frequency stays.
 */
#define OSM_L3_PIN_NONE         (-1)
#define OSM_L3_PIN_TOP          OSM_L3_LUT_MAX
void osm_l3_pin(OsmL3 *o, int row);
/* The row the domain runs at: the pinned one, else PERF_STATE. */
unsigned osm_l3_row(const OsmL3 *o);
/* The frequency of the table's top row. */
uint64_t osm_l3_top_hz(const OsmL3 *o);
/* Migration: the one piece of state. */
void osm_l3_set_perf_state(OsmL3 *o, unsigned index);
uint64_t osm_l3_freq_hz(const OsmL3 *o);
/* Bandwidth at the current frequency: freq x OSM_L3_BUSWIDTH. */
uint64_t osm_l3_bytes_per_s(const OsmL3 *o);
/*
 * The femtoseconds @bytes take at @bytes_per_clock per clock of the
 * current frequency, to the nearest.
 */
uint64_t osm_l3_bytes_fs(const OsmL3 *o, uint64_t bytes,
                         uint32_t bytes_per_clock);
/* @cycles of the L3 clock at the current frequency, femtoseconds. */
uint64_t osm_l3_cycles_fs(const OsmL3 *o, uint64_t cycles);
/*
 * The effect on the timing model: how much longer @cycles of the domain's
 * clock take at the current frequency than at @full_hz (0: the top row's),
 * in femtoseconds; 0 at or above @full_hz.  The timing model's configured
 * latencies are those at full speed, so the top row changes nothing.
 */
uint64_t osm_l3_slowdown_fs(const OsmL3 *o, uint64_t cycles,
                            uint64_t full_hz);

#endif
