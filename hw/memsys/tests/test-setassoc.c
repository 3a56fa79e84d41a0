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

/*
 * Interleaved hits under a partial mask: the victim is the LRU way among
 * the allowed ones, not the LRU way of the set nor the first allowed way.
 */
static void test_lru_partial_mask(void)
{
    SetAssoc sa;
    uint32_t mask = 0x2a;           /* ways 1, 3, 5 of 8 */
    SetAssocLine v;

    setassoc_init(&sa, 1, 8);
    for (int w = 0; w < 8; w++) {
        setassoc_fill(&sa, w, 100 + w, 0, false, &v);
    }
    /* use order, oldest first: 0 2 4 6 7 | 1 5 3 */
    setassoc_touch(&sa, 0, 1, false);
    setassoc_touch(&sa, 0, 5, false);
    setassoc_touch(&sa, 0, 3, false);
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, NULL, false, 0), 0);
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, false, 0), 1);
    setassoc_touch(&sa, 0, 1, false);       /* ... 5 3 1 */
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, false, 0), 5);
    CU_ASSERT_EQUAL(setassoc_replace(&sa, 200, &mask, false, 0, 0, false, &v),
                    5);
    CU_ASSERT_EQUAL(v.line, 105);           /* ... 3 1 5 */
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, false, 0), 3);
    /* an invalid allowed way wins over the LRU one, the lowest first */
    setassoc_invalidate(&sa, 0, 5, &v);
    setassoc_invalidate(&sa, 0, 1, &v);
    setassoc_invalidate(&sa, 0, 6, &v);
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, false, 0), 1);
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, NULL, false, 0), 1);
    mask = 0x28;
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, false, 0), 5);
    mask = 0x08;
    CU_ASSERT_EQUAL(setassoc_victim(&sa, 0, &mask, false, 0), 3);
    CU_ASSERT_PTR_NULL(setassoc_check(&sa));
    setassoc_fini(&sa);
}

/*
 * The victim against a reference that keeps what the LRU order means, a
 * stamp per way (the use count at its last use, 0 if invalid): the
 * allowed (and, own_only, owned valid) way of least (stamp, way).  Random
 * hits, fills, replacements and invalidations under random masks, for
 * way counts with and without padding and past 32 and 64 ways.
 */
static int ref_victim(const SetAssoc *sa, const uint64_t *stamp,
                      const uint32_t *owner, const uint32_t *allowed,
                      bool own_only, uint32_t partid)
{
    int best = SETASSOC_NO_WAY;

    for (uint32_t w = 0; w < sa->ways; w++) {
        if ((!allowed || allowed[w / 32] >> (w % 32) & 1) &&
            (!own_only || (stamp[w] && owner[w] >> 16 == partid)) &&
            (best < 0 || stamp[w] < stamp[best])) {
            best = w;
        }
    }
    return best;
}

static void test_lru_reference(void)
{
    static const uint32_t ways[] = { 1, 3, 4, 6, 16, 20, 33, 70, 255 };

    for (unsigned i = 0; i < G_N_ELEMENTS(ways); i++) {
        uint32_t n = ways[i], mask[(SETASSOC_MAX_WAYS + 31) / 32];
        uint64_t stamp[SETASSOC_MAX_WAYS] = { 0 }, clock = 0;
        uint32_t owner[SETASSOC_MAX_WAYS] = { 0 };
        uint64_t x = 99 + i;
        SetAssoc sa;

        setassoc_init(&sa, 1, n);
        for (int step = 0; step < 20000; step++) {
            uint32_t r, kind, partid, *allowed = mask;
            bool own_only;
            SetAssocLine v;
            int want, got, way;
            uint64_t line;

            x = x * 6364136223846793005ull + 1442695040888963407ull;
            r = x >> 33;
            kind = r % 8;
            own_only = r >> 3 & 1 && r >> 4 & 1;
            partid = r >> 5 & 3;
            /* a mask of about a quarter, half or all of the ways, or NULL */
            for (uint32_t k = 0; k < sa.mask_words; k++) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                mask[k] = x >> 32;
                if (r >> 7 & 1) {
                    x = x * 6364136223846793005ull + 1442695040888963407ull;
                    mask[k] &= x >> 32;
                }
                if (k == sa.mask_words - 1 && n % 32) {
                    mask[k] &= (1u << n % 32) - 1;
                }
            }
            if (r >> 8 & 3) {
                allowed = (r >> 8 & 3) == 3 ? NULL : mask;
            }
            want = ref_victim(&sa, stamp, owner, allowed, own_only, partid);
            got = setassoc_victim(&sa, 0, allowed, own_only, partid);
            CU_ASSERT_EQUAL_FATAL(got, want);
            line = (x >> 20) % (2 * n + 2);
            way = setassoc_lookup(&sa, line);
            if (kind < 4 && way != SETASSOC_NO_WAY) {
                setassoc_touch(&sa, 0, way, kind & 1);
                stamp[way] = ++clock;
            } else if (kind < 7 && way == SETASSOC_NO_WAY) {
                got = setassoc_replace(&sa, line, allowed, own_only, partid,
                                       partid << 16, false, &v);
                CU_ASSERT_EQUAL_FATAL(got, want);
                if (got >= 0) {
                    CU_ASSERT_EQUAL(v.valid, stamp[got] != 0);
                    stamp[got] = ++clock;
                    owner[got] = partid << 16;
                }
            } else if (kind == 7) {
                way = r >> 10 & 1 ? (int)((x >> 40) % n) : way;
                if (way >= 0) {
                    setassoc_invalidate(&sa, 0, way, &v);
                    stamp[way] = 0;
                    owner[way] = 0;
                }
            }
        }
        CU_ASSERT_PTR_NULL(setassoc_check(&sa));
        setassoc_fini(&sa);
    }
}

/*
 * setassoc_access and setassoc_replace (the hot paths) leave the same
 * state as lookup + touch and victim + fill.
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
    uint32_t *p, save;
    uint64_t sum;
    struct { uint32_t off, v; } bad[7];

    setassoc_init(&sa, 2, 3);
    use(&sa, 1, 0);                     /* set 1: ways 0 and 1 valid, */
    use(&sa, 3, 0);                     /* order 1 0 2 from the head */
    sum = setassoc_checksum(&sa);
    CU_ASSERT_PTR_NULL(setassoc_check(&sa));
    p = sa.words + sa.stride;
    bad[0] = (typeof(bad[0])){ 3, SETASSOC_VALID };     /* a padding way */
    bad[1] = (typeof(bad[0])){ sa.link_off + 6, 4 };    /* beyond the head */
    bad[2] = (typeof(bad[0])){ sa.link_off + 6, 0 };    /* prev disagrees */
    bad[3] = (typeof(bad[0])){ 0, 0 };      /* invalid way 0 behind 2 */
    bad[4] = (typeof(bad[0])){ sa.wp + 2, 1 };  /* an invalid way's tag */
    bad[5] = (typeof(bad[0])){ sa.dirty_off, 4 };   /* ... dirty bit */
    bad[6] = (typeof(bad[0])){ 1, p[0] };           /* a line twice */
    for (unsigned i = 0; i < G_N_ELEMENTS(bad); i++) {
        char *why;

        save = p[bad[i].off];
        p[bad[i].off] = bad[i].v;
        why = setassoc_check(&sa);
        CU_ASSERT_PTR_NOT_NULL(why);
        g_free(why);
        CU_ASSERT_NOT_EQUAL(setassoc_checksum(&sa), sum);
        p[bad[i].off] = save;
    }
    /* two lists: 0 <-> 1 and head <-> 2 */
    for (uint32_t x = 0; x < 4; x++) {
        p[sa.link_off + 2 * x] = x ^ 1;         /* next */
        p[sa.link_off + 2 * x + 1] = x ^ 1;     /* prev */
    }
    {
        char *why = setassoc_check(&sa);

        CU_ASSERT_PTR_NOT_NULL(why);
        g_free(why);
    }
    setassoc_fini(&sa);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "lru_cyclic", test_lru_cyclic },
        { "high_tag_bits", test_high_tag_bits },
        { "victim_masks", test_victim_masks },
        { "lru_partial_mask", test_lru_partial_mask },
        { "lru_reference", test_lru_reference },
        { "access_replace", test_access_replace },
        { "check", test_check },
    };

    return CUNIT_RUN("setassoc", tests);
}
