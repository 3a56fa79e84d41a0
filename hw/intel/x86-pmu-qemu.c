/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The x86 architectural PMU in qemu-system-x86_64: the memqos-x86-pmu
 * device (/machine/x86-pmu) owning the pure-C PMU (x86-pmu.c) of every
 * vCPU of an rdt=<model> machine.  Translates only: the MSRs and RDPMC
 * of the current vCPU, the hierarchy's outcomes with the vCPU's CPL, the
 * clock the time counters fold from, the PMI, reset and VMState.
 * docs/x86-pmu-design.md §3.
 */
#include "qemu/osdep.h"
#include "qemu/main-loop.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/boards.h"
#include "hw/i386/apic.h"
#include "hw/qdev-core.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "system/cpu-timers.h"
#include "system/reset.h"
#include "target/i386/cpu.h"
#include "trace/trace-hw_memqos_intel.h"
#include "x86-pmu-qemu.h"
#include "../memsys/timing-qemu.h"
#include "../memsys/config-qemu.h"

OBJECT_DECLARE_SIMPLE_TYPE(MemqosX86PmuState, MEMQOS_X86_PMU)

struct MemqosX86PmuState {
    DeviceState parent_obj;
    /* properties */
    char *model;
    uint32_t n_cpus;
    uint32_t core_mhz;
    uint32_t tsc_mhz;
    X86Pmu *pmu;
    /* x86_pmu_state(): what VMState carries */
    uint64_t *regs;
    uint32_t n_regs;
    MemqosMigConfig *mig_config;
};

/* One per machine; the access path must not look it up by path. */
static MemqosX86PmuState *pmu_dev;

static unsigned cpl_of(CPUState *cs)
{
    return X86_CPU(cs)->env.hflags & HF_CPL_MASK;
}

/*
 * The vCPU's clock.  With timing=on the modeled time (icount_cpu_now_fs)
 * and, for instructions, the icount units it has run: until a per-vCPU
 * executed-instruction count exists (design §3, patch 0023) they include
 * the charged stall and halted time.  Without timing the virtual clock,
 * and one instruction a cycle.
 */
static void pmu_clock(void *opaque, unsigned cpu, uint64_t *now_fs,
                      uint64_t *insns)
{
    MemqosX86PmuState *s = opaque;
    MemqosTimingState *t = memqos_timing_get();

    if (t) {
        *now_fs = icount_cpu_now_fs(qemu_get_cpu(cpu));
        *insns = *now_fs / t->unit_fs;
    } else {
        *now_fs = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) * 1000000ull;
        *insns = (unsigned __int128)*now_fs * s->core_mhz / 1000000000ull;
    }
}

/*
 * Fold the time counters up to now at the CPL they ran at, which is the
 * CPL now unless it changed since the last fold: until the CPL-change
 * hook (design §3, patch 0036) folds at each change, an interval is
 * counted at the CPL of its end.
 */
static void fold_now(MemqosX86PmuState *s, CPUState *cs)
{
    uint64_t now, insns;

    pmu_clock(s, cs->cpu_index, &now, &insns);
    x86_pmu_fold(s->pmu, cs->cpu_index, now, insns, cpl_of(cs));
}

static void pmi_deliver(CPUState *cs, run_on_cpu_data data)
{
    BQL_LOCK_GUARD();
    apic_deliver_pmi(X86_CPU(cs)->apic_state);
}

/*
 * An overflow with its interrupt bit: a PMI through the local APIC's LVT
 * performance-counter entry (patch 0035), which Linux programs as NMI
 * (perf_events_lapic_init) on every CPU.  Raised as work the vCPU runs
 * before its next TB: an access hook runs mid-TB, where raising an
 * interrupt under icount is fatal ("Raised interrupt while not in I/O
 * function").
 */
static void deliver_pmi(MemqosX86PmuState *s, CPUState *cs)
{
    if (x86_pmu_take_pmi(s->pmu, cs->cpu_index)) {
        trace_memqos_x86_pmu_pmi(cs->cpu_index);
        async_run_on_cpu(cs, pmi_deliver, RUN_ON_CPU_NULL);
    }
}

MsrResult memqos_x86_pmu_msr(CPUState *cs, uint32_t msr, uint64_t *val,
                                   bool write)
{
    MemqosX86PmuState *s = pmu_dev;
    MsrResult res;

    if (!s) {
        return MSR_NOT_MINE;
    }
    fold_now(s, cs);
    res = write ? x86_pmu_msr_write(s->pmu, cs->cpu_index, msr, *val)
                : x86_pmu_msr_read(s->pmu, cs->cpu_index, msr, val);
    if (res != MSR_NOT_MINE) {
        /* a refused read leaves *val unset */
        trace_memqos_x86_pmu_msr(cs->cpu_index, msr,
                                 write || res == MSR_OK ? *val : 0,
                                 write, res);
        deliver_pmi(s, cs);
    }
    return res;
}

bool memqos_x86_pmu_rdpmc(CPUState *cs, uint32_t ecx, uint64_t *val)
{
    MemqosX86PmuState *s = pmu_dev;
    bool ok;

    fold_now(s, cs);
    ok = x86_pmu_rdpmc(s->pmu, cs->cpu_index, ecx, val);
    trace_memqos_x86_pmu_rdpmc(cs->cpu_index, ecx, ok ? *val : 0, ok);
    deliver_pmi(s, cs);
    return ok;
}

void memqos_x86_pmu_access(CPUState *cs, MemReqKind kind, uint8_t level)
{
    MemqosX86PmuState *s = pmu_dev;

    x86_pmu_access(s->pmu, cs->cpu_index, kind, level, cpl_of(cs));
    deliver_pmi(s, cs);
}

static int pmu_post_load(void *opaque, int version_id)
{
    return memqos_refuse_load(TYPE_MEMQOS_X86_PMU,
                             x86_pmu_post_load(MEMQOS_X86_PMU(opaque)->pmu));
}

static const VMStateDescription vmstate_memqos_x86_pmu = {
    .name = TYPE_MEMQOS_X86_PMU,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = pmu_post_load,
    .fields = (const VMStateField[]) {
        /* the size follows the description: another one is another machine */
        VMSTATE_UINT32_EQUAL(n_regs, MemqosX86PmuState, NULL),
        VMSTATE_VARRAY_UINT32(regs, MemqosX86PmuState, n_regs, 0,
                              vmstate_info_uint64, uint64_t),
        VMSTATE_END_OF_LIST()
    },
};

static void pmu_reset_hold(Object *obj, ResetType type)
{
    x86_pmu_reset(MEMQOS_X86_PMU(obj)->pmu);
}

static void pmu_realize(DeviceState *dev, Error **errp)
{
    MemqosX86PmuState *s = MEMQOS_X86_PMU(dev);
    X86PmuConfig cfg = { .timing_mhz = s->core_mhz, .tsc_mhz = s->tsc_mhz };
    const X86PmuDesc *d = s->model ? x86_pmu_desc_find(s->model) : NULL;
    g_autoptr(GError) err = NULL;

    if (!d) {
        error_setg(errp, "%s: model=%s: no PMU description (%s or %s)",
                   TYPE_MEMQOS_X86_PMU, s->model ?: "",
                   x86_pmu_desc_sapphirerapids.name,
                   x86_pmu_desc_goldmont.name);
        return;
    }
    s->pmu = x86_pmu_new(d, s->n_cpus, &cfg, &err);
    if (!s->pmu) {
        error_setg(errp, "%s: %s", TYPE_MEMQOS_X86_PMU, err->message);
        return;
    }
    x86_pmu_set_clock(s->pmu, pmu_clock, s);
    s->regs = x86_pmu_state(s->pmu, &s->n_regs);
    pmu_dev = s;
    s->mig_config = memqos_mig_config_register(OBJECT(dev),
                                               TYPE_MEMQOS_X86_PMU,
                                               TYPE_MEMQOS_X86_PMU "-config",
                                               NULL, NULL);
}

static void pmu_finalize(Object *obj)
{
    MemqosX86PmuState *s = MEMQOS_X86_PMU(obj);

    if (pmu_dev == s) {
        pmu_dev = NULL;
    }
    memqos_mig_config_unregister(s->mig_config);
    x86_pmu_free(s->pmu);
}

static const Property pmu_props[] = {
    DEFINE_PROP_STRING("model", MemqosX86PmuState, model),
    DEFINE_PROP_UINT32("cpus", MemqosX86PmuState, n_cpus, 1),
    DEFINE_PROP_UINT32("core-mhz", MemqosX86PmuState, core_mhz,
                       MEMSYS_TIMING_DEFAULT_MHZ),
    /* TCG's TSC under icount is the virtual clock in ns (cpu_get_ticks) */
    DEFINE_PROP_UINT32("tsc-mhz", MemqosX86PmuState, tsc_mhz, 1000),
};

static void pmu_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->desc = "memqos x86 architectural PMU of the machine's rdt= vCPUs";
    dc->vmsd = &vmstate_memqos_x86_pmu;
    dc->realize = pmu_realize;
    dc->user_creatable = false;
    rc->phases.hold = pmu_reset_hold;
    device_class_set_props(dc, pmu_props);
    object_class_property_set_description(oc, "tsc-mhz",
        "Rate of the reference-cycles events (CPU_CLK_UNHALTED.REF_TSC)");
}

static const TypeInfo pmu_info = {
    .name = TYPE_MEMQOS_X86_PMU,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(MemqosX86PmuState),
    .instance_finalize = pmu_finalize,
    .class_init = pmu_class_init,
};

static void pmu_register_types(void)
{
    type_register_static(&pmu_info);
}
type_init(pmu_register_types)

void memqos_x86_pmu_create(const char *model, unsigned n_cpus,
                           uint32_t core_mhz)
{
    DeviceState *dev = qdev_new(TYPE_MEMQOS_X86_PMU);

    /* a PMU of the vCPUs' model, for them, at the timing model's clock */
    memqos_board_prop(dev, "model", "-cpu rdt=", &error_fatal);
    memqos_board_prop(dev, "cpus", "-smp", &error_fatal);
    memqos_board_prop(dev, "core-mhz", "memqos-timing.timing-mhz",
                      &error_fatal);
    qdev_prop_set_string(dev, "model", model);
    qdev_prop_set_uint32(dev, "cpus", n_cpus);
    qdev_prop_set_uint32(dev, "core-mhz", core_mhz);
    memqos_apply_globals(dev, &error_fatal);
    object_property_add_child(qdev_get_machine(), "x86-pmu", OBJECT(dev));
    qdev_realize_and_unref(dev, NULL, &error_fatal);
    /* bus-less: reset with the machine */
    qemu_register_resettable(OBJECT(dev));
}
