#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check a UML kernel log (results/CONFIG/test.log) for kernel reports.

Usage: checklog.py [--json OUT] TEST_LOG...

A report is any line with BUG:, kernel BUG at, WARNING:, Oops, a panic, a
KASAN/UBSAN/lockdep/list-corruption report, a segfault of the UML process or a
bare Call Trace.  Exactly one report is expected and allowed: the
warning every UML boot with kunit.py's arch_uml.config prints because no
virtio-pci device is attached (CONFIG_UML_PCI_OVER_VIRTIO=y):

  WARNING: CPU: 0 PID: 1 at arch/um/drivers/virt-pci.c:NNNN um_pci_init+0x../0x..
  No virtio device ID configured for PCI - no PCI support

(the path may carry the build's relative prefix to the tree, e.g.
../../linux/arch/um/..., as ccache's base_dir rewrites it; it must end in
arch/um/drivers/virt-pci.c), and the debug config prints a bare address
instead of um_pci_init+0x../0x.. (the __init symbol is not resolved there).

That one warning block (from its "cut here" line to "end trace") is allowed
once per log; a second one, or any other report, is a failure.  A log that is
missing or empty is a failure too.  Prints one line per problem and a last
line per log "LOG: ok" or "LOG: N problems"; exits 1 on any problem.
"""
import json
import re
import sys

ALLOWED_WARNING = re.compile(
    r"^WARNING: CPU: \d+ PID: \d+ at (?:\S*/)?arch/um/drivers/virt-pci\.c:\d+ "
    r"(?:um_pci_init\+0x[0-9a-f]+/0x[0-9a-f]+|0x[0-9a-f]+)$")
ALLOWED_NEXT = "No virtio device ID configured for PCI - no PCI support"

REPORT = re.compile(
    r"BUG:|kernel BUG at|WARNING:|Oops|Kernel panic|general protection"
    r"|KASAN:|UBSAN:|KFENCE:|DEBUG_LOCKS_WARN_ON|possible circular locking"
    r"|inconsistent lock state|possible recursive locking"
    r"|INFO: trying to register non-static key|INFO: task .* blocked"
    r"|rcu_sched self-detected stall|soft lockup|hard LOCKUP"
    r"|list_(add|del) corruption|Segmentation fault|Kernel mode fault"
    r"|Kernel mode signal|^Call Trace:")
CUT = "------------[ cut here ]------------"
END = re.compile(r"^---\[ end trace [0-9a-f]+ \]---$")


def strip(line):
    """Drop kunit.py's timestamp prefix, if any, and the line end."""
    line = line.rstrip("\r\n")
    return re.sub(r"^\[\d\d:\d\d:\d\d\] ", "", line)


def check(path):
    """Return (problems, allowed) for one log: problems is a list of str."""
    try:
        with open(path, errors="backslashreplace") as f:
            lines = [strip(x) for x in f]
    except OSError as e:
        return [f"cannot read log ({e.strerror})"], 0
    if not any(x.strip() for x in lines):
        return ["log is empty (the kernel did not boot or print)"], 0
    problems = []
    allowed = 0
    in_allowed = False
    for i, line in enumerate(lines):
        if in_allowed:
            if END.match(line.strip()):
                in_allowed = False
            continue
        if (ALLOWED_WARNING.match(line) and i + 1 < len(lines)
                and lines[i + 1] == ALLOWED_NEXT and i > 0
                and lines[i - 1] == CUT and allowed == 0):
            allowed += 1
            in_allowed = True
            continue
        if REPORT.search(line):
            problems.append(f"line {i + 1}: {line.strip()}")
    if in_allowed:
        problems.append("the virt-pci warning block has no end trace line")
    return problems, allowed


def main(argv):
    out = None
    if argv[:1] == ["--json"]:
        if len(argv) < 2:
            print("checklog.py: error: --json needs a file name", file=sys.stderr)
            return 2
        out = argv[1]
        argv = argv[2:]
    if not argv:
        print("checklog.py: error: usage: checklog.py [--json OUT] TEST_LOG...",
              file=sys.stderr)
        return 2
    result = {}
    bad = False
    for path in argv:
        problems, allowed = check(path)
        result[path] = {"problems": problems, "allowed_virt_pci_warning": allowed}
        for p in problems:
            print(f"{path}: {p}")
        if problems:
            bad = True
            print(f"{path}: {len(problems)} problems")
        else:
            print(f"{path}: ok" + (" (the known virt-pci warning)" if allowed else ""))
    if out:
        with open(out, "w") as f:
            json.dump(result, f, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
