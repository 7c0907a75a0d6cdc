#!/usr/bin/env python3
"""Runs bench/aie_ml_fidelity/run.py and checks the table it prints (ctest aie_ml_fidelity_table).

Usage: aie_ml_fidelity_table_test.py TLMCRAFT
Checks: the script exits 0 (it also checks that the committed kernels are what
gen_kernels.py writes); every row sits in the section of its evidence; the restated
parameters have no gap statistics; no row is printed twice; each summary is the median
and worst of the gaps printed above it; the model figures that can be derived by hand
are those figures, and the measurement rows' figures are pinned (a timing change that
moves them must update docs/FIDELITY.md and docs/platforms/aie-ml.md too); the other
published designs each say whether they are comparable, and the model figures of those
the model runs are pinned.
"""
import os
import re
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

SECTIONS = {
    "measurements": {"hardware measurement", "aiesimulator"},
    "specification rates": {"specification rate"},
    "restated parameters": {"restated parameter"},
}

# Hand-derived model figures:
# - scalar scale: 6 setup bundles, then per element LDA (7 to the MUL) + MUL (2 to the
#   ST) + ST = 10 cycles, 1024 elements, the DONE bundle: 6 + 10,240 + 1 = 10,247.
# - int8 peak: 6 setup bundles + 1,536 VMACs one per bundle + DONE = 1,543 cycles;
#   1,536 x 256 / 1,543 = 254.8 MACs per cycle.
# - 2 KiB stream: 2,048 bytes at 4 bytes per cycle = 512 busy cycles.
HAND = {
    "scale 1024 int16, scalar loop": "10,247",
    "scale 1024 int32, scalar loop": "10,247",   # the same loop with 32-bit loads and stores
    "int8 x int8 MACs per cycle, back-to-back VMAC": "254.8",
    "2 KiB over one DMA stream (MM2S busy)": "512.0",
}
# Pinned from the model (list-scheduled kernels; docs/platforms/aie-ml.md explains each).
PINNED = {
    # 520 in both modes: one 32-lane multiply per 32 elements, its NOP waits scheduled for
    # the model's integer multiply latency 6 (a 16-cycle loop body x 32 + set-up).
    "scale 1024 int16, vector, not pipelined": "520.0",
    "scale 1024 int16, vector, pipelined": "83.0",
    "bf16 32x32x32 contraction, cycles per call": "317.0",
    "int8 64x64x64 matmul, int16 out": "1,148",
    "int8 64x64x64 matmul, int32 out": "1,405",
}
MEASUREMENT_ROWS = 7


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def parse(out):
    """{section: ([(name, kind, model, gap)], summary line or None)}."""
    sections, current = {}, None
    for line in out.splitlines():
        if line.startswith("### "):
            current = line[4:].split(" (")[0]
            sections[current] = ([], None)
        elif current and line.startswith("| ") and not line.startswith(("| measurement", "| design")):
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) == 7:
                sections[current][0].append((cells[0], cells[1], cells[2], float(cells[4].rstrip("%"))))
            elif len(cells) == 6 and current == OTHER:
                sections[current][0].append(tuple(cells))
        elif current and line.startswith(current + ":"):
            sections[current] = (sections[current][0], line)
        elif line.startswith("| variant"):
            current = None
    return sections


def check_summary(name, rows, summary):
    m = re.match(r"%s: (\d+) rows, median \|gap\| ([\d.]+)%%, worst ([+-][\d.]+)%%$" % re.escape(name), summary or "")
    if not m:
        fail("%s: no summary line (got %r)" % (name, summary))
    gaps = sorted(abs(r[3]) for r in rows)
    n = len(gaps)
    median = gaps[n // 2] if n % 2 else (gaps[n // 2 - 1] + gaps[n // 2]) / 2
    worst = max((r[3] for r in rows), key=abs)
    if int(m.group(1)) != n or abs(float(m.group(2)) - median) > 0.051 or abs(float(m.group(3)) - worst) > 0.051:
        fail("%s: summary %r is not n=%d, median %.2f, worst %+.2f of the rows" % (name, summary, n, median, worst))


OTHER = "other published designs"
# The other published designs: every row says whether it is comparable; those the model
# cannot run print "-". Pinned: the whole-array bf16 GEMM of whole_array.py (its outputs
# are checked by run.py) and the suite's 16-tile baseline.
OTHER_PINNED = {
    "GAMA: whole-array bf16 GEMM (VEK280)": "74.8",
    "Taka et al. 2025: bf16 GEMM on XDNA (20 tiles)": "95.8",
    "Taka et al. 2025: int8 GEMM on XDNA (20 tiles)": "-",
    "mlir-aie guide 4c: single-core int16 matmul 64x64x64": "-",
    "the task suite's 16-tile bf16 GEMM baseline (gemm C5, 128x512x1024)": "21.9",
}


def check_other_designs(section):
    if section is None:
        fail("no '%s' section" % OTHER)
    rows = {r[0]: r for r in section[0]}
    for name, want in OTHER_PINNED.items():
        if name not in rows or rows[name][3] != want:
            fail("'%s': model %s, expected %s" % (name, rows.get(name, [None] * 4)[3], want))
    for r in section[0]:
        if not r[5]:
            fail("'%s' does not say whether it is comparable" % r[0])


def check_generator_refuses_vldb_into_accumulators():
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    sys.path.insert(0, os.path.join(ROOT, "bench", "aie_ml_fidelity"))
    import gen_kernels
    got = gen_kernels.impossible_form("  VLDA am2, [p2, #0] ;; VLDB am3, [p2, #32]\n")
    if got != "'VLDB am3': AIE2 loads accumulators only through VLDA":
        fail("gen_kernels.impossible_form missed VLDB am3: %r" % got)
    if gen_kernels.impossible_form("  VLDA am2, [p2, #0] ;; VLDB w3, [p2, #32]\n") is not None:
        fail("gen_kernels.impossible_form refused a VLDB into a vector register")


def main():
    check_generator_refuses_vldb_into_accumulators()
    env = dict(os.environ, TLMCRAFT=sys.argv[1])
    p = subprocess.run([sys.executable, os.path.join(ROOT, "bench", "aie_ml_fidelity", "run.py")], env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    if p.returncode != 0:
        fail("run.py exited %d:\n%s" % (p.returncode, p.stdout))
    sections = parse(p.stdout)
    check_other_designs(sections.pop(OTHER, None))
    if list(sections) != list(SECTIONS):
        fail("sections %s, expected %s" % (list(sections), list(SECTIONS)))
    names = [r[0] for rows, _ in sections.values() for r in rows]
    if len(names) != len(set(names)):
        fail("a row is printed twice: %s" % names)
    figures = {}
    for name, (rows, summary) in sections.items():
        for row in rows:
            if row[1] not in SECTIONS[name]:
                fail("'%s' (%s) is in section '%s'" % (row[0], row[1], name))
            figures[row[0]] = row[2]
        if name == "restated parameters":
            if summary is not None or len(rows) != 6:
                fail("restated parameters: 6 rows without statistics expected, got %d, %r" % (len(rows), summary))
        else:
            check_summary(name, rows, summary)
    if len(sections["measurements"][0]) != MEASUREMENT_ROWS:
        fail("%d measurement rows expected, got %d" % (MEASUREMENT_ROWS, len(sections["measurements"][0])))
    for name, want in list(HAND.items()) + list(PINNED.items()):
        if figures.get(name) != want:
            fail("'%s': model %s, expected %s" % (name, figures.get(name), want))
    print("ok: %d rows, %d measurements" % (len(names), len(sections["measurements"][0])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
