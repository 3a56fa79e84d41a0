/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intel RDT MSR file and per-vCPU state, as data: one table
 * (rdt_msr_defs, run by the shared engine of msr-file.h) says for each
 * MSR (range) its address, name, scope
 * (per logical processor, per L2 domain, per L3 domain), reset value, the
 * bits software may write and the check a written value must pass; read,
 * write, reset, migration (rdt_state) and introspection come from it.
 * rdt_msr_read/write answer "ok" or "#GP" where hardware does (Intel SDM
 * Vol. 3B ch. 17 "Intel Resource Director Technology", and what Linux
 * probes, docs/rdt-model.md "MSRs").  The current label of a vCPU's
 * accesses is (CLOSID, RMID) from its IA32_PQR_ASSOC (rdt_label_for); the
 * caches ask rdt_cbm() which mask a CLOSID's fetch or data access uses.
 * Pure C + glib.
 */
#ifndef MEMQOS_INTEL_RDT_MSR_H
#define MEMQOS_INTEL_RDT_MSR_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "../memsys/request.h"
#include "msr-file.h"
#include "rdt-desc.h"

#define MSR_MISC_FEATURE_CONTROL        0x1a4
#define MSR_IA32_L3_QOS_CFG             0xc81
#define MSR_IA32_L2_QOS_CFG             0xc82
#define MSR_IA32_QM_EVTSEL              0xc8d
#define MSR_IA32_QM_CTR                 0xc8e
#define MSR_IA32_PQR_ASSOC              0xc8f
#define MSR_IA32_L3_QOS_MASK_0          0xc90
#define MSR_IA32_L2_QOS_MASK_0          0xd10
#define MSR_IA32_L2_QOS_EXT_BW_THRTL_0  0xd50   /* MBA delay per COS */

/* IA32_L3/L2_QOS_CFG */
#define RDT_QOS_CFG_CDP                 1ull
/* IA32_QM_EVTSEL: EvtID [7:0], RMID [41:32] */
#define RDT_QM_EVTSEL_EVT               0xffull
#define RDT_QM_EVTSEL_RMID_SHIFT        32
#define RDT_QM_EVTSEL_RMID              (0x3ffull << 32)
/* IA32_QM_CTR */
#define RDT_QM_CTR_ERROR                (1ull << 63)
#define RDT_QM_CTR_UNAVAILABLE          (1ull << 62)
/* IA32_PQR_ASSOC: RMID low bits, CLOS [63:32] */
#define RDT_PQR_CLOS_SHIFT              32
/* MBA delay field of IA32_L2_QoS_Ext_BW_Thrtl_n */
#define RDT_MBA_DELAY                   0xffffull

/* Event IDs of IA32_QM_EVTSEL (CPUID.(EAX=0FH, ECX=1):EDX bit n-1). */
enum {
    RDT_EVT_L3_OCCUPANCY = 1,
    RDT_EVT_MBM_TOTAL = 2,
    RDT_EVT_MBM_LOCAL = 3,
};

typedef enum RdtLevel { RDT_L2, RDT_L3 } RdtLevel;

typedef enum RdtScope {
    RDT_SCOPE_CPU,              /* per logical processor */
    RDT_SCOPE_L2,               /* per L2 cache (domain) */
    RDT_SCOPE_L3,               /* per L3 cache (package) */
    RDT_SCOPE_N,
} RdtScope;

typedef struct Rdt Rdt;

/*
 * The table (msr-file.h): one row per MSR or range of them (one per COS),
 * its scope an RdtScope, its arg the RdtLevel of a CAT register (else
 * RDT_L3), its functions taking the RdtDesc.
 */
extern const MsrDef rdt_msr_defs[];
extern const unsigned rdt_msr_n_defs;

/*
 * Where IA32_QM_CTR's data comes from: the bytes event @evt counts for
 * @rmid in L3 domain @dom (occupancy now, or bytes moved since reset);
 * false if the data is unavailable.
 */
typedef bool RdtMonFn(void *opaque, unsigned dom, unsigned evt,
                      uint32_t rmid, uint64_t *bytes);

/* RDT of @n_cpus logical processors of @d (rdt_desc_check'ed). */
Rdt *rdt_new(const RdtDesc *d, unsigned n_cpus, GError **errp);
void rdt_free(Rdt *r);
/* Every MSR to its reset value (power-on). */
void rdt_reset(Rdt *r);
const RdtDesc *rdt_desc(const Rdt *r);
unsigned rdt_n_cpus(const Rdt *r);
/* Domains of @scope, and the one logical processor @cpu is in. */
unsigned rdt_n_domains(const Rdt *r, RdtScope scope);
unsigned rdt_domain_of(const Rdt *r, RdtScope scope, unsigned cpu);
/* IA32_QM_CTR of L3 domain @dom reads through @fn (NULL: Unavailable). */
void rdt_set_monitor(Rdt *r, unsigned dom, RdtMonFn *fn, void *opaque);

MsrResult rdt_msr_read(const Rdt *r, unsigned cpu, uint32_t msr,
                       uint64_t *val);
MsrResult rdt_msr_write(Rdt *r, unsigned cpu, uint32_t msr, uint64_t val);

/* The label of @cpu's accesses: partid = CLOSID, pmg = RMID. */
MemLabel rdt_label_for(const Rdt *r, unsigned cpu);
/* Whether CDP is on for @level in domain @dom. */
bool rdt_cdp_enabled(const Rdt *r, RdtLevel level, unsigned dom);
/*
 * The CBM a @kind access of @closid allocates with at @level in domain
 * @dom: with CDP on, mask 2*CLOSID+1 for a FETCH and 2*CLOSID otherwise,
 * else mask CLOSID; all ones for a mask beyond the level's COS.  0 if the
 * level has no CAT.
 */
uint32_t rdt_cbm(const Rdt *r, RdtLevel level, unsigned dom,
                 uint32_t closid, MemReqKind kind);
/*
 * The MBA delay of @closid in percent: its IA32_L2_QoS_Ext_BW_Thrtl_n up
 * to the maximum throttle, 0 (no throttle) for a CLOSID beyond MBA's COS.
 */
uint32_t rdt_mba_delay(const Rdt *r, unsigned dom, uint32_t closid);

/*
 * Migration: the stored MSRs of @scope are one flat array of 64-bit words
 * (instances x the table's stored registers, in table order).  After
 * loading, rdt_post_load() rejects a value a write could not have left
 * (NULL or a g_malloc'ed reason naming the MSR).
 */
uint64_t *rdt_state(Rdt *r, RdtScope scope, uint32_t *len);
char *rdt_post_load(const Rdt *r);

#endif
