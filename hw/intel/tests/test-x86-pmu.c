/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the x86 architectural PMU (hw/intel/x86-pmu*.h,
 * docs/x86-pmu-design.md §1 and the x86pmu tests of §3): CPUID leaf 0xA
 * decoded as Linux 7.3 decodes it, Linux's probes, the MSR file's "ok"
 * and "#GP", counting from the hierarchy's accesses and the modeled
 * clock, overflow and PMI, RDPMC, migration.  Expected values come from
 * the descriptions, the SDM and Linux's arithmetic, never from a run.
 */
#include "cunit-run.h"
#include <stdio.h>
#include <string.h>

#include "../x86-pmu.h"
#include "rdt-machine.h"

#define LINE 64
#define KiB 1024ull
#define MiB (1024ull * 1024)
#define GiB (1024ull * MiB)
#define CTR_MASK ((1ull << 48) - 1)
#define US_FS 1000000000ull             /* femtoseconds a microsecond */

static const X86PmuDesc *const gmt = &x86_pmu_desc_goldmont;
static const X86PmuDesc *const spr = &x86_pmu_desc_sapphirerapids;
/* Core and TSC clocks of the tests: different, so each shows its own. */
static const X86PmuConfig cfg = { .timing_mhz = 2400, .tsc_mhz = 2000 };

/* Linux's ARCH_PERFMON_EVENTSEL_* as perf's x86_pmu_enable_event sets. */
#define EN      X86PMU_EVTSEL_EN
#define USR     X86PMU_EVTSEL_USR
#define OS      X86PMU_EVTSEL_OS
#define INT     X86PMU_EVTSEL_INT
/* perf's config umask << 8 | event (intel_perfmon_event_map) */
#define CACHE_MISSES            0x412e
#define CACHE_REFERENCES        0x4f2e
#define CYCLES                  0x003c
#define INSTRUCTIONS            0x00c0
#define REF_CYCLES              0x013c
#define L2_HIT                  0x02d1
#define L2_MISS                 0x10d1

static X86Pmu *new_pmu(const X86PmuDesc *d, unsigned n_cpus)
{
    g_autoptr(GError) err = NULL;
    X86Pmu *p = x86_pmu_new(d, n_cpus, &cfg, &err);

    if (!p) {
        printf("\n    x86_pmu_new: %s\n", err->message);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    return p;
}

static void wr(X86Pmu *p, uint32_t msr, uint64_t v)
{
    CU_ASSERT_EQUAL(x86_pmu_msr_write(p, 0, msr, v), MSR_OK);
}

static uint64_t rd(X86Pmu *p, uint32_t msr)
{
    uint64_t v = 0xdeadbeef;

    CU_ASSERT_EQUAL(x86_pmu_msr_read(p, 0, msr, &v), MSR_OK);
    return v;
}

/* A write that must #GP and leave what the MSR reads as it was. */
static void gp_write(X86Pmu *p, uint32_t msr, uint64_t v)
{
    uint64_t before = 0, after = 0;
    bool readable = x86_pmu_msr_read(p, 0, msr, &before) == MSR_OK;

    CU_ASSERT_EQUAL(x86_pmu_msr_write(p, 0, msr, v), MSR_GP);
    if (readable) {
        x86_pmu_msr_read(p, 0, msr, &after);
        CU_ASSERT_EQUAL(after, before);
    }
}

/* An MSR the description lacks: read and write #GP. */
static void gp_both(X86Pmu *p, uint32_t msr)
{
    uint64_t v;

    CU_ASSERT_EQUAL(x86_pmu_msr_read(p, 0, msr, &v), MSR_GP);
    CU_ASSERT_EQUAL(x86_pmu_msr_write(p, 0, msr, 0), MSR_GP);
}

/* GP counter @i counts perf config @config with @flags (EN and more). */
static void program(X86Pmu *p, unsigned i, uint64_t config, uint64_t flags)
{
    wr(p, MSR_IA32_PERFEVTSEL0 + i, config | flags);
}

static uint64_t pmc(X86Pmu *p, unsigned i)
{
    return rd(p, MSR_IA32_PMC0 + i);
}

/*
 * Leaf 0xA decoded as Linux: intel.c:569-574 (ARCH_PERFMON), intel/core.c
 * 8014-8046 (EBX length, version, counters, width, fixed counters: v5
 * the ECX bitmap, before at least 3 without the hypervisor bit), and
 * the design's table (§1.1).
 */
static void test_cpuid(void)
{
    static const struct {
        const X86PmuDesc *d;
        uint32_t version, gp, fixed_bitmap;
        bool anythread_deprecated;
    } want[] = {
        { &x86_pmu_desc_goldmont, 4, 4, 0, false },
        { &x86_pmu_desc_sapphirerapids, 5, 8, 0x7, true },
    };

    for (unsigned k = 0; k < G_N_ELEMENTS(want); k++) {
        const X86PmuDesc *d = want[k].d;
        uint32_t a, b, c, dx, version, fixed;

        CU_ASSERT_FALSE(x86_pmu_cpuid(d, 0x9, 0, &a, &b, &c, &dx));
        CU_ASSERT_FALSE(x86_pmu_cpuid(d, 0xb, 0, &a, &b, &c, &dx));
        CU_ASSERT_TRUE_FATAL(x86_pmu_cpuid(d, 0xa, 0, &a, &b, &c, &dx));
        version = a & 0xff;
        /* X86_FEATURE_ARCH_PERFMON */
        CU_ASSERT_TRUE(version != 0 && (a >> 8 & 0xff) > 1);
        /* ARCH_PERFMON_EVENTS_COUNT, else -ENODEV */
        CU_ASSERT_TRUE((a >> 24) >= 7);
        CU_ASSERT_EQUAL(version, want[k].version);
        CU_ASSERT_EQUAL(a >> 8 & 0xff, want[k].gp);
        CU_ASSERT_EQUAL(a >> 16 & 0xff, 48);
        /* No architectural event missing (intel_arch_events_quirk). */
        CU_ASSERT_EQUAL(b & 0x7f, 0);
        CU_ASSERT_EQUAL(c, want[k].fixed_bitmap);
        fixed = version >= 5 ? (uint32_t)__builtin_popcount(c) : dx & 0x1f;
        CU_ASSERT_EQUAL(fixed, 3);
        CU_ASSERT_EQUAL(dx >> 5 & 0xff, 48);
        CU_ASSERT_EQUAL(!!(dx & (1u << 15)), want[k].anythread_deprecated);
        CU_ASSERT_PTR_EQUAL(x86_pmu_desc_find(d->name), d);
    }
    CU_ASSERT_PTR_NULL(x86_pmu_desc_find("skylake"));
}

/*
 * check_hw_exists (arch/x86/events/core.c:268-345) and the MSRs Linux
 * touches with plain rdmsrq/wrmsrq, which must not #GP; the full-width
 * aliases and PERF_CAPABILITIES (PDCM clear) #GP.
 */
static void test_probe(void)
{
    const X86PmuDesc *descs[] = { gmt, spr };

    for (unsigned k = 0; k < G_N_ELEMENTS(descs); k++) {
        const X86PmuDesc *d = descs[k];
        X86Pmu *p = new_pmu(d, 1);
        uint64_t v, dbg;

        for (unsigned i = 0; i < d->n_gp; i++) {
            CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERFEVTSEL0 + i) & EN, 0);
        }
        CU_ASSERT_EQUAL(rd(p, MSR_IA32_FIXED_CTR_CTRL), 0);
        /* "PMU not available due to virtualization" unless it reads back */
        v = pmc(p, 0) ^ 0xffff;
        wr(p, MSR_IA32_PMC0, v);
        CU_ASSERT_EQUAL(pmc(p, 0), v);
        CU_ASSERT_EQUAL(pmc(p, 0), 0xffff);
        /* intel_pmu_reset, __intel_pmu_{en,dis}able_all, PMI handler */
        for (unsigned i = 0; i < d->n_gp; i++) {
            wr(p, MSR_IA32_PERFEVTSEL0 + i, 0);
            wr(p, MSR_IA32_PMC0 + i, 0);
        }
        for (unsigned j = 0; j < d->n_fixed; j++) {
            wr(p, MSR_IA32_FIXED_CTR0 + j, 0);
        }
        wr(p, MSR_IA32_PERF_GLOBAL_OVF_CTRL,
           rd(p, MSR_IA32_PERF_GLOBAL_STATUS));
        wr(p, MSR_IA32_PERF_GLOBAL_CTRL, 0);
        wr(p, MSR_IA32_PERF_GLOBAL_CTRL,
           ((1ull << d->n_gp) - 1) | 7ull << 32);
        wr(p, MSR_IA32_FIXED_CTR_CTRL, 0x333);
        /* flip_smm_bit, intel_pmu_cpu_starting: DEBUGCTL read-modify-write */
        dbg = rd(p, MSR_IA32_DEBUGCTL);
        wr(p, MSR_IA32_DEBUGCTL, dbg | 1ull << 14);
        CU_ASSERT_EQUAL(rd(p, MSR_IA32_DEBUGCTL), dbg | 1ull << 14);
        wr(p, MSR_IA32_DEBUGCTL, dbg & ~(1ull << 14));
        gp_both(p, MSR_IA32_A_PMC0);
        gp_both(p, MSR_IA32_PERF_CAPABILITIES);
        x86_pmu_free(p);
    }
}

/*
 * Reserved bits #GP and leave the value; STATUS is read-only; OVF_CTRL
 * clears only the bits written, STATUS_SET sets them; counters and
 * controls beyond the description #GP; addresses outside the PMU's
 * ranges are not the PMU's.
 */
static void test_msr_gp(void)
{
    const X86PmuDesc *descs[] = { gmt, spr };

    for (unsigned k = 0; k < G_N_ELEMENTS(descs); k++) {
        const X86PmuDesc *d = descs[k];
        X86Pmu *p = new_pmu(d, 1);
        uint64_t status_bits = ((1ull << d->n_gp) - 1) | 7ull << 32;
        uint64_t v;

        wr(p, MSR_IA32_PERFEVTSEL0, CYCLES | USR | EN);
        gp_write(p, MSR_IA32_PERFEVTSEL0, 1ull << 32 | CYCLES);
        if (d->n_gp < 8) {
            gp_both(p, MSR_IA32_PERFEVTSEL0 + d->n_gp);
            gp_both(p, MSR_IA32_PMC0 + d->n_gp);
        }
        wr(p, MSR_IA32_FIXED_CTR_CTRL, 0xfff);
        gp_write(p, MSR_IA32_FIXED_CTR_CTRL, 0x1fff);
        gp_both(p, MSR_IA32_FIXED_CTR0 + 3);
        wr(p, MSR_IA32_FIXED_CTR0, CTR_MASK);
        gp_write(p, MSR_IA32_FIXED_CTR0, 1ull << 48);
        wr(p, MSR_IA32_PERF_GLOBAL_CTRL, status_bits);
        gp_write(p, MSR_IA32_PERF_GLOBAL_CTRL, 1ull << d->n_gp);
        gp_write(p, MSR_IA32_PERF_GLOBAL_CTRL, 1ull << 35);
        CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_CTRL), status_bits);
        gp_write(p, MSR_IA32_PERF_GLOBAL_STATUS, 0);

        /* v4+: STATUS_SET sets, OVF_CTRL (STATUS_RESET) clears */
        wr(p, MSR_IA32_PERF_GLOBAL_STATUS_SET, 1ull << 1 | 1ull << 33);
        CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS),
                        1ull << 1 | 1ull << 33);
        CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS_SET), 0);
        gp_write(p, MSR_IA32_PERF_GLOBAL_STATUS_SET, 1ull << 40);
        wr(p, MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1ull << 33);
        CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS), 1ull << 1);
        CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_OVF_CTRL), 0);
        CU_ASSERT_EQUAL(x86_pmu_msr_write(p, 0, MSR_IA32_PERF_GLOBAL_OVF_CTRL,
                                          1ull << 1 | 1ull << 40),
                        MSR_GP);
        CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS), 1ull << 1);

        /* Not the PMU's: the TSC, MISC_ENABLE, RDT's PQR_ASSOC */
        CU_ASSERT_EQUAL(x86_pmu_msr_read(p, 0, 0x10, &v), MSR_NOT_MINE);
        CU_ASSERT_EQUAL(x86_pmu_msr_write(p, 0, 0x1a0, 0),
                        MSR_NOT_MINE);
        CU_ASSERT_EQUAL(x86_pmu_msr_read(p, 0, 0xc8f, &v),
                        MSR_NOT_MINE);
        x86_pmu_free(p);
    }
}

/*
 * Legacy counter writes (no FW_WRITE): bits 31:0 sign-extended to 48, so
 * Linux's x86_perf_event_set_period value (-left) & mask counts left
 * events to the overflow; a 48-bit value keeps only its low 32 bits.
 */
static void test_sign_extend(void)
{
    X86Pmu *p = new_pmu(gmt, 1);

    wr(p, MSR_IA32_PMC0, (-1000ull) & CTR_MASK);
    CU_ASSERT_EQUAL(pmc(p, 0), (1ull << 48) - 1000);
    program(p, 0, CACHE_MISSES, OS | EN);
    wr(p, MSR_IA32_PERF_GLOBAL_CTRL, 1);
    for (unsigned i = 0; i < 999; i++) {
        x86_pmu_access(p, 0, MEMREQ_READ, MEMSYS_MEM, 0);
    }
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS), 0);
    CU_ASSERT_EQUAL(pmc(p, 0), CTR_MASK);
    x86_pmu_access(p, 0, MEMREQ_READ, MEMSYS_MEM, 0);
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS), 1);
    CU_ASSERT_EQUAL(pmc(p, 0), 0);

    wr(p, MSR_IA32_PMC0 + 1, 0x123480000000ull);
    CU_ASSERT_EQUAL(pmc(p, 1), 0xffff80000000ull);
    wr(p, MSR_IA32_PMC0 + 1, 0xfff7fffffffull);
    CU_ASSERT_EQUAL(pmc(p, 1), 0x7fffffffull);
    x86_pmu_free(p);
}

/* A hierarchy (hw/memsys) over the RDT shared side of L3 domain 0. */
/*
 * vCPU 0 at @cpl with CLOSID @closid reads each line of [base, base +
 * size) once, each outcome to the PMU as timing_cpu_access will.
 */
static void stream(Machine *mc, X86Pmu *p, unsigned cpl, uint32_t closid,
                   uint64_t base, uint64_t size)
{
    MemsysOutcome out;

    CU_ASSERT_EQUAL(rdt_msr_write(mc->rdt, 0, MSR_IA32_PQR_ASSOC,
                                  (uint64_t)closid << 32), MSR_OK);
    for (uint64_t a = base; a < base + size; a += LINE) {
        MemReq q = {
            .addr = a, .size = LINE, .kind = MEMREQ_READ, .src = 0,
            .label = rdt_label_for(mc->rdt, 0),
        };

        memsys_cpu_access(mc->m, mc->cpu, &q, &out);
        x86_pmu_access(p, 0, MEMREQ_READ, out.level, cpl);
    }
}

/*
 * The CAT selftest's event (0x412e, exclude_kernel) through the
 * hierarchy: CLOSID 1 (L3 ways 0-1, 4 MiB) reads 1 MiB at CPL 3, all L3
 * misses; CLOSID 2 (the other 13 ways) reads 8 MiB at CPL 0, which pushes
 * the 1 MiB out of the 2 MiB L2 but not out of CLOSID 1's ways; CLOSID 1
 * reads the 1 MiB again: L2 misses, L3 hits.  USR misses = the first
 * pass, USR references = both passes, OS misses = the 8 MiB; nothing
 * counts with GLOBAL_CTRL clear.
 */
static void test_llc_usr(void)
{
    const uint64_t r_lines = 1 * MiB / LINE, k_lines = 8 * MiB / LINE;
    X86Pmu *p = new_pmu(spr, 1);
    Machine mc;

    machine_init_tap(&mc, NULL, NULL);
    CU_ASSERT_EQUAL(rdt_msr_write(mc.rdt, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0x3),
                    MSR_OK);
    CU_ASSERT_EQUAL(rdt_msr_write(mc.rdt, 0, MSR_IA32_L3_QOS_MASK_0 + 2,
                                  0x7ffc), MSR_OK);
    program(p, 0, CACHE_MISSES, USR | EN);
    program(p, 1, CACHE_REFERENCES, USR | EN);
    program(p, 2, CACHE_MISSES, OS | EN);
    wr(p, MSR_IA32_PERF_GLOBAL_CTRL, 0x7);

    stream(&mc, p, 3, 1, 0, 1 * MiB);
    stream(&mc, p, 0, 2, 1 * GiB, 8 * MiB);
    stream(&mc, p, 3, 1, 0, 1 * MiB);
    CU_ASSERT_EQUAL(pmc(p, 0), r_lines);
    CU_ASSERT_EQUAL(pmc(p, 1), 2 * r_lines);
    CU_ASSERT_EQUAL(pmc(p, 2), k_lines);

    wr(p, MSR_IA32_PERF_GLOBAL_CTRL, 0);
    stream(&mc, p, 3, 1, 2 * GiB, 1 * MiB);
    stream(&mc, p, 0, 1, 3 * GiB, 1 * MiB);
    CU_ASSERT_EQUAL(pmc(p, 0), r_lines);
    CU_ASSERT_EQUAL(pmc(p, 1), 2 * r_lines);
    CU_ASSERT_EQUAL(pmc(p, 2), k_lines);
    machine_fini(&mc);
    x86_pmu_free(p);
}

/*
 * pseudo_lock_measure 2 (pseudo_lock.c:286-300, 380-398) with outcomes
 * given directly (Goldmont has no L3, so no RdtMemsys to stream
 * through): the kernel reads a 256 KiB region at 32-byte strides, the
 * first read of a line from the L2 when the region is locked (from memory
 * when not), the second an L1 hit; the loop's fetches and stack stores,
 * a user-mode load and the neighbour vCPU's streaming also happen.
 * L2_HIT and L2_MISS are opened pinned, exclude_user: only kernel loads
 * count.
 */
static void test_l2_goldmont(void)
{
    const uint64_t lines = 256 * KiB / LINE;

    for (unsigned locked = 0; locked < 2; locked++) {
        X86Pmu *p = new_pmu(gmt, 2);
        uint8_t first = locked ? MEMSYS_L2 : MEMSYS_MEM;

        for (unsigned cpu = 0; cpu < 2; cpu++) {
            CU_ASSERT_EQUAL(x86_pmu_msr_write(p, cpu, MSR_IA32_PERFEVTSEL0,
                                              L2_HIT | OS | EN),
                            MSR_OK);
            CU_ASSERT_EQUAL(x86_pmu_msr_write(p, cpu,
                                              MSR_IA32_PERFEVTSEL0 + 1,
                                              L2_MISS | OS | EN),
                            MSR_OK);
            CU_ASSERT_EQUAL(x86_pmu_msr_write(p, cpu,
                                              MSR_IA32_PERF_GLOBAL_CTRL, 3),
                            MSR_OK);
        }
        for (uint64_t a = 0; a < 256 * KiB; a += 32) {
            x86_pmu_access(p, 0, MEMREQ_READ,
                           a % LINE ? MEMSYS_L1 : first, 0);
            x86_pmu_access(p, 0, MEMREQ_FETCH, MEMSYS_L2, 0);
            x86_pmu_access(p, 0, MEMREQ_WRITE, MEMSYS_L2, 0);
            x86_pmu_access(p, 0, MEMREQ_READ, MEMSYS_L2, 3);
            x86_pmu_access(p, 0, MEMREQ_WRITE, MEMSYS_MEM, 0);
            x86_pmu_access(p, 1, MEMREQ_READ, MEMSYS_MEM, 0);
        }
        CU_ASSERT_EQUAL(pmc(p, 0), locked ? lines : 0);
        CU_ASSERT_EQUAL(pmc(p, 1), locked ? 0 : lines);
        x86_pmu_free(p);
    }
}

/* The vCPU clock the tests drive (X86PmuClockFn). */
typedef struct Clock {
    uint64_t fs, insns;
} Clock;

static void clock_now(void *opaque, unsigned cpu, uint64_t *now_fs,
                      uint64_t *insns)
{
    const Clock *c = opaque;

    *now_fs = c->fs;
    *insns = c->insns;
}

/* Clock ticks at @mhz in @fs femtoseconds from 0 (whole ticks). */
static uint64_t ticks(uint64_t fs, uint32_t mhz)
{
    return fs * mhz / US_FS;
}

/*
 * Time events: cycles = modeled time x timing MHz, ref = time x TSC MHz,
 * instructions = what the vCPU executed (1500 in a microsecond of 2400
 * cycles: the rest is stall), each with its USR/OS split at the CPL
 * change; folds at arbitrary instants add up to the whole; the overflow
 * time is exact for cycles and never late for instructions.
 */
static void test_time(void)
{
    X86Pmu *p = new_pmu(spr, 1);
    Clock clk = { 0, 0 };
    uint64_t at, v;

    x86_pmu_set_clock(p, clock_now, &clk);
    x86_pmu_fold(p, 0, 0, 0, 3);
    program(p, 0, CYCLES, USR | EN);
    program(p, 1, INSTRUCTIONS, USR | OS | EN);
    program(p, 2, REF_CYCLES, OS | EN);
    wr(p, MSR_IA32_FIXED_CTR_CTRL, 0x3 | 0x1 << 4 | 0x2 << 8);
    wr(p, MSR_IA32_PERF_GLOBAL_CTRL, 0x7 | 0x7ull << 32);

    clk = (Clock){ 1 * US_FS, 1500 };
    x86_pmu_fold(p, 0, clk.fs, clk.insns, 0);
    clk = (Clock){ 1 * US_FS + US_FS / 2, 2100 };
    CU_ASSERT_EQUAL(pmc(p, 0), 2400);
    CU_ASSERT_EQUAL(pmc(p, 1), 2100);
    CU_ASSERT_EQUAL(pmc(p, 2), 1000);
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_FIXED_CTR0), 2100);
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_FIXED_CTR0 + 1), 1200);
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_FIXED_CTR0 + 2), 2000);

    /* 2400 folds a cycle and a fraction apart: whole ticks of the total */
    wr(p, MSR_IA32_FIXED_CTR0 + 1, 0);
    for (unsigned i = 0; i < 2400; i++) {
        clk.fs += 416667;
        x86_pmu_fold(p, 0, clk.fs, clk.insns, 0);
    }
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_FIXED_CTR0 + 1),
                    ticks(clk.fs, 2400) - ticks(3 * US_FS / 2, 2400));

    /* Overflow of cycles, 1000 to go: exact */
    wr(p, MSR_IA32_PERF_GLOBAL_CTRL, 0);
    wr(p, MSR_IA32_PMC0, -1000ull);
    program(p, 0, CYCLES, OS | EN);
    wr(p, MSR_IA32_PERF_GLOBAL_CTRL, 1);
    at = x86_pmu_next_overflow_fs(p, 0);
    CU_ASSERT_EQUAL(ticks(at, 2400) - ticks(clk.fs, 2400), 1000);
    CU_ASSERT_EQUAL(ticks(at - 1, 2400) - ticks(clk.fs, 2400), 999);
    clk.fs = at - 1;
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS), 0);
    clk.fs = at;
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS), 1);

    /* Instructions, 1000 to go: before 1000 cycles at one a cycle */
    wr(p, MSR_IA32_PERF_GLOBAL_CTRL, 0);
    wr(p, MSR_IA32_PMC0 + 1, -1000ull);
    wr(p, MSR_IA32_PERF_GLOBAL_CTRL, 2);
    at = x86_pmu_next_overflow_fs(p, 0);
    CU_ASSERT_TRUE(at >= clk.fs && at <= clk.fs + 1000 * US_FS / 2400);
    /* Nothing counting: no overflow to wait for */
    wr(p, MSR_IA32_PERF_GLOBAL_CTRL, 0);
    CU_ASSERT_EQUAL(x86_pmu_next_overflow_fs(p, 0), UINT64_MAX);
    v = pmc(p, 1);
    CU_ASSERT_EQUAL(v, (1ull << 48) - 1000);
    x86_pmu_free(p);
}

/*
 * Overflow: from 2^48 - 2 the second event sets STATUS, wraps to 0 and,
 * with INT, asks for one PMI; without INT only STATUS; the fixed
 * counters' nibble bit 3 likewise; OVF_CTRL clears.
 */
static void test_overflow_pmi(void)
{
    X86Pmu *p = new_pmu(gmt, 1);
    uint64_t all = 0x3 | 0x6ull << 32;

    program(p, 0, CACHE_MISSES, OS | EN | INT);
    program(p, 1, CACHE_MISSES, OS | EN);
    wr(p, MSR_IA32_PMC0, -2ull);
    wr(p, MSR_IA32_PMC0 + 1, -2ull);
    wr(p, MSR_IA32_FIXED_CTR0 + 1, CTR_MASK - 1);
    wr(p, MSR_IA32_FIXED_CTR0 + 2, CTR_MASK - 1);
    wr(p, MSR_IA32_FIXED_CTR_CTRL, 0x9 << 4 | 0x1 << 8);
    wr(p, MSR_IA32_PERF_GLOBAL_CTRL, all);

    x86_pmu_access(p, 0, MEMREQ_READ, MEMSYS_MEM, 0);
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS), 0);
    CU_ASSERT_FALSE(x86_pmu_take_pmi(p, 0));
    x86_pmu_access(p, 0, MEMREQ_READ, MEMSYS_MEM, 0);
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS), 0x3);
    CU_ASSERT_EQUAL(pmc(p, 0), 0);
    CU_ASSERT_EQUAL(pmc(p, 1), 0);
    CU_ASSERT_TRUE(x86_pmu_take_pmi(p, 0));
    CU_ASSERT_FALSE(x86_pmu_take_pmi(p, 0));
    wr(p, MSR_IA32_PERF_GLOBAL_OVF_CTRL, 0x3);

    /* Fixed 2 (no PMI bit) overflows alone first, then fixed 1 */
    wr(p, MSR_IA32_FIXED_CTR0 + 1, CTR_MASK - 2399);
    x86_pmu_fold(p, 0, US_FS / 2, 0, 0);
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS), 1ull << 34);
    CU_ASSERT_FALSE(x86_pmu_take_pmi(p, 0));
    x86_pmu_fold(p, 0, US_FS, 0, 0);
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS), 0x6ull << 32);
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_FIXED_CTR0 + 1), 0);
    CU_ASSERT_TRUE(x86_pmu_take_pmi(p, 0));
    wr(p, MSR_IA32_PERF_GLOBAL_OVF_CTRL, rd(p, MSR_IA32_PERF_GLOBAL_STATUS));
    CU_ASSERT_EQUAL(rd(p, MSR_IA32_PERF_GLOBAL_STATUS), 0);
    x86_pmu_free(p);
}

/*
 * RDPMC: ECX 0..n-1 the GP counters, (1 << 30) | j the fixed ones, any
 * other index #GP; the value is folded to the vCPU's clock first.
 */
static void test_rdpmc(void)
{
    X86Pmu *p = new_pmu(spr, 1);
    Clock clk = { 0, 0 };
    uint64_t v;

    x86_pmu_set_clock(p, clock_now, &clk);
    for (unsigned i = 0; i < spr->n_gp; i++) {
        wr(p, MSR_IA32_PMC0 + i, 100 + i);
    }
    for (unsigned i = 0; i < spr->n_gp; i++) {
        CU_ASSERT_TRUE(x86_pmu_rdpmc(p, 0, i, &v));
        CU_ASSERT_EQUAL(v, 100 + i);
    }
    CU_ASSERT_FALSE(x86_pmu_rdpmc(p, 0, spr->n_gp, &v));
    CU_ASSERT_FALSE(x86_pmu_rdpmc(p, 0, X86PMU_RDPMC_FIXED | 3, &v));
    CU_ASSERT_FALSE(x86_pmu_rdpmc(p, 0, 1u << 29, &v));

    wr(p, MSR_IA32_FIXED_CTR_CTRL, 0x111);
    wr(p, MSR_IA32_PERF_GLOBAL_CTRL, 0x7ull << 32);
    clk = (Clock){ 2 * US_FS, 3000 };
    CU_ASSERT_TRUE(x86_pmu_rdpmc(p, 0, X86PMU_RDPMC_FIXED | 0, &v));
    CU_ASSERT_EQUAL(v, 3000);
    CU_ASSERT_TRUE(x86_pmu_rdpmc(p, 0, X86PMU_RDPMC_FIXED | 1, &v));
    CU_ASSERT_EQUAL(v, 4800);
    CU_ASSERT_TRUE(x86_pmu_rdpmc(p, 0, X86PMU_RDPMC_FIXED | 2, &v));
    CU_ASSERT_EQUAL(v, 4000);
    x86_pmu_free(p);
}

/*
 * Linux's check_msr(msr, 0x11) (intel/core.c:6883-6925): read, write the
 * value XOR 0x11, read it back, restore.  It must pass on SPR's four extra
 * registers (trusted blindly without the hypervisor bit) and fail with
 * #GP on Goldmont's LBR and offcore MSRs (probed, then turned off).
 */
static bool check_msr(X86Pmu *p, uint32_t msr)
{
    uint64_t old, back;

    if (x86_pmu_msr_read(p, 0, msr, &old) != MSR_OK ||
        x86_pmu_msr_write(p, 0, msr, old ^ 0x11) != MSR_OK ||
        x86_pmu_msr_read(p, 0, msr, &back) != MSR_OK ||
        back != (old ^ 0x11)) {
        return false;
    }
    return x86_pmu_msr_write(p, 0, msr, old) == MSR_OK;
}

static void test_extra_msrs(void)
{
    static const uint32_t glc_extra[] = { 0x1a6, 0x1a7, 0x3f6, 0x3f7 };
    X86Pmu *s = new_pmu(spr, 1);
    X86Pmu *g = new_pmu(gmt, 1);

    for (unsigned i = 0; i < G_N_ELEMENTS(glc_extra); i++) {
        CU_ASSERT_TRUE(check_msr(s, glc_extra[i]));
        CU_ASSERT_FALSE(check_msr(g, glc_extra[i]));
    }
    /* intel_pmu_lbr_init_skl: TOS, 32 FROM/TO/INFO, SELECT */
    CU_ASSERT_FALSE(check_msr(g, MSR_LBR_TOS));
    CU_ASSERT_FALSE(check_msr(g, MSR_LBR_SELECT));
    for (unsigned i = 0; i < 32; i++) {
        CU_ASSERT_FALSE(check_msr(g, MSR_LBR_NHM_FROM + i));
        CU_ASSERT_FALSE(check_msr(g, MSR_LBR_NHM_TO + i));
        CU_ASSERT_FALSE(check_msr(g, MSR_LBR_INFO_0 + i));
    }
    gp_both(g, MSR_LBR_TOS);
    gp_both(g, MSR_OFFCORE_RSP_0 + 1);
    x86_pmu_free(s);
    x86_pmu_free(g);
}

/* What @msr reads right after an accepted write of @v. */
static uint64_t readback(uint32_t msr, uint64_t v)
{
    if (msr >= MSR_IA32_PMC0 && msr < MSR_IA32_PMC0 + 8) {
        return (uint64_t)(int64_t)(int32_t)v & CTR_MASK;
    }
    if (msr == MSR_IA32_PERF_GLOBAL_OVF_CTRL ||
        msr == MSR_IA32_PERF_GLOBAL_STATUS_SET) {
        return 0;
    }
    return v;
}

/* The state word of @msr on @cpu: stored rows in table order, per vCPU. */
static uint32_t word_of(const X86PmuDesc *d, uint32_t words, unsigned cpu,
                        uint32_t msr)
{
    uint32_t w = 0;

    for (unsigned k = 0; k < x86_pmu_msr_n_defs; k++) {
        const MsrDef *def = &x86_pmu_msr_defs[k];

        if (def->read) {
            continue;
        }
        if (msr >= def->addr && msr - def->addr < def->count(d, def->arg)) {
            return cpu * words + w + msr - def->addr;
        }
        w += def->count(d, def->arg);
    }
    g_assert_not_reached();
}

/*
 * 400 000 random MSR writes with accesses and folds in between (ASan +
 * UBSan): accepted writes read back, a #GP changes nothing; the state
 * copied into another PMU reads the same everywhere; a loaded counter at
 * 2^48 or a reserved control bit is refused.
 */
static void test_migrate_fuzz(void)
{
    static const uint32_t base[] = {
        MSR_IA32_PMC0, MSR_IA32_PERFEVTSEL0, MSR_OFFCORE_RSP_0,
        MSR_IA32_DEBUGCTL, MSR_IA32_FIXED_CTR0, MSR_IA32_FIXED_CTR_CTRL - 1,
        MSR_PEBS_LD_LAT_THRESHOLD, MSR_IA32_A_PMC0, MSR_LBR_SELECT,
    };
    const X86PmuDesc *descs[] = { gmt, spr };
    GRand *rnd = g_rand_new_with_seed(10);
    uint64_t ok = 0, gps = 0;

    for (unsigned k = 0; k < G_N_ELEMENTS(descs); k++) {
        const X86PmuDesc *d = descs[k];
        X86Pmu *p = new_pmu(d, 2), *q = new_pmu(d, 2);
        uint64_t fs = 0, *st, *st2;
        uint32_t len, len2;
        char *why;

        for (unsigned i = 0; i < 200000; i++) {
            unsigned cpu = g_rand_int_range(rnd, 0, 2);
            uint32_t msr = base[g_rand_int_range(rnd, 0, G_N_ELEMENTS(base))] +
                           g_rand_int_range(rnd, 0, 10);
            uint64_t v, before = 0, after = 0;
            bool readable = x86_pmu_msr_read(p, cpu, msr, &before) ==
                            MSR_OK;
            MsrResult res;

            switch (g_rand_int_range(rnd, 0, 4)) {
            case 0: v = g_rand_int_range(rnd, 0, 1 << 24) |
                        EN | (g_rand_boolean(rnd) ? USR : OS); break;
            case 1: v = 1ull << g_rand_int_range(rnd, 0, 64); break;
            case 2: v = (uint64_t)g_rand_int(rnd) << 32 | g_rand_int(rnd);
                break;
            default: v = (1ull << g_rand_int_range(rnd, 1, 36)) - 1; break;
            }
            res = x86_pmu_msr_write(p, cpu, msr, v);
            if (res == MSR_OK) {
                ok++;
                CU_ASSERT_EQUAL(x86_pmu_msr_read(p, cpu, msr, &after),
                                MSR_OK);
                CU_ASSERT_EQUAL(after, readback(msr, v));
            } else if (res == MSR_GP) {
                gps++;
                if (readable) {
                    x86_pmu_msr_read(p, cpu, msr, &after);
                    CU_ASSERT_EQUAL(after, before);
                }
            }
            x86_pmu_access(p, cpu, g_rand_int_range(rnd, 0, 3),
                           g_rand_int_range(rnd, MEMSYS_L1, MEMSYS_MEM + 1),
                           g_rand_int_range(rnd, 0, 4));
            if (i % 16 == 0) {
                fs += g_rand_int(rnd);
                x86_pmu_fold(p, cpu, fs, fs / 1000000,
                             g_rand_int_range(rnd, 0, 4));
                x86_pmu_take_pmi(p, cpu);
                x86_pmu_next_overflow_fs(p, cpu);
            }
        }
        CU_ASSERT_PTR_NULL(x86_pmu_post_load(p));

        st = x86_pmu_state(p, &len);
        st2 = x86_pmu_state(q, &len2);
        CU_ASSERT_EQUAL_FATAL(len, len2);
        memcpy(st2, st, len * sizeof(*st));
        CU_ASSERT_PTR_NULL(x86_pmu_post_load(q));
        for (unsigned cpu = 0; cpu < 2; cpu++) {
            for (unsigned b = 0; b < G_N_ELEMENTS(base); b++) {
                for (uint32_t msr = base[b]; msr < base[b] + 10; msr++) {
                    uint64_t a = 0, c = 0;

                    CU_ASSERT_EQUAL(x86_pmu_msr_read(p, cpu, msr, &a),
                                    x86_pmu_msr_read(q, cpu, msr, &c));
                    CU_ASSERT_EQUAL(a, c);
                }
            }
            /* the same events count on both */
            x86_pmu_access(p, cpu, MEMREQ_READ, MEMSYS_MEM, 3);
            x86_pmu_access(q, cpu, MEMREQ_READ, MEMSYS_MEM, 3);
            CU_ASSERT_EQUAL(memcmp(st, st2, len * sizeof(*st)), 0);
        }

        st2[word_of(d, len / 2, 1, MSR_IA32_PMC0 + 1)] = 1ull << 48;
        why = x86_pmu_post_load(q);
        CU_ASSERT_PTR_NOT_NULL(why);
        if (why) {
            CU_ASSERT_PTR_NOT_NULL(strstr(why, "IA32_PMCx (MSR 0xc2) of "
                                          "CPU 1"));
        }
        g_free(why);
        memcpy(st2, st, len * sizeof(*st));
        st2[word_of(d, len / 2, 0, MSR_IA32_PERFEVTSEL0)] = 1ull << 32;
        why = x86_pmu_post_load(q);
        CU_ASSERT_PTR_NOT_NULL(why);
        g_free(why);
        x86_pmu_free(p);
        x86_pmu_free(q);
    }
    printf("\n    %" G_GUINT64_FORMAT " writes accepted, %" G_GUINT64_FORMAT
           " #GP\n", ok, gps);
    CU_ASSERT_TRUE(ok > 10000 && gps > 10000);
    g_rand_free(rnd);
}

static const CunitTest tests[] = {
    { "cpuid", test_cpuid },
    { "probe", test_probe },
    { "msr_gp", test_msr_gp },
    { "sign_extend", test_sign_extend },
    { "llc_usr", test_llc_usr },
    { "l2_goldmont", test_l2_goldmont },
    { "time", test_time },
    { "overflow_pmi", test_overflow_pmi },
    { "rdpmc", test_rdpmc },
    { "extra_msrs", test_extra_msrs },
    { "migrate_fuzz", test_migrate_fuzz },
};

int main(void)
{
    return CUNIT_RUN("x86pmu", tests);
}
