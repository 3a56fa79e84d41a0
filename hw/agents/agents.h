/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Modeled background agents (issue 8 §4, docs/agents.md): traffic
 * generators standing for cores or devices the emulator does not run.
 * Each agent is open loop (a target bandwidth: one line every
 * 64 B / rate, on an exact schedule) or closed loop (N outstanding
 * requests: a new one is issued when one completes, as N streaming cores
 * with their misses in flight behave).  An agent standing for 79 cores
 * with 16 misses each is ONE object with 1264 slots: the cost is per
 * request made, O(log slots + log agents) with two small heaps, never per
 * core represented.
 *
 * Requests go to a sink, callbacks the caller supplies (the L3 or memory
 * in the machine; a fake or the DDR model in the unit tests), in modeled
 * time order across all agents of a set.  A sink answers each request with
 * its latency, or AGENT_LAT_PENDING and later agents_complete() (e.g. from
 * the DDR model's done hook), which frees a closed-loop slot at the
 * modeled completion time.
 *
 * Not thread-safe: the caller serialises (the memsys lock).  Pure C + glib.
 */
#ifndef MEMQOS_MEMSYS_AGENTS_H
#define MEMQOS_MEMSYS_AGENTS_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "../memsys/request.h"

/* Every agent request is one line. */
#define AGENT_LINE              64u
/*
 * MemReq.src of agent i: AGENT_SRC_BASE + i, above any vCPU index and
 * below MEMREQ_SRC_DMA, so a completion names its agent.
 */
#define AGENT_SRC_BASE          0xF000u
#define AGENT_MAX               (MEMREQ_SRC_DMA - AGENT_SRC_BASE)
/* The most outstanding requests of one agent (bounds its slot heap). */
#define AGENT_MAX_OUTSTANDING   (1 << 20)
/* A sink's answer: the latency will come with agents_complete(). */
#define AGENT_LAT_PENDING       UINT64_MAX

typedef enum AgentPattern {
    AGENT_SEQUENTIAL,           /* base, base + 64, ... wrapping */
    AGENT_RANDOM,               /* uniform lines of the footprint, seeded */
    AGENT_N_PATTERNS,
} AgentPattern;

/*
 * One agent's configuration, in the shape QMP will give it: has_bandwidth
 * / has_outstanding say which of the two (exactly one) is set, and the
 * numbers are signed so a negative value from a user is refused by name
 * rather than wrapped.
 */
typedef struct AgentConfig {
    const char *name;           /* copied by agents_add/reconfigure */
    bool has_bandwidth;
    int64_t bandwidth;          /* open loop: bytes per second */
    bool has_outstanding;
    int64_t outstanding;        /* closed loop: requests in flight */
    int64_t write_permille;     /* writes per 1000 requests, 0..1000 */
    int64_t footprint;          /* bytes, a multiple of AGENT_LINE */
    uint64_t base;              /* first byte, line-aligned */
    int pattern;                /* AgentPattern */
    uint64_t seed;              /* AGENT_RANDOM: any value, 0 included */
    MemLabel label;             /* PARTID / PMG of every request */
    bool direct;                /* straight to memory, not through the L3 */
} AgentConfig;

/*
 * The sink.  read/write get one line request (size AGENT_LINE, src the
 * agent's, t_ps its issue time, dspri 0: the L3 MSC attaches its own on
 * the way down) and @direct, and return its latency in ps (from t_ps to
 * completion), or AGENT_LAT_PENDING.  A latency of 0 is taken as 1 ps so a
 * closed loop always moves forward.  Optional @advance(t) serves the
 * sink's events before t and returns the time of its next event (a lower
 * bound; UINT64_MAX for none): agents_advance interleaves the sink's
 * events with the agents' requests in time order, so a completion the
 * sink reports at its decision frees a slot before later requests go.
 */
typedef struct AgentSink {
    void *opaque;
    uint64_t (*read)(void *opaque, const MemReq *req, bool direct);
    uint64_t (*write)(void *opaque, const MemReq *req, bool direct);
    uint64_t (*advance)(void *opaque, uint64_t t_ps);
} AgentSink;

typedef struct AgentStats {
    uint64_t requests;          /* issued */
    uint64_t writes;            /* ... of which writes */
    uint64_t bytes;             /* issued */
    uint64_t completed;         /* latencies known */
    uint64_t lat_sum_ps;
    uint64_t lat_max_ps;
    uint64_t win_start_ps;      /* agents_window_restart() */
    uint64_t win_bytes;         /* issued since */
} AgentStats;

typedef struct AgentSet AgentSet;

/* The message of a configuration refused, or NULL; g_malloc'ed. */
char *agent_config_check(const AgentConfig *cfg, uint64_t peak_bytes_per_s);
/* "sequential" or "random"; -1 with *errp set for anything else. */
int agent_pattern_parse(const char *s, GError **errp);
const char *agent_pattern_name(AgentPattern p);

/*
 * @sink is copied.  @peak_bytes_per_s: the highest bandwidth an agent may
 * ask for (the DDR peak, ddr_config_peak_bytes_per_s()).
 */
AgentSet *agents_new(const AgentSink *sink, uint64_t peak_bytes_per_s);
void agents_free(AgentSet *s);
/*
 * A new agent, running from the set's current time (the last
 * agents_advance limit): its index, or -1 with *errp set.
 */
int agents_add(AgentSet *s, const AgentConfig *cfg, GError **errp);
unsigned agents_count(const AgentSet *s);
/* Index of the agent named @name, or -1. */
int agents_find(const AgentSet *s, const char *name);
const AgentConfig *agents_config(const AgentSet *s, unsigned i);
/*
 * Between advances (QMP): a new configuration (false with *errp set and
 * nothing changed if refused), or stop / start.  The new pacing starts at
 * the set's current time; requests in flight complete and are counted,
 * closed-loop slots above a lowered count are retired as they complete.
 * Statistics are kept.
 */
bool agents_reconfigure(AgentSet *s, unsigned i, const AgentConfig *cfg,
                        GError **errp);
void agents_set_running(AgentSet *s, unsigned i, bool running);
bool agents_running(const AgentSet *s, unsigned i);

/* Issue every request due before @until_ps, in time order. */
void agents_advance(AgentSet *s, uint64_t until_ps);
/* The set's current time: the last agents_advance limit. */
uint64_t agents_now(const AgentSet *s);
/*
 * A pending request of agent src - AGENT_SRC_BASE completed @lat_ps after
 * its @t_ps; a src that is not an agent's is ignored (so it can be a DDR
 * done hook's callee for all posted traffic).
 */
void agents_complete(AgentSet *s, uint16_t src, uint64_t t_ps,
                     uint64_t lat_ps);

const AgentStats *agents_stats(const AgentSet *s, unsigned i);
/* Bytes per second issued since the window began, up to @now_ps. */
double agents_window_bw(const AgentSet *s, unsigned i, uint64_t now_ps);
void agents_window_restart(AgentSet *s, unsigned i, uint64_t now_ps);

#endif
