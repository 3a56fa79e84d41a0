/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PPTT cache type structures (through the build_pptt_caches() hook of
 * QEMU's own PPTT builder) and the MPAM table for a machine with MPAM MSCs.
 * Linux 7.3 finds an MSC's cache by the PPTT cache ID in the MPAM resource
 * locator, which needs PPTT revision >= 3 and 28-byte cache structures with
 * the cache ID valid flag.
 */
#include "qemu/osdep.h"
#include "hw/acpi/aml-build.h"
#include "mpam-acpi-qemu.h"

/* PPTT cache type structure flags: everything we describe is valid. */
#define PPTT_CACHE_SIZE_VALID   (1u << 0)
#define PPTT_CACHE_SETS_VALID   (1u << 1)
#define PPTT_CACHE_ASSOC_VALID  (1u << 2)
#define PPTT_CACHE_ALLOC_VALID  (1u << 3)
#define PPTT_CACHE_TYPE_VALID   (1u << 4)
#define PPTT_CACHE_WP_VALID     (1u << 5)
#define PPTT_CACHE_LINE_VALID   (1u << 6)
#define PPTT_CACHE_ID_VALID     (1u << 7)
#define PPTT_CACHE_ALL_VALID    0xffu

/* Cache attributes: [1:0] allocation, [3:2] type, [4] write policy. */
#define PPTT_ALLOC_READ         0x0
#define PPTT_ALLOC_READ_WRITE   0x3
#define PPTT_TYPE_DATA          (0x0 << 2)
#define PPTT_TYPE_INSTR         (0x1 << 2)
#define PPTT_TYPE_UNIFIED       (0x2 << 2)
#define PPTT_WRITE_BACK         (0x0 << 4)

#define PPTT_CACHE_V1_LEN       28
#define MPAM_MSC_NODE_LEN       72
#define MPAM_RESOURCE_NODE_LEN  24

/* Appends a cache type structure (v1, 28 bytes); returns its table offset. */
static uint32_t pptt_cache(GArray *tbl, uint32_t table_start,
                           const MemqosCacheGeom *g, uint8_t attributes,
                           uint32_t next_level, uint32_t cache_id)
{
    uint32_t off = tbl->len - table_start;

    build_append_int_noprefix(tbl, 1, 1);                  /* Type: cache */
    build_append_int_noprefix(tbl, PPTT_CACHE_V1_LEN, 1);  /* Length */
    build_append_int_noprefix(tbl, 0, 2);                  /* Reserved */
    build_append_int_noprefix(tbl, PPTT_CACHE_ALL_VALID, 4);
    build_append_int_noprefix(tbl, next_level, 4);
    build_append_int_noprefix(tbl, g->size, 4);
    build_append_int_noprefix(tbl, g->size / (g->ways * g->line), 4); /* sets */
    build_append_int_noprefix(tbl, g->ways, 1);
    build_append_int_noprefix(tbl, attributes, 1);
    build_append_int_noprefix(tbl, g->line, 2);
    build_append_int_noprefix(tbl, cache_id, 4);
    return off;
}

/*
 * build_pptt_caches() hook (hw/acpi/aml-build.c), @opaque a MemqosCacheTopo.
 * Per core: L1d and L1i both point at the core's L2 (next_level_of_cache)
 * and are the core node's private resources; the L2 ends its chain.  The
 * package node owns the L3 as a private resource, so walking up from a leaf
 * numbers the levels 1, 2, 3 as Linux's pptt.c expects.
 */
unsigned memqos_pptt_caches(GArray *tbl, uint32_t start, PPTTCacheLevel level,
                            uint32_t id, uint32_t *priv, void *opaque)
{
    const MemqosCacheTopo *topo = opaque;
    uint32_t l2;

    if (level == PPTT_CACHES_PACKAGE) {
        priv[0] = pptt_cache(tbl, start, &topo->l3,
                             PPTT_ALLOC_READ_WRITE | PPTT_TYPE_UNIFIED |
                             PPTT_WRITE_BACK, 0, MEMQOS_PPTT_L3_CACHE_ID + id);
        return 1;
    }
    l2 = pptt_cache(tbl, start, &topo->l2,
                    PPTT_ALLOC_READ_WRITE | PPTT_TYPE_UNIFIED |
                    PPTT_WRITE_BACK, 0,
                    MEMQOS_PPTT_CORE_CACHE_ID(id, MEMQOS_PPTT_L2));
    priv[0] = pptt_cache(tbl, start, &topo->l1d,
                         PPTT_ALLOC_READ_WRITE | PPTT_TYPE_DATA |
                         PPTT_WRITE_BACK, l2,
                         MEMQOS_PPTT_CORE_CACHE_ID(id, MEMQOS_PPTT_L1D));
    priv[1] = pptt_cache(tbl, start, &topo->l1i,
                         PPTT_ALLOC_READ | PPTT_TYPE_INSTR, l2,
                         MEMQOS_PPTT_CORE_CACHE_ID(id, MEMQOS_PPTT_L1I));
    return 2;
}

/*
 * MPAM table, ACPI for MPAM 2.0 layout (the one Linux 7.3 parses for every
 * revision >= 1).  Interrupt flags 0: wired, level triggered, no affinity
 * (an SPI routed to all CPUs; Linux rejects container affinity).  No linked
 * device: every CPU can reach every MSC, which Linux needs for an SPI error
 * interrupt.
 */
void memqos_build_mpam(GArray *table_data, BIOSLinker *linker,
                       const MemqosMpamMscDesc *msc, int num_msc,
                       const char *oem_id, const char *oem_table_id)
{
    AcpiTable table = { .sig = "MPAM", .rev = 1,
                        .oem_id = oem_id, .oem_table_id = oem_table_id };

    acpi_table_begin(&table, table_data);

    for (int i = 0; i < num_msc; i++) {
        const MemqosMpamMscDesc *m = &msc[i];

        build_append_int_noprefix(table_data,
                                  MPAM_MSC_NODE_LEN + MPAM_RESOURCE_NODE_LEN, 2);
        build_append_int_noprefix(table_data, 0, 1);   /* Interface: MMIO */
        build_append_int_noprefix(table_data, 0, 1);   /* Reserved */
        build_append_int_noprefix(table_data, m->identifier, 4);
        build_append_int_noprefix(table_data, m->base, 8);
        build_append_int_noprefix(table_data, m->mmio_size, 4);
        build_append_int_noprefix(table_data, m->overflow_gsi, 4);
        build_append_int_noprefix(table_data, 0, 4);   /* Overflow flags */
        build_append_int_noprefix(table_data, 0, 4);   /* Reserved1 */
        build_append_int_noprefix(table_data, 0, 4);   /* Overflow affinity */
        build_append_int_noprefix(table_data, m->error_gsi, 4);
        build_append_int_noprefix(table_data, 0, 4);   /* Error flags */
        build_append_int_noprefix(table_data, 0, 4);   /* Reserved2 */
        build_append_int_noprefix(table_data, 0, 4);   /* Error affinity */
        build_append_int_noprefix(table_data, m->max_nrdy_usec, 4);
        build_append_int_noprefix(table_data, 0, 8);   /* Linked device HID */
        build_append_int_noprefix(table_data, 0, 4);   /* Linked device UID */
        build_append_int_noprefix(table_data, 1, 4);   /* Resource nodes */

        /* Resource node: RIS 0 */
        build_append_int_noprefix(table_data, 0, 4);   /* Identifier */
        build_append_int_noprefix(table_data, 0, 1);   /* RIS index */
        build_append_int_noprefix(table_data, 0, 2);   /* Reserved1 */
        build_append_int_noprefix(table_data, m->locator_type, 1);
        build_append_int_noprefix(table_data, m->locator_descriptor1, 8);
        build_append_int_noprefix(table_data, 0, 4);   /* Descriptor2 */
        build_append_int_noprefix(table_data, 0, 4);   /* Functional deps */
    }

    acpi_table_end(linker, &table);
}
