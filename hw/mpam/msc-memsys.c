/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MPAM MSCs as the shared side of the memory hierarchy, see
 * msc-memsys.h.
 */
#include "msc-memsys.h"

/* Traffic reaching memory: the memory MSC counts it with its label. */
static void to_mem(void *mem, const MemReq *req)
{
    mpam_msc_access(mem, req);
}

static bool l3_fill(const MemsysPorts *p, const MemReq *req)
{
    MemResult r = mpam_msc_access_down(p->l3, req, to_mem, p->mem);

    if (!r.lines) {
        /* No cache of the L3 MSC sees the address: straight to memory. */
        to_mem(p->mem, req);
    }
    return r.lines && r.hits == r.lines;
}

static bool l3_writeback(const MemsysPorts *p, const MemReq *req)
{
    return mpam_msc_writeback(p->l3, req);
}

static void l3_invalidate(const MemsysPorts *p, const MemReq *req)
{
    mpam_msc_invalidate(p->l3, req, to_mem, p->mem);
}

static void mem_access(const MemsysPorts *p, const MemReq *req)
{
    to_mem(p->mem, req);
}

MemsysPorts memsys_mpam_ports(MpamMsc *l3, MpamMsc *mem)
{
    return (MemsysPorts) {
        .l3 = l3,
        .mem = mem,
        .l3_fill = l3_fill,
        .l3_writeback = l3_writeback,
        .l3_invalidate = l3_invalidate,
        .mem_access = mem_access,
    };
}
