#!/usr/bin/env python3
"""How much of a co-design variant's speedup rests on the fused-latency estimate
(docs/codesign.md, "AIE-ML: the benchmark and its bounds").

`codesign mine` gives each added AIE-ML instruction the latency of its chain in one pass
of the datapath (isa/aie_ml/fused_latency.h: the register-file write and read between its
steps left out; before, the latency of its slowest step). This reruns one variant of a
`codesign explore` directory with every added instruction at its chain's back-to-back
latency instead (the candidate's `step_cycles`: the steps issued one after another, no
stage saved): the
same kernels (already in the variant's folder), the overlay with only the latencies
changed, `tlmcraft bench` on fresh seeds. On a core without register interlocks (AIE-ML's
exposed pipeline, its default) the kernels' NOP waits were placed for the declared
latencies, so a longer one would read a result before it lands: each kernel first gets
the waits the new latencies need (`tlmcraft asm --waits`, which keeps the waits already
there and adds only the missing ones). It prints the variant's geometric-mean speedup
over the explore's base with the estimate (from the store) and with the chain latencies.
Overlays whose ops carry `latency:` as a number are supported (AIE-ML's mined ones).

With --write-candidates OUT it only writes the candidates file with every candidate's
latency set to its chain's back-to-back latency (for a `codesign explore|mcp --kernel-generation search`
whose kernels are searched for those latencies) and exits.

usage: bench/codesign/chain_latency.py --explore DIR --candidates FILE --variant ID
         [--tlmcraft BIN] [--platform aie_ml] [--isa aie_ml] [--jobs 2]
       bench/codesign/chain_latency.py --candidates FILE --write-candidates OUT
"""
import argparse
import json
import math
import os
import subprocess
import sys

import yaml


def geomean_speedup(base, variant):
    keys = [k for k in base if k in variant]
    return math.exp(sum(math.log(base[k] / variant[k]) for k in keys) / len(keys)), len(keys)


def cycles_of(results):
    out = {}
    with open(results) as f:
        for line in f:
            r = json.loads(line) if line.strip() else None
            if r and r.get("status") == "pass":
                out[f"{r['task']}/{r['config']}"] = r["cycles"]
    return out


def write_chain_candidates(path, out):
    doc = yaml.safe_load(open(path))
    for c in doc["candidates"]:
        for op in c["overlay"]["ops"]:
            op["latency"] = int(c["estimate"]["step_cycles"])
            op["doc"] = op.get("doc", "").replace("the chain in one pass of the datapath",
                                                 "the chain's steps back to back")
    with open(out, "w") as f:
        yaml.safe_dump(doc, f, sort_keys=False)


def kernels_with_waits(tlmcraft, isa, src, dst, overlay):
    """Writes every kernel of src to the same path under dst with the waits the overlay's latencies need."""
    for root, _, files in os.walk(src):
        for name in sorted(files):
            kernel = os.path.join(root, name)
            out = os.path.join(dst, os.path.relpath(kernel, src))
            os.makedirs(os.path.dirname(out), exist_ok=True)
            argv = [tlmcraft, "asm", "--isa", isa, "--waits", out, kernel, "--isa-ext", overlay]
            if subprocess.call(argv, stdout=subprocess.DEVNULL) != 0:
                raise RuntimeError(f"inserting waits failed: {' '.join(argv)}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--explore")
    ap.add_argument("--candidates", required=True)
    ap.add_argument("--variant")
    ap.add_argument("--write-candidates", help="write the candidates at their chain latencies to this file")
    ap.add_argument("--tlmcraft", default="build/harness/tlmcraft")
    ap.add_argument("--platform", default="aie_ml")
    ap.add_argument("--isa", default="aie_ml", help="the platform's ISA (for the waits)")
    ap.add_argument("--jobs", type=int, default=2)
    a = ap.parse_args()
    if a.write_candidates:
        write_chain_candidates(a.candidates, a.write_candidates)
        return 0
    if not a.explore or not a.variant:
        ap.error("--explore and --variant are required (or --write-candidates)")
    vdir = os.path.join(a.explore, "variants", a.variant)
    overlay = yaml.safe_load(open(os.path.join(vdir, "overlay.yaml")))
    steps = {c["name"]: c["estimate"]["step_cycles"] for c in yaml.safe_load(open(a.candidates))["candidates"]}
    for op in overlay["ops"]:
        op["latency"] = int(steps[op["mnemonic"]])
    out = os.path.join(vdir, "chain_latency")
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "overlay.yaml"), "w") as f:
        yaml.safe_dump(overlay, f, sort_keys=False)
    kernels = os.path.join(out, "kernels")
    try:
        kernels_with_waits(a.tlmcraft, a.isa, os.path.join(vdir, "kernels"), kernels, os.path.join(out, "overlay.yaml"))
    except RuntimeError as e:
        print(e, file=sys.stderr)
        return 2
    cells = sorted(cycles_of(os.path.join(vdir, "results.jsonl")))
    tasks = sorted({c.split("/")[0] for c in cells})
    configs = sorted({c.split("/")[1] for c in cells})
    argv = [a.tlmcraft, "bench", "--platform", a.platform, "--task", ",".join(tasks), "--config", ",".join(configs),
            "--kernels", kernels, "--isa-ext", os.path.join(out, "overlay.yaml"), "--jobs",
            str(a.jobs), "--quiet", "--json", "--fresh", "--out", os.path.join(out, "results.jsonl")]
    rc = subprocess.call(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    if rc not in (0, 1):
        print(f"bench failed (exit {rc}): {' '.join(argv)}", file=sys.stderr)
        return 2
    base = cycles_of(os.path.join(a.explore, "variants", "base", "results.jsonl"))
    estimate, n = geomean_speedup(base, cycles_of(os.path.join(vdir, "results.jsonl")))
    chained = cycles_of(os.path.join(out, "results.jsonl"))
    chain, m = geomean_speedup(base, chained)
    latencies = ", ".join(f"{op['mnemonic']} {op['latency']}" for op in overlay["ops"])
    print(f"latencies: {latencies}")
    print(f"{a.variant}: {estimate:.4f}x with the estimate ({n} cells), {chain:.4f}x at the chain latencies "
          f"({m} cells passing of {len(cells)})")
    print(f"command: {' '.join(argv)}")
    return 0 if m == len(cells) else 1


if __name__ == "__main__":
    sys.exit(main())
