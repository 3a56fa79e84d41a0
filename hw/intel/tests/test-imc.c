/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Unit tests for the iMC uncore PMU and its discovery table
 * (hw/intel/imc-pmu.h, uncore-discovery.h; docs/x86-pmu-design.md §2 and
 * the imc tests of §3): the table parsed the way Linux 7.3's
 * uncore_discovery.c parses it, the box driven the way its generic MMIO
 * ops and spr_uncore_imc drive it, and the traffic of the RDT hierarchy
 * counted as the resctrl selftests' resctrl_val.c adds it up.  Expected
 * values come from the DDR configuration, the table's layout and
 * Linux's arithmetic, never from a run.
 */
#include "cunit-run.h"
#include <stdio.h>
#include <string.h>

#include "../imc-pmu.h"
#include "rdt-machine.h"

#define LINE 64
#define MiB (1024ull * 1024)
#define CTR_MASK ((1ull << 48) - 1)
#define US_PS 1000000ull
/* Linux's spr_uncore_imc_events (uncore_snbep.c): umask << 8 | event */
#define CAS_READ        0xcf05
#define CAS_WRITE       0xf005
#define CAS_ALL         0xff05
#define CLOCKTICKS      0x0001
#define CTL(i)          (imc_pmu_layout.ctl_offset + 4 * (i))
#define CTR(i)          (imc_pmu_layout.ctr_offset + 8 * (i))
#define FIXED_CTR       0x38
#define FIXED_CTL       0x54
#define STATUS          0x5c
/* resctrl_val.c SCALE: a CAS is 64 bytes, the selftest reports MiB */
#define SCALE           0.00006103515625

/* ---- imc/discovery --------------------------------------------------- */

/* Linux's struct uncore_global_discovery / uncore_unit_discovery fields */
#define G_STRIDE(t1)    ((t1) >> 8 & 0xff)
#define G_MAX_UNITS(t1) ((t1) >> 16 & 0x3ff)
#define ACCESS(t1)      ((t1) >> 62)
#define U_NUM_REGS(t1)  ((t1) & 0xff)
#define U_CTL_OFF(t1)   ((t1) >> 8 & 0xff)
#define U_WIDTH(t1)     ((t1) >> 16 & 0xff)
#define U_CTR_OFF(t1)   ((t1) >> 24 & 0xff)
#define U_STATUS_OFF(t1) ((t1) >> 32 & 0xff)
#define U_BOX_TYPE(t3)  ((t3) & 0xffff)
#define U_BOX_ID(t3)    ((t3) >> 16 & 0xffff)
/* uncore_discovery_invalid_unit() */
#define INVALID(t1, ctl, t3) (!(t1) || !(ctl) || (t1) == ~0ull || \
                              (ctl) == ~0ull || (t3) == ~0ull)

/* memcpy_fromio of a record: three u64 read as 4 + 2 + 1 + 1 bytes each,
 * so any access size the guest's copy uses must see the same bytes */
static void read_record(const UncoreDiscovery *d, uint64_t at, uint64_t r[3])
{
    for (unsigned w = 0; w < 3; w++) {
        uint64_t o = at + 8 * w;

        r[w] = uncore_discovery_read(d, o, 4) |
               uncore_discovery_read(d, o + 4, 2) << 32 |
               uncore_discovery_read(d, o + 6, 1) << 48 |
               uncore_discovery_read(d, o + 7, 1) << 56;
        CU_ASSERT_EQUAL(r[w], uncore_discovery_read(d, o, 8));
    }
}

/*
 * __parse_discovery_table and uncore_insert_box_info as Linux runs them
 * on the table @d serves: how many iMC units it accepts, each checked
 * against what the box model answers.
 */
static unsigned linux_parse(const UncoreDiscovery *d)
{
    uint64_t g[3], u[3];
    unsigned n = 0;

    read_record(d, 0, g);
    if (INVALID(g[0], g[1], g[2])) {
        return 0;
    }
    CU_ASSERT_EQUAL(g[1], d->unit_bar);
    /* ioremap((1 + max_units) * stride * 8) must stay within BAR0 */
    CU_ASSERT((1 + G_MAX_UNITS(g[0])) * G_STRIDE(g[0]) * 8 <=
              UNCORE_DISCOVERY_TABLE_SIZE);
    for (unsigned i = 0; i < G_MAX_UNITS(g[0]); i++) {
        read_record(d, (i + 1) * (G_STRIDE(g[0]) * 8), u);
        if (INVALID(u[0], u[1], u[2]) || ACCESS(u[0]) >= 3 ||
            !U_CTL_OFF(u[0]) || !U_CTR_OFF(u[0])) {
            continue;
        }
        CU_ASSERT_EQUAL(ACCESS(u[0]), UNCORE_ACCESS_MMIO);
        CU_ASSERT_EQUAL(U_BOX_TYPE(u[2]), UNCORE_BOX_TYPE_SPR_IMC);
        CU_ASSERT_EQUAL(U_BOX_ID(u[2]), i);
        CU_ASSERT_EQUAL(u[1], d->unit_bar + 0x4000ull * i);
        /* spr_uncore_imc's fixed counter and the generic ones */
        CU_ASSERT_EQUAL(U_NUM_REGS(u[0]), 4);
        CU_ASSERT_EQUAL(U_WIDTH(u[0]), 48);
        CU_ASSERT_EQUAL(U_CTL_OFF(u[0]), 0x40);
        CU_ASSERT_EQUAL(U_CTR_OFF(u[0]), 0x08);
        CU_ASSERT_EQUAL(U_STATUS_OFF(u[0]), 0x5c);
        n++;
    }
    return n;
}

static void test_discovery(void)
{
    static const unsigned units[] = { 2, 8 };
    uint32_t dw[3];

    /* uncore_discovery_pci: the PMON entry, BIR in bits 2:0 and nothing
     * else (any other bit aborts), the BAR at 0x10 + 4 BIR: BAR0 */
    uncore_discovery_dvsec(dw);
    CU_ASSERT_EQUAL(dw[0] & 0xffff, 0x8086);
    CU_ASSERT_EQUAL(dw[0] >> 20, 0x10);
    CU_ASSERT_EQUAL(dw[1] & 0xffff, 1);
    CU_ASSERT_EQUAL(dw[2] & ~7u, 0);
    CU_ASSERT_EQUAL(0x10 + (dw[2] & 7) * 4, 0x10);

    for (unsigned k = 0; k < G_N_ELEMENTS(units); k++) {
        UncoreDiscovery d = {
            .units = units[k], .box_type = UNCORE_BOX_TYPE_SPR_IMC,
            .layout = imc_pmu_layout, .unit_bar = 0xfe000000,
        };

        CU_ASSERT_EQUAL(linux_parse(&d), units[k]);
        /* the BAR moved: every ctl follows */
        d.unit_bar = 0x3800000000ull;
        CU_ASSERT_EQUAL(linux_parse(&d), units[k]);
        /* unassigned: the global record is invalid, no unit */
        d.unit_bar = 0;
        CU_ASSERT_EQUAL(linux_parse(&d), 0);
        /* nothing past the last unit */
        d.unit_bar = 0xfe000000;
        for (uint64_t o = 0x20 * (units[k] + 1); o < 0x1000; o += 8) {
            CU_ASSERT_EQUAL(uncore_discovery_word(&d, o), 0);
        }
    }
}

/* ---- imc/box --------------------------------------------------------- */

static ImcPmu *new_imc(unsigned boxes)
{
    g_autoptr(GError) err = NULL;
    DdrConfig c;
    ImcPmu *p;

    ddr_config_default(&c);
    c.channels = boxes;
    p = imc_pmu_new(&c, &err);
    if (!p) {
        printf("\n    imc_pmu_new: %s\n", err->message);
    }
    CU_ASSERT_PTR_NOT_NULL_FATAL(p);
    imc_pmu_reset(p, 0);
    return p;
}

static void wr(ImcPmu *p, unsigned box, uint64_t off, uint32_t v)
{
    CU_ASSERT_TRUE(imc_pmu_write(p, box, off, 4, v));
}

static uint64_t rd(ImcPmu *p, unsigned box, uint64_t off)
{
    uint64_t v = 0xdeadbeef;

    CU_ASSERT_TRUE(imc_pmu_read(p, box, off, off < 0x40 && off ? 8 : 4, &v));
    return v;
}

/* @n 64-byte @kind requests on DDR channel @ch (defaults: 256-byte
 * granules over 8 channels) */
static void traffic(ImcPmu *p, unsigned ch, uint8_t kind, unsigned n)
{
    for (unsigned i = 0; i < n; i++) {
        MemReq q = { .addr = (uint64_t)i * 256 * 8 + ch * 256, .size = LINE,
                     .kind = kind };

        imc_pmu_tap(p, &q);
    }
}

static void test_box(void)
{
    ImcPmu *p = new_imc(8);
    uint64_t v;
    g_autoptr(GError) err = NULL;
    DdrConfig one;

    ddr_config_default(&one);
    one.channels = 1;
    CU_ASSERT_PTR_NULL(imc_pmu_new(&one, &err));

    /* what spr_uncore_imc's perf events write (no enable bit) */
    wr(p, 3, CTL(0), CAS_READ);
    wr(p, 3, CTL(1), CAS_WRITE);
    wr(p, 3, CTL(2), CAS_ALL);
    wr(p, 3, CTL(3), CLOCKTICKS);
    wr(p, 3, FIXED_CTL, IMC_CTL_EN);
    traffic(p, 3, MEMREQ_READ, 10);
    traffic(p, 3, MEMREQ_WRITE, 5);
    traffic(p, 2, MEMREQ_READ, 7);      /* another channel's box */
    CU_ASSERT_EQUAL(rd(p, 3, CTR(0)), 10);
    CU_ASSERT_EQUAL(rd(p, 3, CTR(1)), 5);
    CU_ASSERT_EQUAL(rd(p, 3, CTR(2)), 15);
    /* DCLK = 4800 MT/s / 2 over 1 us */
    imc_pmu_fold(p, 1 * US_PS);
    CU_ASSERT_EQUAL(rd(p, 3, CTR(3)), 2400);
    CU_ASSERT_EQUAL(rd(p, 3, FIXED_CTR), 2400);
    CU_ASSERT_EQUAL(rd(p, 2, CTR(0)), 0);       /* no event selected */

    /* FRZ: nothing counts; cleared: counting again */
    wr(p, 3, 0, IMC_BOX_FRZ);
    CU_ASSERT_EQUAL(rd(p, 3, 0), IMC_BOX_FRZ);
    traffic(p, 3, MEMREQ_READ, 4);
    imc_pmu_fold(p, 2 * US_PS);
    CU_ASSERT_EQUAL(rd(p, 3, CTR(0)), 10);
    CU_ASSERT_EQUAL(rd(p, 3, FIXED_CTR), 2400);
    wr(p, 3, 0, 0);
    traffic(p, 3, MEMREQ_READ, 4);
    imc_pmu_fold(p, 3 * US_PS);
    CU_ASSERT_EQUAL(rd(p, 3, CTR(0)), 14);
    CU_ASSERT_EQUAL(rd(p, 3, FIXED_CTR), 4800);

    /* 32-bit halves of a counter */
    CU_ASSERT_TRUE(imc_pmu_read(p, 3, CTR(0), 4, &v));
    CU_ASSERT_EQUAL(v, 14);
    CU_ASSERT_TRUE(imc_pmu_read(p, 3, CTR(0) + 4, 4, &v));
    CU_ASSERT_EQUAL(v, 0);

    /* init_box's GENERIC_PMON_BOX_CTL_INT: controls and counters 0 */
    wr(p, 3, 0, IMC_BOX_RST_CTRL | IMC_BOX_RST_CTRS);
    CU_ASSERT_EQUAL(rd(p, 3, 0), 0);
    for (unsigned i = 0; i < IMC_PMU_COUNTERS; i++) {
        CU_ASSERT_EQUAL(rd(p, 3, CTL(i)), 0);
        CU_ASSERT_EQUAL(rd(p, 3, CTR(i)), 0);
    }
    CU_ASSERT_EQUAL(rd(p, 3, FIXED_CTL), 0);
    CU_ASSERT_EQUAL(rd(p, 3, FIXED_CTR), 0);
    traffic(p, 3, MEMREQ_READ, 4);
    CU_ASSERT_EQUAL(rd(p, 3, CTR(0)), 0);

    /* 48-bit wrap into status, write 1 to clear */
    wr(p, 5, CTL(1), CLOCKTICKS);
    wr(p, 5, FIXED_CTL, IMC_CTL_EN);
    imc_pmu_reset(p, 0);
    wr(p, 5, CTL(1), CLOCKTICKS);
    wr(p, 5, FIXED_CTL, IMC_CTL_EN);
    /* 2^48 + 5 ticks at 2400 MHz: (2^48 + 5) / 2400 us, rounded up */
    imc_pmu_fold(p, (((unsigned __int128)1 << 48) + 5) * US_PS / 2400 + 1);
    CU_ASSERT_EQUAL(rd(p, 5, CTR(1)), 5);
    CU_ASSERT_EQUAL(rd(p, 5, FIXED_CTR), 5);
    CU_ASSERT_EQUAL(rd(p, 5, STATUS), (1u << 1) | IMC_STATUS_FIXED);
    wr(p, 5, STATUS, 1u << 1);
    CU_ASSERT_EQUAL(rd(p, 5, STATUS), IMC_STATUS_FIXED);

    /* guest mistakes: no register, a counter written, reserved bits */
    CU_ASSERT_FALSE(imc_pmu_read(p, 0, 0x30, 8, &v));
    CU_ASSERT_FALSE(imc_pmu_read(p, 0, CTL(0), 2, &v));
    CU_ASSERT_FALSE(imc_pmu_read(p, 8, CTR(0), 8, &v));
    CU_ASSERT_FALSE(imc_pmu_write(p, 0, CTR(0), 8, 1));
    CU_ASSERT_FALSE(imc_pmu_write(p, 0, 0, 4, 1u << 4));
    CU_ASSERT_EQUAL(rd(p, 0, 0), 0);

    /* migration: what no write leaves is refused */
    {
        uint32_t len;
        uint64_t *st = imc_pmu_state(p, &len);

        CU_ASSERT_EQUAL(len, 8 * 12 + 1);
        CU_ASSERT_PTR_NULL(imc_pmu_post_load(p));
        st[5 * 12 + 7] = 1ull << 48;            /* box 5, counter 0 */
        g_autofree char *why = imc_pmu_post_load(p);
        CU_ASSERT_PTR_NOT_NULL(why);
    }
    imc_pmu_free(p);
}

/* ---- imc/traffic ----------------------------------------------------- */

/* the RDT machine with the iMC's 8 boxes on its memory path */
static void machine_init(Machine *mc, ImcPmu **imc)
{
    *imc = new_imc(8);
    machine_init_tap(mc, imc_pmu_tap, *imc);
}

/* vCPU 0 (RMID 0) accesses each line of [base, base + size) once. */
static void stream(Machine *mc, uint8_t kind, uint64_t base, uint64_t size)
{
    MemsysOutcome out;

    for (uint64_t a = base; a < base + size; a += LINE) {
        MemReq q = {
            .addr = a, .size = LINE, .kind = kind, .src = 0,
            .label = rdt_label_for(mc->rdt, 0),
        };

        memsys_cpu_access(mc->m, mc->cpu, &q, &out);
    }
}

/* Σ over boxes of counter @i, and each box's share in @per_box */
static uint64_t sum(ImcPmu *p, unsigned i, uint64_t *per_box)
{
    uint64_t s = 0;

    for (unsigned b = 0; b < imc_pmu_boxes(p); b++) {
        per_box[b] = rd(p, b, CTR(i));
        s += per_box[b];
    }
    return s;
}

/*
 * The MBM selftest's comparison through the hierarchy with the DDR
 * configuration's 8 channels: 64 MiB read by the vCPU (twice the L3, so
 * every line misses) is Σ cas_count_read x SCALE = 64 MiB, as much as MBM
 * counted, an eighth in each box; 64 MiB written and then pushed out by
 * 64 MiB more reads: the written lines in cas_count_write; MBM counts
 * fills and write-backs alike, so reads + writes = MBM total; 1 MiB of
 * DMA reads counts in the iMC and not in MBM.
 */
static void test_traffic(void)
{
    const uint64_t lines = 64 * MiB / LINE;
    uint64_t per_box[8], rds, wrs, mbm;
    Machine mc;
    ImcPmu *imc;

    machine_init(&mc, &imc);
    for (unsigned b = 0; b < 8; b++) {
        wr(imc, b, CTL(0), CAS_READ);
        wr(imc, b, CTL(1), CAS_WRITE);
    }
    stream(&mc, MEMREQ_READ, 0, 64 * MiB);
    rds = sum(imc, 0, per_box);
    CU_ASSERT_EQUAL(rds * SCALE, 64.0);
    CU_ASSERT_EQUAL(rds * LINE,
                    rdt_memsys_bytes(mc.rm, RDT_EVT_MBM_TOTAL, 0));
    for (unsigned b = 0; b < 8; b++) {
        CU_ASSERT_EQUAL(per_box[b], lines / 8);
    }
    CU_ASSERT_EQUAL(sum(imc, 1, per_box), 0);

    stream(&mc, MEMREQ_WRITE, 1024 * MiB, 64 * MiB);
    stream(&mc, MEMREQ_READ, 2048 * MiB, 64 * MiB);
    rds = sum(imc, 0, per_box);
    wrs = sum(imc, 1, per_box);
    mbm = rdt_memsys_bytes(mc.rm, RDT_EVT_MBM_TOTAL, 0);
    CU_ASSERT_EQUAL(rds, 3 * lines);
    CU_ASSERT_EQUAL(wrs, lines);
    for (unsigned b = 0; b < 8; b++) {
        CU_ASSERT_EQUAL(per_box[b], lines / 8);
    }
    CU_ASSERT_EQUAL((rds + wrs) * LINE, mbm);

    {
        MemReq dma = { .addr = 4096 * MiB, .size = 1 * MiB,
                       .kind = MEMREQ_READ, .src = MEMREQ_SRC_DMA };

        memsys_dma_access(mc.m, &dma);
    }
    CU_ASSERT_EQUAL(sum(imc, 0, per_box), 3 * lines + MiB / LINE);
    CU_ASSERT_EQUAL(rdt_memsys_bytes(mc.rm, RDT_EVT_MBM_TOTAL, 0), mbm);
    machine_fini(&mc);
    imc_pmu_free(imc);
}

static const CunitTest tests[] = {
    { "discovery", test_discovery },
    { "box", test_box },
    { "traffic", test_traffic },
};

int main(void)
{
    return CUNIT_RUN("imc", tests);
}
