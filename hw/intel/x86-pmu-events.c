/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The event table, see x86-pmu-events.h.  Encodings: Linux 7.3
 * intel_perfmon_event_map (arch/x86/events/intel/core.c:34-43), SDM
 * vol. 3B "Pre-defined Architectural Performance Events" and Goldmont's
 * MEM_LOAD_UOPS_RETIRED (arch/x86/kernel/cpu/resctrl/pseudo_lock.c:428-447).
 */
#include <stdbool.h>
#include <glib.h>

#include "x86-pmu-events.h"
#include "../memsys/timing.h"

static const X86PmuEvent arch_events[] = {
    { 0x3c, 0x00, "CPU_CLK_UNHALTED.CORE", X86PMU_SRC_CYCLES, 0, 0, 0 },
    { 0xc0, 0x00, "INST_RETIRED.ANY", X86PMU_SRC_INSNS, 0, 0, 0 },
    { 0x3c, 0x01, "CPU_CLK_UNHALTED.REF", X86PMU_SRC_REF, 0, 0, 0 },
    /*
     * Every access served by the LLC or beyond: an L2 miss on SPR.  With
     * the prefetcher's fills: the SDM's LLC events "may include ... cache
     * line fills due to the first-level cache hardware prefetcher".
     */
    { 0x2e, 0x4f, "LONGEST_LAT_CACHE.REFERENCE", X86PMU_SRC_ACCESS,
      X86PMU_KINDS_ALL | X86PMU_KIND(MEMREQ_PREFETCH), X86PMU_LEVEL_LLC,
      MEMSYS_MEM },
    { 0x2e, 0x41, "LONGEST_LAT_CACHE.MISS", X86PMU_SRC_ACCESS,
      X86PMU_KINDS_ALL | X86PMU_KIND(MEMREQ_PREFETCH), MEMSYS_MEM,
      MEMSYS_MEM },
    /* Branches are not modeled. */
    { 0xc4, 0x00, "BR_INST_RETIRED.ALL_BRANCHES", X86PMU_SRC_ZERO, 0, 0, 0 },
    { 0xc5, 0x00, "BR_MISP_RETIRED.ALL_BRANCHES", X86PMU_SRC_ZERO, 0, 0, 0 },
};

/*
 * Loads only (not stores, not fetches); an L1 hit is neither.  The L1-hit
 * umask 0x01 is not offered: the access stream's line filter hides
 * repeated accesses to a line (docs/x86-pmu-design.md §1.5).
 */
const X86PmuEvent x86_pmu_events_goldmont[X86_PMU_N_EVENTS_GOLDMONT] = {
    { 0xd1, 0x02, "MEM_LOAD_UOPS_RETIRED.L2_HIT", X86PMU_SRC_ACCESS,
      X86PMU_KIND(MEMREQ_READ), MEMSYS_L2, MEMSYS_L2 },
    { 0xd1, 0x10, "MEM_LOAD_UOPS_RETIRED.L2_MISS", X86PMU_SRC_ACCESS,
      X86PMU_KIND(MEMREQ_READ), MEMSYS_L2 + 1, MEMSYS_MEM },
};

static const X86PmuEvent *find(const X86PmuEvent *t, unsigned n,
                               uint8_t event, uint8_t umask)
{
    for (unsigned i = 0; i < n; i++) {
        if (t[i].event == event && t[i].umask == umask) {
            return &t[i];
        }
    }
    return NULL;
}

bool x86_pmu_event_match(const X86PmuEvent *model, unsigned n, uint8_t llc,
                         uint8_t event, uint8_t umask, X86PmuEvent *out)
{
    const X86PmuEvent *e = find(model, n, event, umask);

    if (!e) {
        e = find(arch_events, G_N_ELEMENTS(arch_events), event, umask);
    }
    if (!e) {
        return false;
    }
    *out = *e;
    if (out->level_lo == X86PMU_LEVEL_LLC) {
        out->level_lo = llc;
    }
    return true;
}
