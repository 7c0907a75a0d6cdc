#!/usr/bin/env python3
"""Seed sweep of the PLENA attention and softmax baselines against their references
(docs/tasks.md, "Rounding slack"): for each task and configuration, the shipped baseline
over many fresh trials (consecutive seeds from --seed); prints the failing trials and
their count. An evaluation stops at its first failing trial, so the sweep resumes at the
next seed. A benchmark, not a test: the default sweep takes minutes.

Usage: bench/plena_attention_seed_sweep.py [--tlmcraft build/harness/tlmcraft]
       [--seed 5465615605023916] [--flash-trials 500] [--other-trials 200]
       [--tasks flash_attention,scaled_dot_product,mha,gqa,mqa,softmax]
       [--configs C1,C2,C3,C4,C5] [--jobs 2]
"""
import argparse
import concurrent.futures
import json
import subprocess
import sys


def sweep_cell(tlmcraft, task, config, seed, trials):
    """Failing trials [(seed, range, summary)] of `trials` consecutive seeds from `seed`."""
    failed, end = [], seed + trials
    while seed < end:
        out = subprocess.run([tlmcraft, "run", "--platform", "plena", "--task", task, "--config", config,
                              "--baseline", "--trials", str(end - seed), "--seed", str(seed), "--json"],
                             capture_output=True, text=True)
        if not out.stdout:
            sys.exit(f"{task} {config} seed {seed}: tlmcraft gave no report: {out.stderr.strip()}")
        trials_run = json.loads(out.stdout)["trials"]
        failed += [(t["seed"], t["range"], t["summary"]) for t in trials_run if t["status"] != "pass"]
        seed = trials_run[-1]["seed"] + 1
    return failed


def main():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--tlmcraft", default="build/harness/tlmcraft")
    p.add_argument("--seed", type=int, default=5465615605023916)
    p.add_argument("--flash-trials", type=int, default=500)
    p.add_argument("--other-trials", type=int, default=200)
    p.add_argument("--tasks", default="flash_attention,scaled_dot_product,mha,gqa,mqa,softmax")
    p.add_argument("--configs", default="C1,C2,C3,C4,C5")
    p.add_argument("--jobs", type=int, default=2)
    a = p.parse_args()
    cells = [(t, c, a.flash_trials if t == "flash_attention" else a.other_trials)
             for t in a.tasks.split(",") for c in a.configs.split(",")]
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as pool:
        results = list(pool.map(lambda cell: sweep_cell(a.tlmcraft, cell[0], cell[1], a.seed, cell[2]), cells))
    total_failed = total = 0
    for (task, config, trials), failed in zip(cells, results):
        total_failed += len(failed)
        total += trials
        print(f"{task:20s} {config} failed {len(failed):3d} of {trials}")
        for seed, rng, summary in failed:
            print(f"    seed {seed} ({rng}): {summary}")
    print(f"failed trials: {total_failed} of {total}")


if __name__ == "__main__":
    main()
