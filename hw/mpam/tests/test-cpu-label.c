// SPDX-License-Identifier: GPL-2.0-or-later
/* Unit tests of the MPAM CPU label function: one test per Arm ARM rule. */
#include "cunit-run.h"
#include "../cpu-label.h"

/* PARTID_I, PARTID_D, PMG_I, PMG_D in MPAMn_ELx layout */
static uint64_t mpamn(unsigned partid_i, unsigned partid_d, unsigned pmg_i,
                      unsigned pmg_d)
{
    return (uint64_t)partid_i << MPAMn_PARTID_I_SHIFT |
           (uint64_t)partid_d << MPAMn_PARTID_D_SHIFT |
           (uint64_t)pmg_i << MPAMn_PMG_I_SHIFT |
           (uint64_t)pmg_d << MPAMn_PMG_D_SHIFT;
}

/* PARTID_MAX 63, PMG_MAX 7, HAS_HCR, VPMR_MAX 7 (32 virtual PARTIDs) */
static struct mpam_cpu_regs regs(void)
{
    struct mpam_cpu_regs r = {
        .mpamidr_el1 = 63 | MPAMIDR_HAS_HCR | 7ULL << MPAMIDR_VPMR_MAX_SHIFT |
                       7ULL << MPAMIDR_PMG_MAX_SHIFT,
        .mpam0_el1 = mpamn(1, 2, 3, 4),
        .mpam1_el1 = MPAMn_MPAMEN | mpamn(5, 6, 5, 6),
        .mpam2_el2 = MPAMn_MPAMEN | mpamn(7, 8, 7, 0),
        .mpam3_el3 = MPAMn_MPAMEN | mpamn(9, 10, 1, 2),
        .mpamsm_el1 = mpamn(0, 11, 0, 3),
    };
    return r;
}

/* Non-secure, EL2 implemented and enabled, no EL3, E2H=TGE=0 */
static struct mpam_cpu_state at(unsigned el)
{
    struct mpam_cpu_state s = { .highest_el = 2, .el = el, .el2_enabled = true };
    return s;
}

#define CHECK_LABEL(l, p, g) do { \
    struct mpam_label l_ = (l); \
    CU_ASSERT_EQUAL(l_.partid, (p)); \
    CU_ASSERT_EQUAL(l_.pmg, (g)); \
} while (0)

static void test_el0_uses_mpam0(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(0);
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 2, 4);
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_IFETCH), 1, 3);
}

static void test_el1_uses_mpam1(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(1);
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 6, 6);
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_IFETCH), 5, 5);
}

static void test_el2_uses_mpam2(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(2);
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 8, 0);
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_IFETCH), 7, 7);
    /* VHE host kernel: E2H=TGE=1 changes nothing at EL2 */
    s.e2h = s.tge = true;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 8, 0);
}

static void test_el2_disabled_gives_default(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(2);
    s.el2_enabled = false;
    s.highest_el = 3;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 0, 0);
}

static void test_el3_uses_mpam3(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(3);
    s.highest_el = 3;
    s.secure = true;
    struct mpam_label l = mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA);
    CU_ASSERT_EQUAL(l.partid, 10);
    CU_ASSERT_EQUAL(l.pmg, 2);
    CU_ASSERT_FALSE(l.ns);
}

static void test_vhe_host_el0_uses_mpam0(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(0);
    s.e2h = s.tge = true;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 2, 4);
}

static void test_mpamen_of_highest_el(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(1);

    /* EL1 only: MPAM1_EL1.MPAMEN decides */
    s.highest_el = 1;
    s.el2_enabled = false;
    CU_ASSERT_TRUE(mpam_cpu_enabled(&r, &s));
    r.mpam1_el1 &= ~MPAMn_MPAMEN;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 0, 0);

    /* EL2 highest: MPAM1_EL1.MPAMEN is ignored, MPAM2_EL2.MPAMEN decides */
    s = at(1);
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 6, 6);
    r.mpam2_el2 &= ~MPAMn_MPAMEN;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 0, 0);

    /* EL3 highest: MPAM3_EL3.MPAMEN decides */
    s.highest_el = 3;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 6, 6);
    r.mpam3_el3 &= ~MPAMn_MPAMEN;
    r.mpam2_el2 |= MPAMn_MPAMEN;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 0, 0);
}

static void test_partid_out_of_range(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(1);
    r.mpam1_el1 = MPAMn_MPAMEN | mpamn(5, 64, 5, 6);
    /* PARTID 64 > PARTID_MAX 63: default PARTID and, with it, default PMG */
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 0, 0);
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_IFETCH), 5, 5);
}

static void test_pmg_out_of_range(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(1);
    r.mpam1_el1 = MPAMn_MPAMEN | mpamn(5, 6, 5, 8);
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 6, 0);
}

static void test_ns_follows_security_state(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(1);
    CU_ASSERT_TRUE(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA).ns);
    s.secure = true;
    CU_ASSERT_FALSE(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA).ns);
    /* disabled MPAM keeps the space of the access */
    r.mpam2_el2 &= ~MPAMn_MPAMEN;
    CU_ASSERT_FALSE(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA).ns);
}

/* vPARTID 6 (MPAM1_EL1.PARTID_D) maps to MPAMVPM1_EL2 entry 2 */
static void test_el1_virtual_partid(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(1);
    r.mpamvpmv_el2 = 1u << 6 | 1u << 5;
    r.mpamvpm_el2[1] = 42ULL << 32 | 33ULL << 16;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 6, 6);
    r.mpamhcr_el2 = MPAMHCR_EL1_VPMEN;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 42, 6);
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_IFETCH), 33, 5);
    /* EL1_VPMEN does not affect EL0 */
    s.el = 0;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 2, 4);
    /* nor EL2-disabled states, nor a CPU without MPAMHCR_EL2 */
    s = at(1);
    s.el2_enabled = false;
    s.highest_el = 3;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 6, 6);
    s = at(1);
    r.mpamidr_el1 &= ~MPAMIDR_HAS_HCR;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 6, 6);
}

static void test_el0_virtual_partid(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(0);
    r.mpamhcr_el2 = MPAMHCR_EL0_VPMEN;
    r.mpamvpmv_el2 = 1u << 2;
    r.mpamvpm_el2[0] = 17ULL << 32;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 17, 4);
    /* EL0 of a VHE host is never virtual */
    s.e2h = s.tge = true;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 2, 4);
    /* E2H=1, TGE=0 (guest EL0 under a VHE hypervisor) is */
    s.tge = false;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 17, 4);
}

static void test_virtual_partid_fallbacks(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(1);
    r.mpamhcr_el2 = MPAMHCR_EL1_VPMEN;
    r.mpamvpm_el2[0] = 12;
    /* neither entry 6 nor entry 0 valid: default PARTID and PMG */
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 0, 0);
    /* entry 0 valid: it is the default mapping */
    r.mpamvpmv_el2 = 1;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 12, 6);
    /* mapped physical PARTID above PARTID_MAX: default with error */
    r.mpamvpm_el2[0] = 63 + 1;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 0, 0);
}

static void test_virtual_partid_wraps(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(1);
    /* VPMR_MAX 1: 8 virtual PARTIDs, vPARTID 13 wraps to 5 */
    r.mpamidr_el1 = 63 | MPAMIDR_HAS_HCR | 1ULL << MPAMIDR_VPMR_MAX_SHIFT |
                    7ULL << MPAMIDR_PMG_MAX_SHIFT;
    r.mpam1_el1 = MPAMn_MPAMEN | mpamn(0, 13, 0, 1);
    r.mpamhcr_el2 = MPAMHCR_EL1_VPMEN;
    r.mpamvpmv_el2 = 1u << 5;
    r.mpamvpm_el2[1] = 21ULL << 16;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 21, 1);
}

static void test_gstapp_plk(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(0);
    r.mpamhcr_el2 = MPAMHCR_GSTAPP_PLK;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 6, 6);
    s.e2h = s.tge = true;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_DATA), 2, 4);
}

static void test_streaming_uses_mpamsm(void)
{
    struct mpam_cpu_regs r = regs();
    struct mpam_cpu_state s = at(1);
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_SM), 11, 3);
    s.el = 0;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_SM), 11, 3);
    r.mpam2_el2 &= ~MPAMn_MPAMEN;
    CHECK_LABEL(mpam_cpu_label(&r, &s, MPAM_ACCESS_SM), 0, 0);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "EL0 uses MPAM0_EL1 _D/_I", test_el0_uses_mpam0 },
        { "EL1 uses MPAM1_EL1 _D/_I", test_el1_uses_mpam1 },
        { "EL2 uses MPAM2_EL2", test_el2_uses_mpam2 },
        { "EL2 disabled gives default", test_el2_disabled_gives_default },
        { "EL3 uses MPAM3_EL3", test_el3_uses_mpam3 },
        { "VHE host EL0 uses MPAM0_EL1", test_vhe_host_el0_uses_mpam0 },
        { "MPAMEN of the highest EL", test_mpamen_of_highest_el },
        { "PARTID out of range", test_partid_out_of_range },
        { "PMG out of range", test_pmg_out_of_range },
        { "PARTID space follows security", test_ns_follows_security_state },
        { "EL1 virtual PARTID", test_el1_virtual_partid },
        { "EL0 virtual PARTID", test_el0_virtual_partid },
        { "virtual PARTID fallbacks", test_virtual_partid_fallbacks },
        { "virtual PARTID wraps", test_virtual_partid_wraps },
        { "GSTAPP_PLK", test_gstapp_plk },
        { "streaming mode uses MPAMSM_EL1", test_streaming_uses_mpamsm },
    };
    return CUNIT_RUN("mpam-cpu-label", tests);
}
