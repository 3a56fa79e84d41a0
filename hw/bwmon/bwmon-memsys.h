/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The BWMON monitors on the modeled memory hierarchy (docs/bwmon-model.md,
 * "Traffic"): ports that wrap the hierarchy's shared side
 * (hw/memsys/hierarchy.h MemsysPorts, e.g. memsys_mpam_ports()) and show
 * its traffic to two monitors as it passes:
 *   cpu  (v4, sdm845's "cpu-bwmon") what the CPUs send past their private
 *        caches towards the L3: every L2 miss (a line fill) and every L2
 *        write-back, whether the L3 holds the line or not; DMA is not CPU
 *        traffic;
 *   mem  (v5, sdm845's "llcc-bwmon") what reaches memory: L3 fills, L3
 *        and L2 write-backs that go to memory, and DMA - what the memory
 *        MSC's MBWU counts (the ports' mem_tap).
 * Each request counts its size at its t_ps.  When a count brings a
 * monitor's next line change earlier (bwmon_next_change), @rearm is
 * called so the glue moves its timer.  Called under the memsys lock, as
 * the ports are; the glue takes that lock for the monitors' MMIO.
 * Pure C + glib, no QEMU types.
 */
#ifndef MEMQOS_BWMON_MEMSYS_H
#define MEMQOS_BWMON_MEMSYS_H

#include "bwmon.h"
#include "../memsys/hierarchy.h"

/* @m's next change moved earlier, to @t_ps. */
typedef void (*BwmonRearmFn)(void *opaque, Bwmon *m, uint64_t t_ps);

typedef struct BwmonTap {
    MemsysPorts inner;          /* the wrapped ports, mem_tap set */
    Bwmon *cpu;                 /* NULL: no CPU monitor */
    Bwmon *mem;                 /* NULL: no memory monitor */
    BwmonRearmFn rearm;
    void *opaque;
} BwmonTap;

/*
 * Ports for memsys_new() that pass everything to @inner and count it on
 * @cpu and @mem (either may be NULL).  @tap must outlive the Memsys.
 */
MemsysPorts bwmon_tap_ports(BwmonTap *tap, const MemsysPorts *inner,
                            Bwmon *cpu, Bwmon *mem, BwmonRearmFn rearm,
                            void *opaque);

#endif
