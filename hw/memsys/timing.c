/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Timing parameters, see timing.h.
 */
#include <inttypes.h>
#include <glib.h>

#include "timing.h"

#define FS_PER_NS       1000000ull
#define FS_PER_US       1000000000ull  /* 1 cycle at 1 MHz */

void memsys_timing_default(MemsysTiming *t)
{
    *t = (MemsysTiming) {
        .mhz = MEMSYS_TIMING_DEFAULT_MHZ,
        .cpi_milli = MEMSYS_TIMING_DEFAULT_CPI_MILLI,
        .l1_cycles = MEMSYS_TIMING_DEFAULT_L1_CYCLES,
        .l2_cycles = MEMSYS_TIMING_DEFAULT_L2_CYCLES,
        .l3_cycles = MEMSYS_TIMING_DEFAULT_L3_CYCLES,
        .mem_ns = MEMSYS_TIMING_DEFAULT_MEM_NS,
        .quantum_ns = MEMSYS_TIMING_DEFAULT_QUANTUM_NS,
    };
}

/* @milli_cycles thousandths of a cycle in fs, to the nearest fs. */
static uint64_t milli_cycles_fs(const MemsysTiming *t, uint64_t milli_cycles)
{
    return (milli_cycles * (FS_PER_US / 1000) + t->mhz / 2) / t->mhz;
}

uint64_t memsys_unit_fs(const MemsysTiming *t)
{
    return milli_cycles_fs(t, t->cpi_milli);
}

uint32_t memsys_load_l1_units(const MemsysTiming *t)
{
    return ((uint64_t)t->l1_cycles * 1000 - t->cpi_milli) / t->cpi_milli;
}

uint64_t memsys_level_fs(const MemsysTiming *t, unsigned level)
{
    const uint32_t cycles[] = { t->l1_cycles, t->l2_cycles, t->l3_cycles };

    g_assert(level >= MEMSYS_L1 && level <= MEMSYS_MEM);
    if (level == MEMSYS_MEM) {
        return t->mem_ns * FS_PER_NS;
    }
    return milli_cycles_fs(t, cycles[level - MEMSYS_L1] * 1000ull);
}

char *memsys_timing_check(const MemsysTiming *t)
{
    uint64_t l1_milli = (uint64_t)t->l1_cycles * 1000;

    if (!t->mhz) {
        return g_strdup("timing-mhz must be greater than 0");
    }
    if (!t->cpi_milli) {
        return g_strdup("timing-cpi-milli must be greater than 0");
    }
    if (!memsys_unit_fs(t)) {
        /* modeled time counts whole femtoseconds per instruction */
        return g_strdup_printf("timing-mhz=%u is too fast for timing-cpi-milli"
                               "=%u: an instruction would take less than "
                               "1 fs (at most %" PRIu64 " MHz; timing-mhz "
                               "is in MHz, not Hz)", t->mhz, t->cpi_milli,
                               (uint64_t)2000000 * t->cpi_milli);
    }
    if (l1_milli < t->cpi_milli) {
        return g_strdup_printf("timing-l1-cycles=%u is less than "
                               "timing-cpi-milli=%u (%u.%03u cycles): an L1 "
                               "hit cannot take less than one instruction",
                               t->l1_cycles, t->cpi_milli,
                               t->cpi_milli / 1000, t->cpi_milli % 1000);
    }
    if ((l1_milli - t->cpi_milli) % t->cpi_milli) {
        return g_strdup_printf("timing-l1-cycles=%u minus timing-cpi-milli=%u "
                               "(%u.%03u cycles) is not a whole number of "
                               "instructions (the L1 hit stall is charged "
                               "in whole instructions)", t->l1_cycles,
                               t->cpi_milli, t->cpi_milli / 1000,
                               t->cpi_milli % 1000);
    }
    if (t->l2_cycles <= t->l1_cycles) {
        return g_strdup_printf("timing-l2-cycles=%u must be greater than "
                               "timing-l1-cycles=%u", t->l2_cycles,
                               t->l1_cycles);
    }
    if (t->l3_cycles <= t->l2_cycles) {
        return g_strdup_printf("timing-l3-cycles=%u must be greater than "
                               "timing-l2-cycles=%u", t->l3_cycles,
                               t->l2_cycles);
    }
    if (memsys_level_fs(t, MEMSYS_L3) >= memsys_level_fs(t, MEMSYS_MEM)) {
        uint64_t l3_ps = memsys_level_fs(t, MEMSYS_L3) / 1000;

        return g_strdup_printf("timing-mem-ns=%u must be greater than the "
                               "L3 latency (timing-l3-cycles=%u at "
                               "timing-mhz=%u: %" PRIu64 ".%03" PRIu64 " ns)",
                               t->mem_ns, t->l3_cycles, t->mhz,
                               l3_ps / 1000, l3_ps % 1000);
    }
    if (!t->quantum_ns || t->quantum_ns > MEMSYS_QUANTUM_NS_MAX) {
        return g_strdup_printf("timing-quantum-ns=%" PRIu64 " is not in "
                               "1..%" PRIu64 " (1 s)", t->quantum_ns,
                               (uint64_t)MEMSYS_QUANTUM_NS_MAX);
    }
    if (t->prefetch_lines > MEMSYS_PREFETCH_MAX) {
        return g_strdup_printf("timing-prefetch-lines=%u is more than %u",
                               t->prefetch_lines, MEMSYS_PREFETCH_MAX);
    }
    if (t->store_lines > MEMSYS_STORE_LINES_MAX) {
        return g_strdup_printf("timing-store-lines=%u is more than %u",
                               t->store_lines, MEMSYS_STORE_LINES_MAX);
    }
    if (t->prefetch_stride > MEMSYS_PREFETCH_STRIDE_MAX) {
        return g_strdup_printf("timing-prefetch-stride=%u is more than %u "
                               "(a page)", t->prefetch_stride,
                               MEMSYS_PREFETCH_STRIDE_MAX);
    }
    return NULL;
}
