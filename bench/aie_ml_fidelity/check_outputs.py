#!/usr/bin/env python3
"""Checks that the fidelity kernels compute the right results, not only cycles.

Runs the scale kernels kernels/vsmul_*.aie (c = 3 a, 1,024 int16 or int32; the vector
ones use the 32-lane VMUL.E.S16), kernels/xd100_i8_64x64x64*.aie (int8, int16 and int32
out) and kernels/tnzr_bf16_32x32x32*.aie (bf16, C += A B in fp32) on random inputs and compares the tile's output with a
reference computed here. The inputs reach the tile by DMA from DDR (a .movement section
appended to a copy of the kernel; the core waits on a lock until they have landed), so
the kernel's own instructions are run unchanged.

Usage: check_outputs.py [--tlmcraft PATH] [--set KEY=VALUE ...]   ($TLMCRAFT, then build/harness/tlmcraft)
--set is passed to every run (e.g. --set compute.pipeline=exposed: the hardware's register
semantics, no interlocks).
Exit 0 when every kernel agrees, 1 otherwise. Python 3 standard library only.
"""
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
K = os.path.join(HERE, "kernels")
A_OFF, B_OFF, C_OFF = 0x0000, 0x4000, 0x8000   # the kernels' A, B, C (core address 0x70000 + offset)


def with_inputs(kernel_text, sizes):
    """The kernel with a lock wait before its first bundle and a movement section that
    copies each (name, size) buffer from DDR (buffers back to back from 0) to its tile
    offset, releasing own-tile lock 0 once per buffer."""
    lines = kernel_text.splitlines()
    at = next(i for i, l in enumerate(lines) if l.startswith(".tile 0 0")) + 1
    lines.insert(at, "  ACQ 48, %d   ; every input has landed" % len(sizes))
    mv = [".movement", "buffers:"]
    bds, routes, ddr = ["bds:"], ["routes:"], 0
    for i, (name, offset, size) in enumerate(sizes):
        mv.append("  - {name: d%s, tile: shim0, address: %d, size: %d}" % (name, ddr, size))
        mv.append("  - {name: t%s, tile: [0, 0], address: %d, size: %d}" % (name, offset, size))
        bds.append("  - {name: r%s, tile: shim0, channel: mm2s%d, buffer: d%s, length: %d}" % (name, i % 2, name, size))
        bds.append("  - {name: w%s, tile: [0, 0], channel: s2mm%d, buffer: t%s, length: %d, release: {lock: 0, value: 1}}"
                   % (name, i % 2, name, size))
        ddr += size
    # Two channels: the buffers of one channel run one after the other (next:).
    for ch in (0, 1):
        mine = [n for i, (n, _, _) in enumerate(sizes) if i % 2 == ch]
        for a, b in zip(mine, mine[1:]):
            bds = [l.replace("{name: r%s," % a, "{name: r%s, next: r%s," % (a, b)) for l in bds]
            bds = [l.replace("{name: w%s," % a, "{name: w%s, next: w%s," % (a, b)) for l in bds]
        if mine:
            routes.append("  - {from: {tile: shim0, port: mm2s%d}, to: {tile: [0, 0], port: s2mm%d}}" % (ch, ch))
    return "\n".join(lines + mv + bds + routes) + "\n"


SETS = []   # --set KEY=VALUE options passed to every run


def run(tlmcraft, text, ddr_bytes, dump):
    return run_full(tlmcraft, text, ddr_bytes, dump)[0]


def run_full(tlmcraft, text, ddr_bytes, dump):
    """The dumped bytes and the run's cycles."""
    with tempfile.TemporaryDirectory() as d:
        kpath, dpath = os.path.join(d, "k.aie"), os.path.join(d, "in.bin")
        open(kpath, "w").write(text)
        open(dpath, "wb").write(ddr_bytes)
        out = subprocess.run([tlmcraft, "run", "--platform", "aie_ml", kpath, "--hbm-in", dpath + "@0", "--dump",
                              "tile_0_0:%d:%d" % dump, "--json"] + [x for s in SETS for x in ("--set", s)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        r = json.loads(out.stdout)
    except ValueError:
        raise SystemExit("tlmcraft failed:\n" + out.stdout + out.stderr)
    if r.get("stop") != "halted":
        raise SystemExit("did not halt: %s" % r.get("message"))
    dumped = r["dumps"][0]
    return (bytes(dumped["bytes"]) if "bytes" in dumped else bytes.fromhex(dumped["hex"])), r["cycles"]


def srs16(v, shift):
    """Shift right rounding half to even (crrnd 12), saturate to int16 (crsat 1)."""
    q, rem = v >> shift, v & ((1 << shift) - 1)
    half = 1 << (shift - 1)
    if rem > half or (rem == half and q & 1):
        q += 1
    return max(-32768, min(32767, q))


def check_int8(tlmcraft, rng, out_bits=16):
    """int16 out: the int32 sums shifted right by 10 with rounding; int32 out: the sums."""
    A = [[rng.randint(-128, 127) for _ in range(64)] for _ in range(64)]
    B = [[rng.randint(-128, 127) for _ in range(64)] for _ in range(64)]
    # A [m1 16][k1 8][4][8], B [k1 8][n1 8][8][8], C [m1 16][n1 8][4][8] int16 or int32.
    a = bytes((A[4 * m1 + i][8 * k1 + k] & 0xFF) for m1 in range(16) for k1 in range(8) for i in range(4) for k in range(8))
    b = bytes((B[8 * k1 + k][8 * n1 + j] & 0xFF) for k1 in range(8) for n1 in range(8) for k in range(8) for j in range(8))
    name = "xd100_i8_64x64x64" + ("_i32" if out_bits == 32 else "")
    text = with_inputs(open(os.path.join(K, name + ".aie")).read(), [("a", A_OFF, 4096), ("b", B_OFF, 4096)])
    size = out_bits // 8
    got = run(tlmcraft, text, a + b, (C_OFF, 64 * 64 * size))
    bad = 0
    for m1 in range(16):
        for n1 in range(8):
            for i in range(4):
                for j in range(8):
                    exact = sum(A[4 * m1 + i][k] * B[k][8 * n1 + j] for k in range(64))
                    want = srs16(exact, 10) if out_bits == 16 else exact
                    at = ((m1 * 8 + n1) * 32 + i * 8 + j) * size
                    bad += struct.unpack_from("<h" if out_bits == 16 else "<i", got, at)[0] != want
    return bad, 64 * 64


def bf16(x):
    """x rounded to bf16 (nearest even), as a float, and its 16 bits."""
    u = struct.unpack("<I", struct.pack("<f", x))[0]
    u = (u + 0x7FFF + ((u >> 16) & 1)) >> 16
    return struct.unpack("<f", struct.pack("<I", u << 16))[0], u


def bf16_problem(rng):
    """Random A, B (32 x 32 bf16, as (value, bits)) and C (32 x 32 fp32), and the bytes of
    A [m1 8][k1 4][4][8], B [k1 4][n1 8][8][4], C [m1 8][n1 8][4][4] back to back (the
    tiled layouts of the bf16 32x32x32 kernels, ours and Hello XDNA's)."""
    A = [[bf16(rng.uniform(-1, 1)) for _ in range(32)] for _ in range(32)]
    B = [[bf16(rng.uniform(-1, 1)) for _ in range(32)] for _ in range(32)]
    C = [[rng.uniform(-4, 4) for _ in range(32)] for _ in range(32)]
    C = [[struct.unpack("<f", struct.pack("<f", v))[0] for v in row] for row in C]
    a = b"".join(struct.pack("<H", A[4 * m1 + i][8 * k1 + k][1]) for m1 in range(8) for k1 in range(4)
                 for i in range(4) for k in range(8))
    b = b"".join(struct.pack("<H", B[8 * k1 + k][4 * n1 + j][1]) for k1 in range(4) for n1 in range(8)
                 for k in range(8) for j in range(4))
    c = b"".join(struct.pack("<f", C[4 * m1 + i][4 * n1 + j]) for m1 in range(8) for n1 in range(8)
                 for i in range(4) for j in range(4))
    return A, B, C, a + b + c


def bf16_wrong(got, A, B, C, times=1):
    """Outputs further from C + times * A B than the fp32 accumulation order explains."""
    bad = 0
    for m1 in range(8):
        for n1 in range(8):
            for i in range(4):
                for j in range(4):
                    ab = sum(A[4 * m1 + i][k][0] * B[k][4 * n1 + j][0] for k in range(32))
                    want = C[4 * m1 + i][4 * n1 + j] + times * ab
                    v = struct.unpack_from("<f", got, ((m1 * 8 + n1) * 16 + i * 4 + j) * 4)[0]
                    bad += abs(v - want) > 1e-5 * (1 + abs(want))
    return bad


def check_bf16(tlmcraft, rng, kernel):
    A, B, C, data = bf16_problem(rng)
    text = with_inputs(open(os.path.join(K, kernel + ".aie")).read(),
                       [("a", A_OFF, 2048), ("b", B_OFF, 2048), ("c", C_OFF, 4096)])
    return bf16_wrong(run(tlmcraft, text, data, (C_OFF, 4096)), A, B, C), 32 * 32


def check_scale(tlmcraft, rng, kernel, fmt="h"):
    """c = 3 a for 1,024 int16 (fmt h) or int32 (fmt i) (the mlir-aie guide's scale; a at
    offset 0, c at 0x4000): |a| <= 10,000, so no product saturates or wraps."""
    a = [rng.randint(-10000, 10000) for _ in range(1024)]
    size = struct.calcsize(fmt) * 1024
    text = with_inputs(open(os.path.join(K, kernel + ".aie")).read(), [("a", A_OFF, size)])
    got = struct.unpack("<1024" + fmt, run(tlmcraft, text, struct.pack("<1024" + fmt, *a), (B_OFF, size)))
    return sum(g != 3 * x for g, x in zip(got, a)), 1024


def options(args, doc, positional=0):
    """(tlmcraft, --set values, up to `positional` other arguments) of a command line;
    the usage and exit status 2 on anything else."""
    tlmcraft = os.environ.get("TLMCRAFT", os.path.join(ROOT, "build", "harness", "tlmcraft"))
    sets, rest = [], []
    while args:
        if args[0] in ("--tlmcraft", "--set") and len(args) >= 2:
            if args[0] == "--tlmcraft":
                tlmcraft = args[1]
            else:
                sets.append(args[1])
            args = args[2:]
        elif len(rest) < positional and not args[0].startswith("-"):
            rest, args = rest + [args[0]], args[1:]
        else:
            sys.stderr.write(doc)
            sys.exit(2)
    return tlmcraft, sets, rest


def main():
    tlmcraft, sets, _ = options(sys.argv[1:], __doc__)
    SETS.extend(sets)
    rng = random.Random(1)
    failed = 0
    for name, check in [("vsmul_scalar", lambda: check_scale(tlmcraft, rng, "vsmul_scalar")),
                        ("vsmul_scalar_i32", lambda: check_scale(tlmcraft, rng, "vsmul_scalar_i32", "i")),
                        ("vsmul_vector", lambda: check_scale(tlmcraft, rng, "vsmul_vector")),
                        ("vsmul_pipelined", lambda: check_scale(tlmcraft, rng, "vsmul_pipelined")),
                        ("xd100_i8_64x64x64", lambda: check_int8(tlmcraft, rng)),
                        ("xd100_i8_64x64x64_i32", lambda: check_int8(tlmcraft, rng, 32)),
                        ("tnzr_bf16_32x32x32", lambda: check_bf16(tlmcraft, rng, "tnzr_bf16_32x32x32")),
                        ("tnzr_bf16_32x32x32_accfwd", lambda: check_bf16(tlmcraft, rng, "tnzr_bf16_32x32x32_accfwd"))]:
        bad, n = check()
        print("%s: %d of %d outputs wrong" % (name, bad, n))
        failed += bad > 0
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
