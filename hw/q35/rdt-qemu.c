/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intel RDT in qemu-system-x86_64: the memqos-rdt device (/machine/rdt)
 * owning the pure-C MSR file (rdt-msr.c) of every vCPU and cache domain,
 * created by the first vCPU whose "rdt" property names a description.
 * Translates only: MSR accesses, reset, VMState of the MSR arrays, and
 * one read-only QOM property per stored MSR of the table (rdt_msr_defs[]).
 * With timing=on (-global memqos-rdt.timing=on) it also puts the modeled
 * memory system below the vCPUs: the memqos-timing device (timing-qemu.c)
 * over the RDT shared side (rdt-memsys.c: the L3 under CAT, MBM, MBA, or
 * Goldmont's L2s shared by core pairs under L2 CAT), the vCPUs' accesses
 * labelled (CLOSID, RMID) from IA32_PQR_ASSOC.
 * docs/rdt-model.md "Platform".  Every such machine also has the x86 PMU
 * of its model (x86-pmu-qemu.c), counting the hierarchy's outcomes with
 * timing=on; the MSRs RDT does not own go to it.
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qapi/qapi-builtin-visit.h"
#include "qom/object.h"
#include "hw/boards.h"
#include "hw/core/cpu.h"
#include "hw/qdev-core.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "system/reset.h"
#include "system/system.h"
#include "system/tcg.h"
#include "rdt-qemu.h"
#include "rdt-memsys.h"
#include "../intel/imc-qemu.h"
#include "../intel/x86-pmu-qemu.h"
#include "../memsys/timing-qemu.h"
#include "../memsys/config-qemu.h"

OBJECT_DECLARE_SIMPLE_TYPE(MemqosRdtState, MEMQOS_RDT)

/* VMState of one last-level cache's lines (its pcache's setassoc words) */
typedef struct MemqosRdtCacheWords {
    uint32_t n;
    uint32_t *words;
} MemqosRdtCacheWords;

struct MemqosRdtState {
    DeviceState parent_obj;
    /* properties */
    bool timing;
    uint64_t mba_peak;
    const RdtDesc *desc;
    Rdt *rdt;
    /* rdt_state() of each scope: what VMState carries */
    uint64_t *regs[RDT_SCOPE_N];
    uint32_t n_regs[RDT_SCOPE_N];
    /* timing=on: the shared side, set up once every vCPU exists */
    Notifier machine_done;
    RdtMemsys *rm;
    Memsys *memsys;
    /* VMState of rm: the last-level caches' lines, the MBM counters */
    MemqosRdtCacheWords *llc;
    uint32_t n_llc;
    uint64_t *mbm;
    uint32_t n_mbm;
    MemqosMigConfig *mig_config;
};

static MemqosRdtState *the_rdt(void)
{
    return MEMQOS_RDT(object_resolve_path_component(qdev_get_machine(),
                                                    "rdt"));
}

/*
 * Domain MSRs are shared by vCPU threads: accesses hold the BQL.  With
 * timing=on, the access path reads the masks and delays, and QM_CTR
 * reads the L3 and the counters, under the memsys lock: take it too.
 */
static MsrResult rdt_msr(unsigned cpu, uint32_t msr, uint64_t *val,
                         bool write)
{
    MemqosRdtState *s;
    MsrResult res;

    BQL_LOCK_GUARD();
    s = the_rdt();
    if (s->memsys) {
        memsys_lock(s->memsys);
    }
    res = write ? rdt_msr_write(s->rdt, cpu, msr, *val)
                : rdt_msr_read(s->rdt, cpu, msr, val);
    if (s->memsys) {
        memsys_unlock(s->memsys);
    }
    /* the PMU's MSRs are per vCPU: no lock but the BQL's order */
    return res != MSR_NOT_MINE ? res
           : memqos_x86_pmu_msr(qemu_get_cpu(cpu), msr, val, write);
}

bool memqos_rdt_cpuid(const RdtDesc *d, uint32_t leaf, uint32_t subleaf,
                      uint32_t *eax, uint32_t *ebx, uint32_t *ecx,
                      uint32_t *edx)
{
    return rdt_cpuid(d, leaf, subleaf, eax, ebx, ecx, edx) ||
           x86_pmu_cpuid(x86_pmu_desc_find(d->name), leaf, subleaf, eax, ebx,
                         ecx, edx);
}

RdtMsrResult memqos_rdt_rdmsr(unsigned cpu, uint32_t msr, uint64_t *val)
{
    return rdt_msr(cpu, msr, val, false);
}

RdtMsrResult memqos_rdt_wrmsr(unsigned cpu, uint32_t msr, uint64_t val)
{
    return rdt_msr(cpu, msr, &val, true);
}

/*
 * QOM: one uint64 list per stored MSR (range), instance by instance (vCPU,
 * L2 or L3 domain), every register of the range within, e.g.
 * IA32_L2_QOS_MASK_n of Goldmont = L2 0's four masks, then L2 1's.
 */
static void get_msr(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    MemqosRdtState *s = MEMQOS_RDT(obj);
    const MsrDef *def = opaque;
    uint32_t n = def->count(s->desc, def->arg);
    unsigned n_cpus = rdt_n_cpus(s->rdt);
    uint64List *list = NULL, **tail = &list;

    for (unsigned dom = 0; dom < rdt_n_domains(s->rdt, def->scope); dom++) {
        unsigned cpu = 0;

        while (cpu < n_cpus && rdt_domain_of(s->rdt, def->scope, cpu) != dom) {
            cpu++;
        }
        for (uint32_t i = 0; i < n && cpu < n_cpus; i++) {
            uint64_t val;

            g_assert(rdt_msr_read(s->rdt, cpu, def->addr + i, &val) ==
                     MSR_OK);
            QAPI_LIST_APPEND(tail, val);
        }
    }
    visit_type_uint64List(v, name, &list, errp);
    qapi_free_uint64List(list);
}

static int rdt_post_load_cb(void *opaque, int version_id)
{
    return memqos_refuse_load(TYPE_MEMQOS_RDT,
                             rdt_post_load(MEMQOS_RDT(opaque)->rdt));
}

/*
 * timing=on: the last-level caches' lines (the L3, or Goldmont's L2s) and
 * the MBM counters (rdt_memsys_mbm_state)
 */
static bool rdt_memsys_needed(void *opaque)
{
    return MEMQOS_RDT(opaque)->rm;
}

static int rdt_memsys_post_load_cb(void *opaque, int version_id)
{
    return memqos_refuse_load(TYPE_MEMQOS_RDT ": last-level cache",
                             rdt_memsys_post_load(MEMQOS_RDT(opaque)->rm));
}

static const VMStateDescription vmstate_memqos_rdt_llc = {
    .name = TYPE_MEMQOS_RDT "/llc",
    .version_id = 1,
    .minimum_version_id = 1,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_EQUAL(n, MemqosRdtCacheWords, NULL),
        VMSTATE_VARRAY_UINT32(words, MemqosRdtCacheWords, n, 0,
                              vmstate_info_uint32, uint32_t),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_memqos_rdt_memsys = {
    .name = TYPE_MEMQOS_RDT "/memsys",
    .version_id = 1,
    .minimum_version_id = 1,
    .needed = rdt_memsys_needed,
    .post_load = rdt_memsys_post_load_cb,
    .fields = (const VMStateField[]) {
        /* sizes follow the description: another one is another machine */
        VMSTATE_UINT32_EQUAL(n_llc, MemqosRdtState, NULL),
        VMSTATE_STRUCT_VARRAY_POINTER_UINT32(llc, MemqosRdtState, n_llc,
                                             vmstate_memqos_rdt_llc,
                                             MemqosRdtCacheWords),
        VMSTATE_UINT32_EQUAL(n_mbm, MemqosRdtState, NULL),
        VMSTATE_VARRAY_UINT32(mbm, MemqosRdtState, n_mbm, 0,
                              vmstate_info_uint64, uint64_t),
        VMSTATE_END_OF_LIST()
    },
};

static const VMStateDescription vmstate_memqos_rdt = {
    .name = TYPE_MEMQOS_RDT,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = rdt_post_load_cb,
    .fields = (const VMStateField[]) {
        VMSTATE_VARRAY_UINT32(regs[RDT_SCOPE_CPU], MemqosRdtState,
                              n_regs[RDT_SCOPE_CPU], 0, vmstate_info_uint64,
                              uint64_t),
        VMSTATE_VARRAY_UINT32(regs[RDT_SCOPE_L2], MemqosRdtState,
                              n_regs[RDT_SCOPE_L2], 0, vmstate_info_uint64,
                              uint64_t),
        VMSTATE_VARRAY_UINT32(regs[RDT_SCOPE_L3], MemqosRdtState,
                              n_regs[RDT_SCOPE_L3], 0, vmstate_info_uint64,
                              uint64_t),
        VMSTATE_END_OF_LIST()
    },
    .subsections = (const VMStateDescription * const []) {
        &vmstate_memqos_rdt_memsys,
        NULL
    },
};

static void rdt_reset_hold(Object *obj, ResetType type)
{
    MemqosRdtState *s = MEMQOS_RDT(obj);

    rdt_reset(s->rdt);
    if (s->rm) {
        /* power-on: the caches empty, the counters 0 */
        rdt_memsys_reset(s->rm);
    }
}

/* ---- timing=on ------------------------------------------------------------ */

/* The timing model's labels: (CLOSID, RMID) of the vCPU's IA32_PQR_ASSOC. */
static MemLabel timing_label(CPUState *cs, bool is_instr)
{
    return rdt_label_for(the_rdt()->rdt, cs->cpu_index);
}

/*
 * The memqos-timing device over the RDT shared side of the one L3 domain,
 * or of every L2 domain of a part without an L3, its outcomes counted by
 * the PMU.
 */
static MemqosTimingState *rdt_timing_create(MemqosRdtState *s)
{
    DeviceState *dev = qdev_new(TYPE_MEMQOS_TIMING);
    MemqosTimingState *t = MEMQOS_TIMING(dev);
    RdtMemsysConfig cfg = { .mem_bytes_per_s = s->mba_peak };
    g_autoptr(GError) err = NULL;
    MemsysPorts ports;

    s->rm = rdt_memsys_new(s->rdt, 0, &cfg, NULL, &err);
    if (!s->rm) {
        error_report("memqos-rdt: timing=on: %s", err->message);
        exit(1);
    }
    ports = rdt_memsys_ports(s->rm);
    /* the iMC uncore PMU, if the machine has one, counts its traffic */
    memqos_spr_uncore_tap(&ports);
    t->topo = s->desc->caches;
    memqos_timing_set_ports(t, &ports, timing_label, (MemLabel){
        MAX(rdt_desc_max_cos(s->desc), 1) - 1, MAX(s->desc->n_rmid, 1) - 1 });
    memqos_timing_set_outcome(t, memqos_x86_pmu_access);
    /* created once the machine is done: QEMU only warns of a bad -global */
    memqos_apply_globals(dev, &error_fatal);
    object_property_add_child(qdev_get_machine(), "memqos-timing",
                              OBJECT(dev));
    qdev_realize_and_unref(dev, NULL, &error_fatal);
    s->memsys = t->memsys;
    s->n_llc = rdt_memsys_n_caches(s->rm);
    s->llc = g_new(MemqosRdtCacheWords, s->n_llc);
    for (unsigned i = 0; i < s->n_llc; i++) {
        PCache *pc = rdt_cache_pcache(rdt_memsys_cache(s->rm, i));

        s->llc[i] = (MemqosRdtCacheWords){ pc->sa.n_words, pc->sa.words };
    }
    s->mbm = rdt_memsys_mbm_state(s->rm, &s->n_mbm);
    return t;
}

/*
 * Every vCPU exists now (the hierarchy has one MemsysCpu each) and none
 * has run: with timing=on the modeled memory system, and the PMU, whose
 * cycles are the modeled core's.
 */
static void rdt_machine_done(Notifier *n, void *data)
{
    MemqosRdtState *s = container_of(n, MemqosRdtState, machine_done);
    MemqosTimingState *t = s->timing ? rdt_timing_create(s) : NULL;

    memqos_x86_pmu_create(s->desc->name, rdt_n_cpus(s->rdt),
                          t ? t->cfg.mhz : MEMSYS_TIMING_DEFAULT_MHZ);
}

static void rdt_realize(DeviceState *dev, Error **errp)
{
    MemqosRdtState *s = MEMQOS_RDT(dev);

    if (!s->timing && s->mba_peak) {
        error_setg(errp, "%s: mba-peak needs timing=on", TYPE_MEMQOS_RDT);
        return;
    }
    if (s->timing && !tcg_enabled()) {
        error_setg(errp, "%s: timing=on needs TCG", TYPE_MEMQOS_RDT);
        return;
    }
    /*
     * one hierarchy, one L3: the shared side of L3 domain 0; without an
     * L3 (Goldmont) every L2 domain is in it
     */
    if (s->timing && s->desc->caches.l3.size &&
        rdt_n_domains(s->rdt, RDT_SCOPE_L3) != 1) {
        error_setg(errp, "%s: timing=on models one L3: at most %u CPUs "
                   "(rdt=%s)", TYPE_MEMQOS_RDT, s->desc->cores,
                   s->desc->name);
        return;
    }
    s->machine_done.notify = rdt_machine_done;
    qemu_add_machine_init_done_notifier(&s->machine_done);
    s->mig_config = memqos_mig_config_register(OBJECT(dev), TYPE_MEMQOS_RDT,
                                               TYPE_MEMQOS_RDT "-config",
                                               NULL, NULL);
}

static const Property rdt_props[] = {
    DEFINE_PROP_BOOL("timing", MemqosRdtState, timing, false),
    DEFINE_PROP_SIZE("mba-peak", MemqosRdtState, mba_peak, 0),
};

static void rdt_finalize(Object *obj)
{
    MemqosRdtState *s = MEMQOS_RDT(obj);

    memqos_mig_config_unregister(s->mig_config);
    rdt_memsys_free(s->rm);
    g_free(s->llc);
    rdt_free(s->rdt);
}

static void rdt_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->desc = "memqos Intel RDT MSRs of the machine's vCPUs";
    dc->vmsd = &vmstate_memqos_rdt;
    dc->realize = rdt_realize;
    dc->user_creatable = false;
    rc->phases.hold = rdt_reset_hold;
    device_class_set_props(dc, rdt_props);
    object_class_property_set_description(oc, "timing",
        "Set on for the modeled memory system below the vCPUs: the L3 "
        "under CAT, CMT, MBM and MBA (or Goldmont's shared L2s under L2 "
        "CAT), modeled time (needs -icount "
        "shift=0,sleep=off; parameters: -global memqos-timing.<property>)");
    object_class_property_set_description(oc, "mba-peak",
        "timing=on: bytes/s MBA's percentages are of (K/M/G/T are powers "
        "of 1024; 0: MBA does not act)");
}

static const TypeInfo rdt_info = {
    .name = TYPE_MEMQOS_RDT,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(MemqosRdtState),
    .instance_finalize = rdt_finalize,
    .class_init = rdt_class_init,
};

static void rdt_register_types(void)
{
    type_register_static(&rdt_info);
}
type_init(rdt_register_types)

static MemqosRdtState *rdt_create(const RdtDesc *d, Error **errp)
{
    MachineState *ms = MACHINE(qdev_get_machine());
    MemqosRdtState *s = MEMQOS_RDT(qdev_new(TYPE_MEMQOS_RDT));
    g_autoptr(GError) err = NULL;

    s->desc = d;
    s->rdt = rdt_new(d, ms->smp.max_cpus, &err);
    if (!s->rdt) {
        error_setg(errp, "rdt=%s: %s", d->name, err->message);
        object_unref(OBJECT(s));
        return NULL;
    }
    for (unsigned sc = 0; sc < RDT_SCOPE_N; sc++) {
        s->regs[sc] = rdt_state(s->rdt, sc, &s->n_regs[sc]);
    }
    for (unsigned i = 0; i < rdt_msr_n_defs; i++) {
        const MsrDef *def = &rdt_msr_defs[i];

        if (!def->read && def->count(d, def->arg)) {
            object_property_add(OBJECT(s), def->name, "uint64List", get_msr,
                                NULL, NULL, (void *)def);
        }
    }
    object_property_add_child(OBJECT(ms), "rdt", OBJECT(s));
    object_unref(OBJECT(s));
    if (!qdev_realize(DEVICE(s), NULL, errp)) {
        object_unparent(OBJECT(s));
        return NULL;
    }
    /* bus-less: reset with the machine */
    qemu_register_resettable(OBJECT(s));
    return s;
}

const RdtDesc *memqos_rdt_cpu_realize(const char *name, Error **errp)
{
    const RdtDesc *d = rdt_desc_find(name);
    g_autofree char *why = NULL;
    MemqosRdtState *s;

    if (!d) {
        error_setg(errp, "rdt=%s: unknown RDT model (%s or %s)", name,
                   rdt_desc_sapphirerapids.name, rdt_desc_goldmont.name);
        return NULL;
    }
    why = rdt_desc_check(d);
    if (why) {
        error_setg(errp, "rdt=%s: %s", name, why);
        return NULL;
    }
    s = object_resolve_path_component(qdev_get_machine(), "rdt") ?
        the_rdt() : rdt_create(d, errp);
    if (!s) {
        return NULL;
    }
    if (s->desc != d) {
        error_setg(errp, "rdt=%s: every CPU must have the same RDT model "
                   "(another has rdt=%s)", name, s->desc->name);
        return NULL;
    }
    return d;
}
