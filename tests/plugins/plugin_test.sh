#!/usr/bin/env bash
# Loads the test plugin into tlmcraft and checks: `list platforms` shows it; its relu
# section (a task overlay) runs, with PLENA's cycles (twin runs PLENA's model); the search
# agent uses the search transformations the plugin registers for twin (PLENA's, reused by
# name), finding the same kernel as on PLENA; a shared
# object without the entry point, a file that is no shared object and a missing path
# entry each end in exit code 2 naming the file.
# Usage: plugin_test.sh TLMCRAFT TWIN_PLUGIN BROKEN_PLUGIN
set -u
tlmcraft=$1 twin=$2 broken=$3
fail() { echo "FAIL: $*"; exit 1; }
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

list=$(TLMCRAFT_PLUGIN_PATH=$twin "$tlmcraft" list platforms) || fail "list platforms with the plugin failed"
[[ $list == $'plena\naie_ml\ncoral\ntwin' ]] || fail "list platforms: got '$list'"
# A folder on the path loads its *.so files.
mkdir "$tmp/folder" && cp "$twin" "$tmp/folder/twin.so"
list=$(TLMCRAFT_PLUGIN_PATH=$tmp/folder "$tlmcraft" list platforms --json) || fail "list platforms from a plugin folder failed"
[[ $(echo $list) == '[ "plena", "aie_ml", "coral", "twin" ]' ]] || fail "list platforms --json: got '$list'"

cycles() {  # platform -> cycles of relu C1's baseline
  TLMCRAFT_PLUGIN_PATH=$twin "$tlmcraft" run --platform "$1" --task relu --config C1 --baseline --json > "$tmp/$1.json" ||
    fail "run on $1 failed: $(head -c 400 "$tmp/$1.json")"
  grep -o '"cycles": *[0-9]*' "$tmp/$1.json" | head -1 | grep -o '[0-9]*$'
}
plena=$(cycles plena); twin_cycles=$(cycles twin)
[[ -n $plena && $plena -gt 0 ]] || fail "no cycles on plena"
[[ $twin_cycles == "$plena" ]] || fail "twin ran relu C1 in $twin_cycles cycles, plena in $plena"
grep -q '"status": *"pass"' "$tmp/twin.json" || fail "twin's relu C1 does not pass: $(head -c 400 "$tmp/twin.json")"
# twin has no section in other tasks: unsupported, with the reason.
out=$(TLMCRAFT_PLUGIN_PATH=$twin "$tlmcraft" run --platform twin --task gemm --config C1 --baseline 2>&1)
[[ $? -ne 0 && $out == *"not supported on twin: the task has no section for this platform"* ]] ||
  fail "gemm on twin: got '$out'"

# The search agent (no LLM) on twin: the plugin's registered transformations make it faster
# than the baseline, exactly as on PLENA; without them it would only submit the baseline.
search() {  # platform -> "cycles speedup" of the search agent's best relu C1 kernel
  TLMCRAFT_PLUGIN_PATH=$twin "$tlmcraft" agent --platform "$1" --task relu --config C1 --provider search \
    --workspace "$tmp/agent-$1" --transcript "$tmp/agent-$1.jsonl" --json > "$tmp/agent-$1.json" 2> "$tmp/agent-$1.log" ||
    fail "search agent on $1 failed: $(head -c 400 "$tmp/agent-$1.log")"
  echo "$(grep -o '"cycles": *[0-9]*' "$tmp/agent-$1.json" | head -1 | grep -o '[0-9]*$')" \
       "$(grep -o '"speedup": *[0-9.]*' "$tmp/agent-$1.json" | head -1 | grep -o '[0-9.]*$')"
}
plena_search=$(search plena); twin_search=$(search twin)
[[ $twin_search == "$plena_search" ]] || fail "search agent: twin's best is '$twin_search', plena's '$plena_search'"
awk -v s="${twin_search#* }" 'BEGIN { exit !(s > 1) }' || fail "search agent on twin found no faster kernel: '$twin_search'"
grep -q 'Trying: ' "$tmp/agent-twin.jsonl" || fail "search agent on twin tried no transformation"
grep -q 'No search transformations are registered' "$tmp/agent-twin.jsonl" && fail "twin has no transformations"

expect_exit2() {  # PLUGIN_PATH, expected message part
  out=$(TLMCRAFT_PLUGIN_PATH=$1 "$tlmcraft" list platforms 2>&1); rc=$?
  [[ $rc -eq 2 ]] || fail "TLMCRAFT_PLUGIN_PATH=$1: exit $rc, expected 2 ($out)"
  [[ $out == *"$2"* ]] || fail "TLMCRAFT_PLUGIN_PATH=$1: message '$out' lacks '$2'"
}
expect_exit2 "$broken" "plugin $broken: no entry point tlmcraft_register_plugin"
echo "not an ELF file" > "$tmp/junk.so"
expect_exit2 "$tmp/junk.so" "plugin $tmp/junk.so: cannot load: $tmp/junk.so: "
expect_exit2 "$tmp/absent.so" "TLMCRAFT_PLUGIN_PATH: '$tmp/absent.so' is neither a file nor a folder"
# The same plugin twice (a file and a folder holding a copy): the second registration is refused.
expect_exit2 "$twin:$tmp/folder" "registration failed: platform 'twin' is registered twice"
echo "plugin tests passed"
