/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memqos-spr-uncore: Sapphire Rapids' uncore PMON discovery device
 * (8086:09a7) with the iMC boxes behind it (imc-pmu.h), a PCIe root-complex
 * integrated endpoint on q35's pcie.0.  docs/x86-pmu-design.md §2.3.
 */
#ifndef MEMQOS_INTEL_IMC_QEMU_H
#define MEMQOS_INTEL_IMC_QEMU_H

#include "../memsys/hierarchy.h"

#define TYPE_MEMQOS_SPR_UNCORE "memqos-spr-uncore"

/*
 * With a memqos-spr-uncore in the machine, make it @ports' mem_tap: its
 * boxes count every request to memory.  Called by the platform that
 * builds the modeled memory system (rdt-qemu.c, timing=on) before it
 * hands @ports to the hierarchy; without one the iMC counts no CAS.
 */
void memqos_spr_uncore_tap(MemsysPorts *ports);

#endif
