// SPDX-License-Identifier: GPL-2.0-or-later
/* Test-side ACPI table builder (see tblbuild.h). */
#include "tblbuild.h"

#include <stdlib.h>
#include <string.h>

static void need(struct tb *t, size_t n)
{
    if (t->len + n > t->cap) {
        t->cap = (t->len + n) * 2 + 64;
        t->p = realloc(t->p, t->cap);
        if (!t->p) {
            abort();
        }
    }
}

void tb_u8(struct tb *t, uint8_t v) { need(t, 1); t->p[t->len++] = v; }
void tb_u16(struct tb *t, uint16_t v) { tb_u8(t, (uint8_t)v); tb_u8(t, (uint8_t)(v >> 8)); }
void tb_u32(struct tb *t, uint32_t v) { tb_u16(t, (uint16_t)v); tb_u16(t, (uint16_t)(v >> 16)); }
void tb_u64(struct tb *t, uint64_t v) { tb_u32(t, (uint32_t)v); tb_u32(t, (uint32_t)(v >> 32)); }

void tb_set8(struct tb *t, size_t off, uint8_t v) { t->p[off] = v; }
void tb_set16(struct tb *t, size_t off, uint16_t v) { tb_set8(t, off, (uint8_t)v); tb_set8(t, off + 1, (uint8_t)(v >> 8)); }
void tb_set32(struct tb *t, size_t off, uint32_t v) { tb_set16(t, off, (uint16_t)v); tb_set16(t, off + 2, (uint16_t)(v >> 16)); }
void tb_set64(struct tb *t, size_t off, uint64_t v) { tb_set32(t, off, (uint32_t)v); tb_set32(t, off + 4, (uint32_t)(v >> 32)); }

uint32_t tb_get32(const struct tb *t, size_t off)
{
    return (uint32_t)t->p[off] | (uint32_t)t->p[off + 1] << 8 | (uint32_t)t->p[off + 2] << 16 |
           (uint32_t)t->p[off + 3] << 24;
}

static void tb_chars(struct tb *t, const char *s, size_t n)
{
    size_t l = s ? strlen(s) : 0;
    for (size_t i = 0; i < n; i++) {
        tb_u8(t, i < l ? (uint8_t)s[i] : (s ? ' ' : 0));
    }
}

/* ACPI 6.5 §5.2.6: Signature, Length, Revision, Checksum, OEMID[6],
 * OEM Table ID[8], OEM Revision, Creator ID[4], Creator Revision. */
void tb_init(struct tb *t, const char *sig, uint8_t rev)
{
    memset(t, 0, sizeof(*t));
    tb_chars(t, sig, 4);
    tb_u32(t, 0);
    tb_u8(t, rev);
    tb_u8(t, 0);
    tb_chars(t, "MEMQOS", 6);
    tb_chars(t, "MQTEST", 8);
    tb_u32(t, 1);
    tb_chars(t, "MQTB", 4);
    tb_u32(t, 1);
}

void tb_free(struct tb *t)
{
    free(t->p);
    memset(t, 0, sizeof(*t));
}

void tb_finish(struct tb *t)
{
    uint8_t sum = 0;
    tb_set32(t, 4, (uint32_t)t->len);
    t->p[9] = 0;
    for (size_t i = 0; i < t->len; i++) {
        sum = (uint8_t)(sum + t->p[i]);
    }
    t->p[9] = (uint8_t)(0x100 - sum);
}

/* DEN0065 2.0 MSC node: Length u16, Interface type u8, Reserved u8,
 * Identifier u32, Base address u64, MMIO size u32, Overflow interrupt u32,
 * flags u32, Reserved u32, affinity u32, Error interrupt u32, flags u32,
 * Reserved u32, affinity u32, Max NRDY usec u32, Linked device HID u64,
 * Linked device UID u32, Number of resource nodes u32. */
size_t tb_mpam_msc(struct tb *t, const struct mac_msc *m)
{
    size_t at = t->len;
    tb_u16(t, 72);
    tb_u8(t, m->interface_type);
    tb_u8(t, 0);
    tb_u32(t, m->identifier);
    tb_u64(t, m->base_address);
    tb_u32(t, m->mmio_size);
    tb_u32(t, m->overflow_interrupt);
    tb_u32(t, m->overflow_interrupt_flags);
    tb_u32(t, 0);
    tb_u32(t, m->overflow_interrupt_affinity);
    tb_u32(t, m->error_interrupt);
    tb_u32(t, m->error_interrupt_flags);
    tb_u32(t, 0);
    tb_u32(t, m->error_interrupt_affinity);
    tb_u32(t, m->max_nrdy_usec);
    if (m->hid[0]) {
        tb_chars(t, m->hid, 8);
    } else {
        tb_u64(t, 0);
    }
    tb_u32(t, m->uid);
    tb_u32(t, 0);
    return at;
}

/* Resource node: Identifier u32, RIS index u8, Reserved u16, Locator type u8,
 * Locator (Descriptor1 u64, Descriptor2 u32), Number of functional deps u32,
 * then deps {Producer u32, Reserved u32}.  Must follow its MSC directly. */
size_t tb_mpam_res(struct tb *t, size_t msc, uint32_t ident, uint8_t ris, uint8_t locator_type,
                   uint64_t descriptor1, uint32_t descriptor2, uint32_t num_deps)
{
    size_t at = t->len;
    tb_u32(t, ident);
    tb_u8(t, ris);
    tb_u16(t, 0);
    tb_u8(t, locator_type);
    tb_u64(t, descriptor1);
    tb_u32(t, descriptor2);
    tb_u32(t, num_deps);
    for (uint32_t i = 0; i < num_deps; i++) {
        tb_u32(t, 0x1000 + i);
        tb_u32(t, 0);
    }
    tb_set16(t, msc, (uint16_t)(t->len - msc));
    tb_set32(t, msc + 68, tb_get32(t, msc + 68) + 1);
    return at;
}

/* PPTT cache type structure, 28 bytes (rev 3): Type 1, Length, Reserved u16,
 * Flags u32, Next level u32, Size u32, Sets u32, Assoc u8, Attributes u8,
 * Line size u16, Cache ID u32. */
size_t tb_pptt_cache(struct tb *t, uint32_t flags, uint32_t next, uint32_t size, uint32_t sets,
                     uint8_t assoc, uint8_t attr, uint16_t line, uint32_t cache_id)
{
    size_t at = t->len;
    tb_u8(t, 1);
    tb_u8(t, 28);
    tb_u16(t, 0);
    tb_u32(t, flags);
    tb_u32(t, next);
    tb_u32(t, size);
    tb_u32(t, sets);
    tb_u8(t, assoc);
    tb_u8(t, attr);
    tb_u16(t, line);
    tb_u32(t, cache_id);
    return at;
}

/* Processor hierarchy node: Type 0, Length, Reserved u16, Flags u32,
 * Parent u32, ACPI Processor ID u32, Number of private resources u32, refs. */
size_t tb_pptt_proc(struct tb *t, uint32_t flags, uint32_t parent, uint32_t acpi_id,
                    uint32_t npriv, const uint32_t *priv)
{
    size_t at = t->len;
    tb_u8(t, 0);
    tb_u8(t, (uint8_t)(20 + 4 * npriv));
    tb_u16(t, 0);
    tb_u32(t, flags);
    tb_u32(t, parent);
    tb_u32(t, acpi_id);
    tb_u32(t, npriv);
    for (uint32_t i = 0; i < npriv; i++) {
        tb_u32(t, priv[i]);
    }
    return at;
}

/* SRAT: header, Reserved u32 (1 for compatibility), Reserved u64. */
void tb_srat_init(struct tb *t, uint8_t rev)
{
    tb_init(t, "SRAT", rev);
    tb_u32(t, 1);
    tb_u64(t, 0);
}

/* Memory affinity: Type 1, Length 40, Proximity domain u32, Reserved u16,
 * Base lo/hi, Length lo/hi, Reserved u32, Flags u32, Reserved u64. */
size_t tb_srat_mem(struct tb *t, uint32_t pxm, uint64_t base, uint64_t len, uint32_t flags)
{
    size_t at = t->len;
    tb_u8(t, 1);
    tb_u8(t, 40);
    tb_u32(t, pxm);
    tb_u16(t, 0);
    tb_u64(t, base);
    tb_u64(t, len);
    tb_u32(t, 0);
    tb_u32(t, flags);
    tb_u64(t, 0);
    return at;
}

/* GICC affinity: Type 3, Length 18, Proximity domain u32, ACPI Processor
 * UID u32, Flags u32, Clock domain u32. */
size_t tb_srat_gicc(struct tb *t, uint32_t pxm, uint32_t uid, uint32_t flags)
{
    size_t at = t->len;
    tb_u8(t, 3);
    tb_u8(t, 18);
    tb_u32(t, pxm);
    tb_u32(t, uid);
    tb_u32(t, flags);
    tb_u32(t, 0);
    return at;
}

#define CACHE_ALL_VALID 0xffu   /* size, sets, assoc, alloc, type, write policy, line, ID */

void plat_build(struct plat *p, const struct plat_opts *o)
{
    static const struct plat_opts dflt = { .pptt_rev = 3 };
    if (!o) {
        o = &dflt;
    }
    memset(p, 0, sizeof(*p));

    /* PPTT: caches first so that the processor nodes can refer to them. */
    struct tb *t = &p->pptt;
    tb_init(t, "PPTT", o->pptt_rev ? o->pptt_rev : 3);
    size_t l4 = 0, l3b = 0;
    if (o->l4) {
        l4 = tb_pptt_cache(t, CACHE_ALL_VALID, 0, 64 << 20, 65536, 16, 0x0e, 64, 40);
    }
    p->l3 = tb_pptt_cache(t, CACHE_ALL_VALID, (uint32_t)l4, 8 << 20, 8192, 16, 0x0e, 64, 30);
    if (o->l3_on_cpu) {
        l3b = tb_pptt_cache(t, CACHE_ALL_VALID, (uint32_t)l4, 8 << 20, 8192, 16, 0x0e, 64, 31);
    }
    for (int c = 0; c < PLAT_NCPU; c++) {
        p->l2[c] = tb_pptt_cache(t, CACHE_ALL_VALID, 0, 1 << 20, 1024, 16, 0x0e, 64, 20 + c);
        p->l1d[c] = tb_pptt_cache(t, CACHE_ALL_VALID, (uint32_t)p->l2[c], 64 << 10, 256, 4, 0x02, 64, 10 + c);
        p->l1i[c] = tb_pptt_cache(t, CACHE_ALL_VALID, (uint32_t)p->l2[c], 64 << 10, 256, 4, 0x06, 64, 14 + c);
    }
    size_t cl[2] = { 0, 0 };
    if (o->l3_on_cpu) {
        p->pkg = tb_pptt_proc(t, 0x3, 0, 100, 0, NULL);
        uint32_t r0 = (uint32_t)p->l3, r1 = (uint32_t)l3b;
        cl[0] = tb_pptt_proc(t, 0x2, (uint32_t)p->pkg, 200, 1, &r0);
        cl[1] = tb_pptt_proc(t, 0x2, (uint32_t)p->pkg, 201, 1, &r1);
    } else {
        uint32_t r = (uint32_t)p->l3;
        p->pkg = tb_pptt_proc(t, 0x3, 0, 100, 1, &r);
    }
    for (int c = 0; c < PLAT_NCPU; c++) {
        uint32_t refs[2] = { (uint32_t)p->l1d[c], (uint32_t)p->l1i[c] };
        uint32_t parent = (uint32_t)(o->l3_on_cpu ? cl[c / 2] : p->pkg);
        p->cpu[c] = tb_pptt_proc(t, 0x2 | 0x8, parent, (uint32_t)c, 2, refs);
    }

    /* SRAT */
    tb_srat_init(&p->srat, 3);
    p->srat_mem = tb_srat_mem(&p->srat, 0, 0x40000000, 0x40000000, 1);
    if (o->second_node) {
        tb_srat_mem(&p->srat, 1, 0x80000000, 0x40000000, 1);
    }
    for (int c = 0; c < PLAT_NCPU; c++) {
        tb_srat_gicc(&p->srat, o->second_node ? (uint32_t)c / 2 : 0, (uint32_t)c, 1);
    }

    /* MPAM, revision 1 (DEN0065 2.0) */
    t = &p->mpam;
    tb_init(t, "MPAM", 1);
    struct mac_msc m = {
        .identifier = 0, .base_address = 0x90000000, .mmio_size = 0x4000,
        .error_interrupt = 64, .error_interrupt_flags = 0, .max_nrdy_usec = 10,
    };
    p->msc[0] = tb_mpam_msc(t, &m);
    p->res[0] = tb_mpam_res(t, p->msc[0], 0, 0, 0, 30, 0, 0);
    m.identifier = 1;
    m.base_address = 0x90010000;
    m.error_interrupt = 65;
    p->msc[1] = tb_mpam_msc(t, &m);
    p->res[1] = tb_mpam_res(t, p->msc[1], 1, 0, 1, 0, 0, 0);
    if (o->extra_l2_msc) {
        m.identifier = 2;
        m.base_address = 0x90020000;
        m.error_interrupt = 66;
        size_t x = tb_mpam_msc(t, &m);
        tb_mpam_res(t, x, 2, 0, 0, 20, 0, 0);
    }
    plat_finish(p);
}

void plat_finish(struct plat *p)
{
    tb_finish(&p->mpam);
    tb_finish(&p->pptt);
    tb_finish(&p->srat);
}

void plat_free(struct plat *p)
{
    tb_free(&p->mpam);
    tb_free(&p->pptt);
    tb_free(&p->srat);
}

uint8_t *tb_pack_fuzz(const struct tb *mpam, const struct tb *pptt, const struct tb *srat, size_t *len)
{
    size_t n = 5 + mpam->len + (pptt ? pptt->len : 0) + (srat ? srat->len : 0);
    uint8_t *out = malloc(n), *w = out;
    size_t pl = pptt ? pptt->len : 0;
    *w++ = (uint8_t)((pptt ? 1 : 0) | (srat ? 2 : 0));
    *w++ = (uint8_t)mpam->len;
    *w++ = (uint8_t)(mpam->len >> 8);
    *w++ = (uint8_t)pl;
    *w++ = (uint8_t)(pl >> 8);
    memcpy(w, mpam->p, mpam->len);
    w += mpam->len;
    if (pptt) {
        memcpy(w, pptt->p, pptt->len);
        w += pptt->len;
    }
    if (srat) {
        memcpy(w, srat->p, srat->len);
    }
    *len = n;
    return out;
}
