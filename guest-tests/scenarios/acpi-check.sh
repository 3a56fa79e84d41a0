# SPDX-License-Identifier: GPL-2.0-or-later
# Run the independent ACPI MPAM/PPTT validator (acpi-tables/, included in
# the initramfs when it is built) on the firmware's own tables.
if ! command -v mpam-acpi-check >/dev/null; then
  # The initramfs always ships it (acpi-tables/build-aarch64.sh): a missing
  # binary is a broken build, not a reason to skip.
  mq_test acpi-mpam-check FAIL "mpam-acpi-check is not in this initramfs (did acpi-tables/build-aarch64.sh fail?)"
elif [ ! -f /sys/firmware/acpi/tables/MPAM ]; then
  mq_test acpi-mpam-check FAIL "no /sys/firmware/acpi/tables/MPAM (booted without UEFI/ACPI, or no MPAM table)"
else
  out=$(mpam-acpi-check --dir /sys/firmware/acpi/tables 2>&1)
  rc=$?
  echo "$out" | sed 's/^/  acpi-check: /'
  mq_check acpi-mpam-check "$rc" "exit status $rc: $(echo "$out" | tail -n 1)"
fi

# Hand the raw tables to the host harness, which compares what the host-built
# mpam-acpi-check reports for them with ACPICA's disassembler (docs/guest.md):
# base64 lines (76 columns), then the byte count and MD5 so that a line
# damaged on the console is noticed.
if [ "$MQ_HOST" = 1 ]; then
  for t in MPAM PPTT SRAT; do
    f=/sys/firmware/acpi/tables/$t
    [ -f "$f" ] || continue
    base64 "$f" | while read -r chunk; do echo "MEMQOS-FILE $t $chunk"; done
    echo "MEMQOS-FILE-END $t $(wc -c <"$f") $(md5sum <"$f" | cut -d' ' -f1)"
  done
fi
