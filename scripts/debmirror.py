#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The address of this machine's own Debian archive, read from its apt
sources (one-line .list entries and deb822 .sources stanzas).

    debmirror.py [APT_ETC]

APT_ETC defaults to /etc/apt.  Prints the URI of the first "deb" entry
whose suites are not security updates (bookworm, bookworm-updates, ...,
not bookworm-security), so that scripts/get-kernel can ask the same
archive for another suite without a host written anywhere.  Exits 2 with
one line on stderr when there is none.
"""
import glob
import os
import sys


def die(msg):
    sys.stderr.write(f"debmirror.py: error: {msg}\n")
    sys.exit(2)


def one_line_entries(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        for line in f:
            words = line.split("#", 1)[0].split()
            if len(words) < 3 or words[0] != "deb":
                continue
            words = words[1:]
            if words[0].startswith("["):
                while words and not words[0].endswith("]"):
                    words = words[1:]
                words = words[1:]
            if len(words) >= 2:
                yield words[0], [words[1]]


def deb822_entries(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for stanza in text.split("\n\n"):
        fields = {}
        for line in stanza.splitlines():
            if line.startswith("#") or ":" not in line or line[0].isspace():
                continue
            key, value = line.split(":", 1)
            fields[key.strip().lower()] = value.split()
        if fields.get("enabled", ["yes"])[0].lower() == "no":
            continue
        if "deb" not in fields.get("types", []):
            continue
        for uri in fields.get("uris", []):
            yield uri, fields.get("suites", [])


def main():
    if len(sys.argv) > 2:
        die("usage: debmirror.py [APT_ETC]")
    etc = sys.argv[1] if len(sys.argv) == 2 else "/etc/apt"
    if not os.path.isdir(etc):
        die(f"no apt configuration folder '{etc}'")
    files = [os.path.join(etc, "sources.list")]
    files += sorted(glob.glob(os.path.join(etc, "sources.list.d", "*")))
    for path in files:
        if not os.path.isfile(path):
            continue
        if path.endswith(".sources"):
            entries = deb822_entries(path)
        elif path.endswith(".list"):
            entries = one_line_entries(path)
        else:
            continue
        for uri, suites in entries:
            if not uri.startswith(("http://", "https://", "file:")):
                continue
            if not suites or any("security" in s for s in suites):
                continue
            print(uri.rstrip("/"))
            return
    die(f"no Debian archive entry (deb, not security) in {etc}/sources.list or sources.list.d/")


if __name__ == "__main__":
    main()
