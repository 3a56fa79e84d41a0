/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the partitioned cache occupancy model. */
#include "cunit-run.h"
#include <stdlib.h>
#include <string.h>

#include "../pcache.h"

#define LINE 64

static PCache *mk_labels(uint64_t size, uint32_t ways, uint32_t portions,
                         uint32_t n_partid, uint32_t n_pmg)
{
    PCacheConfig cfg = { .size = size, .ways = ways, .line_size = LINE,
                         .n_portions = portions, .n_partid = n_partid,
                         .n_pmg = n_pmg };
    GError *err = NULL;
    PCache *c = pcache_new(&cfg, &err);

    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NULL(err);
    return c;
}

static PCache *mk(uint64_t size, uint32_t ways, uint32_t portions)
{
    return mk_labels(size, ways, portions, 16, 4);
}

/* One access of @size bytes; returns what the cache did. */
static MemResult req(PCache *c, uint64_t addr, uint32_t size, bool write,
                     uint32_t partid, uint32_t pmg, const PCacheLimits *lim)
{
    MemReq r = { .addr = addr, .size = size,
                 .kind = write ? MEMREQ_WRITE : MEMREQ_READ,
                 .label = { partid, pmg } };
    MemResult res = { 0 };

    pcache_access(c, &r, lim, &res);
    return res;
}

/* A one-byte read; true if it hit. */
static bool acc(PCache *c, uint64_t addr, uint32_t partid, uint32_t pmg,
                const PCacheLimits *lim)
{
    MemResult res = req(c, addr, 1, false, partid, pmg, lim);

    CU_ASSERT_EQUAL(res.lines, 1);
    return res.hits == 1;
}

/* The line in slot @i (set * ways + way). */
static SetAssocLine at(const PCache *c, uint32_t i)
{
    SetAssocLine l;

    pcache_line(c, i, &l);
    return l;
}

static uint32_t partid_at(const PCache *c, uint32_t i)
{
    SetAssocLine l = at(c, i);

    return pcache_line_partid(&l);
}

static uint32_t pmg_at(const PCache *c, uint32_t i)
{
    SetAssocLine l = at(c, i);

    return pcache_line_pmg(&l);
}

/* Sum of occupancy over all (partid, pmg) equals the valid line count. */
static uint64_t count_valid(const PCache *c)
{
    uint64_t n = 0;

    for (uint32_t i = 0; i < c->n_lines; i++) {
        n += at(c, i).valid;
    }
    return n;
}

/* The configuration is refused, with a reason. */
static void expect_bad(PCacheConfig cfg)
{
    GError *err = NULL;
    g_autofree char *why = pcache_config_check(&cfg);

    CU_ASSERT_PTR_NOT_NULL(why);
    CU_ASSERT_PTR_NULL(pcache_new(&cfg, &err));
    CU_ASSERT_PTR_NOT_NULL(err);
    g_clear_error(&err);
}

static void test_new_errors(void)
{
    PCacheConfig ok = { .size = 4096, .ways = 4, .line_size = 64,
                        .n_portions = 1, .n_partid = 1, .n_pmg = 1 };
    PCacheConfig c;
    g_autofree char *why = pcache_config_check(&ok);

    CU_ASSERT_PTR_NULL(why);
    c = ok; c.line_size = 48; expect_bad(c);
    c = ok; c.size = 4096 + 64; expect_bad(c);
    c = ok; c.ways = 0; expect_bad(c);
    c = ok; c.size = (uint64_t)64 << 26 << 1; expect_bad(c);   /* 2^27 lines */
    c = ok; c.n_partid = 0; expect_bad(c);
    c = ok; c.n_pmg = 0; expect_bad(c);
    c = ok; c.n_pmg = PCACHE_LABEL_LIMIT + 1; expect_bad(c);
    /* 65536 PARTIDs x 256 PMGs (MPAM's limits) is the most that fits. */
    c = ok; c.n_partid = 65536; c.n_pmg = 256;
    g_free(why);
    why = pcache_config_check(&c);
    CU_ASSERT_PTR_NULL(why);
    c.n_pmg = 257; expect_bad(c);
}

static void test_geometry_hit_miss(void)
{
    PCache *c = mk(64 * 1024, 8, 1);

    CU_ASSERT_EQUAL(c->sets, 128);
    CU_ASSERT_EQUAL(c->n_lines, 1024);
    CU_ASSERT_EQUAL(pcache_size(c), 64 * 1024);
    CU_ASSERT_FALSE(acc(c, 0x1000, 3, 1, NULL));
    CU_ASSERT_TRUE(acc(c, 0x1000, 3, 1, NULL));
    CU_ASSERT_TRUE(acc(c, 0x103F, 3, 1, NULL));   /* same line */
    CU_ASSERT_FALSE(acc(c, 0x1040, 3, 1, NULL));
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 3, 1), 2);
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 3, 0), 0);
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 3), 2);
    CU_ASSERT_EQUAL(pcache_lines_total(c), 2);
    /* A hit by another PARTID does not move ownership. */
    CU_ASSERT_TRUE(acc(c, 0x1000, 4, 0, NULL));
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 4), 0);
    pcache_reset(c);
    CU_ASSERT_EQUAL(pcache_lines_total(c), 0);
    CU_ASSERT_FALSE(acc(c, 0x1000, 3, 1, NULL));
    pcache_free(c);
}

static void test_lru(void)
{
    /* One set of 4 ways. */
    PCache *c = mk(4 * LINE, 4, 1);

    for (int i = 0; i < 4; i++) {
        acc(c, i * LINE, 0, 0, NULL);
    }
    acc(c, 0, 0, 0, NULL);                 /* line 0 now MRU */
    CU_ASSERT_FALSE(acc(c, 4 * LINE, 0, 0, NULL));   /* evicts 1 */
    CU_ASSERT_TRUE(acc(c, 0, 0, 0, NULL));
    CU_ASSERT_FALSE(acc(c, 1 * LINE, 0, 0, NULL));   /* was evicted */
    CU_ASSERT_EQUAL(pcache_lines_total(c), 4);
    pcache_free(c);
}

/* Two PARTIDs with disjoint portions cannot evict each other. */
static void test_disjoint_portions(void)
{
    PCache *c = mk(64 * 1024, 8, 4);
    uint32_t mask_a = 0x3, mask_b = 0xC;
    PCacheLimits la = { .portion_mask = &mask_a, .max_lines = UINT64_MAX,
                        .max_ways = UINT32_MAX };
    PCacheLimits lb = { .portion_mask = &mask_b, .max_lines = UINT64_MAX,
                        .max_ways = UINT32_MAX };

    /* B fills its half with a 16 KiB working set. */
    for (uint64_t a = 0; a < 16 * 1024; a += LINE) {
        acc(c, 0x100000 + a, 2, 0, &lb);
    }
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 2), 16 * 1024 / LINE);
    /* A streams 1 MiB: it may only use its half. */
    for (uint64_t a = 0; a < 1024 * 1024; a += LINE) {
        acc(c, 0x10000000 + a, 1, 0, &la);
    }
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 2), 16 * 1024 / LINE);
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 1), c->n_lines / 2);
    /* B's working set still hits. */
    for (uint64_t a = 0; a < 16 * 1024; a += LINE) {
        CU_ASSERT_TRUE(acc(c, 0x100000 + a, 2, 0, &lb));
    }
    /* Every slot A owns is in portions 0..1. */
    for (uint32_t i = 0; i < c->n_lines; i++) {
        if (at(c, i).valid && partid_at(c, i) == 1) {
            CU_ASSERT(pcache_portion_of(c, i) < 2);
        }
    }
    pcache_free(c);
}

/* More portions than ways: a portion is a fraction of a way. */
static void test_portions_exceed_ways(void)
{
    PCache *c = mk(16 * 1024, 2, 8);
    uint32_t mask = 0x1;
    PCacheLimits l = { .portion_mask = &mask, .max_lines = UINT64_MAX,
                       .max_ways = UINT32_MAX };
    uint32_t per_portion[8] = { 0 };

    for (uint32_t i = 0; i < c->n_lines; i++) {
        per_portion[pcache_portion_of(c, i)]++;
    }
    for (int p = 0; p < 8; p++) {
        CU_ASSERT_EQUAL(per_portion[p], c->n_lines / 8);
    }
    for (uint64_t a = 0; a < 1024 * 1024; a += LINE) {
        acc(c, a, 5, 0, &l);
    }
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 5), c->n_lines / 8);
    pcache_free(c);
}

static void test_max_lines_and_ways(void)
{
    PCache *c = mk(64 * 1024, 8, 1);
    PCacheLimits l = { .portion_mask = NULL, .max_lines = 100,
                       .max_ways = UINT32_MAX };

    for (uint64_t a = 0; a < 1024 * 1024; a += LINE) {
        acc(c, a, 7, 0, &l);
    }
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 7), 100);

    l.max_lines = UINT64_MAX;
    l.max_ways = 2;
    for (uint64_t a = 0; a < 1024 * 1024; a += LINE) {
        acc(c, 0x4000000 + a, 8, 0, &l);
    }
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 8), 2 * c->sets);
    for (uint32_t s = 0; s < c->sets; s++) {
        uint32_t n = 0;
        for (uint32_t w = 0; w < c->ways; w++) {
            uint32_t i = s * c->ways + w;

            n += at(c, i).valid && partid_at(c, i) == 8;
        }
        CU_ASSERT(n <= 2);
    }
    /* max_lines 0 (CMAX of nothing): never allocates. */
    l.max_lines = 0;
    l.max_ways = UINT32_MAX;
    acc(c, 0x9000000, 9, 0, &l);
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 9), 0);
    pcache_free(c);
}

/* Evictions move occupancy between groups; counters stay consistent. */
static void test_eviction_accounting(void)
{
    PCache *c = mk(32 * 1024, 4, 2);
    uint64_t before;

    for (uint64_t a = 0; a < 32 * 1024; a += LINE) {
        acc(c, a, 1, 1, NULL);
    }
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 1, 1), c->n_lines);
    before = pcache_lines_pg(c, 1, 1);
    for (uint64_t a = 0; a < 8 * 1024; a += LINE) {
        acc(c, 0x800000 + a, 2, 3, NULL);
    }
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 2, 3), 8 * 1024 / LINE);
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 1, 1), before - 8 * 1024 / LINE);
    CU_ASSERT_EQUAL(pcache_lines_total(c), count_valid(c));

    CU_ASSERT_EQUAL(pcache_flush_partid(c, 2), 8 * 1024 / LINE);
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 2, 3), 0);
    CU_ASSERT_EQUAL(pcache_lines_total(c), count_valid(c));
    pcache_free(c);
}

/* Random traffic: incremental counters equal a full recount. */
static void test_random_rebuild(void)
{
    PCache *c = mk(32 * 1024, 8, 8);
    uint32_t masks[4] = { 0x0F, 0xF0, 0x3C, 0xFF };
    uint64_t pg[4][4];
    GRand *rnd = g_rand_new_with_seed(42);

    for (int i = 0; i < 200000; i++) {
        int p = g_rand_int_range(rnd, 0, 4);
        PCacheLimits l = { .portion_mask = &masks[p],
                           .max_lines = g_rand_int_range(rnd, 1, 600),
                           .max_ways = g_rand_int_range(rnd, 1, 9) };
        acc(c, g_rand_int_range(rnd, 0, 1 << 20), p,
                      g_rand_int_range(rnd, 0, 4), &l);
    }
    for (int p = 0; p < 4; p++) {
        for (int g = 0; g < 4; g++) {
            pg[p][g] = pcache_lines_pg(c, p, g);
        }
    }
    CU_ASSERT_EQUAL(pcache_lines_total(c), count_valid(c));
    pcache_rebuild(c);
    for (int p = 0; p < 4; p++) {
        uint64_t sum = 0;
        for (int g = 0; g < 4; g++) {
            CU_ASSERT_EQUAL(pcache_lines_pg(c, p, g), pg[p][g]);
            sum += pg[p][g];
        }
        CU_ASSERT_EQUAL(pcache_lines_partid(c, p), sum);
    }
    /* PARTID 1 never leaves portions 4..7. */
    for (uint32_t i = 0; i < c->n_lines; i++) {
        if (at(c, i).valid && partid_at(c, i) == 1) {
            CU_ASSERT(pcache_portion_of(c, i) >= 4);
        }
    }
    g_rand_free(rnd);
    pcache_free(c);
}

/* An x86 RMID above 255 is its own label, not RMID & 0xff. */
static void test_wide_label(void)
{
    PCache *c = mk_labels(64 * 1024, 8, 1, 4, 1024);

    CU_ASSERT_FALSE(acc(c, 0x1000, 2, 1000, NULL));
    CU_ASSERT_FALSE(acc(c, 0x2000, 2, 1000, NULL));
    CU_ASSERT_FALSE(acc(c, 0x3000, 2, 1000 & 0xff, NULL));
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 2, 1000), 2);
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 2, 1000 & 0xff), 1);
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 2), 3);
    /* Labels outside the configured counts hold nothing. */
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 2, 1024), 0);
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 4, 0), 0);
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 4), 0);
    pcache_free(c);
}

/* What goes downstream: line fills on misses, dirty lines when evicted. */
static void test_downstream_traffic(void)
{
    /* One set of 2 ways. */
    PCache *c = mk(2 * LINE, 2, 1);
    uint32_t none = 0;
    PCacheLimits no_room = { .portion_mask = &none, .max_lines = UINT64_MAX,
                             .max_ways = UINT32_MAX };
    MemResult r;

    r = req(c, 0 * LINE, 4, true, 0, 0, NULL);          /* A: write miss */
    CU_ASSERT_EQUAL(r.lines, 1);
    CU_ASSERT_EQUAL(r.hits, 0);
    CU_ASSERT_EQUAL(r.down_read_bytes, LINE);           /* write-allocate */
    CU_ASSERT_EQUAL(r.down_write_bytes, 0);
    r = req(c, 1 * LINE, 4, false, 0, 0, NULL);         /* B: read miss */
    CU_ASSERT_EQUAL(r.down_read_bytes, LINE);
    r = req(c, 1 * LINE + 8, 4, false, 0, 0, NULL);     /* B: hit */
    CU_ASSERT_EQUAL(r.hits, 1);
    CU_ASSERT_EQUAL(r.down_read_bytes + r.down_write_bytes, 0);
    r = req(c, 2 * LINE, 4, false, 0, 0, NULL);         /* C evicts dirty A */
    CU_ASSERT_EQUAL(r.down_read_bytes, LINE);
    CU_ASSERT_EQUAL(r.down_write_bytes, LINE);
    r = req(c, 3 * LINE, 4, false, 0, 0, NULL);         /* D evicts clean B */
    CU_ASSERT_EQUAL(r.down_read_bytes, LINE);
    CU_ASSERT_EQUAL(r.down_write_bytes, 0);
    r = req(c, 2 * LINE, 4, true, 0, 0, NULL);          /* C: write hit */
    CU_ASSERT_EQUAL(r.hits, 1);
    CU_ASSERT_EQUAL(r.down_write_bytes, 0);
    r = req(c, 4 * LINE, 4, false, 0, 0, NULL);         /* E evicts D (LRU) */
    CU_ASSERT_EQUAL(r.down_write_bytes, 0);
    r = req(c, 5 * LINE, 4, false, 0, 0, NULL);         /* F evicts dirty C */
    CU_ASSERT_EQUAL(r.down_write_bytes, LINE);

    /* No portion allowed: nothing allocated, a write passes through. */
    r = req(c, 6 * LINE, 4, true, 1, 0, &no_room);
    CU_ASSERT_EQUAL(r.hits, 0);
    CU_ASSERT_EQUAL(r.down_read_bytes, LINE);
    CU_ASSERT_EQUAL(r.down_write_bytes, LINE);
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 1), 0);

    /* A request crossing lines touches each; size 0 touches none. */
    r = req(c, 4 * LINE + LINE / 2, 2 * LINE, false, 0, 0, NULL);
    CU_ASSERT_EQUAL(r.lines, 3);                        /* E, F hit; G misses */
    CU_ASSERT_EQUAL(r.hits, 2);
    CU_ASSERT_EQUAL(r.down_read_bytes, LINE);
    r = req(c, 0, 0, true, 0, 0, NULL);
    CU_ASSERT_EQUAL(r.lines, 0);
    CU_ASSERT_EQUAL(r.down_read_bytes + r.down_write_bytes, 0);
    pcache_free(c);
}

/*
 * Random reads and writes with wide labels, limits, flushes and resets: the
 * occupancy arrays always equal a recount of the line state, and every
 * byte downstream is a line fill or a dirty line leaving.
 */
static void test_random_recount(void)
{
    enum { NP = 6, NG = 300 };
    PCache *c = mk_labels(16 * 1024, 4, 4, NP, NG);
    uint32_t masks[NP] = { 0x1, 0x2, 0x4, 0x8, 0x3, 0xF };
    GRand *rnd = g_rand_new_with_seed(6);
    static uint32_t pg[NP][NG];

    for (int i = 0; i < 300000; i++) {
        int p = g_rand_int_range(rnd, 0, NP);
        int op = g_rand_int_range(rnd, 0, 10000);
        PCacheLimits l = { .portion_mask = &masks[p],
                           .max_lines = g_rand_int_range(rnd, 0, 300),
                           .max_ways = g_rand_int_range(rnd, 1, 5) };
        bool write = g_rand_boolean(rnd);
        uint32_t size = g_rand_int_range(rnd, 0, 3 * LINE);
        uint64_t dirty_before = 0, dirty_after = 0;
        MemResult r;

        if (op == 0) {
            pcache_reset(c);
        } else if (op < 20) {
            pcache_flush_partid(c, p);
        }
        for (uint32_t s = 0; s < c->n_lines; s++) {
            dirty_before += at(c, s).valid && at(c, s).dirty;
        }
        r = req(c, g_rand_int_range(rnd, 0, 1 << 18), size, write, p,
                g_rand_int_range(rnd, 0, NG), &l);
        for (uint32_t s = 0; s < c->n_lines; s++) {
            dirty_after += at(c, s).valid && at(c, s).dirty;
        }
        CU_ASSERT_EQUAL_FATAL(r.down_read_bytes, (r.lines - r.hits) * LINE);
        /* Dirty lines only leave through write-backs (or pass through). */
        CU_ASSERT_FATAL(dirty_before + r.lines >=
                        dirty_after + r.down_write_bytes / LINE);
        if (i % 1000 == 0) {
            uint64_t total = 0;

            memset(pg, 0, sizeof(pg));
            for (uint32_t s = 0; s < c->n_lines; s++) {
                if (at(c, s).valid) {
                    pg[partid_at(c, s)][pmg_at(c, s)]++;
                    total++;
                }
            }
            for (int q = 0; q < NP; q++) {
                uint64_t sum = 0;
                for (int g = 0; g < NG; g++) {
                    CU_ASSERT_EQUAL_FATAL(pcache_lines_pg(c, q, g), pg[q][g]);
                    sum += pg[q][g];
                }
                CU_ASSERT_EQUAL_FATAL(pcache_lines_partid(c, q), sum);
            }
            CU_ASSERT_EQUAL_FATAL(pcache_lines_total(c), total);
        }
    }
    g_rand_free(rnd);
    pcache_free(c);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "new_errors", test_new_errors },
        { "geometry_hit_miss", test_geometry_hit_miss },
        { "lru", test_lru },
        { "disjoint_portions", test_disjoint_portions },
        { "portions_exceed_ways", test_portions_exceed_ways },
        { "max_lines_and_ways", test_max_lines_and_ways },
        { "eviction_accounting", test_eviction_accounting },
        { "random_rebuild", test_random_rebuild },
        { "wide_label", test_wide_label },
        { "downstream_traffic", test_downstream_traffic },
        { "random_recount", test_random_recount },
    };

    return CUNIT_RUN("pcache", tests);
}
