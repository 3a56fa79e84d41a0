/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memqos-spr-uncore, see imc-qemu.h: the PCIe glue of the discovery table
 * (uncore-discovery.c) in BAR0 and the iMC boxes (imc-pmu.c) in BAR2, 16
 * KiB each.  The boxes count the modeled memory traffic (the mem_tap of
 * the hierarchy rdt-qemu.c builds with timing=on) and DCLK over the
 * virtual clock, which is modeled time under the timing model's icount.
 * docs/x86-pmu-design.md §2.3.
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/thread.h"
#include "qemu/timer.h"
#include "qapi/error.h"
#include "hw/pci/pci_device.h"
#include "hw/pci/pcie.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "trace/trace-hw_memqos_memsys.h"
#include "hw/core/cpu.h"
#include "imc-qemu.h"
#include "imc-pmu.h"
#include "rdt-desc.h"
#include "../memsys/timing-qemu.h"
#include "../memsys/config-qemu.h"

OBJECT_DECLARE_SIMPLE_TYPE(MemqosSprUncoreState, MEMQOS_SPR_UNCORE)

#define DVSEC_OFFSET    PCI_CFG_SPACE_SIZE

struct MemqosSprUncoreState {
    PCIDevice parent_obj;
    /* properties */
    uint32_t boxes;
    ImcPmu *imc;
    /* the tap runs on vCPU threads under the memsys lock, MMIO under the
     * BQL: this orders both (taken inside the memsys lock, never around) */
    QemuMutex lock;
    MemoryRegion table;
    MemoryRegion units;
    /* imc_pmu_state(): what VMState carries */
    uint64_t *state;
    uint32_t n_state;
    MemqosMigConfig *mig_config;
};

/* The modeled time DCLK counts: the virtual clock, in ps. */
static uint64_t now_ps(void)
{
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) * 1000;
}

/* BAR2's address as the guest programmed it (Linux reads the table once
 * BARs are assigned), 0 while unassigned */
static uint64_t unit_bar(PCIDevice *pd)
{
    uint32_t reg = PCI_BASE_ADDRESS_0 + 4 * UNCORE_DISCOVERY_UNIT_BAR;
    return pci_get_quad(pd->config + reg) & PCI_BASE_ADDRESS_MEM_MASK;
}

static uint64_t table_read(void *opaque, hwaddr addr, unsigned size)
{
    MemqosSprUncoreState *s = opaque;
    UncoreDiscovery d = {
        .units = s->boxes, .box_type = UNCORE_BOX_TYPE_SPR_IMC,
        .layout = imc_pmu_layout, .unit_bar = unit_bar(PCI_DEVICE(s)),
    };
    uint64_t v = uncore_discovery_read(&d, addr, size);

    trace_memqos_imc_table_read(addr, size, v);
    return v;
}

static void table_write(void *opaque, hwaddr addr, uint64_t val,
                        unsigned size)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: write to the read-only discovery "
                  "table at 0x%" HWADDR_PRIx "\n", TYPE_MEMQOS_SPR_UNCORE,
                  addr);
}

static uint64_t units_read(void *opaque, hwaddr addr, unsigned size)
{
    MemqosSprUncoreState *s = opaque;
    unsigned box = addr / UNCORE_DISCOVERY_UNIT_SIZE;
    hwaddr off = addr % UNCORE_DISCOVERY_UNIT_SIZE;
    uint64_t v;
    bool ok;

    qemu_mutex_lock(&s->lock);
    imc_pmu_fold(s->imc, now_ps());
    ok = imc_pmu_read(s->imc, box, off, size, &v);
    qemu_mutex_unlock(&s->lock);
    if (!ok) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: iMC box %u: no %u-byte "
                      "register at 0x%" HWADDR_PRIx " to read\n",
                      TYPE_MEMQOS_SPR_UNCORE, box, size, off);
    }
    trace_memqos_imc_read(box, off, size, v);
    return v;
}

static void units_write(void *opaque, hwaddr addr, uint64_t val,
                        unsigned size)
{
    MemqosSprUncoreState *s = opaque;
    unsigned box = addr / UNCORE_DISCOVERY_UNIT_SIZE;
    hwaddr off = addr % UNCORE_DISCOVERY_UNIT_SIZE;
    bool ok;

    trace_memqos_imc_write(box, off, size, val);
    qemu_mutex_lock(&s->lock);
    /* counting up to now under the old controls */
    imc_pmu_fold(s->imc, now_ps());
    ok = imc_pmu_write(s->imc, box, off, size, val);
    qemu_mutex_unlock(&s->lock);
    if (!ok) {
        qemu_log_mask(LOG_GUEST_ERROR, "%s: iMC box %u: write of 0x%" PRIx64
                      " (%u bytes) at 0x%" HWADDR_PRIx ": no such writable "
                      "register, or reserved bits\n", TYPE_MEMQOS_SPR_UNCORE,
                      box, val, size, off);
    }
}

#define ANY_ACCESS { .min_access_size = 1, .max_access_size = 8 }

static const MemoryRegionOps table_ops = {
    .read = table_read, .write = table_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = ANY_ACCESS, .impl = ANY_ACCESS,
};

static const MemoryRegionOps units_ops = {
    .read = units_read, .write = units_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = ANY_ACCESS, .impl = ANY_ACCESS,
};

/* MemsysPorts.mem_tap: under the memsys lock, on the accessing thread */
static void uncore_tap(void *opaque, const MemReq *req)
{
    MemqosSprUncoreState *s = opaque;

    qemu_mutex_lock(&s->lock);
    imc_pmu_tap(s->imc, req);
    qemu_mutex_unlock(&s->lock);
}

void memqos_spr_uncore_tap(MemsysPorts *ports)
{
    Object *o = object_resolve_path_type("", TYPE_MEMQOS_SPR_UNCORE, NULL);

    if (o) {
        ports->mem_tap = uncore_tap;
        ports->mem_tap_opaque = MEMQOS_SPR_UNCORE(o);
    }
}

static void uncore_realize(PCIDevice *pd, Error **errp)
{
    MemqosSprUncoreState *s = MEMQOS_SPR_UNCORE(pd);
    g_autoptr(GError) err = NULL;
    uint32_t dvsec[3];
    bool ambiguous = false;
    DdrConfig ddr;

    /* the iMC of the modeled Sapphire Rapids: its vCPUs are */
    g_autofree char *rdt = first_cpu &&
        object_property_find(OBJECT(first_cpu), "rdt") ?
        object_property_get_str(OBJECT(first_cpu), "rdt", NULL) : NULL;

    if (g_strcmp0(rdt, rdt_desc_sapphirerapids.name)) {
        error_setg(errp, "%s: the iMC of Sapphire Rapids needs vCPUs of it "
                   "(-cpu ...,rdt=%s), not rdt=%s", TYPE_MEMQOS_SPR_UNCORE,
                   rdt_desc_sapphirerapids.name, rdt && *rdt ? rdt : "(none)");
        return;
    }
    object_resolve_path_type("", TYPE_MEMQOS_SPR_UNCORE, &ambiguous);
    if (ambiguous) {
        error_setg(errp, "%s: one per machine (it counts all of memory)",
                   TYPE_MEMQOS_SPR_UNCORE);
        return;
    }
    /* a box a DDR channel: the DDR model's defaults with boxes channels */
    ddr_config_default(&ddr);
    ddr.channels = s->boxes;
    s->imc = imc_pmu_new(&ddr, &err);
    if (!s->imc) {
        error_setg(errp, "%s: boxes=%u: %s", TYPE_MEMQOS_SPR_UNCORE,
                   s->boxes, err->message);
        return;
    }
    if (pcie_endpoint_cap_init(pd, 0) < 0) {
        error_setg(errp, "%s: no PCIe capability", TYPE_MEMQOS_SPR_UNCORE);
        imc_pmu_free(s->imc);
        return;
    }
    s->state = imc_pmu_state(s->imc, &s->n_state);
    qemu_mutex_init(&s->lock);
    uncore_discovery_dvsec(dvsec);
    pcie_add_capability(pd, UNCORE_DISCOVERY_CAP_ID, 1, DVSEC_OFFSET,
                        UNCORE_DISCOVERY_DVSEC_LEN);
    for (unsigned i = 0; i < 3; i++) {
        pci_set_long(pd->config + DVSEC_OFFSET + 4 * (i + 1), dvsec[i]);
    }
    memory_region_init_io(&s->table, OBJECT(s), &table_ops, s,
                          "memqos-spr-uncore.discovery",
                          UNCORE_DISCOVERY_TABLE_SIZE);
    memory_region_init_io(&s->units, OBJECT(s), &units_ops, s,
                          "memqos-spr-uncore.imc",
                          (uint64_t)s->boxes * UNCORE_DISCOVERY_UNIT_SIZE);
    /* Linux accepts only the 64-bit type bits: not prefetchable */
    pci_register_bar(pd, UNCORE_DISCOVERY_TABLE_BAR,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->table);
    pci_register_bar(pd, UNCORE_DISCOVERY_UNIT_BAR,
                     PCI_BASE_ADDRESS_SPACE_MEMORY |
                     PCI_BASE_ADDRESS_MEM_TYPE_64, &s->units);
    imc_pmu_reset(s->imc, now_ps());
    trace_memqos_imc_realize(s->boxes);
    s->mig_config = memqos_mig_config_register(OBJECT(pd),
                                               TYPE_MEMQOS_SPR_UNCORE,
                                               TYPE_MEMQOS_SPR_UNCORE "-config",
                                               NULL, NULL);
}

static void uncore_exit(PCIDevice *pd)
{
    MemqosSprUncoreState *s = MEMQOS_SPR_UNCORE(pd);

    g_clear_pointer(&s->mig_config, memqos_mig_config_unregister);
    pcie_cap_exit(pd);
    imc_pmu_free(s->imc);
    s->imc = NULL;
    qemu_mutex_destroy(&s->lock);
}

static void uncore_reset_hold(Object *obj, ResetType type)
{
    MemqosSprUncoreState *s = MEMQOS_SPR_UNCORE(obj);

    qemu_mutex_lock(&s->lock);
    imc_pmu_reset(s->imc, now_ps());
    qemu_mutex_unlock(&s->lock);
}

static int uncore_post_load(void *opaque, int version_id)
{
    return memqos_refuse_load(TYPE_MEMQOS_SPR_UNCORE,
                             imc_pmu_post_load(MEMQOS_SPR_UNCORE(opaque)->imc));
}

static const VMStateDescription vmstate_uncore = {
    .name = TYPE_MEMQOS_SPR_UNCORE,
    .version_id = 1,
    .minimum_version_id = 1,
    .post_load = uncore_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_PCI_DEVICE(parent_obj, MemqosSprUncoreState),
        /* the length follows boxes: another count is another machine */
        VMSTATE_UINT32_EQUAL(n_state, MemqosSprUncoreState, NULL),
        VMSTATE_VARRAY_UINT32(state, MemqosSprUncoreState, n_state, 0,
                              vmstate_info_uint64, uint64_t),
        VMSTATE_END_OF_LIST()
    },
};

static const Property uncore_props[] = {
    /* Sapphire Rapids: four controllers of two channels, the DDR model's
     * default ddr-channels */
    DEFINE_PROP_UINT32("boxes", MemqosSprUncoreState, boxes, 8),
};

static void uncore_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    PCIDeviceClass *k = PCI_DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    k->realize = uncore_realize;
    k->exit = uncore_exit;
    k->vendor_id = PCI_VENDOR_ID_INTEL;
    k->device_id = UNCORE_DISCOVERY_DEVICE_ID;
    k->class_id = PCI_CLASS_SP_PERF;
    dc->desc = "memqos Sapphire Rapids uncore PMON discovery and iMC boxes";
    dc->vmsd = &vmstate_uncore;
    rc->phases.hold = uncore_reset_hold;
    set_bit(DEVICE_CATEGORY_MISC, dc->categories);
    device_class_set_props(dc, uncore_props);
    object_class_property_set_description(oc, "boxes",
        "iMC boxes, one a DDR channel (uncore_imc_0..boxes-1 in Linux; "
        "at least 2)");
}

static const TypeInfo uncore_info = {
    .name = TYPE_MEMQOS_SPR_UNCORE,
    .parent = TYPE_PCI_DEVICE,
    .instance_size = sizeof(MemqosSprUncoreState),
    .class_init = uncore_class_init,
    .interfaces = (InterfaceInfo[]) {
        { INTERFACE_PCIE_DEVICE },
        { }
    },
};

static void uncore_register_types(void)
{
    type_register_static(&uncore_info);
}
type_init(uncore_register_types)
