/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * mpam-acpi-check: an independent reading of the ACPI MPAM table (Arm DEN0065)
 * and the PPTT/SRAT parts it refers to, checked against what Linux 7.3 does
 * with them.  Deliberately shares no layout code with the QEMU table builders
 * (hw/mpam): a second reading of the specification catches the first one's
 * mistakes.  Plain C, no glib, so a static aarch64 build is trivial.
 */
#ifndef MAC_H
#define MAC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum mac_sev { MAC_NOTE, MAC_WARN, MAC_ERROR };

#define MAC_MAX_FINDINGS 10000

struct mac_finding {
    enum mac_sev sev;
    const char *rule;      /* stable id, e.g. "MSC-RESERVED" */
    const char *table;     /* "MPAM", "PPTT", "SRAT" */
    uint32_t offset;       /* byte offset in that table */
    const char *source;    /* spec section or kernel behaviour */
    char msg[320];
};

/* One input table; data == NULL means "not given" (checks needing it are
 * reported as not checked). */
struct mac_table {
    const uint8_t *data;
    size_t len;
};

/* Facts extracted from the tables, printed by --json and used by tests. */
struct mac_res {
    uint32_t off;
    uint32_t identifier;
    uint8_t ris_index;
    uint8_t locator_type;
    uint64_t descriptor1;
    uint32_t descriptor2;
    uint32_t num_deps;
    int level;             /* PPTT cache level for cache locators, -1 unknown */
    uint32_t cpus_first;   /* ncpu-sized bitmap index into report->bitmaps */
    int has_cpus;
};

struct mac_msc {
    uint32_t off;
    uint16_t length;
    uint8_t interface_type;
    uint32_t identifier;
    uint64_t base_address;
    uint32_t mmio_size;
    uint32_t overflow_interrupt, overflow_interrupt_flags, overflow_interrupt_affinity;
    uint32_t error_interrupt, error_interrupt_flags, error_interrupt_affinity;
    uint32_t max_nrdy_usec;
    char hid[9];
    uint32_t uid;
    uint32_t num_resource_nodes;
    size_t res_first, res_n;   /* slice of report->res */
    int access_all;            /* accessible from all CPUs: 1, 0, -1 unknown */
};

struct mac_pptt_cache {
    uint32_t off;
    uint8_t length;
    uint32_t flags, next_level, size;
    uint8_t attributes;
    uint32_t cache_id;
    int id_valid;              /* length >= 28, flag bit 7, PPTT rev >= 3 */
};

struct mac_cpu {
    uint32_t off;              /* PPTT offset of the leaf processor node */
    uint32_t acpi_processor_id;
};

struct mac_report {
    struct mac_finding *f;
    size_t n, cap;
    size_t errors, warnings, notes;
    size_t dropped;            /* findings beyond MAC_MAX_FINDINGS: counted only */
    int unreadable;            /* input is not a table we can read: exit 2 */

    uint8_t mpam_rev, pptt_rev, srat_rev;
    int have_pptt, have_srat;
    struct mac_msc *msc;
    size_t msc_n, msc_cap;
    struct mac_res *res;
    size_t res_n, res_cap;
    struct mac_pptt_cache *pptt_cache;
    size_t pptt_cache_n;
    struct mac_cpu *cpu;
    size_t cpu_n;
    uint8_t *bitmaps;          /* res[i].cpus: cpu_n bytes each, 0/1 */
    size_t bitmaps_n, bitmaps_cap;
    int cover_incomplete;      /* CPU masks skipped (memory bound) */
};

/* Check MPAM (+ optional PPTT, SRAT).  Never reads outside the buffers.
 * Returns 0 no errors, 1 errors, 2 unreadable (also report->unreadable). */
int mac_check(const struct mac_table *mpam, const struct mac_table *pptt,
              const struct mac_table *srat, struct mac_report *r);
void mac_report_free(struct mac_report *r);
const char *mac_sev_name(enum mac_sev s);

void mac_print_text(FILE *out, const struct mac_report *r);
void mac_print_json(FILE *out, const struct mac_report *r);

#endif
