/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MPAM MSCs as the shared side of the memory hierarchy, see
 * msc-memsys.h.
 */
#include "msc-memsys.h"
#include "../ddr-qos/ddr-qos.h"

/*
 * Traffic reaching memory: the memory MSC counts it with its label and the
 * DDR model, if any, serves it.  A fill the requester waits for (@fill_ps
 * set, a read) is a blocking read whose latency goes to *fill_ps; the rest
 * (write-backs, DMA) is posted: nobody waits for it in the model.
 */
typedef struct ToMem {
    const MemsysPorts *p;
    uint64_t *fill_ps;
} ToMem;

static void to_mem(void *opaque, const MemReq *req)
{
    ToMem *tm = opaque;

    mpam_msc_access(tm->p->mem, req);
    if (!tm->p->ddr) {
        return;
    }
    if (tm->fill_ps && !memreq_is_write(req)) {
        *tm->fill_ps = ddr_qos_read(tm->p->ddr, req);
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
