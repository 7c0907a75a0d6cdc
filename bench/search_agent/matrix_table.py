#!/usr/bin/env python3
"""The search agent's speedup per cell as a markdown table (docs/search-agent.md).

Reads an agent-bench results file (DIR/results.jsonl) and prints one row per task with the
speedup of the submitted kernel over the baseline at C1..C5 ("fail" where the kernel failed,
"-" where the cell did not run), then the geometric mean per level and over every passing
cell. Usage: matrix_table.py DIR/results.jsonl
"""
import json
import math
import sys
from collections import defaultdict

CONFIGS = ["C1", "C2", "C3", "C4", "C5"]


def read(path):
    cells, levels, order = {}, {}, []
    with open(path) as f:
        for line in f:
            try:
                r = json.loads(line)
            except json.JSONDecodeError:
                continue  # a torn last line of an interrupted run
            task, config = r.get("task"), r.get("config")
            if task is None or config is None:
                continue
            if task not in levels:
                order.append(task)
            levels[task] = r.get("level", "cpu")
            ok = r.get("status") == "pass" and r.get("speedup")
            cells[(task, config)] = r["speedup"] if ok else None
    return cells, levels, order


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else float("nan")


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: matrix_table.py DIR/results.jsonl")
    cells, levels, order = read(sys.argv[1])
    print("| task | level | " + " | ".join(CONFIGS) + " |")
    print("|---|---|" + "---:|" * len(CONFIGS))
    by_level = defaultdict(list)
    for task in order:
        row = []
        for c in CONFIGS:
            if (task, c) not in cells:
                row.append("-")
            elif cells[(task, c)] is None:
                row.append("fail")
            else:
                row.append(f"{cells[(task, c)]:.3f}x")
                by_level[levels[task]].append(cells[(task, c)])
        print(f"| {task} | {levels[task]} | " + " | ".join(row) + " |")
    failed = sum(1 for v in cells.values() if v is None)
    print()
    for level in sorted(by_level, key=str):
        print(f"- level {level}: geometric mean {geomean(by_level[level]):.3f}x over {len(by_level[level])} cells")
    every = [v for vs in by_level.values() for v in vs]
    print(f"- all: geometric mean {geomean(every):.3f}x over {len(every)} passing cells, {failed} failed")


if __name__ == "__main__":
    main()
