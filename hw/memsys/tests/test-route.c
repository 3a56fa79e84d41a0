/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Unit tests for the address map (which components see an address). */
#include "cunit-run.h"

#include "../route.h"

/* The aarch64 virt board's layout (hw/arm/virt.c memmap): RAM at 1 GiB. */
#define RAM_BASE    0x40000000ull
#define RAM_SIZE    0x40000000ull
#define UART_BASE   0x09000000ull
enum { L3 = 1 << 0, MEM = 1 << 1 };

static void test_dram_only(void)
{
    MemMap *m = mem_map_new();

    CU_ASSERT_TRUE(mem_map_add(m, RAM_BASE, RAM_SIZE, L3 | MEM, NULL));
    CU_ASSERT_EQUAL(mem_map_lookup(m, RAM_BASE), L3 | MEM);
    CU_ASSERT_EQUAL(mem_map_lookup(m, RAM_BASE + RAM_SIZE - 1), L3 | MEM);
    CU_ASSERT_EQUAL(mem_map_lookup(m, RAM_BASE - 1), 0);
    CU_ASSERT_EQUAL(mem_map_lookup(m, RAM_BASE + RAM_SIZE), 0);
    CU_ASSERT_EQUAL(mem_map_lookup(m, UART_BASE), 0);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0), 0);
    CU_ASSERT_EQUAL(mem_map_lookup(m, UINT64_MAX), 0);
    mem_map_free(m);
}

/* Overlapping ranges join their sets; the rest keeps its own. */
static void test_overlap(void)
{
    MemMap *m = mem_map_new();

    CU_ASSERT_TRUE(mem_map_add(m, 0x1000, 0x3000, 1, NULL));   /* 1000..3fff */
    CU_ASSERT_TRUE(mem_map_add(m, 0x2000, 0x3000, 2, NULL));   /* 2000..4fff */
    CU_ASSERT_TRUE(mem_map_add(m, 0x2800, 0x100, 4, NULL));    /* inside both */
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x0fff), 0);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x1000), 1);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x1fff), 1);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x2000), 3);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x2800), 7);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x28ff), 7);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x2900), 3);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x3fff), 3);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x4000), 2);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x4fff), 2);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x5000), 0);
    /* Adding the same range again changes nothing. */
    CU_ASSERT_TRUE(mem_map_add(m, 0x1000, 0x3000, 1, NULL));
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x1000), 1);
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x4000), 2);
    mem_map_free(m);
}

/* Ranges may reach the top of the address space, not wrap past it. */
static void test_edges(void)
{
    MemMap *m = mem_map_new();
    GError *err = NULL;

    CU_ASSERT_TRUE(mem_map_add(m, UINT64_MAX - 0xfff, 0x1000, 8, NULL));
    CU_ASSERT_EQUAL(mem_map_lookup(m, UINT64_MAX), 8);
    CU_ASSERT_EQUAL(mem_map_lookup(m, UINT64_MAX - 0x1000), 0);
    CU_ASSERT_TRUE(mem_map_add(m, 0, UINT64_MAX, 1, NULL));   /* all but the top byte */
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0), 1);
    CU_ASSERT_EQUAL(mem_map_lookup(m, UINT64_MAX - 1), 9);
    CU_ASSERT_EQUAL(mem_map_lookup(m, UINT64_MAX), 8);

    CU_ASSERT_FALSE(mem_map_add(m, 0x1000, 0, 2, &err));
    CU_ASSERT_PTR_NOT_NULL(err);
    g_clear_error(&err);
    CU_ASSERT_FALSE(mem_map_add(m, UINT64_MAX - 0xfff, 0x1001, 2, &err));
    CU_ASSERT_PTR_NOT_NULL(err);
    g_clear_error(&err);
    /* A failed add leaves the map as it was. */
    CU_ASSERT_EQUAL(mem_map_lookup(m, 0x1000), 1);
    CU_ASSERT_EQUAL(mem_map_lookup(m, UINT64_MAX), 8);
    mem_map_free(m);
}

/* Many random ranges: the map agrees with a per-range scan. */
static void test_random(void)
{
    enum { N = 200 };
    uint64_t base[N], size[N];
    MemMap *m = mem_map_new();
    GRand *r = g_rand_new_with_seed(7);

    for (int i = 0; i < N; i++) {
        base[i] = g_rand_int_range(r, 0, 1 << 20);
        size[i] = g_rand_int_range(r, 1, 1 << 16);
        CU_ASSERT_TRUE(mem_map_add(m, base[i], size[i], 1ull << (i % 64), NULL));
    }
    for (int k = 0; k < 20000; k++) {
        uint64_t a = g_rand_int_range(r, 0, (1 << 20) + (1 << 16));
        uint64_t want = 0;

        for (int i = 0; i < N; i++) {
            if (a >= base[i] && a - base[i] < size[i]) {
                want |= 1ull << (i % 64);
            }
        }
        CU_ASSERT_EQUAL_FATAL(mem_map_lookup(m, a), want);
    }
    g_rand_free(r);
    mem_map_free(m);
}

int main(void)
{
    static const CunitTest tests[] = {
        { "dram_only", test_dram_only },
        { "overlap", test_overlap },
        { "edges", test_edges },
        { "random", test_random },
    };

    return CUNIT_RUN("route", tests);
}
