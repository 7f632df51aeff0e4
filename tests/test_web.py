"""The pyxel app and web page of scripts/build_web.sh, and the app run from the .pyxapp.

The HTML page loads pyxel's web runtime from a CDN, which cannot be reached here: it is
checked for what it holds (docs/web.md lists what only a browser can show).
"""
from __future__ import annotations

import base64
import os
import re
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.window_helpers import in_xvfb, needs_xvfb

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("dist")
    done = subprocess.run(["bash", str(REPO / "scripts" / "build_web.sh"), str(out)],
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return out


def test_the_build_makes_the_app_and_the_page(built: Path) -> None:
    assert sorted(p.name for p in built.iterdir()) == ["cribbage.html", "cribbage.pyxapp",
                                                        "ginrummy.html", "ginrummy.pyxapp"]


def test_the_cribbage_app_holds_its_game_and_runs_with_pyxel_play(built: Path, tmp_path: Path) -> None:
    with zipfile.ZipFile(built / "cribbage.pyxapp") as zf:
        names = set(zf.namelist())
        meta = zf.comment.decode()
    assert {"cribbage/startup.py", "cribbage/port/cribbage/CRIBBAGE.DOC", "cribbage/port/cribbage/main/play.py"} <= names
    assert re.search(r"title\s*: Cribbage", meta)
    script = tmp_path / "smoke.txt"
    script.write_text("wait 30\nkey b\nwait 60\nshot game\n")
    done = subprocess.run([str(BIN / "pyxel"), "play", str(built / "cribbage.pyxapp")], cwd=tmp_path,
                          env=_env(tmp_path, CRIBBAGE_ARGS=f"--headless --script {script} --shots {tmp_path}"),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and (tmp_path / "game.png").exists()
    html = (built / "cribbage.html").read_text()
    assert 'name: "cribbage.pyxapp"' in html


def test_the_app_holds_the_game_and_nothing_stale(built: Path) -> None:
    with zipfile.ZipFile(built / "ginrummy.pyxapp") as zf:
        assert zf.testzip() is None
        names = set(zf.namelist())
        assert zf.read("ginrummy/.pyxapp_startup_script").decode().strip() == "startup.py"
        meta = zf.comment.decode()
    for needed in ("ginrummy/startup.py", "ginrummy/port/__init__.py", "ginrummy/port/files/__init__.py",
                   "ginrummy/port/main/cmdline.py", "ginrummy/port/ginrummy/GINRUMMY.DOC"):
        assert needed in names
    assert not any("__pycache__" in n or n.endswith(".pyc") for n in names)
    if (REPO / "pyxres").is_dir():
        assert any(n.startswith("ginrummy/pyxres/") for n in names)
    assert re.search(r"title\s*: GinRummy", meta) and re.search(r"version\s*: \d", meta)


def test_the_page_embeds_the_app(built: Path) -> None:
    html = (built / "ginrummy.html").read_text()
    assert html.startswith("<!doctype html>")
    assert re.search(r'<script src="https://cdn\.jsdelivr\.net/gh/kitao/pyxel@[\d.]+/wasm/pyxel\.js">', html)
    # The page loads the web runtime of the pyxel that built it (the surface test below).
    import pyxel
    assert f"/kitao/pyxel@{pyxel.VERSION}/wasm/pyxel.js" in html
    m = re.search(r'launchPyxel\(\{ command: "play", name: "ginrummy\.pyxapp", .*base64: "([A-Za-z0-9+/=]+)" \}\);', html)
    assert m is not None
    assert base64.b64decode(m.group(1)) == (built / "ginrummy.pyxapp").read_bytes()


def test_the_pages_turn_pyxels_virtual_gamepad_off(built: Path) -> None:
    """On a touch screen pyxel's page would lay its virtual gamepad over the bottom of
    the canvas (GinRummy's DECK, Cribbage's LAY AWAY and QUIT); the games read no
    gamepad, so each page launches pyxel with it off (docs/web.md)."""
    for name in ("ginrummy", "cribbage"):
        html = (built / f"{name}.html").read_text()
        m = re.search(r'launchPyxel\(\{ command: "play", name: "%s\.pyxapp", gamepad: "(\w+)", base64: ' % name, html)
        assert m is not None and m.group(1) == "disabled", name
        assert '"enabled"' not in html


def _needs_app() -> None:
    if not (REPO / "port" / "main" / "app.py").exists():
        pytest.skip("port/main/app.py (the game's frame loop) is not there yet")


def _env(tmp: Path, **extra: str) -> dict[str, str]:
    """The environment of a run of the app; its temporary directory the test's own:
    `pyxel play` unpacks the app under the temporary directory's pyxel/play and sweeps
    other processes' folders there, which fails now and then when the suite's two
    workers play at once (one sweeps a folder the other is removing)."""
    env = {k: v for k, v in os.environ.items() if k != "GINRUMMY_DEBUG"}
    return {**env, "SDL_AUDIODRIVER": "dummy", "TMPDIR": str(tmp), **extra}


def test_the_app_runs_with_pyxel_play_for_some_hundred_frames(built: Path, tmp_path: Path) -> None:
    _needs_app()
    script = tmp_path / "smoke.txt"
    script.write_text("wait 300\nshot smoke\n")
    shots = tmp_path / "shots"
    done = subprocess.run(
        [str(BIN / "pyxel"), "play", str(built / "ginrummy.pyxapp")], cwd=tmp_path,
        env=_env(tmp_path, GINRUMMY_ARGS=f"--headless --script {script} --shots {shots}"),
        capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    assert (shots / "smoke.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_the_app_runs_its_own_copy_of_the_game(built: Path, tmp_path: Path) -> None:
    """The packaged port/ is the one that runs, not the checkout's (as `pyxel play` does:
    the start-up script's folder first on sys.path, then run it as __main__)."""
    _needs_app()
    with zipfile.ZipFile(built / "ginrummy.pyxapp") as zf:
        zf.extractall(tmp_path / "app")
    appdir = tmp_path / "app" / "ginrummy"
    script = tmp_path / "smoke.txt"
    script.write_text("wait 300\n")
    code = ("import runpy, sys\n"
            f"sys.path.insert(0, {str(appdir)!r})\n"
            "import port\n"
            f"assert port.__file__.startswith({str(appdir)!r}), port.__file__\n"
            f"runpy.run_path({str(appdir / 'startup.py')!r}, run_name='__main__')\n"
            "print('ran', port.__file__)\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=tmp_path,
                          env=_env(tmp_path, GINRUMMY_ARGS=f"--headless --script {script} --shots {tmp_path}"),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert f"ran {appdir}" in done.stdout


def test_the_app_passes_the_command_line_through(built: Path, tmp_path: Path) -> None:
    done = subprocess.run([str(BIN / "pyxel"), "play", str(built / "ginrummy.pyxapp")],
                          cwd=tmp_path, env=_env(tmp_path, GINRUMMY_ARGS="/?"),
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0 and "Usage:" in done.stdout


def test_the_app_runs_under_pyxel_play_with_no_display(built: Path, tmp_path: Path) -> None:
    """No DISPLAY and no SDL_AUDIODRIVER from outside: a headless run needs neither
    (the game sets the dummy audio driver itself when headless)."""
    script = tmp_path / "smoke.txt"
    script.write_text("wait 30\nkey o\nshot options\n")
    env = {k: v for k, v in _env(tmp_path).items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_AUDIODRIVER", "SDL_VIDEODRIVER")}
    env["GINRUMMY_ARGS"] = f"--headless --script {script} --shots {tmp_path}"
    done = subprocess.run([str(BIN / "pyxel"), "play", str(built / "ginrummy.pyxapp")], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Traceback" not in done.stderr and (tmp_path / "options.png").exists()


# ---- the pyxel API surface of the web runtime ---------------------------------------------
# Pyxel 2.9.9's wasm build: `pyxel.flip` panics ("not supported on Pyxel Web"), so it is
# taken away here; Pyodide starts no threads or processes, and a blocking time.sleep
# stalls the page. The page's loader runs `pyxel.cli.play_pyxel_app(...)`; so does this
# child, in a real window under Xvfb (the page's run is not headless), with sys.platform
# "emscripten" and a stand-in `js.localStorage`, as Pyodide has them. Its own keys come
# through pyxel's input simulation from inside the real pyxel.run's frames.
BROWSER_RUN = r'''
import _thread, os, subprocess, sys, threading, time, types
import pyxel, pyxel.cli

reached = []
def forbid(name):
    def call(*args, **kwargs):
        reached.append(name)
        print("FORBIDDEN", name, file=sys.stderr, flush=True)
        raise RuntimeError(name + " is not available in the browser")
    return call

del pyxel.flip
threading.Thread.start = forbid("threading.Thread.start")
_thread.start_new_thread = forbid("_thread.start_new_thread")
subprocess.Popen = forbid("subprocess.Popen")
time.sleep = forbid("time.sleep")
for name in ("fork", "system", "popen", "execv", "spawnv"):
    if hasattr(os, name):
        setattr(os, name, forbid("os." + name))

class LocalStorage:
    def __init__(self): self.items = {}
    def getItem(self, key): return self.items.get(key)
    def setItem(self, key, value):
        self.items[key] = str(value)
        print("STORED", key, flush=True)
    def removeItem(self, key): self.items.pop(key, None)

sys.platform = "emscripten"
sys.modules["js"] = types.SimpleNamespace(localStorage=LocalStorage())

# title: O options, S save, M menu; B begin, H hint, Q + Y leave the game; Q quits.
SCHEDULE = {5: "O", 10: "S", 15: "M", 20: "B", 35: "H", 45: "Q", 50: "Y", 60: "Q"}
real_run = pyxel.run
def run(update, draw):
    frame = [0]
    def stepped():
        frame[0] += 1
        for f, key in SCHEDULE.items():
            code = getattr(pyxel, "KEY_" + key)
            if frame[0] == f:
                pyxel.set_btn(code, True)
            elif frame[0] == f + 1:
                pyxel.set_btn(code, False)
        if frame[0] == 1:
            print("AUDIO", os.environ.get("SDL_AUDIODRIVER"), flush=True)
        if frame[0] == 60:
            print("FRAMES", frame[0], "REACHED FOR", reached, flush=True)
        if frame[0] > 1000:
            print("STILL RUNNING", flush=True)
            pyxel.quit()
        update()
    real_run(stepped, draw)
pyxel.run = run

pyxel.cli.play_pyxel_app(sys.argv[1])
print("play_pyxel_app returned", flush=True)
'''


@needs_xvfb
def test_the_app_starts_and_plays_with_only_what_the_web_runtime_offers(built: Path, tmp_path: Path,
                                                                       tmp_path_factory: pytest.TempPathFactory) -> None:
    scratch = tmp_path_factory.mktemp("pyxel-tmp")        # pyxel's own files: not the "disk" looked at below
    env = {k: v for k, v in _env(scratch).items() if k not in ("SDL_AUDIODRIVER", "GINRUMMY_ARGS")}
    env["SDL_VIDEODRIVER"] = "x11"
    done = in_xvfb([sys.executable, "-c", BROWSER_RUN, str(built / "ginrummy.pyxapp")],
                   cwd=tmp_path, env=env, timeout=300)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "FORBIDDEN" not in out and "Traceback" not in out and "internal error" not in out, out
    assert "FRAMES 60 REACHED FOR []" in done.stdout, out      # it ran to the last key ...
    assert "STILL RUNNING" not in out                                # ... and Q on the title ended it
    assert "STORED ginrummy/GINRUMMY.CFG" in done.stdout             # SAVE went to localStorage
    assert "AUDIO None" in done.stdout                               # a window keeps its sound
    assert list(tmp_path.iterdir()) == []                            # and no file on "disk"
