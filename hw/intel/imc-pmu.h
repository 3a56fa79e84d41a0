/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Sapphire Rapids iMC uncore PMU (docs/x86-pmu-design.md §2.3): one
 * box per DDR channel, each with four general counters, a fixed DCLK
 * counter, their controls, a box control and an overflow status, as
 * Linux's generic discovery MMIO driver and spr_uncore_imc drive them.
 * The boxes count what the memory model sees: every 64-byte transfer to
 * memory (imc_pmu_tap, a MemsysPorts.mem_tap: L3 fills, write-backs and
 * DMA), in the box of its channel (ddr_config_channel); DCLK ticks at
 * half the DDR data rate over the modeled time imc_pmu_fold is given.
 * Pure C + glib.
 */
#ifndef MEMQOS_INTEL_IMC_PMU_H
#define MEMQOS_INTEL_IMC_PMU_H

#include <glib.h>
#include <stdbool.h>
#include <stdint.h>

#include "../memsys/request.h"
#include "../ddr-qos/ddr-config.h"
#include "uncore-discovery.h"

#define IMC_PMU_COUNTERS        4
#define IMC_PMU_WIDTH           48
/* the box's layout in the discovery table (Snow Ridge's and Ice Lake's) */
extern const UncoreUnitLayout imc_pmu_layout;

/* box control (Linux's GENERIC_PMON_BOX_CTL_*) */
#define IMC_BOX_FRZ             (1u << 0)
#define IMC_BOX_RST_CTRL        (1u << 8)
#define IMC_BOX_RST_CTRS        (1u << 9)
/* counter control */
#define IMC_CTL_EN              (1u << 22)
#define IMC_EVENT_DCLK          0x01
#define IMC_EVENT_CAS_COUNT     0x05
/* status: bit i counter i, bit 4 the fixed counter */
#define IMC_STATUS_FIXED        (1u << IMC_PMU_COUNTERS)

typedef struct ImcPmu ImcPmu;

/*
 * Boxes = @ddr->channels (at least 2: with one Linux names the PMU
 * uncore_imc and the resctrl selftests find no uncore_imc_<n>), lines
 * spread over them by @ddr's interleave, DCLK at data rate / 2.  NULL with
 * *errp set for a bad configuration.
 */
ImcPmu *imc_pmu_new(const DdrConfig *ddr, GError **errp);
void imc_pmu_free(ImcPmu *p);
unsigned imc_pmu_boxes(const ImcPmu *p);

/* Power-on: every register 0, DCLK counting from @now_ps. */
void imc_pmu_reset(ImcPmu *p, uint64_t now_ps);

/*
 * Register access of box @box at @offset (within its 16 KiB): false for
 * a guest mistake (no register there, a size the register does not
 * have, reserved box control bits), which reads 0 and writes nothing.
 * 64-bit registers also take 32-bit accesses of either half; counters
 * are read-only.  Fold the time first (imc_pmu_fold).
 */
bool imc_pmu_read(ImcPmu *p, unsigned box, uint64_t offset, unsigned size,
                  uint64_t *val);
bool imc_pmu_write(ImcPmu *p, unsigned box, uint64_t offset, unsigned size,
                   uint64_t val);

/* Count the DCLK ticks up to modeled time @now_ps (ps, not before the last). */
void imc_pmu_fold(ImcPmu *p, uint64_t now_ps);

/*
 * A request reaching memory (MemsysPorts.mem_tap, @opaque the ImcPmu):
 * each 64-byte line it covers is one CAS of its channel's box, a read or
 * a write by req->kind.
 */
void imc_pmu_tap(void *opaque, const MemReq *req);

/*
 * Migration: one array of 64-bit words (every box's registers, then the
 * DCLK fold point).  imc_pmu_post_load() rejects what no guest write
 * leaves (NULL or a g_malloc'ed reason).
 */
uint64_t *imc_pmu_state(ImcPmu *p, uint32_t *len);
char *imc_pmu_post_load(ImcPmu *p);

#endif
