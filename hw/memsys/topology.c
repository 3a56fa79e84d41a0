/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Cache geometry checks, see topology.h.
 */
#include <inttypes.h>
#include <glib.h>

#include "topology.h"

char *memqos_cache_geom_check(const char *level, const MemqosCacheGeom *g)
{
    g_autofree char *upper = g_ascii_strup(level, -1);
    uint64_t per_set = (uint64_t)g->ways * g->line;
    uint64_t sets;

    if (g->ways < 1 || g->ways > MEMQOS_CACHE_MAX_WAYS) {
        return g_strdup_printf("%s-ways=%u is out of range 1..%u", level,
                               g->ways, MEMQOS_CACHE_MAX_WAYS);
    }
    if (g->line != MEMQOS_CACHE_LINE) {
        return g_strdup_printf("the %s line size %u is not %u bytes", upper,
                               g->line, MEMQOS_CACHE_LINE);
    }
    sets = g->size / per_set;
    if (g->size % per_set || !sets || (sets & (sets - 1)) ||
        sets > MEMQOS_CACHE_MAX_SETS) {
        return g_strdup_printf("%s-size=%" PRIu64 " does not give the %s a "
                               "power-of-two number of sets up to %u (%s-size"
                               " / (%s-ways %u * %u-byte lines))", level,
                               g->size, upper, MEMQOS_CACHE_MAX_SETS, level,
                               level, g->ways, g->line);
    }
    return NULL;
}

char *memqos_cache_topo_check(const MemqosCacheTopo *t)
{
    const struct {
        const char *name;
        const MemqosCacheGeom *g;
    } levels[] = {
        { "l1d", &t->l1d }, { "l1i", &t->l1i },
        { "l2", &t->l2 }, { "l3", &t->l3 },
    };
    char *why = NULL;

    for (unsigned i = 0; i < G_N_ELEMENTS(levels) && !why; i++) {
        why = memqos_cache_geom_check(levels[i].name, levels[i].g);
    }
    return why;
}
