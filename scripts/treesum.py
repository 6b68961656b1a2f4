#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One checksum over a tree: every file's and link's path, mode, link
target and bytes (a .git folder at the top is left out).

    treesum.py TREE CACHE

A file's bytes are hashed again only when its inode, size, mtime or ctime
changed since CACHE (a JSON file, created if missing) last saw it: any
write to a file moves its mtime and ctime, and a replaced file has a new
inode, so a cached hash stands for the same bytes.  Trees hard-linked to
each other share their hashes.  Prints the checksum.
"""
import hashlib
import json
import os
import stat
import sys


def die(msg):
    sys.stderr.write(f"treesum.py: error: {msg}\n")
    sys.exit(2)


def main():
    if len(sys.argv) != 3:
        die("usage: treesum.py TREE CACHE")
    top, cache_path = sys.argv[1], sys.argv[2]
    if not os.path.isdir(top):
        die(f"'{top}' is not a directory")
    try:
        with open(cache_path) as f:
            cache = json.load(f)
    except FileNotFoundError:
        cache = {}
    except ValueError:
        die(f"'{cache_path}' is not a treesum cache")
    entries = []
    for root, dirs, files in os.walk(top):
        if root == top and ".git" in dirs:
            dirs.remove(".git")
        for name in files + [d for d in dirs if os.path.islink(os.path.join(root, d))]:
            path = os.path.join(root, name)
            st = os.lstat(path)
            rel = os.path.relpath(path, top)
            mode = stat.S_IMODE(st.st_mode)
            if stat.S_ISLNK(st.st_mode):
                entries.append(f"{rel} {mode:o} link {os.readlink(path)}")
                continue
            if not stat.S_ISREG(st.st_mode):
                entries.append(f"{rel} {mode:o} special {stat.S_IFMT(st.st_mode):o}")
                continue
            key = f"{st.st_dev}:{st.st_ino}:{st.st_size}:{st.st_mtime_ns}:{st.st_ctime_ns}"
            digest = cache.get(key)
            if digest is None:
                h = hashlib.sha256()
                with open(path, "rb") as f:
                    for block in iter(lambda: f.read(1 << 20), b""):
                        h.update(block)
                digest = cache[key] = h.hexdigest()
            entries.append(f"{rel} {mode:o} file {digest}")
    entries.sort()
    with open(cache_path + ".tmp", "w") as f:
        json.dump(cache, f)
    os.replace(cache_path + ".tmp", cache_path)
    print(hashlib.sha256("\n".join(entries).encode()).hexdigest())


if __name__ == "__main__":
    main()
