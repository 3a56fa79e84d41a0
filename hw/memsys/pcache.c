/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Partitioned cache model, see pcache.h.
 */
#include <inttypes.h>
#include <string.h>

#include "pcache.h"

/* Most words of one set class's way mask (SETASSOC_MAX_WAYS bits). */
#define MASK_WORDS_MAX ((SETASSOC_MAX_WAYS + 31) / 32)

static inline uint32_t owner_of(MemLabel l)
{
    return l.partid << 16 | l.pmg;
}

static void line_account(PCache *c, uint32_t owner, int32_t delta)
{
    uint32_t p = owner >> 16;

    c->occ_pg[p * c->n_pmg + (owner & 0xffff)] += delta;
    c->occ_p[p] += delta;
    c->occ_total += delta;
}

char *pcache_config_check(const PCacheConfig *cfg)
{
    uint64_t line = cfg->line_size;
    uint64_t sets;

    if (line == 0 || (line & (line - 1))) {
        return g_strdup_printf("cache line size %u is not a power of two",
                               cfg->line_size);
    }
    if (cfg->ways == 0 || cfg->size == 0 || cfg->size % (cfg->ways * line)) {
        return g_strdup_printf("cache size %" PRIu64 " is not a multiple of "
                               "ways (%u) x line size (%u)", cfg->size,
                               cfg->ways, cfg->line_size);
    }
    if (cfg->ways > SETASSOC_MAX_WAYS) {
        return g_strdup_printf("cache of %u ways has more than %u",
                               cfg->ways, SETASSOC_MAX_WAYS);
    }
    if (cfg->size / line > PCACHE_LINES_LIMIT) {
        return g_strdup_printf("cache of %" PRIu64 " lines is too large to "
                               "model", cfg->size / line);
    }
    /* Hardware indexes sets by address bits. */
    sets = cfg->size / (cfg->ways * line);
    if (sets & (sets - 1)) {
        return g_strdup_printf("cache of %" PRIu64 " sets (size %" PRIu64
                               " / (%u ways x %u-byte lines)) is not a power "
                               "of two", sets, cfg->size, cfg->ways,
                               cfg->line_size);
    }
    if (cfg->n_partid == 0 || cfg->n_partid > PCACHE_LABEL_LIMIT ||
        cfg->n_pmg == 0 || cfg->n_pmg > PCACHE_LABEL_LIMIT ||
        (uint64_t)cfg->n_partid * cfg->n_pmg > PCACHE_COUNTERS_LIMIT) {
        return g_strdup_printf("cache occupancy for %u PARTIDs x %u PMGs is "
                               "too large to model", cfg->n_partid, cfg->n_pmg);
    }
    return NULL;
}

/*
 * Set classes: slot (s, w) belongs to portion (w * sets + s) * P / lines.
 * For a fixed way the portion grows with s, so sets with equal portion
 * rows are consecutive: one pass groups them.
 */
static void portion_classes(PCache *c)
{
    GArray *rows = g_array_new(FALSE, FALSE, sizeof(uint32_t));
    g_autofree uint32_t *row = g_new(uint32_t, c->ways);

    c->class_of_set = g_new(uint32_t, c->sets);
    for (uint32_t s = 0; s < c->sets; s++) {
        for (uint32_t w = 0; w < c->ways; w++) {
            row[w] = ((uint64_t)w * c->sets + s) * c->n_portions / c->n_lines;
        }
        if (!c->n_classes ||
            memcmp(&g_array_index(rows, uint32_t, (c->n_classes - 1) * c->ways),
                   row, c->ways * sizeof(*row))) {
            g_array_append_vals(rows, row, c->ways);
            c->n_classes++;
        }
        c->class_of_set[s] = c->n_classes - 1;
    }
    c->portion_of = (uint32_t *)g_array_free(rows, FALSE);
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
    setassoc_init(&c->sa, c->sets, c->ways);
    portion_classes(c);
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
    setassoc_fini(&c->sa);
    g_free(c->class_of_set);
    g_free(c->portion_of);
    g_free(c);
}

void pcache_reset(PCache *c)
{
    setassoc_reset(&c->sa);
    pcache_rebuild(c);
}

void pcache_line(const PCache *c, uint32_t slot, SetAssocLine *line)
{
    setassoc_get(&c->sa, slot / c->ways, slot % c->ways, line);
}

uint32_t pcache_portion_of(const PCache *c, uint32_t slot)
{
    uint32_t set = slot / c->ways;

    return c->portion_of[c->class_of_set[set] * c->ways + slot % c->ways];
}

void pcache_rebuild(PCache *c)
{
    memset(c->occ_pg, 0, (size_t)c->n_partid * c->n_pmg * sizeof(*c->occ_pg));
    memset(c->occ_p, 0, c->n_partid * sizeof(*c->occ_p));
    c->occ_total = 0;
    for (uint32_t i = 0; i < c->n_lines; i++) {
        SetAssocLine l;

        pcache_line(c, i, &l);
        if (l.valid) {
            line_account(c, l.owner, 1);
        }
    }
}

char *pcache_post_load(PCache *c)
{
    char *why = setassoc_check(&c->sa);

    for (uint32_t i = 0; !why && i < c->n_lines; i++) {
        SetAssocLine l;

        pcache_line(c, i, &l);
        if (l.valid && (pcache_line_partid(&l) >= c->n_partid ||
                        pcache_line_pmg(&l) >= c->n_pmg)) {
            why = g_strdup_printf("line %u: label %u/%u out of range", i,
                                  pcache_line_partid(&l), pcache_line_pmg(&l));
        }
    }
    if (why) {
        setassoc_reset(&c->sa);
    }
    pcache_rebuild(c);
    return why;
}

void pcache_way_mask(const PCache *c, const uint32_t *portion_mask,
                     uint32_t *way_mask)
{
    uint32_t mw = c->sa.mask_words;

    memset(way_mask, 0, pcache_way_mask_words(c) * sizeof(*way_mask));
    for (uint32_t k = 0; k < c->n_classes; k++) {
        for (uint32_t w = 0; w < c->ways; w++) {
            uint32_t p = c->portion_of[k * c->ways + w];

            if (!portion_mask || portion_mask[p / 32] >> (p % 32) & 1) {
                way_mask[k * mw + w / 32] |= 1u << (w % 32);
            }
        }
    }
}

bool pcache_way_mask_is_all(const PCache *c, const uint32_t *way_mask)
{
    for (uint32_t k = 0; k < c->n_classes; k++) {
        if (!setassoc_mask_is_all(&c->sa, way_mask + k * c->sa.mask_words)) {
            return false;
        }
    }
    return true;
}

/*
 * The ways set @set may allocate into under @lim, NULL for all of them
 * (the victim search then skips the mask); @buf holds a computed result.
 */
static const uint32_t *allowed_ways(const PCache *c, uint32_t set,
                                    const PCacheLimits *lim, uint32_t *buf)
{
    uint32_t mw = c->sa.mask_words;
    uint32_t k = c->class_of_set[set];

    if (lim && lim->way_mask) {
        const uint32_t *m = lim->way_mask + k * mw;

        return setassoc_mask_is_all(&c->sa, m) ? NULL : m;
    }
    if (!lim || !lim->portion_mask) {
        return NULL;
    }
    memset(buf, 0, mw * sizeof(*buf));
    for (uint32_t w = 0; w < c->ways; w++) {
        uint32_t p = c->portion_of[k * c->ways + w];

        buf[w / 32] |= (lim->portion_mask[p / 32] >> (p % 32) & 1) << (w % 32);
    }
    return buf;
}

/* One line of traffic downstream. */
static void send_down(PCache *c, const MemReq *req, uint64_t line,
                      uint32_t owner, bool write, PCacheDownFn *down,
                      void *opaque)
{
    MemReq d = *req;

    if (!down) {
        return;
    }
    d.addr = line << c->line_shift;
    d.size = c->line_size;
    d.kind = write ? MEMREQ_WRITE : MEMREQ_READ;
    d.label = (MemLabel){ owner >> 16, owner & 0xffff };
    down(opaque, &d);
}

/* One line of a request; returns true on a hit. */
static bool access_line(PCache *c, uint64_t line, const MemReq *req,
                        const PCacheLimits *lim, MemResult *res,
                        PCacheDownFn *down, void *opaque)
{
    uint32_t set = setassoc_set_of(&c->sa, line);
    uint32_t owner = owner_of(req->label);
    bool write = memreq_is_write(req);
    uint32_t buf[MASK_WORDS_MAX];
    const uint32_t *allowed;
    SetAssocLine victim;
    bool own_only;
    int way;

    if (setassoc_access(&c->sa, line, write, NULL) != SETASSOC_NO_WAY) {
        return true;
    }

    /*
     * Miss: the line is read from downstream and allocated into an allowed
     * way, the first invalid one or else the LRU one.  A requester at its
     * CMAX or CASSOC limit replaces one of its own lines there (LRU among
     * them), or, having none, does not allocate.
     */
    res->down_read_bytes += c->line_size;
    allowed = allowed_ways(c, set, lim, buf);
    /* A limit of the whole cache never binds: all lines are its own then. */
    own_only = lim &&
        ((lim->max_lines < c->n_lines &&
          c->occ_p[req->label.partid] >= lim->max_lines) ||
         (lim->max_ways < c->ways &&
          setassoc_count_owned(&c->sa, set, req->label.partid) >=
          lim->max_ways));
    way = setassoc_replace(&c->sa, line, allowed, own_only, req->label.partid,
                           owner, write, &victim);
    if (way == SETASSOC_NO_WAY) {
        /* Not allocated: the data passes through to the requester. */
        send_down(c, req, line, owner, false, down, opaque);
        if (write) {
            res->down_write_bytes += c->line_size;
            send_down(c, req, line, owner, true, down, opaque);
        }
        return false;
    }
    if (victim.valid) {
        line_account(c, victim.owner, -1);
        if (victim.dirty) {
            res->down_write_bytes += c->line_size;
            send_down(c, req, victim.line, victim.owner, true, down, opaque);
        }
    }
    line_account(c, owner, 1);
    send_down(c, req, line, owner, false, down, opaque);
    return false;
}

/* The lines from req->addr to req->addr + req->size - 1 (none for size 0). */
static bool req_lines(const PCache *c, const MemReq *req, uint64_t *first,
                      uint64_t *last)
{
    uint64_t end = req->addr + req->size - 1;

    *first = req->addr >> c->line_shift;
    *last = (end < req->addr ? UINT64_MAX : end) >> c->line_shift;
    return req->size != 0;
}

void pcache_access_down(PCache *c, const MemReq *req, const PCacheLimits *lim,
                        MemResult *res, PCacheDownFn *down, void *opaque)
{
    uint64_t first, last;

    g_assert(req->label.partid < c->n_partid && req->label.pmg < c->n_pmg);
    if (!req_lines(c, req, &first, &last)) {
        return;
    }
    for (uint64_t l = first; ; l++) {
        res->lines++;
        res->hits += access_line(c, l, req, lim, res, down, opaque);
        if (l == last) {
            break;
        }
    }
}

void pcache_access(PCache *c, const MemReq *req, const PCacheLimits *lim,
                   MemResult *res)
{
    pcache_access_down(c, req, lim, res, NULL, NULL);
}

bool pcache_writeback(PCache *c, const MemReq *req)
{
    uint64_t line = req->addr >> c->line_shift;
    int way = setassoc_lookup(&c->sa, line);

    if (way == SETASSOC_NO_WAY) {
        return false;
    }
    setassoc_set_dirty(&c->sa, setassoc_set_of(&c->sa, line), way);
    return true;
}

/* How drop_lines treats a dirty line. */
typedef enum DropDirty {
    DROP_WB_PARTLY,     /* DMA write: only a line it covers partly goes down */
    DROP_WB,            /* CLFLUSH, WBINVD: every dirty line goes down */
    DROP_DISCARD,       /* INVD: dirty data is lost */
} DropDirty;

/* Drop the line in (set, way), if any; returns whether there was one. */
static bool drop_slot(PCache *c, uint32_t set, int way, const MemReq *req,
                      bool wb, PCacheDownFn *down, void *opaque)
{
    SetAssocLine v;

    setassoc_get(&c->sa, set, way, &v);
    if (!v.valid) {
        return false;
    }
    setassoc_invalidate(&c->sa, set, way, &v);
    line_account(c, v.owner, -1);
    if (v.dirty && wb) {
        send_down(c, req, v.line, v.owner, true, down, opaque);
    }
    return true;
}

/* Drop the lines of [addr, addr + size) (@all: every line). */
static uint64_t drop_lines(PCache *c, const MemReq *req, bool all,
                           DropDirty dirty, PCacheDownFn *down, void *opaque)
{
    uint64_t first, last, n = 0;

    if (all) {
        for (uint32_t i = 0; i < c->n_lines; i++) {
            n += drop_slot(c, i / c->ways, i % c->ways, req,
                           dirty == DROP_WB, down, opaque);
        }
        return n;
    }
    if (!req_lines(c, req, &first, &last)) {
        return 0;
    }
    for (uint64_t l = first; ; l++) {
        int way = setassoc_lookup(&c->sa, l);
        uint64_t base = l << c->line_shift;
        bool partly = base < req->addr ||
                      base + c->line_size - 1 > req->addr + req->size - 1;

        if (way != SETASSOC_NO_WAY) {
            n += drop_slot(c, setassoc_set_of(&c->sa, l), way, req,
                           dirty == DROP_WB || (dirty == DROP_WB_PARTLY &&
                                                partly), down, opaque);
        }
        if (l == last) {
            break;
        }
    }
    return n;
}

uint64_t pcache_invalidate(PCache *c, const MemReq *req, PCacheDownFn *down,
                           void *opaque)
{
    return drop_lines(c, req, false, DROP_WB_PARTLY, down, opaque);
}

uint64_t pcache_flush(PCache *c, const MemReq *req, bool all, bool writeback,
                      PCacheDownFn *down, void *opaque)
{
    return drop_lines(c, req, all, writeback ? DROP_WB : DROP_DISCARD, down,
                      opaque);
}

uint64_t pcache_flush_partid(PCache *c, uint32_t partid)
{
    uint64_t n = 0;

    for (uint32_t i = 0; i < c->n_lines; i++) {
        SetAssocLine l;

        pcache_line(c, i, &l);
        if (l.valid && pcache_line_partid(&l) == partid) {
            setassoc_invalidate(&c->sa, i / c->ways, i % c->ways, &l);
            line_account(c, l.owner, -1);
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
