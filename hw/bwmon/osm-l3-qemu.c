/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memqos-osm-l3 device: QEMU glue of the OSM L3 provider model, see
 * osm-l3-qemu.h.  Translates MMIO, logs guest mistakes, migrates the
 * selected row; no provider behaviour lives here.
 */
#include "qemu/osdep.h"
#include "qemu/log.h"
#include "qemu/cutils.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "trace/trace-hw_memqos_bwmon.h"
#include "osm-l3-qemu.h"

static const char *const err_text[] = {
    [OSM_L3_ERR_UNMAPPED] = "no register at this offset (RAZ/WI)",
    [OSM_L3_ERR_READ_ONLY] = "write to a read-only register (ignored)",
    [OSM_L3_ERR_RANGE] = "perf state past the LUT (the top row taken)",
};

static void guest_error(hwaddr offset, OsmL3Err err)
{
    qemu_log_mask(LOG_GUEST_ERROR, "%s: 0x%" HWADDR_PRIx ": %s\n",
                  TYPE_MEMQOS_OSM_L3, offset, err_text[err]);
}

static uint64_t osm_read(void *opaque, hwaddr offset, unsigned size)
{
    MemqosOsmL3State *s = opaque;
    OsmL3Err err = OSM_L3_ERR_UNMAPPED;
    uint64_t value = 0;

    if (size == 4 && !(offset % 4)) {
        value = osm_l3_read(s->l3, offset, &err);
    }
    if (err) {
        guest_error(offset, err);
    }
    trace_memqos_osm_l3_read(offset, size, value);
    return value;
}

static void osm_write(void *opaque, hwaddr offset, uint64_t value,
                      unsigned size)
{
    MemqosOsmL3State *s = opaque;
    OsmL3Err err = OSM_L3_ERR_UNMAPPED;

    if (size == 4 && !(offset % 4)) {
        err = osm_l3_write(s->l3, offset, value);
    }
    /*
     * PERF_STATE is one aligned word: the timing model reads it (under the
     * memsys lock, osm_l3_slowdown_fs) as this row or the one before.
     */
    if (err) {
        guest_error(offset, err);
    }
    trace_memqos_osm_l3_write(offset, value, osm_l3_perf_state(s->l3),
                                   osm_l3_freq_hz(s->l3));
}

/* 32-bit registers; other sizes and offsets read 0, write nothing. */
static const MemoryRegionOps osm_ops = {
    .read = osm_read,
    .write = osm_write,
    .endianness = DEVICE_LITTLE_ENDIAN,
    .valid = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
    .impl = { .min_access_size = 1, .max_access_size = 8, .unaligned = true },
};

OsmL3 *memqos_osm_l3_model(MemqosOsmL3State *s)
{
    return s->l3;
}

void memqos_osm_l3_effect(MemqosOsmL3State *s, uint32_t *cycles,
                          uint64_t *full_hz, uint32_t *port_bytes)
{
    if (port_bytes) {
        *port_bytes = s->port_bytes;
    }
    if (s->timing_cycles != UINT32_MAX) {
        *cycles = s->timing_cycles;
    }
    if (s->timing_full_hz != UINT64_MAX) {
        *full_hz = s->timing_full_hz;
    }
}

/* The property pin: OSM_L3_PIN_NONE, a row, or -2 if it is none of them. */
static int parse_pin(const char *pin)
{
    uint64_t row;

    if (!pin || !strcmp(pin, "none")) {
        return OSM_L3_PIN_NONE;
    }
    if (!strcmp(pin, "lowest")) {
        return 0;
    }
    if (!strcmp(pin, "top")) {
        return OSM_L3_PIN_TOP;
    }
    if (qemu_strtou64(pin, NULL, 10, &row) || row >= OSM_L3_LUT_MAX) {
        return -2;
    }
    return row;
}

MemqosBwmonProvider *memqos_osm_l3_info(MemqosOsmL3State *s)
{
    MemqosBwmonProvider *info = g_new0(MemqosBwmonProvider, 1);

    info->path = object_get_canonical_path(OBJECT(s));
    info->rows = s->cfg.n_rows;
    info->perf_state = osm_l3_perf_state(s->l3);
    info->vote_hz = osm_l3_lut_hz(&s->cfg, s->cfg.lut[info->perf_state]);
    /* The driver's bandwidth of a row: its rate x the bus width, in kB. */
    info->vote_kbps = info->vote_hz * OSM_L3_BUSWIDTH / 1000;
    info->pinned = parse_pin(s->pin) != OSM_L3_PIN_NONE;
    info->row = osm_l3_row(s->l3);
    info->freq_hz = osm_l3_freq_hz(s->l3);
    return info;
}

/* clocks of a path through the domain: far beyond an L3's hundred or so */
#define OSM_L3_TIMING_CYCLES_MAX    100000

static void osm_realize(DeviceState *dev, Error **errp)
{
    MemqosOsmL3State *s = MEMQOS_OSM_L3(dev);
    g_autofree char *why = NULL;
    int pin = parse_pin(s->pin);

    if (pin == -2) {
        error_setg(errp, "%s: pin=%s: expected none, lowest, top or a LUT "
                   "row 0..%d", TYPE_MEMQOS_OSM_L3, s->pin,
                   OSM_L3_LUT_MAX - 1);
        return;
    }
    /* 2^32 - 1, the default, is "the platform's"; any other value is a count */
    if (s->timing_cycles != UINT32_MAX &&
        s->timing_cycles > OSM_L3_TIMING_CYCLES_MAX) {
        error_setg(errp, "%s: timing-cycles=%u is more than %u",
                   TYPE_MEMQOS_OSM_L3, s->timing_cycles,
                   OSM_L3_TIMING_CYCLES_MAX);
        return;
    }
    s->l3 = osm_l3_new(&s->cfg, &why);
    if (!s->l3) {
        error_setg(errp, "%s", why);
        return;
    }
    osm_l3_pin(s->l3, pin);
    memory_region_init_io(&s->mmio, OBJECT(s), &osm_ops, s,
                          TYPE_MEMQOS_OSM_L3, OSM_L3_MMIO_SIZE);
    sysbus_init_mmio(SYS_BUS_DEVICE(s), &s->mmio);
    s->mig_config = memqos_mig_config_register(OBJECT(dev), TYPE_MEMQOS_OSM_L3,
                                               TYPE_MEMQOS_OSM_L3 "-config",
                                               NULL, NULL);
}

/* The lowest row until the guest's provider votes. */
static void osm_reset_hold(Object *obj, ResetType type)
{
    osm_l3_reset(MEMQOS_OSM_L3(obj)->l3);
}

static void osm_instance_init(Object *obj)
{
    osm_l3_config_default(&MEMQOS_OSM_L3(obj)->cfg);
}

static int osm_pre_save(void *opaque)
{
    MemqosOsmL3State *s = opaque;

    s->mig_perf_state = osm_l3_perf_state(s->l3);
    return 0;
}

static int osm_post_load(void *opaque, int version_id)
{
    MemqosOsmL3State *s = opaque;

    osm_l3_set_perf_state(s->l3, s->mig_perf_state);
    return 0;
}

static const VMStateDescription vmstate_memqos_osm_l3 = {
    .name = TYPE_MEMQOS_OSM_L3,
    .version_id = 1,
    .minimum_version_id = 1,
    .pre_save = osm_pre_save,
    .post_load = osm_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(mig_perf_state, MemqosOsmL3State),
        VMSTATE_END_OF_LIST()
    }
};

static void get_freq(Object *obj, Visitor *v, const char *name, void *opaque,
                     Error **errp)
{
    uint64_t hz = osm_l3_freq_hz(MEMQOS_OSM_L3(obj)->l3);

    visit_type_uint64(v, name, &hz, errp);
}

/* The model's defaults (sdm845), also for the clocks' DT nodes. */
static const Property osm_props[] = {
    DEFINE_PROP_UINT32("xo-hz", MemqosOsmL3State, cfg.xo_hz, 19200000),
    DEFINE_PROP_UINT32("alt-hz", MemqosOsmL3State, cfg.alt_hz, 600000000),
    DEFINE_PROP_STRING("pin", MemqosOsmL3State, pin),
    DEFINE_PROP_UINT32("timing-cycles", MemqosOsmL3State, timing_cycles,
                       UINT32_MAX),
    DEFINE_PROP_UINT64("timing-full-hz", MemqosOsmL3State, timing_full_hz,
                       UINT64_MAX),
    DEFINE_PROP_UINT32("port-bytes", MemqosOsmL3State, port_bytes, 0),
};

static void osm_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);
    ResettableClass *rc = RESETTABLE_CLASS(oc);

    dc->desc = "memqos Qualcomm OSM L3 frequency domain (interconnect "
               "provider)";
    dc->realize = osm_realize;
    dc->vmsd = &vmstate_memqos_osm_l3;
    dc->user_creatable = false;
    rc->phases.hold = osm_reset_hold;
    device_class_set_props(dc, osm_props);
    object_class_property_set_description(oc, "xo-hz",
        "rate of the DT clock \"xo\": LUT rows with LUT_SRC run at xo x "
        "L_VAL");
    object_class_property_set_description(oc, "alt-hz",
        "rate of the DT clock \"alternate\": LUT rows without LUT_SRC run "
        "at half of it");
    object_class_property_set_description(oc, "pin",
        "none (default: the row the guest writes to PERF_STATE), lowest, top "
        "or a LUT row: the domain runs there whatever the guest votes");
    object_class_property_set_description(oc, "timing-cycles",
        "clocks of this domain in an access through its path, at most "
        "100000; the timing model adds their time beyond full speed "
        "(default 4294967295: the platform's)");
    object_class_property_set_description(oc, "timing-full-hz",
        "the frequency from which the path runs at the timing model's "
        "latencies; 0 is the top row (default: the platform's)");
    object_class_property_add(oc, "freq-hz", "uint64", get_freq, NULL, NULL,
                              NULL);
    object_class_property_set_description(oc, "freq-hz",
        "the L3 frequency the domain runs at (PERF_STATE's LUT row, or the "
        "pinned one)");
}

static const TypeInfo osm_info = {
    .name = TYPE_MEMQOS_OSM_L3,
    .parent = TYPE_SYS_BUS_DEVICE,
    .instance_size = sizeof(MemqosOsmL3State),
    .instance_init = osm_instance_init,
    .class_init = osm_class_init,
};

static void osm_register_types(void)
{
    type_register_static(&osm_info);
}

type_init(osm_register_types)
