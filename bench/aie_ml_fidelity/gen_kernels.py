#!/usr/bin/env python3
"""Writes the AIE-ML fidelity kernels of bench/aie_ml_fidelity/kernels/.

Each kernel reproduces, in tlmcraft's AIE-ML assembly, the computation behind one
published AIE-ML / XDNA1 measurement (see docs/platforms/aie-ml.md, "Published
measurements against the model"). Straight-line kernels are packed into bundles by a
small list scheduler that uses the model's own latencies (read from
isa/aie_ml/aie_ml.yaml), slots and bank rule, the way a compiler targeting the model
would; loop kernels are written by hand the way an unpipelined compiler would emit them.

Usage: gen_kernels.py [--check]   (--check: fail if a committed kernel differs)
Only the Python 3 standard library is used.
"""
import os
import random
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
OUT = os.path.join(HERE, "kernels")

OWN = 0x70000          # the core's own data memory window (docs/platforms/aie-ml.md)
BANK_BYTES = 8192      # model default: 64 KB / 8 banks, contiguous


def latencies():
    """latency_classes of the ISA YAML: {class: cycles}."""
    text = open(os.path.join(ROOT, "isa", "aie_ml", "aie_ml.yaml")).read()
    block = text.split("latency_classes:", 1)[1].split("\nops:", 1)[0]
    return {m.group(1): int(m.group(2)) for m in re.finditer(r"^\s+(\w+):\s*\{cycles:\s*(\d+)", block, re.M)}


LAT = latencies()


class Op:
    """One slot operation for the scheduler.

    slot: 'ld' (either load unit), 'st', 'vec', 'alu', 'mv'; reads/writes: register
    storage names (whole x / bm / cm units, as the model's scoreboard); lat: result
    latency; addr: data-memory byte address touched (bank rule) or None.
    """

    def __init__(self, text, slot, reads, writes, lat, addr=None, late=()):
        self.text, self.slot, self.reads, self.writes = text, slot, reads, writes
        self.lat, self.addr, self.late = lat, addr, late   # late: read acc_read cycles after issue
        # AIE2 loads accumulators only through load unit A (VLDA): the open compiler's VLDB
        # destination class (mWb in llvm-aie's AIE2GenRegisterInfo.td) holds only wl/wh.
        self.unit_a_only = slot == "ld" and any(w.startswith(("am", "bm", "cm")) for w in writes)


def unit(reg):
    """The model's storage unit of a register view (w -> x, am -> cm, bm -> cm)."""
    kind, n = re.match(r"([a-z]+)(\d+)", reg).groups()
    n = int(n)
    if kind == "w":
        return "x%d" % (n // 2)
    if kind == "am":
        return "cm%d" % (n // 4)
    if kind == "bm":
        return "bm%d" % n  # bm is the scoreboard unit for accumulators (see below)
    return reg


def acc_units(reg):
    """Scoreboard units touched by an accumulator view (bm halves are separate units)."""
    kind, n = re.match(r"([a-z]+)(\d+)", reg).groups()
    n = int(n)
    if kind == "am":
        return ["bm%d" % (n // 2)]
    if kind == "cm":
        return ["bm%d" % (2 * n), "bm%d" % (2 * n + 1)]
    if kind == "bm":
        return ["bm%d" % n]
    return [unit(reg)]


def schedule(ops, max_bundles=1000, acc_read=0):
    """Greedy list scheduling in list order: each op goes to the earliest bundle where
    its slot is free, its operands are ready (model latencies), it does not precede the
    last reader/writer of a register it writes, and no other access of the bundle uses
    the same bank. Returns the bundles as lists of op texts."""
    bundles = []          # per bundle: {'ld': n, 'st': n, 'vec': n, 'alu': n, 'mv': n, 'banks': set}
    ready = {}            # unit -> first bundle a reader may issue
    last_read = {}        # unit -> last bundle that read it
    last_write = {}       # unit -> bundle of the last writer
    placed = []           # (bundle, text)
    cap = {"ld": 2, "st": 1, "vec": 1, "alu": 1, "mv": 1}

    def slot_of(b):
        while len(bundles) <= b:
            bundles.append({"ld": 0, "st": 0, "vec": 0, "alu": 0, "mv": 0, "banks": set(), "lda": False})
        return bundles[b]

    for op in ops:
        earliest = 0
        for r in op.reads:
            for u in acc_units(r):
                earliest = max(earliest, ready.get(u, 0) - (acc_read if r in op.late else 0))
        for w in op.writes:
            for u in acc_units(w):
                earliest = max(earliest, last_read.get(u, 0), last_write.get(u, 0))
        b = earliest
        bank = None if op.addr is None else (op.addr - OWN) // BANK_BYTES
        while True:
            s = slot_of(b)
            ok = s[op.slot] < cap[op.slot] and not (op.unit_a_only and s["lda"])
            if ok and bank is not None and bank in s["banks"]:
                ok = False
            if ok:
                break
            b += 1
            if b > max_bundles:
                raise RuntimeError("cannot place " + op.text)
        s = slot_of(b)
        s[op.slot] += 1
        s["lda"] = s["lda"] or op.unit_a_only
        if bank is not None:
            s["banks"].add(bank)
        for r in op.reads:
            for u in acc_units(r):
                last_read[u] = max(last_read.get(u, 0), b)
        for w in op.writes:
            for u in acc_units(w):
                same = last_write.get(u) == b
                ready[u] = max(ready.get(u, 0), b + op.lat) if same else b + op.lat
                last_write[u] = b
        placed.append((b, op))
    out = [[] for _ in range(len(bundles))]
    for b, op in placed:
        out[b].append(op)
    # Load ops name their unit: an accumulator load VLDA, the others VLDA while unit A is
    # free, then VLDB.
    lines = []
    for ops_b in out:
        texts, a_taken = [], any(op.unit_a_only for op in ops_b)
        for op in ops_b:
            t = op.text
            if op.slot == "ld":
                use_a = op.unit_a_only or not a_taken
                t = t.replace("VLD?", "VLDA" if use_a else "VLDB")
                a_taken = a_taken or use_a
            texts.append(t)
        lines.append(" ;; ".join(texts) if texts else "NOP")
    return lines


def mem(ptrs, addr):
    """Memory operand [pN, #off] for byte address addr from the nearest pointer base."""
    for name, base in ptrs:
        off = addr - base
        if -4096 <= off <= 4064:
            return "[%s, #%d]" % (name, off)
    raise ValueError("no pointer reaches 0x%x" % addr)


def header(lines, title, source):
    return ["; " + l for l in ["generated by bench/aie_ml_fidelity/gen_kernels.py: do not edit",
                                title, "published figure: " + source]] + lines


# ---- kernels --------------------------------------------------------------------------

def peak(kind):
    """Back-to-back matrix MACs on six rotating accumulators (1 VMAC per bundle in the
    model, whose VMAC latency is 6), 1536 VMACs in a zero-overhead loop, with two vector
    loads and one store in every bundle as a real kernel would issue."""
    if kind == "i8":
        mac, accs, a, b = "VMAC.I8", ["cm%d" % i for i in range(6)], "w0", "x1"
    elif kind == "i16":
        mac, accs, a, b = "VMAC.I16", ["cm%d" % i for i in range(6)], "w0", "w2"
    elif kind == "bf16":
        mac, accs, a, b = "VMAC.BF16", ["bm%d" % i for i in range(6)], "x0", "x1"
    else:  # element-wise int16: VMAC.E.S16 on 32 lanes (x, x -> cm, as the hardware)
        mac, accs, a, b = "VMAC.E.S16", ["cm%d" % i for i in range(6)], "x0", "x1"
    lines = [".tile 0 0",
             "  MOVXM p0, 0x70000   ; operand streams in three different banks",
             "  MOVXM p1, 0x74000",
             "  MOVXM p2, 0x78000",
             "  MOVXM ls, loop",
             "  MOVXM le, last",
             "  MOVXM lc, 256       ; 256 x 6 = 1536 VMACs"]
    for i, acc in enumerate(accs):
        if i == 0:
            lines.append("loop:")
        if i == len(accs) - 1:
            lines.append("last:")
        lines.append("  VLDA w%d, [p0, #%d] ;; VLDB w%d, [p1, #%d] ;; VST w%d, [p2, #%d] ;; %s %s, %s, %s, %s" % (
            8 + (i % 2), 32 * i, 10 + (i % 2), 32 * i, 12 + (i % 2), 32 * i, mac, acc, acc, a, b))
    lines.append("  DONE")
    return lines


def nops(n, why):
    """n NOP bundles: the core has no register interlocks (compute.pipeline=exposed), so
    code waits for a result with NOPs, as a compiler emits them."""
    return ["  NOP                 ; wait: %s" % why] * n


def vsmul_scalar():
    """c[i] = f * a[i], 1024 int16, scalar code (mlir-aie programming guide section 4c,
    scale_scalar): load, multiply, store per element in a zero-overhead loop."""
    return [".tile 0 0",
            "  MOVXM p0, 0x70000   ; a (1024 int16)",
            "  MOVXM p1, 0x74000   ; c",
            "  MOVXM r2, 3         ; factor",
            "  MOVXM ls, body",
            "  MOVXM le, last",
            "  MOVXM lc, 1024",
            "body:",
            "  LDA.S16 r0, [p0], #2"] + nops(6, "the load lands 7 cycles after issue") + [
            "  MUL r1, r0, r2"] + nops(1, "the multiply lands 2 cycles after issue") + [
            "last:",
            "  ST.S16 r1, [p1], #2",
            "  DONE"]


def vsmul_scalar_i32():
    """The same scalar loop on 1,024 int32 (the 2024 revision of the mlir-aie programming
    guide's section 4c traced scale_scalar on 32-bit data): 32-bit loads and stores."""
    return [".tile 0 0",
            "  MOVXM p0, 0x70000   ; a (1024 int32)",
            "  MOVXM p1, 0x74000   ; c",
            "  MOVXM r2, 3         ; factor",
            "  MOVXM ls, body",
            "  MOVXM le, last",
            "  MOVXM lc, 1024",
            "body:",
            "  LDA r0, [p0], #4"] + nops(LAT["load"] - 1, "the load lands 7 cycles after issue") + [
            "  MUL r1, r0, r2"] + nops(LAT["mul"] - 1, "the multiply lands 2 cycles after issue") + [
            "last:",
            "  ST r1, [p1], #4",
            "  DONE"]


def vsmul_vector_unpipelined():
    """The vectorised scale without software pipelining: per 32 int16 elements two
    256-bit loads, one 32-lane VMUL.E.S16, two SRS stores, one after the other (mlir-aie
    programming guide section 4c: a 15-cycle loop body with one VMUL)."""
    return [".tile 0 0",
            "  MOVXM p0, 0x70000",
            "  MOVXM p1, 0x74000",
            "  MOVXM r2, 3",
            "  VBCST.16 x11, r2    ; factor in every lane of x11",
            "  MOVXM ls, body",
            "  MOVXM le, last",
            "  MOVXM lc, 32        ; 32 x 32 elements",
            "body:",
            "  VLDA w0, [p0], #32",
            "  VLDA w1, [p0], #32"] + nops(6, "w1 (high half of x0) lands 7 cycles after its load") + [
            "  VMUL.E.S16 cm0, x0, x11"] + nops(5, "cm0 lands 6 cycles after the multiply") + [
            "  VST.SRS.S16.S32 bm0, [p1], #32, 0",
            "last:",
            "  VST.SRS.S16.S32 bm1, [p1], #32, 0",
            "  DONE"]


def vsmul_vector_pipelined():
    """The same computation software-pipelined: straight-line code scheduled for the
    model (eight rotating register sets), bound by the single store unit (two 256-bit
    stores per 32 elements, one 32-lane VMUL.E.S16)."""
    ops = []
    a, c = OWN, OWN + 0x4000
    ptrs_a, ptrs_c = [("p0", a)], [("p1", c)]
    for s in range(32):
        r = s % 8
        wa, wb = "w%d" % (2 * r), "w%d" % (2 * r + 1)
        xa, ca, ba, bb = "x%d" % r, "cm%d" % r, "bm%d" % (2 * r), "bm%d" % (2 * r + 1)
        ops.append(Op("VLD? %s, %s" % (wa, mem(ptrs_a, a + 64 * s)), "ld", [], [wa], LAT["load"], a + 64 * s))
        ops.append(Op("VLD? %s, %s" % (wb, mem(ptrs_a, a + 64 * s + 32)), "ld", [], [wb], LAT["load"], a + 64 * s + 32))
        ops.append(Op("VMUL.E.S16 %s, %s, x11" % (ca, xa), "vec", [wa, wb, "x11"], [ca], LAT["vmac"]))
        ops.append(Op("VST.SRS.S16.S32 %s, %s, 0" % (ba, mem(ptrs_c, c + 64 * s)), "st", [ba], [], LAT["store"], c + 64 * s))
        ops.append(Op("VST.SRS.S16.S32 %s, %s, 0" % (bb, mem(ptrs_c, c + 64 * s + 32)), "st", [bb], [], LAT["store"], c + 64 * s + 32))
    # x11 (the broadcast factor) is ready before the first multiply: set up below.
    body = schedule(ops)
    return [".tile 0 0",
            "  MOVXM p0, 0x70000",
            "  MOVXM p1, 0x74000",
            "  MOVXM r2, 3",
            "  VBCST.16 x11, r2"] + ["  " + l for l in body] + ["  DONE"]


def tnzr_bf16(acc_read=0):
    """The XDNA1 tensor-contraction kernel of 'Hello XDNA' (scalable-analyses/xdna,
    xdna1_kernel): C[32x32] += A[32x32] B[32x32] in bf16 with fp32 accumulation, tiles of
    the BF16 4x8x4 VMAC (A [m1=8][k1=4][4][8], B [k1=4][n1=8][8][4], C [m1=8][n1=8][4][4]),
    output stationary with 2 x 4 register blocking, accumulators double-buffered (bm0-7 /
    bm8-15), C loaded once and stored once. Our schedule is produced by the list scheduler
    with the model's latencies, not copied from the published assembly."""
    A, B, C = OWN, OWN + 0x4000, OWN + 0x8000     # three banks, as the published layout
    pa, pb, pc = [("p0", A)], [("p1", B)], [("p2", C), ("p3", C + 4096)]   # p3: int32 C beyond 4 KB
    tile = 64                                     # bytes per 4x8 / 8x4 bf16 tile and per 4x4 fp32 tile
    blocks = [(bi, bj) for bi in range(4) for bj in range(2)]

    def groups(t_major):
        cl, steps, st = [], [], []
        for n, (bi, bj) in enumerate(blocks):
            accs = ["bm%d" % (8 * (n % 2) + i) for i in range(8)]
            loads, stores = [], []
            for r in range(2):
                for t in range(4):
                    addr = C + ((2 * bi + r) * 8 + 4 * bj + t) * tile
                    acc = int(accs[4 * r + t][2:])
                    for h in range(2):
                        am = "am%d" % (2 * acc + h)
                        loads.append(Op("VLD? %s, %s" % (am, mem(pc, addr + 32 * h)), "ld", [], [am], LAT["load"], addr + 32 * h))
                        stores.append(Op("VST %s, %s" % (am, mem(pc, addr + 32 * h)), "st", ["bm%d" % acc], [], LAT["store"], addr + 32 * h))
            cl.append(loads)
            st.append(stores)
            ks = []
            for k1 in range(4):
                xa = ["x%d" % (2 * (k1 % 2) + r) for r in range(2)]          # x0,x1 / x2,x3
                xb = ["x%d" % (4 + 4 * (k1 % 2) + t) for t in range(4)]      # x4-7 / x8-11
                ab = []
                for r in range(2):
                    addr = A + ((2 * bi + r) * 4 + k1) * tile
                    for h in range(2):
                        w = "w%d" % (2 * int(xa[r][1:]) + h)
                        ab.append(Op("VLD? %s, %s" % (w, mem(pa, addr + 32 * h)), "ld", [], [w], LAT["load"], addr + 32 * h))
                for t in range(4):
                    addr = B + (k1 * 8 + 4 * bj + t) * tile
                    for h in range(2):
                        w = "w%d" % (2 * int(xb[t][1:]) + h)
                        ab.append(Op("VLD? %s, %s" % (w, mem(pb, addr + 32 * h)), "ld", [], [w], LAT["load"], addr + 32 * h))
                order = [(r, t) for t in range(4) for r in range(2)] if t_major else [(r, t) for r in range(2) for t in range(4)]
                macs = [Op("VMAC.BF16 %s, %s, %s, %s" % (accs[4 * r + t], accs[4 * r + t], xa[r], xb[t]), "vec",
                           [accs[4 * r + t], xa[r], xb[t]], [accs[4 * r + t]], LAT["vmac"],
                           late=(accs[4 * r + t],)) for r, t in order]
                ks.append((ab, macs))
            steps.append(ks)
        return cl, steps, st

    # Several list orders (VMAC order, where the next block's C loads go, a seeded shuffle
    # of the loads inside each group, which keeps the program's meaning); the shortest
    # schedule is kept: the list scheduler's best effort, not an optimum.
    best = None
    rng = random.Random(11)
    for trial in range(48):
        for t_major in (False, True):
            for spread in (False, True):
                cl, steps, st = groups(t_major)
                if trial:
                    for g in cl:
                        rng.shuffle(g)
                    for ks in steps:
                        for ab, _ in ks:
                            rng.shuffle(ab)
                ops = list(cl[0]) if spread else []
                for n in range(len(blocks)):
                    if not spread:
                        ops += cl[n]
                    for k1, (ab, macs) in enumerate(steps[n]):
                        ops += ab + macs
                        if spread and n + 1 < len(blocks):
                            ops += cl[n + 1][4 * k1:4 * k1 + 4]
                    ops += st[n]
                body = schedule(ops, acc_read=acc_read)
                if best is None or len(body) < len(best):
                    best = body
    body = best
    return [".tile 0 0",
            "  MOVXM p0, 0x70000   ; A",
            "  MOVXM p1, 0x74000   ; B",
            "  MOVXM p2, 0x78000   ; C"] + ["  " + l for l in body] + ["  DONE"]


def xd100_i8(out_bits=16):
    """The int8 64 x 64 x 64 matrix multiply of the Vitis tutorial XD100 (AIE-ML, 'AIE-ML
    matrix multiplication', 16-bit output version): C = A B with int32 accumulation and
    an SRS to int16 on store (out_bits 32: the 32-bit output version, the accumulators
    stored as they are, four 256-bit stores per 4 x 8 tile instead of two). Our schedule: tiles of the 4x8x8 VMAC.I8 (A [16][8][4][8],
    B [8][8][8][8], C [16][8][4][8] int16), 2 x 4 register blocking on eight of the nine
    1024-bit accumulators. A zero-overhead loop of two iterations, each the list
    scheduler's straight-line code for 32 of the 64 output rows: the whole computation
    straight-line is 1,126 bundles, more than the tile's 16 KB of program memory holds
    (1,024 bundles of 16 bytes)."""
    A, B, C = OWN, OWN + 0x4000, OWN + 0x8000
    tile_c = 4 * 8 * out_bits // 8                        # bytes of one 4 x 8 output tile
    half_a, half_c = 4 * 2 * 8 * 32, 4 * 2 * 8 * tile_c  # A and C bytes of 32 rows
    pa, pb, pc = [("p0", A)], [("p1", B)], [("p2", C), ("p3", C + 4096)]   # p3: int32 C beyond 4 KB
    ops = []
    for bi in range(4):          # 8 row tiles of this half, in pairs
        for bj in range(2):      # 8 column tiles in fours
            accs = ["cm%d" % i for i in range(8)]
            for k1 in range(8):
                wa = ["w%d" % (r + 2 * (k1 % 2)) for r in range(2)]           # w0,w1 / w2,w3
                xb = ["x%d" % (2 + 4 * (k1 % 2) + t) for t in range(4)]       # x2-5 / x6-9
                for r in range(2):
                    addr = A + ((2 * bi + r) * 8 + k1) * 32
                    ops.append(Op("VLD? %s, %s" % (wa[r], mem(pa, addr)), "ld", [], [wa[r]], LAT["load"], addr))
                for t in range(4):
                    addr = B + (k1 * 8 + 4 * bj + t) * 64
                    for h in range(2):
                        w = "w%d" % (2 * int(xb[t][1:]) + h)
                        ops.append(Op("VLD? %s, %s" % (w, mem(pb, addr + 32 * h)), "ld", [], [w], LAT["load"], addr + 32 * h))
                for r in range(2):
                    for t in range(4):
                        acc = accs[4 * r + t]
                        if k1 == 0:
                            ops.append(Op("VMUL.I8 %s, %s, %s" % (acc, wa[r], xb[t]), "vec", [wa[r], xb[t]], [acc], LAT["vmac"]))
                        else:
                            ops.append(Op("VMAC.I8 %s, %s, %s, %s" % (acc, acc, wa[r], xb[t]), "vec",
                                          [acc, wa[r], xb[t]], [acc], LAT["vmac"]))
            for r in range(2):
                for t in range(4):
                    m1, n1 = 2 * bi + r, 4 * bj + t
                    addr = C + (m1 * 8 + n1) * tile_c
                    acc = int(accs[4 * r + t][2:])
                    for h in range(tile_c // 32):
                        if out_bits == 16:
                            bm = "bm%d" % (2 * acc + h)
                            ops.append(Op("VST.SRS.S16.S32 %s, %s, 10" % (bm, mem(pc, addr + 32 * h)), "st", [bm], [],
                                          LAT["store"], addr + 32 * h))
                        else:
                            am = "am%d" % (4 * acc + h)
                            ops.append(Op("VST %s, %s" % (am, mem(pc, addr + 32 * h)), "st", [am], [], LAT["store"],
                                          addr + 32 * h))
    body = schedule(ops, max_bundles=4000)
    # The next half: A and C pointers move on once the body's last access has issued.
    step = "PADDA [p0], #%d ;; PADDB [p2], m0" % half_a + (" ;; PADDS [p3], m0" if out_bits == 32 else "")
    return [".tile 0 0",
            "  MOVXM p0, 0x70000   ; A",
            "  MOVXM p1, 0x74000   ; B",
            "  MOVXM p2, 0x78000   ; C"] + (["  MOVXM p3, 0x79000   ; C + 4096"] if out_bits == 32 else []) + [
            "  MOVXM m0, %d      ; C bytes of 32 rows" % half_c,
            "  MOVXM ls, body",
            "  MOVXM le, last",
            "  MOVXM lc, 2         ; two halves of 32 rows",
            "body:"] + ["  " + l for l in body] + ["last:", "  " + step, "  DONE"]


def dma(name):
    """DMA-only kernels (no core program)."""
    if name == "dma_stream_2kb":
        # mem0 -> tile(0,0): one 2048-byte BD over one 32-bit stream (the mlir-aie section
        # 4c vector_scalar_mul chunk: 1024 int16).
        return [".movement",
                "buffers:",
                "  - {name: src, tile: mem0, address: 0, size: 2048}",
                "  - {name: dst, tile: [0, 0], address: 0, size: 2048}",
                "bds:",
                "  - {name: out, tile: mem0, channel: mm2s0, buffer: src, length: 2048}",
                "  - {name: in, tile: [0, 0], channel: s2mm0, buffer: dst, length: 2048}",
                "routes:",
                "  - {from: {tile: mem0, port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}"]
    if name == "shim_read_2ch":
        # DDR -> shim0 mm2s0 + mm2s1 -> mem0: 64 KiB per channel.
        return [".movement",
                "buffers:",
                "  - {name: d0, tile: shim0, address: 0x100000, size: 65536}",
                "  - {name: d1, tile: shim0, address: 0x200000, size: 65536}",
                "  - {name: m0, tile: mem0, address: 0, size: 65536}",
                "  - {name: m1, tile: mem0, address: 65536, size: 65536}",
                "bds:",
                "  - {name: r0, tile: shim0, channel: mm2s0, buffer: d0, length: 65536}",
                "  - {name: r1, tile: shim0, channel: mm2s1, buffer: d1, length: 65536}",
                "  - {name: w0, tile: mem0, channel: s2mm0, buffer: m0, length: 65536}",
                "  - {name: w1, tile: mem0, channel: s2mm1, buffer: m1, length: 65536}",
                "routes:",
                "  - {from: {tile: shim0, port: mm2s0}, to: {tile: mem0, port: s2mm0}}",
                "  - {from: {tile: shim0, port: mm2s1}, to: {tile: mem0, port: s2mm1}}"]
    if name == "memtile_rw_6ch":
        # mem0 reads on its six MM2S channels (to the four compute tiles of column 0) while
        # its six S2MM channels are written by the compute tiles' MM2S: 16 KiB per channel.
        lines = [".movement", "buffers:"]
        bds, routes = ["bds:"], ["routes:"]
        n = 16384
        for i in range(6):
            t, c = divmod(i, 2)
            lines.append("  - {name: mr%d, tile: mem0, address: %d, size: %d}" % (i, i * n, n))
            lines.append("  - {name: mw%d, tile: mem0, address: %d, size: %d}" % (i, (8 + i) * n, n))
            lines.append("  - {name: tr%d, tile: [0, %d], address: %d, size: %d}" % (i, t, c * n, n))
            lines.append("  - {name: tw%d, tile: [0, %d], address: %d, size: %d}" % (i, t, 32768 + c * n, n))
            bds.append("  - {name: o%d, tile: mem0, channel: mm2s%d, buffer: mr%d, length: %d}" % (i, i, i, n))
            bds.append("  - {name: i%d, tile: [0, %d], channel: s2mm%d, buffer: tr%d, length: %d}" % (i, t, c, i, n))
            bds.append("  - {name: u%d, tile: [0, %d], channel: mm2s%d, buffer: tw%d, length: %d}" % (i, t, c, i, n))
            bds.append("  - {name: v%d, tile: mem0, channel: s2mm%d, buffer: mw%d, length: %d}" % (i, i, i, n))
            routes.append("  - {from: {tile: mem0, port: mm2s%d}, to: {tile: [0, %d], port: s2mm%d}}" % (i, t, c))
            routes.append("  - {from: {tile: [0, %d], port: mm2s%d}, to: {tile: mem0, port: s2mm%d}}" % (t, c, i))
        return lines + bds + routes
    raise ValueError(name)


KERNELS = {
    "peak_i8": (lambda: peak("i8"), "int8 VMAC peak rate", "AM020 / Riallto: 256 int8 x int8 MACs per cycle"),
    "peak_i16": (lambda: peak("i16"), "int16 VMAC peak rate", "AM020 / Riallto: 64 int16 x int16 MACs per cycle"),
    "peak_bf16": (lambda: peak("bf16"), "bf16 VMAC peak rate", "AM020 / Riallto: 128 bf16 MACs per cycle"),
    "eltwise_i16": (lambda: peak("e16"), "int16 element-wise MAC rate",
                    "mlir-aie programming guide 4c: 32 element-wise int16 MACs per cycle"),
    "vsmul_scalar": (vsmul_scalar, "scalar c = f * a, 1024 int16", "mlir-aie programming guide 4c: ~10,250 cycles"),
    "vsmul_scalar_i32": (vsmul_scalar_i32, "scalar c = f * a, 1024 int32",
                         "mlir-aie programming guide 4c (2024 revision, 32-bit data): ~10,284 cycles"),
    "vsmul_vector": (vsmul_vector_unpipelined, "vectorised, not pipelined", "mlir-aie programming guide 4c: ~495 cycles (15-cycle loop)"),
    "vsmul_pipelined": (vsmul_vector_pipelined, "vectorised and pipelined", "mlir-aie programming guide 4c: 72 cycles"),
    "tnzr_bf16_32x32x32": (tnzr_bf16, "bf16 32x32x32 tensor contraction (XDNA1)",
                           "Hello XDNA (tnzr.org): 288 instructions, 398 GFLOPS at 1.8 GHz"),
    "tnzr_bf16_32x32x32_accfwd": (lambda: tnzr_bf16(acc_read=2),
                                  "the same, scheduled for compute.acc_read_cycles=2 (run it with that setting)",
                                  "Hello XDNA (tnzr.org): 288 instructions, 398 GFLOPS at 1.8 GHz"),
    "xd100_i8_64x64x64": (xd100_i8, "int8 64x64x64 matrix multiply, int16 out",
                          "Vitis tutorial XD100 (AIE-ML): 1121 cycles (aiesimulator)"),
    "xd100_i8_64x64x64_i32": (lambda: xd100_i8(32), "int8 64x64x64 matrix multiply, int32 out",
                              "Vitis tutorial XD100 (AIE-ML): 1750 cycles (aiesimulator)"),
    "dma_stream_2kb": (lambda: dma("dma_stream_2kb"), "2048 bytes over one DMA stream",
                       "mlir-aie programming guide 4c: 512 cycles per 1024 int16 chunk"),
    "shim_read_2ch": (lambda: dma("shim_read_2ch"), "shim DMA reading DDR on both MM2S channels",
                      "AM020: 4 bytes per cycle per channel"),
    "memtile_rw_6ch": (lambda: dma("memtile_rw_6ch"), "memory tile: six MM2S + six S2MM at once",
                       "Riallto 3_2: 30 GB/s read + 30 GB/s write per memory tile"),
}


def impossible_form(text):
    """What in a kernel the hardware cannot issue, or None: VLDB into an accumulator
    (AIE2 does not have it; the model's ISA refuses it too, this names it before a run)."""
    bad = re.search(r"VLDB\s+(am|bm|cm)\d+", text, re.I)
    return "'%s': AIE2 loads accumulators only through VLDA" % bad.group(0) if bad else None


def main():
    check = "--check" in sys.argv[1:]
    os.makedirs(OUT, exist_ok=True)
    stale = []
    for name, (make, title, source) in KERNELS.items():
        text = "\n".join(header(make(), title, source)) + "\n"
        problem = impossible_form(text)
        if problem:
            raise SystemExit("%s: %s" % (name, problem))
        path = os.path.join(OUT, name + ".aie")
        old = open(path).read() if os.path.exists(path) else None
        if check:
            if old != text:
                stale.append(path)
        elif old != text:
            with open(path, "w") as f:
                f.write(text)
    if stale:
        print("stale kernels (rerun gen_kernels.py):\n  " + "\n  ".join(stale))
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
