#!/usr/bin/env python3
"""Runs the coral-rtl jobs that `coral_fidelity --export-jobs DIR` wrote, N at a time.

usage: run_oracle_jobs.py DIR... --oracle PATH [-j N] [--out FILE]

Prints (or appends to FILE) one results-file line per job, in the format of
bench/coral_fidelity/oracle_cache.cpp: key, ok, error, cycles (cycles_first_to_mpause),
dispatched, dumps (FNV-1a 64 of each dumped region, as a list of integers). Standard
library only, so it runs on any machine with Python 3 (a many-core one: the RTL simulates
15,000-30,000 cycles per second).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
from concurrent.futures import ProcessPoolExecutor, as_completed

MASK = (1 << 64) - 1


def fnv1a64(data, h=0xCBF29CE484222325):
    for b in data:
        h = ((h ^ b) * 0x100000001B3) & MASK
    return h


def run_job(root, oracle, job):
    with tempfile.TemporaryDirectory() as tmp:
        argv = [oracle, os.path.join(root, job["elf"]), "--json",
                "--ext-latency", str(job["ext_latency"]), "--ext-wlatency", str(job["ext_wlatency"]),
                "--max-cycles", str(job["max_cycles"])]
        for ext in job["ext"]:
            argv += ["--ext", os.path.join(root, ext)]
        outs = []
        for k, d in enumerate(job["dump"]):
            outs.append(os.path.join(tmp, "out%d.bin" % k))
            argv += ["--dump", "%s:%s" % (d, outs[-1])]
        r = subprocess.run(argv, capture_output=True, text=True)
        line = {"key": job["key"], "ok": False, "error": "", "cycles": 0, "dispatched": 0, "dumps": []}
        text = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ""
        try:
            j = json.loads(text)
        except ValueError:
            line["error"] = "coral-rtl failed (exit %d): %s" % (r.returncode, (r.stdout + r.stderr)[:400])
            return line
        if r.returncode != 0:
            line["error"] = "coral-rtl failed (exit %d): %s" % (r.returncode, (r.stdout + r.stderr)[:400])
            return line
        line["cycles"] = j.get("cycles_first_to_mpause", 0)
        line["dispatched"] = j.get("dispatched", 0)
        line["ok"] = j.get("halted", 0) == 1 and j.get("fault", 0) == 0
        if not line["ok"]:
            line["error"] = "the RTL did not halt cleanly: " + text
        for o in outs:
            with open(o, "rb") as f:
                line["dumps"].append(fnv1a64(f.read()))
        return line


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dirs", nargs="+", metavar="DIR")
    ap.add_argument("--oracle", required=True)
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count())
    ap.add_argument("--out", help="append the lines here (default: stdout)")
    a = ap.parse_args()
    jobs, keys = [], set()
    for d in a.dirs:  # one pool over every directory; a program in two of them runs once
        with open(os.path.join(d, "jobs.jsonl")) as f:
            for l in f:
                if l.strip():
                    j = json.loads(l)
                    if j["key"] not in keys:
                        keys.add(j["key"])
                        jobs.append((d, j))
    # Longest first (the model's cycle count estimates the RTL's), so the pool ends together.
    jobs.sort(key=lambda dj: -dj[1].get("model_cycles", 0))
    out = open(a.out, "a") if a.out else sys.stdout
    done = 0
    with ProcessPoolExecutor(max_workers=a.jobs) as pool:
        futures = [pool.submit(run_job, d, a.oracle, j) for d, j in jobs]
        for f in as_completed(futures):
            line = f.result()
            out.write(json.dumps(line) + "\n")
            out.flush()
            done += 1
            print("\roracle %d/%d" % (done, len(jobs)), end="", file=sys.stderr)
    print(file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
