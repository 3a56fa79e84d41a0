/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Test-side ACPI table builder for mpam-acpi-check: assembles MPAM, PPTT and
 * SRAT byte arrays field by field.  Independent of the checker's parser and of
 * QEMU's table builders, so the tests compare two separate readings of the
 * specifications' layouts.  The field values of an MSC node are given in the
 * checker's own struct mac_msc, the one it decodes them into.
 */
#ifndef TBLBUILD_H
#define TBLBUILD_H

#include <stddef.h>
#include <stdint.h>

#include "../mac.h"

struct tb {
    uint8_t *p;
    size_t len, cap;
};

void tb_init(struct tb *t, const char *sig, uint8_t rev);
void tb_free(struct tb *t);
void tb_u8(struct tb *t, uint8_t v);
void tb_u16(struct tb *t, uint16_t v);
void tb_u32(struct tb *t, uint32_t v);
void tb_u64(struct tb *t, uint64_t v);
void tb_set8(struct tb *t, size_t off, uint8_t v);
void tb_set16(struct tb *t, size_t off, uint16_t v);
void tb_set32(struct tb *t, size_t off, uint32_t v);
void tb_set64(struct tb *t, size_t off, uint64_t v);
uint32_t tb_get32(const struct tb *t, size_t off);
/* Header length = current size, checksum fixed up. */
void tb_finish(struct tb *t);

/* MPAM MSC node (DEN0065 2.0 layout) with the fields of m from interface_type
 * to uid (hid "" = none); its length and resource count start at 72 and 0,
 * and grow with each tb_mpam_res. */
size_t tb_mpam_msc(struct tb *t, const struct mac_msc *m);
size_t tb_mpam_res(struct tb *t, size_t msc, uint32_t ident, uint8_t ris, uint8_t locator_type,
                   uint64_t descriptor1, uint32_t descriptor2, uint32_t num_deps);

/* PPTT structures; return their offsets. */
size_t tb_pptt_cache(struct tb *t, uint32_t flags, uint32_t next, uint32_t size, uint32_t sets,
                     uint8_t assoc, uint8_t attr, uint16_t line, uint32_t cache_id);
size_t tb_pptt_proc(struct tb *t, uint32_t flags, uint32_t parent, uint32_t acpi_id,
                    uint32_t npriv, const uint32_t *priv);

/* SRAT */
void tb_srat_init(struct tb *t, uint8_t rev);
size_t tb_srat_mem(struct tb *t, uint32_t pxm, uint64_t base, uint64_t len, uint32_t flags);
size_t tb_srat_gicc(struct tb *t, uint32_t pxm, uint32_t uid, uint32_t flags);

/*
 * The reference platform the tests mutate: 4 CPUs (ACPI IDs 0-3) in one
 * package (ID 100); per CPU L1D/L1I (IDs 10+c / 14+c) -> private L2 (20+c);
 * one L3 (ID 30) on the package.  MSC 0 = L3 MSC (cache ID 30), MSC 1 =
 * memory MSC (proximity domain 0).  One SRAT memory node, 4 GICC entries.
 */
#define PLAT_NCPU 4
struct plat {
    struct tb mpam, pptt, srat;
    size_t msc[2], res[2];
    size_t l3, l2[PLAT_NCPU], l1d[PLAT_NCPU], l1i[PLAT_NCPU], pkg, cpu[PLAT_NCPU];
    size_t srat_mem;
};
/* knobs that change structure (not just bytes) */
struct plat_opts {
    uint8_t pptt_rev;       /* default 3 */
    int l3_on_cpu;          /* 1: L3 only under CPUs 0-1 (split package) */
    int extra_l2_msc;       /* 1: an L2 MSC for CPU 0's L2 only */
    int second_node;        /* 1: SRAT has two memory nodes */
    int l4;                 /* 1: an L4 cache above the L3 */
};
void plat_build(struct plat *p, const struct plat_opts *o);
void plat_finish(struct plat *p);
void plat_free(struct plat *p);

/* Fuzzer input: u8 which (bit0 PPTT, bit1 SRAT), u16 mpam_len, u16 pptt_len, data. */
uint8_t *tb_pack_fuzz(const struct tb *mpam, const struct tb *pptt, const struct tb *srat, size_t *len);

#endif
