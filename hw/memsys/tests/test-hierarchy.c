/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hierarchy of private caches (hierarchy.h) over a fake shared side:
 * no MPAM, no RDT, no DDR model, only MemsysPorts that record what reaches
 * them.  Each test names the stage it checks; switched off (a port that
 * answers nothing, a level that is skipped), the stage fails its test.
 */
#include "cunit-run.h"
#include <string.h>

#include "../hierarchy.h"

#define LINE            64
#define MAX_LINES       64

/* The fake shared side: an L3 holding the lines in @l3, memory counting. */
typedef struct Fake {
    uint64_t l3[MAX_LINES];     /* resident line addresses */
    unsigned n_l3;
    uint64_t mem_ps;            /* what a fill from memory reports */
    unsigned fills, l3_wbs, mem_reqs;
    uint64_t mem_bytes;
    MemReq last_mem, last_fill;
    uint64_t synced_to;
    unsigned evicted;           /* lines that left an L1 */
} Fake;

static Fake fake;

static bool in_l3(uint64_t addr)
{
    for (unsigned i = 0; i < fake.n_l3; i++) {
        if (fake.l3[i] == addr) {
            return true;
        }
    }
    return false;
}

static bool fake_l3_fill(const MemsysPorts *p, const MemReq *req,
                         uint64_t *mem_ps)
{
    fake.fills++;
    fake.last_fill = *req;
    if (in_l3(req->addr)) {
        return true;
    }
    *mem_ps = fake.mem_ps;
    return false;
}

static bool fake_l3_writeback(const MemsysPorts *p, const MemReq *req)
{
    if (in_l3(req->addr)) {
        fake.l3_wbs++;
        return true;
    }
    return false;
}

static void fake_l3_invalidate(const MemsysPorts *p, const MemReq *req)
{
}

static void fake_mem_access(const MemsysPorts *p, const MemReq *req)
{
    fake.mem_reqs++;
    fake.mem_bytes += req->size;
    fake.last_mem = *req;
}

static void fake_sync(const MemsysPorts *p, uint64_t t_ps)
{
    fake.synced_to = t_ps;
}

static void fake_evict(void *opaque, bool fetch, uint32_t slot, uint64_t line)
{
    fake.evicted++;
}

static const MemsysPorts fake_ports = {
    .l3_fill = fake_l3_fill,
    .l3_writeback = fake_l3_writeback,
    .l3_invalidate = fake_l3_invalidate,
    .mem_access = fake_mem_access,
    .sync = fake_sync,
};

/* L1D and L1I 1 KiB 2-way (8 sets), L2 4 KiB 4-way (16 sets). */
static const MemqosCacheTopo topo = {
    .l1d = { 1024, 2, LINE }, .l1i = { 1024, 2, LINE },
    .l2 = { 4096, 4, LINE }, .l3 = { 65536, 16, LINE },
};

typedef struct Rig {
    MemsysTiming t;
    Memsys *m;
    MemsysCpu *c;
} Rig;

static void rig_init(Rig *r, const MemsysPorts *ports)
{
    GError *err = NULL;

    memset(&fake, 0, sizeof(fake));
    memsys_timing_default(&r->t);
    r->m = memsys_new(&topo, &r->t, ports, &err);
    CU_ASSERT_PTR_NOT_NULL_FATAL(r->m);
    r->c = memsys_cpu_new(r->m, 0);
    memsys_cpu_set_l1_evict(r->c, fake_evict, NULL);
}

static void rig_free(Rig *r)
{
    memsys_cpu_free(r->c);
    memsys_free(r->m);
}

static MemsysOutcome cpu_access(Rig *r, uint64_t addr, uint8_t kind,
                            MemLabel label)
{
    MemReq req = { .addr = addr, .va = addr, .size = 8, .kind = kind,
                   .label = label };
    MemsysOutcome o;

    memsys_cpu_access(r->m, r->c, &req, &o);
    return o;
}

static MemsysOutcome read_at(Rig *r, uint64_t addr)
{
    return cpu_access(r, addr, MEMREQ_READ, (MemLabel){ 1, 0 });
}

/* Levels: memory, then L1; out of the L1 into the L2; the shared L3. */
static void test_levels(void)
{
    Rig r;
    uint64_t unit;
    MemsysOutcome o;

    rig_init(&r, &fake_ports);
    unit = memsys_unit_fs(&r.t);
    o = read_at(&r, 0x1000);
    CU_ASSERT_EQUAL(o.level, MEMSYS_MEM);
    CU_ASSERT_EQUAL(o.stall_fs, memsys_level_fs(&r.t, MEMSYS_MEM) - unit);
    CU_ASSERT_EQUAL(fake.fills, 1);
    CU_ASSERT_EQUAL(fake.last_fill.addr, 0x1000);
    CU_ASSERT_EQUAL(fake.last_fill.size, LINE);
    o = read_at(&r, 0x1008);
    CU_ASSERT_EQUAL(o.level, MEMSYS_L1);
    CU_ASSERT_EQUAL(fake.fills, 1);
    /* two more lines of the same L1D set (8 sets x 64 B) push it out */
    read_at(&r, 0x1000 + 8 * LINE);
    read_at(&r, 0x1000 + 16 * LINE);
    CU_ASSERT(fake.evicted >= 1);
    o = read_at(&r, 0x1000);
    CU_ASSERT_EQUAL(o.level, MEMSYS_L2);
    CU_ASSERT_EQUAL(o.stall_fs, memsys_level_fs(&r.t, MEMSYS_L2) - unit);
    /* a line the L3 holds */
    fake.l3[fake.n_l3++] = 0x80000;
    o = read_at(&r, 0x80000);
    CU_ASSERT_EQUAL(o.level, MEMSYS_L3);
    CU_ASSERT_EQUAL(o.stall_fs, memsys_level_fs(&r.t, MEMSYS_L3) - unit);
    rig_free(&r);
}

/*
 * What the memory side reports comes on top of timing-mem-ns without a
 * DDR model, and on top of the L3 latency with one.
 */
static void test_mem_latency(void)
{
    MemsysPorts with_ddr = fake_ports;
    uint64_t unit;
    MemsysOutcome o;
    Rig r;

    rig_init(&r, &fake_ports);
    unit = memsys_unit_fs(&r.t);
    fake.mem_ps = 5000;
    o = read_at(&r, 0x2000);
    CU_ASSERT_EQUAL(o.mem_ps, 5000);
    CU_ASSERT_EQUAL(o.stall_fs, memsys_level_fs(&r.t, MEMSYS_MEM) +
                                5000 * 1000 - unit);
    rig_free(&r);

    with_ddr.ddr = &with_ddr;
    rig_init(&r, &with_ddr);
    fake.mem_ps = 70000;
    o = read_at(&r, 0x2000);
    CU_ASSERT_EQUAL(o.stall_fs, memsys_level_fs(&r.t, MEMSYS_L3) +
                                70000 * 1000 - unit);
    rig_free(&r);
}

/*
 * Write-back: a dirty line leaving the private caches goes to the L3 if
 * it holds the line, else to memory, with its owner's label (the writer's,
 * not the label of the access that evicted it).
 */
static void test_write_back(void)
{
    Rig r;
    unsigned i;

    rig_init(&r, &fake_ports);
    cpu_access(&r, 0x3000, MEMREQ_WRITE, (MemLabel){ 7, 2 });
    /* 4-way L2 set of 16 sets x 64 B: five more lines of that set */
    for (i = 1; i <= 5; i++) {
        cpu_access(&r, 0x3000 + i * 16 * LINE, MEMREQ_READ, (MemLabel){ 3, 0 });
    }
    CU_ASSERT_EQUAL(fake.mem_reqs, 1);
    CU_ASSERT_EQUAL(fake.mem_bytes, LINE);
    CU_ASSERT_EQUAL(fake.last_mem.addr, 0x3000);
    CU_ASSERT_EQUAL(fake.last_mem.kind, MEMREQ_WRITE);
    CU_ASSERT_EQUAL(fake.last_mem.label.partid, 7);
    CU_ASSERT_EQUAL(fake.last_mem.label.pmg, 2);
    rig_free(&r);

    /* the same with the line in the L3: it takes the write-back */
    rig_init(&r, &fake_ports);
    fake.l3[fake.n_l3++] = 0x3000;
    cpu_access(&r, 0x3000, MEMREQ_WRITE, (MemLabel){ 7, 2 });
    for (i = 1; i <= 5; i++) {
        cpu_access(&r, 0x3000 + i * 16 * LINE, MEMREQ_READ, (MemLabel){ 3, 0 });
    }
    CU_ASSERT_EQUAL(fake.l3_wbs, 1);
    CU_ASSERT_EQUAL(fake.mem_reqs, 0);
    rig_free(&r);
}

/* DMA reaches memory only, never the private caches. */
static void test_dma(void)
{
    MemReq dma = { .addr = 0x4000, .size = 256, .kind = MEMREQ_WRITE,
                   .src = MEMREQ_SRC_DMA };
    Rig r;

    rig_init(&r, &fake_ports);
    read_at(&r, 0x4000);
    memsys_dma_access(r.m, &dma);
    CU_ASSERT_EQUAL(fake.mem_reqs, 1);
    CU_ASSERT_EQUAL(fake.mem_bytes, 256);
    CU_ASSERT_EQUAL(read_at(&r, 0x4000).level, MEMSYS_L1);
    rig_free(&r);
}

/* memsys_sync reaches the shared side's agents, and only when it has some. */
static void test_sync(void)
{
    MemsysPorts none = fake_ports;
    Rig r;

    rig_init(&r, &fake_ports);
    memsys_sync(r.m, 123456);
    CU_ASSERT_EQUAL(fake.synced_to, 123456);
    rig_free(&r);

    none.sync = NULL;
    rig_init(&r, &none);
    memsys_sync(r.m, 123456);
    CU_ASSERT_EQUAL(fake.synced_to, 0);
    rig_free(&r);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "levels", test_levels },
        { "mem_latency", test_mem_latency },
        { "write_back", test_write_back },
        { "dma", test_dma },
        { "sync", test_sync },
    };

    return CUNIT_RUN("hierarchy", tests);
}
