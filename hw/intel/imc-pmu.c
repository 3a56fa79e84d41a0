/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The Sapphire Rapids iMC uncore PMU, see imc-pmu.h and
 * docs/x86-pmu-design.md §2.3.
 */
#include <inttypes.h>
#include <string.h>

#include "imc-pmu.h"

#define LINE            64
#define CTR_MASK        ((1ull << IMC_PMU_WIDTH) - 1)
#define STATUS_MASK     ((1u << (IMC_PMU_COUNTERS + 1)) - 1)
/* CAS_COUNT umask: reads, writes, and the two sub-channels (at least one) */
#define UMASK_RD        0x0f
#define UMASK_WR        0x30
#define UMASK_SUBCH     0xc0

/* Linux's spr_uncore_imc: controls at 0x40, counters at 0x08, fixed at
 * 0x38 / 0x54 (uncore_snbep.c SNR_IMC_MMIO_PMON_*), status at 0x5c */
const UncoreUnitLayout imc_pmu_layout = {
    .num_regs = IMC_PMU_COUNTERS,
    .ctl_offset = 0x40,
    .bit_width = IMC_PMU_WIDTH,
    .ctr_offset = 0x08,
    .status_offset = 0x5c,
};
#define FIXED_CTR_OFFSET        0x38
#define FIXED_CTL_OFFSET        0x54

/* The words of one box's state. */
enum {
    W_BOX,
    W_STATUS,
    W_FIXED_CTL,
    W_CTL,
    W_CTR = W_CTL + IMC_PMU_COUNTERS,
    W_FIXED_CTR = W_CTR + IMC_PMU_COUNTERS,
    BOX_WORDS,
};

/* What a write does. */
typedef enum ImcWrite {
    WR_RO,              /* a counter: nothing, a guest mistake */
    WR_STORE,           /* a control: the 32 bits stored */
    WR_W1C,             /* status: write 1 to clear */
    WR_BOX,             /* box control: FRZ stored, RST_* act */
} ImcWrite;

typedef struct ImcRegDef {
    const char *name;
    uint32_t offset;
    uint32_t count;
    uint32_t stride;
    uint8_t size;       /* 4 or 8 bytes; 8 also takes 32-bit halves */
    uint8_t word;       /* first word in the box's state */
    ImcWrite write;
} ImcRegDef;

static const ImcRegDef imc_regs[] = {
    { "box_ctl", 0x00, 1, 0, 4, W_BOX, WR_BOX },
    { "ctr", 0x08, IMC_PMU_COUNTERS, 8, 8, W_CTR, WR_RO },
    { "fixed_ctr", FIXED_CTR_OFFSET, 1, 0, 8, W_FIXED_CTR, WR_RO },
    { "ctl", 0x40, IMC_PMU_COUNTERS, 4, 4, W_CTL, WR_STORE },
    { "fixed_ctl", FIXED_CTL_OFFSET, 1, 0, 4, W_FIXED_CTL, WR_STORE },
    { "status", 0x5c, 1, 0, 4, W_STATUS, WR_W1C },
};

struct ImcPmu {
    DdrConfig ddr;
    unsigned boxes;
    /* boxes x BOX_WORDS, then the modeled time DCLK is folded to (ps) */
    uint64_t *w;
    uint32_t n_words;
};

ImcPmu *imc_pmu_new(const DdrConfig *ddr, GError **errp)
{
    g_autofree char *why = ddr_config_check(ddr);
    ImcPmu *p;

    if (why) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL, "%s", why);
        return NULL;
    }
    if (ddr->channels < 2 || ddr->channels > UNCORE_DISCOVERY_MAX_UNITS) {
        g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                    "%u iMC boxes: 2 to %u (with one, Linux names the PMU "
                    "uncore_imc and the resctrl selftests find no "
                    "uncore_imc_<n>)", ddr->channels,
                    (unsigned)UNCORE_DISCOVERY_MAX_UNITS);
        return NULL;
    }
    p = g_new0(ImcPmu, 1);
    p->ddr = *ddr;
    p->boxes = ddr->channels;
    p->n_words = p->boxes * BOX_WORDS + 1;
    p->w = g_new0(uint64_t, p->n_words);
    return p;
}

void imc_pmu_free(ImcPmu *p)
{
    if (p) {
        g_free(p->w);
        g_free(p);
    }
}

unsigned imc_pmu_boxes(const ImcPmu *p)
{
    return p->boxes;
}

static uint64_t *box_words(ImcPmu *p, unsigned box)
{
    return p->w + box * BOX_WORDS;
}

void imc_pmu_reset(ImcPmu *p, uint64_t now_ps)
{
    memset(p->w, 0, p->n_words * sizeof(*p->w));
    p->w[p->n_words - 1] = now_ps;
}

/* Counter word @word of box @b plus @n, wrapping at 48 bits into status. */
static void add(uint64_t *b, unsigned word, uint64_t n)
{
    uint64_t v = b[word] + n;

    if (v > CTR_MASK) {
        b[W_STATUS] |= word == W_FIXED_CTR ? IMC_STATUS_FIXED
                                           : 1u << (word - W_CTR);
    }
    b[word] = v & CTR_MASK;
}

/* DCLK ticks (data rate / 2) in @ps picoseconds, without overflow. */
static uint64_t dclk(const ImcPmu *p, uint64_t ps)
{
    return (unsigned __int128)ps * (p->ddr.data_rate_mts / 2) / 1000000;
}

void imc_pmu_fold(ImcPmu *p, uint64_t now_ps)
{
    uint64_t *last = &p->w[p->n_words - 1];
    uint64_t ticks;

    if (now_ps <= *last) {
        return;
    }
    ticks = dclk(p, now_ps) - dclk(p, *last);
    *last = now_ps;
    for (unsigned box = 0; box < p->boxes; box++) {
        uint64_t *b = box_words(p, box);

        if (b[W_BOX] & IMC_BOX_FRZ) {
            continue;
        }
        for (unsigned i = 0; i < IMC_PMU_COUNTERS; i++) {
            if ((b[W_CTL + i] & 0xff) == IMC_EVENT_DCLK) {
                add(b, W_CTR + i, ticks);
            }
        }
        if (b[W_FIXED_CTL] & IMC_CTL_EN) {
            add(b, W_FIXED_CTR, ticks);
        }
    }
}

/* One CAS of box @box: the counters whose control selects it count. */
static void cas(ImcPmu *p, unsigned box, bool is_write)
{
    uint64_t *b = box_words(p, box);
    uint8_t dir = is_write ? UMASK_WR : UMASK_RD;

    if (b[W_BOX] & IMC_BOX_FRZ) {
        return;
    }
    for (unsigned i = 0; i < IMC_PMU_COUNTERS; i++) {
        uint32_t ctl = b[W_CTL + i];
        uint8_t umask = ctl >> 8;

        /* a discovery counter counts while its control selects an event:
         * Linux writes no enable bit */
        if ((ctl & 0xff) == IMC_EVENT_CAS_COUNT && (umask & dir) &&
            (umask & UMASK_SUBCH)) {
            add(b, W_CTR + i, 1);
        }
    }
}

void imc_pmu_tap(void *opaque, const MemReq *req)
{
    ImcPmu *p = opaque;
    bool is_write = memreq_is_write(req);
    uint64_t end = req->addr + req->size;

    for (uint64_t a = req->addr & ~(uint64_t)(LINE - 1); a < end; a += LINE) {
        cas(p, ddr_config_channel(&p->ddr, a), is_write);
    }
}

/*
 * The row of imc_regs[] at @offset for a @size access, with the index in
 * it and the byte shift of the half a 32-bit access of a 64-bit register
 * takes; NULL if there is none.
 */
static const ImcRegDef *find(uint64_t offset, unsigned size, unsigned *i,
                             unsigned *shift)
{
    for (unsigned r = 0; r < G_N_ELEMENTS(imc_regs); r++) {
        const ImcRegDef *d = &imc_regs[r];
        uint64_t span = d->count > 1 ? d->stride : d->size;
        uint64_t rel = offset - d->offset;

        if (offset < d->offset || rel >= (d->count - 1) * span + d->size) {
            continue;
        }
        *i = rel / span;
        *shift = rel % span * 8;
        if (rel % span >= d->size ||
            !(size == d->size || (size == 4 && rel % 4 == 0))) {
            return NULL;
        }
        return d;
    }
    return NULL;
}

bool imc_pmu_read(ImcPmu *p, unsigned box, uint64_t offset, unsigned size,
                  uint64_t *val)
{
    unsigned i, shift;
    const ImcRegDef *d = box < p->boxes ? find(offset, size, &i, &shift)
                                        : NULL;

    *val = 0;
    if (!d) {
        return false;
    }
    *val = box_words(p, box)[d->word + i] >> shift;
    if (size < 8) {
        *val &= UINT32_MAX;
    }
    return true;
}

bool imc_pmu_write(ImcPmu *p, unsigned box, uint64_t offset, unsigned size,
                   uint64_t val)
{
    unsigned i, shift;
    const ImcRegDef *d = box < p->boxes ? find(offset, size, &i, &shift)
                                        : NULL;
    uint64_t *b;

    if (!d || d->write == WR_RO) {
        return false;
    }
    b = box_words(p, box);
    switch (d->write) {
    case WR_STORE:
        b[d->word + i] = (uint32_t)val;
        return true;
    case WR_W1C:
        b[W_STATUS] &= ~val;
        return !(val & ~(uint64_t)STATUS_MASK);
    case WR_BOX:
        if (val & IMC_BOX_RST_CTRL) {
            b[W_FIXED_CTL] = 0;
            memset(&b[W_CTL], 0, IMC_PMU_COUNTERS * sizeof(*b));
        }
        if (val & IMC_BOX_RST_CTRS) {
            b[W_FIXED_CTR] = 0;
            memset(&b[W_CTR], 0, IMC_PMU_COUNTERS * sizeof(*b));
        }
        /* the reset bits act and read 0; the rest is reserved */
        b[W_BOX] = val & IMC_BOX_FRZ;
        return !(val & ~(uint64_t)(IMC_BOX_FRZ | IMC_BOX_RST_CTRL |
                                   IMC_BOX_RST_CTRS));
    default:
        return false;
    }
}

uint64_t *imc_pmu_state(ImcPmu *p, uint32_t *len)
{
    *len = p->n_words;
    return p->w;
}

char *imc_pmu_post_load(ImcPmu *p)
{
    for (unsigned box = 0; box < p->boxes; box++) {
        const uint64_t *b = box_words(p, box);

        for (unsigned r = 0; r < G_N_ELEMENTS(imc_regs); r++) {
            const ImcRegDef *d = &imc_regs[r];
            uint64_t max = d->write == WR_BOX ? IMC_BOX_FRZ :
                           d->write == WR_W1C ? STATUS_MASK :
                           d->write == WR_STORE ? UINT32_MAX : CTR_MASK;

            for (unsigned i = 0; i < d->count; i++) {
                if (b[d->word + i] > max) {
                    return g_strdup_printf("iMC box %u %s[%u] = %#" PRIx64
                                           " exceeds %#" PRIx64, box,
                                           d->name, i, b[d->word + i], max);
                }
            }
        }
    }
    return NULL;
}
