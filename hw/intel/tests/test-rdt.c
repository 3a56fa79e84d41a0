/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for Intel RDT (hw/intel/rdt-*.h, docs/rdt-model.md): CPUID
 * from the descriptions decoded as Linux 7.3 decodes it, the MSR file's
 * "ok" and "#GP", and the effect on the shared models: the partitioned
 * cache (hw/memsys/pcache), the hierarchy (hw/memsys) and the bandwidth
 * regulator (hw/memsys/mbw).  Expected values come from the
 * descriptions (the parts' numbers) and the SDM, never from a run.
 */
#include "cunit-run.h"
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "../../q35/rdt-memsys.h"
#include "../../ddr-qos/ddr-config.h"
#include "../../memsys/tests/workload.h"

#define LINE 64
#define KiB 1024ull
#define MiB (1024ull * 1024)
#define GiB (1024ull * MiB)

static const RdtDesc *const spr = &rdt_desc_sapphirerapids;
static const RdtDesc *const gmt = &rdt_desc_goldmont;

static Rdt *new_rdt(const RdtDesc *d, unsigned n_cpus)
{
    g_autoptr(GError) err = NULL;
    Rdt *r = rdt_new(d, n_cpus, &err);

    if (!r) {
        printf("\n    rdt_new: %s\n", err->message);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(r);
    return r;
}

static MsrResult wr(Rdt *r, unsigned cpu, uint32_t msr, uint64_t v)
{
    return rdt_msr_write(r, cpu, msr, v);
}

static uint64_t rd(Rdt *r, unsigned cpu, uint32_t msr)
{
    uint64_t v = 0xdeadbeef;

    CU_ASSERT_EQUAL(rdt_msr_read(r, cpu, msr, &v), MSR_OK);
    return v;
}

/* A write that must #GP and leave the register as it was. */
static void gp(Rdt *r, unsigned cpu, uint32_t msr, uint64_t v)
{
    uint64_t before = 0, after = 0;
    bool readable = rdt_msr_read(r, cpu, msr, &before) == MSR_OK;

    CU_ASSERT_EQUAL(wr(r, cpu, msr, v), MSR_GP);
    if (readable) {
        rdt_msr_read(r, cpu, msr, &after);
        CU_ASSERT_EQUAL(after, before);
    }
}

static void pqr(Rdt *r, unsigned cpu, uint32_t closid, uint32_t rmid)
{
    CU_ASSERT_EQUAL(wr(r, cpu, MSR_IA32_PQR_ASSOC,
                       (uint64_t)closid << 32 | rmid), MSR_OK);
}

/* QM_CTR for (@evt, @rmid) read on @cpu as Linux's __rmid_read_phys. */
static uint64_t qm(Rdt *r, unsigned cpu, unsigned evt, uint32_t rmid)
{
    CU_ASSERT_EQUAL(wr(r, cpu, MSR_IA32_QM_EVTSEL,
                       (uint64_t)rmid << 32 | evt), MSR_OK);
    return rd(r, cpu, MSR_IA32_QM_CTR);
}

typedef struct Regs {
    uint32_t a, b, c, d;
} Regs;

static Regs cpuid(const RdtDesc *d, uint32_t leaf, uint32_t sub)
{
    Regs x;

    CU_ASSERT_TRUE(rdt_cpuid(d, leaf, sub, &x.a, &x.b, &x.c, &x.d));
    return x;
}

/* Size of the cache CPUID.4 subleaf @x describes (SDM: W x P x L x S). */
static uint64_t leaf4_size(Regs x)
{
    return (uint64_t)((x.b >> 22) + 1) * (((x.b >> 12) & 0x3ff) + 1) *
           ((x.b & 0xfff) + 1) * (x.c + 1);
}

/* Subleaf n of leaf 4: type, level, size, sharing (EAX[25:14] + 1). */
static void check_leaf4(const RdtDesc *d, uint32_t n, uint32_t type,
                        uint32_t level, uint64_t size, uint32_t ways,
                        uint32_t sharing)
{
    Regs x = cpuid(d, 4, n);

    CU_ASSERT_EQUAL(x.a & 0x1f, type);
    CU_ASSERT_EQUAL((x.a >> 5) & 7, level);
    CU_ASSERT_EQUAL(leaf4_size(x), size);
    CU_ASSERT_EQUAL((x.b >> 22) + 1, ways);
    CU_ASSERT_EQUAL(((x.a >> 14) & 0xfff) + 1, sharing);
}

/*
 * The server model's leaves, decoded with Linux's arithmetic (core.c
 * rdt_get_cache_alloc_cfg, __get_mem_config_intel, resctrl_cpu_detect,
 * monitor.c rdt_get_l3_mon_config); expected: the Xeon Silver 4410Y's
 * caches (30 MB 15-way L3, 2 MB 16-way L2, 48 KB 12-way L1D, 32 KB 8-way
 * L1I, 12 cores) and the RDT figures docs/rdt-model.md gives.
 */
static void test_cpuid_server(void)
{
    Regs x;
    uint32_t u;

    x = cpuid(spr, 7, 0);
    CU_ASSERT_EQUAL(x.b, RDT_CPUID_7_EBX_PQM | RDT_CPUID_7_EBX_PQE);
    CU_ASSERT_EQUAL(cpuid(spr, 0xf, 0).b + 1, 256);
    CU_ASSERT_EQUAL(cpuid(spr, 0xf, 0).d, 1u << 1);        /* CQM_LLC */
    x = cpuid(spr, 0xf, 1);
    CU_ASSERT_EQUAL(24 + (x.a & 0xff), 32);                 /* MBM width */
    CU_ASSERT_EQUAL(x.b, 4096);                             /* mon_scale */
    CU_ASSERT_EQUAL(x.c + 1, 256);                          /* num_rmid */
    CU_ASSERT_EQUAL(x.d, 7u);                       /* occ, total, local */
    CU_ASSERT_EQUAL(cpuid(spr, 0x10, 0).b, 0xeu);           /* L3, L2, MBA */
    x = cpuid(spr, 0x10, 1);
    CU_ASSERT_EQUAL((x.a & 0x1f) + 1, 15);                  /* cbm_len */
    CU_ASSERT_EQUAL(x.b & ((1u << 15) - 1), 0);             /* shareable */
    CU_ASSERT_EQUAL(x.c, 1u << 2);                  /* CDP, contiguous */
    CU_ASSERT_EQUAL((x.d & 0xffff) + 1, 16);                /* num_closid */
    x = cpuid(spr, 0x10, 2);
    CU_ASSERT_EQUAL((x.a & 0x1f) + 1, 16);
    CU_ASSERT_EQUAL(x.c, 1u << 2);
    CU_ASSERT_EQUAL((x.d & 0xffff) + 1, 16);
    x = cpuid(spr, 0x10, 3);
    u = (x.a & 0xfff) + 1;                                  /* max_delay */
    CU_ASSERT_EQUAL(u, 90);
    CU_ASSERT_EQUAL(100 - u, 10);                   /* min_bw, bw_gran */
    CU_ASSERT_EQUAL(x.c, 4u);                               /* linear, "max" */
    CU_ASSERT_EQUAL((x.d & 0xffff) + 1, 16);
    x = cpuid(spr, 0x10, 4);
    CU_ASSERT_EQUAL(x.a | x.b | x.c | x.d, 0);
    x = cpuid(spr, 0xf, 2);
    CU_ASSERT_EQUAL(x.a | x.b | x.c | x.d, 0);

    check_leaf4(spr, 0, 1, 1, 48 * KiB, 12, 1);
    check_leaf4(spr, 1, 2, 1, 32 * KiB, 8, 1);
    check_leaf4(spr, 2, 3, 2, 2 * MiB, 16, 1);
    check_leaf4(spr, 3, 3, 3, 30 * MiB, 15, 16);    /* 12 cores: 16 IDs */
    CU_ASSERT_EQUAL((cpuid(spr, 4, 0).a >> 26) + 1, 16);
    x = cpuid(spr, 4, 4);
    CU_ASSERT_EQUAL(x.a & 0x1f, 0);                 /* the end of the list */
    CU_ASSERT_FALSE(rdt_cpuid(spr, 1, 0, &x.a, &x.b, &x.c, &x.d));
}

/*
 * The Goldmont model: allocation only (PQE, no PQM), L2 CAT with 8-bit
 * CBMs (the seed's CBMs 0xf and 0xf0 are halves of the 1 MiB L2) and
 * 4 COS, no CDP, no L3, no MBA; the L2 shared by two cores.
 */
static void test_cpuid_goldmont(void)
{
    Regs x;

    CU_ASSERT_EQUAL(cpuid(gmt, 7, 0).b, RDT_CPUID_7_EBX_PQE);
    x = cpuid(gmt, 0xf, 0);
    CU_ASSERT_EQUAL(x.a | x.b | x.c | x.d, 0);
    x = cpuid(gmt, 0xf, 1);
    CU_ASSERT_EQUAL(x.a | x.b | x.c | x.d, 0);
    CU_ASSERT_EQUAL(cpuid(gmt, 0x10, 0).b, 1u << 2);
    x = cpuid(gmt, 0x10, 1);
    CU_ASSERT_EQUAL(x.a | x.b | x.c | x.d, 0);
    x = cpuid(gmt, 0x10, 2);
    CU_ASSERT_EQUAL((x.a & 0x1f) + 1, 8);
    CU_ASSERT_EQUAL(x.c, 0);
    CU_ASSERT_EQUAL((x.d & 0xffff) + 1, 4);
    x = cpuid(gmt, 0x10, 3);
    CU_ASSERT_EQUAL(x.a | x.b | x.c | x.d, 0);

    check_leaf4(gmt, 0, 1, 1, 24 * KiB, 6, 1);
    check_leaf4(gmt, 1, 2, 1, 32 * KiB, 8, 1);
    check_leaf4(gmt, 2, 3, 2, 1 * MiB, 16, 2);
    CU_ASSERT_EQUAL((cpuid(gmt, 4, 0).a >> 26) + 1, 4);
    x = cpuid(gmt, 4, 3);
    CU_ASSERT_EQUAL(x.a | x.b | x.c | x.d, 0);      /* no L3 */
}

/* Where hardware #GPs (SDM ch. 17) and where it does not. */
static void test_msr_gp(void)
{
    Rdt *r = new_rdt(spr, 2), *g = new_rdt(gmt, 4);
    RdtDesc nc = *spr;
    Rdt *n;
    uint64_t v;

    /* CBMs: contiguous, non-empty, within cbm_len */
    CU_ASSERT_EQUAL(rd(r, 0, MSR_IA32_L3_QOS_MASK_0 + 15), 0x7fff);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0x7), MSR_OK);
    gp(r, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0x5);
    gp(r, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0);
    gp(r, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 1u << 15);
    gp(r, 0, MSR_IA32_L2_QOS_MASK_0 + 1, 1u << 16);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_MASK_0 + 1, 0x8000), MSR_OK);
    CU_ASSERT_EQUAL(rd(r, 0, MSR_IA32_L3_QOS_MASK_0 + 1), 0x7);
    /* with CPUID.10H.1:ECX[3], a sparse mask is fine */
    nc.l3.noncont = true;
    n = new_rdt(&nc, 1);
    CU_ASSERT_EQUAL(cpuid(&nc, 0x10, 1).c & 8, 8);
    CU_ASSERT_EQUAL(wr(n, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0x5), MSR_OK);
    gp(n, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0);
    rdt_free(n);
    /*
     * COS beyond COS_MAX; neighbours that are not RDT's (L3 mask 16 would
     * be MSR_RMID_SNC_CONFIG)
     */
    gp(r, 0, MSR_IA32_L2_QOS_MASK_0 + 16, 1);
    gp(r, 0, MSR_IA32_L2_QOS_EXT_BW_THRTL_0 + 16, 0);
    CU_ASSERT_EQUAL(rdt_msr_read(r, 0, MSR_IA32_L3_QOS_MASK_0 + 16, &v),
                    MSR_NOT_MINE);
    CU_ASSERT_EQUAL(rdt_msr_read(r, 0, 0xd90, &v), MSR_NOT_MINE);
    CU_ASSERT_EQUAL(rdt_msr_read(r, 0, 0xda0, &v), MSR_NOT_MINE);
    /* PQR_ASSOC: RMID beyond the maximum, CLOS beyond COS_MAX, reserved */
    pqr(r, 1, 15, 255);
    gp(r, 1, MSR_IA32_PQR_ASSOC, 16ull << 32);
    gp(r, 1, MSR_IA32_PQR_ASSOC, 256);
    gp(r, 1, MSR_IA32_PQR_ASSOC, 1u << 10);
    gp(r, 1, MSR_IA32_PQR_ASSOC, 1u << 31);
    CU_ASSERT_EQUAL(rdt_label_for(r, 1).partid, 15);
    CU_ASSERT_EQUAL(rdt_label_for(r, 1).pmg, 255);
    /* 192 RMIDs (as Skylake-SP's): the 8-bit field holds more than exist */
    nc = *spr;
    nc.n_rmid = 192;
    n = new_rdt(&nc, 1);
    pqr(n, 0, 0, 191);
    gp(n, 0, MSR_IA32_PQR_ASSOC, 192);
    gp(n, 0, MSR_IA32_PQR_ASSOC, 255);
    rdt_free(n);
    /* QOS_CFG: bit 0 only; QM_CTR read-only; QM_EVTSEL fields only */
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_CFG, 1), MSR_OK);
    gp(r, 0, MSR_IA32_L3_QOS_CFG, 2);
    gp(r, 0, MSR_IA32_L2_QOS_CFG, 1ull << 63);
    gp(r, 0, MSR_IA32_QM_CTR, 0);
    gp(r, 0, MSR_IA32_QM_EVTSEL, 1u << 8);
    gp(r, 0, MSR_IA32_QM_EVTSEL, 1ull << 42);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_QM_EVTSEL, 0x3ffull << 32 | 0xff),
                    MSR_OK);
    /* MBA delay field; prefetcher disables of the part */
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_EXT_BW_THRTL_0 + 3, 90),
                    MSR_OK);
    gp(r, 0, MSR_IA32_L2_QOS_EXT_BW_THRTL_0 + 3, 1u << 16);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_MISC_FEATURE_CONTROL, 0xf), MSR_OK);
    gp(r, 0, MSR_MISC_FEATURE_CONTROL, 0x10);

    /* Goldmont: no L3, no CDP, no monitoring, no MBA; bit 1 reserved */
    gp(g, 0, MSR_IA32_L3_QOS_CFG, 0);
    gp(g, 0, MSR_IA32_L2_QOS_CFG, 0);
    gp(g, 0, MSR_IA32_QM_EVTSEL, 1);
    CU_ASSERT_EQUAL(rdt_msr_read(g, 0, MSR_IA32_QM_CTR, &v), MSR_GP);
    gp(g, 0, MSR_IA32_L3_QOS_MASK_0, 1);
    gp(g, 0, MSR_IA32_L2_QOS_EXT_BW_THRTL_0, 0);
    CU_ASSERT_EQUAL(wr(g, 0, MSR_IA32_L2_QOS_MASK_0 + 3, 0xf0), MSR_OK);
    gp(g, 0, MSR_IA32_L2_QOS_MASK_0 + 4, 0xf0);
    gp(g, 0, MSR_IA32_L2_QOS_MASK_0, 0x100);
    pqr(g, 0, 3, 0);
    gp(g, 0, MSR_IA32_PQR_ASSOC, 4ull << 32);
    gp(g, 0, MSR_IA32_PQR_ASSOC, 1);                /* no RMIDs */
    CU_ASSERT_EQUAL(wr(g, 0, MSR_MISC_FEATURE_CONTROL, 0x5), MSR_OK);
    gp(g, 0, MSR_MISC_FEATURE_CONTROL, 0x2);
    CU_ASSERT_EQUAL(rdt_msr_read(g, 0, 0x10, &v), MSR_NOT_MINE);
    rdt_free(r);
    rdt_free(g);
}

/* Per logical processor, per L2 and per L3 domain registers. */
static void test_msr_scope(void)
{
    Rdt *g = new_rdt(gmt, 4), *r = new_rdt(spr, 24);
    char *why;

    CU_ASSERT_EQUAL(rdt_n_domains(g, RDT_SCOPE_L2), 2);
    CU_ASSERT_EQUAL(rdt_domain_of(g, RDT_SCOPE_L2, 1), 0);
    CU_ASSERT_EQUAL(rdt_domain_of(g, RDT_SCOPE_L2, 2), 1);
    CU_ASSERT_EQUAL(wr(g, 0, MSR_IA32_L2_QOS_MASK_0 + 1, 0x0f), MSR_OK);
    CU_ASSERT_EQUAL(rd(g, 1, MSR_IA32_L2_QOS_MASK_0 + 1), 0x0f);
    CU_ASSERT_EQUAL(rd(g, 2, MSR_IA32_L2_QOS_MASK_0 + 1), 0xff);
    CU_ASSERT_EQUAL(rdt_cbm(g, RDT_L2, 0, 1, MEMREQ_READ), 0x0f);
    CU_ASSERT_EQUAL(rdt_cbm(g, RDT_L2, 1, 1, MEMREQ_READ), 0xff);
    pqr(g, 1, 2, 0);
    CU_ASSERT_EQUAL(rd(g, 0, MSR_IA32_PQR_ASSOC), 0);
    CU_ASSERT_EQUAL(rdt_label_for(g, 1).partid, 2);
    CU_ASSERT_EQUAL(wr(g, 3, MSR_MISC_FEATURE_CONTROL, 0x5), MSR_OK);
    CU_ASSERT_EQUAL(rd(g, 2, MSR_MISC_FEATURE_CONTROL), 0);
    rdt_reset(g);
    CU_ASSERT_EQUAL(rd(g, 1, MSR_IA32_L2_QOS_MASK_0 + 1), 0xff);
    CU_ASSERT_EQUAL(rdt_label_for(g, 1).partid, 0);
    CU_ASSERT_EQUAL(rd(g, 3, MSR_MISC_FEATURE_CONTROL), 0);

    /* 24 CPUs of 12-core packages: two L3 domains */
    CU_ASSERT_EQUAL(rdt_n_domains(r, RDT_SCOPE_L3), 2);
    CU_ASSERT_EQUAL(wr(r, 11, MSR_IA32_L3_QOS_MASK_0 + 2, 0x3), MSR_OK);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_CFG, 1), MSR_OK);
    CU_ASSERT_EQUAL(rd(r, 0, MSR_IA32_L3_QOS_MASK_0 + 2), 0x3);
    CU_ASSERT_EQUAL(rd(r, 12, MSR_IA32_L3_QOS_MASK_0 + 2), 0x7fff);
    CU_ASSERT_TRUE(rdt_cdp_enabled(r, RDT_L3, 0));
    CU_ASSERT_FALSE(rdt_cdp_enabled(r, RDT_L3, 1));
    CU_ASSERT_FALSE(rdt_cdp_enabled(r, RDT_L2, 0));     /* per level */

    /* migration: a value no write can leave is refused */
    CU_ASSERT_PTR_NULL(rdt_post_load(r));
    {
        uint32_t len;
        uint64_t *st = rdt_state(r, RDT_SCOPE_L3, &len);

        /* QOS_CFG, 16 masks, 16 MBA delays per L3 domain */
        CU_ASSERT_EQUAL(len, 2 * (1 + 16 + 16));
        st[1 + 2] = 0x5;                            /* mask 2: sparse */
    }
    why = rdt_post_load(r);
    CU_ASSERT_PTR_NOT_NULL(why);
    if (why) {
        CU_ASSERT_PTR_NOT_NULL(strstr(why, "IA32_L3_QOS_MASK_n (MSR 0xc92)"));
    }
    g_free(why);
    rdt_free(g);
    rdt_free(r);
}

/* A hierarchy (hw/memsys) over the RDT shared side of @r's L3 domain 0. */
typedef struct Machine {
    RdtMemsys *rm;
    Memsys *m;
    MemsysCpu *cpu[4];
} Machine;

/* @t NULL: the default timing (no prefetcher) */
static void machine_init_ddr(Machine *mc, Rdt *r, unsigned n_cpus,
                             const RdtMemsysConfig *cfg, DdrQos *ddr,
                             const MemsysTiming *timing)
{
    g_autoptr(GError) err = NULL;
    RdtMemsysConfig none = { 0 };
    MemsysTiming t;
    MemsysPorts p;

    memset(mc, 0, sizeof(*mc));
    mc->rm = rdt_memsys_new(r, 0, cfg ? cfg : &none, ddr, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mc->rm);
    memsys_timing_default(&t);
    if (timing) {
        t = *timing;
    }
    p = rdt_memsys_ports(mc->rm);
    mc->m = memsys_new(&rdt_desc(r)->caches, &t, &p, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(mc->m);
    for (unsigned i = 0; i < n_cpus; i++) {
        mc->cpu[i] = memsys_cpu_new(mc->m, i);
    }
}

static void machine_init(Machine *mc, Rdt *r, unsigned n_cpus,
                         const RdtMemsysConfig *cfg)
{
    machine_init_ddr(mc, r, n_cpus, cfg, NULL, NULL);
}

static void machine_fini(Machine *mc)
{
    for (unsigned i = 0; i < G_N_ELEMENTS(mc->cpu); i++) {
        memsys_cpu_free(mc->cpu[i]);
    }
    memsys_free(mc->m);
    rdt_memsys_free(mc->rm);
}

/*
 * @cpu accesses [base, base + size) every @stride bytes (at most a line),
 * with its label; returns the bytes of the lines it found in no cache
 * (memory's).
 */
static uint64_t stream_stride(Machine *mc, Rdt *r, unsigned cpu,
                              uint64_t base, uint64_t size, uint64_t stride,
                              MemReqKind kind)
{
    MemsysOutcome out;
    uint64_t from_mem = 0;

    for (uint64_t a = base; a < base + size; a += stride) {
        MemReq q = {
            .addr = a, .size = MIN(stride, LINE), .kind = kind, .src = cpu,
            .label = rdt_label_for(r, cpu),
        };

        memsys_cpu_access(mc->m, mc->cpu[cpu], &q, &out);
        from_mem += out.level == MEMSYS_MEM ? LINE : 0;
    }
    return from_mem;
}

/* @cpu touches each line of [base, base + size) once. */
static uint64_t stream(Machine *mc, Rdt *r, unsigned cpu, uint64_t base,
                       uint64_t size, MemReqKind kind)
{
    return stream_stride(mc, r, cpu, base, size, LINE, kind);
}

/*
 * Lines of CLOSID @closid in @c in the ways @ways allows; *@outside gets
 * its lines in the other ways.
 */
static uint64_t lines_in(PCache *c, uint32_t closid, uint32_t ways,
                         uint64_t *outside)
{
    uint64_t n = 0;
    SetAssocLine l;

    *outside = 0;
    for (uint32_t slot = 0; slot < c->n_lines; slot++) {
        pcache_line(c, slot, &l);
        if (l.valid && pcache_line_partid(&l) == closid) {
            if (ways >> (slot % c->ways) & 1) {
                n++;
            } else {
                ++*outside;
            }
        }
    }
    return n;
}

/*
 * L3 CAT through the MSRs and the hierarchy: CLOSID 1 with CBM 0x3 (2 of
 * the 15 ways) streaming 8 MiB holds exactly 2/15 of the 30 MiB L3, all
 * in ways 0-1, and QM_CTR reads that; with all ones, another 8 MiB go
 * into the 13 ways it had left empty.  MBM total reads every fill.
 */
static void test_cat_l3(void)
{
    Rdt *r = new_rdt(spr, 2);
    Machine mc;
    PCache *c;
    uint64_t out;
    uint64_t scale = spr->mon_scale;

    machine_init(&mc, r, 2, NULL);
    c = rdt_cache_pcache(rdt_memsys_cache(mc.rm, 0));
    pqr(r, 0, 1, 5);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0x3), MSR_OK);
    stream(&mc, r, 0, 0, 8 * MiB, MEMREQ_READ);
    CU_ASSERT_EQUAL(lines_in(c, 1, 0x3, &out) * LINE, 30 * MiB * 2 / 15);
    CU_ASSERT_EQUAL(out, 0);
    CU_ASSERT_EQUAL(qm(r, 1, RDT_EVT_L3_OCCUPANCY, 5) * scale,
                    30 * MiB * 2 / 15);
    CU_ASSERT_EQUAL(qm(r, 1, RDT_EVT_L3_OCCUPANCY, 0), 0);

    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0x7fff), MSR_OK);
    stream(&mc, r, 0, 1 * GiB, 8 * MiB, MEMREQ_READ);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_L3_OCCUPANCY, 5) * scale,
                    30 * MiB * 2 / 15 + 8 * MiB);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_TOTAL, 5) * scale, 16 * MiB);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_LOCAL, 5) * scale, 16 * MiB);
    machine_fini(&mc);
    rdt_free(r);
}

/* @cpu's cache maintenance over [base, base + size), or @all lines. */
static void flush(Machine *mc, Rdt *r, unsigned cpu, uint64_t base,
                  uint64_t size, bool all, bool writeback)
{
    for (uint64_t a = base; a < base + (all ? LINE : size); a += LINE) {
        MemReq q = {
            .addr = a, .size = LINE, .kind = MEMREQ_WRITE, .src = cpu,
            .label = rdt_label_for(r, cpu),
        };

        memsys_cpu_flush(mc->m, mc->cpu[cpu], &q, all, writeback);
    }
}

/*
 * Cache maintenance on the server (RMID 1 writes 1 MiB, which fits every
 * level but the L1D: dirty in the private caches, clean in the L3):
 * CLFLUSH of half of it drops that half everywhere (occupancy 512 KiB,
 * reading it again comes from memory) and writes its dirty lines back
 * (MBM +512 KiB), leaving the other half cached; WBINVD empties every
 * level, writing back the other dirty half; INVD empties them and loses
 * dirty data (no MBM).  A vCPU's flush leaves another's private caches.
 */
static void test_flush(void)
{
    Rdt *r = new_rdt(spr, 2);
    Machine mc;
    uint64_t scale = spr->mon_scale;

    machine_init(&mc, r, 2, NULL);
    pqr(r, 0, 0, 1);
    pqr(r, 1, 0, 2);
    CU_ASSERT_EQUAL(stream(&mc, r, 0, 0, 1 * MiB, MEMREQ_WRITE), 1 * MiB);
    CU_ASSERT_EQUAL(stream(&mc, r, 1, 64 * MiB, 64 * KiB, MEMREQ_READ),
                    64 * KiB);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_L3_OCCUPANCY, 1) * scale, 1 * MiB);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_TOTAL, 1) * scale, 1 * MiB);

    /* CLFLUSH: the lines leave L1D, L2 and L3; dirty ones go to memory */
    flush(&mc, r, 0, 0, 512 * KiB, false, true);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_L3_OCCUPANCY, 1) * scale, 512 * KiB);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_TOTAL, 1) * scale,
                    1 * MiB + 512 * KiB);
    CU_ASSERT_EQUAL(stream(&mc, r, 0, 512 * KiB, 512 * KiB, MEMREQ_READ), 0);
    CU_ASSERT_EQUAL(stream(&mc, r, 0, 0, 512 * KiB, MEMREQ_READ), 512 * KiB);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_TOTAL, 1) * scale, 2 * MiB);

    /* WBINVD: every level of vCPU 0 and the L3 empty, dirty half written */
    flush(&mc, r, 0, 0, 0, true, true);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_L3_OCCUPANCY, 1), 0);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_L3_OCCUPANCY, 2), 0);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_TOTAL, 1) * scale,
                    2 * MiB + 512 * KiB);
    CU_ASSERT_EQUAL(stream(&mc, r, 0, 0, 1 * MiB, MEMREQ_READ), 1 * MiB);
    /* vCPU 1's L2 still has its lines */
    CU_ASSERT_EQUAL(stream(&mc, r, 1, 64 * MiB, 64 * KiB, MEMREQ_READ), 0);

    /* INVD: emptied, the dirty 256 KiB lost */
    CU_ASSERT_EQUAL(stream(&mc, r, 0, 0, 256 * KiB, MEMREQ_WRITE), 0);
    flush(&mc, r, 0, 0, 0, true, false);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_L3_OCCUPANCY, 1), 0);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_TOTAL, 1) * scale,
                    3 * MiB + 512 * KiB);
    CU_ASSERT_EQUAL(stream(&mc, r, 0, 0, 256 * KiB, MEMREQ_READ), 256 * KiB);
    machine_fini(&mc);
    rdt_free(r);
}

/*
 * CDP: with IA32_L3_QOS_CFG.CDP, CLOSID 1's fetches allocate with mask 3
 * and its data with mask 2; without, both with mask 1.
 */
static void test_cdp_l3(void)
{
    Rdt *r = new_rdt(spr, 1);
    Machine mc;
    PCache *c;
    uint64_t out;
    uint64_t code, data;

    machine_init(&mc, r, 1, NULL);
    c = rdt_cache_pcache(rdt_memsys_cache(mc.rm, 0));
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_CFG, RDT_QOS_CFG_CDP), MSR_OK);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 2, 0x00f), MSR_OK);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 3, 0x0f0), MSR_OK);
    pqr(r, 0, 1, 1);
    stream(&mc, r, 0, 0, 4 * MiB, MEMREQ_FETCH);
    code = lines_in(c, 1, 0x0f0, &out);
    CU_ASSERT_EQUAL(out, 0);
    CU_ASSERT_EQUAL(code * LINE, 4 * MiB);
    stream(&mc, r, 0, 1 * GiB, 4 * MiB, MEMREQ_READ);
    /* code in ways 4-7, data in ways 0-3: together ways 0-7 */
    data = lines_in(c, 1, 0x0ff, &out) - code;
    CU_ASSERT_EQUAL(out, 0);
    CU_ASSERT_EQUAL(data * LINE, 4 * MiB);
    CU_ASSERT_EQUAL(rdt_cbm(r, RDT_L3, 0, 1, MEMREQ_FETCH), 0x0f0);
    CU_ASSERT_EQUAL(rdt_cbm(r, RDT_L3, 0, 1, MEMREQ_READ), 0x00f);
    CU_ASSERT_EQUAL(rdt_cbm(r, RDT_L3, 0, 1, MEMREQ_WRITE), 0x00f);

    /* CDP off: mask 1 for both kinds */
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_CFG, 0), MSR_OK);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0x700), MSR_OK);
    pcache_reset(c);
    machine_fini(&mc);
    machine_init(&mc, r, 1, NULL);
    c = rdt_cache_pcache(rdt_memsys_cache(mc.rm, 0));
    stream(&mc, r, 0, 0, 1 * MiB, MEMREQ_FETCH);
    stream(&mc, r, 0, 1 * GiB, 1 * MiB, MEMREQ_READ);
    CU_ASSERT_EQUAL(lines_in(c, 1, 0x700, &out) * LINE, 2 * MiB);
    CU_ASSERT_EQUAL(out, 0);
    machine_fini(&mc);
    rdt_free(r);
}

/*
 * @cpu reads [base, base + size) from an RdtCache every @stride bytes,
 * @kind accesses with its label.
 */
static MemResult cache_stream(RdtCache *c, Rdt *r, unsigned cpu,
                              uint64_t base, uint64_t size, uint64_t stride,
                              MemReqKind kind)
{
    MemResult res = { 0 };

    for (uint64_t a = base; a < base + size; a += stride) {
        MemReq q = {
            .addr = a, .size = 1, .kind = kind, .src = cpu,
            .label = rdt_label_for(r, cpu),
        };

        rdt_cache_access(c, &q, &res, NULL, NULL);
    }
    return res;
}

/*
 * The Goldmont L2 in the hierarchy (MemsysPorts.l2_shared): the last
 * level, one per pair of cores.  CPU 1 finds every line CPU 0 read at L2
 * latency (no memory access, hits counted at L2); CPU 2, on the other L2,
 * finds none.  A CLFLUSH by CPU 1 drops the line for CPU 0 too; the
 * vCPUs have no private L2 state.
 */
static void test_l2_shared(void)
{
    Rdt *r = new_rdt(gmt, 4);
    Machine mc;
    MemsysTiming t;
    MemsysOutcome out;
    MemReq q = { .addr = 0, .size = 8, .kind = MEMREQ_READ, .src = 1 };
    uint32_t len;

    machine_init(&mc, r, 4, NULL);
    CU_ASSERT_EQUAL(rdt_memsys_n_caches(mc.rm), 2);
    CU_ASSERT_TRUE(memsys_ports(mc.m)->l2_shared);
    CU_ASSERT_PTR_NULL(memsys_cpu_state(mc.cpu[0], 2, &len));
    CU_ASSERT_EQUAL(len, 0);
    CU_ASSERT_EQUAL(stream(&mc, r, 0, 0, 256 * KiB, MEMREQ_READ), 256 * KiB);
    CU_ASSERT_EQUAL(stream(&mc, r, 1, 0, 256 * KiB, MEMREQ_READ), 0);
    CU_ASSERT_EQUAL(memsys_cpu_stats(mc.cpu[1])->hit[MEMSYS_L2 - 1],
                    256 * KiB / LINE);
    CU_ASSERT_EQUAL(memsys_cpu_stats(mc.cpu[1])->hit[MEMSYS_L3 - 1], 0);
    CU_ASSERT_EQUAL(stream(&mc, r, 2, 0, 256 * KiB, MEMREQ_READ), 256 * KiB);
    CU_ASSERT_EQUAL(pcache_lines_pg(rdt_cache_pcache(rdt_memsys_cache(mc.rm,
                                                                      1)),
                                    0, 0), 256 * KiB / LINE);

    /* an L2 hit costs the L2's latency: CPU 1's L1D lost line 0 */
    memsys_timing_default(&t);
    memsys_cpu_reset(mc.cpu[1]);
    memsys_cpu_access(mc.m, mc.cpu[1], &q, &out);
    CU_ASSERT_EQUAL(out.level, MEMSYS_L2);
    CU_ASSERT_EQUAL(out.stall_fs, memsys_level_fs(&t, MEMSYS_L2) -
                                  memsys_unit_fs(&t));
    /* CPU 0's L1D kept the region's tail, not line 0 */
    memsys_cpu_flush(mc.m, mc.cpu[1], &q, false, true);
    CU_ASSERT_EQUAL(stream(&mc, r, 0, 0, 2 * LINE, MEMREQ_READ), LINE);
    machine_fini(&mc);
    rdt_free(r);
}

/*
 * L2 CAT on the Goldmont model as the seed sets it: the application's
 * CLOS 1 with CBM 0xf (ways 0-7, 512 KiB of the 1 MiB L2), the default
 * CLOS 0 with 0xf0.  A 256 KiB region of CPU 0 stays whole while CPU 1,
 * sharing the L2, streams 4 MiB; without the masks it is evicted.  The
 * other L2 domain keeps its all-ones masks.
 */
static void test_l2_cat(void)
{
    Rdt *r = new_rdt(gmt, 4);
    Machine mc;
    PCache *c;
    uint64_t out;

    machine_init(&mc, r, 4, NULL);
    c = rdt_cache_pcache(rdt_memsys_cache(mc.rm, 0));
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_MASK_0 + 1, 0x0f), MSR_OK);
    CU_ASSERT_EQUAL(wr(r, 1, MSR_IA32_L2_QOS_MASK_0 + 0, 0xf0), MSR_OK);
    pqr(r, 0, 1, 0);
    pqr(r, 2, 1, 0);
    stream(&mc, r, 0, 0, 256 * KiB, MEMREQ_READ);
    stream(&mc, r, 1, 1 * GiB, 4 * MiB, MEMREQ_READ);
    CU_ASSERT_EQUAL(stream(&mc, r, 0, 0, 256 * KiB, MEMREQ_READ), 0);
    CU_ASSERT_EQUAL(lines_in(c, 1, 0x00ff, &out) * LINE, 256 * KiB);
    CU_ASSERT_EQUAL(out, 0);
    CU_ASSERT_EQUAL(lines_in(c, 0, 0xff00, &out) * LINE, 512 * KiB);
    CU_ASSERT_EQUAL(out, 0);
    /* CLOS 1 streaming 1 MiB holds the 512 KiB its CBM sets aside */
    stream(&mc, r, 0, 2 * GiB, 1 * MiB, MEMREQ_READ);
    CU_ASSERT_EQUAL(lines_in(c, 1, 0x00ff, &out) * LINE, 512 * KiB);
    CU_ASSERT_EQUAL(out, 0);

    /* domain 1: all ones, the same CLOS 1 spreads over all 16 ways */
    stream(&mc, r, 2, 0, 1 * MiB, MEMREQ_READ);
    CU_ASSERT_EQUAL(lines_in(rdt_cache_pcache(rdt_memsys_cache(mc.rm, 1)), 1,
                             0xffff, &out) * LINE, 1 * MiB);

    /* without the masks the noisy neighbour evicts the region */
    rdt_reset(r);
    rdt_memsys_reset(mc.rm);
    pqr(r, 0, 1, 0);
    stream(&mc, r, 0, 0, 256 * KiB, MEMREQ_READ);
    stream(&mc, r, 1, 1 * GiB, 4 * MiB, MEMREQ_READ);
    CU_ASSERT_EQUAL(stream(&mc, r, 0, 0, 256 * KiB, MEMREQ_READ), 256 * KiB);
    machine_fini(&mc);
    rdt_free(r);
}

/*
 * L2 CDP on the server model, independent of L3's: with IA32_L2_QOS_CFG.CDP
 * CLOSID 1's fetches allocate in mask 3's ways of the L2 and its data in
 * mask 2's, while the L3 (CDP off) keeps using mask 1 for both.
 */
static void test_cdp_l2(void)
{
    Rdt *r = new_rdt(spr, 1);
    g_autoptr(GError) err = NULL;
    RdtCache *l2 = rdt_cache_new(r, RDT_L2, 0, &err);
    PCache *c;
    uint64_t out;

    CU_ASSERT_PTR_NOT_NULL_FATAL(l2);
    c = rdt_cache_pcache(l2);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_CFG, RDT_QOS_CFG_CDP), MSR_OK);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_MASK_0 + 2, 0x00ff), MSR_OK);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_MASK_0 + 3, 0xff00), MSR_OK);
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0x7), MSR_OK);
    pqr(r, 0, 1, 0);
    cache_stream(l2, r, 0, 0, 512 * KiB, LINE, MEMREQ_FETCH);
    CU_ASSERT_EQUAL(lines_in(c, 1, 0xff00, &out) * LINE, 512 * KiB);
    CU_ASSERT_EQUAL(out, 0);
    cache_stream(l2, r, 0, 1 * GiB, 512 * KiB, LINE, MEMREQ_READ);
    CU_ASSERT_EQUAL(lines_in(c, 1, 0x00ff, &out) * LINE, 512 * KiB);
    CU_ASSERT_EQUAL(out * LINE, 512 * KiB);             /* the code */
    CU_ASSERT_EQUAL(rdt_cbm(r, RDT_L2, 0, 1, MEMREQ_READ), 0x00ff);
    CU_ASSERT_EQUAL(rdt_cbm(r, RDT_L3, 0, 1, MEMREQ_FETCH), 0x7);
    CU_ASSERT_EQUAL(rdt_cbm(r, RDT_L3, 0, 1, MEMREQ_READ), 0x7);
    rdt_cache_free(l2);
    rdt_free(r);
}

/*
 * Cache pseudo-locking on the Goldmont model as Linux 7.3 does it
 * (pseudo_lock.c resctrl_arch_pseudo_lock_fn): the region's CLOS 1 has
 * CBM 0x3, 2 of 8 bits = 256 KiB of the 1 MiB L2, overlapping no other
 * group (the default CLOS 0 has 0xfc); prefetchers off (0x1A4 := 0x5,
 * Goldmont's bits), PQR_ASSOC switched to CLOS 1, the buffer read at page
 * then line stride, both restored.  The region then fills ways 0-3
 * exactly, and pseudo_lock_measure's reader (CLOS 0, one load per 32
 * bytes) reads none of it from memory while the core sharing the L2
 * streams 4 MiB, all through the hierarchy (the L1D holds too little of
 * it to matter).  With a default CBM overlapping the region (0xff) every
 * line comes from memory.  The stream prefetcher runs (32 lines, as on
 * rdt-goldmont-timing) except where 0x1A4 turns it off, in the load and
 * the measurement as Linux does: else the load would prefetch 32 lines
 * past the region into its ways, pushing out as many of its own.  WBINVD
 * before the load is the hook's (docs/rdt-model.md); here the L2 starts
 * empty.
 */
static void test_pseudo_lock(void)
{
    for (unsigned overlap = 0; overlap < 2; overlap++) {
        Rdt *r = new_rdt(gmt, 4);
        Machine mc;
        MemsysTiming t;
        PCache *c;
        uint64_t saved;
        uint64_t out;

        memsys_timing_default(&t);
        t.prefetch_lines = 32;
        machine_init_ddr(&mc, r, 4, NULL, NULL, &t);
        c = rdt_cache_pcache(rdt_memsys_cache(mc.rm, 0));
        CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_MASK_0 + 0,
                           overlap ? 0xff : 0xfc), MSR_OK);
        CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_MASK_0 + 1, 0x03),
                        MSR_OK);
        saved = rd(r, 0, MSR_MISC_FEATURE_CONTROL);
        CU_ASSERT_EQUAL(wr(r, 0, MSR_MISC_FEATURE_CONTROL, 0x5), MSR_OK);
        pqr(r, 0, 1, 0);
        stream_stride(&mc, r, 0, 0, 256 * KiB, 4096, MEMREQ_READ);
        stream(&mc, r, 0, 0, 256 * KiB, MEMREQ_READ);
        pqr(r, 0, 0, 0);
        CU_ASSERT_EQUAL(wr(r, 0, MSR_MISC_FEATURE_CONTROL, saved), MSR_OK);
        CU_ASSERT_EQUAL(lines_in(c, 1, 0x000f, &out) * LINE, 256 * KiB);
        CU_ASSERT_EQUAL(out, 0);

        stream(&mc, r, 1, 1 * GiB, 4 * MiB, MEMREQ_READ);
        CU_ASSERT_EQUAL(wr(r, 0, MSR_MISC_FEATURE_CONTROL, 0x5), MSR_OK);
        CU_ASSERT_EQUAL(stream_stride(&mc, r, 0, 0, 256 * KiB, 32,
                                      MEMREQ_READ),
                        overlap ? 256 * KiB : 0);
        machine_fini(&mc);
        rdt_free(r);
    }
}

/* Memory bandwidth of the MBA tests: 64 GB/s, a line a nanosecond. */
#define MEM_B   64000000000ull

/*
 * A source on @cpu streaming new lines (L3 misses) through @p from *@t
 * until @until: the next line goes when the last arrived and memory
 * (MEM_B) could move another.  *@a is the next address.  Returns bytes.
 */
static uint64_t miss_stream(MemsysPorts *p, Rdt *r, unsigned cpu,
                            uint64_t *t, uint64_t *a, uint64_t until)
{
    const uint64_t line_ps = LINE * 1000000000000ull / MEM_B;
    uint64_t bytes = 0;

    while (*t < until) {
        MemReq q = {
            .addr = *a, .size = LINE, .kind = MEMREQ_READ, .t_ps = *t,
            .src = cpu, .label = rdt_label_for(r, cpu),
        };
        uint64_t mem_ps = 0;

        CU_ASSERT_FALSE(p->l3_fill(p, &q, &mem_ps));
        *t += mem_ps + line_ps;
        *a += LINE;
        bytes += LINE;
    }
    return bytes;
}

/*
 * MBA: CLOSID 1 streams L3 misses at MEM_B (one line per 64 B / MEM_B),
 * twice mba-peak B; "MB:" 10..100 % (delay 100 - MB written to
 * IA32_L2_QoS_Ext_BW_Thrtl_1, as Linux's mba_wrmsr_intel) gives MB % of B
 * over 100 us within 5 %: MB:100 (delay 0) is all of B, not unlimited.
 */
static void test_mba(void)
{
    const uint64_t span_ps = 100 * 1000000ull;  /* 100 us */
    const uint64_t peak = MEM_B / 2;

    for (unsigned mb = 10; mb <= 100; mb += 10) {
        Rdt *r = new_rdt(spr, 1);
        RdtMemsysConfig cfg = { .mem_bytes_per_s = peak };
        g_autoptr(GError) err = NULL;
        RdtMemsys *s = rdt_memsys_new(r, 0, &cfg, NULL, &err);
        MemsysPorts p = rdt_memsys_ports(s);
        uint64_t t = 0, a = 0, bytes;
        double got;

        CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_EXT_BW_THRTL_0 + 1, 100 - mb),
                        MSR_OK);
        pqr(r, 0, 1, 1);
        bytes = miss_stream(&p, r, 0, &t, &a, span_ps);
        got = (double)bytes * 1e12 / t / peak * 100;
        printf("\n    MB %3u%%: %6.2f%% of mba-peak", mb, got);
        CU_ASSERT_DOUBLE_EQUAL(got, mb, mb * 0.05);
        rdt_memsys_free(s);
        rdt_free(r);
    }
    printf("\n");      /* CUnit's verdict on a line of its own */
}

/*
 * The MBA software controller (mount -o mba_MBps) closes the loop through
 * both: every poll Linux reads the group's MBM local bytes
 * (mbm_bw_count: the delta over the period) and steps its MB % by
 * bw_gran (fs/resctrl/monitor.c update_mba_bw): down while the bandwidth
 * is above the target, up only if the next step would stay below it.
 * With a target of 25 % of memory bandwidth a streaming group settles at
 * MB 20 % (30 % would exceed it) and moves 20 % of it.  Polls are 100 us
 * of modeled time instead of 1 s: only bandwidth matters.
 */
static void test_mba_sc(void)
{
    const uint64_t poll_ps = 100 * 1000000ull;
    const uint64_t user_bw = MEM_B / 4 / 1000000;       /* MBps */
    const uint32_t min_bw = 100 - spr->mba_max_delay, gran = min_bw;
    unsigned shift = 64 - spr->mbm_width;
    Rdt *r = new_rdt(spr, 1);
    RdtMemsysConfig cfg = { .mem_bytes_per_s = MEM_B };
    g_autoptr(GError) err = NULL;
    RdtMemsys *s = rdt_memsys_new(r, 0, &cfg, NULL, &err);
    MemsysPorts p = rdt_memsys_ports(s);
    uint64_t t = 0, a = 0, prev = 0, cur_bw = 0;
    uint32_t msr_bw = 100;

    pqr(r, 0, 1, 1);
    for (unsigned poll = 1; poll <= 12; poll++) {
        uint64_t cur;

        miss_stream(&p, r, 0, &t, &a, poll * poll_ps);
        cur = qm(r, 0, RDT_EVT_MBM_LOCAL, 1);
        cur_bw = (((cur << shift) - (prev << shift)) >> shift) *
                 spr->mon_scale * 1000000ull / (poll_ps / 1000000) / 1000000;
        prev = cur;
        if (msr_bw > min_bw && user_bw < cur_bw) {
            msr_bw -= gran;
        } else if (msr_bw < 100 &&
                   user_bw > cur_bw * (msr_bw + min_bw) / msr_bw) {
            msr_bw += gran;
        }
        CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_EXT_BW_THRTL_0 + 1,
                           100 - msr_bw), MSR_OK);
    }
    printf("\n    settled at MB %u%%, %" G_GUINT64_FORMAT " MB/s (target %"
           G_GUINT64_FORMAT ")\n", msr_bw, cur_bw, user_bw);
    CU_ASSERT_EQUAL(msr_bw, 20);
    CU_ASSERT_TRUE(cur_bw <= user_bw);
    CU_ASSERT_DOUBLE_EQUAL((double)cur_bw, MEM_B / 5 / 1e6,
                           MEM_B / 5 / 1e6 * 0.05);
    rdt_memsys_free(s);
    rdt_free(r);
}

/*
 * MBM: bytes reaching memory per RMID in units of the scale, local only
 * for the L3 domain's node, DMA not counted; the counter wraps at its
 * width and Linux's mbm_overflow_count recovers the difference.
 */
static void test_mbm(void)
{
    Rdt *r = new_rdt(spr, 1);
    MemMap *nodes = mem_map_new();
    RdtMemsysConfig cfg = { .nodes = nodes, .node = 0 };
    g_autoptr(GError) err = NULL;
    RdtMemsys *s;
    MemsysPorts p;
    uint64_t scale = spr->mon_scale, a, b;
    unsigned shift = 64 - spr->mbm_width;

    CU_ASSERT_TRUE(mem_map_add(nodes, 0, 1 * GiB, 1, &err));
    CU_ASSERT_TRUE(mem_map_add(nodes, 1 * GiB, 1 * GiB, 2, &err));
    s = rdt_memsys_new(r, 0, &cfg, NULL, &err);
    p = rdt_memsys_ports(s);
    {
        MemReq local = { .addr = 0, .size = 1 * MiB, .kind = MEMREQ_WRITE,
                         .label = { 0, 7 } };
        MemReq remote = { .addr = 3 * GiB / 2, .size = 3 * MiB,
                          .kind = MEMREQ_WRITE, .label = { 0, 7 } };
        MemReq dma = { .addr = 0, .size = 5 * MiB, .kind = MEMREQ_WRITE,
                       .label = { 0, 7 }, .src = MEMREQ_SRC_DMA };

        p.mem_access(&p, &local);
        p.mem_access(&p, &remote);
        p.mem_access(&p, &dma);
    }
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_TOTAL, 7) * scale, 4 * MiB);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_LOCAL, 7) * scale, 1 * MiB);

    /* 2^43 bytes, then 2^43 + 3 units: past 2^width units of scale */
    for (unsigned i = 0; i < 4096; i++) {
        MemReq q = { .addr = 0, .size = 1u << 31, .kind = MEMREQ_WRITE,
                     .label = { 0, 9 } };

        p.mem_access(&p, &q);
    }
    a = qm(r, 0, RDT_EVT_MBM_TOTAL, 9);
    CU_ASSERT_EQUAL(a, 1ull << 31);
    for (unsigned i = 0; i <= 4096; i++) {
        MemReq q = { .addr = 0, .size = i < 4096 ? 1u << 31 : 3 * scale,
                     .kind = MEMREQ_WRITE, .label = { 0, 9 } };

        p.mem_access(&p, &q);
    }
    b = qm(r, 0, RDT_EVT_MBM_TOTAL, 9);
    CU_ASSERT_EQUAL(b, 3);                          /* wrapped */
    CU_ASSERT_EQUAL((((b << shift) - (a << shift)) >> shift) * scale,
                    (1ull << 43) + 3 * scale);
    rdt_memsys_free(s);
    mem_map_free(nodes);
    rdt_free(r);
}

/*
 * Reset and migration: the MSR arrays, the L3's lines and the MBM
 * counters copied into a second machine read back the same monitors and
 * labels; a line with an RMID beyond the part's fails the load; a reset
 * empties the L3 and the counters and MBA acts again from its MSR.
 */
static void test_reset_migrate(void)
{
    RdtMemsysConfig cfg = { .mem_bytes_per_s = MEM_B };
    g_autoptr(GError) err = NULL;
    Rdt *r = new_rdt(spr, 2), *r2 = new_rdt(spr, 2);
    RdtMemsys *s = rdt_memsys_new(r, 0, &cfg, NULL, &err);
    RdtMemsys *s2 = rdt_memsys_new(r2, 0, &cfg, NULL, &err);
    MemsysPorts p = rdt_memsys_ports(s);
    PCache *c = rdt_cache_pcache(rdt_memsys_cache(s, 0));
    PCache *c2 = rdt_cache_pcache(rdt_memsys_cache(s2, 0));
    uint64_t t = 0, a = 0, bytes, occ, total, *src, *dst;
    uint32_t len, len2;
    char *why;

    CU_ASSERT_EQUAL(wr(r, 1, MSR_IA32_L3_QOS_MASK_0 + 1, 0x3), MSR_OK);
    CU_ASSERT_EQUAL(wr(r, 1, MSR_IA32_L2_QOS_EXT_BW_THRTL_0 + 1, 50),
                    MSR_OK);
    pqr(r, 1, 1, 3);
    miss_stream(&p, r, 1, &t, &a, 10 * 1000000ull);
    occ = qm(r, 0, RDT_EVT_L3_OCCUPANCY, 3);
    total = qm(r, 0, RDT_EVT_MBM_TOTAL, 3);
    CU_ASSERT_TRUE(occ > 0 && total > 0);

    for (unsigned sc = 0; sc < RDT_SCOPE_N; sc++) {
        src = rdt_state(r, sc, &len);
        dst = rdt_state(r2, sc, &len2);
        CU_ASSERT_EQUAL_FATAL(len, len2);
        memcpy(dst, src, len * sizeof(*dst));
    }
    src = rdt_memsys_mbm_state(s, &len);
    dst = rdt_memsys_mbm_state(s2, &len2);
    CU_ASSERT_EQUAL_FATAL(len, 2 * 256);
    memcpy(dst, src, len * sizeof(*dst));
    memcpy(c2->sa.words, c->sa.words, c->sa.n_words * sizeof(uint32_t));
    CU_ASSERT_PTR_NULL(rdt_post_load(r2));
    CU_ASSERT_PTR_NULL(rdt_memsys_post_load(s2));
    CU_ASSERT_EQUAL(qm(r2, 0, RDT_EVT_L3_OCCUPANCY, 3), occ);
    CU_ASSERT_EQUAL(qm(r2, 0, RDT_EVT_MBM_TOTAL, 3), total);
    CU_ASSERT_EQUAL(pcache_checksum(c2), pcache_checksum(c));
    CU_ASSERT_EQUAL(rdt_label_for(r2, 1).partid, 1);
    CU_ASSERT_EQUAL(rdt_label_for(r2, 1).pmg, 3);

    /* a line owned by RMID 300 of a part with 256 */
    {
        SetAssocLine l;
        uint32_t *owner = c2->sa.words + 1 + 3 * c2->sa.wp;   /* set 0 */

        pcache_line(c2, 0, &l);
        CU_ASSERT_TRUE_FATAL(l.valid);
        owner[0] = 1 << 16 | 300;
        why = rdt_memsys_post_load(s2);
        CU_ASSERT_PTR_NOT_NULL(why);
        g_free(why);
    }

    /* reset: empty, zero, and MB 50 % acts again */
    rdt_memsys_reset(s);
    CU_ASSERT_EQUAL(pcache_lines_total(c), 0);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_L3_OCCUPANCY, 3), 0);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_TOTAL, 3), 0);
    t = 0;
    bytes = miss_stream(&p, r, 1, &t, &a, 100 * 1000000ull);
    CU_ASSERT_DOUBLE_EQUAL((double)bytes * 1e12 / t / MEM_B, 0.5, 0.025);
    rdt_memsys_free(s);
    rdt_memsys_free(s2);
    rdt_free(r);
    rdt_free(r2);
}

/*
 * With a DDR model behind memory (hw/ddr-qos) the RDT shared side hands
 * it every line: an unloaded L3 miss costs the DDR's closed-bank read
 * (frontend + tRCD + CL + a burst, from its configuration) and MBM counts
 * it; a dirty line evicted from the L3 is posted to the DDR and counted
 * as the owner's MBM traffic.
 */
static void test_ddr(void)
{
    Rdt *r = new_rdt(spr, 1);
    g_autoptr(GError) err = NULL;
    DdrConfig dc;
    DdrQos *ddr;
    Machine mc;
    MemsysOutcome o;
    const DdrStats *st;
    uint64_t ddr_ps, reads = 0, bursts = 0;
    PCache *c;

    ddr_config_default(&dc);
    ddr = ddr_qos_new(&dc, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(ddr);
    ddr_ps = dc.frontend_ps +
             ddr_config_nck_ps(&dc, dc.trcd + dc.cl + dc.burst_length / 2);
    machine_init_ddr(&mc, r, 1, NULL, ddr, NULL);
    pqr(r, 0, 1, 2);
    {
        MemReq q = { .addr = 1 * GiB, .size = 8, .kind = MEMREQ_READ,
                     .label = rdt_label_for(r, 0) };

        memsys_cpu_access(mc.m, mc.cpu[0], &q, &o);
    }
    CU_ASSERT_EQUAL(o.level, MEMSYS_MEM);
    CU_ASSERT_EQUAL(o.mem_ps, ddr_ps);
    CU_ASSERT_EQUAL(rdt_memsys_bytes(mc.rm, RDT_EVT_MBM_TOTAL, 2), LINE);
    ddr_qos_drain(ddr);
    st = ddr_qos_stats(ddr);
    for (unsigned k = 0; k < DDR_N_CLASSES; k++) {
        bursts += st->cls[k].bytes;
    }
    CU_ASSERT_EQUAL(bursts, LINE);

    /* dirty lines through every level: the L3's write-backs reach the DDR */
    c = rdt_cache_pcache(rdt_memsys_cache(mc.rm, 0));
    CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0x1), MSR_OK);
    stream(&mc, r, 0, 2 * GiB, 8 * MiB, MEMREQ_WRITE);
    ddr_qos_drain(ddr);
    st = ddr_qos_stats(ddr);
    bursts = 0;
    for (unsigned k = 0; k < DDR_N_CLASSES; k++) {
        bursts += st->cls[k].bytes;
        reads += k <= DDR_HPR ? st->cls[k].bytes : 0;
    }
    CU_ASSERT_TRUE(bursts > reads);                 /* write-backs went */
    CU_ASSERT_EQUAL(rdt_memsys_bytes(mc.rm, RDT_EVT_MBM_TOTAL, 2), bursts);
    CU_ASSERT_EQUAL(pcache_lines_partid(c, 1) * LINE, 30 * MiB / 15);
    machine_fini(&mc);
    ddr_qos_free(ddr);
    rdt_free(r);
}

/* IA32_QM_CTR's Error and Unavailable (SDM 17.18.7). */
static void test_qm_ctr_errors(void)
{
    Rdt *r = new_rdt(spr, 1);
    g_autoptr(GError) err = NULL;
    RdtMemsysConfig cfg = { 0 };
    RdtMemsys *s;

    CU_ASSERT_EQUAL(qm(r, 0, 0, 0), RDT_QM_CTR_ERROR);
    CU_ASSERT_EQUAL(qm(r, 0, 4, 0), RDT_QM_CTR_ERROR);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_TOTAL, 256), RDT_QM_CTR_ERROR);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_L3_OCCUPANCY, 0),
                    RDT_QM_CTR_UNAVAILABLE);       /* no model counts */
    s = rdt_memsys_new(r, 0, &cfg, NULL, &err);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_L3_OCCUPANCY, 255), 0);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_LOCAL, 0), 0);
    rdt_memsys_free(s);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_MBM_LOCAL, 0), RDT_QM_CTR_UNAVAILABLE);
    rdt_free(r);
}

/* A write Linux makes with wrmsrq (not _safe): it must not #GP. */
static void lx_wrmsr(Rdt *r, unsigned cpu, uint32_t msr, uint64_t v)
{
    MsrResult res = wr(r, cpu, msr, v);

    if (res != MSR_OK) {
        printf("\n    wrmsr 0x%x <- 0x%" G_GINT64_MODIFIER "x on CPU %u: #GP\n",
               msr, v, cpu);
    }
    CU_ASSERT_EQUAL(res, MSR_OK);
}

/*
 * What Linux 7.3's resctrl does against the server model, in order: the
 * CPUID probe (get_rdt_alloc_resources, get_rdt_mon_resources), per
 * domain the default controls (domain_setup_ctrlval: all-ones CBMs, MBA
 * delay 0), CDP off (rdt_domain_reconfigure_cdp) and PQR_ASSOC 0 per CPU;
 * mount -o cdp,cdpl2 (set_cache_qos_cfg); mkdir with CLOSID 1 and RMID 1,
 * its default and then user schemata (CDP halves the CLOSIDs: masks 2 and
 * 3), a task switched in on CPU 1 (__resctrl_sched_in), reads of the
 * monitors (__rmid_read_phys), and the unmount (CDP off, all controls
 * reset).  No write #GPs, and the monitors read what the task did.
 */
static void test_linux_mount(void)
{
    Rdt *r = new_rdt(spr, 4);
    Machine mc;
    uint32_t a, b, c, d, l3_closid, l2_closid, mba_closid, num_rmid, scale;
    uint32_t l3_len, l2_len, width, max_delay, num_closid;
    uint64_t occ, total;

    /* probe */
    rdt_cpuid(spr, 7, 0, &a, &b, &c, &d);
    CU_ASSERT_TRUE(b & RDT_CPUID_7_EBX_PQE);
    rdt_cpuid(spr, 0x10, 0, &a, &b, &c, &d);
    CU_ASSERT_EQUAL(b & 0xe, 0xe);
    rdt_cpuid(spr, 0x10, 1, &a, &b, &c, &d);
    l3_closid = (d & 0xffff) + 1;
    l3_len = (a & 0x1f) + 1;
    CU_ASSERT_TRUE(c & 4);                      /* CDP_L3 */
    rdt_cpuid(spr, 0x10, 2, &a, &b, &c, &d);
    l2_closid = (d & 0xffff) + 1;
    l2_len = (a & 0x1f) + 1;
    CU_ASSERT_TRUE(c & 4);                      /* CDP_L2 */
    rdt_cpuid(spr, 0x10, 3, &a, &b, &c, &d);
    mba_closid = (d & 0xffff) + 1;
    max_delay = (a & 0xfff) + 1;
    CU_ASSERT_TRUE(c & 4);                      /* MBA_IS_LINEAR */
    rdt_cpuid(spr, 0xf, 0, &a, &b, &c, &d);
    CU_ASSERT_TRUE(d & 2);                      /* CQM_LLC */
    rdt_cpuid(spr, 0xf, 1, &a, &b, &c, &d);
    num_rmid = c + 1;
    scale = b;
    width = 24 + (a & 0xff);
    CU_ASSERT_TRUE((a & 0xff) <= 38);
    CU_ASSERT_EQUAL(d & 7, 7);
    num_closid = MIN(MIN(l3_closid, l2_closid), mba_closid);

    /* domains online: default controls, CDP off, PQR_ASSOC 0 */
    for (unsigned i = 0; i < l3_closid; i++) {
        lx_wrmsr(r, 0, MSR_IA32_L3_QOS_MASK_0 + i, (1ull << l3_len) - 1);
    }
    for (unsigned i = 0; i < l2_closid; i++) {
        lx_wrmsr(r, 0, MSR_IA32_L2_QOS_MASK_0 + i, (1ull << l2_len) - 1);
        lx_wrmsr(r, 1, MSR_IA32_L2_QOS_MASK_0 + i, (1ull << l2_len) - 1);
    }
    for (unsigned i = 0; i < mba_closid; i++) {
        lx_wrmsr(r, 0, MSR_IA32_L2_QOS_EXT_BW_THRTL_0 + i, 100 - 100);
    }
    lx_wrmsr(r, 0, MSR_IA32_L3_QOS_CFG, 0);
    lx_wrmsr(r, 0, MSR_IA32_L2_QOS_CFG, 0);
    lx_wrmsr(r, 1, MSR_IA32_L2_QOS_CFG, 0);
    for (unsigned cpu = 0; cpu < 4; cpu++) {
        lx_wrmsr(r, cpu, MSR_IA32_PQR_ASSOC, 0);
    }

    /* mount -o cdp,cdpl2: one CPU per domain */
    lx_wrmsr(r, 2, MSR_IA32_L3_QOS_CFG, 1);
    lx_wrmsr(r, 0, MSR_IA32_L2_QOS_CFG, 1);
    lx_wrmsr(r, 1, MSR_IA32_L2_QOS_CFG, 1);
    num_closid /= 2;
    CU_ASSERT_EQUAL(num_closid, 8);

    /* mkdir g1: CLOSID 1, RMID 1, default schemata, then the user's */
    lx_wrmsr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 2, (1ull << l3_len) - 1);
    lx_wrmsr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 3, (1ull << l3_len) - 1);
    lx_wrmsr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 2, 0xf);        /* L3DATA:0=f */
    lx_wrmsr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 3, 0xf0);       /* L3CODE:0=f0 */
    lx_wrmsr(r, 0, MSR_IA32_L2_QOS_EXT_BW_THRTL_0 + 1, 100 - 50);  /* MB:0=50 */
    CU_ASSERT_TRUE(100 - max_delay <= 50);

    /* the task on CPU 1 */
    machine_init(&mc, r, 2, NULL);
    CU_ASSERT_EQUAL(qm(r, 1, RDT_EVT_MBM_TOTAL, 1), 0);
    lx_wrmsr(r, 1, MSR_IA32_PQR_ASSOC, 1ull << 32 | 1);
    stream(&mc, r, 1, 0, 512 * KiB, MEMREQ_FETCH);
    stream(&mc, r, 1, 1 * GiB, 1 * MiB, MEMREQ_READ);
    occ = qm(r, 1, RDT_EVT_L3_OCCUPANCY, 1);
    total = qm(r, 1, RDT_EVT_MBM_TOTAL, 1);
    CU_ASSERT_FALSE(occ & (RDT_QM_CTR_ERROR | RDT_QM_CTR_UNAVAILABLE));
    CU_ASSERT_EQUAL(occ * scale, 512 * KiB + 1 * MiB);
    CU_ASSERT_EQUAL(total * scale, 512 * KiB + 1 * MiB);
    CU_ASSERT_EQUAL(total >> width, 0);
    CU_ASSERT_EQUAL(qm(r, 0, RDT_EVT_L3_OCCUPANCY, 0), 0);
    CU_ASSERT_TRUE(num_rmid > 1);

    /* umount: CDP off, every control reset, tasks back to CLOSID 0 */
    lx_wrmsr(r, 2, MSR_IA32_L3_QOS_CFG, 0);
    lx_wrmsr(r, 0, MSR_IA32_L2_QOS_CFG, 0);
    lx_wrmsr(r, 1, MSR_IA32_L2_QOS_CFG, 0);
    for (unsigned i = 0; i < l3_closid; i++) {
        lx_wrmsr(r, 3, MSR_IA32_L3_QOS_MASK_0 + i, (1ull << l3_len) - 1);
    }
    for (unsigned i = 0; i < mba_closid; i++) {
        lx_wrmsr(r, 3, MSR_IA32_L2_QOS_EXT_BW_THRTL_0 + i, 0);
    }
    lx_wrmsr(r, 1, MSR_IA32_PQR_ASSOC, 0);
    CU_ASSERT_EQUAL(rdt_label_for(r, 1).partid, 0);
    machine_fini(&mc);
    rdt_free(r);
}

/* Descriptions that contradict themselves stop with a clear message. */
static void test_desc_check(void)
{
    static const struct {
        const char *field;
        const char *msg;
    } cases[] = {
        { "cdp_no_cat", "L3 CDP, non-contiguous masks, shareable bits or COS "
                        "without L3 CAT (L3.cbm_len 0)" },
        { "mba_nonlinear", "MBA without linear throttling" },
        { "events_no_rmid", "monitoring needs both RMIDs" },
        { "width", "mbm_width 70 is not 24..62" },
        { "l2_share", "12 cores cannot share L2s by 5" },
        { "shareable", "L2.shareable 0x10000 has bits beyond the 16-bit CBM" },
        { "cdp_odd", "L3 CDP needs an even number of COS" },
    };
    g_autoptr(GError) err = NULL;
    RdtDesc bad;

    CU_ASSERT_PTR_NULL(rdt_desc_check(spr));
    CU_ASSERT_PTR_NULL(rdt_desc_check(gmt));
    CU_ASSERT_PTR_EQUAL(rdt_desc_find("goldmont"), gmt);
    CU_ASSERT_PTR_EQUAL(rdt_desc_find("sapphirerapids"), spr);
    CU_ASSERT_PTR_NULL(rdt_desc_find("skylake"));
    for (unsigned i = 0; i < G_N_ELEMENTS(cases); i++) {
        g_autofree char *why = NULL;

        bad = *spr;
        switch (i) {
        case 0: bad.l3.cbm_len = 0; break;
        case 1: bad.mba_linear = false; break;
        case 2: bad.n_rmid = 0; break;
        case 3: bad.mbm_width = 70; break;
        case 4: bad.l2_cores = 5; break;
        case 5: bad.l2.shareable = 0x10000; break;
        case 6: bad.l3.n_cos = 15; break;
        }
        why = rdt_desc_check(&bad);
        CU_ASSERT_PTR_NOT_NULL(why);
        if (why && !strstr(why, cases[i].msg)) {
            printf("\n    %s: got \"%s\"\n", cases[i].field, why);
            CU_FAIL("message");
        }
        CU_ASSERT_PTR_NULL(rdt_new(&bad, 1, NULL));
    }
    /* more COS than the MSR range has */
    bad = *spr;
    bad.l3.n_cos = 32;
    CU_ASSERT_PTR_NULL(rdt_new(&bad, 1, &err));
    CU_ASSERT_PTR_NOT_NULL(err && strstr(err->message,
                           "32 x IA32_L3_QOS_MASK_n exceed the 16 MSRs"));
}

/*
 * Random MSR accesses on both models (ASan + UBSan): an accepted write
 * reads back, a #GP changes nothing, the state stays one a write can
 * leave, and accesses with the labels it gives go through the caches.
 */
static void test_msr_fuzz(void)
{
    static const uint32_t base[] = {
        MSR_MISC_FEATURE_CONTROL, 0xc80, 0xc8c, MSR_IA32_L3_QOS_MASK_0,
        MSR_IA32_L2_QOS_MASK_0, MSR_IA32_L2_QOS_EXT_BW_THRTL_0, 0xd8e,
    };
    const RdtDesc *descs[] = { spr, gmt };
    GRand *rnd = g_rand_new_with_seed(10);
    uint64_t ok = 0, gps = 0;

    for (unsigned k = 0; k < G_N_ELEMENTS(descs); k++) {
        const RdtDesc *d = descs[k];
        Rdt *r = new_rdt(d, d->cores);
        g_autoptr(GError) err = NULL;
        RdtCache *c = rdt_cache_new(r, d->caches.l3.size ? RDT_L3 : RDT_L2,
                                    0, &err);

        CU_ASSERT_PTR_NOT_NULL_FATAL(c);
        for (unsigned i = 0; i < 200000; i++) {
            unsigned cpu = g_rand_int_range(rnd, 0, d->l2_cores);
            uint32_t msr = base[g_rand_int_range(rnd, 0, G_N_ELEMENTS(base))] +
                           g_rand_int_range(rnd, 0, 20);
            uint64_t v, before = 0, after = 0;
            bool readable = rdt_msr_read(r, cpu, msr, &before) == MSR_OK;
            MsrResult res;

            switch (g_rand_int_range(rnd, 0, 4)) {
            case 0: v = g_rand_int_range(rnd, 0, 256); break;
            case 1: v = 1ull << g_rand_int_range(rnd, 0, 64); break;
            case 2: v = (uint64_t)g_rand_int_range(rnd, 0, 20) << 32 |
                        g_rand_int_range(rnd, 0, 300); break;
            default: v = (1ull << g_rand_int_range(rnd, 1, 20)) - 1; break;
            }
            res = rdt_msr_write(r, cpu, msr, v);
            if (res == MSR_OK) {
                ok++;
                CU_ASSERT_EQUAL(rdt_msr_read(r, cpu, msr, &after),
                                MSR_OK);
                CU_ASSERT_EQUAL(after, v);
            } else if (res == MSR_GP) {
                gps++;
                if (readable) {
                    rdt_msr_read(r, cpu, msr, &after);
                    CU_ASSERT_EQUAL(after, before);
                }
            }
            if (i % 8 == 0) {
                MemReq q = {
                    .addr = (uint64_t)g_rand_int(rnd) << 6, .size = LINE,
                    .kind = g_rand_int_range(rnd, 0, 3), .src = cpu,
                    .label = rdt_label_for(r, cpu),
                };
                MemResult mr = { 0 };

                rdt_cache_access(c, &q, &mr, NULL, NULL);
                CU_ASSERT_EQUAL(mr.lines, 1);
            }
        }
        CU_ASSERT_PTR_NULL(rdt_post_load(r));
        rdt_cache_free(c);
        rdt_free(r);
    }
    printf("\n    %" G_GUINT64_FORMAT " writes accepted, %" G_GUINT64_FORMAT
           " #GP\n", ok, gps);
    CU_ASSERT_TRUE(ok > 1000 && gps > 1000);
    g_rand_free(rnd);
}

/* ---- golden workloads (hw/memsys/tests/workload.h) ----------------------- */

/*
 * The workload over the RDT shared side with CAT, MBA and monitoring
 * programmed through the MSRs, then MBM and occupancy of every RMID it
 * used.  The server: CLOSIDs 1 and 2 with L3 CBMs 0x7 and 0x7f8, MBA
 * delays 50 and 90 % of a 64 GB/s peak, the DDR model behind memory, the
 * stride prefetcher and the store buffer; Goldmont: its two shared L2s
 * with CBMs 0x0f and 0xf0, no DDR.
 */
static uint64_t golden_q35(bool server)
{
    /* (CLOSID, RMID); Goldmont does not monitor: RMID 0 */
    static const MemLabel labels[2][4] = {
        { { 0, 0 }, { 1, 0 }, { 2, 0 }, { 1, 0 } },
        { { 0, 0 }, { 1, 1 }, { 2, 2 }, { 1, 3 } },
    };
    Rdt *r = new_rdt(server ? spr : gmt, 4);
    RdtMemsysConfig cfg = { .mem_bytes_per_s = server ? MEM_B : 0 };
    g_autoptr(GError) err = NULL;
    DdrQos *ddr = NULL;
    MemsysTiming t;
    Workload w;
    Machine mc;
    uint64_t h;

    memsys_timing_default(&t);
    if (server) {
        DdrConfig dc;

        ddr_config_default(&dc);
        ddr = ddr_qos_new(&dc, &err);
        CU_ASSERT_PTR_NOT_NULL_FATAL(ddr);
        t.prefetch_lines = 16;
        t.prefetch_stride = 2048;
        t.store_lines = 8;
        CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 1, 0x7), MSR_OK);
        CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L3_QOS_MASK_0 + 2, 0x7f8), MSR_OK);
        CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_EXT_BW_THRTL_0 + 1, 50),
                        MSR_OK);
        CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_EXT_BW_THRTL_0 + 2, 90),
                        MSR_OK);
    } else {
        CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_MASK_0 + 1, 0x0f), MSR_OK);
        CU_ASSERT_EQUAL(wr(r, 0, MSR_IA32_L2_QOS_MASK_0 + 2, 0xf0), MSR_OK);
    }
    machine_init_ddr(&mc, r, 4, &cfg, ddr, &t);
    w = (Workload){ .m = mc.m, .cpu = mc.cpu, .n_cpu = 4, .labels = labels[server],
                    .n_labels = 4, .base = 1 * GiB,
                    .bytes = server ? 64 * MiB : 4 * MiB, .t_ps = 1000000 };
    h = workload_run(&w, 300000, 54321, 0xcbf29ce484222325ull);
    for (uint32_t rmid = 0; rmid < 4 && server; rmid++) {
        h = workload_fold(h, rdt_memsys_bytes(mc.rm, RDT_EVT_MBM_TOTAL, rmid));
        h = workload_fold(h, rdt_memsys_bytes(mc.rm, RDT_EVT_MBM_LOCAL, rmid));
        h = workload_fold(h, rdt_memsys_bytes(mc.rm, RDT_EVT_L3_OCCUPANCY, rmid));
    }
    for (unsigned i = 0; i < rdt_memsys_n_caches(mc.rm); i++) {
        h = workload_fold(h, pcache_checksum(rdt_cache_pcache(
                                 rdt_memsys_cache(mc.rm, i))));
    }
    machine_fini(&mc);
    ddr_qos_free(ddr);
    rdt_free(r);
    return h;
}

/*
 * Every modeled figure of the two parts is the one the model gave when
 * the hashes were recorded (1e0b73d's model, 2026-12-06): a change that
 * moves one fails here (workload.h).  Re-recorded when the tag store's LRU
 * became a recency order (setassoc.h): the cache contents fold its state
 * words; main's stamps converted to that layout gave these.
 */
static void test_golden(void)
{
    static const uint64_t want[2] = { 0x75c56cf08d5aac60ull,
                                      0xd08d9aa8890b7c96ull };

    for (unsigned server = 0; server < 2; server++) {
        CU_ASSERT(workload_expect("golden_q35", server, golden_q35(server),
                                  want[server]));
    }
}

static const CunitTest tests[] = {
    { "cpuid_server", test_cpuid_server },
    { "cpuid_goldmont", test_cpuid_goldmont },
    { "msr_gp", test_msr_gp },
    { "msr_scope", test_msr_scope },
    { "cat_l3", test_cat_l3 },
    { "flush", test_flush },
    { "cdp_l3", test_cdp_l3 },
    { "cdp_l2", test_cdp_l2 },
    { "l2_shared", test_l2_shared },
    { "l2_cat", test_l2_cat },
    { "pseudo_lock", test_pseudo_lock },
    { "mba", test_mba },
    { "mba_sc", test_mba_sc },
    { "mbm", test_mbm },
    { "ddr", test_ddr },
    { "qm_ctr_errors", test_qm_ctr_errors },
    { "reset_migrate", test_reset_migrate },
    { "linux_mount", test_linux_mount },
    { "desc_check", test_desc_check },
    { "msr_fuzz", test_msr_fuzz },
    { "golden", test_golden },
};

int main(void)
{
    return CUNIT_RUN("rdt", tests);
}
