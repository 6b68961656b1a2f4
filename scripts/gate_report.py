#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write the gate's JUnit XML and JSON summary from the per-config records.

Usage: gate_report.py GATE_DIR

GATE_DIR/configs/NAME.json (written by scripts/gate, one per configuration):
  {"config": NAME, "run_rc": N, "wall_s": S, "results": ".../results.json",
   "log": ".../test.log"}
GATE_DIR/coverage.json (optional, written by covtable.py --json).
GATE_DIR/forcefail-CONFIG.out (optional, scripts/forcefail's output): one
testcase per forced failure, counted in the totals (a forced case that is
not red alone is a failure).

Writes GATE_DIR/junit.xml (one testsuite per config and KUnit suite, one
testcase per KUnit case, a parameter counting as a case; failures and skips
marked, with the case's KTAP diagnostics; plus per config a "kernel" suite
with the build/boot and kernel-log checks, and a "coverage" suite with one
testcase per floor) and GATE_DIR/summary.json.  A case skipped as a known
bug of that kernel (reason "known bug of this kernel: ...") is printed on a
line of its own and listed under "known_bugs" in summary.json.  The last
line printed is "N passed, N failed, N skipped" summed over all configs.  Exits 1 if any
case failed, a config did not build or boot, a kernel log has a report, a
forced failure was not red alone, or a coverage floor is not met.
"""
import glob
import json
import os
import re
import sys
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import checklog  # noqa: E402  pylint: disable=wrong-import-position

# A case that meets a bug this kernel is known to have (fixed upstream in a
# later release) skips with a reason that starts so (lrutest_skip_known_bug() in
# mm/tests/lrutest.h): listed apart, never counted as a pass or a failure.
KNOWN_BUG = "known bug of this kernel:"
RESULT = re.compile(r"^(\s*)(ok|not ok) \d+ (.*?)(?: # (SKIP|TODO)\b\s*(.*))?$")
SUBTEST = re.compile(r"^(\s*)# Subtest: (.*)$")
STRUCT = re.compile(r"^\s*(KTAP version \d+|TAP version \d+|1\.\.\d+|# Subtest: .*"
                    r"|# module: .*|# .*: pass:\d+ fail:\d+ skip:\d+ total:\d+"
                    r"|# Totals: .*)$")


def ktap_details(path):
    """Map 'suite/case[/param]' to (skip reason, diagnostic lines) from KTAP."""
    details = {}
    try:
        with open(path, errors="backslashreplace") as f:
            lines = [x.rstrip("\r\n") for x in f]
    except OSError:
        return details
    headers = {}
    pending = []
    for line in lines:
        m = SUBTEST.match(line)
        if m:
            headers[len(m.group(1))] = m.group(2).strip()
            continue
        m = RESULT.match(line)
        if m:
            d = len(m.group(1))
            names = [headers[k] for k in sorted(headers) if k <= d]
            key = "/".join(names + [m.group(3).strip()])
            # KUnit prints a case's messages at its parent's indentation
            # (a parameter's) or at column 0 (kunit_info and friends).
            diag = [x.strip() for x in pending if x.strip() and not STRUCT.match(x)]
            reason = (m.group(5) or "").strip() if m.group(4) == "SKIP" else ""
            details[key] = (reason, diag[-50:])
            for k in [k for k in headers if k > d]:
                del headers[k]
            pending = []
            continue
        pending.append(line)
    return details


def leaves(group, path):
    """Yield (path list, status) of each leaf case of a kunit.py JSON group."""
    for case in group.get("test_cases", []):
        yield path + [case.get("name", "?")], case.get("status", "FAIL")
    for sub in group.get("sub_groups", []):
        yield from leaves(sub, path + [sub.get("name", "?")])


def testcase(parent, classname, name, status, text="", reason=""):
    tc = ET.SubElement(parent, "testcase", classname=classname, name=name, time="0")
    if status == "FAIL":
        el = ET.SubElement(tc, "failure", message=(text.splitlines() or ["failed"])[0][:200])
        el.text = text
    elif status == "SKIP":
        ET.SubElement(tc, "skipped", message=reason or "skipped")
    return tc


def suite_el(root, name, cases):
    """cases: list of (name, status, text, reason)."""
    ts = ET.SubElement(root, "testsuite", name=name, tests=str(len(cases)),
                       failures=str(sum(1 for c in cases if c[1] == "FAIL")),
                       skipped=str(sum(1 for c in cases if c[1] == "SKIP")),
                       errors="0", time="0")
    for n, status, text, reason in cases:
        testcase(ts, name, n, status, text, reason)
    return ts


def config_report(root, rec):
    """Add one config's suites; return its summary dict."""
    name = rec["config"]
    counts = {"PASS": 0, "FAIL": 0, "SKIP": 0}
    details = ktap_details(rec.get("log", ""))
    results = None
    try:
        with open(rec.get("results", "")) as f:
            results = json.load(f)
    except (OSError, ValueError):
        pass
    suites = {}
    known = []
    if results is not None:
        for path, status in leaves(results, []):
            status = status if status in counts else "FAIL"
            counts[status] += 1
            key = "/".join(path)
            reason, diag = details.get(key, ("", []))
            if status == "SKIP" and reason.startswith(KNOWN_BUG):
                known.append(f"{key}: {reason[len(KNOWN_BUG):].strip()}")
            text = "\n".join(diag) if status == "FAIL" else ""
            suites.setdefault(path[0], []).append(("/".join(path[1:]), status, text, reason))
    for s, cases in suites.items():
        suite_el(root, f"{name}.{s}", cases)

    kernel = []
    boot_ok = results is not None and sum(counts.values()) > 0
    if not boot_ok:
        counts["FAIL"] += 1
        kernel.append(("build_and_boot", "FAIL",
                       f"no KUnit results (build failed, kernel crashed or hung); "
                       f"kunit.py exit {rec.get('run_rc')}; see {rec.get('log')}", ""))
    elif rec.get("run_rc", 1) != 0 and counts["FAIL"] == 0:
        kernel.append(("build_and_boot", "FAIL",
                       f"kunit.py exited {rec.get('run_rc')} although no case failed "
                       f"(crash or missing cases?); see {rec.get('log')}", ""))
    else:
        kernel.append(("build_and_boot", "PASS", "", ""))
    problems, allowed = checklog.check(rec.get("log", ""))
    kernel.append(("kernel_log", "FAIL" if problems else "PASS", "\n".join(problems), ""))
    suite_el(root, f"{name}.kernel", kernel)
    ok = all(k[1] != "FAIL" for k in kernel) and counts["FAIL"] == 0
    return {"passed": counts["PASS"], "failed": counts["FAIL"], "skipped": counts["SKIP"],
            "run_rc": rec.get("run_rc"), "wall_s": rec.get("wall_s"),
            "log_problems": problems, "allowed_virt_pci_warning": allowed,
            "known_bugs": known,
            "results": rec.get("results"), "log": rec.get("log"),
            "result": "pass" if ok else "fail"}


def coverage_report(root, cov):
    cases = []
    for fn in cov.get("functions", []):
        if fn.get("floor") is None:
            continue
        if fn.get("missing"):
            text = f"{fn['function']}: not in the coverage data"
        else:
            text = (f"{fn['function']} ({fn.get('file')}): lines {fn['lines_pct']:.1f}% "
                    f"< floor {fn['floor']}%")
        cases.append((fn["function"], "PASS" if fn.get("ok") else "FAIL",
                      "" if fn.get("ok") else text, ""))
    if cov.get("error"):
        cases.append(("coverage_data", "FAIL", cov["error"], ""))
    suite_el(root, "coverage.floors", cases)
    return all(c[1] != "FAIL" for c in cases)


def forcefail_report(root, path):
    """Add one config's forced-failure check (scripts/forcefail output)."""
    name = os.path.basename(path)[len("forcefail-"):-len(".out")]
    cases = []
    with open(path, errors="replace") as f:
        text = f.read()
    for line in text.splitlines():
        if line.startswith("forced "):
            cases.append((line.split()[1], "PASS", "", ""))
        elif line.startswith("FAIL forced "):
            cases.append((line.split()[2], "FAIL", line, ""))
    if not cases:
        cases.append(("forcefail", "FAIL", text.strip() or "no output", ""))
    suite_el(root, f"{name}.forcefail", cases)
    passed = sum(c[1] == "PASS" for c in cases)
    return name, passed, len(cases) - passed


def main(argv):
    if len(argv) != 1 or not os.path.isdir(argv[0]):
        print("gate_report.py: error: usage: gate_report.py GATE_DIR (an existing folder)",
              file=sys.stderr)
        return 2
    gdir = argv[0]
    recs = []
    for p in sorted(glob.glob(os.path.join(gdir, "configs", "*.json"))):
        with open(p) as f:
            recs.append(json.load(f))
    order = {c: i for i, c in enumerate(os.environ.get("LRUTEST_GATE_ORDER", "").split())}
    recs.sort(key=lambda r: (order.get(r["config"], len(order)), r["config"]))
    if not recs:
        print(f"gate_report.py: error: no configs/*.json in {gdir}", file=sys.stderr)
        return 2
    root = ET.Element("testsuites", name="lrutest gate")
    summary = {"configs": {}, "passed": 0, "failed": 0, "skipped": 0}
    ok = True
    for rec in recs:
        s = config_report(root, rec)
        summary["configs"][rec["config"]] = s
        for k in ("passed", "failed", "skipped"):
            summary[k] += s[k]
        ok = ok and s["result"] == "pass"
        print(f"{rec['config']}: {s['passed']} passed, {s['failed']} failed, "
              f"{s['skipped']} skipped; kernel log "
              f"{'ok' if not s['log_problems'] else str(len(s['log_problems'])) + ' reports'}"
              f"; {s['wall_s']} s")
        for k in s["known_bugs"]:
            print(f"{rec['config']}: known bug of this kernel: {k}")
    for p in sorted(glob.glob(os.path.join(gdir, "forcefail-*.out"))):
        name, passed, failed = forcefail_report(root, p)
        summary["configs"][f"{name}.forcefail"] = {"passed": passed, "failed": failed}
        summary["passed"] += passed
        summary["failed"] += failed
        ok = ok and failed == 0
        print(f"{name} forced failures: {passed} of {passed + failed} red alone")
    covp = os.path.join(gdir, "coverage.json")
    if os.path.exists(covp):
        with open(covp) as f:
            cov = json.load(f)
        cov_ok = coverage_report(root, cov)
        summary["coverage"] = {"result": "pass" if cov_ok else "fail",
                               "files": cov.get("files", {}),
                               "floors_failed": [fn["function"] for fn in cov.get("functions", [])
                                                 if fn.get("floor") is not None
                                                 and not fn.get("ok")],
                               "error": cov.get("error")}
        ok = ok and cov_ok
        print(f"coverage: floors {'met' if cov_ok else 'NOT met'}")
    tests = root.findall("testsuite")
    root.set("tests", str(sum(int(t.get("tests")) for t in tests)))
    root.set("failures", str(sum(int(t.get("failures")) for t in tests)))
    root.set("skipped", str(sum(int(t.get("skipped")) for t in tests)))
    root.set("errors", "0")
    ET.indent(root)
    ET.ElementTree(root).write(os.path.join(gdir, "junit.xml"), encoding="utf-8",
                               xml_declaration=True)
    summary["result"] = "pass" if ok else "fail"
    if "LRUTEST_GATE_WALL_S" in os.environ:
        summary["wall_s"] = int(os.environ["LRUTEST_GATE_WALL_S"])
    with open(os.path.join(gdir, "summary.json"), "w") as f:
        json.dump(summary, f, indent=1)
        f.write("\n")
    print(f"gate: {'PASS' if ok else 'FAIL'} (junit {os.path.join(gdir, 'junit.xml')})")
    print(f"{summary['passed']} passed, {summary['failed']} failed, "
          f"{summary['skipped']} skipped")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
