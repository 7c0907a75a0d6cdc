#!/usr/bin/env python3
"""Measures what each documented AIE-ML deviation that has a switch moves.

For every switch below it runs the AIE-ML baseline suite (`tlmcraft bench --platform
aie_ml --jobs J --fresh`) with the switch, compares each cell's cycles with the default
run, and runs the fidelity measurement rows (`run.py`) with it. Prints one markdown
table (docs/FIDELITY.md, "Deviations from the sources, and what they move").

Usage: deviations.py [--tlmcraft PATH] [--jobs N] [--out DIR] [--fresh] [--only FILE]
--only FILE measures one switch (its file stem below, e.g. branchnops5) against the default.
DIR (default out/aie_ml_deviations) keeps each run's JSONL; a rerun resumes them (the
bench reuses a cell only for the same switch and ISA files), --fresh measures again
(needed after a model change). A full run is seven suite runs: about 17 minutes with
--jobs 1 on a 2-core machine. Python 3 standard library only.
"""
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))


def integer_vmac_latency_isa(dst):
    """A copy of isa/ whose integer VMAC/VMUL/VMSC ops (format int8/int16/int32) take 5
    cycles, as AMD's open compiler's AIE2 itineraries write them (bf16 keeps 6)."""
    shutil.rmtree(dst, ignore_errors=True)
    shutil.copytree(os.path.join(ROOT, "isa"), dst)
    path = os.path.join(dst, "aie_ml", "aie_ml.yaml")
    text = open(path).read().replace("  vmac:     {cycles: 6,",
                                     "  vmac_int: {cycles: 5, doc: \"integer VMAC/VMUL/VMSC (Peano stage 5)\"}\n  vmac:     {cycles: 6,", 1)
    lines = [l.replace("latency: vmac,", "latency: vmac_int,") if re.search(r"format: int(8|16|32)\b", l) else l
             for l in text.split("\n")]
    open(path, "w").write("\n".join(lines))
    return ["--isa-dir", dst]


def switches(out):
    return [
        ("16 KB logical banks", "banks4", ["--set", "compute.banks=4"]),
        # The stage-3 read is the default (compute.acc_read_cycles 2): the switch is the old model.
        ("VMAC accumulator read at issue (the model before issue 25)", "accread0",
         ["--set", "compute.acc_read_cycles=0"]),
        ("integer VMAC latency 5", "vmacint5", integer_vmac_latency_isa(os.path.join(out, "isa_vmac_int5"))),
        ("4 cycles per stream switch hop", "hop4", ["--set", "stream.hop_cycles=4"]),
        ("branch delay slots left unfilled (5 NOPs after every branch op; the upper bound)", "branchnops5",
         ["--set", "compute.branch_delay_nops=5"]),
        ("shim MM2S reads interleaved on the shared port (256-byte read-ahead)", "shimahead256",
         ["--set", "shim.read_ahead_bytes=256"]),
    ]


def bench(tlmcraft, jobs, path, extra, fresh):
    cmd = [tlmcraft, "bench", "--platform", "aie_ml", "--jobs", str(jobs), "-q", "--out", path] + extra
    cmd += ["--fresh"] if fresh else []
    subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    cells = {}
    for line in open(path):
        r = json.loads(line)
        if r.get("status") in ("pass", "fail"):
            cells[(r["task"], r["config"])] = (r.get("cycles"), r["status"])
    return cells


def fidelity(tlmcraft, extra):
    """{row: model figure} of run.py's measurement section with the switch."""
    sets = []
    for i in range(0, len(extra), 2):
        sets += (["--set", extra[i + 1]] if extra[i] == "--set" else [])
    env = dict(os.environ, TLMCRAFT=tlmcraft)
    if extra[:1] == ["--isa-dir"]:
        env["TLMCRAFT_ISA_DIR"] = extra[1]
    out = subprocess.run([sys.executable, os.path.join(HERE, "run.py")] + sets, env=env, stdout=subprocess.PIPE,
                         text=True).stdout
    rows, section = {}, None
    for line in out.splitlines():
        if line.startswith("### "):
            section = line[4:].split(" (")[0]
        elif section == "measurements" and line.startswith("| ") and not line.startswith("| measurement"):
            cells = [c.strip() for c in line.strip("|").split("|")]
            rows[cells[0]] = (cells[2], cells[4])
    return rows


def main():
    args = sys.argv[1:]
    tlmcraft = os.environ.get("TLMCRAFT", os.path.join(ROOT, "build", "harness", "tlmcraft"))
    jobs, out = 1, os.path.join(ROOT, "out", "aie_ml_deviations")
    fresh = "--fresh" in args
    args = [a for a in args if a != "--fresh"]
    only = None
    if "--only" in args and args.index("--only") + 1 < len(args):
        at = args.index("--only")
        only = args[at + 1]
        del args[at:at + 2]
    while args:
        if args[0] in ("--tlmcraft", "--jobs", "--out") and len(args) > 1:
            tlmcraft, jobs, out = (args[1], jobs, out) if args[0] == "--tlmcraft" else \
                (tlmcraft, int(args[1]), out) if args[0] == "--jobs" else (tlmcraft, jobs, args[1])
            args = args[2:]
        else:
            sys.stderr.write(__doc__)
            return 2
    os.makedirs(out, exist_ok=True)
    base = bench(tlmcraft, jobs, os.path.join(out, "default.jsonl"), [], fresh)
    base_rows = fidelity(tlmcraft, [])
    print("| deviation | switch | cells changed | median change | largest | cells failing | fidelity rows moved |")
    print("|---|---|---:|---:|---|---:|---|")
    for name, file, extra in switches(out):
        if only and file != only:
            continue
        cells = bench(tlmcraft, jobs, os.path.join(out, file + ".jsonl"), extra, fresh)
        changes = sorted(((cells[k][0] - base[k][0]) / base[k][0] * 100, k) for k in base if k in cells)
        moved = [c for c in changes if c[0] != 0]
        median = changes[len(changes) // 2][0] if changes else 0.0
        largest = max(moved, key=lambda c: abs(c[0])) if moved else None
        failing = sum(1 for k in base if k not in cells or cells[k][1] != "pass")
        rows = fidelity(tlmcraft, extra)
        fid = ["%s %s -> %s (%s)" % (r, base_rows[r][0], v[0], v[1]) for r, v in rows.items()
               if r in base_rows and v[0] != base_rows[r][0]]
        print("| %s | `%s` | %d of %d | %+.2f%% | %s | %d | %s |" % (
            name, " ".join(extra) if extra[0] == "--set" else "--isa-dir (integer VMACs 5 cycles)", len(moved),
            len(changes), median, ("%+.1f%% (%s %s)" % (largest[0], largest[1][0], largest[1][1])) if largest else "-",
            failing, "; ".join(fid) if fid else "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
