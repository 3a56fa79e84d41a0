/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared fixtures for the MPAM MSC unit tests. */
#ifndef MEMQOS_MSC_TEST_UTIL_H
#define MEMQOS_MSC_TEST_UTIL_H

#include "cunit-run.h"

#include "../msc.h"
#include "../msc-regs.h"

typedef struct TestCtx {
    uint64_t now;               /* fake clock, ns */
    unsigned guest_errors;
    unsigned errors;            /* ESR records reported through hooks.error */
    unsigned last_errcode;
    bool irq[2];
    unsigned irq_changes[2];
    unsigned cfg_writes;
} TestCtx;

static inline void t_set_irq(void *o, int irq, bool level)
{
    TestCtx *t = o;

    t->irq[irq] = level;
    t->irq_changes[irq]++;
}

static inline uint64_t t_now(void *o)
{
    return ((TestCtx *)o)->now;
}

static inline void t_guest_error(void *o, const char *msg)
{
    ((TestCtx *)o)->guest_errors++;
}

static inline void t_cfg_write(void *o, unsigned ris, unsigned partid,
                               const char *reg, uint64_t value)
{
    ((TestCtx *)o)->cfg_writes++;
}

static inline void t_error(void *o, unsigned errcode, uint64_t esr)
{
    TestCtx *t = o;

    t->errors++;
    t->last_errcode = errcode;
}

/* test_access() to every RIS. */
#define TEST_ALL_RIS (-1)

/*
 * Request @size bytes at @addr for (partid, pmg) to RIS @ris only, by
 * routing the whole address space to it (TEST_ALL_RIS: no route, every
 * RIS sees it).
 */
static inline MemResult test_access(MpamMsc *m, int ris, uint32_t partid,
                                    uint32_t pmg, uint64_t addr,
                                    uint32_t size, bool is_write)
{
    MemReq req = { .addr = addr, .size = size, .label = { partid, pmg },
                   .kind = is_write ? MEMREQ_WRITE : MEMREQ_READ };
    MemMap *route = NULL;

    if (ris != TEST_ALL_RIS) {
        route = mem_map_new();
        mem_map_add(route, 0, 1ull << 63, 1ull << ris, NULL);
        mem_map_add(route, 1ull << 63, 1ull << 63, 1ull << ris, NULL);
    }
    mpam_msc_set_route(m, route);
    return mpam_msc_access(m, &req);
}

static const MpamMscHooks test_hooks = {
    .set_irq = t_set_irq,
    .now_ns = t_now,
    .guest_error = t_guest_error,
    .cfg_write = t_cfg_write,
    .error = t_error,
};

#define TEST_NRDY_NS 1000

/*
 * Three RIS:
 *  0: cache, 64 KiB 8-way, PARTID_MAX 63, PMG_MAX 3, CPBM_WD 16, CCAP,
 *     8 CSU monitors, 4 MBWU monitors (44-bit, RWBW, capture)
 *  1: memory, MBW MIN/MAX/PBM/PROP, PRI, 4 MBWU monitors (63-bit)
 *  2: memory, PARTID_MAX 15 narrowed to 8 intPARTIDs, PMG_MAX 1, MBW_MAX,
 *     2 MBWU monitors (31-bit)
 */
static inline void test_config(MpamMscConfig *cfg)
{
    MpamRisConfig *r;

    mpam_msc_config_default(cfg);
    cfg->nr_ris = 3;
    cfg->nrdy_ns = TEST_NRDY_NS;
    r = &cfg->ris[0];
    mpam_ris_config_default(r, MPAM_RIS_CACHE);
    r->cache_size = 64 * 1024;
    r->cache_ways = 8;
    r->csu_has_xcl = true;
    r = &cfg->ris[1];
    mpam_ris_config_default(r, MPAM_RIS_MEMORY);
    r->mbwu_lwd = true;
    r->intpri_0_is_low = true;
    r = &cfg->ris[2];
    mpam_ris_config_default(r, MPAM_RIS_MEMORY);
    r->partid_max = 15;
    r->pmg_max = 1;
    r->has_partid_nrw = true;
    r->intpartid_max = 7;
    r->mbw_has_min = r->mbw_has_prop = r->mbw_has_pbm = false;
    r->has_intpri = r->has_dspri = false;
    r->mbwu_num_mon = 2;
    r->mbwu_has_long = false;
    r->mbwu_has_rwbw = false;
    r->mbwu_has_capture = false;
}

static inline MpamMsc *test_msc(TestCtx *t, const MpamMscConfig *cfg)
{
    GError *err = NULL;
    MpamMsc *msc;

    memset(t, 0, sizeof(*t));
    msc = mpam_msc_new(cfg, &test_hooks, t, &err);
    if (err) {
        fprintf(stderr, "mpam_msc_new: %s\n", err->message);
        g_error_free(err);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(msc);
    return msc;
}

static inline uint32_t rd(MpamMsc *m, uint64_t off)
{
    return mpam_msc_read(m, off, 4);
}

static inline void wr(MpamMsc *m, uint64_t off, uint32_t v)
{
    mpam_msc_write(m, off, v, 4);
}

static inline uint32_t part_sel(unsigned ris, unsigned partid, bool internal)
{
    return ris << 24 | (internal ? 1u << 16 : 0) | partid;
}

static inline uint32_t mon_sel(unsigned ris, unsigned mon)
{
    return ris << 24 | mon;
}

static inline unsigned esr_errcode(MpamMsc *m)
{
    return (rd(m, MPAMF_ESR) >> 24) & 0xF;
}

#endif
