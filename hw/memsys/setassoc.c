/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Set-associative tag store, see setassoc.h.  QEMU builds with -O2, which
 * does not vectorise loops, so the per-set scans are written with GCC
 * vector extensions: four ways per 16-byte vector.
 */
#include <inttypes.h>
#include <string.h>
#include <glib.h>

#include "setassoc.h"

typedef int32_t v4i __attribute__((vector_size(16)));
typedef uint64_t v2u __attribute__((vector_size(16)));

/*
 * A stamp is clock << 8 | way (an invalid way's clock is 0), so stamps
 * stay below 2^31, where signed vector compares order them, and the
 * minimum says which way it belongs to.  KEY_NONE is the key of a way that
 * does not qualify as a victim, and the stamp of every padding way.
 */
#define KEY_NONE        INT32_MAX
#define STAMP(clock, way) ((clock) << 8 | (way))
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

/* All-ones lanes for the set bits 0..3 of @bits. */
static inline v4i bits_lanes(unsigned bits)
{
    return (splat(bits) & (v4i){ 1, 2, 4, 8 }) != 0;
}

static inline v4i vmin(v4i a, v4i b)
{
    v4i lt = a < b;

    return (a & lt) | (b & ~lt);
}

static inline uint32_t *set_ptr(const SetAssoc *sa, uint32_t set)
{
    return sa->words + 1 + (size_t)set * sa->stride;
}

/* The fields of a set (setassoc.h, "Layout"). */
#define LO(sa, p)       (p)
#define HI(sa, p)       ((p) + (sa)->wp)
#define STAMPS(sa, p)   ((p) + 2 * (sa)->wp)
#define OWNER(sa, p)    ((p) + 3 * (sa)->wp)
#define DIRTY(sa, p)    ((p) + 4 * (sa)->wp)
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
    sa->stride = 4 * sa->wp + sa->dw;
    g_assert((uint64_t)sets * sa->stride + 1 <= UINT32_MAX);
    sa->n_words = 1 + sets * sa->stride;
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
    memset(sa->words, 0, (size_t)sa->n_words * sizeof(*sa->words));
    for (uint32_t s = 0; s < sa->sets; s++) {
        for (uint32_t w = sa->ways; w < sa->wp; w++) {
            STAMPS(sa, set_ptr(sa, s))[w] = KEY_NONE;
        }
        for (uint32_t w = 0; w < sa->ways; w++) {
            STAMPS(sa, set_ptr(sa, s))[w] = STAMP(0u, w);
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

/* Renumber every set's clocks by rank, keeping each set's LRU order. */
static void __attribute__((noinline, cold)) renumber(SetAssoc *sa)
{
    uint32_t rank[SETASSOC_MAX_WAYS];

    for (uint32_t s = 0; s < sa->sets; s++) {
        uint32_t *st = STAMPS(sa, set_ptr(sa, s));

        for (uint32_t a = 0; a < sa->ways; a++) {
            rank[a] = 0;
            for (uint32_t b = 0; b < sa->ways && st[a] >> 8; b++) {
                rank[a] += st[b] >> 8 && st[b] <= st[a];
            }
        }
        for (uint32_t a = 0; a < sa->ways; a++) {
            st[a] = STAMP(rank[a], a);
        }
    }
    sa->words[0] = sa->ways;
}

/*
 * Whether the clock must be renumbered before it hands out a stamp.  The
 * hot paths (setassoc_access, setassoc_replace) then start again after
 * renumbering, in a call of their own (a tail call): a call in their
 * middle would make every access save registers.
 */
static inline bool clock_full(const SetAssoc *sa)
{
    return __builtin_expect(sa->words[0] >= SETASSOC_CLOCK_LIMIT, 0);
}

/* The stamp making @way of its set the most recently used (!clock_full). */
static inline uint32_t next_stamp(SetAssoc *sa, int way)
{
    return STAMP(++sa->words[0], (uint32_t)way);
}

/* Make @way of set @p the most recently used; returns whether it is dirty. */
static inline bool touch_at(SetAssoc *sa, uint32_t *p, int way, bool write)
{
    uint32_t wp = sa->wp;       /* locals: the stores below may alias *sa */
    uint32_t *dirty_word = p + 4 * wp + (unsigned)way / 32;
    uint32_t d = *dirty_word | (uint32_t)write << DIRTY_SHIFT(way);

    p[2 * wp + way] = next_stamp(sa, way);
    *dirty_word = d;
    return d >> DIRTY_SHIFT(way) & 1;
}

void setassoc_touch(SetAssoc *sa, uint32_t set, int way, bool write)
{
    if (clock_full(sa)) {
        renumber(sa);
    }
    touch_at(sa, set_ptr(sa, set), way, write);
}

static int __attribute__((noinline, cold))
access_renumbered(SetAssoc *sa, uint64_t line, bool write, bool *dirty)
{
    renumber(sa);
    return setassoc_access(sa, line, write, dirty);
}

int setassoc_access(SetAssoc *sa, uint64_t line, bool write, bool *dirty)
{
    uint32_t *p = set_ptr(sa, setassoc_set_of(sa, line));
    int way = lookup_in(sa, p, line >> sa->set_bits);
    bool is_dirty;

    if (way != SETASSOC_NO_WAY) {
        if (clock_full(sa)) {
            return access_renumbered(sa, line, write, dirty);
        }
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
 * Victim key of ways w..w+3: the stamp (clock 0 for an invalid way, so the
 * first invalid way wins; KEY_NONE for padding), KEY_NONE where the way may
 * not be the victim.  @any: every way may (no mask to apply).
 */
static inline __attribute__((always_inline)) v4i
victim_key(const SetAssoc *sa, const uint32_t *p, uint32_t w,
           const uint32_t *allowed, bool own_only, uint32_t partid, bool any)
{
    v4i stamp = load4(STAMPS(sa, p) + w), ok;

    if (any) {
        return stamp;
    }
    ok = bits_lanes((allowed[w / 32] >> (w % 32)) & 15);
    if (own_only) {
        v4i owner = load4(OWNER(sa, p) + w);

        ok &= ((owner >> 16 & 0xffff) == splat(partid)) &
              (load4(LO(sa, p) + w) != 0);
    }
    return (stamp & ok) | (splat(KEY_NONE) & ~ok);
}

static inline __attribute__((always_inline)) int
victim_in(const SetAssoc *sa, const uint32_t *p, const uint32_t *allowed,
          bool own_only, uint32_t partid, bool any)
{
    v4i best = splat(KEY_NONE), tmp;

    for (uint32_t w = 0; w < sa->wp; w += 4) {
        best = vmin(best, victim_key(sa, p, w, allowed, own_only, partid, any));
    }
    tmp = __builtin_shuffle(best, (v4i){ 2, 3, 0, 1 });
    best = vmin(best, tmp);
    tmp = __builtin_shuffle(best, (v4i){ 1, 0, 3, 2 });
    best = vmin(best, tmp);
    return best[0] == KEY_NONE ? SETASSOC_NO_WAY : best[0] & 0xff;
}

static inline __attribute__((always_inline)) int
victim_of(const SetAssoc *sa, const uint32_t *p, const uint32_t *allowed,
          bool own_only, uint32_t partid)
{
    uint32_t all[(SETASSOC_MAX_WAYS + 31) / 32];

    if (!allowed) {
        if (!own_only) {
            return victim_in(sa, p, NULL, false, 0, true);
        }
        setassoc_all_ways(sa, all);
        allowed = all;
    }
    return victim_in(sa, p, allowed, own_only, partid, false);
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
    uint32_t stamp = next_stamp(sa, way);

    if (p[way]) {
        line_at(sa, p, set, way, victim);
    } else {
        victim->valid = false;
    }
    p[way] = ((uint32_t)tag & TAG_LO_MASK) | SETASSOC_VALID;   /* lo */
    p[wp + way] = tag >> 31;                                    /* hi */
    p[2 * wp + way] = stamp;
    p[3 * wp + way] = owner;
    *dirty_word = (*dirty_word & ~bit) | (dirty ? bit : 0);
}

void setassoc_fill(SetAssoc *sa, int way, uint64_t line, uint32_t owner,
                   bool dirty, SetAssocLine *victim)
{
    uint32_t set = setassoc_set_of(sa, line);

    if (clock_full(sa)) {
        renumber(sa);
    }

    fill_at(sa, set_ptr(sa, set), set, way, line, owner, dirty, victim);
}

static int __attribute__((noinline, cold))
replace_renumbered(SetAssoc *sa, uint64_t line, const uint32_t *allowed,
                   bool own_only, uint32_t partid, uint32_t owner, bool dirty,
                   SetAssocLine *victim)
{
    /* Renumbering keeps the LRU order: the victim stays the same. */
    renumber(sa);
    return setassoc_replace(sa, line, allowed, own_only, partid, owner, dirty,
                            victim);
}

int setassoc_replace(SetAssoc *sa, uint64_t line, const uint32_t *allowed,
                     bool own_only, uint32_t partid, uint32_t owner,
                     bool dirty, SetAssocLine *victim)
{
    uint32_t set = setassoc_set_of(sa, line);
    uint32_t *p = set_ptr(sa, set);
    int way = victim_of(sa, p, allowed, own_only, partid);

    if (way != SETASSOC_NO_WAY) {
        if (clock_full(sa)) {
            return replace_renumbered(sa, line, allowed, own_only, partid,
                                      owner, dirty, victim);
        }
        fill_at(sa, p, set, way, line, owner, dirty, victim);
    }
    return way;
}

void setassoc_invalidate(SetAssoc *sa, uint32_t set, int way,
                         SetAssocLine *victim)
{
    uint32_t *p = set_ptr(sa, set);

    line_at(sa, p, set, way, victim);
    LO(sa, p)[way] = 0;
    HI(sa, p)[way] = 0;
    STAMPS(sa, p)[way] = STAMP(0u, (uint32_t)way);
    OWNER(sa, p)[way] = 0;
    *DIRTY_WORD(sa, p, way) &= ~(1u << DIRTY_SHIFT(way));
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

char *setassoc_check(const SetAssoc *sa)
{
    uint32_t clock = sa->words[0];

    if (clock > SETASSOC_CLOCK_LIMIT) {
        return g_strdup_printf("LRU clock %u beyond %u", clock,
                               SETASSOC_CLOCK_LIMIT);
    }
    for (uint32_t s = 0; s < sa->sets; s++) {
        const uint32_t *p = set_ptr(sa, s);

        for (uint32_t w = 0; w < sa->wp; w++) {
            bool valid = LO(sa, p)[w] != 0;
            bool dirty = w < sa->ways && DIRTY(sa, p)[w / 32] >> (w % 32) & 1;
            uint32_t st = STAMPS(sa, p)[w];

            if (valid ? w >= sa->ways || (st & 0xff) != w || !(st >> 8) ||
                        st >> 8 > clock
                      : HI(sa, p)[w] || OWNER(sa, p)[w] || dirty ||
                        st != (w < sa->ways ? STAMP(0u, w) : KEY_NONE)) {
                return g_strdup_printf("set %u way %u: inconsistent line "
                                       "(tag %08x stamp %u, clock %u)", s, w,
                                       LO(sa, p)[w], st, clock);
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
