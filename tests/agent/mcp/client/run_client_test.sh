#!/usr/bin/env bash
# Runs client.mjs (the official TypeScript MCP SDK client) against `tlmcraft mcp`.
# usage: run_client_test.sh CLIENT_SOURCE_DIR WORK_DIR TLMCRAFT_BINARY
# The npm dependencies (pinned by package-lock.json) are installed with `npm ci` into
# WORK_DIR (in the build tree) the first time, and again whenever the lock file changes.
set -euo pipefail
src=$1 work=$2 tlmcraft=$3

for tool in node npm; do
  command -v "$tool" >/dev/null || { echo "mcp client test: '$tool' is not installed (Node.js 18 or newer is needed)" >&2; exit 1; }
done
[ -x "$tlmcraft" ] || { echo "mcp client test: $tlmcraft is not an executable (build the tlmcraft target)" >&2; exit 1; }

mkdir -p "$work"
for f in package.json package-lock.json client.mjs; do
  cmp -s "$src/$f" "$work/$f" || cp "$src/$f" "$work/$f"
done

stamp="$work/node_modules/.tlmcraft-installed-lock.json"
if [ ! -d "$work/node_modules/@modelcontextprotocol/sdk" ] || ! cmp -s "$work/package-lock.json" "$stamp"; then
  echo "mcp client test: npm ci in $work" >&2
  if ! (cd "$work" && timeout 300 npm ci --no-audit --no-fund --loglevel=error >&2); then
    echo "mcp client test: 'npm ci' failed or timed out after 300 s; is the npm registry reachable" \
         "($(npm config get registry 2>/dev/null))? See the npm output above." >&2
    exit 1
  fi
  cp "$work/package-lock.json" "$stamp"
fi

workspace=$(mktemp -d "$work/workspace.XXXXXX")
if (cd "$work" && timeout 180 node client.mjs "$tlmcraft" "$workspace"); then
  rm -rf "$workspace"
else
  status=$?
  [ "$status" -eq 124 ] && echo "mcp client test: client.mjs timed out after 180 s" >&2
  echo "mcp client test: failed; the server's workspace is kept in $workspace" >&2
  exit 1
fi
