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
    uint32_t words;                     /* state words per vCPU */
    uint32_t fold;                      /* the first fold word */
    uint32_t *off;                      /* [def]: first word of its row */
    uint64_t *regs;                     /* [cpu * words + off + i] */
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

/* Counts */
static uint32_t none(const X86PmuDesc *d)
{
    return 0;
}

static uint32_t one(const X86PmuDesc *d)
{
    return 1;
}

static uint32_t n_gp(const X86PmuDesc *d)
{
    return d->n_gp;
}

static uint32_t n_fixed(const X86PmuDesc *d)
{
    return d->n_fixed;
}

static uint32_t v4(const X86PmuDesc *d)
{
    return d->version >= 4;
}

static uint32_t extra(const X86PmuDesc *d)
{
    return d->extra_regs ? 2 : 0;
}

/* Valid bits */
static uint64_t all(const X86PmuDesc *d)
{
    return ~0ull;
}

/* IA32_PERFEVTSELx bits 63:32 are reserved (no v5 extensions offered). */
static uint64_t evtsel_bits(const X86PmuDesc *d)
{
    return ones(32);
}

static uint64_t width_bits(const X86PmuDesc *d)
{
    return ones(d->width);
}

/* OS, USR, AnyThread (stored, no SMT), PMI per fixed counter. */
static uint64_t fixed_ctrl_bits(const X86PmuDesc *d)
{
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
    g_assert(cpu < p->n_cpus);
    return &p->regs[(size_t)cpu * p->words + p->off[def] + i];
}

static uint64_t *fold_word(const X86Pmu *p, unsigned cpu, unsigned w)
{
    g_assert(cpu < p->n_cpus);
    return &p->regs[(size_t)cpu * p->words + p->fold + w];
}

/* Writes and reads beyond storage */

/*
 * IA32_PMCx without PERF_CAPABILITIES.FW_WRITE: bits 31:0 written,
 * sign-extended to the counter's width (SDM "Full-Width Writes to
 * Performance Counter Registers"), so Linux's (-left) & mask overflows
 * after left events.
 */
static bool wr_pmc(X86Pmu *p, unsigned cpu, uint32_t i, uint64_t v)
{
    *reg(p, DEF_PMC, cpu, i) = (uint64_t)(int64_t)(int32_t)v &
                               ones(p->d->width);
    return true;
}

/* IA32_PERF_GLOBAL_STATUS is read-only: any write #GPs. */
static bool wr_ro(X86Pmu *p, unsigned cpu, uint32_t i, uint64_t v)
{
    return false;
}

/* Write 1 to clear that GLOBAL_STATUS bit. */
static bool wr_ovf(X86Pmu *p, unsigned cpu, uint32_t i, uint64_t v)
{
    if (v & ~status_bits(p->d)) {
        return false;
    }
    *reg(p, DEF_STATUS, cpu, 0) &= ~v;
    return true;
}

/* v4+: write 1 to set that GLOBAL_STATUS bit (no PMI). */
static bool wr_status_set(X86Pmu *p, unsigned cpu, uint32_t i, uint64_t v)
{
    if (v & ~status_bits(p->d)) {
        return false;
    }
    *reg(p, DEF_STATUS, cpu, 0) |= v;
    return true;
}

static uint64_t rd_zero(const X86Pmu *p, unsigned cpu, uint32_t i)
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
const X86PmuMsrDef x86_pmu_msr_defs[DEF_N] = {
    [DEF_PMC] = { MSR_IA32_PMC0, MAX_GP, "IA32_PMCx",
                  n_gp, width_bits, wr_pmc, NULL },
    [DEF_A_PMC] = { MSR_IA32_A_PMC0, MAX_GP, "IA32_A_PMCx",
                    none, all, NULL, NULL },
    [DEF_EVTSEL] = { MSR_IA32_PERFEVTSEL0, MAX_GP, "IA32_PERFEVTSELx",
                     n_gp, evtsel_bits, NULL, NULL },
    [DEF_OFFCORE] = { MSR_OFFCORE_RSP_0, 2, "MSR_OFFCORE_RSP_x",
                      extra, all, NULL, NULL },
    [DEF_LBR_CTL] = { MSR_LBR_SELECT, 2, "MSR_LBR_SELECT/TOS",
                      none, all, NULL, NULL },
    [DEF_DEBUGCTL] = { MSR_IA32_DEBUGCTL, 1, "IA32_DEBUGCTL",
                       one, all, NULL, NULL },
    [DEF_FIXED] = { MSR_IA32_FIXED_CTR0, 4, "IA32_FIXED_CTRx",
                    n_fixed, width_bits, NULL, NULL },
    [DEF_CAPS] = { MSR_IA32_PERF_CAPABILITIES, 1, "IA32_PERF_CAPABILITIES",
                   none, all, NULL, NULL },
    [DEF_FIXED_CTRL] = { MSR_IA32_FIXED_CTR_CTRL, 1, "IA32_FIXED_CTR_CTRL",
                         one, fixed_ctrl_bits, NULL, NULL },
    [DEF_STATUS] = { MSR_IA32_PERF_GLOBAL_STATUS, 1,
                     "IA32_PERF_GLOBAL_STATUS",
                     one, status_bits, wr_ro, NULL },
    [DEF_GLOBAL_CTRL] = { MSR_IA32_PERF_GLOBAL_CTRL, 1,
                          "IA32_PERF_GLOBAL_CTRL",
                          one, status_bits, NULL, NULL },
    [DEF_OVF_CTRL] = { MSR_IA32_PERF_GLOBAL_OVF_CTRL, 1,
                       "IA32_PERF_GLOBAL_OVF_CTRL",
                       one, status_bits, wr_ovf, rd_zero },
    [DEF_STATUS_SET] = { MSR_IA32_PERF_GLOBAL_STATUS_SET, 1,
                         "IA32_PERF_GLOBAL_STATUS_SET",
                         v4, status_bits, wr_status_set, rd_zero },
    [DEF_LDLAT] = { MSR_PEBS_LD_LAT_THRESHOLD, 2,
                    "MSR_PEBS_LD_LAT_THRESHOLD/FRONTEND",
                    extra, all, NULL, NULL },
    [DEF_LBR_FROM] = { MSR_LBR_NHM_FROM, 32, "MSR_LBR_NHM_FROM_x",
                       none, all, NULL, NULL },
    [DEF_LBR_TO] = { MSR_LBR_NHM_TO, 32, "MSR_LBR_NHM_TO_x",
                     none, all, NULL, NULL },
    [DEF_LBR_INFO] = { MSR_LBR_INFO_0, 32, "MSR_LBR_INFO_x",
                       none, all, NULL, NULL },
};
const unsigned x86_pmu_msr_n_defs = DEF_N;

X86Pmu *x86_pmu_new(const X86PmuDesc *d, unsigned n_cpus,
                    const X86PmuConfig *cfg, GError **errp)
{
    g_autofree char *why = NULL;
    X86Pmu *p;

    if (n_cpus == 0) {
        why = g_strdup("the PMU needs at least one logical processor");
    } else if (d->version < 2 || d->n_gp < 2 || d->n_gp > MAX_GP ||
               d->n_fixed > MAX_FIXED || d->width < 32 || d->width > 48) {
        why = g_strdup_printf("PMU %s: version %u, %u counters, %u fixed, "
                              "width %u is not v2+, 2..%u, 0..%u, 32..48",
                              d->name, d->version, d->n_gp, d->n_fixed,
                              d->width, MAX_GP, MAX_FIXED);
    } else if (!cfg->timing_mhz || !cfg->tsc_mhz) {
        why = g_strdup("the PMU needs the core and TSC clock rates");
    }
    if (why) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", why);
        return NULL;
    }
    p = g_new0(X86Pmu, 1);
    p->d = d;
    p->cfg = *cfg;
    p->n_cpus = n_cpus;
    p->off = g_new0(uint32_t, x86_pmu_msr_n_defs);
    for (unsigned k = 0; k < x86_pmu_msr_n_defs; k++) {
        const X86PmuMsrDef *def = &x86_pmu_msr_defs[k];

        p->off[k] = p->words;
        if (!def->read) {
            p->words += def->count(d);
        }
    }
    p->fold = p->words;
    p->words += FOLD_N;
    p->regs = g_new0(uint64_t, (size_t)n_cpus * p->words);
    p->cpus = g_new0(Cpu, n_cpus);
    x86_pmu_reset(p);
    return p;
}

void x86_pmu_free(X86Pmu *p)
{
    if (!p) {
        return;
    }
    g_free(p->off);
    g_free(p->regs);
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
    memset(p->regs, 0, (size_t)p->n_cpus * p->words * sizeof(uint64_t));
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

/* The definition and register index of @msr, or -1; *@range: in a span. */
static int find(const X86PmuDesc *d, uint32_t msr, uint32_t *i, bool *range)
{
    *range = false;
    for (unsigned k = 0; k < x86_pmu_msr_n_defs; k++) {
        const X86PmuMsrDef *def = &x86_pmu_msr_defs[k];

        if (msr >= def->addr && msr - def->addr < def->span) {
            *range = true;
            if (msr - def->addr < def->count(d)) {
                *i = msr - def->addr;
                return k;
            }
        }
    }
    return -1;
}

X86PmuMsrResult x86_pmu_msr_read(X86Pmu *p, unsigned cpu, uint32_t msr,
                                 uint64_t *val)
{
    uint32_t i;
    bool range;
    int k = find(p->d, msr, &i, &range);
    const X86PmuMsrDef *def;

    if (k < 0) {
        return range ? X86PMU_MSR_GP : X86PMU_MSR_NOT_PMU;
    }
    def = &x86_pmu_msr_defs[k];
    fold_clock(p, cpu);
    *val = def->read ? def->read(p, cpu, i) : *reg(p, k, cpu, i);
    return X86PMU_MSR_OK;
}

X86PmuMsrResult x86_pmu_msr_write(X86Pmu *p, unsigned cpu, uint32_t msr,
                                  uint64_t val)
{
    uint32_t i;
    bool range;
    int k = find(p->d, msr, &i, &range);
    const X86PmuMsrDef *def;

    if (k < 0) {
        return range ? X86PMU_MSR_GP : X86PMU_MSR_NOT_PMU;
    }
    def = &x86_pmu_msr_defs[k];
    if (!def->write && (val & ~def->valid(p->d))) {
        return X86PMU_MSR_GP;
    }
    /* Time so far counts with the controls before the write. */
    fold_clock(p, cpu);
    if (def->write) {
        if (!def->write(p, cpu, i, val)) {
            return X86PMU_MSR_GP;
        }
    } else {
        *reg(p, k, cpu, i) = val;
    }
    update(p, cpu);
    return X86PMU_MSR_OK;
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
    *len = p->n_cpus * p->words;
    return p->regs;
}

char *x86_pmu_post_load(X86Pmu *p)
{
    for (unsigned cpu = 0; cpu < p->n_cpus; cpu++) {
        for (unsigned k = 0; k < x86_pmu_msr_n_defs; k++) {
            const X86PmuMsrDef *def = &x86_pmu_msr_defs[k];

            if (def->read) {
                continue;
            }
            for (uint32_t i = 0; i < def->count(p->d); i++) {
                uint64_t v = *reg(p, k, cpu, i);

                if (v & ~def->valid(p->d)) {
                    return g_strdup_printf("%s (MSR 0x%x) of CPU %u holds "
                                           "0x%" G_GINT64_MODIFIER "x, "
                                           "which a write cannot leave",
                                           def->name, def->addr + i, cpu, v);
                }
            }
        }
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
