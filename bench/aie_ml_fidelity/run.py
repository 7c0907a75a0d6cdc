#!/usr/bin/env python3
"""Reruns the AIE-ML fidelity comparison and prints it as a markdown table.

Every row runs one kernel of bench/aie_ml_fidelity/kernels/ (or one of
platforms/aie_ml/kernels/) on tlmcraft's aie_ml model and sets the model's figure next
to a published AIE-ML / XDNA1 measurement (sources in docs/platforms/aie-ml.md,
"Published measurements against the model"). gap = (model - published) / published.
Rows are printed by the kind of evidence behind the published figure (hardware
measurement, aiesimulator, specification rate, restated parameter); the restated
parameters reproduce the model's own parameters and have no gap statistics. Each row
states its settings (HW_SETTINGS: the hardware's register semantics), so the rows hold
whatever the platform's defaults are. Last, the other published designs (whole-array
GEMMs, figures not reproduced): each says whether it is comparable at all; the model's
whole-array figure comes from whole_array.py, whose outputs are checked.

Usage:
  python3 bench/aie_ml_fidelity/run.py [--tlmcraft PATH] [--set KEY=VALUE ...] [--xdna SOURCE.s]
The binary defaults to $TLMCRAFT, then build/harness/tlmcraft. --set is passed to every
run after the row's own settings (e.g. --set compute.banks=4 --set stream.hop_cycles=4 to
try other parameters). --xdna: the published Hello-XDNA bf16 kernel (not in this
repository; docs/platforms/aie-ml.md says how to fetch it), translated and run by
published.py; its row replaces our own bf16 kernel's among the measurements (one published
figure, one row), and the whole-array GEMM runs with it too.
The script first checks that the committed kernels match gen_kernels.py.
Only the Python 3 standard library is used.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
K = os.path.join(HERE, "kernels")


def run(tlmcraft, kernel, sets):
    cmd = [tlmcraft, "run", "--platform", "aie_ml", kernel, "--json"]
    for s in sets:
        cmd += ["--set", s]
    out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        r = json.loads(out.stdout)
    except ValueError:
        raise SystemExit("tlmcraft failed on %s:\n%s%s" % (kernel, out.stdout, out.stderr))
    if r.get("stop") != "halted":
        raise SystemExit("%s did not halt: %s" % (kernel, r.get("message")))
    return r


def busy(r, unit):
    for u in r.get("units", []):
        if u["name"] == unit:
            return u["busy_cycles"]
    raise KeyError(unit)


def dma_bytes(r, prefix):
    return sum(v["bytes"] for k, v in r["memory"]["dma"].items() if k.startswith(prefix))


# What a published figure is, which decides where its row goes:
HW = "hardware measurement"    # cycles traced or timed on an XDNA1 NPU
SIM = "aiesimulator"           # AMD's cycle-accurate simulator, in a Vitis tutorial
SPEC = "specification rate"    # a rate a manual or a notebook states; no measurement behind it
PARAM = "restated parameter"   # the model's own parameter, set from this very figure

# (what, kernel, extra --set, model figure from the result, unit, published, source, kind)
# The published figure and how it is derived are documented in docs/platforms/aie-ml.md.
# A figure two rows would restate (cycles and MACs per cycle of one run, the memory
# tile's read and write side of one run) is one row.
# Every row runs under the hardware's register semantics, stated here so that the rows
# hold whatever the platform's defaults are: no interlocks, the accumulator input of a
# VMAC read in stage 3 (docs/FIDELITY.md, "Register semantics: the exposed pipeline").
# Each kernel takes the same cycles with interlocks (the kernels wait with NOPs).
HW_SETTINGS = ["compute.pipeline=exposed", "compute.acc_read_cycles=2"]

ROWS = [
    ("scale 1024 int16, scalar loop", "vsmul_scalar", HW_SETTINGS,
     lambda r: r["cycles"], "cycles", 10250.0, "mlir-aie guide 4c (trace, ~10,250)", HW),
    ("scale 1024 int32, scalar loop", "vsmul_scalar_i32", HW_SETTINGS,
     lambda r: r["cycles"], "cycles", 10284.0, "mlir-aie guide 4c, 2024 revision on int32 (trace, ~10,284)", HW),
    ("scale 1024 int16, vector, not pipelined", "vsmul_vector", HW_SETTINGS,
     lambda r: r["cycles"], "cycles", 495.0, "mlir-aie guide 4c (trace, ~495; 15-cycle loop)", HW),
    ("scale 1024 int16, vector, pipelined", "vsmul_pipelined", HW_SETTINGS,
     lambda r: r["cycles"], "cycles", 72.0, "mlir-aie guide 4c (trace, 72)", HW),
    ("bf16 32x32x32 contraction, cycles per call", "tnzr_bf16_32x32x32", HW_SETTINGS,
     lambda r: r["cycles"], "cycles", 32768 * 2 / 398e9 * 1.8e9, "Hello XDNA: 398 GFLOPS at 1.8 GHz (host-timed)", HW),
    ("int8 64x64x64 matmul, int16 out", "xd100_i8_64x64x64", HW_SETTINGS,
     lambda r: r["cycles"], "cycles", 1121.0, "Vitis tutorial XD100 (aiesimulator)", SIM),
    ("int8 64x64x64 matmul, int32 out", "xd100_i8_64x64x64_i32", HW_SETTINGS,
     lambda r: r["cycles"], "cycles", 1750.0, "Vitis tutorial XD100 (aiesimulator; 58% of peak, 'scheduling load, "
     "store, and compute')", SIM),
    ("shim MM2S, both channels together", "shim_read_2ch", HW_SETTINGS,
     lambda r: 131072 / r["cycles"], "B/cycle", 8.0, "AM020 Array Interface DMA (2 x 4 B/cycle)", SPEC),
    ("memory tile, six MM2S + six S2MM at once, per direction", "memtile_rw_6ch", HW_SETTINGS,
     lambda r: min(dma_bytes(r, "mem0.mm2s"), dma_bytes(r, "mem0.s2mm")) / r["cycles"], "B/cycle", 30.0,
     "Riallto 3_2: up to 30 GB/s each way (a peak at 1 GHz)", SPEC),
    ("int16 element-wise MACs per cycle (32-lane VMAC.E.S16)", "eltwise_i16", HW_SETTINGS,
     lambda r: 1536 * 32 / r["cycles"], "MAC/cycle", 32.0, "mlir-aie guide 4c (32 accumulator lanes; the ISA's lanes)",
     PARAM),
    ("int8 x int8 MACs per cycle, back-to-back VMAC", "peak_i8", HW_SETTINGS,
     lambda r: 1536 * 256 / r["cycles"], "MAC/cycle", 256.0, "AM020 Functional Overview; Riallto 3_2", PARAM),
    ("int16 x int16 MACs per cycle", "peak_i16", HW_SETTINGS,
     lambda r: 1536 * 64 / r["cycles"], "MAC/cycle", 64.0, "AM020; Riallto 3_2; mlir-aie guide 4c", PARAM),
    ("bf16 MACs per cycle", "peak_bf16", HW_SETTINGS,
     lambda r: 1536 * 128 / r["cycles"], "MAC/cycle", 128.0, "AM020; Riallto 3_2; Hello XDNA", PARAM),
    ("2 KiB over one DMA stream (MM2S busy)", "dma_stream_2kb", HW_SETTINGS,
     lambda r: busy(r, "mem0.mm2s0"), "cycles", 512.0, "mlir-aie guide 4c (trace, 512 = stream.bytes_per_cycle 4)",
     PARAM),
    ("shim MM2S, one channel", "shim_read_2ch", HW_SETTINGS,
     lambda r: 65536 / busy(r, "shim0.mm2s0"), "B/cycle", 4.0, "AM020 Array Interface DMA", PARAM),
]

# The sections the rows are printed in, and whether their gaps are summarised.
SECTIONS = [
    ("measurements (hardware traces and aiesimulator)", (HW, SIM), True),
    ("specification rates (no measurement behind them)", (SPEC,), True),
    ("restated parameters (the model reproduces them by construction; no gap statistics)", (PARAM,), False),
]

# Variants: a documented difference switched on (not counted in the summary).
VARIANTS = [
    ("bf16 32x32x32 with accumulator forwarding (compute.acc_read_cycles=2, kernel scheduled for it)",
     "tnzr_bf16_32x32x32_accfwd", HW_SETTINGS,
     lambda r: r["cycles"], "cycles", 32768 * 2 / 398e9 * 1.8e9, "Hello XDNA: 398 GFLOPS at 1.8 GHz"),
]

# Other published designs: whole-array GEMMs and figures found but not reproduced. Each
# row says whether its figure can be compared with the model at all (a throughput needs a
# stated clock and core count; a percentage of peak does not) and, where it can, what the
# model runs for it. No gap enters the statistics above: no row is like for like.
BASELINES = os.path.join(ROOT, "platforms", "aie_ml", "kernels")
BASELINE_SETTINGS = ["compute.pipeline=exposed"]       # the example kernels carry their waits (issue 25)
GEMM_MACS = 128 * 512 * 1024                            # gemm C5: A [128, 512] x B [512, 1024]
WHOLE_ARRAY_STEPS = 32                                  # whole_array.py: K = 32 x 32 = 1024


WHOLE_ARRAY_RUNS = {}


def whole_array_percent(tlmcraft, sets, xdna=None):
    """% of the bf16 peak per tile of whole_array.py's 16-tile GEMM (256 x 512 x 1024),
    whose sampled outputs must be right (run once per settings and kernel)."""
    key = (tlmcraft, tuple(sets), xdna)
    if key not in WHOLE_ARRAY_RUNS:
        sys.dont_write_bytecode = True  # no __pycache__ in the source tree
        sys.path.insert(0, HERE)
        import whole_array
        cycles, percent, bad, n = whole_array.measure(tlmcraft, WHOLE_ARRAY_STEPS, 4, sets, xdna)
        if bad:
            raise SystemExit("whole_array.py: %d of %d sampled outputs wrong" % (bad, n))
        WHOLE_ARRAY_RUNS[key] = percent
    return WHOLE_ARRAY_RUNS[key]


def gemm_16_percent(runner):
    """% of the bf16 peak per tile of the suite's 16-tile bf16 GEMM baseline."""
    cycles = runner(os.path.join(BASELINES, "gemm_multitile_16_C5.aie"), BASELINE_SETTINGS)["cycles"]
    return 100.0 * GEMM_MACS / cycles / 16 / 128


def xd100_percent(runner):
    return 100.0 * 64 ** 3 / runner(os.path.join(K, "xd100_i8_64x64x64.aie"), HW_SETTINGS)["cycles"] / 256


WHOLE_ARRAY = "% of peak per tile: whole_array.py, bf16 GEMM 256x512x1024 on all 16 tiles, our 32x32x32 kernel"
AS_PERCENT = ("as a percentage of peak, yes (clock and tile count cancel); the designs differ: GAMA's kernels and "
              "placement on a VEK280's array, ours (whole_array.py) on the model's 4 x 4 tiles, DDR-bound part of "
              "the time; not counted in the statistics")

# (design, evidence, published figure, model figure (tlmcraft, sets, runner -> value) or None, unit,
#  comparable? and why)
OTHER = [
    ("GAMA: whole-array bf16 GEMM (VEK280)", HW, "86% of peak (83 TBFLOPS)",
     lambda t, sets, run: whole_array_percent(t, sets), WHOLE_ARRAY + " (outputs checked)", AS_PERCENT),
    ("GAMA: whole-array int8 GEMM (VEK280)", HW, "85% of peak (165 TOPS)",
     lambda t, sets, run: xd100_percent(run), "% of peak, one tile (our int8 64x64x64 kernel)",
     "no: a single-tile figure against a whole-array one (the repository has no multi-tile int8 GEMM)"),
    ("Taka et al. 2025: bf16 GEMM on XDNA (20 tiles)", HW, "3.14 TOPS",
     lambda t, sets, run: whole_array_percent(t, sets) * 128 / 100, "MAC/cycle per tile, the same whole-array run",
     "no: no NPU clock stated in the text we could read; 3.14 TOPS is 78 MAC/cycle per tile at 1.0 GHz, "
     "49 at 1.6 GHz"),
    ("Taka et al. 2025: int8 GEMM on XDNA (20 tiles)", HW, "6.76 TOPS", None, "",
     "no: no clock stated (169 MAC/cycle per tile at 1.0 GHz, 106 at 1.6 GHz); no multi-tile int8 GEMM here"),
    ("mlir-aie guide 4c: single-core int16 matmul 64x64x64", HW, "~2,535 cycles (trace)", None, "",
     "no: internally inconsistent (it calls 2,048 cycles ideal; 262,144 MACs / 64 per cycle = 4,096)"),
    ("mlir-aie guide 4c, 2024 revision: vectorised int32 scale, 1,024 elements", HW, "~625 cycles (trace)", None, "",
     "not reproduced: the ISA has no int32 element-wise multiply (16 lanes into 64-bit accumulators), and the "
     "guide puts part of the 625 on a bank conflict between its two buffers"),
    ("the task suite's 16-tile bf16 GEMM baseline (gemm C5, 128x512x1024)", "model only", "-",
     lambda t, sets, run: gemm_16_percent(run), "% of peak per tile (exposed pipeline, as generated)",
     "context: its B stream (8 KB per 131,072 MACs at 4 bytes per cycle) bounds it at 50% of peak whatever its "
     "kernel, and its inner loop issues 4 VMACs per 10 bundles"),
]
XDNA_OTHER = ("GAMA bf16, the same whole-array GEMM with the published Hello-XDNA stream as the kernel", HW,
              "86% of peak", None, WHOLE_ARRAY.replace("our 32x32x32 kernel", "the translated published stream"),
              AS_PERCENT)


def median(values):
    v = sorted(values)
    n = len(v)
    return v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2


def fmt(v):
    return "{:,.0f}".format(v) if abs(v) >= 1000 else ("%.1f" % v if abs(v) >= 10 else "%.2f" % v)


OWN_BF16 = "bf16 32x32x32 contraction, cycles per call"
PUBLISHED_BF16 = "bf16 32x32x32, the published Hello-XDNA stream (translated), cycles per call"


def published_row(tlmcraft, source, sets):
    """The published bf16 stream's row (published.py): its outputs must be right."""
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, HERE)
    import published
    bad1, bad2, per_call = published.measure(tlmcraft, source, sets)
    if bad1 or bad2:
        raise SystemExit("the translated Hello-XDNA stream computed %d and %d wrong outputs" % (bad1, bad2))
    return (PUBLISHED_BF16, per_call, published.published_cycles(), "cycles",
            "Hello XDNA: 398 GFLOPS at 1.8 GHz (host-timed); exposed pipeline, acc_read_cycles 2", HW)


def main():
    args = sys.argv[1:]
    tlmcraft = os.environ.get("TLMCRAFT", os.path.join(ROOT, "build", "harness", "tlmcraft"))
    sets, xdna = [], None
    i = 0
    while i < len(args):
        if args[i] in ("--tlmcraft", "--set", "--xdna") and i + 1 < len(args):
            if args[i] == "--tlmcraft":
                tlmcraft = args[i + 1]
            elif args[i] == "--set":
                sets.append(args[i + 1])
            else:
                xdna = args[i + 1]
            i += 2
        else:
            raise SystemExit(__doc__)
    if not os.access(tlmcraft, os.X_OK):
        sys.stderr.write("run.py: no tlmcraft binary at %s (build it, or pass --tlmcraft PATH)\n" % tlmcraft)
        return 2
    gen = subprocess.run([sys.executable, os.path.join(HERE, "gen_kernels.py"), "--check"])
    if gen.returncode:
        raise SystemExit("kernels are stale")
    cache = {}
    rows = [(what, kernel, extra, model, unit, published, source, kind, None)
            for what, kernel, extra, model, unit, published, source, kind in ROWS]
    variants = list(VARIANTS)
    if xdna:
        # One published figure, one row: the published stream's; our own kernel becomes a variant.
        own = next(r for r in rows if r[0] == OWN_BF16)
        rows[rows.index(own)] = (None,) * 8 + (published_row(tlmcraft, xdna, sets),)
        variants.insert(0, ("our own bf16 32x32x32 kernel (gen_kernels.py), cycles per call",) + own[1:7])
    for title, kinds, summarised in SECTIONS:
        print("### " + title)
        print()
        print("| measurement | evidence | model | published | gap | unit | published source |")
        print("|---|---|---:|---:|---:|---|---|")
        gaps = []
        for what, kernel, extra, model, unit, published, source, kind, done in rows:
            if done:
                what, m, published, unit, source, kind = done
            if kind not in kinds:
                continue
            if not done:
                key = (kernel, tuple(extra))
                if key not in cache:
                    cache[key] = run(tlmcraft, os.path.join(K, kernel + ".aie"), extra + sets)
                m = model(cache[key])
            gap = (m - published) / published * 100
            gaps.append(gap)
            print("| %s | %s | %s | %s | %+.1f%% | %s | %s |" % (what, kind, fmt(m), fmt(published), gap, unit, source))
        print()
        if summarised:
            worst = max(gaps, key=abs)
            print("%s: %d rows, median |gap| %.1f%%, worst %+.1f%%%s" % (
                title.split(" (")[0], len(gaps), median([abs(g) for g in gaps]), worst,
                (" (with --set " + " --set ".join(sets) + ")") if sets else ""))
            print()
    print("| variant (not counted above) | model | published | gap | unit | published source |")
    print("|---|---:|---:|---:|---|---|")
    for what, kernel, extra, model, unit, published, source in variants:
        m = model(run(tlmcraft, os.path.join(K, kernel + ".aie"), extra + sets))
        print("| %s | %s | %s | %+.1f%% | %s | %s |" % (what, fmt(m), fmt(published), (m - published) / published * 100,
                                                     unit, source))
    print()
    print("### other published designs (whole-array GEMMs, figures not reproduced; no gap statistics)")
    print()
    print("| design | evidence | published | model | model figure | comparable? |")
    print("|---|---|---|---:|---|---|")
    done = {}

    def runner(kernel, extra):
        key = (kernel, tuple(extra))
        if key not in done:
            done[key] = run(tlmcraft, kernel, extra + sets)
        return done[key]

    other = list(OTHER)
    if xdna:
        other.insert(1, XDNA_OTHER[:3] + (lambda t, s, run: whole_array_percent(t, s, xdna),) + XDNA_OTHER[4:])
    for what, kind, published, model, unit, why in other:
        m = fmt(model(tlmcraft, sets, runner)) if model else "-"
        print("| %s | %s | %s | %s | %s | %s |" % (what, kind, published, m, unit or "-", why))
    return 0


if __name__ == "__main__":
    sys.exit(main())
