/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the DDR QoS model's configuration (ddr-config.h). */
#include "cunit-run.h"
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "../ddr-config.h"
#include "../ddr-qos.h"

/* @why is a message starting with @prefix (and say which if not). */
static void assert_message(char *why, const char *prefix, const char *ctx)
{
    if (!why || !g_str_has_prefix(why, prefix)) {
        fprintf(stderr, "%s: '%s' does not start with '%s'\n", ctx,
                why ? why : "(accepted)", prefix);
        CU_FAIL("message");
    }
    g_free(why);
}

/* @cfg with @name set to @value, refused by ddr_config_check with @prefix. */
static void assert_refused(const char *name, const char *value,
                           const char *prefix)
{
    DdrConfig cfg;
    char *why;

    ddr_config_default(&cfg);
    why = ddr_config_set(&cfg, name, value);
    CU_ASSERT_PTR_NULL(why);
    g_free(why);
    assert_message(ddr_config_check(&cfg), prefix, name);
}

/* The defaults: valid, the DDR5-4800B part and the Marvell read map. */
static void test_defaults(void)
{
    static const uint8_t read_map[DDR_DSPRI_LEVELS] = {
        DDR_LPR, DDR_LPR, DDR_LPR, DDR_LPR, DDR_LPR, DDR_LPR,
        DDR_VPR, DDR_VPR, DDR_VPR, DDR_VPR, DDR_VPR,
        DDR_HPR, DDR_HPR, DDR_HPR, DDR_HPR, DDR_HPR,
    };
    DdrConfig cfg;
    char *why;

    ddr_config_default(&cfg);
    why = ddr_config_check(&cfg);
    CU_ASSERT_PTR_NULL(why);
    g_free(why);
    CU_ASSERT_EQUAL(cfg.data_rate_mts, 4800);
    CU_ASSERT_EQUAL(cfg.cl, 40);
    CU_ASSERT_EQUAL(cfg.trcd, 39);
    CU_ASSERT_EQUAL(cfg.trp, 39);
    CU_ASSERT_EQUAL(memcmp(cfg.read_map, read_map, sizeof(read_map)), 0);
    for (unsigned p = 0; p < DDR_DSPRI_LEVELS; p++) {
        CU_ASSERT_EQUAL(cfg.write_map[p], p < 8 ? DDR_NPW : DDR_VPW);
    }
    /* tCK = 2 / 4800 MT/s = 416.667 ps: CL 40 = 16.667 ns. */
    CU_ASSERT_EQUAL(ddr_config_nck_ps(&cfg, 40), 16667);
    CU_ASSERT_EQUAL(ddr_config_nck_ps(&cfg, 8), 3333);
    CU_ASSERT_EQUAL(ddr_config_nck_ps(&cfg, 3), 1250);
}

/* Every field with a minimum of 1 refuses 0, naming itself. */
static void test_zero(void)
{
    unsigned refused = 0;

    for (unsigned i = 0; i < ddr_config_n_fields; i++) {
        const DdrConfigField *f = &ddr_config_fields[i];
        g_autofree char *prefix = g_strdup_printf("%s must be greater "
                                                  "than 0", f->name);

        if (f->min) {
            assert_refused(f->name, "0", prefix);
            refused++;
        }
    }
    /* Everything physical: all but frontend, timeouts, guards, wr-low. */
    CU_ASSERT_EQUAL(refused, ddr_config_n_fields - 7);
}

/*
 * Every field with a maximum below 2^32 - 1 refuses one more, naming
 * itself and the bound: the four that issue 25 found to abort QEMU on an
 * allocation first (4294967295 channels or entries, 2^31 banks).
 */
static void test_max(void)
{
    static const struct {
        const char *name, *value, *message;
    } rows[] = {
        { "ddr-channels", "4294967295", "ddr-channels=4294967295 is more than "
                                        "256" },
        { "ddr-lpr-entries", "4294967295", "ddr-lpr-entries=4294967295 is "
                                           "more than 4096 entries" },
        { "ddr-banks", "2147483648", "ddr-banks=2147483648 is more than 256" },
        { "ddr-data-rate-mts", "4294967295", "ddr-data-rate-mts=4294967295 "
                                             "is more than 100000 MT/s" },
    };
    unsigned bounded = 0;

    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        assert_refused(rows[i].name, rows[i].value, rows[i].message);
    }
    for (unsigned i = 0; i < ddr_config_n_fields; i++) {
        const DdrConfigField *f = &ddr_config_fields[i];
        g_autofree char *value = g_strdup_printf("%u", f->max + 1);
        g_autofree char *prefix = g_strdup_printf("%s=%s is more than %u",
                                                  f->name, value, f->max);

        CU_ASSERT(f->def >= f->min && f->def <= f->max);
        if (f->max < UINT32_MAX) {
            assert_refused(f->name, value, prefix);
            bounded++;
        }
    }
    /* all but the four picosecond times */
    CU_ASSERT_EQUAL(bounded, ddr_config_n_fields - 4);
}

/* Values that are not non-negative 32-bit integers never reach a field. */
static void test_syntax(void)
{
    static const struct {
        const char *name, *value, *message;
    } rows[] = {
        { "ddr-trcd", "-1", "ddr-trcd=-1 is not an integer in 0..4294967295" },
        { "ddr-trcd", "-0", "ddr-trcd=-0 is not an integer" },
        { "ddr-trcd", "+5", "ddr-trcd=+5 is not an integer" },
        { "ddr-trcd", "", "ddr-trcd= is not an integer" },
        { "ddr-trcd", "39ns", "ddr-trcd=39ns is not an integer" },
        { "ddr-trcd", "4294967296", "ddr-trcd=4294967296 is not an integer" },
        { "ddr-trcd", "99999999999999999999999", "ddr-trcd=9999" },
        { "ddr-tras", "32", "unknown DDR property 'ddr-tras'" },
    };
    DdrConfig cfg, before;

    ddr_config_default(&cfg);
    before = cfg;
    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        assert_message(ddr_config_set(&cfg, rows[i].name, rows[i].value),
                       rows[i].message, rows[i].value);
    }
    CU_ASSERT_EQUAL(memcmp(&cfg, &before, sizeof(cfg)), 0);
    CU_ASSERT_PTR_NULL(ddr_config_set(&cfg, "ddr-trcd", "0x20"));
    CU_ASSERT_EQUAL(cfg.trcd, 32);
    CU_ASSERT_PTR_NULL(ddr_config_set(&cfg, "ddr-trcd", "4294967295"));
    CU_ASSERT_EQUAL(cfg.trcd, UINT32_MAX);
}

/* Rules across fields. */
static void test_rules(void)
{
    static const struct {
        const char *name, *value, *message;
    } rows[] = {
        { "ddr-burst-length", "15", "ddr-burst-length=15 is odd" },
        { "ddr-burst-length", "12", "one burst (ddr-bus-bytes=4 x "
                                    "ddr-burst-length=12) must be a power "
                                    "of two" },
        { "ddr-banks", "24", "ddr-banks=24 is not a power of two" },
        { "ddr-row-bytes", "3000", "ddr-row-bytes=3000 is not a power of two" },
        { "ddr-row-bytes", "32", "ddr-row-bytes=32 is smaller than one "
                                 "burst (64 bytes)" },
        { "ddr-interleave-bytes", "32", "ddr-interleave-bytes=32 is smaller "
                                        "than one burst" },
        { "ddr-cwl", "41", "ddr-cwl=41 must not exceed ddr-cl=40" },
        { "ddr-trfc-ps", "3900000", "ddr-trfc-ps=3900000 must be less than "
                                    "ddr-trefi-ps=3900000" },
        { "ddr-wr-high", "65", "ddr-wr-high=65 exceeds ddr-wr-entries=64" },
        { "ddr-wr-low", "54", "ddr-wr-low=54 must be less than "
                              "ddr-wr-high=54" },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        assert_refused(rows[i].name, rows[i].value, rows[i].message);
    }
}

/* DSPRI maps: parsed, and refused when not total, monotonic, one way. */
static void test_maps(void)
{
    static const struct {
        const char *name, *value, *message;    /* message NULL: valid */
        bool syntax;                           /* refused by the parser */
    } rows[] = {
        { "ddr-read-map", "0-15:lpr", NULL, false },
        { "ddr-read-map", "0-3:lpr,4-11:vpr,12-15:hpr", NULL, false },
        { "ddr-read-map", "0:lpr,1-15:HPR", NULL, false },
        { "ddr-write-map", "0-15:vpw", NULL, false },
        { "ddr-read-map", "0-5:lpr,7-15:hpr",
          "ddr-read-map: DSPRI 6 is not mapped to a class", false },
        { "ddr-read-map", "0-5:lpr,6-10:vpr",
          "ddr-read-map: DSPRI 11 is not mapped", false },
        { "ddr-read-map", "0-10:hpr,11-15:lpr",
          "ddr-read-map is not monotonic: DSPRI 11 is LPR but the lower "
          "DSPRI 10 is HPR", false },
        { "ddr-read-map", "0-5:lpr,6-10:hpr,11-15:vpr",
          "ddr-read-map is not monotonic: DSPRI 11 is VPR", false },
        { "ddr-write-map", "0-7:vpw,8-15:npw",
          "ddr-write-map is not monotonic: DSPRI 8 is NPW", false },
        { "ddr-read-map", "0-7:lpr,8-15:vpw",
          "ddr-read-map: DSPRI 8 is mapped to VPW, not a read class", false },
        { "ddr-write-map", "0-15:hpr",
          "ddr-write-map: DSPRI 0 is mapped to HPR, not a write class", false },
        { "ddr-read-map", "0-5:lpr,5-15:hpr",
          "ddr-read-map: DSPRI 5 is mapped twice", true },
        { "ddr-read-map", "0-16:lpr",
          "ddr-read-map: DSPRI range 0-16 is not within 0-15", true },
        { "ddr-read-map", "5-0:lpr",
          "ddr-read-map: DSPRI range 5-0 is not within 0-15", true },
        { "ddr-read-map", "0-15:xyz",
          "ddr-read-map: unknown class 'xyz'", true },
        { "ddr-read-map", "0-15",
          "ddr-read-map: '0-15' is not LO-HI:CLASS or N:CLASS", true },
        { "ddr-read-map", "0-15:lpr,",
          "ddr-read-map: '' is not LO-HI:CLASS", true },
        { "ddr-read-map", "-1-15:lpr",
          "ddr-read-map: '-1-15:lpr' is not LO-HI:CLASS", true },
        /* issue 25: read as 0-15:lpr when the number wrapped at 2^32 */
        { "ddr-read-map", "0-4294967311:lpr",
          "ddr-read-map: DSPRI range 0-4294967311 is not within 0-15", true },
        { "ddr-write-map", "4294967296:npw,1-15:vpw",
          "ddr-write-map: DSPRI range 4294967296 is not within 0-15", true },
        { "ddr-read-map", "0-15:lpr:x",
          "ddr-read-map: '0-15:lpr:x' is not LO-HI:CLASS", true },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        DdrConfig cfg, before;
        char *why;

        ddr_config_default(&cfg);
        before = cfg;
        why = ddr_config_set(&cfg, rows[i].name, rows[i].value);
        if (rows[i].syntax) {
            assert_message(why, rows[i].message, rows[i].value);
            CU_ASSERT_EQUAL(memcmp(&cfg, &before, sizeof(cfg)), 0);
            continue;
        }
        CU_ASSERT_PTR_NULL(why);
        g_free(why);
        why = ddr_config_check(&cfg);
        if (!rows[i].message) {
            CU_ASSERT_PTR_NULL(why);
            g_free(why);
        } else {
            assert_message(why, rows[i].message, rows[i].value);
        }
    }
}

/* A bad configuration never makes a model. */
static void test_new_refuses(void)
{
    DdrConfig cfg;
    GError *err = NULL;

    ddr_config_default(&cfg);
    cfg.channels = 0;
    CU_ASSERT_PTR_NULL(ddr_qos_new(&cfg, &err));
    CU_ASSERT(err && !strcmp(err->message,
                             "ddr-channels must be greater than 0"));
    g_clear_error(&err);
    ddr_config_default(&cfg);
    cfg.read_map[3] = DDR_UNMAPPED;
    CU_ASSERT_PTR_NULL(ddr_qos_new(&cfg, &err));
    CU_ASSERT(err && g_str_has_prefix(err->message,
                                      "ddr-read-map: DSPRI 3 is not mapped"));
    g_clear_error(&err);
}

/* The class of a request: its direction's map, DSPRI above 15 as 15. */
static void test_class(void)
{
    DdrConfig cfg;
    MemReq r = { .kind = MEMREQ_READ };

    ddr_config_default(&cfg);
    for (unsigned p = 0; p < 20; p++) {
        r.dspri = p;
        r.kind = MEMREQ_READ;
        CU_ASSERT_EQUAL(ddr_qos_class(&cfg, &r),
                        p <= 5 ? DDR_LPR : p <= 10 ? DDR_VPR : DDR_HPR);
        r.kind = MEMREQ_FETCH;
        CU_ASSERT_EQUAL(ddr_qos_class(&cfg, &r),
                        p <= 5 ? DDR_LPR : p <= 10 ? DDR_VPR : DDR_HPR);
        r.kind = MEMREQ_WRITE;
        CU_ASSERT_EQUAL(ddr_qos_class(&cfg, &r), p <= 7 ? DDR_NPW : DDR_VPW);
    }
    CU_ASSERT_STRING_EQUAL(ddr_class_name(DDR_VPR), "VPR");
}

/*
 * The string form of a map parses back to the same map, and is the
 * shortest: one range per run of equal classes.
 */
static void test_map_str(void)
{
    static const struct {
        const char *name, *value, *want;
    } rows[] = {
        { "ddr-read-map", "0-5:lpr,6-10:vpr,11-15:hpr",
          "0-5:lpr,6-10:vpr,11-15:hpr" },
        { "ddr-read-map", "0:LPR,1-3:lpr,4-15:hpr", "0-3:lpr,4-15:hpr" },
        { "ddr-write-map", "0-14:npw,15:vpw", "0-14:npw,15:vpw" },
        { "ddr-read-map", "0-5:lpr,7-15:hpr", "0-5:lpr,7-15:hpr" },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        DdrConfig cfg, again;
        const uint8_t *map;
        g_autofree char *s = NULL;

        ddr_config_default(&cfg);
        CU_ASSERT_PTR_NULL_FATAL(ddr_config_set(&cfg, rows[i].name,
                                                rows[i].value));
        map = rows[i].name[4] == 'r' ? cfg.read_map : cfg.write_map;
        s = ddr_config_map_str(map);
        CU_ASSERT_STRING_EQUAL(s, rows[i].want);
        again = cfg;
        memset(rows[i].name[4] == 'r' ? again.read_map : again.write_map, 0,
               DDR_DSPRI_LEVELS);
        CU_ASSERT_PTR_NULL_FATAL(ddr_config_set(&again, rows[i].name, s));
        CU_ASSERT_EQUAL(memcmp(&again, &cfg, sizeof(cfg)), 0);
    }
}

int main(void)
{
    static const CunitTest tests[] = {
        { "defaults", test_defaults },
        { "zero_refused", test_zero },
        { "max_refused", test_max },
        { "syntax_negative_refused", test_syntax },
        { "rules", test_rules },
        { "dspri_maps", test_maps },
        { "new_refuses", test_new_refuses },
        { "class_of_request", test_class },
        { "map_str", test_map_str },
    };

    return CUNIT_RUN("ddr-config", tests);
}
