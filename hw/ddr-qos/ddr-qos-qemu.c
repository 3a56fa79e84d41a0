/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memqos-ddr device: QEMU glue of the DDR QoS scheduler model, see
 * ddr-qos-qemu.h.  The model is driven from the memory side of the
 * hierarchy (hw/virt/msc-memsys.c, under the memsys lock); this file only
 * configures it, resets it, migrates its statistics and answers
 * query-memqos-ddr.  No policy lives here.
 */
#include "qemu/osdep.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "qapi/visitor.h"
#include "hw/qdev-core.h"
#include "migration/vmstate.h"
#include "system/reset.h"
#include "trace/trace-hw_memqos_ddr_qos.h"
#include "qapi/qapi-commands-memqos.h"
#include "ddr-qos-qemu.h"

/* QMP has no opaque pointer: there is one DDR model per machine. */
static MemqosDdrState *ddr_dev;

void memqos_ddr_connect(MemqosDdrState *s, Memsys *memsys, uint32_t n_partids,
                        MemqosDdrDspriFn dspri, void *opaque)
{
    s->memsys = memsys;
    s->n_partids = n_partids;
    s->dspri = dspri;
    s->dspri_opaque = opaque;
}

/* ---- properties: the model's table --------------------------------------- */

static uint32_t *field(MemqosDdrState *s, const DdrConfigField *f)
{
    return (uint32_t *)((char *)&s->cfg + f->offset);
}

static bool settable(Object *obj, const char *name, Error **errp)
{
    if (DEVICE(obj)->realized) {
        error_setg(errp, "%s: %s cannot be changed after start-up",
                   TYPE_MEMQOS_DDR, name);
        return false;
    }
    return true;
}

static void get_field(Object *obj, Visitor *v, const char *name,
                      void *opaque, Error **errp)
{
    visit_type_uint32(v, name, field(MEMQOS_DDR(obj), opaque), errp);
}

static void set_field(Object *obj, Visitor *v, const char *name,
                      void *opaque, Error **errp)
{
    uint32_t value;

    if (settable(obj, name, errp) && visit_type_uint32(v, name, &value, errp)) {
        *field(MEMQOS_DDR(obj), opaque) = value;
    }
}

static const uint8_t *map_of(const DdrConfig *cfg, const char *name)
{
    return strcmp(name, "ddr-read-map") ? cfg->write_map : cfg->read_map;
}

static void get_map(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    g_autofree char *value = ddr_config_map_str(map_of(&MEMQOS_DDR(obj)->cfg,
                                                       name));

    visit_type_str(v, name, &value, errp);
}

/* The model parses a map; whether it is valid is for ddr_qos_new. */
static void set_map(Object *obj, Visitor *v, const char *name, void *opaque,
                    Error **errp)
{
    g_autofree char *value = NULL;
    g_autofree char *why = NULL;

    if (!settable(obj, name, errp) || !visit_type_str(v, name, &value, errp)) {
        return;
    }
    why = ddr_config_set(&MEMQOS_DDR(obj)->cfg, name, value);
    if (why) {
        error_setg(errp, "%s", why);
    }
}

static void ddr_instance_init(Object *obj)
{
    ddr_config_default(&MEMQOS_DDR(obj)->cfg);
}

/* ---- life cycle ---------------------------------------------------------- */

/* Machine reset: empty queues, closed rows, statistics 0, as a cold boot. */
static void ddr_reset(void *opaque)
{
    MemqosDdrState *s = opaque;

    trace_memqos_ddr_reset();
    ddr_qos_reset(s->ddr);
}

static void ddr_realize(DeviceState *dev, Error **errp)
{
    MemqosDdrState *s = MEMQOS_DDR(dev);
    g_autofree char *rmap = NULL, *wmap = NULL;
    GError *gerr = NULL;

    if (ddr_dev) {
        error_setg(errp, "a machine has one %s", TYPE_MEMQOS_DDR);
        return;
    }
    /* ddr_qos_new checks the whole configuration: zero timings, maps, ... */
    s->ddr = ddr_qos_new(&s->cfg, &gerr);
    if (!s->ddr) {
        error_setg(errp, "%s", gerr->message);
        g_error_free(gerr);
        return;
    }
    rmap = ddr_config_map_str(s->cfg.read_map);
    wmap = ddr_config_map_str(s->cfg.write_map);
    trace_memqos_ddr_realize(s->cfg.channels, s->cfg.data_rate_mts, rmap,
                             wmap);
    ddr_dev = s;
    qemu_register_reset(ddr_reset, s);
    s->mig_config = memqos_mig_config_register(OBJECT(dev), TYPE_MEMQOS_DDR,
                                               TYPE_MEMQOS_DDR "-config",
                                               NULL, NULL);
}

/* ---- migration ----------------------------------------------------------- */

/* DdrStats is all 64-bit counters: migrated as an array of them */
QEMU_BUILD_BUG_ON(sizeof(DdrStats) % sizeof(uint64_t));

static void lock(MemqosDdrState *s)
{
    if (s->memsys) {
        memsys_lock(s->memsys);
    }
}

static void unlock(MemqosDdrState *s)
{
    if (s->memsys) {
        memsys_unlock(s->memsys);
    }
}

static uint64_t served(const DdrStats *st, DdrClass from, DdrClass to)
{
    uint64_t n = 0;

    for (DdrClass c = from; c <= to; c++) {
        n += st->cls[c].count;
    }
    return n;
}

/*
 * The queues are not migrated: the migration point drains them, as if no
 * request came after it (docs/ddr-qos-model.md, "Integration").  What is
 * left is the statistics; bank and channel state start afresh.
 */
static int ddr_pre_save(void *opaque)
{
    MemqosDdrState *s = opaque;
    const DdrStats *st = (const DdrStats *)s->mig_stats;

    lock(s);
    ddr_qos_drain(s->ddr);
    memcpy(s->mig_stats, ddr_qos_stats(s->ddr), sizeof(DdrStats));
    unlock(s);
    trace_memqos_ddr_pre_save(served(st, DDR_LPR, DDR_HPR),
                              served(st, DDR_NPW, DDR_VPW));
    return 0;
}

/*
 * The configuration was compared by name in its own section
 * (memqos_mig_config_register), which loads first.
 */
static int ddr_post_load(void *opaque, int version_id)
{
    MemqosDdrState *s = opaque;
    const DdrStats *st = (const DdrStats *)s->mig_stats;

    lock(s);
    ddr_qos_reset(s->ddr);
    ddr_qos_set_stats(s->ddr, st);
    unlock(s);
    trace_memqos_ddr_post_load(served(st, DDR_LPR, DDR_HPR),
                               served(st, DDR_NPW, DDR_VPW));
    return 0;
}

static const VMStateDescription vmstate_memqos_ddr = {
    .name = TYPE_MEMQOS_DDR,
    .version_id = 2,
    .minimum_version_id = 2,
    .pre_save = ddr_pre_save,
    .post_load = ddr_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT64_ARRAY(mig_stats, MemqosDdrState,
                             sizeof(DdrStats) / sizeof(uint64_t)),
        VMSTATE_END_OF_LIST()
    }
};

/* ---- QMP ----------------------------------------------------------------- */

static double ns(uint64_t ps)
{
    return ps / 1000.0;
}

MemqosDdrInfo *qmp_query_memqos_ddr(Error **errp)
{
    MemqosDdrState *s = ddr_dev;
    MemqosDdrInfo *info;
    MemqosDdrPartidList **ptail;
    MemqosDdrClassList **ctail;
    const DdrStats *st;

    if (!s) {
        error_setg(errp, "no DDR model: run with -M virt,mpam=on,timing=on,"
                   "ddr=on");
        return NULL;
    }
    info = g_new0(MemqosDdrInfo, 1);
    info->channels = s->cfg.channels;
    info->data_rate_mts = s->cfg.data_rate_mts;
    info->read_map = ddr_config_map_str(s->cfg.read_map);
    info->write_map = ddr_config_map_str(s->cfg.write_map);
    lock(s);
    ptail = &info->partids;
    for (uint32_t p = 0; s->dspri && p < s->n_partids; p++) {
        MemqosDdrPartid *pi = g_new0(MemqosDdrPartid, 1);
        MemReq r = { .kind = MEMREQ_READ, .dspri = s->dspri(s->dspri_opaque,
                                                            p) };

        pi->partid = p;
        pi->dspri = r.dspri;
        pi->read_class = g_strdup(ddr_class_name(ddr_qos_class(&s->cfg, &r)));
        r.kind = MEMREQ_WRITE;
        pi->write_class = g_strdup(ddr_class_name(ddr_qos_class(&s->cfg,
                                                                &r)));
        QAPI_LIST_APPEND(ptail, pi);
    }
    st = ddr_qos_stats(s->ddr);
    ctail = &info->classes;
    for (DdrClass c = 0; c < DDR_N_CLASSES; c++) {
        const DdrClassStats *cs = &st->cls[c];
        MemqosDdrClass *ci = g_new0(MemqosDdrClass, 1);

        ci->name = g_strdup(ddr_class_name(c));
        ci->count = cs->count;
        ci->bytes = cs->bytes;
        if (cs->count) {
            ci->latency_mean_ns = ns(cs->lat_sum_ps) / cs->count;
            ci->latency_min_ns = ns(cs->lat_min_ps);
            ci->latency_max_ns = ns(cs->lat_max_ps);
        }
        QAPI_LIST_APPEND(ctail, ci);
    }
    info->row_hits = st->row_hits;
    info->row_closed = st->row_closed;
    info->row_conflicts = st->row_conflicts;
    info->refreshes = st->refreshes;
    info->turnarounds = st->turnarounds;
    info->drains = st->drains;
    info->backpressure = st->backpressure;
    unlock(s);
    return info;
}

/* ---- type ---------------------------------------------------------------- */

static void ddr_class_init(ObjectClass *oc, void *data)
{
    DeviceClass *dc = DEVICE_CLASS(oc);

    dc->desc = "memqos DDR QoS scheduler behind memory (uMCTL2 classes by "
               "DSPRI)";
    dc->realize = ddr_realize;
    dc->vmsd = &vmstate_memqos_ddr;
    /* a platform creates it: it needs the platform's hierarchy */
    dc->user_creatable = false;
    for (unsigned i = 0; i < ddr_config_n_fields; i++) {
        const DdrConfigField *f = &ddr_config_fields[i];
        /* object_class_property_set_description keeps its own copy */
        g_autofree char *desc = g_strdup_printf("%s%s(%u..%u, default %u)",
                                                f->unit, *f->unit ? " " : "",
                                                f->min, f->max, f->def);

        object_class_property_add(oc, f->name, "uint32", get_field,
                                  set_field, NULL, (void *)f);
        object_class_property_set_description(oc, f->name, desc);
    }
    object_class_property_add(oc, "ddr-read-map", "str", get_map, set_map,
                              NULL, NULL);
    object_class_property_set_description(oc, "ddr-read-map",
        "DSPRI to read class: LO-HI:CLASS,... (lpr, vpr, hpr), every "
        "DSPRI 0-15, monotonic");
    object_class_property_add(oc, "ddr-write-map", "str", get_map, set_map,
                              NULL, NULL);
    object_class_property_set_description(oc, "ddr-write-map",
        "DSPRI to write class: LO-HI:CLASS,... (npw, vpw), every DSPRI "
        "0-15, monotonic");
}

static const TypeInfo ddr_info = {
    .name = TYPE_MEMQOS_DDR,
    .parent = TYPE_DEVICE,
    .instance_size = sizeof(MemqosDdrState),
    .instance_init = ddr_instance_init,
    .class_init = ddr_class_init,
};

static void ddr_register_types(void)
{
    type_register_static(&ddr_info);
}

type_init(ddr_register_types)
