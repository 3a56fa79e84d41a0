/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cache topology of the machine, described once: CLIDR/CCSIDR, the PPTT
 * cache nodes, the L3 MSC's cache and the timing model's private caches all
 * come from one MemqosCacheTopo (docs/timing-design.md §3.1), so what the
 * guest reads about its caches is what the model does.  Pure C.
 */
#ifndef MEMQOS_MEMSYS_TOPOLOGY_H
#define MEMQOS_MEMSYS_TOPOLOGY_H

#include <stdint.h>

/* Geometry limits every level obeys (CCSIDR's fields, hardware indexing). */
#define MEMQOS_CACHE_MAX_SETS   32768   /* legacy CCSIDR NumSets */
#define MEMQOS_CACHE_MAX_WAYS   255
#define MEMQOS_CACHE_LINE       64      /* CTR_EL0 of -cpu max */

/* One cache level as CLIDR/CCSIDR and the PPTT describe it. */
typedef struct MemqosCacheGeom {
    uint64_t size;      /* bytes */
    uint32_t ways;
    uint32_t line;      /* bytes */
} MemqosCacheGeom;

typedef struct MemqosCacheTopo {
    MemqosCacheGeom l1d, l1i, l2, l3;
} MemqosCacheTopo;

/*
 * NULL if @g can be described and modeled, else a g_malloc'ed message naming
 * the level by its property prefix @level ("l1d", "l1i", "l2", "l3"), e.g.
 * "l2-size=1000000 does not give the L2 a power-of-two number of sets up to
 * 32768 (l2-size / (l2-ways 8 * 64-byte lines))".  Rules: 1 <= ways <= 255,
 * line 64, size a multiple of ways * line, sets a power of two <= 32768.
 */
char *memqos_cache_geom_check(const char *level, const MemqosCacheGeom *g);
/* The first message of the four levels, or NULL. */
char *memqos_cache_topo_check(const MemqosCacheTopo *t);

static inline uint32_t memqos_cache_sets(const MemqosCacheGeom *g)
{
    return g->size / ((uint64_t)g->ways * g->line);
}

#endif
