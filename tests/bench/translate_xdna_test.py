#!/usr/bin/env python3
"""Tests bench/aie_ml_fidelity/translate_xdna.py (ctest aie_ml_fidelity_translate).

Usage: translate_xdna_test.py TLMCRAFT
1. Our own excerpt in the Hello-XDNA syntax (tests/bench/data/xdna_excerpt.s; not the
   published kernel) translates to exactly the lines below.
2. Run from a caller (bench/aie_ml_fidelity/published.py) on the exposed pipeline, it
   computes C += 2 A B: A all 1.0, B all 0.5 (bf16), C all 1.0 (fp32): each VMAC adds
   8 x 1.0 x 0.5 = 4 per lane, the loop runs twice (lc = 8/4), so one call gives 9.0 and
   two calls 17.0 in all 16 lanes. Cycles per call = 3 caller bundles + 25 of the excerpt
   (8 before the loop, 2 x 5 in it, 7 after it with RET in the last delay slot) = 28.
3. Bad inputs stop with file:line:col, the reason and exit status 2.
"""
import os
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
BENCH = os.path.join(ROOT, "bench", "aie_ml_fidelity")
SCRIPT = os.path.join(BENCH, "translate_xdna.py")
EXCERPT = os.path.join(ROOT, "tests", "bench", "data", "xdna_excerpt.s")

EXPECTED = """\
; translated by bench/aie_ml_fidelity/translate_xdna.py from xdna_excerpt.s
; one bundle per published bundle; '; src N' is its line in the published file
excerpt:
  VLDA wl0, [p0], #32 ;; VLDB wl2, [p1], #32 ;; MOVX r0, #28 ;; MOV p3, p2   ; src 8
  VLDA wh0, [p0], #32 ;; VLDB wh2, [p1, #0] ;; MOVXM ls, l_start   ; src 9
  VLDA amll0, [p2, #0] ;; MOVXM le, l_end   ; src 10
  VLDA amlh0, [p2, #32] ;; MOVXM lc, #2   ; src 11
  NOP   ; src 12
  NOP   ; src 13
  NOP   ; src 14
  NOP   ; src 15
l_start:
  VMAC.BF16 bml0, bml0, x0, x2   ; src 18
  ADD r1, r1, #4   ; src 19
  NOP   ; src 20
  NOP   ; src 21
l_end:
  NOP   ; src 23
  NOP   ; src 24
  NOP   ; src 25
  NOP   ; src 26
  VST amll0, [p3], #32   ; src 27
  VST amlh0, [p3, #0]   ; src 28
  NOP   ; src 29
  RET lr   ; src 30  RET moved here from line 25 (its last delay slot)
Lfunc_end0:
"""

ROW = "  nopv ; nopa ; nopb ; nops ; %s ; nopm\n"
NOP_ROW = ROW % "nopx"
# (file name, source, expected stderr line). Columns count from 1 on the source line.
BAD = [
    ("mode.s", "f:\n" + ROW % "movx r0, #29" + "  vmac.f bml0, bml0, x0, x2, r0 ; nopa ; nopb ; nops ; nopx ; nopm\n",
     "mode.s:3:3: error: vmac.f with mode 29 (r0, set on line 2): only mode 28 (bf16 4x8x4) is in the model's ISA"),
    ("unknown.s", "f:\n  vshuffle x0, x1, x2, r3 ; nopa ; nopb ; nops ; nopx ; nopm\n",
     "unknown.s:2:3: error: operation 'vshuffle' has no translation (the model's ISA, docs/isa/aie-ml.md, lists "
     "what it has)"),
    ("short.s", "f:\n" + ROW % "ret lr" + NOP_ROW,
     "short.s:2:31: error: 'RET' needs 5 delay-slot bundles after it, the stream has 1"),
    ("div.s", "f:\n  nopv ; nopa ; nopb ; nops ; movxm r3, #7/2\n",
     "div.s:2:41: error: immediate '#7/2': 7 / 2 is not an exact integer division"),
    ("label.s", "f:\n" + ROW % "ret lr" + NOP_ROW + ".l_in:\n" + NOP_ROW * 4,
     "label.s:4:1: error: label 'l_in' inside the delay slots of the branch on line 2: another entry into them "
     "cannot be translated"),
    ("cond.s", "f:\n" + ROW % "jnz r1, #.f" + ROW % "add r1, r1, #-1" + NOP_ROW * 4,
     "cond.s:3:31: error: writes r1, which the branch on line 2 reads: moving the branch to its last delay slot "
     "would read another value"),
    ("long.s", "f:\n  nopv ; nopa ; nopb ; nops ; movxm r3, #4 ; mov p3, p2\n",
     "long.s:2:46: error: 'mov' beside movxm: movxm takes the scalar and the move slot together (MOVXM_lng_cg)"),
    ("dir.s", "f:\n" + ROW % "movx r0, #28" + "  .cfi_startproc\n",
     "dir.s:3:3: error: directive '.cfi_startproc' has no translation"),
]


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check_translation():
    out = subprocess.run([sys.executable, SCRIPT, EXCERPT], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if out.returncode != 0 or out.stdout != EXPECTED:
        fail("excerpt: exit %d, stderr %r, output differs:\n%s" % (out.returncode, out.stderr, out.stdout))


def check_bad_inputs():
    with tempfile.TemporaryDirectory() as d:
        for name, text, want in BAD:
            with open(os.path.join(d, name), "w") as f:
                f.write(text)
            out = subprocess.run([sys.executable, SCRIPT, name], cwd=d, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True)
            if out.returncode != 2 or out.stderr.strip() != want or out.stdout:
                fail("%s: exit %d, stderr %r, expected exit 2 and %r" % (name, out.returncode, out.stderr, want))


def check_run(tlmcraft):
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, BENCH)
    import check_outputs
    import published
    translated = published.translate(EXCERPT)
    a = struct.pack("<H", 0x3F80) * 32   # 4 x 8 bf16 1.0
    b = struct.pack("<H", 0x3F00) * 32   # 8 x 4 bf16 0.5
    c = struct.pack("<f", 1.0) * 16      # 4 x 4 fp32 1.0
    cycles = {}
    for calls, want in ((1, 9.0), (2, 17.0)):
        text = check_outputs.with_inputs(published.caller(translated, calls, "excerpt", (0, 0x2000, 0x4000)),
                                         [("a", 0, 64), ("b", 0x2000, 64), ("c", 0x4000, 64)])
        check_outputs.SETS[:] = published.PIPELINE
        got, cycles[calls] = check_outputs.run_full(tlmcraft, text, a + b + c, (0x4000, 64))
        if struct.unpack("<16f", got) != (want,) * 16:
            fail("%d call(s): C = %s, expected %s in every lane" % (calls, struct.unpack("<16f", got), want))
    if cycles[2] - cycles[1] != 28:
        fail("cycles per call %d, expected 28" % (cycles[2] - cycles[1]))


def main():
    check_translation()
    check_bad_inputs()
    check_run(sys.argv[1])
    print("ok: excerpt translated and run; %d bad inputs refused" % len(BAD))
    return 0


if __name__ == "__main__":
    sys.exit(main())
