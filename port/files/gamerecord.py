"""The game record's text, what both games' records share (docs/records.md): the lines
and their numbers, the header, the seats' names, the rules line, the check of a record
against its replay, the error that names the line, and saving a record under a name
that never overwrites an earlier one. Plain Python: no pyxel, and no game's rules.

A game record is plain UTF-8 text a person can read, one fact a line::

    GinRummy game record, version 1
    Program: GinRummy 0.1.0
    Seat 0: PLAYER (human)
    ...
    Hand 1: COMPUTER deals, PLAYER moves first.
    PLAYER draws 5C from the stock.
    ...
    Result: PLAYER wins 112 to 87 after 5 hands.

Each game (``port.ginrummy.record``, ``port.cribbage.record``) writes its lines by
replaying the game through its real engine, and reads a record the same way: it parses
the deal and the moves, replays them, and every line the replay gives must be the
record's line (``Reader.expect``). So a record is refused at its first line that is
not what the game gives: a move the rules do not allow, a score edited, a line cut
short. Words in a final parenthesis ("pegs 2 (fifteen for 2)") are the record's
commentary: they are not compared, so a change of wording never refuses an old record.
"""
from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from port.cards import Card, parse
from port.files.players import cut, quoted
from port.files.storage import read_regular

VERSION = 1                  # the record text's format
MAX_BYTES = 1 << 20          # a record is a few KB; a file bigger than 1 MB is not one
MAX_LINE = 4096              # no line of ours is near this long
MAX_NUMBER = 9999            # GR0001.REC .. GR9999.REC
EXTENSION = ".REC"
_COMMENT = re.compile(r"\s*\([^()]*\)\s*$")


class RecordError(ValueError):
    """A record that cannot be read or replayed: one plain sentence, naming the line."""

    def __init__(self, why: str, line: int | None = None) -> None:
        self.why = why
        self.line = line
        super().__init__(f"line {line}: {why}" if line is not None else why)


@dataclass(frozen=True)
class Line:
    number: int          # 1 is the file's first line
    text: str


# ---- reading the text -------------------------------------------------------------------

def read_file(path: str | Path) -> str:
    """A record file's text, read within bounds and without ever blocking (a FIFO in its
    place is refused at once, as the games' own files are: ``storage.read_regular``);
    RecordError if it cannot be read or is not UTF-8 text."""
    try:
        data = read_regular(path, MAX_BYTES + 1)
    except OSError as exc:
        raise RecordError(f"cannot read it ({exc.strerror or exc})") from None
    return decode(data)


BOM = b"\xef\xbb\xbf"          # UTF-8's byte-order mark: Windows Notepad begins files with it
_UTF16_BOMS = (b"\xff\xfe", b"\xfe\xff")


def decode(data: bytes) -> str:
    """A record's bytes as text: UTF-8, a byte-order mark at the start skipped. What is
    not UTF-8 text is one sentence saying where (the line, and the byte's offset in the
    file): UTF-16 (Notepad's "Unicode") is named as such, a NUL byte too."""
    if len(data) > MAX_BYTES:
        raise RecordError(f"it is over {MAX_BYTES // 1024} KB: too big to be a game record")
    if data.startswith(_UTF16_BOMS) or _looks_utf16(data):
        raise RecordError("it is UTF-16 text, and a game record is UTF-8 (save it again as UTF-8)")
    start = len(BOM) if data.startswith(BOM) else 0
    nul = data.find(b"\0", start)
    if nul >= 0:
        raise RecordError(f"a NUL byte at offset {nul} of the file: it is not a text file",
                          _line_at(data, start, nul))
    try:
        return data[start:].decode("utf-8")
    except UnicodeDecodeError as exc:
        at = start + exc.start
        raise RecordError(f"a byte that is not UTF-8 text (0x{data[at]:02x} at offset {at} of the file)",
                          _line_at(data, start, at)) from None


def _looks_utf16(data: bytes) -> bool:
    """UTF-16 without its byte-order mark: a NUL in every other byte of the start (ASCII
    text in UTF-16 is each character beside a zero byte)."""
    head = data[:64] if len(data) % 2 == 0 else data[:63]
    return len(head) >= 4 and (all(b == 0 for b in head[1::2]) or all(b == 0 for b in head[0::2]))


def _line_at(data: bytes, start: int, at: int) -> int:
    """The line (as ``numbered`` counts them) holding the byte at offset ``at``."""
    before = data[start:at].decode("utf-8", errors="replace")
    return len((before + "x").splitlines())


def numbered(text: str) -> list[Line]:
    """The lines that say something, numbered as in the file: blank lines and ``#``
    comments are skipped, trailing spaces dropped."""
    out = []
    # A record given as text (not read from a file) may still begin with the BOM.
    for n, raw in enumerate(text.removeprefix("\ufeff").splitlines(), 1):
        if len(raw) > MAX_LINE:
            raise RecordError(f"the line is over {MAX_LINE} characters long", n)
        line = raw.rstrip()
        if line and not line.lstrip().startswith("#"):
            out.append(Line(n, line))
    return out


def canon(text: str) -> str:
    """A line as it is compared: without its final commentary in parentheses, its full
    stop, and runs of spaces."""
    bare = _COMMENT.sub("", text.strip().rstrip("."))
    return " ".join(bare.rstrip(".").split())


# ---- the header -----------------------------------------------------------------------------

def title_line(title: str) -> str:
    """The first line: which game, and the version of the format."""
    return f"{title} game record, version {VERSION}"


def check_title(line: Line | None, title: str, programs: dict[str, str]) -> None:
    """The first line says this game's record of this version. ``programs``: other
    games' titles and the command that replays them (for a helpful sentence)."""
    if line is None:
        raise RecordError("it is empty: no game record")
    m = re.fullmatch(r"(\w+) game record, version (\d{1,6})", line.text.strip())
    if m is None:
        raise RecordError(f"not a {title} game record (it begins {quoted(line.text, 40)})", line.number)
    if m.group(1) != title:
        other = programs.get(m.group(1))
        where = f": replay it with {other} replay" if other else ""
        raise RecordError(f"this is a {m.group(1)} game record, not a {title} one{where}", line.number)
    if int(m.group(2)) != VERSION:
        raise RecordError(f"made by another version (record version {m.group(2)}; this one reads {VERSION})",
                          line.number)


def read_header(lines: Sequence[Line], start: int, keys: Sequence[str]) -> tuple[dict[str, Line], int]:
    """The ``Key: value`` lines from ``start`` up to the first that is none of ``keys``:
    each key's line (its value after ``": "``), and where the header ended."""
    found: dict[str, Line] = {}
    i = start
    while i < len(lines):
        key, sep, value = lines[i].text.partition(": ")
        if not sep or key not in keys:
            break
        if key in found:
            raise RecordError(f"{key} is given twice (first on line {found[key].number})", lines[i].number)
        found[key] = Line(lines[i].number, value.strip())
        i += 1
    return found, i


def needed(header: dict[str, Line], key: str, before: Line | None) -> Line:
    if key not in header:
        where = before.number if before is not None else None
        raise RecordError(f"the header has no {key!r} line", where)
    return header[key]


# ---- seats and names ---------------------------------------------------------------------

def clean(name: str) -> str:
    """A name as a record writes it: one line, no parentheses (they hold commentary)."""
    text = " ".join(str(name).replace("(", "[").replace(")", "]").split())
    return text or "PLAYER"


def seat_names(a: str, b: str) -> tuple[str, str]:
    """Two names a record can tell apart: cleaned, and numbered by seat when equal (a
    player may call himself COMPUTER; STANDARD may play STANDARD)."""
    a, b = clean(a), clean(b)
    if a == b:
        return f"{a}-0", f"{b}-1"
    return a, b


def seat_line(seat: int, name: str, role: str) -> str:
    return f"Seat {seat}: {name} ({role})"


def parse_seat(line: Line) -> tuple[str, str]:
    """``NAME (role)`` -> (name, role)."""
    m = re.fullmatch(r"(.+?) \(([^()]*)\)", line.text)
    if m is None:
        raise RecordError(f"a seat is written NAME (role), not {quoted(line.text, 40)}", line.number)
    return m.group(1), m.group(2)


def split_name(line: Line, names: Sequence[str]) -> tuple[int, str] | None:
    """The seat whose name starts the line, and the rest of the line (the longest name
    first, so "BOB" never takes "BOB SMIT"'s lines); None if no name does."""
    for seat in sorted(range(len(names)), key=lambda s: -len(names[s])):
        prefix = names[seat] + " "
        if line.text.startswith(prefix):
            return seat, line.text[len(prefix):]
    return None


# ---- the rules line ---------------------------------------------------------------------------

Codec = tuple[Callable[[Any], str], Callable[[str], Any]]   # (to text, from text)


def yes_no(flag: bool) -> str:
    return "yes" if flag else "no"


def flag(text: str) -> bool:
    if text not in ("yes", "no"):
        raise ValueError(f"expected yes or no, not {quoted(text, 40)}")
    return text == "yes"


def number(text: str) -> int:
    if not (text.isascii() and text.isdigit() and len(text) <= 6):
        raise ValueError(f"expected a whole number, not {quoted(text, 40)}")
    return int(text)


YES_NO: Codec = (yes_no, flag)
NUMBER: Codec = (str, number)


def rules_text(value: object, codecs: dict[str, Codec]) -> str:
    """``key=value`` for each field of ``value`` the codecs name, in their order."""
    return " ".join(f"{key}={to(getattr(value, key))}" for key, (to, _) in codecs.items())


def parse_rules(line: Line, codecs: dict[str, Codec]) -> dict[str, Any]:
    """The fields of a ``key=value ...`` line: each key known, once. Fields not given
    keep their defaults (the caller's dataclass checks the values together)."""
    out: dict[str, Any] = {}
    for word in line.text.split():
        key, eq, text = word.partition("=")
        if not eq or key not in codecs:
            raise RecordError(f"{quoted(word, 40)} is not one of the rules (they are {', '.join(codecs)})",
                              line.number)
        if key in out:
            raise RecordError(f"the rule {key} is given twice", line.number)
        try:
            out[key] = codecs[key][1](text)
        except ValueError as exc:
            raise RecordError(f"{key}: {exc}", line.number) from None
    return out


# The rules in a player's words (format version 1 since 0.2: "Rules: score limit 61,
# skunking yes"), each field by its words and its value; the older ``key=value`` lines
# ("Rules: limit=61 skunking=yes") are read as ever (docs/records.md).
RuleWords = dict[str, tuple[str, "Codec | None"]]   # field -> (its words, its value's codec if not the field's)


def rules_words(value: object, codecs: dict[str, Codec], words: RuleWords) -> str:
    """"score limit 61, skunking yes": each field of ``value`` the codecs name, in their
    order, by its words."""
    parts = []
    for key, (to, _) in codecs.items():
        label, own = words[key]
        parts.append(f"{label} {(own[0] if own else to)(getattr(value, key))}")
    return ", ".join(parts)


def parse_rules_words(line: Line, codecs: dict[str, Codec], words: RuleWords) -> dict[str, Any]:
    """The fields of a rules line in words (``rules_words``): each known, once."""
    labels = sorted(((label, key) for key, (label, _) in words.items()), key=lambda p: -len(p[0]))
    out: dict[str, Any] = {}
    for item in (part.strip() for part in line.text.split(", ")):
        key = next((k for label, k in labels if item.startswith(label + " ")), None)
        if key is None:
            raise RecordError(f"{quoted(item, 40)} is not one of the rules (they are "
                              f"{', '.join(label for label, _ in words.values())})", line.number)
        label, own = words[key]
        if key in out:
            raise RecordError(f"the rule {label} is given twice", line.number)
        try:
            out[key] = (own[1] if own else codecs[key][1])(item[len(label):].strip())
        except ValueError as exc:
            raise RecordError(f"{label}: {exc}", line.number) from None
    return out


def in_words(head: Head, key: str) -> bool:
    """Whether the record's rules line ``key`` is in words (not the older ``key=value``)."""
    return "=" not in head.rules[key].text


# ---- cards ---------------------------------------------------------------------------------

def cards_text(cards: Iterable[int]) -> str:
    return " ".join(str(Card(c)) for c in cards) or "none"


def parse_cards(text: str, line: Line, count: int | Sequence[int] | None = None) -> list[Card]:
    """Cards written "AS TD"; ``count`` how many (one number, or the numbers allowed)."""
    text = text.strip().rstrip(".")
    try:
        cards = [] if text == "none" else parse(text)
    except ValueError as exc:
        raise RecordError(str(exc), line.number) from None
    if len(set(cards)) != len(cards):
        raise RecordError("a card is written twice", line.number)
    allowed = (count,) if isinstance(count, int) else count
    if allowed is not None and len(cards) not in allowed:
        want = " or ".join(map(str, allowed))
        raise RecordError(f"{want} cards are needed here, not {len(cards)}", line.number)
    return cards


def parse_card(text: str, line: Line) -> Card:
    return parse_cards(text, line, 1)[0]


# ---- the check: the record's lines against the replay's --------------------------------------

class Reader:
    """A record's lines under a cursor. A replay calls ``expect`` with each line it
    gives, in order: the record must have that line there (``canon`` of both)."""

    def __init__(self, lines: Sequence[Line]) -> None:
        self.lines = list(lines)
        self.at = 0

    @property
    def done(self) -> bool:
        return self.at >= len(self.lines)

    def peek(self) -> Line | None:
        return self.lines[self.at] if self.at < len(self.lines) else None

    @property
    def last(self) -> Line | None:
        return self.lines[self.at - 1] if self.at else None

    def expect(self, text: str) -> Line:
        line = self.peek()
        if line is None:
            last = self.last
            raise RecordError(f"the record stops here, cut short: {quoted(canon(text), 120)} should follow",
                              last.number if last is not None else None)
        if canon(line.text) != canon(text):
            raise RecordError(f"the record says {quoted(canon(line.text), 120)}, but the game gives {quoted(canon(text), 120)}",
                              line.number)
        self.at += 1
        return line

    def finish(self) -> None:
        line = self.peek()
        if line is not None:
            raise RecordError(f"nothing may follow the result, not {quoted(line.text, 40)}", line.number)


class Writer:
    """The writing side of a replay: every line it gives is the record's next line."""

    def __init__(self) -> None:
        self.lines: list[str] = []

    def expect(self, text: str) -> None:
        self.lines.append(text)

    def finish(self) -> None:
        pass

    @property
    def text(self) -> str:
        return "".join(line + "\n" for line in self.lines)


# ---- the header's facts, both games ---------------------------------------------------------

BASE_KEYS = ("Program", "Date", "Seat 0", "Seat 1", "Seed")


@dataclass(frozen=True)
class Meta:
    """Who played, and when: the header's facts the rules do not need."""

    names: tuple[str, str] = ("PLAYER", "COMPUTER")
    roles: tuple[str, str] = ("human", "computer")
    program: str = ""              # "GinRummy 0.1.0"; empty: the game writing it names itself
    date: str | None = None        # YYYY-MM-DD, when known
    seed: int | None = None        # the generator's seed the deals came from, when known

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", seat_names(*self.names))
        object.__setattr__(self, "roles", (clean(self.roles[0]), clean(self.roles[1])))


def head_lines(title: str, meta: Meta, rules: Sequence[str], program: str) -> list[str]:
    """The header: which game, the program, the date, the seats, the game's rules lines
    (``rules``), the seed. ``program`` names the writer when ``meta`` names none."""
    lines = [title_line(title), f"Program: {meta.program or program}"]
    if meta.date is not None:
        lines.append(f"Date: {meta.date}")
    lines += [seat_line(s, meta.names[s], meta.roles[s]) for s in (0, 1)]
    lines += rules
    if meta.seed is not None:
        lines.append(f"Seed: {meta.seed}")
    return lines


@dataclass
class Head:
    """A record's header, read: its lines, its facts, and the game's rules lines."""

    lines: list[Line]
    meta: Meta
    rules: dict[str, Line]          # the game's rules keys -> their lines
    end: Line                       # the first line after the header (its last, if none)


def read_head(text: str, title: str, programs: dict[str, str], rule_keys: Sequence[str]) -> Head:
    """The lines of a record and its header, checked: the title, both seats (different
    names), a program, the game's rules lines (``rule_keys``), a date and a seed if given."""
    lines = numbered(text)
    check_title(lines[0] if lines else None, title, programs)
    header, end = read_header(lines, 1, (*BASE_KEYS, *rule_keys))
    # where a missing header line is reported: the first line after the header, or the
    # header's last line when the record stops there
    stop = lines[end] if end < len(lines) else lines[-1]
    names, roles = [], []
    for seat in (0, 1):
        name, role = parse_seat(needed(header, f"Seat {seat}", stop))
        names.append(name)
        roles.append(role)
    if names[0] == names[1]:
        raise RecordError("the two seats have the same name", header["Seat 1"].number)
    seed = None
    if "Seed" in header:
        seed_text = header["Seed"].text
        if not (seed_text.isascii() and seed_text.isdigit() and len(seed_text) <= 10):
            raise RecordError(f"the seed is a whole number, not {quoted(seed_text, 40)}", header["Seed"].number)
        seed = int(seed_text)
    date = header["Date"].text if "Date" in header else None
    meta = Meta((names[0], names[1]), (roles[0], roles[1]), needed(header, "Program", stop).text, date, seed)
    rules = {key: needed(header, key, stop) for key in rule_keys}
    return Head(lines, meta, rules, stop)


def rules_of(head: Head, codecs: dict[str, dict[str, Codec]], make: Callable[..., Any],
             words: RuleWords | None = None) -> Any:
    """The game's rules from its rules lines (``codecs``: per line's key, its fields),
    made by ``make`` (the game's options class, which checks them together). A line in
    a player's words is read by ``words``; an older ``key=value`` line as it was."""
    fields: dict[str, Any] = {}
    for key, fields_codecs in codecs.items():
        if words is not None and in_words(head, key):
            fields.update(parse_rules_words(head.rules[key], fields_codecs, words))
        else:
            fields.update(parse_rules(head.rules[key], fields_codecs))
    try:
        return make(**fields)
    except (TypeError, ValueError) as exc:
        raise RecordError(f"the rules cannot be played: {exc}", head.rules[next(iter(codecs))].number) from None


# ---- a game that stopped before its end ---------------------------------------------------------

# How a game can end before its score is reached (a room game: docs/room.md), as the
# record's Result line says it: "Result: Stan wins: Ann forfeited on the clock in hand 2,
# Ann 30, Stan 45." The hand it stopped in is written as far as it went.
ENDINGS = {"resigned": "resigned", "clock": "forfeited on the clock", "away": "did not come back"}


@dataclass(frozen=True)
class Ending:
    """A game that stopped before its end: how (``resigned``, ``clock``, ``away``), and
    the seat that lost by it (the other seat wins, whatever the score)."""

    how: str
    loser: int

    def __post_init__(self) -> None:
        if self.how not in ENDINGS or self.loser not in (0, 1):
            raise ValueError(f"a game stops by {', '.join(ENDINGS)}, lost by seat 0 or 1")

    @property
    def winner(self) -> int:
        return 1 - self.loser


def ending_line(ending: Ending, names: Sequence[str], hand: int, scores: Sequence[int]) -> str:
    """The Result line of a game that stopped in hand ``hand`` at ``scores``."""
    w, lost = ending.winner, ending.loser
    return (f"Result: {names[w]} wins: {names[lost]} {ENDINGS[ending.how]} in hand {hand}, "
            f"{names[0]} {scores[0]}, {names[1]} {scores[1]}.")


def parse_ending(line: Line, names: Sequence[str]) -> Ending | None:
    """The ending a Result line says (``ending_line``), or None if it says none. The
    hand and the scores are checked when the replay gives the line."""
    text = canon(line.text)
    for lost in (0, 1):
        for how, words in ENDINGS.items():
            if text.startswith(f"Result: {names[1 - lost]} wins: {names[lost]} {words} in hand "):
                return Ending(how, lost)
    if re.match(r"Result: .+ wins: .+ (resigned|forfeited on the clock|did not come back) in hand ", text):
        raise RecordError(f"the Result line should name one seat ({names[0]} or {names[1]}) as the one who "
                          f"stopped and the other as the winner", line.number)
    return None


# ---- where a replay's moves come from ---------------------------------------------------------

class FromText:
    """Reading: the record's lines under a cursor. Each line the replay gives is
    checked (``expect``); a move is read from the line where the game waits for one
    (``move``, with the game's own ``parse_move``)."""

    def __init__(self, lines: Sequence[Line], names: tuple[str, str],
                 parse_move: Callable[[Line, tuple[str, str]], Any]) -> None:
        self.reader = Reader(lines)
        self.names = names
        self.parse_move = parse_move

    def expect(self, text: str) -> int | None:
        return self.reader.expect(text).number

    def hand_line(self) -> Line | None:
        """The next line if it starts a hand ("Hand N: ...")."""
        line = self.reader.peek()
        return line if line is not None and line.text.startswith("Hand ") else None

    def lines_from_here(self, count: int, k: int) -> list[Line]:
        """The ``count`` lines at the cursor (a hand's deal), not consumed."""
        at = self.reader.at
        lines = self.reader.lines
        if at + count > len(lines):
            raise RecordError(f"hand {k}'s deal is cut short", lines[-1].number)
        return lines[at:at + count]

    def move(self, k: int, to_move: int) -> Any:
        """The move at the cursor; None where the game stopped before its end (its
        Result line says how: ``ending``)."""
        line = self.reader.peek()
        who = self.names[to_move]
        if line is not None and parse_ending(line, self.names) is not None:
            return None
        if line is None:
            last = self.reader.last
            raise RecordError(f"the record stops in the middle of hand {k}: {who} is to move",
                              last.number if last else None)
        action = self.parse_move(line, self.names)
        if action is None:
            raise RecordError(f"a move of {who} should come here, not {quoted(canon(line.text), 120)}", line.number)
        return action

    def ending(self) -> Ending | None:
        """How the game stopped before its end, if its Result line says so (not consumed)."""
        line = self.reader.peek()
        return parse_ending(line, self.names) if line is not None else None

    def where(self) -> int | None:
        """The line the reading has come to (the last one when it is at the end)."""
        line = self.reader.peek() or self.reader.last
        return line.number if line is not None else None

    def finish(self) -> None:
        self.reader.finish()


    def dealer(self, head: Line, k: int, rest: str = "", say: str = "") -> tuple[int, re.Match[str]]:
        """Hand k's first line, "Hand k: NAME deals" then ``rest`` (a pattern; ``say``
        as a person writes it): the dealer's seat, and the match for ``rest``'s groups."""
        m = re.fullmatch(rf"Hand (\d+): (.+?) deals{rest}", canon(head.text))
        if m is None or int(m.group(1)) != k:
            raise RecordError(f"'Hand {k}: ... deals{say}.' should come here", head.number)
        seat = self.names.index(m.group(2)) if m.group(2) in self.names else None
        if seat is None:
            raise RecordError(f"the dealer is {self.names[0]} or {self.names[1]}, not {quoted(m.group(2), 40)}",
                              head.number)
        return seat, m

    def dealt(self, line: Line, seat: int, size: int) -> list[Card]:
        """A "NAME is dealt: cards" line of the seat, with ``size`` cards."""
        return parse_cards(self.after(line, f"{self.names[seat]} is dealt: "), line, size)

    @staticmethod
    def after(line: Line, prefix: str) -> str:
        """The rest of a line that must start with ``prefix``."""
        if not line.text.startswith(prefix):
            raise RecordError(f"'{prefix.strip()} ...' should come here", line.number)
        return line.text[len(prefix):]


class FromGame:
    """Writing: the hands as dealt and as ended (``hands``: pairs of states); each
    line the replay gives is the record's next line. ``deal_of(start)`` is the game's
    deal of a hand as dealt, ``moves_of(end)`` the moves of a hand as it ended."""

    def __init__(self, hands: Sequence[tuple[Any, Any]], deal_of: Callable[[Any], Any],
                 moves_of: Callable[[Any], Iterable[Any]], ending: Ending | None = None) -> None:
        self.out = Writer()
        self.hands = list(hands)
        self._ending = ending          # the game stopped before its end: its last hand as far as it went
        self.deal_of = deal_of
        self.moves_of = moves_of
        self.pending: Iterator[Any] = iter(())

    def expect(self, text: str) -> int | None:
        self.out.expect(text)
        return None

    def deal(self, k: int) -> Any:
        """Hand k's deal (1 the first), and its moves next; None after the last."""
        if k > len(self.hands):
            return None
        start, end = self.hands[k - 1]
        self.pending = iter(list(self.moves_of(end)))
        return self.deal_of(start)

    def move(self, k: int, to_move: int) -> Any:
        try:
            return next(self.pending)
        except StopIteration:
            if self._ending is not None and k == len(self.hands):
                return None               # the game stopped here
            raise RecordError(f"hand {k} was not played to its end") from None

    def ending(self) -> Ending | None:
        return self._ending

    def where(self) -> int | None:
        return None

    def finish(self) -> None:
        pass


def read_move(line: Line, names: tuple[str, str],
              moves: Sequence[tuple[re.Pattern[str], Any]]) -> tuple[int, Any, tuple[str, ...]] | None:
    """What a move line says: the seat whose name starts it, the first of ``moves``
    (pattern, act) its words match (without commentary), and the pattern's groups;
    None if the line is no move."""
    found = split_name(line, names)
    if found is None:
        return None
    seat, rest = found
    rest = canon(rest)
    for pattern, act in moves:
        m = pattern.fullmatch(rest)
        if m:
            return seat, act, m.groups()
    return None


def before_each(steps: Iterable[Any]) -> Iterator[tuple[Any, Any]]:
    """Each move step (``kind`` "move") with the step just before it: the state in
    which its seat decided."""
    before = None
    for st in steps:
        if st.kind == "move" and before is not None and st.action is not None:
            yield before, st
        before = st


def kept_hands(hands: Iterable[Any]) -> list[tuple[Any, Any]]:
    """The (as dealt, as ended) states of a game's hand records, played with
    ``keep=True`` (both games' ``HandRecord.start`` and ``end``)."""
    out = []
    for h in hands:
        if h.start is None or h.end is None:
            raise ValueError("the game was played without keep=True: its deals were not kept")
        out.append((h.start, h.end))
    return out


def by_seat(names: Sequence[str], name: str | None,
            lines_of: Callable[[int], list[str]]) -> list[str]:
    """Each seat's lines under its name (or only the seat called ``name``), a blank line
    between them: how ``review FILE [NAME]`` prints a record's seats in both games.
    ``ValueError`` for a name that is no seat's."""
    if name is not None and name not in names:
        seats = ", ".join(cut(n, 40) for n in names)
        raise ValueError(f"no seat of this record is named {quoted(name)} (the seats: {seats})")
    out: list[str] = []
    for seat, seat_name in enumerate(names):
        if name is None or seat_name == name:
            out += [f"{seat_name} (seat {seat}):", *lines_of(seat), ""]
    return out[:-1]


def said(text: str, names: Sequence[str]) -> str:
    """An engine's sentence in the record's names: "seat 0" is the first seat's name."""
    for seat, name in enumerate(names):
        text = text.replace(f"seat {seat}", name)
    return text


# ---- saving under a new name ---------------------------------------------------------------

def record_name(prefix: str, n: int, digits: int = 4) -> str:
    """GR0001.REC: a DOS 8.3 name, the game's two letters and a number."""
    return f"{prefix}{n:0{digits}d}{EXTENSION}"


def save_new(backend: Any, prefix: str, data: bytes) -> str:
    """Write ``data`` under the first unused name ``PREFIX0001.REC`` and up in the
    backend (a directory, or a browser's storage), under its lock so two copies of a
    game never take the same name. Returns the name; OSError if it cannot be written
    (or every name is taken)."""
    with backend.lock() if hasattr(backend, "lock") else nullcontext(True) as held:
        if held is False:       # never without the lock (docs/files.md): it may be tried again
            raise OSError("another copy holds the lock")
        for n in range(1, MAX_NUMBER + 1):
            name = record_name(prefix, n)
            if not _taken(backend, name):
                backend.write(name, data)
                return name
    raise OSError(f"{record_name(prefix, 1)} to {record_name(prefix, MAX_NUMBER)} are all taken")


def _taken(backend: Any, name: str) -> bool:
    """Whether a name is in use (in a directory, even by a broken link or a folder)."""
    directory = getattr(backend, "directory", None)
    if directory is not None:
        path = Path(directory) / name
        return path.exists() or path.is_symlink()
    return backend.read(name) is not None


__all__ = ["ENDINGS", "Ending", "ending_line", "parse_ending", "Codec", "FromGame", "FromText", "Head", "Line", "Meta", "NUMBER", "Reader", "RecordError",
           "VERSION", "Writer", "YES_NO", "before_each", "by_seat", "head_lines", "kept_hands", "read_head", "read_move",
           "rules_of", "said",
           "canon", "cards_text", "check_title", "clean", "decode", "needed", "numbered",
           "parse_card", "parse_cards", "parse_rules", "parse_seat", "read_file", "read_header",
           "record_name", "rules_text", "rules_words", "parse_rules_words", "in_words", "RuleWords",
           "save_new", "seat_line", "seat_names", "split_name",
           "title_line"]
