#!/usr/bin/env python3
"""Runs a published AIE-ML kernel from its own instruction stream, checks what it computes
and measures its cycles per call.

The Hello-XDNA bf16 32x32x32 kernel (C += A B, bf16 in, fp32 out; scalable-analyses/xdna
src/tensor_kernel_32x32x32_bf16_bf16_fp32.s, not in this repository: docs/platforms/aie-ml.md,
"Published kernels run as published", gives the fetch command) is translated by
translate_xdna.py and called from a small caller program, as the published benchmark calls
it (XDNA1.mlir: buffers in0 at 1024, in1 at 16384, out at 32768 of the tile; p0, p1, p2
hold them at the call). Random inputs reach the tile by DMA (check_outputs.py); the output
is compared with a reference computed here (fp32 rounding: the kernel accumulates k in
another order than the reference). Cycles per call = cycles of two calls - cycles of one.

The stream relies on the hardware's register semantics (no interlocks; it reloads
registers that in-flight VMACs still read) and on the stage-3 accumulator read, so it runs
with --set compute.pipeline=exposed --set compute.acc_read_cycles=2 (always passed).

Usage: published.py XDNA_SOURCE.s [--tlmcraft PATH] [--set KEY=VALUE ...]
Exit 0 when every output is right, 1 when not, 2 on bad input. Python 3 standard library only.
"""
import os
import random
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import check_outputs  # noqa: E402  (with_inputs, run, bf16)

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


def inputs(rng):
    """Random A (32x32), B (32x32) bf16 and C (32x32) fp32 in the kernel's tiled layouts."""
    A = [[check_outputs.bf16(rng.uniform(-1, 1)) for _ in range(32)] for _ in range(32)]
    B = [[check_outputs.bf16(rng.uniform(-1, 1)) for _ in range(32)] for _ in range(32)]
    C = [[struct.unpack("<f", struct.pack("<f", rng.uniform(-4, 4)))[0] for _ in range(32)] for _ in range(32)]
    # Hello XDNA "Data Layout": in0 [m1 8][k1 4][4][8], in1 [k1 4][n1 8][8][4], out [m1 8][n1 8][4][4].
    a = b"".join(struct.pack("<H", A[4 * m1 + i][8 * k1 + k][1]) for m1 in range(8) for k1 in range(4)
                 for i in range(4) for k in range(8))
    b = b"".join(struct.pack("<H", B[8 * k1 + k][4 * n1 + j][1]) for k1 in range(4) for n1 in range(8)
                 for k in range(8) for j in range(4))
    c = b"".join(struct.pack("<f", C[4 * m1 + i][4 * n1 + j]) for m1 in range(8) for n1 in range(8)
                 for i in range(4) for j in range(4))
    return A, B, C, a + b + c


def wrong_outputs(got, A, B, C, calls):
    """Outputs further from C + calls * A B than fp32 accumulation order explains."""
    bad = 0
    for m1 in range(8):
        for n1 in range(8):
            for i in range(4):
                for j in range(4):
                    ab = sum(A[4 * m1 + i][k][0] * B[k][4 * n1 + j][0] for k in range(32))
                    want = C[4 * m1 + i][4 * n1 + j] + calls * ab
                    v = struct.unpack_from("<f", got, ((m1 * 8 + n1) * 16 + i * 4 + j) * 4)[0]
                    bad += abs(v - want) > 1e-5 * (1 + abs(want))
    return bad


def run_calls(tlmcraft, translated, calls, data, sets):
    text = check_outputs.with_inputs(caller(translated, calls), [("a", IN0, 2048), ("b", IN1, 2048), ("c", OUT, 4096)])
    check_outputs.SETS[:] = PIPELINE + sets
    return check_outputs.run_full(tlmcraft, text, data, (OUT, 4096))


def measure(tlmcraft, source, sets=()):
    """(wrong outputs of one call, of two calls, cycles per call)."""
    translated = translate(source)
    A, B, C, data = inputs(random.Random(1))
    one, cycles1 = run_calls(tlmcraft, translated, 1, data, list(sets))
    two, cycles2 = run_calls(tlmcraft, translated, 2, data, list(sets))
    return wrong_outputs(one, A, B, C, 1), wrong_outputs(two, A, B, C, 2), cycles2 - cycles1


def published_cycles():
    """Cycles per call on the hardware: 65,536 flop at 398 GFLOPS and 1.8 GHz."""
    return FLOP_PER_CALL / (PUBLISHED_GFLOPS * 1e9) * CLOCK_GHZ * 1e9


def main(argv):
    tlmcraft = os.environ.get("TLMCRAFT", os.path.join(ROOT, "build", "harness", "tlmcraft"))
    sets, source, args = [], None, list(argv)
    while args:
        if args[0] in ("--tlmcraft", "--set") and len(args) >= 2:
            if args[0] == "--tlmcraft":
                tlmcraft = args[1]
            else:
                sets.append(args[1])
            args = args[2:]
        elif source is None and not args[0].startswith("-"):
            source, args = args[0], args[1:]
        else:
            sys.stderr.write(__doc__)
            return 2
    if source is None:
        sys.stderr.write(__doc__)
        return 2
    bad1, bad2, per_call = measure(tlmcraft, source, sets)
    published = published_cycles()
    print("one call: %d of 1024 outputs wrong; two calls: %d of 1024 wrong" % (bad1, bad2))
    print("cycles per call: model %d, published %.1f (%.0f GFLOPS at %.1f GHz), gap %+.1f%%"
          % (per_call, published, PUBLISHED_GFLOPS, CLOCK_GHZ, (per_call - published) / published * 100))
    return 1 if bad1 or bad2 else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
