#!/usr/bin/env python3
"""Checks bench/coral_fidelity/seed_summary.py and baseline_rows.py on hand-made
coral_fidelity --json files (ctest coral_fidelity_tables).

docs/FIDELITY.md's seed table and per-baseline rows are their output.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SEED_SUMMARY = os.path.join(ROOT, "bench", "coral_fidelity", "seed_summary.py")
BASELINE_ROWS = os.path.join(ROOT, "bench", "coral_fidelity", "baseline_rows.py")
HEADER = ("| seed | programs | median abs | p95 | worst | beyond 10% | beyond 25% | outputs match |\n"
          "|---|---:|---:|---:|---|---:|---:|---|\n")


def case(kind, name, error, model=0, rtl=0, outputs_match=True):
    return {"kind": kind, "name": name, "error": error, "model": model, "rtl": rtl, "outputs_match": outputs_match}


def write(path, cases):
    with open(path, "w") as f:
        json.dump(cases, f)


def run(script, *args):
    p = subprocess.run([sys.executable, script, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(got, want, what):
    if got != want:
        sys.exit(f"FAIL {what}:\n--- got\n{got}\n--- want\n{want}")


def check_seed_summary(tmp):
    probes = os.path.join(tmp, "probes.json")
    write(probes, [
        case("a", "a/x0", 0.01), case("a", "a/x1", 0.05), case("a", "a/x2", -0.30),
        case("a", "a/x3", 0.12), case("b", "b/y", 0.26, outputs_match=False)])
    # All five: |errors| 0.01 0.05 0.12 0.26 0.30; median the third, 12%; p95 rank ceil(0.95*5) = 5,
    # 30%; worst a/x2 (signed -30%); beyond 10%: 0.12, 0.26, 0.30; beyond 25%: 0.26, 0.30; b/y's
    # outputs differ.
    check(run(SEED_SUMMARY, "1=" + probes), (0, HEADER + "| 1 | 5 | 12.00% | 30.00% | -30.00% (a/x2) | 3 | 2 | no |\n", ""),
          "all kinds")
    # Without b: 0.01 0.05 0.12 0.30; median (0.05 + 0.12) / 2 = 8.5%; p95 rank ceil(3.8) = 4, 30%.
    check(run(SEED_SUMMARY, "--exclude-kind", "b", "s=" + probes),
          (0, HEADER + "| s | 4 | 8.50% | 30.00% | -30.00% (a/x2) | 2 | 1 | yes |\n", ""), "--exclude-kind")
    check(run(SEED_SUMMARY, "--kind", "b", "s=" + probes),
          (0, HEADER + "| s | 1 | 26.00% | 26.00% | +26.00% (b/y) | 1 | 1 | no |\n", ""), "--kind")
    check(run(SEED_SUMMARY, "--kind", "c", "s=" + probes), (2, "", f"seed_summary.py: {probes}: no programs\n"),
          "no programs of the kind")
    missing = os.path.join(tmp, "missing.json")
    code, out, err = run(SEED_SUMMARY, "s=" + missing)
    check((code, err.startswith(f"seed_summary.py: {missing}: ")), (2, True), "missing file")
    code, out, err = run(SEED_SUMMARY, probes)
    check((code, out, err.startswith("One row per probe campaign")), (2, "", True), "an argument without LABEL=")


def check_baseline_rows(tmp):
    results = os.path.join(tmp, "results.json")
    rows = [case("task", "t/C%d" % (i + 1), (m - r) / r, m, r)
            for i, (m, r) in enumerate([(1010, 1000), (995, 1000), (1000, 1000), (1025, 1000), (2000, 2000)])]
    rows.append(case("agent", "t/C1/v2.c", 0.5, 1500, 1000))  # agent versions are not baseline rows
    rows += [case("cpu", "p/C%d" % (i + 1), -0.031, 969, 1000) for i in range(5)]
    write(results, rows)
    # Errors C1..C5 of t: +1%, -0.5%, 0, +2.5%, 0, printed to one decimal with their sign.
    want = ("| task | kind | C1 model / RTL | C5 model / RTL | error C1..C5 |\n|---|---|---:|---:|---|\n"
            "| t | task | 1010 / 1000 | 2000 / 2000 | +1.0%, -0.5%, +0.0%, +2.5%, +0.0% |\n"
            "| p | cpu | 969 / 1000 | 969 / 1000 | -3.1%, -3.1%, -3.1%, -3.1%, -3.1% |\n")
    check(run(BASELINE_ROWS, results), (0, want, ""), "baseline rows")
    write(results, rows[:-1])  # p without C5
    code, out, err = run(BASELINE_ROWS, results)
    check((code, err), (2, "baseline_rows.py: p: not every configuration C1..C5 in the file\n"), "a missing C5")


def main():
    tmp = tempfile.mkdtemp(prefix="coral-fidelity-tables-")
    check_seed_summary(tmp)
    check_baseline_rows(tmp)
    print("coral_fidelity_tables: ok")


if __name__ == "__main__":
    main()
