/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every memqos device's migration refuses, in one place (QEMU glue,
 * docs/platform.md "Migration"):
 *
 *   - a source configured differently: the configuration travels as
 *     "property=value;" in a section of its own ("<type>-config"), loaded
 *     before any device state, and a difference is refused with the
 *     property's name and both values;
 *   - a loaded state its model cannot reach (memqos_refuse_load).
 */
#ifndef MEMQOS_MEMSYS_MIGRATION_QEMU_H
#define MEMQOS_MEMSYS_MIGRATION_QEMU_H

#include "qom/object.h"

typedef struct MemqosMigConfig MemqosMigConfig;

/*
 * Migrate the configuration of @obj, named @who in messages (e.g.
 * "memqos-mpam-msc l3"): the properties @props (NULL-terminated), or with
 * @props NULL every settable property memqos gives @obj (its type's and its
 * memqos ancestors', not those of QEMU's device types) but those in @skip
 * (NULL-terminated, or NULL: none), which may differ (state that migrates
 * by itself).  The section's name is @section.
 */
MemqosMigConfig *memqos_mig_config_register(Object *obj, const char *who,
                                            const char *section,
                                            const char *const *props,
                                            const char *const *skip);
void memqos_mig_config_unregister(MemqosMigConfig *c);

/*
 * A post_load of a memqos device whose model checks its loaded state
 * (memqos-rdt, memqos-x86-pmu, memqos-spr-uncore): 0 when the model gave
 * no reason @why, else the reason reported for @who, freed, and -EINVAL.
 */
int memqos_refuse_load(const char *who, char *why);

#endif
