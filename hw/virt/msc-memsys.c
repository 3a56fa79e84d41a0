/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MPAM MSCs as the shared side of the memory hierarchy, see
 * msc-memsys.h.
 */
#include "msc-memsys.h"
#include "../ddr-qos/ddr-qos.h"
#include "../agents/agents.h"

/*
 * Traffic reaching memory: the memory MSC counts it with its label and
 * regulates its bandwidth, and the DDR model, if any, serves it.  A fill
 * the requester waits for (@fill_ps set, a read) is a blocking read: the
 * regulation delay plus the DDR's latency go to *fill_ps (without a DDR,
 * the delay alone, which the hierarchy adds to timing-mem-ns).  The rest
 * (write-backs, DMA) is posted: nobody waits for it in the model, but the
 * DDR sees it only when the regulation lets it go.
 */
typedef struct ToMem {
    const MemsysPorts *p;
    uint64_t *fill_ps;
    /*
     * A background agent's request (docs/agents.md): nothing blocks, every
     * request is held in front of the DDR and completes through its done
     * hook.  Only the agent's own request keeps its src (so only it frees
     * the agent's slot); the write-back of a victim its fill evicts is
     * nobody's to wait for and goes as MEMREQ_SRC_DMA, which no agent is.
     */
    bool agent;
    bool agent_write;
} ToMem;

/*
 * The DSPRI a regulated request contends with in the DDR
 * (docs/mbw-regulation.md, "With the DDR model"): below its MBW_MIN the
 * most urgent, over its MBW_MAX without HARDLIM the least, else the L3
 * MSC's.
 */
static uint16_t pref_dspri(uint16_t dspri, MbwPref pref)
{
    return pref == MBW_PREF_HIGH ? MPAM_DOWN_DSPRI_MAX :
           pref == MBW_PREF_LOW ? 0 : dspri;
}

/* The agents on @p, if any, issue what is due before @t_ps. */
static void memsys_mpam_sync(const MemsysPorts *p, uint64_t t_ps)
{
    if (p->agents) {
        agents_advance(p->agents, t_ps);
    }
}

static void to_mem(void *opaque, MemReq *req)
{
    ToMem *tm = opaque;
    bool fill = tm->fill_ps && !memreq_is_write(req);
    MbwVerdict v;

    if (tm->p->mem_tap) {
        tm->p->mem_tap(tm->p->mem_tap_opaque, req);
    }
    mpam_msc_access_regulated(tm->p->mem, req, &v);
    /* @req is ours (PCacheDownFn): on to the DDR as regulated */
    req->t_ps += v.delay_ps;
    req->dspri = pref_dspri(req->dspri, v.pref);
    if (fill) {
        *tm->fill_ps = v.delay_ps;
    }
    if (!tm->p->ddr) {
        return;
    }
    if (tm->agent) {
        if (memreq_is_write(req) != tm->agent_write) {
            req->src = MEMREQ_SRC_DMA;
        }
        ddr_qos_post_held(tm->p->ddr, req);
    } else if (fill) {
        /* the DDR holds every agent request before this read first */
        memsys_mpam_sync(tm->p, req->t_ps);
        *tm->fill_ps += ddr_qos_read(tm->p->ddr, req);
    } else {
        ddr_qos_post(tm->p->ddr, req);
    }
}

/* @req passing the L3 uncached, with the DSPRI the L3 MSC gives it. */
static void past_l3(ToMem *tm, const MemReq *req)
{
    MemReq r = *req;

    r.dspri = mpam_msc_req_down_dspri(tm->p->l3, req);
    to_mem(tm, &r);
}

/* @req looked up in the L3; true if it held every line. */
static bool through_l3(ToMem *tm, const MemReq *req)
{
    MemResult r;

    mpam_msc_access_down(tm->p->l3, req, to_mem, tm, &r);
    if (!r.lines) {
        /* No cache of the L3 MSC sees the address: straight to memory. */
        past_l3(tm, req);
    }
    return r.lines && r.hits == r.lines;
}

static bool l3_fill(const MemsysPorts *p, const MemReq *req, uint64_t *mem_ps)
{
    ToMem tm = { .p = p, .fill_ps = mem_ps };

    return through_l3(&tm, req);
}

static bool l3_writeback(const MemsysPorts *p, const MemReq *req)
{
    return mpam_msc_writeback(p->l3, req);
}

static void l3_invalidate(const MemsysPorts *p, const MemReq *req)
{
    ToMem tm = { .p = p };

    mpam_msc_invalidate(p->l3, req, to_mem, &tm);
}

/* Write-backs the L3 does not hold, and DMA: through the L3 to memory. */
static void mem_access(const MemsysPorts *p, const MemReq *req)
{
    ToMem tm = { .p = p };

    past_l3(&tm, req);
}

/*
 * The agents' sink: a read goes through the L3 as an L2 miss does (a hit
 * costs the L3 latency; a miss, its victim and any regulation delay go to
 * the DDR, held, and complete through its done hook), a write updates the
 * L3's copy or goes to memory.  @direct skips the L3.
 */
static uint64_t agent_req(void *opaque, const MemReq *req, bool direct)
{
    MemsysAgentPort *ap = opaque;
    const MemsysPorts *p = &ap->ports;
    ToMem tm = { .p = p, .agent = true,
                 .agent_write = memreq_is_write(req) };

    if (direct) {
        past_l3(&tm, req);
        return AGENT_LAT_PENDING;
    }
    if (tm.agent_write) {
        if (mpam_msc_writeback(p->l3, req)) {
            return ap->l3_ps;
        }
        past_l3(&tm, req);
        return AGENT_LAT_PENDING;
    }
    return through_l3(&tm, req) ? ap->l3_ps : AGENT_LAT_PENDING;
}

/* The DDR's events before @t_ps; the next one. */
static uint64_t agent_advance(void *opaque, uint64_t t_ps)
{
    MemsysAgentPort *ap = opaque;

    ddr_qos_advance(ap->ports.ddr, t_ps);
    return ddr_qos_next_decision(ap->ports.ddr);
}

static void agent_done(void *opaque, uint16_t src, uint64_t t_ps,
                       uint64_t lat_ps)
{
    agents_complete(opaque, src, t_ps, lat_ps);
}

AgentSet *memsys_mpam_agents_new(MemsysAgentPort *ap, const MemsysPorts *p,
                                 uint64_t l3_ps)
{
    AgentSink sink = { ap, agent_req, agent_req, agent_advance };
    AgentSet *set;

    g_assert(p->ddr);
    *ap = (MemsysAgentPort){ *p, l3_ps };
    ap->ports.agents = NULL;
    set = agents_new(&sink, ddr_config_peak_bytes_per_s(
                                ddr_qos_config(p->ddr)));
    ddr_qos_set_done_hook(p->ddr, agent_done, set);
    return set;
}

MemsysPorts memsys_mpam_ports(MpamMsc *l3, MpamMsc *mem, DdrQos *ddr)
{
    return (MemsysPorts) {
        .l3 = l3,
        .mem = mem,
        .ddr = ddr,
        .l3_fill = l3_fill,
        .l3_writeback = l3_writeback,
        .l3_invalidate = l3_invalidate,
        .mem_access = mem_access,
        .sync = memsys_mpam_sync,
    };
}
