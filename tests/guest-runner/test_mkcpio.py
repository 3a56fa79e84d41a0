#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Unit test of guest-tests/initramfs/mkcpio.py: the archive cpio(1) reads back."""
import gzip
import os
import subprocess
import sys
import tempfile
import unittest

MKCPIO = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..",
                      "guest-tests", "initramfs", "mkcpio.py")


class MkCpio(unittest.TestCase):
    def build(self, top):
        out = os.path.join(top, "out.cpio.gz")
        subprocess.run([sys.executable, MKCPIO, os.path.join(top, "root"), out], check=True)
        return out

    def test_roundtrip_and_reproducible(self):
        with tempfile.TemporaryDirectory() as t:
            root = os.path.join(t, "root")
            os.makedirs(os.path.join(root, "bin"))
            with open(os.path.join(root, "init"), "w") as f:
                f.write("#!/bin/sh\necho hello\n")
            os.chmod(os.path.join(root, "init"), 0o755)
            os.symlink("busybox", os.path.join(root, "bin", "sh"))
            out = self.build(t)
            with open(out, "rb") as f:
                first = f.read()
            listing = subprocess.run(["cpio", "-itv"], input=gzip.decompress(first),
                                     capture_output=True, check=True).stdout.decode()
            names = [line.split()[-1] if "->" not in line else line.split()[-3]
                     for line in listing.splitlines()]
            self.assertEqual(names, ["bin", "init", "bin/sh", "dev", "dev/console"])
            self.assertRegex(listing, r"(?m)^-rwxr-xr-x .* init$")
            self.assertRegex(listing, r"(?m)^crw------- .* 5,\s+1 .* dev/console$")
            self.assertIn("bin/sh -> busybox", listing)
            # Same input, same bytes (mtime 0, owner 0, sorted).
            os.utime(os.path.join(root, "init"), (1, 1))
            with open(self.build(t), "rb") as f:
                self.assertEqual(f.read(), first)


if __name__ == "__main__":
    unittest.main()
