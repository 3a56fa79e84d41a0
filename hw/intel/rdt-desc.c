/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intel RDT platform descriptions and the CPUID leaves generated from
 * them, see rdt-desc.h.  Field layouts: Intel SDM Vol. 2A, CPUID (leaves
 * 04H, 07H, 0FH, 10H); what Linux 7.3 reads of them:
 * arch/x86/kernel/cpu/resctrl/core.c (rdt_get_cache_alloc_cfg,
 * __get_mem_config_intel, resctrl_cpu_detect).  Sources of the numbers:
 * docs/rdt-model.md, "The two models".
 */
#include <string.h>
#include <glib.h>

#include "rdt-desc.h"

#define KiB 1024ull
#define MiB (1024ull * 1024)

/*
 * Intel Xeon Silver 4410Y (Sapphire Rapids, 4th gen Xeon Scalable):
 * 12 cores (modeled without SMT), 30 MB L3, 2 MB L2 per core.
 */
const RdtDesc rdt_desc_sapphirerapids = {
    .name = "sapphirerapids",
    .part = "Intel Xeon Silver 4410Y (Sapphire Rapids, INTEL_SAPPHIRERAPIDS_X)",
    .family = 6, .model = 0x8f, .stepping = 8,
    .caches = {
        .l1d = { 48 * KiB, 12, 64 },
        .l1i = { 32 * KiB, 8, 64 },
        .l2 = { 2 * MiB, 16, 64 },
        .l3 = { 30 * MiB, 15, 64 },
    },
    .cores = 12,
    .l2_cores = 1,
    .l3 = { .cbm_len = 15, .shareable = 0, .n_cos = 16, .cdp = true },
    .l2 = { .cbm_len = 16, .shareable = 0, .n_cos = 16, .cdp = true },
    .n_rmid = 256,
    .cmt = true, .mbm_total = true, .mbm_local = true,
    .mon_scale = 4096,
    .mbm_width = 32,
    .mba_max_delay = 90,
    .mba_n_cos = 16,
    .mba_linear = true,
    .misc_feature_bits = 0xf,
};

/*
 * Intel Celeron J3455 (Apollo Lake, Goldmont, INTEL_ATOM_GOLDMONT): four
 * cores, two 1 MiB 16-way L2s each shared by two cores, no L3, L2 CAT.
 */
const RdtDesc rdt_desc_goldmont = {
    .name = "goldmont",
    .part = "Intel Celeron J3455 (Goldmont, INTEL_ATOM_GOLDMONT)",
    .family = 6, .model = 0x5c, .stepping = 9,
    .caches = {
        .l1d = { 24 * KiB, 6, 64 },
        .l1i = { 32 * KiB, 8, 64 },
        .l2 = { 1 * MiB, 16, 64 },
    },
    .cores = 4,
    .l2_cores = 2,
    .l2 = { .cbm_len = 8, .shareable = 0, .n_cos = 4 },
    .misc_feature_bits = 0x5,
};

static const RdtDesc *const descs[] = {
    &rdt_desc_sapphirerapids,
    &rdt_desc_goldmont,
};

const RdtDesc *rdt_desc_find(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(descs); i++) {
        if (!strcmp(descs[i]->name, name)) {
            return descs[i];
        }
    }
    return NULL;
}

static char *check_cat(const char *lv, const RdtCat *c,
                       const MemqosCacheGeom *g)
{
    if (!c->cbm_len) {
        if (c->cdp || c->noncont || c->shareable || c->n_cos) {
            return g_strdup_printf("%s CDP, non-contiguous masks, shareable "
                                   "bits or COS without %s CAT "
                                   "(%s.cbm_len 0)", lv, lv, lv);
        }
        return NULL;
    }
    if (!g->size) {
        return g_strdup_printf("%s CAT without an %s cache", lv, lv);
    }
    if (c->cbm_len > 32) {
        return g_strdup_printf("%s.cbm_len %u exceeds the 32 bits of "
                               "CPUID.10H EAX[4:0] + 1", lv, c->cbm_len);
    }
    if (c->shareable >> (c->cbm_len - 1) > 1) {
        return g_strdup_printf("%s.shareable 0x%x has bits beyond the %u-bit "
                               "CBM", lv, c->shareable, c->cbm_len);
    }
    if (c->n_cos == 0 || c->n_cos > 0x10000) {
        return g_strdup_printf("%s.n_cos %u is not 1..65536 (COS_MAX is 16 "
                               "bits)", lv, c->n_cos);
    }
    if (c->cdp && c->n_cos % 2) {
        return g_strdup_printf("%s CDP needs an even number of COS (a code "
                               "and a data mask each), not %u", lv, c->n_cos);
    }
    return NULL;
}

char *rdt_desc_check(const RdtDesc *d)
{
    static const char *const lv[] = { "l1d", "l1i", "l2", "l3" };
    const MemqosCacheGeom *g[] = {
        &d->caches.l1d, &d->caches.l1i, &d->caches.l2, &d->caches.l3,
    };
    char *why = NULL;

    for (unsigned i = 0; i < G_N_ELEMENTS(g) && !why; i++) {
        if (i < 3 || g[i]->size) {
            why = memqos_cache_geom_check(lv[i], g[i]);
        }
    }
    if (!why && (!d->cores || !d->l2_cores || d->cores % d->l2_cores)) {
        why = g_strdup_printf("%u cores cannot share L2s by %u", d->cores,
                              d->l2_cores);
    }
    if (!why) {
        why = check_cat("L3", &d->l3, &d->caches.l3);
    }
    if (!why) {
        why = check_cat("L2", &d->l2, &d->caches.l2);
    }
    if (why) {
        return why;
    }
    if ((d->cmt || d->mbm_total || d->mbm_local) != (d->n_rmid != 0)) {
        return g_strdup_printf("monitoring needs both RMIDs (n_rmid %u) and "
                               "an event (CMT, MBM total or local)",
                               d->n_rmid);
    }
    if (d->n_rmid) {
        if (!d->caches.l3.size) {
            return g_strdup("L3 monitoring without an L3 cache");
        }
        if (d->n_rmid > 1024) {
            return g_strdup_printf("n_rmid %u exceeds the 10-bit RMID field "
                                   "of IA32_PQR_ASSOC", d->n_rmid);
        }
        if (!d->mon_scale) {
            return g_strdup("mon_scale 0: IA32_QM_CTR units must be bytes");
        }
        if (d->mbm_width < 24 || d->mbm_width > 62) {
            return g_strdup_printf("mbm_width %u is not 24..62 (Linux takes "
                                   "24 + an offset of at most 38)",
                                   d->mbm_width);
        }
    }
    if (!d->mba_max_delay) {
        if (d->mba_n_cos || d->mba_linear || d->mba_per_thread) {
            return g_strdup("MBA fields without MBA (mba_max_delay 0)");
        }
        return NULL;
    }
    if (!d->mba_linear) {
        return g_strdup("MBA without linear throttling: Linux supports only "
                        "linear MBA on Intel (core.c __get_mem_config_intel)");
    }
    if (d->mba_max_delay >= 100) {
        return g_strdup_printf("mba_max_delay %u would leave no bandwidth "
                               "(must be below 100 %%)", d->mba_max_delay);
    }
    if (!d->caches.l3.size) {
        return g_strdup("MBA acts per L3 domain: it needs an L3 cache");
    }
    if (d->mba_n_cos == 0 || d->mba_n_cos > 0x10000) {
        return g_strdup_printf("mba_n_cos %u is not 1..65536", d->mba_n_cos);
    }
    return NULL;
}

uint32_t rdt_desc_max_cos(const RdtDesc *d)
{
    return MAX(MAX(d->l3.n_cos, d->l2.n_cos), d->mba_n_cos);
}

/* ceil(log2(n)) for n >= 1. */
static uint32_t order(uint32_t n)
{
    return n <= 1 ? 0 : 32 - __builtin_clz(n - 1);
}

uint32_t rdt_desc_rmid_bits(const RdtDesc *d)
{
    return order(d->n_rmid);
}

/*
 * CPUID.4 subleaf @n: L1D, L1I, L2, L3.  EAX[25:14] + 1 rounded up to a
 * power of two is the number of APIC IDs sharing the cache, EAX[31:26] + 1
 * that of the cores of a package (one thread per core, APIC IDs
 * contiguous as QEMU assigns them).  EDX 0: WBINVD acts on the shared
 * lower levels, not inclusive, simple indexing, as the model is
 * (docs/memsys-model.md, "Policies").
 */
static void cpuid_4(const RdtDesc *d, uint32_t n, uint32_t *eax,
                    uint32_t *ebx, uint32_t *ecx, uint32_t *edx)
{
    static const uint8_t type[] = { 1, 2, 3, 3 };   /* data, code, unified */
    static const uint8_t level[] = { 1, 1, 2, 3 };
    const MemqosCacheGeom *g[] = {
        &d->caches.l1d, &d->caches.l1i, &d->caches.l2, &d->caches.l3,
    };
    uint32_t sharing;

    *eax = *ebx = *ecx = *edx = 0;
    if (n >= G_N_ELEMENTS(g) || !g[n]->size) {
        return;
    }
    sharing = n < 2 ? 1 : n == 2 ? d->l2_cores : d->cores;
    *eax = type[n] | level[n] << 5 | 1u << 8 |
           ((1u << order(sharing)) - 1) << 14 |
           ((1u << order(d->cores)) - 1) << 26;
    *ebx = (g[n]->ways - 1) << 22 | (g[n]->line - 1);
    *ecx = memqos_cache_sets(g[n]) - 1;
}

/* CPUID.10H subleaf 1 (L3) or 2 (L2). */
static void cpuid_10_cat(const RdtCat *c, uint32_t *eax, uint32_t *ebx,
                         uint32_t *ecx, uint32_t *edx)
{
    if (!c->cbm_len) {
        return;
    }
    *eax = c->cbm_len - 1;
    *ebx = c->shareable;
    *ecx = (c->cdp ? 1u << 2 : 0) | (c->noncont ? 1u << 3 : 0);
    *edx = c->n_cos - 1;
}

bool rdt_cpuid(const RdtDesc *d, uint32_t leaf, uint32_t subleaf,
               uint32_t *eax, uint32_t *ebx, uint32_t *ecx, uint32_t *edx)
{
    *eax = *ebx = *ecx = *edx = 0;
    switch (leaf) {
    case 0x4:
        cpuid_4(d, subleaf, eax, ebx, ecx, edx);
        return true;
    case 0x7:
        if (subleaf == 0) {
            *ebx = (rdt_desc_mon(d) ? RDT_CPUID_7_EBX_PQM : 0) |
                   (rdt_desc_alloc(d) ? RDT_CPUID_7_EBX_PQE : 0);
        }
        return true;
    case 0xf:
        if (!rdt_desc_mon(d)) {
            return true;
        }
        if (subleaf == 0) {
            *ebx = d->n_rmid - 1;
            *edx = 1u << 1;                     /* L3 monitoring */
        } else if (subleaf == 1) {
            *eax = d->mbm_width - 24;
            *ebx = d->mon_scale;
            *ecx = d->n_rmid - 1;
            *edx = (d->cmt ? 1 : 0) | (d->mbm_total ? 2 : 0) |
                   (d->mbm_local ? 4 : 0);
        }
        return true;
    case 0x10:
        if (subleaf == 0) {
            *ebx = (d->l3.cbm_len ? 1u << 1 : 0) |
                   (d->l2.cbm_len ? 1u << 2 : 0) |
                   (d->mba_max_delay ? 1u << 3 : 0);
        } else if (subleaf == 1) {
            cpuid_10_cat(&d->l3, eax, ebx, ecx, edx);
        } else if (subleaf == 2) {
            cpuid_10_cat(&d->l2, eax, ebx, ecx, edx);
        } else if (subleaf == 3 && d->mba_max_delay) {
            *eax = d->mba_max_delay - 1;
            *ecx = (d->mba_per_thread ? 1 : 0) | (d->mba_linear ? 4 : 0);
            *edx = d->mba_n_cos - 1;
        }
        return true;
    default:
        return false;
    }
}
