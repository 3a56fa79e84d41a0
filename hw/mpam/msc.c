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
          "PARTID_MAX %u exceeds 0xFFFF", r->partid_max);
    CHECK(r->pmg_max <= MPAM_PMG_MAX_LIMIT,
          "PMG_MAX %u exceeds 255", r->pmg_max);
    CHECK(!r->has_partid_nrw || r->intpartid_max <= r->partid_max,
          "INTPARTID_MAX %u exceeds PARTID_MAX %u",
          r->intpartid_max, r->partid_max);
    CHECK(r->cpbm_wd <= MPAM_CPBM_WD_LIMIT,
          "CPBM_WD %u exceeds 32768", r->cpbm_wd);
    CHECK(r->cmax_wd <= MPAM_FRAC_WD_LIMIT,
          "CMAX_WD %u exceeds 16", r->cmax_wd);
    CHECK(r->cassoc_wd <= MPAM_FRAC_WD_LIMIT,
          "CASSOC_WD %u exceeds 16", r->cassoc_wd);
    CHECK(!r->has_cmin || r->cmax_wd, "HAS_CMIN needs CMAX_WD > 0");
    CHECK(!r->has_cmax_softlim || ris_has_cmax(r),
          "HAS_CMAX_SOFTLIM needs CMAX");
    CHECK(!r->has_cassoc || r->cassoc_wd, "HAS_CASSOC needs CASSOC_WD > 0");
    CHECK(r->bwa_wd <= MPAM_FRAC_WD_LIMIT, "BWA_WD %u exceeds 16", r->bwa_wd);
    CHECK(!(r->mbw_has_min || r->mbw_has_max || r->mbw_has_prop) || r->bwa_wd,
          "MBW_MIN/MAX/PROP need BWA_WD > 0");
    CHECK(r->bwpbm_wd <= MPAM_BWPBM_WD_LIMIT,
          "BWPBM_WD %u exceeds 4096", r->bwpbm_wd);
    CHECK(!r->mbw_has_pbm || r->bwpbm_wd, "HAS_PBM needs BWPBM_WD > 0");
    CHECK(r->intpri_wd <= MPAM_FRAC_WD_LIMIT,
          "INTPRI_WD %u exceeds 16", r->intpri_wd);
    CHECK(r->dspri_wd <= MPAM_FRAC_WD_LIMIT,
          "DSPRI_WD %u exceeds 16", r->dspri_wd);
    CHECK(!r->has_intpri || r->intpri_wd, "HAS_INTPRI needs INTPRI_WD > 0");
    CHECK(!r->has_dspri || r->dspri_wd, "HAS_DSPRI needs DSPRI_WD > 0");
    CHECK(r->csu_num_mon <= 0xFFFF, "CSU NUM_MON %u exceeds 0xFFFF",
          r->csu_num_mon);
    CHECK(r->mbwu_num_mon <= 0xFFFF, "MBWU NUM_MON %u exceeds 0xFFFF",
          r->mbwu_num_mon);
    CHECK(!r->mbwu_lwd || r->mbwu_has_long, "MBWU LWD needs HAS_LONG");
    CHECK(r->kind == MPAM_RIS_CACHE ||
          (!ris_has_cpor(r) && !ris_has_ccap(r) && !r->csu_num_mon),
          "cache controls (CPOR/CCAP) and CSU monitors need a cache RIS");
    CHECK((uint64_t)(r->partid_max + 1) * words(r->cpbm_wd) <= (1u << 22),
          "PARTID_MAX x CPBM_WD too large to model");
    if (r->kind == MPAM_RIS_CACHE) {
        PCacheConfig pc;
        g_autofree char *why = pcache_config_check(ris_cache_config(r, &pc));
        CHECK(!why, "%s", why);
    }
    if (ris_has_cpor(r)) {
        CHECK(cfg->mmio_size >= MPAMCFG_CPBM + 4 * words(r->cpbm_wd),
              "MMIO size 0x%" PRIx64 " does not cover MPAMCFG_CPBM",
              cfg->mmio_size);
    }
    if (ris_has_mbw_pbm(r)) {
        CHECK(cfg->mmio_size >= MPAMCFG_MBW_PBM + 4 * words(r->bwpbm_wd),
              "MMIO size 0x%" PRIx64 " does not cover MPAMCFG_MBW_PBM",
              cfg->mmio_size);
    }
#undef CHECK
    return NULL;
}

char *mpam_msc_config_validate(const MpamMscConfig *cfg)
{
    if (cfg->nr_ris < 1 || cfg->nr_ris > MPAM_MSC_MAX_RIS) {
        return g_strdup_printf("number of RIS %u is not in 1..16", cfg->nr_ris);
    }
    if (cfg->aidr > 0xFF) {
        return g_strdup_printf("AIDR 0x%x exceeds 8 bits", cfg->aidr);
    }
    if (cfg->s_partid_max > MPAM_PARTID_MAX_LIMIT ||
        cfg->s_pmg_max > MPAM_PMG_MAX_LIMIT) {
        return g_strdup("SIDR S_PARTID_MAX/S_PMG_MAX out of range");
    }
    if (cfg->has_extd_esr && !cfg->has_esr) {
        return g_strdup("HAS_EXTD_ESR needs HAS_ESR");
    }
    if (cfg->mmio_size < 0x1000 || cfg->mmio_size > 0x100000 ||
        cfg->mmio_size % 4) {
        return g_strdup_printf("MMIO size 0x%" PRIx64 " is not a multiple of 4 "
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

/* ------------------------------------------------------------- lifecycle */

static void ris_reset(MpamMsc *msc, unsigned i)
{
    const MpamRisConfig *r = &msc->cfg.ris[i];
    MpamRisState *rs = &msc->ris[i];

    for (uint32_t p = 0; p < rs->n_partid; p++) {
        for (uint32_t w = 0; w < rs->n_cpbm_words; w++) {
            rs->cpbm[p * rs->n_cpbm_words + w] =
                bitmap_word_mask(r->cpbm_wd, w);
        }
        for (uint32_t w = 0; w < rs->n_mbw_pbm_words; w++) {
            rs->mbw_pbm[p * rs->n_mbw_pbm_words + w] =
                bitmap_word_mask(r->bwpbm_wd, w);
        }
        /* Reset to "no limit": maximum capacity/bandwidth, no minimum. */
        rs->cmax[p] = ris_has_cmax(r) ? frac_mask(r->cmax_wd) : 0;
        rs->cmin[p] = 0;
        rs->cassoc[p] = ris_has_cassoc(r) ? frac_mask(r->cassoc_wd) : 0;
        rs->mbw_min[p] = 0;
        rs->mbw_max[p] = ris_has_bwa(r, r->mbw_has_max) ?
                         frac_mask(r->bwa_wd) : 0;
        /* A 1 ms window (US_INT = 1000). */
        rs->mbw_winwd[p] = ris_has_mbw(r) ?
                           1000u << MPAMCFG_MBW_WINWD_US_INT_SHIFT : 0;
        rs->mbw_prop[p] = 0;
        rs->pri[p] = 0;
    }
    /* Identity narrowing map where possible, everything else to 0. */
    for (uint32_t p = 0; p < rs->n_reqpartid; p++) {
        rs->intpartid[p] = p <= r->intpartid_max ? p : 0;
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
}

static bool ris_init(MpamMsc *msc, unsigned i, GError **errp)
{
    const MpamRisConfig *r = &msc->cfg.ris[i];
    MpamRisState *rs = &msc->ris[i];
    uint32_t n;

    n = (r->has_partid_nrw ? r->intpartid_max : r->partid_max) + 1;
    rs->n_partid = n;
    rs->n_reqpartid = r->has_partid_nrw ? r->partid_max + 1 : 0;
    rs->n_cpbm_words = words(r->cpbm_wd);
    rs->n_cpbm = n * rs->n_cpbm_words;
    rs->n_mbw_pbm_words = ris_has_mbw_pbm(r) ? words(r->bwpbm_wd) : 0;
    rs->n_mbw_pbm = n * rs->n_mbw_pbm_words;
    rs->n_csu_mon = r->csu_num_mon;
    rs->n_mbwu_mon = r->mbwu_num_mon;

    rs->cpbm = g_new0(uint32_t, rs->n_cpbm);
    rs->mbw_pbm = g_new0(uint32_t, rs->n_mbw_pbm);
    rs->cmax = g_new0(uint32_t, n);
    rs->cmin = g_new0(uint32_t, n);
    rs->cassoc = g_new0(uint32_t, n);
    rs->mbw_min = g_new0(uint32_t, n);
    rs->mbw_max = g_new0(uint32_t, n);
    rs->mbw_winwd = g_new0(uint32_t, n);
    rs->mbw_prop = g_new0(uint32_t, n);
    rs->pri = g_new0(uint32_t, n);
    rs->intpartid = g_new0(uint32_t, rs->n_reqpartid);
    rs->pri_policy = g_new0(uint32_t, n);
    rs->pri_policy_set = g_new0(uint8_t, n);
    rs->csu_mon = g_new0(MpamMon, rs->n_csu_mon);
    rs->mbwu_mon = g_new0(MpamMon, rs->n_mbwu_mon);
    if (r->kind == MPAM_RIS_CACHE) {
        PCacheConfig pc;

        rs->cache = pcache_new(ris_cache_config(r, &pc), errp);
        if (!rs->cache) {
            return false;
        }
    }
    return true;
}

static void ris_fini(MpamRisState *rs)
{
    g_free(rs->cpbm);
    g_free(rs->mbw_pbm);
    g_free(rs->cmax);
    g_free(rs->cmin);
    g_free(rs->cassoc);
    g_free(rs->mbw_min);
    g_free(rs->mbw_max);
    g_free(rs->mbw_winwd);
    g_free(rs->mbw_prop);
    g_free(rs->pri);
    g_free(rs->intpartid);
    g_free(rs->pri_policy);
    g_free(rs->pri_policy_set);
    g_free(rs->csu_mon);
    g_free(rs->mbwu_mon);
    pcache_free(rs->cache);
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

void mpam_msc_post_load(MpamMsc *msc)
{
    for (unsigned i = 0; i < msc->cfg.nr_ris; i++) {
        if (msc->ris[i].cache) {
            pcache_rebuild(msc->ris[i].cache);
        }
    }
    /* Force the hooks to see the loaded levels. */
    msc->irq_level[0] = msc->irq_level[1] = false;
    if (msc->hooks.set_irq) {
        msc->hooks.set_irq(msc->opaque, MPAM_MSC_IRQ_ERROR, false);
        msc->hooks.set_irq(msc->opaque, MPAM_MSC_IRQ_OVERFLOW, false);
    }
    update_irqs(msc);
}

/* ----------------------------------------------------------- ID registers */

uint64_t mpam_msc_idr(const MpamMsc *msc, unsigned ris)
{
    const MpamMscConfig *c = &msc->cfg;
    const MpamRisConfig *r;
    uint64_t v = 0;

    if (ris >= c->nr_ris) {
        return 0;
    }
    r = &c->ris[ris];
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

/* Banked ID register @off (32-bit) for RIS @ris, which must exist. */
static uint32_t id_reg(MpamMsc *msc, unsigned ris, uint64_t off)
{
    const MpamRisConfig *r = &msc->cfg.ris[ris];
    uint64_t v = 0;

    switch (off) {
    case MPAMF_IDR:
        return mpam_msc_idr(msc, ris);
    case MPAMF_IDR + 4:
        return mpam_msc_idr(msc, ris) >> 32;
    case MPAMF_CPOR_IDR:
        return MPAM_FDP(v, MPAMF_CPOR_IDR, CPBM_WD, r->cpbm_wd);
    case MPAMF_CCAP_IDR:
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
    case MPAMF_MBW_IDR:
        if (!ris_has_mbw(r)) {
            return 0;
        }
        v = MPAM_FDP(v, MPAMF_MBW_IDR, BWA_WD, r->bwa_wd);
        v = MPAM_FDP(v, MPAMF_MBW_IDR, HAS_MIN, ris_has_bwa(r, r->mbw_has_min));
        v = MPAM_FDP(v, MPAMF_MBW_IDR, HAS_MAX, ris_has_bwa(r, r->mbw_has_max));
        v = MPAM_FDP(v, MPAMF_MBW_IDR, HAS_PBM, ris_has_mbw_pbm(r));
        v = MPAM_FDP(v, MPAMF_MBW_IDR, HAS_PROP,
                     ris_has_bwa(r, r->mbw_has_prop));
        v = MPAM_FDP(v, MPAMF_MBW_IDR, WINDWR, r->windwr);
        v = MPAM_FDP(v, MPAMF_MBW_IDR, BWPBM_WD,
                     ris_has_mbw_pbm(r) ? r->bwpbm_wd : 0);
        return v;
    case MPAMF_PRI_IDR:
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
    case MPAMF_PARTID_NRW_IDR:
        return r->has_partid_nrw ? r->intpartid_max : 0;
    case MPAMF_MSMON_IDR:
        v = MPAM_FDP(v, MPAMF_MSMON_IDR, MSMON_CSU, r->csu_num_mon > 0);
        v = MPAM_FDP(v, MPAMF_MSMON_IDR, MSMON_MBWU, r->mbwu_num_mon > 0);
        v = MPAM_FDP(v, MPAMF_MSMON_IDR, HAS_LOCAL_CAPT_EVNT,
                     msc->cfg.has_local_capt_evnt);
        return v;
    case MPAMF_CSUMON_IDR:
        if (!r->csu_num_mon) {
            return 0;
        }
        v = MPAM_FDP(v, MPAMF_CSUMON_IDR, NUM_MON, r->csu_num_mon);
        v = MPAM_FDP(v, MPAMF_CSUMON_IDR, HAS_XCL, r->csu_has_xcl);
        v = MPAM_FDP(v, MPAMF_CSUMON_IDR, HAS_CAPTURE, r->csu_has_capture);
        return v;
    case MPAMF_MBWUMON_IDR:
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
    return 0;
}

/* ------------------------------------------------- per-PARTID controls */

typedef enum CfgReg {
    CFG_CMAX, CFG_CMIN, CFG_CASSOC, CFG_MBW_MIN, CFG_MBW_MAX, CFG_MBW_WINWD,
    CFG_PRI, CFG_MBW_PROP, CFG_INTPARTID, CFG_CPBM, CFG_MBW_PBM,
} CfgReg;

static const char *const cfg_reg_name[] = {
    [CFG_CMAX] = "MPAMCFG_CMAX", [CFG_CMIN] = "MPAMCFG_CMIN",
    [CFG_CASSOC] = "MPAMCFG_CASSOC", [CFG_MBW_MIN] = "MPAMCFG_MBW_MIN",
    [CFG_MBW_MAX] = "MPAMCFG_MBW_MAX", [CFG_MBW_WINWD] = "MPAMCFG_MBW_WINWD",
    [CFG_PRI] = "MPAMCFG_PRI", [CFG_MBW_PROP] = "MPAMCFG_MBW_PROP",
    [CFG_INTPARTID] = "MPAMCFG_INTPARTID", [CFG_CPBM] = "MPAMCFG_CPBM",
    [CFG_MBW_PBM] = "MPAMCFG_MBW_PBM",
};

static bool ris_has_cfg(const MpamRisConfig *r, CfgReg reg)
{
    switch (reg) {
    case CFG_CMAX:
        return ris_has_cmax(r);
    case CFG_CMIN:
        return ris_has_cmin(r);
    case CFG_CASSOC:
        return ris_has_cassoc(r);
    case CFG_MBW_MIN:
        return ris_has_bwa(r, r->mbw_has_min);
    case CFG_MBW_MAX:
        return ris_has_bwa(r, r->mbw_has_max);
    case CFG_MBW_WINWD:
        return ris_has_mbw(r);
    case CFG_PRI:
        return ris_has_pri(r);
    case CFG_MBW_PROP:
        return ris_has_bwa(r, r->mbw_has_prop);
    case CFG_INTPARTID:
        return r->has_partid_nrw;
    case CFG_CPBM:
        return ris_has_cpor(r);
    case CFG_MBW_PBM:
        return ris_has_mbw_pbm(r);
    }
    return false;
}

/* Writable bits of a control register on RIS @r. */
static uint32_t cfg_mask(const MpamRisConfig *r, CfgReg reg)
{
    switch (reg) {
    case CFG_CMAX:
        return frac_mask(r->cmax_wd) |
               (r->has_cmax_softlim ? MPAMCFG_CMAX_SOFTLIM_MASK : 0);
    case CFG_CMIN:
        return frac_mask(r->cmax_wd);
    case CFG_CASSOC:
        return frac_mask(r->cassoc_wd);
    case CFG_MBW_MIN:
        return frac_mask(r->bwa_wd);
    case CFG_MBW_MAX:
        return frac_mask(r->bwa_wd) | MPAMCFG_MBW_MAX_HARDLIM_MASK;
    case CFG_MBW_WINWD:
        return MPAMCFG_MBW_WINWD_US_FRAC_MASK | MPAMCFG_MBW_WINWD_US_INT_MASK;
    case CFG_PRI:
        return (r->has_intpri ? low_mask(r->intpri_wd) : 0) |
               (r->has_dspri ? low_mask(r->dspri_wd) << 16 : 0);
    case CFG_MBW_PROP:
        return low_mask(r->bwa_wd) | MPAMCFG_MBW_PROP_EN_MASK;
    default:
        return 0xFFFFFFFFu;
    }
}

/*
 * Resolve MPAMCFG_PART_SEL for an access to control register @reg.
 * Returns the control index (intPARTID with narrowing, PARTID otherwise;
 * for MPAMCFG_INTPARTID the reqPARTID), or -1 after recording the error.
 */
static int cfg_select(MpamMsc *msc, CfgReg reg, unsigned *risp)
{
    unsigned ris = MPAM_FEX(msc->part_sel, MPAMCFG_PART_SEL, RIS);
    unsigned partid = MPAM_FEX(msc->part_sel, MPAMCFG_PART_SEL, PARTID_SEL);
    bool internal = MPAM_FEX(msc->part_sel, MPAMCFG_PART_SEL, INTERNAL);
    const MpamRisConfig *r;

    *risp = ris;
    if (ris >= msc->cfg.nr_ris) {
        record_error(msc, MPAM_ERRCODE_UNDEFINED_RIS_PART_SEL, partid, 0, ris);
        return -1;
    }
    r = &msc->cfg.ris[ris];
    if (!ris_has_cfg(r, reg)) {
        if (msc->cfg.nr_ris > 1) {
            record_error(msc, MPAM_ERRCODE_RIS_NO_CONTROL, partid, 0, ris);
        } else {
            guest_error(msc, "MPAM MSC: %s not implemented", cfg_reg_name[reg]);
        }
        return -1;
    }
    if (internal && (!r->has_partid_nrw || reg == CFG_INTPARTID)) {
        /* INTERNAL only selects intPARTIDs, and only where they exist. */
        record_error(msc, MPAM_ERRCODE_UNEXPECTED_INTERNAL, partid, 0, ris);
        return -1;
    }
    if (partid > (internal ? r->intpartid_max : r->partid_max)) {
        record_error(msc, MPAM_ERRCODE_PARTID_SEL_RANGE, partid, 0, ris);
        return -1;
    }
    if (r->has_partid_nrw && !internal && reg != CFG_INTPARTID) {
        /* A reqPARTID selects the controls of the intPARTID it maps to. */
        return msc->ris[ris].intpartid[partid];
    }
    return partid;
}

static uint32_t *cfg_slot(MpamRisState *rs, CfgReg reg, unsigned idx)
{
    switch (reg) {
    case CFG_CMAX: return &rs->cmax[idx];
    case CFG_CMIN: return &rs->cmin[idx];
    case CFG_CASSOC: return &rs->cassoc[idx];
    case CFG_MBW_MIN: return &rs->mbw_min[idx];
    case CFG_MBW_MAX: return &rs->mbw_max[idx];
    case CFG_MBW_WINWD: return &rs->mbw_winwd[idx];
    case CFG_PRI: return &rs->pri[idx];
    case CFG_MBW_PROP: return &rs->mbw_prop[idx];
    case CFG_INTPARTID: return &rs->intpartid[idx];
    default: return NULL;
    }
}

static uint32_t cfg_read(MpamMsc *msc, CfgReg reg, unsigned word)
{
    unsigned ris;
    int idx = cfg_select(msc, reg, &ris);
    MpamRisState *rs = &msc->ris[ris];

    if (idx < 0) {
        return 0;
    }
    if (reg == CFG_CPBM) {
        return word < rs->n_cpbm_words ?
               rs->cpbm[idx * rs->n_cpbm_words + word] : 0;
    }
    if (reg == CFG_MBW_PBM) {
        return word < rs->n_mbw_pbm_words ?
               rs->mbw_pbm[idx * rs->n_mbw_pbm_words + word] : 0;
    }
    if (reg == CFG_INTPARTID) {
        return rs->intpartid[idx] | MPAMCFG_INTPARTID_INTERNAL_MASK;
    }
    return *cfg_slot(rs, reg, idx);
}

static void cfg_write(MpamMsc *msc, CfgReg reg, unsigned word, uint32_t val)
{
    unsigned ris;
    int idx = cfg_select(msc, reg, &ris);
    const MpamRisConfig *r = &msc->cfg.ris[ris];
    MpamRisState *rs = &msc->ris[ris];
    uint32_t *slot;

    if (idx < 0) {
        return;
    }
    switch (reg) {
    case CFG_CPBM:
        if (word >= rs->n_cpbm_words) {
            guest_error(msc, "MPAM MSC: MPAMCFG_CPBM word %u beyond CPBM_WD",
                        word);
            return;
        }
        slot = &rs->cpbm[idx * rs->n_cpbm_words + word];
        val &= bitmap_word_mask(r->cpbm_wd, word);
        break;
    case CFG_MBW_PBM:
        if (word >= rs->n_mbw_pbm_words) {
            guest_error(msc,
                        "MPAM MSC: MPAMCFG_MBW_PBM word %u beyond BWPBM_WD",
                        word);
            return;
        }
        slot = &rs->mbw_pbm[idx * rs->n_mbw_pbm_words + word];
        val &= bitmap_word_mask(r->bwpbm_wd, word);
        break;
    case CFG_INTPARTID:
        if (!MPAM_FEX(val, MPAMCFG_INTPARTID, INTERNAL)) {
            record_error(msc, MPAM_ERRCODE_UNEXPECTED_INTERNAL, idx, 0, ris);
            return;
        }
        if (MPAM_FEX(val, MPAMCFG_INTPARTID, INTPARTID) > r->intpartid_max) {
            record_error(msc, MPAM_ERRCODE_INTPARTID_RANGE,
                         MPAM_FEX(val, MPAMCFG_INTPARTID, INTPARTID), 0, ris);
            return;
        }
        slot = &rs->intpartid[idx];
        val = MPAM_FEX(val, MPAMCFG_INTPARTID, INTPARTID);
        break;
    case CFG_MBW_WINWD:
        if (!r->windwr) {
            return;             /* read-only window: WI */
        }
        /* fall through */
    default:
        slot = cfg_slot(rs, reg, idx);
        val &= cfg_mask(r, reg);
        break;
    }
    *slot = val;
    if (msc->hooks.cfg_write) {
        msc->hooks.cfg_write(msc->opaque, ris, idx, cfg_reg_name[reg], val);
    }
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

/*
 * Resolve MSMON_CFG_MON_SEL for an access to a monitor of @type.
 * Returns the monitor or NULL after recording the error.
 */
static MpamMon *mon_select(MpamMsc *msc, MpamMonType type, unsigned *risp)
{
    unsigned ris = MPAM_FEX(msc->mon_sel, MSMON_CFG_MON_SEL, RIS);
    unsigned mon = MPAM_FEX(msc->mon_sel, MSMON_CFG_MON_SEL, MON_SEL);
    MpamRisState *rs;
    uint32_t num;

    *risp = ris;
    if (ris >= msc->cfg.nr_ris) {
        record_error(msc, MPAM_ERRCODE_UNDEFINED_RIS_MON_SEL, mon, 0, ris);
        return NULL;
    }
    rs = &msc->ris[ris];
    num = type == MPAM_MON_CSU ? rs->n_csu_mon : rs->n_mbwu_mon;
    if (!num) {
        if (msc->cfg.nr_ris > 1) {
            record_error(msc, MPAM_ERRCODE_RIS_NO_MONITOR, mon, 0, ris);
        } else {
            guest_error(msc, "MPAM MSC: no %s monitors",
                        type == MPAM_MON_CSU ? "CSU" : "MBWU");
        }
        return NULL;
    }
    if (mon >= num) {
        record_error(msc, MPAM_ERRCODE_MONITOR_RANGE, mon, 0, ris);
        return NULL;
    }
    return type == MPAM_MON_CSU ? &rs->csu_mon[mon] : &rs->mbwu_mon[mon];
}

static bool mon_nrdy(MpamMsc *msc, MpamMon *m)
{
    if (m->nrdy && m->nrdy_until && now_ns(msc) >= m->nrdy_until) {
        m->nrdy = 0;
        m->nrdy_until = 0;
    }
    return m->nrdy;
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

/* Current counter value of monitor @m (CSU: live occupancy when enabled). */
static uint64_t mon_value(MpamMsc *msc, unsigned ris, MpamMon *m,
                          MpamMonType type)
{
    if (type == MPAM_MON_CSU && MPAM_FEX(m->ctl, MSMON_CFG_CTL, EN)) {
        return MIN(csu_bytes(msc, ris, m), CSU_VALUE_MAX);
    }
    return m->value;
}

static uint32_t mon_read_ctl_flt(MpamMsc *msc, MpamMonType type, bool ctl)
{
    unsigned ris;
    MpamMon *m = mon_select(msc, type, &ris);

    if (!m) {
        return 0;
    }
    return ctl ? ctl_value(m, type) : m->flt;
}

static void mon_write_ctl_flt(MpamMsc *msc, MpamMonType type, bool ctl,
                              uint32_t val)
{
    unsigned ris;
    MpamMon *m = mon_select(msc, type, &ris);
    const MpamRisConfig *r;
    uint32_t old_cfg, new_cfg;

    if (!m) {
        return;
    }
    r = &msc->cfg.ris[ris];
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

/* MSMON_x_CAPTURE (which 0) and MSMON_MBWU_L_CAPTURE (which 1, 2). */
static bool capture_implemented(const MpamRisConfig *r, MpamMonType type,
                                int which)
{
    if (type == MPAM_MON_CSU) {
        return r->csu_has_capture && !which;
    }
    return r->mbwu_has_capture && (!which || mon_long(r));
}

/*
 * Counter registers.  @which: 0 = MSMON_CSU/MSMON_MBWU (31-bit view),
 * 1 = MSMON_MBWU_L low word, 2 = MSMON_MBWU_L high word.
 */
static uint32_t mon_read_value(MpamMsc *msc, MpamMonType type, int which,
                               bool capture)
{
    unsigned ris;
    MpamMon *m = mon_select(msc, type, &ris);
    const MpamRisConfig *r;
    uint64_t v;
    bool nrdy;

    if (!m) {
        return 0;
    }
    r = &msc->cfg.ris[ris];
    if (capture) {
        if (!capture_implemented(r, type, which)) {
            guest_error(msc, "MPAM MSC: capture register not implemented");
            return 0;
        }
        v = m->capture;
        nrdy = false;
    } else {
        if (which && !mon_long(r)) {
            guest_error(msc, "MPAM MSC: MSMON_MBWU_L not implemented");
            return 0;
        }
        v = mon_value(msc, ris, m, type);
        nrdy = mon_nrdy(msc, m);
    }
    switch (which) {
    case 0:
        return (v & MSMON_VALUE_MASK) | (nrdy ? MSMON_NRDY_MASK : 0);
    case 1:
        return v;
    default:
        v = (v & MSMON_L_LWD_VALUE_MASK) | (nrdy ? MSMON_L_NRDY_MASK : 0);
        return v >> 32;
    }
}

static void mon_write_value(MpamMsc *msc, MpamMonType type, int which,
                            bool capture, uint32_t val)
{
    unsigned ris;
    MpamMon *m = mon_select(msc, type, &ris);
    const MpamRisConfig *r;
    uint64_t vmask;

    if (!m) {
        return;
    }
    r = &msc->cfg.ris[ris];
    vmask = (1ULL << mbwu_width(r)) - 1;
    if (capture) {
        if (!capture_implemented(r, type, which)) {
            guest_error(msc, "MPAM MSC: capture register not implemented");
            return;
        }
        if (which == 0) {
            m->capture = val & MSMON_VALUE_MASK;
        } else if (which == 1) {
            m->capture = (m->capture & ~0xFFFFFFFFULL) | val;
        } else {
            m->capture = (m->capture & 0xFFFFFFFFULL) | ((uint64_t)val << 32);
            m->capture &= vmask;
        }
        return;
    }
    if (which && !mon_long(r)) {
        guest_error(msc, "MPAM MSC: MSMON_MBWU_L not implemented");
        return;
    }
    /* Software writes set the value and NRDY; a written 0 NRDY clears it. */
    switch (which) {
    case 0:
        m->value = val & MSMON_VALUE_MASK;
        m->nrdy = !!(val & MSMON_NRDY_MASK);
        break;
    case 1:
        m->value = (m->value & ~0xFFFFFFFFULL) | val;
        break;
    default:
        m->value = (m->value & 0xFFFFFFFFULL) | ((uint64_t)val << 32);
        m->nrdy = !!(val & (MSMON_L_NRDY_MASK >> 32));
        break;
    }
    m->value &= type == MPAM_MON_CSU ? MSMON_VALUE_MASK : vmask;
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
    }
}

/* ------------------------------------------------------------------ MMIO */

/*
 * The per-PARTID control register at MMIO offset off, if any, and which of
 * its 32-bit words: one lookup serves both reads and writes.
 */
static bool cfg_reg_at(uint64_t off, CfgReg *reg, unsigned *word)
{
    static const uint32_t single_word[] = {
        [CFG_CMAX] = MPAMCFG_CMAX, [CFG_CMIN] = MPAMCFG_CMIN,
        [CFG_CASSOC] = MPAMCFG_CASSOC, [CFG_MBW_MIN] = MPAMCFG_MBW_MIN,
        [CFG_MBW_MAX] = MPAMCFG_MBW_MAX, [CFG_MBW_WINWD] = MPAMCFG_MBW_WINWD,
        [CFG_PRI] = MPAMCFG_PRI, [CFG_MBW_PROP] = MPAMCFG_MBW_PROP,
        [CFG_INTPARTID] = MPAMCFG_INTPARTID,
    };

    if (off >= MPAMCFG_CPBM && off < MPAMCFG_CPBM + 0x1000) {
        *reg = CFG_CPBM;
        *word = (off - MPAMCFG_CPBM) / 4;
        return true;
    }
    if (off >= MPAMCFG_MBW_PBM && off < MPAMCFG_MBW_PBM + 0x200) {
        *reg = CFG_MBW_PBM;
        *word = (off - MPAMCFG_MBW_PBM) / 4;
        return true;
    }
    for (unsigned r = 0; r < sizeof(single_word) / sizeof(single_word[0]);
         r++) {
        if (single_word[r] == off) {
            *reg = r;
            *word = 0;
            return true;
        }
    }
    return false;
}

/*
 * The monitor value register at MMIO offset off, if any: its monitor type,
 * which word (0 the 31-bit register, 1/2 the low/high half of the long
 * one) and whether it is the capture copy.  One lookup serves reads and
 * writes.
 */
static bool mon_value_at(uint64_t off, MpamMonType *type, int *which,
                         bool *capture)
{
    static const struct {
        uint32_t off;
        MpamMonType type;
        int which;
        bool capture;
    } value_regs[] = {
        { MSMON_CSU, MPAM_MON_CSU, 0, false },
        { MSMON_CSU_CAPTURE, MPAM_MON_CSU, 0, true },
        { MSMON_MBWU, MPAM_MON_MBWU, 0, false },
        { MSMON_MBWU_CAPTURE, MPAM_MON_MBWU, 0, true },
        { MSMON_MBWU_L, MPAM_MON_MBWU, 1, false },
        { MSMON_MBWU_L + 4, MPAM_MON_MBWU, 2, false },
        { MSMON_MBWU_L_CAPTURE, MPAM_MON_MBWU, 1, true },
        { MSMON_MBWU_L_CAPTURE + 4, MPAM_MON_MBWU, 2, true },
    };

    for (unsigned i = 0; i < sizeof(value_regs) / sizeof(value_regs[0]);
         i++) {
        if (value_regs[i].off == off) {
            *type = value_regs[i].type;
            *which = value_regs[i].which;
            *capture = value_regs[i].capture;
            return true;
        }
    }
    return false;
}

static uint32_t reg_read32(MpamMsc *msc, uint64_t off)
{
    unsigned ris = MPAM_FEX(msc->part_sel, MPAMCFG_PART_SEL, RIS);

    CfgReg reg;
    unsigned word;
    MpamMonType mon;
    int which;
    bool capture;

    if (cfg_reg_at(off, &reg, &word)) {
        return cfg_read(msc, reg, word);
    }
    if (mon_value_at(off, &mon, &which, &capture)) {
        return mon_read_value(msc, mon, which, capture);
    }
    switch (off) {
    case MPAMF_IDR:
    case MPAMF_IDR + 4:
    case MPAMF_CPOR_IDR:
    case MPAMF_CCAP_IDR:
    case MPAMF_MBW_IDR:
    case MPAMF_PRI_IDR:
    case MPAMF_PARTID_NRW_IDR:
    case MPAMF_MSMON_IDR:
    case MPAMF_CSUMON_IDR:
    case MPAMF_MBWUMON_IDR:
        if (ris >= msc->cfg.nr_ris) {
            record_error(msc, MPAM_ERRCODE_UNDEFINED_RIS_PART_SEL,
                         MPAM_FEX(msc->part_sel, MPAMCFG_PART_SEL, PARTID_SEL),
                         0, ris);
            return 0;
        }
        return id_reg(msc, ris, off);
    case MPAMF_SIDR:
        return MPAM_FDP(MPAM_FDP(0, MPAMF_SIDR, S_PARTID_MAX,
                                 msc->cfg.s_partid_max),
                        MPAMF_SIDR, S_PMG_MAX, msc->cfg.s_pmg_max);
    case MPAMF_IIDR:
        return msc->cfg.iidr;
    case MPAMF_AIDR:
        return msc->cfg.aidr;
    case MPAMF_IMPL_IDR:
        return msc->cfg.impl_idr;
    case MPAMF_ECR:
        return msc->cfg.has_esr ? msc->ecr : 0;
    case MPAMF_ESR:
        return msc->cfg.has_esr ? (uint32_t)msc->esr : 0;
    case MPAMF_ESR + 4:
        return msc->cfg.has_esr ? msc->esr >> 32 : 0;
    case MPAMCFG_PART_SEL:
        return msc->part_sel;
    case MSMON_CFG_MON_SEL:
        return msc->mon_sel;
    case MSMON_CAPT_EVNT:
        return 0;
    case MSMON_CFG_CSU_FLT:
        return mon_read_ctl_flt(msc, MPAM_MON_CSU, false);
    case MSMON_CFG_CSU_CTL:
        return mon_read_ctl_flt(msc, MPAM_MON_CSU, true);
    case MSMON_CFG_MBWU_FLT:
        return mon_read_ctl_flt(msc, MPAM_MON_MBWU, false);
    case MSMON_CFG_MBWU_CTL:
        return mon_read_ctl_flt(msc, MPAM_MON_MBWU, true);
    }
    guest_error(msc, "MPAM MSC: read of reserved offset 0x%" PRIx64, off);
    return 0;
}

static void reg_write32(MpamMsc *msc, uint64_t off, uint32_t val)
{
    uint32_t part_sel_mask = MPAMCFG_PART_SEL_PARTID_SEL_MASK |
                             MPAMCFG_PART_SEL_INTERNAL_MASK;
    uint32_t mon_sel_mask = MSMON_CFG_MON_SEL_MON_SEL_MASK;
    CfgReg reg;
    unsigned word;
    MpamMonType mon;
    int which;
    bool capture;

    if (msc->cfg.nr_ris > 1) {
        /* RIS fields are RES0 unless MPAMF_IDR.HAS_RIS. */
        part_sel_mask |= MPAMCFG_PART_SEL_RIS_MASK;
        mon_sel_mask |= MSMON_CFG_MON_SEL_RIS_MASK;
    }
    if (cfg_reg_at(off, &reg, &word)) {
        cfg_write(msc, reg, word, val);
        return;
    }
    if (mon_value_at(off, &mon, &which, &capture)) {
        mon_write_value(msc, mon, which, capture, val);
        return;
    }
    switch (off) {
    case MPAMF_IDR:
    case MPAMF_IDR + 4:
    case MPAMF_SIDR:
    case MPAMF_IIDR:
    case MPAMF_AIDR:
    case MPAMF_IMPL_IDR:
    case MPAMF_CPOR_IDR:
    case MPAMF_CCAP_IDR:
    case MPAMF_MBW_IDR:
    case MPAMF_PRI_IDR:
    case MPAMF_PARTID_NRW_IDR:
    case MPAMF_MSMON_IDR:
    case MPAMF_CSUMON_IDR:
    case MPAMF_MBWUMON_IDR:
        guest_error(msc, "MPAM MSC: write to read-only ID register 0x%" PRIx64,
                    off);
        return;
    case MPAMF_ECR:
        if (msc->cfg.has_esr) {
            msc->ecr = val & MPAMF_ECR_INTEN_MASK;
            update_irqs(msc);
        }
        return;
    case MPAMF_ESR:
        if (msc->cfg.has_esr) {
            uint32_t m = MPAMF_ESR_PARTID_MON_MASK | MPAMF_ESR_PMG_MASK |
                         MPAMF_ESR_ERRCODE_MASK | MPAMF_ESR_OVRWR_MASK;
            /*
             * Software normally writes 0 to clear.  A reserved ERRCODE
             * (12..15) is never reported, so writing one reads back as 0.
             */
            if (MPAM_FEX(val, MPAMF_ESR, ERRCODE) >
                MPAM_ERRCODE_RIS_NO_MONITOR) {
                val = MPAM_FDP(val, MPAMF_ESR, ERRCODE, 0);
            }
            msc->esr = (msc->esr & ~0xFFFFFFFFULL) | (val & m);
            update_irqs(msc);
        }
        return;
    case MPAMF_ESR + 4:
        if (msc->cfg.has_extd_esr) {
            msc->esr = (uint32_t)msc->esr |
                       (((uint64_t)val << 32) & MPAMF_ESR_RIS_MASK);
        }
        return;
    case MPAMCFG_PART_SEL:
        msc->part_sel = val & part_sel_mask;
        return;
    case MSMON_CFG_MON_SEL:
        msc->mon_sel = val & mon_sel_mask;
        return;
    case MSMON_CAPT_EVNT:
        if (MPAM_FEX(val, MSMON_CAPT_EVNT, NOW)) {
            capture_now(msc);
        }
        return;
    case MSMON_CFG_CSU_FLT:
        mon_write_ctl_flt(msc, MPAM_MON_CSU, false, val);
        return;
    case MSMON_CFG_CSU_CTL:
        mon_write_ctl_flt(msc, MPAM_MON_CSU, true, val);
        return;
    case MSMON_CFG_MBWU_FLT:
        mon_write_ctl_flt(msc, MPAM_MON_MBWU, false, val);
        return;
    case MSMON_CFG_MBWU_CTL:
        mon_write_ctl_flt(msc, MPAM_MON_MBWU, true, val);
        return;
    }
    guest_error(msc, "MPAM MSC: write to reserved offset 0x%" PRIx64, off);
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

/* Bytes for one MBWU monitor; returns true if an overflow flag was set. */
static bool mbwu_count(const MpamRisConfig *r, MpamMon *m, uint16_t partid,
                       uint8_t pmg, bool is_write, uint64_t bytes)
{
    unsigned width = mbwu_width(r);
    uint64_t limit = 1ULL << width;
    uint32_t oflow_bit = mon_long(r) ? MSMON_CFG_CTL_OFLOW_STATUS_L_MASK
                                     : MSMON_CFG_CTL_OFLOW_STATUS_MASK;
    uint32_t rwbw = MPAM_FEX(m->flt, MSMON_CFG_FLT, RWBW);

    if (!MPAM_FEX(m->ctl, MSMON_CFG_CTL, EN)) {
        return false;
    }
    if (MPAM_FEX(m->ctl, MSMON_CFG_CTL, MATCH_PARTID) &&
        MPAM_FEX(m->flt, MSMON_CFG_FLT, PARTID) != partid) {
        return false;
    }
    if (MPAM_FEX(m->ctl, MSMON_CFG_CTL, MATCH_PMG) &&
        MPAM_FEX(m->flt, MSMON_CFG_FLT, PMG) != pmg) {
        return false;
    }
    /* RWBW: 0 reads and writes, 1 writes only, 2 reads only. */
    if ((rwbw == 1 && !is_write) || (rwbw == 2 && is_write)) {
        return false;
    }
    if (MPAM_FEX(m->ctl, MSMON_CFG_CTL, OFLOW_FRZ) && (m->ctl & oflow_bit)) {
        return false;
    }
    m->value += bytes;
    if (m->value >= limit) {
        m->value &= limit - 1;
        m->ctl |= oflow_bit;
        return true;
    }
    return false;
}

static void access_ris(MpamMsc *msc, unsigned ris, const MemReq *req,
                       MemResult *res)
{
    const MpamRisConfig *r = &msc->cfg.ris[ris];
    MpamRisState *rs = &msc->ris[ris];
    MemReq in = *req;
    uint32_t partid = req->label.partid;
    uint32_t pmg = req->label.pmg;
    bool oflow = false;

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
        partid = rs->intpartid[partid];
    }
    in.label = (MemLabel){ partid, pmg };

    if (rs->cache) {
        PCacheLimits lim = {
            .portion_mask = ris_has_cpor(r) ?
                            &rs->cpbm[partid * rs->n_cpbm_words] : NULL,
            .max_lines = UINT64_MAX,
            .max_ways = UINT32_MAX,
        };

        if (ris_has_cmax(r)) {
            /* CMAX is a fraction; unimplemented low bits count as ones. */
            uint64_t frac = MPAM_FEX(rs->cmax[partid], MPAMCFG_CMAX, CMAX) +
                            (1u << (16 - r->cmax_wd));
            lim.max_lines = rs->cache->n_lines * frac >> 16;
        }
        if (ris_has_cassoc(r)) {
            uint64_t frac = MPAM_FEX(rs->cassoc[partid], MPAMCFG_CASSOC,
                                     CASSOC) +
                            (1u << (16 - r->cassoc_wd));
            lim.max_ways = MAX(1, (rs->cache->ways * frac) >> 16);
        }
        pcache_access(rs->cache, &in, &lim, res);
    }
    for (uint32_t m = 0; m < rs->n_mbwu_mon; m++) {
        oflow |= mbwu_count(r, &rs->mbwu_mon[m], partid, pmg,
                            memreq_is_write(req), req->size);
    }
    if (oflow) {
        update_irqs(msc);
    }
}

MemResult mpam_msc_access(MpamMsc *msc, const MemReq *req)
{
    uint64_t ris_set = msc->route ? mem_map_lookup(msc->route, req->addr)
                                  : UINT64_MAX;
    MemResult res = { 0 };

    for (unsigned i = 0; i < msc->cfg.nr_ris; i++) {
        if (ris_set & (1ull << i)) {
            res.seen |= 1u << i;
            access_ris(msc, i, req, &res);
        }
    }
    return res;
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
    return r->has_partid_nrw ? (int)msc->ris[ris].intpartid[partid]
                             : (int)partid;
}

static uint32_t effective_pri(MpamMsc *msc, unsigned ris, int idx)
{
    MpamRisState *rs = &msc->ris[ris];

    return rs->pri_policy_set[idx] ? rs->pri_policy[idx] : rs->pri[idx];
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
    out->n_cpbm_words = rs->n_cpbm_words;
    out->cpbm = rs->n_cpbm_words ? &rs->cpbm[idx * rs->n_cpbm_words] : NULL;
    out->n_mbw_pbm_words = rs->n_mbw_pbm_words;
    out->mbw_pbm = rs->n_mbw_pbm_words ?
                   &rs->mbw_pbm[idx * rs->n_mbw_pbm_words] : NULL;
    out->cmax = rs->cmax[idx];
    out->cmin = rs->cmin[idx];
    out->cassoc = rs->cassoc[idx];
    out->mbw_min = rs->mbw_min[idx];
    out->mbw_max = rs->mbw_max[idx];
    out->mbw_winwd = rs->mbw_winwd[idx];
    out->mbw_prop = rs->mbw_prop[idx];
    out->pri = rs->pri[idx];
    out->pri_policy_set = rs->pri_policy_set[idx];
    out->pri_policy = rs->pri_policy[idx];
    pri = effective_pri(msc, ris, idx);
    out->effective_intpri = MPAM_FEX(pri, MPAMCFG_PRI, INTPRI);
    out->effective_dspri = MPAM_FEX(pri, MPAMCFG_PRI, DSPRI);
    if (rs->cache) {
        out->csu_bytes = pcache_lines_partid(rs->cache, idx) *
                         rs->cache->line_size;
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
    uint32_t v = 0;

    if (idx < 0) {
        return false;
    }
    r = &msc->cfg.ris[ris];
    v = MPAM_FDP(v, MPAMCFG_PRI, INTPRI, intpri);
    v = MPAM_FDP(v, MPAMCFG_PRI, DSPRI, dspri);
    msc->ris[ris].pri_policy[idx] = v & cfg_mask(r, CFG_PRI);
    msc->ris[ris].pri_policy_set[idx] = 1;
    return true;
}

bool mpam_msc_clear_pri_policy(MpamMsc *msc, unsigned ris, unsigned partid)
{
    int idx = control_index(msc, ris, partid);

    if (idx < 0) {
        return false;
    }
    msc->ris[ris].pri_policy_set[idx] = 0;
    msc->ris[ris].pri_policy[idx] = 0;
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
