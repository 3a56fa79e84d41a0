#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# Boot an unmodified Linux 7.3 on -M virt,mpam=on and run the guest scenarios.
exec bash "$(dirname "$0")/../guest-runner/run.sh"
