// SPDX-License-Identifier: GPL-2.0-or-later
/* mpam-acpi-check: command line front end. */
#include "mac.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#define MAX_TABLE (16u << 20)   /* no ACPI table comes near this; stops runaway reads */

static const char usage[] =
"Usage: mpam-acpi-check [--pptt FILE] [--srat FILE] [--json] MPAM-FILE\n"
"       mpam-acpi-check [--json] --dir DIR\n"
"\n"
"Checks a firmware ACPI MPAM table (Arm DEN0065) and its references into the\n"
"PPTT and SRAT against what Linux 7.3 accepts, before you boot.\n"
"\n"
"  MPAM-FILE     the raw binary MPAM table (as in /sys/firmware/acpi/tables/MPAM,\n"
"                or the mpam.dat that `acpidump -b` / `acpixtract -a` write)\n"
"  --pptt FILE   the PPTT, needed to check processor-cache locators, linked\n"
"                processor containers and which CPUs each cache MSC covers\n"
"  --srat FILE   the SRAT, needed to check memory locators' proximity domains\n"
"                and the NUMA-node count that decides MB on memory MSCs\n"
"  --dir DIR     read MPAM, PPTT and SRAT from DIR (names MPAM, PPTT, SRAT as\n"
"                in /sys/firmware/acpi/tables, or mpam.dat, pptt.dat, srat.dat);\n"
"                PPTT and SRAT are optional there\n"
"  --json        print the findings and the decoded fields as JSON\n"
"  --help        this text\n"
"\n"
"Checks: table headers (signature, length, checksum, revision); each MSC node\n"
"(length vs resource nodes, interface type, base and MMIO size, overlap, the\n"
"overflow/error interrupt fields and flags, NRDY time, linked device, reserved\n"
"fields, duplicate identifiers); each resource node (RIS index, locator type,\n"
"cache ID in PPTT rev >= 3 with the ID-valid flag, proximity domain in SRAT);\n"
"and the resctrl consequences: which CPUs each cache MSC covers, whether L2,\n"
"L3 and MB can appear.  Checks that need a table you did not give are reported\n"
"as NOT CHECKED notes, never as passed.  Without a MADT the possible CPUs are\n"
"taken to be the PPTT's leaf processor nodes.\n"
"\n"
"Each finding: severity, table+offset, rule id, message, [source].\n"
"  error    Linux will refuse this MSC, or MPAM as a whole\n"
"  warning  Linux accepts it, but a resctrl resource will be missing\n"
"  note     everything else worth knowing (incl. NOT CHECKED)\n"
"\n"
"Exit status: 0 no errors, 1 errors found, 2 input unreadable (missing file,\n"
"not an ACPI table, wrong signature, shorter than a table header) or bad usage.\n"
"Rule list and JSON format: docs/mpam-acpi-check.md.\n";

/* Read a whole file; NULL with a message on failure. */
static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "mpam-acpi-check: cannot open %s: %s\n", path, strerror(errno));
        return NULL;
    }
    size_t cap = 4096, n = 0;
    uint8_t *p = malloc(cap);
    for (;;) {
        if (n == cap) {
            if (cap >= MAX_TABLE) {
                fprintf(stderr, "mpam-acpi-check: %s is larger than %u bytes: not an ACPI table\n", path, MAX_TABLE);
                free(p);
                fclose(f);
                return NULL;
            }
            cap *= 2;
            p = realloc(p, cap);
        }
        size_t got = fread(p + n, 1, cap - n, f);
        n += got;
        if (got == 0) {
            break;
        }
    }
    if (ferror(f)) {
        fprintf(stderr, "mpam-acpi-check: cannot read %s: %s\n", path, strerror(errno));
        free(p);
        fclose(f);
        return NULL;
    }
    fclose(f);
    *len = n;
    return p;
}

/* In --dir mode: first existing name of a table, or NULL. */
static char *dir_table(const char *dir, const char *sig, const char *lower)
{
    const char *names[] = { sig, lower, NULL };
    char dat[16];
    snprintf(dat, sizeof(dat), "%s.dat", lower);
    names[1] = dat;
    for (int i = 0; names[i]; i++) {
        size_t n = strlen(dir) + strlen(names[i]) + 2;
        char *p = malloc(n);
        snprintf(p, n, "%s/%s", dir, names[i]);
        FILE *f = fopen(p, "rb");
        if (f) {
            fclose(f);
            return p;
        }
        free(p);
    }
    return NULL;
}

int main(int argc, char **argv)
{
    const char *mpam_path = NULL, *pptt_path = NULL, *srat_path = NULL, *dir = NULL;
    char *owned[3] = { NULL, NULL, NULL };
    int json = 0;

    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(usage, stdout);
            return 0;
        } else if (!strcmp(a, "--json")) {
            json = 1;
        } else if ((!strcmp(a, "--pptt") || !strcmp(a, "--srat") || !strcmp(a, "--dir")) && i + 1 < argc) {
            const char **dst = a[2] == 'p' ? &pptt_path : a[2] == 's' ? &srat_path : &dir;
            *dst = argv[++i];
        } else if (a[0] == '-' && a[1]) {
            fprintf(stderr, "mpam-acpi-check: unknown or incomplete option %s (see --help)\n", a);
            return 2;
        } else if (!mpam_path) {
            mpam_path = a;
        } else {
            fprintf(stderr, "mpam-acpi-check: more than one MPAM file given (see --help)\n");
            return 2;
        }
    }
    if (dir) {
        if (mpam_path) {
            fprintf(stderr, "mpam-acpi-check: give either --dir or an MPAM file, not both\n");
            return 2;
        }
        mpam_path = owned[0] = dir_table(dir, "MPAM", "mpam");
        if (!mpam_path) {
            fprintf(stderr, "mpam-acpi-check: no MPAM table (MPAM or mpam.dat) in %s\n", dir);
            return 2;
        }
        if (!pptt_path) {
            pptt_path = owned[1] = dir_table(dir, "PPTT", "pptt");
        }
        if (!srat_path) {
            srat_path = owned[2] = dir_table(dir, "SRAT", "srat");
        }
    }
    if (!mpam_path) {
        fprintf(stderr, "%s", usage);
        return 2;
    }

    struct mac_table t[3] = { { NULL, 0 }, { NULL, 0 }, { NULL, 0 } };
    const char *paths[3] = { mpam_path, pptt_path, srat_path };
    int rc = 0;
    uint8_t *data[3] = { NULL, NULL, NULL };
    for (int i = 0; i < 3 && rc == 0; i++) {
        if (!paths[i]) {
            continue;
        }
        data[i] = slurp(paths[i], &t[i].len);
        if (!data[i]) {
            rc = 2;
        }
        t[i].data = data[i];
    }
    if (rc == 0) {
        struct mac_report r;
        rc = mac_check(&t[0], &t[1], &t[2], &r);
        if (json) {
            mac_print_json(stdout, &r);
        } else {
            printf("mpam-acpi-check: MPAM %s", mpam_path);
            if (pptt_path) {
                printf(", PPTT %s", pptt_path);
            }
            if (srat_path) {
                printf(", SRAT %s", srat_path);
            }
            printf("\n");
            mac_print_text(stdout, &r);
        }
        mac_report_free(&r);
    }
    for (int i = 0; i < 3; i++) {
        free(data[i]);
        free(owned[i]);
    }
    return rc;
}
