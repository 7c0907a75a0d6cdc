#!/usr/bin/env bash
# Energy before / after energy by action (issue 20), every task at C1 on each platform:
# the same runs priced with the busy-cycle tables that main shipped before
# (bench/energy/<platform>-busy-cycle.yaml: base default + the old ppa section) and with
# the shipped per-action tables. Prints the markdown table of docs/energy-area.md and
# checks that every cell's cycles and status are equal both ways.
#
#   bench/energy_before_after.sh [TLMCRAFT] [OUT_DIR] [REFERENCE.jsonl]
#
# REFERENCE (optional): a `tlmcraft bench --config C1 --trials 1` JSONL made by another
# build (e.g. main before this change); its cycles must equal these runs' too.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tlmcraft="${1:-$here/../build/harness/tlmcraft}"
out="${2:-$here/../out/energy}"
reference="${3:-}"
mkdir -p "$out"
for p in plena coral aie_ml; do
  "$tlmcraft" bench --platform "$p" --config C1 --trials 1 --jobs 2 --fresh \
    --platform-config "$here/energy/$p-busy-cycle.yaml" --out "$out/before-$p.jsonl" >/dev/null || true
  "$tlmcraft" bench --platform "$p" --config C1 --trials 1 --jobs 2 --fresh --out "$out/after-$p.jsonl" >/dev/null || true
done
python3 "$here/energy_table.py" "$out" ${reference:+--reference "$reference"}
