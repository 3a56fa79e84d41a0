/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Modeled background agents, see agents.h and docs/agents.md.
 *
 * The set's min-heap of agents by their next issue time, and each
 * closed-loop agent's free slots in order of the time they freed.  An
 * agent's entry in the set heap is replaced, not updated, when its next
 * issue time changes (a completion, a reconfiguration): the entry carries
 * the agent's generation and a stale one is dropped when it comes to the
 * top.  So every operation on it is a push or a pop, O(log n).
 *
 * The free slots are a sorted ring: slots free as their requests complete,
 * which is nearly in time order (a DDR advance reports its completions
 * channel by channel), so a new one goes in a few places from the back
 * and the earliest leaves from the front, where a heap of the 948 slots
 * of seed 000's agent paid ten levels for each.  Slots are only times, so
 * any structure that gives the earliest gives the same sequence.
 */
#include <inttypes.h>
#include <string.h>

#include "agents.h"

#define NEVER           UINT64_MAX
#define PS_PER_S        1000000000000ull

typedef struct HeapItem {
    uint64_t key;               /* a time, ps */
    uint32_t id;                /* set heap: the agent */
    uint32_t gen;               /* set heap: its generation when pushed */
} HeapItem;

typedef struct Heap {
    HeapItem *a;                /* a binary min-heap on key, n of cap */
    guint n, cap;
} Heap;

typedef struct SlotRing {
    uint64_t *t;                /* free times, ascending from head */
    guint head, n, mask;        /* capacity mask + 1, a power of two */
} SlotRing;

typedef struct Agent {
    AgentConfig cfg;            /* cfg.name owned */
    bool running;
    uint32_t gen;
    /* Open loop: request k since start_ps is due at start + k * 64 / rate. */
    uint64_t start_ps;
    uint64_t k;
    /* Closed loop: free slots; in flight counts both loops' pending. */
    SlotRing slots;
    uint64_t inflight;
    /* Addresses and mix. */
    uint64_t seq_off;
    uint64_t rng;
    uint32_t mix_acc;
    AgentStats st;
} Agent;

struct AgentSet {
    AgentSink sink;
    uint64_t peak;
    uint64_t now;               /* the last agents_advance limit */
    uint64_t sink_next;         /* the sink's next event (lower bound) */
    GPtrArray *agents;          /* of Agent */
    Heap due;
};

/* ---- heap ---- */

/*
 * Sifting moves a hole instead of swapping: the same comparisons, so the
 * same order as a swapping heap, ties included (the figures depend on
 * which of two agents due at once goes first).
 */
static void heap_init(Heap *h)
{
    *h = (Heap){ g_new(HeapItem, 16), 0, 16 };
}

static void heap_free(Heap *h)
{
    g_free(h->a);
}

static inline const HeapItem *heap_top(const Heap *h)
{
    return h->n ? &h->a[0] : NULL;
}

static void heap_push(Heap *h, HeapItem it)
{
    guint i = h->n++;

    if (h->n > h->cap) {
        h->cap *= 2;
        h->a = g_renew(HeapItem, h->a, h->cap);
    }
    while (i && h->a[(i - 1) / 2].key > it.key) {
        h->a[i] = h->a[(i - 1) / 2];
        i = (i - 1) / 2;
    }
    h->a[i] = it;
}

static HeapItem heap_pop(Heap *h)
{
    HeapItem top = h->a[0], last = h->a[--h->n];
    guint n = h->n, i = 0;

    for (;;) {
        guint l = 2 * i + 1, m = i;
        uint64_t key = last.key;

        if (l < n && h->a[l].key < key) {
            m = l;
            key = h->a[l].key;
        }
        if (l + 1 < n && h->a[l + 1].key < key) {
            m = l + 1;
        }
        if (m == i) {
            break;
        }
        h->a[i] = h->a[m];
        i = m;
    }
    h->a[i] = last;
    return top;
}

static void ring_init(SlotRing *r)
{
    *r = (SlotRing){ g_new(uint64_t, 16), 0, 0, 15 };
}

static inline uint64_t *ring_at(const SlotRing *r, guint i)
{
    return &r->t[(r->head + i) & r->mask];
}

/* A slot free from @t, in order (after the slots free at the same time). */
static void ring_push(SlotRing *r, uint64_t t)
{
    guint i = r->n;

    if (r->n > r->mask) {
        uint64_t *t2 = g_new(uint64_t, 2 * (r->mask + 1));

        for (guint k = 0; k < r->n; k++) {
            t2[k] = *ring_at(r, k);
        }
        g_free(r->t);
        *r = (SlotRing){ t2, 0, r->n, 2 * r->mask + 1 };
    }
    for (; i && *ring_at(r, i - 1) > t; i--) {
        *ring_at(r, i) = *ring_at(r, i - 1);
    }
    *ring_at(r, i) = t;
    r->n++;
}

/* The earliest free slot's time, removed (@r not empty). */
static uint64_t ring_pop(SlotRing *r)
{
    uint64_t t = r->t[r->head];

    r->head = (r->head + 1) & r->mask;
    r->n--;
    return t;
}

/* ---- configuration ---- */

static const char *const pattern_names[AGENT_N_PATTERNS] = {
    [AGENT_SEQUENTIAL] = "sequential",
    [AGENT_RANDOM] = "random",
};

const char *agent_pattern_name(AgentPattern p)
{
    return p < AGENT_N_PATTERNS ? pattern_names[p] : "unknown";
}

int agent_pattern_parse(const char *s, GError **errp)
{
    for (int p = 0; p < AGENT_N_PATTERNS; p++) {
        if (s && !strcmp(s, pattern_names[p])) {
            return p;
        }
    }
    g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                "agent pattern '%s' is unknown (sequential or random)",
                s ? s : "");
    return -1;
}

char *agent_config_check(const AgentConfig *c, uint64_t peak)
{
    const char *n = c->name;

    if (!n || !*n) {
        return g_strdup("agent name must not be empty");
    }
    if (c->has_bandwidth == c->has_outstanding) {
        return g_strdup_printf("agent %s: set either bandwidth (open loop) "
                               "or outstanding (closed loop)%s", n,
                               c->has_bandwidth ? ", not both" : "");
    }
    if (c->has_bandwidth && c->bandwidth <= 0) {
        return g_strdup_printf("agent %s: bandwidth must be greater than 0 "
                               "(got %" PRId64 ")", n, c->bandwidth);
    }
    if (c->has_bandwidth && (uint64_t)c->bandwidth > peak) {
        return g_strdup_printf("agent %s: bandwidth %" PRId64 " B/s is above "
                               "the DDR peak %" PRIu64 " B/s", n,
                               c->bandwidth, peak);
    }
    if (c->has_outstanding && c->outstanding <= 0) {
        return g_strdup_printf("agent %s: outstanding must be greater than "
                               "0 (got %" PRId64 ")", n, c->outstanding);
    }
    if (c->has_outstanding && c->outstanding > AGENT_MAX_OUTSTANDING) {
        return g_strdup_printf("agent %s: outstanding %" PRId64 " is above "
                               "the limit %d", n, c->outstanding,
                               AGENT_MAX_OUTSTANDING);
    }
    if (c->footprint <= 0) {
        return g_strdup_printf("agent %s: footprint must be greater than 0 "
                               "(got %" PRId64 ")", n, c->footprint);
    }
    if (c->footprint % AGENT_LINE) {
        return g_strdup_printf("agent %s: footprint %" PRId64 " is not a "
                               "multiple of the %u-byte line", n,
                               c->footprint, AGENT_LINE);
    }
    if (c->base % AGENT_LINE) {
        return g_strdup_printf("agent %s: base 0x%" PRIx64 " is not aligned "
                               "to the %u-byte line", n, c->base, AGENT_LINE);
    }
    if (c->base + (uint64_t)c->footprint < c->base) {
        return g_strdup_printf("agent %s: base + footprint is beyond the "
                               "64-bit address space", n);
    }
    if (c->write_permille < 0 || c->write_permille > 1000) {
        return g_strdup_printf("agent %s: write-permille must be 0 to 1000 "
                               "(got %" PRId64 ")", n, c->write_permille);
    }
    if (c->pattern < 0 || c->pattern >= AGENT_N_PATTERNS) {
        return g_strdup_printf("agent %s: pattern %d is unknown (sequential "
                               "or random)", n, c->pattern);
    }
    return NULL;
}

/* ---- the set ---- */

static Agent *agent(const AgentSet *s, unsigned i)
{
    g_assert(i < s->agents->len);
    return g_ptr_array_index(s->agents, i);
}

/* splitmix64: any seed, 0 included, gives a full-period sequence. */
static uint64_t next_rand(uint64_t *x)
{
    uint64_t z = (*x += 0x9e3779b97f4a7c15ull);

    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static uint64_t due(const Agent *a)
{
    if (!a->running) {
        return NEVER;
    }
    if (a->cfg.has_bandwidth) {
        /* Exact: no rounding error accumulates over k requests. */
        return a->start_ps + (uint64_t)((unsigned __int128)a->k * AGENT_LINE *
                                        PS_PER_S / (uint64_t)a->cfg.bandwidth);
    }
    return a->slots.n ? a->slots.t[a->slots.head] : NEVER;
}

/* The agent's next issue time changed: a fresh entry in the set heap. */
static void schedule(AgentSet *s, unsigned i)
{
    Agent *a = agent(s, i);
    uint64_t t = due(a);

    a->gen++;
    if (t != NEVER) {
        heap_push(&s->due, (HeapItem){ .key = t, .id = i, .gen = a->gen });
    }
}

/* Closed loop: free slots up to the configured count, at @t. */
static void fill_slots(Agent *a, uint64_t t)
{
    while (a->cfg.has_outstanding && a->running &&
           a->inflight + a->slots.n < (uint64_t)a->cfg.outstanding) {
        ring_push(&a->slots, t);
    }
}

/* (Re)start the pacing and the address stream at the set's time. */
static void restart(AgentSet *s, unsigned i)
{
    Agent *a = agent(s, i);

    a->start_ps = s->now;
    a->k = 0;
    a->slots.n = 0;
    fill_slots(a, s->now);
    a->seq_off = 0;
    a->rng = a->cfg.seed;
    a->mix_acc = 0;
    schedule(s, i);
}

static void set_config(Agent *a, const AgentConfig *cfg)
{
    g_free((char *)a->cfg.name);
    a->cfg = *cfg;
    a->cfg.name = g_strdup(cfg->name);
}

AgentSet *agents_new(const AgentSink *sink, uint64_t peak_bytes_per_s)
{
    AgentSet *s = g_new0(AgentSet, 1);

    g_assert(sink->read && sink->write);
    s->sink = *sink;
    s->peak = peak_bytes_per_s;
    s->agents = g_ptr_array_new();
    heap_init(&s->due);
    return s;
}

void agents_free(AgentSet *s)
{
    if (!s) {
        return;
    }
    for (unsigned i = 0; i < s->agents->len; i++) {
        Agent *a = agent(s, i);

        g_free((char *)a->cfg.name);
        g_free(a->slots.t);
        g_free(a);
    }
    g_ptr_array_free(s->agents, TRUE);
    heap_free(&s->due);
    g_free(s);
}

static bool checked(const AgentSet *s, const AgentConfig *cfg, GError **errp)
{
    char *why = agent_config_check(cfg, s->peak);

    if (why) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", why);
        g_free(why);
        return false;
    }
    return true;
}

int agents_add(AgentSet *s, const AgentConfig *cfg, GError **errp)
{
    Agent *a;

    if (!checked(s, cfg, errp)) {
        return -1;
    }
    if (agents_find(s, cfg->name) >= 0) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "agent %s already exists", cfg->name);
        return -1;
    }
    if (s->agents->len >= AGENT_MAX) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "agent %s: at most %u agents", cfg->name, AGENT_MAX);
        return -1;
    }
    a = g_new0(Agent, 1);
    set_config(a, cfg);
    ring_init(&a->slots);
    a->running = true;
    a->st.win_start_ps = s->now;
    g_ptr_array_add(s->agents, a);
    restart(s, s->agents->len - 1);
    return s->agents->len - 1;
}

unsigned agents_count(const AgentSet *s)
{
    return s->agents->len;
}

int agents_find(const AgentSet *s, const char *name)
{
    for (unsigned i = 0; name && i < s->agents->len; i++) {
        if (!strcmp(agent(s, i)->cfg.name, name)) {
            return i;
        }
    }
    return -1;
}

const AgentConfig *agents_config(const AgentSet *s, unsigned i)
{
    return &agent(s, i)->cfg;
}

bool agents_reconfigure(AgentSet *s, unsigned i, const AgentConfig *cfg,
                        GError **errp)
{
    int other = agents_find(s, cfg->name);

    if (!checked(s, cfg, errp)) {
        return false;
    }
    if (other >= 0 && other != (int)i) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "agent %s already exists", cfg->name);
        return false;
    }
    set_config(agent(s, i), cfg);
    restart(s, i);
    return true;
}

void agents_set_running(AgentSet *s, unsigned i, bool running)
{
    Agent *a = agent(s, i);

    if (a->running != running) {
        a->running = running;
        restart(s, i);
    }
}

bool agents_running(const AgentSet *s, unsigned i)
{
    return agent(s, i)->running;
}

uint64_t agents_now(const AgentSet *s)
{
    return s->now;
}

/* ---- requests ---- */

static uint64_t next_addr(Agent *a)
{
    uint64_t lines = (uint64_t)a->cfg.footprint / AGENT_LINE, off;

    if (a->cfg.pattern == AGENT_RANDOM) {
        /* Multiply-high: uniform over the lines without a division. */
        off = (uint64_t)(((unsigned __int128)next_rand(&a->rng) * lines) >>
                         64) * AGENT_LINE;
    } else {
        off = a->seq_off;
        a->seq_off = off + AGENT_LINE == (uint64_t)a->cfg.footprint ?
                     0 : off + AGENT_LINE;
    }
    return a->cfg.base + off;
}

/* Writes spread evenly: exactly write_permille in every 1000 requests. */
static bool next_is_write(Agent *a)
{
    a->mix_acc += a->cfg.write_permille;
    if (a->mix_acc >= 1000) {
        a->mix_acc -= 1000;
        return true;
    }
    return false;
}

/* A request issued at @t completed @lat later. */
static void finish(Agent *a, uint64_t t, uint64_t lat)
{
    lat = MAX(lat, 1);
    a->st.completed++;
    a->st.lat_sum_ps += lat;
    a->st.lat_max_ps = MAX(a->st.lat_max_ps, lat);
    g_assert(a->inflight);
    a->inflight--;
    /* A slot above a lowered count, or of a stopped agent, retires. */
    fill_slots(a, t + lat);
}

static void issue(AgentSet *s, unsigned i, uint64_t t)
{
    Agent *a = agent(s, i);
    bool write = next_is_write(a);
    MemReq req = {
        .addr = next_addr(a),
        .t_ps = t,
        .label = a->cfg.label,
        .size = AGENT_LINE,
        .src = AGENT_SRC_BASE + i,
        .kind = write ? MEMREQ_WRITE : MEMREQ_READ,
    };
    uint64_t lat;

    if (a->cfg.has_outstanding) {
        ring_pop(&a->slots);
    } else {
        a->k++;
    }
    a->inflight++;
    a->st.requests++;
    a->st.writes += write;
    a->st.bytes += AGENT_LINE;
    a->st.win_bytes += AGENT_LINE;
    /* The sink may call agents_complete() for earlier requests meanwhile. */
    lat = (write ? s->sink.write : s->sink.read)(s->sink.opaque, &req,
                                                  a->cfg.direct);
    if (lat != AGENT_LAT_PENDING) {
        finish(a, t, lat);
    }
    schedule(s, i);
}

/* The earliest valid entry of the set heap (stale ones dropped), or NULL. */
static const HeapItem *top(AgentSet *s)
{
    while (s->due.n) {
        const HeapItem *it = heap_top(&s->due);

        if (it->gen == agent(s, it->id)->gen) {
            return it;
        }
        heap_pop(&s->due);
    }
    return NULL;
}

void agents_advance(AgentSet *s, uint64_t until_ps)
{
    for (;;) {
        const HeapItem *it = top(s);
        HeapItem e;
        uint64_t t = it ? MIN(it->key, until_ps) : until_ps;

        /*
         * The sink's event first if it comes before t: completions it
         * reports may put earlier requests at the top, so go round again.
         */
        if (s->sink.advance && s->sink_next < t) {
            s->sink_next = s->sink.advance(s->sink.opaque, s->sink_next + 1);
            continue;
        }
        if (!it || it->key >= until_ps) {
            break;
        }
        e = heap_pop(&s->due);
        issue(s, e.id, e.key);
        /* The request may be the sink's next event: ask again. */
        s->sink_next = 0;
    }
    s->now = MAX(s->now, until_ps);
}

void agents_complete(AgentSet *s, uint16_t src, uint64_t t_ps,
                     uint64_t lat_ps)
{
    unsigned i = src - AGENT_SRC_BASE;

    if (src < AGENT_SRC_BASE || i >= s->agents->len) {
        return;
    }
    finish(agent(s, i), t_ps, lat_ps);
    schedule(s, i);
}

/* ---- statistics ---- */

const AgentStats *agents_stats(const AgentSet *s, unsigned i)
{
    return &agent(s, i)->st;
}

double agents_window_bw(const AgentSet *s, unsigned i, uint64_t now_ps)
{
    const AgentStats *st = agents_stats(s, i);

    return now_ps > st->win_start_ps ?
           (double)st->win_bytes * PS_PER_S / (now_ps - st->win_start_ps) : 0;
}

void agents_window_restart(AgentSet *s, unsigned i, uint64_t now_ps)
{
    Agent *a = agent(s, i);

    a->st.win_start_ps = now_ps;
    a->st.win_bytes = 0;
}
