/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU glue of the OSM L3 provider model (osm-l3.h): the SysBus device
 * memqos-osm-l3, one MMIO region of 0x1400 (sdm845.dtsi
 * interconnect@17d41000), properties xo-hz and alt-hz (the clocks the DT
 * gives the driver as "xo" and "alternate"; the sdm845 LUT is the model's
 * default), pin (none, lowest, top or a row: the domain runs there whatever
 * the guest votes), timing-cycles / timing-full-hz (the effect's) and
 * port-bytes (the vCPUs' ports to the L3, on the CPU path's provider).
 * The timing model reads the frequency the guest selected
 * (memqos_osm_l3_model).  docs/bwmon-model.md, "Glue".
 */
#ifndef MEMQOS_BWMON_OSM_L3_QEMU_H
#define MEMQOS_BWMON_OSM_L3_QEMU_H

#include "hw/sysbus.h"
#include "qom/object.h"
#include "qapi/qapi-types-memqos.h"
#include "osm-l3.h"
#include "../memsys/config-qemu.h"

#define TYPE_MEMQOS_OSM_L3 "memqos-osm-l3"
OBJECT_DECLARE_SIMPLE_TYPE(MemqosOsmL3State, MEMQOS_OSM_L3)

struct MemqosOsmL3State {
    SysBusDevice parent_obj;

    MemoryRegion mmio;
    OsmL3Config cfg;            /* properties, the sdm845 LUT */
    OsmL3 *l3;                  /* after realize */
    uint32_t mig_perf_state;    /* migration */
    MemqosMigConfig *mig_config;
    char *pin;                  /* "none", "lowest", "top" or a row */
    uint32_t timing_cycles;     /* UINT32_MAX: the platform's default */
    uint64_t timing_full_hz;    /* UINT64_MAX: the platform's default */
    uint32_t port_bytes;        /* bytes per clock of a port; 0: no port */
};

OsmL3 *memqos_osm_l3_model(MemqosOsmL3State *s);
/*
 * The timing effect's cycles and full-speed frequency of this provider's
 * path (OsmL3Effect): the properties timing-cycles and timing-full-hz, or,
 * where they were not set, @cycles and @full_hz; *port_bytes (if not
 * NULL) is the property port-bytes (0, the default: no port limit).
 */
void memqos_osm_l3_effect(MemqosOsmL3State *s, uint32_t *cycles,
                          uint64_t *full_hz, uint32_t *port_bytes);
/* query-memqos-bwmon's entry of @s. */
MemqosBwmonProvider *memqos_osm_l3_info(MemqosOsmL3State *s);

#endif
