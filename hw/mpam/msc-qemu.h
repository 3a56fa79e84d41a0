/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU SysBus device wrapping the pure-C MPAM MSC model (msc.h).  The
 * device has one MMIO region (the MSC window) and two IRQ outputs:
 * 0 = error interrupt, 1 = overflow interrupt.
 */
#ifndef MEMQOS_MPAM_MSC_QEMU_H
#define MEMQOS_MPAM_MSC_QEMU_H

#include "hw/sysbus.h"
#include "qom/object.h"
#include "msc.h"
#include "../memsys/hierarchy.h"
#include "../memsys/config-qemu.h"

#define TYPE_MEMQOS_MPAM_MSC "memqos-mpam-msc"
OBJECT_DECLARE_SIMPLE_TYPE(MemqosMpamMscState, MEMQOS_MPAM_MSC)

struct MemqosMpamMscState {
    SysBusDevice parent_obj;

    MemoryRegion mmio;
    qemu_irq irq[2];            /* MPAM_MSC_IRQ_ERROR, MPAM_MSC_IRQ_OVERFLOW */
    bool irq_level[2];          /* as the model last set them */
    QEMUBH *irq_bh;             /* sets them from the main loop */

    /* properties */
    char *name;                 /* "l3", "mem": QMP/HMP and traces */
    uint32_t id;                /* ACPI MSC identifier */
    char *pri_policy;           /* "PARTID:DSPRI[:INTPRI],..." */
    char *mbw_policy;           /* "PARTID:ITEM[:ITEM...];...", as last set */
    MpamMscConfig cfg;          /* the model's configuration; RIS 0 from properties */

    MpamMsc *msc;
    /*
     * With timing=on, the modeled memory system whose access path also
     * reaches this MSC's model: MMIO takes its lock.  NULL otherwise.
     */
    Memsys *memsys;
    /* migration: the configuration's section (hw/memsys/config-qemu.h) */
    MemqosMigConfig *mig_config;
};

/*
 * Around every use of s->msc outside the MMIO handlers (QMP): with
 * timing=on a vCPU's access path may be in the model at the same time.
 */
void memqos_mpam_msc_lock(MemqosMpamMscState *s);
void memqos_mpam_msc_unlock(MemqosMpamMscState *s);

/* Apply a host priority policy string to an MSC; false + errp on error. */
bool memqos_mpam_msc_apply_pri_policy(MemqosMpamMscState *s, const char *policy,
                                      Error **errp);
/*
 * Replace the host bandwidth policy of RIS 0 (a memory RIS) by @policy
 * (docs/mbw-regulation.md "Host policy"): "PARTID:ITEM[:ITEM...]" entries
 * separated by ";" or ",", ITEM one of hardlim, min=PERCENT%,
 * prop=STRIDE; PARTIDs not named get none.  All or nothing: false + errp
 * and no change if an entry is bad.  The caller holds the MSC's lock.
 */
bool memqos_mpam_msc_apply_mbw_policy(MemqosMpamMscState *s, const char *policy,
                                      Error **errp);
/*
 * Set the host priority policy of request PARTID @partid on RIS @ris:
 * DSPRI @dspri and INTPRI @intpri, or without @has_intpri the value Linux
 * programs for every PARTID (the highest priority).  Checks the RIS,
 * PARTID and priority widths; false + errp if one does not fit.
 */
bool memqos_mpam_msc_set_priority(MemqosMpamMscState *s, uint64_t ris,
                                  uint64_t partid, uint64_t dspri,
                                  bool has_intpri, uint64_t intpri,
                                  Error **errp);

/*
 * The board's way to read a vCPU's current MPAM label (target code); used
 * by query-mpam.  Returns true for the Non-secure PARTID space.
 */
typedef bool (*MemqosMpamCpuLabelFn)(CPUState *cs, bool is_instr,
                                     uint16_t *partid, uint8_t *pmg);
void memqos_mpam_register_cpu_label(MemqosMpamCpuLabelFn fn);

/* All MSC devices of the machine, sorted by id (g_slist_free when done). */
GSList *memqos_mpam_msc_list(void);

#endif
