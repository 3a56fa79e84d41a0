/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intel RDT MSR file, see rdt-msr.h and docs/rdt-model.md "MSRs".
 */
#include "rdt-msr.h"

struct Rdt {
    const RdtDesc *d;
    unsigned n_cpus;
    MsrFile f;                          /* instances: the domains of a scope */
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
static uint32_t one(const void *desc, unsigned lv)
{
    return 1;
}

static uint32_t cdp(const void *desc, unsigned lv)
{
    const RdtDesc *d = desc;

    return cat_of(d, lv)->cdp;
}

static uint32_t mon(const void *desc, unsigned lv)
{
    const RdtDesc *d = desc;

    return rdt_desc_mon(d);
}

static uint32_t pqr(const void *desc, unsigned lv)
{
    const RdtDesc *d = desc;

    return rdt_desc_mon(d) || rdt_desc_alloc(d);
}

static uint32_t cat_cos(const void *desc, unsigned lv)
{
    const RdtDesc *d = desc;

    return cat_of(d, lv)->cbm_len ? cat_of(d, lv)->n_cos : 0;
}

static uint32_t mba_cos(const void *desc, unsigned lv)
{
    const RdtDesc *d = desc;

    return d->mba_max_delay ? d->mba_n_cos : 0;
}

/* Reset values */
static uint64_t zero(const void *desc, unsigned lv)
{
    return 0;
}

/* A CBM's reset value is all ones: every COS may use the whole cache. */
static uint64_t cbm_full(const void *desc, unsigned lv)
{
    const RdtDesc *d = desc;

    return ones(cat_of(d, lv)->cbm_len);
}

/* Writable bits */
static uint64_t misc_bits(const void *desc, unsigned lv)
{
    const RdtDesc *d = desc;

    return d->misc_feature_bits;
}

static uint64_t cdp_bit(const void *desc, unsigned lv)
{
    return RDT_QOS_CFG_CDP;
}

static uint64_t evtsel_bits(const void *desc, unsigned lv)
{
    return RDT_QM_EVTSEL_EVT | RDT_QM_EVTSEL_RMID;
}

static uint64_t pqr_bits(const void *desc, unsigned lv)
{
    const RdtDesc *d = desc;

    return (rdt_desc_mon(d) ? ones(rdt_desc_rmid_bits(d)) : 0) |
           (rdt_desc_alloc(d) ? ones(32) << RDT_PQR_CLOS_SHIFT : 0);
}

static uint64_t mba_bits(const void *desc, unsigned lv)
{
    return RDT_MBA_DELAY;
}

/* Checks */
/*
 * SDM: "If a value larger than the maximum RMID is written to
 * IA32_PQR_ASSOC.RMID, a #GP(0) fault will be generated"; a CLOS beyond
 * every resource's COS_MAX is taken the same way (docs/rdt-model.md).
 */
static bool pqr_ok(const void *desc, unsigned lv, uint64_t v)
{
    const RdtDesc *d = desc;

    return (v & 0xffffffffu) < MAX(d->n_rmid, 1) &&
           (v >> RDT_PQR_CLOS_SHIFT) < MAX(rdt_desc_max_cos(d), 1);
}

/*
 * A CBM must have a bit set and, unless CPUID.10H ECX[3] allows
 * non-contiguous masks, one run of ones (SDM: "Attempts to program a value
 * without contiguous '1's (including zero) will result in a #GP(0)").
 */
static bool cbm_ok(const void *desc, unsigned lv, uint64_t v)
{
    const RdtDesc *d = desc;

    uint64_t run = v >> __builtin_ctzll(v | 1ull << 63);

    return v && (cat_of(d, lv)->noncont || !(run & (run + 1)));
}

/* Computed reads */
static uint64_t qm_ctr(void *owner, unsigned cpu, uint32_t i);

/* The table's rows, for the model's own reads of its state. */
enum {
    DEF_MISC, DEF_L3_CFG, DEF_L2_CFG, DEF_EVTSEL, DEF_CTR, DEF_PQR,
    DEF_L3_MASK, DEF_L2_MASK, DEF_MBA, DEF_N
};

/*
 * Spans: IA32_L3_QOS_MASK_n ends before MSR_RMID_SNC_CONFIG (0xCA0), the
 * MBA delays before IA32_BNDCFGS (0xD90).
 */
const MsrDef rdt_msr_defs[DEF_N] = {
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

static unsigned instance(void *owner, unsigned scope, unsigned cpu)
{
    return rdt_domain_of(owner, scope, cpu);
}

static const char *const scope_name[RDT_SCOPE_N] = {
    [RDT_SCOPE_CPU] = "CPU", [RDT_SCOPE_L2] = "L2 domain",
    [RDT_SCOPE_L3] = "L3 domain",
};

Rdt *rdt_new(const RdtDesc *d, unsigned n_cpus, GError **errp)
{
    g_autofree char *why = rdt_desc_check(d);
    unsigned n_dom[RDT_SCOPE_N];
    Rdt *r;

    if (!why && n_cpus == 0) {
        why = g_strdup("RDT needs at least one logical processor");
    }
    if (why) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", why);
        return NULL;
    }
    r = g_new0(Rdt, 1);
    r->d = d;
    r->n_cpus = n_cpus;
    n_dom[RDT_SCOPE_CPU] = n_cpus;
    n_dom[RDT_SCOPE_L2] = (n_cpus + d->l2_cores - 1) / d->l2_cores;
    n_dom[RDT_SCOPE_L3] = (n_cpus + d->cores - 1) / d->cores;
    if (!msr_file_init(&r->f, rdt_msr_defs, DEF_N, d, r, instance,
                       RDT_SCOPE_N, scope_name, n_dom, NULL, errp)) {
        g_free(r);
        return NULL;
    }
    r->mon_fn = g_new0(RdtMonFn *, n_dom[RDT_SCOPE_L3]);
    r->mon_opaque = g_new0(void *, n_dom[RDT_SCOPE_L3]);
    return r;
}

void rdt_free(Rdt *r)
{
    if (!r) {
        return;
    }
    msr_file_fini(&r->f);
    g_free(r->mon_fn);
    g_free(r->mon_opaque);
    g_free(r);
}

void rdt_reset(Rdt *r)
{
    msr_file_reset(&r->f);
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
    return r->f.n_inst[scope];
}

unsigned rdt_domain_of(const Rdt *r, RdtScope scope, unsigned cpu)
{
    g_assert(cpu < r->n_cpus);
    return scope == RDT_SCOPE_CPU ? cpu :
           scope == RDT_SCOPE_L2 ? cpu / r->d->l2_cores : cpu / r->d->cores;
}

void rdt_set_monitor(Rdt *r, unsigned dom, RdtMonFn *fn, void *opaque)
{
    g_assert(dom < r->f.n_inst[RDT_SCOPE_L3]);
    r->mon_fn[dom] = fn;
    r->mon_opaque[dom] = opaque;
}

MsrResult rdt_msr_read(const Rdt *r, unsigned cpu, uint32_t msr,
                       uint64_t *val)
{
    return msr_file_read(&r->f, cpu, msr, val);
}

MsrResult rdt_msr_write(Rdt *r, unsigned cpu, uint32_t msr, uint64_t val)
{
    return msr_file_write(&r->f, cpu, msr, val);
}

MemLabel rdt_label_for(const Rdt *r, unsigned cpu)
{
    uint64_t v = msr_file_stored(&r->f, DEF_PQR, rdt_domain_of(r, RDT_SCOPE_CPU, cpu), 0);

    return (MemLabel){
        .partid = v >> RDT_PQR_CLOS_SHIFT,
        .pmg = v & ones(rdt_desc_rmid_bits(r->d)),
    };
}

bool rdt_cdp_enabled(const Rdt *r, RdtLevel level, unsigned dom)
{
    return msr_file_stored(&r->f, level == RDT_L3 ? DEF_L3_CFG : DEF_L2_CFG, dom, 0) &
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
    return msr_file_stored(&r->f, level == RDT_L3 ? DEF_L3_MASK : DEF_L2_MASK, dom, idx);
}

uint32_t rdt_mba_delay(const Rdt *r, unsigned dom, uint32_t closid)
{
    return MIN(msr_file_stored(&r->f, DEF_MBA, dom, closid), r->d->mba_max_delay);
}

/*
 * IA32_QM_CTR: Error for an event the part does not monitor or an RMID
 * beyond the maximum (SDM: "If software configures an unsupported RMID or
 * event type in IA32_QM_EVTSEL, then IA32_QM_CTR.Error (bit 63) will be
 * set"); Unavailable when no model is bound to count; else the bytes in
 * units of CPUID.0FH.1:EBX, MBM counters wrapping at their width.
 */
static uint64_t qm_ctr(void *owner, unsigned cpu, uint32_t i)
{
    const Rdt *r = owner;
    const RdtDesc *d = r->d;
    uint64_t sel = msr_file_stored(&r->f, DEF_EVTSEL, cpu, 0);
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
    return msr_file_state(&r->f, scope, len);
}

char *rdt_post_load(const Rdt *r)
{
    return msr_file_check(&r->f);
}
