#!/usr/bin/env bash
# Fails if shared code (harness/, agent/, tasks/, isa/extension/) names a platform or an ISA as an
# identifier or string literal: platform knowledge lives in platforms/<p>/ and registers
# itself (docs/architecture.md, "Platform packs"). Comments may mention platforms.
# Usage: check_platform_names.sh SOURCE_ROOT [ALLOW_LIST]
# ALLOW_LIST lines: "path<TAB or spaces>reason"; a listed file is not checked. Every entry
# must give a reason and name an existing file (stale entries are errors too).
set -u
root=${1:?usage: check_platform_names.sh SOURCE_ROOT [ALLOW_LIST]}
allow=${2:-}
pattern='plena|coral|aie[_-]?ml|riscv|rv32|PlatformId::'
status=0

declare -A allowed=()
if [[ -n $allow ]]; then
  lineno=0
  while IFS= read -r line || [[ -n $line ]]; do
    lineno=$((lineno + 1))
    [[ -z ${line//[[:space:]]/} || $line == \#* ]] && continue
    path=${line%%[[:space:]]*}
    reason=${line#"$path"}
    reason=${reason#"${reason%%[![:space:]]*}"}
    if [[ -z $reason ]]; then
      echo "$allow:$lineno: allow-list entry '$path' gives no reason"; status=1
    elif [[ ! -f $root/$path ]]; then
      echo "$allow:$lineno: allow-list entry '$path' names no file (remove it)"; status=1
    fi
    allowed[$path]=1
  done < "$allow"
fi

while IFS= read -r file; do
  rel=${file#"$root"/}
  [[ -n ${allowed[$rel]:-} ]] && continue
  # Drop // comments (and the rest of the line), then look for a name.
  hits=$(sed -e 's#//.*##' "$file" | grep -niE "$pattern")
  while IFS= read -r hit; do
    [[ -z $hit ]] && continue
    echo "$rel:${hit%%:*}: shared code names a platform or ISA: ${hit#*:}"
    status=1
  done <<< "$hits"
done < <(find "$root/harness" "$root/agent" "$root/tasks" "$root/isa/extension" -type f \
           \( -name '*.cpp' -o -name '*.h' -o -name '*.cc' -o -name '*.in' -o -name 'CMakeLists.txt' \
              -o -name '*.cmake' -o -name '*.py' -o -name '*.sh' \) 2>/dev/null | sort)

if [[ $status -ne 0 ]]; then
  echo "check_platform_names: FAILED (move the code into platforms/<p>/ and register it; see docs/architecture.md)"
else
  echo "check_platform_names: shared code names no platform or ISA"
fi
exit $status
