/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DDR QoS scheduler model (docs/ddr-qos-model.md): a DDR controller in
 * the manner of the Synopsys uMCTL2 family in front of DRAM channels, in
 * modeled time.  Each request (hw/memsys/request.h MemReq: address, size,
 * kind, DSPRI, issue time t_ps) maps by its DSPRI to a traffic class (LPR,
 * VPR, HPR for reads; NPW, VPW for writes), waits in its channel's class
 * queue, and is issued by the scheduler's priority rules at the channel's
 * next service opportunity; the DRAM timing of its bank (row hit, closed,
 * conflict), refresh and read/write turnaround give its completion.
 *
 * Two ways in:
 *   ddr_qos_read()  a blocking read (a demand miss): the scheduler runs
 *                   until this read is issued and its latency is returned;
 *   ddr_qos_post()  a request whose requester does not wait for it (a
 *                   write-back, a modeled background agent): queued, served
 *                   as modeled time advances, counted in the statistics.
 * Requests should come in order of t_ps per channel; one that comes later
 * than the channel's last decision is queued at that decision's time
 * (the scheduler never goes back), and its latency still counts from its
 * own t_ps.  Deterministic: no host time, no hashing, no pointer order.
 *
 * Not thread-safe: the caller serialises (the memsys lock).  Pure C + glib.
 */
#ifndef MEMQOS_DDR_QOS_H
#define MEMQOS_DDR_QOS_H

#include <stdint.h>
#include <glib.h>

#include "ddr-config.h"
#include "../memsys/request.h"

typedef struct DdrQos DdrQos;

/* Latency histogram: bucket 0 < 2 ns, bucket i in [2^i, 2^(i+1)) ns. */
#define DDR_HIST_BUCKETS    16

typedef struct DdrClassStats {
    uint64_t count;             /* requests issued */
    uint64_t bytes;
    uint64_t lat_sum_ps;        /* latency: completion + frontend - t_ps */
    uint64_t lat_min_ps;        /* UINT64_MAX while count is 0 */
    uint64_t lat_max_ps;
    uint64_t hist[DDR_HIST_BUCKETS];
} DdrClassStats;

typedef struct DdrStats {
    DdrClassStats cls[DDR_N_CLASSES];
    uint64_t row_hits;          /* bursts to the open row */
    uint64_t row_closed;        /* ... to a bank with no open row */
    uint64_t row_conflicts;     /* ... to a bank with another row open */
    uint64_t refreshes;         /* all-bank refreshes done */
    uint64_t turnarounds;       /* read <-> write direction changes */
    uint64_t drains;            /* write drains started (high watermark) */
    uint64_t critical_runs[3];  /* starvation guard runs: LPR, HPR, write */
    uint64_t vpr_expired;       /* VPR served as expired (above all) */
    uint64_t vpw_expired;
    uint64_t backpressure;      /* requests that waited for a free entry */
} DdrStats;

/* NULL with *errp set if ddr_config_check() refuses @cfg. */
DdrQos *ddr_qos_new(const DdrConfig *cfg, GError **errp);
void ddr_qos_free(DdrQos *d);
/* Empty queues, close rows, time 0, statistics 0. */
void ddr_qos_reset(DdrQos *d);
const DdrConfig *ddr_qos_config(const DdrQos *d);

/*
 * The class of a request (DSPRI above 15 is taken as 15: the maps cover
 * 4 bits, as AxQoS).
 */
DdrClass ddr_qos_class(const DdrConfig *cfg, const MemReq *req);
/*
 * A blocking read (kind READ or FETCH) of req->size bytes at req->t_ps:
 * its latency in picoseconds, from t_ps to the last data at the
 * requester (frontend included).  A write is refused (g_assert).
 */
uint64_t ddr_qos_read(DdrQos *d, const MemReq *req);
/*
 * A posted request (any kind): queued; returns how long it waited for a
 * free queue entry (0 unless its class's store was full: backpressure).
 */
uint64_t ddr_qos_post(DdrQos *d, const MemReq *req);
/*
 * A posted request whose requester holds it outside the controller while
 * its store is full (the interconnect's queue), without moving the channel
 * on: it enters, first come first served with the others held, when an
 * entry frees, arriving then.  So a closed loop with more requests in
 * flight than the stores hold (79 cores x 16 misses) does not push the
 * scheduler ahead of modeled time, and a later HPR read still overtakes
 * the held LPR backlog as the controller would.  Latency counts from
 * req->t_ps; backpressure counts each held burst.
 */
void ddr_qos_post_held(DdrQos *d, const MemReq *req);
/*
 * Completion of a posted burst, called when the scheduler issues it (so
 * possibly from inside a later ddr_qos_read/post/advance): the request's
 * src and t_ps and its latency (as in the statistics: from t_ps to the
 * last data, frontend included).  Per burst: a request larger than a burst
 * reports each.  What closed-loop background agents (hw/agents/agents.h)
 * need to free an outstanding slot at the modeled completion time; a
 * blocking read returns its latency instead and is not reported.
 */
typedef void (*DdrDoneFn)(void *opaque, uint16_t src, uint64_t t_ps,
                          uint64_t lat_ps);
void ddr_qos_set_done_hook(DdrQos *d, DdrDoneFn fn, void *opaque);
/* Serve every decision due before @t_ps on every channel (idle time). */
void ddr_qos_advance(DdrQos *d, uint64_t t_ps);
/*
 * A lower bound of the next decision on any channel (a refresh due may
 * push it later), UINT64_MAX if nothing is queued: how far a caller that
 * interleaves its own events (background agents) may run ahead.
 */
uint64_t ddr_qos_next_decision(const DdrQos *d);
/* Serve everything queued (end of a run). */
void ddr_qos_drain(DdrQos *d);
const DdrStats *ddr_qos_stats(const DdrQos *d);
void ddr_qos_stats_reset(DdrQos *d);
/*
 * Migration: the statistics as a source saved them (ddr_qos_stats()).
 * The queues are not migrated: the source drains them first
 * (ddr_qos_drain), so only the statistics carry information; the
 * destination starts with its rows closed (docs/ddr-qos-model.md).
 */
void ddr_qos_set_stats(DdrQos *d, const DdrStats *st);

#endif
