"""The command line, as the games' documentation gives it (docs/cmdline.md has the detail).

The shell's part: no game's words are here. ``parse(argv, game=GAME)`` returns a filled ``Launch`` for the game to run, or an
exit code when it has already done what was asked (help, list, view) or refused the
line (a usage error: one plain line on stderr, exit code 2).

Two kinds of words:

- the documented DOS words. Common to both games: ``/?`` ``?`` ``help`` ``list``
  ``view`` (first word only; ours: ``replay FILE``, a game record in the window, and
  ``review FILE [NAME]``, its review printed), the player's name, NODISK, NOBLANK, NOKEYBOARD, LAPTOP,
  GO, a path, and the port's display-profile words (EGA, VGA, CGA, HERC, ATT400, PC3270,
  EGAMONO, MDA). Each game's own (a ``Game``): its score-limit words (GinRummy ``nnn``;
  Cribbage ``61``/``121``), its own switches (Cribbage's NOANIMATION, PAUSE) and how many
  words it reads (seven; Cribbage eight). All but the name are case-insensitive, and a
  command is plain ASCII: a look-alike (``nodısk`` with a dotless i) is not one.
- the port's own flags, which start with ``--`` (``--headless``, ``--script FILE``,
  ``--shots DIR``, ``--seed N``, ``--room URL``, ``--help``, ``--version``). They may stand anywhere
  and do not count among the words read.
"""
from __future__ import annotations

import os
import re
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any, TextIO

from port import __version__
from port.files.players import clean_name, cut, plain, quoted
from port.main import recording
from port.main.errors import UsageError, say
from port.main.launch import Launch

PROFILES = ("EGA", "VGA", "CGA", "HERC", "ATT400", "PC3270", "EGAMONO", "MDA")
HELP_WORDS = ("/?", "?", "HELP")
SWITCHES = ("NODISK", "NOBLANK", "NOKEYBOARD", "LAPTOP", "GO")   # both games'
USAGE = 2              # exit code of a refused command line
SEED_MAX = recording.SEED_MAX  # Turbo Pascal's RandSeed is a 32-bit LongInt

__all__ = ["Game", "UsageError", "documentation", "parse", "port_options"]


@dataclass(frozen=True)
class Game:
    """One game's own words and answers; the rest of the command line is shared."""

    program: str                              # the word typed at the prompt: "ginrummy"
    title: str                                # its name in print: "GinRummy"
    max_words: int                            # "looks only at the first seven parameters"
    limit: Callable[[str], int | None]        # a score-limit word's limit, else None
    switches: tuple[str, ...]                 # its own switches; each sets the Launch field of its name
    package: str                              # the game's package: "port.ginrummy"
    doc_file: str                             # shipped inside the package, for `view`
    help: str                                 # the help screen
    list_players: Callable[[Path], list[str]]  # the lines `list` prints for a directory
    # Imports and returns the game's first-screen maker (Session -> Controller): loaded
    # only when a game is run, so help/list/view never start the display.
    first_screen: Callable[[], Callable[[Any], Any]]
    # `replay FILE`: reads and checks a game record (docs/records.md); ValueError with
    # one sentence (naming the line) for a file that is not a sound record of the game.
    read_record: Callable[[Path], Any] | None = None
    # `review FILE [NAME]`: the lines of a read record's review (each seat's, or NAME's
    # only); ValueError with one sentence for a NAME that is no seat's.
    review_record: Callable[[Any, str | None], list[str]] | None = None
    files: tuple[str, ...] = ()               # its files, which a recording keeps (GINRUMMY.CFG, ...)
    record_prefix: str = ""                   # its game records' two letters: "CR" names CR0001.REC
    # Its score limits in words, for the notice when a word of digits is no limit and is
    # taken as the name instead ("61 or 121"): never silently (docs/cmdline.md).
    limits: str = ""


def port_options(count: str) -> str:
    """The help's part on the port's own options, which both games share."""
    return f"""Port options (anywhere on the line, not counted in the {count}):
  --seed N        a reproducible game (N from 0 to {SEED_MAX})
  --computer BOT  the computer is BOT: path/to/bot.py:Name, a player or a
                  PettingZoo-style policy (docs/envs.md)
  --headless      no window: run the frames as fast as possible
  --script FILE   play the input events of FILE (the headless driver)
  --shots DIR     where the driver saves its screenshots
  --record FILE   write this session to FILE, a script: --script FILE
                  replays it to the same end (docs/script.md)
  --room URL       straight to the card room at URL (ws://HOST:PORT)
  --version       print the version
"""


def parse(argv: list[str], out: TextIO | None = None, err: TextIO | None = None, *,
          game: Game) -> Launch | int:
    """The command line (without the program name) -> a Launch, or an exit code.

    Output that cannot be written raises ``OutputError`` (``port.main.main`` says so).
    """
    out = out or sys.stdout
    err = err or sys.stderr
    try:
        launch, words, action = _port_flags(argv)
        launch.program, launch.title, launch.game_files = game.program, game.title, game.files
        if action == "help":
            say(out, game.help)
            return 0
        if action == "version":
            say(out, f"{game.title} {__version__}\n")
            return 0
        given = bool(words) or launch.seed is not None or launch.computer is not None
        outcome = _dos_words(words, launch, out, game)
        if isinstance(outcome, Launch) and outcome.script is not None:
            _script_header(outcome, game, given)
        return outcome
    except UsageError as exc:
        try:
            print(f"{game.program}: {exc}  ({game.program} /? for help)", file=err)
        except OSError:
            pass    # nowhere to say it: the exit code still does
        return USAGE


def _key(word: str) -> str | None:
    """A word as a command is matched: upper case, and only if it is plain ASCII.

    ``"nodısk".upper()`` is "NODISK" (a dotless i upper-cases to I), as is ``nodiſk``
    with a long s: such look-alikes are never commands (they may be a name).
    """
    return word.upper() if word.isascii() else None


# ---- the port's -- flags -----------------------------------------------------------

def _port_flags(argv: list[str]) -> tuple[Launch, list[str], str | None]:
    """Take out the -- flags; what is left are the DOS words.

    The third value is "help" or "version" when a flag asked for that instead of a game.
    """
    launch = Launch()
    words: list[str] = []
    action = None
    args = list(argv)
    while args:
        arg = args.pop(0)
        if arg == "--":                       # the usual "no more flags": all the rest are words
            words += args
            break
        if not arg.startswith("--") and arg != "-h":
            words.append(arg)
            continue
        flag, eq, value = arg.partition("=")
        key = (_key(flag) or "").lower()
        if key in ("--help", "-h", "--version") and not eq:
            action = action or ("version" if key == "--version" else "help")
            continue
        handler = _FLAGS.get(key)
        if handler is None:
            raise UsageError(f"unknown option {quoted(arg)}")
        takes_value, apply = handler
        if takes_value and not eq:
            if not args:
                raise UsageError(f"{flag} needs a value")
            value = args.pop(0)
        elif eq and not takes_value:
            raise UsageError(f"{flag} takes no value")
        apply(launch, value)
    return launch, words, action


def _set_seed(launch: Launch, value: str) -> None:
    if not re.fullmatch(r"[0-9]{1,10}", value) or int(value) > SEED_MAX:
        raise UsageError(f"--seed needs a whole number from 0 to {SEED_MAX}, not {quoted(value)}")
    launch.seed = int(value)


def _set_script(launch: Launch, value: str) -> None:
    try:
        path = Path(value).absolute()
        there, is_file = path.exists(), path.is_file()
    except (OSError, ValueError) as exc:
        raise UsageError(f"--script: cannot use {quoted(value)} ({_why(exc)})") from None
    if not there:
        raise UsageError(f"--script: no such file {quoted(value)}")
    if not is_file:
        raise UsageError(f"--script: {quoted(value)} is not a file")
    launch.script = path


def _set_shots(launch: Launch, value: str) -> None:
    try:
        path = Path(value).absolute()
        a_file = path.exists() and not path.is_dir()
    except (OSError, ValueError) as exc:
        raise UsageError(f"--shots: cannot use {quoted(value)} ({_why(exc)})") from None
    if a_file:
        raise UsageError(f"--shots: {quoted(value)} is a file, not a directory")
    launch.shots = path


def _set_record(launch: Launch, value: str) -> None:
    try:
        launch.record = Path(value).absolute()
    except (OSError, ValueError) as exc:
        raise UsageError(f"--record: cannot use {quoted(value)} ({_why(exc)})") from None


def _why(exc: Exception) -> str:
    return getattr(exc, "strerror", None) or str(exc)


def _shown(word: str) -> str:
    """A word as a message shows it: a long one is cut, saying so, so the message stays
    one line; bytes that are not UTF-8 are "?", so it can be drawn and printed."""
    return cut(word)


def _set_computer(launch: Launch, value: str) -> None:
    path, sep, name = value.rpartition(":")
    if not sep or not path.endswith(".py") or not name:
        raise UsageError(f"--computer needs path/to/bot.py:Name, not {quoted(value)}")
    try:
        there = Path(path).is_file()
    except (OSError, ValueError) as exc:       # a name too long for the system, a NUL in it
        raise UsageError(f"--computer: cannot use {quoted(path)} ({_why(exc)})") from None
    if not there:
        raise UsageError(f"--computer: no such file {quoted(path)}")
    launch.computer = value


def room_address(text: str) -> str:
    """A card room's address as typed (``ws://HOST:PORT`` or ``wss://...``), tidied; a
    ValueError whose text is one plain sentence when it is none. The command line's
    ``--room`` and the connection page read it the same way."""
    from urllib.parse import urlsplit

    url = text.strip()
    shown = quoted(url, 40)
    try:
        parts = urlsplit(url)
        port = parts.port                    # a port that is no number raises here
    except ValueError:
        raise ValueError(f"{shown} is not a room's address (ws://HOST:PORT)") from None
    if parts.scheme.lower() not in ("ws", "wss") or not parts.hostname or not url.isascii() or " " in url:
        raise ValueError(f"{shown} is not a room's address (ws://HOST:PORT)")
    if port == 0:
        raise ValueError(f"{shown}: a room's port is 1 to 65535")
    return url


def _set_room(launch: Launch, value: str) -> None:
    try:
        launch.room = room_address(value)
    except ValueError as exc:
        raise UsageError(f"--room: {exc}") from None


_FLAGS: dict[str, tuple[bool, Callable[[Launch, str], None]]] = {
    "--headless": (False, lambda launch, _: setattr(launch, "headless", True)),
    "--seed": (True, _set_seed),
    "--computer": (True, _set_computer),
    "--script": (True, _set_script),
    "--shots": (True, _set_shots),
    "--record": (True, _set_record),
    "--room": (True, _set_room),
}


# ---- a script's header, and what the run will write ---------------------------------

def _script_header(launch: Launch, game: Game, given: bool) -> None:
    """A script may begin with the command line it plays under (docs/script.md): a
    recording always does, and then the command line adds nothing that changes the game."""
    assert launch.script is not None
    header = recording.read_header(launch.script, game.program, game.files)
    shown = _shown(str(launch.script))
    if header.is_recording:
        if given:
            raise UsageError(f"{shown} is a recording and holds its own command line: "
                             "add only --headless, --shots or --record")
    recording.apply_header(launch, header)
    _check_header(launch, game, shown)


def _check_header(launch: Launch, game: Game, shown: str) -> None:
    """A header's values as the command line would have them."""
    if launch.profile not in PROFILES:
        raise UsageError(f"{shown}: {quoted(launch.profile)} is not a display ({', '.join(PROFILES)})")
    limit = launch.score_limit
    if limit is not None and limit not in (game.limit(f"{limit:03d}"), game.limit(str(limit))):
        raise UsageError(f"{shown}: {limit} is not a score limit of {game.title}")
    if launch.name is not None:
        launch.name = clean_name(plain(launch.name))
    if launch.computer is not None:
        _set_computer(launch, launch.computer)
    launch.notices = tuple(plain(n) for n in launch.notices)


def make_outputs(launch: Launch, err: TextIO | None = None) -> int | None:
    """Before the game starts (``parse`` itself changes nothing): what the run will write
    is made now, before any window opens, so a run never fails late for want of it. The
    shots directory is made (``--script`` without ``--shots`` saves in ./shots) and the
    recording's file created, empty. None when all is ready; else a usage error, told."""
    try:
        _make_outputs(launch)
    except UsageError as exc:
        try:
            print(f"{launch.program}: {exc}  ({launch.program} /? for help)", file=err or sys.stderr)
        except OSError:
            pass
        return USAGE
    return None


def _make_outputs(launch: Launch) -> None:
    if launch.record is not None and launch.replay is not None:
        raise UsageError("--record records a game; the replay viewer (replay FILE) changes nothing to record")
    if launch.script is not None and launch.shots is None:
        launch.shots = _current_directory() / "shots"
    if launch.shots is not None:
        _writable_directory("--shots", launch.shots)
    if launch.record is not None:
        _new_file("--record", launch.record)


def _writable_directory(flag: str, path: Path) -> None:
    shown = quoted(str(path))
    try:
        path.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as exc:
        raise UsageError(f"{flag}: cannot make the directory {shown} ({_why(exc)})") from None
    try:
        fd, probe = tempfile.mkstemp(dir=path, prefix=".probe-")
    except OSError as exc:
        raise UsageError(f"{flag}: cannot write in {shown} ({_why(exc)})") from None
    os.close(fd)
    os.unlink(probe)


def _new_file(flag: str, path: Path) -> None:
    """A new file (a recording never replaces one: it may be someone's)."""
    shown = quoted(str(path))
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
    except FileExistsError:
        raise UsageError(f"{flag}: {shown} already exists (a recording never replaces a file: "
                         "give a new name)") from None
    except (OSError, ValueError) as exc:
        raise UsageError(f"{flag}: cannot make {shown} ({_why(exc)})") from None
    os.close(fd)


# ---- the documented words ----------------------------------------------------------

def _dos_words(argv_words: list[str], launch: Launch, out: TextIO, game: Game) -> Launch | int:
    if argv_words and _key(argv_words[0].strip()) == "REVIEW" and game.review_record is not None:
        return _review(argv_words[1:], out, game)
    if argv_words and _key(argv_words[0].strip()) == "REPLAY" and game.read_record is not None:
        # Ours, a first word as list and view are: the FILE is the next word as typed
        # (a file name may hold spaces), the other words as ever (a display, NOBLANK).
        launch.replay = _record(argv_words[1:2], game)
        argv_words = argv_words[2:]
    words = _split_words(argv_words)
    read, ignored = words[:game.max_words], words[game.max_words:]
    if read:
        first = _key(read[0])
        # "The previous three command line parameters (help, list, view) must be the
        # FIRST parameter given, and all will exit to DOS when done."
        if first in HELP_WORDS:
            say(out, game.help)
            return 0
        if first == "LIST":
            return _list(read[1:], out, game)
        if first == "VIEW":
            return _view(out, game)
    notices = [f"Only the first {game.max_words} words are read: ignored {plain(' '.join(ignored))}."] if ignored else []
    path_word = _read_words(read, launch, game, notices)
    launch.path = _check_path(path_word, notices)
    launch.notices = (*launch.notices, *notices)
    return launch


def _review(words: list[str], out: TextIO, game: Game) -> int:
    """``review FILE [NAME]``: the record's review printed, each seat's decisions beside
    EXPERT's, the costliest first (docs/review.md); then back to DOS, as list and view."""
    log = _record(words[:1], game, "review")
    assert game.review_record is not None
    try:
        lines = game.review_record(log, words[1] if len(words) > 1 else None)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    say(out, "".join(line + "\n" for line in lines))
    return 0


def _record(word: list[str], game: Game, doing: str = "replay") -> Any:
    """``replay FILE``: the record read and checked before any window opens; a file
    that is not a sound record is one sentence naming the line (exit 2)."""
    if not word or not word[0].strip():
        example = f"{game.record_prefix or 'GR'}0001.REC"     # this game's own first record
        raise UsageError(f"{doing} needs a game record file ({game.program} {doing} {example})")
    assert game.read_record is not None
    try:
        return game.read_record(Path(word[0]))
    except ValueError as exc:
        raise UsageError(f"{_shown(word[0])}: {exc}") from None


def _split_words(argv_words: list[str]) -> list[str]:
    """DOS split its command line at spaces: "Paul Schoenberger" is two words.

    A path keeps its spaces (a quoted directory such as "My Games" is still one path).
    """
    words = []
    for arg in argv_words:
        if _is_path(arg):
            words.append(arg)
        else:
            words += arg.split()
    return words


def _read_words(words: list[str], launch: Launch, game: Game, notices: list[str] | None = None) -> str | None:
    """Set the switches, limit, name and profile; return the path word, if any. A word
    of digits that is no score limit is the name as the documentation says, and a
    notice says so (``notices``)."""
    path = None
    name_word = ""
    for word in words:
        key = _key(word) or ""
        limit = game.limit(word) if key else None
        if key in SWITCHES or key in game.switches:
            setattr(launch, key.lower(), True)
        elif key in PROFILES:
            launch.profile = key
        elif limit is not None:
            launch.score_limit = limit
        elif _is_path(word):
            path = word                       # the last path given is the one used
        else:
            # "The name used is the LAST word on the command line that is NOT otherwise
            # recognized as a command" -- "Schoenberger will give you Schoenbe". Bytes
            # that are not UTF-8 (a word typed on a system in another encoding) are "?".
            launch.name = clean_name(plain(word))
            name_word = word
    if notices is not None and name_word.isascii() and name_word.isdigit() and game.limits:
        notices.append(f"{name_word} is not a score limit ({game.limits}): it is taken as your name.")
    return path


def _is_path(word: str) -> bool:
    """ "Valid paths must start with a backslash (\\) or a drive letter and colon (B:)
    or parent directory dots (..)"; the port also takes / and ./ for today's systems."""
    return (word.startswith(("\\", "/", "..", "./", ".\\"))
            or word == "."
            or re.match(r"[A-Za-z]:", word) is not None)


def _check_path(word: str | None, notices: list[str]) -> Path:
    """The directory for the files, always absolute.

    "If a path is given, it is tested at game startup, and if it is invalid for any
    reason, the current directory will be made the default path." Absolute, because
    the current directory is taken now: pyxel's start-up changes it later. Any reason
    includes one the system gives (a name too long for it, a loop of links).
    """
    here = _current_directory()
    if word is None:
        return here
    try:
        path = _native(word)
        if path is not None and path.is_dir():
            return path.resolve()
    except (OSError, ValueError, RuntimeError):
        pass
    notices.append(f"The path {_shown(word)} is not a usable directory: using the current directory.")
    return here


def _current_directory() -> Path:
    try:
        return Path.cwd()
    except OSError as exc:
        raise UsageError(f"the current directory cannot be used ({_why(exc)})") from None


def _native(word: str) -> Path | None:
    """A DOS path in this system's terms; None where it cannot exist (B: on Linux)."""
    if os.name == "nt":
        return Path(word)
    if re.match(r"[A-Za-z]:", word):
        return None   # no drive letters here
    return Path(word.replace("\\", "/"))


# ---- list and view -----------------------------------------------------------------

def _list(words: list[str], out: TextIO, game: Game) -> int:
    """ "To list all of the contents of the statistics file from the DOS prompt"."""
    launch = Launch()
    notices: list[str] = []
    path = _check_path(_read_words(words, launch, game), notices)
    if launch.nodisk:
        notices.append("NODISK: the statistics file is not read.")
    else:
        notices += game.list_players(path)
    say(out, "".join(line + "\n" for line in notices))
    return 0


def documentation(game: Game) -> str:
    """The text of the game's documentation, shipped inside its package."""
    return resources.files(game.package).joinpath(game.doc_file).read_text(encoding="utf-8")


def _view(out: TextIO, game: Game) -> int:
    """ "To list the contents of this documentation file from the DOS prompt"."""
    try:
        text = documentation(game)
    except OSError:
        print(f"{game.program}: {game.doc_file} is missing from this installation.", file=sys.stderr)
        return 1
    say(out, text)
    return 0
