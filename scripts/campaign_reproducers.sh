#!/usr/bin/env bash
# Re-runs the reproducers of the adversarial campaigns of issues 15 and 22 (docs/reliability.md,
# "Limits on untrusted input") against a built tlmcraft and prints one row per input:
# exit status, wall time, peak memory (of the process and its children) and the files it
# left in its private TMPDIR. Each must end with exit 1 or 2 in under 20 s and 2 GB,
# leaving nothing; the MCP session must also answer the pings after the hostile messages.
#   usage: scripts/campaign_reproducers.sh [path/to/tlmcraft]   (default build/harness/tlmcraft)
# Exits 1 if any row fails.
set -u
T=$(readlink -f "${1:-build/harness/tlmcraft}")
[ -x "$T" ] || { echo "campaign_reproducers.sh: $T is not an executable (build it first)" >&2; exit 2; }
command -v /usr/bin/time >/dev/null || { echo "campaign_reproducers.sh: needs /usr/bin/time (Debian package time)" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/tlmcraft-reproducers-XXXXXX")
trap 'rm -rf "$WORK"' EXIT
IN="$WORK/in" && mkdir -p "$IN" "$WORK/tmp" "$WORK/ws"
export TMPDIR="$WORK/tmp" TLMCRAFT_CORAL_DISK_CACHE=0
MAX_SECONDS=20
MAX_KB=$((2 * 1024 * 1024))

# ---- the inputs ---------------------------------------------------------------------
CORAL_HEAD=$'  .text\n  .globl main\nmain:\n'
printf '%s  .rept 100000000\n  nop\n  .endr\n  ret\n' "$CORAL_HEAD" > "$IN/rept.s"
printf '%s  ret\n  .data\n  .skip 4000000000\n' "$CORAL_HEAD" > "$IN/skip.s"
printf '%s  ret\n  .data\n  .incbin "/etc/os-release"\n' "$CORAL_HEAD" > "$IN/inc.s"
printf '%s  ret\n  .data\n  .irp d, etc\n  .incbin "/\\d\\()/os-rel\\()ease"\n  .endr\n' "$CORAL_HEAD" > "$IN/irp.s"
mkfifo "$IN/fifo"
printf '%s  ret\n  .macro get where\n  .include "\\where\\()/fi\\()fo"\n  .endm\n  get %s\n' "$CORAL_HEAD" "$IN" > "$IN/fifo.s"
printf '#define P "/etc/passwd"\n#include P\nint main(void) { return 0; }\n' > "$IN/inc.c"
printf 'int main(void) {\n  __asm__ volatile(".inc" "bin \\"/etc/passwd\\"");\n  return 0;\n}\n' > "$IN/ia.c"
printf '#define CAT(a, b) a##b\n#define PROBE CAT(__has_, include)\n#if PROBE("/etc/passwd")\nint found;\n#endif\nint main(void) { return 0; }\n' > "$IN/hasinc.c"
printf '#pragma GCC dependency "/etc/os-release"\nint main(void) { return 0; }\n' > "$IN/dep.c"
printf 'S_ADDI_INT gp1, gp0, 256\nC_SET_SCALE_REG gp1\nS_ADDI_INT gp3, gp0, 0\nC_LOOP_START gp6, 1000000\nC_LOOP_START gp7, 1000\nH_PREFETCH_V gp3, gp0, a0, 0, 0\nC_LOOP_END gp7\nC_LOOP_END gp6\n' > "$IN/pf.asm"
for _ in $(seq 3000); do printf '.tile 0 0\nDONE\n'; done > "$IN/dup.aie"
seq 60000 | sed 's/^/BAD LINE /' > "$IN/bad.asm"
yes 'BAD LINE 0123456789' | head -c 30000000 > "$IN/huge.asm"
printf 'S_ADDI_INT gp1, gp0, 1\n\xff\xfe BAD\n' > "$IN/utf8.asm"
# Issue 22: 256 phases padded with blank lines to 4 MB; a BD chain pointing to itself
# within one tile; include spellings past a textual check; the same include of an existing
# and of a missing host file.
python3 -c '
import sys
pad = "\n" * (4_000_000 // 256 - 40)
sys.stdout.write("".join(".phase p%d\n.tile 0 0\n  DONE\n%s" % (i, pad) for i in range(256)))' > "$IN/phases.aie"
printf '.movement\nbuffers:\n  - {name: a, tile: [0, 0], address: 0, size: 4096}\n  - {name: b, tile: [0, 0], address: 8192, size: 4096}\nbds:\n  - {name: out, tile: [0, 0], channel: mm2s0, buffer: a, length: 4096, next: out}\n  - {name: in, tile: [0, 0], channel: s2mm0, buffer: b, length: 4096, next: in}\nroutes:\n  - {from: {tile: [0, 0], port: mm2s0}, to: {tile: [0, 0], port: s2mm0}}\n' > "$IN/selfbd.aie"
printf '%%:include "/etc/hostname"\nint main(void) { return 0; }\n' > "$IN/digraph.c"
printf '#\\\ninclude "/etc/hostname"\nint main(void) { return 0; }\n' > "$IN/splice.c"
printf '# /*c*/ include "/etc/hostname"\nint main(void) { return 0; }\n' > "$IN/comment.c"
printf '#define P "/etc/hostname"\n#include P\nint main(void) { return 0; }\n' > "$IN/exists.c"
printf '#define P "/etc/no_such_file_xyz"\n#include P\nint main(void) { return 0; }\n' > "$IN/missing.c"
{
  echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"reproducers","version":"1"}}}'
  echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  printf '{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":%s%s}}\n' "$(printf '%*s' 200000 '' | tr ' ' '[')" "$(printf '%*s' 200000 '' | tr ' ' ']')"
  echo '{"jsonrpc":"2.0","id":3,"method":"ping"}'
  echo '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"grep_docs","arguments":{"query":"(.*){1000}x"}}}'
  printf '{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"grep_docs","arguments":{"query":"%s"}}}\n' "$(printf '%*s' 240 '' | sed 's/ /(/g')$(printf '%*s' 240 '' | sed 's/ /)/g')"
  echo '{"jsonrpc":"2.0","id":6,"method":"ping"}'
} > "$IN/mcp.jsonl"

# ---- running them -------------------------------------------------------------------
failures=0
printf '%-44s %5s %8s %9s %6s  %s\n' "input" "exit" "seconds" "peak MB" "left" "verdict"
# row NAME EXPECTED_EXITS CHECK_OUTPUT_REGEX -- command...
row() {
  local name=$1 expected=$2 want=$3
  shift 4
  local out="$WORK/out.txt" stats="$WORK/time.txt"
  timeout -s KILL 120 /usr/bin/time -o "$stats" -f '%e %M' "$@" > "$out" 2>&1
  local status=$?
  local secs kb
  read -r secs kb < <(tail -1 "$stats" 2>/dev/null || echo "- -")
  [[ "$status" == 137 ]] && secs=">120"
  local left
  left=$(find "$TMPDIR" -mindepth 1 | wc -l)
  local verdict=ok
  [[ " $expected " == *" $status "* ]] || verdict="exit $status, expected $expected"
  [[ "$secs" =~ ^[0-9.]+$ ]] && awk -v s="$secs" -v m="$MAX_SECONDS" 'BEGIN { exit !(s >= m) }' && verdict="over ${MAX_SECONDS} s"
  [[ "$kb" =~ ^[0-9]+$ ]] && (( kb >= MAX_KB )) && verdict="over 2 GB"
  (( left > 0 )) && verdict="left $left files in TMPDIR"
  [[ -n "$want" ]] && ! grep -Eq -- "$want" "$out" && verdict="output lacks /$want/"
  [[ "$verdict" == ok ]] || failures=$((failures + 1))
  printf '%-44s %5s %8s %9s %6s  %s\n' "$name" "$status" "$secs" "$([[ "$kb" =~ ^[0-9]+$ ]] && echo $((kb / 1024)) || echo -)" "$left" "$verdict"
  rm -rf "${TMPDIR:?}"/* 2>/dev/null
}
CORAL=("$T" run --platform coral --task relu --config C1)
row "coral .rept 100000000" "1" "limit of" -- "${CORAL[@]}" "$IN/rept.s"
row "coral .skip 4000000000" "1" "limit of|DTCM" -- "${CORAL[@]}" "$IN/skip.s"
row "coral .incbin /etc/os-release" "1" "reads a file" -- "${CORAL[@]}" "$IN/inc.s"
row "coral .incbin, path pasted by .irp/\\()" "1" "reads a file" -- "${CORAL[@]}" "$IN/irp.s"
row "coral .include of a FIFO, macro-built path" "1" "reads a file" -- "${CORAL[@]}" "$IN/fifo.s"
row "coral C #include P (P=\"/etc/passwd\")" "1" "outside its sandbox" -- "${CORAL[@]}" "$IN/inc.c"
row "coral C inline asm .inc\"\"bin" "1" "reads a file" -- "${CORAL[@]}" "$IN/ia.c"
row "coral C pasted __has_include" "1" "__has_include is not allowed" -- "${CORAL[@]}" "$IN/hasinc.c"
row "coral C #pragma GCC dependency" "1" "outside its sandbox" -- "${CORAL[@]}" "$IN/dep.c"
row "coral C %:include (digraph)" "1" "absolute or parent" -- "${CORAL[@]}" "$IN/digraph.c"
row "coral C #\\ newline include (splice)" "1" "absolute or parent" -- "${CORAL[@]}" "$IN/splice.c"
row "coral C # /*c*/ include" "1" "absolute or parent" -- "${CORAL[@]}" "$IN/comment.c"
row "coral C #include P, P an existing file" "1" "k.c:2: error: the kernel reads a file outside its sandbox" -- \
  bash -c 'cp "$2" "$3/k.c" && "${@:4}" "$3/k.c"' _ "$T" "$IN/exists.c" "$WORK" "${CORAL[@]}"
row "coral C #include P, P a missing file" "1" "k.c:2: error: the kernel reads a file outside its sandbox" -- \
  bash -c 'cp "$2" "$3/k.c" && "${@:4}" "$3/k.c"' _ "$T" "$IN/missing.c" "$WORK" "${CORAL[@]}"
row "aie_ml 256 phases, 4 MB, --timeout 5" "0 1" "" -- "$T" run --platform aie_ml --task relu --config C1 --timeout 5 "$IN/phases.aie"
row "aie_ml BD chain to itself in one tile" "1" "BD 'out' \\(line 6\\): its chain repeats forever" -- \
  "$T" run --platform aie_ml --task relu --config C1 "$IN/selfbd.aie"
row "kernel path /dev/zero" "2" "character device" -- "${CORAL[@]}" /dev/zero
row "kernel path a FIFO" "2" "FIFO|fifo" -- "${CORAL[@]}" "$IN/fifo"
row "plena prefetch loop 10^6 x 10^3" "1" "transfers are pending" -- \
  "$T" run --platform plena --task silu --config C1 --max-instructions 10000000 --trials 1 "$IN/pf.asm"
row "aie_ml 3000 duplicate .tile 0 0 (--json)" "1" "" -- "$T" run --platform aie_ml --task relu --config C1 --json "$IN/dup.aie"
row "plena 60000 bad lines (--json)" "1" "" -- "$T" run --platform plena --task silu --config C1 --json "$IN/bad.asm"
row "plena 30 MB kernel" "2" "kernel size limit" -- "$T" run --platform plena --task silu --config C1 "$IN/huge.asm"
row "plena invalid UTF-8 kernel (--json)" "1" '\\\\x[fF][fF]' -- "$T" run --platform plena --task silu --config C1 --json "$IN/utf8.asm"
# The MCP server ends with 0 when stdin closes; the row checks it answered the last ping.
row "mcp: 200000-deep, (.*){1000}x, 240 groups" "0" '"id":6,"jsonrpc":"2.0","result"' -- \
  bash -c '"$1" mcp --task silu --config C1 --workspace "$2" < "$3"' _ "$T" "$WORK/ws" "$IN/mcp.jsonl"
echo "$failures failing row(s)"
[[ $failures == 0 ]]
