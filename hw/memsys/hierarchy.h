/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The modeled memory hierarchy of issue 7 (docs/timing-design.md §3.2):
 * per vCPU a private L1D, L1I and L2 (MemsysCpu, used by that vCPU's
 * thread only), below them the shared side (Memsys): the L3 and memory,
 * reached through MemsysPorts (in the machine: the L3 cache MSC and the
 * memory MSC, bound by memsys_mpam_ports() in hw/virt/msc-memsys.h).
 *
 * Policies, at every level: non-inclusive non-exclusive (a miss at level n
 * fills levels n-1..1, an eviction never invalidates other levels),
 * write-back write-allocate (a store miss reads its line); the L1s replace
 * round-robin (in fill order: a hit changes nothing but a dirty bit, so
 * the hits the access stream's filter keeps from the model change
 * nothing, docs/timing-design.md §1.2), the L2 true LRU.  Every
 * line carries an owner label, the label of the request that filled it.  A
 * dirty victim goes to the next level down that holds the line (marking it
 * dirty there) or else further down, to memory at the end; write-backs
 * never allocate, and carry the owner's label (attribution to the owner).
 * Private caches of different vCPUs are not coherent with each other, and
 * DMA does not snoop them: the model is for latency and traffic, not data.
 *
 * Locking: one mutex in Memsys guards the shared side.  memsys_cpu_access
 * takes it only when an access goes below L2; MSC MMIO, DMA, QMP and
 * VMState take it with memsys_lock().  Order: BQL, then the memsys lock.
 *
 * Pure C + glib, no QEMU types.
 */
#ifndef MEMQOS_MEMSYS_HIERARCHY_H
#define MEMQOS_MEMSYS_HIERARCHY_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "request.h"
#include "timing.h"
#include "topology.h"

typedef struct Memsys Memsys;           /* shared: L3 side, memory side, lock */
typedef struct MemsysCpu MemsysCpu;     /* one vCPU's L1D, L1I, L2 */

/* What one access did (memsys_cpu_access). */
typedef struct MemsysOutcome {
    uint8_t level;          /* MEMSYS_L1..MEMSYS_MEM: where the line was */
    uint64_t stall_fs;      /* READ: level latency - CPI (+ the wait for a
                               prefetch in flight or the port); FETCH: level
                               - L1 (an L1I hit 0); WRITE: 0 (store buffer),
                               or its overflow with timing-store-lines */
    uint32_t l1_slot;       /* where the line is now in the L1 of its kind:
                               set * ways + way */
    bool l1_dirty;          /* the line is dirty in L1D now (FETCH: false) */
    uint64_t mem_ps;        /* level MEMSYS_MEM: what the memory side
                               reported for the fill (ps, from the L3
                               miss): with a DDR model its latency, plus
                               any bandwidth-regulation delay, without one
                               that delay alone (added to timing-mem-ns);
                               else 0 */
    uint16_t prefetched[MEMSYS_MEM + 1]; /* lines the stream prefetcher
                               fetched for this access, by the level that
                               served each ([0]: skipped, the L1D had it or
                               its slot was busy): a PMU's prefetch fills */
} MemsysOutcome;

/*
 * The components below the private caches.  Each request is one 64-byte
 * line (addr line-aligned, size 64) unless said otherwise; the label is
 * the requester's for fills and the line owner's for write-backs.
 */
typedef struct MemsysPorts {
    /*
     * The cache behind the l3_* functions is the last level and the
     * vCPUs' L2, shared by groups of them (Goldmont: two L2s, each of two
     * cores; the functions pick the requester's by req->src): the vCPUs
     * have no private L2 and a hit there is an L2 hit (timing-l2-cycles).
     * false: a private L2 per vCPU, the shared cache is the L3.
     */
    bool l2_shared;
    void *l3;               /* opaque of the L3 functions */
    void *mem;              /* opaque of the memory function */
    /*
     * Optional: a DDR model behind memory (hw/ddr-qos DdrQos), NULL for
     * none.  With it a line from memory costs the L3 latency plus what
     * l3_fill reports in *mem_ps; without it, timing-mem-ns plus what
     * l3_fill reports (a bandwidth-regulation delay, usually 0).
     */
    void *ddr;
    /*
     * Optional: background agents (hw/agents AgentSet) sharing the L3 and
     * the DDR, NULL for none; before each blocking memory read the ports
     * let them issue every request due before it (docs/agents.md).
     */
    void *agents;
    /*
     * Optional, NULL for none: the agents issue every request due before
     * @t_ps (memsys_sync).
     */
    void (*sync)(const struct MemsysPorts *p, uint64_t t_ps);
    /*
     * An L2 miss (kind READ, or FETCH for an L1I miss): the L3 looks the
     * line up and on a miss reads it from memory and allocates it within
     * the requester's controls, its dirty victim going to memory with its
     * owner's label.  The L3 sends that traffic to memory itself.  Returns
     * true if the L3 held the line; on a miss, sets *mem_ps to the fill's
     * latency from req->t_ps (when the L3 found the miss) to its data with
     * a DDR model, or else to the extra delay the memory side imposed on
     * it (bandwidth regulation), which comes on top of timing-mem-ns.
     */
    bool (*l3_fill)(const struct MemsysPorts *p, const MemReq *req,
                    uint64_t *mem_ps);
    /*
     * A dirty line leaving L2 (kind WRITE): true if the L3 holds it (now
     * dirty there); false and nothing done if not (the caller sends it to
     * memory): write-backs never allocate.
     */
    bool (*l3_writeback)(const struct MemsysPorts *p, const MemReq *req);
    /*
     * A DMA write of [addr, addr + size): the L3 drops the lines it covers,
     * writing a dirty line that it covers only partly back to memory first.
     */
    void (*l3_invalidate)(const struct MemsysPorts *p, const MemReq *req);
    /* Bytes reaching memory with their label (any size), not waited for. */
    void (*mem_access)(const struct MemsysPorts *p, const MemReq *req);
    /*
     * Optional, NULL for none (the L3 keeps its lines): cache maintenance
     * (memsys_cpu_flush): the L3 drops the line at req->addr, or with @all
     * every line, a dirty one going to memory first with its owner's
     * label if @writeback.
     */
    void (*l3_flush)(const struct MemsysPorts *p, const MemReq *req, bool all,
                     bool writeback);
    /*
     * Optional, NULL for none: told of every request the memory side gets
     * (fills, write-backs, DMA), at its t_ps, before any regulation delay:
     * a bandwidth monitor on the memory path (hw/bwmon/bwmon-memsys.h).
     */
    void (*mem_tap)(void *opaque, const MemReq *req);
    void *mem_tap_opaque;
    /*
     * Optional, NULL for none: the femtoseconds added to a CPU access that
     * the shared side served at @level (MEMSYS_L3 or MEMSYS_MEM), on top
     * of its configured latency: the clock the shared side runs at now
     * (hw/bwmon/bwmon-memsys.h OsmL3Effect: the OSM L3 frequencies the
     * guest's interconnect votes select).  Called under the memsys lock.
     */
    uint64_t (*level_extra_fs)(void *opaque, unsigned level);
    void *level_extra_opaque;
    /*
     * Optional, NULL for none: the femtoseconds one line occupies a vCPU's
     * port to the L3 now (hw/bwmon/bwmon-memsys.h: the bytes the port
     * moves per clock of the CPU path's OSM L3 provider).  Every line
     * between the vCPU's L2 and the L3 (fills, prefetches, write-backs)
     * takes its turn on the port (docs/memsys-model.md, "Streaming").
     * Called under the memsys lock, with level_extra_opaque.
     */
    uint64_t (*port_line_fs)(void *opaque);
    /*
     * Optional, NULL: the stream prefetcher (timing-prefetch-lines) always
     * runs.  Else true while vCPU @cpu has it turned off (x86: the L2
     * hardware prefetcher disable bit of MSR_MISC_FEATURE_CONTROL, which
     * Linux sets while it loads a pseudo-locked region).  @opaque is l3.
     */
    bool (*prefetch_off)(void *opaque, unsigned cpu);
} MemsysPorts;

/* Per-vCPU counters (QMP query-memqos-timing). */
typedef struct MemsysCpuStats {
    uint64_t access[3];     /* by kind: MEMREQ_READ, _WRITE, _FETCH */
    uint64_t hit[4];        /* by level found: [0] L1 .. [3] memory */
    uint64_t stall_fs;      /* sum of MemsysOutcome.stall_fs */
} MemsysCpuStats;

/*
 * The shared side.  @topo gives the private caches' geometry (l1d, l1i,
 * l2; the L3 is the one behind @ports) and is checked with
 * memqos_cache_topo_check (with ports->l2_shared only l1d and l1i: the
 * L2 is behind @ports, there is no L3), @t with memsys_timing_check;
 * @ports is copied.
 * NULL with *errp set on a bad configuration.
 */
Memsys *memsys_new(const MemqosCacheTopo *topo, const MemsysTiming *t,
                   const MemsysPorts *ports, GError **errp);
void memsys_free(Memsys *m);
const MemsysTiming *memsys_timing(const Memsys *m);
const MemsysPorts *memsys_ports(const Memsys *m);

MemsysCpu *memsys_cpu_new(Memsys *m, unsigned index);
/*
 * The stream prefetcher trains on virtual lines (MemReq.va) and fetches
 * physical ones.  Within the page of the access it knows the physical
 * line; past that page's end it asks @fn for the physical address of the
 * virtual address @va (false: not mapped, the stream stops there).  No
 * @fn (the default): streams stop at the end of their page.  Called from
 * memsys_cpu_access in @c's thread, without the Memsys lock.
 */
typedef bool (*MemsysTranslateFn)(void *opaque, uint64_t va, uint64_t *pa);
void memsys_cpu_set_translate(MemsysCpu *c, MemsysTranslateFn fn,
                              void *opaque);
/*
 * A valid line left the L1D (@fetch false) or the L1I of a vCPU: replaced
 * by a fill (a demand miss or a prefetch) or flushed.  @slot is where it
 * was (MemsysOutcome.l1_slot), @line its physical line.  A filter that
 * answers L1 hits without the model (the glue's) forgets the line here.
 * Called from memsys_cpu_access and memsys_cpu_flush, possibly under the
 * Memsys lock.  No @fn (the default): nobody is told.
 */
typedef void (*MemsysL1EvictFn)(void *opaque, bool fetch, uint32_t slot,
                                uint64_t line);
void memsys_cpu_set_l1_evict(MemsysCpu *c, MemsysL1EvictFn fn, void *opaque);
void memsys_cpu_free(MemsysCpu *c);
/* Empty caches and zero counters (vCPU reset). */
void memsys_cpu_reset(MemsysCpu *c);

/*
 * One access of vCPU @c: req->kind READ/WRITE/FETCH, req->size <= 64 and
 * within one line, req->label the vCPU's label.  Runs in @c's thread;
 * takes the Memsys lock only below L2.
 */
void memsys_cpu_access(Memsys *m, MemsysCpu *c, const MemReq *req,
                       MemsysOutcome *out);
/*
 * Cache maintenance by vCPU @c (x86 CLFLUSH/CLFLUSHOPT without @all,
 * WBINVD with @all and @writeback, INVD with @all only): the line at
 * req->addr, or every line, leaves @c's private caches and the L3; a dirty
 * line is written back to memory with its owner's label first, unless
 * !@writeback, when its data is lost.  The other vCPUs' private caches
 * keep theirs (they are not coherent, and each is its own thread's).
 * req->t_ps and req->src time and attribute the write-backs.  Costs no
 * stall.  Takes the Memsys lock.
 */
void memsys_cpu_flush(Memsys *m, MemsysCpu *c, const MemReq *req, bool all,
                      bool writeback);

/*
 * DMA from a device: memory side only (the private caches and the L3 are
 * not snooped, nothing is allocated); a write first invalidates the L3
 * lines it covers.  Any size.  Takes the Memsys lock.
 */
void memsys_dma_access(Memsys *m, const MemReq *req);

/*
 * The agents beside memory (MemsysPorts.sync) issue what is due before
 * @t_ps: before a guest reads a monitor, so that it includes their
 * traffic up to now even while no vCPU misses.  Under the Memsys lock.
 */
void memsys_sync(Memsys *m, uint64_t t_ps);

/* The lock MSC MMIO handlers, DMA, QMP and VMState take. */
void memsys_lock(Memsys *m);
void memsys_unlock(Memsys *m);

/*
 * Migration.  A vCPU's private caches are MEMSYS_CPU_STATE_ARRAYS flat
 * arrays of 32-bit words (L1D, L1I, L2: tags, LRU stamps, owners, dirty
 * bits and the LRU clock, see hw/memsys/setassoc.h) whose lengths follow
 * from the configuration (the L2's is empty, NULL and *len 0, when the L2
 * is shared: MemsysPorts.l2_shared).  The glue saves array @i as
 *     uint32_t len; uint32_t *p = memsys_cpu_state(c, i, &len);
 * e.g. VMSTATE_VARRAY_UINT32 over a struct holding p and len, or
 * qemu_put_be32s in a loop, and calls memsys_cpu_post_load() after loading
 * all of them.  The stats are one more array of 64-bit words
 * (memsys_cpu_stats(), sizeof(MemsysCpuStats) / 8 of them).
 */
#define MEMSYS_CPU_STATE_ARRAYS 3
uint32_t *memsys_cpu_state(MemsysCpu *c, unsigned i, uint32_t *len);
MemsysCpuStats *memsys_cpu_stats(MemsysCpu *c);
/*
 * After loading: false (with *errp set) if the loaded arrays are not a
 * state this model can reach (a line in the wrong set, an LRU stamp beyond
 * the clock), so a corrupt stream fails the load instead of the model.
 */
bool memsys_cpu_post_load(MemsysCpu *c, GError **errp);
/*
 * The streaming state of a vCPU (docs/memsys-model.md, "Streaming": its
 * port's free time, its stream and its prefetches in flight): *len 64-bit
 * words, MEMSYS_STREAM_WORDS(timing-prefetch-lines), or none (*len 0, NULL)
 * when the timing and the ports have no streaming part, so the glue
 * migrates it only then.
 */
#define MEMSYS_STREAM_WORDS(prefetch_lines)  (6 + 2 * (prefetch_lines))
uint64_t *memsys_cpu_stream_state(MemsysCpu *c, uint32_t *len);
/* A checksum of the contents (lines, owners, dirty bits, LRU order). */
uint64_t memsys_cpu_checksum(const MemsysCpu *c);

#endif
