/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The L1D hit filter of a vCPU's access stream (exec/access-hook.h, patch
 * 0020; docs/timing-design.md §1.2): the virtual lines that TCG-generated
 * code may read, or write, without calling the model, because the model
 * would find them in the L1D and change nothing (the L1s replace
 * round-robin, hierarchy.h, and a dirty line stays dirty).
 *
 * The arrays it keeps are the vCPU's (QEMU's CPUNegativeOffsetState, so
 * that generated code reaches them from env): per kind (0 read, 1 write)
 * the current line, and a direct-mapped table of lines by
 * virtual line % lines.  The generated check is memsys_filter_check.  A
 * line is in the read half while the L1D holds it, in the write half only
 * while it is dirty there too.  This side adds a line after the model
 * served an access to it and drops it when the L1D loses it
 * (MemsysL1EvictFn); to find what to drop it remembers, per L1D slot, the
 * one virtual line it put there (an alias drops the other).
 *
 * Pure C + glib, no QEMU types.
 */
#ifndef MEMQOS_MEMSYS_FILTER_H
#define MEMQOS_MEMSYS_FILTER_H

#include <stdbool.h>
#include <stdint.h>

#define MEMSYS_FILTER_NONE  UINT64_MAX

typedef struct MemsysFilter {
    uint64_t *line;         /* [2]: the current read and write line */
    uint64_t *table;        /* [2 * lines]: the read table, the write table */
    uint32_t lines;         /* a power of two */
    uint32_t slots;         /* L1D sets * ways */
    uint64_t *slot_vline;   /* [slots]: the virtual line added for a slot */
} MemsysFilter;

/* Over the vCPU's @line[2] and @table[2 * @lines], all emptied. */
void memsys_filter_init(MemsysFilter *f, uint64_t *line, uint64_t *table,
                        uint32_t lines, uint32_t slots);
void memsys_filter_fini(MemsysFilter *f);
/* Nothing passes. */
void memsys_filter_reset(MemsysFilter *f);
/*
 * What generated code does for an access of @kind to virtual line
 * @vline: true if it passes without the model (the line becomes the
 * current one of its kind).
 */
bool memsys_filter_check(MemsysFilter *f, unsigned kind, uint64_t vline);
/*
 * The model served an access of @kind to @vline, which is now in L1D
 * slot @slot, @dirty or not.
 */
void memsys_filter_add(MemsysFilter *f, unsigned kind, uint64_t vline,
                       uint32_t slot, bool dirty);
/* The L1D lost the line of @slot. */
void memsys_filter_evict(MemsysFilter *f, uint32_t slot);

#endif
