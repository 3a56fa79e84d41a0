/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * query-memqos-timing in a QEMU built without the modeled memory system
 * (no board selects CONFIG_MEMQOS_TIMING): the QAPI schema has the command
 * in every system build, so it answers that the model is not here.
 */
#include "qemu/osdep.h"
#include "qapi/error.h"
#include "qapi/qapi-commands-memqos.h"

MemqosTimingInfo *qmp_query_memqos_timing(Error **errp)
{
    error_setg(errp, "this QEMU is built without the memqos models");
    return NULL;
}
