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
#include "osm-l3.h"
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

/*
 * The effect of the OSM L3 providers on the hierarchy (docs/bwmon-model.md,
 * "The effect"): the timing model's latencies are those of the shared side
 * at full speed; below it, an access takes longer by the time its cycles
 * of the slowed clock take beyond what they take at full speed
 * (osm_l3_slowdown_fs):
 *   L3 hit       + l3_cycles at the CPU path's provider (@l3)
 *   from memory  + l3_cycles at @l3 (the fill passes the L3 too)
 *                + mem_cycles at the memory path's provider (@mem)
 * Private-cache hits do not change.  A full_hz of 0 is the provider's top
 * row.  Either provider may be NULL (no effect of that path).
 */
typedef struct OsmL3Effect {
    const OsmL3 *l3;
    uint32_t l3_cycles;         /* L3 clocks in an access through the L3 */
    uint64_t l3_full_hz;
    const OsmL3 *mem;
    uint32_t mem_cycles;        /* memory-path clocks in a memory access */
    uint64_t mem_full_hz;
    /*
     * Bytes a vCPU's port to the L3 moves per clock of @l3; 0: no port
     * limit (docs/bwmon-model.md, "The port").
     */
    uint32_t port_bytes;
} OsmL3Effect;

/*
 * sdm845 (the reasons are in the doc): 16 L3 clocks, full speed at the top
 * row (1593.6 MHz: 10.0 ns of the default 35.2 ns L3 hit, 53.3 ns at
 * 300 MHz); 16 clocks on the memory path, full speed at 480 MHz (the row
 * the LLCC monitor's top OPP, 7 216 000 kBps, selects; 33.3 ns at 300 MHz
 * instead of 33.3 - 20 ns).
 */
#define OSM_L3_EFFECT_L3_CYCLES     16
#define OSM_L3_EFFECT_MEM_CYCLES    16
#define OSM_L3_EFFECT_MEM_FULL_HZ   480000000
void osm_l3_effect_default(OsmL3Effect *e, const OsmL3 *l3, const OsmL3 *mem);
/* The femtoseconds added to an access served at @level (MemsysLevel). */
uint64_t osm_l3_effect_fs(const OsmL3Effect *e, unsigned level);
/*
 * The femtoseconds a line holds a port now: 64 bytes at port_bytes per
 * clock of @l3 (0 without a port).
 */
uint64_t osm_l3_effect_port_fs(const OsmL3Effect *e);
/*
 * Put @e on @ports (level_extra_fs, and port_line_fs with a port_bytes);
 * @e must outlive the Memsys.
 */
void osm_l3_effect_ports(OsmL3Effect *e, MemsysPorts *ports);

#endif
