# SPDX-License-Identifier: GPL-2.0-or-later
"""Presets: named whole configurations of the platform, for
`./memqos boot --preset NAME` and the host-side runners that reproduce them
(`./memqos presets` lists them).  A preset gives the -M value, the vCPUs,
the guest RAM and the QEMU arguments; an arm64 preset always runs with
timing on.  An x86_64 preset (arch) also names the -cpu value; the launcher
then runs qemu-system-x86_64 with Debian's amd64 kernel, with timing on
when the preset says so (docs/rdt-model.md "Platform").

seed-000 (issue 8 §5, docs/seed-000.md): the Marvell MPAM downstream
priority experiment (prior-art.md §5.3).  One vCPU, the chase, in P1 (the
guest's first resctrl group, PARTID 1); 79 load cores in P2 (PARTID 2) as
one closed-loop background agent "load" of 79 x 12 outstanding reads
through the L3 (a stream-sum core with 12 line misses in flight);
P2's DSPRI is 0 (LPR) by the firmware policy, P1's is what the experiment
varies (mpam-set-priority, or the mpam-dspri machine property).  The DDR
is 12 DDR5-4800 DIMM channels (24 independent 32-bit subchannels) with the
model's JEDEC DDR5-4800B timings and the refresh time of 32 Gb dies
(tRFC1 410 ns, as in 64 GB RDIMMs), 31 ns between the L3 and the DRAM
commands (interconnect, controller pipeline and PHY of an 80-core mesh)
and a VPR timeout of 48 clocks (20 ns).  docs/seed-000.md gives the
sources and how one parameter set serves all three DSPRI points.  The agent starts stopped: it would cost
host minutes per modeled second during the boot.  Start it with QMP
`qom-set /objects/load running true` (tests/guest-runner/seed000.py does).

bwmon (issue 9 §3, docs/bwmon-model.md "The platform"): Qualcomm BWMON on
the modeled hierarchy, -M ...,bwmon=on: an sdm845 CPU monitor (L2 misses
and write-backs) and an LLCC monitor (what reaches memory), the OSM L3
providers they vote on, all in the device tree; Linux's icc-bwmon and
osm-l3 drivers bind them.  Booted without UEFI (firmware "none"): the
Qualcomm drivers are DT-only, so MPAM (ACPI-only in Linux) is not
probed.  Four vCPUs, so that the guest's load can pass the CPU monitor's
lowest vote (4.8 GB/s; tests/guest-runner/bwmon.py).

bwmon-fixed, bwmon-novote (issue 9 §4): the same with both providers
pinned (-global memqos-osm-l3.pin=top or lowest): fixed high votes and no
votes, beside bwmon where the driver's votes set the frequencies.
"""
from collections import namedtuple

# firmware: "uefi" (AAVMF, ACPI: what Linux's MPAM driver needs) or "none"
# (-kernel straight into Linux with QEMU's device tree: what the DT-only
# Qualcomm drivers of the bwmon preset need).  timing: the modeled memory
# system (always on for aarch64; x86_64 presets choose).
Preset = namedtuple("Preset", "description machine smp mem qemu arch cpu firmware timing",
                    defaults=("aarch64", None, "uefi", False))

SEED000_AGENT = ("memqos-agent,id=load,outstanding=948,footprint=64G,base=0x100000000,"
                 "pattern=random,seed=1,partid=2,pmg=0,running=off")

# The bwmon presets' streaming core (docs/bwmon-model.md, "The port"): a
# faster core (4 instructions and one L1 load per cycle at 2.5 GHz, a
# Kryo 385's streaming rate rather than its latencies), a stream prefetcher
# 32 lines ahead, a store buffer that hides 16 lines of port backlog, and
# ports to the L3 of 19 bytes per clock of the CPU path's OSM L3 provider.
# The same in the three configurations.
BWMON_STREAMING = ["-global", "memqos-timing.timing-cpi-milli=250",
                   "-global", "memqos-timing.timing-l1-cycles=1",
                   "-global", "memqos-timing.timing-prefetch-lines=32",
                   "-global", "memqos-timing.timing-store-lines=16",
                   "-global", "memqos-osm-l3.port-bytes=19"]

# The base of the x86 presets' -cpu: Denverton without the features TCG
# lacks (QEMU would drop each with a warning per vCPU); rdt= then sets
# family, model and stepping from the description.
X86_CPU = "Denverton,-tsc-deadline,-spec-ctrl,-arch-capabilities,-ssbd,-xsavec"
# The server's: Sapphire Rapids without the hypervisor bit, under which
# Linux's uncore driver refuses to load, and the iMC uncore PMU's PCIe
# discovery device (memqos-spr-uncore: uncore_imc_0..7 in the guest;
# docs/x86-pmu-design.md §2, docs/rdt-model.md "The iMC uncore PMU")
SERVER_CPU = X86_CPU + ",rdt=sapphirerapids,-hypervisor"
SERVER_QEMU = ["-device", "memqos-spr-uncore,bus=pcie.0,addr=0x0a.0"]

PRESETS = {
    "seed-000": Preset(
        description="Marvell loaded latency by DSPRI: 1 vCPU chases in P1, 79 modeled "
        "cores of P2 stream through the L3 into 12 DDR5-4800 channels (docs/seed-000.md)",
        machine="virt,mpam=on,timing=on,ddr=on,mpam-partids=32,mpam-pmgs=4,mpam-dspri=2:0",
        smp=1, mem="1G",
        qemu=["-global", "memqos-ddr.ddr-channels=24",
              "-global", "memqos-ddr.ddr-frontend-ps=31000",
              "-global", "memqos-ddr.ddr-trfc-ps=410000",
              "-global", "memqos-ddr.ddr-vpr-timeout=48",
              "-object", SEED000_AGENT]),
    "bwmon": Preset(
        description="Qualcomm BWMON: sdm845 CPU and LLCC monitors on the modeled traffic, "
        "voting OSM L3 frequencies through icc-bwmon; DT boot, no UEFI (docs/bwmon-model.md)",
        machine="virt,mpam=on,timing=on,bwmon=on",
        smp=4, mem="1G", qemu=BWMON_STREAMING, firmware="none"),
    # The three configurations of issue 9 §4 (docs/bwmon-model.md "The
    # effect"): the same platform with both OSM L3 providers pinned (the
    # driver still votes; the pinned domain keeps its row).
    "bwmon-fixed": Preset(
        description="bwmon with both OSM L3 providers pinned at their top row (fixed high "
        "votes, as cpufreq's): the timing model's latencies (docs/bwmon-model.md)",
        machine="virt,mpam=on,timing=on,bwmon=on",
        smp=4, mem="1G", qemu=BWMON_STREAMING + ["-global", "memqos-osm-l3.pin=top"],
        firmware="none"),
    "bwmon-novote": Preset(
        description="bwmon with both OSM L3 providers pinned at their lowest row (no votes: "
        "300 MHz, the L3 and memory paths slowed; docs/bwmon-model.md)",
        machine="virt,mpam=on,timing=on,bwmon=on",
        smp=4, mem="1G", qemu=BWMON_STREAMING + ["-global", "memqos-osm-l3.pin=lowest"],
        firmware="none"),
    # Intel RDT (issue 10, docs/rdt-model.md): the two descriptions of
    # hw/intel/rdt-desc.c as the CPUs' rdt= property on q35 (X86_CPU)
    "rdt-server": Preset(
        description="Intel RDT, Sapphire Rapids Xeon Silver 4410Y: L3 CAT+CDP, L2 CAT+CDP, "
        "MBA, CMT, MBM, the iMC uncore PMU on q35 (docs/rdt-model.md)",
        machine="q35", smp=2, mem="1G", qemu=SERVER_QEMU, arch="x86_64",
        cpu=SERVER_CPU),
    # the server with the modeled memory system below its vCPUs: CAT
    # allocates in the modeled L3, CMT and MBM count it (rdt_x86.py).
    # Without SATA: SeaBIOS's AHCI port probes busy-wait on the clock,
    # which under modeled time costs instructions (minutes of host time
    # before the kernel starts); the guest has no disk anyway.  Its core
    # keeps 16 lines in flight (Golden Cove's L1D fill buffers) through a
    # stride prefetcher of up to 2 KiB (the Xeon's), so that a read stream
    # is bound by bandwidth; MBA's 100 % is 3 GiB/s, above the resctrl
    # selftest's 2500 MiB/s threshold but not far: every modeled byte costs
    # host time (docs/rdt-model.md, "MBA").
    "rdt-server-timing": Preset(
        description="rdt-server with timing on: CAT, CMT, MBM and MBA on the modeled L3 "
        "and memory, modeled time (docs/rdt-model.md)",
        machine="q35,sata=off", smp=2, mem="1G", arch="x86_64", cpu=SERVER_CPU, timing=True,
        qemu=SERVER_QEMU + ["-global", "memqos-timing.timing-prefetch-lines=16",
                            "-global", "memqos-timing.timing-prefetch-stride=2048",
                            "-global", f"memqos-rdt.mba-peak={3 << 30}"]),
    "rdt-goldmont": Preset(
        description="Intel RDT, Goldmont Celeron J3455: two 1 MiB L2s shared by core pairs, "
        "L2 CAT, pseudo-locking, on q35 (docs/rdt-model.md)",
        machine="q35", smp=4, mem="1G", qemu=[], arch="x86_64",
        cpu=X86_CPU + ",rdt=goldmont"),
    # Goldmont with the modeled memory system: the L2 shared by a core pair
    # is the last level, under L2 CAT and pseudo-locking (seed 004).  One
    # pair (-smp 2): seed 004 needs the two cores of one L2, and each more
    # vCPU's bring-up spins on the clock under modeled time (minutes of
    # host time: 4 vCPUs boot in 9 min).  Goldmont's L2 streamer as the
    # hierarchy's stream prefetcher, 32 lines ahead (the bwmon presets'),
    # which MSR_MISC_FEATURE_CONTROL bit 0 turns off.  No SATA, as
    # rdt-server-timing.
    "rdt-goldmont-timing": Preset(
        description="rdt-goldmont with timing on, one core pair: its 1 MiB L2 under L2 CAT and "
        "pseudo-locking, modeled time (docs/rdt-model.md, seed 004)",
        machine="q35,sata=off", smp=2, mem="1G",
        qemu=["-global", "memqos-timing.timing-prefetch-lines=32"], arch="x86_64",
        cpu=X86_CPU + ",rdt=goldmont", timing=True),
}


def listing():
    """One line per preset: its name and what it is."""
    return [f"{name:<12} {p.description}" for name, p in PRESETS.items()]
