// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Unit tests for mpam-acpi-check: every rule is shown failing on a table
 * built here (a mutation of the reference platform in tblbuild.c) and
 * passing on the reference platform itself, plus the decoded fields.
 */
#include "cunit-run.h"
#include <stdlib.h>
#include <string.h>

#include "../mac.h"
#include "tblbuild.h"

enum { GIVE_PPTT = 1, GIVE_SRAT = 2, GIVE_ALL = 3 };

static int run(struct plat *p, int give, struct mac_report *r)
{
    struct mac_table m = { p->mpam.p, p->mpam.len };
    struct mac_table t = { (give & GIVE_PPTT) ? p->pptt.p : NULL, p->pptt.len };
    struct mac_table s = { (give & GIVE_SRAT) ? p->srat.p : NULL, p->srat.len };
    return mac_check(&m, &t, &s, r);
}

static size_t count(const struct mac_report *r, const char *rule, enum mac_sev sev)
{
    size_t n = 0;
    for (size_t i = 0; i < r->n; i++) {
        n += strcmp(r->f[i].rule, rule) == 0 && r->f[i].sev == sev;
    }
    return n;
}

/* ------------------------------------------------------------- mutations */

#define MSC0 (p->msc[0])
#define MSC1 (p->msc[1])
#define RES0 (p->res[0])

static void m_truncate(struct plat *p) { p->mpam.len = 20; }
static void m_signature(struct plat *p) { p->mpam.p[0] = 'X'; }
static void m_len_long(struct plat *p) { tb_set32(&p->mpam, 4, (uint32_t)p->mpam.len + 100); }
static void m_len_short(struct plat *p) { tb_set32(&p->mpam, 4, 10); }
static void m_trailing(struct plat *p) { tb_u32(&p->mpam, 0xdeadbeef); }
static void m_checksum(struct plat *p) { p->mpam.p[9]++; }
static void m_rev0(struct plat *p) { p->mpam.p[8] = 0; }
static void m_rev2(struct plat *p) { p->mpam.p[8] = 2; }
static void m_empty(struct plat *p) { p->mpam.len = 36; }
static void m_msc_len_small(struct plat *p) { tb_set16(&p->mpam, MSC1, 40); }
static void m_msc_len_zero(struct plat *p) { tb_set16(&p->mpam, MSC1, 0); }
static void m_msc_len_over(struct plat *p) { tb_set16(&p->mpam, MSC1, 0xffff); }
static void m_msc_nres(struct plat *p) { tb_set32(&p->mpam, MSC0 + 68, 2); }
static void m_tail_short(struct plat *p) { for (int i = 0; i < 10; i++) tb_u8(&p->mpam, 0); }
static void m_rsv(struct plat *p) { p->mpam.p[MSC0 + 3] = 1; }
static void m_rsv1(struct plat *p) { tb_set32(&p->mpam, MSC1 + 28, 1); }
static void m_rsv2(struct plat *p) { tb_set32(&p->mpam, MSC1 + 44, 1); }
static void m_disabled(struct plat *p) { tb_set32(&p->mpam, MSC1 + 16, 0); }
static void m_pcc(struct plat *p) { p->mpam.p[MSC0 + 2] = 0x0a; }
static void m_iface5(struct plat *p) { p->mpam.p[MSC0 + 2] = 0x05; }
static void m_base_unaligned(struct plat *p) { tb_set64(&p->mpam, MSC0 + 8, 0x90000100); }
static void m_base_wrap(struct plat *p) { tb_set64(&p->mpam, MSC0 + 8, 0xfffffffffffff000ull); }
static void m_mmio_tiny(struct plat *p) { tb_set32(&p->mpam, MSC0 + 16, 0x100); }
static void m_mmio_small(struct plat *p) { tb_set32(&p->mpam, MSC0 + 16, 0x800); }
static void m_mmio_odd(struct plat *p) { tb_set32(&p->mpam, MSC0 + 16, 0x4100); }
static void m_nrdy0(struct plat *p) { tb_set32(&p->mpam, MSC0 + 52, 0); }
static void set_hid(struct plat *p, size_t msc, const char *hid, uint32_t uid)
{
    for (int i = 0; i < 8; i++) {
        p->mpam.p[msc + 56 + i] = (uint8_t)hid[i];
    }
    tb_set32(&p->mpam, msc + 64, uid);
}
static void m_link_bad(struct plat *p) { set_hid(p, MSC0, "ACPI0010", 999); }
static void m_link_leaf(struct plat *p) { set_hid(p, MSC0, "ACPI0010", 1); }
static void m_link_pkg(struct plat *p) { set_hid(p, MSC0, "ACPI0010", 100); }
static void m_link_cluster(struct plat *p) { set_hid(p, MSC0, "ACPI0010", 200); }
static void m_link_other(struct plat *p) { set_hid(p, MSC0, "ARMH0001", 3); }
static void m_link_uid_only(struct plat *p) { tb_set32(&p->mpam, MSC0 + 64, 3); }
static void m_link_binary(struct plat *p) { p->mpam.p[MSC0 + 56] = 1; }
static void m_id_dup(struct plat *p) { tb_set32(&p->mpam, MSC1 + 4, 0); }
static void m_overlap(struct plat *p) { tb_set64(&p->mpam, MSC1 + 8, 0x90002000); }
static void m_ovf_flags_noirq(struct plat *p) { tb_set32(&p->mpam, MSC0 + 24, 1); }
static void m_err_flags_rsv(struct plat *p) { tb_set32(&p->mpam, MSC0 + 40, 0x100); }
static void m_err_partitioned(struct plat *p) { tb_set32(&p->mpam, MSC0 + 40, 0x18); }
static void m_err_type(struct plat *p) { tb_set32(&p->mpam, MSC0 + 40, 0x2); }
static void m_err_sgi(struct plat *p) { tb_set32(&p->mpam, MSC0 + 36, 5); }
static void m_err_ppi_shared(struct plat *p)
{
    tb_set32(&p->mpam, MSC0 + 36, 23);
    tb_set32(&p->mpam, MSC1 + 36, 23);
}
static void m_err_ppi_distinct(struct plat *p)
{
    tb_set32(&p->mpam, MSC0 + 36, 23);
    tb_set32(&p->mpam, MSC1 + 36, 24);
}
static void m_err_spi_trigger(struct plat *p)
{
    tb_set32(&p->mpam, MSC1 + 36, 64);
    tb_set32(&p->mpam, MSC1 + 40, 1);
}
static void m_err_spi_shared_ok(struct plat *p) { tb_set32(&p->mpam, MSC1 + 36, 64); }
static void m_deps(struct plat *p) { tb_set32(&p->mpam, RES0 + 20, 1000); }
static void m_deps_overhang(struct plat *p) { tb_set32(&p->mpam, p->res[1] + 20, 3); }
static void m_res_rsv(struct plat *p) { p->mpam.p[RES0 + 5] = 1; }
static void m_ris17(struct plat *p) { p->mpam.p[RES0 + 4] = 17; }
static void m_ris16(struct plat *p) { p->mpam.p[RES0 + 4] = 16; }
/* Replace the MPAM table by one holding a single MSC without resources;
 * returns the MSC's offset. */
static size_t one_msc(struct plat *p)
{
    tb_free(&p->mpam);
    tb_init(&p->mpam, "MPAM", 1);
    struct mac_msc m = { .identifier = 0, .base_address = 0x90000000, .mmio_size = 0x4000, .max_nrdy_usec = 10 };
    return tb_mpam_msc(&p->mpam, &m);
}
static void m_ris_dup(struct plat *p)
{
    /* two RIS 0 */
    size_t x = one_msc(p);
    tb_mpam_res(&p->mpam, x, 0, 0, 0, 30, 0, 0);
    tb_mpam_res(&p->mpam, x, 1, 0, 0, 30, 0, 0);
}
static void m_ris_two_ok(struct plat *p)
{
    size_t x = one_msc(p);
    tb_mpam_res(&p->mpam, x, 0, 0, 0, 30, 0, 2);
    tb_mpam_res(&p->mpam, x, 1, 1, 1, 0, 0, 0);
}
static void m_cache_missing(struct plat *p) { tb_set64(&p->mpam, RES0 + 8, 99); }
static void m_cache_offset(struct plat *p) { tb_set64(&p->mpam, RES0 + 8, p->l3); }
static void m_cache_noflag(struct plat *p) { tb_set32(&p->pptt, p->l3 + 4, 0x7f); }
static void m_cache_64(struct plat *p) { tb_set64(&p->mpam, RES0 + 8, 30 | (1ull << 32)); }
static void m_cache_unreachable(struct plat *p)
{
    /* the L3 (ID 30) stays in the table, but the package now lists CPU 0's
     * L2 instead, so no CPU reaches it */
    tb_set32(&p->pptt, p->pkg + 20, (uint32_t)p->l2[0]);
}
static void m_loc_rsv(struct plat *p) { tb_set32(&p->mpam, RES0 + 16, 5); }
static void m_pxm_missing(struct plat *p) { tb_set64(&p->mpam, p->res[1] + 8, 7); }
static void m_loc_smmu(struct plat *p) { p->mpam.p[RES0 + 7] = 2; }
static void m_loc_undefined(struct plat *p) { p->mpam.p[RES0 + 7] = 0x40; }
static void m_pptt_rev2(struct plat *p) { p->pptt.p[8] = 2; }
static void m_pptt_zero(struct plat *p) { p->pptt.p[p->cpu[3] + 1] = 0; }
static void m_pptt_over(struct plat *p) { p->pptt.p[p->cpu[3] + 1] = 200; }
static void m_pptt_short_cache(struct plat *p)
{
    tb_u8(&p->pptt, 1);
    tb_u8(&p->pptt, 24);
    tb_u16(&p->pptt, 0);
    tb_u32(&p->pptt, 0x80);
    for (int i = 0; i < 4; i++) tb_u32(&p->pptt, 0);
}
static void m_pptt_tiny_cache(struct plat *p)
{
    tb_u8(&p->pptt, 1);
    tb_u8(&p->pptt, 8);
    tb_u16(&p->pptt, 0);
    tb_u32(&p->pptt, 0);
}
static void m_pptt_proc_len(struct plat *p) { tb_set32(&p->pptt, p->cpu[3] + 16, 3); }
static void m_pptt_leaf(struct plat *p) { tb_set32(&p->pptt, p->cpu[3] + 4, 0x2); }
static void m_pptt_all_noleaf(struct plat *p)
{
    for (int c = 0; c < PLAT_NCPU; c++) tb_set32(&p->pptt, p->cpu[c] + 4, 0x2);
}
static void m_pptt_iddup(struct plat *p) { tb_set32(&p->pptt, p->l2[1] + 24, 20); }
static void m_pptt_badparent(struct plat *p) { tb_set32(&p->pptt, p->cpu[0] + 8, 7); }
static void m_pptt_badpriv(struct plat *p) { tb_set32(&p->pptt, p->cpu[0] + 20, 0x10000); }
static void m_pptt_badnext(struct plat *p) { tb_set32(&p->pptt, p->l1d[0] + 8, (uint32_t)p->pkg); }
static void m_pptt_parent_loop(struct plat *p) { tb_set32(&p->pptt, p->pkg + 8, (uint32_t)p->cpu[0]); }
static void m_pptt_cache_loop(struct plat *p) { tb_set32(&p->pptt, p->l2[0] + 8, (uint32_t)p->l1d[0]); }
static void m_pptt_stray(struct plat *p) { tb_u8(&p->pptt, 0); }
static void m_msc_extra(struct plat *p)
{
    tb_u32(&p->mpam, 0);
    tb_set16(&p->mpam, MSC1, (uint16_t)(p->mpam.len - MSC1));
}
static void m_mem_rsv(struct plat *p) { tb_set32(&p->mpam, p->res[1] + 16, 5); }
static void m_pptt_checksum(struct plat *p) { p->pptt.p[9]++; }
static void m_pptt_sig(struct plat *p) { p->pptt.p[0] = 'X'; }
static void m_srat_len(struct plat *p) { tb_set32(&p->srat, 4, 20); }
static void m_srat_zero(struct plat *p) { p->srat.p[p->srat_mem + 1] = 0; }
static void m_srat_short(struct plat *p) { p->srat.p[p->srat_mem + 1] = 30; }
static void m_l1_msc(struct plat *p) { tb_set64(&p->mpam, RES0 + 8, 10); }
static void m_l3_nosize(struct plat *p) { tb_set32(&p->pptt, p->l3 + 4, 0xfe); }
static void m_nothing(struct plat *p)
{
    p->mpam.p[RES0 + 7] = 2;
    tb_set32(&p->mpam, MSC1 + 16, 0);
}

/* ----------------------------------------------------------------- cases */

struct tcase {
    const char *rule;
    enum mac_sev sev;
    void (*mut)(struct plat *);
    struct plat_opts opts;
    int give;          /* tables given; 0 = all */
    int refinish;      /* 1: recompute length + checksum after the mutation */
    int rc;            /* expected exit status */
};

#define O3 { .pptt_rev = 3 }
static const struct tcase cases[] = {
    { "HDR-SHORT", MAC_ERROR, m_truncate, O3, 0, 0, 2 },
    { "HDR-SIGNATURE", MAC_ERROR, m_signature, O3, 0, 0, 2 },
    { "HDR-LENGTH", MAC_ERROR, m_len_long, O3, 0, 0, 1 },
    { "HDR-LENGTH", MAC_ERROR, m_len_short, O3, 0, 0, 1 },
    { "HDR-CHECKSUM", MAC_ERROR, m_pptt_checksum, O3, 0, 0, 1 },
    { "HDR-SIGNATURE", MAC_ERROR, m_pptt_sig, O3, 0, 0, 2 },
    { "HDR-LENGTH", MAC_ERROR, m_srat_len, O3, 0, 0, 1 },
    { "HDR-TRAILING", MAC_NOTE, m_trailing, O3, 0, 0, 0 },
    { "HDR-CHECKSUM", MAC_ERROR, m_checksum, O3, 0, 0, 1 },
    { "MPAM-REVISION", MAC_ERROR, m_rev0, O3, 0, 1, 1 },
    { "MPAM-REVISION", MAC_NOTE, m_rev2, O3, 0, 1, 0 },
    { "MPAM-EMPTY", MAC_ERROR, m_empty, O3, 0, 1, 1 },
    { "MSC-LENGTH", MAC_ERROR, m_msc_len_small, O3, 0, 1, 1 },
    { "MSC-LENGTH", MAC_ERROR, m_msc_len_zero, O3, 0, 1, 1 },
    { "MSC-LENGTH", MAC_ERROR, m_msc_len_over, O3, 0, 1, 1 },
    { "MSC-LENGTH", MAC_ERROR, m_msc_nres, O3, 0, 1, 1 },
    { "MSC-LENGTH", MAC_ERROR, m_tail_short, O3, 0, 1, 1 },
    { "MSC-LENGTH", MAC_NOTE, m_msc_extra, O3, 0, 1, 0 },
    { "MSC-RESERVED", MAC_ERROR, m_rsv, O3, 0, 1, 1 },
    { "MSC-RESERVED", MAC_ERROR, m_rsv1, O3, 0, 1, 1 },
    { "MSC-RESERVED", MAC_ERROR, m_rsv2, O3, 0, 1, 1 },
    { "MSC-DISABLED", MAC_NOTE, m_disabled, O3, 0, 1, 0 },
    { "MSC-INTERFACE", MAC_ERROR, m_pcc, O3, 0, 1, 1 },
    { "MSC-INTERFACE", MAC_ERROR, m_iface5, O3, 0, 1, 1 },
    { "MSC-BASE", MAC_NOTE, m_base_unaligned, O3, 0, 1, 0 },
    { "MSC-BASE", MAC_ERROR, m_base_wrap, O3, 0, 1, 1 },
    { "MSC-MMIO-SIZE", MAC_ERROR, m_mmio_tiny, O3, 0, 1, 1 },
    { "MSC-MMIO-SIZE", MAC_WARN, m_mmio_small, O3, 0, 1, 0 },
    { "MSC-MMIO-SIZE", MAC_NOTE, m_mmio_odd, O3, 0, 1, 0 },
    { "MSC-NRDY", MAC_NOTE, m_nrdy0, O3, 0, 1, 0 },
    { "MSC-LINK", MAC_ERROR, m_link_bad, O3, 0, 1, 1 },
    { "MSC-LINK", MAC_ERROR, m_link_leaf, O3, 0, 1, 1 },
    { "MSC-LINK", MAC_NOTE, m_link_other, O3, 0, 1, 0 },
    { "MSC-LINK", MAC_NOTE, m_link_uid_only, O3, 0, 1, 0 },
    { "MSC-LINK", MAC_NOTE, m_link_binary, O3, 0, 1, 0 },
    { "MSC-LINK-UNCHECKED", MAC_NOTE, m_link_pkg, O3, GIVE_SRAT, 1, 0 },
    { "MSC-ID-DUPLICATE", MAC_ERROR, m_id_dup, O3, 0, 1, 1 },
    { "MSC-OVERLAP", MAC_ERROR, m_overlap, O3, 0, 1, 1 },
    { "IRQ-FLAGS", MAC_NOTE, m_ovf_flags_noirq, O3, 0, 1, 0 },
    { "IRQ-FLAGS", MAC_NOTE, m_err_flags_rsv, O3, 0, 1, 0 },
    { "IRQ-PARTITIONED", MAC_NOTE, m_err_partitioned, O3, 0, 1, 0 },
    { "IRQ-TYPE", MAC_NOTE, m_err_type, O3, 0, 1, 0 },
    { "IRQ-RANGE", MAC_NOTE, m_err_sgi, O3, 0, 1, 0 },
    { "IRQ-ERROR-SPI", MAC_ERROR, m_link_cluster, { .pptt_rev = 3, .l3_on_cpu = 1 }, 0, 1, 1 },
    { "IRQ-ERROR-SPI-UNCHECKED", MAC_NOTE, m_link_pkg, O3, GIVE_SRAT, 1, 0 },
    { "IRQ-ERROR-PPI-SHARED", MAC_ERROR, m_err_ppi_shared, O3, 0, 1, 1 },
    { "IRQ-ERROR-SPI-TRIGGER", MAC_ERROR, m_err_spi_trigger, O3, 0, 1, 1 },
    { "RES-DEPS", MAC_ERROR, m_deps, O3, 0, 1, 1 },
    { "MSC-LENGTH", MAC_NOTE, m_deps_overhang, O3, 0, 1, 0 },
    { "RES-RESERVED", MAC_NOTE, m_res_rsv, O3, 0, 1, 0 },
    { "RIS-INDEX", MAC_ERROR, m_ris17, O3, 0, 1, 1 },
    { "RIS-INDEX", MAC_NOTE, m_ris16, O3, 0, 1, 0 },
    { "RIS-DUPLICATE", MAC_ERROR, m_ris_dup, O3, 0, 1, 1 },
    { "LOC-CACHE", MAC_ERROR, m_cache_missing, O3, 0, 1, 1 },
    { "LOC-CACHE", MAC_ERROR, m_cache_offset, O3, 0, 1, 1 },
    { "LOC-CACHE", MAC_ERROR, m_cache_noflag, O3, 0, 1, 1 },
    { "LOC-CACHE", MAC_ERROR, m_cache_64, O3, 0, 1, 1 },
    { "LOC-CACHE", MAC_ERROR, m_cache_unreachable, O3, 0, 1, 1 },
    { "LOC-CACHE", MAC_ERROR, NULL, { .pptt_rev = 2 }, 0, 1, 1 },
    { "LOC-RESERVED", MAC_NOTE, m_loc_rsv, O3, 0, 1, 0 },
    { "LOC-RESERVED", MAC_NOTE, m_mem_rsv, O3, 0, 1, 0 },
    { "LOC-CACHE-UNCHECKED", MAC_NOTE, NULL, O3, GIVE_SRAT, 1, 0 },
    { "LOC-MEMORY", MAC_WARN, m_pxm_missing, O3, 0, 1, 0 },
    { "LOC-MEMORY-UNCHECKED", MAC_NOTE, NULL, O3, GIVE_PPTT, 1, 0 },
    { "LOC-IGNORED", MAC_NOTE, m_loc_smmu, O3, 0, 1, 0 },
    { "LOC-IGNORED", MAC_NOTE, m_loc_undefined, O3, 0, 1, 0 },
    { "PPTT-REVISION", MAC_ERROR, m_pptt_rev2, O3, 0, 1, 1 },
    { "PPTT-SUBTABLE", MAC_ERROR, m_pptt_zero, O3, 0, 1, 1 },
    { "PPTT-SUBTABLE", MAC_ERROR, m_pptt_over, O3, 0, 1, 1 },
    { "PPTT-SUBTABLE", MAC_NOTE, m_pptt_stray, O3, 0, 1, 0 },
    { "PPTT-CACHE", MAC_ERROR, m_pptt_short_cache, O3, 0, 1, 1 },
    { "PPTT-CACHE", MAC_ERROR, m_pptt_tiny_cache, O3, 0, 1, 1 },
    { "PPTT-PROCESSOR", MAC_ERROR, m_pptt_proc_len, O3, 0, 1, 1 },
    { "PPTT-LEAF-FLAG", MAC_WARN, m_pptt_leaf, O3, 0, 1, 0 },
    { "PPTT-CACHE-ID-DUP", MAC_WARN, m_pptt_iddup, O3, 0, 1, 0 },
    { "PPTT-REFERENCE", MAC_ERROR, m_pptt_badparent, O3, 0, 1, 1 },
    { "PPTT-REFERENCE", MAC_ERROR, m_pptt_badpriv, O3, 0, 1, 1 },
    { "PPTT-REFERENCE", MAC_ERROR, m_pptt_badnext, O3, 0, 1, 1 },
    { "PPTT-LOOP", MAC_ERROR, m_pptt_parent_loop, O3, 0, 1, 1 },
    { "PPTT-LOOP", MAC_ERROR, m_pptt_cache_loop, O3, 0, 1, 1 },
    { "PPTT-NO-CPUS", MAC_ERROR, m_pptt_all_noleaf, O3, 0, 1, 1 },
    { "SRAT-SUBTABLE", MAC_ERROR, m_srat_zero, O3, 0, 1, 1 },
    { "SRAT-SUBTABLE", MAC_ERROR, m_srat_short, O3, 0, 1, 1 },
    { "RESCTRL-UNCHECKED", MAC_NOTE, NULL, O3, GIVE_SRAT, 1, 0 },
    { "RESCTRL-LEVEL", MAC_NOTE, m_l1_msc, O3, 0, 1, 0 },
    { "RESCTRL-L3", MAC_WARN, NULL, { .pptt_rev = 3, .l3_on_cpu = 1 }, 0, 1, 0 },
    { "RESCTRL-L2", MAC_WARN, NULL, { .pptt_rev = 3, .extra_l2_msc = 1 }, 0, 1, 0 },
    { "RESCTRL-L3-SIZE", MAC_WARN, m_l3_nosize, O3, 0, 1, 0 },
    { "RESCTRL-MB", MAC_WARN, NULL, { .pptt_rev = 3, .l3_on_cpu = 1 }, 0, 1, 0 },
    { "RESCTRL-MB", MAC_NOTE, NULL, { .pptt_rev = 3, .second_node = 1 }, 0, 1, 0 },
    { "RESCTRL-NONE", MAC_ERROR, m_nothing, O3, 0, 1, 1 },
};
#define NCASES (sizeof(cases) / sizeof(cases[0]))

/* Each rule fails on its broken table, with the expected exit status. */
static void test_rules_fail(void)
{
    for (size_t i = 0; i < NCASES; i++) {
        const struct tcase *c = &cases[i];
        struct plat p;
        struct mac_report r;
        plat_build(&p, &c->opts);
        if (c->mut) {
            c->mut(&p);
        }
        if (c->refinish) {
            plat_finish(&p);
        }
        int rc = run(&p, c->give ? c->give : GIVE_ALL, &r);
        size_t n = count(&r, c->rule, c->sev);
        if (n == 0 || rc != c->rc) {
            fprintf(stderr, "\ncase %zu (%s %s): found %zu, rc %d (want %d)\n", i, mac_sev_name(c->sev), c->rule, n,
                    rc, c->rc);
            mac_print_text(stderr, &r);
        }
        CU_ASSERT(n > 0);
        CU_ASSERT_EQUAL(rc, c->rc);
        mac_report_free(&r);
        plat_free(&p);
    }
}

/* ...and passes (no finding of that rule at that severity) on the
 * reference platform, which has no error and no warning at all. */
static void test_rules_pass(void)
{
    struct plat p;
    struct mac_report r;
    plat_build(&p, NULL);
    int rc = run(&p, GIVE_ALL, &r);
    if (r.errors || r.warnings) {
        mac_print_text(stderr, &r);
    }
    CU_ASSERT_EQUAL(rc, 0);
    CU_ASSERT_EQUAL(r.errors, 0);
    CU_ASSERT_EQUAL(r.warnings, 0);
    for (size_t i = 0; i < NCASES; i++) {
        CU_ASSERT_EQUAL(count(&r, cases[i].rule, cases[i].sev), 0);
    }
    mac_report_free(&r);
    plat_free(&p);
}

/* Variants close to a failing case that Linux accepts. */
static void test_accepted_variants(void)
{
    static void (*const ok[])(struct plat *) = {
        m_link_pkg, m_err_ppi_distinct, m_err_spi_shared_ok, m_ris_two_ok,
    };
    for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++) {
        struct plat p;
        struct mac_report r;
        plat_build(&p, NULL);
        ok[i](&p);
        plat_finish(&p);
        int rc = run(&p, GIVE_ALL, &r);
        if (rc) {
            mac_print_text(stderr, &r);
        }
        CU_ASSERT_EQUAL(rc, 0);
        CU_ASSERT_EQUAL(r.errors, 0);
        mac_report_free(&r);
        plat_free(&p);
    }
    /* SPI error interrupt on a container-linked MSC is fine when the
     * container holds every CPU (package 100 in the split platform). */
    struct plat p;
    struct mac_report r;
    struct plat_opts o = { .pptt_rev = 3, .l3_on_cpu = 1 };
    plat_build(&p, &o);
    m_link_pkg(&p);
    plat_finish(&p);
    run(&p, GIVE_ALL, &r);
    CU_ASSERT_EQUAL(count(&r, "IRQ-ERROR-SPI", MAC_ERROR), 0);
    CU_ASSERT_EQUAL(count(&r, "MSC-LINK", MAC_ERROR), 0);
    mac_report_free(&r);
    plat_free(&p);
}

/* Decoded fields agree with what the builder wrote. */
static void test_fields(void)
{
    struct plat p;
    struct mac_report r;
    struct plat_opts o = { .pptt_rev = 3, .extra_l2_msc = 1 };
    plat_build(&p, &o);
    run(&p, GIVE_ALL, &r);
    CU_ASSERT_EQUAL(r.mpam_rev, 1);
    CU_ASSERT_EQUAL(r.pptt_rev, 3);
    CU_ASSERT_EQUAL_FATAL(r.msc_n, 3);
    CU_ASSERT_EQUAL(r.msc[0].off, 36);
    CU_ASSERT_EQUAL(r.msc[0].length, 72 + 24);
    CU_ASSERT_EQUAL(r.msc[1].identifier, 1);
    CU_ASSERT_EQUAL(r.msc[1].base_address, 0x90010000);
    CU_ASSERT_EQUAL(r.msc[1].mmio_size, 0x4000);
    CU_ASSERT_EQUAL(r.msc[1].error_interrupt, 65);
    CU_ASSERT_EQUAL(r.msc[1].max_nrdy_usec, 10);
    CU_ASSERT_EQUAL_FATAL(r.res_n, 3);
    CU_ASSERT_EQUAL(r.res[0].locator_type, 0);
    CU_ASSERT_EQUAL(r.res[0].descriptor1, 30);
    CU_ASSERT_EQUAL(r.res[0].level, 3);
    CU_ASSERT_EQUAL(r.res[1].locator_type, 1);
    CU_ASSERT_EQUAL(r.res[2].level, 2);
    CU_ASSERT_EQUAL(r.cpu_n, PLAT_NCPU);
    /* L3 covers every CPU, CPU 0's L2 only CPU 0 */
    CU_ASSERT_FATAL(r.res[0].has_cpus && r.res[2].has_cpus);
    for (int c = 0; c < PLAT_NCPU; c++) {
        CU_ASSERT_EQUAL(r.bitmaps[r.res[0].cpus_first + c], 1);
        CU_ASSERT_EQUAL(r.bitmaps[r.res[2].cpus_first + c], c == 0);
    }
    CU_ASSERT_EQUAL(count(&r, "RESCTRL-COVER", MAC_NOTE), 2);
    CU_ASSERT_EQUAL(count(&r, "RESCTRL-SHOWN", MAC_NOTE), 2);   /* L3, MB; the L2 MSC covers CPU 0 only */
    CU_ASSERT_EQUAL(count(&r, "RESCTRL-L2", MAC_WARN), 1);
    /* 1 L3 + 4 x (L2, L1D, L1I) */
    CU_ASSERT_EQUAL(r.pptt_cache_n, 13);
    mac_report_free(&r);
    plat_free(&p);

    /* the split platform's L3 MSC covers CPUs 0-1 only: nothing is shown */
    struct plat_opts split = { .pptt_rev = 3, .l3_on_cpu = 1 };
    plat_build(&p, &split);
    run(&p, GIVE_ALL, &r);
    CU_ASSERT_EQUAL(count(&r, "RESCTRL-SHOWN", MAC_NOTE), 0);
    CU_ASSERT_FATAL(r.res_n >= 1 && r.res[0].has_cpus);
    for (int c = 0; c < PLAT_NCPU; c++) {
        CU_ASSERT_EQUAL(r.bitmaps[r.res[0].cpus_first + c], c < 2);
    }
    mac_report_free(&r);
    plat_free(&p);

    /* no cover note when the cache reference is broken */
    plat_build(&p, NULL);
    m_cache_missing(&p);
    plat_finish(&p);
    run(&p, GIVE_ALL, &r);
    CU_ASSERT_EQUAL(count(&r, "RESCTRL-COVER", MAC_NOTE), 0);
    mac_report_free(&r);
    plat_free(&p);
}

/* Garbage of every length never crashes, and is never "fine" by accident. */
static void test_garbage(void)
{
    uint8_t buf[400];
    unsigned seed = 1;
    for (int round = 0; round < 2000; round++) {
        size_t len = (size_t)(round % 400);
        for (size_t i = 0; i < len; i++) {
            seed = seed * 1103515245u + 12345u;
            buf[i] = (uint8_t)(seed >> 16);
        }
        if (len >= 4) {
            memcpy(buf, "MPAM", 4);
        }
        uint8_t *m = malloc(len ? len : 1);
        memcpy(m, buf, len);
        struct mac_table t = { m, len };
        struct mac_report r;
        int rc = mac_check(&t, NULL, NULL, &r);
        CU_ASSERT(rc == 1 || rc == 2);
        mac_report_free(&r);
        free(m);
    }
}

int main(void)
{
    static const CunitTest tests[] = {
        { "every rule fails on its broken table", test_rules_fail },
        { "reference platform passes every rule", test_rules_pass },
        { "accepted variants", test_accepted_variants },
        { "decoded fields", test_fields },
        { "garbage input", test_garbage },
    };

    return CUNIT_RUN("mpam-acpi-check", tests);
}
