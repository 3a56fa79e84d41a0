/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Which components see an address: a map from physical address ranges to a
 * set of components (a bitmask; the owner of the map numbers the
 * components).  An MSC uses one to say which of its RIS see an address
 * (e.g. its memory RIS only DRAM); the timing model uses one to say which
 * MSCs and caches see it.  Pure C + glib.
 */
#ifndef MEMQOS_MEMSYS_ROUTE_H
#define MEMQOS_MEMSYS_ROUTE_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

typedef struct MemMap MemMap;

/* An empty map: no component sees any address. */
MemMap *mem_map_new(void);
void mem_map_free(MemMap *map);

/*
 * The components in @targets also see [@base, @base + @size); ranges may
 * overlap earlier ones (their sets are joined) and may end at the top of the
 * address space.  Fails for size 0 or a range that wraps.
 */
bool mem_map_add(MemMap *map, uint64_t base, uint64_t size, uint64_t targets,
                 GError **errp);

/* The set of components that see @addr. */
uint64_t mem_map_lookup(const MemMap *map, uint64_t addr);

#endif
