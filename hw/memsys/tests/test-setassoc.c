/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the set-associative tag store. */
#include "cunit-run.h"
#include <glib.h>

#include "../setassoc.h"

/* Look @line up; on a miss fill it into the victim every way allows. */
static bool use(SetAssoc *sa, uint64_t line, uint32_t owner)
{
    uint32_t all[(SETASSOC_MAX_WAYS + 31) / 32];
    uint32_t set = setassoc_set_of(sa, line);
    int way = setassoc_lookup(sa, line);
    SetAssocLine v;

    if (way != SETASSOC_NO_WAY) {
        setassoc_touch(sa, set, way, false);
        return true;
    }
    setassoc_all_ways(sa, all);
    way = setassoc_victim(sa, set, all, false, 0);
    CU_ASSERT_FATAL(way >= 0 && (uint32_t)way < sa->ways);
    setassoc_fill(sa, way, line, owner, false, &v);
    return false;
}

/*
 * True LRU: a cyclic working set of k lines per set hits from the second
 * lap when k <= ways and misses on every access when k > ways; for every
 * way count, including ones that leave padding lanes.
 */
static void test_lru_cyclic(void)
{
    static const uint32_t ways[] = { 1, 2, 3, 4, 5, 8, 13, 16, 33, 255 };

    for (unsigned i = 0; i < G_N_ELEMENTS(ways); i++) {
        for (uint32_t k = ways[i]; k <= ways[i] + 1; k++) {
            SetAssoc sa;
            unsigned hits = 0;

            setassoc_init(&sa, 4, ways[i]);
            for (int lap = 0; lap < 3; lap++) {
                for (uint64_t l = 0; l < 4 * k; l++) {
                    hits += use(&sa, l, 0) && lap > 0;
                }
            }
            CU_ASSERT_EQUAL(hits, k <= ways[i] ? 2 * 4 * k : 0);
            CU_ASSERT_PTR_NULL(setassoc_check(&sa));
            setassoc_fini(&sa);
        }
    }
}

/* Lines whose tags agree in bits 0..30 are still different lines. */
static void test_high_tag_bits(void)
{
    SetAssoc sa;
    uint64_t a = 5, b = 5 + ((uint64_t)1 << (31 + 3));    /* 8 sets */
    SetAssocLine l;

    setassoc_init(&sa, 8, 2);
    CU_ASSERT_FALSE(use(&sa, a, 0));
    CU_ASSERT_FALSE(use(&sa, b, 0));
    CU_ASSERT_TRUE(use(&sa, a, 0));
    CU_ASSERT_TRUE(use(&sa, b, 0));
    setassoc_get(&sa, setassoc_set_of(&sa, b), setassoc_lookup(&sa, b), &l);
    CU_ASSERT_EQUAL(l.line, b);
    setassoc_fini(&sa);
}

/* Victims: the first invalid allowed way, else the LRU allowed one. */
static void test_victim_masks(void)
{
    SetAssoc sa;
    uint32_t mask = 0x0c;           /* ways 2, 3 */
    SetAssocLine v;

    setassoc_init(&sa, 1, 6);
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, false, 0), 2);
    for (int w = 0; w < 6; w++) {
        setassoc_fill(&sa, w, 100 + w, (w % 2) << 16, false, &v);
        CU_ASSERT_FALSE(v.valid);
    }
    /* LRU among 2 and 3 is 2; touch it, then 3 is. */
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, false, 0), 2);
    setassoc_touch(&sa, 0, 2, true);
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, false, 0), 3);
    /* Own lines only: PARTID 0 owns even ways, so way 2. */
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, true, 0), 2);
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, true, 1), 3);
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, true, 7), SETASSOC_NO_WAY);
    CU_ASSERT_EQUAL(setassoc_count_owned(&sa, 0, 1), 3);
    mask = 0;
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, false, 0), SETASSOC_NO_WAY);
    /* A dirty line is reported when replaced. */
    setassoc_fill(&sa, 2, 200, 0, false, &v);
    CU_ASSERT_TRUE(v.valid && v.dirty);
    CU_ASSERT_EQUAL(v.line, 102);
    setassoc_invalidate(&sa, 0, 2, &v);
    CU_ASSERT_EQUAL(v.line, 200);
    CU_ASSERT_EQUAL(setassoc_lookup(&sa, 200), SETASSOC_NO_WAY);
    CU_ASSERT_PTR_NULL(setassoc_check(&sa));
    setassoc_fini(&sa);
}

/* When the clock reaches its limit it is renumbered and LRU order kept. */
static void test_clock_wrap(void)
{
    SetAssoc sa;

    setassoc_init(&sa, 2, 4);
    sa.words[0] = SETASSOC_CLOCK_LIMIT - 15;
    for (int i = 0; i < 100; i++) {
        for (uint64_t l = 0; l < 8; l++) {
            CU_ASSERT_EQUAL(use(&sa, l, 0), i > 0);
        }
        /* a 5th line per set evicts the LRU one, line 0 (set 0) */
        CU_ASSERT_FALSE(use(&sa, 8, 0));
        CU_ASSERT_EQUAL(setassoc_lookup(&sa, 0), SETASSOC_NO_WAY);
        CU_ASSERT_FALSE(use(&sa, 0, 0));        /* evicts line 2 */
        CU_ASSERT_EQUAL(setassoc_lookup(&sa, 2), SETASSOC_NO_WAY);
        CU_ASSERT_FALSE(use(&sa, 2, 0));        /* evicts line 4 */
        CU_ASSERT_FALSE(use(&sa, 4, 0));        /* evicts line 6 */
        CU_ASSERT_FALSE(use(&sa, 6, 0));        /* evicts line 8 */
        CU_ASSERT_EQUAL(setassoc_lookup(&sa, 8), SETASSOC_NO_WAY);
    }
    CU_ASSERT(sa.words[0] < SETASSOC_CLOCK_LIMIT - 15);
    CU_ASSERT_PTR_NULL(setassoc_check(&sa));
    setassoc_fini(&sa);
}

/*
 * setassoc_access and setassoc_replace (the hot paths) leave the same
 * state as lookup + touch and victim + fill, also across the clock's
 * renumbering, which they reach by a call of their own.
 */
static void test_access_replace(void)
{
    SetAssoc a, b;
    uint64_t x = 12345;

    setassoc_init(&a, 4, 4);
    setassoc_init(&b, 4, 4);
    for (int i = 0; i < 2000; i++) {
        uint64_t line;
        bool write, dirty = false;
        SetAssocLine va, vb;
        int wa, wb;

        /* renumber every few steps, on hits and on fills */
        if (i % 10 == 0) {
            a.words[0] = b.words[0] = SETASSOC_CLOCK_LIMIT - i / 10 % 4;
        }

        x = x * 6364136223846793005ull + 1442695040888963407ull;
        line = x >> 59;                 /* 32 lines over 4 sets of 4 */
        write = x >> 58 & 1;
        wa = setassoc_access(&a, line, write, &dirty);
        wb = setassoc_lookup(&b, line);
        CU_ASSERT_EQUAL(wa, wb);
        if (wb != SETASSOC_NO_WAY) {
            setassoc_touch(&b, setassoc_set_of(&b, line), wb, write);
            CU_ASSERT_EQUAL(dirty, setassoc_is_dirty(&b, setassoc_set_of(
                                                         &b, line), wb));
        } else {
            wa = setassoc_replace(&a, line, NULL, false, 0, 7, write, &va);
            wb = setassoc_victim(&b, setassoc_set_of(&b, line), NULL, false,
                                 0);
            setassoc_fill(&b, wb, line, 7, write, &vb);
            CU_ASSERT_EQUAL(wa, wb);
            CU_ASSERT_EQUAL(va.valid, vb.valid);
            if (va.valid && vb.valid) {
                CU_ASSERT_EQUAL(va.line, vb.line);
                CU_ASSERT_EQUAL(va.dirty, vb.dirty);
            }
        }
        CU_ASSERT_EQUAL(setassoc_checksum(&a), setassoc_checksum(&b));
    }
    CU_ASSERT_PTR_NULL(setassoc_check(&a));
    setassoc_fini(&a);
    setassoc_fini(&b);
}

/* A loaded state the model cannot reach is refused. */
static void test_check(void)
{
    SetAssoc sa;
    uint64_t sum;
    char *why;

    setassoc_init(&sa, 2, 3);
    use(&sa, 1, 0);
    use(&sa, 3, 0);
    sum = setassoc_checksum(&sa);
    CU_ASSERT_PTR_NULL(setassoc_check(&sa));
    sa.words[0] = 1;                    /* a stamp beyond the clock */
    why = setassoc_check(&sa);
    CU_ASSERT_PTR_NOT_NULL(why);
    g_free(why);
    CU_ASSERT_NOT_EQUAL(setassoc_checksum(&sa), sum);
    sa.words[0] = 2;
    sa.words[1 + sa.stride + 3] = SETASSOC_VALID;    /* set 1, padding way */
    why = setassoc_check(&sa);
    CU_ASSERT_PTR_NOT_NULL(why);
    g_free(why);
    setassoc_fini(&sa);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "lru_cyclic", test_lru_cyclic },
        { "high_tag_bits", test_high_tag_bits },
        { "victim_masks", test_victim_masks },
        { "clock_wrap", test_clock_wrap },
        { "access_replace", test_access_replace },
        { "check", test_check },
    };

    return CUNIT_RUN("setassoc", tests);
}
