#!/usr/bin/env bash
# Build each game's pyxel app and web page:  scripts/build_web.sh [OUTDIR]   (default: dist/)
#
#   OUTDIR/ginrummy.pyxapp   run it with:  pyxel play OUTDIR/ginrummy.pyxapp
#   OUTDIR/ginrummy.html     open it in a browser (it loads pyxel's web runtime from a CDN)
#   OUTDIR/cribbage.pyxapp, OUTDIR/cribbage.html   the same for Cribbage
#
# Each app is staged in a temporary directory named after it (pyxel names the app after
# it): the port/ package, pyxres/ and a start-up script. docs/web.md says more.
set -euo pipefail
source "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/_venv.sh"
out="$(mkdir -p "${1:-$top/dist}" && cd "${1:-$top/dist}" && pwd)"
version="$("$venv/bin/python" -c 'import port; print(port.__version__)')"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# build NAME TITLE MODULE DESC: one app and its page (NAME.pyxapp, NAME.html)
build() {
name="$1" title="$2" module="$3" desc="$4"
args="$(echo "$name" | tr a-z A-Z)_ARGS"
app="$work/$name"
mkdir -p "$app"
cp -R "$top/port" "$app/port"
if [ -d "$top/pyxres" ]; then cp -R "$top/pyxres" "$app/pyxres"; fi
find "$app" -name __pycache__ -type d -prune -exec rm -rf {} +
find "$app" -name '*.pyc' -delete

# The start-up script. Its comment lines are the app's metadata for `pyxel package`.
cat > "$app/startup.py" <<EOF
# title: $title
# author: David Teach (original, 1991-2004); the GinRummy port team
# desc: $desc
# version: $version
"""Start-up script of $name.pyxapp: the same main() as the $name command.

\`pyxel play\` (and the web runtime) leave their own words in sys.argv, so the game's
command line comes from the $args environment variable instead (empty in a
browser); the smoke test uses it for "--headless --script FILE".
In a browser, main() does not return while the game runs (pyxel.run hands the frames
to the page).
"""
import os
import shlex
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from $module import main  # noqa: E402

code = main(shlex.split(os.environ.get("$args", "")))
# In a web page there is no exit status, and SystemExit would only show the loader's
# bare "SystemExit: 1" overlay: the game has shown (or logged) its own sentence.
if code and sys.platform != "emscripten":
    sys.exit(code)
EOF

(cd "$out"
 rm -f "$name.pyxapp" "$name.html"
 "$venv/bin/pyxel" package "$app" "$app/startup.py" >/dev/null
 "$venv/bin/pyxel" app2html "$name.pyxapp"
 # pyxel's page asks for its virtual gamepad (launchPyxel's gamepad: "enabled"): on a
 # touch screen pyxel.js then shrinks the canvas to 80% and lays a cross and four
 # buttons over the bottom of the page, over GinRummy's DECK box and Cribbage's LAY
 # AWAY and QUIT. The games read no gamepad: anything but "enabled" leaves it out
 # (pyxel.js's _addVirtualGamepad). docs/web.md.
 sed -i.orig 's/gamepad: "enabled"/gamepad: "disabled"/' "$name.html"
 rm -f "$name.html.orig"
 if ! grep -q 'gamepad: "disabled"' "$name.html"; then
   echo "build_web.sh: $name.html has no gamepad setting to turn off (has pyxel app2html changed?)" >&2
   exit 1
 fi)
echo "built $out/$name.pyxapp and $out/$name.html"
}

build ginrummy GinRummy port.ginrummy.main "a faithful port of David Teach's DOS GinRummy"
build cribbage Cribbage port.cribbage.main "a faithful port of David Teach's DOS Cribbage 2.0"
