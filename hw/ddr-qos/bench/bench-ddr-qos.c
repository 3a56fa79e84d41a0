/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host time per request of the DDR QoS scheduler model at the default
 * configuration (DDR5-4800B, 8 channels): random 64-byte lines of a 1 GiB
 * region, Poisson arrivals at utilisation RHO of the channels' peak
 * (one burst per tBURST per channel), 2/3 blocking reads (DSPRI spread
 * over LPR, VPR and HPR) and 1/3 posted write-backs, as the hierarchy
 * would send L3 misses and dirty victims.
 * Usage: bench-ddr-qos [RHO] [requests] [ddr-PROPERTY=VALUE...]; prints
 * ns per request, the modeled mean read latency and the achieved data
 * bus utilisation (the part of the peak actually moved).  Not a test: docs/benchmarks.md records the
 * numbers and commands.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib.h>

#include "../ddr-qos.h"
#include "../../memsys/bench/bench-rand.h"

/* Kept out of line so callgrind can count just this (--toggle-collect). */
static uint64_t __attribute__((noinline))
bench_run(DdrQos *d, double gap_ps, uint64_t n, uint64_t *reads,
          uint64_t *t_end)
{
    uint64_t x = BENCH_RAND_SEED, t = 0, lat = 0;

    for (uint64_t i = 0; i < n; i++) {
        uint64_t r = bench_rand(&x);
        double u = ((r >> 11) + 1) * (1.0 / 9007199254740992.0);
        MemReq req = {
            .addr = (r & ((1ull << 30) - 1)) & ~63ull,
            .size = 64,
            .dspri = r >> 60,
            .kind = r % 3 ? MEMREQ_READ : MEMREQ_WRITE,
        };

        t += (uint64_t)(-log(u) * gap_ps);
        req.t_ps = t;
        if (req.kind == MEMREQ_READ) {
            lat += ddr_qos_read(d, &req);
            ++*reads;
        } else {
            ddr_qos_post(d, &req);
        }
    }
    ddr_qos_drain(d);
    *t_end = t;
    return lat;
}

int main(int argc, char **argv)
{
    double rho = argc > 1 ? atof(argv[1]) : 0.5;
    uint64_t n = argc > 2 ? strtoull(argv[2], NULL, 0) : 10000000;
    GError *err = NULL;
    gint64 t0;
    uint64_t reads = 0, lat, t_end;
    DdrConfig cfg;
    DdrQos *d;
    double s, gap;

    if (rho <= 0 || rho >= 1.5) {
        fprintf(stderr, "usage: %s [RHO in (0, 1.5)] [requests]\n", argv[0]);
        return 2;
    }
    ddr_config_default(&cfg);
    for (int i = 3; i < argc; i++) {
        g_auto(GStrv) kv = g_strsplit(argv[i], "=", 2);
        g_autofree char *why = kv[1] ? ddr_config_set(&cfg, kv[0], kv[1])
                                     : g_strdup("not PROPERTY=VALUE");

        if (why) {
            fprintf(stderr, "%s: %s\n", argv[i], why);
            return 2;
        }
    }
    d = ddr_qos_new(&cfg, &err);
    if (!d) {
        fprintf(stderr, "%s\n", err->message);
        return 1;
    }
    /* Peak: one burst per tBURST (BL / 2 clocks) on each channel. */
    gap = ddr_config_nck_ps(&cfg, cfg.burst_length / 2) /
          (rho * cfg.channels);
    t0 = g_get_monotonic_time();
    lat = bench_run(d, gap, n, &reads, &t_end);
    s = (g_get_monotonic_time() - t0) / 1e6;
    printf("rho %.2f: %" PRIu64 " requests, %.3f s, %.1f ns/request, "
           "%.2f M requests/s; mean read latency %.1f ns, row hits %.1f %%, "
           "backpressure %" PRIu64 ", turnarounds %.1f %%\n", rho, n, s,
           s * 1e9 / n, n / s / 1e6, lat / 1000.0 / reads,
           100.0 * ddr_qos_stats(d)->row_hits / n,
           ddr_qos_stats(d)->backpressure,
           100.0 * ddr_qos_stats(d)->turnarounds / n);
    ddr_qos_free(d);
    return 0;
}
