/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Partitioned cache occupancy model: a set-associative, LRU cache whose
 * lines are tagged with the (PARTID, PMG) that allocated them.  It exists to
 * give MPAM cache-storage-usage (CSU) monitors a realistic occupancy that
 * honours cache portion partitioning (CPBM) and capacity limits (CMAX).
 *
 * Portions: the cache's capacity is divided into n_portions equal chunks.
 * Line slot (set s, way w) belongs to portion
 *     ((w * sets + s) * n_portions) / (ways * sets)
 * so with n_portions <= ways portion i is a group of whole ways (when ways
 * divides evenly), and with more portions than ways a way is split by sets.
 * Either way portions are disjoint and each holds 1/n_portions of the cache.
 * A requester may only allocate into slots of portions its bitmap allows.
 *
 * State (migratable): tag[], partid[], pmg[], valid[], lru[] (n_lines each)
 * and lru_clock.  Occupancy counters are derived (pcache_rebuild).
 */
#ifndef MEMQOS_PCACHE_H
#define MEMQOS_PCACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

typedef struct PCache {
    /* config */
    uint32_t sets;
    uint32_t ways;
    uint32_t line_size;         /* power of two */
    uint32_t line_shift;
    uint32_t n_portions;        /* >= 1 */
    uint32_t n_lines;           /* sets * ways */

    /* state: slot = set * ways + way */
    uint64_t *tag;              /* line address (addr >> line_shift) */
    uint16_t *partid;
    uint8_t *pmg;
    uint8_t *valid;
    uint64_t *lru;              /* last-use stamp, larger = more recent */
    uint64_t lru_clock;

    /* derived: lines per (PARTID, PMG) and per PARTID */
    GHashTable *occ_pg;         /* (partid << 8 | pmg) -> lines */
    GHashTable *occ_p;          /* partid -> lines */
    uint64_t occ_total;         /* valid lines */
    uint32_t *portion_of;       /* [slot] -> portion (derived from config) */
} PCache;

/* Limits applied to one allocation. */
typedef struct PCacheLimits {
    const uint32_t *portion_mask;   /* n_portions bits; NULL = all portions */
    uint64_t max_lines;             /* capacity limit for the PARTID (CMAX) */
    uint32_t max_ways;              /* lines per set for the PARTID (CASSOC) */
} PCacheLimits;

PCache *pcache_new(uint64_t size, uint32_t ways, uint32_t line_size,
                   uint32_t n_portions, GError **errp);
void pcache_free(PCache *c);
/* Invalidate everything. */
void pcache_reset(PCache *c);
/* Recompute the derived occupancy counters from the line state. */
void pcache_rebuild(PCache *c);

/*
 * One access to the line holding @addr by (partid, pmg).  A hit refreshes
 * LRU.  A miss allocates within @lim: the victim is an invalid or the
 * least recently used slot among the allowed portions; if the requester is
 * at its capacity or per-set limit the victim must be one of its own lines;
 * if no slot qualifies the line is not allocated.  Returns true on hit.
 */
bool pcache_access(PCache *c, uint64_t addr, uint16_t partid, uint8_t pmg,
                   const PCacheLimits *lim);

/* Drop all lines of @partid (e.g. when software flushes); returns lines. */
uint64_t pcache_flush_partid(PCache *c, uint16_t partid);

/* Occupancy in lines. */
uint64_t pcache_lines_pg(const PCache *c, uint16_t partid, uint8_t pmg);
uint64_t pcache_lines_partid(const PCache *c, uint16_t partid);
static inline uint64_t pcache_lines_total(const PCache *c)
{
    return c->occ_total;
}
static inline uint64_t pcache_size(const PCache *c)
{
    return (uint64_t)c->n_lines * c->line_size;
}

#endif
