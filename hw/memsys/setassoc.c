/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Set-associative tag store, see setassoc.h.  QEMU builds with -O2, which
 * does not vectorise loops, so the lookup's scan of a set's tags is
 * written with GCC vector extensions: four ways per 16-byte vector.  LRU
 * is a list per set, so neither a hit nor a victim scans the ways.
 */
#include <inttypes.h>
#include <string.h>
#include <glib.h>

#include "setassoc.h"

typedef int32_t v4i __attribute__((vector_size(16)));
typedef uint64_t v2u __attribute__((vector_size(16)));

#define TAG_LO_MASK     0x7fffffffu

static inline v4i load4(const uint32_t *p)
{
    v4i v;

    memcpy(&v, p, sizeof(v));
    return v;
}

static inline v4i splat(uint32_t x)
{
    return (v4i){ (int32_t)x, (int32_t)x, (int32_t)x, (int32_t)x };
}

/* Bit n set for each all-ones lane n of a compare result. */
static inline unsigned lane_bits(v4i eq)
{
    v2u d = (v2u)(eq & (v4i){ 1, 2, 4, 8 });
    uint64_t x = d[0] | d[1];

    return (uint32_t)x | (uint32_t)(x >> 32);
}

static inline uint32_t *set_ptr(const SetAssoc *sa, uint32_t set)
{
    return sa->words + (size_t)set * sa->stride;
}

/* The fields of a set (setassoc.h, "Layout"). */
#define LO(sa, p)       (p)
#define HI(sa, p)       ((p) + (sa)->wp)
#define OWNER(sa, p)    ((p) + 2 * (sa)->wp)
#define LINKS(sa, p)    ((p) + (sa)->link_off)
/* node @x's links in a set's LINKS: toward the LRU end, toward the MRU end */
#define NEXT(l, x)      ((l)[2 * (x)])
#define PREV(l, x)      ((l)[2 * (x) + 1])
#define DIRTY(sa, p)    ((p) + (sa)->dirty_off)
/* The dirty word and bit of @way (unsigned: a way is never negative here) */
#define DIRTY_WORD(sa, p, way)  (DIRTY(sa, p) + (unsigned)(way) / 32)
#define DIRTY_SHIFT(way)        ((unsigned)(way) % 32)

void setassoc_init(SetAssoc *sa, uint32_t sets, uint32_t ways)
{
    g_assert(sets && !(sets & (sets - 1)));
    g_assert(ways >= 1 && ways <= SETASSOC_MAX_WAYS);
    *sa = (SetAssoc) {
        .sets = sets,
        .ways = ways,
        .set_bits = __builtin_ctz(sets),
        .wp = (ways + 3) & ~3u,
        .dw = (ways + 31) / 32,
        .mask_words = (ways + 31) / 32,
    };
    sa->link_off = 3 * sa->wp;
    sa->dirty_off = sa->link_off + 2 * (ways + 1);
    sa->stride = sa->dirty_off + sa->dw;
    g_assert((uint64_t)sets * sa->stride <= UINT32_MAX);
    sa->n_words = sets * sa->stride;
    sa->words = g_new(uint32_t, sa->n_words);
    setassoc_reset(sa);
}

void setassoc_fini(SetAssoc *sa)
{
    g_free(sa->words);
    sa->words = NULL;
}

void setassoc_reset(SetAssoc *sa)
{
    uint32_t n = sa->ways + 1;  /* the nodes: the ways and the head */

    memset(sa->words, 0, (size_t)sa->n_words * sizeof(*sa->words));
    for (uint32_t s = 0; s < sa->sets; s++) {
        uint32_t *l = LINKS(sa, set_ptr(sa, s));

        /* from the LRU end: way 0, 1, ..., ways - 1 (all invalid) */
        for (uint32_t x = 0; x < n; x++) {
            NEXT(l, x) = (x + n - 1) % n;
            PREV(l, x) = (x + 1) % n;
        }
    }
}

/* The way of the line with tag @tag in set @p, or SETASSOC_NO_WAY. */
static inline int lookup_in(const SetAssoc *sa, const uint32_t *p,
                            uint64_t tag)
{
    v4i key = splat(((uint32_t)tag & TAG_LO_MASK) | SETASSOC_VALID);
    uint32_t hi = tag >> 31;

    for (uint32_t w = 0; w < sa->wp; w += 4) {
        unsigned m = lane_bits(load4(LO(sa, p) + w) == key);

        /* Ways whose low tag bits match; the high bits decide. */
        for (; m; m &= m - 1) {
            uint32_t way = w + __builtin_ctz(m);

            if (HI(sa, p)[way] == hi) {
                return way;
            }
        }
    }
    return SETASSOC_NO_WAY;
}

int setassoc_lookup(const SetAssoc *sa, uint64_t line)
{
    return lookup_in(sa, set_ptr(sa, setassoc_set_of(sa, line)),
                     line >> sa->set_bits);
}

/*
 * The recency order of a set (setassoc.h, "Layout"), node ways its head.
 * Take node @x out of links @l, and put it back after @at (on @at's LRU
 * side).
 */
static inline void order_unlink(uint32_t *l, uint32_t x)
{
    uint32_t p = PREV(l, x), n = NEXT(l, x);

    NEXT(l, p) = n;
    PREV(l, n) = p;
}

static inline void order_insert(uint32_t *l, uint32_t at, uint32_t x)
{
    uint32_t n = NEXT(l, at);

    NEXT(l, at) = x;
    PREV(l, x) = at;
    NEXT(l, x) = n;
    PREV(l, n) = x;
}

/* Make @way of set @p the most recently used (also right if it is). */
static inline void make_mru(const SetAssoc *sa, uint32_t *p, uint32_t way)
{
    uint32_t *l = LINKS(sa, p);

    order_unlink(l, way);
    order_insert(l, sa->ways, way);
}

/* Make @way of set @p the most recently used; returns whether it is dirty. */
static inline bool touch_at(const SetAssoc *sa, uint32_t *p, int way,
                            bool write)
{
    uint32_t *dirty_word = DIRTY_WORD(sa, p, way);
    uint32_t d = *dirty_word | (uint32_t)write << DIRTY_SHIFT(way);

    *dirty_word = d;
    make_mru(sa, p, way);
    return d >> DIRTY_SHIFT(way) & 1;
}

void setassoc_touch(SetAssoc *sa, uint32_t set, int way, bool write)
{
    touch_at(sa, set_ptr(sa, set), way, write);
}

int setassoc_access(SetAssoc *sa, uint64_t line, bool write, bool *dirty)
{
    uint32_t *p = set_ptr(sa, setassoc_set_of(sa, line));
    int way = lookup_in(sa, p, line >> sa->set_bits);
    bool is_dirty;

    if (way != SETASSOC_NO_WAY) {
        is_dirty = touch_at(sa, p, way, write);
        if (dirty) {
            *dirty = is_dirty;
        }
    }
    return way;
}

bool setassoc_is_dirty(const SetAssoc *sa, uint32_t set, int way)
{
    return *DIRTY_WORD(sa, set_ptr(sa, set), way) >> DIRTY_SHIFT(way) & 1;
}

void setassoc_set_dirty(SetAssoc *sa, uint32_t set, int way)
{
    *DIRTY_WORD(sa, set_ptr(sa, set), way) |= 1u << DIRTY_SHIFT(way);
}

/*
 * The victim: the first way from the LRU end of the order that @allowed
 * (NULL: every way) permits and, with @own_only, that holds a line of
 * @partid.  The invalid ways are the order's LRU end, lowest way first,
 * so the first invalid allowed way comes before every valid one.
 */
static inline __attribute__((always_inline)) int
victim_of(const SetAssoc *sa, const uint32_t *p, const uint32_t *allowed,
          bool own_only, uint32_t partid)
{
    const uint32_t *l = LINKS(sa, p);
    uint32_t head = sa->ways, w = PREV(l, head);

    if (!allowed && !own_only) {
        return w;
    }
    for (; w != head; w = PREV(l, w)) {
        if ((!allowed || allowed[w / 32] >> (w % 32) & 1) &&
            (!own_only || (LO(sa, p)[w] && OWNER(sa, p)[w] >> 16 == partid))) {
            return w;
        }
    }
    return SETASSOC_NO_WAY;
}

int setassoc_victim(const SetAssoc *sa, uint32_t set, const uint32_t *allowed,
                    bool own_only, uint32_t partid)
{
    return victim_of(sa, set_ptr(sa, set), allowed, own_only, partid);
}

uint32_t setassoc_count_owned(const SetAssoc *sa, uint32_t set,
                              uint32_t partid)
{
    const uint32_t *p = set_ptr(sa, set);
    uint32_t n = 0;

    for (uint32_t w = 0; w < sa->ways; w++) {
        n += LO(sa, p)[w] && OWNER(sa, p)[w] >> 16 == partid;
    }
    return n;
}

static inline void line_at(const SetAssoc *sa, const uint32_t *p,
                           uint32_t set, int way, SetAssocLine *line)
{
    uint64_t tag = (uint64_t)HI(sa, p)[way] << 31 |
                   (LO(sa, p)[way] & TAG_LO_MASK);

    *line = (SetAssocLine) {
        .valid = LO(sa, p)[way] != 0,
        .dirty = *DIRTY_WORD(sa, p, way) >> DIRTY_SHIFT(way) & 1,
        .line = tag << sa->set_bits | set,
        .owner = OWNER(sa, p)[way],
    };
}

void setassoc_get(const SetAssoc *sa, uint32_t set, int way,
                  SetAssocLine *line)
{
    line_at(sa, set_ptr(sa, set), set, way, line);
}

static inline __attribute__((always_inline)) void
fill_at(SetAssoc *sa, uint32_t *p, uint32_t set, int way, uint64_t line,
        uint32_t owner, bool dirty, SetAssocLine *victim)
{
    uint32_t wp = sa->wp;       /* locals: the stores below may alias *sa */
    uint64_t tag = line >> sa->set_bits;
    uint32_t *dirty_word = DIRTY_WORD(sa, p, way);
    uint32_t bit = 1u << DIRTY_SHIFT(way);

    if (p[way]) {
        line_at(sa, p, set, way, victim);
    } else {
        victim->valid = false;
    }
    make_mru(sa, p, way);
    p[way] = ((uint32_t)tag & TAG_LO_MASK) | SETASSOC_VALID;   /* lo */
    p[wp + way] = tag >> 31;                                    /* hi */
    p[2 * wp + way] = owner;
    *dirty_word = (*dirty_word & ~bit) | (dirty ? bit : 0);
}

void setassoc_fill(SetAssoc *sa, int way, uint64_t line, uint32_t owner,
                   bool dirty, SetAssocLine *victim)
{
    uint32_t set = setassoc_set_of(sa, line);

    fill_at(sa, set_ptr(sa, set), set, way, line, owner, dirty, victim);
}

int setassoc_replace(SetAssoc *sa, uint64_t line, const uint32_t *allowed,
                     bool own_only, uint32_t partid, uint32_t owner,
                     bool dirty, SetAssocLine *victim)
{
    uint32_t set = setassoc_set_of(sa, line);
    uint32_t *p = set_ptr(sa, set);
    int way = victim_of(sa, p, allowed, own_only, partid);

    if (way != SETASSOC_NO_WAY) {
        fill_at(sa, p, set, way, line, owner, dirty, victim);
    }
    return way;
}

void setassoc_invalidate(SetAssoc *sa, uint32_t set, int way,
                         SetAssocLine *victim)
{
    uint32_t *p = set_ptr(sa, set);
    uint32_t *l = LINKS(sa, p);
    uint32_t head = sa->ways, at;

    line_at(sa, p, set, way, victim);
    LO(sa, p)[way] = 0;
    HI(sa, p)[way] = 0;
    OWNER(sa, p)[way] = 0;
    *DIRTY_WORD(sa, p, way) &= ~(1u << DIRTY_SHIFT(way));
    /* into the invalid ways at the LRU end, in the order of their number */
    order_unlink(l, way);
    for (at = PREV(l, head); at != head && !LO(sa, p)[at] &&
         at < (uint32_t)way; at = PREV(l, at)) {
    }
    order_insert(l, at, way);
}

void setassoc_all_ways(const SetAssoc *sa, uint32_t *mask)
{
    for (uint32_t i = 0; i < sa->mask_words; i++) {
        uint32_t left = sa->ways - i * 32;

        mask[i] = left >= 32 ? UINT32_MAX : (1u << left) - 1;
    }
}

bool setassoc_mask_is_all(const SetAssoc *sa, const uint32_t *mask)
{
    for (uint32_t i = 0; i < sa->mask_words; i++) {
        uint32_t left = sa->ways - i * 32;

        if (mask[i] != (left >= 32 ? UINT32_MAX : (1u << left) - 1)) {
            return false;
        }
    }
    return true;
}

/*
 * Whether set @p's order is one list through its ways and head: every
 * link names a node, prev undoes next, and next from the head comes back
 * to it after ways + 1 steps (a permutation with one cycle); then whether
 * the invalid ways are its LRU end, lowest way first.
 */
static const char *check_order(const SetAssoc *sa, const uint32_t *p)
{
    const uint32_t *l = LINKS(sa, p);
    uint32_t head = sa->ways, x = head, n = 0;
    bool valid_seen = false;
    int last_invalid = -1;

    for (uint32_t y = 0; y <= head; y++) {
        if (NEXT(l, y) > head || PREV(l, y) > head ||
            PREV(l, NEXT(l, y)) != y) {
            return "broken recency order";
        }
    }
    do {
        x = NEXT(l, x);
        n++;
    } while (x != head && n <= head);
    if (n != head + 1) {
        return "recency order not one list of every way";
    }
    for (x = PREV(l, head); x != head; x = PREV(l, x)) {
        if (LO(sa, p)[x]) {
            valid_seen = true;
        } else if (valid_seen || (int)x < last_invalid) {
            return "invalid way out of order";
        } else {
            last_invalid = x;
        }
    }
    return NULL;
}

char *setassoc_check(const SetAssoc *sa)
{
    for (uint32_t s = 0; s < sa->sets; s++) {
        const uint32_t *p = set_ptr(sa, s);
        const char *why = check_order(sa, p);

        if (why) {
            return g_strdup_printf("set %u: %s", s, why);
        }
        for (uint32_t w = 0; w < sa->wp; w++) {
            bool valid = LO(sa, p)[w] != 0;
            bool dirty = w < sa->ways && DIRTY(sa, p)[w / 32] >> (w % 32) & 1;

            if (valid ? w >= sa->ways
                      : HI(sa, p)[w] || OWNER(sa, p)[w] || dirty) {
                return g_strdup_printf("set %u way %u: inconsistent line "
                                       "(tag %08x)", s, w, LO(sa, p)[w]);
            }
            for (uint32_t v = 0; valid && v < w; v++) {
                if (LO(sa, p)[v] == LO(sa, p)[w] &&
                    HI(sa, p)[v] == HI(sa, p)[w]) {
                    return g_strdup_printf("set %u: ways %u and %u hold the "
                                           "same line", s, v, w);
                }
            }
        }
        for (uint32_t d = 0; d < sa->dw; d++) {
            uint32_t left = sa->ways - d * 32;

            if (left < 32 && DIRTY(sa, p)[d] >> left) {
                return g_strdup_printf("set %u: dirty bits beyond the ways", s);
            }
        }
    }
    return NULL;
}

uint64_t setassoc_checksum(const SetAssoc *sa)
{
    uint64_t h = 0xcbf29ce484222325ull;

    for (uint32_t i = 0; i < sa->n_words; i++) {
        h = (h ^ sa->words[i]) * 0x100000001b3ull;
    }
    return h;
}
