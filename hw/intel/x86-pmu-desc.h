/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x86 architectural PMU of a modeled CPU as data (docs/x86-pmu-design.md
 * §1): one description per RDT model, chosen by the same name as the
 * RdtDesc (rdt=goldmont, rdt=sapphirerapids), from which CPUID leaf 0xA
 * is generated and the MSR file (x86-pmu.h) is sized.  Not a field of
 * RdtDesc: QEMU's build links rdt-desc.c without the PMU files, and a
 * reference would break its link.  Pure C + glib.
 */
#ifndef MEMQOS_INTEL_X86_PMU_DESC_H
#define MEMQOS_INTEL_X86_PMU_DESC_H

#include <stdbool.h>
#include <stdint.h>

#include "x86-pmu-events.h"

typedef struct X86PmuDesc {
    const char *name;           /* the RdtDesc's name */
    uint32_t version;           /* CPUID.0AH EAX[7:0] */
    uint32_t n_gp;              /* EAX[15:8], at most 8 */
    uint32_t n_fixed;           /* EDX[4:0]; v5+: the ECX bitmap's ones */
    uint32_t width;             /* EAX[23:16] and EDX[12:5] */
    bool anythread_deprecated;  /* EDX[15] */
    /*
     * The four "extra" MSRs of Linux's intel_glc_extra_regs as inert
     * storage (needed when the hypervisor bit is clear, §1.6); false:
     * they #GP, so Linux's check_msr turns offcore events off.
     */
    bool extra_regs;
    /* Where LONGEST_LAT_CACHE counts: MEMSYS_L3, or MEMSYS_L2 without L3. */
    uint8_t llc;
    /* Model-specific events beyond the architectural ones. */
    const X86PmuEvent *events;
    unsigned n_events;
} X86PmuDesc;

extern const X86PmuDesc x86_pmu_desc_goldmont;
extern const X86PmuDesc x86_pmu_desc_sapphirerapids;
/* The description of the RDT model @name, NULL if there is none. */
const X86PmuDesc *x86_pmu_desc_find(const char *name);

/*
 * CPUID leaf 0xA (any subleaf) as Linux 7.3 decodes it; false for any
 * other leaf (the caller answers it).
 */
bool x86_pmu_cpuid(const X86PmuDesc *d, uint32_t leaf, uint32_t subleaf,
                   uint32_t *eax, uint32_t *ebx, uint32_t *ecx,
                   uint32_t *edx);

#endif
