// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mpam-acpi-check core: parse and check the ACPI MPAM table and its PPTT and
 * SRAT cross-references.  Field offsets are written out here from the
 * specifications (Arm DEN0065 "ACPI for MPAM" 2.0 layout; ACPI 6.5 PPTT and
 * SRAT); every read is bounds-checked through rd8/rd16/rd32/rd64.
 *
 * Kernel behaviour cited as "Linux 7.3 <file>: <function>" is what decides
 * the severity: error = Linux refuses the MSC or MPAM as a whole, warning =
 * accepted but a resctrl resource will be missing, note = everything else.
 */
#include "mac.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#define HDR_LEN         36
#define MSC_LEN         72      /* DEN0065 MSC node body, fixed part */
#define RES_LEN         24      /* resource node, fixed part */
#define DEP_LEN         8       /* functional dependency descriptor */
#define PPTT_PROC_LEN   20
#define PPTT_CACHE_V1   28      /* cache type structure with cache ID (PPTT rev 3) */
#define SRAT_HDR_LEN    48      /* header + 4 reserved-1 + 8 reserved */

/* Interrupt flags, DEN0065 §2.1.1 Table 5 */
#define IRQ_MODE_EDGE       (1u << 0)
#define IRQ_TYPE_MASK       (3u << 1)
#define IRQ_AFF_CONTAINER   (1u << 3)
#define IRQ_AFF_VALID       (1u << 4)
#define IRQ_FLAGS_RSVD      (~0x1fu)

/* PPTT processor flags / cache flags (ACPI 6.5 §5.2.30) */
#define PROC_ID_VALID       (1u << 1)
#define PROC_LEAF           (1u << 3)
#define CACHE_SIZE_VALID    (1u << 0)
#define CACHE_TYPE_VALID    (1u << 4)
#define CACHE_ID_VALID      (1u << 7)

#define SRC_HDR    "ACPI 6.5 §5.2.6 system description table header"
#define SRC_MPAMHD "Linux 7.3 drivers/acpi/arm64/mpam.c: acpi_mpam_parse, acpi_mpam_count_msc"
#define SRC_COUNT  "Linux 7.3 drivers/acpi/arm64/mpam.c: acpi_mpam_count_msc"
#define SRC_PARSE  "Linux 7.3 drivers/acpi/arm64/mpam.c: acpi_mpam_parse"
#define SRC_MSC    "DEN0065 §2.1 MSC node (Table 4)"
#define SRC_IFACE  "Linux 7.3 drivers/acpi/arm64/mpam.c: decode_interface_type; drivers/resctrl/mpam_devices.c: do_mpam_msc_drv_probe (PCC => -EINVAL)"
#define SRC_IRQ    "Linux 7.3 drivers/acpi/arm64/mpam.c: acpi_mpam_register_irq; DEN0065 §2.1.1 Table 5"
#define SRC_ERRIRQ "Linux 7.3 drivers/resctrl/mpam_devices.c: mpam_msc_setup_error_irq, mpam_register_irqs"
#define SRC_RES    "Linux 7.3 drivers/acpi/arm64/mpam.c: acpi_mpam_parse_resources; DEN0065 resource node"
#define SRC_RIS    "Linux 7.3 drivers/resctrl/mpam_devices.c: mpam_ris_create_locked (ris_idx > 16 -EINVAL, duplicate -EBUSY)"
#define SRC_CLOC   "Linux 7.3 drivers/acpi/arm64/mpam.c: acpi_mpam_parse_resource; drivers/acpi/pptt.c: find_acpi_cache_level_from_id; DEN0065 processor-cache locator"
#define SRC_MLOC   "Linux 7.3 drivers/acpi/arm64/mpam.c: acpi_mpam_parse_resource (pxm_to_node, NUMA_NO_NODE => node 0); DEN0065 memory locator"
#define SRC_LOC    "Linux 7.3 drivers/acpi/arm64/mpam.c: acpi_mpam_parse_resource (other locators become MPAM_CLASS_UNKNOWN); DEN0065 locator types"
#define SRC_MMIO   "Linux 7.3 drivers/resctrl/mpam_devices.c: __mpam_write_reg WARNs when reg + 4 > mmio_size - 1"
#define SRC_OVL    "Linux 7.3 drivers/resctrl/mpam_devices.c: devm_platform_get_and_ioremap_resource requests the region exclusively"
#define SRC_LINK   "Linux 7.3 drivers/acpi/arm64/mpam.c: parse_msc_pm_link; drivers/acpi/pptt.c: acpi_pptt_get_cpus_from_container"
#define SRC_NRDY   "Linux 7.3 drivers/resctrl/mpam_devices.c: mpam_msmon_read waits max_nrdy_usec (arm,not-ready-us) for NRDY"
#define SRC_PPTT   "ACPI 6.5 §5.2.30 PPTT; Linux 7.3 drivers/acpi/pptt.c"
#define SRC_SRAT   "ACPI 6.5 §5.2.16 SRAT"
#define SRC_RCTL   "Linux 7.3 drivers/resctrl/mpam_resctrl.c: mpam_resctrl_pick_caches/_mba/_counters (guest-requirements §4.1)"

/* ---------------------------------------------------------------- reading */

struct buf {
    const uint8_t *p;
    size_t len;     /* bytes we may read: min(file size, header length) */
};

static uint64_t rdn(const struct buf *b, size_t off, unsigned n, bool *ok)
{
    uint64_t v = 0;

    if (off > b->len || n > b->len - off) {
        if (ok) {
            *ok = false;
        }
        return 0;
    }
    for (unsigned i = 0; i < n; i++) {
        v |= (uint64_t)b->p[off + i] << (8 * i);
    }
    return v;
}

static uint8_t rd8(const struct buf *b, size_t off) { return (uint8_t)rdn(b, off, 1, NULL); }
static uint16_t rd16(const struct buf *b, size_t off) { return (uint16_t)rdn(b, off, 2, NULL); }
static uint32_t rd32(const struct buf *b, size_t off) { return (uint32_t)rdn(b, off, 4, NULL); }
static uint64_t rd64(const struct buf *b, size_t off) { return rdn(b, off, 8, NULL); }

/* --------------------------------------------------------------- findings */

/* Room for need elements in the array p of capacity *cap; the slots it adds
 * are zeroed (arrays only ever grow at the end, so a new element starts as
 * zeroes). */
static void *grow(void *p, size_t *cap, size_t need, size_t elem)
{
    if (need <= *cap) {
        return p;
    }
    size_t ncap = *cap ? *cap * 2 : 16;
    while (ncap < need) {
        ncap *= 2;
    }
    void *q = realloc(p, ncap * elem);
    if (!q) {
        abort();
    }
    memset((char *)q + *cap * elem, 0, (ncap - *cap) * elem);
    *cap = ncap;
    return q;
}

static void add(struct mac_report *r, enum mac_sev sev, const char *rule, const char *source,
                const char *table, uint32_t off, const char *fmt, ...)
    __attribute__((format(printf, 7, 8)));

static void add(struct mac_report *r, enum mac_sev sev, const char *rule, const char *source,
                const char *table, uint32_t off, const char *fmt, ...)
{
    va_list ap;

    if (sev == MAC_ERROR) {
        r->errors++;
    } else if (sev == MAC_WARN) {
        r->warnings++;
    } else {
        r->notes++;
    }
    if (r->n >= MAC_MAX_FINDINGS) {
        r->dropped++;       /* counted, not stored: a hostile table cannot exhaust memory */
        return;
    }
    r->f = grow(r->f, &r->cap, r->n + 1, sizeof(*r->f));
    struct mac_finding *f = &r->f[r->n++];
    f->sev = sev;
    f->rule = rule;
    f->table = table;
    f->offset = off;
    f->source = source;
    va_start(ap, fmt);
    vsnprintf(f->msg, sizeof(f->msg), fmt, ap);
    va_end(ap);
}

const char *mac_sev_name(enum mac_sev s)
{
    return s == MAC_ERROR ? "error" : s == MAC_WARN ? "warning" : "note";
}

void mac_report_free(struct mac_report *r)
{
    free(r->f);
    free(r->msc);
    free(r->res);
    free(r->pptt_cache);
    free(r->cpu);
    free(r->bitmaps);
    memset(r, 0, sizeof(*r));
}

/* ------------------------------------------------------------ table header */

/*
 * Common header checks.  Returns false if the table cannot be read at all
 * (too short for a header or not the expected signature): exit status 2.
 * On success *b covers min(file size, header length) bytes.
 */
static bool check_header(struct mac_report *r, const struct mac_table *t,
                         const char *sig, struct buf *b, uint8_t *rev)
{
    if (t->len < HDR_LEN) {
        add(r, MAC_ERROR, "HDR-SHORT", SRC_HDR, sig, 0,
            "%s input is %zu bytes, shorter than the 36-byte ACPI table header", sig, t->len);
        r->unreadable = 1;
        return false;
    }
    if (memcmp(t->data, sig, 4) != 0) {
        char got[5];
        for (int i = 0; i < 4; i++) {
            got[i] = (t->data[i] >= 0x20 && t->data[i] < 0x7f) ? (char)t->data[i] : '?';
        }
        got[4] = 0;
        add(r, MAC_ERROR, "HDR-SIGNATURE", SRC_HDR, sig, 0,
            "signature is \"%s\", expected \"%s\"", got, sig);
        r->unreadable = 1;
        return false;
    }
    struct buf whole = { t->data, t->len };
    uint32_t len = rd32(&whole, 4);
    *rev = rd8(&whole, 8);
    b->p = t->data;
    b->len = t->len;
    if (len < HDR_LEN) {
        add(r, MAC_ERROR, "HDR-LENGTH", SRC_HDR, sig, 4,
            "header length %" PRIu32 " is smaller than the header itself; nothing after it is read", len);
        b->len = HDR_LEN;
        return true;
    }
    if (len > t->len) {
        add(r, MAC_ERROR, "HDR-LENGTH", SRC_HDR, sig, 4,
            "header length %" PRIu32 " exceeds the %zu bytes given: table truncated; only those are checked",
            len, t->len);
    } else {
        b->len = len;
        if (len < t->len) {
            add(r, MAC_NOTE, "HDR-TRAILING", SRC_HDR, sig, len,
                "%zu bytes after the table length %" PRIu32 " are ignored", t->len - len, len);
        }
        uint8_t sum = 0;
        for (uint32_t i = 0; i < len; i++) {
            sum = (uint8_t)(sum + t->data[i]);
        }
        if (sum != 0) {
            add(r, MAC_ERROR, "HDR-CHECKSUM",
                "Linux 7.3 drivers/acpi/acpica/tbdata.c: acpi_tb_verify_temp_table (table validation is on by default)",
                sig, 9,
                "checksum byte 0x%02x makes the table sum to 0x%02x, not 0; the table may not be installed",
                t->data[9], sum);
        }
    }
    return true;
}

/* -------------------------------------------------------------------- PPTT */

struct psub {
    uint32_t off;
    uint8_t type, len;
    bool has_child;     /* some processor node names this one as parent */
    long cache;         /* index in report->pptt_cache, or -1 */
};

/* Bound on PPTT walking steps: real tables need thousands, a hostile one
 * could ask for quadratic work.  Past it, PPTT-LIMIT and NOT CHECKED. */
#define WORK_MAX 20000000u

struct pptt {
    struct buf b;
    uint8_t rev;
    struct psub *sub;
    size_t sub_n;
    /* per CPU: list of (level, cache index) reachable the way the kernel walks */
    struct clevel { size_t cpu; int level; size_t cache; } *cl;
    size_t cl_n, cl_cap;
    int max_level;
    int *reach;         /* per CPU: levels 1..reach[c] all present */
    struct idx { uint32_t id; uint32_t cpu; int level; } *ix;  /* reachable IDs, sorted */
    size_t ix_n;
    size_t *ix_bitmap;  /* per ix range start: offset in report->bitmaps, or SIZE_MAX */
    uint32_t *ids;      /* valid cache IDs, sorted */
    size_t ids_n;
    bool loop;          /* PPTT-LOOP found: level-derived conclusions are moot */
    bool too_big;       /* WORK_MAX exceeded */
    size_t work;
};

static bool spend(struct pptt *p)
{
    if (++p->work > WORK_MAX) {
        p->too_big = true;
    }
    return !p->too_big;
}

/* Index of the subtable starting exactly at off, or -1. */
static long psub_at(const struct pptt *p, uint32_t off)
{
    size_t lo = 0, hi = p->sub_n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if (p->sub[mid].off == off) {
            return (long)mid;
        } else if (p->sub[mid].off < off) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    return -1;
}

static long pptt_cache_at(const struct pptt *p, uint32_t off)
{
    long si = psub_at(p, off);
    return si < 0 ? -1 : p->sub[si].cache;
}

static bool proc_is_leaf(const struct pptt *p, size_t i)
{
    const struct psub *s = &p->sub[i];
    if (p->rev > 1) {
        return rd32(&p->b, s->off + 4) & PROC_LEAF;
    }
    return !s->has_child;
}

/* Follow a reference; returns the subtable index of the wanted type or -1,
 * reporting a bad reference once per referring field. */
static long pptt_ref(struct mac_report *r, const struct pptt *p, uint32_t from,
                     uint32_t ref, uint8_t type, const char *what)
{
    if (ref == 0) {
        return -1;
    }
    long i = psub_at(p, ref);
    if (i < 0 || p->sub[i].type != type) {
        add(r, MAC_ERROR, "PPTT-REFERENCE", SRC_PPTT, "PPTT", from,
            "%s reference 0x%" PRIx32 " is not the start of a %s structure", what, ref,
            type == 0 ? "processor hierarchy node" : "cache type");
        return -1;
    }
    return i;
}

static void cl_add(struct pptt *p, size_t cpu, int level, size_t cache)
{
    p->cl = grow(p->cl, &p->cl_cap, p->cl_n + 1, sizeof(*p->cl));
    p->cl[p->cl_n++] = (struct clevel){ cpu, level, cache };
    if (level > p->max_level) {
        p->max_level = level;
    }
}

static void build_index(const struct mac_report *r, struct pptt *p);

static int cmp_u32(const void *x, const void *y)
{
    uint32_t a = *(const uint32_t *)x, b = *(const uint32_t *)y;
    return (a > b) - (a < b);
}

/* qsort has no context argument: the array being sorted is kept here. */
static const struct mac_pptt_cache *sort_caches;

static int cmp_cache_id(const void *x, const void *y)
{
    const struct mac_pptt_cache *a = &sort_caches[*(const size_t *)x], *b = &sort_caches[*(const size_t *)y];
    if (a->id_valid != b->id_valid) {
        return a->id_valid < b->id_valid ? -1 : 1;
    }
    if (a->cache_id != b->cache_id) {
        return a->cache_id < b->cache_id ? -1 : 1;
    }
    return a->off < b->off ? -1 : a->off > b->off;
}

/*
 * Parent (processor nodes) and next-level (caches) references form chains;
 * find a cycle in linear time.  mark[i]: 0 unseen, the walk's id while on the
 * current walk, SIZE_MAX once known to end.  Returns a node on the cycle.
 */
static long find_cycle(const struct pptt *p, uint8_t type, size_t minlen)
{
    size_t *mark = calloc(p->sub_n + 1, sizeof(*mark));
    long found = -1;
    for (size_t i = 0; i < p->sub_n && found < 0; i++) {
        if (p->sub[i].type != type || p->sub[i].len < minlen || mark[i]) {
            continue;
        }
        size_t id = i + 1;
        long j = (long)i;
        while (j >= 0 && p->sub[j].type == type && p->sub[j].len >= minlen && mark[j] == 0) {
            mark[j] = id;
            j = psub_at(p, rd32(&p->b, p->sub[j].off + 8));
        }
        if (j >= 0 && mark[j] == id) {
            found = j;
        }
        for (long k = (long)i; k >= 0 && mark[k] == id; k = psub_at(p, rd32(&p->b, p->sub[k].off + 8))) {
            mark[k] = SIZE_MAX;
        }
    }
    free(mark);
    return found;
}

static void parse_pptt(struct mac_report *r, const struct mac_table *t, struct pptt *p)
{
    memset(p, 0, sizeof(*p));
    if (!t->data) {
        return;
    }
    if (!check_header(r, t, "PPTT", &p->b, &p->rev)) {
        return;
    }
    r->have_pptt = 1;
    r->pptt_rev = p->rev;
    if (p->rev < 3) {
        add(r, MAC_ERROR, "PPTT-REVISION", "Linux 7.3 drivers/acpi/pptt.c: find_acpi_cache_level_from_id needs revision >= 3",
            "PPTT", 8, "PPTT revision %u carries no cache IDs; every processor-cache locator will fail", p->rev);
    }

    /* Subtable list: type u8 @0, length u8 @1. */
    size_t cap = 0;
    uint32_t off = HDR_LEN;
    while (off + 2 <= p->b.len) {
        uint8_t type = rd8(&p->b, off), len = rd8(&p->b, off + 1);
        if (len == 0) {
            add(r, MAC_ERROR, "PPTT-SUBTABLE", SRC_PPTT, "PPTT", off,
                "zero-length subtable (type %u): Linux stops walking the PPTT here", type);
            break;
        }
        if (off + len > p->b.len) {
            add(r, MAC_ERROR, "PPTT-SUBTABLE", SRC_PPTT, "PPTT", off,
                "subtable (type %u, length %u) overruns the table end", type, len);
            break;
        }
        p->sub = grow(p->sub, &cap, p->sub_n + 1, sizeof(*p->sub));
        p->sub[p->sub_n++] = (struct psub){ off, type, len, false, -1 };
        off += len;
    }
    if (off < p->b.len && off + 2 > p->b.len) {
        add(r, MAC_NOTE, "PPTT-SUBTABLE", SRC_PPTT, "PPTT", off,
            "%zu stray byte(s) at the end of the table", p->b.len - off);
    }

    for (size_t i = 0; i < p->sub_n; i++) {
        if (p->sub[i].type == 0 && p->sub[i].len >= PPTT_PROC_LEN) {
            long pi = psub_at(p, rd32(&p->b, p->sub[i].off + 8));
            if (pi >= 0) {
                p->sub[pi].has_child = true;
            }
        }
    }
    size_t ccap = 0, pcap = 0;
    for (size_t i = 0; i < p->sub_n; i++) {
        const struct psub *s = &p->sub[i];
        if (s->type == 1) {
            if (s->len < 24) {
                add(r, MAC_ERROR, "PPTT-CACHE", SRC_PPTT, "PPTT", s->off,
                    "cache type structure is %u bytes, less than the 24 of ACPI 6.2", s->len);
                continue;
            }
            r->pptt_cache = grow(r->pptt_cache, &ccap, r->pptt_cache_n + 1, sizeof(*r->pptt_cache));
            p->sub[i].cache = (long)r->pptt_cache_n;
            struct mac_pptt_cache *c = &r->pptt_cache[r->pptt_cache_n++];
            c->off = s->off;
            c->length = s->len;
            c->flags = rd32(&p->b, s->off + 4);
            c->next_level = rd32(&p->b, s->off + 8);
            c->size = rd32(&p->b, s->off + 12);
            c->attributes = rd8(&p->b, s->off + 21);
            if (s->len >= PPTT_CACHE_V1) {
                c->cache_id = rd32(&p->b, s->off + 24);
            }
            c->id_valid = p->rev >= 3 && s->len >= PPTT_CACHE_V1 && (c->flags & CACHE_ID_VALID);
            if (p->rev >= 3 && (c->flags & CACHE_ID_VALID) && s->len < PPTT_CACHE_V1) {
                add(r, MAC_ERROR, "PPTT-CACHE", "Linux 7.3 drivers/acpi/pptt.c: upgrade_pptt_cache", "PPTT", s->off,
                    "cache has the ID-valid flag but is %u bytes long (< 28): its ID is ignored", s->len);
            }
        } else if (s->type == 0) {
            if (s->len < PPTT_PROC_LEN) {
                add(r, MAC_ERROR, "PPTT-PROCESSOR", SRC_PPTT, "PPTT", s->off,
                    "processor hierarchy node is %u bytes, less than 20", s->len);
                continue;
            }
            uint32_t npriv = rd32(&p->b, s->off + 16);
            if ((uint64_t)PPTT_PROC_LEN + 4ull * npriv != s->len) {
                add(r, MAC_ERROR, "PPTT-PROCESSOR", "Linux 7.3 drivers/acpi/pptt.c: acpi_find_processor_node", "PPTT", s->off,
                    "processor node length %u != 20 + 4 * %" PRIu32 " private resources: Linux will not find this CPU",
                    s->len, npriv);
                continue;
            }
            if (proc_is_leaf(p, i)) {
                r->cpu = grow(r->cpu, &pcap, r->cpu_n + 1, sizeof(*r->cpu));
                r->cpu[r->cpu_n++] = (struct mac_cpu){ s->off, rd32(&p->b, s->off + 12) };
            } else if (p->rev > 1) {
                /* A node with no children but without the leaf flag is invisible as a CPU. */
                if (!s->has_child) {
                    add(r, MAC_WARN, "PPTT-LEAF-FLAG", "Linux 7.3 drivers/acpi/pptt.c: acpi_pptt_leaf_node (rev > 1 uses flag bit 3 only)",
                        "PPTT", s->off + 4,
                        "processor node 0x%" PRIx32 " has no children but lacks the leaf flag (bit 3): Linux never sees it as a CPU",
                        rd32(&p->b, s->off + 12));
                }
            }
        }
    }

    /* Cache IDs must be unique: the level lookup takes the first match. */
    size_t *ord = malloc((r->pptt_cache_n + 1) * sizeof(*ord));
    for (size_t i = 0; i < r->pptt_cache_n; i++) {
        ord[i] = i;
    }
    sort_caches = r->pptt_cache;
    qsort(ord, r->pptt_cache_n, sizeof(*ord), cmp_cache_id);
    for (size_t k = 1; k < r->pptt_cache_n; k++) {
        const struct mac_pptt_cache *a = &r->pptt_cache[ord[k - 1]], *c = &r->pptt_cache[ord[k]];
        if (a->id_valid && c->id_valid && a->cache_id == c->cache_id) {
            add(r, MAC_WARN, "PPTT-CACHE-ID-DUP", "Linux 7.3 drivers/acpi/pptt.c: find_acpi_cache_level_from_id returns the first match",
                "PPTT", c->off + 24,
                "cache ID %" PRIu32 " is also used by the cache at 0x%" PRIx32 ": resctrl domains become ambiguous",
                c->cache_id, a->off);
        }
    }
    p->ids = malloc((r->pptt_cache_n + 1) * sizeof(*p->ids));
    for (size_t k = 0; k < r->pptt_cache_n; k++) {
        if (r->pptt_cache[ord[k]].id_valid) {
            p->ids[p->ids_n++] = r->pptt_cache[ord[k]].cache_id;
        }
    }
    free(ord);

    /* Reference checks, and loop detection (each kind reported once). */
    bool parent_loop = false, cache_loop = false;
    for (size_t i = 0; i < p->sub_n; i++) {
        const struct psub *s = &p->sub[i];
        if (s->type == 0 && s->len >= PPTT_PROC_LEN) {
            uint32_t npriv = rd32(&p->b, s->off + 16);
            pptt_ref(r, p, s->off + 8, rd32(&p->b, s->off + 8), 0, "parent");
            for (uint32_t k = 0; k < npriv && PPTT_PROC_LEN + 4 * (uint64_t)k + 4 <= s->len; k++) {
                uint32_t ref = rd32(&p->b, s->off + PPTT_PROC_LEN + 4 * k);
                long ri = psub_at(p, ref);
                if (ri < 0) {
                    add(r, MAC_ERROR, "PPTT-REFERENCE", SRC_PPTT, "PPTT", s->off + PPTT_PROC_LEN + 4 * k,
                        "private resource reference 0x%" PRIx32 " is not the start of a structure", ref);
                }
            }
        } else if (s->type == 1 && s->len >= 24) {
            uint32_t next = rd32(&p->b, s->off + 8);
            pptt_ref(r, p, s->off + 8, next, 1, "next level of cache");
        }
    }
    long cyc = find_cycle(p, 0, PPTT_PROC_LEN);
    if (cyc >= 0) {
        add(r, MAC_ERROR, "PPTT-LOOP", "Linux 7.3 drivers/acpi/pptt.c: the parent walks have no loop guard (boot hangs)",
            "PPTT", p->sub[cyc].off + 8, "parent references through this processor node form a loop");
        parent_loop = true;
    }
    cyc = find_cycle(p, 1, 24);
    if (cyc >= 0) {
        add(r, MAC_ERROR, "PPTT-LOOP", "Linux 7.3 drivers/acpi/pptt.c: acpi_pptt_walk_cache has no loop guard (boot hangs)",
            "PPTT", p->sub[cyc].off + 8, "next-level-of-cache references through this cache form a loop");
        cache_loop = true;
    }
    p->loop = parent_loop || cache_loop;
    /* seen[] stamps: a walk stops where it would revisit a structure (the
     * kernel would loop forever there; PPTT-LOOP reports it). */
    size_t *seen = calloc(p->sub_n + 1, sizeof(*seen)), stamp = 0;
    for (size_t c = 0; c < r->cpu_n; c++) {
        uint32_t node = r->cpu[c].off;
        int total = 0;
        size_t node_stamp = ++stamp;
        for (;;) {
            long ni = psub_at(p, node);
            if (ni < 0 || p->sub[ni].type != 0 || p->sub[ni].len < PPTT_PROC_LEN || seen[ni] == node_stamp ||
                !spend(p)) {
                break;
            }
            seen[ni] = node_stamp;
            uint32_t npriv = rd32(&p->b, node + 16);
            int start = total, deepest = total;
            for (uint32_t k = 0; k < npriv && PPTT_PROC_LEN + 4 * (uint64_t)k + 4 <= p->sub[ni].len; k++) {
                uint32_t ref = rd32(&p->b, node + PPTT_PROC_LEN + 4 * k);
                int lvl = start;
                size_t chain_stamp = ++stamp;
                for (;;) {
                    long si = psub_at(p, ref), ci = si < 0 ? -1 : p->sub[si].cache;
                    if (ci < 0 || seen[si] == chain_stamp || !spend(p)) {
                        break;
                    }
                    seen[si] = chain_stamp;
                    lvl++;
                    if (r->pptt_cache[ci].flags & CACHE_TYPE_VALID) {
                        cl_add(p, c, lvl, (size_t)ci);
                    }
                    ref = r->pptt_cache[ci].next_level;
                }
                if (lvl > deepest) {
                    deepest = lvl;
                }
            }
            total = deepest;
            node = rd32(&p->b, node + 8);
        }
    }
    free(seen);
    if (p->too_big) {
        add(r, MAC_NOTE, "PPTT-LIMIT", SRC_PPTT, "PPTT", HDR_LEN,
            "the PPTT needs more than %u walking steps: cache levels and coverage are NOT CHECKED", WORK_MAX);
        return;
    }

    /* reach[c]: the kernel's level loop stops at the first level with no
     * cache for that CPU, so only levels 1..reach[c] count.  cl[] holds each
     * CPU's entries together, in CPU order. */
    p->reach = calloc(r->cpu_n + 1, sizeof(*p->reach));
    for (size_t i = 0; i < p->cl_n;) {
        size_t c = p->cl[i].cpu, j = i;
        while (j < p->cl_n && p->cl[j].cpu == c) {
            j++;
        }
        size_t n = j - i;
        bool *have = calloc(n + 2, sizeof(*have));
        for (size_t k = i; k < j; k++) {
            if (p->cl[k].level >= 1 && (size_t)p->cl[k].level <= n) {
                have[p->cl[k].level] = true;
            }
        }
        int l = 0;
        while ((size_t)l < n && have[l + 1]) {
            l++;
        }
        p->reach[c] = l;
        free(have);
        i = j;
    }
    build_index(r, p);
}

static int cmp_idx(const void *x, const void *y)
{
    const struct idx *a = x, *b = y;
    if (a->id != b->id) {
        return a->id < b->id ? -1 : 1;
    }
    if (a->cpu != b->cpu) {
        return a->cpu < b->cpu ? -1 : 1;
    }
    return (a->level > b->level) - (a->level < b->level);
}

/* Every (cache ID, CPU, level) the kernel can find, sorted by ID, CPU, level. */
static void build_index(const struct mac_report *r, struct pptt *p)
{
    p->ix = malloc((p->cl_n + 1) * sizeof(*p->ix));
    for (size_t i = 0; i < p->cl_n; i++) {
        const struct clevel *e = &p->cl[i];
        const struct mac_pptt_cache *c = &r->pptt_cache[e->cache];
        if (c->id_valid && e->level <= p->reach[e->cpu]) {
            p->ix[p->ix_n++] = (struct idx){ c->cache_id, (uint32_t)e->cpu, e->level };
        }
    }
    qsort(p->ix, p->ix_n, sizeof(*p->ix), cmp_idx);
    p->ix_bitmap = malloc((p->ix_n + 1) * sizeof(*p->ix_bitmap));
    for (size_t i = 0; i < p->ix_n; i++) {
        p->ix_bitmap[i] = SIZE_MAX;
    }
}

/* [*lo, *hi) = the index entries of this ID; false if none. */
static bool id_range(const struct pptt *p, uint32_t id, size_t *lo, size_t *hi)
{
    size_t a = 0, b = p->ix_n;
    while (a < b) {
        size_t mid = (a + b) / 2;
        if (p->ix[mid].id < id) {
            a = mid + 1;
        } else {
            b = mid;
        }
    }
    *lo = a;
    while (b < p->ix_n && p->ix[b].id == id) {
        b++;
    }
    *hi = b;
    return a < b;
}

/* Level of a cache ID as Linux finds it (find_acpi_cache_level_from_id): the
 * first CPU that has it, at that CPU's lowest level; -1 if none. */
static int cache_id_level(const struct pptt *p, uint32_t id)
{
    size_t lo, hi;
    return id_range(p, id, &lo, &hi) ? p->ix[lo].level : -1;
}

/* Total bitmap memory allowed; past it coverage is reported NOT CHECKED. */
#define BITMAP_MAX (64u << 20)

/* CPUs below the cache with this ID (acpi_pptt_get_cpumask_from_cache_id),
 * one bitmap per ID shared by every resource node naming it. */
static bool cache_id_cpus(struct mac_report *r, struct pptt *p, uint32_t id, struct mac_res *res)
{
    size_t lo, hi;
    if (!id_range(p, id, &lo, &hi)) {
        return false;
    }
    if (p->ix_bitmap[lo] == SIZE_MAX) {
        if (r->bitmaps_n + r->cpu_n + 1 > BITMAP_MAX) {
            return false;
        }
        size_t first = r->bitmaps_n;
        r->bitmaps = grow(r->bitmaps, &r->bitmaps_cap, r->bitmaps_n + r->cpu_n + 1, 1);
        r->bitmaps_n += r->cpu_n + 1;
        for (size_t i = lo; i < hi; i++) {
            r->bitmaps[first + p->ix[i].cpu] = 1;
        }
        p->ix_bitmap[lo] = first;
    }
    res->cpus_first = (uint32_t)p->ix_bitmap[lo];
    res->has_cpus = 1;
    return true;
}

/* -------------------------------------------------------------------- SRAT */

struct srat {
    struct buf b;
    uint32_t *pxm;      /* distinct proximity domains with enabled memory */
    size_t pxm_n;
    size_t nodes;       /* distinct domains with memory or CPUs */
};

static bool in_list(const uint32_t *l, size_t n, uint32_t v)
{
    return n && bsearch(&v, l, n, sizeof(*l), cmp_u32) != NULL;
}

/* Sort and drop duplicates; returns the new count. */
static size_t sort_unique(uint32_t *l, size_t n)
{
    size_t w = 0;
    if (n) {
        qsort(l, n, sizeof(*l), cmp_u32);
    }
    for (size_t i = 0; i < n; i++) {
        if (w == 0 || l[w - 1] != l[i]) {
            l[w++] = l[i];
        }
    }
    return w;
}

static void parse_srat(struct mac_report *r, const struct mac_table *t, struct srat *s)
{
    memset(s, 0, sizeof(*s));
    if (!t->data || !check_header(r, t, "SRAT", &s->b, &r->srat_rev)) {
        return;
    }
    r->have_srat = 1;
    size_t cap = 0, acap = 0, all_n = 0;
    uint32_t *all = NULL;
    uint32_t off = SRAT_HDR_LEN;
    while (off + 2 <= s->b.len) {
        uint8_t type = rd8(&s->b, off), len = rd8(&s->b, off + 1);
        if (len == 0 || off + len > s->b.len) {
            add(r, MAC_ERROR, "SRAT-SUBTABLE", SRC_SRAT, "SRAT", off,
                "%s subtable (type %u, length %u): Linux stops parsing the SRAT here",
                len == 0 ? "zero-length" : "overrunning", type, len);
            break;
        }
        uint32_t pd = 0;
        bool is_dom = false, is_mem = false;
        if (type == 1 && len >= 40) {          /* memory affinity */
            pd = rd32(&s->b, off + 2);
            is_dom = is_mem = rd32(&s->b, off + 28) & 1;
        } else if (type == 3 && len >= 18) {   /* GICC affinity */
            pd = rd32(&s->b, off + 2);
            is_dom = rd32(&s->b, off + 10) & 1;
        } else if ((type == 1 && len < 40) || (type == 3 && len < 18)) {
            add(r, MAC_ERROR, "SRAT-SUBTABLE", SRC_SRAT, "SRAT", off,
                "%s affinity structure is %u bytes, too short", type == 1 ? "memory" : "GICC", len);
        }
        if (is_mem) {
            s->pxm = grow(s->pxm, &cap, s->pxm_n + 1, sizeof(*s->pxm));
            s->pxm[s->pxm_n++] = pd;
        }
        if (is_dom) {
            all = grow(all, &acap, all_n + 1, sizeof(*all));
            all[all_n++] = pd;
        }
        off += len;
    }
    s->pxm_n = sort_unique(s->pxm, s->pxm_n);
    s->nodes = sort_unique(all, all_n);
    free(all);
}

/* -------------------------------------------------------------------- MPAM */

static bool irq_is_ppi(uint32_t i) { return (i >= 16 && i < 32) || (i >= 1056 && i < 1120); }
static bool irq_is_spi(uint32_t i) { return (i >= 32 && i < 1020) || (i >= 4096 && i < 5120); }

/* Checks on one interrupt field pair; returns true if Linux registers it. */
static bool check_irq(struct mac_report *r, const struct mac_msc *m, const char *name,
                      uint32_t base, uint32_t intid, uint32_t flags)
{
    if (intid == 0) {
        if (flags) {
            add(r, MAC_NOTE, "IRQ-FLAGS", SRC_IRQ, "MPAM", base + 4,
                "MSC %" PRIu32 ": %s interrupt is 0 (none) but its flags are 0x%" PRIx32,
                m->identifier, name, flags);
        }
        return false;
    }
    if (flags & IRQ_FLAGS_RSVD) {
        add(r, MAC_NOTE, "IRQ-FLAGS", SRC_IRQ, "MPAM", base + 4,
            "MSC %" PRIu32 ": %s interrupt flags 0x%" PRIx32 " set reserved bits 31:5",
            m->identifier, name, flags);
    }
    if ((flags & IRQ_AFF_VALID) && (flags & IRQ_AFF_CONTAINER)) {
        add(r, MAC_NOTE, "IRQ-PARTITIONED", SRC_IRQ, "MPAM", base + 4,
            "MSC %" PRIu32 ": %s interrupt has a processor-container affinity: Linux prints "
            "\"Partitioned interrupts not supported\" and ignores it", m->identifier, name);
        return false;
    }
    if (flags & IRQ_TYPE_MASK) {
        add(r, MAC_NOTE, "IRQ-TYPE", SRC_IRQ, "MPAM", base + 4,
            "MSC %" PRIu32 ": %s interrupt type %" PRIu32 " is not wired (0): Linux ignores it",
            m->identifier, name, (flags & IRQ_TYPE_MASK) >> 1);
        return false;
    }
    if (!irq_is_ppi(intid) && !irq_is_spi(intid)) {
        add(r, MAC_NOTE, "IRQ-RANGE", "Arm GICv3 INTID map (SGI 0-15, PPI 16-31/1056-1119, SPI 32-1019/4096-5119)",
            "MPAM", base, "MSC %" PRIu32 ": %s interrupt %" PRIu32 " is neither a PPI nor an SPI: registration fails",
            m->identifier, name, intid);
        return false;
    }
    return true;
}

static void check_resources(struct mac_report *r, struct mac_msc *m, const struct buf *b,
                            struct pptt *p, const struct srat *s)
{
    uint32_t end = m->off + m->length;
    uint32_t off = m->off + MSC_LEN;
    m->res_first = r->res_n;
    bool ris_seen[256] = { false };

    for (uint32_t i = 0; i < m->num_resource_nodes; i++) {
        if ((uint64_t)off + RES_LEN > end) {
            add(r, MAC_ERROR, "MSC-LENGTH", SRC_RES, "MPAM", m->off,
                "MSC %" PRIu32 ": resource node %" PRIu32 " of %" PRIu32 " does not fit in the node length %u: probe fails",
                m->identifier, i, m->num_resource_nodes, m->length);
            return;
        }
        struct mac_res res = {
            .off = off,
            .identifier = rd32(b, off),
            .ris_index = rd8(b, off + 4),
            .locator_type = rd8(b, off + 7),
            .descriptor1 = rd64(b, off + 8),
            .descriptor2 = rd32(b, off + 16),
            .num_deps = rd32(b, off + 20),
            .level = -1,
        };
        uint64_t max_deps = (end - off) / DEP_LEN;
        if (res.num_deps > max_deps) {
            add(r, MAC_ERROR, "RES-DEPS", SRC_RES, "MPAM", off + 20,
                "MSC %" PRIu32 ": %" PRIu32 " functional dependencies cannot fit in the node: probe fails",
                m->identifier, res.num_deps);
            return;
        }
        if (res.ris_index > 16) {
            add(r, MAC_ERROR, "RIS-INDEX", SRC_RIS, "MPAM", off + 4,
                "MSC %" PRIu32 ": RIS index %u > 16: probe fails (-EINVAL)", m->identifier, res.ris_index);
        } else if (res.ris_index == 16) {
            add(r, MAC_NOTE, "RIS-INDEX", "Arm MPAM: MPAMCFG_PART_SEL.RIS is 4 bits", "MPAM", off + 4,
                "MSC %" PRIu32 ": RIS index 16 passes Linux but no hardware RIS can have it", m->identifier);
        }
        if (ris_seen[res.ris_index]) {
            add(r, MAC_ERROR, "RIS-DUPLICATE", SRC_RIS, "MPAM", off + 4,
                "MSC %" PRIu32 ": RIS index %u is described twice: probe fails (-EBUSY)", m->identifier, res.ris_index);
        }
        ris_seen[res.ris_index] = true;
        if (rd16(b, off + 5)) {
            add(r, MAC_NOTE, "RES-RESERVED", "DEN0065 resource node (reserved fields must be zero)", "MPAM", off + 5,
                "MSC %" PRIu32 ": resource node reserved field is 0x%04x (Linux does not check it)",
                m->identifier, rd16(b, off + 5));
        }

        if (res.locator_type == 0) {
            /* processor cache: descriptor1 = PPTT cache ID, descriptor2 reserved */
            uint32_t id = (uint32_t)res.descriptor1;
            if (res.descriptor1 >> 32) {
                add(r, MAC_ERROR, "LOC-CACHE", SRC_CLOC, "MPAM", off + 8,
                    "MSC %" PRIu32 ": cache reference 0x%" PRIx64 " does not fit the 32-bit PPTT cache ID; Linux truncates it",
                    m->identifier, res.descriptor1);
            }
            if (res.descriptor2) {
                add(r, MAC_NOTE, "LOC-RESERVED", SRC_CLOC, "MPAM", off + 16,
                    "MSC %" PRIu32 ": processor-cache locator descriptor2 (reserved) is 0x%" PRIx32,
                    m->identifier, res.descriptor2);
            }
            if (!r->have_pptt || p->too_big) {
                add(r, MAC_NOTE, "LOC-CACHE-UNCHECKED", SRC_CLOC, "MPAM", off + 8,
                    "MSC %" PRIu32 " RIS %u: cache ID %" PRIu32 " NOT CHECKED (%s)",
                    m->identifier, res.ris_index, id, r->have_pptt ? "PPTT too large to walk" : "no PPTT given");
            } else if (p->rev >= 3) {
                res.level = cache_id_level(p, id);
                if (res.level <= 0) {
                    long byoff = pptt_cache_at(p, id);
                    bool exists = bsearch(&id, p->ids, p->ids_n, sizeof(*p->ids), cmp_u32) != NULL;
                    add(r, MAC_ERROR, "LOC-CACHE", SRC_CLOC, "MPAM", off + 8,
                        "MSC %" PRIu32 " RIS %u: cache ID %" PRIu32 " %s: \"Bad level\", probe fails",
                        m->identifier, res.ris_index, id,
                        exists ? "exists in PPTT but no CPU reaches it through contiguous cache levels" :
                        byoff >= 0 ? "is the PPTT offset of a cache, not its ID (no cache with that ID and the ID-valid flag)" :
                        "matches no PPTT cache structure with the ID-valid flag (bit 7) and length >= 28");
                } else if (!cache_id_cpus(r, p, id, &res)) {
                    r->cover_incomplete = 1;
                }
            } else {
                add(r, MAC_ERROR, "LOC-CACHE", SRC_CLOC, "MPAM", off + 8,
                    "MSC %" PRIu32 " RIS %u: PPTT revision %u < 3 has no cache IDs: probe fails",
                    m->identifier, res.ris_index, p->rev);
            }
        } else if (res.locator_type == 1) {
            if (res.descriptor2) {
                add(r, MAC_NOTE, "LOC-RESERVED", SRC_MLOC, "MPAM", off + 16,
                    "MSC %" PRIu32 ": memory locator descriptor2 (reserved) is 0x%" PRIx32,
                    m->identifier, res.descriptor2);
            }
            if (!r->have_srat) {
                add(r, MAC_NOTE, "LOC-MEMORY-UNCHECKED", SRC_MLOC, "MPAM", off + 8,
                    "MSC %" PRIu32 " RIS %u: proximity domain %" PRIu64 " NOT CHECKED (no SRAT given)",
                    m->identifier, res.ris_index, res.descriptor1);
            } else if (res.descriptor1 > UINT32_MAX || !in_list(s->pxm, s->pxm_n, (uint32_t)res.descriptor1)) {
                add(r, MAC_WARN, "LOC-MEMORY", SRC_MLOC, "MPAM", off + 8,
                    "MSC %" PRIu32 " RIS %u: proximity domain %" PRIu64 " has no enabled SRAT memory affinity: Linux files it under node 0",
                    m->identifier, res.ris_index, res.descriptor1);
            }
        } else if (res.locator_type >= 2 && res.locator_type <= 5) {
            static const char *const names[] = { "", "", "SMMU", "memory-side cache", "ACPI device", "interconnect" };
            add(r, MAC_NOTE, "LOC-IGNORED", SRC_LOC, "MPAM", off + 7,
                "MSC %" PRIu32 " RIS %u: %s locator: Linux 7.3 ignores it (unknown class, no resctrl resource)",
                m->identifier, res.ris_index, names[res.locator_type]);
        } else {
            add(r, MAC_NOTE, "LOC-IGNORED", SRC_LOC, "MPAM", off + 7,
                "MSC %" PRIu32 " RIS %u: locator type 0x%02x is %s: Linux ignores it",
                m->identifier, res.ris_index, res.locator_type,
                res.locator_type == 0xff ? "\"unknown\"" : "not defined by DEN0065");
        }
        r->res = grow(r->res, &r->res_cap, r->res_n + 1, sizeof(*r->res));
        r->res[r->res_n++] = res;
        m->res_n++;
        off += RES_LEN + DEP_LEN * res.num_deps;
    }
    if (off < end) {
        add(r, MAC_NOTE, "MSC-LENGTH", SRC_MSC, "MPAM", m->off,
            "MSC %" PRIu32 ": node length %u leaves %" PRIu32 " byte(s) after its resource nodes (Linux ignores them)",
            m->identifier, m->length, end - off);
    } else if (off > end) {
        /* The kernel bounds the count by the bytes left from the resource
         * node's start, so the last node's dependencies may overhang. */
        add(r, MAC_NOTE, "MSC-LENGTH", SRC_RES, "MPAM", m->off,
            "MSC %" PRIu32 ": the last resource node's functional dependencies run %" PRIu32
            " byte(s) past the node length %u (Linux does not read them)", m->identifier, off - end, m->length);
    }
}

/* Accessibility of an MSC: all CPUs, unless linked to ACPI0010 (a processor
 * container), in which case the CPUs below that container. */
static int msc_accessibility(struct mac_report *r, struct mac_msc *m, struct pptt *p)
{
    if (strcmp(m->hid, "ACPI0010") != 0) {
        return 1;
    }
    if (!r->have_pptt || p->too_big) {
        add(r, MAC_NOTE, "MSC-LINK-UNCHECKED", SRC_LINK, "MPAM", m->off + 56,
            "MSC %" PRIu32 ": linked processor container %" PRIu32 " NOT CHECKED (%s)",
            m->identifier, m->uid, r->have_pptt ? "PPTT too large to walk" : "no PPTT given");
        return -1;
    }
    for (size_t i = 0; i < p->sub_n && spend(p); i++) {
        const struct psub *s = &p->sub[i];
        if (s->type != 0 || s->len < PPTT_PROC_LEN) {
            continue;
        }
        if ((rd32(&p->b, s->off + 4) & PROC_ID_VALID) && !proc_is_leaf(p, i) &&
            rd32(&p->b, s->off + 12) == m->uid) {
            size_t below = 0;
            for (size_t c = 0; c < r->cpu_n; c++) {
                uint32_t node = r->cpu[c].off;
                for (size_t st = 0; st <= p->sub_n && node && spend(p); st++) {
                    if (node == s->off) {
                        below++;
                        break;
                    }
                    long ni = psub_at(p, node);
                    if (ni < 0 || p->sub[ni].type != 0 || p->sub[ni].len < PPTT_PROC_LEN) {
                        break;
                    }
                    node = rd32(&p->b, node + 8);
                }
            }
            if (p->too_big) {
                add(r, MAC_NOTE, "MSC-LINK-UNCHECKED", SRC_LINK, "MPAM", m->off + 56,
                    "MSC %" PRIu32 ": linked processor container %" PRIu32 " NOT CHECKED (PPTT too large to walk)",
                    m->identifier, m->uid);
                return -1;
            }
            if (below == 0) {
                add(r, MAC_ERROR, "MSC-LINK", SRC_LINK, "MPAM", m->off + 64,
                    "MSC %" PRIu32 ": processor container %" PRIu32 " has no CPUs below it: accessibility empty, probe fails",
                    m->identifier, m->uid);
                return 0;
            }
            return below == r->cpu_n;
        }
    }
    if (p->too_big) {
        add(r, MAC_NOTE, "MSC-LINK-UNCHECKED", SRC_LINK, "MPAM", m->off + 56,
            "MSC %" PRIu32 ": linked processor container %" PRIu32 " NOT CHECKED (PPTT too large to walk)",
            m->identifier, m->uid);
        return -1;
    }
    add(r, MAC_ERROR, "MSC-LINK", SRC_LINK, "MPAM", m->off + 64,
        "MSC %" PRIu32 ": linked ACPI0010 UID %" PRIu32 " matches no PPTT non-leaf processor node with the ID-valid flag: "
        "accessibility empty, probe fails", m->identifier, m->uid);
    return 0;
}

static void check_msc(struct mac_report *r, struct mac_msc *m, const struct buf *b,
                      struct pptt *p, const struct srat *s)
{
    uint32_t o = m->off;
    m->interface_type = rd8(b, o + 2);
    m->identifier = rd32(b, o + 4);
    m->base_address = rd64(b, o + 8);
    m->mmio_size = rd32(b, o + 16);
    m->overflow_interrupt = rd32(b, o + 20);
    m->overflow_interrupt_flags = rd32(b, o + 24);
    m->overflow_interrupt_affinity = rd32(b, o + 32);
    m->error_interrupt = rd32(b, o + 36);
    m->error_interrupt_flags = rd32(b, o + 40);
    m->error_interrupt_affinity = rd32(b, o + 48);
    m->max_nrdy_usec = rd32(b, o + 52);
    for (int i = 0; i < 8; i++) {
        m->hid[i] = (char)rd8(b, o + 56 + i);
    }
    m->hid[8] = 0;
    m->uid = rd32(b, o + 64);
    m->num_resource_nodes = rd32(b, o + 68);

    if (m->mmio_size == 0) {
        /* acpi_mpam_count_msc and acpi_mpam_parse both skip it: nothing else matters. */
        add(r, MAC_NOTE, "MSC-DISABLED", SRC_COUNT, "MPAM", o + 16,
            "MSC %" PRIu32 ": MMIO size 0 marks it disabled; Linux neither counts nor parses it", m->identifier);
        return;
    }
    uint8_t rsv = rd8(b, o + 3);
    uint32_t rsv1 = rd32(b, o + 28), rsv2 = rd32(b, o + 44);
    if (rsv || rsv1 || rsv2) {
        add(r, MAC_ERROR, "MSC-RESERVED", SRC_PARSE, "MPAM", rsv ? o + 3 : rsv1 ? o + 28 : o + 44,
            "MSC %" PRIu32 ": reserved field(s) non-zero (+3=0x%02x, +28=0x%" PRIx32 ", +44=0x%" PRIx32 "): "
            "\"Unrecognised MSC, MPAM not usable\" - the MSC is counted but never probes",
            m->identifier, rsv, rsv1, rsv2);
    }
    if (m->interface_type == 0x0a) {
        add(r, MAC_ERROR, "MSC-INTERFACE", SRC_IFACE, "MPAM", o + 2,
            "MSC %" PRIu32 ": PCC interface: Linux 7.3 creates the device but its probe fails, so MPAM is never enabled",
            m->identifier);
    } else if (m->interface_type != 0) {
        add(r, MAC_ERROR, "MSC-INTERFACE", SRC_IFACE, "MPAM", o + 2,
            "MSC %" PRIu32 ": interface type 0x%02x is neither MMIO (0) nor PCC (0x0A): parsing stops here",
            m->identifier, m->interface_type);
    }
    if (m->interface_type == 0) {
        if (m->base_address & 0xfff) {
            add(r, MAC_NOTE, "MSC-BASE", "Arm MPAM: MSC register frames are 4 KiB pages", "MPAM", o + 8,
                "MSC %" PRIu32 ": base address 0x%" PRIx64 " is not 4 KiB aligned", m->identifier, m->base_address);
        }
        if (m->base_address + m->mmio_size < m->base_address) {
            add(r, MAC_ERROR, "MSC-BASE", SRC_OVL, "MPAM", o + 8,
                "MSC %" PRIu32 ": region 0x%" PRIx64 " + 0x%" PRIx32 " wraps past the top of the address space",
                m->identifier, m->base_address, m->mmio_size);
        }
        /* Every probe writes MPAMCFG_PART_SEL (0x100) and reads ESR (0xF8/0xFC). */
        if (m->mmio_size < 0x105) {
            add(r, MAC_ERROR, "MSC-MMIO-SIZE", SRC_MMIO, "MPAM", o + 16,
                "MSC %" PRIu32 ": MMIO size 0x%" PRIx32 " < 0x105: the probe's own accesses (PART_SEL at 0x100) fall outside the mapping",
                m->identifier, m->mmio_size);
        } else if (m->mmio_size < 0x889) {
            add(r, MAC_WARN, "MSC-MMIO-SIZE", SRC_MMIO, "MPAM", o + 16,
                "MSC %" PRIu32 ": MMIO size 0x%" PRIx32 " < 0x889 does not reach the monitor registers (MSMON_MBWU_L at 0x880)",
                m->identifier, m->mmio_size);
        }
        if (m->mmio_size & 0xfff) {
            add(r, MAC_NOTE, "MSC-MMIO-SIZE", "Arm MPAM: MSC register frames are 4 KiB pages", "MPAM", o + 16,
                "MSC %" PRIu32 ": MMIO size 0x%" PRIx32 " is not a multiple of 4 KiB", m->identifier, m->mmio_size);
        }
    }
    if (m->max_nrdy_usec == 0) {
        add(r, MAC_NOTE, "MSC-NRDY", SRC_NRDY, "MPAM", o + 52,
            "MSC %" PRIu32 ": max NRDY time is 0: a counter that is not ready is read once more without waiting",
            m->identifier);
    }

    /* Linked device: 8 ASCII chars, or all zero for none. */
    bool hid_zero = true, hid_print = true;
    for (int i = 0; i < 8; i++) {
        uint8_t c = rd8(b, o + 56 + i);
        hid_zero &= c == 0;
        hid_print &= c >= 0x20 && c < 0x7f;
    }
    if (!hid_zero && !hid_print) {
        add(r, MAC_NOTE, "MSC-LINK", SRC_LINK, "MPAM", o + 56,
            "MSC %" PRIu32 ": linked device HID is not 8 printable characters", m->identifier);
    } else if (hid_zero && m->uid) {
        add(r, MAC_NOTE, "MSC-LINK", SRC_LINK, "MPAM", o + 64,
            "MSC %" PRIu32 ": no linked device but instance ID %" PRIu32, m->identifier, m->uid);
    } else if (!hid_zero && strcmp(m->hid, "ACPI0010") != 0) {
        add(r, MAC_NOTE, "MSC-LINK", SRC_LINK, "MPAM", o + 56,
            "MSC %" PRIu32 ": linked device %s UID %" PRIu32 " only adds a PM device link; the MSC is accessed from all CPUs",
            m->identifier, m->hid, m->uid);
    }
    for (int i = 0; i < 8; i++) {
        if (!((unsigned char)m->hid[i] >= 0x20 && (unsigned char)m->hid[i] < 0x7f)) {
            m->hid[i] = hid_zero ? 0 : '?';
        }
    }
    m->access_all = msc_accessibility(r, m, p);

    check_irq(r, m, "overflow", o + 20, m->overflow_interrupt, m->overflow_interrupt_flags);
    if (check_irq(r, m, "error", o + 36, m->error_interrupt, m->error_interrupt_flags) &&
        irq_is_spi(m->error_interrupt)) {
        if (m->access_all == 0) {
            add(r, MAC_ERROR, "IRQ-ERROR-SPI", SRC_ERRIRQ, "MPAM", o + 36,
                "MSC %" PRIu32 ": error interrupt %" PRIu32 " is an SPI but the MSC is only accessible from some CPUs: probe fails",
                m->identifier, m->error_interrupt);
        } else if (m->access_all < 0) {
            add(r, MAC_NOTE, "IRQ-ERROR-SPI-UNCHECKED", SRC_ERRIRQ, "MPAM", o + 36,
                "MSC %" PRIu32 ": SPI error interrupt vs. container accessibility NOT CHECKED (no PPTT given)",
                m->identifier);
        }
    }

    check_resources(r, m, b, p, s);
}

/* Checks between MSCs: identifiers, regions, shared error interrupts.
 * Sorted scans, so a table with very many MSCs stays linear-ish. */
static const struct mac_msc *sort_msc;

static int cmp_msc_id(const void *x, const void *y)
{
    const struct mac_msc *a = &sort_msc[*(const size_t *)x], *b = &sort_msc[*(const size_t *)y];
    return a->identifier < b->identifier ? -1 : a->identifier > b->identifier ? 1 :
           a->off < b->off ? -1 : a->off > b->off;
}

static int cmp_msc_base(const void *x, const void *y)
{
    const struct mac_msc *a = &sort_msc[*(const size_t *)x], *b = &sort_msc[*(const size_t *)y];
    return a->base_address < b->base_address ? -1 : a->base_address > b->base_address ? 1 :
           a->off < b->off ? -1 : a->off > b->off;
}

static int cmp_msc_err(const void *x, const void *y)
{
    const struct mac_msc *a = &sort_msc[*(const size_t *)x], *b = &sort_msc[*(const size_t *)y];
    return a->error_interrupt < b->error_interrupt ? -1 : a->error_interrupt > b->error_interrupt ? 1 :
           a->off < b->off ? -1 : a->off > b->off;
}

/* Enabled MMIO-or-PCC MSCs whose error interrupt Linux registers. */
static bool err_irq_used(const struct mac_msc *m)
{
    return m->error_interrupt && !(m->error_interrupt_flags & (IRQ_TYPE_MASK | IRQ_AFF_VALID));
}

static void check_between(struct mac_report *r)
{
    size_t n = 0, *ord = malloc((r->msc_n + 1) * sizeof(*ord));
    for (size_t i = 0; i < r->msc_n; i++) {
        if (r->msc[i].mmio_size) {      /* disabled MSCs create no device */
            ord[n++] = i;
        }
    }
    sort_msc = r->msc;

    qsort(ord, n, sizeof(*ord), cmp_msc_id);
    for (size_t k = 1; k < n; k++) {
        const struct mac_msc *a = &r->msc[ord[k - 1]], *b = &r->msc[ord[k]];
        if (a->identifier == b->identifier) {
            add(r, MAC_ERROR, "MSC-ID-DUPLICATE", "Linux 7.3 drivers/acpi/arm64/mpam.c: acpi_mpam_parse_msc (platform device mpam_msc.<id> must be unique)",
                "MPAM", b->off + 4, "MSC identifier %" PRIu32 " is also used by the MSC at offset 0x%" PRIx32
                ": platform_device_add fails and parsing stops", b->identifier, a->off);
        }
    }

    /* Regions: sorted by base, each overlaps the furthest-reaching earlier one or none. */
    qsort(ord, n, sizeof(*ord), cmp_msc_base);
    const struct mac_msc *reach = NULL;
    for (size_t k = 0; k < n; k++) {
        const struct mac_msc *b = &r->msc[ord[k]];
        if (b->interface_type != 0) {
            continue;
        }
        uint64_t b_end = b->base_address + b->mmio_size;
        if (b_end < b->base_address) {
            b_end = UINT64_MAX;
        }
        if (reach) {
            uint64_t r_end = reach->base_address + reach->mmio_size;
            if (r_end < reach->base_address) {
                r_end = UINT64_MAX;
            }
            if (b->base_address < r_end) {
                add(r, MAC_ERROR, "MSC-OVERLAP", SRC_OVL, "MPAM", b->off + 8,
                    "MSC %" PRIu32 " region [0x%" PRIx64 ", +0x%" PRIx32 ") overlaps MSC %" PRIu32 " [0x%" PRIx64 ", +0x%" PRIx32 "): probe fails",
                    b->identifier, b->base_address, b->mmio_size, reach->identifier, reach->base_address, reach->mmio_size);
            }
            if (b_end <= r_end) {
                continue;
            }
        }
        reach = b;
    }

    /* Error interrupts: a PPI cannot be shared; a shared SPI needs one trigger mode. */
    qsort(ord, n, sizeof(*ord), cmp_msc_err);
    for (size_t k = 1; k < n; k++) {
        const struct mac_msc *a = &r->msc[ord[k - 1]], *b = &r->msc[ord[k]];
        if (a->error_interrupt != b->error_interrupt || !err_irq_used(a) || !err_irq_used(b)) {
            continue;
        }
        if (irq_is_ppi(a->error_interrupt)) {
            add(r, MAC_ERROR, "IRQ-ERROR-PPI-SHARED", SRC_ERRIRQ, "MPAM", b->off + 36,
                "MSCs %" PRIu32 " and %" PRIu32 " share the error PPI %" PRIu32 ": request_percpu_irq fails, MPAM disabled",
                a->identifier, b->identifier, b->error_interrupt);
        } else if (irq_is_spi(a->error_interrupt) &&
                   ((a->error_interrupt_flags ^ b->error_interrupt_flags) & IRQ_MODE_EDGE)) {
            add(r, MAC_ERROR, "IRQ-ERROR-SPI-TRIGGER", SRC_ERRIRQ, "MPAM", b->off + 40,
                "MSCs %" PRIu32 " and %" PRIu32 " share the error SPI %" PRIu32 " with different trigger modes: IRQF_SHARED request fails, MPAM disabled",
                a->identifier, b->identifier, b->error_interrupt);
        }
    }
    free(ord);
}

/* ----------------------------------------------------- resctrl consequences */

static void fmt_cpus(char *out, size_t n, const struct mac_report *r, const uint8_t *bm)
{
    size_t w = 0;
    out[0] = 0;
    for (size_t c = 0; c < r->cpu_n && w + 24 < n; c++) {
        if (!bm[c]) {
            continue;
        }
        size_t e = c;
        while (e + 1 < r->cpu_n && bm[e + 1]) {
            e++;
        }
        w += (size_t)snprintf(out + w, n - w, "%s%" PRIu32, w ? "," : "", r->cpu[c].acpi_processor_id);
        if (e > c) {
            w += (size_t)snprintf(out + w, n - w, "-%" PRIu32, r->cpu[e].acpi_processor_id);
        }
        c = e;
    }
    if (!w) {
        snprintf(out, n, "none");
    }
}

static void check_resctrl(struct mac_report *r, const struct pptt *p, const struct srat *s)
{
    if (r->have_pptt && p->too_big) {
        add(r, MAC_NOTE, "RESCTRL-UNCHECKED", SRC_RCTL, "MPAM", 0,
            "which resctrl resources can appear is NOT CHECKED (PPTT too large to walk)");
        return;
    }
    if (!r->have_pptt) {
        add(r, MAC_NOTE, "RESCTRL-UNCHECKED", SRC_RCTL, "MPAM", 0,
            "which resctrl resources can appear is NOT CHECKED (no PPTT given)");
        return;
    }
    if (p->loop) {
        add(r, MAC_NOTE, "RESCTRL-UNCHECKED", SRC_RCTL, "MPAM", 0,
            "which resctrl resources can appear is NOT CHECKED (the PPTT has reference loops; Linux would hang first)");
        return;
    }
    if (r->cover_incomplete) {
        add(r, MAC_NOTE, "RESCTRL-UNCHECKED", SRC_RCTL, "MPAM", 0,
            "which resctrl resources can appear is NOT CHECKED (more than %u bytes of CPU masks)", BITMAP_MAX);
        return;
    }
    if (r->cpu_n == 0) {
        add(r, MAC_ERROR, "PPTT-NO-CPUS", SRC_PPTT, "PPTT", HDR_LEN,
            "the PPTT describes no leaf processor: no CPU can be matched to any cache");
        return;
    }
    size_t nb = r->cpu_n + 1;
    uint8_t *cover[5];
    size_t count[5] = { 0 };
    for (int l = 0; l < 5; l++) {
        cover[l] = calloc(nb, 1);
    }
    size_t n_mem = 0, n_cover = 0;
    char buf[200];
    for (size_t i = 0; i < r->msc_n; i++) {
        const struct mac_msc *m = &r->msc[i];
        if (!m->mmio_size) {
            continue;
        }
        for (size_t k = 0; k < m->res_n; k++) {
            const struct mac_res *res = &r->res[m->res_first + k];
            if (res->locator_type == 1) {
                n_mem++;
            }
            if (res->locator_type != 0 || res->level <= 0 || !res->has_cpus) {
                continue;
            }
            uint8_t *bm = r->bitmaps + res->cpus_first;
            if (n_cover++ < 1024) {     /* each costs O(CPUs): bounded */
                fmt_cpus(buf, sizeof(buf), r, bm);
                add(r, MAC_NOTE, "RESCTRL-COVER", SRC_RCTL, "MPAM", res->off + 8,
                    "MSC %" PRIu32 " RIS %u: L%d cache ID %" PRIu64 " covers CPUs (ACPI processor IDs) %s",
                    m->identifier, res->ris_index, res->level, res->descriptor1, buf);
            }
            int l = res->level < 4 ? res->level : 4;
            count[l]++;
            if (!bm[r->cpu_n]) {        /* the spare byte marks a bitmap already merged */
                bm[r->cpu_n] = 1;
                for (size_t c = 0; c < r->cpu_n; c++) {
                    cover[l][c] |= bm[c];
                }
            }
            if (res->level == 1 || res->level >= 4) {
                add(r, MAC_NOTE, "RESCTRL-LEVEL", SRC_RCTL, "MPAM", res->off + 8,
                    "MSC %" PRIu32 " RIS %u controls a level-%d cache: resctrl only exports L2 and L3",
                    m->identifier, res->ris_index, res->level);
            }
        }
    }
    bool full[5];
    for (int l = 2; l <= 3; l++) {
        size_t n = 0;
        for (size_t c = 0; c < r->cpu_n; c++) {
            n += cover[l][c];
        }
        full[l] = n == r->cpu_n;
        if (count[l] && !full[l]) {
            fmt_cpus(buf, sizeof(buf), r, cover[l]);
            add(r, MAC_WARN, l == 3 ? "RESCTRL-L3" : "RESCTRL-L2", SRC_RCTL, "MPAM", 0,
                "L%d MSCs cover only CPUs %s of %zu: the class affinity is not every possible CPU, so resctrl shows no L%d%s",
                l, buf, r->cpu_n, l, l == 3 ? " (nor llc_occupancy, nor MB/mbm_total_bytes on L3)" : "");
        } else if (count[l]) {
            add(r, MAC_NOTE, "RESCTRL-SHOWN", SRC_RCTL, "MPAM", 0,
                "L%d MSCs cover every CPU: resctrl can show L%d (if the MSCs implement CPOR with CPBM_WD <= 32)", l, l);
        }
    }
    /* L3 size is what llc_occupancy needs (update_rmid_limits). */
    if (count[3] && full[3]) {
        for (size_t i = 0; i < p->cl_n; i++) {
            const struct mac_pptt_cache *c = &r->pptt_cache[p->cl[i].cache];
            if (p->cl[i].level == 3 && (!(c->flags & CACHE_SIZE_VALID) || c->size == 0)) {
                add(r, MAC_WARN, "RESCTRL-L3-SIZE", "Linux 7.3 drivers/resctrl/mpam_resctrl.c: update_rmid_limits (L3 size from PPTT)",
                    "PPTT", c->off + 12, "L3 cache has no valid size: resctrl will not offer llc_occupancy");
                break;
            }
        }
    }

    /* MB / mbm_total_bytes from a memory-class MSC: traffic_matches_l3. */
    if (n_mem) {
        /* CPUs per cache at level 3 (cl[] is grouped by CPU: count each once). */
        size_t *under = calloc(r->pptt_cache_n + 1, sizeof(*under));
        size_t *last = malloc((r->pptt_cache_n + 1) * sizeof(*last));
        for (size_t i = 0; i < r->pptt_cache_n; i++) {
            last[i] = SIZE_MAX;
        }
        bool one_l3 = false;
        for (size_t k = 0; k < p->cl_n; k++) {
            const struct clevel *e = &p->cl[k];
            if (e->level == 3 && e->level <= p->reach[e->cpu] && last[e->cache] != e->cpu) {
                last[e->cache] = e->cpu;
                one_l3 |= ++under[e->cache] == r->cpu_n;
            }
        }
        free(under);
        free(last);
        size_t nodes = r->have_srat ? (s->nodes ? s->nodes : 1) : 1;
        const char *why = NULL;
        if (!one_l3) {
            why = "no single L3 spans every CPU";
        } else if (p->max_level >= 4) {
            why = "the PPTT describes a level-4 cache";
        } else if (nodes != 1) {
            why = "the SRAT describes more than one NUMA node";
        }
        if (why && !(count[3] && full[3])) {
            add(r, MAC_WARN, "RESCTRL-MB", SRC_RCTL, "MPAM", 0,
                "memory MSCs cannot provide MB or mbm_total_bytes: %s (and no L3 MSCs cover every CPU)", why);
        } else if (why) {
            add(r, MAC_NOTE, "RESCTRL-MB", SRC_RCTL, "MPAM", 0,
                "memory MSCs cannot provide MB: %s; MB can only come from the L3 MSCs", why);
        } else {
            add(r, MAC_NOTE, "RESCTRL-SHOWN", SRC_RCTL, "MPAM", 0,
                "memory MSCs can provide MB/mbm_total_bytes (one L3 spans every CPU, no L4, one NUMA node%s)",
                r->have_srat ? "" : " assumed: no SRAT given");
        }
    }
    if (!(count[2] && full[2]) && !(count[3] && full[3]) && !n_mem) {
        add(r, MAC_ERROR, "RESCTRL-NONE", SRC_RCTL, "MPAM", 0,
            "no MSC can back any resctrl resource (no L2/L3 class covering every CPU, no memory MSC): "
            "mpam_resctrl_setup returns -EOPNOTSUPP and MPAM is disabled");
    }
    for (int l = 0; l < 5; l++) {
        free(cover[l]);
    }
}

/* ------------------------------------------------------------------ entry */

int mac_check(const struct mac_table *mpam, const struct mac_table *pptt_t,
              const struct mac_table *srat_t, struct mac_report *r)
{
    memset(r, 0, sizeof(*r));
    struct buf b;
    struct pptt p;
    struct srat s;
    static const struct mac_table none = { NULL, 0 };

    if (!check_header(r, mpam, "MPAM", &b, &r->mpam_rev)) {
        return 2;
    }
    parse_pptt(r, pptt_t ? pptt_t : &none, &p);
    parse_srat(r, srat_t ? srat_t : &none, &s);
    if (r->unreadable) {
        goto out;
    }
    if (r->mpam_rev < 1) {
        add(r, MAC_ERROR, "MPAM-REVISION", SRC_MPAMHD, "MPAM", 8,
            "MPAM revision 0 (ACPI for MPAM 1.0 layout): Linux ignores the whole table");
    } else if (r->mpam_rev > 1) {
        add(r, MAC_NOTE, "MPAM-REVISION", SRC_MPAMHD, "MPAM", 8,
            "MPAM revision %u: Linux 7.3 reads every revision >= 1 with the DEN0065 2.0 (revision 1) layout checked here",
            r->mpam_rev);
    }

    uint32_t off = HDR_LEN;
    while (off < b.len) {
        if (off + MSC_LEN > b.len) {
            add(r, MAC_ERROR, "MSC-LENGTH", SRC_COUNT, "MPAM", off,
                "%zu byte(s) left, less than a 72-byte MSC node: \"MSC entry overlaps end of ACPI table\"", b.len - off);
            break;
        }
        uint16_t len = rd16(&b, off);
        if (len < MSC_LEN) {
            add(r, MAC_ERROR, "MSC-LENGTH", SRC_COUNT, "MPAM", off,
                "MSC node length %u < 72: MSC count fails (\"No MSC devices found\"); nothing after it is read", len);
            break;
        }
        if (off + len > b.len) {
            add(r, MAC_ERROR, "MSC-LENGTH", SRC_COUNT, "MPAM", off,
                "MSC node length %u overruns the table end: \"MSC entry overlaps end of ACPI table\"", len);
            break;
        }
        r->msc = grow(r->msc, &r->msc_cap, r->msc_n + 1, sizeof(*r->msc));
        struct mac_msc *m = &r->msc[r->msc_n++];
        m->off = off;
        m->length = len;
        check_msc(r, m, &b, &p, &s);
        off += len;
    }
    if (r->msc_n == 0) {
        add(r, MAC_ERROR, "MPAM-EMPTY", SRC_COUNT, "MPAM", HDR_LEN,
            "the table describes no MSC: \"No MSC devices found in firmware\"");
    }
    check_between(r);
    if (r->msc_n) {
        check_resctrl(r, &p, &s);
    }
out:
    free(p.sub);
    free(p.cl);
    free(p.reach);
    free(p.ix);
    free(p.ix_bitmap);
    free(p.ids);
    free(s.pxm);
    if (r->unreadable) {
        return 2;
    }
    return r->errors ? 1 : 0;
}
