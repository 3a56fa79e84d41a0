// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * mac-gen-tables: write the test builder's tables to disk.
 *   mac-gen-tables tables DIR   DIR/good/{MPAM,PPTT,SRAT} and DIR/<broken>/...
 *   mac-gen-tables corpus DIR   libFuzzer seed inputs (fuzz_mac.c format)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "tblbuild.h"

static void b_rsv(struct plat *p) { p->mpam.p[p->msc[0] + 3] = 1; }
static void b_cache(struct plat *p) { tb_set64(&p->mpam, p->res[0] + 8, p->l3); }
static void b_overlap(struct plat *p) { tb_set64(&p->mpam, p->msc[1] + 8, 0x90002000); }
static void b_ppi(struct plat *p)
{
    tb_set32(&p->mpam, p->msc[0] + 36, 23);
    tb_set32(&p->mpam, p->msc[1] + 36, 23);
}
static void b_loop(struct plat *p) { tb_set32(&p->pptt, p->pkg + 8, (uint32_t)p->cpu[0]); }
static void b_cacheloop(struct plat *p) { tb_set32(&p->pptt, p->l2[0] + 8, (uint32_t)p->l1d[0]); }
static void b_zero(struct plat *p) { p->pptt.p[p->cpu[3] + 1] = 0; }
static void b_mslen(struct plat *p) { tb_set16(&p->mpam, p->msc[1], 0xffff); }
static void b_deps(struct plat *p) { tb_set32(&p->mpam, p->res[0] + 20, 0xffffffff); }
static void b_nres(struct plat *p) { tb_set32(&p->mpam, p->msc[0] + 68, 0x7fffffff); }
static void b_pptt2(struct plat *p) { p->pptt.p[8] = 2; }
static void b_pxm(struct plat *p) { tb_set64(&p->mpam, p->res[1] + 8, 7); }
static void b_srat0(struct plat *p) { p->srat.p[p->srat_mem + 1] = 0; }

static void b_several(struct plat *p)
{
    b_cache(p);
    b_ppi(p);
    tb_set32(&p->mpam, p->msc[1] + 16, 0x800);
    tb_set32(&p->pptt, p->cpu[3] + 4, 0x2);    /* CPU 3 loses its leaf flag */
}

static const struct variant {
    const char *name;
    struct plat_opts opts;
    void (*mut)(struct plat *);
} variants[] = {
    { "good", { .pptt_rev = 3 }, NULL },
    { "split-l3", { .pptt_rev = 3, .l3_on_cpu = 1 }, NULL },
    { "two-nodes", { .pptt_rev = 3, .second_node = 1 }, NULL },
    { "l4", { .pptt_rev = 3, .l4 = 1 }, NULL },
    { "l2-msc", { .pptt_rev = 3, .extra_l2_msc = 1 }, NULL },
    { "reserved", { .pptt_rev = 3 }, b_rsv },
    { "cache-offset", { .pptt_rev = 3 }, b_cache },
    { "overlap", { .pptt_rev = 3 }, b_overlap },
    { "shared-ppi", { .pptt_rev = 3 }, b_ppi },
    { "pptt-parent-loop", { .pptt_rev = 3 }, b_loop },
    { "pptt-cache-loop", { .pptt_rev = 3 }, b_cacheloop },
    { "pptt-zero-length", { .pptt_rev = 3 }, b_zero },
    { "msc-length-lies", { .pptt_rev = 3 }, b_mslen },
    { "huge-deps", { .pptt_rev = 3 }, b_deps },
    { "huge-resource-count", { .pptt_rev = 3 }, b_nres },
    { "pptt-rev2", { .pptt_rev = 3 }, b_pptt2 },
    { "bad-pxm", { .pptt_rev = 3 }, b_pxm },
    { "srat-zero-length", { .pptt_rev = 3 }, b_srat0 },
    { "several-bugs", { .pptt_rev = 3 }, b_several },
};

static int write_file(const char *path, const void *p, size_t n)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f)) {
        fprintf(stderr, "mac-gen-tables: cannot write %s: %s\n", path, strerror(errno));
        return -1;
    }
    return 0;
}

int main(int argc, char **argv)
{
    if (argc != 3 || (strcmp(argv[1], "tables") && strcmp(argv[1], "corpus"))) {
        fprintf(stderr, "usage: mac-gen-tables tables|corpus DIR\n");
        return 2;
    }
    int corpus = !strcmp(argv[1], "corpus");
    const char *dir = argv[2];
    char path[4096];
    mkdir(dir, 0755);
    for (size_t i = 0; i < sizeof(variants) / sizeof(variants[0]); i++) {
        const struct variant *v = &variants[i];
        struct plat p;
        plat_build(&p, &v->opts);
        if (v->mut) {
            v->mut(&p);
            plat_finish(&p);
        }
        if (corpus) {
            for (int which = 0; which < 4; which++) {
                size_t n;
                uint8_t *b = tb_pack_fuzz(&p.mpam, (which & 1) ? &p.pptt : NULL, (which & 2) ? &p.srat : NULL, &n);
                snprintf(path, sizeof(path), "%s/%s-%d", dir, v->name, which);
                int rc = write_file(path, b, n);
                free(b);
                if (rc) {
                    return 1;
                }
            }
        } else {
            snprintf(path, sizeof(path), "%s/%s", dir, v->name);
            mkdir(path, 0755);
            const struct tb *t[3] = { &p.mpam, &p.pptt, &p.srat };
            const char *nm[3] = { "MPAM", "PPTT", "SRAT" };
            for (int k = 0; k < 3; k++) {
                snprintf(path, sizeof(path), "%s/%s/%s", dir, v->name, nm[k]);
                if (write_file(path, t[k]->p, t[k]->len)) {
                    return 1;
                }
            }
        }
        plat_free(&p);
    }
    return 0;
}
