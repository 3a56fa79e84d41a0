/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Timing parameters of the modeled memory system (docs/timing-design.md
 * §3.5): the core's frequency and cycles per instruction, the load-to-use
 * latency of each cache level and of memory, and the skew quantum of the
 * per-vCPU clocks.  Times are integer femtoseconds: at the defaults every
 * figure is exact (400000 fs per cycle); a frequency that does not divide
 * 10^9 fs per microsecond rounds each figure to the nearest femtosecond
 * (relative error < 10^-5), never accumulating across accesses because
 * the per-level figures are computed once.  Pure C, no floating point.
 */
#ifndef MEMQOS_MEMSYS_TIMING_H
#define MEMQOS_MEMSYS_TIMING_H

#include <stdint.h>

/* Levels where an access is satisfied (MemsysOutcome.level). */
enum { MEMSYS_L1 = 1, MEMSYS_L2 = 2, MEMSYS_L3 = 3, MEMSYS_MEM = 4 };

typedef struct MemsysTiming {
    uint32_t mhz;               /* timing-mhz, default 2500 */
    uint32_t cpi_milli;         /* timing-cpi x 1000, default 1000 */
    uint32_t l1_cycles;         /* timing-l1-cycles, default 4 */
    uint32_t l2_cycles;         /* timing-l2-cycles, default 11 */
    uint32_t l3_cycles;         /* timing-l3-cycles, default 88 */
    uint32_t mem_ns;            /* timing-mem-ns, default 90 */
    uint64_t quantum_ns;        /* timing-quantum-ns, default 10000 */
    /*
     * The streaming core (docs/memsys-model.md, "Streaming"), off at 0:
     * the lines a vCPU's stream prefetcher runs ahead of a sequential
     * stream (timing-prefetch-lines, at most MEMSYS_PREFETCH_MAX), and the
     * lines of port backlog its store buffer hides before a store stalls
     * (timing-store-lines, at most MEMSYS_STORE_LINES_MAX), and the
     * longest stride in bytes beyond one line the prefetcher follows
     * (timing-prefetch-stride, at most MEMSYS_PREFETCH_STRIDE_MAX; 0:
     * consecutive lines only).
     */
    uint32_t prefetch_lines;
    uint32_t store_lines;
    uint32_t prefetch_stride;
} MemsysTiming;

#define MEMSYS_PREFETCH_MAX              64
#define MEMSYS_PREFETCH_STRIDE_MAX       4096
/* far beyond any store buffer (Golden Cove: 114 stores, under 8 KiB) */
#define MEMSYS_STORE_LINES_MAX           4096

#define MEMSYS_TIMING_DEFAULT_MHZ        2500
#define MEMSYS_TIMING_DEFAULT_CPI_MILLI  1000
#define MEMSYS_TIMING_DEFAULT_L1_CYCLES  4
#define MEMSYS_TIMING_DEFAULT_L2_CYCLES  11
#define MEMSYS_TIMING_DEFAULT_L3_CYCLES  88
#define MEMSYS_TIMING_DEFAULT_MEM_NS     90
#define MEMSYS_TIMING_DEFAULT_QUANTUM_NS 10000

void memsys_timing_default(MemsysTiming *t);
/*
 * NULL if @t is valid, else a g_malloc'ed message naming the property
 * ("timing-mhz must be greater than 0").  Rejected: frequency or CPI 0;
 * latencies not increasing L1 < L2 < L3 < memory; timing-l1-cycles below
 * the CPI or (L1 - CPI) not a whole number of instruction times (the
 * per-TB L1 pre-charge is in whole instructions); a quantum of 0 or more
 * than MEMSYS_QUANTUM_NS_MAX (vCPUs a second of modeled time apart); more than
 * MEMSYS_PREFETCH_MAX prefetch lines; a prefetch stride beyond
 * MEMSYS_PREFETCH_STRIDE_MAX; more than MEMSYS_STORE_LINES_MAX store
 * lines.
 */
#define MEMSYS_QUANTUM_NS_MAX   1000000000u
char *memsys_timing_check(const MemsysTiming *t);
/* Femtoseconds per instruction: CPI / frequency. */
uint64_t memsys_unit_fs(const MemsysTiming *t);
/* Stall of an L1 load hit, (L1 - CPI), in instructions. */
uint32_t memsys_load_l1_units(const MemsysTiming *t);
/* Load-to-use latency of @level (MEMSYS_L1..MEMSYS_MEM) in femtoseconds. */
uint64_t memsys_level_fs(const MemsysTiming *t, unsigned level);

#endif
