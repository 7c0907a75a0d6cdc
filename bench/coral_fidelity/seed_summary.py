#!/usr/bin/env python3
"""One row per probe campaign: the seed table of docs/FIDELITY.md.

usage: seed_summary.py [--exclude-kind KIND]... [--kind KIND]... LABEL=FILE.json...

Each FILE is the --json of `coral_fidelity --no-tasks --probe-seed N --cached-only`. Prints a
Markdown row per file: programs, median |error|, 95th percentile (nearest rank, as
coral_fidelity's own tables), worst (program), programs beyond 10% and beyond 25%, and
whether every program's outputs matched the RTL's. --exclude-kind leaves a kind out (the
earlier tables cover the 15 kinds before fetch_lanes); --kind keeps only the kinds named.
"""
import json
import math
import sys


def median(values):
    v = sorted(values)
    m = len(v) // 2
    return v[m] if len(v) % 2 else (v[m - 1] + v[m]) / 2


def nearest_rank(sorted_values, q):
    rank = math.ceil(q * len(sorted_values))
    return sorted_values[min(len(sorted_values) - 1, max(rank, 1) - 1)]


def row(label, cases):
    errors = [abs(c["error"]) for c in cases]
    worst = max(cases, key=lambda c: abs(c["error"]))
    return "| %s | %d | %.2f%% | %.2f%% | %+.2f%% (%s) | %d | %d | %s |" % (
        label, len(cases), 100 * median(errors), 100 * nearest_rank(sorted(errors), 0.95),
        100 * worst["error"], worst["name"], sum(e > 0.10 for e in errors), sum(e > 0.25 for e in errors),
        "yes" if all(c.get("outputs_match", False) for c in cases) else "no")


def main(argv):
    excluded, only, campaigns = set(), set(), []
    args = iter(argv)
    for a in args:
        if a == "--exclude-kind":
            excluded.add(next(args, ""))
        elif a == "--kind":
            only.add(next(args, ""))
        elif "=" in a:
            campaigns.append(a.split("=", 1))
        else:
            print(__doc__, file=sys.stderr)
            return 2
    if not campaigns:
        print(__doc__, file=sys.stderr)
        return 2
    loaded = []
    for label, path in campaigns:
        try:
            with open(path) as f:
                cases = [c for c in json.load(f) if c["kind"] not in excluded and (not only or c["kind"] in only)]
        except (OSError, ValueError, KeyError, TypeError) as e:
            print("seed_summary.py: %s: %s" % (path, e), file=sys.stderr)
            return 2
        if not cases:
            print("seed_summary.py: %s: no programs" % path, file=sys.stderr)
            return 2
        loaded.append((label, cases))
    print("| seed | programs | median abs | p95 | worst | beyond 10% | beyond 25% | outputs match |")
    print("|---|---:|---:|---:|---|---:|---:|---|")
    for label, cases in loaded:
        print(row(label, cases))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
