/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Randomized robustness test for the MPAM MSC model: over a million random
 * MMIO reads/writes (random offsets including reserved ones, all sizes,
 * random values and selectors) mixed with random traffic, on an MSC with
 * several RIS.  ASan/UBSan catch memory errors; the test checks invariants
 * that no guest access may break.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "msc-test-util.h"

#define N_OPS 1300000

static const unsigned sizes[] = { 1, 2, 3, 4, 8, 16 };

static uint32_t rand_value(GRand *r)
{
    switch (g_rand_int_range(r, 0, 6)) {
    case 0:
        return 0;
    case 1:
        return 0xFFFFFFFF;
    case 2:
        return 0x80030043 - g_rand_int_range(r, 0, 2);      /* driver CTLs */
    case 3:
        return g_rand_int_range(r, 0, 0x20);
    default:
        return g_rand_int(r);
    }
}

static uint32_t rand_selector(GRand *r)
{
    uint32_t ris = g_rand_int_range(r, 0, 10) ? g_rand_int_range(r, 0, 4)
                                              : g_rand_int_range(r, 0, 16);
    uint32_t id = g_rand_int_range(r, 0, 8) ? g_rand_int_range(r, 0, 70)
                                            : g_rand_int_range(r, 0, 0x10000);
    uint32_t internal = g_rand_int_range(r, 0, 4) == 0;

    if (g_rand_int_range(r, 0, 20) == 0) {
        return g_rand_int(r);
    }
    return ris << 24 | internal << 16 | id;
}

/*
 * A word of a register from the model's register table: one of the first
 * words, or the last word of its window (bitmaps: far beyond the width).
 */
static uint64_t known_offset(GRand *r)
{
    const MpamRegInfo *reg =
        &mpam_msc_regs[g_rand_int_range(r, 0, mpam_msc_n_regs)];
    unsigned n = reg->size / 4;

    if (g_rand_int_range(r, 0, 4) == 0) {
        return reg->offset + 4 * (n - 1);
    }
    return reg->offset + 4 * g_rand_int_range(r, 0, MIN(n, 3));
}

static uint64_t rand_offset(GRand *r)
{
    switch (g_rand_int_range(r, 0, 8)) {
    case 0:
        return g_rand_int_range(r, 0, 0x5000);              /* anything */
    case 1:
        return g_rand_int_range(r, 0, 0x4000 / 4) * 4;      /* aligned */
    case 2:
        return (uint64_t)g_rand_int(r) << 20 | g_rand_int(r);   /* far away */
    default:
        return known_offset(r);
    }
}

/* Four RIS: cache (CPBM_WD 40, LWD MBWU), memory, narrowed memory, cache. */
static void fuzz_config(MpamMscConfig *cfg)
{
    test_config(cfg);
    cfg->nr_ris = 4;
    cfg->ris[0].cpbm_wd = 40;
    cfg->ris[0].mbwu_lwd = true;
    mpam_ris_config_default(&cfg->ris[3], MPAM_RIS_CACHE);
    cfg->ris[3].cache_size = 16 * 1024;
    cfg->ris[3].cache_ways = 2;
    cfg->ris[3].cpbm_wd = 5;
    cfg->ris[3].partid_max = 31;
    cfg->ris[3].mbwu_num_mon = 0;
    /* both memory RIS regulate whatever the fuzzer programs (DDR5-4800 x8) */
    cfg->ris[1].mbw_bytes_per_s = 153600000000ull;
    cfg->ris[2].mbw_bytes_per_s = 153600000000ull;
}

static unsigned bad;

#define CHECK(cond, ...) \
    do { if (!(cond)) { if (bad++ < 10) { fprintf(stderr, __VA_ARGS__); \
         fputc('\n', stderr); } } } while (0)

static void check_invariants(MpamMsc *msc, TestCtx *t, const uint64_t *idr,
                             uint64_t op)
{
    unsigned errcode = MPAM_FEX(msc->esr, MPAMF_ESR, ERRCODE);
    bool level = (msc->ecr & 1) && errcode;

    CHECK(errcode <= 11, "op %" PRIu64 ": ERRCODE %u", op, errcode);
    CHECK(t->irq[MPAM_MSC_IRQ_ERROR] == level,
          "op %" PRIu64 ": error IRQ %d, expected %d", op,
          t->irq[MPAM_MSC_IRQ_ERROR], level);
    CHECK(msc->ecr <= 1, "op %" PRIu64 ": ECR 0x%x", op, msc->ecr);
    for (unsigned i = 0; i < msc->cfg.nr_ris; i++) {
        CHECK(mpam_msc_idr(msc, i) == idr[i], "op %" PRIu64 ": IDR %u", op, i);
    }
}

static void check_state(MpamMsc *msc, uint64_t op)
{
    for (unsigned i = 0; i < msc->cfg.nr_ris; i++) {
        const MpamRisConfig *r = &msc->cfg.ris[i];
        MpamRisState *rs = &msc->ris[i];
        unsigned width = r->mbwu_has_long ? (r->mbwu_lwd ? 63 : 44) : 31;

        for (uint32_t m = 0; m < rs->n_mbwu_mon; m++) {
            CHECK(rs->mbwu_mon[m].value >> width == 0,
                  "op %" PRIu64 ": MBWU %u/%u value %" PRIx64 " over %u bits",
                  op, i, m, rs->mbwu_mon[m].value, width);
            CHECK((rs->mbwu_mon[m].ctl & 0xFF) == 0, "op %" PRIu64 ": TYPE stored", op);
        }
        for (uint32_t p = 0; p < rs->n_partid && rs->n_cpbm_words; p++) {
            uint32_t last =
                mpam_msc_partid(rs, p)->bitmap[rs->n_cpbm_words - 1];
            unsigned bits = r->cpbm_wd % 32;
            CHECK(!bits || last >> bits == 0,
                  "op %" PRIu64 ": CPBM beyond CPBM_WD on RIS %u", op, i);
        }
        for (uint32_t p = 0; p < rs->n_reqpartid; p++) {
            CHECK(MPAM_FEX(rs->intpartid[p], MPAMCFG_INTPARTID, INTPARTID) <=
                  r->intpartid_max,
                  "op %" PRIu64 ": INTPARTID map out of range", op);
        }
        if (rs->cache) {
            uint64_t valid = 0;
            for (uint32_t l = 0; l < rs->cache->n_lines; l++) {
                SetAssocLine line;

                pcache_line(rs->cache, l, &line);
                valid += line.valid;
            }
            CHECK(valid == pcache_lines_total(rs->cache),
                  "op %" PRIu64 ": cache occupancy drift on RIS %u", op, i);
        }
    }
}

static void test_fuzz(void)
{
    MpamMscConfig cfg;
    TestCtx t;
    MpamMsc *msc;
    GRand *r = g_rand_new_with_seed(0x4D50414D);
    uint64_t idr[MPAM_MSC_MAX_RIS];
    uint32_t aidr, iidr;
    uint64_t reads = 0, writes = 0, accesses = 0;

    fuzz_config(&cfg);
    msc = test_msc(&t, &cfg);
    for (unsigned i = 0; i < cfg.nr_ris; i++) {
        idr[i] = mpam_msc_idr(msc, i);
    }
    aidr = rd(msc, MPAMF_AIDR);
    iidr = rd(msc, MPAMF_IIDR);

    for (uint64_t op = 0; op < N_OPS; op++) {
        int kind = g_rand_int_range(r, 0, 100);

        t.now += g_rand_int_range(r, 0, 300);
        if (kind < 10) {
            wr(msc, g_rand_boolean(r) ? MPAMCFG_PART_SEL : MSMON_CFG_MON_SEL,
               rand_selector(r));
            writes++;
        } else if (kind < 45) {
            uint64_t off = rand_offset(r);
            unsigned size = g_rand_int_range(r, 0, 8) ?
                            4 : sizes[g_rand_int_range(r, 0, G_N_ELEMENTS(sizes))];
            uint64_t v = (uint64_t)rand_value(r) << 32 | rand_value(r);
            mpam_msc_write(msc, off, size == 8 ? v : (uint32_t)v, size);
            writes++;
        } else if (kind < 85) {
            uint64_t off = rand_offset(r);
            unsigned size = g_rand_int_range(r, 0, 8) ?
                            4 : sizes[g_rand_int_range(r, 0, G_N_ELEMENTS(sizes))];
            uint64_t v = mpam_msc_read(msc, off, size);
            reads++;
            if (size == 4 && off == MPAMF_AIDR) {
                CHECK(v == aidr, "AIDR changed");
            }
            if (size == 4 && off == MPAMF_IIDR) {
                CHECK(v == iidr, "IIDR changed");
            }
            if (size == 4 && off == MPAMF_ESR) {
                CHECK(((v >> 24) & 0xF) <= 11, "ESR.ERRCODE %u",
                      (unsigned)((v >> 24) & 0xF));
            }
            if (size == 8 && off == MPAMF_IDR) {
                unsigned ris = MPAM_FEX(msc->part_sel, MPAMCFG_PART_SEL, RIS);
                CHECK(v == (ris < cfg.nr_ris ? idr[ris] : 0), "IDR read");
            }
        } else {
            MemReq a = {
                .label.partid = g_rand_int_range(r, 0, 10) ?
                                g_rand_int_range(r, 0, 64) :
                                g_rand_int_range(r, 0, 0x20000),
                .label.pmg = g_rand_int_range(r, 0, 10) ?
                             g_rand_int_range(r, 0, 4) :
                             g_rand_int_range(r, 0, 1024),
                .addr = (uint64_t)g_rand_int(r) << g_rand_int_range(r, 0, 33),
                .size = g_rand_int_range(r, 0, 20) ? 64 : g_rand_int_range(r, 0, 4097),
                .kind = g_rand_int_range(r, MEMREQ_READ, MEMREQ_FETCH + 1),
            };
            if (g_rand_int_range(r, 0, 1000) == 0) {
                /* A new route: a few ranges, each to some of the RIS. */
                MemMap *route = mem_map_new();
                for (int i = g_rand_int_range(r, 0, 4); i > 0; i--) {
                    mem_map_add(route, (uint64_t)g_rand_int(r) << 16,
                                (uint64_t)g_rand_int_range(r, 1, 1 << 30) << 16,
                                g_rand_int_range(r, 0, 1 << 6), NULL);
                }
                mpam_msc_set_route(msc, g_rand_boolean(r) ? route : NULL);
                if (msc->route != route) {
                    mem_map_free(route);
                }
            }
            MbwVerdict v;

            /* modeled time with some requests up to 1 us out of order */
            a.t_ps = t.now * 1000 + g_rand_int_range(r, 0, 1000000);
            mpam_msc_access_regulated(msc, &a, &v);
            /*
             * Whatever is programmed, a verdict comes (no hang) and is a
             * time: delays grow only with what a PARTID sent beyond its
             * share, far from wrapping in 1.3 M requests.
             */
            CHECK(v.delay_ps < (1ull << 62) && v.pref <= MBW_PREF_HIGH,
                  "op %" PRIu64 ": verdict %" PRIu64 " ps, pref %d", op,
                  v.delay_ps, v.pref);
            accesses++;
        }
        check_invariants(msc, &t, idr, op);
        if (op % 50000 == 0) {
            check_state(msc, op);
        }
        if (op % 400000 == 399999) {
            mpam_msc_reset(msc);
        }
        if (bad > 10) {
            break;
        }
    }
    check_state(msc, N_OPS);
    /* Migration-style recompute keeps the same occupancy. */
    {
        uint64_t before = pcache_lines_partid(msc->ris[3].cache, 0);
        CU_ASSERT_PTR_NULL(mpam_msc_post_load(msc));
        CU_ASSERT_EQUAL(pcache_lines_partid(msc->ris[3].cache, 0), before);
    }
    printf("\n  %" PRIu64 " reads, %" PRIu64 " writes, %" PRIu64 " accesses, "
           "%u guest errors, %u ESR errors\n", reads, writes, accesses,
           t.guest_errors, t.errors);
    CU_ASSERT(reads + writes >= 1000000);
    CU_ASSERT(t.errors > 1000);         /* the fuzzer does reach the errors */
    CU_ASSERT_EQUAL(bad, 0);
    g_rand_free(r);
    mpam_msc_free(msc);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "random_mmio", test_fuzz },
    };

    return CUNIT_RUN("msc-fuzz", tests);
}
