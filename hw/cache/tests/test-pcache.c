/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the partitioned cache occupancy model. */
#include <CUnit/Basic.h>
#include <stdlib.h>

#include "../pcache.h"

#define LINE 64

static PCache *mk(uint64_t size, uint32_t ways, uint32_t portions)
{
    GError *err = NULL;
    PCache *c = pcache_new(size, ways, LINE, portions, &err);

    CU_ASSERT_PTR_NOT_NULL_FATAL(c);
    CU_ASSERT_PTR_NULL(err);
    return c;
}

/* Sum of occupancy over all (partid, pmg) equals the valid line count. */
static uint64_t count_valid(const PCache *c)
{
    uint64_t n = 0;

    for (uint32_t i = 0; i < c->n_lines; i++) {
        n += c->valid[i];
    }
    return n;
}

static void test_new_errors(void)
{
    GError *err = NULL;

    CU_ASSERT_PTR_NULL(pcache_new(4096, 4, 48, 1, &err));
    CU_ASSERT_PTR_NOT_NULL(err);
    g_clear_error(&err);
    CU_ASSERT_PTR_NULL(pcache_new(4096 + 64, 4, 64, 1, &err));
    CU_ASSERT_PTR_NOT_NULL(err);
    g_clear_error(&err);
    CU_ASSERT_PTR_NULL(pcache_new(4096, 0, 64, 1, &err));
    CU_ASSERT_PTR_NOT_NULL(err);
    g_clear_error(&err);
}

static void test_geometry_hit_miss(void)
{
    PCache *c = mk(64 * 1024, 8, 1);

    CU_ASSERT_EQUAL(c->sets, 128);
    CU_ASSERT_EQUAL(c->n_lines, 1024);
    CU_ASSERT_EQUAL(pcache_size(c), 64 * 1024);
    CU_ASSERT_FALSE(pcache_access(c, 0x1000, 3, 1, NULL));
    CU_ASSERT_TRUE(pcache_access(c, 0x1000, 3, 1, NULL));
    CU_ASSERT_TRUE(pcache_access(c, 0x103F, 3, 1, NULL));   /* same line */
    CU_ASSERT_FALSE(pcache_access(c, 0x1040, 3, 1, NULL));
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 3, 1), 2);
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 3, 0), 0);
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 3), 2);
    CU_ASSERT_EQUAL(pcache_lines_total(c), 2);
    /* A hit by another PARTID does not move ownership. */
    CU_ASSERT_TRUE(pcache_access(c, 0x1000, 4, 0, NULL));
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 4), 0);
    pcache_reset(c);
    CU_ASSERT_EQUAL(pcache_lines_total(c), 0);
    CU_ASSERT_FALSE(pcache_access(c, 0x1000, 3, 1, NULL));
    pcache_free(c);
}

static void test_lru(void)
{
    /* One set of 4 ways. */
    PCache *c = mk(4 * LINE, 4, 1);

    for (int i = 0; i < 4; i++) {
        pcache_access(c, i * LINE, 0, 0, NULL);
    }
    pcache_access(c, 0, 0, 0, NULL);                 /* line 0 now MRU */
    CU_ASSERT_FALSE(pcache_access(c, 4 * LINE, 0, 0, NULL));   /* evicts 1 */
    CU_ASSERT_TRUE(pcache_access(c, 0, 0, 0, NULL));
    CU_ASSERT_FALSE(pcache_access(c, 1 * LINE, 0, 0, NULL));   /* was evicted */
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
        pcache_access(c, 0x100000 + a, 2, 0, &lb);
    }
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 2), 16 * 1024 / LINE);
    /* A streams 1 MiB: it may only use its half. */
    for (uint64_t a = 0; a < 1024 * 1024; a += LINE) {
        pcache_access(c, 0x10000000 + a, 1, 0, &la);
    }
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 2), 16 * 1024 / LINE);
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 1), c->n_lines / 2);
    /* B's working set still hits. */
    for (uint64_t a = 0; a < 16 * 1024; a += LINE) {
        CU_ASSERT_TRUE(pcache_access(c, 0x100000 + a, 2, 0, &lb));
    }
    /* Every slot A owns is in portions 0..1. */
    for (uint32_t i = 0; i < c->n_lines; i++) {
        if (c->valid[i] && c->partid[i] == 1) {
            CU_ASSERT(c->portion_of[i] < 2);
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
        per_portion[c->portion_of[i]]++;
    }
    for (int p = 0; p < 8; p++) {
        CU_ASSERT_EQUAL(per_portion[p], c->n_lines / 8);
    }
    for (uint64_t a = 0; a < 1024 * 1024; a += LINE) {
        pcache_access(c, a, 5, 0, &l);
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
        pcache_access(c, a, 7, 0, &l);
    }
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 7), 100);

    l.max_lines = UINT64_MAX;
    l.max_ways = 2;
    for (uint64_t a = 0; a < 1024 * 1024; a += LINE) {
        pcache_access(c, 0x4000000 + a, 8, 0, &l);
    }
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 8), 2 * c->sets);
    for (uint32_t s = 0; s < c->sets; s++) {
        uint32_t n = 0;
        for (uint32_t w = 0; w < c->ways; w++) {
            n += c->valid[s * c->ways + w] && c->partid[s * c->ways + w] == 8;
        }
        CU_ASSERT(n <= 2);
    }
    /* max_lines 0 (CMAX of nothing): never allocates. */
    l.max_lines = 0;
    l.max_ways = UINT32_MAX;
    pcache_access(c, 0x9000000, 9, 0, &l);
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 9), 0);
    pcache_free(c);
}

/* Evictions move occupancy between groups; counters stay consistent. */
static void test_eviction_accounting(void)
{
    PCache *c = mk(32 * 1024, 4, 2);
    uint64_t before;

    for (uint64_t a = 0; a < 32 * 1024; a += LINE) {
        pcache_access(c, a, 1, 1, NULL);
    }
    CU_ASSERT_EQUAL(pcache_lines_pg(c, 1, 1), c->n_lines);
    before = pcache_lines_pg(c, 1, 1);
    for (uint64_t a = 0; a < 8 * 1024; a += LINE) {
        pcache_access(c, 0x800000 + a, 2, 3, NULL);
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
        pcache_access(c, g_rand_int_range(rnd, 0, 1 << 20), p,
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
        if (c->valid[i] && c->partid[i] == 1) {
            CU_ASSERT(c->portion_of[i] >= 4);
        }
    }
    g_rand_free(rnd);
    pcache_free(c);
}

int main(void)
{
    CU_pSuite s;
    unsigned fails;

    if (CU_initialize_registry() != CUE_SUCCESS) {
        return CU_get_error();
    }
    s = CU_add_suite("pcache", NULL, NULL);
    CU_add_test(s, "new_errors", test_new_errors);
    CU_add_test(s, "geometry_hit_miss", test_geometry_hit_miss);
    CU_add_test(s, "lru", test_lru);
    CU_add_test(s, "disjoint_portions", test_disjoint_portions);
    CU_add_test(s, "portions_exceed_ways", test_portions_exceed_ways);
    CU_add_test(s, "max_lines_and_ways", test_max_lines_and_ways);
    CU_add_test(s, "eviction_accounting", test_eviction_accounting);
    CU_add_test(s, "random_rebuild", test_random_rebuild);
    CU_basic_set_mode(CU_BRM_VERBOSE);
    CU_basic_run_tests();
    fails = CU_get_number_of_failures();
    CU_cleanup_registry();
    return fails ? 1 : 0;
}
