/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -M virt,mpam=on,timing=on,bwmon=on: the Qualcomm BWMON platform of QEMU's
 * virt machine (docs/bwmon-model.md, "The platform").  The MPAM platform
 * (hw/virt/mpam-virt-qemu.c) calls these hooks; they create, in virt's
 * VIRT_MEMQOS_BWMON window (patch 0015),
 *   +0x0000  memqos-osm-l3       "l3-cpu": the L3 domain the CPU monitor
 *                                votes on (sdm845's interconnect@17d41000)
 *   +0x2000  memqos-bwmon-v4-sdm845  the CPU monitor, SPI base + 0
 *            (bwmon-cpu=msm8998: memqos-bwmon-v4-msm8998, its global
 *            region at +0x3000)
 *   +0x4000  memqos-bwmon-v5-llcc    the LLCC monitor, SPI base + 1
 *   +0x6000  memqos-osm-l3       "l3-mem": the provider the LLCC monitor's
 *                                interconnects point at (see the doc)
 * put the monitors on the timing model's ports and describe it all in the
 * device tree (Linux's Qualcomm drivers are DT-only: boot with -kernel).
 */
#ifndef MEMQOS_BWMON_VIRT_QEMU_H
#define MEMQOS_BWMON_VIRT_QEMU_H

#include "../memsys/hierarchy.h"

typedef struct VirtMachineState VirtMachineState;
typedef struct MemqosMpamVirt MemqosMpamVirt;

/* Offsets in the VIRT_MEMQOS_BWMON window. */
#define MEMQOS_BWMON_VIRT_OSM_CPU   0x0000
#define MEMQOS_BWMON_VIRT_CPU       0x2000
#define MEMQOS_BWMON_VIRT_GLOBAL    0x1000  /* msm8998: above its monitor */
#define MEMQOS_BWMON_VIRT_LLCC      0x4000
#define MEMQOS_BWMON_VIRT_OSM_MEM   0x6000
#define MEMQOS_BWMON_VIRT_SIZE      0x8000

/*
 * memqos_mpam_virt_check: bwmon=on needs mpam=on and timing=on; bwmon-cpu
 * needs bwmon=on and names a layout.
 */
bool memqos_bwmon_virt_check(const MemqosMpamVirt *m, Error **errp);
/*
 * The timing model's ports, before memsys_new: creates the devices and
 * their DT nodes and replaces *@ports with ports that also count on the
 * monitors.  Returns the ports behind the taps (the ones that count on the
 * LLCC monitor at memory), for traffic that has no CPU (the agents).
 */
MemsysPorts *memqos_bwmon_virt_tap(VirtMachineState *vms, MemsysPorts *ports);
/* After the timing device is realized: the monitors take its lock. */
void memqos_bwmon_virt_connect(VirtMachineState *vms, Memsys *memsys);

#endif
