/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Host time per agent request (docs/benchmarks.md, "Background agents"):
 * the agents alone against a fixed-latency sink (their own cost: heaps,
 * addresses), and with the DDR model as the sink (what a run pays).  The
 * same 79 x 16 misses in flight as one agent of 1264 slots and as 79
 * agents of 16, to show the cost follows requests, not cores.
 * Usage: bench-agents [modeled microseconds, default 200]
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <glib.h>

#include "../tests/agents-sinks.h"

static void add(AgentSet *s, const char *name, int64_t outstanding,
                uint64_t seed)
{
    AgentConfig c = {
        .name = name, .has_outstanding = true, .outstanding = outstanding,
        .footprint = 1ull << 30, .base = 1ull << 32, .pattern = AGENT_RANDOM,
        .seed = seed, .label = { .partid = 2 }, .direct = true,
    };

    g_assert(agents_add(s, &c, NULL) >= 0);
}

static void load(AgentSet *s, unsigned agents)
{
    for (unsigned i = 0; i < agents; i++) {
        char *name = g_strdup_printf("core%u", i);

        add(s, name, 79 * 16 / agents, i);   /* a stream of its own */
        g_free(name);
    }
}

/* Run @s (its sink @sink) for @us modeled microseconds; one table row. */
static void bench(AgentSet *s, const char *sink, unsigned split, uint64_t us)
{
    uint64_t req = 0;
    gint64 host;
    char what[64];

    load(s, split);
    host = g_get_monotonic_time();
    agents_advance(s, us * 1000000ull);
    host = g_get_monotonic_time() - host;
    for (unsigned i = 0; i < agents_count(s); i++) {
        req += agents_stats(s, i)->requests;
    }
    snprintf(what, sizeof(what), "%s, %u x %u", sink, split, 1264 / split);
    printf("| %-32s | %9" PRIu64 " | %7.1f | %8.1f |\n", what, req,
           req * 64.0 / us / 1e3, host * 1e3 / req);
}

int main(int argc, char **argv)
{
    uint64_t us = argc > 1 ? strtoull(argv[1], NULL, 0) : 200;
    static const unsigned splits[] = { 1, 79 };
    DdrConfig cfg;

    ddr_config_default(&cfg);
    printf("| %-32s | %9s | %7s | %8s |\n|---|---|---|---|\n",
           "sink, agents x slots", "requests", "GB/s", "ns/req");
    for (unsigned i = 0; i < G_N_ELEMENTS(splits); i++) {
        FakeSink f;
        AgentSink k = fake_sink(&f, 100000, false);
        AgentSet *s = agents_new(&k, ddr_config_peak_bytes_per_s(&cfg));

        bench(s, "fixed 100 ns", splits[i], us);
        agents_free(s);
        fake_free(&f);
    }
    for (unsigned i = 0; i < G_N_ELEMENTS(splits); i++) {
        DdrSink k;

        bench(ddr_sink_set(&k, &cfg), "DDR5 defaults", splits[i], us);
        ddr_sink_free(&k);
    }
    return 0;
}
