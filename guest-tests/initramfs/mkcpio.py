#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""mkcpio.py STAGING-DIR OUTPUT.cpio.gz

Write a gzip'd "newc" cpio archive of STAGING-DIR for use as an initramfs,
plus the /dev/console node the kernel opens before /init.  Written here
rather than with cpio(1) so that building needs no root (mknod) and the
archive is reproducible: owner 0:0, mtime 0, entries sorted.
"""
import gzip
import os
import stat
import sys


def header(name, mode, size, ino, nlink=1, rdev=(0, 0)):
    fields = [ino, mode, 0, 0, nlink, 0, size, 0, 0, rdev[0], rdev[1], len(name) + 1, 0]
    return b"070701" + b"".join(b"%08X" % f for f in fields) + name.encode() + b"\0"


def pad4(n):
    return b"\0" * (-n % 4)


def entries(top):
    for root, dirs, files in os.walk(top):
        dirs.sort()
        for name in sorted(dirs + files):
            path = os.path.join(root, name)
            yield os.path.relpath(path, top), path


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip())
    top, out = sys.argv[1:]
    blob = bytearray()
    ino = 1

    def add(name, mode, data=b"", rdev=(0, 0)):
        nonlocal ino
        h = header(name, mode, len(data), ino, rdev=rdev)
        blob.extend(h + pad4(len(h)) + data + pad4(len(data)))
        ino += 1

    names = set()
    for name, path in entries(top):
        st = os.lstat(path)
        names.add(name)
        if stat.S_ISDIR(st.st_mode):
            add(name, stat.S_IFDIR | 0o755)
        elif stat.S_ISLNK(st.st_mode):
            add(name, stat.S_IFLNK | 0o777, os.readlink(path).encode())
        elif stat.S_ISREG(st.st_mode):
            perm = 0o755 if st.st_mode & 0o111 else 0o644
            with open(path, "rb") as f:
                add(name, stat.S_IFREG | perm, f.read())
        else:
            sys.exit(f"mkcpio: {path}: unsupported file type")
    if "dev" not in names:
        add("dev", stat.S_IFDIR | 0o755)
    add("dev/console", stat.S_IFCHR | 0o600, rdev=(5, 1))
    add("TRAILER!!!", 0)
    blob.extend(b"\0" * (-len(blob) % 512))
    tmp = out + ".tmp"
    with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=0, filename="") as gz:
        gz.write(blob)
    os.replace(tmp, out)


if __name__ == "__main__":
    main()
