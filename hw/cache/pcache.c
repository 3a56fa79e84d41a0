/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Partitioned cache occupancy model, see pcache.h.
 */
#include <inttypes.h>
#include <string.h>

#include "pcache.h"

#define PG_KEY(partid, pmg) GUINT_TO_POINTER(((guint)(partid) << 8) | (pmg))

static void occ_add(GHashTable *h, gpointer key, int64_t delta)
{
    guint v = GPOINTER_TO_UINT(g_hash_table_lookup(h, key));

    v += delta;
    if (v) {
        g_hash_table_insert(h, key, GUINT_TO_POINTER(v));
    } else {
        g_hash_table_remove(h, key);
    }
}

static void line_account(PCache *c, uint32_t slot, int64_t delta)
{
    occ_add(c->occ_pg, PG_KEY(c->partid[slot], c->pmg[slot]), delta);
    occ_add(c->occ_p, GUINT_TO_POINTER(c->partid[slot]), delta);
    c->occ_total += delta;
}

PCache *pcache_new(uint64_t size, uint32_t ways, uint32_t line_size,
                   uint32_t n_portions, GError **errp)
{
    PCache *c;
    uint64_t lines;

    if (line_size == 0 || (line_size & (line_size - 1))) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "cache line size %u is not a power of two", line_size);
        return NULL;
    }
    if (ways == 0 || size == 0 || size % ((uint64_t)ways * line_size)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "cache size %" PRIu64 " is not a multiple of ways (%u) "
                    "x line size (%u)", size, ways, line_size);
        return NULL;
    }
    lines = size / line_size;
    if (lines > (1u << 26)) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "cache of %" PRIu64 " lines is too large to model", lines);
        return NULL;
    }
    c = g_new0(PCache, 1);
    c->ways = ways;
    c->sets = lines / ways;
    c->line_size = line_size;
    c->line_shift = __builtin_ctz(line_size);
    c->n_portions = n_portions ? n_portions : 1;
    c->n_lines = lines;
    c->tag = g_new0(uint64_t, lines);
    c->partid = g_new0(uint16_t, lines);
    c->pmg = g_new0(uint8_t, lines);
    c->valid = g_new0(uint8_t, lines);
    c->lru = g_new0(uint64_t, lines);
    c->portion_of = g_new0(uint32_t, lines);
    for (uint32_t s = 0; s < c->sets; s++) {
        for (uint32_t w = 0; w < ways; w++) {
            uint64_t chunk = (uint64_t)w * c->sets + s;
            c->portion_of[s * ways + w] = chunk * c->n_portions / lines;
        }
    }
    c->occ_pg = g_hash_table_new(g_direct_hash, g_direct_equal);
    c->occ_p = g_hash_table_new(g_direct_hash, g_direct_equal);
    return c;
}

void pcache_free(PCache *c)
{
    if (!c) {
        return;
    }
    g_hash_table_destroy(c->occ_pg);
    g_hash_table_destroy(c->occ_p);
    g_free(c->tag);
    g_free(c->partid);
    g_free(c->pmg);
    g_free(c->valid);
    g_free(c->lru);
    g_free(c->portion_of);
    g_free(c);
}

void pcache_reset(PCache *c)
{
    memset(c->valid, 0, c->n_lines);
    memset(c->tag, 0, c->n_lines * sizeof(*c->tag));
    memset(c->partid, 0, c->n_lines * sizeof(*c->partid));
    memset(c->pmg, 0, c->n_lines);
    memset(c->lru, 0, c->n_lines * sizeof(*c->lru));
    c->lru_clock = 0;
    pcache_rebuild(c);
}

void pcache_rebuild(PCache *c)
{
    g_hash_table_remove_all(c->occ_pg);
    g_hash_table_remove_all(c->occ_p);
    c->occ_total = 0;
    for (uint32_t i = 0; i < c->n_lines; i++) {
        if (c->valid[i]) {
            line_account(c, i, 1);
        }
    }
}

static bool portion_allowed(const PCache *c, const PCacheLimits *lim,
                            uint32_t slot)
{
    uint32_t p = c->portion_of[slot];

    if (!lim || !lim->portion_mask) {
        return true;
    }
    return lim->portion_mask[p / 32] & (1u << (p % 32));
}

bool pcache_access(PCache *c, uint64_t addr, uint16_t partid, uint8_t pmg,
                   const PCacheLimits *lim)
{
    uint64_t line = addr >> c->line_shift;
    uint32_t base = (line % c->sets) * c->ways;
    uint32_t own_in_set = 0;
    int64_t victim = -1, own_victim = -1;
    bool own_only;

    for (uint32_t w = 0; w < c->ways; w++) {
        uint32_t s = base + w;
        if (c->valid[s] && c->tag[s] == line) {
            c->lru[s] = ++c->lru_clock;
            return true;
        }
    }

    /*
     * Miss.  Candidates are slots of allowed portions: prefer an invalid
     * one, else the LRU one.  Track the requester's own LRU line too, used
     * when it is at its CMAX or CASSOC limit (it then replaces itself).
     */
    for (uint32_t w = 0; w < c->ways; w++) {
        uint32_t s = base + w;
        bool mine = c->valid[s] && c->partid[s] == partid;

        own_in_set += mine;
        if (!portion_allowed(c, lim, s)) {
            continue;
        }
        if (mine && (own_victim < 0 || c->lru[s] < c->lru[own_victim])) {
            own_victim = s;
        }
        if (victim < 0 || (c->valid[victim] &&
                           (!c->valid[s] || c->lru[s] < c->lru[victim]))) {
            victim = s;
        }
    }
    own_only = lim && (pcache_lines_partid(c, partid) >= lim->max_lines ||
                       own_in_set >= lim->max_ways);
    if (own_only) {
        victim = own_victim;
    }
    if (victim < 0) {
        return false;
    }
    if (c->valid[victim]) {
        line_account(c, victim, -1);
    }
    c->tag[victim] = line;
    c->partid[victim] = partid;
    c->pmg[victim] = pmg;
    c->valid[victim] = 1;
    c->lru[victim] = ++c->lru_clock;
    line_account(c, victim, 1);
    return false;
}

uint64_t pcache_flush_partid(PCache *c, uint16_t partid)
{
    uint64_t n = 0;

    for (uint32_t i = 0; i < c->n_lines; i++) {
        if (c->valid[i] && c->partid[i] == partid) {
            line_account(c, i, -1);
            c->valid[i] = 0;
            n++;
        }
    }
    return n;
}

uint64_t pcache_lines_pg(const PCache *c, uint16_t partid, uint8_t pmg)
{
    return GPOINTER_TO_UINT(g_hash_table_lookup(c->occ_pg,
                                                PG_KEY(partid, pmg)));
}

uint64_t pcache_lines_partid(const PCache *c, uint16_t partid)
{
    return GPOINTER_TO_UINT(g_hash_table_lookup(c->occ_p,
                                                GUINT_TO_POINTER(partid)));
}
