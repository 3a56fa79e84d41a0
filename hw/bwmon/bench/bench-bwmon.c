/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host time per counted request (docs/benchmarks.md, "BWMON per
 * request"): what the tap adds to every L2 miss and every request reaching
 * memory.  A v4-sdm845 monitor set up as icc-bwmon starts it (4 ms
 * windows, thresholds of its lowest OPP, zones 1 and 3 enabled) counts
 * 64-byte requests at a steady rate; the line is cleared at every
 * interrupt, as the driver's thread would.
 * Usage: bench-bwmon [requests, default 50000000]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib.h>

#include "../bwmon.h"

static void wr(Bwmon *m, BwmonRegId id, uint32_t v, uint64_t t)
{
    bwmon_write(m, bwmon_layout(m)->regs[id].region,
                bwmon_layout(m)->regs[id].offset, v, t);
}

/* @gbps of 64-byte requests for @n requests; one table row. */
static void bench(uint64_t gbps, uint64_t n)
{
    Bwmon *m = bwmon_new(BWMON_V4_SDM845, 0);
    uint64_t gap = 64000 / gbps, t = 0, irqs = 0;   /* ps between requests */
    gint64 host;

    wr(m, BWMON_SAMPLE_WINDOW, 76800, 0);
    wr(m, BWMON_THRESHOLD_HIGH, 300, 0);
    wr(m, BWMON_THRESHOLD_MED, 300, 0);
    wr(m, BWMON_ZONE_ACTIONS, 0x95250901, 0);
    wr(m, BWMON_THRESHOLD_COUNT, 0x01FF10FF, 0);
    wr(m, BWMON_GLOBAL_IRQ_ENABLE, 1, 0);
    wr(m, BWMON_IRQ_ENABLE, 0xA0, 0);
    wr(m, BWMON_ENABLE, 1, 0);
    host = g_get_monotonic_time();
    for (uint64_t i = 0; i < n; i++) {
        t += gap;
        bwmon_count(m, t, 64);
        if (bwmon_irq(m)) {
            irqs++;
            wr(m, BWMON_IRQ_CLEAR, 0xA0, t);
            wr(m, BWMON_GLOBAL_IRQ_CLEAR, 1, t);
        }
    }
    host = g_get_monotonic_time() - host;
    printf("| %4" PRIu64 " GB/s | %10" PRIu64 " | %8" PRIu64 " | %6" PRIu64
           " | %5.1f |\n", gbps, n, bwmon_state(m)->windows, irqs,
           host * 1e3 / n);
    bwmon_free(m);
}

int main(int argc, char **argv)
{
    uint64_t n = argc > 1 ? strtoull(argv[1], NULL, 0) : 50000000;

    printf("| traffic | requests | windows | interrupts | host ns per request |\n"
           "|---|---|---|---|---|\n");
    bench(1, n);
    bench(10, n);
    bench(30, n);
    return 0;
}
