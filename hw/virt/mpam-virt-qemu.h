/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MPAM platform of QEMU's Arm "virt" machine (-M virt,mpam=on): machine
 * options, CPU set-up, MSC devices and ACPI tables.  hw/arm/virt.c and
 * hw/arm/virt-acpi-build.c only call the hooks below (patches 0011, 0012);
 * everything MPAM-specific lives here.  docs/platform.md.
 */
#ifndef MEMQOS_MPAM_VIRT_QEMU_H
#define MEMQOS_MPAM_VIRT_QEMU_H

#include "hw/acpi/bios-linker-loader.h"

typedef struct VirtMachineState VirtMachineState;

/* MSC 0 is the L3 cache MSC, MSC 1 the memory MSC. */
#define MEMQOS_MPAM_VIRT_NUM_MSC    2
/* The VIRT_MPAM_MSC window holds one 16 KiB frame per MSC. */
#define MEMQOS_MPAM_VIRT_MSC_SIZE   0x4000

/* The numeric machine options (mpam-virt-qemu.c has their names). */
enum {
    MEMQOS_MPAM_VIRT_PARTIDS,
    MEMQOS_MPAM_VIRT_PMGS,
    MEMQOS_MPAM_VIRT_L3_SIZE,
    MEMQOS_MPAM_VIRT_L3_WAYS,
    MEMQOS_MPAM_VIRT_L1D_SIZE,
    MEMQOS_MPAM_VIRT_L1D_WAYS,
    MEMQOS_MPAM_VIRT_L1I_SIZE,
    MEMQOS_MPAM_VIRT_L1I_WAYS,
    MEMQOS_MPAM_VIRT_L2_SIZE,
    MEMQOS_MPAM_VIRT_L2_WAYS,
    MEMQOS_MPAM_VIRT_MBW_PEAK,
    MEMQOS_MPAM_VIRT_NUM_OPT
};

/* The platform's part of VirtMachineState. */
typedef struct MemqosMpamVirt {
    bool on;                                /* mpam */
    bool timing;                            /* timing */
    bool ddr;                               /* ddr */
    bool bwmon;                             /* bwmon */
    uint64_t val[MEMQOS_MPAM_VIRT_NUM_OPT]; /* as given ... */
    uint32_t given;                         /* ... if bit (1 << option) */
    char *dspri;                            /* mpam-dspri, NULL if not given */
    char *mbw_policy;                       /* mpam-mbw-policy, likewise */
    char *bwmon_cpu;                        /* bwmon-cpu, likewise */
    DeviceState *msc[MEMQOS_MPAM_VIRT_NUM_MSC];
    DeviceState *timing_dev;                /* with timing=on */
    DeviceState *ddr_dev;                   /* with ddr=on */
    struct MemqosBwmonVirt *bwmon_virt;     /* with bwmon=on */
    struct MemqosMigConfig *mig_config;     /* the options, in migration */
} MemqosMpamVirt;

/* virt_machine_class_init: the machine options mpam, mpam-partids, ... */
void memqos_mpam_virt_class_init(ObjectClass *oc);
/* machvirt_init, before the CPUs: reject bad or lone options */
void memqos_mpam_virt_check(VirtMachineState *vms, Error **errp);
/* machvirt_init, each CPU before realize: FEAT_MPAM and its caches */
void memqos_mpam_virt_cpu(VirtMachineState *vms, Object *cpuobj);
/* machvirt_init, with the other devices: the MSCs */
void memqos_mpam_virt_devices(VirtMachineState *vms);
/*
 * virt_acpi_build: PPTT (with caches when mpam=on) and the MPAM table.
 * Returns false when it added nothing, so the board builds its own PPTT.
 */
bool memqos_mpam_virt_acpi(VirtMachineState *vms, GArray *table_offsets,
                           GArray *tables_blob, BIOSLinker *linker);

#endif
