#!/usr/bin/env python3
"""Which of the suite's cases a scripts/mutate run made red, and which none.

    redcases.py MATRIX SRC_DIR

MATRIX is results/mutate/matrix.tsv (patch, config, verdict, red cases as
"suite.case[/param]; ..."); SRC_DIR is mm/tests, whose *_test.c files name
every case (KUNIT_CASE*(name) in the suite whose .name is "suite").  Prints
"cases red in this run: R of N" and one "never red: suite.case" line per
case no patch of the run made red.  A case red only under a patch of
another run, or only under scripts/forcefail, is listed too: the list is of
this run.  Exits 0 (a report), 2 on bad input.
"""
import glob
import os
import re
import sys


def die(msg):
    print(f"redcases.py: error: {msg}", file=sys.stderr)
    sys.exit(2)


def suite_cases(src):
    cases = []
    for path in sorted(glob.glob(os.path.join(src, "*_test.c"))):
        text = open(path, encoding="utf-8").read()
        suite = re.search(r'\.name\s*=\s*"([^"]+)"', text)
        if not suite:
            continue
        for m in re.finditer(r"KUNIT_CASE(?:_SLOW|_PARAM)?\(\s*(\w+)", text):
            cases.append(f"{suite.group(1)}.{m.group(1)}")
    return cases


def main():
    if len(sys.argv) != 3:
        die("usage: redcases.py MATRIX SRC_DIR")
    matrix, src = sys.argv[1:]
    if not os.path.isfile(matrix):
        die(f"no matrix '{matrix}'")
    if not os.path.isdir(src):
        die(f"no source folder '{src}'")
    cases = suite_cases(src)
    if not cases:
        die(f"no KUnit cases found in {src}/*_test.c")
    red = set()
    with open(matrix, encoding="utf-8") as f:
        next(f, None)
        for line in f:
            cols = line.rstrip("\n").split("\t")
            if len(cols) < 4:
                continue
            for c in cols[3].split(";"):
                c = c.strip().split("/", 1)[0]
                if c:
                    red.add(c)
    never = [c for c in cases if c not in red]
    print(f"cases red in this run: {len(cases) - len(never)} of {len(cases)}")
    for c in never:
        print(f"never red: {c}")


if __name__ == "__main__":
    main()
