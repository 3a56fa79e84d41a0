/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the OSM L3 provider model (osm-l3.h): the Linux driver
 * drivers/interconnect/qcom/osm-l3.c (Linux 7.3) replayed against it -
 * its probe (REG_ENABLE, the LUT walk with its end mark) and its set()
 * for every peak bandwidth sdm845's CPU BWMON votes - and bad values.
 */
#include "cunit-run.h"
#include <stdio.h>
#include <glib.h>

#include "../osm-l3.h"

/* qcom_osm_l3_icc_provider, as far as the test needs it. */
typedef struct Provider {
    unsigned max_state;
    unsigned long lut_tables[OSM_L3_LUT_MAX];
} Provider;

/* qcom_osm_l3_probe: -1 for -ENODEV ("hardware not enabled"). */
static int probe(OsmL3 *o, unsigned long xo_rate, unsigned long alt_rate,
                 Provider *qp)
{
    unsigned long hw_rate = alt_rate / 2;           /* CLK_HW_DIV */
    uint32_t prev_freq = 0, freq;
    OsmL3Err err;
    unsigned i;

    if (!(osm_l3_read(o, 0x0, &err) & 0x1)) {
        return -1;
    }
    for (i = 0; i < OSM_L3_LUT_MAX; i++) {
        uint32_t info = osm_l3_read(o, 0x110 + i * 32, &err);
        uint32_t src = info >> 30, lval = info & 0xFF;

        CU_ASSERT_EQUAL(err, OSM_L3_ERR_NONE);
        freq = src ? xo_rate * lval : hw_rate;
        if (i > 0 && prev_freq == freq) {
            break;
        }
        qp->lut_tables[i] = freq;
        prev_freq = freq;
    }
    qp->max_state = i;
    return 0;
}

/* qcom_osm_l3_set for a peak bandwidth in kBps (icc units). */
static unsigned set(OsmL3 *o, const Provider *qp, uint32_t peak_kbps)
{
    uint64_t rate = (uint64_t)peak_kbps * 1000 / 16;    /* buswidth 16 */
    unsigned index;

    for (index = 0; index < qp->max_state - 1; index++) {
        if (qp->lut_tables[index] >= rate) {
            break;
        }
    }
    CU_ASSERT_EQUAL(osm_l3_write(o, 0x920, index), OSM_L3_ERR_NONE);
    return index;
}

/* The sdm845 model, probed by the driver with sdm845's clock rates. */
static OsmL3 *sdm845_probed(Provider *qp)
{
    OsmL3Config cfg;
    char *why;
    OsmL3 *o;

    osm_l3_config_default(&cfg);
    o = osm_l3_new(&cfg, &why);
    CU_ASSERT_PTR_NOT_NULL_FATAL(o);
    CU_ASSERT_EQUAL(probe(o, 19200000, 600000000, qp), 0);
    return o;
}

/* The sdm845 table the driver reads: 14 rows, 300 to 1593.6 MHz. */
static void test_probe(void)
{
    static const unsigned long mhz10[] = {
        3000, 4032, 4800, 5760, 6528, 7488, 8448, 9408, 10368, 11328,
        12096, 13056, 14016, 15936,
    };
    Provider qp = { 0 };
    OsmL3 *o = sdm845_probed(&qp);

    CU_ASSERT_EQUAL(qp.max_state, G_N_ELEMENTS(mhz10));
    for (unsigned i = 0; i < G_N_ELEMENTS(mhz10); i++) {
        CU_ASSERT_EQUAL(qp.lut_tables[i], mhz10[i] * 100000);
    }
    /* Until a vote: the lowest row. */
    CU_ASSERT_EQUAL(osm_l3_perf_state(o), 0);
    CU_ASSERT_EQUAL(osm_l3_freq_hz(o), 300000000);
    osm_l3_free(o);
}

/*
 * The CPU BWMON's OPPs (sdm845.dtsi cpu_bwmon_opp_table) are L3
 * frequencies x 16: each vote selects exactly that row, and the model's
 * bandwidth is the vote again.
 */
static void test_votes(void)
{
    static const uint32_t opps[] = {
        4800000, 9216000, 15052800, 20889600, 25497600,
    };
    static const unsigned rows[] = { 0, 3, 7, 11, 13 };
    Provider qp = { 0 };
    OsmL3 *o = sdm845_probed(&qp);
    for (unsigned i = 0; i < G_N_ELEMENTS(opps); i++) {
        CU_ASSERT_EQUAL(set(o, &qp, opps[i]), rows[i]);
        CU_ASSERT_EQUAL(osm_l3_perf_state(o), rows[i]);
        CU_ASSERT_EQUAL(osm_l3_bytes_per_s(o), (uint64_t)opps[i] * 1000);
        CU_ASSERT_EQUAL(osm_l3_freq_hz(o), (uint64_t)opps[i] * 1000 / 16);
    }
    /* Between rows: the next above; above all: the top. */
    CU_ASSERT_EQUAL(set(o, &qp, 9216001), 4);
    CU_ASSERT_EQUAL(set(o, &qp, 0), 0);
    CU_ASSERT_EQUAL(set(o, &qp, 40000000), 13);
    /* An L3 cycle at the top: 1 / 1593.6 MHz = 627.51 ps. */
    CU_ASSERT_EQUAL(osm_l3_cycles_fs(o, 1), 627510);
    CU_ASSERT_EQUAL(osm_l3_cycles_fs(o, 100000), 62751004016ull);
    osm_l3_set_perf_state(o, 0);
    /* 88 cycles at 300 MHz: 293.333 ns. */
    CU_ASSERT_EQUAL(osm_l3_cycles_fs(o, 88), 293333333);
    osm_l3_reset(o);
    CU_ASSERT_EQUAL(osm_l3_perf_state(o), 0);
    osm_l3_free(o);
}

/* Guest mistakes: no crash, the documented effect, an error code. */
static void test_bad_access(void)
{
    OsmL3Config cfg;
    OsmL3Err err;
    char *why;
    OsmL3 *o;

    osm_l3_config_default(&cfg);
    o = osm_l3_new(&cfg, &why);
    /* PERF_STATE past the table: the top row. */
    CU_ASSERT_EQUAL(osm_l3_write(o, 0x920, 14), OSM_L3_ERR_RANGE);
    CU_ASSERT_EQUAL(osm_l3_perf_state(o), 13);
    CU_ASSERT_EQUAL(osm_l3_read(o, 0x920, &err), 13);
    CU_ASSERT_EQUAL(osm_l3_write(o, 0x920, 0xFFFFFFFF), OSM_L3_ERR_RANGE);
    CU_ASSERT_EQUAL(osm_l3_perf_state(o), 13);
    /* Enable and LUT are read-only. */
    CU_ASSERT_EQUAL(osm_l3_write(o, 0x0, 0), OSM_L3_ERR_READ_ONLY);
    CU_ASSERT_EQUAL(osm_l3_read(o, 0x0, &err), 1);
    CU_ASSERT_EQUAL(osm_l3_write(o, 0x110, 7), OSM_L3_ERR_READ_ONLY);
    CU_ASSERT_EQUAL(osm_l3_read(o, 0x110, &err), 0);
    /* The rest of a LUT row, past the 40 rows, holes: RAZ/WI. */
    CU_ASSERT_EQUAL(osm_l3_read(o, 0x114, &err), 0);
    CU_ASSERT_EQUAL(err, OSM_L3_ERR_UNMAPPED);
    CU_ASSERT_EQUAL(osm_l3_read(o, 0x110 + 40 * 32, &err), 0);
    CU_ASSERT_EQUAL(err, OSM_L3_ERR_UNMAPPED);
    CU_ASSERT_EQUAL(osm_l3_read(o, 0x110 + 39 * 32, &err), cfg.lut[13]);
    CU_ASSERT_EQUAL(osm_l3_write(o, 0x924, 1), OSM_L3_ERR_UNMAPPED);
    CU_ASSERT_EQUAL(osm_l3_read(o, 0x10C, &err), 0);
    CU_ASSERT_EQUAL(err, OSM_L3_ERR_UNMAPPED);
    osm_l3_free(o);
}

/* Configurations the driver could not use are refused, with a reason. */
static void test_config(void)
{
    OsmL3Config cfg;
    char *why;

    osm_l3_config_default(&cfg);
    why = osm_l3_config_check(&cfg);
    CU_ASSERT_PTR_NULL(why);
    cfg.lut[5] = cfg.lut[4];
    why = osm_l3_config_check(&cfg);
    CU_ASSERT_TRUE(why && g_str_has_prefix(why, "osm-l3: LUT row 5"));
    g_free(why);
    osm_l3_config_default(&cfg);
    cfg.n_rows = 0;
    CU_ASSERT_PTR_NULL(osm_l3_new(&cfg, &why));
    CU_ASSERT_TRUE(why && g_str_has_prefix(why, "osm-l3: the LUT has 0"));
    g_free(why);
    osm_l3_config_default(&cfg);
    cfg.xo_hz = 0;
    why = osm_l3_config_check(&cfg);
    CU_ASSERT_TRUE(why && g_str_has_prefix(why, "osm-l3: the xo"));
    g_free(why);
    osm_l3_config_default(&cfg);
    cfg.lut[13] = (1u << 30) | 0xFF;                 /* 4896 MHz > u32 */
    cfg.xo_hz = 19200000;
    why = osm_l3_config_check(&cfg);
    CU_ASSERT_TRUE(why && g_str_has_prefix(why, "osm-l3: LUT row 13"));
    g_free(why);
    /* One row: the driver's table has one entry and every vote gets it. */
    osm_l3_config_default(&cfg);
    cfg.n_rows = 1;
    why = osm_l3_config_check(&cfg);
    CU_ASSERT_PTR_NULL(why);
}

/*
 * A pinned domain runs at its pin whatever the driver votes; PERF_STATE
 * still reads back what the driver wrote; unpinned, the vote counts again.
 */
static void test_pin(void)
{
    Provider qp = { 0 };
    OsmL3 *o = sdm845_probed(&qp);
    OsmL3Err err;

    osm_l3_pin(o, OSM_L3_PIN_TOP);
    CU_ASSERT_EQUAL(osm_l3_row(o), qp.max_state - 1);
    CU_ASSERT_EQUAL(osm_l3_freq_hz(o), qp.lut_tables[qp.max_state - 1]);
    CU_ASSERT_EQUAL(osm_l3_top_hz(o), qp.lut_tables[qp.max_state - 1]);
    CU_ASSERT_EQUAL(set(o, &qp, 4800000), 0);
    CU_ASSERT_EQUAL(osm_l3_read(o, 0x920, &err), 0);
    CU_ASSERT_EQUAL(osm_l3_perf_state(o), 0);
    CU_ASSERT_EQUAL(osm_l3_freq_hz(o), qp.lut_tables[qp.max_state - 1]);
    osm_l3_pin(o, 0);
    CU_ASSERT_EQUAL(set(o, &qp, 25497600), qp.max_state - 1);
    CU_ASSERT_EQUAL(osm_l3_freq_hz(o), qp.lut_tables[0]);
    /* Reset keeps the pin (it is configuration) and lowers PERF_STATE. */
    osm_l3_reset(o);
    CU_ASSERT_EQUAL(osm_l3_freq_hz(o), qp.lut_tables[0]);
    osm_l3_pin(o, 5);
    CU_ASSERT_EQUAL(osm_l3_freq_hz(o), qp.lut_tables[5]);
    osm_l3_pin(o, OSM_L3_PIN_NONE);
    CU_ASSERT_EQUAL(set(o, &qp, 15052800), 7);
    CU_ASSERT_EQUAL(osm_l3_row(o), 7);
    CU_ASSERT_EQUAL(osm_l3_freq_hz(o), qp.lut_tables[7]);
    osm_l3_free(o);
}

/* @cycles at @hz in femtoseconds, to the nearest (the test's own). */
static uint64_t cycles_fs(uint64_t cycles, uint64_t hz)
{
    return (uint64_t)(cycles * 1e15 / hz + 0.5);
}

/*
 * The effect: 48 L3 clocks take, beyond their time at the top row
 * (1593.6 MHz, the LUT's xo x 83), their time at the row the driver
 * selected minus that; nothing at the top, nothing at or above a full
 * speed below the top.
 */
static void test_slowdown(void)
{
    Provider qp = { 0 };
    OsmL3 *o = sdm845_probed(&qp);
    uint64_t top = qp.lut_tables[qp.max_state - 1];

    CU_ASSERT_EQUAL(top, 19200000ull * 83);
    CU_ASSERT_EQUAL(osm_l3_slowdown_fs(o, 48, 0),
                    cycles_fs(48, 300000000) - cycles_fs(48, top));
    /* 160 ns - 30.120 ns */
    CU_ASSERT_EQUAL(osm_l3_slowdown_fs(o, 48, 0), 129879518);
    for (unsigned i = 0; i < qp.max_state; i++) {
        osm_l3_set_perf_state(o, i);
        CU_ASSERT_EQUAL(osm_l3_slowdown_fs(o, 48, 0),
                        cycles_fs(48, qp.lut_tables[i]) -
                        cycles_fs(48, top));
        /* full speed at 480 MHz (row 2): nothing from there up */
        CU_ASSERT_EQUAL(osm_l3_slowdown_fs(o, 16, 480000000),
                        qp.lut_tables[i] >= 480000000 ? 0 :
                        cycles_fs(16, qp.lut_tables[i]) -
                        cycles_fs(16, 480000000));
    }
    CU_ASSERT_EQUAL(osm_l3_slowdown_fs(o, 48, 0), 0);
    CU_ASSERT_EQUAL(osm_l3_slowdown_fs(o, 0, 0), 0);
    osm_l3_free(o);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "probe", test_probe },
        { "votes", test_votes },
        { "bad-access", test_bad_access },
        { "config", test_config },
        { "pin", test_pin },
        { "slowdown", test_slowdown },
    };

    return CUNIT_RUN("osm-l3", tests);
}
