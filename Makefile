# SPDX-License-Identifier: GPL-2.0-or-later
# memqos front door.  `make demo` and `make check` set up the host first.
# Heavy builds are cached in $(MEMQOS_CACHE) (default ~/.cache/memqos).

SHELL := /bin/bash
.DEFAULT_GOAL := help
export MEMQOS_CACHE

.PHONY: help setup qemu kernel initramfs guest unit demo check clean

help:
	@echo "memqos — QEMU models of MPAM, DDR QoS, BWMON and RDT"
	@echo
	@echo "  make demo       set up the host, build everything, boot the MPAM platform, print a report"
	@echo "  make check      set up the host, build everything, run all tests, one line each; ends with 'check: N passed, N failed, N skipped'"
	@echo "  make setup      install what the host lacks (apt; needs root or sudo)"
	@echo "  make qemu       build qemu-system-aarch64 with the memqos models"
	@echo "  make kernel     build the guest Linux kernel from linux-source-7.3"
	@echo "  make initramfs  build the busybox initramfs with the guest programs"
	@echo "  make unit       build and run the unit tests of the pure-C models and tools"
	@echo
	@echo "Variables: MEMQOS_CACHE=<dir> (build cache), QEMU_SRC=<dir> (your QEMU tree), JOBS=<n>"
	@echo "Launcher for your own kernels: ./memqos --help"

setup:
	@bash scripts/setup-host.sh

qemu: setup
	@bash qemu/build.sh

kernel: setup
	@bash guest-tests/kernel/build.sh

initramfs: setup
	@bash guest-tests/initramfs/build.sh

guest: qemu kernel initramfs

unit: setup
	@bash tests/run-unit.sh

demo: setup guest
	@bash guest-tests/demo.sh

check: setup
	@bash tests/run-all.sh

clean:
	rm -rf build
