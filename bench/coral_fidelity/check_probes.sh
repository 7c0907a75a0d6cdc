#!/usr/bin/env bash
# Validates the generated Coral probe programs on the RTL oracle: builds the generator
# driver with g++ (no CMake, no SystemC), writes the programs, assembles and links each
# exactly as the platform links kernels (prelude.s + kernel, crt0, coral.ld), runs it on
# coral-rtl at the model's default external latencies and checks halted=1, fault=0 and
# cycles_first_to_mpause within [MIN_CYCLES, MAX_CYCLES]. Prints the cycle distribution
# per kind and the oracle time; exits 1 if any program fails.
#
# Usage: bench/coral_fidelity/check_probes.sh [WORKDIR] [--seed N] [--per-kind N]
# Environment: CORAL_RTL (oracle binary, default /work/shared/oracles/coral-rtl/coral-rtl),
#              MIN_CYCLES (300), MAX_CYCLES (20000), JOBS (1).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
WORK=${1:-/tmp/coral_probes}
shift || true
RT="$ROOT/platforms/coral/runtime"
ORACLE=${CORAL_RTL:-/work/shared/oracles/coral-rtl/coral-rtl}
MIN_CYCLES=${MIN_CYCLES:-300}
MAX_CYCLES=${MAX_CYCLES:-20000}
JOBS=${JOBS:-1}
AS="riscv64-unknown-elf-as -march=rv32imf_zve32x -mabi=ilp32"
LD="riscv64-unknown-elf-ld -m elf32lriscv"

mkdir -p "$WORK"
g++ -std=c++17 -O2 -I"$ROOT" "$ROOT/bench/coral_fidelity/probe_programs.cpp" \
    "$ROOT/bench/coral_fidelity/probe_programs_main.cpp" -o "$WORK/coral_probe_programs"
rm -rf "$WORK/programs" "$WORK/build"
"$WORK/coral_probe_programs" "$WORK/programs" "$@" > /dev/null
$AS -o "$WORK/crt0.o" "$RT/prelude.s" "$RT/crt0.s"

run_one() {  # kind name file -> "kind<TAB>name<TAB>oracle JSON" (or BUILD / NOJSON)
  local kind=$1 name=$2 file=$3
  local base="$WORK/build/${file%.s}"
  mkdir -p "$(dirname "$base")"
  if ! $AS -o "$base.o" "$RT/prelude.s" "$WORK/programs/$file" 2> "$base.err" ||
     ! $LD -T "$RT/coral.ld" "$WORK/crt0.o" "$base.o" -o "$base.elf" 2>> "$base.err"; then
    printf '%s\t%s\tBUILD\n' "$kind" "$name"; return
  fi
  local json
  json=$("$ORACLE" "$base.elf" --ext-latency 23 --ext-wlatency 11 --max-cycles 200000 --json \
         2> "$base.err" | tr -d '\n' || true)
  printf '%s\t%s\t%s\n' "$kind" "$name" "${json:-NOJSON}"
}
export -f run_one
export WORK RT ORACLE AS LD

start=$(date +%s.%N)
tail -n +2 "$WORK/programs/manifest.tsv" |
  xargs -P "$JOBS" -L 1 bash -c 'run_one "$0" "$1" "$2"' > "$WORK/results.tsv"
end=$(date +%s.%N)

python3 - "$WORK/results.tsv" "$start" "$end" "$MIN_CYCLES" "$MAX_CYCLES" <<'PY'
import json, statistics, sys
lo, hi = int(sys.argv[4]), int(sys.argv[5])
kinds, fails = {}, []
cpu = wall = 0.0
for line in open(sys.argv[1]):
    kind, name, text = line.rstrip("\n").split("\t", 2)
    try:
        j = json.loads(text)
    except ValueError:
        j = None
    if j is None:
        status, c = ("BUILD" if text == "BUILD" else "NOJSON"), 0
    else:
        c = j.get("cycles_first_to_mpause", 0)
        cpu += j.get("cpu_seconds", 0.0)
        wall += j.get("wall_seconds", 0.0)
        status = ("FAULT" if j.get("fault") != 0 else "NOHALT" if j.get("halted") != 1
                  else "RANGE" if not lo <= c <= hi else "ok")
    kinds.setdefault(kind, []).append(c)
    if status != "ok":
        fails.append((status, name, c))
print(f"{'kind':14} {'n':>4} {'min':>7} {'p10':>7} {'median':>7} {'p90':>7} {'max':>7} {'sum':>9}")
def row(label, c):
    c = sorted(c)
    q = lambda f: c[min(len(c) - 1, int(f * len(c)))]
    print(f"{label:14} {len(c):4} {c[0]:7} {q(0.1):7} {int(statistics.median(c)):7} {q(0.9):7} {c[-1]:7} {sum(c):9}")
allc = []
for kind, c in kinds.items():
    row(kind, c)
    allc += c
row("all", allc)
print(f"oracle: {sum(allc)} cycles simulated, {cpu:.1f} CPU s, {wall:.1f} s wall inside the oracle; "
      f"whole check {float(sys.argv[3]) - float(sys.argv[2]):.1f} s wall")
for status, name, c in fails:
    print(f"FAIL {status} {name} cycles={c}")
print(f"{len(allc) - len(fails)}/{len(allc)} programs pass (halted, no fault, {lo}..{hi} cycles)")
sys.exit(1 if fails else 0)
PY
