/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A fixed mixed workload over a hierarchy, folded into one hash: the
 * outcome of every access (level, stall, what memory reported, L1 slot
 * and dirtiness, prefetches) and every vCPU's cache contents at the end.
 * Reads, writes and fetches of several vCPUs and labels, as a stream per
 * vCPU and at random over more than the L3, cache maintenance (a line, and
 * now and then every line) and DMA, at times that advance by what each
 * access cost.
 *
 * The model is deterministic, so a change that keeps every modeled figure
 * keeps the hash: the platforms' tests (hw/virt/tests/test-memsys.c,
 * hw/intel/tests/test-rdt.c "golden") hold the hash the model gave when
 * it was recorded, with their monitors' readings folded in.  A change that
 * moves it moves a figure: a bug, or a fix whose commit says so and
 * records the new hash (docs/testing.md, "Golden workloads").
 */
#ifndef MEMQOS_MEMSYS_TESTS_WORKLOAD_H
#define MEMQOS_MEMSYS_TESTS_WORKLOAD_H

#include <inttypes.h>
#include <stdio.h>

#include "../hierarchy.h"

typedef struct Workload {
    Memsys *m;
    MemsysCpu **cpu;            /* n_cpu of them, vCPU i at index i */
    unsigned n_cpu;
    const MemLabel *labels;     /* the labels the vCPUs run under */
    unsigned n_labels;
    uint64_t base;              /* start of the data region */
    uint64_t bytes;             /* its size: several times the L3 */
    uint64_t t_ps;              /* the modeled time, advanced by the run */
} Workload;

/* FNV-1a, 64 bits, over one 64-bit word. */
static inline uint64_t workload_fold(uint64_t h, uint64_t v)
{
    for (unsigned i = 0; i < 8; i++) {
        h = (h ^ (v >> (8 * i) & 0xff)) * 0x100000001b3ull;
    }
    return h;
}

static inline uint64_t workload_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

/*
 * A recorded hash: whether @got is @want; a mismatch prints @got as
 * "@what(@i) = 0x...", the line to record for a deliberate change.
 */
static inline bool workload_expect(const char *what, unsigned i,
                                   uint64_t got, uint64_t want)
{
    if (got != want) {
        printf("\n    %s(%u) = 0x%016" PRIx64 "\n", what, i, got);
    }
    return got == want;
}

/* @n steps from seed @seed; returns the hash, folded into @h. */
static inline uint64_t workload_run(Workload *w, uint64_t n, uint64_t seed,
                                    uint64_t h)
{
    uint64_t x = seed | 1, next[8] = { 0 };

    for (uint64_t i = 0; i < n; i++) {
        unsigned cpu = workload_rand(&x) % w->n_cpu % 8;
        unsigned op = workload_rand(&x) % 1000;
        uint64_t r = workload_rand(&x);
        MemReq q = {
            .label = w->labels[r % w->n_labels],
            .src = cpu, .t_ps = w->t_ps, .size = 8,
        };
        MemsysOutcome o;

        if (op < 500) {
            /* a stream per vCPU, 8 bytes at a time */
            q.addr = w->base + (cpu * w->bytes / 8 + next[cpu]) % w->bytes;
            next[cpu] += 8;
        } else {
            q.addr = w->base + (r >> 8) % w->bytes;
        }
        q.addr &= ~7ull;
        q.va = q.addr;
        if (op < 960) {
            q.kind = op % 4 == 3 ? MEMREQ_WRITE :
                     op % 10 == 9 ? MEMREQ_FETCH : MEMREQ_READ;
            if (q.kind == MEMREQ_FETCH) {
                /* code: a 256 KiB region below the data */
                q.addr = w->base - (256 << 10) + (r >> 8) % (256 << 10);
                q.addr &= ~3ull;
                q.size = 4;
            }
            memsys_cpu_access(w->m, w->cpu[cpu], &q, &o);
            h = workload_fold(h, o.level);
            h = workload_fold(h, o.stall_fs);
            h = workload_fold(h, o.mem_ps);
            h = workload_fold(h, o.l1_slot << 1 | o.l1_dirty);
            for (unsigned l = 0; l <= MEMSYS_MEM; l++) {
                h = workload_fold(h, o.prefetched[l]);
            }
            w->t_ps += o.stall_fs / 1000 + 400 + r % 4000;
        } else if (op < 975) {
            /* CLFLUSH; rarely WBINVD (every line), once INVD-like */
            bool all = op == 960 && r % 16 == 0;

            memsys_cpu_flush(w->m, w->cpu[cpu], &q, all, r % 64 != 1);
        } else {
            /* DMA of up to 4 KiB, either way */
            q.src = MEMREQ_SRC_DMA;
            q.kind = r & 1 ? MEMREQ_WRITE : MEMREQ_READ;
            q.size = 64 + (r >> 1) % 4033;
            memsys_dma_access(w->m, &q);
        }
    }
    for (unsigned c = 0; c < w->n_cpu; c++) {
        h = workload_fold(h, memsys_cpu_checksum(w->cpu[c]));
    }
    return workload_fold(h, w->t_ps);
}

#endif
