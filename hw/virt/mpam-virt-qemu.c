/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -M virt,mpam=on: the Arm MPAM platform of QEMU's virt machine.  virt.c
 * calls the hooks of mpam-virt-qemu.h; this file owns the machine options,
 * the CPUs' FEAT_MPAM and cache description, the two MSC devices and the
 * ACPI tables (PPTT with caches, MPAM).  Without mpam=on every hook does
 * nothing and the machine is stock virt.  docs/platform.md.
 */
#include "qemu/osdep.h"
#include "qemu/units.h"
#include "qemu/host-utils.h"
#include "qemu/accel.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/boards.h"
#include "hw/qdev-properties.h"
#include "hw/arm/virt.h"
#include "hw/intc/arm_gic_common.h"
#include "hw/acpi/aml-build.h"
#include "system/tcg.h"
#include "system/qtest.h"
#include "target/arm/cpu.h"
#include "target/arm/cpu-features.h"
#include "../mpam/msc-qemu.h"
#include "mpam-acpi-qemu.h"
#include "mpam-virt-qemu.h"
#include "../memsys/timing-qemu.h"
#include "../ddr-qos/ddr-qos-qemu.h"
#include "../agents/agents-qemu.h"
#include "bwmon-virt-qemu.h"
#include "msc-memsys.h"

#define LINE 64                 /* every cache level: 64-byte lines */
#define MAX_WAYS 255            /* PPTT associativity is 8 bits */
#define MAX_SETS 32768          /* CCSIDR NumSets is 15 bits (legacy format) */

/* ---- machine options ---------------------------------------------------- */

/* The numeric options; MemqosMpamVirt.val[] is indexed by this. */
typedef struct VirtMpamOpt {
    const char *name;
    uint64_t def, min, max;
    bool size;                  /* a size (K/M/G suffixes) */
    const char *desc;
} VirtMpamOpt;

static const VirtMpamOpt opts[MEMQOS_MPAM_VIRT_NUM_OPT] = {
    [MEMQOS_MPAM_VIRT_PARTIDS] = { "mpam-partids", 64, 1,
        MPAM_PARTID_MAX_LIMIT + 1, false,
        "mpam=on: PARTIDs of the CPUs and MSCs (default 64)" },
    [MEMQOS_MPAM_VIRT_PMGS] = { "mpam-pmgs", 8, 1, MPAM_PMG_MAX_LIMIT + 1,
        false, "mpam=on: PMGs of the CPUs and MSCs (default 8)" },
    /* the largest L3 has the most sets and ways (below) */
    [MEMQOS_MPAM_VIRT_L3_SIZE] = { "l3-size", 8 * MiB, 1,
        MAX_SETS * MAX_WAYS * LINE, true,
        "mpam=on: size of the shared L3 cache (default 8M)" },
    [MEMQOS_MPAM_VIRT_L3_WAYS] = { "l3-ways", 16, 1, MAX_WAYS, false,
        "mpam=on: associativity of the shared L3 cache (default 16)" },
    /* Neoverse N1/V2-like private caches (docs/timing-design.md, 3.5) */
    [MEMQOS_MPAM_VIRT_L1D_SIZE] = { "l1d-size", 64 * KiB, 1,
        MAX_SETS * MAX_WAYS * LINE, true,
        "mpam=on: size of each CPU's L1 data cache (default 64K)" },
    [MEMQOS_MPAM_VIRT_L1D_WAYS] = { "l1d-ways", 4, 1, MAX_WAYS, false,
        "mpam=on: associativity of the L1 data caches (default 4)" },
    [MEMQOS_MPAM_VIRT_L1I_SIZE] = { "l1i-size", 64 * KiB, 1,
        MAX_SETS * MAX_WAYS * LINE, true,
        "mpam=on: size of each CPU's L1 instruction cache (default 64K)" },
    [MEMQOS_MPAM_VIRT_L1I_WAYS] = { "l1i-ways", 4, 1, MAX_WAYS, false,
        "mpam=on: associativity of the L1 instruction caches (default 4)" },
    [MEMQOS_MPAM_VIRT_L2_SIZE] = { "l2-size", 1 * MiB, 1,
        MAX_SETS * MAX_WAYS * LINE, true,
        "mpam=on: size of each CPU's L2 cache (default 1M)" },
    [MEMQOS_MPAM_VIRT_L2_WAYS] = { "l2-ways", 8, 1, MAX_WAYS, false,
        "mpam=on: associativity of the L2 caches (default 8)" },
    /* docs/mbw-regulation.md "The QEMU platform" */
    [MEMQOS_MPAM_VIRT_MBW_PEAK] = { "mpam-mbw-peak", 0, 0, 16 * TiB, true,
        "timing=on: bytes/s the memory MSC's MBW_MAX/MIN/PROP fractions are "
        "of (K/M/G/T are powers of 1024; 0: the controls do not act; "
        "default: the DDR model's peak with ddr=on, else 0)" },
};

/*
 * The machine's MPAM options shape the board: fixed once it is built
 * (qom-set at run time is refused, naming the option).
 */
static bool fixed(const char *name, Error **errp)
{
    if (phase_check(PHASE_MACHINE_INITIALIZED)) {
        error_setg(errp, "%s cannot change once the machine is built (give it "
                   "with -M)", name);
        return true;
    }
    return false;
}

/* An option's value: as given, or its default. */
static uint64_t opt(const MemqosMpamVirt *m, int i)
{
    return m->given & BIT(i) ? m->val[i] : opts[i].def;
}

static void get_opt(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    int i = (const VirtMpamOpt *)opaque - opts;
    uint64_t value = opt(&VIRT_MACHINE(obj)->mpam, i);

    visit_type_uint64(v, name, &value, errp);
}

static void set_opt(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    MemqosMpamVirt *m = &VIRT_MACHINE(obj)->mpam;
    int i = (const VirtMpamOpt *)opaque - opts;
    uint64_t value;

    if (fixed(name, errp)) {
        return;
    }
    if (opts[i].size ? visit_type_size(v, name, &value, errp)
                     : visit_type_uint64(v, name, &value, errp)) {
        m->val[i] = value;
        m->given |= BIT(i);
    }
}

static bool get_on(Object *obj, Error **errp)
{
    return VIRT_MACHINE(obj)->mpam.on;
}

static void set_on(Object *obj, bool value, Error **errp)
{
    if (!fixed("mpam", errp)) {
        VIRT_MACHINE(obj)->mpam.on = value;
    }
}

static bool get_timing(Object *obj, Error **errp)
{
    return VIRT_MACHINE(obj)->mpam.timing;
}

static void set_timing(Object *obj, bool value, Error **errp)
{
    if (!fixed("timing", errp)) {
        VIRT_MACHINE(obj)->mpam.timing = value;
    }
}

static bool get_bwmon(Object *obj, Error **errp)
{
    return VIRT_MACHINE(obj)->mpam.bwmon;
}

static void set_bwmon(Object *obj, bool value, Error **errp)
{
    if (!fixed("bwmon", errp)) {
        VIRT_MACHINE(obj)->mpam.bwmon = value;
    }
}

static bool get_ddr(Object *obj, Error **errp)
{
    return VIRT_MACHINE(obj)->mpam.ddr;
}

static void set_ddr(Object *obj, bool value, Error **errp)
{
    if (!fixed("ddr", errp)) {
        VIRT_MACHINE(obj)->mpam.ddr = value;
    }
}

/* A string option: its char * at @offset in MemqosMpamVirt (str_opts[]). */
static char **str_opt(MemqosMpamVirt *m, size_t offset)
{
    return (char **)((char *)m + offset);
}

static void get_str(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    char **p = str_opt(&VIRT_MACHINE(obj)->mpam, (uintptr_t)opaque);
    g_autofree char *value = g_strdup(*p ?: "");

    visit_type_str(v, name, &value, errp);
}

static void set_str(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    char **p = str_opt(&VIRT_MACHINE(obj)->mpam, (uintptr_t)opaque);
    char *value;

    if (!fixed(name, errp) && visit_type_str(v, name, &value, errp)) {
        g_free(*p);
        *p = value;
    }
}

static const struct {
    const char *name;
    size_t offset;
    const char *desc;
} str_opts[] = {
    { "mpam-dspri", offsetof(MemqosMpamVirt, dspri),
      "mpam=on: firmware priority policy PARTID:DSPRI[:INTPRI];... "
      "applied by every MSC (Linux programs one priority for all PARTIDs)" },
    { "mpam-mbw-policy", offsetof(MemqosMpamVirt, mbw_policy),
      "mpam=on: firmware bandwidth policy of the memory MSC, "
      "PARTID:ITEM[:ITEM...];... with ITEM hardlim, min=PERCENT% or "
      "prop=STRIDE (Linux programs only MBW_MAX)" },
    { "bwmon-cpu", offsetof(MemqosMpamVirt, bwmon_cpu),
      "bwmon=on: the CPU monitor's register layout, sdm845 (default: one "
      "region, qcom,sdm845-bwmon) or msm8998 (a separate global region, "
      "qcom,msm8998-bwmon)" },
};

void memqos_mpam_virt_class_init(ObjectClass *oc)
{
    object_class_property_add_bool(oc, "mpam", get_on, set_on);
    object_class_property_set_description(oc, "mpam",
        "Set on/off to add Arm MPAM: CPUs with FEAT_MPAM, an L3 cache MSC "
        "and a memory MSC, described by ACPI PPTT and MPAM tables");
    for (int i = 0; i < MEMQOS_MPAM_VIRT_NUM_OPT; i++) {
        object_class_property_add(oc, opts[i].name,
                                  opts[i].size ? "size" : "uint64", get_opt,
                                  set_opt, NULL, (void *)&opts[i]);
        object_class_property_set_description(oc, opts[i].name,
                                              opts[i].desc);
    }
    object_class_property_add_bool(oc, "timing", get_timing, set_timing);
    object_class_property_set_description(oc, "timing",
        "mpam=on: Set on to run every access through the modeled caches and "
        "memory and let guest time include their latency (needs -icount "
        "shift=0,sleep=off; parameters: -global memqos-timing.<property>)");
    object_class_property_add_bool(oc, "ddr", get_ddr, set_ddr);
    object_class_property_set_description(oc, "ddr",
        "timing=on: Set on to serve memory with the DDR QoS scheduler model "
        "(uMCTL2 classes by the L3 MSC's DSPRI) instead of a constant "
        "latency (parameters: -global memqos-ddr.<property>)");
    object_class_property_add_bool(oc, "bwmon", get_bwmon, set_bwmon);
    object_class_property_set_description(oc, "bwmon",
        "timing=on: Set on to add Qualcomm BWMON monitors (an sdm845 CPU "
        "monitor and an LLCC monitor) on the modeled traffic and the OSM L3 "
        "interconnect providers their votes reach, in the device tree "
        "(Linux's icc-bwmon and osm-l3; boot with -kernel)");
    for (int i = 0; i < ARRAY_SIZE(str_opts); i++) {
        object_class_property_add(oc, str_opts[i].name, "str", get_str,
                                  set_str, NULL,
                                  (void *)(uintptr_t)str_opts[i].offset);
        object_class_property_set_description(oc, str_opts[i].name,
                                              str_opts[i].desc);
    }
}

/*
 * The caches CLIDR/CCSIDR, the PPTT, the L3 MSC and the timing model see:
 * one description, so what the guest reads is what the model does.
 */
static void cache_topo(const MemqosMpamVirt *m, MemqosCacheTopo *t)
{
    *t = (MemqosCacheTopo) {
        .l1d = { opt(m, MEMQOS_MPAM_VIRT_L1D_SIZE),
                 opt(m, MEMQOS_MPAM_VIRT_L1D_WAYS), LINE },
        .l1i = { opt(m, MEMQOS_MPAM_VIRT_L1I_SIZE),
                 opt(m, MEMQOS_MPAM_VIRT_L1I_WAYS), LINE },
        .l2 = { opt(m, MEMQOS_MPAM_VIRT_L2_SIZE),
                opt(m, MEMQOS_MPAM_VIRT_L2_WAYS), LINE },
        .l3 = { opt(m, MEMQOS_MPAM_VIRT_L3_SIZE),
                opt(m, MEMQOS_MPAM_VIRT_L3_WAYS), LINE },
    };
}

void memqos_mpam_virt_check(VirtMachineState *vms, Error **errp)
{
    MachineState *ms = MACHINE(vms);
    MemqosMpamVirt *m = &vms->mpam;
    MemqosCacheTopo t;
    g_autofree char *why = NULL;

    if (memqos_agents_wanted() && !(m->on && m->timing && m->ddr)) {
        /* agents are traffic on the modeled L3 and DDR: nothing else */
        error_setg(errp, "%s needs -M virt,mpam=on,timing=on,ddr=on",
                   TYPE_MEMQOS_AGENT);
        return;
    }
    if (!memqos_bwmon_virt_check(m, errp)) {
        return;
    }
    if (!m->on) {
        for (int i = 0; i < MEMQOS_MPAM_VIRT_NUM_OPT; i++) {
            if (m->given & BIT(i)) {
                error_setg(errp, "%s needs mpam=on", opts[i].name);
                return;
            }
        }
        for (int i = 0; i < ARRAY_SIZE(str_opts); i++) {
            if (*str_opt(m, str_opts[i].offset)) {
                error_setg(errp, "%s needs mpam=on", str_opts[i].name);
                return;
            }
        }
        if (m->timing) {
            error_setg(errp, "timing=on needs mpam=on");
        } else if (m->ddr) {
            error_setg(errp, "ddr=on needs mpam=on and timing=on");
        }
        return;
    }
    if (m->ddr && !m->timing) {
        /* the DDR model serves the hierarchy's misses: no hierarchy, no DDR */
        error_setg(errp, "ddr=on needs timing=on");
        return;
    }
    if ((m->given & BIT(MEMQOS_MPAM_VIRT_MBW_PEAK)) && !m->timing) {
        /* the regulator delays the hierarchy's misses: no hierarchy, nothing */
        error_setg(errp, "mpam-mbw-peak needs timing=on");
        return;
    }
    if (!tcg_enabled() && !qtest_enabled()) {
        error_setg(errp, "mpam=on needs TCG: %s hides MPAM from guests",
                   current_accel_name());
        return;
    }
    if (ms->smp.sockets != 1) {
        error_setg(errp, "mpam=on models one L3 shared by all CPUs and needs "
                   "sockets=1 (got %u)", ms->smp.sockets);
        return;
    }
    for (int i = 0; i < MEMQOS_MPAM_VIRT_NUM_OPT; i++) {
        uint64_t v = opt(m, i);

        if (v < opts[i].min || v > opts[i].max) {
            error_setg(errp, "%s=%" PRIu64 " is out of range %" PRIu64 "..%"
                       PRIu64, opts[i].name, v, opts[i].min, opts[i].max);
            return;
        }
    }
    /* CCSIDR and the PPTT describe sets, which hardware indexes by address */
    cache_topo(m, &t);
    why = memqos_cache_topo_check(&t);
    if (why) {
        error_setg(errp, "%s", why);
        return;
    }
    if (t.l3.size > ms->ram_size) {
        error_setg(errp, "l3-size=%" PRIu64 " is larger than guest memory "
                   "(-m %" PRIu64 ")", t.l3.size, (uint64_t)ms->ram_size);
    }
}

/* ---- CPUs --------------------------------------------------------------- */

static uint64_t ccsidr(ARMCPU *cpu, const MemqosCacheGeom *g,
                       uint8_t legacy_flags)
{
    if (cpu_isar_feature(any_ccidx, cpu)) {
        return make_ccsidr(CCSIDR_FORMAT_CCIDX, g->ways, g->line, g->size, 0);
    }
    return make_ccsidr(CCSIDR_FORMAT_LEGACY, g->ways, g->line, g->size,
                       legacy_flags);
}

void memqos_mpam_virt_cpu(VirtMachineState *vms, Object *cpuobj)
{
    MemqosMpamVirt *m = &vms->mpam;
    ARMCPU *cpu = ARM_CPU(cpuobj);
    MemqosCacheTopo t;

    if (!m->on) {
        return;
    }
    if (!object_property_find(cpuobj, "mpam")) {
        error_setg(&error_fatal, "mpam=on: CPU type %s has no MPAM support",
                   object_get_typename(cpuobj));
    }
    object_property_set_bool(cpuobj, "mpam", true, &error_fatal);
    object_property_set_uint(cpuobj, "mpam-partid-max",
                             opt(m, MEMQOS_MPAM_VIRT_PARTIDS) - 1,
                             &error_fatal);
    object_property_set_uint(cpuobj, "mpam-pmg-max",
                             opt(m, MEMQOS_MPAM_VIRT_PMGS) - 1, &error_fatal);

    /*
     * CLIDR: L1 separate I/D (Ctype 3), L2 and L3 unified (Ctype 4),
     * LoC = 3.  LoUU/LoUIS/ICB stay as the CPU model has them.
     */
    cache_topo(m, &t);
    cpu->clidr &= ~(uint64_t)(0x1fffff | (7 << 24));
    cpu->clidr |= 3 | (4 << 3) | (4 << 6) | (3 << 24);
    memset(cpu->ccsidr, 0, sizeof(cpu->ccsidr));
    /* ccsidr[] is indexed by CSSELR (Level << 1 | InD) */
    cpu->ccsidr[0] = ccsidr(cpu, &t.l1d, 7);
    cpu->ccsidr[1] = ccsidr(cpu, &t.l1i, 2);
    cpu->ccsidr[2] = ccsidr(cpu, &t.l2, 7);
    cpu->ccsidr[4] = ccsidr(cpu, &t.l3, 7);
}

/* ---- MSC devices -------------------------------------------------------- */

/* query-mpam's per-vCPU labels come from target/arm's MPAM registers. */
static bool cpu_label(CPUState *cs, bool is_instr, uint16_t *partid,
                      uint8_t *pmg)
{
    return arm_mpam_current_label(cpu_env(cs), is_instr, partid, pmg);
}

static const struct {
    const char *name;
    const char *kind;
} virt_msc[MEMQOS_MPAM_VIRT_NUM_MSC] = {
    { "l3", "cache" },
    { "mem", "memory" },
};

/*
 * The bandwidth the memory MSC regulates, which MBW_MAX, MBW_MIN and
 * MBW_PROP are fractions of: mpam-mbw-peak if given, else the DDR model's
 * peak with ddr=on, else 0 (the controls do not act).
 */
static uint64_t mbw_peak(MemqosMpamVirt *m)
{
    uint64_t ddr = m->ddr_dev ?
        ddr_config_peak_bytes_per_s(&MEMQOS_DDR(m->ddr_dev)->cfg) : 0;
    uint64_t peak = opt(m, MEMQOS_MPAM_VIRT_MBW_PEAK);

    if (!(m->given & BIT(MEMQOS_MPAM_VIRT_MBW_PEAK))) {
        return ddr;
    }
    if (ddr && peak > ddr) {
        error_setg(&error_fatal, "mpam-mbw-peak=%" PRIu64 " is above the "
                   "DDR model's peak, %" PRIu64 " bytes/s (memqos-ddr "
                   "channels x data rate x bus width)", peak, ddr);
    }
    return peak;
}

/*
 * MSC @i: the kind's defaults (the model's mpam_ris_config_default), then
 * what this platform chooses differently.
 */
/*
 * What create_msc derives from the machine and its options: not a -global
 * (the ACPI tables, the CPUs and the other MSC would disagree with it).
 */
static const struct {
    const char *prop, *from;
} msc_derived[] = {
    { "kind", "the platform's list of MSCs" },
    { "name", "the platform's list of MSCs" },
    { "id", "the platform's list of MSCs" },
    { "mmio-size", "virt's memory map" },
    { "partid-max", "-M virt mpam-partids" },
    { "pmg-max", "-M virt mpam-pmgs" },
    { "cache-size", "-M virt l3-size" },
    { "cache-ways", "-M virt l3-ways" },
    { "cache-line-size", "the platform's 64-byte lines" },
    { "mbw-bytes-per-s", "-M virt mpam-mbw-peak" },
    { "mbw-policy", "-M virt mpam-mbw-policy" },
    { "pri-policy", "-M virt mpam-dspri" },
};

/*
 * Realize an MSC; a refusal of what the board derived from an option (the
 * MSC names its property, "MSC 'l3': pri-policy: ...") names that option.
 */
static void realize_msc(SysBusDevice *sbd)
{
    Error *err = NULL;

    if (!sysbus_realize_and_unref(sbd, &err)) {
        for (int d = 0; d < ARRAY_SIZE(msc_derived); d++) {
            g_autofree char *at = g_strdup_printf(": %s:", msc_derived[d].prop);

            if (strstr(error_get_pretty(err), at)) {
                error_prepend(&err, "%s: ", msc_derived[d].from);
                break;
            }
        }
        error_report_err(err);
        exit(1);
    }
}

static DeviceState *create_msc(VirtMachineState *vms, int i)
{
    MemqosMpamVirt *m = &vms->mpam;
    int spi = vms->irqmap[VIRT_MPAM_MSC];   /* error SPIs, then overflow SPIs */
    DeviceState *dev = qdev_new(TYPE_MEMQOS_MPAM_MSC);
    SysBusDevice *sbd = SYS_BUS_DEVICE(dev);
    g_autofree char *child = g_strdup_printf("mpam-msc-%s", virt_msc[i].name);

    for (int d = 0; d < ARRAY_SIZE(msc_derived); d++) {
        memqos_board_prop(dev, msc_derived[d].prop, msc_derived[d].from,
                          &error_fatal);
    }

    object_property_set_str(OBJECT(dev), "kind", virt_msc[i].kind,
                            &error_abort);
    qdev_prop_set_string(dev, "name", virt_msc[i].name);
    qdev_prop_set_uint32(dev, "id", i);
    qdev_prop_set_uint64(dev, "mmio-size", MEMQOS_MPAM_VIRT_MSC_SIZE);
    qdev_prop_set_uint32(dev, "partid-max",
                         opt(m, MEMQOS_MPAM_VIRT_PARTIDS) - 1);
    qdev_prop_set_uint32(dev, "pmg-max", opt(m, MEMQOS_MPAM_VIRT_PMGS) - 1);
    /* both MSCs: 4-bit internal and downstream priorities, 0 is low */
    qdev_prop_set_bit(dev, "intpri", true);
    qdev_prop_set_uint32(dev, "intpri-wd", 4);
    qdev_prop_set_bit(dev, "intpri-0-is-low", true);
    qdev_prop_set_bit(dev, "dspri", true);
    qdev_prop_set_uint32(dev, "dspri-wd", 4);
    qdev_prop_set_bit(dev, "dspri-0-is-low", true);
    if (i == 0) {
        /* the L3 that CCSIDR and the PPTT describe */
        qdev_prop_set_uint64(dev, "cache-size",
                             opt(m, MEMQOS_MPAM_VIRT_L3_SIZE));
        qdev_prop_set_uint32(dev, "cache-ways",
                             opt(m, MEMQOS_MPAM_VIRT_L3_WAYS));
        qdev_prop_set_uint32(dev, "cache-line-size", LINE);
    } else {
        qdev_prop_set_uint32(dev, "bwpbm-wd", 16);
        qdev_prop_set_bit(dev, "windwr", false);
        qdev_prop_set_uint64(dev, "mbw-bytes-per-s", mbw_peak(m));
        object_property_set_str(OBJECT(dev), "mbw-policy",
                                m->mbw_policy ?: "", &error_abort);
    }
    if (m->dspri) {
        qdev_prop_set_string(dev, "pri-policy", m->dspri);
    }
    /* the user's -global over the kind's defaults and the choices above */
    memqos_apply_globals(dev, &error_fatal);
    object_property_add_child(OBJECT(vms), child, OBJECT(dev));
    realize_msc(sbd);
    sysbus_mmio_map(sbd, 0, vms->memmap[VIRT_MPAM_MSC].base +
                            i * MEMQOS_MPAM_VIRT_MSC_SIZE);
    sysbus_connect_irq(sbd, MPAM_MSC_IRQ_ERROR,
                       qdev_get_gpio_in(vms->gic, spi + i));
    sysbus_connect_irq(sbd, MPAM_MSC_IRQ_OVERFLOW,
                       qdev_get_gpio_in(vms->gic,
                                        spi + MEMQOS_MPAM_VIRT_NUM_MSC + i));
    return dev;
}

/* The timing model's labels: the vCPU's MPAM label, as the MSCs see it. */
static MemLabel timing_label(CPUState *cs, bool is_instr)
{
    uint16_t partid;
    uint8_t pmg;

    cpu_label(cs, is_instr, &partid, &pmg);
    return (MemLabel){ partid, pmg };
}

/* What the L3 MSC sends down with a PARTID's fills and write-backs. */
static uint16_t l3_down_dspri(void *l3, uint32_t partid)
{
    return mpam_msc_down_dspri(l3, 0, partid);
}

/*
 * ddr=on: the DDR QoS model behind the memory MSC.  Realized first: a
 * configuration it refuses stops QEMU with its message.
 */
static void create_ddr(VirtMachineState *vms)
{
    DeviceState *dev = qdev_new(TYPE_MEMQOS_DDR);

    object_property_add_child(OBJECT(vms), "memqos-ddr", OBJECT(dev));
    qdev_realize_and_unref(dev, NULL, &error_fatal);
    vms->mpam.ddr_dev = dev;
}

/*
 * timing=on: the modeled memory system below every vCPU, with the L3 MSC's
 * cache as its L3 and the memory MSC (with ddr=on, and the DDR model
 * behind it) as its memory.
 */
static DeviceState *create_timing(VirtMachineState *vms)
{
    MemqosMpamVirt *m = &vms->mpam;
    DeviceState *dev = qdev_new(TYPE_MEMQOS_TIMING);
    MemqosTimingState *s = MEMQOS_TIMING(dev);
    MpamMsc *l3 = MEMQOS_MPAM_MSC(m->msc[0])->msc;
    MpamMsc *mem = MEMQOS_MPAM_MSC(m->msc[1])->msc;
    MemqosDdrState *ddr = m->ddr_dev ? MEMQOS_DDR(m->ddr_dev) : NULL;
    MemsysPorts ports = memsys_mpam_ports(l3, mem, ddr ? ddr->ddr : NULL);
    /* the largest label: DMA's and the agents' are checked against it */
    MemLabel label_max = { opt(m, MEMQOS_MPAM_VIRT_PARTIDS) - 1,
                           opt(m, MEMQOS_MPAM_VIRT_PMGS) - 1 };
    /* bwmon=on: the monitors on the ports; agents reach only memory's */
    MemsysPorts *inner = m->bwmon ? memqos_bwmon_virt_tap(vms, &ports)
                                  : &ports;
    g_autofree char *why = memsys_timing_check(&s->cfg);
    AgentSet *agents;

    if (why) {
        /* before the agents' L3 latency is taken from the figures */
        error_report("%s: %s", TYPE_MEMQOS_TIMING, why);
        exit(1);
    }
    /* with memqos-agent objects: their set, on these ports (checked: ddr) */
    agents = memqos_agents_wanted() ?
        memsys_mpam_agents_new(g_new(MemsysAgentPort, 1), inner,
                               memsys_level_fs(&s->cfg, MEMSYS_L3) / 1000) :
        NULL;

    inner->agents = agents;
    ports.agents = agents;
    cache_topo(m, &s->topo);
    memqos_timing_set_ports(s, &ports, timing_label, label_max);
    object_property_add_child(OBJECT(vms), "memqos-timing", OBJECT(dev));
    qdev_realize_and_unref(dev, NULL, &error_fatal);
    for (int i = 0; i < MEMQOS_MPAM_VIRT_NUM_MSC; i++) {
        /* the guest's MSC accesses and the access path share the caches */
        MEMQOS_MPAM_MSC(m->msc[i])->memsys = s->memsys;
    }
    memqos_bwmon_virt_connect(vms, s->memsys);
    if (ddr) {
        memqos_ddr_connect(ddr, s->memsys, opt(m, MEMQOS_MPAM_VIRT_PARTIDS),
                           l3_down_dspri, l3);
    }
    if (agents) {
        memqos_agents_connect(agents, s->memsys, ddr, label_max, &error_fatal);
    }
    return dev;
}

/*
 * The machine's MPAM options in the migration stream: a destination built
 * with others is refused, naming the option (its ACPI tables, CPU ID
 * registers and models would not be the source's).
 */
static void register_options(VirtMachineState *vms)
{
    g_autoptr(GPtrArray) names = g_ptr_array_new();

    g_ptr_array_add(names, (char *)"mpam");
    for (int i = 0; i < MEMQOS_MPAM_VIRT_NUM_OPT; i++) {
        g_ptr_array_add(names, (char *)opts[i].name);
    }
    g_ptr_array_add(names, (char *)"timing");
    g_ptr_array_add(names, (char *)"ddr");
    g_ptr_array_add(names, (char *)"bwmon");
    for (int i = 0; i < ARRAY_SIZE(str_opts); i++) {
        g_ptr_array_add(names, (char *)str_opts[i].name);
    }
    g_ptr_array_add(names, NULL);
    vms->mpam.mig_config = memqos_mig_config_register(
        OBJECT(vms), "-M virt", "memqos-virt-config",
        (const char *const *)names->pdata, NULL);
}

void memqos_mpam_virt_devices(VirtMachineState *vms)
{
    if (!vms->mpam.on) {
        return;
    }
    register_options(vms);
    /* virt's memory map has the window for the frames (patch 0011) */
    g_assert(vms->memmap[VIRT_MPAM_MSC].size >=
             MEMQOS_MPAM_VIRT_NUM_MSC * MEMQOS_MPAM_VIRT_MSC_SIZE);
    memqos_mpam_register_cpu_label(cpu_label);
    if (vms->mpam.ddr) {
        /* before the memory MSC, which regulates a share of its peak */
        create_ddr(vms);
    }
    for (int i = 0; i < MEMQOS_MPAM_VIRT_NUM_MSC; i++) {
        vms->mpam.msc[i] = create_msc(vms, i);
    }
    if (vms->mpam.timing) {
        vms->mpam.timing_dev = create_timing(vms);
    }
}

/* ---- ACPI ---------------------------------------------------------------- */

/* The GSI that IRQ output @line of @sbd is wired to (a GIC SPI). */
static uint32_t msc_gsi(VirtMachineState *vms, SysBusDevice *sbd, int line)
{
    qemu_irq irq = sysbus_get_connected_irq(sbd, line);
    uint64_t spis = object_property_get_uint(OBJECT(vms->gic), "num-irq",
                                             &error_abort) - GIC_INTERNAL;

    for (int spi = 0; spi < spis; spi++) {
        if (qdev_get_gpio_in(vms->gic, spi) == irq) {
            return GIC_INTERNAL + spi;
        }
    }
    g_assert_not_reached();
}

/* An MSC's MPAM table node, read from the device as it is mapped and wired. */
static MemqosMpamMscDesc msc_desc(VirtMachineState *vms, DeviceState *dev)
{
    MemqosMpamMscState *s = MEMQOS_MPAM_MSC(dev);
    SysBusDevice *sbd = SYS_BUS_DEVICE(dev);
    MemoryRegion *mr = sysbus_mmio_get_region(sbd, 0);
    bool cache = s->cfg.ris[0].kind == MPAM_RIS_CACHE;

    return (MemqosMpamMscDesc) {
        .identifier = s->id,
        .base = mr->addr,
        .mmio_size = memory_region_size(mr),
        .error_gsi = msc_gsi(vms, sbd, MPAM_MSC_IRQ_ERROR),
        .overflow_gsi = msc_gsi(vms, sbd, MPAM_MSC_IRQ_OVERFLOW),
        /* Linux waits this long once for NRDY: round up, add slack */
        .max_nrdy_usec = DIV_ROUND_UP(s->cfg.nrdy_ns, 1000) + 10,
        /* the one cache MSC is the L3's; memory is proximity domain 0 */
        .locator_type = cache ? MEMQOS_MPAM_LOCATOR_CACHE
                              : MEMQOS_MPAM_LOCATOR_MEMORY,
        .locator_descriptor1 = cache ? MEMQOS_PPTT_L3_CACHE_ID : 0,
    };
}

bool memqos_mpam_virt_acpi(VirtMachineState *vms, GArray *table_offsets,
                           GArray *tables_blob, BIOSLinker *linker)
{
    MemqosMpamVirt *m = &vms->mpam;
    MemqosMpamMscDesc msc[MEMQOS_MPAM_VIRT_NUM_MSC];
    MemqosCacheTopo topo;
    /* MPAM names caches by PPTT cache ID: PPTT revision 3 */
    PPTTCacheHook caches = {
        .revision = 3, .caches = memqos_pptt_caches, .opaque = &topo,
    };

    if (!m->on) {
        return false;
    }
    cache_topo(m, &topo);
    acpi_add_table(table_offsets, tables_blob);
    build_pptt_caches(tables_blob, linker, MACHINE(vms), &caches,
                      vms->oem_id, vms->oem_table_id);
    for (int i = 0; i < MEMQOS_MPAM_VIRT_NUM_MSC; i++) {
        msc[i] = msc_desc(vms, m->msc[i]);
    }
    acpi_add_table(table_offsets, tables_blob);
    memqos_build_mpam(tables_blob, linker, msc, MEMQOS_MPAM_VIRT_NUM_MSC,
                      vms->oem_id, vms->oem_table_id);
    return true;
}
