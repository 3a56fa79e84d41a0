/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU glue of the DDR QoS scheduler model (ddr-qos.h): the memqos-ddr
 * device.  Its properties are the model's configuration table
 * (ddr_config_fields[] and the two DSPRI maps, with the model's defaults),
 * set with -global memqos-ddr.<property>=<value>.  A platform creates it
 * (hw/virt/mpam-virt-qemu.c for -M virt,timing=on,ddr=on), realizes it
 * (a configuration the model refuses stops QEMU with the model's message),
 * puts its model behind memory in the hierarchy's ports
 * (memsys_mpam_ports) and then tells it the Memsys whose lock serialises
 * the model, and where each PARTID's downstream priority comes from
 * (query-memqos-ddr).  docs/ddr-qos-model.md, "Integration".
 */
#ifndef MEMQOS_DDR_QOS_QEMU_H
#define MEMQOS_DDR_QOS_QEMU_H

#include "hw/qdev-core.h"
#include "qom/object.h"
#include "ddr-qos.h"
#include "../memsys/hierarchy.h"
#include "../memsys/config-qemu.h"

#define TYPE_MEMQOS_DDR "memqos-ddr"
OBJECT_DECLARE_SIMPLE_TYPE(MemqosDdrState, MEMQOS_DDR)

/* The DSPRI (4 bits, higher more urgent) memory traffic of @partid carries. */
typedef uint16_t (*MemqosDdrDspriFn)(void *opaque, uint32_t partid);

struct MemqosDdrState {
    DeviceState parent_obj;

    DdrConfig cfg;              /* properties */
    DdrQos *ddr;                /* after realize */
    /* set by the platform after realize */
    Memsys *memsys;             /* its lock serialises the model */
    MemqosDdrDspriFn dspri;
    void *dspri_opaque;
    uint32_t n_partids;
    /* migration: the configuration's section, the statistics */
    MemqosMigConfig *mig_config;
    uint64_t mig_stats[sizeof(DdrStats) / sizeof(uint64_t)];
};

/* After the Memsys exists: its lock, and the PARTIDs' downstream DSPRI. */
void memqos_ddr_connect(MemqosDdrState *s, Memsys *memsys, uint32_t n_partids,
                        MemqosDdrDspriFn dspri, void *opaque);

#endif
