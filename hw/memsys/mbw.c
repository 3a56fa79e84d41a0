/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory-bandwidth regulation of a memory-side MSC RIS, see msc-mbw.h and
 * docs/mbw-regulation.md (the rules R1-R7 referred to below).
 *
 * Time: a window of W = winwd/256 us is D = winwd * 10^6 "scaled ps" (ps x
 * 256), so that every window and portion boundary is exact in integers
 * (1/256 us = 3906.25 ps is not a whole number of ps).  Products that can
 * pass 2^64 are taken in 128 bits.
 */
#include <string.h>

#include "mbw.h"

#define SCALE           256u            /* window units per us */
#define PS_PER_US       1000000u
#define PROP_WEIGHT_ONE (1ull << 32)    /* PROP weight of stride 1 */
/* Bound on re-decisions for one request: each moves a window on (R6). */
#define MAX_STEPS       64

typedef unsigned __int128 u128;

/*
 * What an entry has done: modeled state, 64-bit words only, so that the
 * regulator's whole state is one array of words (mbw_state).
 */
typedef struct MbwActivity {
    uint64_t den;           /* window width in scaled ps: units * 10^6 */
    uint64_t win;           /* the window being counted */
    uint64_t used;          /* its bytes, with the excess carried (R2) */
    uint64_t paid;          /* used after its last request not LOW (R2) */
    uint64_t hold_until;    /* a delayed request went then, none before */
    uint64_t last_t;        /* latest request (PROP activity, R4) */
    uint64_t seen;
} MbwActivity;

/* The latest request of an entry that was not over its MAX (R1 contention). */
typedef struct MbwUnder {
    uint64_t idx;
    uint64_t t;
    uint64_t valid;
} MbwUnder;

#define UNDER_WORDS     (2 * sizeof(MbwUnder) / sizeof(uint64_t))
#define ACT_WORDS       (sizeof(MbwActivity) / sizeof(uint64_t))

/* An entry: its controls, what they derive, and its activity. */
typedef struct MbwPart {
    MbwControls c;
    uint64_t cap_max;       /* bytes per window, UINT64_MAX: no MAX (R1) */
    uint64_t cap_min;       /* HIGH below this, <= cap_max (R3) */
    bool pbm_empty;         /* a PBM with no portion (R5) */
    bool regulated;         /* any control not at its reset value */
    bool in_prop;           /* listed in MbwReg.prop */
    MbwActivity *a;         /* in MbwReg.state */
} MbwPart;

struct MbwReg {
    uint64_t bytes_per_s;
    unsigned n;
    MbwPart *p;
    /*
     * The state: under[2] (the latest, and the latest of another entry
     * than under[0]'s), then n MbwActivity.
     */
    uint64_t *state;
    MbwUnder *under;
    unsigned *prop;         /* entries with PROP enabled */
    unsigned n_prop;
};

static uint64_t window_of(const MbwPart *p, uint64_t t)
{
    return (uint64_t)(((u128)t * SCALE) / p->a->den);
}

static uint64_t ceil_div(u128 a, u128 b)
{
    return (uint64_t)((a + b - 1) / b);
}

/* First ps of the part @num/@den_frac of window @k (num < den_frac). */
static uint64_t window_point(const MbwPart *p, uint64_t k, uint64_t num,
                             uint64_t den_frac)
{
    return ceil_div((u128)k * p->a->den * den_frac + (u128)num * p->a->den,
                    (u128)SCALE * den_frac);
}

static uint64_t frac_bytes(const MbwReg *g, const MbwPart *p, uint32_t frac)
{
    return (uint64_t)((u128)g->bytes_per_s * (p->a->den / PS_PER_US) * frac /
                      ((u128)SCALE * PS_PER_US * MBW_FRAC_ONE));
}

MbwReg *mbw_new(unsigned n_partid, uint64_t bytes_per_s)
{
    MbwReg *g;

    if (!n_partid || !bytes_per_s) {
        return NULL;
    }
    g = g_new0(MbwReg, 1);
    g->bytes_per_s = bytes_per_s;
    g->n = n_partid;
    g->p = g_new0(MbwPart, n_partid);
    g->state = g_new0(uint64_t, UNDER_WORDS + n_partid * ACT_WORDS);
    g->under = (MbwUnder *)g->state;
    g->prop = g_new0(unsigned, n_partid);
    for (unsigned i = 0; i < n_partid; i++) {
        g->p[i].a = (MbwActivity *)(g->state + UNDER_WORDS) + i;
        /* reset controls; the window of MPAMCFG_MBW_WINWD's reset, 1 ms */
        mbw_set(g, i, &(MbwControls){ .max = MBW_FRAC_ONE,
                                       .winwd = 1000 * SCALE });
    }
    return g;
}

void mbw_free(MbwReg *g)
{
    if (g) {
        g_free(g->p);
        g_free(g->state);
        g_free(g->prop);
        g_free(g);
    }
}

static bool pbm_bit(const uint32_t *pbm, uint32_t i)
{
    return pbm[i / 32] >> (i % 32) & 1;
}

/* The first portion >= @i the PBM allows, or @wd if none. */
static uint32_t pbm_next_bit(const MbwControls *c, uint32_t i)
{
    while (i < c->pbm_wd && !pbm_bit(c->pbm, i)) {
        i++;
    }
    return i;
}

static void prop_list(MbwReg *g, unsigned idx, bool on)
{
    MbwPart *p = &g->p[idx];

    if (on && !p->in_prop) {
        g->prop[g->n_prop++] = idx;
    } else if (!on && p->in_prop) {
        for (unsigned i = 0; i < g->n_prop; i++) {
            if (g->prop[i] == idx) {
                g->prop[i] = g->prop[--g->n_prop];
                break;
            }
        }
    }
    p->in_prop = on;
}

void mbw_set(MbwReg *g, unsigned idx, const MbwControls *c)
{
    MbwPart *p = &g->p[idx];
    /* R6: a zero window is the narrowest the register can say, 1/256 us */
    uint64_t den = (uint64_t)(c->winwd ? c->winwd : 1) * PS_PER_US;
    bool pbm_all = true;

    if (den != p->a->den) {
        /*
         * window numbers mean other windows now (or a loaded count was
         * taken in other windows): start counting afresh
         */
        p->a->win = 0;
        p->a->used = p->a->paid = 0;
    }
    p->c = *c;
    p->a->den = den;
    for (uint32_t i = 0; c->pbm && i < c->pbm_wd; i++) {
        pbm_all &= pbm_bit(c->pbm, i);
    }
    if (pbm_all) {
        p->c.pbm = NULL;
    }
    p->pbm_empty = p->c.pbm && pbm_next_bit(&p->c, 0) == c->pbm_wd;
    /*
     * R1: never less than a byte, so that every request can go some time.
     * All ones is the whole resource: a hard limit there holds a source to
     * B; a soft one is no limit (the reset state, and Linux's MB 100 %,
     * which never sets HARDLIM, regulate nothing).
     */
    p->cap_max = c->max >= MBW_FRAC_ONE && !c->hardlim ? UINT64_MAX :
                 MAX(1, frac_bytes(g, p, MIN(c->max, MBW_FRAC_ONE)));
    /* R3: a minimum above the maximum counts as the maximum */
    p->cap_min = MIN(frac_bytes(g, p, MIN(c->min, MBW_FRAC_ONE)), p->cap_max);
    p->regulated = p->cap_max != UINT64_MAX || p->cap_min || c->stride ||
                   p->c.pbm;
    prop_list(g, idx, c->stride != 0);
}

void mbw_reset(MbwReg *g)
{
    for (unsigned i = 0; i < g->n; i++) {
        MbwPart *p = &g->p[i];

        /* the window width stays: it is the controls' */
        *p->a = (MbwActivity){ .den = p->a->den };
    }
    memset(g->under, 0, 2 * sizeof(*g->under));
}

/* Keep under[] the two latest requests under MAX of two different entries. */
static void note_under(MbwReg *g, unsigned idx, uint64_t t)
{
    MbwUnder *u = g->under, n = { idx, t, true };

    if (u[0].valid && u[0].idx == idx) {
        u[0].t = MAX(u[0].t, t);
        return;
    }
    if (u[1].valid && u[1].idx == idx) {
        n.t = MAX(u[1].t, t);
    } else if (u[1].valid && u[1].t > t) {
        return;
    }
    u[1] = n;
    if (!u[0].valid || u[1].t > u[0].t) {
        n = u[0];
        u[0] = u[1];
        u[1] = n;
    }
}

/* R1: another entry under its MAX requested within a window of @idx. */
static bool contended(const MbwReg *g, unsigned idx, uint64_t t)
{
    const MbwUnder *o = g->under[0].valid && g->under[0].idx == idx ?
                        &g->under[1] : &g->under[0];

    return o->valid && (u128)o->t * SCALE + g->p[idx].a->den > (u128)t * SCALE;
}

/*
 * R4: the bytes per window PROP leaves @idx at @t: the resource shared in
 * proportion to 1/stride among the PROP entries active within a window of
 * @idx; UINT64_MAX when it is alone.
 */
static uint64_t prop_cap(const MbwReg *g, unsigned idx, uint64_t t)
{
    const MbwPart *p = &g->p[idx];
    uint64_t w_self = PROP_WEIGHT_ONE / p->c.stride, w_all = w_self;
    bool alone = true;

    for (unsigned i = 0; i < g->n_prop; i++) {
        const MbwPart *q = &g->p[g->prop[i]];

        if (g->prop[i] != idx && q->a->seen &&
            (u128)q->a->last_t * SCALE + p->a->den > (u128)t * SCALE) {
            w_all += PROP_WEIGHT_ONE / q->c.stride;
            alone = false;
        }
    }
    if (alone) {
        return UINT64_MAX;
    }
    return MAX(1, (uint64_t)((u128)frac_bytes(g, p, MBW_FRAC_ONE) * w_self /
                             w_all));
}

/*
 * R2: move the count of @p on to window @k, carrying what the requests
 * it let go under MAX exceeded MAX by; what went at LOW preference (R1,
 * HARDLIM 0 and nobody competing) was spare and is not carried.
 */
static void roll(MbwPart *p, uint64_t k)
{
    uint64_t carry = p->cap_max == UINT64_MAX ? 0 : p->cap_max;

    if (k <= p->a->win) {
        return;
    }
    if (!carry || k - p->a->win > p->a->paid / carry) {
        p->a->used = 0;
    } else {
        p->a->used = p->a->paid - carry * (k - p->a->win);
    }
    p->a->paid = p->a->used;
    p->a->win = k;
}

/*
 * R5: the first ps from @t in a portion the PBM allows: the window is cut
 * into pbm_wd equal portions in time.
 */
static uint64_t pbm_time(const MbwPart *p, uint64_t t)
{
    uint64_t k = window_of(p, t);
    uint64_t off = (uint64_t)((u128)t * SCALE - (u128)k * p->a->den);
    uint32_t wd = p->c.pbm_wd;
    uint32_t i = (uint32_t)((u128)off * wd / p->a->den);
    uint32_t j = pbm_next_bit(&p->c, i);

    if (j == i) {
        return t;
    }
    if (j == wd) {
        k++;
        j = pbm_next_bit(&p->c, 0);
    }
    return window_point(p, k, j, wd);
}

MbwVerdict mbw_request(MbwReg *g, unsigned idx, uint64_t t_ps,
                       uint64_t bytes)
{
    MbwPart *p = &g->p[idx];
    MbwVerdict v = { 0, MBW_PREF_MEDIUM };
    uint64_t t0 = t_ps, carry;
    bool over;

    if (p->regulated) {
        t0 = MAX(t_ps, p->a->hold_until);
        if (p->pbm_empty) {
            /* R5: no portion at all: one request per window, never none */
            t0 = mbw_window_start(g, idx, window_of(p, t0) + 1);
        }
        roll(p, MAX(window_of(p, t0), p->a->win));
        carry = p->cap_max == UINT64_MAX ? 0 : p->cap_max;
        for (unsigned step = 0; step < MAX_STEPS; step++) {
            uint64_t limit = UINT64_MAX, nt;

            v.pref = MBW_PREF_MEDIUM;
            if (p->a->used < p->cap_min) {
                /* R3: below MIN: preferred, exempt from R1 soft and R4 */
                v.pref = MBW_PREF_HIGH;
            } else {
                if (p->a->used >= p->cap_max) {
                    if (p->c.hardlim || contended(g, idx, t0)) {
                        limit = p->cap_max;
                    } else {
                        v.pref = MBW_PREF_LOW;
                    }
                }
                if (p->c.stride) {
                    limit = MIN(limit, prop_cap(g, idx, t0));
                }
            }
            if (p->a->used >= limit) {
                /* R2: to the first window in which the count is below */
                uint64_t n = carry && p->a->paid >= limit ?
                             (p->a->paid - limit) / carry + 1 : 1;

                t0 = mbw_window_start(g, idx, p->a->win + n);
                roll(p, p->a->win + n);
                continue;
            }
            if (!p->c.pbm || p->pbm_empty) {
                break;
            }
            nt = pbm_time(p, t0);
            if (nt == t0) {
                break;
            }
            t0 = nt;
            /* another window: its count decides again */
            roll(p, MAX(window_of(p, t0), p->a->win));
        }
        over = p->a->used >= p->cap_max;
        p->a->used = p->a->used > UINT64_MAX - bytes ? UINT64_MAX
                                                     : p->a->used + bytes;
        if (v.pref != MBW_PREF_LOW) {
            p->a->paid = p->a->used;
        }
        if (t0 > t_ps) {
            p->a->hold_until = MAX(p->a->hold_until, t0);
        }
    } else {
        over = false;
    }
    p->a->last_t = p->a->seen ? MAX(p->a->last_t, t0) : t0;
    p->a->seen = true;
    if (!over) {
        note_under(g, idx, t0);
    }
    v.delay_ps = t0 - t_ps;
    return v;
}

uint64_t *mbw_state(MbwReg *g, uint32_t *n_words)
{
    *n_words = UNDER_WORDS + g->n * ACT_WORDS;
    return g->state;
}

uint64_t mbw_window_ps(const MbwReg *g, unsigned idx)
{
    return g->p[idx].a->den / SCALE;
}

uint64_t mbw_window_start(const MbwReg *g, unsigned idx, uint64_t k)
{
    return window_point(&g->p[idx], k, 0, 1);
}

uint64_t mbw_window_bytes(const MbwReg *g, unsigned idx, uint32_t frac)
{
    return frac_bytes(g, &g->p[idx], frac);
}
