/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The effect of Intel RDT on the shared models, see rdt-memsys.h and
 * docs/rdt-model.md "Effect".
 */
#include <string.h>

#include "rdt-memsys.h"
#include "../memsys/mbw.h"

struct RdtCache {
    const Rdt *rdt;
    RdtLevel level;
    unsigned dom;
    PCache *pc;
    /*
     * Way masks per (CLOSID, fetch): made with pcache_way_mask() from the
     * CBM in cbm[] when an access finds the CBM changed (0: none yet), so
     * an access does no portion arithmetic while the masks stay.
     */
    uint32_t *cbm;
    uint32_t *ways;
};

RdtCache *rdt_cache_new(const Rdt *rdt, RdtLevel level, unsigned dom,
                        GError **errp)
{
    const RdtDesc *d = rdt_desc(rdt);
    const MemqosCacheGeom *g = level == RDT_L3 ? &d->caches.l3
                                                : &d->caches.l2;
    const RdtCat *cat = level == RDT_L3 ? &d->l3 : &d->l2;
    PCacheConfig cfg = {
        .size = g->size,
        .ways = g->ways,
        .line_size = g->line,
        .n_portions = MAX(cat->cbm_len, 1),
        .n_partid = MAX(rdt_desc_max_cos(d), 1),
        .n_pmg = MAX(d->n_rmid, 1),
    };
    RdtScope s = level == RDT_L3 ? RDT_SCOPE_L3 : RDT_SCOPE_L2;
    RdtCache *c;
    PCache *pc;

    if (dom >= rdt_n_domains(rdt, s) || !g->size) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "%s has no L%d cache %u", d->name,
                    level == RDT_L3 ? 3 : 2, dom);
        return NULL;
    }
    pc = pcache_new(&cfg, errp);
    if (!pc) {
        return NULL;
    }
    c = g_new0(RdtCache, 1);
    c->rdt = rdt;
    c->level = level;
    c->dom = dom;
    c->pc = pc;
    c->cbm = g_new0(uint32_t, 2 * cfg.n_partid);
    c->ways = g_new0(uint32_t, 2 * cfg.n_partid * pcache_way_mask_words(pc));
    return c;
}

void rdt_cache_free(RdtCache *c)
{
    if (c) {
        pcache_free(c->pc);
        g_free(c->cbm);
        g_free(c->ways);
        g_free(c);
    }
}

PCache *rdt_cache_pcache(RdtCache *c)
{
    return c->pc;
}

/* The way mask of @closid's @kind accesses, NULL for every way. */
static const uint32_t *way_mask(RdtCache *c, uint32_t closid, uint8_t kind)
{
    uint32_t cbm = rdt_cbm(c->rdt, c->level, c->dom, closid, kind);
    unsigned e = 2 * closid + (kind == MEMREQ_FETCH);
    uint32_t *ways = c->ways + e * pcache_way_mask_words(c->pc);

    if (!cbm) {
        return NULL;                    /* no CAT at this level */
    }
    if (c->cbm[e] != cbm) {
        c->cbm[e] = cbm;
        pcache_way_mask(c->pc, &cbm, ways);
    }
    return pcache_way_mask_is_all(c->pc, ways) ? NULL : ways;
}

void rdt_cache_access(RdtCache *c, const MemReq *req, MemResult *res,
                      PCacheDownFn *down, void *opaque)
{
    PCacheLimits lim = {
        .max_lines = UINT64_MAX,        /* CAT has no capacity limits */
        .max_ways = UINT32_MAX,
        .way_mask = way_mask(c, req->label.partid, req->kind),
    };

    pcache_access_down(c->pc, req, &lim, res, down, opaque);
}

uint64_t rdt_cache_occupancy(const RdtCache *c, uint32_t rmid)
{
    uint64_t lines = 0;

    for (uint32_t p = 0; p < c->pc->n_partid; p++) {
        lines += pcache_lines_pg(c->pc, p, rmid);
    }
    return lines * c->pc->line_size;
}

struct RdtMemsys {
    Rdt *rdt;
    unsigned dom;
    RdtMemsysConfig cfg;
    DdrQos *ddr;
    /* the last level: the L3 of dom, or without one every L2 domain */
    RdtCache **llc;
    unsigned n_llc;
    MbwReg *mba;                /* NULL: MBA does not act */
    uint32_t *mba_delay;        /* [CLOSID] the delay mba has, percent */
    uint32_t n_rmid;
    uint64_t *bytes;            /* [local * n_rmid + RMID]: MBM total, local */
};

static bool mon_read(void *opaque, unsigned dom, unsigned evt, uint32_t rmid,
                     uint64_t *bytes)
{
    *bytes = rdt_memsys_bytes(opaque, evt, rmid);
    return true;
}

RdtMemsys *rdt_memsys_new(Rdt *rdt, unsigned dom, const RdtMemsysConfig *cfg,
                          DdrQos *ddr, GError **errp)
{
    const RdtDesc *d = rdt_desc(rdt);
    bool l3 = d->caches.l3.size;
    unsigned n = l3 ? 1 : rdt_n_domains(rdt, RDT_SCOPE_L2);
    RdtMemsys *s = g_new0(RdtMemsys, 1);

    s->llc = g_new0(RdtCache *, n);
    s->n_llc = n;
    s->rdt = rdt;
    s->dom = dom;
    for (unsigned i = 0; i < n; i++) {
        s->llc[i] = rdt_cache_new(rdt, l3 ? RDT_L3 : RDT_L2,
                                  l3 ? dom : i, errp);
        if (!s->llc[i]) {
            rdt_memsys_free(s);
            return NULL;
        }
    }
    s->cfg = *cfg;
    s->ddr = ddr;
    if (d->mba_max_delay) {
        s->mba = mbw_new(d->mba_n_cos, cfg->mem_bytes_per_s);
        /* no delay yet: the first request of a CLOSID sets its controls */
        s->mba_delay = g_new(uint32_t, d->mba_n_cos);
        memset(s->mba_delay, 0xff, d->mba_n_cos * sizeof(uint32_t));
    }
    s->n_rmid = MAX(d->n_rmid, 1);
    s->bytes = g_new0(uint64_t, 2 * s->n_rmid);
    if (rdt_desc_mon(d)) {
        rdt_set_monitor(rdt, dom, mon_read, s);
    }
    return s;
}

void rdt_memsys_free(RdtMemsys *s)
{
    if (!s) {
        return;
    }
    if (rdt_desc_mon(rdt_desc(s->rdt))) {
        rdt_set_monitor(s->rdt, s->dom, NULL, NULL);
    }
    for (unsigned i = 0; i < s->n_llc; i++) {
        rdt_cache_free(s->llc[i]);
    }
    g_free(s->llc);
    mbw_free(s->mba);
    g_free(s->mba_delay);
    g_free(s->bytes);
    g_free(s);
}

unsigned rdt_memsys_n_caches(const RdtMemsys *s)
{
    return s->n_llc;
}

RdtCache *rdt_memsys_cache(RdtMemsys *s, unsigned i)
{
    g_assert(i < s->n_llc);
    return s->llc[i];
}

/* The last-level cache of @req's vCPU (req->src): its L2's on Goldmont. */
static RdtCache *llc_of(const RdtMemsys *s, const MemReq *req)
{
    return s->n_llc == 1 ? s->llc[0]
           : s->llc[rdt_domain_of(s->rdt, RDT_SCOPE_L2, req->src)];
}

uint64_t rdt_memsys_bytes(const RdtMemsys *s, unsigned evt, uint32_t rmid)
{
    if (evt == RDT_EVT_L3_OCCUPANCY) {
        return rdt_cache_occupancy(s->llc[0], rmid);
    }
    return s->bytes[(evt == RDT_EVT_MBM_LOCAL) * s->n_rmid + rmid];
}

/* Forget MBA's windows (its controls follow the delay MSRs anyway). */
static void mba_restart(RdtMemsys *s)
{
    if (s->mba) {
        mbw_reset(s->mba);
    }
}

void rdt_memsys_reset(RdtMemsys *s)
{
    for (unsigned i = 0; i < s->n_llc; i++) {
        pcache_reset(s->llc[i]->pc);
    }
    memset(s->bytes, 0, 2 * s->n_rmid * sizeof(*s->bytes));
    mba_restart(s);
}

uint64_t *rdt_memsys_mbm_state(RdtMemsys *s, uint32_t *len)
{
    *len = 2 * s->n_rmid;
    return s->bytes;
}

char *rdt_memsys_post_load(RdtMemsys *s)
{
    char *why = NULL;

    mba_restart(s);
    for (unsigned i = 0; i < s->n_llc && !why; i++) {
        why = pcache_post_load(s->llc[i]->pc);
    }
    return why;
}

/*
 * How long MBA holds @req: IA32_L2_QoS_Ext_BW_Thrtl_n's delay d of its
 * CLOSID is a hard MBW_MAX of (100 - d) % of memory's bandwidth over
 * 1 us windows (delay 0: all of it, mba-peak, as after any other delay).
 */
static uint64_t mba_hold(RdtMemsys *s, const MemReq *req)
{
    uint32_t closid = req->label.partid;
    uint32_t delay;

    if (!s->mba || closid >= rdt_desc(s->rdt)->mba_n_cos) {
        return 0;
    }
    delay = rdt_mba_delay(s->rdt, s->dom, closid);
    if (delay != s->mba_delay[closid]) {
        MbwControls c = {
            .max = (100 - delay) * MBW_FRAC_ONE / 100,
            .hardlim = true,
            .winwd = RDT_MBA_WINWD,
        };

        s->mba_delay[closid] = delay;
        mbw_set(s->mba, closid, &c);
    }
    return mbw_request(s->mba, closid, req->t_ps, req->size).delay_ps;
}

/*
 * Traffic reaching memory: the ports' mem_tap, if any, sees all of it
 * (the iMC uncore PMU, imc-pmu.h), MBM counts it for the RMID of its
 * label (the requester's for fills, the owner's for write-backs; DMA is
 * not L3 traffic), MBA may hold it, the DDR model, if any, serves it.  A fill
 * the requester waits for (@fill_ps set) is charged the hold plus the
 * DDR's latency; the rest is posted.
 */
typedef struct ToMem {
    const MemsysPorts *p;
    uint64_t *fill_ps;
} ToMem;

static void to_mem(void *opaque, MemReq *req)
{
    ToMem *tm = opaque;
    RdtMemsys *s = tm->p->l3;
    bool fill = tm->fill_ps && !memreq_is_write(req);
    uint64_t hold;

    if (tm->p->mem_tap) {
        tm->p->mem_tap(tm->p->mem_tap_opaque, req);
    }
    if (req->src != MEMREQ_SRC_DMA && rdt_desc_mon(rdt_desc(s->rdt))) {
        s->bytes[req->label.pmg] += req->size;
        if (!s->cfg.nodes ||
            (mem_map_lookup(s->cfg.nodes, req->addr) >> s->cfg.node & 1)) {
            s->bytes[s->n_rmid + req->label.pmg] += req->size;
        }
    }
    hold = mba_hold(s, req);
    /* @req is ours (PCacheDownFn): on to the DDR when MBA lets it go */
    req->t_ps += hold;
    if (fill) {
        *tm->fill_ps = hold;
    }
    if (!s->ddr) {
        return;
    }
    if (fill) {
        *tm->fill_ps += ddr_qos_read(s->ddr, req);
    } else {
        ddr_qos_post(s->ddr, req);
    }
}

static bool l3_fill(const MemsysPorts *p, const MemReq *req, uint64_t *mem_ps)
{
    ToMem tm = { p, mem_ps };
    RdtMemsys *s = p->l3;
    MemResult r = { 0 };

    rdt_cache_access(llc_of(s, req), req, &r, to_mem, &tm);
    return r.hits == r.lines;
}

static bool l3_writeback(const MemsysPorts *p, const MemReq *req)
{
    RdtMemsys *s = p->l3;

    return pcache_writeback(llc_of(s, req)->pc, req);
}

static void l3_invalidate(const MemsysPorts *p, const MemReq *req)
{
    ToMem tm = { p, NULL };
    RdtMemsys *s = p->l3;

    /* DMA: every last-level cache drops the lines */
    for (unsigned i = 0; i < s->n_llc; i++) {
        pcache_invalidate(s->llc[i]->pc, req, to_mem, &tm);
    }
}

static void l3_flush(const MemsysPorts *p, const MemReq *req, bool all,
                     bool writeback)
{
    ToMem tm = { p, NULL };
    RdtMemsys *s = p->l3;

    pcache_flush(llc_of(s, req)->pc, req, all, writeback, to_mem, &tm);
}

static void mem_access(const MemsysPorts *p, const MemReq *req)
{
    ToMem tm = { p, NULL };
    MemReq r = *req;

    to_mem(&tm, &r);
}

/* MSR_MISC_FEATURE_CONTROL bit 0: the L2 hardware prefetcher disabled */
static bool prefetch_off(void *opaque, unsigned cpu)
{
    RdtMemsys *s = opaque;
    uint64_t v;

    return (rdt_desc(s->rdt)->misc_feature_bits & 1) &&
           rdt_msr_read(s->rdt, cpu, MSR_MISC_FEATURE_CONTROL, &v) ==
           MSR_OK && (v & 1);
}

MemsysPorts rdt_memsys_ports(RdtMemsys *s)
{
    return (MemsysPorts) {
        .l2_shared = !rdt_desc(s->rdt)->caches.l3.size,
        .l3 = s,
        .mem = s,
        .ddr = s->ddr,
        .l3_fill = l3_fill,
        .l3_writeback = l3_writeback,
        .l3_invalidate = l3_invalidate,
        .mem_access = mem_access,
        .l3_flush = l3_flush,
        .prefetch_off = prefetch_off,
    };
}
