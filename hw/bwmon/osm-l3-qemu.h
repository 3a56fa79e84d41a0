/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * QEMU glue of the OSM L3 provider model (osm-l3.h): the SysBus device
 * memqos-osm-l3, one MMIO region of 0x1400 (sdm845.dtsi
 * interconnect@17d41000), properties xo-hz and alt-hz (the clocks the DT
 * gives the driver as "xo" and "alternate"; the sdm845 LUT is the model's
 * default).  The timing model reads the frequency the guest selected
 * (memqos_osm_l3_model).  docs/bwmon-model.md, "Glue".
 */
#ifndef MEMQOS_BWMON_OSM_L3_QEMU_H
#define MEMQOS_BWMON_OSM_L3_QEMU_H

#include "hw/sysbus.h"
#include "qom/object.h"
#include "osm-l3.h"

#define TYPE_MEMQOS_OSM_L3 "memqos-osm-l3"
OBJECT_DECLARE_SIMPLE_TYPE(MemqosOsmL3State, MEMQOS_OSM_L3)

struct MemqosOsmL3State {
    SysBusDevice parent_obj;

    MemoryRegion mmio;
    OsmL3Config cfg;            /* properties, the sdm845 LUT */
    OsmL3 *l3;                  /* after realize */
    uint32_t mig_perf_state;    /* migration */
};

OsmL3 *memqos_osm_l3_model(MemqosOsmL3State *s);

#endif
