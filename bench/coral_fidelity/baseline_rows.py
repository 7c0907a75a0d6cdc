#!/usr/bin/env python3
"""The per-baseline table of docs/FIDELITY.md: one row per task and CPU program, C1 and C5 cycles.

usage: baseline_rows.py FILE.json

FILE is the --json of `coral_fidelity --no-probes --cached-only` (with or without
--task-kernels: only its task and cpu rows are read). Rows keep the order of the file.
"""
import json
import sys


def main(argv):
    if len(argv) != 1:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        with open(argv[0]) as f:
            cases = [c for c in json.load(f) if c["kind"] in ("task", "cpu")]
    except (OSError, ValueError, KeyError, TypeError) as e:
        print("baseline_rows.py: %s: %s" % (argv[0], e), file=sys.stderr)
        return 2
    by_task = {}
    for c in cases:
        task, config = c["name"].rsplit("/", 1)
        by_task.setdefault(task, {"kind": c["kind"]})[config] = c
    print("| task | kind | C1 model / RTL | C5 model / RTL | error C1..C5 |")
    print("|---|---|---:|---:|---|")
    for task, runs in by_task.items():
        configs = ["C%d" % i for i in range(1, 6)]
        if not all(k in runs for k in configs):
            print("baseline_rows.py: %s: not every configuration C1..C5 in the file" % task, file=sys.stderr)
            return 2
        errors = ", ".join("%+.1f%%" % (100 * runs[k]["error"]) for k in configs)
        print("| %s | %s | %d / %d | %d / %d | %s |" % (task, runs["kind"], runs["C1"]["model"], runs["C1"]["rtl"],
                                                       runs["C5"]["model"], runs["C5"]["rtl"], errors))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
