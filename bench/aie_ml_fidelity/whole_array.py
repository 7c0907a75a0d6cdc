#!/usr/bin/env python3
"""A whole-array bf16 GEMM built from the fidelity kernel, for the published whole-array
figures (GAMA: 86% of the bf16 peak on an AIE-ML array; docs/FIDELITY.md).

C [256 x 32 NB x 4] += A [256 x K] B [K x 32 NB x 4], bf16 in, fp32 C, on all 16 tiles of
the aie_ml array: tile (column c, row r) keeps a 64 x 32 NB block of C in its memory as
2 x NB blocks of 32 x 32 and, for each 32-wide k step, calls a bf16 32x32x32 C += A B
function 2 NB times (each 32 x 32 block of A is used NB times, each of B twice): our
kernel (kernels/tnzr_bf16_32x32x32.aie) or, with --xdna, the published Hello-XDNA stream
translated by translate_xdna.py (the same interface: p0 A, p1 B, p2 C, and layouts). A of
row r streams from shim r to the four tiles of row r (one broadcast stream), B of column c
from shim c to the four tiles of column c; each tile double-buffers both. With NB = 4 (the
default) a k step takes 8 calls (about 2,540 cycles with our kernel) and brings 4 KB of A
and 8 KB of B into each tile (1,024 and 2,048 cycles at 4 bytes per cycle); the 16 tiles
need 48 KB per k step from DDR. DDR holds A and B already in the kernel's tiled layouts (a
host or memory-tile transform in real designs). C stays in the tiles (read back with
--dump, sampled outputs checked against a Python reference): it is not written to DDR.
Runs with --set compute.pipeline=exposed --set compute.acc_read_cycles=2 (the hardware's
register semantics; --set on the command line comes after).

Usage: whole_array.py [--tlmcraft PATH] [--set KEY=VALUE ...] [--steps S] [--nb 2|4]
                      [--xdna SOURCE.s] [--write FILE]
S: k steps of 32 (default 16: K = 512). --write: write the kernel file and exit.
Prints cycles, MACs per cycle per tile and % of the tile's bf16 peak (128 MACs per
cycle), and how many of the sampled outputs are wrong. Exit 0 when all are right, 1
when not, 2 on bad usage. Python 3 standard library only.
"""
import json
import os
import random
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, HERE)
import check_outputs  # noqa: E402  (bf16, options)

COLS = ROWS = 4
BLOCK = 32                                   # the kernel's 32 x 32 x 32
BLOCK_BYTES = BLOCK * BLOCK * 2              # one bf16 32 x 32 block of A or B
MB = 2                                       # 32-row blocks of C per tile
OWN = 0x70000                                # the core's own-tile window
SETTINGS = ["compute.pipeline=exposed", "compute.acc_read_cycles=2"]   # the hardware's semantics
PEAK = 128                                   # bf16 MACs per cycle per tile


class Layout:
    """A tile's buffers for NB 32-column blocks of C: A and B ping / pong and C, each in
    banks of its own (8 KB banks), so that the kernel's paired loads and the DMA's writes
    into the other buffer do not meet in a bank."""

    def __init__(self, nb):
        self.nb = nb
        self.a_bytes, self.b_bytes = MB * BLOCK_BYTES, nb * BLOCK_BYTES
        if nb == 2:   # A 0x0000 / 0x2000, B 0x4000 / 0x6000, C 16 KB at 0x8000
            self.a, self.a_toggle, self.b, self.b_toggle, self.c = 0x0000, 0x2000, 0x4000, 0x2000, 0x8000
        elif nb == 4:  # A 0x0000 / 0xE000, B 0x2000 / 0x4000, C 32 KB at 0x6000
            self.a, self.a_toggle, self.b, self.b_toggle, self.c = 0x0000, 0xE000, 0x2000, 0x6000, 0x6000
        else:
            raise ValueError("n blocks per tile: 2 or 4")
        self.c_bytes = MB * nb * 4 * BLOCK * BLOCK


def kernel_function(xdna=None):
    """(label, lines) of a bf16 32x32x32 C += A B function of p0 (A), p1 (B), p2 (C):
    our kernel (the committed kernel's bundles without its pointer setup and DONE,
    returning in its last bundle) or, with xdna, the published Hello-XDNA stream as
    translate_xdna.py writes it (same interface and layouts; it uses r0-r7, r27, r28,
    p0-p5, m0-m7 and the loop registers, which the caller below leaves alone)."""
    if xdna:
        import published
        return published.FUNCTION, published.translate(xdna).splitlines()
    lines = open(os.path.join(HERE, "kernels", "tnzr_bf16_32x32x32.aie")).read().splitlines()
    body = [l for l in lines if l.startswith("  ") and not l.lstrip().startswith("MOVXM p")]
    if body[-1].strip() != "DONE" or "RET" in body[-2] or " ;; " in body[-2]:
        raise SystemExit("kernels/tnzr_bf16_32x32x32.aie does not end as expected (one op, then DONE)")
    return "kern", ["kern:"] + body[:-2] + [body[-2] + " ;; RET lr"]


def core(steps, lay, label):
    """One tile's program: per k step wait for A and B, MB x NB calls, free both buffers.
    r20 / r16: A blocks 0 / 1 of the step; r21, r17, r18, r19: B blocks 0..3."""
    a_reg, b_reg = ["r20", "r16"], ["r21", "r17", "r18", "r19"][:lay.nb]
    calls = []
    for mi in range(MB):
        for ni in range(lay.nb):
            calls += ["  MOV p0, %s" % a_reg[mi], "  MOV p1, %s" % b_reg[ni],
                      "  MOVXM p2, %#x ;; JL %s   ; C block (%d, %d)"
                      % (OWN + lay.c + 0x1000 * (lay.nb * mi + ni), label, mi, ni)]
    offsets = ["  ADD r16, r20, r25"] + ["  ADD %s, %s, r25" % (b_reg[n], b_reg[n - 1]) for n in range(1, lay.nb)]
    return (["  MOVXM r20, %#x   ; A of this step (ping / pong)" % (OWN + lay.a),
             "  MOVXM r21, %#x   ; B of this step" % (OWN + lay.b),
             "  MOVXM r23, %#x   ; A ping ^ pong" % lay.a_toggle,
             "  MOVXM r24, %#x   ; B ping ^ pong" % lay.b_toggle,
             "  MOVXM r25, %d   ; the next 32 x 32 block of a step" % BLOCK_BYTES,
             "  MOVXM r10, %d   ; k steps left - 1" % (steps - 1),
             "step:",
             "  ACQ 50, 1   ; A of this step has landed (own lock 2)",
             "  ACQ 52, 1   ; B (own lock 4)"] + offsets + calls +
            ["  REL 51, 1   ; A buffer free (own lock 3)",
             "  REL 53, 1   ; B buffer free (own lock 5)",
             "  XOR r20, r20, r23",
             "  XOR r21, r21, r24",
             "  JNZD r10, r10, step",
             "  DONE"])


def movement(steps, lay):
    a_region, b_region = steps * lay.a_bytes, steps * lay.b_bytes   # one row's A, one column's B in DDR
    locks, buffers, bds, routes = ["locks:"], ["buffers:"], ["bds:"], ["routes:"]
    for i in range(4):
        buffers += ["  - {name: a_ddr%d, tile: shim%d, address: %d, size: %d}" % (i, i, i * a_region, a_region),
                    "  - {name: b_ddr%d, tile: shim%d, address: %d, size: %d}"
                    % (i, i, ROWS * a_region + i * b_region, b_region)]
        bds += ["  - {name: ra%d, tile: shim%d, channel: mm2s0, buffer: a_ddr%d, length: %d}" % (i, i, i, a_region),
                "  - {name: rb%d, tile: shim%d, channel: mm2s1, buffer: b_ddr%d, length: %d}" % (i, i, i, b_region)]
    for c in range(COLS):
        for r in range(ROWS):
            t, n = "[%d, %d]" % (c, r), "%d_%d" % (c, r)
            locks += ["  - {tile: %s, id: 3, init: 2}" % t, "  - {tile: %s, id: 5, init: 2}" % t]
            for name, base, toggle, size, ch, free, full in (("a", lay.a, lay.a_toggle, lay.a_bytes, 0, 3, 2),
                                                              ("b", lay.b, lay.b_toggle, lay.b_bytes, 1, 5, 4)):
                for h in range(2):
                    buffers.append("  - {name: %s%d_%s, tile: %s, address: %d, size: %d}"
                                   % (name, h, n, t, base ^ (h * toggle), size))
                    bds.append("  - {name: w%s%d_%s, tile: %s, channel: s2mm%d, buffer: %s%d_%s, length: %d, "
                               "next: w%s%d_%s, acquire: {lock: %d, value: 1}, release: {lock: %d, value: 1}}"
                               % (name, h, n, t, ch, name, h, n, size, name, 1 - h, n, free, full))
            routes += ["  - {from: {tile: shim%d, port: mm2s0}, to: {tile: %s, port: s2mm0}}" % (r, t),
                       "  - {from: {tile: shim%d, port: mm2s1}, to: {tile: %s, port: s2mm1}}" % (c, t)]
    return [".movement"] + locks + buffers + bds + routes


def design(steps, lay, xdna=None):
    label, func = kernel_function(xdna)
    lines = ["; generated by bench/aie_ml_fidelity/whole_array.py: do not edit",
             "; bf16 GEMM C[%dx%d] += A[%dx%d] B[%dx%d] on 16 tiles, our 32x32x32 kernel per block"
             % (64 * ROWS, 32 * lay.nb * COLS, 64 * ROWS, BLOCK * steps, BLOCK * steps, 32 * lay.nb * COLS)]
    for c in range(COLS):
        for r in range(ROWS):
            lines += [".tile %d %d" % (c, r)] + core(steps, lay, label) + func
    return "\n".join(lines + movement(steps, lay)) + "\n"


def problem(rng, steps, lay):
    """Random bf16 A [256 x K], B [K x N] (value, bits) and the DDR bytes: A of row r,
    then B of column c, each as k steps of MB (NB) 32 x 32 blocks in the kernel's layouts
    (A [m1 8][k1 4][4][8], B [k1 4][n1 8][8][4])."""
    K, tn = BLOCK * steps, 32 * lay.nb
    A = [[check_outputs.bf16(rng.uniform(-1, 1)) for _ in range(K)] for _ in range(64 * ROWS)]
    B = [[check_outputs.bf16(rng.uniform(-1, 1)) for _ in range(tn * COLS)] for _ in range(K)]
    a, b = [], []
    for r in range(ROWS):
        for k in range(steps):
            for mi in range(MB):
                a += [A[64 * r + 32 * mi + 4 * m1 + i][32 * k + 8 * k1 + kk][1]
                      for m1 in range(8) for k1 in range(4) for i in range(4) for kk in range(8)]
    for c in range(COLS):
        for k in range(steps):
            for ni in range(lay.nb):
                b += [B[32 * k + 8 * k1 + kk][tn * c + 32 * ni + 4 * n1 + j][1]
                      for k1 in range(4) for n1 in range(8) for kk in range(8) for j in range(4)]
    return A, B, struct.pack("<%dH" % len(a), *a) + struct.pack("<%dH" % len(b), *b)


def wrong(dumps, A, B, rng, lay, samples=64):
    """Sampled outputs of each tile further from (A B)[i][j] than fp32 accumulation
    explains (k summed 32 at a time, rounding after every add: bound K x 2^-23 x sum |ab|)."""
    bad = 0
    K, tn = len(B), 32 * lay.nb
    for (c, r), data in dumps.items():
        for _ in range(samples):
            i, j = rng.randrange(64), rng.randrange(tn)
            mi, ni, m1, n1 = i // 32, j // 32, (i % 32) // 4, (j % 32) // 4
            at = 0x1000 * (lay.nb * mi + ni) + ((m1 * 8 + n1) * 16 + (i % 4) * 4 + j % 4) * 4
            got = struct.unpack_from("<f", data, at)[0]
            terms = [A[64 * r + i][k][0] * B[k][tn * c + j][0] for k in range(K)]
            bad += abs(got - sum(terms)) > K * 2.0 ** -23 * (1 + sum(abs(t) for t in terms))
    return bad, samples * len(dumps)


def run(tlmcraft, text, ddr, sets, lay):
    with tempfile.TemporaryDirectory() as d:
        kpath, dpath = os.path.join(d, "gemm.aie"), os.path.join(d, "ddr.bin")
        open(kpath, "w").write(text)
        open(dpath, "wb").write(ddr)
        cmd = [tlmcraft, "run", "--platform", "aie_ml", kpath, "--hbm-in", dpath + "@0", "--json"]
        for c in range(COLS):
            for r in range(ROWS):
                cmd += ["--dump", "tile_%d_%d:%d:%d" % (c, r, lay.c, lay.c_bytes)]
        for s in SETTINGS + list(sets):
            cmd += ["--set", s]
        out = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        result = json.loads(out.stdout)
    except ValueError:
        raise SystemExit("tlmcraft failed:\n" + out.stdout + out.stderr)
    if result.get("stop") != "halted":
        raise SystemExit("the whole-array GEMM did not halt: %s" % result.get("message"))
    dumps = {}
    for n, dumped in enumerate(result["dumps"]):
        raw = bytes(dumped["bytes"]) if "bytes" in dumped else bytes.fromhex(dumped["hex"])
        dumps[(n // ROWS, n % ROWS)] = raw
    return result["cycles"], dumps


def measure(tlmcraft, steps=16, nb=4, sets=(), xdna=None):
    """(cycles, % of the bf16 peak per tile, wrong outputs, sampled outputs)."""
    rng, lay = random.Random(1), Layout(nb)
    A, B, ddr = problem(rng, steps, lay)
    cycles, dumps = run(tlmcraft, design(steps, lay, xdna), ddr, sets, lay)
    bad, n = wrong(dumps, A, B, rng, lay)
    macs = 64 * ROWS * 32 * lay.nb * COLS * BLOCK * steps
    return cycles, 100.0 * macs / cycles / (COLS * ROWS) / PEAK, bad, n


def main(argv):
    args, steps, nb, write, xdna = list(argv), 16, 4, None, None
    for flag in ("--steps", "--nb", "--write", "--xdna"):
        if flag in args:
            at = args.index(flag)
            if at + 1 >= len(args):
                sys.stderr.write(__doc__)
                return 2
            value = args[at + 1]
            del args[at:at + 2]
            if flag == "--write":
                write = value
            elif flag == "--xdna":
                xdna = value
            elif not value.isdigit() or int(value) < 1 or (flag == "--nb" and value not in ("2", "4")):
                sys.stderr.write("whole_array.py: %s takes %s, got '%s'\n"
                                 % (flag, "2 or 4" if flag == "--nb" else "a positive integer", value))
                return 2
            elif flag == "--steps":
                steps = int(value)
            else:
                nb = int(value)
    if write:
        open(write, "w").write(design(steps, Layout(nb), xdna))
        return 0
    tlmcraft, sets, _ = check_outputs.options(args, __doc__)
    cycles, percent, bad, n = measure(tlmcraft, steps, nb, sets, xdna)
    print("K = %d: %d cycles, %.1f MACs per cycle per tile = %.1f%% of the bf16 peak; %d of %d sampled outputs wrong"
          % (BLOCK * steps, cycles, percent * PEAK / 100, percent, bad, n))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
