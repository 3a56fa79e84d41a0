/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Memory-bandwidth regulation of a memory-side MSC RIS (MPAM MBW_MAX with
 * HARDLIM, MBW_MIN, MBW_PBM, MBW_PROP over MBW_WINWD windows), in modeled
 * time.  For each request reaching the resource it says how long the
 * request must wait before it may use the resource and with which
 * preference it then contends downstream (docs/mbw-regulation.md has the
 * rules and equations).  It knows fractions, bytes and picoseconds, not
 * registers: msc.c decodes the MPAMCFG_MBW_* registers into MbwControls.
 * Pure C + glib.
 */
#ifndef MEMQOS_MEMSYS_MBW_H
#define MEMQOS_MEMSYS_MBW_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

/* A fraction of the resource bandwidth in 1/65536: MBW_FRAC_ONE is all. */
#define MBW_FRAC_ONE 65536u

/*
 * The controls of one PARTID (intPARTID with narrowing), decoded.  Reset
 * values regulate nothing: max MBW_FRAC_ONE without hardlim, min 0,
 * stride 0, pbm NULL.  With hardlim, max MBW_FRAC_ONE holds to the whole
 * resource.
 */
typedef struct MbwControls {
    uint32_t max;               /* MBW_MAX as a fraction, MBW_FRAC_ONE: all */
    bool hardlim;               /* MBW_MAX.HARDLIM */
    uint32_t min;               /* MBW_MIN as a fraction, 0: none */
    uint32_t winwd;             /* MBW_WINWD: 1/256 us units (US_INT:US_FRAC) */
    uint32_t stride;            /* MBW_PROP: STRIDEM1 + 1, 0: PROP off */
    const uint32_t *pbm;        /* MBW_PBM, pbm_wd bits; NULL: every portion */
    uint32_t pbm_wd;
} MbwControls;

/*
 * How a request contends downstream once it may go: LOW over its MAX with
 * HARDLIM 0 and nobody under their MAX competing, HIGH below its MIN,
 * MEDIUM otherwise (and always with reset controls).
 */
typedef enum MbwPref {
    MBW_PREF_LOW = 0,
    MBW_PREF_MEDIUM = 1,
    MBW_PREF_HIGH = 2,
} MbwPref;

typedef struct MbwVerdict {
    uint64_t delay_ps;          /* wait before the request uses the resource */
    MbwPref pref;
} MbwVerdict;

typedef struct MbwReg MbwReg;

/*
 * A regulator for @n_partid control entries of a resource that moves
 * @bytes_per_s at its peak (e.g. a DDR's channels x data rate x bus width);
 * NULL if @bytes_per_s or @n_partid is 0.  Controls start at reset values.
 */
MbwReg *mbw_new(unsigned n_partid, uint64_t bytes_per_s);
void mbw_free(MbwReg *g);
/*
 * Entry @idx's controls changed.  *c is copied, c->pbm is not: it must stay
 * valid (it points into the MSC's control record) until the next mbw_set
 * of @idx or mbw_free.
 */
void mbw_set(MbwReg *g, unsigned idx, const MbwControls *c);
/* Forget every window and activity (reset, after migration). */
void mbw_reset(MbwReg *g);
/*
 * A request of @bytes from entry @idx reaching the resource at @t_ps: how
 * long it waits and its preference.  Records it (its bytes count in the
 * window in which it goes).  Requests may come slightly out of time order
 * (vCPUs skew); one before the window already being counted is counted
 * there.
 */
MbwVerdict mbw_request(MbwReg *g, unsigned idx, uint64_t t_ps,
                       uint64_t bytes);

/*
 * The regulator's modeled state (each entry's window, count and latest
 * request, the latest requests under MAX) as @*n_words 64-bit words, for
 * migration.  After writing a saved state here, mbw_set every entry again:
 * an entry whose window width is not the one its count was taken in
 * starts afresh.  Any values are safe (no hang, no division by zero).
 */
uint64_t *mbw_state(MbwReg *g, uint32_t *n_words);

/* Introspection and tests. */
/* Window width of entry @idx in ps, rounded down (a 0 MBW_WINWD is 1/256 us). */
uint64_t mbw_window_ps(const MbwReg *g, unsigned idx);
/* First picosecond of window @k of entry @idx. */
uint64_t mbw_window_start(const MbwReg *g, unsigned idx, uint64_t k);
/* Bytes a fraction @frac of the resource moves in one window of @idx. */
uint64_t mbw_window_bytes(const MbwReg *g, unsigned idx, uint32_t frac);

#endif
