#!/usr/bin/env python3
"""Runs bench/codesign/chain_latency.py on a one-cell exploration (ctest codesign_chain_latency).

Usage: chain_latency_test.py TLMCRAFT
Mines silu C1 on AIE-ML (one candidate, CD0: VCONV.FP32.BF16 -> VSUB.F -> VCONV.BF16.FP32),
checks the latency `codesign mine` declares for it (one pass of the datapath, 3 + 1 + 3 =
7: isa/aie_ml/fused_latency.h) and its chain latency (4 + 3 + 4 = 11), explores it, and
reruns CD0 at its chain latency. On the exposed pipeline (AIE-ML's default, no register
interlocks) the variant's kernel waits for a result 7 cycles after the op issued; at 11 a
reader in the next bundles would take the old value, so the script must add the missing
waits (`tlmcraft asm --waits`) before it runs the kernel. Without them the rerun took the
same cycles as the estimate and could compute wrong results.
"""
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCRIPT = os.path.join(ROOT, "bench", "codesign", "chain_latency.py")
WAIT = "; wait (exposed pipeline)"

# The declared latency, derived from the documented stages (srs 4, vacc 3; every operand
# read in stage 1): the first VCONV without its register write, 3; the VSUB.F without its
# read and write, 1; the last VCONV without its read, 3: 7. Back to back 4 + 3 + 4 = 11.
DECLARED, CHAIN = 7, 11
# Derived from the miner's counts (not from the baseline's cycles, which other timing
# changes move): CD0 has 128 instances in silu C1, 16 per use. 7 of its 8 static uses (112
# executions) are read 7 bundles after the op, as the chain's result was read 11 cycles
# after its first step: 11 - 7 = 4 fewer each. The first use's result is read much later
# (by a VMAC 19 bundles after it): there the chain's 3 steps and 5 waits (8 bundles) held back an
# independent VSUB.ACC32 that now issues right after the op: 7 fewer each, at any latency
# up to that read. So 112 x 4 + 16 x 7 = 560 cycles (the miner's estimate, 128 x 4 = 512,
# counts only the latency). At latency 11, the 7 uses read within 7 bundles get 11 - 7 = 4
# more waits each (28 lines), executed 112 times: 448 cycles back. (At 4f4d201, with the
# slowest step's latency 4: base 5662, 4766, 5550: 1.1880x and 1.0202x.)
SAVED, WAITS_ADDED, WAIT_CYCLES = 112 * 4 + 16 * 7, 7 * 4, 4 * 112


def declared(candidates):
    """CD0's latency and chain latency as `codesign mine` wrote them (candidates.yaml)."""
    import yaml
    with open(candidates) as f:
        (c,) = yaml.safe_load(f)["candidates"]
    return c["overlay"]["ops"][0]["latency"], c["estimate"]["step_cycles"]

def run(argv):
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=ROOT)
    if p.returncode != 0:
        sys.exit(f"FAIL: {' '.join(argv)} exited {p.returncode}\n{p.stdout}{p.stderr}")
    return p.stdout


def cycles(results):
    with open(results) as f:
        (r,) = [json.loads(line) for line in f if line.strip()]
    if r["status"] != "pass":
        sys.exit(f"FAIL: {results}: {r['status']}")
    return r["cycles"]


def waits_in(path):
    with open(path) as f:
        return sum(1 for line in f if WAIT in line)


def main():
    tlmcraft = sys.argv[1]
    os.environ.setdefault("TLMCRAFT_DATA_DIR", ROOT)
    with tempfile.TemporaryDirectory() as tmp:
        mine, explore = os.path.join(tmp, "mine"), os.path.join(tmp, "x")
        cands = os.path.join(mine, "candidates.yaml")
        run([tlmcraft, "codesign", "mine", "--platform", "aie_ml", "--tasks", "silu", "--configs", "C1", "--top", "1",
             "--out", mine])
        if declared(cands) != (DECLARED, CHAIN):
            sys.exit(f"FAIL: CD0 declared latency and chain latency {declared(cands)}, want {(DECLARED, CHAIN)}")
        run([tlmcraft, "codesign", "explore", "--platform", "aie_ml", "--tasks", "silu", "--configs", "C1",
             "--candidates", cands, "--area-budget", "25%", "--jobs", "1", "--out", explore])
        out = run([sys.executable, SCRIPT, "--tlmcraft", tlmcraft, "--explore", explore, "--candidates", cands,
                   "--variant", "CD0", "--jobs", "1"])
        variant = os.path.join(explore, "variants", "CD0")
        base = cycles(os.path.join(explore, "variants", "base", "results.jsonl"))
        fused = cycles(os.path.join(variant, "results.jsonl"))
        chained = cycles(os.path.join(variant, "chain_latency", "results.jsonl"))
        if (fused, chained) != (base - SAVED, base - SAVED + WAIT_CYCLES):
            sys.exit(f"FAIL: cycles base {base}, CD0 {fused}, at the chain latency {chained}; want "
                     f"{base - SAVED} and {base - SAVED + WAIT_CYCLES}")
        want = (f"CD0: {base / fused:.4f}x with the estimate (1 cells), {base / chained:.4f}x at the chain "
                "latencies (1 cells passing of 1)")
        if out.splitlines()[:2] != ["latencies: CD0 11", want]:
            sys.exit(f"FAIL: got\n{out}want\nlatencies: CD0 11\n{want}")
        before = waits_in(os.path.join(variant, "kernels", "aie_ml", "silu", "C1.asm"))
        after = waits_in(os.path.join(variant, "chain_latency", "kernels", "aie_ml", "silu", "C1.asm"))
        if after - before != WAITS_ADDED:
            sys.exit(f"FAIL: {after - before} waits added, want 28 (7 uses x 4 cycles)")
        if not re.search(r"--kernels \S+/chain_latency/kernels ", out):
            sys.exit(f"FAIL: the bench did not run the kernels with the added waits:\n{out}")
    print("PASS")


if __name__ == "__main__":
    main()
