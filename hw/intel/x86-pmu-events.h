/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a PMU event counts in the model (docs/x86-pmu-design.md §1.5): an
 * (event, umask) pair of IA32_PERFEVTSELx maps to either a predicate over
 * the accesses the modeled hierarchy serves (kind, MemsysOutcome.level) or
 * a time source (cycles, instructions, reference cycles), or counts 0.
 * The architectural events are the same on every model; a description
 * adds its own (x86-pmu-desc.h).  Pure C + glib.
 */
#ifndef MEMQOS_INTEL_X86_PMU_EVENTS_H
#define MEMQOS_INTEL_X86_PMU_EVENTS_H

#include <stdbool.h>
#include <stdint.h>

#include "../memsys/request.h"

typedef enum X86PmuSource {
    X86PMU_SRC_ZERO,            /* offered but not modeled: counts 0 */
    X86PMU_SRC_ACCESS,          /* accesses matching kinds and levels */
    X86PMU_SRC_CYCLES,          /* modeled time x timing MHz */
    X86PMU_SRC_INSNS,           /* instructions executed */
    X86PMU_SRC_REF,             /* modeled time x TSC MHz */
} X86PmuSource;

/* A level bound meaning "the description's last-level cache". */
#define X86PMU_LEVEL_LLC        0xff

typedef struct X86PmuEvent {
    uint8_t event, umask;
    const char *name;           /* the SDM's */
    X86PmuSource src;
    uint8_t kinds;              /* ACCESS: bit (1 << MemReqKind) counted */
    uint8_t level_lo, level_hi; /* ACCESS: MemsysOutcome.level in [lo, hi] */
} X86PmuEvent;

#define X86PMU_KIND(k)          (1u << (k))
#define X86PMU_KINDS_ALL        (X86PMU_KIND(MEMREQ_READ) | \
                                 X86PMU_KIND(MEMREQ_WRITE) | \
                                 X86PMU_KIND(MEMREQ_FETCH))

/* Goldmont's MEM_LOAD_UOPS_RETIRED.L2_HIT / L2_MISS (pseudo_lock.c). */
#define X86_PMU_N_EVENTS_GOLDMONT 2
extern const X86PmuEvent x86_pmu_events_goldmont[X86_PMU_N_EVENTS_GOLDMONT];

/*
 * The event @event/@umask of a model whose own events are @model[@n]
 * (searched first) and whose LLC is @llc, with X86PMU_LEVEL_LLC
 * resolved into *@out.  False: the pair is unknown and counts 0.
 */
bool x86_pmu_event_match(const X86PmuEvent *model, unsigned n, uint8_t llc,
                         uint8_t event, uint8_t umask, X86PmuEvent *out);

#endif
