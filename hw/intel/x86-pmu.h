/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x86 architectural PMU of the RDT models (docs/x86-pmu-design.md §1),
 * per vCPU, as data: one table (x86_pmu_msr_defs, run by the engine of
 * msr-file.h that the RDT MSRs share) gives each MSR (range)
 * its address, how many the description has (0: #GP), the bits a stored
 * value may hold and, where a write or read is more than storage, the
 * function that does it; read, write, reset, migration and the #GP rules
 * come from it.  Counters count what the hierarchy's accesses did
 * (x86_pmu_access) and what the vCPU's modeled time and instruction count
 * say (x86_pmu_fold, folded lazily: on every PMU MSR access, RDPMC and
 * CPL change, through the clock the glue binds).  An overflow sets its
 * GLOBAL_STATUS bit and, with its interrupt bit, makes a PMI pending for
 * the glue to deliver through the local APIC (x86_pmu_take_pmi).
 * Pure C + glib.
 */
#ifndef MEMQOS_INTEL_X86_PMU_H
#define MEMQOS_INTEL_X86_PMU_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "../memsys/request.h"
#include "msr-file.h"
#include "x86-pmu-desc.h"

#define MSR_IA32_PMC0                   0xc1
#define MSR_IA32_PERFEVTSEL0            0x186
#define MSR_OFFCORE_RSP_0               0x1a6
#define MSR_LBR_SELECT                  0x1c8
#define MSR_LBR_TOS                     0x1c9
#define MSR_IA32_DEBUGCTL               0x1d9
#define MSR_IA32_FIXED_CTR0             0x309
#define MSR_IA32_PERF_CAPABILITIES      0x345
#define MSR_IA32_FIXED_CTR_CTRL         0x38d
#define MSR_IA32_PERF_GLOBAL_STATUS     0x38e
#define MSR_IA32_PERF_GLOBAL_CTRL       0x38f
#define MSR_IA32_PERF_GLOBAL_OVF_CTRL   0x390
#define MSR_IA32_PERF_GLOBAL_STATUS_SET 0x391
#define MSR_PEBS_LD_LAT_THRESHOLD       0x3f6
#define MSR_IA32_A_PMC0                 0x4c1
#define MSR_LBR_NHM_FROM                0x680
#define MSR_LBR_NHM_TO                  0x6c0
#define MSR_LBR_INFO_0                  0xdc0

/* IA32_PERFEVTSELx */
#define X86PMU_EVTSEL_USR               (1ull << 16)
#define X86PMU_EVTSEL_OS                (1ull << 17)
#define X86PMU_EVTSEL_EDGE              (1ull << 18)
#define X86PMU_EVTSEL_INT               (1ull << 20)
#define X86PMU_EVTSEL_EN                (1ull << 22)
#define X86PMU_EVTSEL_INV               (1ull << 23)
#define X86PMU_EVTSEL_CMASK             (0xffull << 24)
/* IA32_FIXED_CTR_CTRL, per fixed counter j at bit 4j */
#define X86PMU_FIXED_OS                 0x1ull
#define X86PMU_FIXED_USR                0x2ull
#define X86PMU_FIXED_PMI                0x8ull
/* RDPMC's ECX: fixed counters (Linux's INTEL_PMC_FIXED_RDPMC_BASE) */
#define X86PMU_RDPMC_FIXED              (1u << 30)
/* GLOBAL_STATUS/CTRL bit of fixed counter j */
#define X86PMU_FIXED_BIT                32

typedef struct X86Pmu X86Pmu;

/*
 * The table (msr-file.h): one row per MSR or range of them (one per
 * counter), all of scope 0 (the vCPU's own), their functions taking the
 * X86PmuDesc; a row's write, where a write is more than storage, gets the
 * X86Pmu.
 */
extern const MsrDef x86_pmu_msr_defs[];
extern const unsigned x86_pmu_msr_n_defs;

typedef struct X86PmuConfig {
    uint32_t timing_mhz;        /* core clock: cycles per modeled us */
    uint32_t tsc_mhz;           /* reference clock (the TSC's rate) */
} X86PmuConfig;

/*
 * The vCPU @cpu's clock now: modeled time in femtoseconds and the
 * instructions it executed (without the charged stall).
 */
typedef void X86PmuClockFn(void *opaque, unsigned cpu, uint64_t *now_fs,
                           uint64_t *insns);

X86Pmu *x86_pmu_new(const X86PmuDesc *d, unsigned n_cpus,
                    const X86PmuConfig *cfg, GError **errp);
void x86_pmu_free(X86Pmu *p);
/* Every MSR to 0 (power-on); the clocks are taken at the next fold. */
void x86_pmu_reset(X86Pmu *p);
const X86PmuDesc *x86_pmu_desc(const X86Pmu *p);
/* Where MSR accesses and RDPMC fold time from (NULL: time stands still). */
void x86_pmu_set_clock(X86Pmu *p, X86PmuClockFn *fn, void *opaque);

MsrResult x86_pmu_msr_read(X86Pmu *p, unsigned cpu, uint32_t msr,
                           uint64_t *val);
MsrResult x86_pmu_msr_write(X86Pmu *p, unsigned cpu, uint32_t msr,
                            uint64_t val);
/*
 * RDPMC with @ecx: GP counter ECX[29:0], or fixed with ECX[30]; false for
 * #GP (index beyond the counters).  The CR4.PCE/CPL check is the caller's.
 */
bool x86_pmu_rdpmc(X86Pmu *p, unsigned cpu, uint32_t ecx, uint64_t *val);

/* One access of @cpu at @cpl that the hierarchy served at @level. */
void x86_pmu_access(X86Pmu *p, unsigned cpu, MemReqKind kind, uint8_t level,
                    unsigned cpl);
/*
 * The time counters up to (@now_fs, @insns), the interval since the last
 * fold counted at the CPL then; @cpl is the CPL from now on.
 */
void x86_pmu_fold(X86Pmu *p, unsigned cpu, uint64_t now_fs, uint64_t insns,
                  unsigned cpl);
/* Whether an overflow asked for a PMI since the last call (cleared). */
bool x86_pmu_take_pmi(X86Pmu *p, unsigned cpu);
/*
 * The earliest modeled time at which an enabled time counter of @cpu can
 * overflow (instructions at one a cycle), UINT64_MAX if none counts: the
 * glue folds then, and re-arms if nothing overflowed.
 */
uint64_t x86_pmu_next_overflow_fs(const X86Pmu *p, unsigned cpu);

/*
 * Migration: one flat array of 64-bit words, per vCPU the stored MSRs
 * (the table's rows without a computed read, in table order, as many
 * as the description has) and then the fold state (last time, last
 * instruction count, CPL, PMI pending).  After loading,
 * x86_pmu_post_load() rejects a value a write could not have left (NULL
 * or a g_malloc'ed reason) and recomputes what the counters count.
 */
uint64_t *x86_pmu_state(X86Pmu *p, uint32_t *len);
char *x86_pmu_post_load(X86Pmu *p);

#endif
