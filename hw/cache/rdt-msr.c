/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intel RDT MSR file, see rdt-msr.h and docs/rdt-model.md "MSRs".
 */
#include "rdt-msr.h"

struct Rdt {
    const RdtDesc *d;
    unsigned n_cpus;
    unsigned n_dom[RDT_SCOPE_N];        /* instances of each scope */
    uint32_t words[RDT_SCOPE_N];        /* stored registers per instance */
    uint32_t *off;                      /* [def]: first word in its scope */
    uint64_t *regs[RDT_SCOPE_N];        /* [instance * words + off + i] */
    RdtMonFn **mon_fn;                  /* [L3 domain] */
    void **mon_opaque;
};

static uint64_t ones(uint32_t bits)
{
    return bits >= 64 ? ~0ull : (1ull << bits) - 1;
}

static const RdtCat *cat_of(const RdtDesc *d, RdtLevel level)
{
    return level == RDT_L3 ? &d->l3 : &d->l2;
}

/*
 * The functions of the table take the description and the level of the
 * register (RDT_L3 for those of no level, which ignore it).
 */

/* Counts */
static uint32_t one(const RdtDesc *d, RdtLevel lv)
{
    return 1;
}

static uint32_t cdp(const RdtDesc *d, RdtLevel lv)
{
    return cat_of(d, lv)->cdp;
}

static uint32_t mon(const RdtDesc *d, RdtLevel lv)
{
    return rdt_desc_mon(d);
}

static uint32_t pqr(const RdtDesc *d, RdtLevel lv)
{
    return rdt_desc_mon(d) || rdt_desc_alloc(d);
}

static uint32_t cat_cos(const RdtDesc *d, RdtLevel lv)
{
    return cat_of(d, lv)->cbm_len ? cat_of(d, lv)->n_cos : 0;
}

static uint32_t mba_cos(const RdtDesc *d, RdtLevel lv)
{
    return d->mba_max_delay ? d->mba_n_cos : 0;
}

/* Reset values */
static uint64_t zero(const RdtDesc *d, RdtLevel lv)
{
    return 0;
}

/* A CBM's reset value is all ones: every COS may use the whole cache. */
static uint64_t cbm_full(const RdtDesc *d, RdtLevel lv)
{
    return ones(cat_of(d, lv)->cbm_len);
}

/* Writable bits */
static uint64_t misc_bits(const RdtDesc *d, RdtLevel lv)
{
    return d->misc_feature_bits;
}

static uint64_t cdp_bit(const RdtDesc *d, RdtLevel lv)
{
    return RDT_QOS_CFG_CDP;
}

static uint64_t evtsel_bits(const RdtDesc *d, RdtLevel lv)
{
    return RDT_QM_EVTSEL_EVT | RDT_QM_EVTSEL_RMID;
}

static uint64_t pqr_bits(const RdtDesc *d, RdtLevel lv)
{
    return (rdt_desc_mon(d) ? ones(rdt_desc_rmid_bits(d)) : 0) |
           (rdt_desc_alloc(d) ? ones(32) << RDT_PQR_CLOS_SHIFT : 0);
}

static uint64_t mba_bits(const RdtDesc *d, RdtLevel lv)
{
    return RDT_MBA_DELAY;
}

/* Checks */
/*
 * SDM: "If a value larger than the maximum RMID is written to
 * IA32_PQR_ASSOC.RMID, a #GP(0) fault will be generated"; a CLOS beyond
 * every resource's COS_MAX is taken the same way (docs/rdt-model.md).
 */
static bool pqr_ok(const RdtDesc *d, RdtLevel lv, uint64_t v)
{
    return (v & 0xffffffffu) < MAX(d->n_rmid, 1) &&
           (v >> RDT_PQR_CLOS_SHIFT) < MAX(rdt_desc_max_cos(d), 1);
}

/*
 * A CBM must have a bit set and, unless CPUID.10H ECX[3] allows
 * non-contiguous masks, one run of ones (SDM: "Attempts to program a value
 * without contiguous '1's (including zero) will result in a #GP(0)").
 */
static bool cbm_ok(const RdtDesc *d, RdtLevel lv, uint64_t v)
{
    uint64_t run = v >> __builtin_ctzll(v | 1ull << 63);

    return v && (cat_of(d, lv)->noncont || !(run & (run + 1)));
}

/* Computed reads */
static uint64_t qm_ctr(const Rdt *r, unsigned cpu);

/* The table's rows, for the model's own reads of its state. */
enum {
    DEF_MISC, DEF_L3_CFG, DEF_L2_CFG, DEF_EVTSEL, DEF_CTR, DEF_PQR,
    DEF_L3_MASK, DEF_L2_MASK, DEF_MBA, DEF_N
};

/*
 * Spans: IA32_L3_QOS_MASK_n ends before MSR_RMID_SNC_CONFIG (0xCA0), the
 * MBA delays before IA32_BNDCFGS (0xD90).
 */
const RdtMsrDef rdt_msr_defs[DEF_N] = {
    [DEF_MISC] = {
        MSR_MISC_FEATURE_CONTROL, 1, "MSR_MISC_FEATURE_CONTROL",
        RDT_SCOPE_CPU, RDT_L3, one, zero, misc_bits, NULL, NULL },
    [DEF_L3_CFG] = {
        MSR_IA32_L3_QOS_CFG, 1, "IA32_L3_QOS_CFG",
        RDT_SCOPE_L3, RDT_L3, cdp, zero, cdp_bit, NULL, NULL },
    [DEF_L2_CFG] = {
        MSR_IA32_L2_QOS_CFG, 1, "IA32_L2_QOS_CFG",
        RDT_SCOPE_L2, RDT_L2, cdp, zero, cdp_bit, NULL, NULL },
    [DEF_EVTSEL] = {
        MSR_IA32_QM_EVTSEL, 1, "IA32_QM_EVTSEL",
        RDT_SCOPE_CPU, RDT_L3, mon, zero, evtsel_bits, NULL, NULL },
    [DEF_CTR] = {
        MSR_IA32_QM_CTR, 1, "IA32_QM_CTR",
        RDT_SCOPE_CPU, RDT_L3, mon, zero, zero, NULL, qm_ctr },
    [DEF_PQR] = {
        MSR_IA32_PQR_ASSOC, 1, "IA32_PQR_ASSOC",
        RDT_SCOPE_CPU, RDT_L3, pqr, zero, pqr_bits, pqr_ok, NULL },
    [DEF_L3_MASK] = {
        MSR_IA32_L3_QOS_MASK_0, 16, "IA32_L3_QOS_MASK_n",
        RDT_SCOPE_L3, RDT_L3, cat_cos, cbm_full, cbm_full, cbm_ok, NULL },
    [DEF_L2_MASK] = {
        MSR_IA32_L2_QOS_MASK_0, 64, "IA32_L2_QOS_MASK_n",
        RDT_SCOPE_L2, RDT_L2, cat_cos, cbm_full, cbm_full, cbm_ok, NULL },
    [DEF_MBA] = {
        MSR_IA32_L2_QOS_EXT_BW_THRTL_0, 64, "IA32_L2_QoS_Ext_BW_Thrtl_n",
        RDT_SCOPE_L3, RDT_L3, mba_cos, zero, mba_bits, NULL, NULL },
};
const unsigned rdt_msr_n_defs = DEF_N;

Rdt *rdt_new(const RdtDesc *d, unsigned n_cpus, GError **errp)
{
    g_autofree char *why = rdt_desc_check(d);
    Rdt *r;

    if (!why && n_cpus == 0) {
        why = g_strdup("RDT needs at least one logical processor");
    }
    for (unsigned i = 0; i < rdt_msr_n_defs && !why; i++) {
        const RdtMsrDef *def = &rdt_msr_defs[i];
        uint32_t n = def->count(d, def->level);

        if (n > def->span) {
            why = g_strdup_printf("%u x %s exceed the %u MSRs from 0x%x", n,
                                  def->name, def->span, def->addr);
        }
    }
    if (why) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", why);
        return NULL;
    }
    r = g_new0(Rdt, 1);
    r->d = d;
    r->n_cpus = n_cpus;
    r->n_dom[RDT_SCOPE_CPU] = n_cpus;
    r->n_dom[RDT_SCOPE_L2] = (n_cpus + d->l2_cores - 1) / d->l2_cores;
    r->n_dom[RDT_SCOPE_L3] = (n_cpus + d->cores - 1) / d->cores;
    r->off = g_new0(uint32_t, rdt_msr_n_defs);
    for (unsigned i = 0; i < rdt_msr_n_defs; i++) {
        const RdtMsrDef *def = &rdt_msr_defs[i];

        r->off[i] = r->words[def->scope];
        if (!def->read) {
            r->words[def->scope] += def->count(d, def->level);
        }
    }
    for (unsigned s = 0; s < RDT_SCOPE_N; s++) {
        r->regs[s] = g_new0(uint64_t, (size_t)r->n_dom[s] * r->words[s]);
    }
    r->mon_fn = g_new0(RdtMonFn *, r->n_dom[RDT_SCOPE_L3]);
    r->mon_opaque = g_new0(void *, r->n_dom[RDT_SCOPE_L3]);
    rdt_reset(r);
    return r;
}

void rdt_free(Rdt *r)
{
    if (!r) {
        return;
    }
    for (unsigned s = 0; s < RDT_SCOPE_N; s++) {
        g_free(r->regs[s]);
    }
    g_free(r->off);
    g_free(r->mon_fn);
    g_free(r->mon_opaque);
    g_free(r);
}

/* Register @i of definition @def in instance @dom. */
static uint64_t *reg(const Rdt *r, unsigned def, unsigned dom, uint32_t i)
{
    RdtScope s = rdt_msr_defs[def].scope;

    g_assert(dom < r->n_dom[s]);
    return &r->regs[s][(size_t)dom * r->words[s] + r->off[def] + i];
}

void rdt_reset(Rdt *r)
{
    for (unsigned k = 0; k < rdt_msr_n_defs; k++) {
        const RdtMsrDef *def = &rdt_msr_defs[k];
        uint64_t v = def->reset(r->d, def->level);

        if (def->read) {
            continue;
        }
        for (unsigned dom = 0; dom < r->n_dom[def->scope]; dom++) {
            for (uint32_t i = 0; i < def->count(r->d, def->level); i++) {
                *reg(r, k, dom, i) = v;
            }
        }
    }
}

const RdtDesc *rdt_desc(const Rdt *r)
{
    return r->d;
}

unsigned rdt_n_cpus(const Rdt *r)
{
    return r->n_cpus;
}

unsigned rdt_n_domains(const Rdt *r, RdtScope scope)
{
    return r->n_dom[scope];
}

unsigned rdt_domain_of(const Rdt *r, RdtScope scope, unsigned cpu)
{
    g_assert(cpu < r->n_cpus);
    return scope == RDT_SCOPE_CPU ? cpu :
           scope == RDT_SCOPE_L2 ? cpu / r->d->l2_cores : cpu / r->d->cores;
}

void rdt_set_monitor(Rdt *r, unsigned dom, RdtMonFn *fn, void *opaque)
{
    g_assert(dom < r->n_dom[RDT_SCOPE_L3]);
    r->mon_fn[dom] = fn;
    r->mon_opaque[dom] = opaque;
}

/* The definition and register index of @msr, or -1. */
static int find(const RdtDesc *d, uint32_t msr, uint32_t *i)
{
    for (unsigned k = 0; k < rdt_msr_n_defs; k++) {
        const RdtMsrDef *def = &rdt_msr_defs[k];

        if (msr >= def->addr &&
            msr - def->addr < def->count(d, def->level)) {
            *i = msr - def->addr;
            return k;
        }
    }
    return -1;
}

/*
 * An address in RDT's MSR ranges that this description does not have
 * (a COS beyond COS_MAX, a feature the part lacks) #GPs as on hardware;
 * anything else is not ours.
 */
static bool rdt_range(uint32_t msr)
{
    for (unsigned k = 0; k < rdt_msr_n_defs; k++) {
        if (msr >= rdt_msr_defs[k].addr &&
            msr - rdt_msr_defs[k].addr < rdt_msr_defs[k].span) {
            return true;
        }
    }
    return false;
}

RdtMsrResult rdt_msr_read(const Rdt *r, unsigned cpu, uint32_t msr,
                          uint64_t *val)
{
    uint32_t i;
    int k = find(r->d, msr, &i);
    const RdtMsrDef *def;

    if (k < 0) {
        return rdt_range(msr) ? RDT_MSR_GP : RDT_MSR_NOT_RDT;
    }
    def = &rdt_msr_defs[k];
    *val = def->read ? def->read(r, cpu)
                     : *reg(r, k, rdt_domain_of(r, def->scope, cpu), i);
    return RDT_MSR_OK;
}

RdtMsrResult rdt_msr_write(Rdt *r, unsigned cpu, uint32_t msr, uint64_t val)
{
    uint32_t i;
    int k = find(r->d, msr, &i);
    const RdtMsrDef *def;

    if (k < 0) {
        return rdt_range(msr) ? RDT_MSR_GP : RDT_MSR_NOT_RDT;
    }
    def = &rdt_msr_defs[k];
    if (def->read || (val & ~def->writable(r->d, def->level)) ||
        (def->check && !def->check(r->d, def->level, val))) {
        return RDT_MSR_GP;
    }
    *reg(r, k, rdt_domain_of(r, def->scope, cpu), i) = val;
    return RDT_MSR_OK;
}

/* Register @i of row @def in instance @dom, 0 if the part lacks it. */
static uint64_t stored(const Rdt *r, unsigned def, unsigned dom, uint64_t i)
{
    return i < rdt_msr_defs[def].count(r->d, rdt_msr_defs[def].level)
           ? *reg(r, def, dom, i) : 0;
}

MemLabel rdt_label_for(const Rdt *r, unsigned cpu)
{
    uint64_t v = stored(r, DEF_PQR, rdt_domain_of(r, RDT_SCOPE_CPU, cpu), 0);

    return (MemLabel){
        .partid = v >> RDT_PQR_CLOS_SHIFT,
        .pmg = v & ones(rdt_desc_rmid_bits(r->d)),
    };
}

bool rdt_cdp_enabled(const Rdt *r, RdtLevel level, unsigned dom)
{
    return stored(r, level == RDT_L3 ? DEF_L3_CFG : DEF_L2_CFG, dom, 0) &
           RDT_QOS_CFG_CDP;
}

uint32_t rdt_cbm(const Rdt *r, RdtLevel level, unsigned dom,
                 uint32_t closid, MemReqKind kind)
{
    const RdtCat *c = cat_of(r->d, level);
    uint64_t idx = closid;

    if (!c->cbm_len) {
        return 0;
    }
    if (rdt_cdp_enabled(r, level, dom)) {
        idx = 2 * idx + (kind == MEMREQ_FETCH);
    }
    if (idx >= c->n_cos) {
        return ones(c->cbm_len);
    }
    return stored(r, level == RDT_L3 ? DEF_L3_MASK : DEF_L2_MASK, dom, idx);
}

uint32_t rdt_mba_delay(const Rdt *r, unsigned dom, uint32_t closid)
{
    return MIN(stored(r, DEF_MBA, dom, closid), r->d->mba_max_delay);
}

/*
 * IA32_QM_CTR: Error for an event the part does not monitor or an RMID
 * beyond the maximum (SDM: "If software configures an unsupported RMID or
 * event type in IA32_QM_EVTSEL, then IA32_QM_CTR.Error (bit 63) will be
 * set"); Unavailable when no model is bound to count; else the bytes in
 * units of CPUID.0FH.1:EBX, MBM counters wrapping at their width.
 */
static uint64_t qm_ctr(const Rdt *r, unsigned cpu)
{
    const RdtDesc *d = r->d;
    uint64_t sel = stored(r, DEF_EVTSEL, cpu, 0);
    unsigned evt = sel & RDT_QM_EVTSEL_EVT;
    uint32_t rmid = (sel & RDT_QM_EVTSEL_RMID) >> RDT_QM_EVTSEL_RMID_SHIFT;
    unsigned dom = rdt_domain_of(r, RDT_SCOPE_L3, cpu);
    bool has = (evt == RDT_EVT_L3_OCCUPANCY && d->cmt) ||
               (evt == RDT_EVT_MBM_TOTAL && d->mbm_total) ||
               (evt == RDT_EVT_MBM_LOCAL && d->mbm_local);
    uint64_t bytes;

    if (!has || rmid >= d->n_rmid) {
        return RDT_QM_CTR_ERROR;
    }
    if (!r->mon_fn[dom] ||
        !r->mon_fn[dom](r->mon_opaque[dom], dom, evt, rmid, &bytes)) {
        return RDT_QM_CTR_UNAVAILABLE;
    }
    bytes /= d->mon_scale;
    return evt == RDT_EVT_L3_OCCUPANCY ? bytes : bytes & ones(d->mbm_width);
}

uint64_t *rdt_state(Rdt *r, RdtScope scope, uint32_t *len)
{
    *len = r->n_dom[scope] * r->words[scope];
    return r->regs[scope];
}

char *rdt_post_load(const Rdt *r)
{
    for (unsigned k = 0; k < rdt_msr_n_defs; k++) {
        const RdtMsrDef *def = &rdt_msr_defs[k];

        if (def->read) {
            continue;
        }
        for (unsigned dom = 0; dom < r->n_dom[def->scope]; dom++) {
            for (uint32_t i = 0; i < def->count(r->d, def->level); i++) {
                uint64_t v = *reg(r, k, dom, i);

                if ((v & ~def->writable(r->d, def->level)) ||
                    (def->check && !def->check(r->d, def->level, v))) {
                    return g_strdup_printf("%s (MSR 0x%x) of instance %u "
                                           "holds 0x%" G_GINT64_MODIFIER "x, "
                                           "which a write cannot leave",
                                           def->name, def->addr + i, dom, v);
                }
            }
        }
    }
    return NULL;
}
