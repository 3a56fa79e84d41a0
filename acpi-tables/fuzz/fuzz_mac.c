// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * libFuzzer harness for mpam-acpi-check: the same mac_check() entry point the
 * tool uses, on an in-memory split of the input:
 *   u8 which (bit0: PPTT present, bit1: SRAT present), u16 LE MPAM length,
 *   u16 LE PPTT length, then MPAM, PPTT, and SRAT = everything left.
 * Lengths are clamped to what is there.  Each table is copied into its own
 * exact-size heap buffer so ASan catches any read past its end.
 */
#include "../mac.h"

#include <stdlib.h>
#include <string.h>

static uint8_t *dup(const uint8_t *p, size_t n)
{
    uint8_t *q = malloc(n ? n : 1);
    memcpy(q, p, n);
    return q;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 5) {
        return 0;
    }
    uint8_t which = data[0];
    size_t ml = data[1] | (size_t)data[2] << 8;
    size_t pl = data[3] | (size_t)data[4] << 8;
    data += 5;
    size -= 5;
    if (ml > size) {
        ml = size;
    }
    if (pl > size - ml) {
        pl = size - ml;
    }
    size_t sl = size - ml - pl;

    uint8_t *m = dup(data, ml), *p = dup(data + ml, pl), *s = dup(data + ml + pl, sl);
    struct mac_table tm = { m, ml };
    struct mac_table tp = { (which & 1) ? p : NULL, pl };
    struct mac_table ts = { (which & 2) ? s : NULL, sl };
    struct mac_report r;
    int rc = mac_check(&tm, &tp, &ts, &r);
    if (rc < 0 || rc > 2) {
        abort();
    }
    /* Exercise the printers too (their loops walk the extracted facts). */
    FILE *null = fopen("/dev/null", "w");
    if (null) {
        mac_print_text(null, &r);
        mac_print_json(null, &r);
        fclose(null);
    }
    mac_report_free(&r);
    free(m);
    free(p);
    free(s);
    return 0;
}
