/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * query-mpam, mpam-set-priority, "info mpam", query-memqos-timing,
 * query-memqos-ddr, query-memqos-agents, query-memqos-bwmon and "info
 * memqos-bwmon" in a QEMU built without the memqos models (no board
 * selects CONFIG_MEMQOS_MPAM): the QAPI schema has the commands in every
 * system build, so they answer that the models are not here.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-memqos.h"
#include "monitor/monitor.h"
#include "monitor/hmp.h"

MpamInfo *qmp_query_mpam(bool has_all, bool all, Error **errp)
{
    error_setg(errp, "this QEMU is built without MPAM");
    return NULL;
}

void qmp_mpam_set_priority(const char *msc, bool has_ris, uint32_t ris,
                           uint32_t partid, bool has_dspri, uint32_t dspri,
                           bool has_intpri, uint32_t intpri,
                           bool has_clear, bool clear, Error **errp)
{
    error_setg(errp, "this QEMU is built without MPAM");
}

void hmp_info_mpam(Monitor *mon, const QDict *qdict)
{
    monitor_printf(mon, "this QEMU is built without MPAM\n");
}

MemqosDdrInfo *qmp_query_memqos_ddr(Error **errp)
{
    error_setg(errp, "this QEMU is built without the memqos models");
    return NULL;
}

MemqosAgentsInfo *qmp_query_memqos_agents(bool has_restart_window,
                                          bool restart_window, Error **errp)
{
    error_setg(errp, "this QEMU is built without the memqos models");
    return NULL;
}

MemqosBwmonInfo *qmp_query_memqos_bwmon(Error **errp)
{
    error_setg(errp, "this QEMU is built without the memqos models");
    return NULL;
}

void hmp_info_memqos_bwmon(Monitor *mon, const QDict *qdict)
{
    monitor_printf(mon, "this QEMU is built without the memqos models\n");
}
