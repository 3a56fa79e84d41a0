/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MPAM MSCs as the shared side of the memory hierarchy, see
 * msc-memsys.h.
 */
#include "msc-memsys.h"
#include "../ddr-qos/ddr-qos.h"

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

static void to_mem(void *opaque, const MemReq *req)
{
    ToMem *tm = opaque;
    bool fill = tm->fill_ps && !memreq_is_write(req);
    MemReq r = *req;
    MbwVerdict v;

    if (tm->p->mem_tap) {
        tm->p->mem_tap(tm->p->mem_tap_opaque, req);
    }
    mpam_msc_access_regulated(tm->p->mem, req, &v);
    r.t_ps += v.delay_ps;
    r.dspri = pref_dspri(req->dspri, v.pref);
    if (fill) {
        *tm->fill_ps = v.delay_ps;
    }
    if (!tm->p->ddr) {
        return;
    }
    if (fill) {
        *tm->fill_ps += ddr_qos_read(tm->p->ddr, &r);
    } else {
        ddr_qos_post(tm->p->ddr, &r);
    }
}

/* @req passing the L3 uncached, with the DSPRI the L3 MSC gives it. */
static void past_l3(ToMem *tm, const MemReq *req)
{
    MemReq r = *req;

    r.dspri = mpam_msc_req_down_dspri(tm->p->l3, req);
    to_mem(tm, &r);
}

static bool l3_fill(const MemsysPorts *p, const MemReq *req, uint64_t *mem_ps)
{
    ToMem tm = { p, mem_ps };
    MemResult r = mpam_msc_access_down(p->l3, req, to_mem, &tm);

    if (!r.lines) {
        /* No cache of the L3 MSC sees the address: straight to memory. */
        past_l3(&tm, req);
    }
    return r.lines && r.hits == r.lines;
}

static bool l3_writeback(const MemsysPorts *p, const MemReq *req)
{
    return mpam_msc_writeback(p->l3, req);
}

static void l3_invalidate(const MemsysPorts *p, const MemReq *req)
{
    ToMem tm = { p, NULL };

    mpam_msc_invalidate(p->l3, req, to_mem, &tm);
}

/* Write-backs the L3 does not hold, and DMA: through the L3 to memory. */
static void mem_access(const MemsysPorts *p, const MemReq *req)
{
    ToMem tm = { p, NULL };

    past_l3(&tm, req);
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
    };
}
