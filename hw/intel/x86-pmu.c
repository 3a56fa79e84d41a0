/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x86 architectural PMU, see x86-pmu.h and docs/x86-pmu-design.md
 * §1.2-1.5 (SDM vol. 3B "Performance Monitoring"; what Linux 7.3 does
 * with each MSR is in the design's tables).
 */
#include <string.h>

#include "x86-pmu.h"

#define MAX_GP          8       /* IA32_PERFEVTSEL0..7 before 0x18E */
#define MAX_FIXED       3       /* fixed 3 (TOPDOWN.SLOTS) needs perf metrics */
#define MAX_CTRS        (MAX_GP + MAX_FIXED)
#define FS_PER_US       1000000000ull

/* What a counter counts now, from its control and GLOBAL_CTRL. */
typedef struct Ctr {
    X86PmuEvent ev;             /* src ZERO when it counts nothing */
    uint8_t rings;              /* bit 0: counts at CPL 0, bit 1: CPL 1-3 */
    bool intr;                  /* an overflow asks for a PMI */
} Ctr;

typedef struct Cpu {
    Ctr ctr[MAX_CTRS];          /* GP 0..n_gp-1, then fixed */
    bool any_access;            /* a counter counts accesses */
} Cpu;

/* Fold state after the stored MSRs of each vCPU. */
enum { FOLD_FS, FOLD_INSNS, FOLD_CPL, FOLD_PMI, FOLD_N };

struct X86Pmu {
    const X86PmuDesc *d;
    X86PmuConfig cfg;
    unsigned n_cpus;
    MsrFile f;                          /* scope 0: a vCPU; + the fold words */
    Cpu *cpus;
    X86PmuClockFn *clock;
    void *clock_opaque;
};

/* The time source of fixed counter j (SDM: 0 instructions, 1 cycles, 2 ref). */
static const X86PmuSource fixed_src[MAX_FIXED] = {
    X86PMU_SRC_INSNS, X86PMU_SRC_CYCLES, X86PMU_SRC_REF,
};

static uint64_t ones(uint32_t bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

/* GLOBAL_STATUS/CTRL/OVF_CTRL bits of the counters the part has. */
static uint64_t status_bits(const X86PmuDesc *d)
{
    return ones(d->n_gp) | ones(d->n_fixed) << X86PMU_FIXED_BIT;
}

static uint64_t status_valid(const void *desc, unsigned arg)
{
    return status_bits(desc);
}

/* Counts */
static uint32_t none(const void *desc, unsigned arg)
{
    return 0;
}

static uint32_t one(const void *desc, unsigned arg)
{
    return 1;
}

static uint32_t n_gp(const void *desc, unsigned arg)
{
    const X86PmuDesc *d = desc;

    return d->n_gp;
}

static uint32_t n_fixed(const void *desc, unsigned arg)
{
    const X86PmuDesc *d = desc;

    return d->n_fixed;
}

static uint32_t v4(const void *desc, unsigned arg)
{
    const X86PmuDesc *d = desc;

    return d->version >= 4;
}

static uint32_t extra(const void *desc, unsigned arg)
{
    const X86PmuDesc *d = desc;

    return d->extra_regs ? 2 : 0;
}

/* Valid bits */
static uint64_t all(const void *desc, unsigned arg)
{
    return ~0ull;
}

/* IA32_PERFEVTSELx bits 63:32 are reserved (no v5 extensions offered). */
static uint64_t evtsel_bits(const void *desc, unsigned arg)
{
    return ones(32);
}

static uint64_t width_bits(const void *desc, unsigned arg)
{
    const X86PmuDesc *d = desc;

    return ones(d->width);
}

/* OS, USR, AnyThread (stored, no SMT), PMI per fixed counter. */
static uint64_t fixed_ctrl_bits(const void *desc, unsigned arg)
{
    const X86PmuDesc *d = desc;

    return ones(4 * d->n_fixed);
}

/* The table's rows, for the model's own use of its state. */
enum {
    DEF_PMC, DEF_A_PMC, DEF_EVTSEL, DEF_OFFCORE, DEF_LBR_CTL, DEF_DEBUGCTL,
    DEF_FIXED, DEF_CAPS, DEF_FIXED_CTRL, DEF_STATUS, DEF_GLOBAL_CTRL,
    DEF_OVF_CTRL, DEF_STATUS_SET, DEF_LDLAT, DEF_LBR_FROM, DEF_LBR_TO,
    DEF_LBR_INFO, DEF_N
};

static uint64_t *reg(const X86Pmu *p, unsigned def, unsigned cpu, uint32_t i)
{
    return msr_file_reg(&p->f, def, cpu, i);
}

static uint64_t *fold_word(const X86Pmu *p, unsigned cpu, unsigned w)
{
    return msr_file_extra(&p->f, 0, cpu, w);
}

/* Writes and reads beyond storage */

/*
 * IA32_PMCx without PERF_CAPABILITIES.FW_WRITE: bits 31:0 written,
 * sign-extended to the counter's width (SDM "Full-Width Writes to
 * Performance Counter Registers"), so Linux's (-left) & mask overflows
 * after left events.
 */
static bool wr_pmc(void *owner, unsigned cpu, uint32_t i, uint64_t v)
{
    X86Pmu *p = owner;

    *reg(p, DEF_PMC, cpu, i) = (uint64_t)(int64_t)(int32_t)v &
                               ones(p->d->width);
    return true;
}

/* IA32_PERF_GLOBAL_STATUS is read-only: any write #GPs. */
static bool wr_ro(void *owner, unsigned cpu, uint32_t i, uint64_t v)
{
    return false;
}

/* Write 1 to clear that GLOBAL_STATUS bit. */
static bool wr_ovf(void *owner, unsigned cpu, uint32_t i, uint64_t v)
{
    X86Pmu *p = owner;

    if (v & ~status_bits(p->d)) {
        return false;
    }
    *reg(p, DEF_STATUS, cpu, 0) &= ~v;
    return true;
}

/* v4+: write 1 to set that GLOBAL_STATUS bit (no PMI). */
static bool wr_status_set(void *owner, unsigned cpu, uint32_t i, uint64_t v)
{
    X86Pmu *p = owner;

    if (v & ~status_bits(p->d)) {
        return false;
    }
    *reg(p, DEF_STATUS, cpu, 0) |= v;
    return true;
}

static uint64_t rd_zero(void *owner, unsigned cpu, uint32_t i)
{
    return 0;
}

/*
 * Rows of count 0 exist so that their addresses #GP instead of reaching
 * QEMU's default (reads 0, writes ignored): full-width counters and
 * PERF_CAPABILITIES (PDCM clear), the legacy LBR MSRs (Linux's check_msr
 * then turns LBR off on Goldmont, §1.6) and, without extra_regs, the
 * offcore and PEBS extra registers.
 */
const MsrDef x86_pmu_msr_defs[DEF_N] = {
    [DEF_PMC] = { .addr = MSR_IA32_PMC0, .span = MAX_GP, .name = "IA32_PMCx",
        .count = n_gp, .valid = width_bits, .write = wr_pmc },
    [DEF_A_PMC] = { .addr = MSR_IA32_A_PMC0, .span = MAX_GP,
        .name = "IA32_A_PMCx", .count = none, .valid = all },
    [DEF_EVTSEL] = { .addr = MSR_IA32_PERFEVTSEL0, .span = MAX_GP,
        .name = "IA32_PERFEVTSELx", .count = n_gp, .valid = evtsel_bits },
    [DEF_OFFCORE] = { .addr = MSR_OFFCORE_RSP_0, .span = 2,
        .name = "MSR_OFFCORE_RSP_x", .count = extra, .valid = all },
    [DEF_LBR_CTL] = { .addr = MSR_LBR_SELECT, .span = 2,
        .name = "MSR_LBR_SELECT/TOS", .count = none, .valid = all },
    [DEF_DEBUGCTL] = { .addr = MSR_IA32_DEBUGCTL, .span = 1,
        .name = "IA32_DEBUGCTL", .count = one, .valid = all },
    [DEF_FIXED] = { .addr = MSR_IA32_FIXED_CTR0, .span = 4,
        .name = "IA32_FIXED_CTRx", .count = n_fixed, .valid = width_bits },
    [DEF_CAPS] = { .addr = MSR_IA32_PERF_CAPABILITIES, .span = 1,
        .name = "IA32_PERF_CAPABILITIES", .count = none, .valid = all },
    [DEF_FIXED_CTRL] = { .addr = MSR_IA32_FIXED_CTR_CTRL, .span = 1,
        .name = "IA32_FIXED_CTR_CTRL", .count = one, .valid = fixed_ctrl_bits },
    [DEF_STATUS] = { .addr = MSR_IA32_PERF_GLOBAL_STATUS, .span = 1,
        .name = "IA32_PERF_GLOBAL_STATUS", .count = one, .valid = status_valid,
        .write = wr_ro },
    [DEF_GLOBAL_CTRL] = { .addr = MSR_IA32_PERF_GLOBAL_CTRL, .span = 1,
        .name = "IA32_PERF_GLOBAL_CTRL", .count = one, .valid = status_valid },
    [DEF_OVF_CTRL] = { .addr = MSR_IA32_PERF_GLOBAL_OVF_CTRL, .span = 1,
        .name = "IA32_PERF_GLOBAL_OVF_CTRL", .count = one,
        .valid = status_valid, .write = wr_ovf, .read = rd_zero },
    [DEF_STATUS_SET] = { .addr = MSR_IA32_PERF_GLOBAL_STATUS_SET, .span = 1,
        .name = "IA32_PERF_GLOBAL_STATUS_SET", .count = v4,
        .valid = status_valid, .write = wr_status_set, .read = rd_zero },
    [DEF_LDLAT] = { .addr = MSR_PEBS_LD_LAT_THRESHOLD, .span = 2,
        .name = "MSR_PEBS_LD_LAT_THRESHOLD/FRONTEND", .count = extra,
        .valid = all },
    [DEF_LBR_FROM] = { .addr = MSR_LBR_NHM_FROM, .span = 32,
        .name = "MSR_LBR_NHM_FROM_x", .count = none, .valid = all },
    [DEF_LBR_TO] = { .addr = MSR_LBR_NHM_TO, .span = 32,
        .name = "MSR_LBR_NHM_TO_x", .count = none, .valid = all },
    [DEF_LBR_INFO] = { .addr = MSR_LBR_INFO_0, .span = 32,
        .name = "MSR_LBR_INFO_x", .count = none, .valid = all },
};
const unsigned x86_pmu_msr_n_defs = DEF_N;

static const char *const scope_name[] = { "CPU" };

/* Every PMU MSR is the vCPU's own. */
static unsigned instance(void *owner, unsigned scope, unsigned cpu)
{
    g_assert(cpu < ((X86Pmu *)owner)->n_cpus);
    return cpu;
}

X86Pmu *x86_pmu_new(const X86PmuDesc *d, unsigned n_cpus,
                    const X86PmuConfig *cfg, GError **errp)
{
    g_autofree char *why = NULL;
    X86Pmu *p;
    bool ok;

    if (n_cpus == 0) {
        why = g_strdup("the PMU needs at least one logical processor");
    } else if (d->version < 2 || d->n_gp < 2 || d->n_gp > MAX_GP ||
               d->n_fixed > MAX_FIXED || d->width < 32 || d->width > 48) {
        why = g_strdup_printf("PMU %s: version %u, %u counters, %u fixed, "
                              "width %u is not v2+, 2..%u, 0..%u, 32..48",
                              d->name, d->version, d->n_gp, d->n_fixed,
                              d->width, MAX_GP, MAX_FIXED);
    } else if (!cfg->timing_mhz || !cfg->tsc_mhz) {
        why = g_strdup("the PMU needs the core and TSC clock rates "
                       "(core-mhz, tsc-mhz)");
    }
    if (why) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", why);
        return NULL;
    }
    p = g_new0(X86Pmu, 1);
    p->d = d;
    p->cfg = *cfg;
    p->n_cpus = n_cpus;
    p->cpus = g_new0(Cpu, n_cpus);
    /* the checks above keep every row within its span */
    ok = msr_file_init(&p->f, x86_pmu_msr_defs, DEF_N, d, p, instance, 1,
                       scope_name, &n_cpus,
                       &(uint32_t){ FOLD_N }, NULL);
    g_assert(ok);
    x86_pmu_reset(p);
    return p;
}

void x86_pmu_free(X86Pmu *p)
{
    if (!p) {
        return;
    }
    msr_file_fini(&p->f);
    g_free(p->cpus);
    g_free(p);
}

const X86PmuDesc *x86_pmu_desc(const X86Pmu *p)
{
    return p->d;
}

void x86_pmu_set_clock(X86Pmu *p, X86PmuClockFn *fn, void *opaque)
{
    p->clock = fn;
    p->clock_opaque = opaque;
}

static unsigned n_ctrs(const X86Pmu *p)
{
    return p->d->n_gp + p->d->n_fixed;
}

/* GLOBAL_STATUS/CTRL bit of counter @k (GP, then fixed). */
static unsigned ctr_bit(const X86Pmu *p, unsigned k)
{
    return k < p->d->n_gp ? k : X86PMU_FIXED_BIT + k - p->d->n_gp;
}

static uint64_t *ctr_value(const X86Pmu *p, unsigned cpu, unsigned k)
{
    return k < p->d->n_gp ? reg(p, DEF_PMC, cpu, k)
                          : reg(p, DEF_FIXED, cpu, k - p->d->n_gp);
}

/*
 * What each counter of @cpu counts after a change of its controls: a GP
 * counter needs EN, its GLOBAL_CTRL bit and a known event; edge, inv and
 * cmask are not modeled and make it count nothing (documented).
 */
static void update(X86Pmu *p, unsigned cpu)
{
    Cpu *c = &p->cpus[cpu];
    uint64_t gctl = *reg(p, DEF_GLOBAL_CTRL, cpu, 0);
    uint64_t fctl = *reg(p, DEF_FIXED_CTRL, cpu, 0);

    c->any_access = false;
    for (unsigned k = 0; k < n_ctrs(p); k++) {
        Ctr *t = &c->ctr[k];
        bool on = gctl >> ctr_bit(p, k) & 1;

        if (k < p->d->n_gp) {
            uint64_t sel = *reg(p, DEF_EVTSEL, cpu, k);

            on = on && (sel & X86PMU_EVTSEL_EN) &&
                 !(sel & (X86PMU_EVTSEL_EDGE | X86PMU_EVTSEL_INV |
                          X86PMU_EVTSEL_CMASK)) &&
                 x86_pmu_event_match(p->d->events, p->d->n_events, p->d->llc,
                                     sel & 0xff, sel >> 8 & 0xff, &t->ev);
            t->rings = (sel & X86PMU_EVTSEL_OS ? 1 : 0) |
                       (sel & X86PMU_EVTSEL_USR ? 2 : 0);
            t->intr = sel & X86PMU_EVTSEL_INT;
        } else {
            unsigned nib = fctl >> 4 * (k - p->d->n_gp) & 0xf;

            t->ev = (X86PmuEvent){ .src = fixed_src[k - p->d->n_gp] };
            t->rings = nib & (X86PMU_FIXED_OS | X86PMU_FIXED_USR);
            t->intr = nib & X86PMU_FIXED_PMI;
        }
        if (!on) {
            t->rings = 0;
        }
        c->any_access |= t->rings && t->ev.src == X86PMU_SRC_ACCESS;
    }
}

void x86_pmu_reset(X86Pmu *p)
{
    msr_file_reset(&p->f);
    for (unsigned cpu = 0; cpu < p->n_cpus; cpu++) {
        update(p, cpu);
    }
}

static bool counts(const Ctr *t, unsigned cpl)
{
    return t->rings >> (cpl != 0) & 1;
}

/*
 * Add @n events to counter @k: past 2^width - 1 it wraps, sets its
 * GLOBAL_STATUS bit and, with its interrupt bit, makes a PMI pending.
 */
static void add(X86Pmu *p, unsigned cpu, unsigned k, uint64_t n)
{
    uint64_t *v = ctr_value(p, cpu, k);
    uint64_t sum = *v + n;

    if (sum > ones(p->d->width)) {
        *reg(p, DEF_STATUS, cpu, 0) |= 1ull << ctr_bit(p, k);
        if (p->cpus[cpu].ctr[k].intr) {
            *fold_word(p, cpu, FOLD_PMI) = 1;
        }
    }
    *v = sum & ones(p->d->width);
}

void x86_pmu_access(X86Pmu *p, unsigned cpu, MemReqKind kind, uint8_t level,
                    unsigned cpl)
{
    const Cpu *c = &p->cpus[cpu];

    if (!c->any_access) {
        return;
    }
    for (unsigned k = 0; k < p->d->n_gp; k++) {
        const X86PmuEvent *e = &c->ctr[k].ev;

        if (e->src == X86PMU_SRC_ACCESS && counts(&c->ctr[k], cpl) &&
            (e->kinds & X86PMU_KIND(kind)) &&
            level >= e->level_lo && level <= e->level_hi) {
            add(p, cpu, k, 1);
        }
    }
}

/* Clock ticks at @mhz from time 0 to @fs (whole ticks, so folds add up). */
static uint64_t ticks(uint64_t fs, uint32_t mhz)
{
    return (unsigned __int128)fs * mhz / FS_PER_US;
}

/*
 * The time counters up to (@now, @insns) at the stored CPL.  A clock
 * behind the last fold (a state loaded from another run) counts nothing
 * and becomes the new start.
 */
static void fold_to(X86Pmu *p, unsigned cpu, uint64_t now, uint64_t insns)
{
    uint64_t *last = fold_word(p, cpu, FOLD_FS);
    uint64_t *last_insns = fold_word(p, cpu, FOLD_INSNS);
    unsigned cpl = *fold_word(p, cpu, FOLD_CPL);
    uint64_t n[] = {
        [X86PMU_SRC_CYCLES] = now > *last ? ticks(now, p->cfg.timing_mhz) -
                                            ticks(*last, p->cfg.timing_mhz)
                                          : 0,
        [X86PMU_SRC_INSNS] = insns > *last_insns ? insns - *last_insns : 0,
        [X86PMU_SRC_REF] = now > *last ? ticks(now, p->cfg.tsc_mhz) -
                                         ticks(*last, p->cfg.tsc_mhz)
                                       : 0,
    };

    for (unsigned k = 0; k < n_ctrs(p); k++) {
        const Ctr *t = &p->cpus[cpu].ctr[k];

        if (t->ev.src >= X86PMU_SRC_CYCLES && counts(t, cpl)) {
            add(p, cpu, k, n[t->ev.src]);
        }
    }
    *last = now;
    *last_insns = insns;
}

void x86_pmu_fold(X86Pmu *p, unsigned cpu, uint64_t now_fs, uint64_t insns,
                  unsigned cpl)
{
    fold_to(p, cpu, now_fs, insns);
    *fold_word(p, cpu, FOLD_CPL) = cpl;
}

/* Fold before an access that reads or changes counting (CPL unchanged). */
static void fold_clock(X86Pmu *p, unsigned cpu)
{
    uint64_t now, insns;

    if (p->clock) {
        p->clock(p->clock_opaque, cpu, &now, &insns);
        fold_to(p, cpu, now, insns);
    }
}

bool x86_pmu_take_pmi(X86Pmu *p, unsigned cpu)
{
    uint64_t *pmi = fold_word(p, cpu, FOLD_PMI);
    bool was = *pmi;

    *pmi = 0;
    return was;
}

uint64_t x86_pmu_next_overflow_fs(const X86Pmu *p, unsigned cpu)
{
    uint64_t last = *fold_word(p, cpu, FOLD_FS);
    uint64_t best = UINT64_MAX;

    for (unsigned k = 0; k < n_ctrs(p); k++) {
        const Ctr *t = &p->cpus[cpu].ctr[k];
        uint64_t left = ones(p->d->width) + 1 - *ctr_value(p, cpu, k);
        uint32_t mhz = t->ev.src == X86PMU_SRC_REF ? p->cfg.tsc_mhz
                                                   : p->cfg.timing_mhz;
        unsigned __int128 at;

        /* Not only the current CPL's: a CPL change folds, never late. */
        if (!t->rings || t->ev.src < X86PMU_SRC_CYCLES) {
            continue;
        }
        if (t->ev.src == X86PMU_SRC_INSNS) {
            /* At most one instruction a cycle, starting at once. */
            at = last + (unsigned __int128)(left - 1) * FS_PER_US / mhz;
        } else {
            /* The first time ticks() has grown by left. */
            at = ((unsigned __int128)ticks(last, mhz) + left) * FS_PER_US;
            at = (at + mhz - 1) / mhz;
        }
        best = MIN(best, (uint64_t)MIN(at, (unsigned __int128)UINT64_MAX));
    }
    return best;
}

MsrResult x86_pmu_msr_read(X86Pmu *p, unsigned cpu, uint32_t msr,
                           uint64_t *val)
{
    fold_clock(p, cpu);
    return msr_file_read(&p->f, cpu, msr, val);
}

MsrResult x86_pmu_msr_write(X86Pmu *p, unsigned cpu, uint32_t msr,
                            uint64_t val)
{
    MsrResult res;

    /* Time so far counts with the controls before the write. */
    fold_clock(p, cpu);
    res = msr_file_write(&p->f, cpu, msr, val);
    if (res == MSR_OK) {
        update(p, cpu);
    }
    return res;
}

bool x86_pmu_rdpmc(X86Pmu *p, unsigned cpu, uint32_t ecx, uint64_t *val)
{
    uint32_t idx = ecx & ~X86PMU_RDPMC_FIXED;
    unsigned k = (ecx & X86PMU_RDPMC_FIXED) ? p->d->n_gp + idx : idx;

    if (idx >= ((ecx & X86PMU_RDPMC_FIXED) ? p->d->n_fixed : p->d->n_gp)) {
        return false;
    }
    fold_clock(p, cpu);
    *val = *ctr_value(p, cpu, k);
    return true;
}

uint64_t *x86_pmu_state(X86Pmu *p, uint32_t *len)
{
    return msr_file_state(&p->f, 0, len);
}

char *x86_pmu_post_load(X86Pmu *p)
{
    char *why = msr_file_check(&p->f);

    if (why) {
        return why;
    }
    for (unsigned cpu = 0; cpu < p->n_cpus; cpu++) {
        if (*fold_word(p, cpu, FOLD_CPL) > 3 ||
            *fold_word(p, cpu, FOLD_PMI) > 1) {
            return g_strdup_printf("CPU %u: CPL %" G_GUINT64_FORMAT
                                   " or PMI %" G_GUINT64_FORMAT
                                   " out of range", cpu,
                                   *fold_word(p, cpu, FOLD_CPL),
                                   *fold_word(p, cpu, FOLD_PMI));
        }
    }
    for (unsigned cpu = 0; cpu < p->n_cpus; cpu++) {
        update(p, cpu);
    }
    return NULL;
}
