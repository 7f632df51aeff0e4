# Sourced by scripts/run and scripts/test: make .venv in the checkout and
# install the project into it, only when pyproject.toml has changed since.
set -euo pipefail
top="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
venv="$top/.venv"
py=""
for cand in python3.13 python3.12 python3.11 python3 python; do
  if command -v "$cand" >/dev/null 2>&1 &&
     "$cand" -c 'import sys; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
    py="$cand"; break
  fi
done
if [ -z "$py" ]; then
  echo "GinRummy needs Python 3.11 or newer; none was found on PATH." >&2
  exit 1
fi
if [ ! -x "$venv/bin/python" ]; then
  "$py" -m venv "$venv"
fi
stamp="$venv/.installed"
want="$(cat "$top/pyproject.toml" | cksum)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  extras="test,rl,cluster,openspiel"
  # torch for the policy trainer (the extra 'train'), only as its CPU build: a '+cpu'
  # release is never on PyPI, so this cannot pull a CUDA build of several GB. Where
  # none is at hand the extra is left out and the trainer's tests are skipped.
  if "$venv/bin/python" -m pip install --quiet --disable-pip-version-check "torch==2.13.0+cpu" >/dev/null 2>&1; then
    extras="$extras,train"
  fi
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -e "$top[$extras]"
  printf '%s' "$want" > "$stamp"
fi
