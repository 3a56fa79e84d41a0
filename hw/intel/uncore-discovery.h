/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intel's uncore PMON discovery (docs/x86-pmu-design.md §2.2-2.3): the
 * PCIe device 8086:09a7 whose DVSEC (PCIe extended capability 0x23, PMON
 * entry) names a BAR holding the discovery table, which in turn lists the
 * uncore units (here: the iMC boxes, one a DDR channel) with the MMIO
 * address of each unit's control block.  This file makes the bytes of the
 * DVSEC and of the table; the device itself is hw/intel/imc-qemu.c.
 * Field layouts are Linux's uncore_discovery.h (struct
 * uncore_global_discovery, uncore_unit_discovery).  Pure C + glib.
 */
#ifndef MEMQOS_INTEL_UNCORE_DISCOVERY_H
#define MEMQOS_INTEL_UNCORE_DISCOVERY_H

#include <stdint.h>

#define UNCORE_DISCOVERY_DEVICE_ID      0x09a7  /* Linux's ..._TABLE_DEVICE */
#define UNCORE_DISCOVERY_CAP_ID         0x23    /* DVSEC */
#define UNCORE_DISCOVERY_DVSEC_LEN      0x10
#define UNCORE_DISCOVERY_DVSEC_PMON     0x1
/* BAR0: the table, 4 KiB; BAR2: the units, 16 KiB each (Linux maps 16) */
#define UNCORE_DISCOVERY_TABLE_BAR      0
#define UNCORE_DISCOVERY_TABLE_SIZE     0x1000
#define UNCORE_DISCOVERY_UNIT_BAR       2
#define UNCORE_DISCOVERY_UNIT_SIZE      0x4000
/* 8-byte words a record: 4 (32 bytes), the global one and each unit's */
#define UNCORE_DISCOVERY_STRIDE         4
/* as many units as 4 KiB holds after the global record */
#define UNCORE_DISCOVERY_MAX_UNITS      \
    (UNCORE_DISCOVERY_TABLE_SIZE / (UNCORE_DISCOVERY_STRIDE * 8) - 1)
/* box type 6: Sapphire Rapids' iMC (Linux's UNCORE_SPR_IMC) */
#define UNCORE_BOX_TYPE_SPR_IMC         6
#define UNCORE_ACCESS_MMIO              1

/* The register block each unit has (imc-pmu.h follows it). */
typedef struct UncoreUnitLayout {
    uint8_t num_regs;           /* general counters */
    uint8_t ctl_offset;         /* control 0; control i at + 4 i */
    uint8_t bit_width;          /* of a counter */
    uint8_t ctr_offset;         /* counter 0; counter i at + 8 i */
    uint8_t status_offset;
} UncoreUnitLayout;

typedef struct UncoreDiscovery {
    unsigned units;             /* 1 .. UNCORE_DISCOVERY_MAX_UNITS */
    uint16_t box_type;
    UncoreUnitLayout layout;
    /* BAR2's address as the guest programmed it, 0: unassigned */
    uint64_t unit_bar;
} UncoreDiscovery;

/*
 * The little-endian u64 of the table at the 8-byte aligned @offset (< 4
 * KiB): the global record (type 0, stride, units, MMIO; ctl = BAR2's
 * address), one record per unit (its layout; ctl = BAR2 + 16 KiB x i, 0
 * while BAR2 is unassigned; box type and id i), 0 elsewhere.
 */
uint64_t uncore_discovery_word(const UncoreDiscovery *d, uint64_t offset);
/* The @size (1..8) bytes at any @offset, as a guest's memcpy_fromio reads. */
uint64_t uncore_discovery_read(const UncoreDiscovery *d, uint64_t offset,
                               unsigned size);
/*
 * The DVSEC after its extended capability header: dword 1 (vendor 8086,
 * revision 0, length), dword 2 (the PMON entry id), dword 3 (BIR = BAR0
 * and nothing else: Linux refuses any other bit).
 */
void uncore_discovery_dvsec(uint32_t dw[3]);

#endif
