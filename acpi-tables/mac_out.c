// SPDX-License-Identifier: GPL-2.0-or-later
/* mpam-acpi-check: human-readable and JSON output of a report. */
#include "mac.h"

#include <inttypes.h>

static void json_str(FILE *o, const char *s)
{
    fputc('"', o);
    for (; *s; s++) {
        unsigned char c = (unsigned char)*s;
        if (c == '"' || c == '\\') {
            fprintf(o, "\\%c", c);
        } else if (c < 0x20 || c == 0x7f) {   /* UTF-8 (the § in sources) passes through */
            fprintf(o, "\\u%04x", c);
        } else {
            fputc(c, o);
        }
    }
    fputc('"', o);
}

void mac_print_text(FILE *o, const struct mac_report *r)
{
    for (size_t i = 0; i < r->n; i++) {
        const struct mac_finding *f = &r->f[i];
        fprintf(o, "%-7s %s+0x%04" PRIx32 " %s: %s\n        [%s]\n", mac_sev_name(f->sev), f->table,
                f->offset, f->rule, f->msg, f->source);
    }
    if (r->dropped) {
        fprintf(o, "... %zu more finding(s) not shown (limit %d)\n", r->dropped, MAC_MAX_FINDINGS);
    }
    if (!r->unreadable) {
        fprintf(o, "MPAM rev %u: %zu MSC node(s), %zu resource node(s); PPTT %s; SRAT %s\n", r->mpam_rev,
                r->msc_n, r->res_n, r->have_pptt ? "given" : "NOT given (cache checks skipped)",
                r->have_srat ? "given" : "NOT given (memory checks skipped)");
    }
    fprintf(o, "%zu error(s), %zu warning(s), %zu note(s)\n", r->errors, r->warnings, r->notes);
}

void mac_print_json(FILE *o, const struct mac_report *r)
{
    fprintf(o, "{\n  \"tool\": \"mpam-acpi-check\",\n  \"unreadable\": %s,\n", r->unreadable ? "true" : "false");
    fprintf(o, "  \"tables\": {\"MPAM\": {\"revision\": %u}, \"PPTT\": ", r->mpam_rev);
    if (r->have_pptt) {
        fprintf(o, "{\"revision\": %u}", r->pptt_rev);
    } else {
        fprintf(o, "null");
    }
    fprintf(o, ", \"SRAT\": ");
    if (r->have_srat) {
        fprintf(o, "{\"revision\": %u}", r->srat_rev);
    } else {
        fprintf(o, "null");
    }
    fprintf(o, "},\n  \"msc\": [");
    for (size_t i = 0; i < r->msc_n; i++) {
        const struct mac_msc *m = &r->msc[i];
        fprintf(o, "%s\n    {\"offset\": %" PRIu32 ", \"length\": %u, \"interface_type\": %u, \"identifier\": %" PRIu32
                ", \"base_address\": %" PRIu64 ", \"mmio_size\": %" PRIu32
                ", \"overflow_interrupt\": %" PRIu32 ", \"overflow_interrupt_flags\": %" PRIu32
                ", \"error_interrupt\": %" PRIu32 ", \"error_interrupt_flags\": %" PRIu32
                ", \"max_nrdy_usec\": %" PRIu32 ", \"linked_device_hid\": ",
                i ? "," : "", m->off, m->length, m->interface_type, m->identifier, m->base_address, m->mmio_size,
                m->overflow_interrupt, m->overflow_interrupt_flags, m->error_interrupt, m->error_interrupt_flags,
                m->max_nrdy_usec);
        json_str(o, m->hid);
        fprintf(o, ", \"linked_device_uid\": %" PRIu32 ", \"num_resource_nodes\": %" PRIu32 ", \"resources\": [",
                m->uid, m->num_resource_nodes);
        for (size_t k = 0; k < m->res_n; k++) {
            const struct mac_res *x = &r->res[m->res_first + k];
            fprintf(o, "%s\n      {\"offset\": %" PRIu32 ", \"identifier\": %" PRIu32 ", \"ris_index\": %u"
                    ", \"locator_type\": %u, \"descriptor1\": %" PRIu64 ", \"descriptor2\": %" PRIu32
                    ", \"num_functional_deps\": %" PRIu32 ", \"cache_level\": %d, \"cpus\": ",
                    k ? "," : "", x->off, x->identifier, x->ris_index, x->locator_type, x->descriptor1,
                    x->descriptor2, x->num_deps, x->level);
            if (x->has_cpus) {
                fputc('[', o);
                int first = 1;
                for (size_t c = 0; c < r->cpu_n; c++) {
                    if (r->bitmaps[x->cpus_first + c]) {
                        fprintf(o, "%s%" PRIu32, first ? "" : ", ", r->cpu[c].acpi_processor_id);
                        first = 0;
                    }
                }
                fputc(']', o);
            } else {
                fprintf(o, "null");
            }
            fputc('}', o);
        }
        fprintf(o, "%s]}", m->res_n ? "\n    " : "");
    }
    fprintf(o, "%s],\n  \"pptt_caches\": [", r->msc_n ? "\n  " : "");
    for (size_t i = 0; i < r->pptt_cache_n; i++) {
        const struct mac_pptt_cache *c = &r->pptt_cache[i];
        fprintf(o, "%s\n    {\"offset\": %" PRIu32 ", \"length\": %u, \"flags\": %" PRIu32 ", \"next_level\": %" PRIu32
                ", \"size\": %" PRIu32 ", \"attributes\": %u, \"cache_id\": %" PRIu32 ", \"cache_id_valid\": %s}",
                i ? "," : "", c->off, c->length, c->flags, c->next_level, c->size, c->attributes, c->cache_id,
                c->id_valid ? "true" : "false");
    }
    fprintf(o, "%s],\n  \"cpus\": [", r->pptt_cache_n ? "\n  " : "");
    for (size_t i = 0; i < r->cpu_n; i++) {
        fprintf(o, "%s{\"offset\": %" PRIu32 ", \"acpi_processor_id\": %" PRIu32 "}", i ? ", " : "", r->cpu[i].off,
                r->cpu[i].acpi_processor_id);
    }
    fprintf(o, "],\n  \"findings\": [");
    for (size_t i = 0; i < r->n; i++) {
        const struct mac_finding *f = &r->f[i];
        fprintf(o, "%s\n    {\"severity\": \"%s\", \"rule\": ", i ? "," : "", mac_sev_name(f->sev));
        json_str(o, f->rule);
        fprintf(o, ", \"table\": ");
        json_str(o, f->table);
        fprintf(o, ", \"offset\": %" PRIu32 ", \"message\": ", f->offset);
        json_str(o, f->msg);
        fprintf(o, ", \"source\": ");
        json_str(o, f->source);
        fputc('}', o);
    }
    fprintf(o, "%s],\n  \"summary\": {\"errors\": %zu, \"warnings\": %zu, \"notes\": %zu, \"not_shown\": %zu}\n}\n",
            r->n ? "\n  " : "", r->errors, r->warnings, r->notes, r->dropped);
}
