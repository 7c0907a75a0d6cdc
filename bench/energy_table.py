#!/usr/bin/env python3
"""The before/after energy table of docs/energy-area.md from bench/energy_before_after.sh's
JSONL files: one row per platform and task (C1), energy before (busy-cycle tables) and
after (per action), the ratio, and the components that changed most. Exits 1 when a
cell's cycles or status differ between the runs (or from --reference)."""
import argparse
import json
import math
import os
import sys


def load(path):
    cells = {}
    if not os.path.exists(path):
        return cells
    with open(path) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            r = json.loads(line)
            if r.get("status") == "unsupported":
                continue
            cells[(r["platform"], r["task"], r["config"])] = r
    return cells


def components(r):
    return (r.get("energy") or {}).get("by_component") or {}


def biggest_changes(before, after, n=2):
    names = set(components(before)) | set(components(after))
    deltas = [(components(after).get(c, 0.0) - components(before).get(c, 0.0), c) for c in names]
    deltas.sort(key=lambda d: -abs(d[0]))
    return ", ".join(f"{c} {d / 1000:+.1f} nJ" for d, c in deltas[:n] if abs(d) > 0.05)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out_dir")
    ap.add_argument("--reference", help="JSONL of another build whose cycles must match")
    a = ap.parse_args()
    reference = load(a.reference) if a.reference else {}
    bad = []
    print("| platform | task | cycles | before (nJ) | after (nJ) | after / before | largest changes |")
    print("|---|---|---|---|---|---|---|")
    ratios = {}
    for p in ("plena", "coral", "aie_ml"):
        before = load(os.path.join(a.out_dir, f"before-{p}.jsonl"))
        after = load(os.path.join(a.out_dir, f"after-{p}.jsonl"))
        for key in sorted(after):
            b, r = before.get(key), after[key]
            if b is None or b.get("cycles") != r.get("cycles") or b.get("status") != r.get("status"):
                bad.append(f"{key}: before {b and (b.get('status'), b.get('cycles'))} after {(r.get('status'), r.get('cycles'))}")
                continue
            ref = reference.get(key)
            if reference and (ref is None or ref.get("cycles") != r.get("cycles") or ref.get("status") != r.get("status")):
                bad.append(f"{key}: reference {ref and (ref.get('status'), ref.get('cycles'))} here {(r.get('status'), r.get('cycles'))}")
            eb = (b.get("energy") or {}).get("total_pj")
            ea = (r.get("energy") or {}).get("total_pj")
            if eb is None or ea is None:
                print(f"| {p} | {key[1]} | {r.get('cycles')} | - | - | - | {r.get('status')}: no energy |")
                continue
            ratio = ea / eb
            ratios.setdefault(p, []).append(ratio)
            print(f"| {p} | {key[1]} | {r['cycles']} | {eb / 1000:.2f} | {ea / 1000:.2f} | {ratio:.3f} | {biggest_changes(b, r)} |")
    print()
    for p, rs in ratios.items():
        geo = math.exp(sum(math.log(x) for x in rs) / len(rs))
        print(f"{p}: {len(rs)} cells, geomean after/before {geo:.3f}, range {min(rs):.3f} .. {max(rs):.3f}")
    if bad:
        print("\ncycles or status differ:", *bad, sep="\n  ", file=sys.stderr)
        return 1
    print("cycles and status: identical in every cell" + (" (and equal to the reference)" if reference else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
