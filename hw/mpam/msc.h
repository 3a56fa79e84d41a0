/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Arm MPAM memory-system component (MSC) model, MPAM v1.1 memory-mapped
 * interface (Arm IHI/DDI 0598).  Pure C + glib, no QEMU types: the QEMU
 * SysBus glue (msc-qemu.c) only forwards MMIO, time, IRQs and migration.
 *
 * One MSC holds 1..16 resource instances (RIS).  Every ID register and every
 * per-PARTID control is banked by MPAMCFG_PART_SEL.RIS, every monitor by
 * MSMON_CFG_MON_SEL.RIS.  A cache RIS owns a partitioned cache occupancy
 * model (hw/memsys/pcache.h) that feeds its CSU monitors.
 *
 * Public API (frozen; additions only):
 *   mpam_msc_config_default / mpam_ris_config_default
 *   mpam_msc_config_set_nr_ris / mpam_msc_config_validate
 *   mpam_msc_new / mpam_msc_free / mpam_msc_reset / mpam_msc_post_load
 *   mpam_msc_pre_save
 *   mpam_msc_read / mpam_msc_write           (MMIO, sizes 1/2/4/8)
 *   mpam_msc_access / mpam_msc_set_route     (traffic, hw/memsys)
 *   mpam_msc_access_regulated                (+ bandwidth regulation)
 *   mpam_msc_access_down / mpam_msc_writeback / mpam_msc_invalidate
 *                                            (the L3 of hw/memsys/hierarchy.h)
 *   mpam_msc_get_partid_cfg / mpam_msc_get_mon / mpam_msc_get_errors
 *   mpam_msc_set_pri_policy / mpam_msc_clear_pri_policy / mpam_msc_effective_*
 *   mpam_msc_set_mbw_policy                  (host HARDLIM, MBW_MIN, MBW_PROP)
 *   mpam_msc_mbw_checksum                    (the regulator's state)
 *   mpam_msc_down_dspri / mpam_msc_req_down_dspri   (DSPRI sent downstream)
 *   mpam_msc_regs[] (the register table) / mpam_msc_reg_size /
 *   mpam_msc_reg_peek / mpam_msc_partid_is_reset / mpam_msc_partid
 */
#ifndef MEMQOS_MPAM_MSC_H
#define MEMQOS_MPAM_MSC_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#include "../memsys/pcache.h"
#include "../memsys/request.h"
#include "../memsys/mbw.h"
#include "../memsys/route.h"

#define MPAM_MSC_MAX_RIS            16
/*
 * NRDY after a monitor is configured: at most 1000 s (the MPAM table gives
 * it in 32 bits of microseconds)
 */
#define MPAM_MSC_NRDY_NS_MAX        1000000000000ull
#define MPAM_MSC_DEFAULT_MMIO_SIZE  0x4000
#define MPAM_MSC_AIDR_V1_1          0x11

/* Architected limits of the ID register fields. */
#define MPAM_PARTID_MAX_LIMIT   0xFFFF  /* MPAMF_IDR.PARTID_MAX, 16 bits */
#define MPAM_PMG_MAX_LIMIT      0xFF    /* MPAMF_IDR.PMG_MAX, 8 bits */
#define MPAM_CPBM_WD_LIMIT      32768   /* MPAMF_CPOR_IDR.CPBM_WD */
#define MPAM_BWPBM_WD_LIMIT     4096    /* MPAMF_MBW_IDR.BWPBM_WD, 128 words */
#define MPAM_FRAC_WD_LIMIT      16      /* CMAX/CASSOC/BWA/xPRI_WD */

/* Error codes of MPAMF_ESR.ERRCODE. */
enum {
    MPAM_ERRCODE_NONE = 0,
    MPAM_ERRCODE_PARTID_SEL_RANGE = 1,
    MPAM_ERRCODE_REQ_PARTID_RANGE = 2,
    MPAM_ERRCODE_MSMONCFG_ID_RANGE = 3,
    MPAM_ERRCODE_REQ_PMG_RANGE = 4,
    MPAM_ERRCODE_MONITOR_RANGE = 5,
    MPAM_ERRCODE_INTPARTID_RANGE = 6,
    MPAM_ERRCODE_UNEXPECTED_INTERNAL = 7,
    MPAM_ERRCODE_UNDEFINED_RIS_PART_SEL = 8,
    MPAM_ERRCODE_RIS_NO_CONTROL = 9,
    MPAM_ERRCODE_UNDEFINED_RIS_MON_SEL = 10,
    MPAM_ERRCODE_RIS_NO_MONITOR = 11,
};

typedef enum MpamRisKind {
    MPAM_RIS_CACHE = 0,
    MPAM_RIS_MEMORY = 1,
} MpamRisKind;

/* Interrupt lines raised through MpamMscHooks.set_irq. */
enum {
    MPAM_MSC_IRQ_ERROR = 0,
    MPAM_MSC_IRQ_OVERFLOW = 1,
};

/*
 * Configuration of one RIS.  Field names follow the ID register fields that
 * report them; the HAS_*_PART bits of MPAMF_IDR are derived:
 *   HAS_CPOR_PART  = cpbm_wd > 0
 *   HAS_CCAP_PART  = cmax_wd > 0 || (has_cassoc && cassoc_wd > 0)
 *   HAS_MBW_PART   = (bwa_wd > 0 && mbw_has_min|max|prop) ||
 *                    (mbw_has_pbm && bwpbm_wd > 0)
 *   HAS_PRI_PART   = has_intpri || has_dspri
 *   HAS_MSMON      = csu_num_mon > 0 || mbwu_num_mon > 0
 */
typedef struct MpamRisConfig {
    uint32_t kind;              /* MpamRisKind */
    uint32_t partid_max;        /* MPAMF_IDR.PARTID_MAX */
    uint32_t pmg_max;           /* MPAMF_IDR.PMG_MAX */
    bool has_partid_nrw;        /* MPAMF_IDR.HAS_PARTID_NRW */
    uint32_t intpartid_max;     /* MPAMF_PARTID_NRW_IDR.INTPARTID_MAX */

    uint32_t cpbm_wd;           /* MPAMF_CPOR_IDR.CPBM_WD, 0 = no CPOR */

    uint32_t cmax_wd;           /* MPAMF_CCAP_IDR.CMAX_WD */
    bool has_cmin;
    bool has_cassoc;
    uint32_t cassoc_wd;
    bool no_cmax;
    bool has_cmax_softlim;

    uint32_t bwa_wd;            /* MPAMF_MBW_IDR.BWA_WD */
    bool mbw_has_min;
    bool mbw_has_max;
    bool mbw_has_pbm;
    bool mbw_has_prop;
    uint32_t bwpbm_wd;
    bool windwr;                /* MBW_WINWD writable per PARTID */
    /*
     * Memory RIS: the peak bandwidth of the resource behind it, bytes per
     * second (e.g. a DDR's channels x data rate x bus width), the whole of
     * which MBW_MAX/MIN/PROP are fractions.  0: the MBW controls are stored
     * and read back but do not regulate (msc-mbw.h).
     */
    uint64_t mbw_bytes_per_s;

    bool has_intpri;            /* MPAMF_PRI_IDR */
    bool intpri_0_is_low;
    uint32_t intpri_wd;
    bool has_dspri;
    bool dspri_0_is_low;
    uint32_t dspri_wd;

    uint32_t csu_num_mon;       /* MPAMF_CSUMON_IDR.NUM_MON */
    bool csu_has_capture;
    bool csu_has_xcl;
    uint32_t mbwu_num_mon;      /* MPAMF_MBWUMON_IDR.NUM_MON */
    bool mbwu_has_long;         /* 44-bit MSMON_MBWU_L */
    bool mbwu_lwd;              /* 63-bit MSMON_MBWU_L (needs has_long) */
    bool mbwu_has_rwbw;
    bool mbwu_has_capture;

    /* Cache geometry of a cache RIS, for the CSU occupancy model. */
    uint64_t cache_size;        /* bytes */
    uint32_t cache_ways;
    uint32_t cache_line_size;   /* bytes, power of two */
} MpamRisConfig;

typedef struct MpamMscConfig {
    uint32_t nr_ris;            /* 1..16; MPAMF_IDR.RIS_MAX = nr_ris - 1 */
    uint32_t iidr;              /* MPAMF_IIDR */
    uint32_t aidr;              /* MPAMF_AIDR, 0x11 = v1.1 */
    uint32_t impl_idr;          /* MPAMF_IMPL_IDR; HAS_IMPL_IDR if != 0 */
    uint32_t s_partid_max;      /* MPAMF_SIDR (secure space, reported only) */
    uint32_t s_pmg_max;
    bool has_esr;               /* MPAMF_IDR.HAS_ESR: ESR/ECR implemented */
    bool has_extd_esr;          /* MPAMF_IDR.HAS_EXTD_ESR: ESR.RIS */
    bool has_local_capt_evnt;   /* MPAMF_MSMON_IDR.HAS_LOCAL_CAPT_EVNT */
    uint64_t nrdy_ns;           /* NRDY time, <= ACPI max_nrdy_usec */
    uint64_t mmio_size;         /* MSC window, default 0x4000 */
    MpamRisConfig ris[MPAM_MSC_MAX_RIS];
} MpamMscConfig;

/* Fill *cfg with one cache RIS (L3-like) and MSC-wide defaults. */
void mpam_msc_config_default(MpamMscConfig *cfg);
/* Fill *r with defaults for a RIS of the given kind. */
void mpam_ris_config_default(MpamRisConfig *r, MpamRisKind kind);
/*
 * Give the MSC @nr_ris RIS: RIS 1.. take the defaults of the kind RIS 0 is
 * not (a cache MSC gains memory RIS and the other way round) in RIS 0's
 * PARTID and PMG space.  RIS 0 keeps its configuration.
 */
void mpam_msc_config_set_nr_ris(MpamMscConfig *cfg, uint32_t nr_ris);
/* Returns NULL if the config is valid, else a g_malloc'ed message. */
char *mpam_msc_config_validate(const MpamMscConfig *cfg);

typedef struct MpamMscHooks {
    /* Level of MPAM_MSC_IRQ_ERROR / MPAM_MSC_IRQ_OVERFLOW changed. */
    void (*set_irq)(void *opaque, int irq, bool level);
    /* Current time in ns (NRDY timing).  NULL: time stands still at 0. */
    uint64_t (*now_ns)(void *opaque);
    /* A guest programming mistake (bad offset/size, architected error). */
    void (*guest_error)(void *opaque, const char *msg);
    /* A per-PARTID control register was written (for trace events). */
    void (*cfg_write)(void *opaque, unsigned ris, unsigned partid,
                      const char *reg, uint64_t value);
    /* An error was recorded in MPAMF_ESR (for trace events); may be NULL. */
    void (*error)(void *opaque, unsigned errcode, uint64_t esr);
} MpamMscHooks;

/*
 * One monitor instance (CSU or MBWU).  All fields are migratable state.
 *   ctl, flt:    MSMON_CFG_x_CTL / MSMON_CFG_x_FLT as written (TYPE is
 *                read-only and not stored)
 *   value:       counter (MBWU: bytes, 31/44/63 bits, as of the last
 *                monitor register access or mpam_msc_pre_save, the bytes
 *                since are in the RIS's accumulators; CSU: the value
 *                written by software, reads of an enabled CSU monitor
 *                return live occupancy instead)
 *   capture:     MSMON_x_CAPTURE
 *   nrdy:        NRDY bit as software/hardware last left it
 *   nrdy_until:  hardware NRDY ends at this time (0 = none pending)
 */
typedef struct MpamMon {
    uint32_t ctl;
    uint32_t flt;
    uint64_t value;
    uint64_t capture;
    uint64_t nrdy_until;
    uint8_t nrdy;
} MpamMon;

/*
 * The per-PARTID controls of one control entry (intPARTID when PARTID
 * narrowing is implemented, PARTID otherwise), each field holding its
 * MPAMCFG_* register value as it reads back.  The register table in msc.c
 * says which register lives in which field.  The entry is a record of
 * 32-bit words: the cache and bandwidth portion bitmaps (CPBM_WD and
 * BWPBM_WD bits, sized by the RIS configuration) follow the fixed fields
 * in bitmap[], CPBM first.  Migration saves the records as words.
 */
typedef struct MpamPartidState {
    uint32_t cmax, cmin, cassoc;
    uint32_t mbw_min, mbw_max, mbw_winwd, mbw_prop;
    uint32_t pri;               /* as programmed by software */
    uint32_t pri_policy;        /* host policy (MPAMCFG_PRI layout) ... */
    uint32_t pri_policy_set;    /* ... in effect if 1 */
    /* host bandwidth policy (mpam_msc_set_mbw_policy): MPAM_MBW_POLICY_* */
    uint32_t mbw_policy;
    uint32_t mbw_policy_min;    /* MBW_MIN in its register layout */
    uint32_t mbw_policy_prop;   /* MBW_PROP in its register layout */
    uint32_t bitmap[];          /* CPBM words, then MBW_PBM words */
} MpamPartidState;

/*
 * Per-RIS state.  "n_" fields are config-derived (constant after
 * mpam_msc_new, usable as VMSTATE_VARRAY_UINT32 counts); the arrays are the
 * migratable state.
 */
typedef struct MpamRisState {
    /* sizes (config-derived) */
    uint32_t n_partid;          /* control entries */
    uint32_t n_cpbm_words;      /* ceil(cpbm_wd / 32) */
    uint32_t n_mbw_pbm_words;   /* ceil(bwpbm_wd / 32) */
    uint32_t partid_stride;     /* words per MpamPartidState record */
    uint32_t n_partid_words;    /* n_partid * partid_stride */
    uint32_t n_reqpartid;       /* INTPARTID map entries (0 without NRW) */
    uint32_t n_pmg;             /* PMG_MAX + 1 */
    uint32_t n_csu_mon;
    uint32_t n_mbwu_mon;

    /* state: n_partid MpamPartidState records, see mpam_msc_partid() */
    uint32_t *partid_words;
    uint32_t *intpartid;        /* MPAMCFG_INTPARTID per reqPARTID */
    /* state: monitors */
    MpamMon *csu_mon;
    MpamMon *mbwu_mon;
    /*
     * derived, MBWU counting (msc.c): the bytes each label has sent,
     * [(partid * (PMG_MAX + 1) + pmg) * 2 + is_write] (NULL without MBWU
     * monitors), per monitor its labels' sum when its value was last
     * brought up to date, the bytes that may pass before a monitor could
     * overflow ...
     */
    uint64_t *mbwu_acc;
    uint64_t *mbwu_base;
    uint64_t mbwu_left;
    /* ... and where their counters overflow, which status bit that sets */
    uint64_t mbwu_limit;
    uint32_t mbwu_oflow_bit;
    /* cache RIS only (NULL otherwise); lines are state, see pcache.h */
    PCache *cache;
    /* derived: per control entry the ways its CPBM allows (pcache.h) ... */
    uint32_t *way_mask;
    /* ... and its allocation limits (CPBM, CMAX, CASSOC) */
    PCacheLimits *limits;
    /*
     * memory RIS with MBW controls and mbw_bytes_per_s (else NULL): the
     * bandwidth regulator; its controls are derived, its windows and
     * counts are modeled state: the n_mbw_state words at mbw_state
     */
    MbwReg *mbw;
    uint64_t *mbw_state;
    uint32_t n_mbw_state;
} MpamRisState;

/* The controls of control entry @idx (< n_partid) of a RIS. */
MpamPartidState *mpam_msc_partid(MpamRisState *rs, unsigned idx);

/*
 * The MSC.  cfg and hooks are configuration; part_sel, mon_sel, ecr, esr
 * and ris[] arrays are state.  irq_level[] is derived (mpam_msc_post_load).
 */
typedef struct MpamMsc {
    MpamMscConfig cfg;
    MpamMscHooks hooks;
    void *opaque;

    uint32_t part_sel;          /* MPAMCFG_PART_SEL */
    uint32_t mon_sel;           /* MSMON_CFG_MON_SEL */
    uint32_t ecr;               /* MPAMF_ECR */
    uint64_t esr;               /* MPAMF_ESR */
    MpamRisState ris[MPAM_MSC_MAX_RIS];
    MemMap *route;              /* config: which RIS see an address */

    bool irq_level[2];          /* derived */
} MpamMsc;

MpamMsc *mpam_msc_new(const MpamMscConfig *cfg, const MpamMscHooks *hooks,
                      void *opaque, GError **errp);
void mpam_msc_free(MpamMsc *msc);
/* Architectural reset: all controls, monitors, selectors, ESR/ECR, cache. */
void mpam_msc_reset(MpamMsc *msc);
/*
 * After migration: NULL, with the derived state (cache occupancy, IRQ
 * levels) recomputed, or a g_malloc'ed reason why the loaded state is not
 * one this MSC can reach (a selector or ESR/ECR with bits no write sets, a
 * cache line in the wrong set), so that the load fails instead of the
 * model.
 */
char *mpam_msc_post_load(MpamMsc *msc);
/*
 * Bring the state arrays up to date before they are saved: MBWU monitor
 * values take the bytes counted since they were last read or written.
 */
void mpam_msc_pre_save(MpamMsc *msc);

/* MMIO.  size 1/2/4/8 at any offset; bad accesses are RAZ/WI + guest_error. */
uint64_t mpam_msc_read(MpamMsc *msc, uint64_t offset, unsigned size);
void mpam_msc_write(MpamMsc *msc, uint64_t offset, uint64_t value,
                    unsigned size);

/*
 * Traffic seen by the MSC: request @req reaches every RIS that the MSC's
 * route (mpam_msc_set_route) says sees req->addr; without a route, every
 * RIS.  Each such RIS checks the label's range (an out-of-range PARTID or PMG
 * is an MPAMF_ESR error and the request continues as 0, per the spec),
 * narrows the PARTID, counts MBWU bytes, and a cache RIS looks the request up
 * in its cache within the PARTID's controls.  The result says which RIS saw
 * it (bit n = RIS n) and what the caches did (MemResult, summed over RIS).
 */
MemResult mpam_msc_access(MpamMsc *msc, const MemReq *req);
/*
 * mpam_msc_access, also regulating the request's memory bandwidth: a
 * memory RIS with a regulator (MpamRisConfig.mbw_bytes_per_s) applies its
 * PARTID's MBW_MAX/HARDLIM, MBW_MIN, MBW_PBM and MBW_PROP at req->t_ps
 * (docs/mbw-regulation.md).  *v: the longest delay any RIS imposes, and
 * the preference (LOW if any RIS says LOW, else HIGH if any says HIGH);
 * {0, MEDIUM} with reset controls; the MemResult is dropped (its callers
 * want the verdict).  mpam_msc_access regulates too and drops the verdict.
 */
void mpam_msc_access_regulated(MpamMsc *msc, const MemReq *req,
                               MbwVerdict *v);
/*
 * mpam_msc_access, handing the traffic the MSC's caches send downstream
 * to @down (NULL: nowhere): line fills with the requester's label, and
 * write-backs of dirty victims with the line owner's label, one line per
 * call (hw/memsys/pcache.h).  A cache RIS's MBWU monitors count exactly this
 * traffic; a memory RIS's count the request's bytes.  The result goes to
 * *@res.
 */
void mpam_msc_access_down(MpamMsc *msc, const MemReq *req,
                          PCacheDownFn *down, void *opaque, MemResult *res);
/*
 * A dirty line written back from a cache above (@req one line): true if a
 * cache RIS that sees the address holds it (now dirty there).  Never
 * allocates, counts nothing (no downstream traffic).
 */
bool mpam_msc_writeback(MpamMsc *msc, const MemReq *req);
/*
 * A DMA write over @req: the cache RIS drop the lines it touches, writing
 * back (through @down, counted by MBWU) a dirty line it covers only partly.
 */
void mpam_msc_invalidate(MpamMsc *msc, const MemReq *req, PCacheDownFn *down,
                         void *opaque);
/*
 * Which RIS see which addresses: bit n of the map's targets is RIS n.  The
 * MSC owns @route from now on (NULL: every RIS sees every address).
 */
void mpam_msc_set_route(MpamMsc *msc, MemMap *route);

/* Introspection (QMP/HMP, tests). */
typedef struct MpamPartidCfg {
    uint32_t intpartid;         /* mapped intPARTID (== partid without NRW) */
    const MpamPartidState *ctl; /* points into the model */
    const uint32_t *cpbm;       /* ctl's bitmaps, n_cpbm/n_mbw_pbm_words */
    const uint32_t *mbw_pbm;
    uint16_t effective_intpri;
    uint16_t effective_dspri;
    uint64_t csu_bytes;         /* cache RIS: occupancy, all PMGs */
} MpamPartidCfg;
/*
 * Configuration seen by request PARTID @partid on @ris (narrowing applied).
 * Returns false if ris/partid is out of range.
 */
bool mpam_msc_get_partid_cfg(MpamMsc *msc, unsigned ris, unsigned partid,
                             MpamPartidCfg *out);

/*
 * A checksum of the lines held by cache RIS @ris (pcache_checksum: lines,
 * owners, dirty bits, LRU order), for tests that compare states, e.g.
 * before and after migration.  False if @ris does not exist or is not a
 * cache.
 */
bool mpam_msc_cache_checksum(MpamMsc *msc, unsigned ris, uint64_t *out);
/* The same of the bandwidth regulator's state words; false without one. */
bool mpam_msc_mbw_checksum(MpamMsc *msc, unsigned ris, uint64_t *out);

typedef enum MpamMonType { MPAM_MON_CSU = 0, MPAM_MON_MBWU = 1 } MpamMonType;
typedef struct MpamMonInfo {
    uint32_t ctl;               /* MSMON_CFG_x_CTL as it reads */
    uint32_t flt;
    uint64_t value;             /* counter value (CSU: live occupancy if EN) */
    uint64_t capture;
    bool nrdy;
} MpamMonInfo;
bool mpam_msc_get_mon(MpamMsc *msc, unsigned ris, MpamMonType type,
                      unsigned mon, MpamMonInfo *out);

typedef struct MpamErrInfo {
    uint32_t ecr;
    uint64_t esr;
    unsigned errcode;
    bool irq_level;
} MpamErrInfo;
void mpam_msc_get_errors(MpamMsc *msc, MpamErrInfo *out);

/*
 * Host (firmware) priority policy.  Linux programs MPAMCFG_PRI with one
 * constant for all PARTIDs, so per-PARTID priorities come from the host:
 * a policy set for (ris, partid) overrides what the guest programs in
 * MPAMCFG_PRI for the control entry that @partid selects (intPARTID after
 * narrowing).  The guest still reads back what it wrote.  Values are
 * truncated to INTPRI_WD/DSPRI_WD bits and use the RIS's own encoding
 * (see INTPRI_0_IS_LOW/DSPRI_0_IS_LOW).  Returns false on bad ris/partid.
 */
bool mpam_msc_set_pri_policy(MpamMsc *msc, unsigned ris, unsigned partid,
                             uint16_t intpri, uint16_t dspri);
bool mpam_msc_clear_pri_policy(MpamMsc *msc, unsigned ris, unsigned partid);
/*
 * Host (firmware) bandwidth policy of a memory RIS.  Linux writes only
 * MBW_MAX (resctrl MB:), never HARDLIM, MBW_MIN or MBW_PROP (MBW_MIN 0,
 * MBW_PROP 0, guest-requirements.md §3.5), so these come from the host: a
 * policy set for (ris, partid) acts on the control entry @partid selects,
 * over what the guest programs.  The guest still reads back what it wrote.
 * Like the priority policy it survives an MSC reset and migrates.
 */
#define MPAM_MBW_POLICY_HARDLIM (1u << 0)   /* MBW_MAX.HARDLIM forced on */
#define MPAM_MBW_POLICY_MIN     (1u << 1)   /* MBW_MIN is mbw_policy_min */
#define MPAM_MBW_POLICY_PROP    (1u << 2)   /* MBW_PROP is mbw_policy_prop */
typedef struct MpamMbwPolicy {
    bool hardlim;
    bool has_min;
    uint16_t min;               /* MBW_MIN.MIN, a fraction in 1/65536 */
    uint32_t prop_stride;       /* 0: none; else MBW_PROP EN, STRIDEM1 + 1 */
} MpamMbwPolicy;
/*
 * Set (replace) the policy of @partid on @ris; all zeros clears it.  MIN
 * is truncated to BWA_WD bits as the register holds it.  False on a bad
 * ris/partid, a RIS without the control a field needs (HARDLIM: MBW_MAX,
 * MIN: MBW_MIN, PROP: MBW_PROP) or a stride above 2^BWA_WD.
 */
bool mpam_msc_set_mbw_policy(MpamMsc *msc, unsigned ris, unsigned partid,
                             const MpamMbwPolicy *pol);
/*
 * Effective priority for request PARTID @partid: the host policy if set,
 * else MPAMCFG_PRI; 0 if the RIS has no such priority.  The DSPRI is what
 * a downstream (e.g. DDR) scheduler receives with the request.
 */
uint16_t mpam_msc_effective_intpri(MpamMsc *msc, unsigned ris, unsigned partid);
uint16_t mpam_msc_effective_dspri(MpamMsc *msc, unsigned ris, unsigned partid);
/*
 * The DSPRI the MSC attaches to traffic it sends downstream for request
 * PARTID @partid, as a downstream scheduler (hw/ddr-qos) takes it: the
 * effective DSPRI in 4 bits, higher more urgent whatever the RIS's
 * DSPRI_0_IS_LOW, scaled from DSPRI_WD bits (0 stays 0, the highest
 * becomes MPAM_DOWN_DSPRI_MAX).  0 without DSPRI or on bad ris/partid.
 * A cache RIS's fills and write-backs (mpam_msc_access_down) carry it in
 * MemReq.dspri, for the requester's and the owner's PARTID.
 */
#define MPAM_DOWN_DSPRI_MAX 15
uint16_t mpam_msc_down_dspri(MpamMsc *msc, unsigned ris, unsigned partid);
/*
 * The same for @req passing the MSC without being cached (a write-back the
 * cache does not hold, DMA): from the first RIS that sees req->addr and
 * has DSPRI, for req's PARTID (out of range: PARTID 0, as traffic).
 */
uint16_t mpam_msc_req_down_dspri(MpamMsc *msc, const MemReq *req);

/* Derived ID register values for RIS @ris (introspection, tests). */
uint64_t mpam_msc_idr(const MpamMsc *msc, unsigned ris);

/*
 * The register table (in the spirit of QEMU's hw/register.h
 * RegisterAccessInfo): every register of the MSC frame, described once.
 * MMIO read/write, reset, introspection (QMP/HMP) and the fuzzer's list of
 * offsets all walk it; migration saves the state it points at.
 */
typedef enum MpamRegKind {
    MPAM_REG_ID,        /* identification, read-only, from the configuration */
    MPAM_REG_SEL,       /* MPAMCFG_PART_SEL, MSMON_CFG_MON_SEL */
    MPAM_REG_ERR,       /* MPAMF_ECR, MPAMF_ESR */
    MPAM_REG_CTRL,      /* per-PARTID control, selected by MPAMCFG_PART_SEL */
    MPAM_REG_MON,       /* monitor configuration/value, MSMON_CFG_MON_SEL */
} MpamRegKind;

/* Where a per-PARTID control register keeps its value. */
typedef enum MpamRegAt {
    MPAM_AT_NONE,       /* not a control */
    MPAM_AT_PARTID,     /* MpamPartidState word at byte offset 'field' */
    MPAM_AT_CPBM,       /* MpamPartidState.bitmap, CPBM words */
    MPAM_AT_MBW_PBM,    /* MpamPartidState.bitmap, after the CPBM words */
    MPAM_AT_REQPARTID,  /* MpamRisState.intpartid, indexed by reqPARTID */
} MpamRegAt;

typedef struct MpamRegInfo MpamRegInfo;
struct MpamRegInfo {
    const char *name;           /* architectural name */
    uint32_t offset;            /* in the MSC frame */
    uint32_t size;              /* 4 or 8 bytes; bitmaps: the window */
    MpamRegKind kind;
    bool banked;                /* ID: reported by the RIS PART_SEL selects */
    /* Implemented on a RIS with configuration @r; NULL: always. */
    bool (*present)(const MpamRisConfig *r);
    /* ID: the value; CTRL: the value after reset. */
    uint64_t (*value)(const MpamMscConfig *c, const MpamRisConfig *r);
    /* CTRL: writable bits, the rest is read-only (bitmaps: from width) */
    uint64_t (*wmask)(const MpamRisConfig *r);
    /* CTRL bitmaps: width in bits */
    uint32_t (*width)(const MpamRisConfig *r);
    MpamRegAt at;
    uint32_t field;             /* MPAM_AT_PARTID: offsetof(MpamPartidState) */
    /* CTRL: checks and converts a write; false drops it. */
    bool (*pre_write)(MpamMsc *msc, unsigned ris, unsigned idx, uint32_t *val);
    /* SEL, ERR and MON: 32-bit word @word of the register. */
    uint32_t (*read)(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                     unsigned ris, unsigned word);
    void (*write)(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                  unsigned ris, unsigned word, uint32_t val);
    MpamMonType mon;            /* MON: monitor type */
    bool capture;               /* MON: the capture copy */
};

/* Most 32-bit words a register has: a CPBM of MPAM_CPBM_WD_LIMIT bits. */
#define MPAM_REG_MAX_WORDS (MPAM_CPBM_WD_LIMIT / 32)

extern const MpamRegInfo mpam_msc_regs[];
extern const unsigned mpam_msc_n_regs;

/* Bytes @reg occupies on RIS @ris (bitmaps: their width), 0 if absent. */
unsigned mpam_msc_reg_size(const MpamMsc *msc, const MpamRegInfo *reg,
                           unsigned ris);
/*
 * The value of @reg as the guest would read it, without side effects, into
 * out[] (least significant word first; mpam_msc_reg_size() / 4 words).
 * @ris < 0: for the current MPAMCFG_PART_SEL / MSMON_CFG_MON_SEL, reading
 * 0 where the guest's read would fail.  Else ID registers of RIS @ris, or
 * the controls that request PARTID @partid selects on RIS @ris.
 * Returns the number of words, 0 if absent.
 */
unsigned mpam_msc_reg_peek(MpamMsc *msc, const MpamRegInfo *reg, int ris,
                           unsigned partid, uint32_t *out);
/*
 * All controls of request PARTID @partid on RIS @ris are at reset values
 * and no host policy (priority, bandwidth) is set for it.
 */
bool mpam_msc_partid_is_reset(MpamMsc *msc, unsigned ris, unsigned partid);

#endif
