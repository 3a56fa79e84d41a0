/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the DDR QoS scheduler model (docs/ddr-qos-model.md).
 * Expected latencies are computed here from the configuration with the
 * model's documented rules, never copied from its output.
 */
#include "cunit-run.h"
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <glib.h>

#include "../ddr-qos.h"

/* DSPRI of each class under the default read map. */
#define LPR     0
#define VPR     8
#define HPR     15

/* One channel: addresses are the channel's own (bank = bits 12-16). */
#define ROW0            0x0ull              /* bank 0, row 0 */
#define ROW0_NEXT       0x40ull             /* the next burst, same row */
#define BANK0_ROW1      (1ull << 17)        /* bank 0, another row */
#define BANK1           (1ull << 12)        /* bank 1, row 0 */

static DdrConfig cfg;

/* The defaults on one channel. */
static void cfg_one_channel(void)
{
    ddr_config_default(&cfg);
    cfg.channels = 1;
}

/* n clock cycles in ps, to the nearest ps: tCK = 2 / data rate. */
static uint64_t nck(uint64_t n)
{
    return (n * 2000000 + cfg.data_rate_mts / 2) / cfg.data_rate_mts;
}

static uint64_t tburst(void)
{
    return nck(cfg.burst_length / 2);
}

/* The command slot of a row miss: max(tBURST, tRRD_S, tFAW / 4). */
static uint64_t act_slot(void)
{
    return MAX(MAX(tburst(), nck(cfg.trrd_s)), nck(cfg.tfaw) / 4);
}

/* Read latency from the column command (row hit) to the data at the core. */
static uint64_t hit_lat(void)
{
    return nck(cfg.cl) + tburst() + cfg.frontend_ps;
}

static DdrQos *model(void)
{
    GError *err = NULL;
    DdrQos *d = ddr_qos_new(&cfg, &err);

    if (!d) {
        fprintf(stderr, "%s\n", err->message);
        g_error_free(err);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(d);
    return d;
}

static MemReq req(uint64_t addr, uint64_t t, unsigned dspri, MemReqKind k)
{
    return (MemReq) { .addr = addr, .t_ps = t, .size = 64, .dspri = dspri,
                      .kind = k };
}

static uint64_t rd(DdrQos *d, uint64_t addr, uint64_t t, unsigned dspri)
{
    MemReq r = req(addr, t, dspri, MEMREQ_READ);

    return ddr_qos_read(d, &r);
}

static uint64_t post(DdrQos *d, uint64_t addr, uint64_t t, unsigned dspri,
                     MemReqKind k)
{
    MemReq r = req(addr, t, dspri, k);

    return ddr_qos_post(d, &r);
}

/* An idle channel: closed bank, row hit, row conflict, other bank. */
static void test_unloaded(void)
{
    DdrQos *d;
    const DdrStats *st;

    cfg_one_channel();
    d = model();
    /* 200 ns apart, all before the first refresh (tREFI 3.9 us). */
    CU_ASSERT_EQUAL(rd(d, ROW0, 200000, LPR), nck(cfg.trcd) + hit_lat());
    CU_ASSERT_EQUAL(rd(d, ROW0_NEXT, 400000, LPR), hit_lat());
    CU_ASSERT_EQUAL(rd(d, BANK0_ROW1, 600000, HPR),
                    nck(cfg.trp) + nck(cfg.trcd) + hit_lat());
    CU_ASSERT_EQUAL(rd(d, BANK1, 800000, VPR), nck(cfg.trcd) + hit_lat());
    /* The class does not change an unloaded latency. */
    CU_ASSERT_EQUAL(rd(d, BANK1 + 0x80, 1000000, HPR), hit_lat());
    st = ddr_qos_stats(d);
    CU_ASSERT_EQUAL(st->row_hits, 2);
    CU_ASSERT_EQUAL(st->row_closed, 2);
    CU_ASSERT_EQUAL(st->row_conflicts, 1);
    CU_ASSERT_EQUAL(st->cls[DDR_LPR].count, 2);
    CU_ASSERT_EQUAL(st->cls[DDR_LPR].bytes, 128);
    CU_ASSERT_EQUAL(st->cls[DDR_LPR].lat_min_ps, hit_lat());
    CU_ASSERT_EQUAL(st->cls[DDR_LPR].lat_max_ps, nck(cfg.trcd) + hit_lat());
    CU_ASSERT_EQUAL(st->cls[DDR_HPR].count, 2);
    CU_ASSERT_EQUAL(st->cls[DDR_VPR].count, 1);
    /* Default part: 16.25 ns tRCD + 16.667 ns CL + 3.333 ns + 20 ns. */
    CU_ASSERT_EQUAL(nck(cfg.trcd) + hit_lat(), 16250 + 16667 + 3333 + 20000);
    ddr_qos_free(d);
}

/* All-bank refresh every tREFI blocks the channel for tRFC, closes rows. */
static void test_refresh(void)
{
    uint64_t closed;
    DdrQos *d;

    cfg_one_channel();
    closed = nck(cfg.trcd) + hit_lat();
    d = model();
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, LPR), closed);
    /* Due at tREFI: a read arriving then waits the whole tRFC. */
    CU_ASSERT_EQUAL(rd(d, ROW0, cfg.trefi_ps, LPR), cfg.trfc_ps + closed);
    CU_ASSERT_EQUAL(rd(d, ROW0, cfg.trefi_ps + cfg.trfc_ps + 200000, LPR),
                    hit_lat());
    /* Idle for many periods: only the last refresh can be in the way. */
    CU_ASSERT_EQUAL(rd(d, ROW0, 10ull * cfg.trefi_ps + 5, LPR),
                    cfg.trfc_ps - 5 + closed);
    CU_ASSERT_EQUAL(ddr_qos_stats(d)->refreshes, 10);
    ddr_qos_free(d);
}

/* Poisson arrivals: exponential gaps of mean @gap_ps, fixed seed. */
static uint64_t exp_gap(uint64_t *x, double gap_ps)
{
    double u;

    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    u = ((*x >> 11) + 1) * (1.0 / 9007199254740992.0);     /* (0, 1] */
    return (uint64_t)llround(-log(u) * gap_ps);
}

/*
 * One class, deterministic service: every read hits the open row, so the
 * channel is a single server with service time D = tBURST, and with
 * Poisson arrivals an M/D/1 queue: mean wait Wq = rho D / (2 (1 - rho)).
 * The wait of a read is its latency minus the row-hit latency.  The
 * tolerance is statistical: the mean over 40 batches of 5000 reads must
 * lie within 4 standard errors of the batch means (the run is fixed-seed,
 * so the test is deterministic; 4 SE would be exceeded by chance with
 * probability 6e-5), and the standard error must be below 3 % of Wq so
 * that the test can fail.
 */
static void test_md1(void)
{
    static const double rhos[] = { 0.3, 0.5, 0.7, 0.8 };
    enum { BATCHES = 40, PER = 5000, WARM = 1000 };
    double last = 0;

    cfg_one_channel();
    cfg.lpr_entries = 4096;             /* no backpressure */
    cfg.trefi_ps = UINT32_MAX;          /* no refresh in 1.2 ms */
    for (unsigned i = 0; i < G_N_ELEMENTS(rhos); i++) {
        double D = tburst(), rho = rhos[i], wq = rho * D / (2 * (1 - rho));
        double sum = 0, sq = 0, mean, se;
        uint64_t x = 88172645463325252ull, t = 0;
        DdrQos *d = model();

        for (unsigned n = 0; n < WARM; n++) {
            t += exp_gap(&x, D / rho);
            rd(d, ROW0, t, LPR);
        }
        for (unsigned b = 0; b < BATCHES; b++) {
            double bsum = 0;

            for (unsigned n = 0; n < PER; n++) {
                t += exp_gap(&x, D / rho);
                bsum += rd(d, ROW0, t, LPR) - hit_lat();
            }
            sum += bsum / PER;
            sq += (bsum / PER) * (bsum / PER);
        }
        mean = sum / BATCHES;
        se = sqrt((sq / BATCHES - mean * mean) / (BATCHES - 1));
        printf("\n    rho %.1f: mean wait %.1f ps, M/D/1 %.1f ps, SE %.1f ps",
               rho, mean, wq, se);
        CU_ASSERT(fabs(mean - wq) <= 4 * se);
        CU_ASSERT(se <= 0.03 * wq);
        CU_ASSERT(mean > last);         /* grows with utilisation */
        CU_ASSERT_EQUAL(ddr_qos_stats(d)->refreshes, 0);
        CU_ASSERT_EQUAL(ddr_qos_stats(d)->backpressure, 0);
        last = mean;
        ddr_qos_free(d);
    }
    printf("\n");      /* CUnit's verdict on a line of its own */
}

/*
 * A backlog of @n posted reads of DSPRI @dspri at time 0, all to row 0 of
 * bank 0 (closed), then a probe read at 1 ns, also to row 0.  The first
 * read opens the row: its column command is tRCD after 0, and the data
 * of the k-th issued read follows back to back (rule 10), its column
 * command at tRCD + k D, or at its decision if that is later.
 * Decisions (rule 1): the first at 0, the second one slot later (at
 * act_slot(), the first was a row miss), then each row hit's at its own
 * column command, one burst after the previous (rule 12).
 */
static DdrQos *backlog(unsigned n, unsigned dspri)
{
    DdrQos *d = model();

    for (unsigned i = 0; i < n; i++) {
        CU_ASSERT_EQUAL(post(d, ROW0, 0, dspri, MEMREQ_READ), 0);
    }
    return d;
}

static uint64_t decision(unsigned k)
{
    return k < 2 ? k * act_slot() : nck(cfg.trcd) + k * tburst();
}

/* The latency of a read arriving at @t and issued k-th. */
static uint64_t lat_at(unsigned k, uint64_t t)
{
    return MAX(decision(k), nck(cfg.trcd) + k * tburst()) - t + hit_lat();
}

/* HPR has its own queue and goes before every queued LPR. */
static void test_hpr_overtakes(void)
{
    DdrQos *d;

    cfg_one_channel();
    d = backlog(20, LPR);
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, HPR), lat_at(1, 1000));
    ddr_qos_free(d);
    /* The same read as LPR waits for the whole backlog. */
    d = backlog(20, LPR);
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, LPR), lat_at(20, 1000));
    ddr_qos_free(d);
    /* HPR among HPR: first come, first served. */
    d = backlog(20, HPR);
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, HPR), lat_at(20, 1000));
    ddr_qos_free(d);
}

/* The done hook's calls: src and latency of each posted burst. */
static void record_done(void *opaque, uint16_t src, uint64_t t_ps,
                        uint64_t lat_ps)
{
    uint64_t v[2] = { src, lat_ps };

    g_array_append_vals(opaque, v, 2);
}

/*
 * Held posts wait outside a full store without moving the channel on: an
 * HPR read then sees exactly the schedule it would see without them, and
 * the held ones enter first come first served as entries free, reported
 * by the done hook with their latencies (all row hits: the k-th burst
 * issued at decision k).
 */
static void test_post_held(void)
{
    GArray *done = g_array_new(FALSE, FALSE, sizeof(uint64_t));
    unsigned held = 100, n;
    DdrQos *d;

    cfg_one_channel();
    d = backlog(cfg.lpr_entries, LPR);
    ddr_qos_set_done_hook(d, record_done, done);
    CU_ASSERT_EQUAL(ddr_qos_next_decision(d), decision(0));
    for (unsigned i = 0; i < held; i++) {
        MemReq r = req(ROW0, 0, LPR, MEMREQ_READ);

        r.src = 1;
        ddr_qos_post_held(d, &r);
    }
    CU_ASSERT_EQUAL(ddr_qos_next_decision(d), decision(0));
    CU_ASSERT_EQUAL(ddr_qos_stats(d)->backpressure, held);
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, HPR), lat_at(1, 1000));
    ddr_qos_drain(d);
    CU_ASSERT_EQUAL(ddr_qos_next_decision(d), UINT64_MAX);
    n = done->len / 2;
    CU_ASSERT_EQUAL_FATAL(n, cfg.lpr_entries + held);
    for (unsigned j = 0; j < n; j++) {
        /* The HPR read took decision 1 and is not reported. */
        unsigned k = j ? j + 1 : 0;

        CU_ASSERT_EQUAL(g_array_index(done, uint64_t, 2 * j),
                        j < cfg.lpr_entries ? 0 : 1);
        CU_ASSERT_EQUAL(g_array_index(done, uint64_t, 2 * j + 1),
                        lat_at(k, 0));
    }
    g_array_free(done, TRUE);
    ddr_qos_free(d);
}

/* VPR is LPR until its timeout, then above everything, HPR included. */
static void test_vpr(void)
{
    uint64_t expiry;
    unsigned k;
    DdrQos *d;

    cfg_one_channel();
    cfg.vpr_timeout = 100000;           /* never within this backlog */
    d = backlog(20, LPR);
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, VPR), lat_at(20, 1000));
    ddr_qos_free(d);
    CU_ASSERT_EQUAL(ddr_qos_stats(d = backlog(0, LPR))->vpr_expired, 0);
    ddr_qos_free(d);

    cfg.vpr_timeout = 16;
    expiry = 1000 + nck(cfg.vpr_timeout);
    for (k = 1; decision(k) < expiry; k++) {
    }
    CU_ASSERT(k > 1 && k < 20);         /* expires within the backlog */
    d = backlog(20, LPR);
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, VPR), lat_at(k, 1000));
    CU_ASSERT_EQUAL(ddr_qos_stats(d)->vpr_expired, 1);
    ddr_qos_free(d);
    /* Expired, it goes before HPR too; not expired, after all of them. */
    d = backlog(20, HPR);
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, VPR), lat_at(k, 1000));
    ddr_qos_free(d);
    cfg.vpr_timeout = 100000;
    d = backlog(20, HPR);
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, VPR), lat_at(20, 1000));
    ddr_qos_free(d);
    /* Timeout 0: expired at once, as uMCTL2 documents. */
    cfg.vpr_timeout = 0;
    d = backlog(20, HPR);
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, VPR), lat_at(1, 1000));
    ddr_qos_free(d);
}

/*
 * The LPR starvation guard: under a saturating HPR backlog an LPR read is
 * served at the first decision at least lpr_max_starve after it arrived
 * (the store was empty, so it starves from its arrival): its issue is
 * bounded by max_starve plus one command slot.  Without the guard it
 * waits for the whole backlog.
 */
static void test_starvation_guard(void)
{
    uint64_t starve, lat;
    unsigned k;
    DdrQos *d;

    cfg_one_channel();
    cfg.hpr_entries = 256;
    starve = nck(cfg.lpr_max_starve);
    for (k = 1; decision(k) < 1000 + starve; k++) {
    }
    CU_ASSERT(k < 200);
    d = backlog(200, HPR);
    lat = rd(d, ROW0, 1000, LPR);
    CU_ASSERT_EQUAL(lat, lat_at(k, 1000));
    /* Issued within max_starve and one slot of its arrival. */
    CU_ASSERT(decision(k) - 1000 <= starve + act_slot());
    CU_ASSERT_EQUAL(ddr_qos_stats(d)->critical_runs[0], 1);
    ddr_qos_free(d);

    cfg.lpr_max_starve = 0;
    d = backlog(200, HPR);
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, LPR), lat_at(200, 1000));
    CU_ASSERT_EQUAL(ddr_qos_stats(d)->critical_runs[0], 0);
    ddr_qos_free(d);
}

/*
 * Writes wait while reads are queued until the write store reaches the
 * high watermark; then the scheduler drains writes down to the low
 * watermark, paying read->write and write->read turnaround.
 */
static void test_write_drain(void)
{
    uint64_t done0, col, done = 0;
    const DdrStats *st;
    DdrQos *d;

    cfg_one_channel();
    cfg.wr_high = 8;
    cfg.wr_low = 4;
    cfg.wr_max_starve = 0;
    d = model();
    for (unsigned i = 0; i < 7; i++) {
        post(d, ROW0, 0, 0, MEMREQ_WRITE);
    }
    /* Below the watermark: the read goes first (row 0 closed). */
    CU_ASSERT_EQUAL(rd(d, ROW0, 0, LPR), nck(cfg.trcd) + hit_lat());
    st = ddr_qos_stats(d);
    CU_ASSERT_EQUAL(st->cls[DDR_NPW].count, 0);
    done0 = nck(cfg.trcd) + nck(cfg.cl) + tburst();

    /* The eighth write reaches the watermark: four writes go first. */
    post(d, ROW0, 0, 0, MEMREQ_WRITE);
    /*
     * Read -> write: the write data 2 nCK after the read data, and after
     * the read's burst on the bus; decision at act_slot().
     */
    col = MAX(MAX(act_slot(), nck(cfg.trcd) + tburst()),
              done0 + nck(2) - nck(cfg.cwl));
    for (unsigned i = 0; i < 4; i++) {
        done = col + nck(cfg.cwl) + tburst();
        col += tburst();
    }
    /* Write -> read: the READ tWTR after the write data. */
    col = MAX(MAX(col, act_slot() + 4 * tburst()), done + cfg.twtr_ps);
    CU_ASSERT_EQUAL(rd(d, ROW0, 1000, LPR), col - 1000 + hit_lat());
    CU_ASSERT_EQUAL(st->cls[DDR_NPW].count, 4);
    CU_ASSERT_EQUAL(st->drains, 1);
    CU_ASSERT_EQUAL(st->turnarounds, 2);
    /* With no read waiting the remaining writes go at once. */
    ddr_qos_drain(d);
    CU_ASSERT_EQUAL(st->cls[DDR_NPW].count, 8);
    CU_ASSERT_EQUAL(st->cls[DDR_NPW].bytes, 8 * 64);
    ddr_qos_free(d);
}

/* A full store holds a posted request back until an entry frees. */
static void test_backpressure(void)
{
    uint64_t wait = 0;
    DdrQos *d;

    cfg_one_channel();
    d = model();
    for (unsigned i = 0; i < cfg.lpr_entries; i++) {
        wait += post(d, ROW0, 0, LPR, MEMREQ_READ);
    }
    CU_ASSERT_EQUAL(wait, 0);
    /* The 34th waits for the first one's decision, the 35th the next. */
    CU_ASSERT_EQUAL(post(d, ROW0, 0, LPR, MEMREQ_READ), decision(0));
    CU_ASSERT_EQUAL(post(d, ROW0, 0, LPR, MEMREQ_READ), decision(1));
    CU_ASSERT_EQUAL(ddr_qos_stats(d)->backpressure, 2);
    ddr_qos_free(d);
}

/* Channels are independent: a backlog on one does not delay another. */
static void test_channels(void)
{
    uint64_t granule;
    DdrQos *d;

    ddr_config_default(&cfg);
    granule = cfg.interleave_bytes;
    d = model();
    for (unsigned i = 0; i < 20; i++) {
        post(d, 0, 0, LPR, MEMREQ_READ);        /* channel 0 */
    }
    CU_ASSERT_EQUAL(rd(d, granule, 0, LPR), nck(cfg.trcd) + hit_lat());
    CU_ASSERT_EQUAL(rd(d, 0, 0, LPR), lat_at(20, 0));
    /* A 512-byte read spans two channels, whose bursts overlap. */
    {
        MemReq r = req(cfg.channels * granule * 4, 10000000, LPR,
                       MEMREQ_READ);

        r.size = 512;
        CU_ASSERT_EQUAL(ddr_qos_read(d, &r), nck(cfg.trcd) + hit_lat() +
                        3 * tburst());
        CU_ASSERT_EQUAL(ddr_qos_stats(d)->cls[DDR_LPR].count, 22 + 8);
    }
    ddr_qos_free(d);
}

/* A mixed load: every class, posts and reads, eight channels. */
static void mixed(DdrQos *d, uint64_t *out, unsigned n)
{
    uint64_t x = 0x9e3779b97f4a7c15ull, t = 0;

    for (unsigned i = 0; i < n; i++) {
        uint64_t r;

        t += exp_gap(&x, 500);
        r = x >> 8;
        MemReq q = req((r % (1u << 26)) & ~63ull, t, r % 16,
                       r % 5 == 0 ? MEMREQ_WRITE : MEMREQ_READ);
        out[i] = q.kind == MEMREQ_WRITE || r % 7 == 0 ?
                 ddr_qos_post(d, &q) : ddr_qos_read(d, &q);
    }
    ddr_qos_drain(d);
}

/* The same input gives the same output, also after a reset. */
static void test_determinism(void)
{
    enum { N = 200000 };
    uint64_t *a = g_new(uint64_t, N), *b = g_new(uint64_t, N);
    DdrQos *d1, *d2;
    DdrStats s1;
    uint64_t total = 0;

    ddr_config_default(&cfg);
    d1 = model();
    d2 = model();
    mixed(d1, a, N);
    mixed(d2, b, N);
    CU_ASSERT_EQUAL(memcmp(a, b, N * sizeof(*a)), 0);
    CU_ASSERT_EQUAL(memcmp(ddr_qos_stats(d1), ddr_qos_stats(d2),
                           sizeof(DdrStats)), 0);
    s1 = *ddr_qos_stats(d1);
    for (unsigned c = 0; c < DDR_N_CLASSES; c++) {
        CU_ASSERT(s1.cls[c].count > 0);
        total += s1.cls[c].count;
    }
    CU_ASSERT_EQUAL(total, N);
    ddr_qos_reset(d1);
    mixed(d1, b, N);
    CU_ASSERT_EQUAL(memcmp(a, b, N * sizeof(*a)), 0);
    CU_ASSERT_EQUAL(memcmp(&s1, ddr_qos_stats(d1), sizeof(s1)), 0);
    /* migration: a fresh model takes the statistics over */
    ddr_qos_free(d2);
    d2 = model();
    ddr_qos_set_stats(d2, ddr_qos_stats(d1));
    CU_ASSERT_EQUAL(memcmp(&s1, ddr_qos_stats(d2), sizeof(s1)), 0);
    ddr_qos_free(d1);
    ddr_qos_free(d2);
    g_free(a);
    g_free(b);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "unloaded_latency", test_unloaded },
        { "refresh", test_refresh },
        { "md1_latency_vs_utilisation", test_md1 },
        { "hpr_overtakes_lpr", test_hpr_overtakes },
        { "vpr_lpr_until_timeout", test_vpr },
        { "lpr_starvation_guard", test_starvation_guard },
        { "write_drain_turnaround", test_write_drain },
        { "backpressure", test_backpressure },
        { "post_held", test_post_held },
        { "channels_independent", test_channels },
        { "determinism", test_determinism },
    };

    return CUNIT_RUN("ddr-qos", tests);
}
