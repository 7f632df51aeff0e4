#!/usr/bin/env bash
# Install what the web transport's test runs under Node (Pyodide and ws, pinned in
# tests/web/package.json and package-lock.json) outside the checkout:
#
#   scripts/node_deps.sh          prints the folder it installed into
#
# The folder is $GINRUMMY_NODE_DIR, or ginrummy-port/node in the user's cache directory
# (one copy for every checkout; tests/room/test_web_transport.py looks in the same
# place). Nothing is done when the lock file has not changed since the last install;
# without node and npm it says so in one line and fails.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
dir="${GINRUMMY_NODE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/ginrummy-port/node}"
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "node and npm are not installed: the web transport's test will be skipped" >&2
  exit 1
fi
want="$(cat "$top/tests/web/package.json" "$top/tests/web/package-lock.json" | cksum)"
stamp="$dir/.installed"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ] || [ ! -f "$dir/node_modules/pyodide/pyodide.mjs" ]; then
  mkdir -p "$dir"
  cp "$top/tests/web/package.json" "$top/tests/web/package-lock.json" "$dir/"
  (cd "$dir" && npm ci --silent --no-audit --no-fund >/dev/null)
  printf '%s' "$want" > "$stamp"
fi
echo "$dir"
