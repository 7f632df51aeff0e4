#!/usr/bin/env bash
# Build the pyxel app and the web page:  scripts/build_web.sh [OUTDIR]   (default: dist/)
#
#   OUTDIR/ginrummy.pyxapp   run it with:  pyxel play OUTDIR/ginrummy.pyxapp
#   OUTDIR/ginrummy.html     open it in a browser (it loads pyxel's web runtime from a CDN)
#
# The app is staged in a temporary directory named "ginrummy" (pyxel names the app after
# it): the port/ package, pyxres/ and a start-up script. docs/web.md says more.
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/_venv.sh"
out="$(mkdir -p "${1:-$top/dist}" && cd "${1:-$top/dist}" && pwd)"
version="$("$venv/bin/python" -c 'import port; print(port.__version__)')"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
app="$work/ginrummy"
mkdir -p "$app"
cp -R "$top/port" "$app/port"
if [ -d "$top/pyxres" ]; then cp -R "$top/pyxres" "$app/pyxres"; fi
find "$app" -name __pycache__ -type d -prune -exec rm -rf {} +
find "$app" -name '*.pyc' -delete

# The start-up script. Its comment lines are the app's metadata for `pyxel package`.
cat > "$app/startup.py" <<EOF
# title: GinRummy
# author: David Teach (original, 1991-2004); the GinRummy port team
# desc: a faithful port of David Teach's DOS GinRummy
# version: $version
"""Start-up script of ginrummy.pyxapp: the same main() as the ginrummy command.

\`pyxel play\` (and the web runtime) leave their own words in sys.argv, so the game's
command line comes from the GINRUMMY_ARGS environment variable instead (empty in a
browser); the smoke test uses it for "--headless --script FILE".
In a browser, main() does not return while the game runs (pyxel.run hands the frames
to the page).
"""
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from port.main import main  # noqa: E402

code = main(shlex.split(os.environ.get("GINRUMMY_ARGS", "")))
# In a web page there is no exit status, and SystemExit would only show the loader's
# bare "SystemExit: 1" overlay: the game has shown (or logged) its own sentence.
if code and sys.platform != "emscripten":
    sys.exit(code)
EOF

cd "$out"
rm -f ginrummy.pyxapp ginrummy.html
"$venv/bin/pyxel" package "$app" "$app/startup.py" >/dev/null
"$venv/bin/pyxel" app2html ginrummy.pyxapp
echo "built $out/ginrummy.pyxapp and $out/ginrummy.html"
