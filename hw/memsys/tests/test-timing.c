/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the timing parameters and the cache geometry checks. */
#include "cunit-run.h"
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "../timing.h"
#include "../topology.h"

/* Femtoseconds per cycle at @mhz: 10^9 / mhz. */
#define FS_PER_CYCLE(mhz) (1000000000ull / (mhz))

/* At the defaults every figure is exact (docs/timing-design.md §3.5). */
static void test_defaults(void)
{
    MemsysTiming t;
    uint64_t cycle = FS_PER_CYCLE(MEMSYS_TIMING_DEFAULT_MHZ);

    memsys_timing_default(&t);
    CU_ASSERT_PTR_NULL(memsys_timing_check(&t));
    CU_ASSERT_EQUAL(memsys_unit_fs(&t), cycle);                   /* CPI 1 */
    CU_ASSERT_EQUAL(memsys_level_fs(&t, MEMSYS_L1), 4 * cycle);
    CU_ASSERT_EQUAL(memsys_level_fs(&t, MEMSYS_L2), 11 * cycle);
    CU_ASSERT_EQUAL(memsys_level_fs(&t, MEMSYS_L3), 88 * cycle);
    CU_ASSERT_EQUAL(memsys_level_fs(&t, MEMSYS_MEM), 90 * 1000000ull);
    CU_ASSERT_EQUAL(memsys_load_l1_units(&t), 3);
    CU_ASSERT_EQUAL(t.quantum_ns, 10000);
}

/* Conversions of other configurations, to the nearest femtosecond. */
static void test_conversions(void)
{
    static const struct {
        uint32_t mhz, cpi_milli, l1;
        uint64_t unit_fs, l1_fs;
        uint32_t l1_units;
    } rows[] = {
        { 1000, 1000, 4, 1000000, 4000000, 3 },
        { 2000, 500, 4, 250000, 2000000, 7 },      /* CPI 0.5 */
        { 3000, 1000, 5, 333333, 1666667, 4 },     /* 10^9 / 3000 rounds */
        { 2500, 2000, 4, 800000, 1600000, 1 },     /* CPI 2 */
        { 1, 1000, 1, 1000000000, 1000000000, 0 }, /* L1 = one instruction */
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        MemsysTiming t;
        char *why;

        memsys_timing_default(&t);
        t.mhz = rows[i].mhz;
        t.cpi_milli = rows[i].cpi_milli;
        t.l1_cycles = rows[i].l1;
        t.mem_ns = 1000000;     /* above every L3 latency here */
        why = memsys_timing_check(&t);
        CU_ASSERT_PTR_NULL(why);
        g_free(why);
        CU_ASSERT_EQUAL(memsys_unit_fs(&t), rows[i].unit_fs);
        CU_ASSERT_EQUAL(memsys_level_fs(&t, MEMSYS_L1), rows[i].l1_fs);
        CU_ASSERT_EQUAL(memsys_load_l1_units(&t), rows[i].l1_units);
    }
}

/* Each bad configuration is refused with a message naming the property. */
static void test_validation(void)
{
    static const struct {
        const char *field;
        uint32_t value;
        const char *message;
    } rows[] = {
        { "mhz", 0, "timing-mhz must be greater than 0" },
        { "cpi", 0, "timing-cpi-milli must be greater than 0" },
        { "cpi", 5000, "timing-l1-cycles=4 is less than timing-cpi-milli="
                       "5000 (5.000 cycles)" },
        { "cpi", 1500, "timing-l1-cycles=4 minus timing-cpi-milli=1500 "
                       "(1.500 cycles) is not a whole number of "
                       "instructions" },
        /* a clock given in Hz: an instruction shorter than 1 fs */
        { "mhz", 2000000001, "timing-mhz=2000000001 is too fast for "
                             "timing-cpi-milli=1000: an instruction would "
                             "take less than 1 fs (at most 2000000000 MHz" },
        { "l2", 4, "timing-l2-cycles=4 must be greater than "
                   "timing-l1-cycles=4" },
        { "l3", 11, "timing-l3-cycles=11 must be greater than "
                    "timing-l2-cycles=11" },
        { "mem", 35, "timing-mem-ns=35 must be greater than the L3 latency "
                     "(timing-l3-cycles=88 at timing-mhz=2500: 35.200 ns)" },
        { "quantum", 0, "timing-quantum-ns=0 is not in 1..1000000000" },
        { "quantum", MEMSYS_QUANTUM_NS_MAX + 1,
          "timing-quantum-ns=1000000001 is not in 1..1000000000" },
        { "prefetch", MEMSYS_PREFETCH_MAX + 1,
          "timing-prefetch-lines=65 is more than 64" },
        { "stride", MEMSYS_PREFETCH_STRIDE_MAX + 1,
          "timing-prefetch-stride=4097 is more than 4096 (a page)" },
        { "store", MEMSYS_STORE_LINES_MAX + 1,
          "timing-store-lines=4097 is more than 4096" },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        MemsysTiming t;
        char *why;

        memsys_timing_default(&t);
        if (!strcmp(rows[i].field, "mhz")) {
            t.mhz = rows[i].value;
        } else if (!strcmp(rows[i].field, "cpi")) {
            t.cpi_milli = rows[i].value;
        } else if (!strcmp(rows[i].field, "l2")) {
            t.l2_cycles = rows[i].value;
        } else if (!strcmp(rows[i].field, "l3")) {
            t.l3_cycles = rows[i].value;
        } else if (!strcmp(rows[i].field, "mem")) {
            t.mem_ns = rows[i].value;
        } else if (!strcmp(rows[i].field, "prefetch")) {
            t.prefetch_lines = rows[i].value;
        } else if (!strcmp(rows[i].field, "stride")) {
            t.prefetch_stride = rows[i].value;
        } else if (!strcmp(rows[i].field, "store")) {
            t.store_lines = rows[i].value;
        } else {
            t.quantum_ns = rows[i].value;
        }
        why = memsys_timing_check(&t);
        CU_ASSERT_PTR_NOT_NULL(why);
        if (why && !g_str_has_prefix(why, rows[i].message)) {
            fprintf(stderr, "row %u: '%s' does not start with '%s'\n", i, why,
                    rows[i].message);
            CU_FAIL("validation message");
        }
        g_free(why);
    }
}

/* Geometry: one rule set for every level, messages naming the level. */
static void test_geometry(void)
{
    static const struct {
        MemqosCacheGeom g;
        const char *message;    /* NULL: valid */
    } rows[] = {
        { { 64 * 1024, 4, 64 }, NULL },
        { { 8 << 20, 16, 64 }, NULL },
        { { 32768 * 64, 1, 64 }, NULL },                /* most sets */
        { { 255 * 64, 255, 64 }, NULL },                /* most ways */
        { { 65536 * 64, 1, 64 }, "l2-size=4194304 does not give the L2 a "
                                 "power-of-two number of sets up to 32768" },
        { { 3 * 4 * 64, 4, 64 }, "l2-size=768 does not give the L2 a "
                                 "power-of-two" },
        { { 1000, 4, 64 }, "l2-size=1000 does not give" },
        { { 0, 4, 64 }, "l2-size=0 does not give" },
        { { 256 * 64, 256, 64 }, "l2-ways=256 is out of range 1..255" },
        { { 4096, 0, 64 }, "l2-ways=0 is out of range" },
        { { 4096, 4, 32 }, "the L2 line size 32 is not 64 bytes" },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        char *why = memqos_cache_geom_check("l2", &rows[i].g);

        if (!rows[i].message) {
            CU_ASSERT_PTR_NULL(why);
        } else if (!why || !g_str_has_prefix(why, rows[i].message)) {
            fprintf(stderr, "row %u: '%s' does not start with '%s'\n", i,
                    why ? why : "(valid)", rows[i].message);
            CU_FAIL("geometry message");
        }
        g_free(why);
    }
}

/* The topology check names the first bad level. */
static void test_topology(void)
{
    MemqosCacheTopo t = {
        .l1d = { 64 * 1024, 4, 64 }, .l1i = { 64 * 1024, 4, 64 },
        .l2 = { 1 << 20, 8, 64 }, .l3 = { 8 << 20, 16, 64 },
    };
    char *why = memqos_cache_topo_check(&t);

    CU_ASSERT_PTR_NULL(why);
    t.l3.size = 6 << 20;
    why = memqos_cache_topo_check(&t);
    CU_ASSERT(why && g_str_has_prefix(why, "l3-size=6291456"));
    g_free(why);
    t.l1i.ways = 3;
    why = memqos_cache_topo_check(&t);
    CU_ASSERT(why && g_str_has_prefix(why, "l1i-size=65536"));
    g_free(why);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "defaults", test_defaults },
        { "conversions", test_conversions },
        { "validation", test_validation },
        { "geometry", test_geometry },
        { "topology", test_topology },
    };

    return CUNIT_RUN("timing", tests);
}
