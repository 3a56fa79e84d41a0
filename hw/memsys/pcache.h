/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Partitioned cache model: a set-associative, write-back, write-allocate,
 * LRU cache whose lines are tagged with the label (PARTID, PMG) that
 * allocated them.  It gives MPAM cache-storage-usage (CSU) monitors a
 * realistic occupancy that honours cache portion partitioning (CPBM) and
 * capacity limits (CMAX, CASSOC), and tells the caller which lines hit and
 * what traffic goes downstream (MemResult, hw/memsys/request.h).
 *
 * Portions: the cache's capacity is divided into n_portions equal chunks.
 * Line slot (set s, way w) belongs to portion
 *     ((w * sets + s) * n_portions) / (ways * sets)
 * so with n_portions <= ways portion i is a group of whole ways (when ways
 * divides evenly), and with more portions than ways a way is split by sets.
 * Either way portions are disjoint and each holds 1/n_portions of the cache.
 * A requester may only allocate into slots of portions its bitmap allows.
 *
 * Portions become allowed-way masks: sets whose slots map to the same
 * portions form a set class (one class when portions divide the ways
 * evenly), and pcache_way_mask() turns a portion bitmap into a way mask
 * per class once, when software writes it, so that an access does no
 * portion arithmetic.  Allocation goes only into allowed ways (the first
 * invalid one, else the least recently used), hits are found in any way.
 *
 * State (migratable): the set-associative tag store sa (setassoc.h: one flat array of 32-bit words; a line's owner label is
 * partid << 16 | pmg).  Occupancy counters are derived (pcache_rebuild):
 * flat arrays indexed by label, so an access does no hashing and no
 * allocation.
 */
#ifndef MEMQOS_PCACHE_H
#define MEMQOS_PCACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "../memsys/request.h"
#include "setassoc.h"

/* Labels per line are stored in 16 bits: PARTID, CLOSID and RMID fit. */
#define PCACHE_LABEL_LIMIT      0x10000
/* Lines and (PARTID x PMG) occupancy counters a model may hold. */
#define PCACHE_LINES_LIMIT      (1u << 26)
#define PCACHE_COUNTERS_LIMIT   (1u << 24)

typedef struct PCacheConfig {
    uint64_t size;              /* bytes */
    uint32_t ways;
    uint32_t line_size;         /* bytes, power of two */
    uint32_t n_portions;        /* 0 is taken as 1 */
    uint32_t n_partid;          /* labels are partid < n_partid ... */
    uint32_t n_pmg;             /* ... and pmg < n_pmg */
} PCacheConfig;

typedef struct PCache {
    /* config */
    uint32_t sets;              /* power of two */
    uint32_t ways;
    uint32_t line_size;         /* power of two */
    uint32_t line_shift;
    uint32_t n_portions;        /* >= 1 */
    uint32_t n_lines;           /* sets * ways */
    uint32_t n_partid;
    uint32_t n_pmg;

    /* state: the lines */
    SetAssoc sa;

    /* derived: valid lines per label */
    uint32_t *occ_pg;           /* [partid * n_pmg + pmg] */
    uint32_t *occ_p;            /* [partid] */
    uint64_t occ_total;

    /* derived from config: set classes of the portion mapping */
    uint32_t n_classes;
    uint32_t *class_of_set;     /* [set] -> class */
    uint32_t *portion_of;       /* [class * ways + way] -> portion */
} PCache;

/* Limits applied to one allocation. */
typedef struct PCacheLimits {
    const uint32_t *portion_mask;   /* n_portions bits; NULL = all portions */
    uint64_t max_lines;             /* capacity limit for the PARTID (CMAX) */
    uint32_t max_ways;              /* lines per set for the PARTID (CASSOC) */
    /*
     * Allowed ways per set class, from pcache_way_mask(); when set it
     * replaces portion_mask (the MSC precomputes it when CPBM is written).
     */
    const uint32_t *way_mask;
} PCacheLimits;

/*
 * NULL if a cache of this configuration can be modeled, else a g_malloc'ed
 * reason.  The MSC checks its cache RIS with this, so both agree.
 */
char *pcache_config_check(const PCacheConfig *cfg);
PCache *pcache_new(const PCacheConfig *cfg, GError **errp);
void pcache_free(PCache *c);
/* Invalidate everything. */
void pcache_reset(PCache *c);
/* Recompute the derived occupancy counters from the line state. */
void pcache_rebuild(PCache *c);

/*
 * Request @req for its label (whose partid/pmg must be below n_partid/n_pmg)
 * touches each line from req->addr to req->addr + req->size - 1 (a request
 * of size 0 touches none).  A hit refreshes LRU; a write marks the line
 * dirty.  A miss reads the line from downstream and allocates it within
 * @lim: the victim is an invalid or the least recently used slot among the
 * allowed portions; if the requester is at its capacity or per-set limit
 * the victim must be one of its own lines; if no slot qualifies the line is
 * not allocated (a write then goes downstream).  A dirty victim is written
 * back.  The lines, hits and downstream bytes are added to *@res.
 */
void pcache_access(PCache *c, const MemReq *req, const PCacheLimits *lim,
                   MemResult *res);

/*
 * Traffic a cache sends downstream, one line per call: a fill (READ, the
 * requester's label, the missed line) or a write-back (WRITE, the evicted
 * line's address and its OWNER's label).  The request is the callee's: it
 * may change it on its way further down (a DSPRI, a delay), so that no
 * copy is made of a request that was just written (a wide load of fields
 * stored one by one waits for the stores to drain).
 */
typedef void PCacheDownFn(void *opaque, MemReq *down);
/*
 * pcache_access, also handing each downstream line to @down (if not NULL)
 * in the order it happens: a victim's write-back before the fill that
 * replaces it; a write that is not allocated is written through after its
 * fill.
 */
void pcache_access_down(PCache *c, const MemReq *req, const PCacheLimits *lim,
                        MemResult *res, PCacheDownFn *down, void *opaque);
/*
 * A dirty line written back from above (@req one line): if the cache holds
 * it, mark it dirty (no LRU update, the owner stays) and return true; else
 * false: write-backs never allocate.
 */
bool pcache_writeback(PCache *c, const MemReq *req);
/*
 * A DMA write over [addr, addr + size): drop every line it touches; a dirty
 * line it covers only partly is written back through @down first.
 * Returns the lines dropped.
 */
uint64_t pcache_invalidate(PCache *c, const MemReq *req, PCacheDownFn *down,
                           void *opaque);
/*
 * Cache maintenance (x86 CLFLUSH, WBINVD, INVD): drop every line of
 * [addr, addr + size), or with @all every line the cache holds; a dirty
 * one is written back through @down first if @writeback (@req is the
 * template of the write-backs: time, source).  Returns the lines dropped.
 */
uint64_t pcache_flush(PCache *c, const MemReq *req, bool all, bool writeback,
                      PCacheDownFn *down, void *opaque);

/* Words of a way mask: n_classes * setassoc mask_words. */
static inline uint32_t pcache_way_mask_words(const PCache *c)
{
    return c->n_classes * c->sa.mask_words;
}
/* The ways each set class allows for portion bitmap @portion_mask. */
void pcache_way_mask(const PCache *c, const uint32_t *portion_mask,
                     uint32_t *way_mask);

/* Whether way mask @way_mask (all set classes) allows every way. */
bool pcache_way_mask_is_all(const PCache *c, const uint32_t *way_mask);

/* The line in slot set * ways + way (introspection, tests). */
void pcache_line(const PCache *c, uint32_t slot, SetAssocLine *line);
static inline uint32_t pcache_line_partid(const SetAssocLine *l)
{
    return l->owner >> 16;
}
static inline uint32_t pcache_line_pmg(const SetAssocLine *l)
{
    return l->owner & 0xffff;
}
/* The portion slot set * ways + way belongs to. */
uint32_t pcache_portion_of(const PCache *c, uint32_t slot);
/*
 * After loading state: NULL if the lines are a state the model can reach
 * (setassoc_check) and every owner label is in range, else a g_malloc'ed
 * reason; then pcache_rebuild().
 */
char *pcache_post_load(PCache *c);
/* A checksum of the lines (for tests comparing states). */
static inline uint64_t pcache_checksum(const PCache *c)
{
    return setassoc_checksum(&c->sa);
}

/* Drop all lines of @partid (e.g. when software flushes); returns lines. */
uint64_t pcache_flush_partid(PCache *c, uint32_t partid);

/* Occupancy in lines; 0 for a label outside the configured counts. */
uint64_t pcache_lines_pg(const PCache *c, uint32_t partid, uint32_t pmg);
uint64_t pcache_lines_partid(const PCache *c, uint32_t partid);
static inline uint64_t pcache_lines_total(const PCache *c)
{
    return c->occ_total;
}
static inline uint64_t pcache_size(const PCache *c)
{
    return (uint64_t)c->n_lines * c->line_size;
}

#endif
