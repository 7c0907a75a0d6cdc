#!/usr/bin/env python3
"""Every AIE-ML baseline cell (task x C1..C5) on the interlocked and the exposed pipeline.

Prints one row per cell: cycles with compute.pipeline=interlocked and =exposed, and
whether each passes its reference check (trial 0, seed 1). The baseline is generated for
the configuration it runs on: with interlocks the shipped kernel, for the exposed pipeline
the same with explicit NOP waits (isa/aie_ml/wait_insertion.h). Then a summary: cells that
fail in some mode, and how the exposed cycles compare with the interlocked ones. Exit 1
when a cell fails.

usage: pipeline_sweep.py [--tlmcraft PATH] [--jobs N] [--configs C1,C2] [--tasks a,b] [--modes m1,m2]
                         [--set KEY=VALUE ...] [--json OUT]
--set applies to every run (e.g. compute.acc_read_cycles=0: the accumulator read at issue,
the waits timed by it too, since the baseline is generated for the configuration it runs on).
"""
import argparse
import concurrent.futures
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def aie_ml_tasks(tlmcraft):
    out = subprocess.run([tlmcraft, "list", "tasks"], capture_output=True, text=True, check=True).stdout
    tasks, current = [], None
    for line in out.splitlines():
        m = re.match(r"(\S+) (\S+)", line)
        if m and not line.startswith(" "):
            current = m.group(2)
        elif current and line.strip().startswith("aie_ml:") and "unsupported" not in line and current not in tasks:
            tasks.append(current)
    return tasks


def run_cell(tlmcraft, settings, task, config, mode):
    cmd = [tlmcraft, "run", "-p", "aie_ml", "--task", task, "--config", config, "--baseline", "--trials", "1",
           "--seed", "1", "--timeout", "0", "--set", "compute.pipeline=" + mode, "--json"]
    for s in settings:
        cmd += ["--set", s]
    p = subprocess.run(cmd, capture_output=True, text=True)
    try:
        r = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"status": "error", "reason": (p.stderr or p.stdout).strip()[:300], "cycles": None}
    return {"status": r.get("status"), "reason": r.get("reason", "")[:300], "cycles": r.get("cycles")}


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tlmcraft", default=os.path.join(ROOT, "build", "harness", "tlmcraft"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--configs", default="C1,C2,C3,C4,C5")
    ap.add_argument("--tasks", default="")
    ap.add_argument("--modes", default="interlocked,exposed")
    ap.add_argument("--set", action="append", default=[], metavar="KEY=VALUE")
    ap.add_argument("--json", default="")
    a = ap.parse_args()
    tasks = a.tasks.split(",") if a.tasks else aie_ml_tasks(a.tlmcraft)
    modes = a.modes.split(",")
    cells = [(t, c, m) for t in tasks for c in a.configs.split(",") for m in modes]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        results = dict(zip(cells, ex.map(lambda x: run_cell(a.tlmcraft, a.set, *x), cells)))
    rows, bad, ratios = [], 0, []
    print("| task | config | " + " | ".join(modes) + " |")
    print("|---|---|" + "---:|" * len(modes))
    for t in tasks:
        for c in a.configs.split(","):
            rs = [results[(t, c, m)] for m in modes]
            rows.append({"task": t, "config": c, **{m: r for m, r in zip(modes, rs)}})
            cols = [f"{r['cycles']} {r['status']}" for r in rs]
            failed = any(r["status"] != "pass" for r in rs)
            bad += failed
            if not failed and len(rs) == 2:
                ratios.append((rs[1]["cycles"] / rs[0]["cycles"] - 1) * 100)
            print(f"| {t} | {c} | " + " | ".join(cols) + " |")
            for m, r in zip(modes, rs):
                if r["status"] != "pass":
                    print(f"  {m}: {r['reason']}", file=sys.stderr)
    print(f"{len(rows)} cells, {bad} failing in some mode")
    if ratios:
        moved = sorted(r for r in ratios if r != 0)
        print(f"{modes[1]} against {modes[0]}: {len(ratios) - len(moved)} cells the same, {len(moved)} moved" +
              (f" (median {moved[len(moved) // 2]:+.1f}%, from {moved[0]:+.1f}% to {moved[-1]:+.1f}%)" if moved else ""))
    if a.json:
        with open(a.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
