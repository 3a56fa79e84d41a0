/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The benchmarks' random addresses: xorshift64, cheap and reproducible. */
#ifndef MEMQOS_BENCH_RAND_H
#define MEMQOS_BENCH_RAND_H

#include <stdint.h>

#define BENCH_RAND_SEED 88172645463325252ull

static inline uint64_t bench_rand(uint64_t *x)
{
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    return *x;
}

#endif
