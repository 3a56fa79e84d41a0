/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU glue of the background agents (agents.h): the memqos-agent object,
 * one per agent, created with -object or object-add and changed at run
 * time with qom-set (properties as agents.h's AgentConfig, the QAPI
 * MemqosAgentProperties of patch 0014), and query-memqos-agents.
 * A platform with a modeled memory system and a DDR model calls
 * memqos_agents_connect() once (hw/virt/mpam-virt-qemu.c for
 * -M virt,mpam=on,timing=on,ddr=on); the agents created before then join
 * the set in their order of creation, later ones at once.
 * docs/agents.md, "Wiring".
 */
#ifndef MEMQOS_AGENTS_QEMU_H
#define MEMQOS_AGENTS_QEMU_H

#include "agents.h"
#include "../memsys/hierarchy.h"
#include "../ddr-qos/ddr-qos-qemu.h"

#define TYPE_MEMQOS_AGENT "memqos-agent"

/* Whether any memqos-agent object exists (the platform refuses them without
 * a DDR model). */
bool memqos_agents_wanted(void);

/*
 * The machine's set (on @memsys's ports, with @ddr behind memory, labels
 * up to @label_max: the platform's largest PARTID and PMG): every agent
 * object joins it; false with @errp set if one is refused (its bandwidth
 * above the DDR peak, a label beyond the platform's).  Migration is
 * blocked while agents exist.
 */
bool memqos_agents_connect(AgentSet *set, Memsys *memsys, MemqosDdrState *ddr,
                           MemLabel label_max, Error **errp);

#endif
