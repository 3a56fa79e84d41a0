/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Configuration of the DDR QoS scheduler model, see ddr-config.h.  The
 * sources of the defaults are in docs/ddr-qos-model.md, "Configuration".
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <glib.h>

#include "ddr-config.h"

#define F(field) offsetof(DdrConfig, field)

/*
 * Maxima (the last column): far beyond any DDR or HBM part, and small
 * enough that the queues and banks of every channel fit in memory (at most
 * 256 channels x five queues x 4096 entries, 256 banks) and no clock count
 * overflows (MAXNCK; ~0u: the whole 32-bit range).
 */
#define GIB             (1u << 30)
#define MAXNCK          0xffffff

/* Defaults: DDR5-4800B 40-39-39, 16 Gb x8, 32-bit subchannels. */
const DdrConfigField ddr_config_fields[] = {
    { "ddr-channels",        F(channels),        "",       8,       1, 256 },
    { "ddr-data-rate-mts",   F(data_rate_mts),   "MT/s",   4800,    1, 100000 },
    { "ddr-bus-bytes",       F(bus_bytes),       "bytes",  4,       1, 64 },
    { "ddr-burst-length",    F(burst_length),    "",       16,      1, 64 },
    { "ddr-banks",           F(banks),           "",       32,      1, 256 },
    { "ddr-row-bytes",       F(row_bytes),       "bytes",  4096,    1, GIB },
    { "ddr-interleave-bytes", F(interleave_bytes), "bytes",  256,     1, GIB },
    { "ddr-cl",              F(cl),              "nCK",    40,      1, MAXNCK },
    { "ddr-cwl",             F(cwl),             "nCK",    38,      1, MAXNCK },
    { "ddr-trcd",            F(trcd),            "nCK",    39,      1, MAXNCK },
    { "ddr-trp",             F(trp),             "nCK",    39,      1, MAXNCK },
    { "ddr-trrd-s",          F(trrd_s),          "nCK",    8,       1, MAXNCK },
    { "ddr-tfaw",            F(tfaw),            "nCK",    32,      1, MAXNCK },
    { "ddr-twtr-ps",         F(twtr_ps),         "ps",     10000,   1, ~0u },
    { "ddr-trfc-ps",         F(trfc_ps),         "ps",     295000,  1, ~0u },
    { "ddr-trefi-ps",        F(trefi_ps),        "ps",     3900000, 1, ~0u },
    { "ddr-frontend-ps",     F(frontend_ps),     "ps",     20000,   0, ~0u },
    { "ddr-lpr-entries",     F(lpr_entries),     "entries", 33,      1, 4096 },
    { "ddr-hpr-entries",     F(hpr_entries),     "entries", 31,      1, 4096 },
    { "ddr-wr-entries",      F(wr_entries),      "entries", 64,      1, 4096 },
    { "ddr-wr-high",         F(wr_high),         "entries", 54,      1, 4096 },
    { "ddr-wr-low",          F(wr_low),          "entries", 32,      0, 4096 },
    { "ddr-vpr-timeout",     F(vpr_timeout),     "nCK",    128,     0, MAXNCK },
    { "ddr-vpw-timeout",     F(vpw_timeout),     "nCK",    256,     0, MAXNCK },
    { "ddr-lpr-max-starve",  F(lpr_max_starve),  "nCK",    254,     0, MAXNCK },
    { "ddr-hpr-max-starve",  F(hpr_max_starve),  "nCK",    2,       0, MAXNCK },
    { "ddr-wr-max-starve",   F(wr_max_starve),   "nCK",    254,     0, MAXNCK },
    { "ddr-lpr-run",         F(lpr_run),         "",       15,      1, 4096 },
    { "ddr-hpr-run",         F(hpr_run),         "",       15,      1, 4096 },
    { "ddr-wr-run",          F(wr_run),          "",       15,      1, 4096 },
};
const unsigned ddr_config_n_fields = G_N_ELEMENTS(ddr_config_fields);

/* The default maps: the Marvell RFC's read regions, ZU+'s write regions. */
#define DEFAULT_READ_MAP    "0-5:lpr,6-10:vpr,11-15:hpr"
#define DEFAULT_WRITE_MAP   "0-7:npw,8-15:vpw"

static const char *const class_names[DDR_N_CLASSES] = {
    [DDR_LPR] = "LPR", [DDR_VPR] = "VPR", [DDR_HPR] = "HPR",
    [DDR_NPW] = "NPW", [DDR_VPW] = "VPW",
};

const char *ddr_class_name(DdrClass c)
{
    return c < DDR_N_CLASSES ? class_names[c] : "unmapped";
}

static uint32_t *field_ptr(DdrConfig *cfg, const DdrConfigField *f)
{
    return (uint32_t *)((char *)cfg + f->offset);
}

static uint32_t field_val(const DdrConfig *cfg, const char *name)
{
    for (unsigned i = 0; i < ddr_config_n_fields; i++) {
        if (!strcmp(ddr_config_fields[i].name, name)) {
            return *(const uint32_t *)((const char *)cfg +
                                       ddr_config_fields[i].offset);
        }
    }
    g_assert_not_reached();
}

/*
 * A DSPRI at *@s: digits, read without wrapping (a value past the levels
 * stays past them); advances *@s.  False if *@s is not a digit.
 */
static bool dspri_num(const char **s, unsigned *v)
{
    if (!g_ascii_isdigit(**s)) {
        return false;
    }
    for (*v = 0; g_ascii_isdigit(**s); (*s)++) {
        *v = MIN(*v * 10 + (unsigned)(**s - '0'), DDR_DSPRI_LEVELS);
    }
    return true;
}

/* "lo-hi:class,..." into @map; NULL or a message. */
static char *parse_map(const char *name, const char *value, uint8_t *map)
{
    g_auto(GStrv) parts = g_strsplit(value, ",", -1);

    memset(map, DDR_UNMAPPED, DDR_DSPRI_LEVELS);
    for (unsigned i = 0; parts[i]; i++) {
        const char *s = parts[i], *cls;
        unsigned lo, hi, c;

        if (!dspri_num(&s, &lo) ||
            (*s == '-' ? (s++, !dspri_num(&s, &hi)) : (hi = lo, false)) ||
            *s != ':' || !s[1] || strlen(s + 1) > 3) {
            return g_strdup_printf("%s: '%s' is not LO-HI:CLASS or N:CLASS "
                                   "(CLASS lpr, vpr, hpr, npw or vpw)",
                                   name, parts[i]);
        }
        cls = s + 1;
        for (c = 0; c < DDR_N_CLASSES; c++) {
            if (!g_ascii_strcasecmp(cls, class_names[c])) {
                break;
            }
        }
        if (c == DDR_N_CLASSES) {
            return g_strdup_printf("%s: unknown class '%s' (lpr, vpr, hpr, "
                                   "npw or vpw)", name, cls);
        }
        if (lo > hi || hi >= DDR_DSPRI_LEVELS) {
            return g_strdup_printf("%s: DSPRI range %.*s is not within "
                                   "0-%u", name, (int)(cls - 1 - parts[i]),
                                   parts[i], DDR_DSPRI_LEVELS - 1);
        }
        for (unsigned p = lo; p <= hi; p++) {
            if (map[p] != DDR_UNMAPPED) {
                return g_strdup_printf("%s: DSPRI %u is mapped twice", name,
                                       p);
            }
            map[p] = c;
        }
    }
    return NULL;
}

void ddr_config_default(DdrConfig *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    for (unsigned i = 0; i < ddr_config_n_fields; i++) {
        *field_ptr(cfg, &ddr_config_fields[i]) = ddr_config_fields[i].def;
    }
    g_assert(!parse_map("ddr-read-map", DEFAULT_READ_MAP, cfg->read_map));
    g_assert(!parse_map("ddr-write-map", DEFAULT_WRITE_MAP, cfg->write_map));
}

char *ddr_config_set(DdrConfig *cfg, const char *name, const char *value)
{
    uint8_t map[DDR_DSPRI_LEVELS];
    unsigned long long v;
    char *end;
    char *why;

    if (!strcmp(name, "ddr-read-map") || !strcmp(name, "ddr-write-map")) {
        why = parse_map(name, value, map);
        if (!why) {
            memcpy(name[4] == 'r' ? cfg->read_map : cfg->write_map, map,
                   sizeof(map));
        }
        return why;
    }
    for (unsigned i = 0; i < ddr_config_n_fields; i++) {
        const DdrConfigField *f = &ddr_config_fields[i];

        if (strcmp(f->name, name)) {
            continue;
        }
        /* strtoull accepts a sign: refuse it before it wraps a negative. */
        errno = 0;
        v = g_ascii_isdigit(value[0]) ? strtoull(value, &end, 0) : 0;
        if (!g_ascii_isdigit(value[0]) || *end || errno || v > UINT32_MAX) {
            return g_strdup_printf("%s=%s is not an integer in 0..%" PRIu32,
                                   name, value, UINT32_MAX);
        }
        *field_ptr(cfg, f) = v;
        return NULL;
    }
    return g_strdup_printf("unknown DDR property '%s'", name);
}

char *ddr_config_map_check(const uint8_t *map, int write)
{
    const char *name = write ? "ddr-write-map" : "ddr-read-map";
    unsigned first = write ? DDR_NPW : DDR_LPR;
    unsigned last = write ? DDR_VPW : DDR_HPR;

    for (unsigned p = 0; p < DDR_DSPRI_LEVELS; p++) {
        if (map[p] == DDR_UNMAPPED) {
            return g_strdup_printf("%s: DSPRI %u is not mapped to a class "
                                   "(every value 0-%u must be)", name, p,
                                   DDR_DSPRI_LEVELS - 1);
        }
        if (map[p] < first || map[p] > last) {
            return g_strdup_printf("%s: DSPRI %u is mapped to %s, not a %s "
                                   "class", name, p, ddr_class_name(map[p]),
                                   write ? "write" : "read");
        }
        /* Class order is priority order within a direction (DdrClass). */
        if (p && map[p] < map[p - 1]) {
            return g_strdup_printf("%s is not monotonic: DSPRI %u is %s but "
                                   "the lower DSPRI %u is %s", name, p,
                                   ddr_class_name(map[p]), p - 1,
                                   ddr_class_name(map[p - 1]));
        }
    }
    return NULL;
}

char *ddr_config_map_str(const uint8_t *map)
{
    GString *s = g_string_new(NULL);

    for (unsigned lo = 0, hi; lo < DDR_DSPRI_LEVELS; lo = hi + 1) {
        for (hi = lo; hi + 1 < DDR_DSPRI_LEVELS && map[hi + 1] == map[lo];
             hi++) {
        }
        if (map[lo] == DDR_UNMAPPED) {
            continue;
        }
        g_string_append_printf(s, "%s%u", s->len ? "," : "", lo);
        if (hi > lo) {
            g_string_append_printf(s, "-%u", hi);
        }
        g_string_append_printf(s, ":%s", ddr_class_name(map[lo]));
    }
    /* the parser takes either case; lower case is how maps are written */
    return g_string_free(g_string_ascii_down(s), FALSE);
}

static bool pow2(uint32_t v)
{
    return v && !(v & (v - 1));
}

char *ddr_config_check(const DdrConfig *cfg)
{
    uint32_t burst = cfg->bus_bytes * cfg->burst_length;
    char *why;

    for (unsigned i = 0; i < ddr_config_n_fields; i++) {
        const DdrConfigField *f = &ddr_config_fields[i];

        uint32_t v = *(const uint32_t *)((const char *)cfg + f->offset);

        if (v < f->min) {
            return g_strdup_printf("%s must be greater than 0", f->name);
        }
        if (v > f->max) {
            return g_strdup_printf("%s=%u is more than %u%s%s", f->name, v,
                                   f->max, *f->unit ? " " : "", f->unit);
        }
    }
    if (cfg->burst_length % 2) {
        return g_strdup_printf("ddr-burst-length=%u is odd (double data "
                               "rate: two transfers a clock)",
                               cfg->burst_length);
    }
    if (!pow2(burst) || cfg->bus_bytes > 64 || cfg->burst_length > 64) {
        return g_strdup_printf("one burst (ddr-bus-bytes=%u x "
                               "ddr-burst-length=%u) must be a power of two "
                               "of at most 4096 bytes", cfg->bus_bytes,
                               cfg->burst_length);
    }
    static const char *const pow2_fields[] = {
        "ddr-banks", "ddr-row-bytes", "ddr-interleave-bytes",
    };
    for (unsigned i = 0; i < G_N_ELEMENTS(pow2_fields); i++) {
        uint32_t v = field_val(cfg, pow2_fields[i]);

        if (!pow2(v)) {
            return g_strdup_printf("%s=%u is not a power of two",
                                   pow2_fields[i], v);
        }
        if (i && v < burst) {
            return g_strdup_printf("%s=%u is smaller than one burst (%u "
                                   "bytes)", pow2_fields[i], v, burst);
        }
    }
    if (cfg->cwl > cfg->cl) {
        return g_strdup_printf("ddr-cwl=%u must not exceed ddr-cl=%u",
                               cfg->cwl, cfg->cl);
    }
    if (cfg->trfc_ps >= cfg->trefi_ps) {
        return g_strdup_printf("ddr-trfc-ps=%u must be less than "
                               "ddr-trefi-ps=%u (the channel would do "
                               "nothing but refresh)", cfg->trfc_ps,
                               cfg->trefi_ps);
    }
    if (cfg->wr_high > cfg->wr_entries) {
        return g_strdup_printf("ddr-wr-high=%u exceeds ddr-wr-entries=%u",
                               cfg->wr_high, cfg->wr_entries);
    }
    if (cfg->wr_low >= cfg->wr_high) {
        return g_strdup_printf("ddr-wr-low=%u must be less than "
                               "ddr-wr-high=%u", cfg->wr_low, cfg->wr_high);
    }
    why = ddr_config_map_check(cfg->read_map, 0);
    return why ? why : ddr_config_map_check(cfg->write_map, 1);
}

uint64_t ddr_config_nck_ps(const DdrConfig *cfg, uint64_t nck)
{
    /* tCK = 2 / data rate: 2 * 10^6 / MT/s picoseconds. */
    return (nck * 2000000 + cfg->data_rate_mts / 2) / cfg->data_rate_mts;
}

uint64_t ddr_config_peak_bytes_per_s(const DdrConfig *cfg)
{
    /* one bus width per transfer on every channel, refresh not deducted */
    return (uint64_t)cfg->channels * cfg->data_rate_mts * 1000000 *
           cfg->bus_bytes;
}

unsigned ddr_config_channel(const DdrConfig *cfg, uint64_t addr)
{
    return (addr / cfg->interleave_bytes) % cfg->channels;
}
