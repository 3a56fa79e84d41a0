/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BWMON monitors on the modeled memory hierarchy, see bwmon-memsys.h.
 */
#include "bwmon-memsys.h"

static void count(BwmonTap *tap, Bwmon *m, const MemReq *req)
{
    uint64_t before;

    if (!m) {
        return;
    }
    before = bwmon_next_change(m);
    bwmon_count(m, req->t_ps, req->size);
    if (bwmon_next_change(m) < before) {
        tap->rearm(tap->opaque, m, bwmon_next_change(m));
    }
}

static BwmonTap *tap_of(const MemsysPorts *p)
{
    return p->l3;
}

static bool tap_l3_fill(const MemsysPorts *p, const MemReq *req,
                        uint64_t *mem_ps)
{
    BwmonTap *tap = tap_of(p);

    count(tap, tap->cpu, req);
    return tap->inner.l3_fill(&tap->inner, req, mem_ps);
}

static bool tap_l3_writeback(const MemsysPorts *p, const MemReq *req)
{
    BwmonTap *tap = tap_of(p);

    count(tap, tap->cpu, req);
    return tap->inner.l3_writeback(&tap->inner, req);
}

static void tap_l3_invalidate(const MemsysPorts *p, const MemReq *req)
{
    BwmonTap *tap = tap_of(p);

    tap->inner.l3_invalidate(&tap->inner, req);
}

/* L2 write-backs the L3 does not hold come here too; DMA is no CPU's. */
static void tap_mem_access(const MemsysPorts *p, const MemReq *req)
{
    BwmonTap *tap = tap_of(p);

    if (req->src != MEMREQ_SRC_DMA) {
        count(tap, tap->cpu, req);
    }
    tap->inner.mem_access(&tap->inner, req);
}

static void tap_mem(void *opaque, const MemReq *req)
{
    BwmonTap *tap = opaque;

    count(tap, tap->mem, req);
}

MemsysPorts bwmon_tap_ports(BwmonTap *tap, const MemsysPorts *inner,
                            Bwmon *cpu, Bwmon *mem, BwmonRearmFn rearm,
                            void *opaque)
{
    *tap = (BwmonTap) {
        .inner = *inner, .cpu = cpu, .mem = mem,
        .rearm = rearm, .opaque = opaque,
    };
    tap->inner.mem_tap = tap_mem;
    tap->inner.mem_tap_opaque = tap;
    return (MemsysPorts) {
        .l3 = tap,
        .mem = inner->mem,
        .ddr = inner->ddr,
        .agents = inner->agents,
        .sync = inner->sync,
        .l3_fill = tap_l3_fill,
        .l3_writeback = tap_l3_writeback,
        .l3_invalidate = tap_l3_invalidate,
        .mem_access = tap_mem_access,
    };
}

void osm_l3_effect_default(OsmL3Effect *e, const OsmL3 *l3, const OsmL3 *mem)
{
    *e = (OsmL3Effect) {
        .l3 = l3, .l3_cycles = OSM_L3_EFFECT_L3_CYCLES,
        .mem = mem, .mem_cycles = OSM_L3_EFFECT_MEM_CYCLES,
        .mem_full_hz = OSM_L3_EFFECT_MEM_FULL_HZ,
    };
}

uint64_t osm_l3_effect_fs(const OsmL3Effect *e, unsigned level)
{
    uint64_t fs = 0;

    if (level < MEMSYS_L3) {
        return 0;
    }
    if (e->l3) {
        fs += osm_l3_slowdown_fs(e->l3, e->l3_cycles, e->l3_full_hz);
    }
    if (level == MEMSYS_MEM && e->mem) {
        fs += osm_l3_slowdown_fs(e->mem, e->mem_cycles, e->mem_full_hz);
    }
    return fs;
}

static uint64_t effect_fs(void *opaque, unsigned level)
{
    return osm_l3_effect_fs(opaque, level);
}

uint64_t osm_l3_effect_port_fs(const OsmL3Effect *e)
{
    return e->l3 && e->port_bytes ? osm_l3_bytes_fs(e->l3, 64, e->port_bytes)
                                   : 0;
}

static uint64_t port_fs(void *opaque)
{
    return osm_l3_effect_port_fs(opaque);
}

void osm_l3_effect_ports(OsmL3Effect *e, MemsysPorts *ports)
{
    ports->level_extra_fs = effect_fs;
    ports->level_extra_opaque = e;
    if (e->l3 && e->port_bytes) {
        ports->port_line_fs = port_fs;
    }
}
