/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The modeled memory hierarchy, see hierarchy.h and docs/timing-design.md
 * §3.2.  The private caches are set-associative tag stores
 * (hw/memsys/setassoc.h) without partitioning: every way is allowed.  With
 * MemsysPorts.l2_shared the L2 is the shared side's cache (partitioned
 * there, e.g. by RDT's L2 CBMs) and a vCPU keeps only its L1s.
 */
#include <inttypes.h>
#include <string.h>

#include "hierarchy.h"
#include "setassoc.h"

#define LINE_SHIFT      6
#define LINE_BYTES      (1u << LINE_SHIFT)
#define NO_LINE         UINT64_MAX
#define PAGE_SHIFT      12          /* the smallest page, 4 KiB */
#define PAGE_LINES      (1u << (PAGE_SHIFT - LINE_SHIFT))

/*
 * A stream starts after this many L1D misses at a fixed stride: "a
 * sequence of three data cache misses at a fixed stride", as the
 * Cortex-A7's data prefetcher needs (its TRM, "Data prefetching and
 * monitoring").  Two misses at any distance start nothing.  The stride is
 * one line (consecutive lines, at any offsets in them) or, with
 * timing-prefetch-stride, a distance in bytes up to it (Intel's Xeon
 * "stride prefetcher capable of detecting regular strides ... up to 2K
 * bytes"; forward only here).
 */
#define STREAM_CONFIRM  3

/*
 * The words of a vCPU's streaming state (memsys_cpu_stream_state), in
 * femtoseconds of modeled time, virtual addresses (the stream) and
 * physical lines (the slots): when its port is free, the time the port
 * last took per line, the stream's position (the last miss or prefetched
 * line it consumed; line-aligned for a stride of one line), the next
 * address to prefetch, how many misses at its stride end at its position,
 * its stride in bytes (0: none yet), then per prefetch slot (a line in
 * flight sits in slot (virtual address / stride) % prefetch_lines) the
 * physical line and when its data arrives.
 */
enum { ST_PORT, ST_LINE_FS, ST_LAST, ST_NEXT, ST_RUN, ST_STRIDE, ST_SLOTS };
G_STATIC_ASSERT(MEMSYS_STREAM_WORDS(0) == ST_SLOTS);

/*
 * The private caches of a vCPU, also the order of memsys_cpu_state(); the
 * first Memsys.n_priv of them exist (no PRIV_L2 when the L2 is shared).
 */
enum { PRIV_L1D, PRIV_L1I, PRIV_L2, PRIV_N };

struct Memsys {
    MemqosCacheTopo topo;
    MemsysTiming t;
    MemsysPorts ports;
    GMutex lock;
    uint64_t level_fs[MEMSYS_MEM + 1];      /* [MEMSYS_L1..MEMSYS_MEM] */
    uint64_t unit_fs;
    unsigned n_priv;                        /* private caches per vCPU */
    unsigned shared_level;                  /* the shared cache's level */
    uint64_t shared_ps;                     /* its latency in ps */
    uint32_t stream_len;                    /* words of streaming state */
};

struct MemsysCpu {
    Memsys *m;
    unsigned index;
    SetAssoc cache[PRIV_N];
    MemsysCpuStats stats;
    uint64_t *stream;                       /* NULL: no streaming part */
    MemsysTranslateFn translate;            /* NULL: streams stop at pages */
    void *translate_opaque;
    MemsysL1EvictFn l1_evict;               /* NULL: nobody filters hits */
    void *l1_evict_opaque;
};

static inline uint32_t owner_of(MemLabel l)
{
    return l.partid << 16 | l.pmg;
}

Memsys *memsys_new(const MemqosCacheTopo *topo, const MemsysTiming *t,
                   const MemsysPorts *ports, GError **errp)
{
    g_autofree char *why = NULL;
    Memsys *m;

    if (ports->l2_shared) {
        why = memqos_cache_geom_check("l1d", &topo->l1d);
        if (!why) {
            why = memqos_cache_geom_check("l1i", &topo->l1i);
        }
    } else {
        why = memqos_cache_topo_check(topo);
    }
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
    m->n_priv = ports->l2_shared ? PRIV_L2 : PRIV_N;
    m->shared_level = ports->l2_shared ? MEMSYS_L2 : MEMSYS_L3;
    m->shared_ps = m->level_fs[m->shared_level] / 1000;
    if (t->prefetch_lines || t->store_lines || ports->port_line_fs) {
        m->stream_len = MEMSYS_STREAM_WORDS(t->prefetch_lines);
    }
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

void memsys_sync(Memsys *m, uint64_t t_ps)
{
    if (m->ports.sync) {
        m->ports.sync(&m->ports, t_ps);
    }
}

void memsys_lock(Memsys *m)
{
    g_mutex_lock(&m->lock);
}

void memsys_unlock(Memsys *m)
{
    g_mutex_unlock(&m->lock);
}

/* An idle port, no stream, nothing in flight. */
static void stream_reset(MemsysCpu *c)
{
    if (c->stream) {
        memset(c->stream, 0xff, c->m->stream_len * sizeof(uint64_t));
        c->stream[ST_PORT] = 0;
        c->stream[ST_LINE_FS] = 0;
        c->stream[ST_RUN] = 0;
        c->stream[ST_STRIDE] = 0;
    }
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
    for (unsigned i = 0; i < m->n_priv; i++) {
        setassoc_init(&c->cache[i], memqos_cache_sets(g[i]), g[i]->ways);
    }
    if (m->stream_len) {
        c->stream = g_new(uint64_t, m->stream_len);
        stream_reset(c);
    }
    return c;
}

void memsys_cpu_set_translate(MemsysCpu *c, MemsysTranslateFn fn,
                              void *opaque)
{
    c->translate = fn;
    c->translate_opaque = opaque;
}

void memsys_cpu_set_l1_evict(MemsysCpu *c, MemsysL1EvictFn fn,
                             void *opaque)
{
    c->l1_evict = fn;
    c->l1_evict_opaque = opaque;
}

void memsys_cpu_free(MemsysCpu *c)
{
    if (!c) {
        return;
    }
    for (unsigned i = 0; i < c->m->n_priv; i++) {
        setassoc_fini(&c->cache[i]);
    }
    g_free(c->stream);
    g_free(c);
}

void memsys_cpu_reset(MemsysCpu *c)
{
    for (unsigned i = 0; i < c->m->n_priv; i++) {
        setassoc_reset(&c->cache[i]);
    }
    memset(&c->stats, 0, sizeof(c->stats));
    stream_reset(c);
}

/*
 * One line of @req for the shared side, with @owner's label, asked for at
 * @t_ps (a parameter, not a field of a copy of @req just changed: copying
 * a request whose fields were just stored one by one waits for the stores).
 * It carries the time at which the shared cache has looked it up (@t_ps
 * plus its latency): when a fill or write-back leaves it for memory.
 */
static MemReq line_req(const Memsys *m, const MemReq *req, uint64_t t_ps,
                       uint64_t line, uint32_t owner, uint8_t kind)
{
    MemReq r = *req;

    r.t_ps = t_ps + m->shared_ps;
    r.addr = line << LINE_SHIFT;
    r.size = 1u << LINE_SHIFT;
    r.label = (MemLabel){ owner >> 16, owner & 0xffff };
    r.kind = kind;
    return r;
}

/*
 * A line takes its turn on @c's port to the L3 from @now_fs, the time the
 * vCPU asks for it; returns when the port takes it (@now_fs without a
 * streaming part).  Under the lock: the port's speed is the CPU path's
 * clock.
 */
static uint64_t port_take(MemsysCpu *c, uint64_t now_fs)
{
    const MemsysPorts *p = &c->m->ports;
    uint64_t *s = c->stream, start;

    if (!s) {
        return now_fs;
    }
    s[ST_LINE_FS] = p->port_line_fs ? p->port_line_fs(p->level_extra_opaque)
                                    : 0;
    start = MAX(now_fs, s[ST_PORT]);
    s[ST_PORT] = start + s[ST_LINE_FS];
    return start;
}

/*
 * A dirty line leaving private cache @from: to the next level down that
 * holds it (a private L2 below an L1D, then the shared cache), else to
 * memory, with its owner's label.  Below the private caches under the
 * lock (@locked: already held).
 */
static void write_back(MemsysCpu *c, unsigned from, const SetAssocLine *v,
                       const MemReq *req, bool locked)
{
    Memsys *m = c->m;
    const MemsysPorts *p = &m->ports;
    SetAssoc *l2 = &c->cache[PRIV_L2];
    MemReq wb;
    int way;

    if (from == PRIV_L1D && m->n_priv > PRIV_L2) {
        way = setassoc_lookup(l2, v->line);
        if (way != SETASSOC_NO_WAY) {
            setassoc_set_dirty(l2, setassoc_set_of(l2, v->line), way);
            return;
        }
    }
    wb = line_req(m, req, req->t_ps, v->line, v->owner, MEMREQ_WRITE);
    if (!locked) {
        memsys_lock(m);
    }
    port_take(c, req->t_ps * 1000);
    if (!p->l3_writeback(p, &wb)) {
        p->mem_access(p, &wb);
    }
    if (!locked) {
        memsys_unlock(m);
    }
}

/* A valid line left (set, way) of private cache @i: tell a hit filter. */
static void left(MemsysCpu *c, unsigned i, uint32_t set, int way,
                 const SetAssocLine *v)
{
    if (v->valid && i != PRIV_L2 && c->l1_evict) {
        c->l1_evict(c->l1_evict_opaque, i == PRIV_L1I,
                    set * c->cache[i].ways + way, v->line);
    }
}

/* Fill @line into private cache @i; returns its way. */
static int fill(MemsysCpu *c, unsigned i, uint64_t line, uint32_t owner,
                bool write, const MemReq *req, bool locked)
{
    SetAssoc *sa = &c->cache[i];
    SetAssocLine v;
    int way = setassoc_replace(sa, line, NULL, false, 0, owner, write, &v);

    left(c, i, setassoc_set_of(sa, line), way, &v);
    if (v.valid && v.dirty) {
        write_back(c, i, &v, req, locked);
    }
    return way;
}

/*
 * An L1 lookup (@write marks the line dirty): round-robin, a hit changes
 * no order, so that the hits the access stream's filter keeps from the
 * model (exec/access-hook.h) are the hits the model would have seen.
 * Returns the way or SETASSOC_NO_WAY; *@dirty: whether it is dirty now.
 */
static int l1_lookup(SetAssoc *sa, uint64_t line, bool write, bool *dirty)
{
    uint32_t set = setassoc_set_of(sa, line);
    int way = setassoc_lookup(sa, line);

    if (way != SETASSOC_NO_WAY) {
        if (write) {
            setassoc_set_dirty(sa, set, way);
        }
        *dirty = setassoc_is_dirty(sa, set, way);
    }
    return way;
}

/*
 * Under the lock: @line from the shared side into the private L2, if any
 * (its victim written back), asked for at @start_fs, when the port takes
 * it.  Returns where the line was; *mem_ps is what the memory side
 * reported, *extra_fs what the shared side's clock adds
 * (MemsysPorts.level_extra_fs).
 */
static unsigned shared_fill(MemsysCpu *c, const MemReq *req,
                            uint64_t start_fs, uint64_t line, uint8_t kind,
                            uint64_t *mem_ps, uint64_t *extra_fs)
{
    const MemsysPorts *p = &c->m->ports;
    uint32_t owner = owner_of(req->label);
    MemReq at = *req, fill_req;
    unsigned level;

    at.t_ps = start_fs / 1000;
    fill_req = line_req(c->m, req, at.t_ps, line, owner, kind);
    level = p->l3_fill(p, &fill_req, mem_ps) ? c->m->shared_level
                                              : MEMSYS_MEM;
    *extra_fs = p->level_extra_fs ?
                p->level_extra_fs(p->level_extra_opaque, level) : 0;
    if (c->m->n_priv > PRIV_L2) {
        fill(c, PRIV_L2, line, owner, false, &at, true);
    }
    return level;
}

/*
 * Load-to-use time of a line found at @level.  A DDR model turns the
 * constant memory latency into the shared cache's + its own; without one,
 * mem_ps is what
 * the memory side's bandwidth regulation added to timing-mem-ns (0 unless
 * programmed).  @extra_fs: the shared side's clock, if slowed.
 */
static uint64_t served_fs(const Memsys *m, unsigned level, uint64_t mem_ps,
                          uint64_t extra_fs)
{
    uint64_t fs = level != MEMSYS_MEM ? m->level_fs[level] :
                  (m->ports.ddr ? m->level_fs[m->shared_level]
                                : m->level_fs[MEMSYS_MEM]) + mem_ps * 1000;

    return fs + extra_fs;
}

/*
 * Under the lock: the prefetcher brings @line into the L2 and the L1D, as
 * a demand miss would, unless the L1D has it.  A line from the shared side
 * takes the port and is in flight in @slot until its data arrives; while
 * the slot's line is still in flight, the prefetcher skips @line (a demand
 * access will miss it).  Returns the level that served the line, 0 if
 * none did.
 */
static unsigned prefetch(MemsysCpu *c, const MemReq *req, uint64_t line,
                         uint64_t *slot, uint64_t now_fs)
{
    unsigned level = MEMSYS_L2;

    if (setassoc_lookup(&c->cache[PRIV_L1D], line) != SETASSOC_NO_WAY) {
        return 0;
    }
    if (c->m->n_priv == PRIV_L2 ||
        setassoc_lookup(&c->cache[PRIV_L2], line) == SETASSOC_NO_WAY) {
        uint64_t start, mem_ps = 0, extra_fs;

        if (slot[0] != NO_LINE && slot[1] > now_fs) {
            return 0;
        }
        start = port_take(c, now_fs);
        level = shared_fill(c, req, start, line, MEMREQ_READ, &mem_ps,
                            &extra_fs);
        slot[0] = line;
        slot[1] = start + served_fs(c->m, level, mem_ps, extra_fs);
    }
    fill(c, PRIV_L1D, line, owner_of(req->label), false, req, true);
    return level;
}

/*
 * The prefetch slot of virtual address @va in a stream of @stride bytes
 * (0: none yet, as one line): (va / stride) mod prefetch_lines, so that
 * the lines of N consecutive strides never share one.
 */
static uint64_t *stream_slot(MemsysCpu *c, uint64_t va, uint64_t stride)
{
    return &c->stream[ST_SLOTS + 2 * (va / (stride ? stride : LINE_BYTES) %
                                      c->m->t.prefetch_lines)];
}

/*
 * The physical line of virtual address @va: in the page of the access
 * (@req at physical line @line), else through the vCPU's translation,
 * which *page caches for one more page ({virtual page, its first physical
 * line}; NO_LINE - 1: not mapped).  False: not mapped.
 */
static bool stream_pa_line(MemsysCpu *c, const MemReq *req, uint64_t line,
                           uint64_t va, uint64_t page[2], uint64_t *pl)
{
    uint64_t vpage = va >> PAGE_SHIFT, pa;

    if (vpage == req->va >> PAGE_SHIFT) {
        *pl = line - line % PAGE_LINES + (va >> LINE_SHIFT) % PAGE_LINES;
        return true;
    }
    if (page[0] != vpage) {
        page[0] = vpage;
        page[1] = c->translate &&
                  c->translate(c->translate_opaque, vpage << PAGE_SHIFT,
                               &pa) ?
                  (pa >> LINE_SHIFT) / PAGE_LINES * PAGE_LINES :
                  NO_LINE - 1;
    }
    *pl = page[1] + (va >> LINE_SHIFT) % PAGE_LINES;
    return page[1] != NO_LINE - 1;
}

/*
 * The stride a miss at @va makes with the stream's last position @last:
 * one line if @va is in the next line, else their distance if it is more
 * than a line and at most timing-prefetch-stride, else 0 (none).
 */
static uint64_t stream_stride(const MemsysCpu *c, uint64_t last, uint64_t va)
{
    if (last == NO_LINE || va <= last) {
        return 0;
    }
    if (va >> LINE_SHIFT == (last >> LINE_SHIFT) + 1) {
        return LINE_BYTES;
    }
    return va - last <= c->m->t.prefetch_stride ? va - last : 0;
}

/*
 * The stream prefetcher sees a data access @req to physical @line
 * (@l1_miss: the L1D did not have it) at @now_fs.  A line in flight ends
 * its slot and continues the stream; so does an L1D miss in the line one
 * stride past the stream's position that makes STREAM_CONFIRM or more
 * misses at that stride.  Another L1D miss starts a new candidate there,
 * with the stride it makes with the last position.  A stream keeps the
 * prefetch_lines strides after its position fetched or in flight, on
 * virtual addresses, as the Cortex-A55's read streams do (its TRM, "Data
 * prefetching": they cross page boundaries): so a guest page that the
 * next physical page does not follow costs the stream nothing, and its
 * speed does not depend on where the guest's pages landed.  Returns how
 * long the data of @line is still in flight; counts the lines prefetched
 * by the level that served them in @out.
 */
static uint64_t stream_step(MemsysCpu *c, const MemReq *req, uint64_t line,
                            bool l1_miss, uint64_t now_fs,
                            MemsysOutcome *out)
{
    uint32_t n = c->m->t.prefetch_lines;
    uint64_t *s = c->stream, *slot, next, pos, wait_fs = 0;
    uint64_t stride = s[ST_STRIDE], page[2] = { NO_LINE, NO_LINE };
    uint64_t pa_lines[MEMSYS_PREFETCH_MAX];
    unsigned todo = 0;

    if (!n) {
        return 0;
    }
    slot = stream_slot(c, req->va, stride);
    if (slot[0] == line) {
        /* a prefetched line: its stream was confirmed */
        wait_fs = slot[1] > now_fs ? slot[1] - now_fs : 0;
        slot[0] = NO_LINE;
        s[ST_RUN] = MAX(s[ST_RUN], STREAM_CONFIRM);
        stride = stride ? stride : LINE_BYTES;
    } else if (!l1_miss) {
        return 0;
    } else if (stride && s[ST_LAST] != NO_LINE &&
               req->va >> LINE_SHIFT == (s[ST_LAST] + stride) >> LINE_SHIFT) {
        s[ST_RUN]++;
    } else {
        stride = stream_stride(c, s[ST_LAST], req->va);
        s[ST_RUN] = stride ? 2 : 1;
        s[ST_NEXT] = NO_LINE;
    }
    pos = stride == LINE_BYTES ? req->va & ~(uint64_t)(LINE_BYTES - 1)
                               : req->va;
    s[ST_LAST] = pos;
    s[ST_STRIDE] = stride;
    if (s[ST_RUN] < STREAM_CONFIRM || pos > UINT64_MAX - (n + 1) * stride) {
        return wait_fs;
    }
    next = s[ST_NEXT] != NO_LINE && s[ST_NEXT] > pos ? s[ST_NEXT]
                                                      : pos + stride;
    /* the physical lines first: a translation is not taken under the lock */
    for (; next + todo * stride <= pos + n * stride; todo++) {
        if (!stream_pa_line(c, req, line, next + todo * stride, page,
                            &pa_lines[todo])) {
            break;
        }
    }
    if (todo) {
        memsys_lock(c->m);
        for (unsigned i = 0; i < todo; i++) {
            uint64_t va = next + i * stride;

            out->prefetched[prefetch(c, req, pa_lines[i],
                                     stream_slot(c, va, stride), now_fs)]++;
        }
        memsys_unlock(c->m);
    }
    s[ST_NEXT] = next + todo * stride;
    return wait_fs;
}

/*
 * The stall of a store whose line is not in the L1D yet (a miss, or a
 * prefetch in flight): none while the port's backlog (the lines it still
 * has to move) fits the store buffer, else until it does
 * (timing-store-lines; 0: stores never stall).  A store to a line the L1D
 * holds never waits.
 */
static uint64_t store_stall_fs(const MemsysCpu *c, uint64_t now_fs)
{
    const uint64_t *s = c->stream;
    uint64_t room;

    if (!s || !c->m->t.store_lines) {
        return 0;
    }
    room = now_fs + c->m->t.store_lines * s[ST_LINE_FS];
    return s[ST_PORT] > room ? s[ST_PORT] - room : 0;
}

void memsys_cpu_access(Memsys *m, MemsysCpu *c, const MemReq *req,
                       MemsysOutcome *out)
{
    uint64_t line = req->addr >> LINE_SHIFT;
    uint64_t now_fs = req->t_ps * 1000;
    bool fetch = req->kind == MEMREQ_FETCH;
    bool write = req->kind == MEMREQ_WRITE;
    unsigned l1 = fetch ? PRIV_L1I : PRIV_L1D;
    uint32_t owner = owner_of(req->label);
    unsigned level = MEMSYS_L1;
    uint64_t level_fs, extra_fs = 0, wait_fs = 0;
    bool below_l2 = false, dirty;
    SetAssoc *sa = &c->cache[l1];
    int way;

    g_assert(req->kind <= MEMREQ_FETCH);
    g_assert(req->label.partid <= 0xffff && req->label.pmg <= 0xffff);
    out->mem_ps = 0;
    memset(out->prefetched, 0, sizeof(out->prefetched));
    /* A miss fills every level above the hit. */
    way = l1_lookup(sa, line, write, &dirty);
    if (way == SETASSOC_NO_WAY) {
        dirty = write;
        if (m->n_priv > PRIV_L2 &&
            setassoc_access(&c->cache[PRIV_L2], line, false, NULL) !=
            SETASSOC_NO_WAY) {
            level = MEMSYS_L2;
        } else {
            uint64_t start;

            below_l2 = true;
            memsys_lock(m);
            start = port_take(c, now_fs);
            wait_fs = start - now_fs;
            level = shared_fill(c, req, start, line,
                                fetch ? MEMREQ_FETCH : MEMREQ_READ,
                                &out->mem_ps, &extra_fs);
        }
        way = fill(c, l1, line, owner, write, req, below_l2);
        if (below_l2) {
            memsys_unlock(m);
        }
    }
    out->l1_slot = setassoc_set_of(sa, line) * sa->ways + way;
    if (c->stream && !fetch && !(m->ports.prefetch_off &&
                                 m->ports.prefetch_off(m->ports.l3, c->index))) {
        wait_fs += stream_step(c, req, line, level != MEMSYS_L1, now_fs,
                               out);
    }
    out->level = level;
    level_fs = served_fs(m, level, out->mem_ps, extra_fs) + wait_fs;
    if (write) {
        /* the store buffer holds a store until its line is there */
        out->stall_fs = level != MEMSYS_L1 || wait_fs ?
                        store_stall_fs(c, now_fs) : 0;
    } else {
        out->stall_fs = level_fs - (fetch ? m->level_fs[MEMSYS_L1]
                                          : m->unit_fs);
    }
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
    left(c, i, set, way, &v);
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
    for (unsigned i = 0; i < m->n_priv; i++) {
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
        MemReq r = line_req(m, req, req->t_ps, line, owner_of(req->label),
                            MEMREQ_WRITE);

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
    /* a shared L2's cache[] slot is zeroed: no words */
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

    for (unsigned i = 0; i < c->m->n_priv; i++) {
        g_autofree char *why = setassoc_check(&c->cache[i]);

        if (why) {
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "vCPU %u %s: %s", c->index, name[i], why);
            return false;
        }
    }
    if (c->stream && c->stream[ST_STRIDE] != LINE_BYTES &&
        c->stream[ST_STRIDE] > c->m->t.prefetch_stride) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "vCPU %u: stream stride %" PRIu64 " beyond "
                    "timing-prefetch-stride=%u", c->index,
                    c->stream[ST_STRIDE], c->m->t.prefetch_stride);
        return false;
    }
    return true;
}

uint64_t *memsys_cpu_stream_state(MemsysCpu *c, uint32_t *len)
{
    *len = c->stream ? c->m->stream_len : 0;
    return c->stream;
}

uint64_t memsys_cpu_checksum(const MemsysCpu *c)
{
    uint64_t h = 0;

    for (unsigned i = 0; i < c->m->n_priv; i++) {
        h = h * 0x100000001b3ull ^ setassoc_checksum(&c->cache[i]);
    }
    return h;
}
