// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memqos-mops-alias: do the lines a FEAT_MOPS copy writes reach the caches
 * when its source and destination pages share a main-TLB index?
 *
 *   memqos-mops-alias --size BYTES --evict BYTES --copy mops|loop
 *
 * Prints one line: size=BYTES copy=mops|loop ns_per_load=NS
 *
 * The source sits 16 GiB below the destination in virtual memory.  QEMU
 * indexes its main TLB by virtual page modulo its size, at most 2^22
 * entries (CPU_TLB_DYN_MAX_BITS with 4 KiB pages), so the two pages of
 * every copy step share an entry at any size the TLB is resized to, and
 * the step's second lookup pushes the first page's entry into the victim
 * TLB.  The access stream's report of the step (patch 0022) must then find
 * the destination there (patch 0020's victim-TLB lookup): without it, the
 * destination's lines never reach the modeled caches (the cause of a
 * run-to-run difference found in issue 7, docs/timing-design.md §2.5).
 *
 * The program writes a random cycle of dependent pointers (into the
 * destination) in the source, reads --evict BYTES of other memory so that
 * no line of either is cached, copies the source onto the destination
 * (--copy mops: CPYFP/CPYFM/CPYFE; --copy loop: 8-byte loads and stores,
 * the ordinary access path, for reference) and times one lap of the chase
 * over the destination, with no warm-up: the lap finds in the caches what
 * the copy put there.
 */
#include "memqos-prog.h"   /* first: it defines _GNU_SOURCE */
#include <getopt.h>
#include <stdbool.h>
#include <sys/auxv.h>

#define SRC_VA  0x1000000000ull         /* 64 GiB */
#define ALIAS   (1ull << 34)            /* 2^22 pages of 4 KiB */
#ifndef HWCAP2_MOPS
#define HWCAP2_MOPS (1ul << 43)
#endif

static uint64_t *map_at(uint64_t va, uint64_t size)
{
    void *p = mmap((void *)va, size, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE | MAP_FIXED_NOREPLACE, -1, 0);

    if (p != (void *)va) {
        prog_die("mmap of %" PRIu64 " bytes at 0x%" PRIx64 ": %s", size, va,
                 p == MAP_FAILED ? strerror(errno) : "placed elsewhere");
    }
    return p;
}

static void copy_mops(void *dst, const void *src, uint64_t n)
{
    __asm__ volatile(".arch_extension mops\n"
                     "cpyfp [%0]!, [%1]!, %2!\n"
                     "cpyfm [%0]!, [%1]!, %2!\n"
                     "cpyfe [%0]!, [%1]!, %2!\n"
                     : "+r"(dst), "+r"(src), "+r"(n) : : "cc", "memory");
}

/* volatile: the compiler must not turn the loop into memcpy, which a static
 * glibc may run with FEAT_MOPS. */
static void copy_loop(volatile uint64_t *dst, const volatile uint64_t *src, uint64_t n)
{
    for (uint64_t i = 0; i < n / sizeof(*dst); i++) {
        dst[i] = src[i];
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: memqos-mops-alias --size BYTES --evict BYTES --copy mops|loop\n");
    exit(2);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"size", 1, 0, 's'}, {"evict", 1, 0, 'e'}, {"copy", 1, 0, 'c'}, {0, 0, 0, 0},
    };
    uint64_t size = 0, evict_bytes = 0;
    const char *copy = NULL;
    int opt;

    prog_name = "memqos-mops-alias";
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case 's': size = prog_size("--size", optarg); break;
        case 'e': evict_bytes = prog_size("--evict", optarg); break;
        case 'c': copy = optarg; break;
        default: usage();
        }
    }
    if (optind != argc || !size || !evict_bytes || !copy) {
        usage();
    }
    bool mops = !strcmp(copy, "mops");
    if (!mops && strcmp(copy, "loop")) {
        prog_die("--copy '%s' is neither mops nor loop", copy);
    }
    if (size % 4096 || size > ALIAS) {
        prog_die("--size %" PRIu64 " is not a multiple of 4096 up to 16 GiB", size);
    }
    if (sysconf(_SC_PAGESIZE) != 4096) {
        prog_die("the aliasing needs 4 KiB pages, not %ld", sysconf(_SC_PAGESIZE));
    }
    if (mops && !(getauxval(AT_HWCAP2) & HWCAP2_MOPS)) {
        prog_die("the CPU has no FEAT_MOPS (HWCAP2_MOPS)");
    }

    uint64_t *src = map_at(SRC_VA, size), *dst = map_at(SRC_VA + ALIAS, size);
    uint64_t lines = size / LINE, words = LINE / sizeof(*src);
    uint64_t *next = malloc(lines * sizeof(*next));
    if (!next) {
        prog_die("out of memory");
    }
    /* Sattolo's shuffle: one cycle through every line. */
    for (uint64_t i = 0; i < lines; i++) {
        next[i] = i;
    }
    for (uint64_t i = lines - 1; i > 0; i--) {
        uint64_t j = prog_rng() % i, t = next[i];
        next[i] = next[j];
        next[j] = t;
    }
    for (uint64_t i = 0; i < lines; i++) {
        src[i * words] = (uintptr_t)(dst + next[i] * words);
    }
    free(next);
    prog_evict(evict_bytes);
    if (mops) {
        copy_mops(dst, src, size);
    } else {
        copy_loop(dst, src, size);
    }
    uint64_t t0 = prog_now_ns();
    prog_sink = (uintptr_t)prog_chase(dst, lines / LOADS_PER_ITER);
    printf("size=%" PRIu64 " copy=%s ns_per_load=%.3f\n", size, copy,
           (double)(prog_now_ns() - t0) / lines);
    return 0;
}
