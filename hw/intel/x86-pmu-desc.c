/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PMU descriptions and CPUID leaf 0xA, see x86-pmu-desc.h.  Numbers:
 * docs/x86-pmu-design.md §1.1 (SDM vol. 3B "Architectural Performance
 * Monitoring"; Linux 7.3 arch/x86/events/intel/core.c:8014-8046).
 */
#include <string.h>
#include <glib.h>

#include "x86-pmu-desc.h"
#include "../memsys/timing.h"

/* Number of architectural events CPUID.0AH EBX describes (Linux needs 7). */
#define X86_PMU_ARCH_EVENTS     7

/* Goldmont (Celeron J3455): perfmon v4, 4 counters, 3 fixed, no L3. */
const X86PmuDesc x86_pmu_desc_goldmont = {
    .name = "goldmont",
    .version = 4, .n_gp = 4, .n_fixed = 3, .width = 48,
    .llc = MEMSYS_L2,
    .events = x86_pmu_events_goldmont,
    .n_events = X86_PMU_N_EVENTS_GOLDMONT,
};

/* Sapphire Rapids (Golden Cove without SMT): perfmon v5, 8 counters. */
const X86PmuDesc x86_pmu_desc_sapphirerapids = {
    .name = "sapphirerapids",
    .version = 5, .n_gp = 8, .n_fixed = 3, .width = 48,
    .anythread_deprecated = true,
    .extra_regs = true,
    .llc = MEMSYS_L3,
};

static const X86PmuDesc *const descs[] = {
    &x86_pmu_desc_goldmont,
    &x86_pmu_desc_sapphirerapids,
};

const X86PmuDesc *x86_pmu_desc_find(const char *name)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(descs); i++) {
        if (!strcmp(descs[i]->name, name)) {
            return descs[i];
        }
    }
    return NULL;
}

/*
 * EBX 0: all seven architectural events are offered (the branch events
 * count 0, documented).  v5 enumerates fixed counters by the ECX bitmap,
 * earlier versions by EDX[4:0] (Linux reads the one its version uses).
 */
bool x86_pmu_cpuid(const X86PmuDesc *d, uint32_t leaf, uint32_t subleaf,
                   uint32_t *eax, uint32_t *ebx, uint32_t *ecx,
                   uint32_t *edx)
{
    if (leaf != 0xa) {
        return false;
    }
    *eax = d->version | d->n_gp << 8 | d->width << 16 |
           X86_PMU_ARCH_EVENTS << 24;
    *ebx = 0;
    *ecx = d->version >= 5 ? (1u << d->n_fixed) - 1 : 0;
    *edx = d->n_fixed | d->width << 5 | (uint32_t)d->anythread_deprecated << 15;
    return true;
}
