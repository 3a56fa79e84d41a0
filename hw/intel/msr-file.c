/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A table-described MSR file, see msr-file.h. */
#include <string.h>

#include "msr-file.h"

bool msr_file_init(MsrFile *f, const MsrDef *defs, unsigned n_defs,
                   const void *desc, void *owner, MsrInstanceFn *instance,
                   unsigned n_scopes, const char *const *scope_name,
                   const unsigned *n_inst, const uint32_t *extra,
                   GError **errp)
{
    g_assert(n_scopes <= MSR_FILE_MAX_SCOPES);
    *f = (MsrFile) {
        .defs = defs, .n_defs = n_defs, .desc = desc, .owner = owner,
        .instance = instance, .n_scopes = n_scopes, .scope_name = scope_name,
    };
    for (unsigned k = 0; k < n_defs; k++) {
        uint32_t n = defs[k].count(desc, defs[k].arg);

        g_assert(defs[k].scope < n_scopes);
        if (n > defs[k].span) {
            g_set_error(errp, G_FILE_ERROR, G_FILE_ERROR_INVAL,
                        "%u x %s exceed the %u MSRs from 0x%x", n,
                        defs[k].name, defs[k].span, defs[k].addr);
            return false;
        }
    }
    f->off = g_new0(uint32_t, n_defs);
    for (unsigned k = 0; k < n_defs; k++) {
        f->off[k] = f->words[defs[k].scope];
        if (!defs[k].read) {
            f->words[defs[k].scope] += msr_file_count(f, k);
        }
    }
    for (unsigned s = 0; s < n_scopes; s++) {
        f->n_inst[s] = n_inst[s];
        f->extra[s] = extra ? extra[s] : 0;
        f->words[s] += f->extra[s];
        f->regs[s] = g_new0(uint64_t, (size_t)f->n_inst[s] * f->words[s]);
    }
    msr_file_reset(f);
    return true;
}

void msr_file_fini(MsrFile *f)
{
    for (unsigned s = 0; s < f->n_scopes; s++) {
        g_free(f->regs[s]);
    }
    g_free(f->off);
    f->off = NULL;
}

uint32_t msr_file_count(const MsrFile *f, unsigned def)
{
    return f->defs[def].count(f->desc, f->defs[def].arg);
}

uint64_t *msr_file_reg(const MsrFile *f, unsigned def, unsigned inst,
                       uint32_t i)
{
    unsigned s = f->defs[def].scope;

    g_assert(inst < f->n_inst[s] && !f->defs[def].read);
    return &f->regs[s][(size_t)inst * f->words[s] + f->off[def] + i];
}

uint64_t *msr_file_extra(const MsrFile *f, unsigned scope, unsigned inst,
                         uint32_t w)
{
    g_assert(inst < f->n_inst[scope] && w < f->extra[scope]);
    return &f->regs[scope][(size_t)(inst + 1) * f->words[scope] -
                           f->extra[scope] + w];
}

uint64_t msr_file_stored(const MsrFile *f, unsigned def, unsigned inst,
                         uint32_t i)
{
    return i < msr_file_count(f, def) ? *msr_file_reg(f, def, inst, i) : 0;
}

/* The instance of row @def that logical processor @cpu uses. */
static unsigned inst_of(const MsrFile *f, unsigned def, unsigned cpu)
{
    return f->instance(f->owner, f->defs[def].scope, cpu);
}

void msr_file_reset(MsrFile *f)
{
    for (unsigned s = 0; s < f->n_scopes; s++) {
        if (f->regs[s]) {       /* NULL: a scope without words */
            memset(f->regs[s], 0,
                   (size_t)f->n_inst[s] * f->words[s] * sizeof(uint64_t));
        }
    }
    for (unsigned k = 0; k < f->n_defs; k++) {
        const MsrDef *def = &f->defs[k];
        uint64_t v = def->reset ? def->reset(f->desc, def->arg) : 0;

        if (def->read) {
            continue;
        }
        for (unsigned inst = 0; inst < f->n_inst[def->scope]; inst++) {
            for (uint32_t i = 0; i < msr_file_count(f, k); i++) {
                *msr_file_reg(f, k, inst, i) = v;
            }
        }
    }
}

/*
 * The row and register index of @msr, or -1: *@mine if it is in a row's
 * span (then an address beyond what the part has #GPs, as on hardware).
 */
static int find(const MsrFile *f, uint32_t msr, uint32_t *i, bool *mine)
{
    *mine = false;
    for (unsigned k = 0; k < f->n_defs; k++) {
        const MsrDef *def = &f->defs[k];

        if (msr >= def->addr && msr - def->addr < def->span) {
            *mine = true;
            if (msr - def->addr < msr_file_count(f, k)) {
                *i = msr - def->addr;
                return k;
            }
        }
    }
    return -1;
}

MsrResult msr_file_read(const MsrFile *f, unsigned cpu, uint32_t msr,
                        uint64_t *val)
{
    uint32_t i;
    bool mine;
    int k = find(f, msr, &i, &mine);

    if (k < 0) {
        return mine ? MSR_GP : MSR_NOT_MINE;
    }
    *val = f->defs[k].read ? f->defs[k].read(f->owner, cpu, i)
                           : *msr_file_reg(f, k, inst_of(f, k, cpu), i);
    return MSR_OK;
}

/* Whether a stored value of row @def may hold @v. */
static bool may_hold(const MsrFile *f, const MsrDef *def, uint64_t v)
{
    return !(v & ~def->valid(f->desc, def->arg)) &&
           (!def->check || def->check(f->desc, def->arg, v));
}

MsrResult msr_file_write(MsrFile *f, unsigned cpu, uint32_t msr,
                         uint64_t val)
{
    uint32_t i;
    bool mine;
    int k = find(f, msr, &i, &mine);
    const MsrDef *def;

    if (k < 0) {
        return mine ? MSR_GP : MSR_NOT_MINE;
    }
    def = &f->defs[k];
    if (def->write) {
        return def->write(f->owner, cpu, i, val) ? MSR_OK : MSR_GP;
    }
    if (def->read || !may_hold(f, def, val)) {
        return MSR_GP;
    }
    *msr_file_reg(f, k, inst_of(f, k, cpu), i) = val;
    return MSR_OK;
}

uint64_t *msr_file_state(MsrFile *f, unsigned scope, uint32_t *len)
{
    *len = f->n_inst[scope] * f->words[scope];
    return f->regs[scope];
}

char *msr_file_check(const MsrFile *f)
{
    for (unsigned k = 0; k < f->n_defs; k++) {
        const MsrDef *def = &f->defs[k];

        if (def->read) {
            continue;
        }
        for (unsigned inst = 0; inst < f->n_inst[def->scope]; inst++) {
            for (uint32_t i = 0; i < msr_file_count(f, k); i++) {
                uint64_t v = *msr_file_reg(f, k, inst, i);

                if (!may_hold(f, def, v)) {
                    return g_strdup_printf("%s (MSR 0x%x) of %s %u holds "
                                           "0x%" G_GINT64_MODIFIER "x, "
                                           "which a write cannot leave",
                                           def->name, def->addr + i,
                                           f->scope_name[def->scope], inst,
                                           v);
                }
            }
        }
    }
    return NULL;
}
