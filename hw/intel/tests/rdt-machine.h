/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine the RDT-side unit tests stream through: one Sapphire
 * Rapids vCPU over the hierarchy with the RDT shared side (the L3 under
 * CAT, MBM) and no DDR model, optionally a mem_tap on its memory path.
 */
#ifndef MEMQOS_INTEL_TESTS_RDT_MACHINE_H
#define MEMQOS_INTEL_TESTS_RDT_MACHINE_H

#include "../../q35/rdt-memsys.h"

typedef struct Machine {
    Rdt *rdt;
    RdtMemsys *rm;
    Memsys *m;
    MemsysCpu *cpu;
} Machine;

static inline void machine_init_tap(Machine *mc,
                                    void (*tap)(void *, const MemReq *),
                                    void *opaque)
{
    g_autoptr(GError) err = NULL;
    RdtMemsysConfig none = { 0 };
    MemsysTiming t;
    MemsysPorts ports;

    mc->rdt = rdt_new(&rdt_desc_sapphirerapids, 1, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mc->rdt);
    mc->rm = rdt_memsys_new(mc->rdt, 0, &none, NULL, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mc->rm);
    memsys_timing_default(&t);
    ports = rdt_memsys_ports(mc->rm);
    ports.mem_tap = tap;
    ports.mem_tap_opaque = opaque;
    mc->m = memsys_new(&rdt_desc_sapphirerapids.caches, &t, &ports, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mc->m);
    mc->cpu = memsys_cpu_new(mc->m, 0);
}

static inline void machine_fini(Machine *mc)
{
    memsys_cpu_free(mc->cpu);
    memsys_free(mc->m);
    rdt_memsys_free(mc->rm);
    rdt_free(mc->rdt);
}

#endif
