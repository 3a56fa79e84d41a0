/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A memqos device's configuration as QEMU hands it over: the board's
 * properties and the user's -global, and migration; see config-qemu.h.
 */
#include "qemu/osdep.h"
#include "qemu/cutils.h"
#include "qemu/error-report.h"
#include "qapi/error.h"
#include "hw/qdev-core.h"
#include "hw/qdev-properties.h"
#include "migration/vmstate.h"
#include "config-qemu.h"

/*
 * A configuration is a few KiB (every property, name=value;): a longer
 * one is a corrupt stream, refused before anything is allocated.
 */
#define MIG_CONFIG_MAX_LEN  65536u

struct MemqosMigConfig {
    Object *obj;
    char *who;
    char **props;               /* the properties it compares */
    VMStateDescription vmsd;    /* a copy of vmstate_mig_config, named */
    char *buf;                  /* the source's, while loading or saving */
    uint32_t len;
};

static bool in_list(const char *const *list, const char *name)
{
    for (; list && *list; list++) {
        if (!strcmp(*list, name)) {
            return true;
        }
    }
    return false;
}

static gint by_name(gconstpointer a, gconstpointer b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The properties memqos gives @obj to configure it: the settable ones of
 * its class that the first ancestor outside memqos (a SysBus, PCI or plain
 * device) does not have, but links, children and @skip; sorted by name.
 * (Read-only ones are introspection: a checksum, a state.)
 */
static char **own_props(Object *obj, const char *const *skip)
{
    ObjectClass *oc = object_get_class(obj), *base = oc;
    GPtrArray *names = g_ptr_array_new();
    ObjectPropertyIterator it;
    ObjectProperty *prop;

    while (g_str_has_prefix(object_class_get_name(base), "memqos-")) {
        base = object_class_get_parent(base);
    }
    object_class_property_iter_init(&it, oc);
    while ((prop = object_property_iter_next(&it))) {
        if (prop->get && prop->set && !strstart(prop->type, "link<", NULL) &&
            !strstart(prop->type, "child<", NULL) &&
            !object_class_property_find(base, prop->name) &&
            !in_list(skip, prop->name)) {
            g_ptr_array_add(names, g_strdup(prop->name));
        }
    }
    g_ptr_array_sort(names, by_name);
    g_ptr_array_add(names, NULL);
    return (char **)g_ptr_array_free(names, false);
}

/*
 * The configuration as "property=value;", property by property, after the
 * type (a BWMON's variant is its type).
 */
static char *config_string(MemqosMigConfig *c)
{
    GString *str = g_string_new("");

    g_string_append_printf(str, "type=%s;", object_get_typename(c->obj));
    for (char **p = c->props; *p; p++) {
        g_autofree char *v = object_property_print(c->obj, *p, false,
                                                   &error_abort);

        g_string_append_printf(str, "%s=%s;", *p, v);
    }
    return g_string_free(str, false);
}

static int mig_config_pre_save(void *opaque)
{
    MemqosMigConfig *c = opaque;

    g_free(c->buf);
    c->buf = config_string(c);
    c->len = strlen(c->buf) + 1;
    return 0;
}

static int mig_config_pre_load(void *opaque)
{
    MemqosMigConfig *c = opaque;

    g_clear_pointer(&c->buf, g_free);
    return 0;
}

static bool mig_config_len_ok(void *opaque, int version_id)
{
    MemqosMigConfig *c = opaque;

    if (c->len > MIG_CONFIG_MAX_LEN) {
        error_report("%s: the migration stream gives a configuration of %u "
                     "bytes (at most %u): corrupt stream", c->vmsd.name,
                     c->len, MIG_CONFIG_MAX_LEN);
        return false;
    }
    return true;
}

/* A value as the message shows it: an empty one (an unset string) as "". */
static const char *shown(const char *v)
{
    return v && *v ? v : "\"\"";
}

/*
 * Refuse a source configured differently, before its state is read with
 * this machine's sizes, and name the first property that differs.
 */
static int mig_config_post_load(void *opaque, int version_id)
{
    MemqosMigConfig *c = opaque;
    g_autofree char *mine = config_string(c);
    g_auto(GStrv) src = NULL;
    g_auto(GStrv) dst = g_strsplit(mine, ";", -1);

    if (!c->len || !c->buf || c->buf[c->len - 1]) {
        error_report("%s: the migration source sent no valid configuration",
                     c->who);
        return -EINVAL;
    }
    src = g_strsplit(c->buf, ";", -1);
    for (unsigned i = 0; src[i] || dst[i]; i++) {
        if (g_strcmp0(src[i], dst[i])) {
            g_auto(GStrv) a = g_strsplit(src[i] ? src[i] : "", "=", 2);
            g_auto(GStrv) b = g_strsplit(dst[i] ? dst[i] : "", "=", 2);

            error_report("%s: migration source has %s %s, which does not "
                         "match this machine (%s)", c->who,
                         a[0] ? a[0] : "no property", shown(a[0] ? a[1] : ""),
                         b[0] ? shown(b[1]) : "no such property");
            return -EINVAL;
        }
    }
    return 0;
}

/*
 * Loaded before the device states, and before the CPUs (whose ID
 * registers also follow the configuration): the highest priority but
 * QEMU's GICv3, which no memqos state depends on.
 */
static const VMStateDescription vmstate_mig_config = {
    .version_id = 1,
    .minimum_version_id = 1,
    .priority = MIG_PRI_GICV3,
    .pre_save = mig_config_pre_save,
    .pre_load = mig_config_pre_load,
    .post_load = mig_config_post_load,
    .fields = (const VMStateField[]) {
        VMSTATE_UINT32(len, MemqosMigConfig),
        VMSTATE_VALIDATE("configuration length", mig_config_len_ok),
        VMSTATE_VBUFFER_ALLOC_UINT32(buf, MemqosMigConfig, 0, NULL, len),
        VMSTATE_END_OF_LIST()
    }
};

MemqosMigConfig *memqos_mig_config_register(Object *obj, const char *who,
                                            const char *section,
                                            const char *const *props,
                                            const char *const *skip)
{
    MemqosMigConfig *c = g_new0(MemqosMigConfig, 1);

    c->obj = obj;
    c->who = g_strdup(who);
    c->props = props ? g_strdupv((char **)props) : own_props(obj, skip);
    c->vmsd = vmstate_mig_config;
    c->vmsd.name = g_strdup(section);
    vmstate_register_any(object_dynamic_cast(obj, TYPE_DEVICE) ?
                         VMSTATE_IF(obj) : NULL, &c->vmsd, c);
    return c;
}

void memqos_mig_config_unregister(MemqosMigConfig *c)
{
    if (c) {
        vmstate_unregister(object_dynamic_cast(c->obj, TYPE_DEVICE) ?
                           VMSTATE_IF(c->obj) : NULL, &c->vmsd, c);
        g_free((char *)c->vmsd.name);
        g_free(c->who);
        g_strfreev(c->props);
        g_free(c->buf);
        g_free(c);
    }
}

bool memqos_board_prop(DeviceState *dev, const char *name, const char *option,
                       Error **errp)
{
    const GlobalProperty *gp = qdev_find_global_prop(OBJECT(dev), name);

    if (gp) {
        error_setg(errp, "-global %s.%s=%s: the board sets %s from %s; give "
                   "that instead", gp->driver, name, gp->value, name, option);
        return false;
    }
    return true;
}

bool memqos_apply_globals(DeviceState *dev, Error **errp)
{
    g_auto(GStrv) props = own_props(OBJECT(dev), NULL);

    for (char **p = props; *p; p++) {
        const GlobalProperty *gp = qdev_find_global_prop(OBJECT(dev), *p);

        if (gp && !object_property_parse(OBJECT(dev), *p, gp->value, errp)) {
            error_prepend(errp, "-global %s.%s=%s: ", gp->driver, *p,
                          gp->value);
            return false;
        }
    }
    return true;
}

int memqos_refuse_load(const char *who, char *why)
{
    if (why) {
        error_report("%s: %s", who, why);
        g_free(why);
        return -EINVAL;
    }
    return 0;
}
