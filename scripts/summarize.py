#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Count KUnit cases in kunit.py --json results folders.

Usage: summarize.py RESULTS_DIR...  Prints one line per folder and a last
line "N passed, N failed, N skipped".  A folder without results.json (the
build or the boot broke) counts as one failure.  Exits 1 on any failure.
A case skipped as a known bug of the kernel (its KTAP skip reason, in the
folder's test.log, starts "known bug of this kernel:") gets a line of its
own after its folder's.

summarize.py --failed RESULTS_DIR... prints the failed cases instead, one
per line, as suite.case or suite.case/parameter (scripts/mutate's matrix).
"""
import json
import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ in the project's scripts/
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gate_report import KNOWN_BUG, ktap_details  # noqa: E402  pylint: disable=wrong-import-position


def known_bugs(d):
    """Yield 'suite.case: reason' for each case skipped as a known bug."""
    for key, (reason, _) in ktap_details(os.path.join(d, "test.log")).items():
        if reason.startswith(KNOWN_BUG):
            yield f"{key.replace('/', '.', 1)}: {reason}"


def leaves(group):
    """Yield the status of each leaf case (a parameter counts as a case)."""
    for case in group.get("test_cases", []):
        yield case.get("status", "FAIL")
    for sub in group.get("sub_groups", []):
        yield from leaves(sub)


def failed(group, path):
    """Yield the full name of each failed leaf case."""
    for case in group.get("test_cases", []):
        if case.get("status", "FAIL") == "FAIL":
            yield "/".join(path + [case.get("name", "?")])
    for sub in group.get("sub_groups", []):
        yield from failed(sub, path + [sub.get("name", "?")])


def list_failed(dirs):
    for d in dirs:
        try:
            with open(os.path.join(d, "results.json")) as f:
                data = json.load(f)
        except (OSError, ValueError):
            continue
        for suite in data.get("sub_groups", []):
            for name in failed(suite, []):
                print(f"{suite.get('name', '?')}.{name}")
    return 0


def main(dirs):
    total = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    for d in dirs:
        name = os.path.basename(d.rstrip("/"))
        path = os.path.join(d, "results.json")
        try:
            with open(path) as f:
                data = json.load(f)
        except (OSError, ValueError) as e:
            print(f"{name}: no results ({e})")
            total["FAIL"] += 1
            continue
        counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
        for status in leaves(data):
            counts[status if status in counts else "FAIL"] += 1
        if not sum(counts.values()):
            counts["FAIL"] += 1
        print(f"{name}: {counts['PASS']} passed, {counts['FAIL']} failed, "
              f"{counts['SKIP']} skipped")
        for bug in known_bugs(d):
            print(f"{name}: {bug}")
        for k in total:
            total[k] += counts[k]
    print(f"{total['PASS']} passed, {total['FAIL']} failed, "
          f"{total['SKIP']} skipped")
    return 1 if total["FAIL"] else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["--failed"]:
        sys.exit(list_failed(sys.argv[2:]))
    sys.exit(main(sys.argv[1:]))
