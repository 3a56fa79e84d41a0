/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The modeled memory hierarchy, see hierarchy.h and docs/timing-design.md
 * §3.2.  The private caches are set-associative tag stores
 * (hw/cache/setassoc.h) without partitioning: every way is allowed.
 */
#include <string.h>

#include "hierarchy.h"
#include "../cache/setassoc.h"

#define LINE_SHIFT      6

/* The private caches of a vCPU, also the order of memsys_cpu_state(). */
enum { PRIV_L1D, PRIV_L1I, PRIV_L2, PRIV_N };

struct Memsys {
    MemqosCacheTopo topo;
    MemsysTiming t;
    MemsysPorts ports;
    GMutex lock;
    uint64_t level_fs[MEMSYS_MEM + 1];      /* [MEMSYS_L1..MEMSYS_MEM] */
    uint64_t unit_fs;
    uint64_t l3_ps;                         /* the L3 latency in ps */
};

struct MemsysCpu {
    Memsys *m;
    unsigned index;
    SetAssoc cache[PRIV_N];
    MemsysCpuStats stats;
};

static inline uint32_t owner_of(MemLabel l)
{
    return l.partid << 16 | l.pmg;
}

Memsys *memsys_new(const MemqosCacheTopo *topo, const MemsysTiming *t,
                   const MemsysPorts *ports, GError **errp)
{
    g_autofree char *why = memqos_cache_topo_check(topo);
    Memsys *m;

    if (!why) {
        why = memsys_timing_check(t);
    }
    if (why) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", why);
        return NULL;
    }
    m = g_new0(Memsys, 1);
    m->topo = *topo;
    m->t = *t;
    m->ports = *ports;
    g_mutex_init(&m->lock);
    for (unsigned l = MEMSYS_L1; l <= MEMSYS_MEM; l++) {
        m->level_fs[l] = memsys_level_fs(t, l);
    }
    m->unit_fs = memsys_unit_fs(t);
    m->l3_ps = m->level_fs[MEMSYS_L3] / 1000;
    return m;
}

void memsys_free(Memsys *m)
{
    if (m) {
        g_mutex_clear(&m->lock);
        g_free(m);
    }
}

const MemsysTiming *memsys_timing(const Memsys *m)
{
    return &m->t;
}

const MemsysPorts *memsys_ports(const Memsys *m)
{
    return &m->ports;
}

void memsys_lock(Memsys *m)
{
    g_mutex_lock(&m->lock);
}

void memsys_unlock(Memsys *m)
{
    g_mutex_unlock(&m->lock);
}

MemsysCpu *memsys_cpu_new(Memsys *m, unsigned index)
{
    const MemqosCacheGeom *g[PRIV_N] = {
        [PRIV_L1D] = &m->topo.l1d,
        [PRIV_L1I] = &m->topo.l1i,
        [PRIV_L2] = &m->topo.l2,
    };
    MemsysCpu *c = g_new0(MemsysCpu, 1);

    c->m = m;
    c->index = index;
    for (unsigned i = 0; i < PRIV_N; i++) {
        setassoc_init(&c->cache[i], memqos_cache_sets(g[i]), g[i]->ways);
    }
    return c;
}

void memsys_cpu_free(MemsysCpu *c)
{
    if (!c) {
        return;
    }
    for (unsigned i = 0; i < PRIV_N; i++) {
        setassoc_fini(&c->cache[i]);
    }
    g_free(c);
}

void memsys_cpu_reset(MemsysCpu *c)
{
    for (unsigned i = 0; i < PRIV_N; i++) {
        setassoc_reset(&c->cache[i]);
    }
    memset(&c->stats, 0, sizeof(c->stats));
}

/*
 * One line for the shared side, with @label.  It carries the time at which
 * the L3 has looked it up (the access's time plus the L3 latency): when a
 * fill or write-back leaves the L3 for memory.
 */
static MemReq line_req(const Memsys *m, const MemReq *req, uint64_t line,
                       uint32_t owner, uint8_t kind)
{
    MemReq r = *req;

    r.t_ps = req->t_ps + m->l3_ps;
    r.addr = line << LINE_SHIFT;
    r.size = 1u << LINE_SHIFT;
    r.label = (MemLabel){ owner >> 16, owner & 0xffff };
    r.kind = kind;
    return r;
}

/*
 * A dirty line leaving private cache @from: to the next level down that
 * holds it (the L2 below an L1D, then the L3), else to memory, with its
 * owner's label.  Below L2 under the lock (@locked: already held).
 */
static void write_back(MemsysCpu *c, unsigned from, const SetAssocLine *v,
                       const MemReq *req, bool locked)
{
    Memsys *m = c->m;
    const MemsysPorts *p = &m->ports;
    SetAssoc *l2 = &c->cache[PRIV_L2];
    MemReq wb;
    int way;

    if (from == PRIV_L1D) {
        way = setassoc_lookup(l2, v->line);
        if (way != SETASSOC_NO_WAY) {
            setassoc_set_dirty(l2, setassoc_set_of(l2, v->line), way);
            return;
        }
    }
    wb = line_req(m, req, v->line, v->owner, MEMREQ_WRITE);
    if (!locked) {
        memsys_lock(m);
    }
    if (!p->l3_writeback(p, &wb)) {
        p->mem_access(p, &wb);
    }
    if (!locked) {
        memsys_unlock(m);
    }
}

/* Fill @line into private cache @i; returns what it evicted. */
static SetAssocLine fill(MemsysCpu *c, unsigned i, uint64_t line,
                         uint32_t owner, bool write, const MemReq *req,
                         bool locked)
{
    SetAssocLine v;

    setassoc_replace(&c->cache[i], line, NULL, false, 0, owner, write, &v);
    if (v.valid && v.dirty) {
        write_back(c, i, &v, req, locked);
    }
    return v;
}

void memsys_cpu_access(Memsys *m, MemsysCpu *c, const MemReq *req,
                       MemsysOutcome *out)
{
    const MemsysPorts *p = &m->ports;
    uint64_t line = req->addr >> LINE_SHIFT;
    bool fetch = req->kind == MEMREQ_FETCH;
    bool write = req->kind == MEMREQ_WRITE;
    unsigned l1 = fetch ? PRIV_L1I : PRIV_L1D;
    uint32_t owner = owner_of(req->label);
    unsigned level = MEMSYS_L1;
    uint64_t level_fs, extra_fs = 0;
    bool below_l2 = false, dirty;
    SetAssocLine v;

    g_assert(req->kind <= MEMREQ_FETCH);
    g_assert(req->label.partid <= 0xffff && req->label.pmg <= 0xffff);
    out->l1_evicted = UINT64_MAX;
    out->mem_ps = 0;
    /* A hit refreshes LRU order; a miss fills every level above the hit. */
    if (setassoc_access(&c->cache[l1], line, write, &dirty) ==
        SETASSOC_NO_WAY) {
        dirty = write;
        if (setassoc_access(&c->cache[PRIV_L2], line, false, NULL) !=
            SETASSOC_NO_WAY) {
            level = MEMSYS_L2;
        } else {
            MemReq fill_req = line_req(m, req, line, owner,
                                       fetch ? MEMREQ_FETCH : MEMREQ_READ);

            below_l2 = true;
            memsys_lock(m);
            level = p->l3_fill(p, &fill_req, &out->mem_ps) ? MEMSYS_L3
                                                            : MEMSYS_MEM;
            if (p->level_extra_fs) {
                extra_fs = p->level_extra_fs(p->level_extra_opaque, level);
            }
            fill(c, PRIV_L2, line, owner, false, req, true);
        }
        v = fill(c, l1, line, owner, write, req, below_l2);
        if (below_l2) {
            memsys_unlock(m);
        }
        out->l1_evicted = v.valid ? v.line : UINT64_MAX;
    }
    out->level = level;
    /*
     * A DDR model turns the constant memory latency into L3 + its own;
     * without one, mem_ps is what the memory side's bandwidth regulation
     * added to timing-mem-ns (0 unless programmed).
     */
    level_fs = level != MEMSYS_MEM ? m->level_fs[level] :
               (p->ddr ? m->level_fs[MEMSYS_L3] : m->level_fs[MEMSYS_MEM]) +
               out->mem_ps * 1000;
    level_fs += extra_fs;       /* the shared side's clock, if slowed */
    out->stall_fs = write ? 0 : level_fs -
                    (fetch ? m->level_fs[MEMSYS_L1] : m->unit_fs);
    /* A filled line is dirty if the access wrote it. */
    out->l1_dirty = !fetch && dirty;
    c->stats.access[req->kind]++;
    c->stats.hit[level - MEMSYS_L1]++;
    c->stats.stall_fs += out->stall_fs;
}

/* Drop the line in (set, way) of private cache @i, writing it back if asked. */
static void flush_slot(MemsysCpu *c, unsigned i, uint32_t set, int way,
                       const MemReq *req, bool writeback)
{
    SetAssocLine v;

    setassoc_invalidate(&c->cache[i], set, way, &v);
    if (v.valid && v.dirty && writeback) {
        write_back(c, i, &v, req, true);
    }
}

void memsys_cpu_flush(Memsys *m, MemsysCpu *c, const MemReq *req, bool all,
                      bool writeback)
{
    const MemsysPorts *p = &m->ports;
    uint64_t line = req->addr >> LINE_SHIFT;

    memsys_lock(m);
    /* top down: an L1D's dirty line lands in the L2 before the L2 goes */
    for (unsigned i = 0; i < PRIV_N; i++) {
        SetAssoc *sa = &c->cache[i];

        if (all) {
            for (uint32_t s = 0; s < sa->sets; s++) {
                for (uint32_t w = 0; w < sa->ways; w++) {
                    flush_slot(c, i, s, w, req, writeback);
                }
            }
        } else {
            int way = setassoc_lookup(sa, line);

            if (way != SETASSOC_NO_WAY) {
                flush_slot(c, i, setassoc_set_of(sa, line), way, req,
                           writeback);
            }
        }
    }
    if (p->l3_flush) {
        MemReq r = line_req(m, req, line, owner_of(req->label), MEMREQ_WRITE);

        p->l3_flush(p, &r, all, writeback);
    }
    memsys_unlock(m);
}

void memsys_dma_access(Memsys *m, const MemReq *req)
{
    const MemsysPorts *p = &m->ports;

    memsys_lock(m);
    if (memreq_is_write(req)) {
        p->l3_invalidate(p, req);
    }
    p->mem_access(p, req);
    memsys_unlock(m);
}

uint32_t *memsys_cpu_state(MemsysCpu *c, unsigned i, uint32_t *len)
{
    g_assert(i < MEMSYS_CPU_STATE_ARRAYS);
    *len = c->cache[i].n_words;
    return c->cache[i].words;
}

MemsysCpuStats *memsys_cpu_stats(MemsysCpu *c)
{
    return &c->stats;
}

bool memsys_cpu_post_load(MemsysCpu *c, GError **errp)
{
    static const char *const name[PRIV_N] = { "L1D", "L1I", "L2" };

    for (unsigned i = 0; i < PRIV_N; i++) {
        g_autofree char *why = setassoc_check(&c->cache[i]);

        if (why) {
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "vCPU %u %s: %s", c->index, name[i], why);
            return false;
        }
    }
    return true;
}

uint64_t memsys_cpu_checksum(const MemsysCpu *c)
{
    uint64_t h = 0;

    for (unsigned i = 0; i < PRIV_N; i++) {
        h = h * 0x100000001b3ull ^ setassoc_checksum(&c->cache[i]);
    }
    return h;
}
