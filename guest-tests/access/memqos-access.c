// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * memqos-access: does every instruction class that touches memory reach
 * the modeled memory system?  (issue 26 item 4, docs/testing.md "Access
 * classes")
 *
 *   memqos-access --size BYTES --resctrl-dir DIR [--class NAME,...]
 *
 * Runs each class over a buffer of BYTES (the runner gives more than the
 * last level holds), one line per class:
 *
 *   class=NAME bytes=B mbm_delta=COUNTED|na ns=NS
 *   class=NAME skip=WHY                       (the CPU lacks the feature)
 *
 * B is the bytes the class touches (every byte of the buffer, read or
 * written); mbm_delta what the group's mbm_total_bytes counted meanwhile;
 * NS the modeled time the class took.  Before each class an untimed read
 * of another buffer of BYTES takes the first out of every cache (true LRU:
 * a stream of more than the last level leaves nothing of the one before),
 * so every line the class touches comes from memory: if the class reaches
 * the model, mbm_delta >= B, and NS >= B / the configured peak bandwidth.
 *
 * One file for both targets: the classes are inline assembly, so that the
 * compiler can neither merge nor vectorise them (a static libc's memcpy
 * may itself use MOPS or REP MOVS).  --class runs only the named ones.
 */
#include "../programs/memqos-prog.h"   /* first: it defines _GNU_SOURCE */
#include <getopt.h>
#include <stdbool.h>
#include <sys/auxv.h>

typedef struct Class {
    const char *name;
    /* Touch every byte of [p, p + n); returns why not when it cannot run. */
    const char *(*run)(uint8_t *p, uint64_t n);
} Class;

/*
 * A loop of INSN (which steps %[p]) from p to p + n.  LOOP_BELOW (per
 * target) compares p with end and branches back to 1 while p is below.
 */
#define STREAM(fn, insn, clobbers...)                                       \
    static const char *fn(uint8_t *p, uint64_t n)                           \
    {                                                                       \
        uint8_t *end = p + n;                                               \
        __asm__ volatile("1:\n" insn "\n"                                   \
                         LOOP_BELOW "\n"                                    \
                         : [p] "+r"(p) : [e] "r"(end)                       \
                         : "cc", "memory", clobbers);                       \
        return NULL;                                                        \
    }

#if defined(__aarch64__)
#define LOOP_BELOW "cmp %[p], %[e]\nb.lo 1b"
#ifndef HWCAP2_MOPS
#define HWCAP2_MOPS (1ul << 43)
#endif

static const char *need_lse(void)
{
    return getauxval(AT_HWCAP) & HWCAP_ATOMICS ? NULL : "no_FEAT_LSE";
}

static const char *need_mops(void)
{
    return getauxval(AT_HWCAP2) & HWCAP2_MOPS ? NULL : "no_FEAT_MOPS";
}

STREAM(ldrb, "ldrb w9, [%[p]], #1", "x9")
STREAM(ldrh, "ldrh w9, [%[p]], #2", "x9")
STREAM(ldr_w, "ldr w9, [%[p]], #4", "x9")
STREAM(ldr_x, "ldr x9, [%[p]], #8", "x9")
STREAM(ldr_q, "ldr q0, [%[p]], #16", "v0")
STREAM(ldp_x, "ldp x9, x10, [%[p]], #16", "x9", "x10")
STREAM(ldp_q, "ldp q0, q1, [%[p]], #32", "v0", "v1")
STREAM(ld1_4, "ld1 {v0.16b-v3.16b}, [%[p]], #64", "v0", "v1", "v2", "v3")
STREAM(strb, "strb wzr, [%[p]], #1", "x9")
STREAM(strh, "strh wzr, [%[p]], #2", "x9")
STREAM(str_w, "str wzr, [%[p]], #4", "x9")
STREAM(str_x, "str xzr, [%[p]], #8", "x9")
STREAM(str_q, "movi v0.16b, #0\nstr q0, [%[p]], #16", "v0")
STREAM(stp_x, "stp xzr, xzr, [%[p]], #16", "x9")
STREAM(stp_q, "movi v0.16b, #0\nstp q0, q0, [%[p]], #32", "v0")
STREAM(st1_4, "movi v0.16b, #0\nmovi v1.16b, #0\nmovi v2.16b, #0\nmovi v3.16b, #0\n"
       "st1 {v0.16b-v3.16b}, [%[p]], #64", "v0", "v1", "v2", "v3")
/* Exclusives: an increment of every doubleword (and of every pair). */
STREAM(ldxr_stxr, "2: ldxr x9, [%[p]]\nadd x9, x9, #1\nstxr w10, x9, [%[p]]\n"
       "cbnz w10, 2b\nadd %[p], %[p], #8", "x9", "x10")
STREAM(ldxp_stxp, "2: ldxp x9, x10, [%[p]]\nstxp w11, x10, x9, [%[p]]\n"
       "cbnz w11, 2b\nadd %[p], %[p], #16", "x9", "x10", "x11")
/* Unaligned: 8 or 16 bytes at 4 or 8 past their alignment, so that one
 * access in every 16 (or 4) crosses a line and one in 512 (256) a page. */
STREAM(ldr_x_unaligned, "ldr x9, [%[p]], #8", "x9")
STREAM(str_x_unaligned, "str xzr, [%[p]], #8", "x9")
STREAM(ldr_q_unaligned, "ldr q0, [%[p]], #16", "v0")

#define LSE_STREAM(fn, insn, clobbers...)                                   \
    STREAM(fn##_loop, ".arch_extension lse\nmov x11, #1\n" insn             \
           "\nadd %[p], %[p], #8", "x9", "x10", "x11", clobbers)            \
    static const char *fn(uint8_t *p, uint64_t n)                           \
    {                                                                       \
        return need_lse() ?: fn##_loop(p, n);                               \
    }
LSE_STREAM(ldadd, "ldadd x11, x9, [%[p]]", "x12")
LSE_STREAM(swp, "swp x11, x9, [%[p]]", "x12")
LSE_STREAM(casal, "ldr x9, [%[p]]\nadd x10, x9, #1\ncasal x9, x10, [%[p]]", "x12")

static const char *dc_zva(uint8_t *p, uint64_t n)
{
    uint64_t dczid, block;

    __asm__ volatile("mrs %0, dczid_el0" : "=r"(dczid));
    if (dczid & 16) {
        return "DC_ZVA_prohibited";
    }
    block = 4ull << (dczid & 15);
    for (uint8_t *q = p; q < p + n; q += block) {
        __asm__ volatile("dc zva, %0" : : "r"(q) : "memory");
    }
    return NULL;
}

static const char *mops_set(uint8_t *p, uint64_t n)
{
    const char *why = need_mops();

    if (!why) {
        __asm__ volatile(".arch_extension mops\n"
                         "setp [%0]!, %1!, xzr\n"
                         "setm [%0]!, %1!, xzr\n"
                         "sete [%0]!, %1!, xzr\n"
                         : "+r"(p), "+r"(n) : : "cc", "memory");
    }
    return why;
}

/* The first half onto the second: every byte read or written once. */
static const char *mops_cpy(uint8_t *p, uint64_t n)
{
    const char *why = need_mops();
    uint8_t *src = p, *dst = p + n / 2;
    uint64_t len = n / 2;

    if (!why) {
        __asm__ volatile(".arch_extension mops\n"
                         "cpyfp [%0]!, [%1]!, %2!\n"
                         "cpyfm [%0]!, [%1]!, %2!\n"
                         "cpyfe [%0]!, [%1]!, %2!\n"
                         : "+r"(dst), "+r"(src), "+r"(len) : : "cc", "memory");
    }
    return why;
}

static const Class classes[] = {
    { "ldrb", ldrb }, { "ldrh", ldrh }, { "ldr-w", ldr_w }, { "ldr-x", ldr_x },
    { "ldr-q", ldr_q }, { "ldp-x", ldp_x }, { "ldp-q", ldp_q }, { "ld1-4", ld1_4 },
    { "strb", strb }, { "strh", strh }, { "str-w", str_w }, { "str-x", str_x },
    { "str-q", str_q }, { "stp-x", stp_x }, { "stp-q", stp_q }, { "st1-4", st1_4 },
    { "ldxr-stxr", ldxr_stxr }, { "ldxp-stxp", ldxp_stxp },
    { "ldadd", ldadd }, { "swp", swp }, { "casal", casal },
    { "mops-set", mops_set }, { "mops-cpy", mops_cpy }, { "dc-zva", dc_zva },
    { "ldr-x-unaligned", ldr_x_unaligned }, { "str-x-unaligned", str_x_unaligned },
    { "ldr-q-unaligned", ldr_q_unaligned },
};

#elif defined(__x86_64__)
/* AT&T operand order: cmp %[e], %[p] is p - e, as the aarch64 cmp. */
#define LOOP_BELOW "cmp %[e], %[p]\njb 1b"

STREAM(mov8_load, "movzbl (%[p]), %%eax\nadd $1, %[p]", "rax")
STREAM(mov16_load, "movzwl (%[p]), %%eax\nadd $2, %[p]", "rax")
STREAM(mov32_load, "movl (%[p]), %%eax\nadd $4, %[p]", "rax")
STREAM(mov64_load, "movq (%[p]), %%rax\nadd $8, %[p]", "rax")
STREAM(movdqa_load, "movdqa (%[p]), %%xmm0\nadd $16, %[p]", "xmm0")
STREAM(mov8_store, "movb $0, (%[p])\nadd $1, %[p]", "rax")
STREAM(mov16_store, "movw $0, (%[p])\nadd $2, %[p]", "rax")
STREAM(mov32_store, "movl $0, (%[p])\nadd $4, %[p]", "rax")
STREAM(mov64_store, "movq $0, (%[p])\nadd $8, %[p]", "rax")
STREAM(movdqa_store, "pxor %%xmm0, %%xmm0\nmovdqa %%xmm0, (%[p])\nadd $16, %[p]", "xmm0")
STREAM(movnti, "xor %%eax, %%eax\nmovnti %%rax, (%[p])\nadd $8, %[p]", "rax")
STREAM(movntdq, "pxor %%xmm0, %%xmm0\nmovntdq %%xmm0, (%[p])\nadd $16, %[p]", "xmm0")
STREAM(lock_xadd, "mov $1, %%eax\nlock xaddq %%rax, (%[p])\nadd $8, %[p]", "rax")
STREAM(lock_cmpxchg, "movq (%[p]), %%rax\nlea 1(%%rax), %%rdx\n"
       "lock cmpxchgq %%rdx, (%[p])\nadd $8, %[p]", "rax", "rdx")
STREAM(xchg, "xor %%eax, %%eax\nxchgq %%rax, (%[p])\nadd $8, %[p]", "rax")
/* Unaligned: 8 or 16 bytes at 4 or 8 past their alignment (see aarch64). */
STREAM(mov64_load_unaligned, "movq (%[p]), %%rax\nadd $8, %[p]", "rax")
STREAM(mov64_store_unaligned, "movq $0, (%[p])\nadd $8, %[p]", "rax")
STREAM(movdqu_load_unaligned, "movdqu (%[p]), %%xmm0\nadd $16, %[p]", "xmm0")

static const char *rep_stos(uint8_t *p, uint64_t n, unsigned width)
{
    uint64_t count = n / width;

    if (width == 1) {
        __asm__ volatile("rep stosb" : "+D"(p), "+c"(count) : "a"(0) : "memory");
    } else {
        __asm__ volatile("rep stosq" : "+D"(p), "+c"(count) : "a"(0) : "memory");
    }
    return NULL;
}

/* The first half onto the second, as aarch64's mops-cpy. */
static const char *rep_movs(uint8_t *p, uint64_t n, unsigned width)
{
    uint8_t *src = p, *dst = p + n / 2;
    uint64_t count = n / 2 / width;

    if (width == 1) {
        __asm__ volatile("rep movsb" : "+D"(dst), "+S"(src), "+c"(count) : : "memory");
    } else {
        __asm__ volatile("rep movsq" : "+D"(dst), "+S"(src), "+c"(count) : : "memory");
    }
    return NULL;
}

static const char *rep_stosb(uint8_t *p, uint64_t n) { return rep_stos(p, n, 1); }
static const char *rep_stosq(uint8_t *p, uint64_t n) { return rep_stos(p, n, 8); }
static const char *rep_movsb(uint8_t *p, uint64_t n) { return rep_movs(p, n, 1); }
static const char *rep_movsq(uint8_t *p, uint64_t n) { return rep_movs(p, n, 8); }

static const Class classes[] = {
    { "mov8-load", mov8_load }, { "mov16-load", mov16_load },
    { "mov32-load", mov32_load }, { "mov64-load", mov64_load },
    { "movdqa-load", movdqa_load },
    { "mov8-store", mov8_store }, { "mov16-store", mov16_store },
    { "mov32-store", mov32_store }, { "mov64-store", mov64_store },
    { "movdqa-store", movdqa_store },
    { "movnti", movnti }, { "movntdq", movntdq },
    { "lock-xadd", lock_xadd }, { "lock-cmpxchg", lock_cmpxchg }, { "xchg", xchg },
    { "rep-stosb", rep_stosb }, { "rep-stosq", rep_stosq },
    { "rep-movsb", rep_movsb }, { "rep-movsq", rep_movsq },
    { "mov64-load-unaligned", mov64_load_unaligned },
    { "mov64-store-unaligned", mov64_store_unaligned },
    { "movdqu-load-unaligned", movdqu_load_unaligned },
};
#else
#error "memqos-access: aarch64 and x86_64 only"
#endif

/* How far past the buffer's start a class begins (its unaligned offset). */
static uint64_t offset_of(const Class *c)
{
    if (!strstr(c->name, "unaligned")) {
        return 0;
    }
    return strstr(c->name, "-q-") || strstr(c->name, "movdqu") ? 8 : 4;
}

static void usage(void)
{
    fprintf(stderr, "usage: memqos-access --size BYTES --resctrl-dir DIR [--class NAME,...]\n"
                    "classes:");
    for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
        fprintf(stderr, " %s", classes[i].name);
    }
    fputc('\n', stderr);
    exit(2);
}

static bool wanted(const char *list, const char *name)
{
    size_t len = strlen(name);

    for (const char *s = list; s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL) {
        if (!strncmp(s, name, len) && (s[len] == ',' || !s[len])) {
            return true;
        }
    }
    return !list;
}

static uint8_t *map(uint64_t size)
{
    uint8_t *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
                      MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);

    if (p == MAP_FAILED) {
        prog_die("mmap of %" PRIu64 " bytes: %s", size, strerror(errno));
    }
    /* Pages of their own (not the kernel's one zero page), each line once. */
    for (uint64_t i = 0; i < size; i += LINE) {
        p[i] = 1;
    }
    return p;
}

int main(int argc, char **argv)
{
    static const struct option opts[] = {
        {"size", 1, 0, 's'}, {"resctrl-dir", 1, 0, 'r'}, {"class", 1, 0, 'c'}, {0, 0, 0, 0},
    };
    uint64_t size = 0;
    const char *group = NULL, *list = NULL;
    char mbm[4096];
    int opt;

    prog_name = "memqos-access";
    while ((opt = getopt_long(argc, argv, "", opts, NULL)) != -1) {
        switch (opt) {
        case 's': size = prog_size("--size", optarg); break;
        case 'r': group = optarg; break;
        case 'c': list = optarg; break;
        default: usage();
        }
    }
    if (optind != argc || !size || !group) {
        usage();
    }
    if (size % 4096) {
        prog_die("--size %" PRIu64 " is not a multiple of 4096", size);
    }
    for (const char *s = list; s && *s; s = strchr(s, ',') ? strchr(s, ',') + 1 : NULL) {
        bool known = false;
        for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
            known |= !strncmp(s, classes[i].name, strcspn(s, ",")) &&
                     strlen(classes[i].name) == strcspn(s, ",");
        }
        if (!known) {
            prog_die("--class: no class '%.*s' on this target (usage lists them)",
                     (int)strcspn(s, ","), s);
        }
    }
    snprintf(mbm, sizeof(mbm), "%s/mon_data/mon_L3_00/mbm_total_bytes", group);
    prog_join(group);

    uint8_t *buf = map(size), *evict = map(size);
    for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++) {
        const Class *c = &classes[i];
        uint64_t off = offset_of(c), sum = 0;

        if (!wanted(list, c->name)) {
            continue;
        }
        for (uint64_t j = 0; j < size; j += LINE) {
            sum += evict[j];
        }
        prog_sink = sum;
        int64_t before = prog_monitor(mbm);
        uint64_t t0 = prog_now_ns();
        /* unaligned: the last access would pass the end by OFF bytes */
        const char *why = c->run(buf + off, size - (off ? 16 : 0));
        uint64_t ns = prog_now_ns() - t0;
        int64_t after = prog_monitor(mbm);

        if (why) {
            printf("class=%s skip=%s\n", c->name, why);
            continue;
        }
        char delta[32] = "na";
        if (before >= 0 && after >= 0) {
            snprintf(delta, sizeof(delta), "%" PRId64, after - before);
        }
        printf("class=%s bytes=%" PRIu64 " mbm_delta=%s ns=%" PRIu64 "\n", c->name,
               size - (off ? 16 : 0), delta, ns);
        fflush(stdout);
    }
    return 0;
}
