/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PPTT (revision 3, with cache type structures) and MPAM tables for a
 * machine with MPAM MSCs.  Linux 7.3 finds an MSC's cache by the PPTT cache
 * ID in the MPAM resource locator, which needs PPTT revision >= 3 and
 * 28-byte cache structures with the cache ID valid flag.
 */
#include "qemu/osdep.h"
#include "hw/boards.h"
#include "hw/acpi/aml-build.h"
#include "mpam-acpi-qemu.h"

/* PPTT processor hierarchy node flags (ACPI 6.5, 5.2.30.1). */
#define PPTT_PHYSICAL_PACKAGE   (1u << 0)
#define PPTT_ACPI_ID_VALID      (1u << 1)
#define PPTT_THREAD             (1u << 2)
#define PPTT_LEAF               (1u << 3)

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

static void pptt_processor_node(GArray *tbl, uint32_t flags, uint32_t parent,
                                uint32_t acpi_id, const uint32_t *priv,
                                uint32_t num_priv)
{
    build_append_int_noprefix(tbl, 0, 1);                  /* Type: processor */
    build_append_int_noprefix(tbl, 20 + 4 * num_priv, 1);  /* Length */
    build_append_int_noprefix(tbl, 0, 2);                  /* Reserved */
    build_append_int_noprefix(tbl, flags, 4);
    build_append_int_noprefix(tbl, parent, 4);
    build_append_int_noprefix(tbl, acpi_id, 4);
    build_append_int_noprefix(tbl, num_priv, 4);
    for (uint32_t i = 0; i < num_priv; i++) {
        build_append_int_noprefix(tbl, priv[i], 4);
    }
}

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
 * Per core: L1d and L1i both point at the core's L2 (next_level_of_cache)
 * and are the core node's private resources; the L2 ends its chain.  The
 * package node owns the L3 as a private resource, so walking up from a leaf
 * numbers the levels 1, 2, 3 as Linux's pptt.c expects.
 */
static void pptt_core_caches(GArray *tbl, uint32_t start,
                             const MemqosCacheTopo *topo, uint32_t core,
                             uint32_t priv[2])
{
    uint32_t l2 = pptt_cache(tbl, start, &topo->l2,
                             PPTT_ALLOC_READ_WRITE | PPTT_TYPE_UNIFIED |
                             PPTT_WRITE_BACK, 0,
                             MEMQOS_PPTT_CORE_CACHE_ID(core, MEMQOS_PPTT_L2));

    priv[0] = pptt_cache(tbl, start, &topo->l1d,
                         PPTT_ALLOC_READ_WRITE | PPTT_TYPE_DATA |
                         PPTT_WRITE_BACK, l2,
                         MEMQOS_PPTT_CORE_CACHE_ID(core, MEMQOS_PPTT_L1D));
    priv[1] = pptt_cache(tbl, start, &topo->l1i,
                         PPTT_ALLOC_READ | PPTT_TYPE_INSTR, l2,
                         MEMQOS_PPTT_CORE_CACHE_ID(core, MEMQOS_PPTT_L1I));
}

void memqos_build_pptt(GArray *table_data, BIOSLinker *linker, MachineState *ms,
                       const MemqosCacheTopo *topo,
                       const char *oem_id, const char *oem_table_id)
{
    MachineClass *mc = MACHINE_GET_CLASS(ms);
    CPUArchIdList *cpus = ms->possible_cpus;
    int64_t socket_id = -1, cluster_id = -1, core_id = -1;
    uint32_t socket_off = 0, cluster_off = 0, core_off = 0;
    uint32_t start = table_data->len;
    uint32_t core = 0;
    AcpiTable table = { .sig = "PPTT", .rev = 3,
                        .oem_id = oem_id, .oem_table_id = oem_table_id };

    acpi_table_begin(&table, table_data);

    /* possible_cpus is sorted socket, cluster, core, thread (virt does so). */
    for (int n = 0; n < cpus->len; n++) {
        const CpuInstanceProperties *p = &cpus->cpus[n].props;
        uint32_t priv[2];

        if (p->socket_id != socket_id) {
            uint32_t l3;

            socket_id = p->socket_id;
            cluster_id = -1;
            core_id = -1;
            l3 = pptt_cache(table_data, start, &topo->l3,
                            PPTT_ALLOC_READ_WRITE | PPTT_TYPE_UNIFIED |
                            PPTT_WRITE_BACK, 0,
                            MEMQOS_PPTT_L3_CACHE_ID + socket_id);
            socket_off = table_data->len - start;
            pptt_processor_node(table_data, PPTT_PHYSICAL_PACKAGE, 0,
                                socket_id, &l3, 1);
        }

        if (mc->smp_props.clusters_supported && mc->smp_props.has_clusters) {
            if (p->cluster_id != cluster_id) {
                cluster_id = p->cluster_id;
                core_id = -1;
                cluster_off = table_data->len - start;
                pptt_processor_node(table_data, 0, socket_off, cluster_id,
                                    NULL, 0);
            }
        } else {
            cluster_off = socket_off;
        }

        if (ms->smp.threads == 1) {
            pptt_core_caches(table_data, start, topo, core++, priv);
            pptt_processor_node(table_data, PPTT_ACPI_ID_VALID | PPTT_LEAF,
                                cluster_off, n, priv, 2);
        } else {
            if (p->core_id != core_id) {
                core_id = p->core_id;
                pptt_core_caches(table_data, start, topo, core++, priv);
                core_off = table_data->len - start;
                pptt_processor_node(table_data, 0, cluster_off, core_id,
                                    priv, 2);
            }
            pptt_processor_node(table_data, PPTT_ACPI_ID_VALID | PPTT_THREAD |
                                PPTT_LEAF, core_off, n, NULL, 0);
        }
    }

    acpi_table_end(linker, &table);
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
