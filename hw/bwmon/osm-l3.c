/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The OSM L3 frequency domain, see osm-l3.h.  The sources of the sdm845
 * defaults are in docs/bwmon-model.md, "The OSM L3 provider".
 */
#include <glib.h>

#include "osm-l3.h"

#define SRC_XO      (1u << OSM_L3_LUT_SRC_SHIFT)

struct OsmL3 {
    OsmL3Config cfg;
    unsigned perf_state;
    int pin;                    /* OSM_L3_PIN_NONE or a row of the table */
};

/* sdm845 L3: 300 MHz from GPLL0 / 2, then xo x L_VAL up to 1593.6 MHz. */
static const uint8_t sdm845_l_val[] = {
    21, 25, 30, 34, 39, 44, 49, 54, 59, 63, 68, 73, 83,
};

void osm_l3_config_default(OsmL3Config *cfg)
{
    *cfg = (OsmL3Config) { .xo_hz = 19200000, .alt_hz = 600000000 };
    cfg->lut[cfg->n_rows++] = 0;
    for (unsigned i = 0; i < G_N_ELEMENTS(sdm845_l_val); i++) {
        cfg->lut[cfg->n_rows++] = SRC_XO | sdm845_l_val[i];
    }
}

uint64_t osm_l3_lut_hz(const OsmL3Config *cfg, uint32_t word)
{
    if (word >> OSM_L3_LUT_SRC_SHIFT) {
        return (uint64_t)cfg->xo_hz * (word & OSM_L3_LUT_L_VAL_MASK);
    }
    return cfg->alt_hz / 2;     /* the driver's CLK_HW_DIV */
}

char *osm_l3_config_check(const OsmL3Config *cfg)
{
    if (!cfg->xo_hz || !cfg->alt_hz) {
        return g_strdup("osm-l3: the xo and alternate clocks (xo-hz, "
                        "alt-hz) must be greater than 0 Hz");
    }
    if (!cfg->n_rows || cfg->n_rows > OSM_L3_LUT_MAX) {
        return g_strdup_printf("osm-l3: the LUT has %u rows, it must have "
                               "1 to %u", cfg->n_rows, OSM_L3_LUT_MAX);
    }
    for (unsigned i = 0; i < cfg->n_rows; i++) {
        uint64_t hz = osm_l3_lut_hz(cfg, cfg->lut[i]);

        /* The driver keeps a u32 frequency. */
        if (!hz || hz > UINT32_MAX) {
            return g_strdup_printf("osm-l3: LUT row %u is %" G_GUINT64_FORMAT
                                   " Hz, not 1..%u (xo-hz, alt-hz)", i, hz,
                                   UINT32_MAX);
        }
        if (i && hz <= osm_l3_lut_hz(cfg, cfg->lut[i - 1])) {
            return g_strdup_printf("osm-l3: LUT row %u (%" G_GUINT64_FORMAT
                                   " Hz) is not above row %u: the driver "
                                   "needs rising frequencies (xo-hz, "
                                   "alt-hz)", i, hz, i - 1);
        }
    }
    return NULL;
}

OsmL3 *osm_l3_new(const OsmL3Config *cfg, char **why)
{
    OsmL3 *o;

    *why = osm_l3_config_check(cfg);
    if (*why) {
        return NULL;
    }
    o = g_new0(OsmL3, 1);
    o->cfg = *cfg;
    o->pin = OSM_L3_PIN_NONE;
    return o;
}

void osm_l3_free(OsmL3 *o)
{
    g_free(o);
}

void osm_l3_reset(OsmL3 *o)
{
    o->perf_state = 0;
}

/* The LUT row at @offset, -1 if none. */
static int lut_row(uint32_t offset)
{
    uint32_t rel = offset - OSM_L3_REG_FREQ_LUT;

    if (offset < OSM_L3_REG_FREQ_LUT || rel % OSM_L3_LUT_ROW_SIZE ||
        rel / OSM_L3_LUT_ROW_SIZE >= OSM_L3_LUT_MAX) {
        return -1;
    }
    return rel / OSM_L3_LUT_ROW_SIZE;
}

uint32_t osm_l3_read(const OsmL3 *o, uint32_t offset, OsmL3Err *err)
{
    int row = lut_row(offset);

    *err = OSM_L3_ERR_NONE;
    if (offset == OSM_L3_REG_ENABLE) {
        return 1;
    }
    if (offset == OSM_L3_REG_PERF_STATE) {
        return o->perf_state;
    }
    if (row >= 0) {
        /* Rows past the table repeat its last: the driver's end mark. */
        return o->cfg.lut[MIN((unsigned)row, o->cfg.n_rows - 1)];
    }
    *err = OSM_L3_ERR_UNMAPPED;
    return 0;
}

OsmL3Err osm_l3_write(OsmL3 *o, uint32_t offset, uint32_t value)
{
    if (offset == OSM_L3_REG_PERF_STATE) {
        o->perf_state = MIN(value, o->cfg.n_rows - 1);
        return value < o->cfg.n_rows ? OSM_L3_ERR_NONE : OSM_L3_ERR_RANGE;
    }
    if (offset == OSM_L3_REG_ENABLE || lut_row(offset) >= 0) {
        return OSM_L3_ERR_READ_ONLY;
    }
    return OSM_L3_ERR_UNMAPPED;
}

unsigned osm_l3_perf_state(const OsmL3 *o)
{
    return o->perf_state;
}

void osm_l3_set_perf_state(OsmL3 *o, unsigned index)
{
    o->perf_state = MIN(index, o->cfg.n_rows - 1);
}

void osm_l3_pin(OsmL3 *o, int row)
{
    o->pin = row < 0 ? OSM_L3_PIN_NONE : (int)MIN((unsigned)row,
                                                  o->cfg.n_rows - 1);
}

unsigned osm_l3_row(const OsmL3 *o)
{
    return o->pin == OSM_L3_PIN_NONE ? o->perf_state : (unsigned)o->pin;
}

uint64_t osm_l3_freq_hz(const OsmL3 *o)
{
    return osm_l3_lut_hz(&o->cfg, o->cfg.lut[osm_l3_row(o)]);
}

uint64_t osm_l3_top_hz(const OsmL3 *o)
{
    return osm_l3_lut_hz(&o->cfg, o->cfg.lut[o->cfg.n_rows - 1]);
}

uint64_t osm_l3_bytes_per_s(const OsmL3 *o)
{
    return osm_l3_freq_hz(o) * OSM_L3_BUSWIDTH;
}

/* @cycles at @hz in fs, to the nearest, without overflowing 64 bits. */
static uint64_t hz_cycles_fs(uint64_t hz, uint64_t cycles)
{
    const uint64_t fs_per_s = 1000000000000000ull;

    return cycles * (fs_per_s / hz) + (cycles * (fs_per_s % hz) + hz / 2) / hz;
}

uint64_t osm_l3_cycles_fs(const OsmL3 *o, uint64_t cycles)
{
    return hz_cycles_fs(osm_l3_freq_hz(o), cycles);
}

uint64_t osm_l3_bytes_fs(const OsmL3 *o, uint64_t bytes,
                         uint32_t bytes_per_clock)
{
    return hz_cycles_fs(osm_l3_freq_hz(o) * bytes_per_clock, bytes);
}

uint64_t osm_l3_slowdown_fs(const OsmL3 *o, uint64_t cycles, uint64_t full_hz)
{
    uint64_t hz = osm_l3_freq_hz(o);

    if (!full_hz) {
        full_hz = osm_l3_top_hz(o);
    }
    if (hz >= full_hz) {
        return 0;
    }
    return hz_cycles_fs(hz, cycles) - hz_cycles_fs(full_hz, cycles);
}
