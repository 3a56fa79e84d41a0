/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Address map, see route.h.  The map is a sorted array of boundaries: entry
 * i says which components see [start[i], start[i + 1]).  The first entry
 * starts at 0, so every address falls in exactly one entry and a lookup is
 * one binary search, without allocation.
 */
#include <inttypes.h>

#include "route.h"

typedef struct MemMapEntry {
    uint64_t start;
    uint64_t targets;
} MemMapEntry;

struct MemMap {
    GArray *e;                  /* MemMapEntry, sorted by start, e[0].start = 0 */
};

MemMap *mem_map_new(void)
{
    MemMap *map = g_new0(MemMap, 1);
    MemMapEntry all = { 0, 0 };

    map->e = g_array_new(false, false, sizeof(MemMapEntry));
    g_array_append_val(map->e, all);
    return map;
}

void mem_map_free(MemMap *map)
{
    if (map) {
        g_array_free(map->e, true);
        g_free(map);
    }
}

/* Index of the entry holding @addr. */
static guint find(const MemMap *map, uint64_t addr)
{
    guint lo = 0, hi = map->e->len;

    while (hi - lo > 1) {
        guint mid = (lo + hi) / 2;

        if (g_array_index(map->e, MemMapEntry, mid).start <= addr) {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    return lo;
}

/* Make @addr the start of an entry; returns its index. */
static guint split(MemMap *map, uint64_t addr)
{
    guint i = find(map, addr);
    MemMapEntry e = g_array_index(map->e, MemMapEntry, i);

    if (e.start == addr) {
        return i;
    }
    e.start = addr;
    g_array_insert_val(map->e, i + 1, e);
    return i + 1;
}

bool mem_map_add(MemMap *map, uint64_t base, uint64_t size, uint64_t targets,
                 GError **errp)
{
    uint64_t last = base + size - 1;
    guint first, end;

    if (size == 0 || last < base) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "address range 0x%" PRIx64 " + 0x%" PRIx64
                    " is empty or wraps", base, size);
        return false;
    }
    first = split(map, base);
    end = last == UINT64_MAX ? map->e->len : split(map, last + 1);
    for (guint i = first; i < end; i++) {
        g_array_index(map->e, MemMapEntry, i).targets |= targets;
    }
    return true;
}

uint64_t mem_map_lookup(const MemMap *map, uint64_t addr)
{
    return g_array_index(map->e, MemMapEntry, find(map, addr)).targets;
}
