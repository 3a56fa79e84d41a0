/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Throughput of the partitioned cache model on the default L3 geometry
 * (mpam_ris_config_default: 2 MiB, 16 ways, 64-byte lines, CPBM_WD 16,
 * 64 PARTIDs x 4 PMGs).  Four requesters (PARTID 0..3, PMG 0..3) interleave,
 * each allowed its own quarter of the portions (as way masks precomputed
 * the way the MSC does when CPBM is written).
 *   stream: each requester walks its own 64 MiB region line by line
 *           (every access misses and evicts)
 *   random: uniformly random lines of a 4 MiB working set per requester
 * Usage: bench-pcache [stream|random] [accesses]; prints accesses per second.
 * Not a test: docs/benchmarks.md records the numbers and the commands.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "bench-rand.h"

#include "../pcache.h"

#define LINE        64
#define REQUESTERS  4

/* Kept out of line so callgrind can count just this (--toggle-collect). */
static uint64_t __attribute__((noinline))
bench_run(PCache *c, const uint32_t *way_masks, bool random, uint64_t n)
{
    uint32_t words = pcache_way_mask_words(c);
    uint64_t x = BENCH_RAND_SEED;
    MemResult res = { 0 };

    for (uint64_t i = 0; i < n; i++) {
        unsigned req = i % REQUESTERS;
        PCacheLimits lim = { .way_mask = way_masks + req * words,
                             .max_lines = UINT64_MAX, .max_ways = UINT32_MAX };
        MemReq mr = { .size = LINE, .label = { req, req } };
        uint64_t line;

        if (random) {
            line = bench_rand(&x) % (4 << 20) / LINE;
        } else {
            line = (i / REQUESTERS) % ((64 << 20) / LINE);
        }
        mr.addr = (uint64_t)req << 32 | line * LINE;
        pcache_access(c, &mr, &lim, &res);
    }
    return res.hits;
}

int main(int argc, char **argv)
{
    bool random = argc > 1 && !strcmp(argv[1], "random");
    uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 20000000;
    GError *err = NULL;
    PCacheConfig cfg = { .size = 2 << 20, .ways = 16, .line_size = LINE,
                         .n_portions = 16, .n_partid = 64, .n_pmg = 4 };
    PCache *c = pcache_new(&cfg, &err);
    static const uint32_t masks[REQUESTERS] = { 0x000F, 0x00F0, 0x0F00, 0xF000 };
    g_autofree uint32_t *way_masks = NULL;
    gint64 t0;
    uint64_t hits;
    double s;

    if (argc > 1 && strcmp(argv[1], "random") && strcmp(argv[1], "stream")) {
        fprintf(stderr, "usage: %s [stream|random] [accesses]\n", argv[0]);
        return 2;
    }
    if (!c) {
        fprintf(stderr, "%s\n", err->message);
        return 1;
    }
    /* as the MSC does when CPBM is written */
    way_masks = g_new(uint32_t, REQUESTERS * pcache_way_mask_words(c));
    for (unsigned r = 0; r < REQUESTERS; r++) {
        pcache_way_mask(c, &masks[r], way_masks + r * pcache_way_mask_words(c));
    }
    t0 = g_get_monotonic_time();
    hits = bench_run(c, way_masks, random, n);
    s = (g_get_monotonic_time() - t0) / 1e6;
    printf("%s: %" PRIu64 " accesses, %" PRIu64 " hits, %.3f s, "
           "%.1f M accesses/s\n", random ? "random" : "stream", n, hits, s,
           n / s / 1e6);
    pcache_free(c);
    return 0;
}
