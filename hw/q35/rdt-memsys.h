/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The effect of Intel RDT on the modeled memory system (docs/rdt-model.md,
 * "Effect"), on the shared models rather than copies of them:
 *
 *   - RdtCache: a partitioned cache (hw/memsys/pcache.h on setassoc) of one
 *     RDT level and domain whose CBM bit i is portion i: a CLOSID's CBM,
 *     chosen by access kind with CDP (rdt_cbm), becomes the way mask it
 *     allocates into.  Lines carry (CLOSID, RMID); CMT occupancy of an
 *     RMID is its lines over every CLOSID.
 *   - RdtMemsys: the shared side of the hierarchy (hw/memsys/hierarchy.h
 *     MemsysPorts) for an RDT part: the L3 as an RdtCache (or, on a part
 *     without an L3 such as Goldmont, each L2 shared by its group of
 *     cores: MemsysPorts.l2_shared), memory behind
 *     it counting MBM bytes per RMID (total; local when the line is in the
 *     L3 domain's NUMA node) and regulated by MBA through the MPAM
 *     bandwidth regulator (hw/memsys/mbw.h: delay d % is a hard MBW_MAX
 *     of (100 - d) % of the memory's bandwidth), optionally a DDR model
 *     behind it.  It answers IA32_QM_CTR for its L3 domain.
 *
 * Pure C + glib.
 */
#ifndef MEMQOS_Q35_RDT_MEMSYS_H
#define MEMQOS_Q35_RDT_MEMSYS_H

#include "../memsys/hierarchy.h"
#include "../memsys/route.h"
#include "../ddr-qos/ddr-qos.h"
#include "../memsys/pcache.h"
#include "../intel/rdt-msr.h"

/* MBA's regulation window: 1 us (MBW_WINWD in 1/256 us). */
#define RDT_MBA_WINWD           256

typedef struct RdtCache RdtCache;

/*
 * The cache of @level in domain @dom of @rdt, with the geometry of its
 * description, CLOSIDs up to rdt_desc_max_cos and RMIDs up to n_rmid.
 * @rdt must outlive it.
 */
RdtCache *rdt_cache_new(const Rdt *rdt, RdtLevel level, unsigned dom,
                        GError **errp);
void rdt_cache_free(RdtCache *c);
PCache *rdt_cache_pcache(RdtCache *c);
/*
 * pcache_access_down (@down may be NULL) within the CBM req->label.partid
 * (the CLOSID) has for req->kind now.
 */
void rdt_cache_access(RdtCache *c, const MemReq *req, MemResult *res,
                      PCacheDownFn *down, void *opaque);
/* Bytes held by lines of RMID @rmid. */
uint64_t rdt_cache_occupancy(const RdtCache *c, uint32_t rmid);

typedef struct RdtMemsysConfig {
    /* Peak bandwidth of memory (MBA's 100 %); 0: MBA does not act. */
    uint64_t mem_bytes_per_s;
    /* Bit n of a lookup: the address is in node n; NULL: all local. */
    const MemMap *nodes;
    unsigned node;              /* the node of this L3 domain */
} RdtMemsysConfig;

typedef struct RdtMemsys RdtMemsys;

/*
 * The L3 domain @dom of @rdt with memory as @cfg says and, if not NULL,
 * the DDR model @ddr behind it; binds IA32_QM_CTR of @dom to it if @rdt
 * monitors.  Without an L3 (Goldmont) every L2 domain of @rdt is the last
 * level instead (@dom 0), an access going to its vCPU's (req->src).
 * @rdt, @ddr and cfg->nodes must outlive it.
 */
RdtMemsys *rdt_memsys_new(Rdt *rdt, unsigned dom, const RdtMemsysConfig *cfg,
                          DdrQos *ddr, GError **errp);
void rdt_memsys_free(RdtMemsys *s);
/*
 * Ports for memsys_new() over @s; a mem_tap the caller sets sees every
 * request to memory, DMA included (the iMC uncore PMU, imc-pmu.h).
 */
MemsysPorts rdt_memsys_ports(RdtMemsys *s);
/* The last-level caches: the L3 (one), or the L2s by domain. */
unsigned rdt_memsys_n_caches(const RdtMemsys *s);
RdtCache *rdt_memsys_cache(RdtMemsys *s, unsigned i);
/* Bytes event @evt counted for @rmid (what IA32_QM_CTR scales). */
uint64_t rdt_memsys_bytes(const RdtMemsys *s, unsigned evt, uint32_t rmid);
/* Power-on: the L3 empty, MBM counters 0, MBA windows forgotten. */
void rdt_memsys_reset(RdtMemsys *s);
/*
 * Migration: the last-level caches' lines are the state words of their
 * pcaches (rdt_cache_pcache(rdt_memsys_cache(s, i))->sa, as the MPAM
 * L3's), the MBM
 * counters one array of 64-bit words, total then local per RMID.  After
 * loading both, rdt_memsys_post_load() checks the lines
 * (pcache_post_load: NULL or a g_malloc'ed reason) and starts MBA's
 * windows afresh: like the MPAM regulator's, they are not migrated.
 */
uint64_t *rdt_memsys_mbm_state(RdtMemsys *s, uint32_t *len);
char *rdt_memsys_post_load(RdtMemsys *s);

#endif
