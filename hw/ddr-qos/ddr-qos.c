/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The DDR QoS scheduler model, see ddr-qos.h; the rules are those of
 * docs/ddr-qos-model.md, "Event rules", numbered as there.
 */
#include <string.h>

#include "ddr-qos.h"

#define ROW_CLOSED      UINT32_MAX
#define NEVER           UINT64_MAX

/* The three stores of the controller: CAMs with their own size and guard. */
enum { STORE_LPR, STORE_HPR, STORE_WR, N_STORES };

static const unsigned store_of[DDR_N_CLASSES] = {
    [DDR_LPR] = STORE_LPR, [DDR_VPR] = STORE_LPR, [DDR_HPR] = STORE_HPR,
    [DDR_NPW] = STORE_WR, [DDR_VPW] = STORE_WR,
};

typedef struct Entry {
    uint64_t t_ps;              /* the requester's time */
    uint64_t arrival;           /* queued at (>= t_ps) */
    uint64_t seq;
    uint32_t row;
    uint32_t bank;
    uint32_t bytes;
    uint16_t src;               /* MemReq.src, for the done hook */
} Entry;

/* One class queue: a ring of its store's size, in arrival order. */
typedef struct Fifo {
    Entry *e;
    uint32_t head, n, cap;
} Fifo;

/*
 * Requests held outside a full store (ddr_qos_post_held): the
 * interconnect's queue in front of the controller, first in first out.
 */
typedef struct Held {
    Entry e;
    unsigned cls;
} Held;

typedef struct HeldQueue {
    GArray *a;                  /* of Held; a->len - head waiting */
    guint head;
} HeldQueue;

typedef struct Bank {
    uint32_t row;               /* open row, or ROW_CLOSED */
    uint64_t ready;             /* the open row takes commands from */
} Bank;

typedef struct Channel {
    Fifo q[DDR_N_CLASSES];
    uint32_t stored[N_STORES];
    uint64_t starve_since[N_STORES];    /* non-empty and unserved since */
    int crit;                   /* store in a critical run, or -1 */
    uint32_t crit_left;
    bool draining;              /* writes between high and low watermark */
    bool issued;                /* anything issued yet (direction known) */
    bool last_write;
    uint64_t clock;             /* time of the last decision */
    uint64_t free;              /* next command slot */
    uint64_t last_col;          /* the last column command */
    uint64_t data_end;          /* end of the last data burst */
    uint64_t next_ref;          /* next refresh due */
    uint64_t want_seq;          /* the blocking read being waited for */
    uint64_t want_done;
    HeldQueue held[N_STORES];
    Bank *bank;
} Channel;

struct DdrQos {
    DdrConfig cfg;
    /* Derived, in ps (docs/ddr-qos-model.md, "Derived times"). */
    uint64_t tburst, cl, cwl, trcd, trp, act_occ, twtr, rtw, trfc, trefi;
    uint64_t frontend, vpr_to, vpw_to, max_starve[N_STORES];
    uint32_t run[N_STORES], entries[N_STORES];
    uint32_t burst_bytes, burst_shift, il_shift, row_shift, bank_shift;
    uint64_t seq;
    Channel *ch;
    /*
     * When each channel decides next (next_of()), as a tournament tree
     * kept up to date outside run() and step(): leaf i at next[leaves + i]
     * is channel i's (NEVER past the last channel), each inner node the
     * earlier of its two children, next[1] the earliest of all.  So
     * advancing finds the channels with a decision due without looking
     * into the others' queues, and the next decision is one word.
     */
    uint64_t *next;
    size_t leaves;
    DdrStats stats;
    DdrDoneFn done_fn;          /* ddr_qos_set_done_hook(), or NULL */
    void *done_opaque;
};

/* ---- queues ---- */

static Entry *head(Fifo *f)
{
    return &f->e[f->head];
}

static bool arrived(Fifo *f, uint64_t t)
{
    return f->n && head(f)->arrival <= t;
}

static Entry pop(Fifo *f)
{
    Entry e = f->e[f->head];

    f->head = (f->head + 1) % f->cap;
    f->n--;
    return e;
}

static void push(Channel *ch, unsigned cls, const Entry *e)
{
    Fifo *f = &ch->q[cls];
    unsigned s = store_of[cls];

    if (!ch->stored[s]) {
        ch->starve_since[s] = e->arrival;
    }
    ch->stored[s]++;
    f->e[(f->head + f->n) % f->cap] = *e;
    f->n++;
}

static void close_rows(DdrQos *d, Channel *ch)
{
    for (unsigned b = 0; b < d->cfg.banks; b++) {
        ch->bank[b] = (Bank) { ROW_CLOSED, 0 };
    }
}

/* ---- configuration ---- */

DdrQos *ddr_qos_new(const DdrConfig *cfg, GError **errp)
{
    g_autofree char *why = ddr_config_check(cfg);
    const DdrConfig *c = cfg;
    DdrQos *d;

    if (why) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", why);
        return NULL;
    }
    d = g_new0(DdrQos, 1);
    d->cfg = *cfg;
    /* Double data rate: BL transfers take BL / 2 clocks. */
    d->tburst = ddr_config_nck_ps(c, c->burst_length / 2);
    d->cl = ddr_config_nck_ps(c, c->cl);
    d->cwl = ddr_config_nck_ps(c, c->cwl);
    d->trcd = ddr_config_nck_ps(c, c->trcd);
    d->trp = ddr_config_nck_ps(c, c->trp);
    /* An ACT every max(tRRD_S, tFAW / 4) at best: a row miss's slot. */
    d->act_occ = MAX(MAX(d->tburst, ddr_config_nck_ps(c, c->trrd_s)),
                     ddr_config_nck_ps(c, c->tfaw) / 4);
    d->twtr = c->twtr_ps;
    /* READ to WRITE: write data may start 2 nCK after the read data. */
    d->rtw = ddr_config_nck_ps(c, 2);
    g_assert(d->cwl <= d->cl);         /* ddr_config_check */
    d->trfc = c->trfc_ps;
    d->trefi = c->trefi_ps;
    d->frontend = c->frontend_ps;
    d->vpr_to = ddr_config_nck_ps(c, c->vpr_timeout);
    d->vpw_to = ddr_config_nck_ps(c, c->vpw_timeout);
    d->max_starve[STORE_LPR] = ddr_config_nck_ps(c, c->lpr_max_starve);
    d->max_starve[STORE_HPR] = ddr_config_nck_ps(c, c->hpr_max_starve);
    d->max_starve[STORE_WR] = ddr_config_nck_ps(c, c->wr_max_starve);
    d->run[STORE_LPR] = c->lpr_run;
    d->run[STORE_HPR] = c->hpr_run;
    d->run[STORE_WR] = c->wr_run;
    d->entries[STORE_LPR] = c->lpr_entries;
    d->entries[STORE_HPR] = c->hpr_entries;
    d->entries[STORE_WR] = c->wr_entries;
    d->burst_bytes = c->bus_bytes * c->burst_length;
    d->burst_shift = g_bit_nth_lsf(d->burst_bytes, -1);
    d->il_shift = g_bit_nth_lsf(c->interleave_bytes, -1);
    d->row_shift = g_bit_nth_lsf(c->row_bytes, -1);
    d->bank_shift = g_bit_nth_lsf(c->banks, -1);
    d->ch = g_new0(Channel, c->channels);
    d->leaves = 1;
    while (d->leaves < c->channels) {
        d->leaves *= 2;
    }
    d->next = g_new(uint64_t, 2 * d->leaves);
    for (unsigned i = 0; i < c->channels; i++) {
        Channel *ch = &d->ch[i];

        for (unsigned k = 0; k < DDR_N_CLASSES; k++) {
            ch->q[k].cap = d->entries[store_of[k]];
            ch->q[k].e = g_new(Entry, ch->q[k].cap);
        }
        ch->bank = g_new(Bank, c->banks);
        for (unsigned k = 0; k < N_STORES; k++) {
            ch->held[k].a = g_array_new(FALSE, FALSE, sizeof(Held));
        }
    }
    ddr_qos_reset(d);
    return d;
}

void ddr_qos_free(DdrQos *d)
{
    if (!d) {
        return;
    }
    for (unsigned i = 0; i < d->cfg.channels; i++) {
        for (unsigned k = 0; k < DDR_N_CLASSES; k++) {
            g_free(d->ch[i].q[k].e);
        }
        g_free(d->ch[i].bank);
        for (unsigned k = 0; k < N_STORES; k++) {
            g_array_free(d->ch[i].held[k].a, TRUE);
        }
    }
    g_free(d->ch);
    g_free(d->next);
    g_free(d);
}

void ddr_qos_stats_reset(DdrQos *d)
{
    memset(&d->stats, 0, sizeof(d->stats));
    for (unsigned k = 0; k < DDR_N_CLASSES; k++) {
        d->stats.cls[k].lat_min_ps = UINT64_MAX;
    }
}

void ddr_qos_set_stats(DdrQos *d, const DdrStats *st)
{
    d->stats = *st;
}

void ddr_qos_reset(DdrQos *d)
{
    for (unsigned i = 0; i < d->cfg.channels; i++) {
        Channel *ch = &d->ch[i];

        for (unsigned k = 0; k < DDR_N_CLASSES; k++) {
            ch->q[k].head = ch->q[k].n = 0;
        }
        memset(ch->stored, 0, sizeof(ch->stored));
        for (unsigned k = 0; k < N_STORES; k++) {
            g_array_set_size(ch->held[k].a, 0);
            ch->held[k].head = 0;
        }
        ch->crit = -1;
        ch->draining = ch->issued = ch->last_write = false;
        ch->clock = ch->free = ch->last_col = ch->data_end = 0;
        ch->next_ref = d->trefi;
        ch->want_seq = NEVER;
        close_rows(d, ch);
    }
    for (size_t i = 1; i < 2 * d->leaves; i++) {
        d->next[i] = NEVER;
    }
    d->seq = 0;
    ddr_qos_stats_reset(d);
}

const DdrConfig *ddr_qos_config(const DdrQos *d)
{
    return &d->cfg;
}

const DdrStats *ddr_qos_stats(const DdrQos *d)
{
    return &d->stats;
}

DdrClass ddr_qos_class(const DdrConfig *cfg, const MemReq *req)
{
    unsigned p = MIN(req->dspri, DDR_DSPRI_LEVELS - 1);

    return memreq_is_write(req) ? cfg->write_map[p] : cfg->read_map[p];
}

/* ---- the scheduler ---- */

/*
 * The earliest time of @ch's next decision, before refresh: the next
 * command slot or the first arrival, whichever is later; NEVER if its
 * queues are empty.  decision_time() neither decides nor refreshes before
 * it.
 */
static uint64_t next_of(const Channel *ch)
{
    uint64_t first = NEVER;

    for (unsigned k = 0; k < DDR_N_CLASSES; k++) {
        if (ch->q[k].n) {
            first = MIN(first, ch->q[k].e[ch->q[k].head].arrival);
        }
    }
    return first == NEVER ? NEVER : MAX(ch->free, first);
}

/* @ch's leaf of the tree, and so the nodes above it, after a change. */
static void set_next(DdrQos *d, const Channel *ch)
{
    size_t i = d->leaves + (ch - d->ch);
    uint64_t v = next_of(ch);

    if (d->next[i] == v) {
        return;
    }
    d->next[i] = v;
    for (i /= 2; i; i /= 2) {
        v = MIN(d->next[2 * i], d->next[2 * i + 1]);
        if (d->next[i] == v) {
            break;
        }
        d->next[i] = v;
    }
}

/* The first channel from @from on with a decision before @t, or -1. */
static int first_due(const DdrQos *d, uint32_t from, uint64_t t)
{
    size_t i = d->leaves + from;

    if (from >= d->leaves || d->next[1] >= t) {
        return -1;              /* past the last leaf, or nothing due */
    }
    /* up until a right sibling (or this leaf) holds one, then down to it */
    while (d->next[i] >= t) {
        while (i & 1) {
            i /= 2;
            if (i <= 1) {
                return -1;
            }
        }
        i++;
    }
    while (i < d->leaves) {
        i = d->next[2 * i] < t ? 2 * i : 2 * i + 1;
    }
    return i - d->leaves;
}

/* Rule 1: the time of the next decision, refreshes done up to it. */
static bool decision_time(DdrQos *d, Channel *ch, uint64_t limit,
                          uint64_t *t)
{
    *t = next_of(ch);
    if (*t >= limit) {
        return false;           /* NEVER too: nothing queued */
    }
    /* Rule 2: refresh.  Periods that passed while idle cost nothing more. */
    if (*t >= ch->next_ref) {
        uint64_t skip = (*t - ch->next_ref) / d->trefi;

        ch->next_ref += skip * d->trefi;
        ch->free = MAX(ch->free, ch->next_ref) + d->trfc;
        ch->next_ref += d->trefi;
        close_rows(d, ch);
        d->stats.refreshes += skip + 1;
        *t = MAX(*t, ch->free);
        if (*t >= limit) {
            return false;
        }
    }
    return true;
}

static bool expired(Fifo *f, uint64_t t, uint64_t timeout)
{
    return arrived(f, t) && t - head(f)->arrival >= timeout;
}

/* The oldest arrived head of a store, expired VPW first for writes. */
static int store_pick(DdrQos *d, Channel *ch, unsigned s, uint64_t t)
{
    unsigned a = s == STORE_WR ? DDR_NPW : s == STORE_LPR ? DDR_LPR : DDR_HPR;
    unsigned b = s == STORE_WR ? DDR_VPW : s == STORE_LPR ? DDR_VPR : DDR_HPR;

    if (s == STORE_WR && expired(&ch->q[DDR_VPW], t, d->vpw_to)) {
        return DDR_VPW;
    }
    if (!arrived(&ch->q[b], t)) {
        return arrived(&ch->q[a], t) ? (int)a : -1;
    }
    if (!arrived(&ch->q[a], t)) {
        return b;
    }
    return head(&ch->q[b])->arrival < head(&ch->q[a])->arrival ? b : a;
}

/* Rule 4: a store starved for its max_starve goes critical. */
static int critical(DdrQos *d, Channel *ch, uint64_t t)
{
    int best = -1;

    if (ch->crit >= 0 && store_pick(d, ch, ch->crit, t) >= 0) {
        return ch->crit;
    }
    ch->crit = -1;
    for (unsigned s = 0; s < N_STORES; s++) {
        if (d->max_starve[s] && store_pick(d, ch, s, t) >= 0 &&
            t >= ch->starve_since[s] &&
            t - ch->starve_since[s] >= d->max_starve[s] &&
            (best < 0 || ch->starve_since[s] < ch->starve_since[best])) {
            best = s;
        }
    }
    if (best >= 0) {
        ch->crit = best;
        ch->crit_left = d->run[best];
        d->stats.critical_runs[best]++;
    }
    return best;
}

/* Rules 3-8: which class the decision at @t serves. */
static unsigned pick(DdrQos *d, Channel *ch, uint64_t t)
{
    int s, c;

    if (expired(&ch->q[DDR_VPR], t, d->vpr_to)) {              /* 3 */
        d->stats.vpr_expired++;
        return DDR_VPR;
    }
    s = critical(d, ch, t);                                     /* 4 */
    if (s >= 0) {
        return store_pick(d, ch, s, t);
    }
    if (!ch->draining && ch->stored[STORE_WR] >= d->cfg.wr_high) { /* 5 */
        ch->draining = true;
        d->stats.drains++;
    }
    c = store_pick(d, ch, STORE_WR, t);
    if (c >= 0 && ch->draining) {
        return c;
    }
    if (expired(&ch->q[DDR_VPW], t, d->vpw_to)) {
        d->stats.vpw_expired++;
        return DDR_VPW;
    }
    if (arrived(&ch->q[DDR_HPR], t)) {                          /* 6 */
        return DDR_HPR;
    }
    s = store_pick(d, ch, STORE_LPR, t);                        /* 7 */
    if (s >= 0) {
        return s;
    }
    /* 8: a write; rule 1 made sure some head has arrived. */
    g_assert(c >= 0);
    return c;
}

static void account(DdrQos *d, unsigned cls, const Entry *e, uint64_t lat)
{
    DdrClassStats *st = &d->stats.cls[cls];
    uint64_t ns = lat / 1000;
    /* floor(log2(ns)): a builtin, g_bit_nth_msf loops over the bits. */
    unsigned b = ns < 2 ? 0 : MIN(63 - __builtin_clzll(ns),
                                  DDR_HIST_BUCKETS - 1);

    st->count++;
    st->bytes += e->bytes;
    st->lat_sum_ps += lat;
    st->lat_min_ps = MIN(st->lat_min_ps, lat);
    st->lat_max_ps = MAX(st->lat_max_ps, lat);
    st->hist[b]++;
}

/* Never before @t, nor before its class's tail (FIFO per class). */
static uint64_t arrival(Channel *ch, unsigned cls, uint64_t t)
{
    Fifo *f = &ch->q[cls];

    if (f->n) {
        t = MAX(t, f->e[(f->head + f->n - 1) % f->cap].arrival);
    }
    return t;
}

/*
 * An entry of store @s freed at @t: the oldest request held outside it
 * (ddr_qos_post_held) enters, arriving then.
 */
static void admit(Channel *ch, unsigned s, uint64_t t)
{
    HeldQueue *h = &ch->held[s];
    Held *x;

    if (h->head == h->a->len) {
        return;
    }
    x = &g_array_index(h->a, Held, h->head++);
    x->e.arrival = arrival(ch, x->cls, MAX(x->e.t_ps, t));
    push(ch, x->cls, &x->e);
    /* Drop what has entered once it is most of the array. */
    if (h->head == h->a->len || h->head > MAX(h->a->len / 2, 1024)) {
        g_array_remove_range(h->a, 0, h->head);
        h->head = 0;
    }
}

/* Rules 9-12: issue the head of @cls at @t on its bank. */
static void issue(DdrQos *d, Channel *ch, unsigned cls, uint64_t t)
{
    unsigned s = store_of[cls];
    bool write = s == STORE_WR;
    Entry e = pop(&ch->q[cls]);
    Bank *bank = &ch->bank[e.bank];
    uint64_t prep, occ, col, col_min, done;

    ch->stored[s]--;
    ch->clock = t;
    if (ch->crit == (int)s && !--ch->crit_left) {
        ch->crit = -1;
    }
    if (write && ch->draining && ch->stored[STORE_WR] <= d->cfg.wr_low) {
        ch->draining = false;
    }
    /* Rule 9: the bank: a hit waits for its row, a miss opens it. */
    if (bank->row == e.row) {
        prep = 0;
        col = MAX(t, bank->ready);
        occ = d->tburst;
        d->stats.row_hits++;
    } else {
        prep = (bank->row == ROW_CLOSED ? 0 : d->trp) + d->trcd;
        col = t + prep;
        occ = d->act_occ;
        d->stats.row_closed += bank->row == ROW_CLOSED;
        d->stats.row_conflicts += bank->row != ROW_CLOSED;
        bank->row = e.row;
    }
    /* Rule 10: data in issue order, back to back at best. */
    if (ch->issued) {
        col = MAX(col, ch->last_col + d->tburst);
    }
    /* Rule 11: turnaround, from the other direction's last data. */
    if (ch->issued && write != ch->last_write) {
        if (write) {
            /* WRITE command CWL before its data, rtw after the read data. */
            col_min = ch->data_end + d->rtw;
            col_min = col_min > d->cwl ? col_min - d->cwl : 0;
        } else {
            col_min = ch->data_end + d->twtr;
        }
        col = MAX(col, col_min);
        d->stats.turnarounds++;
    }
    bank->ready = MAX(bank->ready, col);
    ch->issued = true;
    ch->last_write = write;
    ch->last_col = col;
    /* Rule 12: data CL (CWL) after the column command. */
    done = col + (write ? d->cwl : d->cl) + d->tburst;
    /*
     * Its commands start prep before its column command: pushed back, it
     * holds the command slot, so decisions never run ahead of the data
     * bus by more than one row preparation.
     */
    ch->free = col - prep + occ;
    /* It held the channel until its slot ended: starving from there. */
    ch->starve_since[s] = ch->free;
    ch->data_end = MAX(ch->data_end, done);
    account(d, cls, &e, done + d->frontend - e.t_ps);
    if (e.seq == ch->want_seq) {
        ch->want_done = done;
    } else if (d->done_fn) {
        d->done_fn(d->done_opaque, e.src, e.t_ps, done + d->frontend - e.t_ps);
    }
    admit(ch, s, t);
}

/* Serve every decision due before @limit. */
static void run(DdrQos *d, Channel *ch, uint64_t limit)
{
    uint64_t t;

    while (decision_time(d, ch, limit, &t)) {
        issue(d, ch, pick(d, ch, t), t);
    }
    set_next(d, ch);
}

/* One step past any limit: the next decision. */
static void step(DdrQos *d, Channel *ch)
{
    uint64_t t;

    g_assert(decision_time(d, ch, NEVER, &t));
    issue(d, ch, pick(d, ch, t), t);
    set_next(d, ch);
}

/*
 * Queue one burst of @req at @addr on its channel; returns the channel.
 * *wait: how long a full store kept it out (backpressure).
 */
static Channel *enqueue(DdrQos *d, const MemReq *req, uint64_t addr,
                        uint32_t bytes, bool hold, uint64_t *seq,
                        uint64_t *wait)
{
    const DdrConfig *c = &d->cfg;
    unsigned cls = ddr_qos_class(c, req);
    uint64_t granule = addr >> d->il_shift;
    Channel *ch = &d->ch[ddr_config_channel(c, addr)];
    /* The channel's own address space: its granules side by side. */
    uint64_t local = (granule / c->channels) << d->il_shift |
                     (addr & (c->interleave_bytes - 1));
    uint64_t rows = local >> d->row_shift;
    HeldQueue *h = &ch->held[store_of[cls]];
    Entry e = {
        .t_ps = req->t_ps,
        .seq = d->seq++,
        .bank = rows & (c->banks - 1),
        .row = (uint32_t)(rows >> d->bank_shift),
        .bytes = bytes,
        .src = req->src,
    };

    if (d->next[d->leaves + (ch - d->ch)] < req->t_ps) {
        run(d, ch, req->t_ps);
    }
    *seq = e.seq;
    if (hold && (ch->stored[store_of[cls]] == d->entries[store_of[cls]] ||
                 h->head < h->a->len)) {
        /* Outside, behind those already there; the channel stays put. */
        Held x = { .e = e, .cls = cls };

        d->stats.backpressure++;
        g_array_append_val(h->a, x);
        *wait = 0;
        return ch;
    }
    if (ch->stored[store_of[cls]] == d->entries[store_of[cls]]) {
        d->stats.backpressure++;
        while (ch->stored[store_of[cls]] == d->entries[store_of[cls]]) {
            step(d, ch);
        }
    }
    /* Never before the last decision, nor before its class's tail. */
    e.arrival = arrival(ch, cls, MAX(req->t_ps, ch->clock));
    *wait = e.arrival - req->t_ps;
    push(ch, cls, &e);
    set_next(d, ch);
    return ch;
}

/*
 * Queue every burst of @req; returns how long the first full store kept
 * one out.  With @done, wait for each burst and return the last one's
 * completion there.
 */
static uint64_t submit(DdrQos *d, const MemReq *req, bool hold,
                       uint64_t *done)
{
    uint64_t end = req->addr + req->size;
    uint64_t addr = req->addr >> d->burst_shift << d->burst_shift;
    uint64_t seq, wait, most = 0;

    do {
        uint64_t next = addr + d->burst_bytes;
        uint32_t bytes = MIN(next, end) - MAX(addr, req->addr);
        Channel *ch = enqueue(d, req, addr, bytes, hold, &seq, &wait);

        most = MAX(most, wait);
        if (done) {
            ch->want_seq = seq;
            ch->want_done = NEVER;
            while (ch->want_done == NEVER) {
                step(d, ch);
            }
            ch->want_seq = NEVER;
            *done = MAX(*done, ch->want_done);
        }
        addr = next;
    } while (addr < end);
    return most;
}

uint64_t ddr_qos_read(DdrQos *d, const MemReq *req)
{
    uint64_t done = 0;

    g_assert(!memreq_is_write(req));
    submit(d, req, false, &done);
    return done + d->frontend - req->t_ps;
}

uint64_t ddr_qos_post(DdrQos *d, const MemReq *req)
{
    return submit(d, req, false, NULL);
}

void ddr_qos_post_held(DdrQos *d, const MemReq *req)
{
    submit(d, req, true, NULL);
}

void ddr_qos_set_done_hook(DdrQos *d, DdrDoneFn fn, void *opaque)
{
    d->done_fn = fn;
    d->done_opaque = opaque;
}

/*
 * Every channel with a decision before @t_ps, in channel order (the done
 * hook's order); a channel with none would do nothing in run().  Running
 * one changes no other channel's queues.
 */
void ddr_qos_advance(DdrQos *d, uint64_t t_ps)
{
    for (int i = first_due(d, 0, t_ps); i >= 0;
         i = first_due(d, i + 1, t_ps)) {
        run(d, &d->ch[i], t_ps);
    }
}

uint64_t ddr_qos_next_decision(const DdrQos *d)
{
    return d->next[1];
}

void ddr_qos_drain(DdrQos *d)
{
    ddr_qos_advance(d, NEVER);
}
