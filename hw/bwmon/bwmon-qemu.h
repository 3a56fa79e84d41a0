/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU glue of the BWMON monitor (bwmon.h): SysBus devices, one type per
 * register layout,
 *   memqos-bwmon-v4-msm8998   MMIO 0: "monitor" (0x300), 1: "global" (0x200)
 *   memqos-bwmon-v4-sdm845    MMIO 0: 0x600
 *   memqos-bwmon-v5-llcc      MMIO 0: 0x1000
 * each with one level interrupt (sysbus IRQ 0) and the property
 * count-unit-bytes (0: the layout's).  A platform creates them, gives them
 * the Memsys whose lock serialises them with the traffic
 * (memqos_bwmon_set_memsys) and puts their models on the hierarchy's ports
 * (bwmon_tap_ports with memqos_bwmon_rearm).  docs/bwmon-model.md, "Glue".
 */
#ifndef MEMQOS_BWMON_QEMU_H
#define MEMQOS_BWMON_QEMU_H

#include "hw/sysbus.h"
#include "qom/object.h"
#include "qapi/qapi-types-memqos.h"
#include "bwmon.h"
#include "../memsys/hierarchy.h"
#include "../memsys/config-qemu.h"

#define TYPE_MEMQOS_BWMON "memqos-bwmon"
OBJECT_DECLARE_SIMPLE_TYPE(MemqosBwmonState, MEMQOS_BWMON)

struct MemqosBwmonState {
    SysBusDevice parent_obj;

    MemoryRegion mmio[BWMON_N_REGIONS];
    qemu_irq irq;
    QEMUBH *irq_bh;             /* raises the line from a vCPU thread */
    int irq_level;
    QEMUTimer *timer;           /* at bwmon_next_change() */
    BwmonVariant variant;       /* from the type */
    uint32_t count_unit;        /* property count-unit-bytes */
    Bwmon *mon;                 /* after realize */
    Memsys *memsys;             /* set by the platform: its lock */
    BwmonState mig;             /* migration: the model's state */
    MemqosMigConfig *mig_config; /* ... and the configuration's section */
};

Bwmon *memqos_bwmon_model(MemqosBwmonState *s);
void memqos_bwmon_set_memsys(MemqosBwmonState *s, Memsys *memsys);
/*
 * A BwmonRearmFn for bwmon_tap_ports(): @opaque is a NULL-terminated array
 * of the monitors' devices.  Called under the memsys lock.
 */
void memqos_bwmon_rearm(void *opaque, Bwmon *m, uint64_t t_ps);
/* query-memqos-bwmon's entry of @s, brought to the current modeled time. */
MemqosBwmonMonitor *memqos_bwmon_info(MemqosBwmonState *s);

#endif
