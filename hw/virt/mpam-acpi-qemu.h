/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ACPI tables for a machine with MPAM: PPTT revision 3 with cache type
 * structures (the MPAM table names caches by their PPTT cache ID) and the
 * MPAM table itself (ACPI for MPAM 2.0, DEN0065).  The board describes its
 * caches and MSCs; these builders only serialise them.  QEMU's build_pptt
 * walks the CPU topology and calls memqos_pptt_caches for each node.
 */
#ifndef MEMQOS_MPAM_ACPI_QEMU_H
#define MEMQOS_MPAM_ACPI_QEMU_H

#include "hw/acpi/aml-build.h"
#include "../memsys/topology.h"

/*
 * PPTT cache IDs.  The single L3 (shared by every CPU of the one package)
 * has ID 0, so that resctrl's domain is "L3:0".  Per-core caches have
 * ID (core + 1) << 4 | kind, unique across levels as Linux requires.
 */
#define MEMQOS_PPTT_L3_CACHE_ID 0
#define MEMQOS_PPTT_L1D 1
#define MEMQOS_PPTT_L1I 2
#define MEMQOS_PPTT_L2  3
#define MEMQOS_PPTT_CORE_CACHE_ID(core, kind) ((((uint32_t)(core) + 1) << 4) | (kind))

/* MPAM locator types (ACPI for MPAM, table "Resource locator types"). */
#define MEMQOS_MPAM_LOCATOR_CACHE  0
#define MEMQOS_MPAM_LOCATOR_MEMORY 1

/* One MSC with one resource instance (RIS 0). */
typedef struct MemqosMpamMscDesc {
    uint32_t identifier;
    uint64_t base;
    uint32_t mmio_size;
    uint32_t overflow_gsi;     /* 0: none */
    uint32_t error_gsi;        /* 0: none */
    uint32_t max_nrdy_usec;
    uint8_t locator_type;
    uint64_t locator_descriptor1;  /* PPTT cache ID or proximity domain */
} MemqosMpamMscDesc;

/*
 * PPTTCacheHook.caches for build_pptt_caches() with a MemqosCacheTopo as
 * @opaque: the L3 for a package, L2/L1d/L1i for a core.
 */
unsigned memqos_pptt_caches(GArray *tbl, uint32_t start, PPTTCacheLevel level,
                            uint32_t id, uint32_t *priv, void *opaque);

void memqos_build_mpam(GArray *table_data, BIOSLinker *linker,
                       const MemqosMpamMscDesc *msc, int num_msc,
                       const char *oem_id, const char *oem_table_id);

#endif
