#!/usr/bin/env python3
"""The co-design benchmark of issue 21 (docs/codesign.md, "Benchmark"): per platform, on
its whole supported suite at the given configurations, `tlmcraft codesign mine` then
`tlmcraft codesign explore`, and the figures the issue asks for:

  - mining time (wanted: under 5 minutes);
  - Pareto points of the exploration (wanted: at least 10);
  - the best geometric-mean suite speedup over the shipped ISA within a 5% area increase
    (wanted: 1.3x), with every kernel passing on fresh seeds;
  - one ISA variant's suite evaluation time once kernels are cached (wanted: under 60 s
    on 2 cores): `tlmcraft bench` of the best variant's kernels and overlay, run twice,
    the second run timed;
  - what any added instruction could buy at most (Amdahl bounds): per cell, the cycles if
    the busy cycles of a set of units vanished (never below the busiest remaining unit),
    as a geometric mean over the suite. An added instruction that only replaces work of
    those units cannot do better;
  - with --ceiling, the ceiling of the candidate space (`explore --ceiling`): every mined
    candidate at once at latency 1, no area limit, measured; not a buildable variant, never
    within the budget. With it, the units' shares of the cycles in the base and the
    ceiling runs (what time remains) and the bounds of the ceiling's own runs.

Not a test: the times depend on the machine. Writes OUT/codesign_bench.json and prints a
Markdown table. A platform without a co-design adapter is reported as such.

usage: bench/codesign/codesign_bench.py [--tlmcraft BIN] [--platforms plena,coral,aie_ml]
         [--configs C1,C2] [--tasks T,...] [--area-budget 25%] [--strategy nsga2] [--max-variants 48]
         [--population 12] [--generations 6] [--seed 1] [--jobs 2] [--top N] [--kernel-generation rewrite|search]
         [--hardware GPW2] [--rank geomean|cycles] [--ceiling] [--candidates FILE]
         [--out out/codesign-bench]
"""
import argparse
import json
import math
import os
import platform as host
import resource
import subprocess
import sys
import time

# Unit sets whose cycles an added instruction could take away, per platform (the names its
# results' `units` use); every unit alone is always reported too. In a set, "+stalls" takes
# the units' stall cycles away too, and "~NAME" names a unit whose own cycles are already
# counted in another of the set (not subtracted again, and no floor either).
CORAL_COMPUTE = ["scalar_alu", "mul", "div", "fpu", "vector_alu0", "vector_alu1", "vector_mul0", "vector_mul1",
                 "vector_permute", "vector_div"]
AIE_SLOTS = ["~lda", "~ldb", "~st", "~alu", "~vec", "~mv"]
BOUND_UNITS = {
    "plena": [["vector"], ["vector", "scalar_fp"], ["vector", "scalar_fp", "scalar_int", "control"]],
    # Coral: every compute unit (what register-to-register fusions can take away), then the
    # load/store issue too (fusions holding loads; the AXI transfers stay).
    "coral": [CORAL_COMPUTE, CORAL_COMPUTE + ["lsu", "vector_lsu"]],
    # AIE-ML: the issues of the slots a fused op replaces (vec; vec, alu and mv), and every
    # cycle the cores spend, issuing (a bundle: all its slots) or stalled: no change to the
    # cores' ISA beats that.
    "aie_ml": [["vec"], ["vec", "alu", "mv"], ["core", "+stalls"] + AIE_SLOTS],
}
# Platforms whose units are named per instance ("tile(0,0).vec"): a unit's kind is the name
# after the last dot, and a set's cycles are summed over every instance of its kinds (tiles
# that run in parallel are summed too, so the bound stays an upper bound).
UNITS_BY_KIND = {"aie_ml"}


def run(argv, log, cpu=None):
    """Runs argv with its output in `log`; (exit code, wall seconds). `cpu`, a list, gets
    the CPU seconds (user + system) of the command and everything it waited for."""
    start = time.monotonic()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(log, "w") as out:
        rc = subprocess.call(argv, stdout=out, stderr=subprocess.STDOUT)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if cpu is not None:
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return rc, time.monotonic() - start


def run_step(fig, name, argv, log):
    """Runs one step of the benchmark (`mine` or `explore`), recording its command, CPU
    seconds and wall seconds in `fig`; False (with fig["error"], the log's last line) when
    it fails."""
    cpu = []
    rc, secs = run(argv, log, cpu)
    fig[f"{name}_command"] = " ".join(argv)
    fig[f"{name}_cpu_seconds"] = cpu[0]
    if rc != 0:
        fig["error"] = open(log).read().strip().splitlines()[-1]
        return False
    fig[f"{name}_seconds"] = secs
    return True


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else 1.0


def read_jsonl(path):
    rows = []
    with open(path) as f:
        for line in f:
            line = line.strip()
            if line:
                rows.append(json.loads(line))
    return rows


def amdahl_bounds(results, unit_sets, by_kind=False):
    """Geometric-mean speedup bound if the units of each set did no work (nor stalled, with
    "+stalls" in the set)."""
    passed = [r for r in results if r.get("status") == "pass" and r.get("units")]
    kind = (lambda n: n.rsplit(".", 1)[-1]) if by_kind else (lambda n: n)
    names = sorted({kind(u["name"]) for r in passed for u in r["units"]})
    sets = [[n] for n in names] + [s for s in unit_sets if len(s) > 1]
    bounds = []
    for s in sets:
        stalls = "+stalls" in s
        inside = {n.lstrip("~") for n in s}
        ratios = []
        for r in passed:
            gone = sum(u["busy_cycles"] + (u.get("stall_cycles", 0) if stalls else 0)
                       for u in r["units"] if kind(u["name"]) in s)
            rest = max([u["busy_cycles"] for u in r["units"] if kind(u["name"]) not in inside] + [1])
            floor = max(r["cycles"] - gone, rest, 1)
            ratios.append(r["cycles"] / floor)
        bounds.append({"units": [n for n in s if not n.startswith("~")], "speedup_bound": geomean(ratios)})
    return bounds


def bench_platform(a, p, out):
    os.makedirs(out, exist_ok=True)
    fig = {"platform": p}
    sel = ["--configs", a.configs] + (["--tasks", a.tasks] if a.tasks else [])
    mine = [a.tlmcraft, "codesign", "mine", "--platform", p] + sel + (["--top", str(a.top)] if a.top else []) + \
        (["--hardware", a.hardware] if a.hardware else []) + (["--rank", a.rank] if a.rank else []) + \
        ["--out", f"{out}/mine"]
    candidates = a.candidates or f"{out}/mine/candidates.yaml"
    if a.candidates:  # an earlier run's candidates (its store's names stay valid): no mining
        fig["candidates_file"] = a.candidates
    elif not run_step(fig, "mine", mine, f"{out}/mine.log"):
        return fig
    explore = [a.tlmcraft, "codesign", "explore", "--platform", p] + sel + ["--candidates",
               candidates, "--area-budget", a.area_budget, "--strategy", a.strategy,
               "--max-variants", str(a.max_variants), "--population", str(a.population), "--generations",
               str(a.generations), "--seed", str(a.seed), "--jobs", str(a.jobs), "--kernel-generation",
               a.kernel_generation, "--out", f"{out}/explore"] + (["--ceiling"] if a.ceiling else [])
    store = f"{out}/explore/explore.jsonl"
    before = len(read_jsonl(store)) if os.path.exists(store) else 0
    if not run_step(fig, "explore", explore, f"{out}/explore.log"):
        return fig
    summary = json.load(open(f"{out}/explore/summary.json"))
    variants = summary["variants"]
    fig["variants_evaluated_now"] = len(read_jsonl(store)) - before
    if fig["variants_evaluated_now"]:  # the whole loop per variant: rewrite or use counts, bench, bookkeeping
        fig["explore_seconds_per_variant"] = fig["explore_seconds"] / fig["variants_evaluated_now"]
        fig["explore_cpu_seconds_per_variant"] = fig["explore_cpu_seconds"] / fig["variants_evaluated_now"]
    fig["variants"] = len(variants)
    fig["variants_failing"] = [v["id"] for v in variants if not v["ok"]]
    fig["pareto_points"] = len(summary["pareto"])
    fig["pareto"] = summary["pareto"]
    within = [v for v in variants if v["ok"] and v["area_increase"] <= 0.05]
    best = max(within, key=lambda v: v["speedup"])
    fig["best_within_5pct"] = {k: best[k] for k in ("id", "speedup", "energy_ratio", "area_increase")}
    fig["best_overall"] = {k: max((v for v in variants if v["ok"]), key=lambda v: v["speedup"])[k]
                           for k in ("id", "speedup", "energy_ratio", "area_increase")}
    fig["variant_evaluation_seconds"] = time_variant(a, p, out, best["id"])
    base = f"{out}/explore/variants/base/results.jsonl"
    fig["amdahl_bounds"] = amdahl_bounds(read_jsonl(base), BOUND_UNITS.get(p, []), p in UNITS_BY_KIND)
    fig["base_over_baselines"] = base_over_baselines(read_jsonl(base))
    fig["variant_wall_seconds"] = variant_wall_seconds(f"{out}/explore/variants")
    if "ceiling" in summary:
        fig["ceiling"] = ceiling_figures(p, summary["ceiling"], read_jsonl(base),
                                         read_jsonl(f"{out}/explore/variants/{summary['ceiling']['id']}/results.jsonl"))
        fig["ceiling"]["speedup_best_of_each_cell"] = best_of_each_cell(variants, summary["ceiling"])
    return fig


def unit_shares(results, by_kind=False):
    """Per unit (by kind where named per instance), its busy cycles summed over the passing
    cells over their cycles summed: where the suite's time is spent (tiles running in
    parallel are summed, so a share can pass 1)."""
    passed = [r for r in results if r.get("status") == "pass" and r.get("units")]
    kind = (lambda n: n.rsplit(".", 1)[-1]) if by_kind else (lambda n: n)
    total = sum(r["cycles"] for r in passed) or 1
    busy = {}
    for r in passed:
        for u in r["units"]:
            busy[kind(u["name"])] = busy.get(kind(u["name"]), 0) + u["busy_cycles"]
    return {n: c / total for n, c in sorted(busy.items(), key=lambda x: -x[1])}


def best_of_each_cell(variants, ceiling):
    """Geometric mean over the base's cells of base cycles / the fewest any passing variant
    or the ceiling took there: no single instruction set, an optimistic figure (a cell's
    best may come from another set than its neighbour's)."""
    base = next(v for v in variants if v["id"] == "base")["cycles"]
    runs = [v["cycles"] for v in variants if v["ok"]] + ([ceiling["cycles"]] if ceiling["ok"] else [])
    return geomean([c / min(r[k] for r in runs if k in r) for k, c in base.items()])


def ceiling_figures(p, ceiling, base_results, ceiling_results):
    """The ceiling's summary (without its per-cell maps) and where the time remains."""
    fig = {k: v for k, v in ceiling.items() if k not in ("cycles", "energy_pj", "energy_by_component")}
    by_kind = p in UNITS_BY_KIND
    fig["unit_shares_base"] = unit_shares(base_results, by_kind)
    fig["unit_shares_ceiling"] = unit_shares(ceiling_results, by_kind)
    fig["amdahl_bounds_of_ceiling"] = amdahl_bounds(ceiling_results, BOUND_UNITS.get(p, []), by_kind)
    cell = lambda r: f"{r['task']}/{r['config']}"
    ceil = {cell(r): r["cycles"] for r in ceiling_results if r.get("status") == "pass"}
    fig["cell_speedups"] = {cell(b): b["cycles"] / ceil[cell(b)] for b in base_results
                            if b.get("status") == "pass" and cell(b) in ceil}
    # The cells no candidate changes cap the geometric mean: what the others reach.
    fig["cells_unchanged"] = sorted(k for k, x in fig["cell_speedups"].items() if x == 1.0)
    fig["speedup_over_changed_cells"] = geomean([x for x in fig["cell_speedups"].values() if x != 1.0])
    return fig


def base_over_baselines(results):
    """The base kernels' geometric-mean speedup over the baselines (1 unless searched)."""
    pairs = [(r["baseline_cycles"], r["cycles"]) for r in results if r.get("cycles") and r.get("baseline_cycles")]
    return geomean([b / c for b, c in pairs]) if pairs else None


def variant_wall_seconds(variants_dir):
    """Per variant, from its overlay's writing (the start) to its bench results' last line:
    the kernels' generation (rewrite, search) and the suite run, as the store's resume saw
    them (a variant resumed in another run is not timed)."""
    times = []
    for vid in sorted(os.listdir(variants_dir)) if os.path.isdir(variants_dir) else []:
        start, end = f"{variants_dir}/{vid}/overlay.yaml", f"{variants_dir}/{vid}/results.jsonl"
        if os.path.exists(start) and os.path.exists(end):
            times.append(os.path.getmtime(end) - os.path.getmtime(start))
    if not times:
        return None
    times.sort()
    return {"variants": len(times), "median": times[len(times) // 2], "max": times[-1]}


def time_variant(a, p, out, vid):
    """One variant's suite evaluation, the second of two runs (kernels cached by the first)."""
    vdir = f"{out}/explore/variants/{vid}"
    sel = ["--config", a.configs] + (["--task", a.tasks] if a.tasks else [])
    argv = [a.tlmcraft, "bench", "--platform", p] + sel + ["--kernels", f"{vdir}/kernels",
            "--jobs", str(a.jobs), "--quiet", "--json", "--fresh"]
    if os.path.exists(f"{vdir}/overlay.yaml"):
        argv += ["--isa-ext", f"{vdir}/overlay.yaml"]
    secs = None
    for attempt in (1, 2):
        cpu = []
        rc, secs = run(argv + ["--out", f"{out}/timed_{attempt}.jsonl"], f"{out}/timed_{attempt}.log", cpu)
        if rc not in (0, 1):
            return None
    return {"variant": vid, "seconds": secs, "cpu_seconds": cpu[0], "load_average": os.getloadavg(),
            "command": " ".join(argv + ["--out", f"{out}/timed_2.jsonl"])}


def machine():
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpus": os.cpu_count(), "cpu": model, "system": host.platform(), "load_average": os.getloadavg()}


def bound_label(units):
    named = [u for u in units if u != "+stalls" and not u.startswith("~")]
    names = "+".join(named) if len(named) < 4 else f"{len(named)} units"
    return names + (" (issues and stalls)" if "+stalls" in units else "")


def table(figs):
    rows = ["| platform | mine s | variants | Pareto points | best <=5% area | speedup | energy | area | "
            "variant eval s | speedup bounds (these units' cycles gone) |",
            "|---|---:|---:|---:|---|---:|---:|---:|---:|---|"]
    for f in figs:
        if "error" in f:
            rows.append(f"| {f['platform']} | - | - | - | {f['error']} | | | | | |")
            continue
        b = f["best_within_5pct"]
        t = f["variant_evaluation_seconds"]
        bounds = "; ".join(f"{bound_label(x['units'])}: {x['speedup_bound']:.3f}x" for x in f["amdahl_bounds"]
                           if len(x["units"]) > 1 or x["units"] in (["vector"], ["vec"], ["core"])) or "-"
        mine_s = f"{f['mine_seconds']:.2f}" if "mine_seconds" in f else "-"
        rows.append(f"| {f['platform']} | {mine_s} | {f['variants']} | {f['pareto_points']} | "
                    f"{b['id']} | {b['speedup']:.4f}x | {b['energy_ratio']:.4f}x | {100 * b['area_increase']:.1f}% | "
                    f"{t['seconds'] if t else float('nan'):.1f} ({t['cpu_seconds'] if t else float('nan'):.1f} CPU) | "
                    f"{bounds} |")
    for f in figs:
        if "ceiling" in f:
            c = f["ceiling"]
            rows.append(f"\n{f['platform']}: {c['label']}: {c['speedup']:.4f}x"
                        + ("" if c["ok"] else f" ({len(c['failures'])} cells failing)"))
    return "\n".join(rows)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tlmcraft", default="build/harness/tlmcraft")
    ap.add_argument("--platforms", default="plena")
    ap.add_argument("--configs", default="C1,C2")
    ap.add_argument("--tasks", default="", help="a subset of the suite (default: every supported task)")
    ap.add_argument("--area-budget", default="25%")
    ap.add_argument("--strategy", default="nsga2")
    ap.add_argument("--max-variants", type=int, default=48)
    ap.add_argument("--population", type=int, default=12)
    ap.add_argument("--generations", type=int, default=6)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--top", type=int, default=0, help="candidates mine keeps (default: mine's)")
    ap.add_argument("--kernel-generation", default="rewrite",
                    help="explore's: rewrite (baselines) or search (the search transformations on both sides)")
    ap.add_argument("--hardware", default="", help="mine's: hardware changes assumed (PLENA: GPW2)")
    ap.add_argument("--rank", default="", help="mine's: geomean (its default) or cycles")
    ap.add_argument("--candidates", default="",
                    help="explore this candidates file instead of mining (one platform; an earlier run's, whose store is reused)")
    ap.add_argument("--ceiling", action="store_true",
                    help="explore's: also measure every candidate at once at latency 1 (not buildable)")
    ap.add_argument("--out", default="out/codesign-bench")
    a = ap.parse_args()
    if a.candidates and "," in a.platforms:
        ap.error("--candidates names one platform's candidates: give one platform")
    os.makedirs(a.out, exist_ok=True)
    figs = [bench_platform(a, p, f"{a.out}/{p}") for p in a.platforms.split(",") if p]
    doc = {"machine": machine(), "arguments": vars(a), "platforms": figs}
    with open(f"{a.out}/codesign_bench.json", "w") as f:
        json.dump(doc, f, indent=2)
    print(table(figs))
    print(f"\nmachine: {doc['machine']['cpus']} CPUs, {doc['machine']['cpu']}; details in {a.out}/codesign_bench.json")
    return 0 if all("error" not in f for f in figs) else 1


if __name__ == "__main__":
    sys.exit(main())
