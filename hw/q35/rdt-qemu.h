/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intel RDT in qemu-system-x86_64: the glue between target/i386's hooks
 * (patches 0030-0033) and the pure-C model (rdt-desc.h, rdt-msr.h).  A
 * CPU's "rdt" property names a description; the machine then has one
 * memqos-rdt device (/machine/rdt) holding the MSRs of every vCPU and
 * cache domain.  docs/rdt-model.md "Platform".
 */
#ifndef MEMQOS_Q35_RDT_QEMU_H
#define MEMQOS_Q35_RDT_QEMU_H

#include "../intel/rdt-desc.h"
#include "../intel/rdt-msr.h"

#define TYPE_MEMQOS_RDT "memqos-rdt"

/*
 * The description @name of a vCPU that is being realized, with the
 * machine's memqos-rdt device created for it on the first call; NULL with
 * @errp set for an unknown or inconsistent description, or one that
 * differs from the other vCPUs'.
 */
const RdtDesc *memqos_rdt_cpu_realize(const char *name, Error **errp);

/*
 * CPUID of an rdt=<model> vCPU: the RDT leaves (rdt_cpuid) and the PMU's
 * leaf 0xA (x86_pmu_cpuid); false for any other leaf.
 */
bool memqos_rdt_cpuid(const RdtDesc *d, uint32_t leaf, uint32_t subleaf,
                      uint32_t *eax, uint32_t *ebx, uint32_t *ecx,
                      uint32_t *edx);

/*
 * What patch 0031's hooks in helper_rdmsr/helper_wrmsr switch on: the MSR
 * files' answer (msr-file.h), under the names the patch uses.
 */
typedef MsrResult RdtMsrResult;
#define RDT_MSR_OK      MSR_OK
#define RDT_MSR_GP      MSR_GP
#define RDT_MSR_NOT_RDT MSR_NOT_MINE

/*
 * RDMSR/WRMSR of vCPU @cpu: as rdt_msr_read/rdt_msr_write, and an MSR
 * that is not RDT's as the PMU's (memqos_x86_pmu_msr).
 */
RdtMsrResult memqos_rdt_rdmsr(unsigned cpu, uint32_t msr, uint64_t *val);
RdtMsrResult memqos_rdt_wrmsr(unsigned cpu, uint32_t msr, uint64_t val);

#endif
