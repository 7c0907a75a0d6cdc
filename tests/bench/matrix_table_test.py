#!/usr/bin/env python3
"""Checks bench/search_agent/matrix_table.py on hand-made results files (ctest matrix_table).

The tables in docs/search-agent.md ("The whole matrix") are its output: a per-task row of
speedups at C1..C5, the geometric means per level, and the comparison with the paper.
"""
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCRIPT = os.path.join(ROOT, "bench", "search_agent", "matrix_table.py")


def record(platform, task, level, config, status, speedup=None, cycles=None, rounds=None):
    r = {"platform": platform, "task": task, "level": level, "config": config, "status": status}
    if speedup is not None:
        r["speedup"] = speedup
    if cycles is not None:
        r.update({"baseline_cycles": 100, "cycles": cycles, "agent": {"rounds": rounds, "evaluations": 2 * rounds}})
    return json.dumps(r)


def write(path, lines):
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def run(*args):
    p = subprocess.run([sys.executable, SCRIPT, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def check(got, want, what):
    if got != want:
        sys.exit(f"FAIL {what}:\n--- got\n{got}\n--- want\n{want}")


def main():
    tmp = tempfile.mkdtemp(prefix="matrix-table-")
    coral = os.path.join(tmp, "coral.jsonl")
    write(coral, [
        record("coral", "vvadd", 0, "C1", "pass", 1.0),  # finished first, printed after the ML tasks
        record("coral", "conv_block", 3, "C1", "pass", 4.0),  # benchmark order: after gemm
        record("coral", "gemm", 1, "C1", "pass", 2.0),
        record("coral", "gemm", 1, "C2", "pass", 8.0),
        record("coral", "gemm", 1, "C3", "fail", 3.0),  # a failed cell counts as "fail", never as a speedup
        record("coral", "pmp", 0, "C1", "unsupported"),  # unsupported: no row
        '{"task": "gemm", "config": "C4", "sta',  # the torn last line of an interrupted run
    ])
    plena = os.path.join(tmp, "plena.jsonl")
    write(plena, [
        record("plena", "silu", 1, "C1", "pass", 1.25),
        record("plena", "silu", 1, "C5", "pass", 1.0),
        record("plena", "gemm", 1, "C1", "pass", 1.0),
    ])

    code, out, _ = run(coral)
    check(code, 0, "exit code")
    # Level 1 passing cells 2.0 and 8.0: sqrt(16) = 4.000; all: (2 * 8 * 4 * 1)^(1/4) = 64^(1/4) = 2.828.
    check(out, "\n".join([
        "| task | level | C1 | C2 | C3 | C4 | C5 |",
        "|---|---|---:|---:|---:|---:|---:|",
        "| gemm | 1 | 2.000x | 8.000x | fail | - | - |",
        "| conv_block | 3 | 4.000x | - | - | - | - |",
        "| vvadd | CPU | 1.000x | - | - | - | - |",
        "",
        "- level 1: geometric mean 4.000x over 2 cells",
        "- level 3: geometric mean 4.000x over 1 cells",
        "- level CPU: geometric mean 1.000x over 1 cells",
        "- all: geometric mean 2.828x over 4 passing cells, 1 failed",
        "",
    ]), "per-task table")

    # A second Coral file (its CPU programs run apart) is merged into Coral's row: its
    # copy C1 (1.0) makes the CPU geometric mean 1.000 over 2 cells and "all"
    # (2 * 8 * 4 * 1 * 1)^(1/5) = 64^(1/5) = 2.297 over 5.
    coral_cpu = os.path.join(tmp, "coral_cpu.jsonl")
    write(coral_cpu, [record("coral", "copy", 0, "C1", "pass", 1.0)])
    code, out, _ = run("--compare", plena, coral, coral_cpu)
    check(code, 0, "exit code of --compare")
    # plena level 1: (1.25 * 1 * 1)^(1/3) = 1.077; the elementwise rows take silu at C1 (1.25)
    # and at C5 (1.0); GEMM is gemm at C1..C5 (1.0). coral: GEMV/GEMM/Conv2D = gemm C1, C2
    # (2.0, 8.0: geometric mean 4.000); ConvBlock at C1 = 4.0. No AIE-ML file: no AIE-ML row.
    check(out, "\n".join([
        "| platform | level 1 | level 2 | level 3 | CPU | all | failed |",
        "|---|---:|---:|---:|---:|---:|---:|",
        "| plena | 1.077x (3) | - | - | - | 1.077x (3) | 0 |",
        "| coral | 4.000x (2) | - | 4.000x (1) | 1.000x (2) | 2.297x (5) | 1 |",
        "",
        "| platform | task group | paper (GPT-5.2) | search agent: range | geometric mean (cells) |",
        "|---|---|---:|---:|---:|",
        "| plena | normalisation | 1.06x-1.22x | - | - |",
        "| plena | elementwise, small (C1) | 1.2x | 1.25x | 1.250x (1) |",
        "| plena | elementwise, large (C5) | 0.64x | 1.00x | 1.000x (1) |",
        "| plena | GEMM | about 1.0x | 1.00x | 1.000x (1) |",
        "| coral | GEMV, GEMM, Conv2D | 2x-3x | 2.00x-8.00x | 4.000x (2) |",
        "| coral | ConvBlock at C1 | 7.9x | 4.00x | 4.000x (1) |",
        "",
    ]), "comparison table")

    # --diff: two runs of one selection; silu C2 differs in cycles, gemm C1 only in rounds
    # (and so evaluations), relu C1 is in one file only (not compared), pmp is unsupported.
    local, slurm = os.path.join(tmp, "local.jsonl"), os.path.join(tmp, "slurm.jsonl")
    write(local, [
        record("plena", "silu", 1, "C1", "pass", 1.25, cycles=80, rounds=3),
        record("plena", "silu", 1, "C2", "pass", 1.25, cycles=80, rounds=3),
        record("plena", "gemm", 1, "C1", "pass", 1.0, cycles=100, rounds=4),
        record("plena", "relu", 1, "C1", "pass", 1.0, cycles=100, rounds=4),
    ])
    write(slurm, [
        record("plena", "silu", 1, "C1", "pass", 1.25, cycles=80, rounds=3),
        record("plena", "silu", 1, "C2", "pass", 1.0, cycles=100, rounds=3),
        record("plena", "gemm", 1, "C1", "pass", 1.0, cycles=100, rounds=5),
        record("coral", "pmp", 0, "C1", "unsupported"),
    ])
    code, out, _ = run("--diff", local, slurm)
    check(code, 0, "exit code of --diff")
    check(out, "\n".join([
        "1 of 3 cells in both files have the same status, baseline_cycles, cycles, rounds, evaluations",
        "",
        "| cell | status | baseline_cycles | cycles | rounds | evaluations |",
        "|---|---|---|---|---|---|",
        "| plena/silu/C2 | pass | 100 | 80 / 100 | 3 | 6 |",
        "| plena/gemm/C1 | pass | 100 | 100 | 4 / 5 | 8 / 10 |",
        "",
    ]), "diff table")

    code, _, err = run()
    check(code, 2, "exit code without arguments")
    check(err.strip(), "usage: matrix_table.py DIR/results.jsonl | --compare A/results.jsonl B/results.jsonl ... | "
          "--diff A/results.jsonl B/results.jsonl", "usage message")
    missing = os.path.join(tmp, "none.jsonl")
    code, _, err = run(missing)
    check(code, 2, "exit code for a missing file")
    check(err.strip(), f"matrix_table.py: cannot read {missing}: No such file or directory", "missing-file message")
    print("matrix_table: ok")


if __name__ == "__main__":
    main()
