"""GinRummy's files: GINRUMMY.CFG, GINRUMMY.STA and GINRUMMY.SCR, and the store the
Main unit uses.

What is stored follows the original's documentation (quoted where a rule comes from
it); the byte layout is the shared record file (``port.files.records``), the keeping
safe is the shared mechanism (``port.files.session`` and ``storage``). Here are only
GinRummy's records and its rules for them.
"""
from __future__ import annotations

import datetime
from dataclasses import dataclass, field, replace
from enum import Enum
from fractions import Fraction
from pathlib import Path
from typing import Any

from port.files import players as roster
from port.files.formats import POINTERS, ROOM_FIELDS, ListFormat, OptionsFormat, check_room_text
from port.files.players import DEFAULT_NAME, check_name, clean_name
from port.files.records import FileError, capped, check_count, day, fields, flag, number, yn
from port.files.session import Files, peek
from port.files.storage import Backend, DiskBackend
from port.files.storage import backend_for as _backend_for
from port.ginrummy.rules.options import (BONUS_CHOICES, DOUBLER_SUITS, LIMIT_MAX, SCORING_METHODS, TABLE_FIELDS,
                                Options)

GAME = "GINRUMMY"
CFG = "GINRUMMY.CFG"
STA = "GINRUMMY.STA"
SCR = "GINRUMMY.SCR"
NAMES = (CFG, STA, SCR)
MAX_SCORES = 20             # "your 20 best average scores"
SORTS = ("RANK", "SUIT")
LEVELS = ("STANDARD", "EXPERT")  # ours: the computer's level when EASY is NO
# The table rules of the other sources (issue 12), as the engine's Options names them.
SCORINGS = SCORING_METHODS         # TOTAL (the original's), BOXES, GAME_ONLY, FLOP, HOLLYWOOD
BOX_BONUSES = BONUS_CHOICES        # the card room's 25, and the bonuses' other steps
# The options whose points are the original's running total: only these games enter the
# high scores and the statistics' points (docs/files.md, "Other scoring methods").
COMPARABLE_SCORING = "TOTAL"
TABLE_RULES = TABLE_FIELDS         # the Config fields passed to the engine's Options as they are


# ---- the records ---------------------------------------------------------------------

@dataclass(frozen=True)
class Config:
    """The options of GINRUMMY.CFG, written by SAVE and loaded at start.

    NOBLANK is not here: "At present, the NOBLANK option is not saved".
    """

    name: str = DEFAULT_NAME
    gin_bonus: int = 25
    undercut_bonus: int = 25
    score_limit: int = 100
    oklahoma: bool = False
    big_cards: bool = False
    easy: bool = False
    knocking: bool = True
    pointer: int = 0            # 0..6, the seven pointer shapes
    sort: str = "RANK"          # RANK or SUIT
    level: str = "STANDARD"     # ours: STANDARD or EXPERT, used when easy is False
    arrange: bool = False       # table rule: sort buttons and manual arranging on screen
    # The other table rules (issue 12; docs/choices.md "Table rules"): the engine's Options
    # fields of the same names. The defaults are the original's rules.
    knock_deck: bool = False    # the knock card turned from a second deck (003)
    scoring: str = "TOTAL"      # one of SCORINGS
    doublers: tuple[str, ...] = ()   # DOUBLER_SUITS on the knock card's suit double a hand
    shutout: bool = False       # a player who scores nothing: the winner's final doubled
    upcard_offer: bool = False  # the first upcard offered, and declined or taken (001)
    deal_eleven: bool = False   # 11 cards to the non-dealer, who starts the pile (003)
    random_first: bool = False  # the first dealer chosen at random (003)
    winner_deals: bool = False  # the hand's winner deals the next (003)
    box_bonus: int = 25         # each box more than the opponent's, at the game's end
    # The card room (docs/room.md, "The player's side"): the last address, the session's
    # token, and the opponent of a room game left on (a rejoin is offered); "" when none.
    room_url: str = ""
    room_token: str = ""
    room_with: str = ""
    room_name: str = ""

    def __post_init__(self) -> None:
        check_name(self.name)
        for what in ROOM_FIELDS:
            check_room_text(getattr(self, what), what)
        for bonus in (self.gin_bonus, self.undercut_bonus):
            if bonus not in BONUS_CHOICES:
                raise FileError(f"a bonus is one of {BONUS_CHOICES}, not {bonus!r}")
        check_count(self.score_limit, "the score limit", LIMIT_MAX)
        if self.pointer not in range(POINTERS):
            raise FileError(f"the pointer is 0 to {POINTERS - 1}")
        if self.sort not in SORTS:
            raise FileError(f"the sort is one of {SORTS}")
        if self.level not in LEVELS:
            raise FileError(f"the level is one of {LEVELS}")
        if self.scoring not in SCORINGS:
            raise FileError(f"the scoring is one of {SCORINGS}")
        if (not isinstance(self.doublers, tuple) or len(set(self.doublers)) != len(self.doublers)
                or not set(self.doublers) <= set(DOUBLER_SUITS)):
            raise FileError(f"the doublers are some of {DOUBLER_SUITS}, each once")
        if type(self.box_bonus) is not int or self.box_bonus not in BOX_BONUSES:
            raise FileError(f"the box bonus is one of {BOX_BONUSES}")
        for yes_no in (self.oklahoma, self.big_cards, self.easy, self.knocking, self.arrange,
                       self.knock_deck, self.shutout, self.upcard_offer, self.deal_eleven,
                       self.random_first, self.winner_deals):
            if not isinstance(yes_no, bool):
                raise FileError("a YES/NO option must be True or False")

    @property
    def knock_card(self) -> str:
        """Where the knock value comes from: FIXED (the original's 10), OKLAHOMA (the
        first upcard) or DECK (a card turned from a second deck). The screens keep
        OKLAHOMA and the deck apart; a file that has both (edited by hand) takes the deck."""
        if self.knock_deck:
            return "DECK"
        return "OKLAHOMA" if self.oklahoma else "FIXED"

    def options(self) -> Options:
        """The rules part of the configuration. The screens keep the rules consistent;
        a file edited by hand into a mix the engine refuses plays as the screens would
        have left it: the knock deck over Oklahoma, no doublers without the knock deck,
        no deal of 11 with an upcard (Oklahoma's or the offer's)."""
        deck = self.knock_deck
        oklahoma = self.oklahoma and not deck
        rules = {k: getattr(self, k) for k in TABLE_RULES}
        rules["doublers"] = self.doublers if deck else ()
        rules["deal_eleven"] = self.deal_eleven and not (oklahoma or self.upcard_offer)
        return Options(
            gin_bonus=self.gin_bonus,
            undercut_bonus=self.undercut_bonus,
            score_limit=self.score_limit,
            oklahoma=oklahoma,
            knocking=self.knocking,
            **rules,
        )

    def with_(self, **changes: Any) -> Config:
        return replace(self, **changes)


@dataclass(frozen=True)
class PlayerStats:
    """One line of GINRUMMY.STA: a player's totals against the computer.

    The documentation keeps "average score per hand against the computer, the total
    number of games won and lost, the total number of hands played and the player's
    name". We keep the sums the average comes from (the player's points and hands, and
    the computer's points in the same games), so it never drifts by rounding. Each is
    at most LongInt's 2,147,483,647, as the original's would have been.
    """

    name: str
    won: int = 0
    lost: int = 0
    drawn: int = 0
    hands: int = 0
    points: int = 0     # the player's final scores, added up
    against: int = 0    # the computer's final scores in the same games

    def __post_init__(self) -> None:
        check_name(self.name)
        for what in ("won", "lost", "drawn", "hands", "points", "against"):
            check_count(getattr(self, what), what)

    @property
    def games(self) -> int:
        """Games played: "Games played to a draw ... are also counted"."""
        return self.won + self.lost + self.drawn

    @property
    def average(self) -> float:
        """The player's average score per hand (0.0 before the first hand)."""
        return self.points / self.hands if self.hands else 0.0

    @property
    def average_against(self) -> float:
        """The computer's average score per hand in this player's games."""
        return self.against / self.hands if self.hands else 0.0


@dataclass(frozen=True)
class HighScore:
    """One line of GINRUMMY.SCR.

    "the final score divided by the number of hands played. Also saved is your name
    ..., the final score, the score limit, the number of hands played, whether the
    Oklahoma option is on or off (Y or N), and the date the game was played."
    """

    name: str
    score: int
    limit: int
    hands: int
    oklahoma: bool
    date: datetime.date

    def __post_init__(self) -> None:
        check_name(self.name)
        check_count(self.score, "the score")
        check_count(self.limit, "the limit", LIMIT_MAX)
        check_count(self.hands, "the hands")
        if self.score == 0 or self.hands == 0:
            raise FileError("zero average scores are not saved")

    @property
    def average(self) -> float:
        return self.score / self.hands

    @property
    def _rank_key(self) -> Fraction:
        return Fraction(self.score, self.hands)


class Result(Enum):
    WON = "won"
    LOST = "lost"
    DRAW = "draw"


def result_of(human_score: int, computer_score: int) -> Result:
    """Who is ahead; used for a game quit before its end (equal scores are a draw)."""
    if human_score > computer_score:
        return Result.WON
    if human_score < computer_score:
        return Result.LOST
    return Result.DRAW


@dataclass(frozen=True)
class GameRecord:
    """What the Main unit reports when a game ends or the player quits it.

    ``date`` is passed in: the logic never reads the clock.
    """

    name: str
    human_score: int
    computer_score: int
    hands: int
    score_limit: int
    oklahoma: bool
    result: Result
    date: datetime.date
    finished: bool = True     # False: the player quit before the end of the game
    # The table rule SCORING the game was played under (Config.scoring). Only the
    # original's TOTAL enters the high scores and the statistics' hands and points;
    # every game counts as won, lost or drawn (docs/files.md, "Other scoring methods").
    scoring: str = COMPARABLE_SCORING

    @property
    def comparable(self) -> bool:
        return self.scoring == COMPARABLE_SCORING


@dataclass(frozen=True)
class Recorded:
    """What ``Store.record_game`` did."""

    stats: PlayerStats | None     # the player's new totals (None: not counted)
    rank: int | None              # 1..20 in the high scores, or None


def doubler_text(suits: tuple[str, ...]) -> str:
    return ",".join(suits)


def doubler_list(text: str) -> tuple[str, ...]:
    """``SPADES,HEARTS`` (or empty: none) as a tuple in DOUBLER_SUITS order."""
    suits = [t for t in text.split(",") if t] if text else []
    if len(set(suits)) != len(suits) or not set(suits) <= set(DOUBLER_SUITS):
        raise FileError(f"expected doublers among {DOUBLER_SUITS}, not {text[:30]!r}")
    return tuple(s for s in DOUBLER_SUITS if s in suits)


# ---- records as lines --------------------------------------------------------------

CFG_FORMAT: OptionsFormat[Config] = OptionsFormat(CFG, Config, {
    "name": (str, str),
    "gin_bonus": (str, number),
    "undercut_bonus": (str, number),
    "score_limit": (str, number),
    "oklahoma": (yn, flag),
    "big_cards": (yn, flag),
    "easy": (yn, flag),
    "knocking": (yn, flag),
    "pointer": (str, number),
    "sort": (str, str),
    "level": (str, str),
    "arrange": (yn, flag),
    "knock_deck": (yn, flag),
    "scoring": (str, str),
    "doublers": (doubler_text, doubler_list),
    "shutout": (yn, flag),
    "upcard_offer": (yn, flag),
    "deal_eleven": (yn, flag),
    "random_first": (yn, flag),
    "winner_deals": (yn, flag),
    "box_bonus": (str, number),
    "room_url": (str, str),
    "room_token": (str, str),
    "room_with": (str, str),
    "room_name": (str, str),
}, added=frozenset({"arrange", *TABLE_RULES, *ROOM_FIELDS}))


def config_lines(cfg: Config) -> list[str]:
    return CFG_FORMAT.encode(cfg)


def stats_line(s: PlayerStats) -> str:
    # The name goes last: it may hold spaces and anything printable.
    return f"{s.won} {s.lost} {s.drawn} {s.hands} {s.points} {s.against} {s.name}"


def stats_from(line: str) -> PlayerStats:
    *counts, name = fields(line, 7, "statistics")
    return PlayerStats(name, *(number(c) for c in counts))


def score_line(h: HighScore) -> str:
    return f"{h.date.isoformat()} {h.score} {h.limit} {h.hands} {yn(h.oklahoma)} {h.name}"


def score_from(line: str) -> HighScore:
    date, score, limit, hands, oklahoma, name = fields(line, 6, "high score")
    return HighScore(name, number(score), number(limit, LIMIT_MAX), number(hands), flag(oklahoma), day(date))


def _ranked(scores: list[HighScore]) -> list[HighScore]:
    # A stable sort: of equal averages the older entry stays above.
    return sorted(scores, key=lambda h: -h._rank_key)[:MAX_SCORES]


STA_FORMAT: ListFormat[PlayerStats] = ListFormat(STA, "players", stats_line, stats_from, roster.unique)
SCR_FORMAT: ListFormat[HighScore] = ListFormat(SCR, "high scores", score_line, score_from, _ranked)


def backend_for(path: Path | None, platform: str | None = None, js: Any = None) -> Backend:
    """GinRummy's backend: the directory (or localStorage under ``ginrummy/``)."""
    return _backend_for(path, GAME, platform, js)


# ---- the store the Main unit uses --------------------------------------------------

@dataclass
class Store:
    """The options, statistics and high scores of one session.

    Open it with ``Store.open``. Every change goes through to the files at once, read
    again under the lock first; if they cannot be written, the store carries on in
    memory for the rest of the session.
    """

    files: Files
    config: Config = field(default_factory=Config)
    _stats: list[PlayerStats] = field(default_factory=list)
    _scores: list[HighScore] = field(default_factory=list)

    @classmethod
    def open(cls, path: Path | None = None, nodisk: bool = False,
             backend: Backend | None = None) -> Store:
        """Load the three files (path None: the current directory).

        NODISK: "disable all disk access ... both loading and saving of statistics,
        options, and high scores"; everything starts at its default.
        """
        store = cls(Files(None if nodisk else backend or backend_for(path)))
        with store.files.locked(NAMES):
            store.config = store.files.read(CFG_FORMAT, Config())
            store._stats = store.files.read(STA_FORMAT, [])
            store._scores = store.files.read(SCR_FORMAT, [])
        return store

    @property
    def nodisk(self) -> bool:
        return self.files.nodisk

    @property
    def in_memory(self) -> bool:
        return self.files.in_memory

    @property
    def high_scores_enabled(self) -> bool:
        """NODISK: "The high scores box will do nothing"."""
        return not self.nodisk

    def take_notices(self) -> list[str]:
        """Messages for the player, each given once: a damaged file, a read-only disk."""
        return self.files.take_notices()

    # -- the options

    def save_config(self, cfg: Config) -> bool:
        """SAVE in the options menu; False (with a notice) if it could not be written."""
        self.config = cfg
        return self.files.update(lambda: self.files.write(CFG_FORMAT, cfg))

    # -- statistics and high scores

    def players(self) -> list[str]:
        """The names in the statistics file, newest first (the options menu's "?")."""
        return [p.name for p in self._stats]

    def stats(self) -> list[PlayerStats]:
        return list(self._stats)

    def player(self, name: str) -> PlayerStats:
        """A player's totals; zero totals for a name not in the file."""
        name = clean_name(name)
        return roster.find(self._stats, name) or PlayerStats(name)

    def high_scores(self) -> list[HighScore]:
        """The 20 best averages, best first."""
        return list(self._scores) if self.high_scores_enabled else []

    def record_game(self, rec: GameRecord) -> Recorded:
        """Count a finished game, or a game quit before its end.

        Statistics: "at the end of each game"; a quit game only "if there was at least
        one hand played to a finish". High scores: never a zero average, and a quit
        game "only if the score of the human player is greater than zero". The files
        are read again under the lock first, so another copy of the game running on
        the same directory loses nothing either.
        """
        if rec.hands < 1:
            return Recorded(None, None)
        name = clean_name(rec.name)

        def change() -> Recorded:      # made again on the files if the lock was busy
            self._stats = self.files.read(STA_FORMAT, self._stats)
            self._scores = self.files.read(SCR_FORMAT, self._scores)
            stats = self._add_game(name, rec)
            rank = self._add_score(name, rec) if self.high_scores_enabled and rec.comparable else None
            self.files.write(STA_FORMAT, self._stats)
            if rank is not None:
                self.files.write(SCR_FORMAT, self._scores)
            return Recorded(stats, rank)

        return self.files.update(change)

    def record_quit(self, name: str, human_score: int, computer_score: int, hands: int,
                    score_limit: int, oklahoma: bool, date: datetime.date) -> Recorded:
        """A game quit mid-way: its result is whoever is ahead, a tie is a draw."""
        return self.record_game(GameRecord(
            name, human_score, computer_score, hands, score_limit, oklahoma,
            result_of(human_score, computer_score), date, finished=False))

    def _add_game(self, name: str, rec: GameRecord) -> PlayerStats:
        old = self.player(name)
        # Another scoring's points (flop gin's 1 a hand, a box sheet's finals) are not the
        # original's running totals: its hands stay out of the averages per hand.
        total = rec.comparable
        new = replace(
            old,
            won=capped(old.won + (rec.result is Result.WON)),
            lost=capped(old.lost + (rec.result is Result.LOST)),
            drawn=capped(old.drawn + (rec.result is Result.DRAW)),
            hands=capped(old.hands + rec.hands * total),
            points=capped(old.points + max(rec.human_score, 0) * total),
            against=capped(old.against + max(rec.computer_score, 0) * total),
        )
        # "added to the top of the file ... the name on the bottom of the list (the
        # oldest) is truncated"
        self._stats = roster.put(self._stats, new)
        return new

    def _add_score(self, name: str, rec: GameRecord) -> int | None:
        if rec.human_score <= 0:
            return None   # "Zero average scores (lose or draw) are not saved."
        entry = HighScore(name, rec.human_score, rec.score_limit, rec.hands, rec.oklahoma, rec.date)
        ranked = _ranked([*self._scores, entry])
        if not any(h is entry for h in ranked):
            return None
        self._scores = ranked
        return next(i for i, h in enumerate(ranked) if h is entry) + 1


# ---- for the command line ----------------------------------------------------------

def read_stats(path: Path | None = None) -> tuple[list[PlayerStats], list[str]]:
    """The statistics file, read only (``ginrummy list``): its players and any warnings.

    Unlike ``Store.open`` this changes nothing on disk.
    """
    backend = DiskBackend(Path.cwd() if path is None else Path(path))
    players, trouble = peek(backend, STA_FORMAT)
    where = backend.describe()
    if trouble == "missing":
        return [], [f"There is no {STA} in {where} yet."]
    if trouble == "foreign":
        return [], [f"{STA} was made by another version of GinRummy."]
    if trouble == "damaged":
        return players, [f"{STA} is damaged: showing the {len(players)} players that could be read."]
    if trouble is not None:
        return [], [f"Cannot read {STA} in {where}: {trouble}."]
    return players, []


def format_stats(players: list[PlayerStats]) -> str:
    """The statistics as a text table, for ``ginrummy list``."""
    head = f"{'Name':<8}  {'Games':>5}  {'Won':>5}  {'Lost':>5}  {'Drawn':>5}  {'Hands':>6}  {'Avg/hand':>8}"
    rows = [head, "-" * len(head)]
    for p in players:
        rows.append(f"{p.name:<8}  {p.games:>5}  {p.won:>5}  {p.lost:>5}  {p.drawn:>5}  "
                    f"{p.hands:>6}  {p.average:>8.2f}")
    return "\n".join(rows)

