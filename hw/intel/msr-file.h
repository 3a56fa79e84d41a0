/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A file of model-specific registers described by a table, the engine
 * that the RDT MSRs (rdt-msr.h) and the architectural PMU's (x86-pmu.h)
 * share.  A row is one MSR or a range of them: its address, the addresses
 * it reserves, its name, its scope (which instance a logical processor
 * reads and writes: its own, its L2 domain's, ...), and functions of the
 * model's description: how many registers the part has, their reset
 * value, the bits a write may set, a further check; or, where a register
 * is more than storage, the model's own read or write.  From the table
 * come the answers to RDMSR and WRMSR (#GP where hardware raises it: an
 * address in a row's span beyond what the part has, a reserved bit, a
 * value the check refuses, a write to a computed register), the storage
 * (per scope, one flat array of 64-bit words over its instances, which
 * is what migration saves), reset and the check after loading.
 * Pure C + glib.
 */
#ifndef MEMQOS_INTEL_MSR_FILE_H
#define MEMQOS_INTEL_MSR_FILE_H

#include <stdbool.h>
#include <stdint.h>
#include <glib.h>

#define MSR_FILE_MAX_SCOPES     4

typedef enum MsrResult {
    MSR_OK,
    MSR_GP,                     /* the instruction raises #GP(0) */
    MSR_NOT_MINE,               /* not this file's: the caller handles it */
} MsrResult;

/*
 * One MSR, or a range of them.  The functions get the file's description
 * and the row's @arg (RDT: the cache level of a CAT register).
 */
typedef struct MsrDef {
    uint32_t addr;              /* the first */
    uint32_t span;              /* addresses the range reserves */
    const char *name;
    unsigned scope;             /* < the file's scopes */
    unsigned arg;
    /* How many the description has (0: absent, every access #GPs). */
    uint32_t (*count)(const void *desc, unsigned arg);
    /* NULL: 0. */
    uint64_t (*reset)(const void *desc, unsigned arg);
    /* Bits a stored value may have: what a plain write accepts, and loads. */
    uint64_t (*valid)(const void *desc, unsigned arg);
    /* NULL, or false if a plain write (and a load) of @v is refused. */
    bool (*check)(const void *desc, unsigned arg, uint64_t v);
    /* NULL: read the stored value; else computed (no storage, no plain write). */
    uint64_t (*read)(void *owner, unsigned cpu, uint32_t i);
    /* NULL: a plain write; else the write's effect, false for #GP. */
    bool (*write)(void *owner, unsigned cpu, uint32_t i, uint64_t v);
} MsrDef;

/* The instance of @scope that logical processor @cpu uses. */
typedef unsigned MsrInstanceFn(void *owner, unsigned scope, unsigned cpu);

typedef struct MsrFile {
    const MsrDef *defs;
    unsigned n_defs;
    const void *desc;
    void *owner;                        /* handed to read, write, instance */
    MsrInstanceFn *instance;
    unsigned n_scopes;
    const char *const *scope_name;      /* e.g. "CPU", "L3 domain"; kept */
    unsigned n_inst[MSR_FILE_MAX_SCOPES];
    uint32_t words[MSR_FILE_MAX_SCOPES]; /* per instance */
    uint32_t extra[MSR_FILE_MAX_SCOPES]; /* the owner's, after the MSRs */
    uint32_t *off;                      /* [def]: first word in its scope */
    uint64_t *regs[MSR_FILE_MAX_SCOPES]; /* [instance * words + off + i] */
} MsrFile;

/*
 * A file of @n_defs rows over @desc, with @n_inst[s] instances of each of
 * @n_scopes scopes named @scope_name[s], and @extra[s] (NULL: none) more words per instance
 * after the registers, for the owner's state (msr_file_extra).  False
 * with *@errp set if a row has more registers than its span.  Reset.
 */
bool msr_file_init(MsrFile *f, const MsrDef *defs, unsigned n_defs,
                   const void *desc, void *owner, MsrInstanceFn *instance,
                   unsigned n_scopes, const char *const *scope_name,
                   const unsigned *n_inst, const uint32_t *extra,
                   GError **errp);
void msr_file_fini(MsrFile *f);
/* Every register to its reset value, the extra words to 0. */
void msr_file_reset(MsrFile *f);
/* How many registers row @def has. */
uint32_t msr_file_count(const MsrFile *f, unsigned def);
/* Register @i of row @def (stored) in instance @inst. */
uint64_t *msr_file_reg(const MsrFile *f, unsigned def, unsigned inst,
                       uint32_t i);
/* Register @i of row @def (stored) in instance @inst, 0 if absent. */
uint64_t msr_file_stored(const MsrFile *f, unsigned def, unsigned inst,
                         uint32_t i);
/* Extra word @w of instance @inst of @scope. */
uint64_t *msr_file_extra(const MsrFile *f, unsigned scope, unsigned inst,
                         uint32_t w);

MsrResult msr_file_read(const MsrFile *f, unsigned cpu, uint32_t msr,
                        uint64_t *val);
MsrResult msr_file_write(MsrFile *f, unsigned cpu, uint32_t msr,
                         uint64_t val);

/* Migration: the words of @scope (instances x (registers + extra)). */
uint64_t *msr_file_state(MsrFile *f, unsigned scope, uint32_t *len);
/*
 * After loading: NULL, or a g_malloc'ed reason naming the first stored
 * register that holds what no write could leave.
 */
char *msr_file_check(const MsrFile *f);

#endif
