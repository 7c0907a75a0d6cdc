#!/usr/bin/env python3
"""Runs a published AIE-ML kernel from its own instruction stream, checks what it computes
and measures its cycles per call.

The Hello-XDNA bf16 32x32x32 kernel (C += A B, bf16 in, fp32 out; scalable-analyses/xdna
src/tensor_kernel_32x32x32_bf16_bf16_fp32.s, not in this repository: docs/FIDELITY.md,
"Published kernels run as published", gives the fetch command) is translated by
translate_xdna.py and called from a small caller program, as the published benchmark calls
it (XDNA1.mlir: buffers in0 at 1024, in1 at 16384, out at 32768 of the tile; p0, p1, p2
hold them at the call). Random inputs reach the tile by DMA (check_outputs.py); the output
is compared with a reference computed here (fp32 rounding: the kernel accumulates k in
another order than the reference). Cycles per call = cycles of two calls - cycles of one.

The stream relies on the hardware's register semantics (no interlocks; it reloads
registers that in-flight VMACs still read), so it runs with --set compute.pipeline=exposed
and the hardware's stage-3 accumulator read, --set compute.acc_read_cycles=2 (both always
passed; this stream loads its accumulators early enough that the latter changes nothing).

Usage: published.py XDNA_SOURCE.s [--tlmcraft PATH] [--set KEY=VALUE ...]
Exit 0 when every output is right, 1 when not, 2 on bad input. Python 3 standard library only.
"""
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import check_outputs  # noqa: E402  (with_inputs, run_full, bf16_problem, bf16_wrong, options)

ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
FUNCTION = "tensor_kernel_32x32x32_bf16_bf16_fp32"
IN0, IN1, OUT = 1024, 16384, 32768          # XDNA1.mlir buffer addresses in the tile
TILE = 0x70000                              # the core's own-tile window
PIPELINE = ["compute.pipeline=exposed", "compute.acc_read_cycles=2"]
PUBLISHED_GFLOPS, CLOCK_GHZ = 398.0, 1.8    # Hello XDNA, XDNA1 (Ryzen 7 8700G)
FLOP_PER_CALL = 2 * 32 * 32 * 32


def caller(translated, calls, function=FUNCTION, buffers=(IN0, IN1, OUT)):
    """A core program that calls the translated function `calls` times with p0, p1, p2 at
    the three buffers (tile offsets), then halts: three bundles per call before the
    function's own."""
    lines = [".tile 0 0"]
    for _ in range(calls):
        lines += ["  MOVXM p0, %#x   ; in0" % (TILE + buffers[0]), "  MOVXM p1, %#x   ; in1" % (TILE + buffers[1]),
                  "  MOVXM p2, %#x ;; JL %s   ; out" % (TILE + buffers[2], function)]
    lines.append("  DONE")
    return "\n".join(lines) + "\n" + translated


def translate(source):
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    import translate_xdna
    try:
        return translate_xdna.translate(source)
    except translate_xdna.TranslateError as e:
        sys.stderr.write("%s:%d:%d: error: %s\n" % (source, e.line, e.col, e.reason))
        raise SystemExit(2)


def run_calls(tlmcraft, translated, calls, data, sets):
    text = check_outputs.with_inputs(caller(translated, calls), [("a", IN0, 2048), ("b", IN1, 2048), ("c", OUT, 4096)])
    check_outputs.SETS[:] = PIPELINE + sets
    return check_outputs.run_full(tlmcraft, text, data, (OUT, 4096))


def measure(tlmcraft, source, sets=()):
    """(wrong outputs of one call, of two calls, cycles per call)."""
    translated = translate(source)
    A, B, C, data = check_outputs.bf16_problem(random.Random(1))
    one, cycles1 = run_calls(tlmcraft, translated, 1, data, list(sets))
    two, cycles2 = run_calls(tlmcraft, translated, 2, data, list(sets))
    return (check_outputs.bf16_wrong(one, A, B, C, 1), check_outputs.bf16_wrong(two, A, B, C, 2),
            cycles2 - cycles1)


def published_cycles():
    """Cycles per call on the hardware: 65,536 flop at 398 GFLOPS and 1.8 GHz."""
    return FLOP_PER_CALL / (PUBLISHED_GFLOPS * 1e9) * CLOCK_GHZ * 1e9


def main(argv):
    tlmcraft, sets, rest = check_outputs.options(list(argv), __doc__, positional=1)
    if not rest:
        sys.stderr.write(__doc__)
        return 2
    source = rest[0]
    bad1, bad2, per_call = measure(tlmcraft, source, sets)
    published = published_cycles()
    print("one call: %d of 1024 outputs wrong; two calls: %d of 1024 wrong" % (bad1, bad2))
    print("cycles per call: model %d, published %.1f (%.0f GFLOPS at %.1f GHz), gap %+.1f%%"
          % (per_call, published, PUBLISHED_GFLOPS, CLOCK_GHZ, (per_call - published) / published * 100))
    return 1 if bad1 or bad2 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
