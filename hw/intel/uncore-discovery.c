/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Intel uncore PMON discovery table, see uncore-discovery.h and
 * docs/x86-pmu-design.md §2.3.
 */
#include "uncore-discovery.h"

#define ACCESS_SHIFT    62

uint64_t uncore_discovery_word(const UncoreDiscovery *d, uint64_t offset)
{
    const uint64_t rec = UNCORE_DISCOVERY_STRIDE * 8;
    uint64_t i = offset / rec, word = offset % rec / 8;
    const UncoreUnitLayout *l = &d->layout;

    if (i > d->units) {
        return 0;
    }
    if (i == 0) {
        /* type 0, stride, max_units; ctl: BAR2 (never written: SPR has
         * no global_init); table3 0 */
        return word == 0 ? (uint64_t)UNCORE_ACCESS_MMIO << ACCESS_SHIFT |
                           (uint64_t)d->units << 16 |
                           UNCORE_DISCOVERY_STRIDE << 8 :
               word == 1 ? d->unit_bar : 0;
    }
    i--;
    switch (word) {
    case 0:
        return (uint64_t)UNCORE_ACCESS_MMIO << ACCESS_SHIFT |
               (uint64_t)l->status_offset << 32 |
               (uint64_t)l->ctr_offset << 24 |
               (uint64_t)l->bit_width << 16 |
               (uint64_t)l->ctl_offset << 8 | l->num_regs;
    case 1:
        /* Linux ignores a unit whose ctl is 0: none before BAR2 is set */
        return d->unit_bar ? d->unit_bar + i * UNCORE_DISCOVERY_UNIT_SIZE : 0;
    case 2:
        return i << 16 | d->box_type;
    default:
        return 0;
    }
}

uint64_t uncore_discovery_read(const UncoreDiscovery *d, uint64_t offset,
                               unsigned size)
{
    uint64_t v = 0;

    for (unsigned b = 0; b < size; b++) {
        uint64_t o = offset + b;

        v |= (uncore_discovery_word(d, o & ~7ull) >> (o & 7) * 8 & 0xff)
             << b * 8;
    }
    return v;
}

void uncore_discovery_dvsec(uint32_t dw[3])
{
    dw[0] = UNCORE_DISCOVERY_DVSEC_LEN << 20 | 0x8086;
    dw[1] = UNCORE_DISCOVERY_DVSEC_PMON;
    dw[2] = UNCORE_DISCOVERY_TABLE_BAR;
}
