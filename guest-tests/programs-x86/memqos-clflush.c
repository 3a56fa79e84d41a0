/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * memqos-clflush OCCUPANCY-FILE BYTES: write a fresh buffer of BYTES,
 * read the resctrl llc_occupancy file of the caller's group, CLFLUSH
 * every line of the buffer, read it again.  Prints
 *   written=BYTES occupancy_before=B occupancy_after=A
 * The x86 timing platform's CLFLUSH check (guest-tests/scenarios-x86/
 * rdt-timing.sh, docs/rdt-model.md "Cache maintenance"): the buffer's
 * lines leave the modeled L3, so its occupancy falls.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LINE 64

static unsigned long long occupancy(const char *path)
{
    unsigned long long v;
    FILE *f = fopen(path, "r");

    if (!f || fscanf(f, "%llu", &v) != 1) {
        fprintf(stderr, "memqos-clflush: cannot read %s\n", path);
        exit(1);
    }
    fclose(f);
    return v;
}

int main(int argc, char **argv)
{
    unsigned long long before, after;
    size_t n;
    char *buf;

    if (argc != 3 || !(n = strtoull(argv[2], NULL, 0)) || n % LINE) {
        fprintf(stderr, "usage: memqos-clflush OCCUPANCY-FILE BYTES (a multiple of %d)\n",
                LINE);
        return 2;
    }
    buf = aligned_alloc(LINE, n);
    if (!buf) {
        fprintf(stderr, "memqos-clflush: no memory for %zu bytes\n", n);
        return 1;
    }
    memset(buf, 1, n);
    before = occupancy(argv[1]);
    for (size_t i = 0; i < n; i += LINE) {
        __asm__ volatile("clflush %0" : : "m"(buf[i]));
    }
    __asm__ volatile("mfence" : : : "memory");
    after = occupancy(argv[1]);
    printf("written=%zu occupancy_before=%llu occupancy_after=%llu\n", n, before, after);
    return 0;
}
