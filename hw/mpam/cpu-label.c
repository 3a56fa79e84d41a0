// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * MPAM labels of CPU memory accesses, following the structure of the Arm
 * ARM's MPAM pseudocode (GenMPAMAtEL, GenMPAM, GenPARTID, GenPMG,
 * MPAMIsVirtual, MAP_vPARTID).  Not implemented, because the CPU model does
 * not advertise them: FEAT_RME/ALTSP, HAS_FORCE_NS, HAS_SDEFLT, AArch32.
 */
#include "cpu-label.h"

static uint64_t field(uint64_t reg, unsigned shift, uint64_t mask)
{
    return (reg >> shift) & mask;
}

bool mpam_cpu_enabled(const struct mpam_cpu_regs *r,
                      const struct mpam_cpu_state *s)
{
    switch (s->highest_el) {
    case 3:
        return r->mpam3_el3 & MPAMn_MPAMEN;
    case 2:
        return r->mpam2_el2 & MPAMn_MPAMEN;
    default:
        return r->mpam1_el1 & MPAMn_MPAMEN;
    }
}

/* ELIsInHost(EL0): EL0 of a VHE host (HCR_EL2.{E2H,TGE} == {1,1}). */
static bool el0_in_host(const struct mpam_cpu_state *s)
{
    return s->el2_enabled && s->e2h && s->tge;
}

/*
 * GetMPAM_PARTID/GetMPAM_PMG pick the register: MPAMn_ELx for Exception
 * level n (EL0 of a VHE host too uses MPAM0_EL1), MPAMSM_EL1 for streaming
 * accesses.  MPAM2_EL2 only counts when EL2 is enabled.
 */
static bool mpam_reg(const struct mpam_cpu_regs *r,
                     const struct mpam_cpu_state *s, unsigned el,
                     enum mpam_cpu_access acc, uint64_t *reg)
{
    if (acc == MPAM_ACCESS_SM) {
        *reg = r->mpamsm_el1;
        return true;
    }
    switch (el) {
    case 3:
        *reg = r->mpam3_el3;
        return true;
    case 2:
        *reg = r->mpam2_el2;
        return s->el2_enabled;
    case 1:
        *reg = r->mpam1_el1;
        return true;
    default:
        *reg = r->mpam0_el1;
        return true;
    }
}

/* Instruction fetches use the _I fields, everything else the _D fields. */
static uint16_t get_partid(uint64_t reg, enum mpam_cpu_access acc)
{
    unsigned shift = acc == MPAM_ACCESS_IFETCH ? MPAMn_PARTID_I_SHIFT
                                               : MPAMn_PARTID_D_SHIFT;
    return field(reg, shift, MPAMn_PARTID_MASK);
}

static uint8_t get_pmg(uint64_t reg, enum mpam_cpu_access acc)
{
    unsigned shift = acc == MPAM_ACCESS_IFETCH ? MPAMn_PMG_I_SHIFT
                                               : MPAMn_PMG_D_SHIFT;
    return field(reg, shift, MPAMn_PMG_MASK);
}

static bool mpam_is_virtual(const struct mpam_cpu_regs *r,
                            const struct mpam_cpu_state *s, unsigned el)
{
    if (!(r->mpamidr_el1 & MPAMIDR_HAS_HCR) || !s->el2_enabled) {
        return false;
    }
    if (el == 0) {
        return (r->mpamhcr_el2 & MPAMHCR_EL0_VPMEN) && !el0_in_host(s);
    }
    return el == 1 && (r->mpamhcr_el2 & MPAMHCR_EL1_VPMEN);
}

/*
 * MAP_vPARTID: a virtual PARTID indexes the MPAMVPM<n>_EL2 PhyPARTID
 * fields (four 16-bit entries per register).  vPARTIDs above the
 * implemented range wrap; an invalid entry falls back to entry 0 if that is
 * valid, else to the default PARTID with an error.
 */
static uint16_t map_vpartid(const struct mpam_cpu_regs *r, uint16_t vpartid,
                            bool *err)
{
    unsigned vpartid_max = (field(r->mpamidr_el1, MPAMIDR_VPMR_MAX_SHIFT,
                                  MPAMIDR_VPMR_MAX_MASK) << 2) + 3;
    unsigned partid_max = field(r->mpamidr_el1, MPAMIDR_PARTID_MAX_SHIFT,
                                MPAMIDR_PARTID_MAX_MASK);
    unsigned virt = vpartid % (vpartid_max + 1);
    uint16_t phys;

    *err = false;
    if (r->mpamvpmv_el2 & (1ULL << virt)) {
        phys = field(r->mpamvpm_el2[virt / 4], (virt % 4) * 16, 0xffff);
    } else if (r->mpamvpmv_el2 & 1) {
        phys = field(r->mpamvpm_el2[0], 0, 0xffff);
    } else {
        *err = true;
        return MPAM_DEFAULT_PARTID;
    }
    if (phys > partid_max) {
        *err = true;
        return MPAM_DEFAULT_PARTID;
    }
    return phys;
}

struct mpam_label mpam_cpu_label(const struct mpam_cpu_regs *r,
                                 const struct mpam_cpu_state *s,
                                 enum mpam_cpu_access acc)
{
    struct mpam_label l = {
        .partid = MPAM_DEFAULT_PARTID,
        .pmg = MPAM_DEFAULT_PMG,
        .ns = !s->secure,
    };
    unsigned partid_max = field(r->mpamidr_el1, MPAMIDR_PARTID_MAX_SHIFT,
                                MPAMIDR_PARTID_MAX_MASK);
    unsigned pmg_max = field(r->mpamidr_el1, MPAMIDR_PMG_MAX_SHIFT,
                             MPAMIDR_PMG_MAX_MASK);
    unsigned el = s->el;
    uint64_t reg;
    uint16_t partid;
    uint8_t pmg;
    bool err = false;

    if (!mpam_cpu_enabled(r, s)) {
        return l;
    }
    /* MPAMHCR_EL2.GSTAPP_PLK: guest applications use the guest OS labels. */
    if (el == 0 && s->el2_enabled && (r->mpamhcr_el2 & MPAMHCR_GSTAPP_PLK) &&
        !s->tge) {
        el = 1;
    }
    if (!mpam_reg(r, s, el, acc, &reg)) {
        return l;
    }

    /* GenPARTID: out-of-range PARTIDs become the default, as an error. */
    partid = get_partid(reg, acc);
    if (partid > partid_max) {
        return l;
    }
    if (mpam_is_virtual(r, s, el)) {
        partid = map_vpartid(r, partid, &err);
    }
    l.partid = partid;

    /*
     * GenPMG: a PARTID error forces the default PMG (one of the
     * CONSTRAINED UNPREDICTABLE choices), as does an out-of-range PMG.
     */
    pmg = get_pmg(reg, acc);
    if (!err && pmg <= pmg_max) {
        l.pmg = pmg;
    }
    return l;
}
