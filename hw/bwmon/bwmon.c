/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One Qualcomm BWMON monitor in modeled time, see bwmon.h.  The rules the
 * driver leaves to the hardware (equal counts, counters reaching their
 * threshold, CLEAR versus clear-all, a zero window) are chosen in
 * docs/bwmon-model.md, "Semantics"; each is named where it is applied.
 */
#include <string.h>
#include <glib.h>

#include "bwmon.h"

/* CLEAR's bits (the driver's BWMON_CLEAR_CLEAR / _CLEAR_ALL). */
#define CLEAR_COUNTERS      0x1u
#define CLEAR_ALL           0x2u
/* ZONE_ACTIONS, for the window's zone: per zone counter c, 2 bits at 2c. */
#define ACTION_CLEAR(c)     (0x1u << (2 * (c)))
#define ACTION_INCREMENT(c) (0x2u << (2 * (c)))

/* One tick of the 19.2 MHz sampling clock is 156250/3 ps. */
#define TICK_PS_NUM         156250u
#define TICK_PS_DEN         3u

struct Bwmon {
    const BwmonLayout *layout;
    uint32_t unit;              /* bytes per count unit */
    BwmonState s;
    uint64_t next_change;       /* bwmon_next_change(), kept current */
};

static uint32_t reg(const Bwmon *m, BwmonRegId id)
{
    return m->s.regs[id];
}

static uint8_t byte_of(uint32_t v, unsigned z)
{
    return v >> (8 * z);
}

static bool enabled(const Bwmon *m)
{
    return reg(m, BWMON_ENABLE) & 1;
}

uint64_t bwmon_window_ps(const Bwmon *m)
{
    uint64_t ticks = reg(m, BWMON_SAMPLE_WINDOW);

    return (ticks * TICK_PS_NUM + TICK_PS_DEN - 1) / TICK_PS_DEN;
}

/* Windows end only while enabled with a non-zero SAMPLE_WINDOW. */
static uint64_t window_end(const Bwmon *m)
{
    uint64_t len = bwmon_window_ps(m);

    return enabled(m) && len ? m->s.win_start_ps + len : UINT64_MAX;
}

/*
 * From the top; a count equal to a threshold is in the zone above it, so
 * with the driver's THRESHOLD_LOW of 0 an idle window is in zone 1
 * ("Semantics").
 */
unsigned bwmon_zone_of(const Bwmon *m, uint32_t count)
{
    if (count >= reg(m, BWMON_THRESHOLD_HIGH)) {
        return 3;
    }
    if (count >= reg(m, BWMON_THRESHOLD_MED)) {
        return 2;
    }
    return count >= reg(m, BWMON_THRESHOLD_LOW) ? 1 : 0;
}

static uint32_t units(const Bwmon *m, uint64_t bytes)
{
    return MIN(bytes / m->unit, BWMON_COUNT_MAX);
}

/* The zone-z bits of IRQ_STATUS/CLEAR/ENABLE, as field values. */
static uint32_t irq_field(const Bwmon *m, BwmonRegId id)
{
    return reg(m, id) >> m->layout->irq_shift;
}

static bool local_line(const Bwmon *m)
{
    return irq_field(m, BWMON_IRQ_STATUS) & irq_field(m, BWMON_IRQ_ENABLE);
}

bool bwmon_irq(const Bwmon *m)
{
    if (!m->layout->has_global_irq) {
        return local_line(m);
    }
    return m->s.global_latch && (reg(m, BWMON_GLOBAL_IRQ_ENABLE) & 1);
}

/* v4: the global status follows the monitor's line up, not down. */
static void latch(Bwmon *m)
{
    m->s.global_latch |= local_line(m);
}

/*
 * Zone counter @c reached its count: IRQ_STATUS records it if the zone's
 * interrupt is enabled.  (Recording disabled zones too would leave the
 * driver a stale zone 3 bit at its top vote: it reads IRQ_STATUS & 0xA,
 * takes the highest zone and would not vote down.)
 */
static void raise_status(Bwmon *m, unsigned c)
{
    m->s.regs[BWMON_IRQ_STATUS] |=
        reg(m, BWMON_IRQ_ENABLE) & (1u << (m->layout->irq_shift + c));
    latch(m);
}

/*
 * @n windows in @zone that each counted @count units: the zone's actions
 * on every counter, in O(1).  A counter that reaches its THRESHOLD_COUNT
 * raises its IRQ_STATUS bit and starts again from 0, so a zone that
 * persists fires every THRESHOLD_COUNT windows; a count of 0 acts as 1.
 */
static void apply_windows(Bwmon *m, unsigned zone, uint32_t count, uint64_t n)
{
    uint8_t action = byte_of(reg(m, BWMON_ZONE_ACTIONS), zone);

    for (unsigned c = 0; c < BWMON_N_ZONES; c++) {
        uint8_t *cnt = &m->s.zone_count[c];
        unsigned t = MAX(byte_of(reg(m, BWMON_THRESHOLD_COUNT), c), 1);
        bool inc = action & ACTION_INCREMENT(c);

        if (action & ACTION_CLEAR(c)) {
            /* Clear, then increment: every window leaves the same. */
            *cnt = inc;
            if (inc && t == 1) {
                *cnt = 0;
                raise_status(m, c);
            }
        } else if (inc) {
            uint64_t first = *cnt >= t ? 1 : t - *cnt;

            if (n < first) {
                *cnt += n;
            } else {
                *cnt = (n - first) % t;
                raise_status(m, c);
            }
        }
    }
    if (count > reg(m, BWMON_ZONE0_MAX + zone)) {
        m->s.regs[BWMON_ZONE0_MAX + zone] = count;
    }
    m->s.last_zone = zone;
    m->s.last_count = count;
    m->s.windows += n;
}

/* Close the current window at @end and start the next there. */
static void close_window(Bwmon *m, uint64_t end)
{
    uint32_t count = units(m, m->s.win_bytes);

    apply_windows(m, bwmon_zone_of(m, count), count, 1);
    m->s.win_bytes = 0;
    m->s.win_start_ps = end;
}

/* Close every window that ended by @t: the first, then the empty ones. */
static void run_to(Bwmon *m, uint64_t t)
{
    uint64_t len = bwmon_window_ps(m);
    uint64_t end = window_end(m);

    if (end <= t) {
        uint64_t n;

        close_window(m, end);
        n = (t - end) / len;
        if (n) {
            apply_windows(m, bwmon_zone_of(m, 0), 0, n);
            m->s.win_start_ps += n * len;
        }
    }
    m->s.now_ps = t;
}

/*
 * Windows (from the current one) until the line changes by itself, 0 if
 * it cannot: the current window as counted so far, then empty ones.
 */
static uint64_t windows_to_change(const Bwmon *m)
{
    Bwmon sim = *m;
    uint32_t status;
    uint8_t action, global;
    unsigned zone;
    uint64_t best = 0;
    bool line = bwmon_irq(m);

    if (window_end(m) == UINT64_MAX) {
        return 0;
    }
    close_window(&sim, 0);
    if (bwmon_irq(&sim) != line) {
        return 1;
    }
    status = reg(&sim, BWMON_IRQ_STATUS);
    global = sim.s.global_latch;
    /* Empty windows: only a counter the zone increments can fire. */
    zone = bwmon_zone_of(&sim, 0);
    action = byte_of(reg(&sim, BWMON_ZONE_ACTIONS), zone);
    for (unsigned c = 0; c < BWMON_N_ZONES; c++) {
        unsigned t = MAX(byte_of(reg(&sim, BWMON_THRESHOLD_COUNT), c), 1);
        uint8_t cnt = sim.s.zone_count[c];
        uint64_t n;

        if (!(action & ACTION_INCREMENT(c))) {
            continue;
        }
        if (action & ACTION_CLEAR(c)) {
            n = t == 1 ? 1 : 0;
        } else {
            n = cnt >= t ? 1 : t - cnt;
        }
        /* Would counter c firing alone change the line? */
        sim.s.regs[BWMON_IRQ_STATUS] = status;
        sim.s.global_latch = global;
        raise_status(&sim, c);
        if (n && bwmon_irq(&sim) != line && (!best || n + 1 < best)) {
            best = n + 1;
        }
    }
    return best;
}

static void update_next_change(Bwmon *m)
{
    uint64_t n = windows_to_change(m);

    m->next_change = n ? m->s.win_start_ps + n * bwmon_window_ps(m)
                       : UINT64_MAX;
}

uint64_t bwmon_next_change(const Bwmon *m)
{
    return m->next_change;
}

void bwmon_advance(Bwmon *m, uint64_t t_ps)
{
    if (t_ps > m->s.now_ps) {
        uint64_t end = window_end(m);

        run_to(m, t_ps);
        if (end <= t_ps) {
            update_next_change(m);
        }
    }
}

void bwmon_count(Bwmon *m, uint64_t t_ps, uint64_t bytes)
{
    unsigned zone;

    bwmon_advance(m, t_ps);
    if (!enabled(m)) {
        return;
    }
    zone = bwmon_zone_of(m, units(m, m->s.win_bytes));
    m->s.win_bytes += bytes;
    m->s.bytes += bytes;
    /* Only the zone of the window decides what its close does. */
    if (bwmon_zone_of(m, units(m, m->s.win_bytes)) != zone) {
        update_next_change(m);
    }
}

/* Start a new window now, the current one's bytes dropped. */
static void restart_window(Bwmon *m)
{
    m->s.win_start_ps = m->s.now_ps;
    m->s.win_bytes = 0;
}

static void clear(Bwmon *m, uint32_t v)
{
    if (v & (CLEAR_COUNTERS | CLEAR_ALL)) {
        memset(m->s.zone_count, 0, sizeof(m->s.zone_count));
        for (unsigned z = 0; z < BWMON_N_ZONES; z++) {
            m->s.regs[BWMON_ZONE0_MAX + z] = 0;
        }
        restart_window(m);
    }
    if (v & CLEAR_ALL) {
        m->s.regs[BWMON_IRQ_STATUS] = 0;
    }
}

/* A write's effect beyond storing the value (RW) or instead of it (WO). */
static void command(Bwmon *m, BwmonRegId id, uint32_t v, uint32_t old)
{
    switch (id) {
    case BWMON_GLOBAL_IRQ_CLEAR:
        if (v & 1) {
            /* Cleared, and set again at once if the monitor still asserts. */
            m->s.global_latch = local_line(m);
        }
        break;
    case BWMON_IRQ_CLEAR:
        m->s.regs[BWMON_IRQ_STATUS] &= ~v;
        break;
    case BWMON_CLEAR:
        clear(m, v);
        break;
    case BWMON_ENABLE:
        if ((v ^ old) & 1) {
            /* Enabling starts a window; disabling drops the partial one. */
            restart_window(m);
        }
        break;
    case BWMON_SAMPLE_WINDOW:
        /* A window already longer than the new length ends now. */
        if (window_end(m) < m->s.now_ps) {
            close_window(m, m->s.now_ps);
        }
        break;
    default:
        break;
    }
    latch(m);
}

static BwmonRegId lookup(const Bwmon *m, BwmonRegion region, uint32_t offset)
{
    return region < m->layout->n_regions
        ? bwmon_reg_at(m->layout, region, offset) : BWMON_N_REGS;
}

uint32_t bwmon_peek(const Bwmon *m, BwmonRegId id)
{
    const BwmonRegInfo *r = &m->layout->regs[id];

    return r->access == BWMON_WO || r->access == BWMON_ABSENT ? 0 : reg(m, id);
}

uint32_t bwmon_read(Bwmon *m, BwmonRegion region, uint32_t offset,
                    uint64_t t_ps, BwmonErr *err)
{
    BwmonRegId id = lookup(m, region, offset);
    BwmonErr e = BWMON_ERR_NONE;

    bwmon_advance(m, t_ps);
    if (id == BWMON_N_REGS) {
        e = BWMON_ERR_UNMAPPED;
    } else if (m->layout->regs[id].access == BWMON_WO) {
        e = BWMON_ERR_WRITE_ONLY;
    }
    if (err) {
        *err = e;
    }
    return id == BWMON_N_REGS ? 0 : bwmon_peek(m, id);
}

BwmonErr bwmon_write(Bwmon *m, BwmonRegion region, uint32_t offset,
                     uint32_t value, uint64_t t_ps)
{
    BwmonRegId id = lookup(m, region, offset);
    const BwmonRegInfo *r;
    uint32_t old, v;

    bwmon_advance(m, t_ps);
    if (id == BWMON_N_REGS) {
        return BWMON_ERR_UNMAPPED;
    }
    r = &m->layout->regs[id];
    if (r->access == BWMON_RO) {
        return BWMON_ERR_READ_ONLY;
    }
    old = reg(m, id);
    v = value & r->mask;
    if (r->access == BWMON_RW) {
        m->s.regs[id] = v;
    }
    command(m, id, v, old);
    update_next_change(m);
    return value & ~r->mask ? BWMON_ERR_RESERVED : BWMON_ERR_NONE;
}

void bwmon_reset(Bwmon *m, uint64_t t_ps)
{
    memset(&m->s, 0, sizeof(m->s));
    for (unsigned id = 0; id < BWMON_N_REGS; id++) {
        m->s.regs[id] = m->layout->regs[id].reset;
    }
    m->s.now_ps = m->s.win_start_ps = t_ps;
    update_next_change(m);
}

Bwmon *bwmon_new(BwmonVariant variant, uint32_t count_unit_bytes)
{
    Bwmon *m;

    g_assert(variant < BWMON_N_VARIANTS);
    m = g_new0(Bwmon, 1);
    m->layout = &bwmon_layouts[variant];
    m->unit = count_unit_bytes ? count_unit_bytes
                               : m->layout->count_unit_bytes;
    bwmon_reset(m, 0);
    return m;
}

void bwmon_free(Bwmon *m)
{
    g_free(m);
}

const BwmonLayout *bwmon_layout(const Bwmon *m)
{
    return m->layout;
}

uint32_t bwmon_count_unit(const Bwmon *m)
{
    return m->unit;
}

BwmonState *bwmon_state(Bwmon *m)
{
    return &m->s;
}

void bwmon_post_load(Bwmon *m)
{
    update_next_change(m);
}
