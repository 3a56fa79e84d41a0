/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A memqos device's configuration as QEMU hands it over, in one place
 * (QEMU glue; docs/platform.md "Fixed once the machine is built" and
 * "Migration"):
 *
 *   - the user's -global: what the board derives from its own options is
 *     refused as a -global, naming the option to use instead; any other
 *     -global is applied after the board's choices, fatally if it does not
 *     parse, also for a device created once the machine is done (which
 *     QEMU treats as hot-plugged: a bad -global would only warn);
 *   - migration: a source configured differently is refused by name, the
 *     configuration travelling as "property=value;" in a section of its
 *     own ("<type>-config") loaded before any device state; a loaded state
 *     its model cannot reach is refused (memqos_refuse_load).
 */
#ifndef MEMQOS_MEMSYS_CONFIG_QEMU_H
#define MEMQOS_MEMSYS_CONFIG_QEMU_H

#include "hw/qdev-core.h"

/*
 * Before the board sets property @name of @dev from its option @option
 * (e.g. "-M virt mpam-partids"): false, with @errp set, when the user gave
 * it as a -global.
 */
bool memqos_board_prop(DeviceState *dev, const char *name, const char *option,
                       Error **errp);
/*
 * After the board's choices, before realize: every -global the user gave
 * for a property of @dev, applied again (the board's defaults do not
 * replace it); false, with @errp naming the property, when one does not
 * parse.
 */
bool memqos_apply_globals(DeviceState *dev, Error **errp);

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
