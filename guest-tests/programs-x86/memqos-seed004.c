/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Seed 004 (issue 10 §4, docs/rdt-model.md "Seed 004"): the access latency
 * of a 256 KiB region on the Goldmont model, read at random 32-byte
 * offsets, each load timed with RDTSC, ten runs.
 *
 *   memqos-seed004 [-c CPU] [-r RUNS] [-n LOADS] plain
 *       the region from the heap (with CAT: the caller's resctrl group)
 *   memqos-seed004 [...] colour MASK
 *       the region in 4 KiB pages whose L2 colour is a bit of MASK (hex):
 *       a stand-in for PALLOC's page colouring.  The colour of a page is
 *       physical address bits 12-15: the 1 MiB 16-way L2 of 64-byte lines
 *       has 1024 sets, indexed by bits 6-15, of which a page fixes 6-11;
 *       16 colours of 64 KiB of cache each.  The physical address of each
 *       page comes from /proc/self/pagemap (root only).
 *   memqos-seed004 [...] lock DEVICE
 *       the region is DEVICE (/dev/pseudo_lock/NAME) mapped
 *   memqos-seed004 [-c CPU] noise BYTES
 *       the noisy neighbour: reads and writes every line of BYTES, forever
 *   memqos-seed004 [-c CPU] calib BUFBYTES
 *       RDTSC against modeled time: the median of loads that hit the L1D
 *       and of loads of CLFLUSHed lines (memory), in TSC ticks
 *
 * The region is reached through a table of its pages (the same code for
 * every setup); the offsets are the same pseudo-random sequence in every
 * setup.  Every latency of every run is kept (16-bit ticks) and summarised
 * at the end, over all runs: one line
 *   setup=S loads=N mean=M load_mean=L slow=K min=A p5=B p25=C median=D
 *   p75=E p95=F max=G
 * where load_mean leaves out the K samples longer than SLOW_TICKS (1 us:
 * no single load takes that long in the model, an interrupt or a vCPU
 * switch in the middle of the sample does), then per run "run=I mean=M
 * median=D".  calib prints
 *   l1=TICKS mem=TICKS
 * The program pins itself to CPU (sched_setaffinity; default: where it
 * runs), as the pseudo-locked region's mmap requires a CPU of its domain.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#define LINE 64
#define PAGE 4096
#define REGION (256 * 1024)
#define PAGES (REGION / PAGE)
#define STRIDE 32
#define COLOURS 16
#define SLOW_TICKS 1000

static void die(const char *what)
{
    fprintf(stderr, "memqos-seed004: %s: %s\n", what, strerror(errno));
    exit(1);
}

static inline uint64_t rdtsc_ordered(void)
{
    uint32_t lo, hi;

    /* as Linux's rdtsc_ordered(): no load passes it either way */
    __asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
    return (uint64_t)hi << 32 | lo;
}

static uint32_t xorshift(uint32_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 17;
    *s ^= *s << 5;
    return *s;
}

/* Physical address of the page at @va (present: it was written). */
static uint64_t phys(int pagemap, const void *va)
{
    uint64_t e;

    if (pread(pagemap, &e, sizeof(e), (uintptr_t)va / PAGE * sizeof(e)) != sizeof(e)) {
        die("/proc/self/pagemap");
    }
    if (!(e >> 63) || !(e & ((1ull << 55) - 1))) {
        errno = EPERM;
        die("/proc/self/pagemap gives no PFN (not root?)");
    }
    return (e & ((1ull << 55) - 1)) * PAGE;
}

/*
 * PAGES pages of the colours in @mask, from a pool of fresh pages: each
 * colour is 1/COLOURS of physical pages, so the pool holds enough of them
 * many times over.  Pages of other colours stay mapped and unused.
 */
static void colour_pages(char **page, unsigned mask)
{
    size_t pool = 64 * REGION;
    char *p = mmap(NULL, pool, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    int pagemap = open("/proc/self/pagemap", O_RDONLY);
    unsigned n = 0;

    if (p == MAP_FAILED || pagemap < 0) {
        die("colour pool");
    }
    for (size_t off = 0; off < pool && n < PAGES; off += PAGE) {
        p[off] = 1;                     /* fault it in */
        if (mask >> (phys(pagemap, p + off) / PAGE % COLOURS) & 1) {
            page[n++] = p + off;
        }
    }
    close(pagemap);
    if (n < PAGES) {
        errno = ENOMEM;
        die("not enough pages of the colours");
    }
}

static int cmp16(const void *a, const void *b)
{
    return *(const uint16_t *)a - *(const uint16_t *)b;
}

/* The mean of the samples up to @max; *@left the number of others. */
static double mean16(const uint16_t *v, size_t n, unsigned max, size_t *left)
{
    double s = 0;

    *left = 0;
    for (size_t i = 0; i < n; i++) {
        if (v[i] > max) {
            ++*left;
        } else {
            s += v[i];
        }
    }
    return n > *left ? s / (n - *left) : 0;
}

/* The @q-th percentile of sorted @v. */
static unsigned pct(const uint16_t *v, size_t n, unsigned q)
{
    return v[(n - 1) * q / 100];
}

static void noise(size_t bytes)
{
    volatile char *b = malloc(bytes);

    if (!b) {
        die("noise buffer");
    }
    for (;;) {
        for (size_t i = 0; i < bytes; i += LINE) {
            b[i]++;
        }
    }
}

static unsigned median_ticks(uint16_t *v, size_t n)
{
    qsort(v, n, sizeof(*v), cmp16);
    return pct(v, n, 50);
}

/*
 * L1D hits (one line again and again), then loads of CLFLUSHed lines, 65
 * lines apart (mod the buffer) so that no stream prefetcher follows.
 */
static void calib(size_t bytes)
{
    enum { N = 4096 };
    static uint16_t l1[N], mem[N];
    volatile char *b = aligned_alloc(LINE, bytes);

    if (!b || bytes / LINE < N) {
        errno = EINVAL;
        die("calib buffer (at least 4096 lines)");
    }
    memset((char *)b, 1, bytes);
    for (unsigned i = 0; i < N; i++) {
        uint64_t t0 = rdtsc_ordered();

        (void)b[0];
        l1[i] = rdtsc_ordered() - t0;
    }
    for (unsigned i = 0; i < N; i++) {
        __asm__ volatile("clflush %0" : : "m"(b[i * LINE]));
    }
    __asm__ volatile("mfence" : : : "memory");
    for (unsigned i = 0; i < N; i++) {
        uint64_t t0 = rdtsc_ordered();

        (void)b[(i * 65 % N) * LINE];
        mem[i] = rdtsc_ordered() - t0;
    }
    printf("l1=%u mem=%u\n", median_ticks(l1, N), median_ticks(mem, N));
}

int main(int argc, char **argv)
{
    unsigned runs = 10, loads = REGION / STRIDE;
    char *page[PAGES], *region = NULL;
    const char *setup;
    uint16_t *lat;
    size_t total;
    int c, cpu = -1;

    while ((c = getopt(argc, argv, "c:r:n:")) != -1) {
        switch (c) {
        case 'c': cpu = atoi(optarg); break;
        case 'r': runs = atoi(optarg); break;
        case 'n': loads = atoi(optarg); break;
        default: goto usage;
        }
    }
    if (optind >= argc || !runs || !loads) {
        goto usage;
    }
    setup = argv[optind];
    if (cpu >= 0) {
        cpu_set_t set;

        CPU_ZERO(&set);
        CPU_SET(cpu, &set);
        if (sched_setaffinity(0, sizeof(set), &set)) {
            die("sched_setaffinity");
        }
    }
    if (!strcmp(setup, "noise") && optind + 1 < argc) {
        noise(strtoull(argv[optind + 1], NULL, 0));
    } else if (!strcmp(setup, "calib") && optind + 1 < argc) {
        calib(strtoull(argv[optind + 1], NULL, 0));
        return 0;
    } else if (!strcmp(setup, "plain")) {
        region = aligned_alloc(PAGE, REGION);
        if (!region) {
            die("region");
        }
    } else if (!strcmp(setup, "colour") && optind + 1 < argc) {
        colour_pages(page, strtoul(argv[optind + 1], NULL, 16));
    } else if (!strcmp(setup, "lock") && optind + 1 < argc) {
        int fd = open(argv[optind + 1], O_RDWR);

        region = fd < 0 ? MAP_FAILED : mmap(NULL, REGION, PROT_READ | PROT_WRITE,
                                            MAP_SHARED, fd, 0);
        if (region == MAP_FAILED) {
            die(argv[optind + 1]);
        }
    } else {
        goto usage;
    }
    for (unsigned i = 0; region && i < PAGES; i++) {
        page[i] = region + i * PAGE;
    }
    /* the heap and coloured regions are written once, as an application
     * fills its data; the pseudo-locked one the kernel has loaded */
    for (unsigned i = 0; strcmp(setup, "lock") && i < PAGES; i++) {
        memset(page[i], i, PAGE);
    }
    total = (size_t)runs * loads;
    lat = malloc(total * sizeof(*lat));
    if (!lat) {
        die("latencies");
    }
    for (unsigned r = 0; r < runs; r++) {
        uint32_t seed = 2463534242u + r;
        uint16_t *l = lat + (size_t)r * loads;

        for (unsigned i = 0; i < loads; i++) {
            uint32_t off = xorshift(&seed) % (REGION / STRIDE) * STRIDE;
            volatile const char *p = page[off / PAGE] + off % PAGE;
            uint64_t t0 = rdtsc_ordered(), d;

            (void)*p;
            d = rdtsc_ordered() - t0;
            l[i] = d > UINT16_MAX ? UINT16_MAX : d;
        }
    }
    for (unsigned r = 0; r < runs; r++) {
        uint16_t *l = lat + (size_t)r * loads;
        size_t slow;
        double m = mean16(l, loads, UINT16_MAX, &slow);

        printf("run=%u mean=%.2f median=%u\n", r, m, median_ticks(l, loads));
    }
    {
        size_t none, slow;
        double m = mean16(lat, total, UINT16_MAX, &none);
        double lm = mean16(lat, total, SLOW_TICKS, &slow);

        qsort(lat, total, sizeof(*lat), cmp16);
        printf("setup=%s loads=%zu mean=%.3f load_mean=%.3f slow=%zu min=%u p5=%u p25=%u "
               "median=%u p75=%u p95=%u max=%u\n",
               setup, total, m, lm, slow, lat[0], pct(lat, total, 5), pct(lat, total, 25),
               pct(lat, total, 50), pct(lat, total, 75), pct(lat, total, 95), lat[total - 1]);
    }
    return 0;
usage:
    fprintf(stderr, "usage: memqos-seed004 [-c CPU] [-r RUNS] [-n LOADS] "
            "plain | colour MASK | lock DEVICE | noise BYTES | calib BYTES\n");
    return 2;
}
