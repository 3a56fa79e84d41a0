/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Arm MPAM MSC model, MPAM v1.1 memory-mapped interface.  See msc.h and
 * docs/mpam-msc-model.md.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "msc.h"
#include "msc-regs.h"

#define CSU_VALUE_MAX   MSMON_VALUE_MASK

/* ------------------------------------------------------------------ config */

void mpam_ris_config_default(MpamRisConfig *r, MpamRisKind kind)
{
    memset(r, 0, sizeof(*r));
    r->kind = kind;
    r->partid_max = 63;
    r->pmg_max = 3;
    r->mbwu_num_mon = 4;
    r->mbwu_has_long = true;
    r->mbwu_has_rwbw = true;
    r->mbwu_has_capture = true;
    if (kind == MPAM_RIS_CACHE) {
        r->cpbm_wd = 16;
        r->cmax_wd = 8;
        r->has_cmin = true;
        r->has_cassoc = true;
        r->cassoc_wd = 4;
        r->csu_num_mon = 8;
        r->csu_has_capture = true;
        r->cache_size = 2 * 1024 * 1024;
        r->cache_ways = 16;
        r->cache_line_size = 64;
    } else {
        r->bwa_wd = 8;
        r->mbw_has_min = true;
        r->mbw_has_max = true;
        r->mbw_has_prop = true;
        r->mbw_has_pbm = true;
        r->bwpbm_wd = 32;
        r->windwr = true;
        r->has_intpri = true;
        r->intpri_wd = 4;
        r->has_dspri = true;
        r->dspri_wd = 4;
    }
}

void mpam_msc_config_default(MpamMscConfig *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    cfg->nr_ris = 1;
    /* Implementer 0x43B (Arm) with a product ID no kernel quirk matches. */
    cfg->iidr = 0x43B | (0xA51u << 20);
    cfg->aidr = MPAM_MSC_AIDR_V1_1;
    cfg->has_esr = true;
    cfg->has_extd_esr = true;
    cfg->nrdy_ns = 10000;
    cfg->mmio_size = MPAM_MSC_DEFAULT_MMIO_SIZE;
    for (int i = 0; i < MPAM_MSC_MAX_RIS; i++) {
        mpam_ris_config_default(&cfg->ris[i], MPAM_RIS_CACHE);
    }
}

void mpam_msc_config_set_nr_ris(MpamMscConfig *cfg, uint32_t nr_ris)
{
    const MpamRisConfig *r0 = &cfg->ris[0];

    cfg->nr_ris = nr_ris;
    for (uint32_t i = 1; i < MIN(nr_ris, MPAM_MSC_MAX_RIS); i++) {
        MpamRisConfig *r = &cfg->ris[i];

        mpam_ris_config_default(r, r0->kind == MPAM_RIS_CACHE ?
                                   MPAM_RIS_MEMORY : MPAM_RIS_CACHE);
        r->partid_max = r0->partid_max;
        r->pmg_max = r0->pmg_max;
    }
}

static bool ris_has_cpor(const MpamRisConfig *r)
{
    return r->cpbm_wd > 0;
}

static bool ris_has_cmax(const MpamRisConfig *r)
{
    return r->cmax_wd > 0 && !r->no_cmax;
}

static bool ris_has_cmin(const MpamRisConfig *r)
{
    return r->cmax_wd > 0 && r->has_cmin;
}

static bool ris_has_cassoc(const MpamRisConfig *r)
{
    return r->has_cassoc && r->cassoc_wd > 0;
}

static bool ris_has_ccap(const MpamRisConfig *r)
{
    return r->cmax_wd > 0 || ris_has_cassoc(r);
}

static bool ris_has_mbw_pbm(const MpamRisConfig *r)
{
    return r->mbw_has_pbm && r->bwpbm_wd > 0;
}

static bool ris_has_bwa(const MpamRisConfig *r, bool feature)
{
    return r->bwa_wd > 0 && feature;
}

static bool ris_has_mbw(const MpamRisConfig *r)
{
    return ris_has_bwa(r, r->mbw_has_min || r->mbw_has_max ||
                          r->mbw_has_prop) || ris_has_mbw_pbm(r);
}

static bool ris_has_pri(const MpamRisConfig *r)
{
    return (r->has_intpri && r->intpri_wd) || (r->has_dspri && r->dspri_wd);
}

static bool ris_has_msmon(const MpamRisConfig *r)
{
    return r->csu_num_mon > 0 || r->mbwu_num_mon > 0;
}

static uint32_t words(uint32_t bits)
{
    return (bits + 31) / 32;
}

/*
 * The cache model of a cache RIS: one control entry per PARTID the controls
 * are selected by (intPARTID with narrowing), one occupancy counter per
 * (that PARTID, PMG), one portion per CPBM bit.
 */
static const PCacheConfig *ris_cache_config(const MpamRisConfig *r,
                                            PCacheConfig *pc)
{
    *pc = (PCacheConfig) {
        .size = r->cache_size,
        .ways = r->cache_ways,
        .line_size = r->cache_line_size,
        .n_portions = r->cpbm_wd ? r->cpbm_wd : 1,
        .n_partid = (r->has_partid_nrw ? r->intpartid_max : r->partid_max) + 1,
        .n_pmg = r->pmg_max + 1,
    };
    return pc;
}

static char *validate_ris(const MpamMscConfig *cfg, unsigned i)
{
    const MpamRisConfig *r = &cfg->ris[i];

#define CHECK(cond, ...) \
    do { if (!(cond)) { \
        g_autofree char *m_ = g_strdup_printf(__VA_ARGS__); \
        return g_strdup_printf("RIS %u: %s", i, m_); } } while (0)

    CHECK(r->kind == MPAM_RIS_CACHE || r->kind == MPAM_RIS_MEMORY,
          "kind %u is neither cache (0) nor memory (1)", r->kind);
    CHECK(r->partid_max <= MPAM_PARTID_MAX_LIMIT,
          "PARTID_MAX (partid-max) %u exceeds 0xFFFF", r->partid_max);
    CHECK(r->pmg_max <= MPAM_PMG_MAX_LIMIT,
          "PMG_MAX (pmg-max) %u exceeds 255", r->pmg_max);
    CHECK(!r->has_partid_nrw || r->intpartid_max <= r->partid_max,
          "INTPARTID_MAX (intpartid-max) %u exceeds PARTID_MAX %u",
          r->intpartid_max, r->partid_max);
    CHECK(r->cpbm_wd <= MPAM_CPBM_WD_LIMIT,
          "CPBM_WD (cpbm-wd) %u exceeds 32768", r->cpbm_wd);
    CHECK(r->cmax_wd <= MPAM_FRAC_WD_LIMIT,
          "CMAX_WD (cmax-wd) %u exceeds 16", r->cmax_wd);
    CHECK(r->cassoc_wd <= MPAM_FRAC_WD_LIMIT,
          "CASSOC_WD (cassoc-wd) %u exceeds 16", r->cassoc_wd);
    CHECK(!r->has_cmin || r->cmax_wd, "HAS_CMIN (has-cmin) needs CMAX_WD "
                                      "(cmax-wd) > 0");
    CHECK(!r->has_cmax_softlim || ris_has_cmax(r),
          "HAS_CMAX_SOFTLIM (has-cmax-softlim) needs CMAX");
    CHECK(!r->has_cassoc || r->cassoc_wd, "HAS_CASSOC (has-cassoc) needs "
                                          "CASSOC_WD (cassoc-wd) > 0");
    CHECK(r->bwa_wd <= MPAM_FRAC_WD_LIMIT, "BWA_WD (bwa-wd) %u exceeds 16",
          r->bwa_wd);
    CHECK(!(r->mbw_has_min || r->mbw_has_max || r->mbw_has_prop) || r->bwa_wd,
          "MBW_MIN/MAX/PROP (mbw-min, mbw-max, mbw-prop) need BWA_WD "
          "(bwa-wd) > 0");
    CHECK(r->bwpbm_wd <= MPAM_BWPBM_WD_LIMIT,
          "BWPBM_WD (bwpbm-wd) %u exceeds 4096", r->bwpbm_wd);
    CHECK(!r->mbw_has_pbm || r->bwpbm_wd, "HAS_PBM (mbw-pbm) needs BWPBM_WD "
                                          "(bwpbm-wd) > 0");
    CHECK(!r->mbw_bytes_per_s || r->kind == MPAM_RIS_MEMORY,
          "bandwidth regulation (mbw-bytes-per-s) needs a memory RIS");
    CHECK(r->intpri_wd <= MPAM_FRAC_WD_LIMIT,
          "INTPRI_WD (intpri-wd) %u exceeds 16", r->intpri_wd);
    CHECK(r->dspri_wd <= MPAM_FRAC_WD_LIMIT,
          "DSPRI_WD (dspri-wd) %u exceeds 16", r->dspri_wd);
    CHECK(!r->has_intpri || r->intpri_wd, "HAS_INTPRI (intpri) needs "
                                          "INTPRI_WD (intpri-wd) > 0");
    CHECK(!r->has_dspri || r->dspri_wd, "HAS_DSPRI (dspri) needs DSPRI_WD "
                                        "(dspri-wd) > 0");
    CHECK(r->csu_num_mon <= 0xFFFF, "CSU NUM_MON (csu-mon) %u exceeds 0xFFFF",
          r->csu_num_mon);
    CHECK(r->mbwu_num_mon <= 0xFFFF, "MBWU NUM_MON (mbwu-mon) %u exceeds "
                                     "0xFFFF",
          r->mbwu_num_mon);
    CHECK(!r->mbwu_lwd || r->mbwu_has_long, "MBWU LWD (mbwu-lwd) needs "
                                            "HAS_LONG (mbwu-long)");
    CHECK(r->kind == MPAM_RIS_CACHE ||
          (!ris_has_cpor(r) && !ris_has_ccap(r) && !r->csu_num_mon),
          "cache controls (CPOR/CCAP: cpbm-wd, cmax-wd) and CSU monitors "
          "(csu-mon) need a cache RIS");
    CHECK((uint64_t)(r->partid_max + 1) * words(r->cpbm_wd) <= (1u << 22),
          "PARTID_MAX x CPBM_WD (partid-max, cpbm-wd) too large to model");
    if (r->kind == MPAM_RIS_CACHE) {
        PCacheConfig pc;
        g_autofree char *why = pcache_config_check(ris_cache_config(r, &pc));
        CHECK(!why, "%s", why);
    }
    if (ris_has_cpor(r)) {
        CHECK(cfg->mmio_size >= MPAMCFG_CPBM + 4 * words(r->cpbm_wd),
              "MMIO size (mmio-size) 0x%" PRIx64 " does not cover MPAMCFG_CPBM",
              cfg->mmio_size);
    }
    if (ris_has_mbw_pbm(r)) {
        CHECK(cfg->mmio_size >= MPAMCFG_MBW_PBM + 4 * words(r->bwpbm_wd),
              "MMIO size (mmio-size) 0x%" PRIx64 " does not cover "
              "MPAMCFG_MBW_PBM",
              cfg->mmio_size);
    }
#undef CHECK
    return NULL;
}

char *mpam_msc_config_validate(const MpamMscConfig *cfg)
{
    if (cfg->nr_ris < 1 || cfg->nr_ris > MPAM_MSC_MAX_RIS) {
        return g_strdup_printf("number of RIS (nr-ris) %u is not in 1..16",
                               cfg->nr_ris);
    }
    if (cfg->aidr > 0xFF) {
        return g_strdup_printf("AIDR (aidr) 0x%x exceeds 8 bits", cfg->aidr);
    }
    if (cfg->s_partid_max > MPAM_PARTID_MAX_LIMIT ||
        cfg->s_pmg_max > MPAM_PMG_MAX_LIMIT) {
        return g_strdup("SIDR S_PARTID_MAX/S_PMG_MAX out of range");
    }
    if (cfg->nrdy_ns > MPAM_MSC_NRDY_NS_MAX) {
        /* the MPAM table gives it in microseconds, 32 bits */
        return g_strdup_printf("NRDY time (nrdy-ns) %" PRIu64 " is more than "
                               "%" PRIu64, cfg->nrdy_ns,
                               (uint64_t)MPAM_MSC_NRDY_NS_MAX);
    }
    if (cfg->has_extd_esr && !cfg->has_esr) {
        return g_strdup("HAS_EXTD_ESR (has-extd-esr) needs HAS_ESR (has-esr)");
    }
    if (cfg->mmio_size < 0x1000 || cfg->mmio_size > 0x100000 ||
        cfg->mmio_size % 4) {
        return g_strdup_printf("MMIO size (mmio-size) 0x%" PRIx64 " is not a "
                               "multiple of 4 "
                               "in 0x1000..0x100000", cfg->mmio_size);
    }
    for (unsigned i = 0; i < cfg->nr_ris; i++) {
        char *m = validate_ris(cfg, i);
        if (m) {
            return m;
        }
    }
    return NULL;
}

/* --------------------------------------------------------- small helpers */

static uint64_t now_ns(MpamMsc *msc)
{
    return msc->hooks.now_ns ? msc->hooks.now_ns(msc->opaque) : 0;
}

static void G_GNUC_PRINTF(2, 3) guest_error(MpamMsc *msc, const char *fmt, ...)
{
    va_list ap;
    g_autofree char *m = NULL;

    if (!msc->hooks.guest_error) {
        return;
    }
    va_start(ap, fmt);
    m = g_strdup_vprintf(fmt, ap);
    va_end(ap);
    msc->hooks.guest_error(msc->opaque, m);
}

/* The top @wd bits of a 16-bit fixed-point fraction (CMAX, MBW_MAX, ...). */
static uint32_t frac_mask(uint32_t wd)
{
    return wd ? (0xFFFFu << (16 - wd)) & 0xFFFFu : 0;
}

/*
 * A @wd-bit fraction (CMAX, CASSOC, MBW_MAX) as the top of the band it
 * stands for, in 1/65536: its unimplemented low bits count as ones, so
 * all ones is the whole (65536) and 0 is the smallest band, never none.
 */
static uint32_t frac_top(uint32_t v, uint32_t wd)
{
    return v + (1u << (16 - wd));
}

static uint32_t low_mask(uint32_t wd)
{
    return wd >= 32 ? 0xFFFFFFFFu : (1u << wd) - 1;
}

/* Mask of implemented bits in CPBM / MBW_PBM word @w of a @wd-bit bitmap. */
static uint32_t bitmap_word_mask(uint32_t wd, uint32_t w)
{
    if ((w + 1) * 32 <= wd) {
        return 0xFFFFFFFFu;
    }
    return low_mask(wd - w * 32);
}

static void update_irq(MpamMsc *msc, int irq, bool level)
{
    if (msc->irq_level[irq] != level) {
        msc->irq_level[irq] = level;
        if (msc->hooks.set_irq) {
            msc->hooks.set_irq(msc->opaque, irq, level);
        }
    }
}

static bool ctl_oflow(uint32_t ctl)
{
    return ctl & (MSMON_CFG_CTL_OFLOW_STATUS_MASK |
                  MSMON_CFG_CTL_OFLOW_STATUS_L_MASK);
}

static void update_irqs(MpamMsc *msc)
{
    bool err = msc->cfg.has_esr &&
               MPAM_FEX(msc->ecr, MPAMF_ECR, INTEN) &&
               MPAM_FEX(msc->esr, MPAMF_ESR, ERRCODE);
    bool oflow = false;

    for (unsigned i = 0; i < msc->cfg.nr_ris && !oflow; i++) {
        MpamRisState *rs = &msc->ris[i];
        for (uint32_t m = 0; m < rs->n_mbwu_mon && !oflow; m++) {
            uint32_t ctl = rs->mbwu_mon[m].ctl;
            oflow = MPAM_FEX(ctl, MSMON_CFG_CTL, OFLOW_INTR) && ctl_oflow(ctl);
        }
        for (uint32_t m = 0; m < rs->n_csu_mon && !oflow; m++) {
            uint32_t ctl = rs->csu_mon[m].ctl;
            oflow = MPAM_FEX(ctl, MSMON_CFG_CTL, OFLOW_INTR) && ctl_oflow(ctl);
        }
    }
    update_irq(msc, MPAM_MSC_IRQ_ERROR, err);
    update_irq(msc, MPAM_MSC_IRQ_OVERFLOW, oflow);
}

static const char *const errcode_name[16] = {
    "none", "PARTID_SEL_Range", "Req_PARTID_Range", "MSMONCFG_ID_RANGE",
    "Req_PMG_Range", "Monitor_Range", "intPARTID_Range",
    "Unexpected_INTERNAL", "Undefined_RIS_PART_SEL", "RIS_No_Control",
    "Undefined_RIS_MON_SEL", "RIS_No_Monitor",
    "reserved", "reserved", "reserved", "reserved",
};

/*
 * Record an error in MPAMF_ESR.  A second error before software cleared
 * ERRCODE overwrites the syndrome and sets OVRWR.
 */
static void record_error(MpamMsc *msc, unsigned code, unsigned partid_mon,
                         unsigned pmg, unsigned ris)
{
    uint64_t esr = 0;

    guest_error(msc, "MPAM MSC error %u (%s): PARTID/MON %u PMG %u RIS %u",
                code, errcode_name[code & 15], partid_mon, pmg, ris);
    if (!msc->cfg.has_esr) {
        return;
    }
    esr = MPAM_FDP(esr, MPAMF_ESR, PARTID_MON, partid_mon);
    esr = MPAM_FDP(esr, MPAMF_ESR, PMG, pmg);
    esr = MPAM_FDP(esr, MPAMF_ESR, ERRCODE, code);
    if (msc->cfg.has_extd_esr) {
        esr = MPAM_FDP(esr, MPAMF_ESR, RIS, ris);
    }
    if (MPAM_FEX(msc->esr, MPAMF_ESR, ERRCODE)) {
        esr = MPAM_FDP(esr, MPAMF_ESR, OVRWR, 1);
    }
    msc->esr = esr;
    if (msc->hooks.error) {
        msc->hooks.error(msc->opaque, code, esr);
    }
    update_irqs(msc);
}

/* ----------------------------------------------------- per-PARTID state */

MpamPartidState *mpam_msc_partid(MpamRisState *rs, unsigned idx)
{
    return (MpamPartidState *)&rs->partid_words[idx * rs->partid_stride];
}

/* The narrowing map entry of reqPARTID @p: an MPAMCFG_INTPARTID value. */
static unsigned narrow(const MpamRisState *rs, unsigned p)
{
    return MPAM_FEX(rs->intpartid[p], MPAMCFG_INTPARTID, INTPARTID);
}

/*
 * The storage of control register @reg, 32-bit word @word, in control entry
 * @idx of RIS @ris (reqPARTID for MPAMCFG_INTPARTID); NULL for a bitmap
 * word beyond the implemented width.
 */
static uint32_t *ctrl_slot(MpamMsc *msc, const MpamRegInfo *reg, unsigned ris,
                           unsigned idx, unsigned word)
{
    MpamRisState *rs = &msc->ris[ris];

    switch (reg->at) {
    case MPAM_AT_CPBM:
        return word < rs->n_cpbm_words ?
               &mpam_msc_partid(rs, idx)->bitmap[word] : NULL;
    case MPAM_AT_MBW_PBM:
        return word < rs->n_mbw_pbm_words ?
               &mpam_msc_partid(rs, idx)->bitmap[rs->n_cpbm_words + word] :
               NULL;
    case MPAM_AT_REQPARTID:
        return &rs->intpartid[idx];
    default:
        return &((uint32_t *)mpam_msc_partid(rs, idx))[reg->field / 4];
    }
}

/* Writable bits of word @word of control register @reg on RIS @r. */
static uint32_t ctrl_wmask(const MpamRegInfo *reg, const MpamRisConfig *r,
                           unsigned word)
{
    return reg->width ? bitmap_word_mask(reg->width(r), word) : reg->wmask(r);
}

/* Word @word of control register @reg right after reset. */
static uint32_t ctrl_reset_value(const MpamRegInfo *reg,
                                 const MpamMscConfig *c,
                                 const MpamRisConfig *r, unsigned idx,
                                 unsigned word)
{
    if (reg->width) {
        return bitmap_word_mask(reg->width(r), word);      /* all portions */
    }
    if (reg->at == MPAM_AT_REQPARTID) {
        /* Identity narrowing map where possible, everything else to 0. */
        return (idx <= r->intpartid_max ? idx : 0) |
               MPAMCFG_INTPARTID_INTERNAL_MASK;
    }
    return reg->value ? reg->value(c, r) : 0;
}

static unsigned ctrl_entries(const MpamRegInfo *reg, const MpamRisState *rs)
{
    return reg->at == MPAM_AT_REQPARTID ? rs->n_reqpartid : rs->n_partid;
}

static unsigned ctrl_words(const MpamRegInfo *reg, const MpamRisConfig *r)
{
    return reg->width ? words(reg->width(r)) : 1;
}

/* ------------------------------------------------------------- lifecycle */

/*
 * The limits control entry @idx of a cache RIS puts on allocation, derived
 * when one of its controls is written, so that an access does no portion
 * or fraction arithmetic (hw/memsys/pcache.h): the ways its CPBM allows,
 * the lines CMAX allows (a fraction whose unimplemented low bits count as
 * ones), the lines per set CASSOC allows.
 */
static void update_limits(MpamMsc *msc, unsigned ris, unsigned idx)
{
    const MpamRisConfig *r = &msc->cfg.ris[ris];
    MpamRisState *rs = &msc->ris[ris];
    MpamPartidState *ps = mpam_msc_partid(rs, idx);
    uint32_t *way_mask = rs->way_mask + idx * pcache_way_mask_words(rs->cache);
    PCacheLimits *lim = &rs->limits[idx];

    pcache_way_mask(rs->cache, ris_has_cpor(r) ? ps->bitmap : NULL, way_mask);
    *lim = (PCacheLimits) {
        /* none: every way, which the victim search handles fastest */
        .way_mask = pcache_way_mask_is_all(rs->cache, way_mask) ? NULL
                                                                 : way_mask,
        .max_lines = UINT64_MAX,
        .max_ways = UINT32_MAX,
    };
    if (ris_has_cmax(r)) {
        uint64_t frac = frac_top(MPAM_FEX(ps->cmax, MPAMCFG_CMAX, CMAX),
                                 r->cmax_wd);
        lim->max_lines = rs->cache->n_lines * frac >> 16;
    }
    if (ris_has_cassoc(r)) {
        uint64_t frac = frac_top(MPAM_FEX(ps->cassoc, MPAMCFG_CASSOC,
                                          CASSOC), r->cassoc_wd);
        lim->max_ways = MAX(1, (rs->cache->ways * frac) >> 16);
    }
}

/*
 * MBWU counting.  Traffic adds its bytes to the accumulator of its label
 * (PARTID, PMG, read or write), whatever the monitors select (mbwu_count:
 * an add and a compare per request, not a loop over the monitors).  The
 * monitors' values take the bytes of the labels their filters select
 * when they are brought up to date (mbwu_sync): before software reads or
 * changes one, before migration saves them, and when one could overflow.
 * mbwu_left is the least headroom of a counting monitor to its limit, less
 * the bytes since the last sync, each of which adds to a monitor at most
 * once: no monitor reaches its limit before the request that uses mbwu_left
 * up, and that request syncs, so OFLOW_STATUS(_L) and the interrupt come
 * on the very request that crosses the limit, as with a count per request,
 * and a sync outside traffic never finds an overflow.  (While a counting
 * monitor sits a few bytes below its limit, every request syncs: a few
 * loads per label a filter selects, what the loop cost before.)  The
 * accumulators are never reset: a monitor takes the difference of its
 * labels' sum since its last sync (mbwu_base), modulo 2^64.
 */

/* The accumulator of a label; its read and write bytes are neighbours. */
static inline size_t mbwu_label(const MpamRisState *rs, uint32_t partid,
                                uint32_t pmg, bool is_write)
{
    return ((size_t)partid * rs->n_pmg + pmg) * 2 + is_write;
}

/* The bytes ever sent by the labels monitor @m's CTL and FLT select. */
static uint64_t mbwu_sum(const MpamRisState *rs, const MpamMon *m)
{
    uint32_t p0 = 0, p1 = rs->n_partid, g0 = 0, g1 = rs->n_pmg;
    /* RWBW: 0 reads and writes, 1 writes only, 2 reads only. */
    uint32_t rwbw = MPAM_FEX(m->flt, MSMON_CFG_FLT, RWBW);
    bool w0 = rwbw == 1, w1 = rwbw != 2;
    uint64_t sum = 0;

    /* A filter beyond the implemented PARTIDs or PMGs selects no label. */
    if (MPAM_FEX(m->ctl, MSMON_CFG_CTL, MATCH_PARTID)) {
        p0 = MPAM_FEX(m->flt, MSMON_CFG_FLT, PARTID);
        p1 = MIN(p0 + 1, p1);
    }
    if (MPAM_FEX(m->ctl, MSMON_CFG_CTL, MATCH_PMG)) {
        g0 = MPAM_FEX(m->flt, MSMON_CFG_FLT, PMG);
        g1 = MIN(g0 + 1, g1);
    }
    for (uint32_t p = p0; p < p1; p++) {
        for (uint32_t g = g0; g < g1; g++) {
            for (unsigned w = w0; w <= w1; w++) {
                sum += rs->mbwu_acc[mbwu_label(rs, p, g, w)];
            }
        }
    }
    return sum;
}

/* Enabled and not stopped by OFLOW_FRZ after an overflow. */
static bool mbwu_counting(const MpamRisState *rs, const MpamMon *m)
{
    return MPAM_FEX(m->ctl, MSMON_CFG_CTL, EN) &&
           !(MPAM_FEX(m->ctl, MSMON_CFG_CTL, OFLOW_FRZ) &&
             (m->ctl & rs->mbwu_oflow_bit));
}

/*
 * Bring the MBWU monitors of RIS @rs up to date.  With @count, every
 * counting monitor adds what its labels sent since the last sync, wrapping
 * at its limit with its overflow status set (true if one did; never
 * outside traffic, see above).  Either way the next sync starts from here
 * with the filters as they are now: after software changed a monitor, a
 * sync without @count restarts counting from what it left.
 */
static bool mbwu_sync(MpamRisState *rs, bool count)
{
    bool oflow = false;

    rs->mbwu_left = UINT64_MAX;
    for (uint32_t i = 0; i < rs->n_mbwu_mon; i++) {
        MpamMon *m = &rs->mbwu_mon[i];
        uint64_t sum;

        if (!MPAM_FEX(m->ctl, MSMON_CFG_CTL, EN)) {
            continue;
        }
        sum = mbwu_sum(rs, m);
        if (count && mbwu_counting(rs, m)) {
            m->value += sum - rs->mbwu_base[i];
            if (m->value >= rs->mbwu_limit) {
                m->value &= rs->mbwu_limit - 1;
                m->ctl |= rs->mbwu_oflow_bit;
                oflow = true;
            }
        }
        rs->mbwu_base[i] = sum;
        if (mbwu_counting(rs, m)) {
            rs->mbwu_left = MIN(rs->mbwu_left, rs->mbwu_limit - m->value);
        }
    }
    return oflow;
}

static bool has_mbw_min(const MpamRisConfig *r);
static bool has_mbw_max(const MpamRisConfig *r);
static bool has_mbw_prop(const MpamRisConfig *r);

/*
 * The bandwidth controls of control entry @idx of a memory RIS, decoded
 * for its regulator (msc-mbw.h) when one of them is written: MBW_MAX as
 * the top of its band (all ones: no limit, 0: the smallest band), MBW_MIN
 * as the bottom of its band (0: no minimum), so that the reset values
 * regulate nothing.  A control the RIS does not implement is at reset.
 */
static void update_mbw(MpamMsc *msc, unsigned ris, unsigned idx)
{
    const MpamRisConfig *r = &msc->cfg.ris[ris];
    MpamRisState *rs = &msc->ris[ris];
    MpamPartidState *ps = mpam_msc_partid(rs, idx);
    uint32_t max = MPAM_FEX(ps->mbw_max, MPAMCFG_MBW_MAX, MAX);
    /* the host policy over what the guest wrote */
    uint32_t pol = ps->mbw_policy;
    uint32_t min = pol & MPAM_MBW_POLICY_MIN ? ps->mbw_policy_min
                                             : ps->mbw_min;
    uint32_t prop = pol & MPAM_MBW_POLICY_PROP ? ps->mbw_policy_prop
                                               : ps->mbw_prop;
    MbwControls c = {
        .max = has_mbw_max(r) ? frac_top(max, r->bwa_wd) : MBW_FRAC_ONE,
        .hardlim = has_mbw_max(r) &&
                   (MPAM_FEX(ps->mbw_max, MPAMCFG_MBW_MAX, HARDLIM) ||
                    (pol & MPAM_MBW_POLICY_HARDLIM)),
        .min = has_mbw_min(r) ? MPAM_FEX(min, MPAMCFG_MBW_MIN, MIN) : 0,
        .winwd = ps->mbw_winwd & (MPAMCFG_MBW_WINWD_US_INT_MASK |
                                  MPAMCFG_MBW_WINWD_US_FRAC_MASK),
        .stride = has_mbw_prop(r) && MPAM_FEX(prop, MPAMCFG_MBW_PROP, EN) ?
                  MPAM_FEX(prop, MPAMCFG_MBW_PROP, STRIDEM1) + 1 : 0,
        .pbm = ris_has_mbw_pbm(r) ? &ps->bitmap[rs->n_cpbm_words] : NULL,
        .pbm_wd = r->bwpbm_wd,
    };

    mbw_set(rs->mbw, idx, &c);
}

/* Everything derived from the controls of @ris. */
static void update_all_limits(MpamMsc *msc, unsigned ris)
{
    for (uint32_t p = 0; msc->ris[ris].cache && p < msc->ris[ris].n_partid;
         p++) {
        update_limits(msc, ris, p);
    }
    for (uint32_t p = 0; msc->ris[ris].mbw && p < msc->ris[ris].n_partid;
         p++) {
        update_mbw(msc, ris, p);
    }
}

static void ris_reset(MpamMsc *msc, unsigned i)
{
    const MpamRisConfig *r = &msc->cfg.ris[i];
    MpamRisState *rs = &msc->ris[i];

    /* Every control to its table reset value; the host policy stays. */
    for (unsigned k = 0; k < mpam_msc_n_regs; k++) {
        const MpamRegInfo *reg = &mpam_msc_regs[k];

        if (reg->kind != MPAM_REG_CTRL || !reg->present(r)) {
            continue;
        }
        for (unsigned p = 0; p < ctrl_entries(reg, rs); p++) {
            for (unsigned w = 0; w < ctrl_words(reg, r); w++) {
                *ctrl_slot(msc, reg, i, p, w) =
                    ctrl_reset_value(reg, &msc->cfg, r, p, w);
            }
        }
    }
    for (uint32_t m = 0; m < rs->n_csu_mon; m++) {
        rs->csu_mon[m] = (MpamMon){ 0 };
    }
    for (uint32_t m = 0; m < rs->n_mbwu_mon; m++) {
        rs->mbwu_mon[m] = (MpamMon){ 0 };
    }
    if (rs->cache) {
        pcache_reset(rs->cache);
    }
    if (rs->mbw) {
        mbw_reset(rs->mbw);
    }
    update_all_limits(msc, i);
    mbwu_sync(rs, false);
}

static bool mon_long(const MpamRisConfig *r);
static unsigned mbwu_width(const MpamRisConfig *r);

static bool ris_init(MpamMsc *msc, unsigned i, GError **errp)
{
    const MpamRisConfig *r = &msc->cfg.ris[i];
    MpamRisState *rs = &msc->ris[i];

    rs->n_partid = (r->has_partid_nrw ? r->intpartid_max : r->partid_max) + 1;
    rs->n_cpbm_words = ris_has_cpor(r) ? words(r->cpbm_wd) : 0;
    rs->n_mbw_pbm_words = ris_has_mbw_pbm(r) ? words(r->bwpbm_wd) : 0;
    rs->partid_stride = sizeof(MpamPartidState) / 4 + rs->n_cpbm_words +
                        rs->n_mbw_pbm_words;
    rs->n_partid_words = rs->n_partid * rs->partid_stride;
    rs->n_reqpartid = r->has_partid_nrw ? r->partid_max + 1 : 0;
    rs->n_pmg = r->pmg_max + 1;
    rs->n_csu_mon = r->csu_num_mon;
    rs->n_mbwu_mon = r->mbwu_num_mon;

    rs->partid_words = g_new0(uint32_t, rs->n_partid_words);
    rs->intpartid = g_new0(uint32_t, rs->n_reqpartid);
    rs->csu_mon = g_new0(MpamMon, rs->n_csu_mon);
    rs->mbwu_mon = g_new0(MpamMon, rs->n_mbwu_mon);
    if (rs->n_mbwu_mon) {
        /* up to the label after the last: PARTID n_partid, PMG 0 */
        rs->mbwu_acc = g_new0(uint64_t, mbwu_label(rs, rs->n_partid, 0, false));
        rs->mbwu_base = g_new0(uint64_t, rs->n_mbwu_mon);
    }
    rs->mbwu_limit = 1ULL << mbwu_width(r);
    rs->mbwu_oflow_bit = mon_long(r) ? MSMON_CFG_CTL_OFLOW_STATUS_L_MASK
                                     : MSMON_CFG_CTL_OFLOW_STATUS_MASK;
    if (r->kind == MPAM_RIS_CACHE) {
        PCacheConfig pc;

        rs->cache = pcache_new(ris_cache_config(r, &pc), errp);
        if (!rs->cache) {
            return false;
        }
        rs->way_mask = g_new0(uint32_t, rs->n_partid *
                              pcache_way_mask_words(rs->cache));
        rs->limits = g_new0(PCacheLimits, rs->n_partid);
    }
    if (ris_has_mbw(r)) {
        rs->mbw = mbw_new(rs->n_partid, r->mbw_bytes_per_s);
    }
    if (rs->mbw) {
        rs->mbw_state = mbw_state(rs->mbw, &rs->n_mbw_state);
    }
    return true;
}

static void ris_fini(MpamRisState *rs)
{
    g_free(rs->partid_words);
    g_free(rs->intpartid);
    g_free(rs->csu_mon);
    g_free(rs->mbwu_mon);
    g_free(rs->mbwu_acc);
    g_free(rs->mbwu_base);
    pcache_free(rs->cache);
    g_free(rs->way_mask);
    g_free(rs->limits);
    mbw_free(rs->mbw);
    memset(rs, 0, sizeof(*rs));
}

MpamMsc *mpam_msc_new(const MpamMscConfig *cfg, const MpamMscHooks *hooks,
                      void *opaque, GError **errp)
{
    g_autofree char *why = mpam_msc_config_validate(cfg);
    MpamMsc *msc;

    if (why) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", why);
        return NULL;
    }
    msc = g_new0(MpamMsc, 1);
    msc->cfg = *cfg;
    if (hooks) {
        msc->hooks = *hooks;
    }
    msc->opaque = opaque;
    for (unsigned i = 0; i < cfg->nr_ris; i++) {
        if (!ris_init(msc, i, errp)) {
            mpam_msc_free(msc);
            return NULL;
        }
    }
    mpam_msc_reset(msc);
    return msc;
}

void mpam_msc_free(MpamMsc *msc)
{
    if (!msc) {
        return;
    }
    for (unsigned i = 0; i < MPAM_MSC_MAX_RIS; i++) {
        ris_fini(&msc->ris[i]);
    }
    mem_map_free(msc->route);
    g_free(msc);
}

void mpam_msc_reset(MpamMsc *msc)
{
    msc->part_sel = 0;
    msc->mon_sel = 0;
    msc->ecr = 0;
    msc->esr = 0;
    for (unsigned i = 0; i < msc->cfg.nr_ris; i++) {
        ris_reset(msc, i);
    }
    update_irqs(msc);
}

static uint32_t part_sel_mask(const MpamMsc *msc);
static uint32_t mon_sel_mask(const MpamMsc *msc);
static uint64_t esr_mask(const MpamMsc *msc);

/* A loaded register with bits that no write or error leaves: its name. */
static const char *loaded_fault(const MpamMsc *msc)
{
    return msc->part_sel & ~part_sel_mask(msc) ? "MPAMCFG_PART_SEL" :
           msc->mon_sel & ~mon_sel_mask(msc) ? "MSMON_CFG_MON_SEL" :
           msc->ecr & ~(msc->cfg.has_esr ? MPAMF_ECR_INTEN_MASK : 0) ?
           "MPAMF_ECR" :
           msc->esr & ~esr_mask(msc) ? "MPAMF_ESR" : NULL;
}

char *mpam_msc_post_load(MpamMsc *msc)
{
    const char *reg = loaded_fault(msc);

    if (reg) {
        return g_strdup_printf("%s has bits no write sets", reg);
    }
    for (unsigned i = 0; i < msc->cfg.nr_ris; i++) {
        g_autofree char *why = NULL;

        if (msc->ris[i].cache) {
            why = pcache_post_load(msc->ris[i].cache);
        }
        if (why) {
            return g_strdup_printf("RIS %u's cache: %s", i, why);
        }
        /* the regulator's loaded windows and counts stay (mbw_state) */
        update_all_limits(msc, i);
        /* the loaded values are up to date (mpam_msc_pre_save) */
        mbwu_sync(&msc->ris[i], false);
    }
    /* Force the hooks to see the loaded levels. */
    msc->irq_level[0] = msc->irq_level[1] = false;
    if (msc->hooks.set_irq) {
        msc->hooks.set_irq(msc->opaque, MPAM_MSC_IRQ_ERROR, false);
        msc->hooks.set_irq(msc->opaque, MPAM_MSC_IRQ_OVERFLOW, false);
    }
    update_irqs(msc);
    return NULL;
}

void mpam_msc_pre_save(MpamMsc *msc)
{
    for (unsigned i = 0; i < msc->cfg.nr_ris; i++) {
        mbwu_sync(&msc->ris[i], true);
    }
}

/* ----------------------------------------------------------- ID registers */

static uint64_t idr_value(const MpamMscConfig *c, const MpamRisConfig *r)
{
    uint64_t v = 0;

    v = MPAM_FDP(v, MPAMF_IDR, PARTID_MAX, r->partid_max);
    v = MPAM_FDP(v, MPAMF_IDR, PMG_MAX, r->pmg_max);
    v = MPAM_FDP(v, MPAMF_IDR, HAS_CCAP_PART, ris_has_ccap(r));
    v = MPAM_FDP(v, MPAMF_IDR, HAS_CPOR_PART, ris_has_cpor(r));
    v = MPAM_FDP(v, MPAMF_IDR, HAS_MBW_PART, ris_has_mbw(r));
    v = MPAM_FDP(v, MPAMF_IDR, HAS_PRI_PART, ris_has_pri(r));
    v = MPAM_FDP(v, MPAMF_IDR, EXT, 1);
    v = MPAM_FDP(v, MPAMF_IDR, HAS_IMPL_IDR, c->impl_idr != 0);
    v = MPAM_FDP(v, MPAMF_IDR, HAS_MSMON, ris_has_msmon(r));
    v = MPAM_FDP(v, MPAMF_IDR, HAS_PARTID_NRW, r->has_partid_nrw);
    v = MPAM_FDP(v, MPAMF_IDR, HAS_RIS, c->nr_ris > 1);
    v = MPAM_FDP(v, MPAMF_IDR, HAS_EXTD_ESR, c->has_extd_esr);
    v = MPAM_FDP(v, MPAMF_IDR, HAS_ESR, c->has_esr);
    v = MPAM_FDP(v, MPAMF_IDR, RIS_MAX, c->nr_ris - 1);
    return v;
}

uint64_t mpam_msc_idr(const MpamMsc *msc, unsigned ris)
{
    return ris < msc->cfg.nr_ris ? idr_value(&msc->cfg, &msc->cfg.ris[ris])
                                 : 0;
}

static uint64_t sidr_value(const MpamMscConfig *c, const MpamRisConfig *r)
{
    return MPAM_FDP(MPAM_FDP(0, MPAMF_SIDR, S_PARTID_MAX, c->s_partid_max),
                    MPAMF_SIDR, S_PMG_MAX, c->s_pmg_max);
}

static uint64_t iidr_value(const MpamMscConfig *c, const MpamRisConfig *r)
{
    return c->iidr;
}

static uint64_t aidr_value(const MpamMscConfig *c, const MpamRisConfig *r)
{
    return c->aidr;
}

static uint64_t impl_idr_value(const MpamMscConfig *c, const MpamRisConfig *r)
{
    return c->impl_idr;
}

static uint64_t cpor_idr_value(const MpamMscConfig *c, const MpamRisConfig *r)
{
    return MPAM_FDP(0, MPAMF_CPOR_IDR, CPBM_WD, r->cpbm_wd);
}

static uint64_t ccap_idr_value(const MpamMscConfig *c, const MpamRisConfig *r)
{
    uint64_t v = 0;

    if (!ris_has_ccap(r)) {
        return 0;
    }
    v = MPAM_FDP(v, MPAMF_CCAP_IDR, CMAX_WD, r->cmax_wd);
    v = MPAM_FDP(v, MPAMF_CCAP_IDR, CASSOC_WD, r->cassoc_wd);
    v = MPAM_FDP(v, MPAMF_CCAP_IDR, HAS_CASSOC, ris_has_cassoc(r));
    v = MPAM_FDP(v, MPAMF_CCAP_IDR, HAS_CMIN, ris_has_cmin(r));
    v = MPAM_FDP(v, MPAMF_CCAP_IDR, NO_CMAX, r->no_cmax);
    v = MPAM_FDP(v, MPAMF_CCAP_IDR, HAS_CMAX_SOFTLIM, r->has_cmax_softlim);
    return v;
}

static uint64_t mbw_idr_value(const MpamMscConfig *c, const MpamRisConfig *r)
{
    uint64_t v = 0;

    if (!ris_has_mbw(r)) {
        return 0;
    }
    v = MPAM_FDP(v, MPAMF_MBW_IDR, BWA_WD, r->bwa_wd);
    v = MPAM_FDP(v, MPAMF_MBW_IDR, HAS_MIN, ris_has_bwa(r, r->mbw_has_min));
    v = MPAM_FDP(v, MPAMF_MBW_IDR, HAS_MAX, ris_has_bwa(r, r->mbw_has_max));
    v = MPAM_FDP(v, MPAMF_MBW_IDR, HAS_PBM, ris_has_mbw_pbm(r));
    v = MPAM_FDP(v, MPAMF_MBW_IDR, HAS_PROP, ris_has_bwa(r, r->mbw_has_prop));
    v = MPAM_FDP(v, MPAMF_MBW_IDR, WINDWR, r->windwr);
    v = MPAM_FDP(v, MPAMF_MBW_IDR, BWPBM_WD,
                 ris_has_mbw_pbm(r) ? r->bwpbm_wd : 0);
    return v;
}

static uint64_t pri_idr_value(const MpamMscConfig *c, const MpamRisConfig *r)
{
    uint64_t v = 0;

    if (r->has_intpri) {
        v = MPAM_FDP(v, MPAMF_PRI_IDR, HAS_INTPRI, 1);
        v = MPAM_FDP(v, MPAMF_PRI_IDR, INTPRI_0_IS_LOW, r->intpri_0_is_low);
        v = MPAM_FDP(v, MPAMF_PRI_IDR, INTPRI_WD, r->intpri_wd);
    }
    if (r->has_dspri) {
        v = MPAM_FDP(v, MPAMF_PRI_IDR, HAS_DSPRI, 1);
        v = MPAM_FDP(v, MPAMF_PRI_IDR, DSPRI_0_IS_LOW, r->dspri_0_is_low);
        v = MPAM_FDP(v, MPAMF_PRI_IDR, DSPRI_WD, r->dspri_wd);
    }
    return v;
}

static uint64_t partid_nrw_idr_value(const MpamMscConfig *c,
                                     const MpamRisConfig *r)
{
    return r->has_partid_nrw ? r->intpartid_max : 0;
}

static uint64_t msmon_idr_value(const MpamMscConfig *c, const MpamRisConfig *r)
{
    uint64_t v = 0;

    v = MPAM_FDP(v, MPAMF_MSMON_IDR, MSMON_CSU, r->csu_num_mon > 0);
    v = MPAM_FDP(v, MPAMF_MSMON_IDR, MSMON_MBWU, r->mbwu_num_mon > 0);
    v = MPAM_FDP(v, MPAMF_MSMON_IDR, HAS_LOCAL_CAPT_EVNT,
                 c->has_local_capt_evnt);
    return v;
}

static uint64_t csumon_idr_value(const MpamMscConfig *c,
                                 const MpamRisConfig *r)
{
    uint64_t v = 0;

    if (!r->csu_num_mon) {
        return 0;
    }
    v = MPAM_FDP(v, MPAMF_CSUMON_IDR, NUM_MON, r->csu_num_mon);
    v = MPAM_FDP(v, MPAMF_CSUMON_IDR, HAS_XCL, r->csu_has_xcl);
    v = MPAM_FDP(v, MPAMF_CSUMON_IDR, HAS_CAPTURE, r->csu_has_capture);
    return v;
}

static uint64_t mbwumon_idr_value(const MpamMscConfig *c,
                                  const MpamRisConfig *r)
{
    uint64_t v = 0;

    if (!r->mbwu_num_mon) {
        return 0;
    }
    v = MPAM_FDP(v, MPAMF_MBWUMON_IDR, NUM_MON, r->mbwu_num_mon);
    v = MPAM_FDP(v, MPAMF_MBWUMON_IDR, HAS_RWBW, r->mbwu_has_rwbw);
    v = MPAM_FDP(v, MPAMF_MBWUMON_IDR, LWD, r->mbwu_lwd);
    v = MPAM_FDP(v, MPAMF_MBWUMON_IDR, HAS_LONG, r->mbwu_has_long);
    v = MPAM_FDP(v, MPAMF_MBWUMON_IDR, HAS_CAPTURE, r->mbwu_has_capture);
    return v;
}

/* ---------------------------------------- per-PARTID control semantics */

static bool has_mbw_min(const MpamRisConfig *r)
{
    return ris_has_bwa(r, r->mbw_has_min);
}

static bool has_mbw_max(const MpamRisConfig *r)
{
    return ris_has_bwa(r, r->mbw_has_max);
}

static bool has_mbw_prop(const MpamRisConfig *r)
{
    return ris_has_bwa(r, r->mbw_has_prop);
}

static bool has_nrw(const MpamRisConfig *r)
{
    return r->has_partid_nrw;
}

static uint32_t cpbm_width(const MpamRisConfig *r)
{
    return r->cpbm_wd;
}

static uint32_t bwpbm_width(const MpamRisConfig *r)
{
    return r->bwpbm_wd;
}

static uint64_t cmax_wmask(const MpamRisConfig *r)
{
    return frac_mask(r->cmax_wd) |
           (r->has_cmax_softlim ? MPAMCFG_CMAX_SOFTLIM_MASK : 0);
}

/* Reset to "no limit": maximum capacity/bandwidth, no minimum. */
static uint64_t cmax_reset(const MpamMscConfig *c, const MpamRisConfig *r)
{
    return frac_mask(r->cmax_wd);
}

static uint64_t cmin_wmask(const MpamRisConfig *r)
{
    return frac_mask(r->cmax_wd);
}

static uint64_t cassoc_wmask(const MpamRisConfig *r)
{
    return frac_mask(r->cassoc_wd);
}

static uint64_t cassoc_reset(const MpamMscConfig *c, const MpamRisConfig *r)
{
    return frac_mask(r->cassoc_wd);
}

static uint64_t mbw_min_wmask(const MpamRisConfig *r)
{
    return frac_mask(r->bwa_wd);
}

static uint64_t mbw_max_wmask(const MpamRisConfig *r)
{
    return frac_mask(r->bwa_wd) | MPAMCFG_MBW_MAX_HARDLIM_MASK;
}

static uint64_t mbw_max_reset(const MpamMscConfig *c, const MpamRisConfig *r)
{
    return frac_mask(r->bwa_wd);
}

/* Without MPAMF_MBW_IDR.WINDWR the window is read-only. */
static uint64_t mbw_winwd_wmask(const MpamRisConfig *r)
{
    return r->windwr ? MPAMCFG_MBW_WINWD_US_FRAC_MASK |
                       MPAMCFG_MBW_WINWD_US_INT_MASK : 0;
}

/* A 1 ms window (US_INT = 1000). */
static uint64_t mbw_winwd_reset(const MpamMscConfig *c, const MpamRisConfig *r)
{
    return 1000u << MPAMCFG_MBW_WINWD_US_INT_SHIFT;
}

static uint64_t mbw_prop_wmask(const MpamRisConfig *r)
{
    return low_mask(r->bwa_wd) | MPAMCFG_MBW_PROP_EN_MASK;
}

static uint64_t pri_wmask(const MpamRisConfig *r)
{
    return (r->has_intpri ? low_mask(r->intpri_wd) : 0) |
           (r->has_dspri ? low_mask(r->dspri_wd) << 16 : 0);
}

static uint64_t intpartid_wmask(const MpamRisConfig *r)
{
    return MPAMCFG_INTPARTID_INTPARTID_MASK;
}

/* MPAMCFG_INTPARTID: INTERNAL must be set and the intPARTID exist. */
static bool intpartid_pre_write(MpamMsc *msc, unsigned ris, unsigned idx,
                                uint32_t *val)
{
    unsigned intpartid = MPAM_FEX(*val, MPAMCFG_INTPARTID, INTPARTID);

    if (!MPAM_FEX(*val, MPAMCFG_INTPARTID, INTERNAL)) {
        record_error(msc, MPAM_ERRCODE_UNEXPECTED_INTERNAL, idx, 0, ris);
        return false;
    }
    if (intpartid > msc->cfg.ris[ris].intpartid_max) {
        record_error(msc, MPAM_ERRCODE_INTPARTID_RANGE, intpartid, 0, ris);
        return false;
    }
    return true;
}

/* -------------------------------------------------------------- monitors */

static bool mon_long(const MpamRisConfig *r)
{
    return r->mbwu_has_long;
}

static unsigned mbwu_width(const MpamRisConfig *r)
{
    return r->mbwu_has_long ? (r->mbwu_lwd ? 63 : 44) : 31;
}

/* NRDY as it reads: hardware NRDY ends at nrdy_until. */
static bool mon_nrdy(MpamMsc *msc, const MpamMon *m)
{
    return m->nrdy && !(m->nrdy_until && now_ns(msc) >= m->nrdy_until);
}

/* Hardware sets NRDY for nrdy_ns after a monitor is (re)configured. */
static void mon_reconfigured(MpamMsc *msc, MpamMon *m)
{
    if (msc->cfg.nrdy_ns) {
        m->nrdy = 1;
        m->nrdy_until = now_ns(msc) + msc->cfg.nrdy_ns;
    }
}

static uint32_t ctl_mask(const MpamRisConfig *r, MpamMonType type)
{
    uint32_t m = MSMON_CFG_CTL_MATCH_PARTID_MASK |
                 MSMON_CFG_CTL_MATCH_PMG_MASK |
                 MSMON_CFG_CTL_SUBTYPE_MASK | MSMON_CFG_CTL_OFLOW_FRZ_MASK |
                 MSMON_CFG_CTL_OFLOW_INTR_MASK |
                 MSMON_CFG_CTL_OFLOW_STATUS_MASK |
                 MSMON_CFG_CTL_CAPT_RESET_MASK | MSMON_CFG_CTL_CAPT_EVNT_MASK |
                 MSMON_CFG_CTL_EN_MASK;

    if (type == MPAM_MON_MBWU) {
        m |= MSMON_CFG_CTL_SCLEN_MASK;
        if (mon_long(r)) {
            m |= MSMON_CFG_CTL_OFLOW_STATUS_L_MASK;
        }
    }
    return m;
}

static uint32_t flt_mask(const MpamRisConfig *r, MpamMonType type)
{
    uint32_t m = MSMON_CFG_FLT_PARTID_MASK | MSMON_CFG_FLT_PMG_MASK;

    if (type == MPAM_MON_MBWU && r->mbwu_has_rwbw) {
        m |= MSMON_CFG_FLT_RWBW_MASK;
    }
    if (type == MPAM_MON_CSU && r->csu_has_xcl) {
        m |= MSMON_CFG_FLT_XCL_MASK;
    }
    return m;
}

/* MSMON_CFG_x_CTL as it reads: TYPE is read-only. */
static uint32_t ctl_value(const MpamMon *m, MpamMonType type)
{
    return m->ctl | (type == MPAM_MON_CSU ? MSMON_CFG_CSU_CTL_TYPE_CSU
                                          : MSMON_CFG_MBWU_CTL_TYPE_MBWU);
}

static uint64_t csu_bytes(MpamMsc *msc, unsigned ris, const MpamMon *m)
{
    PCache *c = msc->ris[ris].cache;
    bool mp = MPAM_FEX(m->ctl, MSMON_CFG_CTL, MATCH_PARTID);
    bool mg = MPAM_FEX(m->ctl, MSMON_CFG_CTL, MATCH_PMG);
    uint16_t partid = MPAM_FEX(m->flt, MSMON_CFG_FLT, PARTID);
    uint8_t pmg = MPAM_FEX(m->flt, MSMON_CFG_FLT, PMG);
    uint64_t lines = 0;

    if (!c) {
        return 0;
    }
    if (mp && mg) {
        lines = pcache_lines_pg(c, partid, pmg);
    } else if (mp) {
        lines = pcache_lines_partid(c, partid);
    } else if (mg) {
        for (uint32_t p = 0; p <= msc->cfg.ris[ris].partid_max; p++) {
            lines += pcache_lines_pg(c, p, pmg);
        }
    } else {
        lines = pcache_lines_total(c);
    }
    return lines * c->line_size;
}

/*
 * Current counter value of monitor @m (CSU: live occupancy when enabled,
 * MBWU: with the bytes counted since the last sync).
 */
static uint64_t mon_value(MpamMsc *msc, unsigned ris, MpamMon *m,
                          MpamMonType type)
{
    if (type == MPAM_MON_CSU && MPAM_FEX(m->ctl, MSMON_CFG_CTL, EN)) {
        return MIN(csu_bytes(msc, ris, m), CSU_VALUE_MAX);
    }
    if (type == MPAM_MON_MBWU) {
        mbwu_sync(&msc->ris[ris], true);
    }
    return m->value;
}

static uint32_t mon_ctl_read(MpamMsc *msc, const MpamRegInfo *reg,
                             MpamMon *m, unsigned ris, unsigned word)
{
    return ctl_value(m, reg->mon);
}

static uint32_t mon_flt_read(MpamMsc *msc, const MpamRegInfo *reg,
                             MpamMon *m, unsigned ris, unsigned word)
{
    return m->flt;
}

/* MSMON_CFG_x_CTL and MSMON_CFG_x_FLT writes. */
static void mon_ctl_flt_write(MpamMsc *msc, MpamMon *m, unsigned ris,
                              MpamMonType type, bool ctl, uint32_t val)
{
    const MpamRisConfig *r = &msc->cfg.ris[ris];
    uint32_t old_cfg, new_cfg;

    old_cfg = m->ctl & ~(MSMON_CFG_CTL_OFLOW_STATUS_MASK |
                         MSMON_CFG_CTL_OFLOW_STATUS_L_MASK);
    old_cfg ^= m->flt;
    if (ctl) {
        m->ctl = val & ctl_mask(r, type);
    } else {
        uint32_t partid = MPAM_FEX(val, MSMON_CFG_FLT, PARTID);
        uint32_t pmg = MPAM_FEX(val, MSMON_CFG_FLT, PMG);
        uint32_t pmax = r->has_partid_nrw ? r->intpartid_max : r->partid_max;

        m->flt = val & flt_mask(r, type);
        if (partid > pmax || pmg > r->pmg_max) {
            record_error(msc, MPAM_ERRCODE_MSMONCFG_ID_RANGE, partid, pmg, ris);
        }
    }
    new_cfg = (m->ctl & ~(MSMON_CFG_CTL_OFLOW_STATUS_MASK |
                          MSMON_CFG_CTL_OFLOW_STATUS_L_MASK)) ^ m->flt;
    /* Clearing overflow status is not a reconfiguration. */
    if (old_cfg != new_cfg) {
        mon_reconfigured(msc, m);
    }
    update_irqs(msc);
}

static void mon_ctl_write(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                          unsigned ris, unsigned word, uint32_t val)
{
    mon_ctl_flt_write(msc, m, ris, reg->mon, true, val);
}

static void mon_flt_write(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                          unsigned ris, unsigned word, uint32_t val)
{
    mon_ctl_flt_write(msc, m, ris, reg->mon, false, val);
}

/*
 * Counter registers MSMON_CSU, MSMON_MBWU (31-bit view, one word) and
 * MSMON_MBWU_L (two words), and their capture copies.
 */
static uint32_t mon_value_read(MpamMsc *msc, const MpamRegInfo *reg,
                               MpamMon *m, unsigned ris, unsigned word)
{
    uint64_t v = reg->capture ? m->capture : mon_value(msc, ris, m, reg->mon);
    bool nrdy = !reg->capture && mon_nrdy(msc, m);

    if (reg->size == 4) {
        return (v & MSMON_VALUE_MASK) | (nrdy ? MSMON_NRDY_MASK : 0);
    }
    v = (v & MSMON_L_LWD_VALUE_MASK) | (nrdy ? MSMON_L_NRDY_MASK : 0);
    return v >> (32 * word);
}

static void mon_value_write(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                            unsigned ris, unsigned word, uint32_t val)
{
    uint64_t vmask = (1ULL << mbwu_width(&msc->cfg.ris[ris])) - 1;

    if (reg->capture) {
        if (reg->size == 4) {
            m->capture = val & MSMON_VALUE_MASK;
        } else if (word == 0) {
            m->capture = (m->capture & ~0xFFFFFFFFULL) | val;
        } else {
            m->capture = (m->capture & 0xFFFFFFFFULL) | ((uint64_t)val << 32);
            m->capture &= vmask;
        }
        return;
    }
    /* Software writes set the value and NRDY; a written 0 NRDY clears it. */
    if (reg->size == 4) {
        m->value = val & MSMON_VALUE_MASK;
        m->nrdy = !!(val & MSMON_NRDY_MASK);
    } else if (word == 0) {
        m->value = (m->value & ~0xFFFFFFFFULL) | val;
    } else {
        m->value = (m->value & 0xFFFFFFFFULL) | ((uint64_t)val << 32);
        m->nrdy = !!(val & (MSMON_L_NRDY_MASK >> 32));
    }
    m->value &= reg->mon == MPAM_MON_CSU ? MSMON_VALUE_MASK : vmask;
    m->nrdy_until = 0;
}

/* MSMON_CAPT_EVNT.NOW: capture every monitor whose CAPT_EVNT selects it. */
static void capture_now(MpamMsc *msc)
{
    for (unsigned i = 0; i < msc->cfg.nr_ris; i++) {
        MpamRisState *rs = &msc->ris[i];
        const MpamRisConfig *r = &msc->cfg.ris[i];

        for (uint32_t k = 0; k < rs->n_csu_mon && r->csu_has_capture; k++) {
            MpamMon *m = &rs->csu_mon[k];
            if (MPAM_FEX(m->ctl, MSMON_CFG_CTL, CAPT_EVNT) ==
                MSMON_CAPT_EVNT_SOFTWARE) {
                m->capture = mon_value(msc, i, m, MPAM_MON_CSU);
            }
        }
        /* the values as of now; CAPT_RESET restarts counting from 0 */
        mbwu_sync(rs, true);
        for (uint32_t k = 0; k < rs->n_mbwu_mon && r->mbwu_has_capture; k++) {
            MpamMon *m = &rs->mbwu_mon[k];
            if (MPAM_FEX(m->ctl, MSMON_CFG_CTL, CAPT_EVNT) ==
                MSMON_CAPT_EVNT_SOFTWARE) {
                m->capture = m->value;
                if (MPAM_FEX(m->ctl, MSMON_CFG_CTL, CAPT_RESET)) {
                    m->value = 0;
                }
            }
        }
        mbwu_sync(rs, false);
    }
}

static bool has_csu(const MpamRisConfig *r)
{
    return r->csu_num_mon > 0;
}

static bool has_csu_capture(const MpamRisConfig *r)
{
    return r->csu_num_mon > 0 && r->csu_has_capture;
}

static bool has_mbwu(const MpamRisConfig *r)
{
    return r->mbwu_num_mon > 0;
}

static bool has_mbwu_capture(const MpamRisConfig *r)
{
    return r->mbwu_num_mon > 0 && r->mbwu_has_capture;
}

static bool has_mbwu_l(const MpamRisConfig *r)
{
    return r->mbwu_num_mon > 0 && mon_long(r);
}

static bool has_mbwu_l_capture(const MpamRisConfig *r)
{
    return has_mbwu_l(r) && r->mbwu_has_capture;
}

/* ------------------------------------------ selectors, errors, events */

static uint32_t part_sel_read(MpamMsc *msc, const MpamRegInfo *reg,
                              MpamMon *m, unsigned ris, unsigned word)
{
    return msc->part_sel;
}

static uint32_t mon_sel_read(MpamMsc *msc, const MpamRegInfo *reg,
                             MpamMon *m, unsigned ris, unsigned word)
{
    return msc->mon_sel;
}

/* The RIS fields of the selectors are RES0 unless MPAMF_IDR.HAS_RIS. */
static uint32_t part_sel_mask(const MpamMsc *msc)
{
    return MPAMCFG_PART_SEL_PARTID_SEL_MASK | MPAMCFG_PART_SEL_INTERNAL_MASK |
           (msc->cfg.nr_ris > 1 ? MPAMCFG_PART_SEL_RIS_MASK : 0);
}

static uint32_t mon_sel_mask(const MpamMsc *msc)
{
    return MSMON_CFG_MON_SEL_MON_SEL_MASK |
           (msc->cfg.nr_ris > 1 ? MSMON_CFG_MON_SEL_RIS_MASK : 0);
}

static void part_sel_write(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                           unsigned ris, unsigned word, uint32_t val)
{
    msc->part_sel = val & part_sel_mask(msc);
}

static void mon_sel_write(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                          unsigned ris, unsigned word, uint32_t val)
{
    msc->mon_sel = val & mon_sel_mask(msc);
}

static uint32_t capt_evnt_read(MpamMsc *msc, const MpamRegInfo *reg,
                               MpamMon *m, unsigned ris, unsigned word)
{
    return 0;
}

static void capt_evnt_write(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                            unsigned ris, unsigned word, uint32_t val)
{
    if (MPAM_FEX(val, MSMON_CAPT_EVNT, NOW)) {
        capture_now(msc);
    }
}

static uint32_t ecr_read(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                         unsigned ris, unsigned word)
{
    return msc->cfg.has_esr ? msc->ecr : 0;
}

static void ecr_write(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                      unsigned ris, unsigned word, uint32_t val)
{
    if (msc->cfg.has_esr) {
        msc->ecr = val & MPAMF_ECR_INTEN_MASK;
        update_irqs(msc);
    }
}

static uint32_t esr_read(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                         unsigned ris, unsigned word)
{
    return msc->cfg.has_esr ? msc->esr >> (32 * word) : 0;
}

/* The bits of MPAMF_ESR an error or a write can set. */
static uint64_t esr_mask(const MpamMsc *msc)
{
    return !msc->cfg.has_esr ? 0 :
           MPAMF_ESR_PARTID_MON_MASK | MPAMF_ESR_PMG_MASK |
           MPAMF_ESR_ERRCODE_MASK | MPAMF_ESR_OVRWR_MASK |
           (msc->cfg.has_extd_esr ? MPAMF_ESR_RIS_MASK : 0);
}

static void esr_write(MpamMsc *msc, const MpamRegInfo *reg, MpamMon *m,
                      unsigned ris, unsigned word, uint32_t val)
{
    uint32_t mask = MPAMF_ESR_PARTID_MON_MASK | MPAMF_ESR_PMG_MASK |
                    MPAMF_ESR_ERRCODE_MASK | MPAMF_ESR_OVRWR_MASK;

    if (word == 1) {
        if (msc->cfg.has_extd_esr) {
            msc->esr = (uint32_t)msc->esr |
                       (((uint64_t)val << 32) & MPAMF_ESR_RIS_MASK);
        }
        return;
    }
    if (!msc->cfg.has_esr) {
        return;
    }
    /*
     * Software normally writes 0 to clear.  A reserved ERRCODE (12..15) is
     * never reported, so writing one reads back as 0.
     */
    if (MPAM_FEX(val, MPAMF_ESR, ERRCODE) > MPAM_ERRCODE_RIS_NO_MONITOR) {
        val = MPAM_FDP(val, MPAMF_ESR, ERRCODE, 0);
    }
    msc->esr = (msc->esr & ~0xFFFFFFFFULL) | (val & mask);
    update_irqs(msc);
}

/* ---------------------------------------------------- the register table */

#define ID_REG(reg, sz, bank, fn) \
    { .name = #reg, .offset = reg, .size = sz, .kind = MPAM_REG_ID, \
      .banked = bank, .value = fn }
#define CTRL_REG(reg, has, mask, rst, fld) \
    { .name = #reg, .offset = reg, .size = 4, .kind = MPAM_REG_CTRL, \
      .present = has, .wmask = mask, .value = rst, .at = MPAM_AT_PARTID, \
      .field = offsetof(MpamPartidState, fld) }
#define BITMAP_REG(reg, window, has, wd, where) \
    { .name = #reg, .offset = reg, .size = window, .kind = MPAM_REG_CTRL, \
      .present = has, .width = wd, .at = where }
#define MSC_REG(reg, sz, k, has, rd, wr) \
    { .name = #reg, .offset = reg, .size = sz, .kind = k, .present = has, \
      .read = rd, .write = wr }
#define MON_REG(reg, sz, type, capt, has, rd, wr) \
    { .name = #reg, .offset = reg, .size = sz, .kind = MPAM_REG_MON, \
      .mon = type, .capture = capt, .present = has, .read = rd, .write = wr }

const MpamRegInfo mpam_msc_regs[] = {
    /* Identification: MSC-wide, or reported by the RIS PART_SEL selects. */
    ID_REG(MPAMF_IDR, 8, true, idr_value),
    ID_REG(MPAMF_SIDR, 4, false, sidr_value),
    ID_REG(MPAMF_IIDR, 4, false, iidr_value),
    ID_REG(MPAMF_AIDR, 4, false, aidr_value),
    ID_REG(MPAMF_IMPL_IDR, 4, false, impl_idr_value),
    ID_REG(MPAMF_CPOR_IDR, 4, true, cpor_idr_value),
    ID_REG(MPAMF_CCAP_IDR, 4, true, ccap_idr_value),
    ID_REG(MPAMF_MBW_IDR, 4, true, mbw_idr_value),
    ID_REG(MPAMF_PRI_IDR, 4, true, pri_idr_value),
    ID_REG(MPAMF_PARTID_NRW_IDR, 4, true, partid_nrw_idr_value),
    ID_REG(MPAMF_MSMON_IDR, 4, true, msmon_idr_value),
    ID_REG(MPAMF_CSUMON_IDR, 4, true, csumon_idr_value),
    ID_REG(MPAMF_MBWUMON_IDR, 4, true, mbwumon_idr_value),
    /* Errors. */
    MSC_REG(MPAMF_ECR, 4, MPAM_REG_ERR, NULL, ecr_read, ecr_write),
    MSC_REG(MPAMF_ESR, 8, MPAM_REG_ERR, NULL, esr_read, esr_write),
    /* Selectors; MSMON_CAPT_EVNT acts on all monitors, like a selector. */
    MSC_REG(MPAMCFG_PART_SEL, 4, MPAM_REG_SEL, NULL, part_sel_read,
            part_sel_write),
    MSC_REG(MSMON_CFG_MON_SEL, 4, MPAM_REG_SEL, NULL, mon_sel_read,
            mon_sel_write),
    MSC_REG(MSMON_CAPT_EVNT, 4, MPAM_REG_SEL, NULL, capt_evnt_read,
            capt_evnt_write),
    /* Per-PARTID controls. */
    CTRL_REG(MPAMCFG_CMAX, ris_has_cmax, cmax_wmask, cmax_reset, cmax),
    CTRL_REG(MPAMCFG_CMIN, ris_has_cmin, cmin_wmask, NULL, cmin),
    CTRL_REG(MPAMCFG_CASSOC, ris_has_cassoc, cassoc_wmask, cassoc_reset,
             cassoc),
    CTRL_REG(MPAMCFG_MBW_MIN, has_mbw_min, mbw_min_wmask, NULL, mbw_min),
    CTRL_REG(MPAMCFG_MBW_MAX, has_mbw_max, mbw_max_wmask, mbw_max_reset,
             mbw_max),
    CTRL_REG(MPAMCFG_MBW_WINWD, ris_has_mbw, mbw_winwd_wmask,
             mbw_winwd_reset, mbw_winwd),
    CTRL_REG(MPAMCFG_PRI, ris_has_pri, pri_wmask, NULL, pri),
    CTRL_REG(MPAMCFG_MBW_PROP, has_mbw_prop, mbw_prop_wmask, NULL, mbw_prop),
    { .name = "MPAMCFG_INTPARTID", .offset = MPAMCFG_INTPARTID, .size = 4,
      .kind = MPAM_REG_CTRL, .present = has_nrw, .wmask = intpartid_wmask,
      .at = MPAM_AT_REQPARTID, .pre_write = intpartid_pre_write },
    BITMAP_REG(MPAMCFG_CPBM, 0x1000, ris_has_cpor, cpbm_width, MPAM_AT_CPBM),
    BITMAP_REG(MPAMCFG_MBW_PBM, 0x200, ris_has_mbw_pbm, bwpbm_width,
               MPAM_AT_MBW_PBM),
    /* Monitors. */
    MON_REG(MSMON_CFG_CSU_FLT, 4, MPAM_MON_CSU, false, has_csu, mon_flt_read,
            mon_flt_write),
    MON_REG(MSMON_CFG_CSU_CTL, 4, MPAM_MON_CSU, false, has_csu, mon_ctl_read,
            mon_ctl_write),
    MON_REG(MSMON_CFG_MBWU_FLT, 4, MPAM_MON_MBWU, false, has_mbwu,
            mon_flt_read, mon_flt_write),
    MON_REG(MSMON_CFG_MBWU_CTL, 4, MPAM_MON_MBWU, false, has_mbwu,
            mon_ctl_read, mon_ctl_write),
    MON_REG(MSMON_CSU, 4, MPAM_MON_CSU, false, has_csu, mon_value_read,
            mon_value_write),
    MON_REG(MSMON_CSU_CAPTURE, 4, MPAM_MON_CSU, true, has_csu_capture,
            mon_value_read, mon_value_write),
    MON_REG(MSMON_MBWU, 4, MPAM_MON_MBWU, false, has_mbwu, mon_value_read,
            mon_value_write),
    MON_REG(MSMON_MBWU_CAPTURE, 4, MPAM_MON_MBWU, true, has_mbwu_capture,
            mon_value_read, mon_value_write),
    MON_REG(MSMON_MBWU_L, 8, MPAM_MON_MBWU, false, has_mbwu_l,
            mon_value_read, mon_value_write),
    MON_REG(MSMON_MBWU_L_CAPTURE, 8, MPAM_MON_MBWU, true, has_mbwu_l_capture,
            mon_value_read, mon_value_write),
};
const unsigned mpam_msc_n_regs = G_N_ELEMENTS(mpam_msc_regs);

/* ------------------------------------------------------------- selection */

/* A failed selection: an architected error, or a guest error. */
static void sel_error(MpamMsc *msc, bool peek, unsigned code, unsigned id,
                      unsigned ris, const char *what)
{
    if (peek) {
        return;
    }
    if (code != MPAM_ERRCODE_NONE) {
        record_error(msc, code, id, 0, ris);
    } else {
        guest_error(msc, "MPAM MSC: %s not implemented", what);
    }
}

/*
 * Resolve MPAMCFG_PART_SEL for an access to banked ID or control register
 * @reg: the RIS, and for a control the entry (intPARTID with narrowing,
 * PARTID otherwise; for MPAMCFG_INTPARTID the reqPARTID).  False after
 * recording the error (none if @peek).
 */
static bool part_select(MpamMsc *msc, const MpamRegInfo *reg, bool peek,
                        unsigned *risp, unsigned *idxp)
{
    unsigned ris = MPAM_FEX(msc->part_sel, MPAMCFG_PART_SEL, RIS);
    unsigned partid = MPAM_FEX(msc->part_sel, MPAMCFG_PART_SEL, PARTID_SEL);
    bool internal = MPAM_FEX(msc->part_sel, MPAMCFG_PART_SEL, INTERNAL);
    bool map = reg->at == MPAM_AT_REQPARTID;
    const MpamRisConfig *r;

    *risp = ris;
    *idxp = partid;
    if (ris >= msc->cfg.nr_ris) {
        sel_error(msc, peek, MPAM_ERRCODE_UNDEFINED_RIS_PART_SEL, partid, ris,
                  reg->name);
        return false;
    }
    r = &msc->cfg.ris[ris];
    if (reg->kind == MPAM_REG_ID) {
        return true;
    }
    if (!reg->present(r)) {
        sel_error(msc, peek, msc->cfg.nr_ris > 1 ?
                  MPAM_ERRCODE_RIS_NO_CONTROL : MPAM_ERRCODE_NONE,
                  partid, ris, reg->name);
        return false;
    }
    if (internal && (!r->has_partid_nrw || map)) {
        /* INTERNAL only selects intPARTIDs, and only where they exist. */
        sel_error(msc, peek, MPAM_ERRCODE_UNEXPECTED_INTERNAL, partid, ris,
                  reg->name);
        return false;
    }
    if (partid > (internal ? r->intpartid_max : r->partid_max)) {
        sel_error(msc, peek, MPAM_ERRCODE_PARTID_SEL_RANGE, partid, ris,
                  reg->name);
        return false;
    }
    if (r->has_partid_nrw && !internal && !map) {
        /* A reqPARTID selects the controls of the intPARTID it maps to. */
        *idxp = narrow(&msc->ris[ris], partid);
    }
    return true;
}

/*
 * Resolve MSMON_CFG_MON_SEL for an access to monitor register @reg.
 * Returns the monitor, or NULL after recording the error (none if @peek).
 */
static MpamMon *mon_select(MpamMsc *msc, const MpamRegInfo *reg, bool peek,
                           unsigned *risp)
{
    unsigned ris = MPAM_FEX(msc->mon_sel, MSMON_CFG_MON_SEL, RIS);
    unsigned mon = MPAM_FEX(msc->mon_sel, MSMON_CFG_MON_SEL, MON_SEL);
    bool csu = reg->mon == MPAM_MON_CSU;
    MpamRisState *rs;
    uint32_t num;

    *risp = ris;
    if (ris >= msc->cfg.nr_ris) {
        sel_error(msc, peek, MPAM_ERRCODE_UNDEFINED_RIS_MON_SEL, mon, ris,
                  reg->name);
        return NULL;
    }
    rs = &msc->ris[ris];
    num = csu ? rs->n_csu_mon : rs->n_mbwu_mon;
    if (!num) {
        sel_error(msc, peek, msc->cfg.nr_ris > 1 ?
                  MPAM_ERRCODE_RIS_NO_MONITOR : MPAM_ERRCODE_NONE, mon, ris,
                  csu ? "CSU monitor" : "MBWU monitor");
        return NULL;
    }
    if (mon >= num) {
        sel_error(msc, peek, MPAM_ERRCODE_MONITOR_RANGE, mon, ris, reg->name);
        return NULL;
    }
    if (!reg->present(&msc->cfg.ris[ris])) {
        sel_error(msc, peek, MPAM_ERRCODE_NONE, mon, ris, reg->name);
        return NULL;
    }
    return csu ? &rs->csu_mon[mon] : &rs->mbwu_mon[mon];
}

/* A selected register: its RIS, control entry or monitor. */
typedef struct RegSel {
    unsigned ris;
    unsigned idx;
    MpamMon *mon;
} RegSel;

static bool reg_select(MpamMsc *msc, const MpamRegInfo *reg, bool peek,
                       RegSel *sel)
{
    *sel = (RegSel){ 0 };
    if (reg->kind == MPAM_REG_CTRL || (reg->kind == MPAM_REG_ID &&
                                       reg->banked)) {
        return part_select(msc, reg, peek, &sel->ris, &sel->idx);
    }
    if (reg->kind == MPAM_REG_MON) {
        sel->mon = mon_select(msc, reg, peek, &sel->ris);
        return sel->mon;
    }
    return true;
}

/* Word @word of @reg for a resolved selection, without side effects. */
static uint32_t reg_word(MpamMsc *msc, const MpamRegInfo *reg,
                         const RegSel *sel, unsigned word)
{
    uint32_t *slot;

    switch (reg->kind) {
    case MPAM_REG_ID:
        return reg->value(&msc->cfg, &msc->cfg.ris[sel->ris]) >> (32 * word);
    case MPAM_REG_CTRL:
        slot = ctrl_slot(msc, reg, sel->ris, sel->idx, word);
        return slot ? *slot : 0;
    default:
        return reg->read(msc, reg, sel->mon, sel->ris, word);
    }
}

static void ctrl_write(MpamMsc *msc, const MpamRegInfo *reg, const RegSel *sel,
                       unsigned word, uint32_t val)
{
    uint32_t *slot = ctrl_slot(msc, reg, sel->ris, sel->idx, word);
    uint32_t mask = ctrl_wmask(reg, &msc->cfg.ris[sel->ris], word);

    if (!slot) {
        guest_error(msc, "MPAM MSC: %s word %u beyond the implemented width",
                    reg->name, word);
        return;
    }
    if (reg->pre_write && !reg->pre_write(msc, sel->ris, sel->idx, &val)) {
        return;
    }
    *slot = (*slot & ~mask) | (val & mask);
    if (reg->at != MPAM_AT_REQPARTID && msc->ris[sel->ris].cache) {
        update_limits(msc, sel->ris, sel->idx);
    }
    if (reg->at != MPAM_AT_REQPARTID && msc->ris[sel->ris].mbw) {
        update_mbw(msc, sel->ris, sel->idx);
    }
    if (msc->hooks.cfg_write) {
        msc->hooks.cfg_write(msc->opaque, sel->ris, sel->idx, reg->name,
                             *slot);
    }
}

/* ------------------------------------------------------------------ MMIO */

/* The register at MMIO offset @off, if any, and which 32-bit word of it. */
static const MpamRegInfo *reg_at(uint64_t off, unsigned *word)
{
    for (unsigned k = 0; k < mpam_msc_n_regs; k++) {
        const MpamRegInfo *reg = &mpam_msc_regs[k];

        if (off >= reg->offset && off < reg->offset + reg->size) {
            *word = (off - reg->offset) / 4;
            return reg;
        }
    }
    return NULL;
}

static uint32_t reg_read32(MpamMsc *msc, uint64_t off)
{
    unsigned word;
    const MpamRegInfo *reg = reg_at(off, &word);
    RegSel sel;

    if (!reg) {
        guest_error(msc, "MPAM MSC: read of reserved offset 0x%" PRIx64, off);
        return 0;
    }
    return reg_select(msc, reg, false, &sel) ? reg_word(msc, reg, &sel, word)
                                             : 0;
}

static void reg_write32(MpamMsc *msc, uint64_t off, uint32_t val)
{
    unsigned word;
    const MpamRegInfo *reg = reg_at(off, &word);
    RegSel sel;

    if (!reg) {
        guest_error(msc, "MPAM MSC: write to reserved offset 0x%" PRIx64, off);
        return;
    }
    if (reg->kind == MPAM_REG_ID) {
        guest_error(msc, "MPAM MSC: write to read-only ID register %s",
                    reg->name);
        return;
    }
    if (!reg_select(msc, reg, false, &sel)) {
        return;
    }
    if (reg->kind == MPAM_REG_CTRL) {
        ctrl_write(msc, reg, &sel, word, val);
    } else if (reg->kind == MPAM_REG_MON) {
        /*
         * The write acts on the MBWU values as of now, and counting goes
         * on from what it leaves (a value, a filter, EN, a cleared status).
         */
        mbwu_sync(&msc->ris[sel.ris], true);
        reg->write(msc, reg, sel.mon, sel.ris, word, val);
        mbwu_sync(&msc->ris[sel.ris], false);
    } else {
        reg->write(msc, reg, sel.mon, sel.ris, word, val);
    }
}

static bool access_ok(MpamMsc *msc, uint64_t offset, unsigned size, bool write)
{
    if ((size != 4 && size != 8) || (offset & (size - 1)) ||
        offset >= msc->cfg.mmio_size || size > msc->cfg.mmio_size - offset) {
        guest_error(msc, "MPAM MSC: bad %s of size %u at offset 0x%" PRIx64,
                    write ? "write" : "read", size, offset);
        return false;
    }
    return true;
}

uint64_t mpam_msc_read(MpamMsc *msc, uint64_t offset, unsigned size)
{
    uint64_t v;

    if (!access_ok(msc, offset, size, false)) {
        return 0;
    }
    v = reg_read32(msc, offset);
    if (size == 8) {
        v |= (uint64_t)reg_read32(msc, offset + 4) << 32;
    }
    return v;
}

void mpam_msc_write(MpamMsc *msc, uint64_t offset, uint64_t value,
                    unsigned size)
{
    if (!access_ok(msc, offset, size, true)) {
        return;
    }
    reg_write32(msc, offset, value);
    if (size == 8) {
        reg_write32(msc, offset + 4, value >> 32);
    }
}

/* --------------------------------------------------------------- traffic */

/*
 * @bytes of label (@partid, @pmg) on RIS @rs for its MBWU monitors (above);
 * true if one overflowed.
 */
static inline bool mbwu_count(MpamRisState *rs, uint32_t partid, uint32_t pmg,
                              bool is_write, uint64_t bytes)
{
    if (!rs->mbwu_acc) {
        return false;
    }
    rs->mbwu_acc[mbwu_label(rs, partid, pmg, is_write)] += bytes;
    if (bytes < rs->mbwu_left) {
        rs->mbwu_left -= bytes;
        return false;
    }
    return mbwu_sync(rs, true);
}

static uint16_t down_dspri(MpamMsc *msc, unsigned ris, unsigned idx);

/* A cache RIS's downstream traffic on its way to the caller's @down. */
typedef struct RisDown {
    MpamMsc *msc;
    unsigned ris;
    PCacheDownFn *down;
    void *opaque;
    bool oflow;
} RisDown;

/*
 * What a cache sends downstream is what its MBWU monitors count: line
 * fills with the requester's label, write-backs with the line owner's
 * label (docs/mpam-msc-model.md, "MBWU").  Each carries the DSPRI of that
 * label's PARTID (already a control index here: access_ris narrowed it),
 * so a DDR scheduler below serves fills at the requester's priority and
 * write-backs at the owner's.
 */
static void ris_down(void *opaque, MemReq *d)
{
    RisDown *rd = opaque;

    rd->oflow |= mbwu_count(&rd->msc->ris[rd->ris], d->label.partid,
                            d->label.pmg, memreq_is_write(d), d->size);
    if (rd->down) {
        d->dspri = down_dspri(rd->msc, rd->ris, d->label.partid);
        rd->down(rd->opaque, d);
    }
}

/*
 * Request @req on RIS @ris.  A memory RIS with a regulator also regulates
 * it (msc-mbw.h) and merges its verdict into *v: the longest delay, LOW
 * over HIGH over MEDIUM.
 */
static void access_ris(MpamMsc *msc, unsigned ris, const MemReq *req,
                       MemResult *res, PCacheDownFn *down, void *opaque,
                       MbwVerdict *v)
{
    const MpamRisConfig *r = &msc->cfg.ris[ris];
    MpamRisState *rs = &msc->ris[ris];
    RisDown rd = { msc, ris, down, opaque, false };
    const MemReq *use = req;
    MemReq in;
    uint32_t partid = req->label.partid;
    uint32_t pmg = req->label.pmg;

    /* Out-of-range requests are errors and use the default PARTID/PMG 0. */
    if (partid > r->partid_max) {
        record_error(msc, MPAM_ERRCODE_REQ_PARTID_RANGE, partid, pmg, ris);
        partid = 0;
    }
    if (pmg > r->pmg_max) {
        record_error(msc, MPAM_ERRCODE_REQ_PMG_RANGE, partid, pmg, ris);
        pmg = 0;
    }
    if (r->has_partid_nrw) {
        /* Controls and monitors see the intPARTID. */
        partid = narrow(rs, partid);
    }
    if (partid != req->label.partid || pmg != req->label.pmg) {
        in = *req;
        in.label = (MemLabel){ partid, pmg };
        use = &in;
    }

    if (rs->cache) {
        pcache_access_down(rs->cache, use, &rs->limits[partid], res, ris_down,
                           &rd);
    } else {
        /* A memory RIS counts the bytes that reach it. */
        rd.oflow = mbwu_count(rs, partid, pmg, memreq_is_write(req),
                              req->size);
    }
    if (rs->mbw) {
        MbwVerdict rv = mbw_request(rs->mbw, partid, req->t_ps, req->size);

        v->delay_ps = MAX(v->delay_ps, rv.delay_ps);
        if (rv.pref == MBW_PREF_LOW ||
            (rv.pref == MBW_PREF_HIGH && v->pref == MBW_PREF_MEDIUM)) {
            v->pref = rv.pref;
        }
    }
    if (rd.oflow) {
        update_irqs(msc);
    }
}

/* The RIS that see @addr (bit n = RIS n). */
static uint64_t ris_seeing(const MpamMsc *msc, uint64_t addr)
{
    uint64_t all = (1ull << msc->cfg.nr_ris) - 1;

    return msc->route ? mem_map_lookup(msc->route, addr) & all : all;
}

/*
 * The result goes to *@res, not a return value: the RIS update its fields
 * one by one, and copying it out whole right after would wait for those
 * stores (a wide load does not take data from narrower pending stores).
 */
static void access_all(MpamMsc *msc, const MemReq *req, PCacheDownFn *down,
                       void *opaque, MbwVerdict *v, MemResult *res)
{
    *res = (MemResult){ 0 };
    *v = (MbwVerdict){ 0, MBW_PREF_MEDIUM };
    for (uint64_t set = ris_seeing(msc, req->addr); set; set &= set - 1) {
        unsigned i = __builtin_ctzll(set);

        res->seen |= 1u << i;
        access_ris(msc, i, req, res, down, opaque, v);
    }
}

void mpam_msc_access_down(MpamMsc *msc, const MemReq *req,
                          PCacheDownFn *down, void *opaque, MemResult *res)
{
    MbwVerdict v;

    access_all(msc, req, down, opaque, &v, res);
}

void mpam_msc_access_regulated(MpamMsc *msc, const MemReq *req,
                               MbwVerdict *v)
{
    MemResult res;

    access_all(msc, req, NULL, NULL, v, &res);
}

MemResult mpam_msc_access(MpamMsc *msc, const MemReq *req)
{
    MemResult res;
    MbwVerdict v;

    access_all(msc, req, NULL, NULL, &v, &res);
    return res;
}

bool mpam_msc_writeback(MpamMsc *msc, const MemReq *req)
{
    bool held = false;

    for (uint64_t set = ris_seeing(msc, req->addr); set; set &= set - 1) {
        PCache *c = msc->ris[__builtin_ctzll(set)].cache;

        held |= c && pcache_writeback(c, req);
    }
    return held;
}

void mpam_msc_invalidate(MpamMsc *msc, const MemReq *req, PCacheDownFn *down,
                         void *opaque)
{
    for (uint64_t set = ris_seeing(msc, req->addr); set; set &= set - 1) {
        RisDown rd = { msc, __builtin_ctzll(set), down, opaque, false };
        PCache *c = msc->ris[rd.ris].cache;

        if (c) {
            pcache_invalidate(c, req, ris_down, &rd);
        }
        if (rd.oflow) {
            update_irqs(msc);
        }
    }
}

void mpam_msc_set_route(MpamMsc *msc, MemMap *route)
{
    mem_map_free(msc->route);
    msc->route = route;
}

/* --------------------------------------------------------- introspection */

static int control_index(MpamMsc *msc, unsigned ris, unsigned partid)
{
    const MpamRisConfig *r;

    if (ris >= msc->cfg.nr_ris) {
        return -1;
    }
    r = &msc->cfg.ris[ris];
    if (partid > r->partid_max) {
        return -1;
    }
    return r->has_partid_nrw ? (int)narrow(&msc->ris[ris], partid)
                             : (int)partid;
}

static uint32_t effective_pri(MpamMsc *msc, unsigned ris, int idx)
{
    MpamPartidState *ps = mpam_msc_partid(&msc->ris[ris], idx);

    return ps->pri_policy_set ? ps->pri_policy : ps->pri;
}

/*
 * The DSPRI of control entry @idx as a downstream scheduler takes it: 4
 * bits, higher is more urgent (AxQoS, docs/ddr-qos-model.md).  The RIS's
 * own encoding is turned around when 0 is its highest priority
 * (DSPRI_0_IS_LOW 0) and scaled from DSPRI_WD bits so that 0 stays 0 and
 * the RIS's highest value becomes 15.  0 if the RIS has no DSPRI.
 */
static uint16_t down_dspri(MpamMsc *msc, unsigned ris, unsigned idx)
{
    const MpamRisConfig *r = &msc->cfg.ris[ris];
    uint32_t max = (1u << r->dspri_wd) - 1;
    uint32_t v;

    if (!r->has_dspri) {           /* validated: DSPRI_WD > 0 then */
        return 0;
    }
    v = MPAM_FEX(effective_pri(msc, ris, idx), MPAMCFG_PRI, DSPRI) & max;
    if (!r->dspri_0_is_low) {
        v = max - v;
    }
    return v * MPAM_DOWN_DSPRI_MAX / max;
}

uint16_t mpam_msc_down_dspri(MpamMsc *msc, unsigned ris, unsigned partid)
{
    int idx = control_index(msc, ris, partid);

    return idx < 0 ? 0 : down_dspri(msc, ris, idx);
}

uint16_t mpam_msc_req_down_dspri(MpamMsc *msc, const MemReq *req)
{
    uint64_t set = ris_seeing(msc, req->addr);
    unsigned ris;
    int idx;

    for (; set; set &= set - 1) {
        ris = __builtin_ctzll(set);
        if (msc->cfg.ris[ris].has_dspri) {
            /* out of range: PARTID 0, as access_ris takes such a request */
            idx = control_index(msc, ris, req->label.partid);
            return down_dspri(msc, ris, idx < 0 ? control_index(msc, ris, 0)
                                                : idx);
        }
    }
    return 0;
}

bool mpam_msc_get_partid_cfg(MpamMsc *msc, unsigned ris, unsigned partid,
                             MpamPartidCfg *out)
{
    int idx = control_index(msc, ris, partid);
    MpamRisState *rs;
    uint32_t pri;

    if (idx < 0) {
        return false;
    }
    rs = &msc->ris[ris];
    memset(out, 0, sizeof(*out));
    out->intpartid = idx;
    out->ctl = mpam_msc_partid(rs, idx);
    out->cpbm = rs->n_cpbm_words ? out->ctl->bitmap : NULL;
    out->mbw_pbm = rs->n_mbw_pbm_words ?
                   &out->ctl->bitmap[rs->n_cpbm_words] : NULL;
    pri = effective_pri(msc, ris, idx);
    out->effective_intpri = MPAM_FEX(pri, MPAMCFG_PRI, INTPRI);
    out->effective_dspri = MPAM_FEX(pri, MPAMCFG_PRI, DSPRI);
    if (rs->cache) {
        out->csu_bytes = pcache_lines_partid(rs->cache, idx) *
                         rs->cache->line_size;
    }
    return true;
}

unsigned mpam_msc_reg_size(const MpamMsc *msc, const MpamRegInfo *reg,
                           unsigned ris)
{
    const MpamRisConfig *r;

    if (ris >= msc->cfg.nr_ris) {
        return 0;
    }
    r = &msc->cfg.ris[ris];
    if (reg->present && !reg->present(r)) {
        return 0;
    }
    return reg->width ? 4 * words(reg->width(r)) : reg->size;
}

unsigned mpam_msc_reg_peek(MpamMsc *msc, const MpamRegInfo *reg, int ris,
                           unsigned partid, uint32_t *out)
{
    unsigned n = 0;
    RegSel sel;
    bool ok;

    if (ris < 0) {
        /* The frame: the widest implementation of @reg in any RIS. */
        for (unsigned i = 0; i < msc->cfg.nr_ris; i++) {
            n = MAX(n, mpam_msc_reg_size(msc, reg, i) / 4);
        }
        ok = reg_select(msc, reg, true, &sel);
    } else {
        int idx = control_index(msc, ris, partid);

        if (idx >= 0 && reg->at == MPAM_AT_REQPARTID) {
            idx = partid;
        }

        n = mpam_msc_reg_size(msc, reg, ris) / 4;
        sel = (RegSel){ .ris = ris, .idx = idx };
        ok = idx >= 0 && (reg->kind == MPAM_REG_CTRL ||
                          reg->kind == MPAM_REG_ID);
    }
    for (unsigned w = 0; w < n; w++) {
        out[w] = ok ? reg_word(msc, reg, &sel, w) : 0;
    }
    return n;
}

bool mpam_msc_partid_is_reset(MpamMsc *msc, unsigned ris, unsigned partid)
{
    int idx = control_index(msc, ris, partid);
    const MpamRisConfig *r;

    if (idx < 0 || mpam_msc_partid(&msc->ris[ris], idx)->pri_policy_set ||
        mpam_msc_partid(&msc->ris[ris], idx)->mbw_policy) {
        return false;
    }
    r = &msc->cfg.ris[ris];
    for (unsigned k = 0; k < mpam_msc_n_regs; k++) {
        const MpamRegInfo *reg = &mpam_msc_regs[k];
        unsigned e = reg->at == MPAM_AT_REQPARTID ? partid : (unsigned)idx;

        if (reg->kind != MPAM_REG_CTRL || !reg->present(r)) {
            continue;
        }
        for (unsigned w = 0; w < ctrl_words(reg, r); w++) {
            if (*ctrl_slot(msc, reg, ris, e, w) !=
                ctrl_reset_value(reg, &msc->cfg, r, e, w)) {
                return false;
            }
        }
    }
    return true;
}

bool mpam_msc_get_mon(MpamMsc *msc, unsigned ris, MpamMonType type,
                      unsigned mon, MpamMonInfo *out)
{
    MpamRisState *rs;
    MpamMon *m;

    if (ris >= msc->cfg.nr_ris) {
        return false;
    }
    rs = &msc->ris[ris];
    if (mon >= (type == MPAM_MON_CSU ? rs->n_csu_mon : rs->n_mbwu_mon)) {
        return false;
    }
    m = type == MPAM_MON_CSU ? &rs->csu_mon[mon] : &rs->mbwu_mon[mon];
    out->ctl = ctl_value(m, type);
    out->flt = m->flt;
    out->value = mon_value(msc, ris, m, type);
    out->capture = m->capture;
    out->nrdy = mon_nrdy(msc, m);
    return true;
}

bool mpam_msc_cache_checksum(MpamMsc *msc, unsigned ris, uint64_t *out)
{
    if (ris >= msc->cfg.nr_ris || !msc->ris[ris].cache) {
        return false;
    }
    *out = pcache_checksum(msc->ris[ris].cache);
    return true;
}

bool mpam_msc_mbw_checksum(MpamMsc *msc, unsigned ris, uint64_t *out)
{
    const MpamRisState *rs;
    uint64_t h = 0xcbf29ce484222325ull;

    if (ris >= msc->cfg.nr_ris || !msc->ris[ris].mbw) {
        return false;
    }
    rs = &msc->ris[ris];
    for (uint32_t i = 0; i < rs->n_mbw_state; i++) {
        h = (h ^ rs->mbw_state[i]) * 0x100000001b3ull;
    }
    *out = h;
    return true;
}

void mpam_msc_get_errors(MpamMsc *msc, MpamErrInfo *out)
{
    out->ecr = msc->ecr;
    out->esr = msc->esr;
    out->errcode = MPAM_FEX(msc->esr, MPAMF_ESR, ERRCODE);
    out->irq_level = msc->irq_level[MPAM_MSC_IRQ_ERROR];
}

bool mpam_msc_set_pri_policy(MpamMsc *msc, unsigned ris, unsigned partid,
                             uint16_t intpri, uint16_t dspri)
{
    int idx = control_index(msc, ris, partid);
    const MpamRisConfig *r;
    MpamPartidState *ps;
    uint32_t v = 0;

    if (idx < 0) {
        return false;
    }
    r = &msc->cfg.ris[ris];
    v = MPAM_FDP(v, MPAMCFG_PRI, INTPRI, intpri);
    v = MPAM_FDP(v, MPAMCFG_PRI, DSPRI, dspri);
    ps = mpam_msc_partid(&msc->ris[ris], idx);
    ps->pri_policy = v & pri_wmask(r);
    ps->pri_policy_set = 1;
    return true;
}

bool mpam_msc_set_mbw_policy(MpamMsc *msc, unsigned ris, unsigned partid,
                             const MpamMbwPolicy *pol)
{
    int idx = control_index(msc, ris, partid);
    const MpamRisConfig *r;
    MpamPartidState *ps;

    if (idx < 0) {
        return false;
    }
    r = &msc->cfg.ris[ris];
    if ((pol->hardlim && !has_mbw_max(r)) || (pol->has_min && !has_mbw_min(r)) ||
        (pol->prop_stride && (!has_mbw_prop(r) ||
                              pol->prop_stride > 1u << r->bwa_wd))) {
        return false;
    }
    ps = mpam_msc_partid(&msc->ris[ris], idx);
    ps->mbw_policy = (pol->hardlim ? MPAM_MBW_POLICY_HARDLIM : 0) |
                     (pol->has_min ? MPAM_MBW_POLICY_MIN : 0) |
                     (pol->prop_stride ? MPAM_MBW_POLICY_PROP : 0);
    ps->mbw_policy_min = pol->has_min ? pol->min & mbw_min_wmask(r) : 0;
    ps->mbw_policy_prop = 0;
    if (pol->prop_stride) {
        ps->mbw_policy_prop = MPAM_FDP(ps->mbw_policy_prop, MPAMCFG_MBW_PROP,
                                       STRIDEM1, pol->prop_stride - 1);
        ps->mbw_policy_prop = MPAM_FDP(ps->mbw_policy_prop, MPAMCFG_MBW_PROP,
                                       EN, 1);
    }
    if (msc->ris[ris].mbw) {
        update_mbw(msc, ris, idx);
    }
    return true;
}

bool mpam_msc_clear_pri_policy(MpamMsc *msc, unsigned ris, unsigned partid)
{
    int idx = control_index(msc, ris, partid);

    if (idx < 0) {
        return false;
    }
    mpam_msc_partid(&msc->ris[ris], idx)->pri_policy_set = 0;
    mpam_msc_partid(&msc->ris[ris], idx)->pri_policy = 0;
    return true;
}

uint16_t mpam_msc_effective_intpri(MpamMsc *msc, unsigned ris, unsigned partid)
{
    int idx = control_index(msc, ris, partid);

    return idx < 0 ? 0 : MPAM_FEX(effective_pri(msc, ris, idx),
                                  MPAMCFG_PRI, INTPRI);
}

uint16_t mpam_msc_effective_dspri(MpamMsc *msc, unsigned ris, unsigned partid)
{
    int idx = control_index(msc, ris, partid);

    return idx < 0 ? 0 : MPAM_FEX(effective_pri(msc, ris, idx),
                                  MPAMCFG_PRI, DSPRI);
}
