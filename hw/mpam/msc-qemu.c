/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU glue for the MPAM MSC model: a SysBus device whose MMIO window,
 * IRQ lines, properties, reset and migration state are forwarded to the
 * pure-C model in msc.c.  No MPAM behaviour lives here.
 *
 * Data flow of a guest access: guest load/store -> memory core ->
 * msc_mmio_read/msc_mmio_write (any size 1..8, any alignment) ->
 * mpam_msc_read/mpam_msc_write -> model state; the model calls back
 * through MpamMscHooks for IRQ levels, time, guest errors and traces.
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/error-report.h"
#include "qemu/timer.h"
#include "qemu/cutils.h"
#include "qemu/main-loop.h"
#include "block/aio.h"
#include "qemu/units.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "trace/trace-hw_memqos_mpam.h"
#include "msc-qemu.h"
#include "../memsys/timing-qemu.h"

/* ---- hooks called by the model ---------------------------------------- */

static void msc_irq_bh(void *opaque)
{
    MemqosMpamMscState *s = opaque;

    for (int i = 0; i < ARRAY_SIZE(s->irq); i++) {
        qemu_set_irq(s->irq[i], qatomic_read(&s->irq_level[i]));
    }
}

static void msc_hook_set_irq(void *opaque, int irq, bool level)
{
    MemqosMpamMscState *s = opaque;

    trace_memqos_mpam_msc_irq(s->name, irq, level);
    qatomic_set(&s->irq_level[irq], level);
    /*
     * Traffic from the timing model's access path (an MBWU overflow) comes
     * from a vCPU thread without the BQL: the main loop raises the line.
     */
    if (bql_locked()) {
        qemu_set_irq(s->irq[irq], level);
    } else {
        qemu_bh_schedule(s->irq_bh);
    }
}

/* NRDY timing follows the guest's view of time. */
static uint64_t msc_hook_now_ns(void *opaque)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL);
}

static void msc_hook_guest_error(void *opaque, const char *msg)
{
    MemqosMpamMscState *s = opaque;

    qemu_log_mask(LOG_GUEST_ERROR, "memqos-mpam-msc %s: %s\n", s->name, msg);
}

static void msc_hook_cfg_write(void *opaque, unsigned ris, unsigned partid,
                               const char *reg, uint64_t value)
{
    MemqosMpamMscState *s = opaque;

    trace_memqos_mpam_msc_cfg_write(s->name, ris, partid, reg, value);
}

static void msc_hook_error(void *opaque, unsigned errcode, uint64_t esr)
{
    MemqosMpamMscState *s = opaque;

    trace_memqos_mpam_msc_error(s->name, errcode, esr);
}

static const MpamMscHooks msc_hooks = {
    .set_irq = msc_hook_set_irq,
    .now_ns = msc_hook_now_ns,
    .guest_error = msc_hook_guest_error,
    .cfg_write = msc_hook_cfg_write,
    .error = msc_hook_error,
};

/* ---- MMIO --------------------------------------------------------------- */

void memqos_mpam_msc_lock(MemqosMpamMscState *s)
{
    if (s->memsys) {
        memsys_lock(s->memsys);
    }
}

void memqos_mpam_msc_unlock(MemqosMpamMscState *s)
{
    if (s->memsys) {
        memsys_unlock(s->memsys);
    }
}

static uint64_t msc_mmio_read(void *opaque, hwaddr offset, unsigned size)
{
    MemqosMpamMscState *s = opaque;
    uint64_t value;

    memqos_mpam_msc_lock(s);
    if (s->memsys) {
        /* the monitors include the background agents' traffic up to now */
        memsys_sync(s->memsys, memqos_timing_now_ps());
    }
    value = mpam_msc_read(s->msc, offset, size);
    memqos_mpam_msc_unlock(s);

    trace_memqos_mpam_msc_read(s->name, offset, size, value);
    return value;
}

static void msc_mmio_write(void *opaque, hwaddr offset, uint64_t value,
                           unsigned size)
{
    MemqosMpamMscState *s = opaque;

    trace_memqos_mpam_msc_write(s->name, offset, size, value);
    memqos_mpam_msc_lock(s);
    mpam_msc_write(s->msc, offset, value, size);
    memqos_mpam_msc_unlock(s);
}

/* The model decodes every size and alignment itself (RAZ/WI if bad). */
static const MemoryRegionOps msc_mmio_ops = {
    .read = msc_mmio_read,
    .write = msc_mmio_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
    .impl = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
};

/* ---- host priority policy ---------------------------------------------- */

bool memqos_mpam_msc_set_priority(MemqosMpamMscState *s, uint64_t ris,
                                  uint64_t partid, uint64_t dspri,
                                  bool has_intpri, uint64_t intpri,
                                  Error **errp)
{
    const MpamRisConfig *r;

    if (ris >= s->cfg.nr_ris) {
        error_setg(errp, "MSC '%s' has no RIS %" PRIu64, s->name, ris);
        return false;
    }
    r = &s->cfg.ris[ris];
    if (partid > r->partid_max) {
        error_setg(errp, "MSC '%s': priority policy PARTID %" PRIu64
                   " is above PARTID_MAX %u", s->name, partid, r->partid_max);
        return false;
    }
    if (!r->has_dspri || dspri >= (1ull << r->dspri_wd)) {
        error_setg(errp, "MSC '%s': dspri %" PRIu64 " does not fit "
                   "DSPRI_WD=%u", s->name, dspri,
                   r->has_dspri ? r->dspri_wd : 0);
        return false;
    }
    if (!has_intpri) {
        intpri = r->intpri_0_is_low ? (1u << r->intpri_wd) - 1 : 0;
    } else if (!r->has_intpri || intpri >= (1ull << r->intpri_wd)) {
        error_setg(errp, "MSC '%s': intpri %" PRIu64 " does not fit "
                   "INTPRI_WD=%u", s->name, intpri,
                   r->has_intpri ? r->intpri_wd : 0);
        return false;
    }
    mpam_msc_set_pri_policy(s->msc, ris, partid, intpri, dspri);
    trace_memqos_mpam_msc_pri_policy(s->name, ris, partid, intpri, dspri);
    return true;
}

/*
 * "PARTID:DSPRI[:INTPRI],...", entries separated by "," or ";" (";" needs
 * no escaping in -machine options); numbers in C syntax (0x.. allowed), for
 * RIS 0.
 */
bool memqos_mpam_msc_apply_pri_policy(MemqosMpamMscState *s, const char *policy,
                                      Error **errp)
{
    g_auto(GStrv) items = NULL;
    g_autoptr(GHashTable) named = NULL;

    if (!policy || !*policy) {
        return true;
    }
    items = g_strsplit_set(policy, ",;", -1);
    named = g_hash_table_new(NULL, NULL);
    for (int i = 0; items[i]; i++) {
        g_auto(GStrv) f = g_strsplit(items[i], ":", -1);
        int n = g_strv_length(f);
        uint64_t partid, dspri, intpri = 0;

        if (n < 2 || n > 3 ||
            qemu_strtou64(f[0], NULL, 0, &partid) ||
            qemu_strtou64(f[1], NULL, 0, &dspri) ||
            (n == 3 && qemu_strtou64(f[2], NULL, 0, &intpri))) {
            error_setg(errp, "MSC '%s': pri-policy: bad priority policy "
                       "entry '%s' (expected PARTID:DSPRI[:INTPRI])", s->name,
                       items[i]);
            return false;
        }
        if (!memqos_mpam_msc_set_priority(s, 0, partid, dspri, n == 3, intpri,
                                          errp)) {
            error_prepend(errp, "MSC '%s': pri-policy: entry '%s': ", s->name,
                          items[i]);
            return false;
        }
        /*
         * As the bandwidth policy: a second entry would silently win.
         * set_priority has checked the PARTID against PARTID_MAX.
         */
        if (!g_hash_table_add(named, GUINT_TO_POINTER(partid + 1))) {
            error_setg(errp, "MSC '%s': pri-policy: priority policy entry "
                       "'%s': PARTID %" PRIu64 " is given twice", s->name,
                       items[i], partid);
            return false;
        }
    }
    return true;
}

/* ---- host bandwidth policy --------------------------------------------- */

/* One ITEM of a bandwidth policy entry into @p; false + errp if bad. */
static bool mbw_policy_item(const MpamRisConfig *r, const char *item,
                            MpamMbwPolicy *p, Error **errp)
{
    uint64_t v;
    const char *end;

    if (!strcmp(item, "hardlim")) {
        if (!r->mbw_has_max || !r->bwa_wd) {
            error_setg(errp, "this MSC has no MBW_MAX, so no HARDLIM");
            return false;
        }
        p->hardlim = true;
    } else if (g_str_has_prefix(item, "min=")) {
        if (!r->mbw_has_min || !r->bwa_wd) {
            error_setg(errp, "this MSC has no MBW_MIN");
            return false;
        }
        if (qemu_strtou64(item + 4, &end, 10, &v) || strcmp(end, "%") ||
            v > 100) {
            error_setg(errp, "'%s': the minimum is a whole percentage "
                       "0%%..100%% of the regulated bandwidth, e.g. min=25%%",
                       item);
            return false;
        }
        p->has_min = true;
        /* the bottom of MIN's band; 100 % is the top band, all ones */
        p->min = MIN(v * MBW_FRAC_ONE / 100, UINT16_MAX);
    } else if (g_str_has_prefix(item, "prop=")) {
        if (!r->mbw_has_prop || !r->bwa_wd) {
            error_setg(errp, "this MSC has no MBW_PROP");
            return false;
        }
        if (qemu_strtou64(item + 5, NULL, 0, &v) || v < 1 ||
            v > 1ull << r->bwa_wd) {
            error_setg(errp, "'%s': the stride is 1..%u (STRIDEM1 + 1, "
                       "BWA_WD=%u)", item, 1u << r->bwa_wd, r->bwa_wd);
            return false;
        }
        p->prop_stride = v;
    } else {
        error_setg(errp, "unknown bandwidth policy item '%s' (hardlim, "
                   "min=PERCENT%% or prop=STRIDE)", item);
        return false;
    }
    return true;
}

bool memqos_mpam_msc_apply_mbw_policy(MemqosMpamMscState *s, const char *policy,
                                      Error **errp)
{
    const MpamRisConfig *r = &s->cfg.ris[0];
    uint32_t n = r->partid_max + 1;
    g_autofree MpamMbwPolicy *pol = g_new0(MpamMbwPolicy, n);
    g_autofree bool *named = g_new0(bool, n);
    g_auto(GStrv) items = g_strsplit_set(policy ? policy : "", ",;", -1);
    bool ok = true;

    for (int i = 0; items[i]; i++) {
        g_auto(GStrv) f = g_strsplit(items[i], ":", -1);
        uint64_t partid;

        if (!*items[i] && !items[i + 1]) {
            break;                      /* "" or a trailing separator */
        }
        if (g_strv_length(f) < 2 || qemu_strtou64(f[0], NULL, 0, &partid)) {
            error_setg(errp, "MSC '%s': mbw-policy: bad bandwidth policy "
                       "entry '%s' (expected PARTID:ITEM[:ITEM...], ITEM "
                       "hardlim, min=PERCENT%% or prop=STRIDE)", s->name,
                       items[i]);
            return false;
        }
        if (partid >= n) {
            error_setg(errp, "MSC '%s': mbw-policy: bandwidth policy entry "
                       "'%s': PARTID %" PRIu64 " is above PARTID_MAX %u",
                       s->name, items[i], partid, r->partid_max);
            return false;
        }
        if (named[partid]) {
            error_setg(errp, "MSC '%s': mbw-policy: bandwidth policy entry "
                       "'%s': PARTID %" PRIu64 " is given twice", s->name,
                       items[i], partid);
            return false;
        }
        named[partid] = true;
        for (int k = 1; f[k]; k++) {
            if (!mbw_policy_item(r, f[k], &pol[partid], errp)) {
                error_prepend(errp, "MSC '%s': mbw-policy: bandwidth policy "
                              "entry '%s': ", s->name, items[i]);
                return false;
            }
        }
    }
    /*
     * Every PARTID's policy cleared, then the named ones set: with PARTID
     * narrowing several PARTIDs may select one control entry.  Validated
     * above: the model refuses nothing here.
     */
    for (uint32_t p = 0; p < n; p++) {
        ok &= mpam_msc_set_mbw_policy(s->msc, 0, p, &(MpamMbwPolicy){ 0 });
    }
    for (uint32_t p = 0; p < n; p++) {
        if (named[p]) {
            ok &= mpam_msc_set_mbw_policy(s->msc, 0, p, &pol[p]);
            trace_memqos_mpam_msc_mbw_policy(s->name, p, pol[p].hardlim,
                                             pol[p].has_min, pol[p].min,
                                             pol[p].prop_stride);
        }
    }
    g_assert(ok);
    return true;
}

static char *msc_get_mbw_policy(Object *obj, Error **errp)
{
    return g_strdup(MEMQOS_MPAM_MSC(obj)->mbw_policy ?: "");
}

/* Before realize: kept for msc_realize.  After: applied at once. */
static void msc_set_mbw_policy(Object *obj, const char *value, Error **errp)
{
    MemqosMpamMscState *s = MEMQOS_MPAM_MSC(obj);
    bool ok = true;

    if (DEVICE(obj)->realized) {
        memqos_mpam_msc_lock(s);
        ok = memqos_mpam_msc_apply_mbw_policy(s, value, errp);
        memqos_mpam_msc_unlock(s);
    }
    if (ok) {
        g_free(s->mbw_policy);
        s->mbw_policy = g_strdup(value);
    }
}

/* ---- device ------------------------------------------------------------- */

static void msc_unrealize(DeviceState *dev)
{
    MemqosMpamMscState *s = MEMQOS_MPAM_MSC(dev);

    g_clear_pointer(&s->mig_config, memqos_mig_config_unregister);
    g_clear_pointer(&s->irq_bh, qemu_bh_delete);
    mpam_msc_free(s->msc);
    s->msc = NULL;
}

static void msc_realize(DeviceState *dev, Error **errp)
{
    MemqosMpamMscState *s = MEMQOS_MPAM_MSC(dev);
    g_autofree char *why = NULL;
    g_autofree char *mr_name = NULL;
    g_autofree char *who = NULL;
    GError *gerr = NULL;

    if (!s->name) {
        s->name = g_strdup_printf("msc%u", s->id);
    }
    /* The properties configure RIS 0; further RIS take model defaults. */
    mpam_msc_config_set_nr_ris(&s->cfg, s->cfg.nr_ris);
    why = mpam_msc_config_validate(&s->cfg);
    if (why) {
        error_setg(errp, "MPAM MSC '%s': invalid configuration: %s",
                   s->name, why);
        return;
    }
    s->irq_bh = qemu_bh_new(msc_irq_bh, s);
    s->msc = mpam_msc_new(&s->cfg, &msc_hooks, s, &gerr);
    if (!s->msc) {
        error_setg(errp, "MPAM MSC '%s': %s", s->name,
                   gerr ? gerr->message : "cannot create the model");
        g_clear_error(&gerr);
        return;
    }
    if (!memqos_mpam_msc_apply_pri_policy(s, s->pri_policy, errp) ||
        !memqos_mpam_msc_apply_mbw_policy(s, s->mbw_policy, errp)) {
        msc_unrealize(dev);
        return;
    }
    /*
     * The sizes of the state that follows in the stream depend on the
     * configuration.  The host priority policy is left out: the policy
     * itself is PARTID state and migrates (mpam-set-priority may have
     * changed it since start).
     */
    who = g_strdup_printf("%s %s", TYPE_MEMQOS_MPAM_MSC, s->name);
    s->mig_config = memqos_mig_config_register(OBJECT(dev), who,
                                               "memqos-mpam-msc-config", NULL,
                                               (const char *const[]){
                                                   "pri-policy", NULL });
    mr_name = g_strdup_printf("mpam-msc-%s", s->name);
    memory_region_init_io(&s->mmio, OBJECT(s), &msc_mmio_ops, s, mr_name,
                          s->cfg.mmio_size);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->mmio);
}

/*
 * Architectural reset.  The host priority policy is machine configuration,
 * not MSC state that a reset clears: the model keeps it (see msc.h).
 */
static void msc_reset_hold(Object *obj, ResetType type)
{
    MemqosMpamMscState *s = MEMQOS_MPAM_MSC(obj);

    if (s->msc) {
        mpam_msc_reset(s->msc);
    }
}

static void msc_finalize(Object *obj)
{
    g_free(MEMQOS_MPAM_MSC(obj)->mbw_policy);
}

static void msc_init(Object *obj)
{
    MemqosMpamMscState *s = MEMQOS_MPAM_MSC(obj);

    /* the properties (below) set the configuration */
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq[MPAM_MSC_IRQ_ERROR]);
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq[MPAM_MSC_IRQ_OVERFLOW]);
}

/* ---- migration: every piece of model state ------------------------------ */

static bool ris_has_cache(void *opaque, int version_id)
{
    return ((MpamRisState *)opaque)->cache != NULL;
}

/* The lines: the tag store's one flat array of words (hw/memsys/setassoc.h). */
static const VMStateDescription vmstate_pcache = {
    .name = "memqos-pcache",
    .version_id = 4,                /* 3: set-major tag store, */
    .minimum_version_id = 4,        /* 4: its LRU a recency order */
    .fields = (const VMStateField[]) {
        VMSTATE_VARRAY_UINT32(sa.words, PCache, sa.n_words, 0,
                              vmstate_info_uint32, uint32_t),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_mpam_mon = {
    .name = "memqos-mpam-mon",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(ctl, MpamMon),
        VMSTATE_UINT32(flt, MpamMon),
        VMSTATE_UINT64(value, MpamMon),
        VMSTATE_UINT64(capture, MpamMon),
        VMSTATE_UINT64(nrdy_until, MpamMon),
        VMSTATE_UINT8(nrdy, MpamMon),
        VMSTATE_END_OF_LIST()
    }
};

/*
 * Per-PARTID controls are records of 32-bit words (MpamPartidState): the
 * register table's controls, the host policy and the bitmaps migrate
 * together, whatever controls the table holds.
 */
static const VMStateDescription vmstate_mpam_ris = {
    .name = "memqos-mpam-ris",
    .version_id = 3,                /* 3: bandwidth policy, regulator */
    .minimum_version_id = 3,
    .fields = (const VMStateField[]) {
        VMSTATE_VARRAY_UINT32(partid_words, MpamRisState, n_partid_words, 0,
                              vmstate_info_uint32, uint32_t),
        VMSTATE_VARRAY_UINT32(intpartid, MpamRisState, n_reqpartid, 0,
                              vmstate_info_uint32, uint32_t),
        VMSTATE_STRUCT_VARRAY_POINTER_UINT32(csu_mon, MpamRisState, n_csu_mon,
                                             vmstate_mpam_mon, MpamMon),
        VMSTATE_STRUCT_VARRAY_POINTER_UINT32(mbwu_mon, MpamRisState,
                                             n_mbwu_mon, vmstate_mpam_mon,
                                             MpamMon),
        VMSTATE_STRUCT_POINTER_TEST(cache, MpamRisState, ris_has_cache,
                                    vmstate_pcache, PCache),
        /* the bandwidth regulator's windows and counts (msc-mbw.h) */
        VMSTATE_VARRAY_UINT32(mbw_state, MpamRisState, n_mbw_state, 0,
                              vmstate_info_uint64, uint64_t),
        VMSTATE_END_OF_LIST()
    }
};

static const VMStateDescription vmstate_mpam_msc_model = {
    .name = "memqos-mpam-msc-model",
    .version_id = 2,
    .minimum_version_id = 2,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(part_sel, MpamMsc),
        VMSTATE_UINT32(mon_sel, MpamMsc),
        VMSTATE_UINT32(ecr, MpamMsc),
        VMSTATE_UINT64(esr, MpamMsc),
        VMSTATE_STRUCT_ARRAY(ris, MpamMsc, MPAM_MSC_MAX_RIS, 0,
                             vmstate_mpam_ris, MpamRisState),
        VMSTATE_END_OF_LIST()
    }
};

static int msc_post_load(void *opaque, int version_id)
{
    MemqosMpamMscState *s = opaque;

    /*
     * Occupancy counters and IRQ levels are derived from the loaded state;
     * the model drives the IRQ lines through msc_hook_set_irq.
     */
    return memqos_refuse_load(s->name, mpam_msc_post_load(s->msc));
}

/* The MBWU monitor values, which the model brings up to date lazily. */
static int msc_pre_save(void *opaque)
{
    mpam_msc_pre_save(((MemqosMpamMscState *)opaque)->msc);
    return 0;
}

/*
 * 3: the L3's words in the recency-order layout (memqos-pcache 4, whose
 * version_id, nested, is not in the stream; nor is sa.n_words: only this
 * section's version refuses an older stream before it is misread).
 */
static const VMStateDescription vmstate_memqos_mpam_msc = {
    .name = TYPE_MEMQOS_MPAM_MSC,
    .version_id = 3,
    .minimum_version_id = 3,
    .pre_save = msc_pre_save,
    .post_load = msc_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_STRUCT_POINTER(msc, MemqosMpamMscState, vmstate_mpam_msc_model,
                               MpamMsc),
        VMSTATE_END_OF_LIST()
    }
};

/* ---- properties: one per model configuration field of RIS 0 ------------ */

#define RIS0(f) cfg.ris[0].f
#define S MemqosMpamMscState

/*
 * The defaults are the model's: mpam_msc_config_default() with a cache RIS
 * (msc_check_defaults() holds them to it).  "kind" (below) replaces the RIS
 * ones with the defaults of a memory RIS.
 */
static const Property msc_props[] = {
    DEFINE_PROP_STRING("name", S, name),
    DEFINE_PROP_UINT32("id", S, id, 0),
    DEFINE_PROP_STRING("pri-policy", S, pri_policy),
    /* RIS 1.. of a cache MSC are memory RIS and the other way round */
    DEFINE_PROP_UINT32("nr-ris", S, cfg.nr_ris, 1),
    /* MSC-wide */
    DEFINE_PROP_UINT32("iidr", S, cfg.iidr, 0xA510043B),
    DEFINE_PROP_UINT32("aidr", S, cfg.aidr, MPAM_MSC_AIDR_V1_1),
    DEFINE_PROP_UINT64("mmio-size", S, cfg.mmio_size,
                       MPAM_MSC_DEFAULT_MMIO_SIZE),
    DEFINE_PROP_UINT64("nrdy-ns", S, cfg.nrdy_ns, 10000),
    DEFINE_PROP_BOOL("has-esr", S, cfg.has_esr, true),
    DEFINE_PROP_BOOL("has-extd-esr", S, cfg.has_extd_esr, true),
    /* RIS 0 */
    DEFINE_PROP_UINT32("partid-max", S, RIS0(partid_max), 63),
    DEFINE_PROP_UINT32("pmg-max", S, RIS0(pmg_max), 3),
    DEFINE_PROP_BOOL("has-partid-nrw", S, RIS0(has_partid_nrw), false),
    DEFINE_PROP_UINT32("intpartid-max", S, RIS0(intpartid_max), 0),
    DEFINE_PROP_UINT32("cpbm-wd", S, RIS0(cpbm_wd), 16),
    DEFINE_PROP_UINT32("cmax-wd", S, RIS0(cmax_wd), 8),
    DEFINE_PROP_BOOL("has-cmin", S, RIS0(has_cmin), true),
    DEFINE_PROP_BOOL("has-cassoc", S, RIS0(has_cassoc), true),
    DEFINE_PROP_UINT32("cassoc-wd", S, RIS0(cassoc_wd), 4),
    DEFINE_PROP_BOOL("no-cmax", S, RIS0(no_cmax), false),
    DEFINE_PROP_BOOL("has-cmax-softlim", S, RIS0(has_cmax_softlim), false),
    DEFINE_PROP_UINT32("bwa-wd", S, RIS0(bwa_wd), 0),
    DEFINE_PROP_BOOL("mbw-min", S, RIS0(mbw_has_min), false),
    DEFINE_PROP_BOOL("mbw-max", S, RIS0(mbw_has_max), false),
    DEFINE_PROP_BOOL("mbw-pbm", S, RIS0(mbw_has_pbm), false),
    DEFINE_PROP_BOOL("mbw-prop", S, RIS0(mbw_has_prop), false),
    DEFINE_PROP_UINT32("bwpbm-wd", S, RIS0(bwpbm_wd), 0),
    /* the bandwidth MBW fractions are of; 0: the controls do not act */
    DEFINE_PROP_UINT64("mbw-bytes-per-s", S, RIS0(mbw_bytes_per_s), 0),
    DEFINE_PROP_BOOL("windwr", S, RIS0(windwr), false),
    DEFINE_PROP_BOOL("intpri", S, RIS0(has_intpri), false),
    DEFINE_PROP_BOOL("intpri-0-is-low", S, RIS0(intpri_0_is_low), false),
    DEFINE_PROP_UINT32("intpri-wd", S, RIS0(intpri_wd), 0),
    DEFINE_PROP_BOOL("dspri", S, RIS0(has_dspri), false),
    DEFINE_PROP_BOOL("dspri-0-is-low", S, RIS0(dspri_0_is_low), false),
    DEFINE_PROP_UINT32("dspri-wd", S, RIS0(dspri_wd), 0),
    DEFINE_PROP_UINT32("csu-mon", S, RIS0(csu_num_mon), 8),
    DEFINE_PROP_BOOL("csu-xcl", S, RIS0(csu_has_xcl), false),
    DEFINE_PROP_BOOL("csu-capture", S, RIS0(csu_has_capture), true),
    DEFINE_PROP_UINT32("mbwu-mon", S, RIS0(mbwu_num_mon), 4),
    DEFINE_PROP_BOOL("mbwu-long", S, RIS0(mbwu_has_long), true),
    DEFINE_PROP_BOOL("mbwu-lwd", S, RIS0(mbwu_lwd), false),
    DEFINE_PROP_BOOL("mbwu-rwbw", S, RIS0(mbwu_has_rwbw), true),
    DEFINE_PROP_BOOL("mbwu-capture", S, RIS0(mbwu_has_capture), true),
    DEFINE_PROP_UINT64("cache-size", S, RIS0(cache_size), 2 * MiB),
    DEFINE_PROP_UINT32("cache-ways", S, RIS0(cache_ways), 16),
    DEFINE_PROP_UINT32("cache-line-size", S, RIS0(cache_line_size), 64),
};

/* The model's defaults for MpamMscConfig, as the property at @p reads it. */
static uint64_t model_default(const MpamMscConfig *def, const Property *p)
{
    const void *f = (const char *)def + (p->offset - offsetof(S, cfg));

    if (p->info == &qdev_prop_bool) {
        return *(const bool *)f;
    }
    return p->info == &qdev_prop_uint64 ? *(const uint64_t *)f
                                        : *(const uint32_t *)f;
}

/* A property whose default is not the model's is a bug: stop at once. */
static void msc_check_defaults(void)
{
    MpamMscConfig def;

    mpam_msc_config_default(&def);
    for (int i = 0; i < ARRAY_SIZE(msc_props); i++) {
        const Property *p = &msc_props[i];

        if (p->offset >= offsetof(S, cfg) &&
            p->offset < offsetof(S, cfg) + sizeof(MpamMscConfig) &&
            p->defval.u != model_default(&def, p)) {
            error_report("%s: property %s defaults to %" PRIu64 ", the model "
                         "to %" PRIu64, TYPE_MEMQOS_MPAM_MSC, p->name,
                         p->defval.u, model_default(&def, p));
            abort();
        }
    }
}

#undef S
#undef RIS0

static const QEnumLookup msc_kind_lookup = {
    .array = (const char *const[]) {
        [MPAM_RIS_CACHE] = "cache",
        [MPAM_RIS_MEMORY] = "memory",
    },
    .size = 2,
};

static int msc_get_kind(Object *obj, Error **errp)
{
    return MEMQOS_MPAM_MSC(obj)->cfg.ris[0].kind;
}

/*
 * A kind brings the model's defaults for it (mpam_ris_config_default).
 * Fixed once realized, as the static properties are: the model was built
 * from it.
 */
static void msc_set_kind(Object *obj, int value, Error **errp)
{
    if (DEVICE(obj)->realized) {
        error_setg(errp, "MPAM MSC '%s': kind cannot change once it is "
                   "realized", MEMQOS_MPAM_MSC(obj)->name);
        return;
    }
    mpam_ris_config_default(&MEMQOS_MPAM_MSC(obj)->cfg.ris[0], value);
}

/*
 * Read-only "cache-checksum" and "mbw-checksum": the lines of RIS 0's
 * cache (owners, dirty bits, LRU order) and the state of its bandwidth
 * regulator, for tests that compare states with qom-get, e.g. before and
 * after migration (tests/guest-runner/timing_migrate.py).
 */
typedef struct MscChecksum {
    const char *name;
    bool (*fn)(MpamMsc *msc, unsigned ris, uint64_t *out);
    const char *what;
    const char *desc;
} MscChecksum;

static const MscChecksum msc_checksums[] = {
    { "cache-checksum", mpam_msc_cache_checksum, "cache",
      "read-only: checksum of the cache's lines, owners, dirty bits and "
      "LRU order (RIS 0; an error without a cache)" },
    { "mbw-checksum", mpam_msc_mbw_checksum, "bandwidth regulator",
      "read-only: checksum of the bandwidth regulator's windows and counts "
      "(RIS 0; an error without mbw-bytes-per-s)" },
};

static void msc_get_checksum(Object *obj, Visitor *v, const char *name,
                             void *opaque, Error **errp)
{
    MemqosMpamMscState *s = MEMQOS_MPAM_MSC(obj);
    const MscChecksum *c = opaque;
    uint64_t sum;
    bool ok;

    if (!s->msc) {
        error_setg(errp, "MPAM MSC '%s' is not realized", s->name);
        return;
    }
    memqos_mpam_msc_lock(s);
    ok = c->fn(s->msc, 0, &sum);
    memqos_mpam_msc_unlock(s);
    if (!ok) {
        error_setg(errp, "MPAM MSC '%s' has no %s", s->name, c->what);
        return;
    }
    visit_type_uint64(v, name, &sum, errp);
}

static void msc_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);
    ObjectProperty *kind;

    dc->desc = "Arm MPAM memory-system component (memqos)";
    dc->realize = msc_realize;
    dc->unrealize = msc_unrealize;
    dc->vmsd = &vmstate_memqos_mpam_msc;
    rc->phases.hold = msc_reset_hold;
    msc_check_defaults();
    device_class_set_props(dc, msc_props);
    kind = object_class_property_add_enum(oc, "kind", "MpamRisKind",
                                          &msc_kind_lookup, msc_get_kind,
                                          msc_set_kind);
    object_property_set_default_str(kind, "cache");
    object_class_property_set_description(oc, "kind",
        "cache or memory: resets every RIS property to the model's default "
        "for that kind, so set it before them");
    object_class_property_add_str(oc, "mbw-policy", msc_get_mbw_policy,
                                  msc_set_mbw_policy);
    object_class_property_set_description(oc, "mbw-policy",
        "host bandwidth policy of a memory RIS, over what the guest "
        "programs: PARTID:ITEM[:ITEM...];... with ITEM hardlim, "
        "min=PERCENT% or prop=STRIDE; replaces the whole policy, also at "
        "run time (qom-set)");
    for (int i = 0; i < ARRAY_SIZE(msc_checksums); i++) {
        object_class_property_add(oc, msc_checksums[i].name, "uint64",
                                  msc_get_checksum, NULL, NULL,
                                  (void *)&msc_checksums[i]);
        object_class_property_set_description(oc, msc_checksums[i].name,
                                              msc_checksums[i].desc);
    }
    /* Created by boards (virt mpam=on) with a memory map and ACPI entry. */
    dc->user_creatable = false;
}

static const TypeInfo msc_info = {
    .name = TYPE_MEMQOS_MPAM_MSC,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(MemqosMpamMscState),
    .instance_init = msc_init,
    .instance_finalize = msc_finalize,
    .class_init = msc_class_init,
};

static void msc_register_types(void)
{
    type_register_static(&msc_info);
}
type_init(msc_register_types)

/* ---- enumeration for QMP/HMP ------------------------------------------- */

static int msc_list_add(Object *obj, void *opaque)
{
    GSList **list = opaque;

    if (object_dynamic_cast(obj, TYPE_MEMQOS_MPAM_MSC) &&
        DEVICE(obj)->realized) {
        *list = g_slist_prepend(*list, obj);
    }
    return 0;
}

static gint msc_cmp_id(gconstpointer a, gconstpointer b)
{
    const MemqosMpamMscState *x = a, *y = b;

    return (x->id > y->id) - (x->id < y->id);
}

GSList *memqos_mpam_msc_list(void)
{
    GSList *list = NULL;

    object_child_foreach_recursive(object_get_root(), msc_list_add, &list);
    return g_slist_sort(list, msc_cmp_id);
}
