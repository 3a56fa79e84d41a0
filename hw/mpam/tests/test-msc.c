/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the MPAM MSC model: register file, errors, monitors,
 * traffic, and a replay of the Linux 7.3 driver's register sequences
 * (docs: /work/shared/reference/guest-requirements.md §3.3, §3.5, §3.7).
 */
#include <inttypes.h>
#include <stdio.h>

#include "msc-test-util.h"

/* ------------------------------------------------------------ config */

static void expect_invalid(MpamMscConfig *cfg, const char *what)
{
    g_autofree char *m = mpam_msc_config_validate(cfg);
    GError *err = NULL;
    MpamMsc *msc;

    CU_ASSERT_PTR_NOT_NULL(m);
    if (m && !strstr(m, what)) {
        fprintf(stderr, "message '%s' lacks '%s'\n", m, what);
        CU_FAIL("validation message");
    }
    msc = mpam_msc_new(cfg, NULL, NULL, &err);
    CU_ASSERT_PTR_NULL(msc);
    CU_ASSERT_PTR_NOT_NULL(err);
    g_clear_error(&err);
    mpam_msc_free(msc);
}

static void test_config_validate(void)
{
    MpamMscConfig cfg;
    char *m;

    test_config(&cfg);
    m = mpam_msc_config_validate(&cfg);
    CU_ASSERT_PTR_NULL(m);
    g_free(m);
    mpam_msc_config_default(&cfg);
    m = mpam_msc_config_validate(&cfg);
    CU_ASSERT_PTR_NULL(m);
    g_free(m);

    test_config(&cfg); cfg.nr_ris = 0; expect_invalid(&cfg, "RIS");
    test_config(&cfg); cfg.nr_ris = 17; expect_invalid(&cfg, "RIS");
    test_config(&cfg); cfg.ris[1].pmg_max = 256; expect_invalid(&cfg, "PMG_MAX");
    test_config(&cfg); cfg.ris[0].partid_max = 0x10000;
    expect_invalid(&cfg, "PARTID_MAX");
    test_config(&cfg); cfg.ris[0].cpbm_wd = 32769; expect_invalid(&cfg, "CPBM_WD");
    test_config(&cfg); cfg.ris[0].cmax_wd = 17; expect_invalid(&cfg, "CMAX_WD");
    test_config(&cfg); cfg.ris[1].bwa_wd = 17; expect_invalid(&cfg, "BWA_WD");
    test_config(&cfg); cfg.ris[1].bwpbm_wd = 4097; expect_invalid(&cfg, "BWPBM_WD");
    test_config(&cfg); cfg.ris[1].intpri_wd = 17; expect_invalid(&cfg, "INTPRI_WD");
    test_config(&cfg); cfg.ris[2].intpartid_max = 16;
    expect_invalid(&cfg, "INTPARTID_MAX");
    test_config(&cfg); cfg.ris[2].mbwu_lwd = true; expect_invalid(&cfg, "LWD");
    test_config(&cfg); cfg.ris[1].csu_num_mon = 1; expect_invalid(&cfg, "cache RIS");
    test_config(&cfg); cfg.ris[0].cache_line_size = 48;
    expect_invalid(&cfg, "power of two");
    test_config(&cfg); cfg.ris[0].cpbm_wd = 32768; cfg.mmio_size = 0x1800;
    expect_invalid(&cfg, "MPAMCFG_CPBM");
    test_config(&cfg); cfg.has_esr = false; expect_invalid(&cfg, "HAS_EXTD_ESR");
    test_config(&cfg); cfg.aidr = 0x100; expect_invalid(&cfg, "AIDR");
}

/* ---------------------------------------------------- reset & ID regs */

static void test_reset_values(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    uint64_t idr;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_AIDR), 0x11);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_IIDR), cfg.iidr);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_ECR), 0);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_ESR), 0);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_ESR + 4), 0);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_PART_SEL), 0);
    CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_MON_SEL), 0);

    idr = mpam_msc_read(msc, MPAMF_IDR, 8);
    CU_ASSERT_EQUAL(idr & 0xFFFF, 63);                      /* PARTID_MAX */
    CU_ASSERT_EQUAL((idr >> 16) & 0xFF, 3);                 /* PMG_MAX */
    CU_ASSERT_TRUE(((idr) >> 24) & 1);                     /* HAS_CCAP_PART */
    CU_ASSERT_TRUE(((idr) >> 25) & 1);                     /* HAS_CPOR_PART */
    CU_ASSERT_FALSE(((idr) >> 26) & 1);                    /* HAS_MBW_PART */
    CU_ASSERT_FALSE(((idr) >> 27) & 1);                    /* HAS_PRI_PART */
    CU_ASSERT_TRUE(((idr) >> 28) & 1);                     /* EXT */
    CU_ASSERT_TRUE(((idr) >> 30) & 1);                     /* HAS_MSMON */
    CU_ASSERT_FALSE(((idr) >> 31) & 1);                    /* HAS_PARTID_NRW */
    CU_ASSERT_TRUE(((idr) >> 32) & 1);                     /* HAS_RIS */
    CU_ASSERT_TRUE(((idr) >> 38) & 1);                     /* HAS_EXTD_ESR */
    CU_ASSERT_TRUE(((idr) >> 39) & 1);                     /* HAS_ESR */
    CU_ASSERT_EQUAL((idr >> 56) & 0xF, 2);                  /* RIS_MAX */
    CU_ASSERT_EQUAL(idr, mpam_msc_idr(msc, 0));

    /* Controls of RIS 0 PARTID 5 reset to "no limit". */
    wr(msc, MPAMCFG_PART_SEL, part_sel(0, 5, false));
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CPBM), 0xFFFF);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CMAX), 0xFF00);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CMIN), 0);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CASSOC), 0xF000);
    wr(msc, MPAMCFG_PART_SEL, part_sel(1, 5, false));
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_MBW_MAX), 0xFF00);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_MBW_MIN), 0);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_MBW_PBM), 0xFFFFFFFF);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_MBW_PROP), 0);
    CU_ASSERT_EQUAL(t.guest_errors, 0);
    CU_ASSERT_EQUAL(t.errors, 0);

    /* Reset after programming restores everything. */
    wr(msc, MPAMCFG_MBW_MAX, 0x1000);
    wr(msc, MPAMF_ECR, 1);
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(1, 2));
    wr(msc, MSMON_CFG_MBWU_CTL, 0x80030042);
    mpam_msc_reset(msc);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_ECR), 0);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_PART_SEL), 0);
    wr(msc, MPAMCFG_PART_SEL, part_sel(1, 5, false));
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_MBW_MAX), 0xFF00);
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(1, 2));
    CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_MBWU_CTL), 0x42);
    mpam_msc_free(msc);
}

static void test_ris_banking(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    uint32_t v;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);

    wr(msc, MPAMCFG_PART_SEL, part_sel(0, 0, false));
    CU_ASSERT_EQUAL(rd(msc, MPAMF_CPOR_IDR), 16);
    v = rd(msc, MPAMF_CCAP_IDR);
    CU_ASSERT_EQUAL(v & 0x3F, 8);                           /* CMAX_WD */
    CU_ASSERT_EQUAL((v >> 8) & 0x1F, 4);                    /* CASSOC_WD */
    CU_ASSERT_EQUAL(v >> 28, 0x3);                          /* HAS_CASSOC|CMIN */
    CU_ASSERT_EQUAL(rd(msc, MPAMF_MBW_IDR), 0);
    v = rd(msc, MPAMF_MSMON_IDR);
    CU_ASSERT_EQUAL(v, 0x30000);                            /* CSU | MBWU */
    v = rd(msc, MPAMF_CSUMON_IDR);
    CU_ASSERT_EQUAL(v & 0xFFFF, 8);
    CU_ASSERT_TRUE(v & (1u << 29));                         /* HAS_XCL */
    v = rd(msc, MPAMF_MBWUMON_IDR);
    CU_ASSERT_EQUAL(v & 0xFFFF, 4);
    CU_ASSERT_EQUAL(v >> 28, 0x9 | 0x4);                    /* CAPT, LONG, RWBW */

    wr(msc, MPAMCFG_PART_SEL, part_sel(1, 0, false));
    v = rd(msc, MPAMF_IDR);
    CU_ASSERT_TRUE(v & (1u << 26));                         /* HAS_MBW_PART */
    CU_ASSERT_TRUE(v & (1u << 27));                         /* HAS_PRI_PART */
    CU_ASSERT_FALSE(v & (3u << 24));
    CU_ASSERT_EQUAL(rd(msc, MPAMF_CPOR_IDR), 0);
    v = rd(msc, MPAMF_MBW_IDR);
    CU_ASSERT_EQUAL(v & 0x3F, 8);
    CU_ASSERT_EQUAL((v >> 10) & 0x1F, 0x1F);                /* MIN MAX PBM PROP WINDWR */
    CU_ASSERT_EQUAL((v >> 16) & 0x1FFF, 32);
    v = rd(msc, MPAMF_PRI_IDR);
    CU_ASSERT_EQUAL(v, 0x1 | 0x2 | 4 << 4 | 1 << 16 | 4 << 20);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_MBWUMON_IDR) >> 28, 0xF);  /* LWD too */
    CU_ASSERT_EQUAL(rd(msc, MPAMF_MSMON_IDR), 0x20000);

    wr(msc, MPAMCFG_PART_SEL, part_sel(2, 0, false));
    v = rd(msc, MPAMF_IDR);
    CU_ASSERT_EQUAL(v & 0xFFFF, 15);
    CU_ASSERT_EQUAL((v >> 16) & 0xFF, 1);
    CU_ASSERT_TRUE(v & (1u << 31));                         /* HAS_PARTID_NRW */
    CU_ASSERT_EQUAL(rd(msc, MPAMF_PARTID_NRW_IDR), 7);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_MBWUMON_IDR), 2);         /* 31-bit only */
    CU_ASSERT_EQUAL(rd(msc, MPAMF_IDR + 4), mpam_msc_idr(msc, 2) >> 32);
    CU_ASSERT_EQUAL(t.guest_errors, 0);
    CU_ASSERT_EQUAL(t.errors, 0);
    mpam_msc_free(msc);
}

/* 64-bit registers as 32-bit halves and as one 64-bit access. */
static void test_halves(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    uint64_t v;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    v = mpam_msc_read(msc, MPAMF_IDR, 8);
    CU_ASSERT_EQUAL(v, (uint64_t)rd(msc, MPAMF_IDR + 4) << 32 | rd(msc, MPAMF_IDR));

    /* ESR: an error with RIS 2 shows RIS in the high half. */
    wr(msc, MPAMCFG_PART_SEL, part_sel(2, 0, true));
    wr(msc, MPAMCFG_INTPARTID, 0x10000);                    /* INTERNAL set: error */
    v = mpam_msc_read(msc, MPAMF_ESR, 8);
    CU_ASSERT_EQUAL((v >> 24) & 0xF, MPAM_ERRCODE_UNEXPECTED_INTERNAL);
    CU_ASSERT_EQUAL(v >> 32, 2);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_ESR + 4), 2);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_ESR), (uint32_t)v);
    wr(msc, MPAMF_ESR + 4, 0);
    wr(msc, MPAMF_ESR, 0);
    CU_ASSERT_EQUAL(mpam_msc_read(msc, MPAMF_ESR, 8), 0);

    /* MBWU_L written as halves, read as 64 bits and as halves. */
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(1, 3));
    wr(msc, MSMON_MBWU_L, 0x89ABCDEF);
    wr(msc, MSMON_MBWU_L + 4, 0x01234567);
    CU_ASSERT_EQUAL(mpam_msc_read(msc, MSMON_MBWU_L, 8), 0x0123456789ABCDEFULL);
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU_L), 0x89ABCDEF);
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU_L + 4), 0x01234567);
    mpam_msc_write(msc, MSMON_MBWU_L, 0x8000000000000005ULL, 8);
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU_L + 4), 0x80000000);  /* NRDY */
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU_L), 5);
    /* 31-bit view of the same counter. */
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU), 0x80000005);
    CU_ASSERT_EQUAL(t.guest_errors, 1);                     /* the INTERNAL error */
    mpam_msc_free(msc);
}

static void test_bad_accesses(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    unsigned n;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    CU_ASSERT_EQUAL(mpam_msc_read(msc, MPAMF_AIDR, 1), 0);
    CU_ASSERT_EQUAL(mpam_msc_read(msc, MPAMF_AIDR, 2), 0);
    CU_ASSERT_EQUAL(mpam_msc_read(msc, MPAMF_AIDR + 1, 4), 0);
    CU_ASSERT_EQUAL(mpam_msc_read(msc, MPAMF_IDR + 4, 8), 0);
    CU_ASSERT_EQUAL(mpam_msc_read(msc, 0x4000, 4), 0);
    CU_ASSERT_EQUAL(mpam_msc_read(msc, 0x3FFC, 8), 0);
    CU_ASSERT_EQUAL(mpam_msc_read(msc, ~0ULL - 3, 4), 0);
    CU_ASSERT_EQUAL(mpam_msc_read(msc, 0x0C, 4), 0);        /* reserved */
    CU_ASSERT_EQUAL(mpam_msc_read(msc, 0x3000, 4), 0);      /* reserved */
    CU_ASSERT_EQUAL(t.guest_errors, 9);
    n = t.guest_errors;
    mpam_msc_write(msc, MPAMCFG_PART_SEL, 0x01000005, 2);
    mpam_msc_write(msc, MPAMCFG_PART_SEL + 2, 0x0100, 2);
    mpam_msc_write(msc, MPAMCFG_PART_SEL, 0x01000005, 1);
    mpam_msc_write(msc, MPAMF_IDR, 0, 4);                   /* read-only */
    mpam_msc_write(msc, 0x0C, 0xFFFFFFFF, 4);               /* reserved */
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_PART_SEL), 0);
    CU_ASSERT_EQUAL(t.guest_errors, n + 5);
    CU_ASSERT_EQUAL(mpam_msc_read(msc, MPAMF_IDR, 8), mpam_msc_idr(msc, 0));
    CU_ASSERT_EQUAL(t.errors, 0);                           /* none architected */
    mpam_msc_free(msc);
}

/* CTL/FLT read back exactly the values the Linux driver writes. */
static void test_ctl_flt_readback(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    for (unsigned ris = 0; ris < 2; ris++) {
        wr(msc, MSMON_CFG_MON_SEL, mon_sel(ris, 1));
        if (ris == 0) {
            wr(msc, MSMON_CFG_CSU_FLT, 3 << 16 | 42);
            wr(msc, MSMON_CFG_CSU_CTL, 0x80030043);
            CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_CSU_CTL), 0x80030043);
            CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_CSU_FLT), 3 << 16 | 42);
            wr(msc, MSMON_CFG_CSU_FLT, 1u << 31 | 2 << 16 | 7);  /* XCL */
            CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_CSU_FLT), 1u << 31 | 2 << 16 | 7);
            wr(msc, MSMON_CFG_CSU_CTL, 0x00030043);
            CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_CSU_CTL), 0x00030043);
        }
        wr(msc, MSMON_CFG_MBWU_FLT, 1 << 16 | 9);
        wr(msc, MSMON_CFG_MBWU_CTL, 0x80030042);
        CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_MBWU_CTL), 0x80030042);
        CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_MBWU_FLT), 1 << 16 | 9);
        wr(msc, MSMON_CFG_MBWU_FLT, 2u << 30 | 1 << 16 | 9);    /* RWBW read */
        CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_MBWU_FLT), 2u << 30 | 1 << 16 | 9);
        wr(msc, MSMON_CFG_MBWU_CTL, 0x00010042);
        CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_MBWU_CTL), 0x00010042);
    }
    /* RIS 2 has no RWBW: the field is RES0. */
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(2, 1));
    wr(msc, MSMON_CFG_MBWU_FLT, 2u << 30 | 1 << 16 | 5);
    CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_MBWU_FLT), 1 << 16 | 5);
    CU_ASSERT_EQUAL(t.errors, 0);
    CU_ASSERT_EQUAL(t.guest_errors, 0);
    mpam_msc_free(msc);
}

/* ------------------------------------------------------------ errors */

typedef struct ErrCase {
    const char *name;
    unsigned code;
    void (*provoke)(MpamMsc *msc);
    unsigned partid_mon;
    unsigned ris;
} ErrCase;

static void e_partid_sel(MpamMsc *m)
{
    wr(m, MPAMCFG_PART_SEL, part_sel(0, 64, false));
    wr(m, MPAMCFG_CMAX, 0x8000);
}

static void e_partid_sel_internal(MpamMsc *m)
{
    wr(m, MPAMCFG_PART_SEL, part_sel(2, 8, true));
    rd(m, MPAMCFG_MBW_MAX);
}

static void e_req_partid(MpamMsc *m)
{
    test_access(m, 0, 100, 0, 0, 64, false);
}

static void e_msmoncfg_id(MpamMsc *m)
{
    wr(m, MSMON_CFG_MON_SEL, mon_sel(0, 2));
    wr(m, MSMON_CFG_MBWU_FLT, 64);
}

static void e_msmoncfg_pmg(MpamMsc *m)
{
    wr(m, MSMON_CFG_MON_SEL, mon_sel(2, 0));
    wr(m, MSMON_CFG_MBWU_FLT, 2 << 16 | 3);
}

static void e_req_pmg(MpamMsc *m)
{
    test_access(m, 1, 1, 9, 0, 64, false);
}

static void e_monitor_range(MpamMsc *m)
{
    wr(m, MSMON_CFG_MON_SEL, mon_sel(0, 8));
    rd(m, MSMON_CFG_CSU_CTL);
}

static void e_intpartid_range(MpamMsc *m)
{
    wr(m, MPAMCFG_PART_SEL, part_sel(2, 3, false));
    wr(m, MPAMCFG_INTPARTID, 0x10000 | 8);
}

static void e_unexpected_internal(MpamMsc *m)
{
    wr(m, MPAMCFG_PART_SEL, part_sel(0, 1, true));
    wr(m, MPAMCFG_CPBM, 1);
}

static void e_unexpected_internal_nrw(MpamMsc *m)
{
    wr(m, MPAMCFG_PART_SEL, part_sel(2, 1, false));
    wr(m, MPAMCFG_INTPARTID, 1);                            /* INTERNAL clear */
}

static void e_undefined_ris_part_sel(MpamMsc *m)
{
    wr(m, MPAMCFG_PART_SEL, part_sel(5, 0, false));
    rd(m, MPAMF_IDR);
}

static void e_ris_no_control(MpamMsc *m)
{
    wr(m, MPAMCFG_PART_SEL, part_sel(0, 0, false));
    wr(m, MPAMCFG_MBW_MAX, 0xFFFF);
}

static void e_undefined_ris_mon_sel(MpamMsc *m)
{
    wr(m, MSMON_CFG_MON_SEL, mon_sel(7, 0));
    rd(m, MSMON_CSU);
}

static void e_ris_no_monitor(MpamMsc *m)
{
    wr(m, MSMON_CFG_MON_SEL, mon_sel(1, 0));
    wr(m, MSMON_CFG_CSU_CTL, 0x80030043);
}

static const ErrCase err_cases[] = {
    { "PARTID_SEL_Range", 1, e_partid_sel, 64, 0 },
    { "PARTID_SEL_Range/INTERNAL", 1, e_partid_sel_internal, 8, 2 },
    { "Req_PARTID_Range", 2, e_req_partid, 100, 0 },
    { "MSMONCFG_ID_RANGE", 3, e_msmoncfg_id, 64, 0 },
    { "MSMONCFG_ID_RANGE/PMG", 3, e_msmoncfg_pmg, 3, 2 },
    { "Req_PMG_Range", 4, e_req_pmg, 1, 1 },
    { "Monitor_Range", 5, e_monitor_range, 8, 0 },
    { "intPARTID_Range", 6, e_intpartid_range, 8, 2 },
    { "Unexpected_INTERNAL", 7, e_unexpected_internal, 1, 0 },
    { "Unexpected_INTERNAL/INTPARTID", 7, e_unexpected_internal_nrw, 1, 2 },
    { "Undefined_RIS_PART_SEL", 8, e_undefined_ris_part_sel, 0, 5 },
    { "RIS_No_Control", 9, e_ris_no_control, 0, 0 },
    { "Undefined_RIS_MON_SEL", 10, e_undefined_ris_mon_sel, 0, 7 },
    { "RIS_No_Monitor", 11, e_ris_no_monitor, 0, 1 },
};

static void test_error_codes(void)
{
    MpamMscConfig cfg;

    test_config(&cfg);
    for (unsigned i = 0; i < G_N_ELEMENTS(err_cases); i++) {
        const ErrCase *c = &err_cases[i];
        TestCtx t;
        MpamMsc *msc = test_msc(&t, &cfg);
        uint64_t esr;

        wr(msc, MPAMF_ECR, 1);
        CU_ASSERT_FALSE(t.irq[MPAM_MSC_IRQ_ERROR]);
        c->provoke(msc);
        esr = mpam_msc_read(msc, MPAMF_ESR, 8);
        if (((esr >> 24) & 0xF) != c->code) {
            fprintf(stderr, "%s: ESR 0x%" PRIx64 "\n", c->name, esr);
        }
        CU_ASSERT_EQUAL((esr >> 24) & 0xF, c->code);
        CU_ASSERT_EQUAL(esr & 0xFFFF, c->partid_mon);
        CU_ASSERT_EQUAL(esr >> 32, c->ris);
        CU_ASSERT_FALSE(esr & (1u << 31));                  /* OVRWR */
        CU_ASSERT_EQUAL(t.errors, 1);
        CU_ASSERT_EQUAL(t.last_errcode, c->code);
        CU_ASSERT_TRUE(t.irq[MPAM_MSC_IRQ_ERROR]);
        /* Driver's handler: clear ESR high then low, IRQ drops. */
        wr(msc, MPAMF_ESR + 4, 0);
        CU_ASSERT_TRUE(t.irq[MPAM_MSC_IRQ_ERROR]);
        wr(msc, MPAMF_ESR, 0);
        CU_ASSERT_FALSE(t.irq[MPAM_MSC_IRQ_ERROR]);
        mpam_msc_free(msc);
    }
}

/*
 * A loaded state is refused by its invariants, naming the register: a
 * selector, ECR or ESR with bits that no write or error sets (issue 25:
 * four 0xff bytes at the start of the model's state loaded silently).
 */
static void test_post_load_refuses(void)
{
    static const struct {
        const char *reg;
        size_t offset;
        uint64_t value;
    } rows[] = {
        { "MPAMCFG_PART_SEL", offsetof(MpamMsc, part_sel), 0xffffffff },
        { "MSMON_CFG_MON_SEL", offsetof(MpamMsc, mon_sel), 0x10000 },
        { "MPAMF_ECR", offsetof(MpamMsc, ecr), 2 },
        { "MPAMF_ESR", offsetof(MpamMsc, esr), 1ull << 40 },
    };
    MpamMscConfig cfg;
    TestCtx t;

    test_config(&cfg);
    for (unsigned i = 0; i < G_N_ELEMENTS(rows); i++) {
        MpamMsc *msc = test_msc(&t, &cfg);
        g_autofree char *why = NULL;

        CU_ASSERT_PTR_NULL(mpam_msc_post_load(msc));
        if (rows[i].offset == offsetof(MpamMsc, esr)) {
            msc->esr = rows[i].value;
        } else {
            *(uint32_t *)((char *)msc + rows[i].offset) = rows[i].value;
        }
        why = mpam_msc_post_load(msc);
        CU_ASSERT_PTR_NOT_NULL(why);
        if (why && !strstr(why, rows[i].reg)) {
            fprintf(stderr, "'%s' does not name %s\n", why, rows[i].reg);
            CU_FAIL("the refusal names the register");
        }
        mpam_msc_free(msc);
    }
}

static void test_error_irq_and_ovrwr(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    MpamErrInfo ei;
    uint32_t esr;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    /* INTEN clear: error recorded, no IRQ. */
    e_ris_no_control(msc);
    CU_ASSERT_EQUAL(esr_errcode(msc), MPAM_ERRCODE_RIS_NO_CONTROL);
    CU_ASSERT_FALSE(t.irq[MPAM_MSC_IRQ_ERROR]);
    CU_ASSERT_EQUAL(t.irq_changes[MPAM_MSC_IRQ_ERROR], 0);
    /* Enabling the interrupt with a pending error raises it. */
    wr(msc, MPAMF_ECR, 1);
    CU_ASSERT_TRUE(t.irq[MPAM_MSC_IRQ_ERROR]);
    mpam_msc_get_errors(msc, &ei);
    CU_ASSERT_EQUAL(ei.errcode, MPAM_ERRCODE_RIS_NO_CONTROL);
    CU_ASSERT_TRUE(ei.irq_level);
    CU_ASSERT_EQUAL(ei.ecr, 1);
    /* A second error overwrites and sets OVRWR. */
    e_monitor_range(msc);
    esr = rd(msc, MPAMF_ESR);
    CU_ASSERT_EQUAL((esr >> 24) & 0xF, MPAM_ERRCODE_MONITOR_RANGE);
    CU_ASSERT_TRUE(esr & (1u << 31));
    /* Disabling the interrupt lowers it; ESR stays. */
    wr(msc, MPAMF_ECR, 0);
    CU_ASSERT_FALSE(t.irq[MPAM_MSC_IRQ_ERROR]);
    CU_ASSERT_EQUAL(esr_errcode(msc), MPAM_ERRCODE_MONITOR_RANGE);
    wr(msc, MPAMF_ECR, 1);
    CU_ASSERT_TRUE(t.irq[MPAM_MSC_IRQ_ERROR]);
    /* post_load re-announces the level. */
    t.irq[MPAM_MSC_IRQ_ERROR] = false;
    CU_ASSERT_PTR_NULL(mpam_msc_post_load(msc));
    CU_ASSERT_TRUE(t.irq[MPAM_MSC_IRQ_ERROR]);
    wr(msc, MPAMF_ESR, 0);
    CU_ASSERT_FALSE(t.irq[MPAM_MSC_IRQ_ERROR]);
    mpam_msc_free(msc);

    /* Without ESR, errors are not recorded and no IRQ is raised. */
    cfg.has_esr = cfg.has_extd_esr = false;
    msc = test_msc(&t, &cfg);
    wr(msc, MPAMF_ECR, 1);
    e_ris_no_control(msc);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_ESR), 0);
    CU_ASSERT_FALSE(t.irq[MPAM_MSC_IRQ_ERROR]);
    CU_ASSERT_EQUAL((mpam_msc_read(msc, MPAMF_IDR, 8) >> 38) & 3, 0);
    mpam_msc_free(msc);
}

/* ----------------------------------- Linux 7.3 driver sequence replay */

typedef struct KRis {
    uint64_t idr;
    bool cpor, mbw_part, mbw_min, mbw_max, mbw_prop, cmax, cmin, cassoc;
    bool intpri, intpri_0_low, dspri, dspri_0_low, nrw, csu, mbwu, rwbw, xcl;
    unsigned cpbm_wd, mbw_pbm_bits, intpri_wd, dspri_wd, num_csu, num_mbwu;
    int mbwu_width;
} KRis;

typedef struct KMsc {
    unsigned ris_max, partid_max, pmg_max;
    bool extd_esr;
    KRis ris[16];
} KMsc;

static uint64_t k_read_idr(MpamMsc *m)
{
    uint64_t idr = rd(m, MPAMF_IDR);

    if (idr & (1u << 28)) {
        idr |= (uint64_t)rd(m, MPAMF_IDR + 4) << 32;
    }
    return idr;
}

static void k_csu_nrdy_probe(MpamMsc *m, unsigned ris)
{
    wr(m, MSMON_CFG_MON_SEL, mon_sel(ris, 0));
    wr(m, MSMON_CFG_CSU_FLT, 0);
    wr(m, MSMON_CFG_CSU_CTL, 0x80030043);
    wr(m, MSMON_CSU, 0x80000000);
    CU_ASSERT_TRUE(rd(m, MSMON_CSU) & 0x80000000);          /* can_set */
    wr(m, MSMON_CSU, 0);
    wr(m, MSMON_CFG_CSU_FLT, 1);
    /* Hardware-managed NRDY: the reconfiguration sets it. */
    CU_ASSERT_TRUE(rd(m, MSMON_CSU) & 0x80000000);
}

static void k_ris_probe(MpamMsc *m, KRis *r, unsigned idx)
{
    uint64_t idr = r->idr;

    if (idr & (1u << 24)) {
        uint32_t v = rd(m, MPAMF_CCAP_IDR);
        unsigned cmax_wd = v & 0x3F;
        r->cmax = cmax_wd && !(v & (1u << 30));
        r->cmin = cmax_wd && (v & (1u << 29));
        r->cassoc = ((v >> 8) & 0x1F) && (v & (1u << 28));
    }
    if (idr & (1u << 25)) {
        r->cpbm_wd = rd(m, MPAMF_CPOR_IDR) & 0xFFFF;
        r->cpor = r->cpbm_wd > 0;
    }
    if (idr & (1u << 26)) {
        uint32_t v = rd(m, MPAMF_MBW_IDR);
        unsigned bwa = MIN(v & 0x3F, 16);
        r->mbw_pbm_bits = (v >> 16) & 0x1FFF;
        r->mbw_part = r->mbw_pbm_bits && (v & (1u << 12));
        r->mbw_max = bwa && (v & (1u << 11));
        r->mbw_min = bwa && (v & (1u << 10));
        r->mbw_prop = bwa && (v & (1u << 13));
    }
    if (idr & (1u << 27)) {
        uint32_t v = rd(m, MPAMF_PRI_IDR);
        r->intpri_wd = (v >> 4) & 0x3F;
        r->intpri = r->intpri_wd && (v & 1);
        r->intpri_0_low = r->intpri && (v & 2);
        r->dspri_wd = (v >> 20) & 0x3F;
        r->dspri = r->dspri_wd && (v & (1u << 16));
        r->dspri_0_low = r->dspri && (v & (1u << 17));
    }
    if (idr & (1u << 30)) {
        uint32_t v = rd(m, MPAMF_MSMON_IDR);
        if (v & (1u << 16)) {
            uint32_t c = rd(m, MPAMF_CSUMON_IDR);
            r->num_csu = c & 0xFFFF;
            if (r->num_csu) {
                r->csu = true;
                r->xcl = c & (1u << 29);
                k_csu_nrdy_probe(m, idx);
            }
        }
        if (v & (1u << 17)) {
            uint32_t b = rd(m, MPAMF_MBWUMON_IDR);
            r->num_mbwu = b & 0xFFFF;
            if (r->num_mbwu) {
                r->mbwu = true;
                r->rwbw = b & (1u << 28);
                r->mbwu_width = (b & (1u << 30)) ? ((b & (1u << 29)) ? 63 : 44) : 31;
            }
        }
    }
    if (idr & (1u << 31)) {
        r->nrw = true;
    }
}

static void k_probe(MpamMsc *m, KMsc *k)
{
    uint32_t aidr = rd(m, MPAMF_AIDR);
    uint64_t idr;

    CU_ASSERT_EQUAL(aidr >> 4, 1);
    idr = k_read_idr(m);
    rd(m, MPAMF_IIDR);
    k->ris_max = (idr >> 56) & 0xF;
    k->partid_max = idr & 0xFFFF;
    k->pmg_max = (idr >> 16) & 0xFF;
    for (unsigned ris = 0; ris <= k->ris_max; ris++) {
        wr(m, MPAMCFG_PART_SEL, part_sel(ris, 0, false));
        idr = k_read_idr(m);
        k->partid_max = MIN(k->partid_max, idr & 0xFFFF);
        k->pmg_max = MIN(k->pmg_max, (idr >> 16) & 0xFF);
        k->extd_esr = idr & (1ULL << 38);
        k->ris[ris].idr = idr;
        wr(m, MPAMCFG_PART_SEL, part_sel(ris, 0, false));
        k_ris_probe(m, &k->ris[ris], ris);
        if (k->ris[ris].nrw) {
            /* Class known: narrow partid_max to INTPARTID_MAX. */
            k->partid_max = MIN(k->partid_max, rd(m, MPAMF_PARTID_NRW_IDR) & 0xFFFF);
        }
    }
    /* mpam_msc_clear_esr */
    if (rd(m, MPAMF_ESR)) {
        if (k->extd_esr) {
            wr(m, MPAMF_ESR + 4, 0);
        }
        wr(m, MPAMF_ESR, 0);
    }
}

static void k_reset_bitmap(MpamMsc *m, uint64_t reg, unsigned wd)
{
    unsigned n = (wd + 31) / 32;

    for (unsigned i = 0; i + 1 < n; i++) {
        wr(m, reg + 4 * i, 0xFFFFFFFF);
    }
    wr(m, reg + 4 * (n - 1), (uint32_t)(~0ULL >> (63 - (wd - 1) % 32)) );
}

/* mpam_reprogram_ris_partid with a reset (or CPBM/MBW_MAX) config. */
static void k_reprogram(MpamMsc *m, const KRis *r, unsigned ris, unsigned partid,
                        int64_t cpbm, int64_t mbw_max)
{
    wr(m, MPAMCFG_PART_SEL, part_sel(ris, partid, false));
    if (r->nrw) {
        wr(m, MPAMCFG_INTPARTID, 0x10000 | partid);
        wr(m, MPAMCFG_PART_SEL, part_sel(ris, partid, true));
    }
    if (r->cpor) {
        if (cpbm >= 0) {
            wr(m, MPAMCFG_CPBM, cpbm);
        } else {
            k_reset_bitmap(m, MPAMCFG_CPBM, r->cpbm_wd);
        }
    }
    if (r->mbw_part) {
        k_reset_bitmap(m, MPAMCFG_MBW_PBM, r->mbw_pbm_bits);
    }
    if (r->mbw_min) {
        wr(m, MPAMCFG_MBW_MIN, 0);
    }
    if (r->mbw_max) {
        wr(m, MPAMCFG_MBW_MAX, mbw_max >= 0 ? mbw_max : 0xFFFF);
    }
    if (r->mbw_prop) {
        wr(m, MPAMCFG_MBW_PROP, 0);
    }
    if (r->cmax) {
        wr(m, MPAMCFG_CMAX, 0xFFFF);
    }
    if (r->cmin) {
        wr(m, MPAMCFG_CMIN, 0);
    }
    if (r->cassoc) {
        wr(m, MPAMCFG_CASSOC, 0xFFFF);
    }
    if (r->intpri || r->dspri) {
        uint32_t pri = 0;
        if (r->intpri && r->intpri_0_low) {
            pri |= (1u << r->intpri_wd) - 1;
        }
        if (r->dspri && r->dspri_0_low) {
            pri |= ((1u << r->dspri_wd) - 1) << 16;
        }
        wr(m, MPAMCFG_PRI, pri);
    }
}

/* __ris_msmon_read; returns the value or -1 for NRDY (-EBUSY). */
static int64_t k_mon_read(MpamMsc *m, const KRis *r, unsigned ris, bool csu,
                          unsigned mon, unsigned partid, unsigned pmg)
{
    uint32_t ctl_val = 1u << 16 | 1u << 17 | (csu ? 0x43 : 0x42);
    uint32_t flt_val = pmg << 16 | partid;
    uint64_t ctl_reg = csu ? MSMON_CFG_CSU_CTL : MSMON_CFG_MBWU_CTL;
    uint64_t flt_reg = csu ? MSMON_CFG_CSU_FLT : MSMON_CFG_MBWU_FLT;
    uint32_t cur_ctl, cur_flt;
    bool overflow;
    uint64_t now;

    wr(m, MSMON_CFG_MON_SEL, mon_sel(ris, mon));
    cur_ctl = rd(m, ctl_reg);
    cur_flt = rd(m, flt_reg);
    overflow = !csu && (cur_ctl & (r->mbwu_width == 31 ? 1u << 26 : 1u << 15));
    cur_ctl &= ~(1u << 26);
    if (!csu) {
        cur_ctl &= ~(1u << 15);
    }
    if (cur_flt != flt_val || cur_ctl != (ctl_val | 1u << 31)) {
        wr(m, flt_reg, flt_val);
        wr(m, ctl_reg, ctl_val);
        if (csu) {
            wr(m, MSMON_CSU, 0);
            wr(m, ctl_reg, ctl_val | 1u << 31);
        } else {
            wr(m, ctl_reg, ctl_val | 1u << 31);
            if (r->mbwu_width == 31) {
                wr(m, MSMON_MBWU, 0);
            } else {
                wr(m, MSMON_MBWU_L, 0);
                wr(m, MSMON_MBWU_L + 4, 0);
            }
        }
    } else if (overflow) {
        wr(m, MSMON_CFG_MBWU_CTL, cur_ctl);
    }
    if (csu) {
        now = rd(m, MSMON_CSU);
        return (now & (1u << 31)) ? -1 : (int64_t)(now & 0x7FFFFFFF);
    }
    if (r->mbwu_width == 31) {
        now = rd(m, MSMON_MBWU);
        return (now & (1u << 31)) ? -1 : (int64_t)(now & 0x7FFFFFFF);
    }
    for (int retry = 3; retry; retry--) {
        uint64_t hi = rd(m, MSMON_MBWU_L + 4);
        uint64_t lo = rd(m, MSMON_MBWU_L);
        if (hi == rd(m, MSMON_MBWU_L + 4)) {
            now = hi << 32 | lo;
            if (now >> 63) {
                return -1;
            }
            return now & (r->mbwu_width == 63 ? ~0ULL >> 1 : (1ULL << 44) - 1);
        }
    }
    return -1;
}

static void test_linux_sequences(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    KMsc k = { 0 };
    int64_t v;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    k_probe(msc, &k);
    CU_ASSERT_EQUAL(k.ris_max, 2);
    CU_ASSERT_EQUAL(k.partid_max, 7);                       /* narrowed */
    CU_ASSERT_EQUAL(k.pmg_max, 1);
    CU_ASSERT_TRUE(k.ris[0].cpor && k.ris[0].cmax && k.ris[0].cmin &&
                   k.ris[0].cassoc && k.ris[0].csu && k.ris[0].mbwu);
    CU_ASSERT_EQUAL(k.ris[0].mbwu_width, 44);
    CU_ASSERT_TRUE(k.ris[1].mbw_part && k.ris[1].mbw_max && k.ris[1].mbw_min &&
                   k.ris[1].mbw_prop && k.ris[1].intpri && k.ris[1].dspri);
    CU_ASSERT_EQUAL(k.ris[1].mbwu_width, 63);
    CU_ASSERT_TRUE(k.ris[2].nrw && k.ris[2].mbw_max);
    CU_ASSERT_EQUAL(k.ris[2].mbwu_width, 31);

    /* mpam_enable_once: W ECR = 1; then reprogram every PARTID of every RIS. */
    wr(msc, MPAMF_ECR, 1);
    for (unsigned ris = 0; ris <= k.ris_max; ris++) {
        for (unsigned p = 0; p <= k.partid_max; p++) {
            k_reprogram(msc, &k.ris[ris], ris, p, -1, -1);
        }
    }
    /* Schemata changes: L3 CPBM and MB on PARTID 1. */
    k_reprogram(msc, &k.ris[0], 0, 1, 0x00FF, -1);
    k_reprogram(msc, &k.ris[1], 1, 1, -1, 0x8000);
    k_reprogram(msc, &k.ris[2], 2, 1, -1, 0x4000);

    /* Monitors: each CSU and MBWU monitor on every RIS that has it. */
    for (unsigned ris = 0; ris <= k.ris_max; ris++) {
        for (unsigned mon = 0; mon < k.ris[ris].num_csu; mon++) {
            v = k_mon_read(msc, &k.ris[ris], ris, true, mon, mon % 8, mon % 2);
            if (v < 0) {                /* NRDY: sleep nrdy_usec, retry once */
                t.now += TEST_NRDY_NS;
                v = k_mon_read(msc, &k.ris[ris], ris, true, mon, mon % 8, mon % 2);
            }
            CU_ASSERT(v >= 0);
        }
        for (unsigned mon = 0; mon < k.ris[ris].num_mbwu; mon++) {
            v = k_mon_read(msc, &k.ris[ris], ris, false, mon, mon, 1);
            CU_ASSERT_EQUAL(v, 0);
            /* The second read finds CTL/FLT unchanged and does not reset. */
            /* a line not yet in a cache RIS: it counts its 4 fills */
            test_access(msc, ris, mon, 1, 0x1000 * (mon + 1), 256, false);
            v = k_mon_read(msc, &k.ris[ris], ris, false, mon, mon, 1);
            CU_ASSERT_EQUAL(v, 256);
        }
    }
    /* mpam_save_mbwu_state: R FLT, R CTL, W CTL=0, read and zero counter. */
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(0, 0));
    rd(msc, MSMON_CFG_MBWU_FLT);
    rd(msc, MSMON_CFG_MBWU_CTL);
    wr(msc, MSMON_CFG_MBWU_CTL, 0);
    rd(msc, MSMON_MBWU_L + 4);
    rd(msc, MSMON_MBWU_L);
    wr(msc, MSMON_MBWU_L, 0);
    wr(msc, MSMON_MBWU_L + 4, 0);

    CU_ASSERT_EQUAL(mpam_msc_read(msc, MPAMF_ESR, 8), 0);
    CU_ASSERT_FALSE(t.irq[MPAM_MSC_IRQ_ERROR]);
    CU_ASSERT_EQUAL(t.errors, 0);
    CU_ASSERT_EQUAL(t.guest_errors, 0);
    CU_ASSERT(t.cfg_writes > 3 * 8 * 4);

    /* The schemata values landed where the driver put them. */
    {
        MpamPartidCfg pc;
        CU_ASSERT_TRUE(mpam_msc_get_partid_cfg(msc, 0, 1, &pc));
        CU_ASSERT_EQUAL(pc.cpbm[0], 0x00FF);
        CU_ASSERT_TRUE(mpam_msc_get_partid_cfg(msc, 1, 1, &pc));
        CU_ASSERT_EQUAL(pc.ctl->mbw_max, 0x8000);
        CU_ASSERT_EQUAL(pc.ctl->pri, 0xF);       /* INTPRI 0 is low: all ones */
        CU_ASSERT_TRUE(mpam_msc_get_partid_cfg(msc, 2, 1, &pc));
        CU_ASSERT_EQUAL(pc.intpartid, 1);
        CU_ASSERT_EQUAL(pc.ctl->mbw_max, 0x4000);
    }
    mpam_msc_free(msc);
}

/* ------------------------------------------------------- CPBM & PBM */

static void test_cpbm_masks(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;

    test_config(&cfg);
    cfg.ris[0].cpbm_wd = 40;
    msc = test_msc(&t, &cfg);
    wr(msc, MPAMCFG_PART_SEL, part_sel(0, 9, false));
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CPBM), 0xFFFFFFFF);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CPBM + 4), 0xFF);
    wr(msc, MPAMCFG_CPBM + 4, 0xFFFFFF0F);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CPBM + 4), 0x0F);
    wr(msc, MPAMCFG_CPBM, 0x12345678);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CPBM), 0x12345678);
    CU_ASSERT_EQUAL(t.guest_errors, 0);
    /* Word beyond CPBM_WD: RAZ/WI with a guest error, no ESR error. */
    wr(msc, MPAMCFG_CPBM + 8, 0xFFFFFFFF);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CPBM + 8), 0);
    CU_ASSERT_EQUAL(t.guest_errors, 1);
    CU_ASSERT_EQUAL(t.errors, 0);
    /* Other PARTIDs are untouched. */
    wr(msc, MPAMCFG_PART_SEL, part_sel(0, 8, false));
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CPBM), 0xFFFFFFFF);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CPBM + 4), 0xFF);

    /* Fraction registers keep only their implemented top bits. */
    wr(msc, MPAMCFG_CMAX, 0x8000FFFF);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CMAX), 0xFF00);         /* no SOFTLIM */
    wr(msc, MPAMCFG_CASSOC, 0x1234);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_CASSOC), 0x1000);
    wr(msc, MPAMCFG_PART_SEL, part_sel(1, 8, false));
    wr(msc, MPAMCFG_MBW_MAX, 0x8000ABCD);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_MBW_MAX), 0x8000AB00);  /* HARDLIM kept */
    wr(msc, MPAMCFG_PRI, 0xFFFFFFFF);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_PRI), 0x000F000F);
    wr(msc, MPAMCFG_MBW_WINWD, 0x12345678);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_MBW_WINWD), 0x00345678);
    mpam_msc_free(msc);
}

/* -------------------------------------------------------- narrowing */

static void test_narrowing(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    MpamPartidCfg pc;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    /* intPARTID 3 gets MBW_MAX 0x2000. */
    wr(msc, MPAMCFG_PART_SEL, part_sel(2, 3, true));
    wr(msc, MPAMCFG_MBW_MAX, 0x2000);
    /* reqPARTID 12 maps to intPARTID 3. */
    wr(msc, MPAMCFG_PART_SEL, part_sel(2, 12, false));
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_INTPARTID), 0x10000);   /* reset: 12 -> 0 */
    wr(msc, MPAMCFG_INTPARTID, 0x10003);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_INTPARTID), 0x10003);
    /* A reqPARTID selection reaches the mapped controls. */
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_MBW_MAX), 0x2000);
    CU_ASSERT_TRUE(mpam_msc_get_partid_cfg(msc, 2, 12, &pc));
    CU_ASSERT_EQUAL(pc.intpartid, 3);
    CU_ASSERT_EQUAL(pc.ctl->mbw_max, 0x2000);
    CU_ASSERT_FALSE(mpam_msc_get_partid_cfg(msc, 2, 16, &pc));
    CU_ASSERT_FALSE(mpam_msc_get_partid_cfg(msc, 3, 0, &pc));
    /* Traffic from reqPARTID 12 is counted as intPARTID 3. */
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(2, 0));
    wr(msc, MSMON_CFG_MBWU_FLT, 3);
    wr(msc, MSMON_CFG_MBWU_CTL, 0x80010042);
    wr(msc, MSMON_MBWU, 0);
    test_access(msc, 2, 12, 0, 0, 100, false);
    test_access(msc, 2, 11, 0, 0, 100, false);            /* maps to 0 */
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU), 100);
    CU_ASSERT_EQUAL(t.errors, 0);
    CU_ASSERT_EQUAL(t.guest_errors, 0);
    mpam_msc_free(msc);
}

/* -------------------------------------------------------- priority */

static void test_pri_policy(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    MpamPartidCfg pc;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    /* The driver writes one constant for all PARTIDs. */
    for (unsigned p = 0; p < 4; p++) {
        wr(msc, MPAMCFG_PART_SEL, part_sel(1, p, false));
        wr(msc, MPAMCFG_PRI, 0x0000000F);
    }
    CU_ASSERT_EQUAL(mpam_msc_effective_dspri(msc, 1, 2), 0);
    CU_ASSERT_EQUAL(mpam_msc_effective_intpri(msc, 1, 2), 0xF);
    CU_ASSERT_TRUE(mpam_msc_set_pri_policy(msc, 1, 2, 3, 0x1F));
    CU_ASSERT_EQUAL(mpam_msc_effective_dspri(msc, 1, 2), 0xF);  /* DSPRI_WD 4 */
    CU_ASSERT_EQUAL(mpam_msc_effective_intpri(msc, 1, 2), 3);
    CU_ASSERT_EQUAL(mpam_msc_effective_dspri(msc, 1, 1), 0);
    /* The guest keeps reading what it wrote; rewrites do not win. */
    wr(msc, MPAMCFG_PART_SEL, part_sel(1, 2, false));
    wr(msc, MPAMCFG_PRI, 0x0000000F);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_PRI), 0x0000000F);
    CU_ASSERT_EQUAL(mpam_msc_effective_dspri(msc, 1, 2), 0xF);
    CU_ASSERT_TRUE(mpam_msc_get_partid_cfg(msc, 1, 2, &pc));
    CU_ASSERT_TRUE(pc.ctl->pri_policy_set);
    CU_ASSERT_EQUAL(pc.ctl->pri, 0xF);
    CU_ASSERT_EQUAL(pc.effective_dspri, 0xF);
    /* Policy survives reset (it is host configuration). */
    mpam_msc_reset(msc);
    CU_ASSERT_EQUAL(mpam_msc_effective_dspri(msc, 1, 2), 0xF);
    CU_ASSERT_TRUE(mpam_msc_clear_pri_policy(msc, 1, 2));
    CU_ASSERT_EQUAL(mpam_msc_effective_dspri(msc, 1, 2), 0);
    CU_ASSERT_FALSE(mpam_msc_set_pri_policy(msc, 1, 64, 0, 0));
    CU_ASSERT_FALSE(mpam_msc_set_pri_policy(msc, 3, 0, 0, 0));
    /* A RIS without priorities: effective values are 0. */
    CU_ASSERT_TRUE(mpam_msc_set_pri_policy(msc, 0, 1, 5, 5));
    CU_ASSERT_EQUAL(mpam_msc_effective_dspri(msc, 0, 1), 0);
    mpam_msc_free(msc);
}

/* ---------------------------------------------------------- monitors */

static void mbwu_setup(MpamMsc *m, unsigned ris, unsigned mon, uint32_t flt,
                       uint32_t ctl)
{
    wr(m, MSMON_CFG_MON_SEL, mon_sel(ris, mon));
    wr(m, MSMON_CFG_MBWU_FLT, flt);
    wr(m, MSMON_CFG_MBWU_CTL, ctl);
    wr(m, MSMON_MBWU_L, 0);
    wr(m, MSMON_MBWU_L + 4, 0);
}

static uint64_t mbwu_l(MpamMsc *m, unsigned ris, unsigned mon)
{
    wr(m, MSMON_CFG_MON_SEL, mon_sel(ris, mon));
    return mpam_msc_read(m, MSMON_MBWU_L, 8) & ~(1ULL << 63);   /* no NRDY */
}

static void test_mbwu_filters(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;

    /*
     * On the memory RIS 1, whose MBWU counts the bytes of each request
     * (a cache RIS counts its downstream traffic: test-memsys).
     */
    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    mbwu_setup(msc, 1, 0, 0 << 16 | 1, 0x80030042);         /* PARTID 1 PMG 0 */
    mbwu_setup(msc, 1, 1, 3 << 16 | 1, 0x80010042);         /* PARTID 1 any PMG */
    mbwu_setup(msc, 1, 2, 2u << 30 | 2, 0x80010042);        /* PARTID 2 reads */
    mbwu_setup(msc, 1, 3, 1u << 30 | 3 << 16, 0x80020042);  /* PMG 3 writes */
    test_access(msc, TEST_ALL_RIS, 1, 0, 0x1000, 64, false);
    test_access(msc, 1, 1, 0, 0x2000, 128, true);
    test_access(msc, 1, 1, 3, 0x3000, 32, true);
    test_access(msc, 1, 2, 3, 0x4000, 1000, false);
    test_access(msc, 1, 2, 3, 0x4000, 10, true);
    test_access(msc, 1, 3, 0, 0x4000, 7, false);
    test_access(msc, 2, 1, 0, 0x4000, 5000, false);              /* other RIS */
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 0), 64 + 128);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 1), 64 + 128 + 32);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 2), 1000);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 3), 32 + 10);
    /* Disabled monitor does not count. */
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(1, 0));
    wr(msc, MSMON_CFG_MBWU_CTL, 0x00030042);
    test_access(msc, 1, 1, 0, 0x1000, 64, false);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 0), 64 + 128);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 1), 64 + 128 + 32 + 64);
    /* Introspection sees the same. */
    {
        MpamMonInfo mi;
        CU_ASSERT_TRUE(mpam_msc_get_mon(msc, 1, MPAM_MON_MBWU, 1, &mi));
        CU_ASSERT_EQUAL(mi.value, 64 + 128 + 32 + 64);
        CU_ASSERT_EQUAL(mi.ctl, 0x80010042);
        CU_ASSERT_EQUAL(mi.flt, 3 << 16 | 1);
        CU_ASSERT_FALSE(mpam_msc_get_mon(msc, 0, MPAM_MON_MBWU, 4, &mi));
        CU_ASSERT_FALSE(mpam_msc_get_mon(msc, 1, MPAM_MON_CSU, 0, &mi));
    }
    CU_ASSERT_EQUAL(t.errors, 0);
    mpam_msc_free(msc);
}

/* A label wider than the MSC's fields is an error, never truncated. */
static void test_wide_label(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;

    test_config(&cfg);
    cfg.ris[1].pmg_max = 255;
    msc = test_msc(&t, &cfg);
    mbwu_setup(msc, 1, 0, 232 << 16 | 1, 0x80030042);       /* PARTID 1 PMG 232 */
    mbwu_setup(msc, 1, 1, 0 << 16 | 1, 0x80030042);         /* PARTID 1 PMG 0 */
    mbwu_setup(msc, 1, 2, 0 << 16 | 0, 0x80030042);         /* PARTID 0 PMG 0 */
    test_access(msc, 1, 1, 1000, 0x1000, 64, false);        /* RMID-like 1000 */
    CU_ASSERT_EQUAL(t.last_errcode, MPAM_ERRCODE_REQ_PMG_RANGE);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 0), 0);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 1), 64);                 /* as PMG 0 */
    test_access(msc, 1, 1, 232, 0x1000, 32, false);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 0), 32);
    test_access(msc, 1, 0x10001, 0, 0x1000, 16, false);     /* PARTID > 16 bits */
    CU_ASSERT_EQUAL(t.last_errcode, MPAM_ERRCODE_REQ_PARTID_RANGE);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 1), 64);                 /* not PARTID 1 */
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 2), 16);                 /* but PARTID 0 */
    CU_ASSERT_EQUAL(t.errors, 2);
    mpam_msc_free(msc);
}

/*
 * The route decides which RIS see an address: DRAM reaches the cache and
 * the memory RIS, a device address neither.  The result tells hits, misses
 * and the bytes the cache reads from memory.
 */
static void test_route(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    MemMap *route = mem_map_new();
    MemReq uart = { .addr = 0x09000000, .size = 4, .kind = MEMREQ_WRITE,
                    .label = { 1, 0 } };
    MemReq ram = { .addr = 0x40001000, .size = 64, .kind = MEMREQ_READ,
                   .label = { 1, 0 } };
    MpamPartidCfg pc;
    MemResult res;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    CU_ASSERT_TRUE(mem_map_add(route, 0x40000000, 0x40000000, 1 << 0 | 1 << 1,
                               NULL));
    mpam_msc_set_route(msc, route);
    mbwu_setup(msc, 0, 0, 1, 0x80010042);                   /* PARTID 1 */
    mbwu_setup(msc, 1, 0, 1, 0x80010042);

    res = mpam_msc_access(msc, &uart);
    CU_ASSERT_EQUAL(res.seen, 0);
    CU_ASSERT_EQUAL(res.lines, 0);
    CU_ASSERT_EQUAL(mbwu_l(msc, 0, 0), 0);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 0), 0);

    res = mpam_msc_access(msc, &ram);
    CU_ASSERT_EQUAL(res.seen, 1 << 0 | 1 << 1);
    CU_ASSERT_EQUAL(res.lines, 1);
    CU_ASSERT_EQUAL(res.hits, 0);
    CU_ASSERT_EQUAL(res.down_read_bytes, 64);
    CU_ASSERT_EQUAL(mbwu_l(msc, 0, 0), 64);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 0), 64);
    CU_ASSERT_TRUE(mpam_msc_get_partid_cfg(msc, 0, 1, &pc));
    CU_ASSERT_EQUAL(pc.csu_bytes, 64);                      /* one line held */
    res = mpam_msc_access(msc, &ram);
    CU_ASSERT_EQUAL(res.hits, 1);
    CU_ASSERT_EQUAL(res.down_read_bytes, 0);
    CU_ASSERT_EQUAL(t.errors, 0);
    mpam_msc_free(msc);
}

/*
 * mpam_msc_cache_checksum: only a cache RIS has one; it changes with a
 * fill, with a hit (LRU order) and with a write (dirty bit), and a reset
 * brings back the empty cache's value.
 */
static void test_cache_checksum(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    uint64_t empty, filled, hit, dirty, sum;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    CU_ASSERT_TRUE(mpam_msc_cache_checksum(msc, 0, &empty));
    CU_ASSERT_FALSE(mpam_msc_cache_checksum(msc, 1, &sum));    /* memory */
    CU_ASSERT_FALSE(mpam_msc_cache_checksum(msc, 3, &sum));    /* no RIS 3 */
    test_access(msc, 0, 1, 0, 0x1000, 64, false);
    CU_ASSERT_TRUE(mpam_msc_cache_checksum(msc, 0, &filled));
    test_access(msc, 0, 1, 0, 0x2000, 64, false);
    test_access(msc, 0, 1, 0, 0x1000, 64, false);
    CU_ASSERT_TRUE(mpam_msc_cache_checksum(msc, 0, &hit));
    test_access(msc, 0, 1, 0, 0x1000, 64, true);
    CU_ASSERT_TRUE(mpam_msc_cache_checksum(msc, 0, &dirty));
    CU_ASSERT_NOT_EQUAL(filled, empty);
    CU_ASSERT_NOT_EQUAL(hit, filled);
    CU_ASSERT_NOT_EQUAL(dirty, hit);
    mpam_msc_reset(msc);
    CU_ASSERT_TRUE(mpam_msc_cache_checksum(msc, 0, &sum));
    CU_ASSERT_EQUAL(sum, empty);
    mpam_msc_free(msc);
}

/* 31-, 44- and 63-bit counters wrap and set the right overflow flag. */
static void test_mbwu_wrap(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    uint32_t ctl;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);

    /* RIS 2: 31-bit, OFLOW_STATUS, overflow IRQ. */
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(2, 1));
    wr(msc, MSMON_CFG_MBWU_FLT, 4);
    wr(msc, MSMON_CFG_MBWU_CTL, 0x82010042);                /* + OFLOW_INTR */
    wr(msc, MSMON_MBWU, 0x7FFFFF00);
    test_access(msc, 2, 4, 0, 0, 0x80, false);
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU), 0x7FFFFF80);
    CU_ASSERT_FALSE(rd(msc, MSMON_CFG_MBWU_CTL) & (1u << 26));
    CU_ASSERT_FALSE(t.irq[MPAM_MSC_IRQ_OVERFLOW]);
    test_access(msc, 2, 4, 0, 0, 0x100, false);
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU), 0x80);
    ctl = rd(msc, MSMON_CFG_MBWU_CTL);
    CU_ASSERT_EQUAL(ctl, 0x86010042);                       /* OFLOW_STATUS */
    CU_ASSERT_TRUE(t.irq[MPAM_MSC_IRQ_OVERFLOW]);
    /* Driver clears the status; no NRDY for a status-only change. */
    wr(msc, MSMON_CFG_MBWU_CTL, ctl & ~(1u << 26));
    CU_ASSERT_FALSE(t.irq[MPAM_MSC_IRQ_OVERFLOW]);
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU), 0x80);

    /* OFLOW_FRZ: the counter stops after overflow until status clears. */
    wr(msc, MSMON_CFG_MBWU_CTL, 0x81010042);
    wr(msc, MSMON_MBWU, 0x7FFFFFF0);
    test_access(msc, 2, 4, 0, 0, 0x20, false);
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU), 0x10);
    test_access(msc, 2, 4, 0, 0, 0x20, false);
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU), 0x10);
    wr(msc, MSMON_CFG_MBWU_CTL, 0x81010042);
    test_access(msc, 2, 4, 0, 0, 0x20, false);
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU), 0x30);

    /*
     * RIS 0: 44-bit, OFLOW_STATUS_L.  A cache RIS counts its downstream
     * traffic: each access below misses and fills one line.
     */
    mbwu_setup(msc, 0, 2, 5, 0x80010042);
    wr(msc, MSMON_MBWU_L, 0xFFFFFFF0);
    wr(msc, MSMON_MBWU_L + 4, 0xFFF);
    CU_ASSERT_EQUAL(mbwu_l(msc, 0, 2), (1ULL << 44) - 0x10);
    test_access(msc, 0, 5, 0, 0, 0x18, true);
    CU_ASSERT_EQUAL(mbwu_l(msc, 0, 2), 64 - 0x10);
    ctl = rd(msc, MSMON_CFG_MBWU_CTL);
    CU_ASSERT_EQUAL(ctl, 0x80018042);                       /* OFLOW_STATUS_L */
    CU_ASSERT_FALSE(t.irq[MPAM_MSC_IRQ_OVERFLOW]);          /* no OFLOW_INTR */
    /* Crossing 2^31 in long mode is not an overflow. */
    mbwu_setup(msc, 0, 3, 5, 0x80010042);
    wr(msc, MSMON_MBWU_L, 0x7FFFFFF0);
    test_access(msc, 0, 5, 0, 0x1000, 0x20, true);
    CU_ASSERT_EQUAL(mbwu_l(msc, 0, 3), 0x7FFFFFF0ULL + 64);
    CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_MBWU_CTL), 0x80010042);

    /* RIS 1: 63-bit. */
    mbwu_setup(msc, 1, 0, 6, 0x80010042);
    wr(msc, MSMON_MBWU_L, 0xFFFFFF00);
    wr(msc, MSMON_MBWU_L + 4, 0x7FFFFFFF);
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU_L + 4), 0x7FFFFFFF); /* NRDY clear */
    test_access(msc, 1, 6, 0, 0, 0x80, false);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 0), 0x7FFFFFFFFFFFFF80ULL);
    test_access(msc, 1, 6, 0, 0, 0x100, false);
    CU_ASSERT_EQUAL(mbwu_l(msc, 1, 0), 0x80);
    CU_ASSERT_EQUAL(rd(msc, MSMON_CFG_MBWU_CTL), 0x80018042);
    CU_ASSERT_EQUAL(t.errors, 0);
    CU_ASSERT_EQUAL(t.guest_errors, 0);
    mpam_msc_free(msc);
}

/*
 * The overflow comes on the request that crosses the limit, neither
 * before nor after, whichever labels feed the monitor and whatever other
 * traffic comes between (RIS 1, 63-bit): monitor 0 counts PARTID 3, whose
 * reads come as PMG 0 and writes as PMG 2; monitor 1 PARTID 3 PMG 2's
 * writes, with OFLOW_FRZ; monitor 2 PARTID 5, 4 KiB after each of
 * PARTID 3's 64-byte requests; monitor 3 is disabled at its limit's edge.
 * Only CTL and the IRQ line are looked at between the requests, not the
 * values.  Then the values migrate (mpam_msc_pre_save, the monitors
 * copied as VMState does, mpam_msc_post_load) and count on alike.
 */
static void test_mbwu_overflow_request(void)
{
    const uint64_t lim = 1ULL << 63;
    const uint64_t want[4] = { 1560 + 128, 20, 40 * 4096, lim - 1 };
    MpamMscConfig cfg;
    TestCtx t, t2;
    MpamMsc *msc, *b;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    mbwu_setup(msc, 1, 0, 3, 0x82010042);                   /* OFLOW_INTR */
    mpam_msc_write(msc, MSMON_MBWU_L, lim - 1000, 8);
    mbwu_setup(msc, 1, 1, 1u << 30 | 2 << 16 | 3, 0x83030042);  /* + FRZ */
    mpam_msc_write(msc, MSMON_MBWU_L, lim - 300, 8);
    mbwu_setup(msc, 1, 2, 5, 0x80010042);
    mbwu_setup(msc, 1, 3, 3, 0x00010042);
    mpam_msc_write(msc, MSMON_MBWU_L, lim - 1, 8);
    for (unsigned i = 0; i < 40; i++) {
        test_access(msc, 1, 3, i & 1 ? 2 : 0, 0x1000, 64, i & 1);
        /* 1000 bytes: the 16th request; 300: the 5th write (i = 9) */
        wr(msc, MSMON_CFG_MON_SEL, mon_sel(1, 0));
        CU_ASSERT_EQUAL(!!(rd(msc, MSMON_CFG_MBWU_CTL) & 1u << 15), i >= 15);
        wr(msc, MSMON_CFG_MON_SEL, mon_sel(1, 1));
        CU_ASSERT_EQUAL(!!(rd(msc, MSMON_CFG_MBWU_CTL) & 1u << 15), i >= 9);
        CU_ASSERT_EQUAL(t.irq[MPAM_MSC_IRQ_OVERFLOW], i >= 9);
        test_access(msc, 1, 5, 1, 0x2000, 4096, false);
    }
    CU_ASSERT_EQUAL(t.irq_changes[MPAM_MSC_IRQ_OVERFLOW], 1);

    /* the state array that migrates takes the bytes not yet synced */
    test_access(msc, 1, 3, 2, 0x1000, 64, true);
    mpam_msc_pre_save(msc);
    CU_ASSERT_EQUAL(msc->ris[1].mbwu_mon[0].value, 1560 + 64);  /* wrapped */
    b = test_msc(&t2, &cfg);
    memcpy(b->ris[1].mbwu_mon, msc->ris[1].mbwu_mon, 4 * sizeof(MpamMon));
    CU_ASSERT_PTR_NULL(mpam_msc_post_load(b));
    CU_ASSERT_TRUE(t2.irq[MPAM_MSC_IRQ_OVERFLOW]);
    test_access(msc, 1, 3, 2, 0x1000, 64, true);
    test_access(b, 1, 3, 2, 0x1000, 64, true);
    for (unsigned mon = 0; mon < 4; mon++) {
        CU_ASSERT_EQUAL(mbwu_l(msc, 1, mon), want[mon]);
        CU_ASSERT_EQUAL(mbwu_l(b, 1, mon), want[mon]);
    }
    CU_ASSERT_EQUAL(t.errors + t2.errors, 0);
    mpam_msc_free(msc);
    mpam_msc_free(b);
}

static void test_nrdy_timing(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    MpamMonInfo mi;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    t.now = 5000;
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(0, 3));
    CU_ASSERT_FALSE(rd(msc, MSMON_CSU) & (1u << 31));
    wr(msc, MSMON_CFG_CSU_FLT, 2);
    wr(msc, MSMON_CFG_CSU_CTL, 0x80010043);
    CU_ASSERT_TRUE(rd(msc, MSMON_CSU) & (1u << 31));
    CU_ASSERT_TRUE(mpam_msc_get_mon(msc, 0, MPAM_MON_CSU, 3, &mi));
    CU_ASSERT_TRUE(mi.nrdy);
    t.now += TEST_NRDY_NS - 1;
    CU_ASSERT_TRUE(rd(msc, MSMON_CSU) & (1u << 31));
    t.now += 1;
    CU_ASSERT_FALSE(rd(msc, MSMON_CSU) & (1u << 31));
    /* Rewriting the same configuration is not a reconfiguration. */
    wr(msc, MSMON_CFG_CSU_CTL, 0x80010043);
    CU_ASSERT_FALSE(rd(msc, MSMON_CSU) & (1u << 31));
    /* A new filter is; software writing 0 clears NRDY immediately. */
    wr(msc, MSMON_CFG_CSU_FLT, 3);
    CU_ASSERT_TRUE(rd(msc, MSMON_CSU) & (1u << 31));
    wr(msc, MSMON_CSU, 0);
    CU_ASSERT_FALSE(rd(msc, MSMON_CSU) & (1u << 31));
    /* Software-set NRDY stays until software clears it. */
    wr(msc, MSMON_CSU, 0x80000000);
    t.now += 10 * TEST_NRDY_NS;
    CU_ASSERT_TRUE(rd(msc, MSMON_CSU) & (1u << 31));
    wr(msc, MSMON_CSU, 0);

    /* MBWU_L: NRDY in bit 63, cleared by the high-word write. */
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(1, 1));
    wr(msc, MSMON_CFG_MBWU_CTL, 0x80010042);
    CU_ASSERT_TRUE(rd(msc, MSMON_MBWU_L + 4) & (1u << 31));
    wr(msc, MSMON_MBWU_L, 0);
    CU_ASSERT_TRUE(rd(msc, MSMON_MBWU_L + 4) & (1u << 31));
    wr(msc, MSMON_MBWU_L + 4, 0);
    CU_ASSERT_FALSE(rd(msc, MSMON_MBWU_L + 4) & (1u << 31));
    mpam_msc_free(msc);

    /* nrdy_ns = 0: monitors are ready at once. */
    cfg.nrdy_ns = 0;
    msc = test_msc(&t, &cfg);
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(0, 3));
    wr(msc, MSMON_CFG_CSU_CTL, 0x80010043);
    CU_ASSERT_FALSE(rd(msc, MSMON_CSU) & (1u << 31));
    mpam_msc_free(msc);
}

static uint32_t csu_read(MpamMsc *m, unsigned mon, unsigned partid, int pmg)
{
    wr(m, MSMON_CFG_MON_SEL, mon_sel(0, mon));
    wr(m, MSMON_CFG_CSU_FLT, (pmg < 0 ? 0 : pmg << 16) | partid);
    wr(m, MSMON_CFG_CSU_CTL, 0x80010043 | (pmg < 0 ? 0 : 1u << 17));
    wr(m, MSMON_CSU, 0);                                    /* clear NRDY */
    return rd(m, MSMON_CSU);
}

/* CSU from traffic, honouring CPBM: disjoint portions do not interfere. */
static void test_csu_cpbm(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    const uint32_t cache = 64 * 1024;
    uint32_t a_bytes;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    wr(msc, MPAMCFG_PART_SEL, part_sel(0, 1, false));
    wr(msc, MPAMCFG_CPBM, 0x00FF);
    wr(msc, MPAMCFG_PART_SEL, part_sel(0, 2, false));
    wr(msc, MPAMCFG_CPBM, 0xFF00);

    /* PARTID 1 (PMG 1) touches a 16 KiB working set twice. */
    for (int pass = 0; pass < 2; pass++) {
        for (uint32_t a = 0; a < 16 * 1024; a += 64) {
            test_access(msc, 0, 1, 1, 0x100000 + a, 64, false);
        }
    }
    a_bytes = csu_read(msc, 0, 1, 1);
    CU_ASSERT_EQUAL(a_bytes, 16 * 1024);
    CU_ASSERT_EQUAL(csu_read(msc, 1, 1, 0), 0);
    CU_ASSERT_EQUAL(csu_read(msc, 1, 1, -1), 16 * 1024);

    /* PARTID 2 streams 4 MiB, with accesses spanning lines. */
    for (uint32_t a = 0; a < 4 * 1024 * 1024; a += 256) {
        test_access(msc, 0, 2, 0, 0x40000000 + a, 256, true);
    }
    CU_ASSERT_EQUAL(csu_read(msc, 0, 1, 1), a_bytes);
    CU_ASSERT_EQUAL(csu_read(msc, 2, 2, 0), cache / 2);
    CU_ASSERT_EQUAL(csu_read(msc, 3, 2, -1), cache / 2);

    /* PARTID 3 with the reset CPBM (all portions) evicts both. */
    for (uint32_t a = 0; a < 4 * 1024 * 1024; a += 64) {
        test_access(msc, 0, 3, 0, 0x80000000 + a, 64, false);
    }
    CU_ASSERT_EQUAL(csu_read(msc, 4, 3, 0), cache);
    CU_ASSERT_EQUAL(csu_read(msc, 0, 1, 1), 0);
    CU_ASSERT_EQUAL(csu_read(msc, 2, 2, 0), 0);

    /* CMAX = 1/4: PARTID 4 occupies at most a quarter of the cache. */
    wr(msc, MPAMCFG_PART_SEL, part_sel(0, 4, false));
    wr(msc, MPAMCFG_CMAX, 0x3FFF);
    for (uint32_t a = 0; a < 1024 * 1024; a += 64) {
        test_access(msc, 0, 4, 2, 0xC0000000 + a, 64, false);
    }
    CU_ASSERT_EQUAL(csu_read(msc, 5, 4, 2), cache / 4);
    {
        MpamPartidCfg pc;
        CU_ASSERT_TRUE(mpam_msc_get_partid_cfg(msc, 0, 4, &pc));
        CU_ASSERT_EQUAL(pc.csu_bytes, cache / 4);
    }
    /* A monitor matching nothing reads the whole cache. */
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(0, 6));
    wr(msc, MSMON_CFG_CSU_CTL, 0x80000043);
    wr(msc, MSMON_CSU, 0);
    CU_ASSERT_EQUAL(rd(msc, MSMON_CSU), cache);
    CU_ASSERT_EQUAL(t.errors, 0);
    CU_ASSERT_EQUAL(t.guest_errors, 0);
    mpam_msc_free(msc);
}

static void test_capture(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    /* MBWU monitor with software capture event and CAPT_RESET. */
    mbwu_setup(msc, 0, 0, 1, 0x80010042 | 7u << 28 | 1u << 27);
    test_access(msc, 0, 1, 0, 0, 500, false);
    /* CSU monitor with software capture. */
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(0, 0));
    wr(msc, MSMON_CFG_CSU_FLT, 1);
    wr(msc, MSMON_CFG_CSU_CTL, 0x80010043 | 7u << 28);
    wr(msc, MSMON_CAPT_EVNT, 1);
    CU_ASSERT_EQUAL(rd(msc, MSMON_CSU_CAPTURE), 512);       /* 8 lines */
    /* the cache RIS's MBWU: the 8 line fills of the 500-byte read */
    CU_ASSERT_EQUAL(mpam_msc_read(msc, MSMON_MBWU_L_CAPTURE, 8), 512);
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU_CAPTURE), 512);
    CU_ASSERT_EQUAL(mbwu_l(msc, 0, 0), 0);                  /* CAPT_RESET */
    /* RIS 2 has no capture registers. */
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(2, 0));
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU_CAPTURE), 0);
    CU_ASSERT_EQUAL(t.guest_errors, 1);
    CU_ASSERT_EQUAL(t.errors, 0);
    mpam_msc_free(msc);
}

/* A single-RIS MSC: RIS fields are RES0, missing controls are not errors. */
static void test_single_ris(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;

    mpam_msc_config_default(&cfg);
    msc = test_msc(&t, &cfg);
    CU_ASSERT_EQUAL((mpam_msc_read(msc, MPAMF_IDR, 8) >> 32) & 1, 0);
    CU_ASSERT_EQUAL((mpam_msc_read(msc, MPAMF_IDR, 8) >> 56) & 0xF, 0);
    wr(msc, MPAMCFG_PART_SEL, 0x0F000003);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_PART_SEL), 3);
    wr(msc, MPAMCFG_MBW_MAX, 1);
    CU_ASSERT_EQUAL(t.errors, 0);
    CU_ASSERT_EQUAL(t.guest_errors, 1);
    mpam_msc_free(msc);
}

/* ------------------------------------------------ two RIS, one MSC */

/*
 * The nr-ris device property: a cache MSC with a second, memory RIS.  Each
 * RIS reports its own ID registers, keeps its own controls and monitors,
 * and a selector beyond RIS_MAX is an architected error.
 */
static void test_two_ris(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    MpamPartidCfg pc;

    mpam_msc_config_default(&cfg);
    cfg.ris[0].partid_max = 15;
    mpam_msc_config_set_nr_ris(&cfg, 2);
    CU_ASSERT_EQUAL(cfg.ris[1].kind, MPAM_RIS_MEMORY);
    CU_ASSERT_EQUAL(cfg.ris[1].partid_max, 15);
    msc = test_msc(&t, &cfg);

    /* MPAMF_IDR: HAS_RIS, RIS_MAX 1, banked CPOR/MBW parts. */
    wr(msc, MPAMCFG_PART_SEL, part_sel(0, 0, false));
    CU_ASSERT_EQUAL(MPAM_FEX(mpam_msc_read(msc, MPAMF_IDR, 8), MPAMF_IDR,
                             HAS_RIS), 1);
    CU_ASSERT_EQUAL(MPAM_FEX(mpam_msc_read(msc, MPAMF_IDR, 8), MPAMF_IDR,
                             RIS_MAX), 1);
    CU_ASSERT_EQUAL(MPAM_FEX(rd(msc, MPAMF_IDR), MPAMF_IDR, HAS_CPOR_PART),
                    1);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_CPOR_IDR), cfg.ris[0].cpbm_wd);
    wr(msc, MPAMCFG_PART_SEL, part_sel(1, 0, false));
    CU_ASSERT_EQUAL(MPAM_FEX(rd(msc, MPAMF_IDR), MPAMF_IDR, HAS_CPOR_PART),
                    0);
    CU_ASSERT_EQUAL(MPAM_FEX(rd(msc, MPAMF_IDR), MPAMF_IDR, HAS_MBW_PART),
                    1);
    CU_ASSERT_EQUAL(MPAM_FEX(rd(msc, MPAMF_MBW_IDR), MPAMF_MBW_IDR, BWA_WD),
                    cfg.ris[1].bwa_wd);

    /* Controls of one RIS do not leak into the other. */
    wr(msc, MPAMCFG_PART_SEL, part_sel(0, 3, false));
    wr(msc, MPAMCFG_CPBM, 0x00F0);
    wr(msc, MPAMCFG_PART_SEL, part_sel(1, 3, false));
    wr(msc, MPAMCFG_MBW_MAX, 0x4000);
    CU_ASSERT_EQUAL(rd(msc, MPAMCFG_MBW_MAX), 0x4000);
    CU_ASSERT_TRUE(mpam_msc_get_partid_cfg(msc, 0, 3, &pc));
    CU_ASSERT_EQUAL(pc.cpbm[0], 0x00F0);
    CU_ASSERT_TRUE(mpam_msc_get_partid_cfg(msc, 1, 3, &pc));
    CU_ASSERT_EQUAL(pc.ctl->mbw_max, 0x4000);
    CU_ASSERT_FALSE(mpam_msc_partid_is_reset(msc, 0, 3));
    CU_ASSERT_FALSE(mpam_msc_partid_is_reset(msc, 1, 3));
    CU_ASSERT_TRUE(mpam_msc_partid_is_reset(msc, 1, 2));
    CU_ASSERT_EQUAL(t.errors, 0);

    /* A memory RIS has no CPBM: RIS_No_Control; RIS 2 does not exist. */
    wr(msc, MPAMCFG_CPBM, 0);
    CU_ASSERT_EQUAL(esr_errcode(msc), MPAM_ERRCODE_RIS_NO_CONTROL);
    wr(msc, MPAMF_ESR, 0);
    wr(msc, MPAMCFG_PART_SEL, part_sel(2, 3, false));
    rd(msc, MPAMF_IDR);
    CU_ASSERT_EQUAL(esr_errcode(msc), MPAM_ERRCODE_UNDEFINED_RIS_PART_SEL);
    wr(msc, MPAMF_ESR, 0);

    /* Traffic to one RIS counts in that RIS's monitors only. */
    for (unsigned ris = 0; ris < 2; ris++) {
        wr(msc, MSMON_CFG_MON_SEL, mon_sel(ris, 0));
        wr(msc, MSMON_CFG_MBWU_CTL, 0x80000042);
    }
    {
        MemMap *route = mem_map_new();
        MemReq req = { .addr = 0x1000, .size = 64, .label = { 3, 0 } };

        CU_ASSERT_TRUE(mem_map_add(route, 0, 0x10000, 1 << 1, NULL));
        mpam_msc_set_route(msc, route);
        mpam_msc_access(msc, &req);
    }
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(0, 0));
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU) & MSMON_VALUE_MASK, 0);
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(1, 0));
    CU_ASSERT_EQUAL(rd(msc, MSMON_MBWU) & MSMON_VALUE_MASK, 64);
    CU_ASSERT_EQUAL(t.errors, 2);
    mpam_msc_free(msc);
}

/* -------------------------------------------- the register table */

/*
 * Every per-PARTID control row of the table, on every RIS that implements
 * it, through MPAMCFG_PART_SEL: all-zeros and all-ones read back
 * differently (the register stores something), MMIO and introspection
 * agree, the neighbouring PARTID is untouched, and reset restores it.  The
 * values themselves are checked against the specification elsewhere
 * (cpbm_masks, reset_values).
 */
static void test_table_controls(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    unsigned checked = 0;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    for (unsigned ris = 0; ris < cfg.nr_ris; ris++) {
        for (unsigned k = 0; k < mpam_msc_n_regs; k++) {
            const MpamRegInfo *reg = &mpam_msc_regs[k];
            unsigned n = mpam_msc_reg_size(msc, reg, ris) / 4;
            uint32_t zeros[MPAM_REG_MAX_WORDS], ones[MPAM_REG_MAX_WORDS];
            uint32_t other[MPAM_REG_MAX_WORDS], after[MPAM_REG_MAX_WORDS];
            bool zeros_reset;

            if (reg->kind != MPAM_REG_CTRL || !n ||
                reg->at == MPAM_AT_REQPARTID) {
                continue;
            }
            CU_ASSERT_EQUAL(mpam_msc_reg_peek(msc, reg, ris, 3, other), n);
            wr(msc, MPAMCFG_PART_SEL, part_sel(ris, 2, false));
            for (unsigned w = 0; w < n; w++) {
                wr(msc, reg->offset + 4 * w, 0);
            }
            mpam_msc_reg_peek(msc, reg, ris, 2, zeros);
            zeros_reset = mpam_msc_partid_is_reset(msc, ris, 2);
            for (unsigned w = 0; w < n; w++) {
                wr(msc, reg->offset + 4 * w, 0xFFFFFFFF);
            }
            mpam_msc_reg_peek(msc, reg, ris, 2, ones);
            CU_ASSERT_NOT_EQUAL(memcmp(zeros, ones, 4 * n), 0);
            for (unsigned w = 0; w < n; w++) {
                CU_ASSERT_EQUAL(rd(msc, reg->offset + 4 * w), ones[w]);
            }
            mpam_msc_reg_peek(msc, reg, ris, 3, after);
            CU_ASSERT_EQUAL(memcmp(after, other, 4 * n), 0);
            /* One of the two differs from reset, and introspection sees it. */
            CU_ASSERT_FALSE(zeros_reset &&
                            mpam_msc_partid_is_reset(msc, ris, 2));
            checked++;
        }
    }
    /* RIS 0: CPBM CMAX CMIN CASSOC; 1: MIN MAX WINWD PRI PROP PBM; 2: MAX WINWD */
    CU_ASSERT_EQUAL(checked, 4 + 6 + 2);
    CU_ASSERT_EQUAL(t.errors, 0);
    CU_ASSERT_EQUAL(t.guest_errors, 0);
    mpam_msc_reset(msc);
    for (unsigned ris = 0; ris < cfg.nr_ris; ris++) {
        CU_ASSERT_TRUE(mpam_msc_partid_is_reset(msc, ris, 2));
    }
    mpam_msc_free(msc);
}

/*
 * query-mpam's "registers": every implemented row read for the current
 * selectors equals what an MMIO read returns, and reading them for a
 * selector that would fault records no error and reads 0.
 */
static void test_peek_frame(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    uint32_t w[MPAM_REG_MAX_WORDS];
    unsigned rows = 0;

    test_config(&cfg);
    msc = test_msc(&t, &cfg);
    wr(msc, MPAMCFG_PART_SEL, part_sel(1, 5, false));
    wr(msc, MPAMCFG_MBW_MAX, 0x1234);
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(1, 2));
    wr(msc, MSMON_CFG_MBWU_FLT, 5);
    for (unsigned k = 0; k < mpam_msc_n_regs; k++) {
        const MpamRegInfo *reg = &mpam_msc_regs[k];
        unsigned n = mpam_msc_reg_peek(msc, reg, -1, 0, w);

        /* Rows RIS 1 lacks (CPBM, CSU, ...) are in the frame for RIS 0. */
        if (!mpam_msc_reg_size(msc, reg, 1)) {
            continue;
        }
        for (unsigned i = 0; i < n && i < 2; i++) {
            CU_ASSERT_EQUAL(w[i], rd(msc, reg->offset + 4 * i));
        }
        rows += n > 0;
    }
    CU_ASSERT(rows > 20);
    CU_ASSERT_EQUAL(t.errors, 0);

    /* RIS 5 does not exist: peeking records nothing and reads 0. */
    wr(msc, MPAMCFG_PART_SEL, part_sel(5, 0, false));
    wr(msc, MSMON_CFG_MON_SEL, mon_sel(5, 0));
    for (unsigned k = 0; k < mpam_msc_n_regs; k++) {
        const MpamRegInfo *reg = &mpam_msc_regs[k];
        unsigned n = mpam_msc_reg_peek(msc, reg, -1, 0, w);

        if (reg->kind == MPAM_REG_CTRL || reg->kind == MPAM_REG_MON ||
            (reg->kind == MPAM_REG_ID && reg->banked)) {
            for (unsigned i = 0; i < n; i++) {
                CU_ASSERT_EQUAL(w[i], 0);
            }
        }
    }
    CU_ASSERT_EQUAL(t.errors, 0);
    CU_ASSERT_EQUAL(t.guest_errors, 0);
    CU_ASSERT_EQUAL(rd(msc, MPAMF_ESR), 0);
    mpam_msc_free(msc);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "config_validate", test_config_validate },
        { "reset_values", test_reset_values },
        { "ris_banking", test_ris_banking },
        { "halves", test_halves },
        { "bad_accesses", test_bad_accesses },
        { "ctl_flt_readback", test_ctl_flt_readback },
        { "error_codes", test_error_codes },
        { "error_irq_and_ovrwr", test_error_irq_and_ovrwr },
        { "post_load_refuses", test_post_load_refuses },
        { "linux_sequences", test_linux_sequences },
        { "cpbm_masks", test_cpbm_masks },
        { "narrowing", test_narrowing },
        { "pri_policy", test_pri_policy },
        { "mbwu_filters", test_mbwu_filters },
        { "mbwu_wrap", test_mbwu_wrap },
        { "mbwu_overflow_request", test_mbwu_overflow_request },
        { "nrdy_timing", test_nrdy_timing },
        { "csu_cpbm", test_csu_cpbm },
        { "capture", test_capture },
        { "single_ris", test_single_ris },
        { "wide_label", test_wide_label },
        { "route", test_route },
        { "cache_checksum", test_cache_checksum },
        { "two_ris", test_two_ris },
        { "table_controls", test_table_controls },
        { "peek_frame", test_peek_frame },
    };

    return CUNIT_RUN("msc", tests);
}
