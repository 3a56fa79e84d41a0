/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One Qualcomm BWMON monitor in modeled time (docs/bwmon-model.md): it
 * counts the bytes of the traffic it watches per sample window
 * (SAMPLE_WINDOW ticks of 19.2 MHz), in count units of the variant
 * (bwmon-regs.h), classifies each window into a zone against
 * THRESHOLD_LOW/MED/HIGH, applies that zone's ZONE_ACTIONS to the four
 * zone counters, keeps ZONE_MAX per zone, and raises IRQ_STATUS bit z when
 * zone counter z reaches its THRESHOLD_COUNT.  The interrupt is a level:
 * IRQ_STATUS & IRQ_ENABLE, on v4 through the global latch that
 * GLOBAL_IRQ_CLEAR clears and GLOBAL_IRQ_ENABLE gates.
 *
 * Lazy in time: nothing runs per tick or per window.  Every entry point
 * takes the modeled time t_ps (picoseconds) of the access and first brings
 * the monitor to t_ps, closing the windows that ended before it in O(1)
 * (empty windows in bulk).  bwmon_next_change() tells the caller the next
 * time the interrupt line may change by itself, so the glue arms one timer.
 * Times that go backwards (vCPUs' local clocks differ within a quantum)
 * are taken as the monitor's current time: it never goes back.
 *
 * Not thread-safe: the caller serialises.  Pure C + glib, no QEMU types.
 */
#ifndef MEMQOS_BWMON_H
#define MEMQOS_BWMON_H

#include <stdbool.h>
#include <stdint.h>

#include "bwmon-regs.h"

/* The largest count a window reports (12-bit thresholds and ZONE_MAX). */
#define BWMON_COUNT_MAX     0xFFFu

/*
 * Everything a migration must carry (VMState): registers as read, the
 * zone counters, the current window and the v4 global latch.
 */
typedef struct BwmonState {
    uint32_t regs[BWMON_N_REGS];    /* RW: as written; RO: the state read */
    uint8_t zone_count[BWMON_N_ZONES];
    uint8_t global_latch;           /* v4: the monitor's line, latched */
    uint8_t last_zone;              /* zone of the last window closed */
    uint32_t last_count;            /* and its count (units) */
    uint64_t now_ps;                /* the monitor's modeled time */
    uint64_t win_start_ps;          /* start of the current window */
    uint64_t win_bytes;             /* bytes counted in it so far */
    uint64_t windows;               /* windows closed since reset */
    uint64_t bytes;                 /* bytes counted since reset */
} BwmonState;

/* What a guest access did wrong (the glue logs it as LOG_GUEST_ERROR). */
typedef enum BwmonErr {
    BWMON_ERR_NONE,
    BWMON_ERR_UNMAPPED,         /* no register at that offset: RAZ/WI */
    BWMON_ERR_READ_ONLY,        /* write to IRQ_STATUS/ZONE_MAX: ignored */
    BWMON_ERR_WRITE_ONLY,       /* read of a command register: 0 */
    BWMON_ERR_RESERVED,         /* bits outside the register's fields */
} BwmonErr;

typedef struct Bwmon Bwmon;

/*
 * A monitor of @variant counting in units of @count_unit_bytes (0: the
 * layout's, e.g. 64 KiB for v4-sdm845; sc7280's LLCC monitor is v5 with
 * 64 KiB).  Registers at reset, time 0.
 */
Bwmon *bwmon_new(BwmonVariant variant, uint32_t count_unit_bytes);
void bwmon_free(Bwmon *m);
/* Registers and counters to reset values at time @t_ps. */
void bwmon_reset(Bwmon *m, uint64_t t_ps);
const BwmonLayout *bwmon_layout(const Bwmon *m);
uint32_t bwmon_count_unit(const Bwmon *m);

/*
 * A guest read / write of the 32-bit register at @offset of @region at
 * @t_ps.  *err (may be NULL) / the return value say what was wrong; the
 * access is still done as the hardware would (RAZ/WI, masked bits).
 */
uint32_t bwmon_read(Bwmon *m, BwmonRegion region, uint32_t offset,
                    uint64_t t_ps, BwmonErr *err);
BwmonErr bwmon_write(Bwmon *m, BwmonRegion region, uint32_t offset,
                     uint32_t value, uint64_t t_ps);

/* @bytes of watched traffic at @t_ps (counted only while ENABLE.bit0). */
void bwmon_count(Bwmon *m, uint64_t t_ps, uint64_t bytes);
/* Bring the monitor to @t_ps (the glue's timer at bwmon_next_change()). */
void bwmon_advance(Bwmon *m, uint64_t t_ps);
/* The interrupt line at the monitor's current time. */
bool bwmon_irq(const Bwmon *m);
/*
 * The earliest modeled time after which the line may differ from
 * bwmon_irq() without a register access, UINT64_MAX if it cannot: the end
 * of the window whose close would change it (the current one, or the
 * first of the empty windows after it that would).  Traffic counted later
 * may bring it earlier: ask again after bwmon_count().
 */
uint64_t bwmon_next_change(const Bwmon *m);

/* The register as the guest would read it now, without side effects. */
uint32_t bwmon_peek(const Bwmon *m, BwmonRegId id);
/* The monitor's state (VMState saves it; bwmon_post_load after loading). */
BwmonState *bwmon_state(Bwmon *m);
void bwmon_post_load(Bwmon *m);
/* Zone of a window that counted @count units, by the thresholds now. */
unsigned bwmon_zone_of(const Bwmon *m, uint32_t count);
/* Length of the sample window in picoseconds, 0 if SAMPLE_WINDOW is 0. */
uint64_t bwmon_window_ps(const Bwmon *m);

#endif
