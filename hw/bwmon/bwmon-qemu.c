/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memqos-bwmon devices: QEMU glue of the BWMON model, see
 * bwmon-qemu.h.  Guest accesses, the timer and the traffic (the tap, in
 * vCPU threads) all reach the model under the memsys lock, at the modeled
 * time of the access; this file translates and logs, no BWMON behaviour
 * lives here.
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/timer.h"
#include "qemu/main-loop.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/core/cpu.h"
#include "hw/irq.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "system/cpu-timers.h"
#include "trace/trace-hw_memqos_bwmon.h"
#include "bwmon-qemu.h"

static const char *const err_text[] = {
    [BWMON_ERR_UNMAPPED] = "no register at this offset (RAZ/WI)",
    [BWMON_ERR_READ_ONLY] = "write to a read-only register (ignored)",
    [BWMON_ERR_WRITE_ONLY] = "read of a write-only register (reads 0)",
    [BWMON_ERR_RESERVED] = "write sets reserved bits (ignored)",
};

/* Modeled time: the accessing vCPU's clock, else the guest's (timer, DMA). */
static uint64_t now_ps(void)
{
    if (current_cpu) {
        return icount_cpu_now_fs(current_cpu) / 1000;
    }
    return qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) * 1000;
}

static void lock(MemqosBwmonState *s)
{
    if (s->memsys) {
        memsys_lock(s->memsys);
    }
}

static void unlock(MemqosBwmonState *s)
{
    if (s->memsys) {
        memsys_unlock(s->memsys);
    }
}

static void irq_bh(void *opaque)
{
    MemqosBwmonState *s = opaque;

    qemu_set_irq(s->irq, qatomic_read(&s->irq_level));
}

/* The line and the timer after the model changed (memsys lock held). */
static void update(MemqosBwmonState *s)
{
    int level = bwmon_irq(s->mon);
    uint64_t next = bwmon_next_change(s->mon);

    if (level != qatomic_read(&s->irq_level)) {
        trace_memqos_bwmon_irq(object_get_typename(OBJECT(s)), level,
                               bwmon_peek(s->mon, BWMON_IRQ_STATUS));
        qatomic_set(&s->irq_level, level);
        if (bql_locked()) {
            qemu_set_irq(s->irq, level);
        } else {
            qemu_bh_schedule(s->irq_bh);
        }
    }
    if (next == UINT64_MAX) {
        timer_del(s->timer);
    } else {
        timer_mod(s->timer, DIV_ROUND_UP(next, 1000));
    }
}

void memqos_bwmon_rearm(void *opaque, Bwmon *m, uint64_t t_ps)
{
    MemqosBwmonState **devs = opaque;

    for (; *devs; devs++) {
        if ((*devs)->mon == m) {
            timer_mod((*devs)->timer, DIV_ROUND_UP(t_ps, 1000));
        }
    }
}

/*
 * The timer runs when QEMU_CLOCK_VIRTUAL has reached bwmon_next_change().
 * A vCPU's modeled clock (now_ps in a vCPU thread) may still be behind it:
 * advancing only to that would leave the change ahead, re-arm the timer in
 * the past and run it again at once, for ever (a livelocked boot).  So the
 * monitor goes at least to the virtual clock, past the change it waited
 * for, and the next deadline is always later than this one.
 */
static void timer_cb(void *opaque)
{
    MemqosBwmonState *s = opaque;
    uint64_t vclock_ps = qemu_clock_get_ns(QEMU_CLOCK_VIRTUAL) * 1000;

    lock(s);
    bwmon_advance(s->mon, MAX(now_ps(), vclock_ps));
    trace_memqos_bwmon_window(object_get_typename(OBJECT(s)),
                              bwmon_state(s->mon)->windows,
                              bwmon_state(s->mon)->last_zone);
    update(s);
    unlock(s);
}

/* ---- MMIO: 32-bit registers; other sizes and offsets are logged ---------- */

static void guest_error(MemqosBwmonState *s, unsigned region, hwaddr offset,
                        const char *what)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: %s 0x%" HWADDR_PRIx ": %s\n",
                  object_get_typename(OBJECT(s)),
                  bwmon_layout(s->mon)->region_name[region], offset, what);
}

static uint64_t mmio_read(MemqosBwmonState *s, unsigned region, hwaddr offset,
                          unsigned size)
{
    uint64_t value = 0;
    BwmonErr err;

    if (size != 4 || offset % 4) {
        /* Bytes of the words they fall in, as a bus would return them. */
        guest_error(s, region, offset, "access is not 32 bits aligned");
    }
    lock(s);
    for (unsigned i = 0; i < size; i++) {
        hwaddr a = offset + i;
        uint32_t word = bwmon_read(s->mon, region, a & ~3ull, now_ps(), &err);

        value |= (uint64_t)((word >> (8 * (a & 3))) & 0xff) << (8 * i);
        if (err && i == 0) {
            guest_error(s, region, offset, err_text[err]);
        }
    }
    update(s);
    unlock(s);
    trace_memqos_bwmon_read(object_get_typename(OBJECT(s)), region, offset,
                            size, value);
    return value;
}

static void mmio_write(MemqosBwmonState *s, unsigned region, hwaddr offset,
                       uint64_t value, unsigned size)
{
    BwmonErr err;

    trace_memqos_bwmon_write(object_get_typename(OBJECT(s)), region, offset,
                             size, value);
    if (size != 4 || offset % 4) {
        guest_error(s, region, offset, "write is not 32 bits aligned "
                    "(ignored)");
        return;
    }
    lock(s);
    err = bwmon_write(s->mon, region, offset, value, now_ps());
    update(s);
    unlock(s);
    if (err) {
        guest_error(s, region, offset, err_text[err]);
    }
}

static uint64_t monitor_read(void *opaque, hwaddr offset, unsigned size)
{
    return mmio_read(opaque, BWMON_REGION_MONITOR, offset, size);
}

static void monitor_write(void *opaque, hwaddr offset, uint64_t value,
                          unsigned size)
{
    mmio_write(opaque, BWMON_REGION_MONITOR, offset, value, size);
}

static uint64_t global_read(void *opaque, hwaddr offset, unsigned size)
{
    return mmio_read(opaque, BWMON_REGION_GLOBAL, offset, size);
}

static void global_write(void *opaque, hwaddr offset, uint64_t value,
                         unsigned size)
{
    mmio_write(opaque, BWMON_REGION_GLOBAL, offset, value, size);
}

#define ANY_ACCESS { .min_access_size = 1, .max_access_size = 8, \
                     .unaligned = true }
static const MemoryRegionOps region_ops[BWMON_N_REGIONS] = {
    [BWMON_REGION_MONITOR] = {
        .read = monitor_read, .write = monitor_write,
        .endianness = DEVICE_LITTLE_ENDIAN,
        .valid = ANY_ACCESS, .impl = ANY_ACCESS,
    },
    [BWMON_REGION_GLOBAL] = {
        .read = global_read, .write = global_write,
        .endianness = DEVICE_LITTLE_ENDIAN,
        .valid = ANY_ACCESS, .impl = ANY_ACCESS,
    },
};

/* ---- life cycle ----------------------------------------------------------- */

Bwmon *memqos_bwmon_model(MemqosBwmonState *s)
{
    return s->mon;
}

void memqos_bwmon_set_memsys(MemqosBwmonState *s, Memsys *memsys)
{
    s->memsys = memsys;
}

static void bwmon_realize(DeviceState *dev, Error **errp)
{
    MemqosBwmonState *s = MEMQOS_BWMON(dev);
    const BwmonLayout *l = &bwmon_layouts[s->variant];

    if (s->count_unit & (s->count_unit - 1)) {
        /* the monitors count bytes in power-of-two units (64 KiB, 1 MiB) */
        error_setg(errp, "%s: count-unit-bytes=%u is not a power of two",
                   object_get_typename(OBJECT(s)), s->count_unit);
        return;
    }
    s->mon = bwmon_new(s->variant, s->count_unit);
    for (unsigned r = 0; r < l->n_regions; r++) {
        g_autofree char *name = g_strdup_printf("%s-%s",
            object_get_typename(OBJECT(s)), l->region_name[r]);

        memory_region_init_io(&s->mmio[r], OBJECT(s), &region_ops[r], s,
                              name, l->region_size[r]);
        sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->mmio[r]);
    }
    s->timer = timer_new_ns(QEMU_CLOCK_VIRTUAL, timer_cb, s);
    s->irq_bh = qemu_bh_new(irq_bh, s);
    trace_memqos_bwmon_realize(object_get_typename(OBJECT(s)),
                               bwmon_count_unit(s->mon));
    s->mig_config = memqos_mig_config_register(OBJECT(dev),
                                               object_get_typename(OBJECT(s)),
                                               TYPE_MEMQOS_BWMON "-config",
                                               NULL, NULL);
}

/* Registers to their reset values; windows count from now. */
static void bwmon_reset_hold(Object *obj, ResetType type)
{
    MemqosBwmonState *s = MEMQOS_BWMON(obj);

    lock(s);
    bwmon_reset(s->mon, now_ps());
    update(s);
    unlock(s);
}

static void bwmon_instance_init(Object *obj)
{
    MemqosBwmonState *s = MEMQOS_BWMON(obj);

    /* The type names the layout: memqos-bwmon-<layout name>. */
    s->variant = bwmon_variant_by_name(object_get_typename(obj) +
                                       strlen(TYPE_MEMQOS_BWMON "-"));
    sysbus_init_irq(SYS_BUS_DEVICE(obj), &s->irq);
}

/* ---- migration: the model's BwmonState ------------------------------------ */

static int bwmon_pre_save(void *opaque)
{
    MemqosBwmonState *s = opaque;

    lock(s);
    s->mig = *bwmon_state(s->mon);
    unlock(s);
    return 0;
}

static int bwmon_dev_post_load(void *opaque, int version_id)
{
    MemqosBwmonState *s = opaque;

    lock(s);
    *bwmon_state(s->mon) = s->mig;
    bwmon_post_load(s->mon);
    qatomic_set(&s->irq_level, -1);     /* update() sets the line */
    update(s);
    unlock(s);
    return 0;
}

static const VMStateDescription vmstate_memqos_bwmon = {
    .name = TYPE_MEMQOS_BWMON,
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_save = bwmon_pre_save,
    .post_load = bwmon_dev_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32_ARRAY(mig.regs, MemqosBwmonState, BWMON_N_REGS),
        VMSTATE_UINT8_ARRAY(mig.zone_count, MemqosBwmonState, BWMON_N_ZONES),
        VMSTATE_UINT8(mig.global_latch, MemqosBwmonState),
        VMSTATE_UINT8(mig.last_zone, MemqosBwmonState),
        VMSTATE_UINT32(mig.last_count, MemqosBwmonState),
        VMSTATE_UINT64(mig.now_ps, MemqosBwmonState),
        VMSTATE_UINT64(mig.win_start_ps, MemqosBwmonState),
        VMSTATE_UINT64(mig.win_bytes, MemqosBwmonState),
        VMSTATE_UINT64(mig.windows, MemqosBwmonState),
        VMSTATE_UINT64(mig.bytes, MemqosBwmonState),
        VMSTATE_END_OF_LIST()
    }
};

/* ---- introspection: qom-get of the monitor's state ------------------------ */

static void get_state(Object *obj, Visitor *v, const char *name,
                      void *opaque, Error **errp)
{
    MemqosBwmonState *s = MEMQOS_BWMON(obj);
    uint64_t value;

    lock(s);
    bwmon_advance(s->mon, now_ps());
    if (!strcmp(name, "windows")) {
        value = bwmon_state(s->mon)->windows;
    } else if (!strcmp(name, "zone")) {
        value = bwmon_state(s->mon)->last_zone;
    } else if (!strcmp(name, "irq-status")) {
        value = bwmon_peek(s->mon, BWMON_IRQ_STATUS);
    } else {
        value = bwmon_irq(s->mon);
    }
    update(s);
    unlock(s);
    visit_type_uint64(v, name, &value, errp);
}

MemqosBwmonMonitor *memqos_bwmon_info(MemqosBwmonState *s)
{
    MemqosBwmonMonitor *info = g_new0(MemqosBwmonMonitor, 1);
    const BwmonLayout *l = bwmon_layout(s->mon);
    const BwmonState *st = bwmon_state(s->mon);
    MemqosBwmonZoneList **tail = &info->zones;

    info->path = object_get_canonical_path(OBJECT(s));
    info->layout = g_strdup(l->name);
    info->compatible = g_strdup(l->compatible);
    info->count_unit_bytes = bwmon_count_unit(s->mon);
    lock(s);
    bwmon_advance(s->mon, now_ps());
    info->enabled = bwmon_peek(s->mon, BWMON_ENABLE) & 1;
    info->sample_window = bwmon_peek(s->mon, BWMON_SAMPLE_WINDOW);
    info->window_ns = bwmon_window_ps(s->mon) / 1e3;
    info->windows = st->windows;
    info->bytes = st->bytes;
    info->window_bytes = st->win_bytes;
    info->last_count = st->last_count;
    info->last_zone = st->last_zone;
    info->threshold_high = bwmon_peek(s->mon, BWMON_THRESHOLD_HIGH);
    info->threshold_med = bwmon_peek(s->mon, BWMON_THRESHOLD_MED);
    info->threshold_low = bwmon_peek(s->mon, BWMON_THRESHOLD_LOW);
    info->zone_actions = bwmon_peek(s->mon, BWMON_ZONE_ACTIONS);
    for (unsigned z = 0; z < BWMON_N_ZONES; z++) {
        MemqosBwmonZone *zi = g_new0(MemqosBwmonZone, 1);

        zi->zone = z;
        zi->counter = st->zone_count[z];
        zi->threshold_count = bwmon_peek(s->mon, BWMON_THRESHOLD_COUNT) >>
                              (8 * z);
        zi->max = bwmon_peek(s->mon, BWMON_ZONE0_MAX + z);
        QAPI_LIST_APPEND(tail, zi);
    }
    info->irq_status = bwmon_peek(s->mon, BWMON_IRQ_STATUS);
    info->irq_enable = bwmon_peek(s->mon, BWMON_IRQ_ENABLE);
    if (l->has_global_irq) {
        info->has_global_irq_enable = info->has_global_irq_status = true;
        info->global_irq_enable = bwmon_peek(s->mon, BWMON_GLOBAL_IRQ_ENABLE);
        info->global_irq_status = st->global_latch;
    }
    info->irq = bwmon_irq(s->mon);
    update(s);
    unlock(s);
    return info;
}

static const struct {
    const char *name, *desc;
} state_props[] = {
    { "windows", "sample windows closed since reset" },
    { "zone", "zone (0-3) of the last window closed" },
    { "irq-status", "IRQ_STATUS as the guest reads it" },
    { "irq", "the interrupt line (1: asserted)" },
};

static const Property bwmon_props[] = {
    DEFINE_PROP_UINT32("count-unit-bytes", MemqosBwmonState, count_unit, 0),
};

static void bwmon_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->desc = "memqos Qualcomm BWMON bandwidth monitor";
    dc->realize = bwmon_realize;
    dc->vmsd = &vmstate_memqos_bwmon;
    /* a platform creates it: it needs the platform's hierarchy */
    dc->user_creatable = false;
    rc->phases.hold = bwmon_reset_hold;
    device_class_set_props(dc, bwmon_props);
    object_class_property_set_description(oc, "count-unit-bytes",
        "bytes per count unit, a power of two (0: the layout's: 1 MiB "
        "msm8998 and v5, 64 KiB sdm845; sc7280's LLCC monitor: 65536)");
    for (unsigned i = 0; i < G_N_ELEMENTS(state_props); i++) {
        object_class_property_add(oc, state_props[i].name, "uint64",
                                  get_state, NULL, NULL, NULL);
        object_class_property_set_description(oc, state_props[i].name,
                                              state_props[i].desc);
    }
}

/* One type per layout, named after it (bwmon_layouts[].name). */
static const TypeInfo bwmon_types[] = {
    {
        .name = TYPE_MEMQOS_BWMON,
        .parent = TYPE_SYS_BUS_DEVICE,
        .instance_size = sizeof(MemqosBwmonState),
        .instance_init = bwmon_instance_init,
        .class_init = bwmon_class_init,
        .abstract = true,
    },
    { .name = TYPE_MEMQOS_BWMON "-v4-msm8998", .parent = TYPE_MEMQOS_BWMON },
    { .name = TYPE_MEMQOS_BWMON "-v4-sdm845", .parent = TYPE_MEMQOS_BWMON },
    { .name = TYPE_MEMQOS_BWMON "-v5-llcc", .parent = TYPE_MEMQOS_BWMON },
};

static void bwmon_register_types(void)
{
    type_register_static_array(bwmon_types, G_N_ELEMENTS(bwmon_types));
}

type_init(bwmon_register_types)
