/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intel RDT platform description: one table per CPU model from which the
 * RDT CPUID leaves (0x7 PQM/PQE, 0xF, 0x10, and 0x4 from the cache
 * geometry) are generated as data, and which the MSR file (rdt-msr.h) and
 * the modeled caches (rdt-memsys.h) are sized by, so that what the guest
 * enumerates is what the model does.  docs/rdt-model.md gives the source
 * of every number of the two descriptions.  Pure C + glib.
 */
#ifndef MEMQOS_INTEL_RDT_DESC_H
#define MEMQOS_INTEL_RDT_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "../memsys/topology.h"

/* Cache allocation of one level (CPUID.(EAX=10H, ECX=1 or 2)). */
typedef struct RdtCat {
    uint32_t cbm_len;           /* capacity bitmask bits, 0: no CAT here */
    uint32_t shareable;         /* EBX: units shared with other agents */
    uint32_t n_cos;             /* COS_MAX + 1 */
    bool cdp;                   /* ECX[2] code and data prioritization */
    bool noncont;               /* ECX[3] non-contiguous CBMs allowed */
} RdtCat;

typedef struct RdtDesc {
    const char *name;           /* preset name, e.g. "sapphirerapids" */
    const char *part;           /* the part the numbers follow */
    uint32_t family, model, stepping;   /* CPUID.1:EAX, Linux's x86_vfm */
    /* Caches as the hierarchy models them; l3.size 0: no L3. */
    MemqosCacheTopo caches;
    uint32_t cores;             /* cores per package, one thread each */
    uint32_t l2_cores;          /* cores sharing one L2 */
    RdtCat l3, l2;
    /* L3 monitoring (CPUID.(EAX=0FH, ECX=1)), n_rmid 0: none */
    uint32_t n_rmid;            /* max RMID + 1 */
    bool cmt, mbm_total, mbm_local;
    uint32_t mon_scale;         /* bytes per IA32_QM_CTR unit (EBX) */
    uint32_t mbm_width;         /* MBM counter bits: 24 + EAX[7:0] */
    /* Memory bandwidth allocation (CPUID.(EAX=10H, ECX=3)) */
    uint32_t mba_max_delay;     /* max throttle in percent, 0: no MBA */
    uint32_t mba_n_cos;
    bool mba_linear;            /* ECX[2] */
    bool mba_per_thread;        /* ECX[0] */
    /* MSR_MISC_FEATURE_CONTROL bits that exist (prefetcher disables) */
    uint64_t misc_feature_bits;
} RdtDesc;

/* The two models: a Sapphire Rapids server and the J3455-like Goldmont. */
extern const RdtDesc rdt_desc_sapphirerapids;
extern const RdtDesc rdt_desc_goldmont;
/* A description by name, NULL if there is none. */
const RdtDesc *rdt_desc_find(const char *name);

/*
 * NULL if @d is consistent and the model can run it, else a g_malloc'ed
 * message, e.g. "l3 CDP without L3 CAT (l3.cbm_len 0)".
 */
char *rdt_desc_check(const RdtDesc *d);

static inline bool rdt_desc_alloc(const RdtDesc *d)
{
    return d->l3.cbm_len || d->l2.cbm_len || d->mba_max_delay;
}

static inline bool rdt_desc_mon(const RdtDesc *d)
{
    return d->n_rmid != 0;
}

/* The largest COS count of any resource: the CLOS IA32_PQR_ASSOC takes. */
uint32_t rdt_desc_max_cos(const RdtDesc *d);
/* Bits of the RMID field of IA32_PQR_ASSOC: ceil(log2(n_rmid)). */
uint32_t rdt_desc_rmid_bits(const RdtDesc *d);

/* CPUID leaves and bits the description contributes. */
#define RDT_CPUID_7_EBX_PQM     (1u << 12)
#define RDT_CPUID_7_EBX_PQE     (1u << 15)

/*
 * CPUID @leaf.@subleaf as far as RDT defines it.  Returns false for a leaf
 * RDT does not define (the caller answers it).  Leaf 0x7 subleaf 0: only
 * the PQM/PQE bits of EBX, for the caller to OR into its own leaf 7
 * (other registers 0).  Leaves 0xF, 0x10 and 0x4: the whole leaf, zeros
 * for a subleaf that does not exist.
 */
bool rdt_cpuid(const RdtDesc *d, uint32_t leaf, uint32_t subleaf,
               uint32_t *eax, uint32_t *ebx, uint32_t *ecx, uint32_t *edx);

#endif
