/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The L1D hit filter, see filter.h. */
#include <string.h>
#include <glib.h>

#include "filter.h"

void memsys_filter_init(MemsysFilter *f, uint64_t *line, uint64_t *table,
                        uint32_t lines, uint32_t slots)
{
    g_assert(lines && !(lines & (lines - 1)));
    *f = (MemsysFilter) {
        .line = line,
        .table = table,
        .lines = lines,
        .slots = slots,
        .slot_vline = g_new(uint64_t, slots),
    };
    memsys_filter_reset(f);
}

void memsys_filter_fini(MemsysFilter *f)
{
    g_free(f->slot_vline);
    f->slot_vline = NULL;
}

/* MEMSYS_FILTER_NONE is all ones */
void memsys_filter_reset(MemsysFilter *f)
{
    memset(f->line, 0xff, 2 * sizeof(*f->line));
    memset(f->table, 0xff, 2 * (size_t)f->lines * sizeof(*f->table));
    memset(f->slot_vline, 0xff, f->slots * sizeof(*f->slot_vline));
}

static inline uint64_t *entry(MemsysFilter *f, unsigned kind, uint64_t vline)
{
    return &f->table[kind * f->lines + (vline & (f->lines - 1))];
}

bool memsys_filter_check(MemsysFilter *f, unsigned kind, uint64_t vline)
{
    if (f->line[kind] == vline) {
        return true;
    }
    if (*entry(f, kind, vline) == vline) {
        f->line[kind] = vline;
        return true;
    }
    return false;
}

/* @vline passes no more, of either kind. */
static void drop(MemsysFilter *f, uint64_t vline)
{
    for (unsigned k = 0; k < 2; k++) {
        if (*entry(f, k, vline) == vline) {
            *entry(f, k, vline) = MEMSYS_FILTER_NONE;
        }
        if (f->line[k] == vline) {
            f->line[k] = MEMSYS_FILTER_NONE;
        }
    }
}

void memsys_filter_add(MemsysFilter *f, unsigned kind, uint64_t vline,
                       uint32_t slot, bool dirty)
{
    g_assert(slot < f->slots && (dirty || kind == 0));
    if (f->slot_vline[slot] != vline) {
        memsys_filter_evict(f, slot);
        f->slot_vline[slot] = vline;
    }
    /* reading a line the L1D holds hits; writing it, once it is dirty */
    for (unsigned k = 0; k <= dirty; k++) {
        *entry(f, k, vline) = vline;
        f->line[k] = vline;
    }
}

void memsys_filter_evict(MemsysFilter *f, uint32_t slot)
{
    g_assert(slot < f->slots);
    if (f->slot_vline[slot] != MEMSYS_FILTER_NONE) {
        drop(f, f->slot_vline[slot]);
        f->slot_vline[slot] = MEMSYS_FILTER_NONE;
    }
}
