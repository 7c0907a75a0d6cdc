#!/usr/bin/env bash
# Runs scripts/check_platform_names.sh on a fixture tree and asserts its exact findings:
# names in code (identifier, string literal) are reported with file and line, comments
# and allow-listed files are not, and allow-list entries without a reason or file fail.
set -u
src=${1:?usage: check_platform_names_test.sh SOURCE_ROOT}
fixture=$src/tests/check_names/fixture
out=$(bash "$src/scripts/check_platform_names.sh" "$fixture" "$fixture/allowlist.txt")
rc=$?
expected="$fixture/allowlist.txt:3: allow-list entry 'agent/gone.cpp' names no file (remove it)
$fixture/allowlist.txt:4: allow-list entry 'harness/clean.cpp' gives no reason
tasks/bad_layout.cpp:3: shared code names a platform or ISA: const char* name = \"aie_ml\";
tasks/bad_layout.cpp:4: shared code names a platform or ISA: bool coral = true;  
check_platform_names: FAILED (move the code into platforms/<p>/ and register it; see docs/architecture.md)"
if [[ $rc -eq 0 ]]; then echo "FAIL: the check passed a tree with violations"; exit 1; fi
if [[ "$out" != "$expected" ]]; then
  echo "FAIL: unexpected output"; echo "--- got"; echo "$out"; echo "--- expected"; echo "$expected"; exit 1
fi
echo "PASS"
