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
 * State (migratable): tag[], partid[], pmg[], valid[], dirty[], lru[]
 * (n_lines each) and lru_clock.  Occupancy counters are derived
 * (pcache_rebuild): flat arrays indexed by label, so an access does no
 * hashing and no allocation.
 */
#ifndef MEMQOS_PCACHE_H
#define MEMQOS_PCACHE_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "../memsys/request.h"

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
    uint32_t sets;
    uint32_t ways;
    uint32_t line_size;         /* power of two */
    uint32_t line_shift;
    uint32_t n_portions;        /* >= 1 */
    uint32_t n_lines;           /* sets * ways */
    uint32_t n_partid;
    uint32_t n_pmg;

    /* state: slot = set * ways + way */
    uint64_t *tag;              /* line address (addr >> line_shift) */
    uint16_t *partid;
    uint16_t *pmg;
    uint8_t *valid;
    uint8_t *dirty;             /* written since it was filled */
    uint64_t *lru;              /* last-use stamp, larger = more recent */
    uint64_t lru_clock;

    /* derived: valid lines per label */
    uint32_t *occ_pg;           /* [partid * n_pmg + pmg] */
    uint32_t *occ_p;            /* [partid] */
    uint64_t occ_total;
    uint32_t *portion_of;       /* [slot] -> portion (derived from config) */
} PCache;

/* Limits applied to one allocation. */
typedef struct PCacheLimits {
    const uint32_t *portion_mask;   /* n_portions bits; NULL = all portions */
    uint64_t max_lines;             /* capacity limit for the PARTID (CMAX) */
    uint32_t max_ways;              /* lines per set for the PARTID (CASSOC) */
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
