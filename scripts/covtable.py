#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Per-file and per-function coverage from an lcov tracefile, checked against floors.

Usage: covtable.py [--json OUT] [--strip PREFIX]... [--source TREE] TRACEFILE FLOORS

TRACEFILE is an lcov .info file (lcov --capture, branch data on).  Source paths
are shown relative to the first --strip PREFIX they start with.  FLOORS has
one line per function:

    FUNCTION MIN_LINES_PCT          # or FILE:FUNCTION MIN_LINES_PCT

('#' starts a comment).  A function's lines are the instrumented lines (lcov DA
records) of its body.  With --source, the bodies are read from the sources in
TREE (kernel style: the body opens with '{' and closes with '}' at column 0),
which also finds inline functions in headers that lcov gives no FN record;
without it, a function runs from its FN record's line to the next one.  Lines
hit / lines and branches taken / branches are counted there (a header's
branches are summed over every object that inlines it, so they overcount).
Prints a per-file table and a per-function table and exits 1 if a function is
below its floor, is not in the data (renamed, compiled out, its file not
built), or is ambiguous (the same name in two files: use FILE:FUNCTION).
"""
import json
import os
import re
import sys
from collections import defaultdict


def die(msg):
    print(f"covtable.py: error: {msg}", file=sys.stderr)
    sys.exit(2)


def parse_info(path, strips):
    """Return {file: {"fn": {name: line}, "da": {line: n}, "br": {key: n}}}."""
    files = defaultdict(lambda: {"fn": {}, "da": defaultdict(int), "br": defaultdict(int)})
    cur = None
    try:
        f = open(path, errors="replace")
    except OSError as e:
        die(f"cannot read tracefile '{path}': {e.strerror}")
    with f:
        for line in f:
            line = line.strip()
            tag, _, val = line.partition(":")
            if tag == "SF":
                p = os.path.normpath(val)
                for s in strips:
                    s = os.path.normpath(s) + os.sep
                    if p.startswith(s):
                        p = p[len(s):]
                        break
                cur = files[p]
            elif cur is None:
                continue
            elif tag == "FN":
                ln, name = val.split(",", 1)
                cur["fn"].setdefault(name, int(ln))
            elif tag == "DA":
                ln, n = val.split(",")[:2]
                cur["da"][int(ln)] += max(int(n), 0)
            elif tag == "BRDA":
                ln, blk, br, n = val.split(",")
                cur["br"][(int(ln), blk, br)] += 0 if n == "-" else int(n)
            elif tag == "end_of_record":
                cur = None
    return files


def pct(hit, total):
    return 100.0 * hit / total if total else 0.0


def source_extents(path):
    """Return {name: (first, last)} of the functions defined in a C source."""
    try:
        with open(path, errors="replace") as f:
            src = f.read().split("\n")
    except OSError:
        return None
    ext = {}
    for i, line in enumerate(src):
        if line.rstrip() != "{":
            continue
        j = i - 1
        while j > 0 and src[j - 1].strip() and not re.search(r"[;}/]\s*$|^#", src[j - 1]) \
                and i - j < 12:
            j -= 1
        m = re.search(r"(\w+)\s*\(", " ".join(src[j:i]))
        if not m:
            continue
        k = i + 1
        while k < len(src) and not src[k].startswith("}"):
            k += 1
        ext.setdefault(m.group(1), (j + 1, k + 1))
    return ext


def extents(data, src):
    """{name: (first, last)}: from the source if given, else FN records."""
    if src is not None:
        return src
    fns = sorted(data["fn"].items(), key=lambda kv: kv[1])
    return {name: (first, fns[i + 1][1] - 1 if i + 1 < len(fns) else 1 << 30)
            for i, (name, first) in enumerate(fns)}


def function_stats(data, src=None):
    """Yield (name, stats) per function of one file that has instrumented lines."""
    for name, (first, last) in sorted(extents(data, src).items(), key=lambda kv: kv[1]):
        lines = [n for ln, n in data["da"].items() if first <= ln <= last]
        brs = [n for (ln, _, _), n in data["br"].items() if first <= ln <= last]
        if not lines:
            continue
        yield name, {"lines": len(lines), "lines_hit": sum(1 for n in lines if n),
                     "branches": len(brs), "branches_hit": sum(1 for n in brs if n)}


def read_floors(path):
    floors = []
    try:
        f = open(path)
    except OSError as e:
        die(f"cannot read floors file '{path}': {e.strerror}")
    with f:
        for i, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split()
            if len(parts) != 2 or not re.fullmatch(r"\d+(\.\d+)?", parts[1]) \
                    or float(parts[1]) > 100:
                die(f"{path}:{i}: want 'FUNCTION MIN_LINES_PCT' (0-100), got '{line}'")
            floors.append((parts[0], float(parts[1])))
    if not floors:
        die(f"no floors in '{path}'")
    return floors


def main(argv):
    out = None
    tree = None
    strips = []
    while argv and argv[0].startswith("--"):
        if argv[0] in ("--json", "--strip", "--source") and len(argv) >= 2:
            if argv[0] == "--json":
                out = argv[1]
            elif argv[0] == "--source":
                tree = argv[1]
            else:
                strips.append(argv[1])
            argv = argv[2:]
        else:
            die(f"bad option '{argv[0]}'")
    if len(argv) != 2:
        die("usage: covtable.py [--json OUT] [--strip PREFIX]... [--source TREE] "
            "TRACEFILE FLOORS")
    floors = read_floors(argv[1])
    files = parse_info(argv[0], strips)
    if not files:
        die(f"no source files in tracefile '{argv[0]}'")
    srcs = {}
    for name in files:
        srcs[name] = None
        if tree is not None:
            srcs[name] = source_extents(os.path.join(tree, name))
            if srcs[name] is None:
                die(f"source of {name} not found under --source '{tree}'")
    fstat = {name: dict(function_stats(files[name], srcs[name])) for name in files}

    result = {"files": {}, "functions": []}
    print(f"{'file':34} {'lines':>13} {'%':>6} {'branches':>13} {'%':>6} {'functions':>9}")
    for name in sorted(files):
        d = files[name]
        lh = sum(1 for n in d["da"].values() if n)
        bh = sum(1 for n in d["br"].values() if n)
        fstats = fstat[name]
        fh = sum(1 for s in fstats.values() if s["lines_hit"])
        result["files"][name] = {
            "lines": len(d["da"]), "lines_hit": lh, "lines_pct": round(pct(lh, len(d["da"])), 1),
            "branches": len(d["br"]), "branches_hit": bh,
            "branches_pct": round(pct(bh, len(d["br"])), 1),
            "functions": len(fstats), "functions_hit": fh}
        print(f"{name:34} {lh:6}/{len(d['da']):<6} {pct(lh, len(d['da'])):5.1f}% "
              f"{bh:6}/{len(d['br']):<6} {pct(bh, len(d['br'])):5.1f}% {fh:4}/{len(fstats)}")

    print()
    print(f"{'function':34} {'file':22} {'lines':>9} {'%':>6} {'branches':>9} {'%':>6} "
          f"{'floor':>5}")
    bad = 0
    for spec, floor in floors:
        want_file, _, fn = spec.rpartition(":")
        where = [f for f in sorted(files) if fn in fstat[f]
                 and (not want_file or f == want_file)]
        rec = {"function": spec, "floor": floor}
        if len(where) != 1:
            rec.update(missing=not where, ok=False)
            result["functions"].append(rec)
            bad += 1
            if where:
                print(f"FAIL {spec}: in several files ({', '.join(where)}); "
                      f"write FILE:FUNCTION in the floors file")
            else:
                print(f"FAIL {spec}: not in the coverage data (renamed, compiled out, "
                      f"or its file not built?)")
            continue
        s = fstat[where[0]][fn]
        lp = pct(s["lines_hit"], s["lines"])
        ok = lp + 1e-9 >= floor
        rec.update(file=where[0], lines_pct=round(lp, 1),
                   branches_pct=round(pct(s["branches_hit"], s["branches"]), 1),
                   ok=ok, missing=False, **s)
        result["functions"].append(rec)
        bad += not ok
        print(f"{fn:34} {where[0]:22} {s['lines_hit']:4}/{s['lines']:<4} {lp:5.1f}% "
              f"{s['branches_hit']:4}/{s['branches']:<4} "
              f"{pct(s['branches_hit'], s['branches']):5.1f}% {floor:5g}"
              f"{'' if ok else '  FAIL: below floor'}")
    if out:
        with open(out, "w") as f:
            json.dump(result, f, indent=1)
            f.write("\n")
    print(f"coverage floors: {len(floors) - bad} met, {bad} failed")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
