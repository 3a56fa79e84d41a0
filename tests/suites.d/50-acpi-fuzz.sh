#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# mpam-acpi-check: 60 s of libFuzzer (ASan + UBSan) on the table checker.
exec bash "$(dirname "$0")/../../acpi-tables/fuzz/run.sh" 60
