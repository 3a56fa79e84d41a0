/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU glue of the modeled memory system (hw/memsys/hierarchy.h): the
 * memqos-timing device.  It attaches the model to QEMU's access stream
 * (patch 0020, exec/access-hook.h) and to modeled time (patch 0021,
 * icount_set_unit), keeps one MemsysCpu per vCPU and migrates them.
 * A platform creates it (hw/virt/mpam-virt-qemu.c for -M virt,timing=on),
 * sets its properties, hands it the shared side (memqos_timing_set_ports)
 * and the vCPUs' label function, and realizes it before any vCPU runs.
 * docs/timing-design.md.
 */
#ifndef MEMQOS_MEMSYS_TIMING_QEMU_H
#define MEMQOS_MEMSYS_TIMING_QEMU_H

#include "hw/qdev-core.h"
#include "qom/object.h"
#include "filter.h"
#include "hierarchy.h"
#include "timing.h"
#include "topology.h"
#include "config-qemu.h"

#define TYPE_MEMQOS_TIMING "memqos-timing"
OBJECT_DECLARE_SIMPLE_TYPE(MemqosTimingState, MEMQOS_TIMING)

/* The (PARTID, PMG) a vCPU's data (!is_instr) or instruction accesses carry. */
typedef MemLabel (*MemqosTimingLabelFn)(CPUState *cs, bool is_instr);
/* Where an access of @cs was served (a CPU's PMU counts it), or NULL. */
typedef void (*MemqosTimingOutcomeFn)(CPUState *cs, MemReqKind kind,
                                      uint8_t level);

/* One vCPU's view of the model. */
typedef struct MemqosTimingCpu {
    MemsysCpu *mc;
    uint64_t rem_fs;            /* stall not yet charged: below one unit */
    MemsysFilter filter;        /* over the vCPU's neg.access_dtab */
    uint32_t gen;               /* neg.access_gen when label[] was read */
    MemLabel label[2];          /* data, instruction */
    /* migration: mc's arrays (memsys_cpu_state, memsys_cpu_stats) */
    uint32_t *state[MEMSYS_CPU_STATE_ARRAYS];
    uint32_t state_len[MEMSYS_CPU_STATE_ARRAYS];
    uint64_t *stats;
    uint32_t stats_len;
    uint64_t *stream;           /* memsys_cpu_stream_state, a subsection */
    uint32_t stream_len;
} MemqosTimingCpu;

struct MemqosTimingState {
    DeviceState parent_obj;

    /* properties */
    MemsysTiming cfg;
    MemqosCacheTopo topo;       /* set by the platform: its one description */
    uint32_t dma_partid;
    uint32_t dma_pmg;

    MemsysPorts ports;          /* set by the platform before realize */
    MemqosTimingLabelFn label;  /* set by the platform before realize */
    MemLabel label_max;         /* its largest PARTID (CLOSID) and PMG (RMID) */
    MemqosTimingOutcomeFn outcome;      /* set by the platform, or NULL */
    Memsys *memsys;
    uint64_t unit_fs;
    uint64_t l1_stall_fs;       /* a load's L1 part, charged without the model */
    uint32_t n_cpus;
    MemqosTimingCpu *cpu;       /* [cpu_index] */
    /* migration */
    MemqosMigConfig *mig_config;
    int64_t *mig_local;         /* [cpu_index] icount_cpu_local */
};

/*
 * Before realize: the platform's shared side, how a vCPU's label is read,
 * and the largest label it has (the range of timing-dma-partid/-pmg).
 */
void memqos_timing_set_ports(MemqosTimingState *s, const MemsysPorts *ports,
                             MemqosTimingLabelFn label, MemLabel label_max);
void memqos_timing_set_outcome(MemqosTimingState *s,
                               MemqosTimingOutcomeFn outcome);
/*
 * Modeled time now, in ps: the current vCPU's clock mid-TB, else the
 * virtual clock (DMA, MMIO, the main loop).
 */
uint64_t memqos_timing_now_ps(void);

/* The machine's timing device, NULL without timing=on. */
MemqosTimingState *memqos_timing_get(void);

#endif
