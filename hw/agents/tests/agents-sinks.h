/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The two sinks the agents' tests and bench use: a fake of fixed latency
 * that records what it receives, and the DDR model (hw/ddr-qos) behind a
 * PARTID -> DSPRI table, as the L3 MSC would attach it.
 */
#ifndef MEMQOS_AGENTS_SINKS_H
#define MEMQOS_AGENTS_SINKS_H

#include "../agents.h"
#include "../../ddr-qos/ddr-qos.h"

/* Fixed latency @lat (or AGENT_LAT_PENDING); every request recorded. */
typedef struct FakeSink {
    uint64_t lat;
    bool keep;                  /* record the requests in @reqs */
    GArray *reqs;               /* of MemReq */
    GArray *direct;             /* of gboolean, @direct of each */
    uint64_t n, last_t, out_of_order;
} FakeSink;

static inline uint64_t fake_req(void *opaque, const MemReq *req, bool direct)
{
    FakeSink *f = opaque;
    gboolean d = direct;

    f->out_of_order += req->t_ps < f->last_t;
    f->last_t = req->t_ps;
    f->n++;
    if (f->keep) {
        g_array_append_val(f->reqs, *req);
        g_array_append_val(f->direct, d);
    }
    return f->lat;
}

static inline AgentSink fake_sink(FakeSink *f, uint64_t lat, bool keep)
{
    *f = (FakeSink){ .lat = lat, .keep = keep,
                     .reqs = g_array_new(FALSE, FALSE, sizeof(MemReq)),
                     .direct = g_array_new(FALSE, FALSE, sizeof(gboolean)) };
    return (AgentSink){ .opaque = f, .read = fake_req, .write = fake_req };
}

static inline void fake_free(FakeSink *f)
{
    g_array_free(f->reqs, TRUE);
    g_array_free(f->direct, TRUE);
}

/*
 * The DDR model as the memory side: every request posted with the DSPRI
 * of its PARTID, completions back through the model's done hook.
 */
typedef struct DdrSink {
    DdrQos *d;
    AgentSet *set;
    uint8_t dspri[16];          /* by PARTID */
} DdrSink;

static inline uint64_t ddr_sink_req(void *opaque, const MemReq *req,
                                    bool direct)
{
    DdrSink *k = opaque;
    MemReq r = *req;

    r.dspri = k->dspri[r.label.partid & 15];
    ddr_qos_post_held(k->d, &r);
    return AGENT_LAT_PENDING;
}

static inline uint64_t ddr_sink_advance(void *opaque, uint64_t t)
{
    DdrSink *k = opaque;

    ddr_qos_advance(k->d, t);
    return ddr_qos_next_decision(k->d);
}

static inline void ddr_sink_done(void *opaque, uint16_t src, uint64_t t,
                                 uint64_t lat)
{
    agents_complete(((DdrSink *)opaque)->set, src, t, lat);
}

/* A set on a fresh default-configured DDR model; NULL if it is refused. */
static inline AgentSet *ddr_sink_set(DdrSink *k, const DdrConfig *cfg)
{
    AgentSink sink = { .opaque = k, .read = ddr_sink_req,
                       .write = ddr_sink_req, .advance = ddr_sink_advance };

    *k = (DdrSink){ .d = ddr_qos_new(cfg, NULL) };
    if (!k->d) {
        return NULL;
    }
    k->set = agents_new(&sink, ddr_config_peak_bytes_per_s(cfg));
    ddr_qos_set_done_hook(k->d, ddr_sink_done, k);
    return k->set;
}

static inline void ddr_sink_free(DdrSink *k)
{
    agents_free(k->set);
    ddr_qos_free(k->d);
}

#endif
