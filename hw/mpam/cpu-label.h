/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MPAM labels of CPU memory accesses: which (PARTID, PMG) a PE attaches to a
 * request, computed from its MPAM System registers as the Arm ARM's
 * GenMPAMAtEL() pseudocode does.  Pure C, no QEMU types: the target/arm glue
 * fills in the structures and calls mpam_cpu_label().
 */
#ifndef MEMQOS_MPAM_CPU_LABEL_H
#define MEMQOS_MPAM_CPU_LABEL_H

#include <stdbool.h>
#include <stdint.h>

/* MPAMIDR_EL1 */
#define MPAMIDR_PARTID_MAX_SHIFT  0
#define MPAMIDR_PARTID_MAX_MASK   0xffffULL
#define MPAMIDR_HAS_HCR           (1ULL << 17)
#define MPAMIDR_VPMR_MAX_SHIFT    18
#define MPAMIDR_VPMR_MAX_MASK     0x7ULL
#define MPAMIDR_PMG_MAX_SHIFT     32
#define MPAMIDR_PMG_MAX_MASK      0xffULL

/* MPAM0_EL1, MPAM1_EL1, MPAM2_EL2, MPAM3_EL3 and MPAMSM_EL1 share this layout */
#define MPAMn_PARTID_I_SHIFT      0
#define MPAMn_PARTID_D_SHIFT      16
#define MPAMn_PMG_I_SHIFT         32
#define MPAMn_PMG_D_SHIFT         40
#define MPAMn_PARTID_MASK         0xffffULL
#define MPAMn_PMG_MASK            0xffULL
#define MPAMn_MPAMEN              (1ULL << 63)

/* MPAM3_EL3 */
#define MPAM3_TRAPLOWER           (1ULL << 62)
/* MPAM2_EL2 */
#define MPAM2_TIDR                (1ULL << 58)
#define MPAM2_EnMPAMSM            (1ULL << 50)
#define MPAM2_TRAPMPAM0EL1        (1ULL << 49)
#define MPAM2_TRAPMPAM1EL1        (1ULL << 48)

/* MPAMHCR_EL2 */
#define MPAMHCR_EL0_VPMEN         (1ULL << 0)
#define MPAMHCR_EL1_VPMEN         (1ULL << 1)
#define MPAMHCR_GSTAPP_PLK        (1ULL << 8)
#define MPAMHCR_TRAP_MPAMIDR_EL1  (1ULL << 31)

#define MPAM_DEFAULT_PARTID       0
#define MPAM_DEFAULT_PMG          0

/* The MPAM System registers as software reads them. */
struct mpam_cpu_regs {
    uint64_t mpamidr_el1;
    uint64_t mpam0_el1;
    uint64_t mpam1_el1;
    uint64_t mpam2_el2;
    uint64_t mpam3_el3;
    uint64_t mpamsm_el1;
    uint64_t mpamhcr_el2;
    uint64_t mpamvpmv_el2;
    uint64_t mpamvpm_el2[8];
};

/* The PE state that selects the register. */
struct mpam_cpu_state {
    unsigned highest_el;   /* HighestEL(): selects the MPAMEN that counts */
    unsigned el;           /* PSTATE.EL of the access */
    bool el2_enabled;      /* EL2Enabled() in the current Security state */
    bool e2h;              /* HCR_EL2.E2H */
    bool tge;              /* HCR_EL2.TGE */
    bool secure;           /* Secure state: the label is in the Secure PARTID space */
};

enum mpam_cpu_access {
    MPAM_ACCESS_DATA,      /* loads and stores: *_D fields */
    MPAM_ACCESS_IFETCH,    /* instruction fetches: *_I fields */
    MPAM_ACCESS_SM,        /* SME streaming-mode accesses labelled by MPAMSM_EL1 */
};

struct mpam_label {
    uint16_t partid;
    uint8_t pmg;
    bool ns;               /* Non-secure PARTID space */
};

/* MPAMIsEnabled(): MPAMEN of the highest implemented Exception level. */
bool mpam_cpu_enabled(const struct mpam_cpu_regs *r,
                      const struct mpam_cpu_state *s);

/* GenMPAMAtEL(): the label of an access of kind @acc in state @s. */
struct mpam_label mpam_cpu_label(const struct mpam_cpu_regs *r,
                                 const struct mpam_cpu_state *s,
                                 enum mpam_cpu_access acc);

#endif
