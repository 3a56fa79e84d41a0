/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * query-memqos-bwmon and "info memqos-bwmon" (patch 0016): every
 * memqos-bwmon monitor and memqos-osm-l3 provider of the machine, found
 * by type so that any platform that creates them is covered.  The state
 * comes from the devices (memqos_bwmon_info, memqos_osm_l3_info).
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-memqos.h"
#include "qobject/qdict.h"
#include "monitor/monitor.h"
#include "monitor/hmp.h"
#include "hw/boards.h"
#include "bwmon-qemu.h"
#include "osm-l3-qemu.h"

static int collect(Object *obj, void *opaque)
{
    GPtrArray **found = opaque;

    if (object_dynamic_cast(obj, TYPE_MEMQOS_BWMON)) {
        g_ptr_array_add(found[0], obj);
    } else if (object_dynamic_cast(obj, TYPE_MEMQOS_OSM_L3)) {
        g_ptr_array_add(found[1], obj);
    }
    return 0;
}

/* QOM children are a hash table: sort by path for a stable answer. */
static gint by_path(gconstpointer a, gconstpointer b)
{
    g_autofree char *pa = object_get_canonical_path(*(Object **)a);
    g_autofree char *pb = object_get_canonical_path(*(Object **)b);

    return strcmp(pa, pb);
}

MemqosBwmonInfo *qmp_query_memqos_bwmon(Error **errp)
{
    g_autoptr(GPtrArray) mons = g_ptr_array_new();
    g_autoptr(GPtrArray) osms = g_ptr_array_new();
    GPtrArray *found[2] = { mons, osms };
    MemqosBwmonInfo *info;
    MemqosBwmonMonitorList **mtail;
    MemqosBwmonProviderList **ptail;

    object_child_foreach_recursive(qdev_get_machine(), collect, found);
    if (!mons->len && !osms->len) {
        error_setg(errp, "no BWMON monitor or OSM L3 provider: run with "
                   "-M virt,mpam=on,timing=on,bwmon=on");
        return NULL;
    }
    g_ptr_array_sort(mons, by_path);
    g_ptr_array_sort(osms, by_path);
    info = g_new0(MemqosBwmonInfo, 1);
    mtail = &info->monitors;
    for (guint i = 0; i < mons->len; i++) {
        QAPI_LIST_APPEND(mtail,
                         memqos_bwmon_info(MEMQOS_BWMON(mons->pdata[i])));
    }
    ptail = &info->providers;
    for (guint i = 0; i < osms->len; i++) {
        QAPI_LIST_APPEND(ptail,
                         memqos_osm_l3_info(MEMQOS_OSM_L3(osms->pdata[i])));
    }
    return info;
}

void hmp_info_memqos_bwmon(Monitor *mon, const QDict *qdict)
{
    Error *err = NULL;
    g_autoptr(MemqosBwmonInfo) info = qmp_query_memqos_bwmon(&err);

    if (!info) {
        monitor_printf(mon, "%s\n", error_get_pretty(err));
        error_free(err);
        return;
    }
    for (MemqosBwmonMonitorList *l = info->monitors; l; l = l->next) {
        MemqosBwmonMonitor *m = l->value;

        monitor_printf(mon, "%s: %s (%s), unit %u bytes, %s\n", m->path,
                       m->layout, m->compatible, m->count_unit_bytes,
                       m->enabled ? "enabled" : "disabled");
        monitor_printf(mon, "  window %u ticks (%.3f ms), %" PRIu64
                       " windows, %" PRIu64 " bytes (%" PRIu64
                       " in this window), last count %u zone %u\n",
                       m->sample_window, m->window_ns / 1e6, m->windows,
                       m->bytes, m->window_bytes, m->last_count,
                       m->last_zone);
        monitor_printf(mon, "  thresholds low %u med %u high %u, "
                       "zone actions 0x%08x\n", m->threshold_low,
                       m->threshold_med, m->threshold_high, m->zone_actions);
        for (MemqosBwmonZoneList *z = m->zones; z; z = z->next) {
            monitor_printf(mon, "  zone %u: counter %u of %u, max %u\n",
                           z->value->zone, z->value->counter,
                           z->value->threshold_count, z->value->max);
        }
        monitor_printf(mon, "  irq status 0x%x enable 0x%x", m->irq_status,
                       m->irq_enable);
        if (m->has_global_irq_enable) {
            monitor_printf(mon, ", global enable %u latch %d",
                           m->global_irq_enable, m->global_irq_status);
        }
        monitor_printf(mon, ", line %s\n", m->irq ? "asserted" : "low");
    }
    for (MemqosBwmonProviderList *l = info->providers; l; l = l->next) {
        MemqosBwmonProvider *p = l->value;

        monitor_printf(mon, "%s: vote row %u (%" PRIu64 " Hz, %" PRIu64
                       " kBps), runs at row %u of %u: %" PRIu64 " Hz%s\n",
                       p->path, p->perf_state, p->vote_hz, p->vote_kbps,
                       p->row, p->rows, p->freq_hz,
                       p->pinned ? " (pinned)" : "");
    }
}
