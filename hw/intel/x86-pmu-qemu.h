/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x86 architectural PMU of an rdt=<model> vCPU in qemu-system-x86_64
 * (docs/x86-pmu-design.md §3): the memqos-x86-pmu device (/machine/x86-pmu)
 * owning the pure-C X86Pmu (x86-pmu.h) of every vCPU.  The memqos-rdt
 * device creates it once every vCPU exists (rdt-qemu.c), routes CPUID
 * leaf 0xA and the MSRs RDT does not own here (patches 0030/0031), and
 * with timing=on feeds it the hierarchy's outcomes; RDPMC comes from
 * patch 0034.
 */
#ifndef MEMQOS_INTEL_X86_PMU_QEMU_H
#define MEMQOS_INTEL_X86_PMU_QEMU_H

#include "hw/core/cpu.h"
#include "x86-pmu.h"

#define TYPE_MEMQOS_X86_PMU "memqos-x86-pmu"

/*
 * The machine's PMU for the RDT model @model's @n_cpus vCPUs counting
 * cycles at @core_mhz (the modeled core clock); exits on a bad
 * configuration, as the machine cannot run without it.
 */
void memqos_x86_pmu_create(const char *model, unsigned n_cpus,
                           uint32_t core_mhz);

/* RDMSR/WRMSR of @cs: MSR_NOT_MINE before the PMU exists. */
MsrResult memqos_x86_pmu_msr(CPUState *cs, uint32_t msr, uint64_t *val,
                                   bool write);
/* RDPMC of @cs (the CR4.PCE/CPL check done): false for #GP. */
bool memqos_x86_pmu_rdpmc(CPUState *cs, uint32_t ecx, uint64_t *val);
/* One access of @cs that the modeled hierarchy served at @level. */
void memqos_x86_pmu_access(CPUState *cs, MemReqKind kind, uint8_t level);

#endif
