/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the modeled background agents (docs/agents.md).  Every
 * expected value is computed here from the configuration: the open-loop
 * schedule, Little's law for the closed loop, the DDR model's peak and
 * timings for the loaded runs.
 */
#include "cunit-run.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "agents-sinks.h"
#include "../../memsys/tests/workload.h"

#define PS_PER_S        1000000000000ull
#define NS              1000ull
#define US              1000000ull
#define GIB             (1ull << 30)

/* A valid agent to start from: closed loop, 16 in flight, 1 MiB. */
static AgentConfig base_cfg(const char *name)
{
    return (AgentConfig){
        .name = name, .has_outstanding = true, .outstanding = 16,
        .footprint = 1 << 20, .base = 1ull << 32, .pattern = AGENT_SEQUENTIAL,
        .label = { .partid = 2 },
    };
}

static AgentConfig open_cfg(const char *name, int64_t rate)
{
    AgentConfig c = base_cfg(name);

    c.has_outstanding = false;
    c.has_bandwidth = true;
    c.bandwidth = rate;
    return c;
}

static uint64_t peak(void)
{
    DdrConfig c;

    ddr_config_default(&c);
    return ddr_config_peak_bytes_per_s(&c);
}

static int add(AgentSet *s, AgentConfig c)
{
    GError *err = NULL;
    int i = agents_add(s, &c, &err);

    if (err) {
        printf("\n%s\n", err->message);
        g_error_free(err);
    }
    CU_ASSERT_FATAL(i >= 0);
    return i;
}

/* |a - b| <= tol */
#define ASSERT_NEAR(a, b, tol) \
    CU_ASSERT((a) <= (b) + (tol) && (b) <= (a) + (tol))

/*
 * Open loop at rate R: R * T bytes in T, within one line, for rates that
 * do not divide a line's time evenly, and the same whether T is reached
 * in one advance or in many uneven rounds.
 */
static void test_open_loop_rate(void)
{
    static const int64_t rates[] = { 10000000000, 3000000007, 153600000000,
                                     1000 };
    static const uint64_t spans[] = { 1 * US, 37 * US + 123, 5 * US };

    for (unsigned r = 0; r < G_N_ELEMENTS(rates); r++) {
        for (unsigned p = 0; p < G_N_ELEMENTS(spans); p++) {
            FakeSink f1, f2;
            AgentSink k1 = fake_sink(&f1, 80 * NS, false);
            AgentSink k2 = fake_sink(&f2, 80 * NS, false);
            AgentSet *one = agents_new(&k1, peak());
            AgentSet *many = agents_new(&k2, peak());
            uint64_t T = rates[r] == 1000 ? 10 * PS_PER_S : spans[p];
            double want = (double)rates[r] * T / PS_PER_S;

            add(one, open_cfg("a", rates[r]));
            add(many, open_cfg("a", rates[r]));
            agents_advance(one, T);
            for (uint64_t t = 0; t < T; t += T / 7 + 1) {
                agents_advance(many, t);
            }
            agents_advance(many, T);
            ASSERT_NEAR((double)agents_stats(one, 0)->bytes, want, AGENT_LINE);
            CU_ASSERT_EQUAL(agents_stats(one, 0)->bytes,
                            agents_stats(many, 0)->bytes);
            CU_ASSERT_EQUAL(f1.out_of_order, 0);
            /* Every request completed: the fake answers at once. */
            CU_ASSERT_EQUAL(agents_stats(one, 0)->completed,
                            agents_stats(one, 0)->requests);
            agents_free(one);
            agents_free(many);
            fake_free(&f1);
            fake_free(&f2);
        }
    }
}

/* Sequential walks the footprint line by line from base, wrapping. */
static void test_sequential(void)
{
    FakeSink f;
    AgentSink k = fake_sink(&f, 100 * NS, true);
    AgentSet *s = agents_new(&k, peak());
    AgentConfig c = open_cfg("seq", 64000000000);  /* a line a ns */
    uint64_t lines = 16;

    c.footprint = lines * AGENT_LINE;
    c.label = (MemLabel){ .partid = 3, .pmg = 1 };
    add(s, c);
    agents_advance(s, 40 * NS);
    CU_ASSERT_EQUAL_FATAL(f.reqs->len, 40);
    for (unsigned i = 0; i < f.reqs->len; i++) {
        const MemReq *r = &g_array_index(f.reqs, MemReq, i);

        CU_ASSERT_EQUAL(r->addr, c.base + (i % lines) * AGENT_LINE);
        CU_ASSERT_EQUAL(r->t_ps, i * NS);
        CU_ASSERT_EQUAL(r->size, AGENT_LINE);
        CU_ASSERT_EQUAL(r->kind, MEMREQ_READ);
        CU_ASSERT_EQUAL(r->label.partid, 3);
        CU_ASSERT_EQUAL(r->label.pmg, 1);
        CU_ASSERT_EQUAL(r->src, AGENT_SRC_BASE);
        CU_ASSERT_FALSE(g_array_index(f.direct, gboolean, i));
    }
    agents_free(s);
    fake_free(&f);
}

/* The addresses a random agent with @seed issues in 4096 requests. */
static GArray *random_run(uint64_t seed, uint64_t lines)
{
    FakeSink f;
    AgentSink k = fake_sink(&f, 100 * NS, true);
    AgentSet *s = agents_new(&k, peak());
    AgentConfig c = open_cfg("rnd", 64000000000);
    GArray *out = g_array_new(FALSE, FALSE, sizeof(uint64_t));

    c.pattern = AGENT_RANDOM;
    c.seed = seed;
    c.footprint = lines * AGENT_LINE;
    c.base = 0x80000000;
    c.direct = true;
    add(s, c);
    agents_advance(s, 4096 * NS);
    for (unsigned i = 0; i < f.reqs->len; i++) {
        g_array_append_val(out, g_array_index(f.reqs, MemReq, i).addr);
        CU_ASSERT_TRUE(g_array_index(f.direct, gboolean, i));
    }
    agents_free(s);
    fake_free(&f);
    return out;
}

/*
 * Random: the same seed gives the same addresses, another seed others;
 * every address is a line of the footprint and, 4096 draws over 64 lines,
 * every line is drawn (a miss has probability 64 (63/64)^4096 < 1e-26).
 */
static void test_random(void)
{
    static const uint64_t seeds[] = { 0, 1, 0xdeadbeef };
    uint64_t lines = 64;

    for (unsigned i = 0; i < G_N_ELEMENTS(seeds); i++) {
        GArray *a = random_run(seeds[i], lines);
        GArray *b = random_run(seeds[i], lines);
        GArray *other = random_run(seeds[i] + 1, lines);
        bool seen[64] = { false };
        unsigned covered = 0;

        CU_ASSERT_EQUAL_FATAL(a->len, 4096);
        CU_ASSERT_EQUAL(memcmp(a->data, b->data, a->len * 8), 0);
        CU_ASSERT_NOT_EQUAL(memcmp(a->data, other->data, a->len * 8), 0);
        for (unsigned j = 0; j < a->len; j++) {
            uint64_t addr = g_array_index(a, uint64_t, j);

            CU_ASSERT(addr >= 0x80000000 &&
                      addr < 0x80000000 + lines * AGENT_LINE);
            CU_ASSERT_EQUAL(addr % AGENT_LINE, 0);
            seen[(addr - 0x80000000) / AGENT_LINE] = true;
        }
        for (unsigned j = 0; j < lines; j++) {
            covered += seen[j];
        }
        CU_ASSERT_EQUAL(covered, lines);
        g_array_free(a, TRUE);
        g_array_free(b, TRUE);
        g_array_free(other, TRUE);
    }
}

/*
 * Little's law: N in flight against a fixed latency L achieve N * 64 / L,
 * exactly: each slot issues at 0, L, 2L, ... so in T (a multiple of L)
 * N * T / L requests, each of latency L.
 */
static void test_littles_law(void)
{
    static const struct { int64_t n; uint64_t lat; } rows[] = {
        { 1, 100 * NS }, { 16, 100 * NS }, { 1264, 137 * NS + 1 },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        FakeSink f;
        AgentSink k = fake_sink(&f, rows[i].lat, false);
        AgentSet *s = agents_new(&k, peak());
        AgentConfig c = base_cfg("cl");
        uint64_t T = 1000 * rows[i].lat;
        const AgentStats *st;

        c.outstanding = rows[i].n;
        add(s, c);
        agents_advance(s, T);
        st = agents_stats(s, 0);
        CU_ASSERT_EQUAL(st->requests, rows[i].n * (T / rows[i].lat));
        CU_ASSERT_EQUAL(st->completed, st->requests);
        CU_ASSERT_EQUAL(st->lat_sum_ps, st->completed * rows[i].lat);
        CU_ASSERT_EQUAL(st->lat_max_ps, rows[i].lat);
        /* The last round went at T - L: slots reissue at completion. */
        CU_ASSERT_EQUAL(f.last_t, T - rows[i].lat);
        /* The window: bytes over T is N * 64 / L exactly (ratio of ints). */
        CU_ASSERT_DOUBLE_EQUAL(agents_window_bw(s, 0, T),
                               (double)rows[i].n * AGENT_LINE * PS_PER_S /
                               rows[i].lat, 1e-6);
        CU_ASSERT_EQUAL(f.out_of_order, 0);
        agents_free(s);
        fake_free(&f);
    }
}

/*
 * A sink that answers later: a slot is reissued exactly at the completion
 * time agents_complete() reports, and nothing is issued while all are in
 * flight.  Completions for sources that are not agents are ignored.
 */
static void test_async_completion(void)
{
    FakeSink f;
    AgentSink k = fake_sink(&f, AGENT_LAT_PENDING, true);
    AgentSet *s = agents_new(&k, peak());
    AgentConfig c = base_cfg("async");
    const MemReq *r;

    c.outstanding = 2;
    add(s, c);
    agents_advance(s, 1 * US);
    CU_ASSERT_EQUAL(f.reqs->len, 2);
    CU_ASSERT_EQUAL(agents_stats(s, 0)->completed, 0);
    agents_complete(s, 7, 0, 10);                       /* a vCPU's */
    agents_complete(s, MEMREQ_SRC_DMA, 0, 10);
    agents_complete(s, AGENT_SRC_BASE + 1, 0, 10);      /* no such agent */
    agents_advance(s, 2 * US);
    CU_ASSERT_EQUAL(f.reqs->len, 2);
    agents_complete(s, AGENT_SRC_BASE, 0, 2500 * NS);
    agents_advance(s, 3 * US);
    CU_ASSERT_EQUAL_FATAL(f.reqs->len, 3);
    r = &g_array_index(f.reqs, MemReq, 2);
    CU_ASSERT_EQUAL(r->t_ps, 2500 * NS);
    CU_ASSERT_EQUAL(r->addr, c.base + 2 * AGENT_LINE);
    CU_ASSERT_EQUAL(agents_stats(s, 0)->lat_max_ps, 2500 * NS);
    agents_free(s);
    fake_free(&f);
}

/*
 * Several agents share one time line: the sink sees their requests in
 * time order, and each keeps its own rate and mix (write_permille writes
 * in every 1000 requests exactly).
 */
static void test_time_order_and_mix(void)
{
    FakeSink f;
    AgentSink k = fake_sink(&f, 90 * NS, false);
    AgentSet *s = agents_new(&k, peak());
    AgentConfig a = open_cfg("a", 5000000000), b = base_cfg("b");
    uint64_t T = 64 * US;

    a.write_permille = 250;
    b.write_permille = 1000;
    b.outstanding = 3;
    add(s, a);
    add(s, b);
    agents_advance(s, T);
    CU_ASSERT_EQUAL(f.out_of_order, 0);
    CU_ASSERT_EQUAL(agents_stats(s, 0)->requests, 5000000000ull * T /
                                                   PS_PER_S / AGENT_LINE);
    CU_ASSERT_EQUAL(agents_stats(s, 0)->writes,
                    agents_stats(s, 0)->requests / 4);
    CU_ASSERT_EQUAL(agents_stats(s, 1)->requests, 3 * ((T - 1) / (90 * NS) +
                                                       1));
    CU_ASSERT_EQUAL(agents_stats(s, 1)->writes, agents_stats(s, 1)->requests);
    CU_ASSERT_EQUAL(agents_find(s, "b"), 1);
    CU_ASSERT_EQUAL(agents_find(s, "c"), -1);
    agents_free(s);
    fake_free(&f);
}

/*
 * Between advances: a new rate, stop and start, a new PARTID, a lower
 * outstanding count; a refused configuration changes nothing.
 */
static void test_reconfigure(void)
{
    FakeSink f;
    AgentSink k = fake_sink(&f, 100 * NS, true);
    AgentSet *s = agents_new(&k, peak());
    AgentConfig c = open_cfg("r", 10000000000), bad;
    uint64_t T1 = 10 * US, T2 = 7 * US, bytes;
    GError *err = NULL;
    const MemReq *last;

    add(s, c);
    agents_advance(s, T1);
    c.bandwidth = 2000000000;
    c.label.partid = 5;
    CU_ASSERT_TRUE(agents_reconfigure(s, 0, &c, NULL));
    agents_advance(s, T1 + T2);
    ASSERT_NEAR((double)agents_stats(s, 0)->bytes,
                (10000000000.0 * T1 + 2000000000.0 * T2) / PS_PER_S,
                2 * AGENT_LINE);
    last = &g_array_index(f.reqs, MemReq, f.reqs->len - 1);
    CU_ASSERT_EQUAL(last->label.partid, 5);
    CU_ASSERT(last->t_ps >= T1);

    /* Stopped: nothing; started again: the rate from the restart. */
    bytes = agents_stats(s, 0)->bytes;
    agents_set_running(s, 0, false);
    CU_ASSERT_FALSE(agents_running(s, 0));
    agents_advance(s, T1 + 2 * T2);
    CU_ASSERT_EQUAL(agents_stats(s, 0)->bytes, bytes);
    agents_set_running(s, 0, true);
    agents_advance(s, T1 + 3 * T2);
    ASSERT_NEAR((double)(agents_stats(s, 0)->bytes - bytes),
                2000000000.0 * T2 / PS_PER_S, AGENT_LINE);

    /* Refused: the message, and the agent keeps its configuration. */
    bad = c;
    bad.bandwidth = -1;
    CU_ASSERT_FALSE(agents_reconfigure(s, 0, &bad, &err));
    CU_ASSERT_PTR_NOT_NULL_FATAL(err);
    CU_ASSERT_STRING_EQUAL(err->message,
                           "agent r: bandwidth must be greater than 0 "
                           "(got -1)");
    g_clear_error(&err);
    CU_ASSERT_EQUAL(agents_config(s, 0)->bandwidth, 2000000000);

    /* Closed loop 16 -> 4 in flight: 4 * 64 / L once the 16 complete. */
    c = base_cfg("r");
    CU_ASSERT_TRUE(agents_reconfigure(s, 0, &c, NULL));
    agents_advance(s, 100 * US);
    c.outstanding = 4;
    CU_ASSERT_TRUE(agents_reconfigure(s, 0, &c, NULL));
    agents_advance(s, 100 * US + 100 * NS);   /* the 16 complete here */
    agents_window_restart(s, 0, 100 * US + 100 * NS);
    agents_advance(s, 110 * US + 100 * NS);
    CU_ASSERT_DOUBLE_EQUAL(agents_window_bw(s, 0, 110 * US + 100 * NS),
                           4.0 * AGENT_LINE * PS_PER_S / (100 * NS), 1e-6);
    agents_free(s);
    fake_free(&f);
}

/* Each bad configuration is refused with its message. */
static void test_bad_configs(void)
{
    static const struct {
        const char *what;
        const char *message;
    } rows[] = {
        { "noname", "agent name must not be empty" },
        { "neither", "agent x: set either bandwidth (open loop) or "
                     "outstanding (closed loop)" },
        { "both", "agent x: set either bandwidth (open loop) or "
                  "outstanding (closed loop), not both" },
        { "bw0", "agent x: bandwidth must be greater than 0 (got 0)" },
        { "bwneg", "agent x: bandwidth must be greater than 0 (got -5)" },
        { "bwpeak", NULL },     /* message built from the peak below */
        { "out0", "agent x: outstanding must be greater than 0 (got 0)" },
        { "outneg", "agent x: outstanding must be greater than 0 (got -1)" },
        { "outmax", "agent x: outstanding 1048577 is above the limit "
                    "1048576" },
        { "fp0", "agent x: footprint must be greater than 0 (got 0)" },
        { "fpline", "agent x: footprint 100 is not a multiple of the "
                    "64-byte line" },
        { "base", "agent x: base 0x1001 is not aligned to the 64-byte line" },
        { "wrap", "agent x: base + footprint is beyond the 64-bit address "
                  "space" },
        { "mix", "agent x: write-permille must be 0 to 1000 (got 1001)" },
        { "pattern", "agent x: pattern 2 is unknown (sequential or random)" },
    };
    FakeSink f;
    AgentSink k = fake_sink(&f, 1, false);
    AgentSet *s = agents_new(&k, peak());
    GError *err = NULL;

    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        AgentConfig c = base_cfg("x");
        const char *w = rows[i].what;
        char *want = g_strdup(rows[i].message);

        if (!strcmp(w, "noname")) {
            c.name = "";
        } else if (!strcmp(w, "neither")) {
            c.has_outstanding = false;
        } else if (!strcmp(w, "both")) {
            c.has_bandwidth = true;
            c.bandwidth = 1000;
        } else if (!strcmp(w, "bw0") || !strcmp(w, "bwneg") ||
                   !strcmp(w, "bwpeak")) {
            c = open_cfg("x", !strcmp(w, "bw0") ? 0 :
                              !strcmp(w, "bwneg") ? -5 : (int64_t)peak() + 1);
            if (!want) {
                want = g_strdup_printf("agent x: bandwidth %" PRIu64 " B/s "
                                       "is above the DDR peak %" PRIu64
                                       " B/s", peak() + 1, peak());
            }
        } else if (!strcmp(w, "out0")) {
            c.outstanding = 0;
        } else if (!strcmp(w, "outneg")) {
            c.outstanding = -1;
        } else if (!strcmp(w, "outmax")) {
            c.outstanding = AGENT_MAX_OUTSTANDING + 1;
        } else if (!strcmp(w, "fp0")) {
            c.footprint = 0;
        } else if (!strcmp(w, "fpline")) {
            c.footprint = 100;
        } else if (!strcmp(w, "base")) {
            c.base = 0x1001;
        } else if (!strcmp(w, "wrap")) {
            c.base = UINT64_MAX - 63;
        } else if (!strcmp(w, "mix")) {
            c.write_permille = 1001;
        } else if (!strcmp(w, "pattern")) {
            c.pattern = AGENT_N_PATTERNS;
        }
        CU_ASSERT_EQUAL(agents_add(s, &c, &err), -1);
        CU_ASSERT_PTR_NOT_NULL_FATAL(err);
        if (strcmp(err->message, want)) {
            printf("\n%s: got '%s'\n", w, err->message);
        }
        CU_ASSERT_STRING_EQUAL(err->message, want);
        g_clear_error(&err);
        g_free(want);
    }
    CU_ASSERT_EQUAL(agents_count(s), 0);
    /* Exactly the peak is allowed; a second agent of the same name not. */
    add(s, open_cfg("x", peak()));
    CU_ASSERT_EQUAL(agents_add(s, &(AgentConfig){ .name = "x" }, &err), -1);
    g_clear_error(&err);
    {
        AgentConfig c = base_cfg("x");

        CU_ASSERT_EQUAL(agents_add(s, &c, &err), -1);
        CU_ASSERT_STRING_EQUAL(err->message, "agent x already exists");
        g_clear_error(&err);
    }
    CU_ASSERT_EQUAL(agent_pattern_parse("random", NULL), AGENT_RANDOM);
    CU_ASSERT_EQUAL(agent_pattern_parse("sequential", NULL),
                    AGENT_SEQUENTIAL);
    CU_ASSERT_EQUAL(agent_pattern_parse("strided", &err), -1);
    CU_ASSERT_STRING_EQUAL(err->message, "agent pattern 'strided' is unknown "
                                         "(sequential or random)");
    g_clear_error(&err);
    agents_free(s);
    fake_free(&f);
}

/* ---- against the DDR model ---- */

/* DSPRI of the read classes under the default map. */
#define DSPRI_LPR       0
#define DSPRI_HPR       15
#define LOAD_PARTID     2

/*
 * The Marvell load in miniature: 79 cores x 16 misses, random lines over
 * 1 GiB in PARTID 2, whose DSPRI maps to LPR.
 */
static AgentSet *loaded(DdrSink *k, const DdrConfig *cfg, int64_t wr)
{
    AgentSet *s = ddr_sink_set(k, cfg);
    AgentConfig c = base_cfg("load");

    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    k->dspri[LOAD_PARTID] = DSPRI_LPR;
    c.outstanding = 79 * 16;
    c.footprint = GIB;
    c.pattern = AGENT_RANDOM;
    c.seed = 42;
    c.write_permille = wr;
    c.direct = true;
    add(s, c);
    return s;
}

static uint64_t ddr_bytes(const DdrQos *d)
{
    const DdrStats *st = ddr_qos_stats(d);
    uint64_t b = 0;

    for (unsigned c = 0; c < DDR_N_CLASSES; c++) {
        b += st->cls[c].bytes;
    }
    return b;
}

/*
 * Saturation: the DDR serves the closed loop at close to its peak less
 * refresh (tRFC / tREFI of the time), never above the peak; the agent's
 * issued bandwidth matches what the DDR served within the requests in
 * flight.  Then a probe read from a vCPU (src 0) every 500 ns: as HPR it
 * waits for about one burst and its bank, as LPR behind the LPR store's
 * backlog, so its mean latency is far lower (the Marvell effect).
 */
static void test_ddr_saturation_and_priority(void)
{
    DdrConfig cfg;
    DdrSink k;
    AgentSet *s;
    uint64_t warm = 5 * US, T = 20 * US, b0, served, in_flight;
    double pk, refresh, lo_bound, conflict, backlog;
    double lat_sum[2] = { 0, 0 };
    unsigned n[2] = { 0, 0 };

    ddr_config_default(&cfg);
    s = loaded(&k, &cfg, 0);
    pk = (double)ddr_config_peak_bytes_per_s(&cfg);
    agents_advance(s, warm);
    b0 = ddr_bytes(k.d);
    agents_window_restart(s, 0, warm);
    agents_advance(s, warm + T);
    served = ddr_bytes(k.d) - b0;
    /* The bytes the DDR served in T: at most peak * T. */
    CU_ASSERT(served <= pk * T / PS_PER_S);
    /*
     * At least 90 % of what refresh leaves: a random stream's bank misses
     * are hidden by the ACT rate (max(tBURST, tRRD_S, tFAW/4) = tBURST at
     * the defaults), so only refresh costs capacity.
     */
    refresh = (double)cfg.trfc_ps / cfg.trefi_ps;
    lo_bound = 0.9 * pk * (1 - refresh) * T / PS_PER_S;
    printf("\n  served %.1f GB/s of peak %.1f (refresh %.1f %%) ",
           served * 1e3 / T, pk / 1e9, refresh * 100);
    CU_ASSERT(served >= lo_bound);
    in_flight = 79 * 16 * AGENT_LINE;
    ASSERT_NEAR((double)agents_stats(s, 0)->win_bytes, (double)served,
                (double)in_flight);

    /* Probes: even HPR, odd LPR, each at a fresh random line. */
    for (unsigned p = 0; p < 40; p++) {
        uint64_t t = warm + T + p * 500 * NS;
        MemReq r = { .addr = (5ull << 32) + p * 4096 * 7, .t_ps = t,
                     .size = 64, .kind = MEMREQ_READ,
                     .dspri = p % 2 ? DSPRI_LPR : DSPRI_HPR };

        agents_advance(s, t);
        lat_sum[p % 2] += ddr_qos_read(k.d, &r);
        n[p % 2]++;
    }
    /*
     * Bounds from the configuration: HPR at most a row conflict, one ACT
     * slot ahead of it and a refresh in the way; LPR at least the conflict
     * latency less frontend slack plus half a store of bursts ahead.
     */
    {
        double tck = 2e6 / cfg.data_rate_mts;           /* ps */
        double tb = cfg.burst_length / 2.0 * tck;

        conflict = cfg.frontend_ps + (cfg.trp + cfg.trcd + cfg.cl) * tck + tb;
        backlog = cfg.lpr_entries / 2.0 * tb;
        printf("HPR %.1f ns, LPR %.1f ns (conflict %.1f)\n",
               lat_sum[0] / n[0] / 1e3, lat_sum[1] / n[1] / 1e3,
               conflict / 1e3);
        CU_ASSERT(lat_sum[0] / n[0] < lat_sum[1] / n[1]);
        CU_ASSERT(lat_sum[0] / n[0] <= conflict + tb + cfg.trfc_ps);
        CU_ASSERT(lat_sum[1] / n[1] >= conflict - cfg.frontend_ps + backlog);
    }
    ddr_sink_free(&k);
}

/* Two runs of a mixed load on the DDR model: identical to the byte. */
static void test_determinism(void)
{
    DdrConfig cfg;
    DdrSink a, b;
    AgentSet *sa, *sb;

    ddr_config_default(&cfg);
    sa = loaded(&a, &cfg, 333);
    sb = loaded(&b, &cfg, 333);
    add(sa, open_cfg("dma", 5000000000));
    add(sb, open_cfg("dma", 5000000000));
    for (uint64_t t = 0; t <= 10 * US; t += 1 * US + 7) {
        agents_advance(sa, t);
        agents_advance(sb, t);
    }
    for (unsigned i = 0; i < 2; i++) {
        CU_ASSERT_EQUAL(memcmp(agents_stats(sa, i), agents_stats(sb, i),
                               sizeof(AgentStats)), 0);
        CU_ASSERT(agents_stats(sa, i)->requests > 0);
    }
    CU_ASSERT(agents_stats(sa, 0)->writes > 0);
    CU_ASSERT_EQUAL(memcmp(ddr_qos_stats(a.d), ddr_qos_stats(b.d),
                           sizeof(DdrStats)), 0);
    ddr_sink_free(&a);
    ddr_sink_free(&b);
}

/*
 * Golden load (hw/memsys/tests/workload.h, for the memory side alone):
 * seed 000's 79 cores x 12 misses in flight plus a sequential writer and
 * an open-loop reader of other PARTIDs, as one agent of 948 slots and as
 * 79 of 12, over the DDR model with a DSPRI per PARTID, advanced in steps
 * of 1 us as a guest's vCPUs do.  Every agent's statistics and the DDR's
 * are folded into one hash; the model is deterministic, so a change that
 * keeps the figures keeps it.
 */
static uint64_t golden_load(unsigned split)
{
    DdrConfig cfg;
    DdrSink k;
    AgentSet *s;
    const DdrStats *st;
    uint64_t h = 0xcbf29ce484222325ull;

    ddr_config_default(&cfg);
    s = ddr_sink_set(&k, &cfg);
    CU_ASSERT_PTR_NOT_NULL_FATAL(s);
    k.dspri[2] = 3;
    k.dspri[3] = 9;
    k.dspri[4] = 15;
    for (unsigned i = 0; i < split; i++) {
        g_autofree char *name = g_strdup_printf("core%u", i);
        AgentConfig c = {
            .name = name, .has_outstanding = true,
            .outstanding = 79 * 12 / split, .footprint = 1ull << 30,
            .base = 1ull << 32, .pattern = AGENT_RANDOM, .seed = i,
            .label = { 2, 0 }, .write_permille = 250,
        };

        CU_ASSERT_FATAL(agents_add(s, &c, NULL) >= 0);
    }
    {
        AgentConfig w = {
            .name = "writer", .has_outstanding = true, .outstanding = 8,
            .footprint = 64 << 20, .base = 1ull << 34,
            .pattern = AGENT_SEQUENTIAL, .label = { 3, 1 },
            .write_permille = 1000,
        };
        AgentConfig r = {
            .name = "reader", .has_bandwidth = true,
            .bandwidth = 4000000000ll, .footprint = 256 << 20,
            .base = 1ull << 35, .pattern = AGENT_RANDOM, .seed = 99,
            .label = { 4, 0 },
        };

        CU_ASSERT_FATAL(agents_add(s, &w, NULL) >= 0);
        CU_ASSERT_FATAL(agents_add(s, &r, NULL) >= 0);
    }
    for (uint64_t us = 1; us <= 20; us++) {
        agents_advance(s, us * 1000000ull);
    }
    for (unsigned i = 0; i < agents_count(s); i++) {
        const AgentStats *a = agents_stats(s, i);

        h = workload_fold(h, a->requests);
        h = workload_fold(h, a->writes);
        h = workload_fold(h, a->completed);
        h = workload_fold(h, a->lat_sum_ps);
        h = workload_fold(h, a->lat_max_ps);
    }
    ddr_qos_drain(k.d);
    st = ddr_qos_stats(k.d);
    for (unsigned c = 0; c < DDR_N_CLASSES; c++) {
        h = workload_fold(h, st->cls[c].bytes);
    }
    h = workload_fold(h, st->row_hits);
    h = workload_fold(h, st->row_conflicts);
    h = workload_fold(h, st->refreshes);
    h = workload_fold(h, st->turnarounds);
    h = workload_fold(h, st->backpressure);
    ddr_sink_free(&k);
    return h;
}

/* The hashes 1e0b73d's model gives (2026-12-06). */
static void test_golden_load(void)
{
    static const struct { unsigned split; uint64_t want; } rows[] = {
        { 1, 0x7755040ae78c4f24ull }, { 79, 0x82b97834575feca8ull },
    };

    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        CU_ASSERT(workload_expect("golden_load", rows[i].split,
                                  golden_load(rows[i].split), rows[i].want));
    }
}

static const CunitTest tests[] = {
    { "open_loop_rate", test_open_loop_rate },
    { "sequential", test_sequential },
    { "random", test_random },
    { "littles_law", test_littles_law },
    { "async_completion", test_async_completion },
    { "time_order_and_mix", test_time_order_and_mix },
    { "reconfigure", test_reconfigure },
    { "bad_configs", test_bad_configs },
    { "ddr_saturation_and_priority", test_ddr_saturation_and_priority },
    { "determinism", test_determinism },
    { "golden_load", test_golden_load },
};

int main(void)
{
    return CUNIT_RUN("agents", tests);
}
