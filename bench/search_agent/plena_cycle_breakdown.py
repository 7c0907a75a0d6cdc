#!/usr/bin/env python3
"""Where the cycles of PLENA baselines go: per-unit busy cycles as a share of the total.

In serial mode every instruction starts when the previous one ends, so the busy cycles of
the units add up to the total (the "sum" column equals the cycles): nothing overlaps, and
no reordering (double buffering of prefetches included) can save a cycle. In pipelined
mode the sum exceeds the total by what already overlaps.

  python3 bench/search_agent/plena_cycle_breakdown.py --tlmcraft build/harness/tlmcraft \
      [--mode serial|pipelined] [--tasks gemm,...] [--configs C1,...]
"""
import argparse
import json
import subprocess

TASKS = "gemm,batchmatmul,linear,conv2d,depthwise_conv,gemv,conv_block"


def report(tlmcraft, mode, task, config):
    out = subprocess.run([tlmcraft, "run", "--platform", "plena", "--set", "timing.mode=" + mode, "--task", task,
                          "--config", config, "--baseline", "--json", "--seed", "1"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tlmcraft", default="build/harness/tlmcraft")
    ap.add_argument("--mode", default="serial", choices=["serial", "pipelined"])
    ap.add_argument("--tasks", default=TASKS)
    ap.add_argument("--configs", default="C1,C2,C3,C4,C5")
    a = ap.parse_args()
    print("| task | config | cycles | sum of unit busy | matrix | HBM (prefetch + store) | scalar | vector | control |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|")
    for task in a.tasks.split(","):
        for config in a.configs.split(","):
            r = report(a.tlmcraft, a.mode, task, config)
            cycles = r["cycles"]
            busy = {u["name"]: u["busy_cycles"] for u in r["units"]}
            share = lambda n: "%.1f%%" % (100.0 * n / cycles)
            print("| %s | %s | %d | %d | %s | %s | %s | %s | %s |" % (
                task, config, cycles, sum(busy.values()), share(busy["matrix"]),
                share(busy["dma.prefetch"] + busy["dma.store"]), share(busy["scalar_int"] + busy["scalar_fp"]),
                share(busy["vector"]), share(busy["control"])))


if __name__ == "__main__":
    main()
