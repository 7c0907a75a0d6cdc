#!/usr/bin/env python3
"""Runs bench/aie_ml_fidelity/whole_array.py (ctest aie_ml_fidelity_whole_array).

Usage: whole_array_test.py TLMCRAFT
Checks: the 16-tile bf16 GEMM computes the right outputs (every sampled one) with 2 and
with 4 blocks of C per tile, in the pipeline mode it states and with interlocks (the
kernel waits with NOPs, so both take the same cycles); the cycles are pinned (a timing
change that moves them must update docs/FIDELITY.md and docs/platforms/aie-ml.md); bad
options are refused with their message and exit status 2.
"""
import os
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
SCRIPT = os.path.join(ROOT, "bench", "aie_ml_fidelity", "whole_array.py")

# K = 64 (two k steps): 256 x 64 x 64 MACs x NB/2 over 16 tiles; pinned from the model.
RUNS = [
    (["--steps", "2", "--nb", "2"], "K = 64: 4549 cycles, 57.6 MACs per cycle per tile = 45.0% of the bf16 peak; "
     "0 of 1024 sampled outputs wrong"),
    (["--steps", "2", "--nb", "4"], "K = 64: 8456 cycles, 62.0 MACs per cycle per tile = 48.4% of the bf16 peak; "
     "0 of 1024 sampled outputs wrong"),
    (["--steps", "2", "--nb", "4", "--set", "compute.pipeline=interlocked"],
     "K = 64: 8456 cycles, 62.0 MACs per cycle per tile = 48.4% of the bf16 peak; 0 of 1024 sampled outputs wrong"),
]
BAD = [
    (["--nb", "3"], "whole_array.py: --nb takes 2 or 4, got '3'\n"),
    (["--steps", "0"], "whole_array.py: --steps takes a positive integer, got '0'\n"),
]


def run(args, tlmcraft):
    return subprocess.run([sys.executable, SCRIPT, "--tlmcraft", tlmcraft] + args, stdout=subprocess.PIPE,
                          stderr=subprocess.PIPE, text=True)


def main():
    tlmcraft = sys.argv[1]
    for args, want in RUNS:
        p = run(args, tlmcraft)
        if p.returncode != 0 or p.stdout.strip() != want:
            print("FAIL: %s: exit %d, %r%s (expected %r)" % (" ".join(args), p.returncode, p.stdout, p.stderr, want))
            return 1
    for args, want in BAD:
        p = run(args, tlmcraft)
        if p.returncode != 2 or p.stderr != want:
            print("FAIL: %s: exit %d, stderr %r (expected 2, %r)" % (" ".join(args), p.returncode, p.stderr, want))
            return 1
    print("ok: %d runs, %d bad inputs" % (len(RUNS), len(BAD)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
