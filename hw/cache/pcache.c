/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Partitioned cache model, see pcache.h.
 */
#include <inttypes.h>
#include <string.h>

#include "pcache.h"

static void line_account(PCache *c, uint32_t slot, int32_t delta)
{
    uint32_t p = c->partid[slot];

    c->occ_pg[p * c->n_pmg + c->pmg[slot]] += delta;
    c->occ_p[p] += delta;
    c->occ_total += delta;
}

char *pcache_config_check(const PCacheConfig *cfg)
{
    uint64_t line = cfg->line_size;

    if (line == 0 || (line & (line - 1))) {
        return g_strdup_printf("cache line size %u is not a power of two",
                               cfg->line_size);
    }
    if (cfg->ways == 0 || cfg->size == 0 || cfg->size % (cfg->ways * line)) {
        return g_strdup_printf("cache size %" PRIu64 " is not a multiple of "
                               "ways (%u) x line size (%u)", cfg->size,
                               cfg->ways, cfg->line_size);
    }
    if (cfg->size / line > PCACHE_LINES_LIMIT) {
        return g_strdup_printf("cache of %" PRIu64 " lines is too large to "
                               "model", cfg->size / line);
    }
    if (cfg->n_partid == 0 || cfg->n_partid > PCACHE_LABEL_LIMIT ||
        cfg->n_pmg == 0 || cfg->n_pmg > PCACHE_LABEL_LIMIT ||
        (uint64_t)cfg->n_partid * cfg->n_pmg > PCACHE_COUNTERS_LIMIT) {
        return g_strdup_printf("cache occupancy for %u PARTIDs x %u PMGs is "
                               "too large to model", cfg->n_partid, cfg->n_pmg);
    }
    return NULL;
}

PCache *pcache_new(const PCacheConfig *cfg, GError **errp)
{
    g_autofree char *why = pcache_config_check(cfg);
    PCache *c;
    uint32_t lines;

    if (why) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", why);
        return NULL;
    }
    lines = cfg->size / cfg->line_size;
    c = g_new0(PCache, 1);
    c->ways = cfg->ways;
    c->sets = lines / cfg->ways;
    c->line_size = cfg->line_size;
    c->line_shift = __builtin_ctz(cfg->line_size);
    c->n_portions = cfg->n_portions ? cfg->n_portions : 1;
    c->n_lines = lines;
    c->n_partid = cfg->n_partid;
    c->n_pmg = cfg->n_pmg;
    c->tag = g_new0(uint64_t, lines);
    c->partid = g_new0(uint16_t, lines);
    c->pmg = g_new0(uint16_t, lines);
    c->valid = g_new0(uint8_t, lines);
    c->dirty = g_new0(uint8_t, lines);
    c->lru = g_new0(uint64_t, lines);
    c->portion_of = g_new0(uint32_t, lines);
    for (uint32_t s = 0; s < c->sets; s++) {
        for (uint32_t w = 0; w < c->ways; w++) {
            uint64_t chunk = (uint64_t)w * c->sets + s;
            c->portion_of[s * c->ways + w] = chunk * c->n_portions / lines;
        }
    }
    c->occ_pg = g_new0(uint32_t, (size_t)c->n_partid * c->n_pmg);
    c->occ_p = g_new0(uint32_t, c->n_partid);
    return c;
}

void pcache_free(PCache *c)
{
    if (!c) {
        return;
    }
    g_free(c->occ_pg);
    g_free(c->occ_p);
    g_free(c->tag);
    g_free(c->partid);
    g_free(c->pmg);
    g_free(c->valid);
    g_free(c->dirty);
    g_free(c->lru);
    g_free(c->portion_of);
    g_free(c);
}

void pcache_reset(PCache *c)
{
    memset(c->valid, 0, c->n_lines);
    memset(c->dirty, 0, c->n_lines);
    memset(c->tag, 0, c->n_lines * sizeof(*c->tag));
    memset(c->partid, 0, c->n_lines * sizeof(*c->partid));
    memset(c->pmg, 0, c->n_lines * sizeof(*c->pmg));
    memset(c->lru, 0, c->n_lines * sizeof(*c->lru));
    c->lru_clock = 0;
    pcache_rebuild(c);
}

void pcache_rebuild(PCache *c)
{
    memset(c->occ_pg, 0, (size_t)c->n_partid * c->n_pmg * sizeof(*c->occ_pg));
    memset(c->occ_p, 0, c->n_partid * sizeof(*c->occ_p));
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

/* One line of a request; returns true on a hit. */
static bool access_line(PCache *c, uint64_t line, MemLabel label, bool write,
                        const PCacheLimits *lim, MemResult *res)
{
    uint32_t base = (line % c->sets) * c->ways;
    uint32_t own_in_set = 0;
    int64_t victim = -1, own_victim = -1;
    bool own_only;

    for (uint32_t w = 0; w < c->ways; w++) {
        uint32_t s = base + w;
        if (c->valid[s] && c->tag[s] == line) {
            c->lru[s] = ++c->lru_clock;
            c->dirty[s] |= write;
            return true;
        }
    }

    /*
     * Miss: the line is read from downstream.  Candidates are slots of
     * allowed portions: prefer an invalid one, else the LRU one.  Track the
     * requester's own LRU line too, used when it is at its CMAX or CASSOC
     * limit (it then replaces itself).
     */
    res->down_read_bytes += c->line_size;
    for (uint32_t w = 0; w < c->ways; w++) {
        uint32_t s = base + w;
        bool mine = c->valid[s] && c->partid[s] == label.partid;

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
    own_only = lim && (pcache_lines_partid(c, label.partid) >= lim->max_lines ||
                       own_in_set >= lim->max_ways);
    if (own_only) {
        victim = own_victim;
    }
    if (victim < 0) {
        /* Not allocated: the data passes through to the requester. */
        res->down_write_bytes += write ? c->line_size : 0;
        return false;
    }
    if (c->valid[victim]) {
        res->down_write_bytes += c->dirty[victim] ? c->line_size : 0;
        line_account(c, victim, -1);
    }
    c->tag[victim] = line;
    c->partid[victim] = label.partid;
    c->pmg[victim] = label.pmg;
    c->valid[victim] = 1;
    c->dirty[victim] = write;
    c->lru[victim] = ++c->lru_clock;
    line_account(c, victim, 1);
    return false;
}

void pcache_access(PCache *c, const MemReq *req, const PCacheLimits *lim,
                   MemResult *res)
{
    uint64_t first = req->addr >> c->line_shift;
    uint64_t end = req->addr + req->size - 1;
    uint64_t last = (end < req->addr ? UINT64_MAX : end) >> c->line_shift;

    g_assert(req->label.partid < c->n_partid && req->label.pmg < c->n_pmg);
    if (!req->size) {
        return;
    }
    for (uint64_t l = first; ; l++) {
        res->lines++;
        res->hits += access_line(c, l, req->label, memreq_is_write(req), lim,
                                 res);
        if (l == last) {
            break;
        }
    }
}

uint64_t pcache_flush_partid(PCache *c, uint32_t partid)
{
    uint64_t n = 0;

    for (uint32_t i = 0; i < c->n_lines; i++) {
        if (c->valid[i] && c->partid[i] == partid) {
            line_account(c, i, -1);
            c->valid[i] = 0;
            c->dirty[i] = 0;
            n++;
        }
    }
    return n;
}

uint64_t pcache_lines_pg(const PCache *c, uint32_t partid, uint32_t pmg)
{
    if (partid >= c->n_partid || pmg >= c->n_pmg) {
        return 0;
    }
    return c->occ_pg[partid * c->n_pmg + pmg];
}

uint64_t pcache_lines_partid(const PCache *c, uint32_t partid)
{
    return partid < c->n_partid ? c->occ_p[partid] : 0;
}
