/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -M virt,...,bwmon=on: the BWMON platform of QEMU's virt machine, see
 * bwmon-virt-qemu.h.  Devices, their place on the timing model's ports and
 * their device-tree nodes; the behaviour lives in the models.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "hw/arm/virt.h"
#include "hw/arm/fdt.h"
#include "hw/qdev-properties.h"
#include "system/device_tree.h"
#include "../bwmon/bwmon-qemu.h"
#include "../bwmon/bwmon-memsys.h"
#include "../bwmon/osm-l3-qemu.h"
#include "bwmon-virt-qemu.h"
#include "mpam-virt-qemu.h"

/* dt-bindings/interconnect/qcom,osm-l3.h */
#define MASTER_OSM_L3_APPS  0
#define SLAVE_OSM_L3        1

/* The platform's devices; the tap must outlive the Memsys. */
struct MemqosBwmonVirt {
    BwmonTap tap;
    MemqosBwmonState *mon[3];   /* CPU, LLCC, NULL: memqos_bwmon_rearm's */
    DeviceState *osm[2];        /* l3-cpu, l3-mem */
    OsmL3Effect effect;         /* their frequencies on the timing model */
};

/*
 * sdm845.dtsi's opp-peak-kBps: cpu_bwmon_opp_table (five of the OSM L3's
 * frequencies x 16 bytes) and llcc_bwmon_opp_table.
 */
static const uint32_t cpu_opp_kbps[] = {
    4800000, 9216000, 15052800, 20889600, 25497600,
};
static const uint32_t llcc_opp_kbps[] = {
    800000, 1804000, 3072000, 5412000, 7216000,
};

/* bwmon-cpu: the CPU monitor's layout, its type and compatible(s). */
static const struct {
    const char *name, *type, *compat;
    size_t compat_len;
} cpu_layouts[] = {
#define CPU_LAYOUT(name, layout, compat) \
    { name, TYPE_MEMQOS_BWMON "-" layout, compat, sizeof(compat) }
    CPU_LAYOUT("sdm845", "v4-sdm845",
               "qcom,sdm845-cpu-bwmon\0qcom,sdm845-bwmon"),
    CPU_LAYOUT("msm8998", "v4-msm8998", "qcom,msm8998-bwmon"),
#undef CPU_LAYOUT
};

/* The entry of cpu_layouts[] that bwmon-cpu names, -1 if none. */
static int cpu_layout(const MemqosMpamVirt *m)
{
    for (int i = 0; i < ARRAY_SIZE(cpu_layouts); i++) {
        if (!strcmp(m->bwmon_cpu ?: "sdm845", cpu_layouts[i].name)) {
            return i;
        }
    }
    return -1;
}

bool memqos_bwmon_virt_check(const MemqosMpamVirt *m, Error **errp)
{
    if (m->bwmon && !(m->on && m->timing)) {
        /* the monitors count the modeled hierarchy's traffic */
        error_setg(errp, "bwmon=on needs mpam=on and timing=on");
        return false;
    }
    if (m->bwmon_cpu && !m->bwmon) {
        error_setg(errp, "bwmon-cpu needs bwmon=on");
        return false;
    }
    if (cpu_layout(m) < 0) {
        error_setg(errp, "bwmon-cpu=%s: expected sdm845 or msm8998",
                   m->bwmon_cpu);
        return false;
    }
    return true;
}

static hwaddr base(VirtMachineState *vms, hwaddr offset)
{
    return vms->memmap[VIRT_MEMQOS_BWMON].base + offset;
}

static void add_fixed_clock(void *fdt, const char *name, uint32_t hz,
                            uint32_t phandle)
{
    g_autofree char *node = g_strdup_printf("/memqos-bwmon-%s-clk", name);

    qemu_fdt_add_subnode(fdt, node);
    qemu_fdt_setprop_string(fdt, node, "compatible", "fixed-clock");
    qemu_fdt_setprop_cell(fdt, node, "#clock-cells", 0);
    qemu_fdt_setprop_cell(fdt, node, "clock-frequency", hz);
    qemu_fdt_setprop_string(fdt, node, "clock-output-names", name);
    qemu_fdt_setprop_cell(fdt, node, "phandle", phandle);
}

/*
 * Realize @dev as @child of the machine, map its region 0 at @offset and
 * add its node "@prefix@<address>" with @compat and reg; the node's path.
 */
static char *map_dev(VirtMachineState *vms, DeviceState *dev,
                     const char *child, hwaddr offset, const char *prefix,
                     const char *compat, size_t compat_len)
{
    void *fdt = MACHINE(vms)->fdt;
    SysBusDevice *sbd = SYS_BUS_DEVICE(dev);
    char *node = g_strdup_printf("/%s@%" HWADDR_PRIx, prefix,
                                 base(vms, offset));

    object_property_add_child(OBJECT(vms), child, OBJECT(dev));
    sysbus_realize_and_unref(sbd, &error_fatal);
    sysbus_mmio_map(sbd, 0, base(vms, offset));
    qemu_fdt_add_subnode(fdt, node);
    qemu_fdt_setprop(fdt, node, "compatible", compat, compat_len);
    qemu_fdt_setprop_sized_cells(fdt, node, "reg", 2, base(vms, offset), 2,
        memory_region_size(sysbus_mmio_get_region(sbd, 0)));
    return node;
}

/* An OSM L3 provider at @offset, its node with @phandle. */
static DeviceState *create_osm(VirtMachineState *vms, const char *child,
                               hwaddr offset, uint32_t phandle,
                               const uint32_t clk_phandle[2])
{
    void *fdt = MACHINE(vms)->fdt;
    DeviceState *dev = qdev_new(TYPE_MEMQOS_OSM_L3);
    static const char compat[] = "qcom,sdm845-osm-l3\0qcom,osm-l3";
    static const char clock_names[] = "xo\0alternate";
    g_autofree char *node = map_dev(vms, dev, child, offset, "interconnect",
                                    compat, sizeof(compat));

    qemu_fdt_setprop_cells(fdt, node, "clocks", clk_phandle[0],
                           clk_phandle[1]);
    qemu_fdt_setprop(fdt, node, "clock-names", clock_names,
                     sizeof(clock_names));
    qemu_fdt_setprop_cell(fdt, node, "#interconnect-cells", 1);
    qemu_fdt_setprop_cell(fdt, node, "phandle", phandle);
    return dev;
}

/* An operating-points-v2 table of @n peak bandwidths; its phandle. */
static uint32_t add_opp_table(void *fdt, const char *name,
                              const uint32_t *kbps, unsigned n)
{
    g_autofree char *node = g_strdup_printf("/memqos-%s-opp-table", name);
    uint32_t phandle = qemu_fdt_alloc_phandle(fdt);

    qemu_fdt_add_subnode(fdt, node);
    qemu_fdt_setprop_string(fdt, node, "compatible", "operating-points-v2");
    qemu_fdt_setprop_cell(fdt, node, "phandle", phandle);
    for (unsigned i = 0; i < n; i++) {
        g_autofree char *opp = g_strdup_printf("%s/opp-%u", node, i);

        qemu_fdt_add_subnode(fdt, opp);
        qemu_fdt_setprop_cell(fdt, opp, "opp-peak-kBps", kbps[i]);
    }
    return phandle;
}

/* Monitor @type at @offset on SPI base + @spi_index, voting through @osm. */
static MemqosBwmonState *create_mon(VirtMachineState *vms, const char *type,
                                    const char *child, const char *compat,
                                    size_t compat_len, hwaddr offset,
                                    int spi_index, uint32_t osm_phandle,
                                    uint32_t opp)
{
    void *fdt = MACHINE(vms)->fdt;
    DeviceState *dev = qdev_new(type);
    int spi = vms->irqmap[VIRT_MEMQOS_BWMON] + spi_index;
    g_autofree char *node = map_dev(vms, dev, child, offset, "pmu", compat,
                                    compat_len);

    sysbus_connect_irq(SYS_BUS_DEVICE(dev), 0,
                       qdev_get_gpio_in(vms->gic, spi));
    qemu_fdt_setprop_cell(fdt, node, "interrupt-parent", vms->gic_phandle);
    qemu_fdt_setprop_cells(fdt, node, "interrupts", GIC_FDT_IRQ_TYPE_SPI,
                           spi, GIC_FDT_IRQ_FLAGS_LEVEL_HI);
    qemu_fdt_setprop_cells(fdt, node, "interconnects",
                           osm_phandle, MASTER_OSM_L3_APPS,
                           osm_phandle, SLAVE_OSM_L3);
    qemu_fdt_setprop_cell(fdt, node, "operating-points-v2", opp);
    if (sysbus_has_mmio(SYS_BUS_DEVICE(dev), BWMON_REGION_GLOBAL)) {
        /* msm8998: the global region, 4 KiB above the monitor's */
        static const char reg_names[] = "monitor\0global";
        SysBusDevice *sbd = SYS_BUS_DEVICE(dev);
        hwaddr global = base(vms, offset + MEMQOS_BWMON_VIRT_GLOBAL);

        sysbus_mmio_map(sbd, BWMON_REGION_GLOBAL, global);
        qemu_fdt_setprop_sized_cells(fdt, node, "reg",
            2, base(vms, offset),
            2, memory_region_size(sysbus_mmio_get_region(sbd, 0)),
            2, global,
            2, memory_region_size(sysbus_mmio_get_region(sbd, 1)));
        qemu_fdt_setprop(fdt, node, "reg-names", reg_names,
                         sizeof(reg_names));
    }
    return MEMQOS_BWMON(dev);
}

MemsysPorts *memqos_bwmon_virt_tap(VirtMachineState *vms, MemsysPorts *ports)
{
    MemqosMpamVirt *m = &vms->mpam;
    void *fdt = MACHINE(vms)->fdt;
    struct MemqosBwmonVirt *b = g_new0(struct MemqosBwmonVirt, 1);
    uint32_t clk[2], osm_ph[2];
    int cpu = cpu_layout(m);
    static const char llcc_compat[] = "qcom,sdm845-llcc-bwmon";

    g_assert(vms->memmap[VIRT_MEMQOS_BWMON].size >= MEMQOS_BWMON_VIRT_SIZE);
    m->bwmon_virt = b;
    clk[0] = qemu_fdt_alloc_phandle(fdt);
    clk[1] = qemu_fdt_alloc_phandle(fdt);
    add_fixed_clock(fdt, "xo", 19200000, clk[0]);
    add_fixed_clock(fdt, "alternate", 600000000, clk[1]);
    osm_ph[0] = qemu_fdt_alloc_phandle(fdt);
    osm_ph[1] = qemu_fdt_alloc_phandle(fdt);
    b->osm[0] = create_osm(vms, "memqos-osm-l3-cpu", MEMQOS_BWMON_VIRT_OSM_CPU,
                           osm_ph[0], clk);
    b->osm[1] = create_osm(vms, "memqos-osm-l3-mem", MEMQOS_BWMON_VIRT_OSM_MEM,
                           osm_ph[1], clk);
    b->mon[0] = create_mon(vms, cpu_layouts[cpu].type, "memqos-bwmon-cpu",
                           cpu_layouts[cpu].compat, cpu_layouts[cpu].compat_len,
                           MEMQOS_BWMON_VIRT_CPU, 0, osm_ph[0],
                           add_opp_table(fdt, "cpu-bwmon", cpu_opp_kbps,
                                         ARRAY_SIZE(cpu_opp_kbps)));
    b->mon[1] = create_mon(vms, TYPE_MEMQOS_BWMON "-v5-llcc",
                           "memqos-bwmon-llcc", llcc_compat,
                           sizeof(llcc_compat), MEMQOS_BWMON_VIRT_LLCC, 1,
                           osm_ph[1],
                           add_opp_table(fdt, "llcc-bwmon", llcc_opp_kbps,
                                         ARRAY_SIZE(llcc_opp_kbps)));
    *ports = bwmon_tap_ports(&b->tap, ports,
                             memqos_bwmon_model(b->mon[0]),
                             memqos_bwmon_model(b->mon[1]),
                             memqos_bwmon_rearm, b->mon);
    osm_l3_effect_default(&b->effect,
                          memqos_osm_l3_model(MEMQOS_OSM_L3(b->osm[0])),
                          memqos_osm_l3_model(MEMQOS_OSM_L3(b->osm[1])));
    /* only the CPU path has ports (the memory side's are the DDR model's) */
    memqos_osm_l3_effect(MEMQOS_OSM_L3(b->osm[0]), &b->effect.l3_cycles,
                         &b->effect.l3_full_hz, &b->effect.port_bytes);
    memqos_osm_l3_effect(MEMQOS_OSM_L3(b->osm[1]), &b->effect.mem_cycles,
                         &b->effect.mem_full_hz, NULL);
    osm_l3_effect_ports(&b->effect, ports);
    return &b->tap.inner;
}

void memqos_bwmon_virt_connect(VirtMachineState *vms, Memsys *memsys)
{
    struct MemqosBwmonVirt *b = vms->mpam.bwmon_virt;

    for (int i = 0; b && b->mon[i]; i++) {
        memqos_bwmon_set_memsys(b->mon[i], memsys);
    }
}
