/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MPAM MSCs as the shared side of the modeled memory hierarchy
 * (hw/memsys/hierarchy.h): the L3 is a cache MSC, whose cache RIS holds
 * the lines within each PARTID's controls, and memory is the memory MSC.
 * The aarch64 platform's binding, so that neither hw/memsys nor hw/mpam
 * depends on the other components (docs/architecture.md, "Layers").
 *
 * Traffic the monitors count (docs/mpam-msc-model.md):
 *   - the L3 MSC's MBWU: the L3's downstream traffic, line fills with the
 *     requester's label and write-backs with the line owner's label;
 *   - the memory MSC's MBWU: every byte reaching memory with its label,
 *     that is the same L3 traffic, L2 write-backs that miss the L3, and DMA.
 * Every request below the L3 carries the DSPRI the L3 MSC attaches for its
 * PARTID (mpam_msc_down_dspri), which a DDR model behind memory serves by.
 * Pure C + glib.
 */
#ifndef MEMQOS_VIRT_MSC_MEMSYS_H
#define MEMQOS_VIRT_MSC_MEMSYS_H

#include "../memsys/hierarchy.h"
#include "../ddr-qos/ddr-qos.h"
#include "../mpam/msc.h"
#include "../agents/agents.h"

/*
 * Ports that send L2 misses and write-backs to @l3 and memory traffic to
 * @mem and, if not NULL, to the DDR model @ddr (docs/ddr-qos-model.md,
 * "Integration"): an L3 miss is a blocking read there, at the DSPRI the
 * L3 MSC gives the requester's PARTID; write-backs (at the owner's DSPRI)
 * and DMA are posted.  All must outlive the Memsys that uses the ports.
 */
MemsysPorts memsys_mpam_ports(MpamMsc *l3, MpamMsc *mem, DdrQos *ddr);

/*
 * Background agents on these ports (docs/agents.md, "Wiring"): their
 * requests enter as L2 misses do, through the L3 MSC (or straight to the
 * memory MSC with AgentConfig.direct), counted, regulated and given their
 * PARTID's DSPRI like any other, and wait for the DDR model, which must
 * be there (p->ddr), without blocking anyone; its done hook completes
 * them.  @ap keeps what the sink needs (@p's copy, the L3 hit latency
 * @l3_ps) and must outlive the set.  Then set the ports' @agents to the
 * set, so that every blocking memory read first lets the agents issue
 * what is due before it.
 */
typedef struct MemsysAgentPort {
    MemsysPorts ports;
    uint64_t l3_ps;
} MemsysAgentPort;

AgentSet *memsys_mpam_agents_new(MemsysAgentPort *ap, const MemsysPorts *p,
                                 uint64_t l3_ps);

#endif
