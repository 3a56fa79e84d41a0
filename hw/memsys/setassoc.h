/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Set-associative tag store shared by every cache level of the model (the
 * private L1D/L1I/L2 of hw/memsys and the partitioned L3 of pcache.h),
 * docs/timing-design.md §3.6.  It holds which lines are present, their
 * owner label, dirtiness and true-LRU order; the policies (which ways a
 * requester may allocate into, where a victim goes) belong to the caller.
 *
 * Layout, set-major so that a stream touches consecutive memory: the state
 * is ONE flat array of 32-bit words (what migration saves), a set after
 * the other, stride words each:
 *     lo[wp]       tag bits 0..30 | SETASSOC_VALID, 0 = invalid way
 *     hi[wp]       tag bits 31..63
 *     owner[wp]    owner label, partid << 16 | pmg
 *     link[2 * (ways + 1)]
 *                  the recency order: a circular doubly linked list
 *                  through the ways 0..ways-1 and its head, node ways;
 *                  node x's next (toward the least recently used end)
 *                  is link[2x], its prev (toward the most recently used
 *                  end) link[2x + 1], so the head's next is the MRU way
 *                  and its prev the LRU way
 *     dirty[dw]    bit w: way w is dirty
 * with wp = ways rounded up to 4 (padding ways are never valid), dw =
 * ceil(ways / 32), tag = line >> log2(sets).  Lookup compares lo[] four
 * ways at a time with GCC vector extensions (a match is confirmed on
 * hi[]).
 *
 * The order holds every way: the valid ones by their last use, and behind
 * them, at the LRU end, the invalid ones by number, way 0 last (a reset
 * set is ways-1, ..., 1, 0 from the head).  A use (hit or fill) moves the
 * way to the head, an invalidation among the invalid ways at the end.
 * The victim under a way mask is then the first allowed way from the LRU
 * end: the lowest invalid allowed way if there is one, else the least
 * recently used allowed way, exactly what a minimum over per-way stamps
 * (clock of the last use, 0 if invalid, way number on ties) picks.  With
 * every way allowed it is the head's prev, without a scan.
 */
#ifndef MEMQOS_MEMSYS_SETASSOC_H
#define MEMQOS_MEMSYS_SETASSOC_H

#include <stdbool.h>
#include <stdint.h>

#define SETASSOC_VALID      0x80000000u
#define SETASSOC_MAX_WAYS   255
#define SETASSOC_NO_WAY     (-1)

typedef struct SetAssoc {
    /* config */
    uint32_t sets;              /* power of two */
    uint32_t ways;              /* 1..SETASSOC_MAX_WAYS */
    uint32_t set_bits;          /* log2(sets) */
    uint32_t wp;                /* ways rounded up to 4 */
    uint32_t dw;                /* dirty words per set */
    uint32_t link_off;          /* offsets of link[] and dirty[] in a set: */
    uint32_t dirty_off;         /* 3 * wp, + 2 * (ways + 1) */
    uint32_t stride;            /* words per set: dirty_off + dw */
    uint32_t mask_words;        /* words of a way mask: ceil(ways / 32) */
    /* state */
    uint32_t n_words;           /* sets * stride */
    uint32_t *words;
} SetAssoc;

/* A line as it is held: what setassoc_fill replaced, setassoc_get reads. */
typedef struct SetAssocLine {
    bool valid;                 /* a valid line was replaced */
    bool dirty;
    uint64_t line;              /* its line address */
    uint32_t owner;
} SetAssocLine;

/* @sets a power of two, 1 <= @ways <= SETASSOC_MAX_WAYS (asserted). */
void setassoc_init(SetAssoc *sa, uint32_t sets, uint32_t ways);
void setassoc_fini(SetAssoc *sa);
/* All ways invalid, in the order of a reset set (Layout). */
void setassoc_reset(SetAssoc *sa);

static inline uint32_t setassoc_set_of(const SetAssoc *sa, uint64_t line)
{
    return line & (sa->sets - 1);
}

/* The way of @line if present (no LRU update), else SETASSOC_NO_WAY. */
int setassoc_lookup(const SetAssoc *sa, uint64_t line);
/* Make (set, way) the most recently used; @write marks it dirty. */
void setassoc_touch(SetAssoc *sa, uint32_t set, int way, bool write);
/*
 * setassoc_lookup and, on a hit, setassoc_touch in one: the way of @line
 * (now the most recently used, dirty if @write) and in *@dirty (unless
 * NULL) whether it is dirty now; SETASSOC_NO_WAY (nothing changed) on a
 * miss.
 */
int setassoc_access(SetAssoc *sa, uint64_t line, bool write, bool *dirty);
/* Whether (set, way) is dirty. */
bool setassoc_is_dirty(const SetAssoc *sa, uint32_t set, int way);
/* Mark (set, way) dirty without an LRU update (a write-back arriving). */
void setassoc_set_dirty(SetAssoc *sa, uint32_t set, int way);

/*
 * The victim among the ways of @set that @allowed (mask_words words, bit w
 * = way w; NULL: every way) permits: the first invalid such way, else the
 * least recently used.  With @own_only, only valid ways whose owner
 * PARTID (owner >> 16) is @partid qualify.  SETASSOC_NO_WAY if none does.
 */
int setassoc_victim(const SetAssoc *sa, uint32_t set, const uint32_t *allowed,
                    bool own_only, uint32_t partid);
/* Valid ways of @set owned by PARTID @partid. */
uint32_t setassoc_count_owned(const SetAssoc *sa, uint32_t set,
                              uint32_t partid);
/*
 * Put @line (of set setassoc_set_of(line)) into @way as most recently
 * used, owned by @owner; what it replaces goes to *@victim.
 */
void setassoc_fill(SetAssoc *sa, int way, uint64_t line, uint32_t owner,
                   bool dirty, SetAssocLine *victim);
/*
 * setassoc_victim and setassoc_fill in one: @line goes into the victim its
 * set has under @allowed/@own_only/@partid; returns the way, or
 * SETASSOC_NO_WAY (nothing changed) if no way qualifies.
 */
int setassoc_replace(SetAssoc *sa, uint64_t line, const uint32_t *allowed,
                     bool own_only, uint32_t partid, uint32_t owner,
                     bool dirty, SetAssocLine *victim);
/* Invalidate (set, way); what it held goes to *@victim. */
void setassoc_invalidate(SetAssoc *sa, uint32_t set, int way,
                         SetAssocLine *victim);

/* The line in (set, way), as setassoc_fill would report replacing it. */
void setassoc_get(const SetAssoc *sa, uint32_t set, int way,
                  SetAssocLine *line);
/* A way mask allowing every way (mask_words words). */
void setassoc_all_ways(const SetAssoc *sa, uint32_t *mask);
/* Whether way mask @mask allows every way. */
bool setassoc_mask_is_all(const SetAssoc *sa, const uint32_t *mask);

/*
 * A loaded state is one the model can reach: each set's order one list
 * through all its ways with the invalid ones at the LRU end by number,
 * invalid ways zeroed, padding ways invalid, dirty bits of invalid ways
 * clear, no line twice in a set.  Returns NULL or a g_malloc'ed description of the first fault.
 */
char *setassoc_check(const SetAssoc *sa);
/* FNV-1a over the state words. */
uint64_t setassoc_checksum(const SetAssoc *sa);

#endif
