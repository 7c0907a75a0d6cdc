#!/usr/bin/env python3
"""The search agent's speedup per cell as markdown tables (docs/search-agent.md).

  matrix_table.py DIR/results.jsonl
      one row per task with the speedup of the submitted kernel over the baseline at C1..C5
      ("fail" where the kernel failed, "-" where the cell did not run), then the geometric
      mean per level (the CPU programs, level 0, as "CPU") and over every passing cell.
  matrix_table.py --compare A/results.jsonl B/results.jsonl ...
      the geometric means per platform and level (files of one platform are merged), then our figures beside the KernelCraft
      paper's (its best model, GPT-5.2) for the same task groups and configurations.
  matrix_table.py --diff A/results.jsonl B/results.jsonl
      the cells both files hold: how many have the same status, baseline cycles, cycles,
      rounds and evaluations (two runs of one selection, e.g. local and --executor slurm),
      and a row for each cell that differs.
"""
import json
import math
import sys
from collections import defaultdict

CONFIGS = ["C1", "C2", "C3", "C4", "C5"]
LEVELS = [1, 2, 3, 0]
# Row order: tasks::benchmark_task_order() (tasks/registry.cpp), then tasks/specs/cpu.yaml's
# programs; a task of neither follows in the order the file first names it. (A resumed run
# writes cells in the order they finish, not in this order.)
TASK_ORDER = ["silu", "relu", "gelu", "softmax", "layernorm", "rmsnorm", "gemv", "gemm", "batchmatmul", "linear",
              "conv2d", "depthwise_conv", "rope", "ffn", "swiglu", "scaled_dot_product", "flash_attention", "mha",
              "gqa", "mqa", "conv_block", "llama_decoder", "t5_decoder", "multiply", "vvadd", "copy", "median",
              "dotprod", "qsort", "rsort", "towers", "dhrystone", "pmp"]

# The paper's reported speedups (its "Headline results"): platform, the group as the paper
# names it, our tasks for that group, the configurations, the paper's figure.
PAPER = [
    ("plena", "normalisation", ["layernorm", "rmsnorm"], CONFIGS, "1.06x-1.22x"),
    ("plena", "elementwise, small (C1)", ["silu", "relu", "gelu"], ["C1"], "1.2x"),
    ("plena", "elementwise, large (C5)", ["silu", "relu", "gelu"], ["C5"], "0.64x"),
    ("plena", "GEMM", ["gemm"], CONFIGS, "about 1.0x"),
    ("coral", "GEMV, GEMM, Conv2D", ["gemv", "gemm", "conv2d"], CONFIGS, "2x-3x"),
    ("coral", "ConvBlock at C1", ["conv_block"], ["C1"], "7.9x"),
    ("aie_ml", "the cells it solved (19 of 110)", None, CONFIGS, "0.89x-1.18x"),
]


def level_name(level):
    return "CPU" if level == 0 else str(level)


def read(path):
    """Cells {(task, config): speedup or None for a failed cell}, levels, task order, platform."""
    cells, levels, order, platform = {}, {}, [], None
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue  # a torn last line of an interrupted run
            task, config = r.get("task"), r.get("config")
            if task is None or config is None or r.get("status") == "unsupported":
                continue
            platform = platform or r.get("platform")
            if task not in levels:
                order.append(task)
            levels[task] = r.get("level", 0)
            ok = r.get("status") == "pass" and r.get("speedup")
            cells[(task, config)] = r["speedup"] if ok else None
    rank = {t: i for i, t in enumerate(TASK_ORDER)}
    order.sort(key=lambda t: rank.get(t, len(TASK_ORDER)))  # stable: unknown tasks keep their order
    return cells, levels, order, platform


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def passing_by_level(cells, levels):
    by_level = defaultdict(list)
    for (task, _), v in cells.items():
        if v is not None:
            by_level[levels[task]].append(v)
    return by_level


def print_matrix(path):
    cells, levels, order, _ = read(path)
    print("| task | level | " + " | ".join(CONFIGS) + " |")
    print("|---|---|" + "---:|" * len(CONFIGS))
    for task in order:
        row = []
        for c in CONFIGS:
            v = cells.get((task, c), "-")
            row.append(v if v == "-" else "fail" if v is None else f"{v:.3f}x")
        print(f"| {task} | {level_name(levels[task])} | " + " | ".join(row) + " |")
    by_level = passing_by_level(cells, levels)
    failed = sum(1 for v in cells.values() if v is None)
    print()
    for level in [l for l in LEVELS if l in by_level]:
        xs = by_level[level]
        print(f"- level {level_name(level)}: geometric mean {geomean(xs):.3f}x over {len(xs)} cells")
    every = [v for vs in by_level.values() for v in vs]
    print(f"- all: geometric mean {geomean(every):.3f}x over {len(every)} passing cells, {failed} failed")


def fmt(xs):
    return f"{geomean(xs):.3f}x ({len(xs)})" if xs else "-"


def print_compare(paths):
    runs = {}  # platform -> (cells, levels), merged over its files (e.g. ML tasks and CPU programs)
    for path in paths:
        cells, levels, _, platform = read(path)
        merged_cells, merged_levels = runs.setdefault(platform, ({}, {}))
        merged_cells.update(cells)
        merged_levels.update(levels)
    print("| platform | level 1 | level 2 | level 3 | CPU | all | failed |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for platform, (cells, levels) in runs.items():
        by_level = passing_by_level(cells, levels)
        every = [v for vs in by_level.values() for v in vs]
        failed = sum(1 for v in cells.values() if v is None)
        print(f"| {platform} | " + " | ".join(fmt(by_level.get(l, [])) for l in LEVELS) + f" | {fmt(every)} | {failed} |")
    print()
    print("| platform | task group | paper (GPT-5.2) | search agent: range | geometric mean (cells) |")
    print("|---|---|---:|---:|---:|")
    for platform, group, tasks, configs, paper in PAPER:
        if platform not in runs:
            continue
        cells, _ = runs[platform]
        xs = sorted(v for (t, c), v in cells.items() if v is not None and (tasks is None or t in tasks) and c in configs)
        span = f"{xs[0]:.2f}x-{xs[-1]:.2f}x" if len(xs) > 1 else f"{xs[0]:.2f}x" if xs else "-"
        print(f"| {platform} | {group} | {paper} | {span} | {fmt(xs)} |")


SAME_FIELDS = ["status", "baseline_cycles", "cycles", "rounds", "evaluations"]


def read_records(path):
    """{(platform, task, config): the fields of SAME_FIELDS} of the run cells of a results file."""
    out = {}
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue
            if r.get("task") is None or r.get("status") == "unsupported":
                continue
            agent = r.get("agent") or {}
            fields = {k: r.get(k, agent.get(k)) for k in SAME_FIELDS}
            out[(r.get("platform"), r["task"], r.get("config"))] = fields
    return out


def print_diff(path_a, path_b):
    a, b = read_records(path_a), read_records(path_b)
    both = [k for k in a if k in b]
    differ = [k for k in both if a[k] != b[k]]
    print(f"{len(both) - len(differ)} of {len(both)} cells in both files have the same " + ", ".join(SAME_FIELDS))
    if differ:
        print()
        print("| cell | " + " | ".join(SAME_FIELDS) + " |")
        print("|---|" + "---|" * len(SAME_FIELDS))
        for k in differ:
            row = [str(a[k][f]) if a[k][f] == b[k][f] else f"{a[k][f]} / {b[k][f]}" for f in SAME_FIELDS]
            print(f"| {'/'.join(k)} | " + " | ".join(row) + " |")


def fail(message):
    print(message, file=sys.stderr)
    sys.exit(2)


def main():
    args = sys.argv[1:]
    try:
        if len(args) == 1 and not args[0].startswith("-"):
            print_matrix(args[0])
        elif len(args) >= 2 and args[0] == "--compare":
            print_compare(args[1:])
        elif len(args) == 3 and args[0] == "--diff":
            print_diff(args[1], args[2])
        else:
            fail("usage: matrix_table.py DIR/results.jsonl | --compare A/results.jsonl B/results.jsonl ... | "
                 "--diff A/results.jsonl B/results.jsonl")
    except OSError as e:
        fail(f"matrix_table.py: cannot read {e.filename}: {e.strerror}")


if __name__ == "__main__":
    main()
