#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Print the ACPI tables that a QEMU -M virt offers its firmware, without a
guest: QEMU runs under qtest and this reads the fw_cfg files
etc/acpi/tables, etc/acpi/rsdp and etc/table-loader through the MMIO fw_cfg
interface (virt: 0x09020000).  Used to check that a patch series leaves
stock virt's tables byte-identical (docs/platform.md).

    acpi-blob.py QEMU OUT.bin [QEMU OPTIONS...]    e.g.  -M virt -smp 4
Writes the three files, each prefixed by its name, to OUT.bin and prints
the signature and length of every table in etc/acpi/tables.
"""
import struct
import subprocess
import sys

FW_CFG = 0x09020000            # virt's fw_cfg: data at +0, selector at +8
FILE_DIR = 0x19


class Qtest:
    def __init__(self, argv):
        self.p = subprocess.Popen(argv + ["-qtest", "stdio", "-qtest-log", "none",
                                          "-display", "none",
                                          "-nic", "none", "-monitor", "none",
                                          "-serial", "none", "-S"],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  text=True)

    def cmd(self, line):
        self.p.stdin.write(line + "\n")
        self.p.stdin.flush()
        while True:
            reply = self.p.stdout.readline()
            if not reply:
                raise RuntimeError(f"QEMU exited (status {self.p.wait()})")
            if reply.startswith("OK") or reply.startswith("FAIL"):
                return reply.split()

    def select(self, key):
        # the selector register is big-endian
        self.cmd(f"writew {FW_CFG + 8:#x} {struct.unpack('<H', struct.pack('>H', key))[0]:#x}")
        self.buf = b""

    def read(self, n):
        """The next N bytes of the selected file (read 8 at a time)."""
        while len(self.buf) < n:
            value = int(self.cmd(f"readq {FW_CFG:#x}")[1], 16)
            self.buf += struct.pack("<Q", value)   # bytes in file order
        data, self.buf = self.buf[:n], self.buf[n:]
        return data

    def close(self):
        self.p.stdin.close()
        self.p.kill()
        self.p.wait()


def main():
    qemu, out = sys.argv[1], sys.argv[2]
    q = Qtest([qemu, "-accel", "qtest"] + sys.argv[3:])
    try:
        q.select(FILE_DIR)
        count = struct.unpack(">I", q.read(4))[0]
        files = {}
        for _ in range(count):
            size, key, _, name = struct.unpack(">IHH56s", q.read(64))
            files[name.rstrip(b"\0").decode()] = (key, size)
        blobs = {}
        for name in ("etc/acpi/tables", "etc/acpi/rsdp", "etc/table-loader"):
            key, size = files[name]
            q.select(key)
            blobs[name] = q.read(size)
    finally:
        q.close()
    with open(out, "wb") as f:
        for name, data in blobs.items():
            f.write(name.encode() + b"\0" + struct.pack("<I", len(data)) + data)
    tables, off = blobs["etc/acpi/tables"], 0
    while off + 8 <= len(tables):
        sig, length = struct.unpack_from("<4sI", tables, off)
        if not any(tables[off:]):
            print(f"({len(tables) - off} bytes of zero padding)")
            break
        print(f"{sig.decode()} {length}")
        off += length


if __name__ == "__main__":
    main()
