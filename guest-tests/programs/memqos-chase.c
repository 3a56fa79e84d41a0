// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memqos-chase: load-to-use latency of a working set, by a dependent-load
 * pointer chase (each load's address is the value of the previous load).
 *
 *   memqos-chase --size BYTES [--colors N] [--laps N | --loads N] [--samples N]
 *                [--loop-seconds S] [--evict BYTES] [--resctrl-dir DIR]
 *                [--sync FILE [--phases N]] [--cpu N]
 *
 * Prints one line: size=BYTES colors=N pages=N laps=N loads=N
 * ns_per_load=BEST samples=NS,NS,... [occupancy=BYTES]  (ns_per_load is the
 * smallest sample; occupancy, with --resctrl-dir, is the group's
 * llc_occupancy read at the end, before the exit frees the pages).
 *
 * Page colouring (--colors N, N > 1; needs root for /proc/self/pagemap):
 * a physically indexed cache of S sets and 64-byte lines maps a 4 KiB page
 * onto 64 consecutive sets, so the page's physical frame number modulo
 * N = S * 64 / 4096 (its colour) says which sets it covers.  The chase keeps
 * exactly size / (4096 * N) pages of every colour, so every set of that
 * level, and of every smaller level (whose colour count divides N), gets the
 * same number of lines.  A cyclic chase under LRU is then all-hit when that
 * number is at most the level's ways and all-miss when it is more: the
 * measured latency is one level's, not a blend.  Uncoloured, the random
 * frames give Poisson-distributed set loads, and a working set of 3/4 of a
 * 16-way L3 through 8 allowed ways would measure about 85 % misses instead
 * of all (docs/timing-design.md §4).
 *
 * The lines are chained in one random cycle (fixed seed: every run chases
 * the same order over the same virtual layout), one lap runs untimed to
 * fill the caches, then each sample times LAPS laps of a loop of 64
 * dependent loads with CLOCK_MONOTONIC (modeled time under timing=on).
 * --loop-seconds keeps taking samples until that much time has passed
 * (a background chase while another program runs).
 *
 * --evict BYTES reads that much other memory (kept until the end) after the
 * pages are chosen: no line of the working set is left in any cache from
 * before, e.g. from an earlier program that had the same physical pages.
 * That matters because a hit never changes a line's owner and is found in
 * any way: a stale line of the default group would hit outside the
 * group's L3 mask and not count in its llc_occupancy.  4 x the L3 leaves
 * every set of every level with lines of the evict buffer only.
 *
 * --loads N times N dependent loads per sample (a multiple of 64) instead of
 * whole laps: the chase goes on where the last sample stopped, so a working
 * set far larger than a cache costs no more modeled time per sample.
 *
 * --sync FILE [--phases N]: a host-driven experiment (issue 8's seed-000
 * scenario).  After the untimed lap, N times: print "MEMQOS-DATA
 * chase-sync phase=K" on /dev/console and wait until the number FILE
 * holds (a resctrl monitor, e.g. the load group's mbm_total_bytes)
 * changes, which it does once the host has started the background load;
 * take the samples; print "MEMQOS-DATA chase-phase phase=K ..." with them
 * on the console; wait until FILE stops changing (the host stopped the
 * load).  So the warm-up runs unloaded and every phase measures exactly
 * under the load the host set up for it.
 *
 * --resctrl-dir joins that resctrl group after the pages are chosen and
 * before the chain is written: the pool pages not kept (and the kernel's
 * work of mapping them) never count for the group, so its llc_occupancy
 * is the working set.
 */
#include "memqos-prog.h"   /* first: it defines _GNU_SOURCE */
#include <fcntl.h>
#include <getopt.h>
#include <stdbool.h>

#define PAGEMAP_PRESENT (1ull << 63)
#define PAGEMAP_PFN ((1ull << 55) - 1)

/*
 * Map pages until each of COLORS colours has PER pages; *PAGES gets the
 * kept pages' addresses in colour-balanced order of discovery.  Pages not
 * kept stay mapped (never touched), so the kernel cannot hand them back.
 */
static void pick_pages(char **pages, uint64_t per, unsigned colors, uint64_t size, long psize)
{
    uint64_t need = per * colors, kept = 0, pooled = 0;
    uint64_t limit = 4 * need + (16 << 20) / psize;
    uint64_t *count = calloc(colors, sizeof(*count));
    int fd = colors > 1 ? open("/proc/self/pagemap", O_RDONLY) : -1;

    if (!count) {
        prog_die("out of memory");
    }
    if (colors > 1 && fd < 0) {
        prog_die("/proc/self/pagemap: %s (--colors needs CONFIG_PROC_PAGE_MONITOR)",
                 strerror(errno));
    }
    while (kept < need) {
        uint64_t n = need - kept + need / 8 + colors;
        if (pooled + n > limit) {
            prog_die("%" PRIu64 " pages mapped and still short of %" PRIu64 " pages of some of "
                     "the %u colours for --size %" PRIu64, pooled, need - kept, colors, size);
        }
        /* MAP_POPULATE: the kernel faults the pages in (zeroing them with
         * DC ZVA), this program touches none of them before it chooses. */
        char *p = mmap(NULL, n * psize, PROT_READ | PROT_WRITE,
                       MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
        if (p == MAP_FAILED) {
            prog_die("mmap of %" PRIu64 " pages: %s", n, strerror(errno));
        }
        pooled += n;
        uint64_t *pm = NULL;
        if (fd >= 0) {
            pm = malloc(n * sizeof(*pm));
            if (!pm || pread(fd, pm, n * sizeof(*pm), (uintptr_t)p / psize * sizeof(*pm)) !=
                (ssize_t)(n * sizeof(*pm))) {
                prog_die("reading /proc/self/pagemap: %s", strerror(errno));
            }
        }
        for (uint64_t i = 0; i < n && kept < need; i++) {
            unsigned c = 0;
            if (pm) {
                if (!(pm[i] & PAGEMAP_PRESENT) || !(pm[i] & PAGEMAP_PFN)) {
                    prog_die("/proc/self/pagemap gives no frame number (not root?)");
                }
                c = (pm[i] & PAGEMAP_PFN) % colors;
            }
            if (count[c] < per) {
                count[c]++;
                pages[kept++] = p + i * psize;
            }
        }
        free(pm);
    }
    if (fd >= 0) {
        close(fd);
    }
    free(count);
}

/* Line I of the working set (PAGES in order, PER_PAGE lines each). */
static uint64_t *line_at(char **pages, uint64_t per_page, uint64_t i)
{
    return (uint64_t *)(pages[i / per_page] + (i % per_page) * LINE);
}

/*
 * Chain every line of PAGES into one random cycle: the first 8 bytes of a
 * line hold the address of the next.  The shuffle is kept in the lines'
 * second word, so that building the chain touches nothing but the working
 * set (and PAGES): a resctrl group's occupancy is then the working set.
 * Returns the start of the cycle.
 */
static void *build_chain(char **pages, uint64_t npages, long psize)
{
    uint64_t per_page = psize / LINE, n = npages * per_page;

    for (uint64_t i = 0; i < n; i++) {
        line_at(pages, per_page, i)[1] = i;
    }
    for (uint64_t i = n - 1; i > 0; i--) {          /* Fisher-Yates */
        uint64_t *a = line_at(pages, per_page, i);
        uint64_t *b = line_at(pages, per_page, prog_rng() % (i + 1));
        uint64_t t = a[1];
        a[1] = b[1];
        b[1] = t;
    }
    for (uint64_t k = 0; k < n; k++) {
        uint64_t *from = line_at(pages, per_page, line_at(pages, per_page, k)[1]);
        uint64_t *to = line_at(pages, per_page, line_at(pages, per_page, (k + 1) % n)[1]);
        from[0] = (uintptr_t)to;
    }
    return line_at(pages, per_page, line_at(pages, per_page, 0)[1]);
}

typedef struct Samples {
    double best, mean;
    char list[4096];
} Samples;

/*
 * SAMPLES samples (or more, until SECONDS have passed) of ITERS x 64
 * dependent loads from P: the best and mean ns per load and the list.
 */
static void *take_samples(void *p, uint64_t iters, uint64_t samples, uint64_t seconds,
                          Samples *r)
{
    uint64_t end = prog_now_ns() + seconds * 1000000000u, s;
    size_t used = 0;
    double sum = 0;

    r->list[0] = 0;
    for (s = 0; s < samples || prog_now_ns() < end; s++) {
        uint64_t t0 = prog_now_ns();
        p = prog_chase(p, iters);
        double ns = (double)(prog_now_ns() - t0) / (iters * LOADS_PER_ITER);
        r->best = (s == 0 || ns < r->best) ? ns : r->best;
        sum += ns;
        if (used < sizeof(r->list) - 32) {
            used += snprintf(r->list + used, sizeof(r->list) - used, "%s%.3f", s ? "," : "", ns);
        }
    }
    r->mean = sum / s;
    return p;
}

/* A "MEMQOS-DATA ..." line on the console (stdout is the caller's). */
static void console(const char *fmt, ...)
{
    FILE *con = fopen("/dev/console", "w");
    va_list ap;

    if (!con) {
        prog_die("--sync: /dev/console: %s", strerror(errno));
    }
    va_start(ap, fmt);
    fprintf(con, "MEMQOS-DATA ");
    vfprintf(con, fmt, ap);
    fprintf(con, "\n");
    va_end(ap);
    fclose(con);
}

/* --sync: wait until FILE's number changes (CHANGE) or stops changing. */
static void wait_change(const char *file, bool change)
{
    int64_t v = prog_monitor(file), w;

    if (v < 0) {
        prog_die("--sync %s: cannot read it", file);
    }
    while ((w = prog_monitor(file)) == v ? change : !change) {
        v = w;
    }
}

static void usage(void)
{
    fprintf(stderr, "usage: memqos-chase --size BYTES [--colors N] [--laps N | --loads N]\n"
                    "                    [--samples N] [--loop-seconds S] [--evict BYTES]\n"
                    "                    [--resctrl-dir DIR] [--sync FILE [--phases N]] [--cpu N]\n");
    exit(2);
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"size", 1, 0, 's'}, {"colors", 1, 0, 'c'}, {"laps", 1, 0, 'l'},
        {"samples", 1, 0, 'n'}, {"loop-seconds", 1, 0, 't'}, {"evict", 1, 0, 'e'},
        {"resctrl-dir", 1, 0, 'r'}, {"cpu", 1, 0, 'p'}, {"loads", 1, 0, 'L'},
        {"sync", 1, 0, 'y'}, {"phases", 1, 0, 'P'}, {0, 0, 0, 0},
    };
    uint64_t size = 0, laps = 0, loads = 0, samples = 1, colors = 1, seconds = 0, phases = 1;
    uint64_t evict_bytes = 0;
    const char *group = NULL, *sync = NULL;
    int cpu = -1, opt;
    long psize = sysconf(_SC_PAGESIZE);

    prog_name = "memqos-chase";
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case 's': size = prog_size("--size", optarg); break;
        case 'c': colors = prog_count("--colors", optarg, 1); break;
        case 'l': laps = prog_count("--laps", optarg, 1); break;
        case 'n': samples = prog_count("--samples", optarg, 1); break;
        case 't': seconds = prog_count("--loop-seconds", optarg, 1); break;
        case 'e': evict_bytes = prog_size("--evict", optarg); break;
        case 'r': group = optarg; break;
        case 'p': cpu = prog_count("--cpu", optarg, 0); break;
        case 'L': loads = prog_count("--loads", optarg, LOADS_PER_ITER); break;
        case 'y': sync = optarg; break;
        case 'P': phases = prog_count("--phases", optarg, 1); break;
        default: usage();
        }
    }
    if (optind != argc || !size) {
        usage();
    }
    if (loads % LOADS_PER_ITER || (loads && laps)) {
        prog_die("--loads must be a multiple of %d, and not with --laps", LOADS_PER_ITER);
    }
    if (size % ((uint64_t)psize * colors)) {
        prog_die("--size %" PRIu64 " is not a multiple of %" PRIu64 " (%ld-byte pages x %" PRIu64
                 " colours)", size, psize * colors, psize, colors);
    }
    if (cpu >= 0) {
        prog_pin(cpu);
    }

    uint64_t npages = size / psize, lines = size / LINE;
    char **pages = malloc(npages * sizeof(*pages));
    if (!pages) {
        prog_die("out of memory");
    }
    pick_pages(pages, npages / colors, colors, size, psize);
    if (evict_bytes) {
        prog_evict(evict_bytes);
    }
    if (group) {
        prog_join(group);
    }
    void *p = build_chain(pages, npages, psize);
    free(pages);
    /* About 2^22 loads per sample unless told otherwise. */
    if (!laps && !loads) {
        laps = (((uint64_t)1 << 22) + lines - 1) / lines;
    }
    uint64_t iters = (loads ? loads : laps * lines) / LOADS_PER_ITER;

    p = prog_chase(p, lines / LOADS_PER_ITER);           /* the untimed lap */
    Samples r;
    for (uint64_t k = 0; k < phases; k++) {
        if (sync) {
            console("chase-sync phase=%" PRIu64, k);
            wait_change(sync, true);
        }
        p = take_samples(p, iters, samples, seconds, &r);
        if (sync) {
            console("chase-phase phase=%" PRIu64 " ns_per_load=%.3f mean=%.3f samples=%s", k,
                    r.best, r.mean, r.list);
            wait_change(sync, false);
        }
    }
    char occ[48] = "";
    if (group) {
        char path[4096];
        snprintf(path, sizeof(path), "%s/mon_data/mon_L3_00/llc_occupancy", group);
        int64_t v = prog_monitor(path);
        if (v < 0) {
            snprintf(occ, sizeof(occ), " occupancy=na");
        } else {
            snprintf(occ, sizeof(occ), " occupancy=%" PRId64, v);
        }
    }
    printf("size=%" PRIu64 " colors=%" PRIu64 " pages=%" PRIu64 " laps=%" PRIu64
           " loads=%" PRIu64 " ns_per_load=%.3f mean=%.3f samples=%s%s\n",
           size, colors, npages, laps, iters * LOADS_PER_ITER, r.best, r.mean, r.list, occ);
    return 0;
}
