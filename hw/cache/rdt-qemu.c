/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intel RDT in qemu-system-x86_64: the memqos-rdt device (/machine/rdt)
 * owning the pure-C MSR file (rdt-msr.c) of every vCPU and cache domain,
 * created by the first vCPU whose "rdt" property names a description.
 * Translates only: MSR accesses, reset, VMState of the MSR arrays, and
 * one read-only QOM property per stored MSR of the table (rdt_msr_defs[]).
 * docs/rdt-model.md "Platform".
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "qapi/qapi-builtin-visit.h"
#include "qom/object.h"
#include "hw/boards.h"
#include "hw/qdev-core.h"
#include "migration/vmstate.h"
#include "system/reset.h"
#include "rdt-qemu.h"

OBJECT_DECLARE_SIMPLE_TYPE(MemqosRdtState, MEMQOS_RDT)

struct MemqosRdtState {
    DeviceState parent_obj;
    const RdtDesc *desc;
    Rdt *rdt;
    /* rdt_state() of each scope: what VMState carries */
    uint64_t *regs[RDT_SCOPE_N];
    uint32_t n_regs[RDT_SCOPE_N];
};

static MemqosRdtState *the_rdt(void)
{
    return MEMQOS_RDT(object_resolve_path_component(qdev_get_machine(),
                                                    "rdt"));
}

/* Domain MSRs are shared by vCPU threads: accesses hold the BQL. */
RdtMsrResult memqos_rdt_rdmsr(unsigned cpu, uint32_t msr, uint64_t *val)
{
    BQL_LOCK_GUARD();
    return rdt_msr_read(the_rdt()->rdt, cpu, msr, val);
}

RdtMsrResult memqos_rdt_wrmsr(unsigned cpu, uint32_t msr, uint64_t val)
{
    BQL_LOCK_GUARD();
    return rdt_msr_write(the_rdt()->rdt, cpu, msr, val);
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
    const RdtMsrDef *def = opaque;
    uint32_t n = def->count(s->desc, def->level);
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
                     RDT_MSR_OK);
            QAPI_LIST_APPEND(tail, val);
        }
    }
    visit_type_uint64List(v, name, &list, errp);
    qapi_free_uint64List(list);
}

static int rdt_post_load_cb(void *opaque, int version_id)
{
    MemqosRdtState *s = opaque;
    g_autofree char *why = rdt_post_load(s->rdt);

    if (why) {
        error_report("memqos-rdt: %s", why);
        return -EINVAL;
    }
    return 0;
}

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
};

static void rdt_reset_hold(Object *obj, ResetType type)
{
    rdt_reset(MEMQOS_RDT(obj)->rdt);
}

static void rdt_finalize(Object *obj)
{
    rdt_free(MEMQOS_RDT(obj)->rdt);
}

static void rdt_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->desc = "memqos Intel RDT MSRs of the machine's vCPUs";
    dc->vmsd = &vmstate_memqos_rdt;
    dc->user_creatable = false;
    rc->phases.hold = rdt_reset_hold;
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
        const RdtMsrDef *def = &rdt_msr_defs[i];

        if (!def->read && def->count(d, def->level)) {
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
