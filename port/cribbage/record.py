"""Cribbage's game record: the text of a game a person can read (docs/records.md), the
writer, the reader, and the replay that both go through. Plain Python on the Rules
unit and the shared ``port.files.gamerecord``: no pyxel.

A record holds everything needed to play the game again exactly: the rules, each
deal (who deals, both hands in the order dealt, the starter the cut will turn) and
every move in order (the two cards each seat lays away, each card played, each GO).
What follows from them (the cut and his heels, what each card pegs and why, the go
points, each show with its count, the scores, the result) is written too, for the
reader, and checked on reading: a record is read by replaying its moves through the
real engine, and each line the replay gives must be the record's line. So every state
of the game, and each seat's ``View`` before each of its decisions, is recomputed
exactly (``decisions``).

    text = write(options, meta, [(start, end), ...])     # deals as dealt and as ended
    game = parse(text)                                   # or read(path): a GameLog
    game.steps[i].state                                  # the deal after step i
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from port import __version__
from port.cards import Card
from port.cribbage.rules.options import LIMITS, Options
from port.cribbage.rules.players import GameRecord
from port.cribbage.rules.scoring import aloud, show_phrases
from port.cribbage.rules.state import Act, Event, HandState, IllegalMove, Phase, ShowEntry, View
from port.files.gamerecord import (
    YES_NO, Codec, Ending, FromGame, FromText, Line, Meta, RecordError, RuleWords, before_each, canon,
    cards_text, ending_line, head_lines, in_words, kept_hands, number, parse_card, read_file, read_head, read_move, rules_of, rules_text,
    rules_words, said,
)

TITLE = "Cribbage"
PREFIX = "CR"                      # CR0001.REC
OTHER_GAMES = {"GinRummy": "ginrummy"}
RULE_KEYS = ("Rules",)


def _limit(text: str) -> int:
    value = number(text)
    if value not in LIMITS:
        raise ValueError(f"the limit is 121 or 61, not {value}")
    return value


RULES: dict[str, Codec] = {"limit": (str, _limit), "skunking": YES_NO}
# The rules in a player's words: "Rules: score limit 121, skunking yes".
WORDS: RuleWords = {"limit": ("score limit", None), "skunking": ("skunking", None)}


@dataclass(frozen=True)
class Deal:
    """One deal: the dealer, both hands in the order dealt, and the starter (the card
    the cut turns once both have laid away)."""

    dealer: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    starter: Card
    line: int | None = None        # the record's "Hand N" line, when read

    @classmethod
    def of(cls, hand: HandState) -> Deal:
        """The deal of a hand not yet played (a copy taken at the deal)."""
        return cls(hand.dealer, (tuple(hand.hands[0]), tuple(hand.hands[1])), hand.stock[-1])

    def state(self, scores: tuple[int, int], options: Options) -> HandState:
        d = self.dealer
        try:
            return HandState.from_cards(d, self.hands[1 - d], self.hands[d], self.starter, scores, options)
        except ValueError as exc:
            raise RecordError(f"the deal cannot be made: {exc}", self.line) from None


@dataclass(frozen=True)
class Action:
    """A move of a seat: two cards laid away, a card played, or GO (no card)."""

    seat: int
    act: Act                       # DISCARD, PLAY or GO
    cards: tuple[Card, ...] = ()
    line: int | None = None        # the record's line, when read


@dataclass(frozen=True)
class Step:
    """One step of the game as the replay viewer shows it: a deal, a move (with what
    followed at once: the cut, a go point), a box of the show, or a deal's end (the
    scores, and after the last deal the result)."""

    kind: str                      # "deal", "move", "show", "end"
    hand: int                      # 1 for the first deal
    lines: tuple[str, ...]         # the record's lines for this step
    line: int | None               # the first of them in the file, when read
    state: HandState               # the deal after this step (a copy)
    action: Action | None = None   # the move (kind "move")
    show: ShowEntry | None = None  # the box counted (kind "show")


@dataclass
class GameLog:
    """A game record, read or written: its facts, and the replay's steps."""

    meta: Meta
    options: Options
    steps: list[Step] = field(default_factory=list)
    text: str = ""                 # the record as written (the lines the replay gives)
    hands: int = 0
    over: bool = False             # a seat reached the limit
    winner: int | None = None      # the seat that reached it; or the ending's winner
    ending: Ending | None = None   # the game stopped before its end (resigned, on the clock, left)
    skunk: bool = False
    scores: tuple[int, int] = (0, 0)

    @property
    def names(self) -> tuple[str, str]:
        return self.meta.names


# ---- the lines ------------------------------------------------------------------------------

def _pegs(points: int) -> str:
    return f", pegs {points}" if points else ""


def event_text(e: Event, names: tuple[str, str], state: HandState, show: ShowEntry | None = None) -> str:
    """The line of one event of the engine (``show``: the box a SHOW event counted)."""
    n = names[e.seat]
    if e.act is Act.DISCARD:
        return f"{n} lays away {cards_text(state.cribs[e.seat])}."
    if e.act is Act.STARTER:
        heels = f": {n} pegs {e.points} (his heels)" if e.points else ""
        return f"The cut turns {e.card}{heels}."
    if e.act is Act.PLAY:
        why = f" ({e.words})" if e.words else ""
        return f"{n} plays {e.card}, count {e.count}{_pegs(e.points)}{why}."
    if e.act is Act.GO:
        return f"{n} says go."
    if e.act is Act.GO_POINT:
        return f"{n} pegs {e.points} ({e.words})."
    assert show is not None
    pegged = f", pegs {show.points}" if show.points != show.total else ""
    # Counted as a player says it (the show box's words): "fifteen 2 and a pair is 4".
    words = " ".join(aloud(show_phrases(show.breakdown))).rstrip(".") or "no points"
    return (f"{n}'s {show.what}: {cards_text(show.cards)} with {show.starter} = {show.total}{pegged}"
            f" ({words}).")


_MOVES: list[tuple[re.Pattern[str], Act]] = [
    (re.compile(r"lays away (\w\w) (\w\w)"), Act.DISCARD),
    (re.compile(r"plays (\w\w), count \d+(?:, pegs \d+)?"), Act.PLAY),
    (re.compile(r"says go"), Act.GO),
]


def parse_move(line: Line, names: tuple[str, str]) -> Action | None:
    """The move a line says, or None if it says none."""
    said_ = read_move(line, names, _MOVES)
    if said_ is None:
        return None
    seat, act, groups = said_
    return Action(seat, act, tuple(parse_card(g, line) for g in groups), line.number)


def deal_lines(k: int, deal: Deal, names: tuple[str, str]) -> list[str]:
    return [f"Hand {k}: {names[deal.dealer]} deals.",
            *(f"{names[s]} is dealt: {cards_text(deal.hands[s])}." for s in (0, 1)),
            # The card the cut turns later, after the lay-away: given here, with the
            # hands, for the replay (the commentary is never compared: older records read).
            f"Starter: {deal.starter} (cut after the lay-away; here for the replay)."]


def scores_line(k: int, state: HandState, names: tuple[str, str]) -> str:
    s = state.scores
    return f"Scores after hand {k}: {names[0]} {s[0]}, {names[1]} {s[1]}."


def result_line(state: HandState, names: tuple[str, str], hands: int, skunk: bool) -> str:
    played = f"after {hands} hand{'s' * (hands != 1)}"
    s = state.scores
    if state.winner is None:
        return f"Result: not finished {played}, {names[0]} {s[0]}, {names[1]} {s[1]}."
    w = state.winner
    return f"Result: {names[w]} wins {s[w]} to {s[1 - w]} {played}{', a skunk' if skunk else ''}."


def header_lines(meta: Meta, options: Options, words: bool = True) -> list[str]:
    """The header; ``words=False``: the rules as records before 0.2 wrote them."""
    rules = rules_words(options, RULES, WORDS) if words else rules_text(options, RULES)
    return head_lines(TITLE, meta, [f"Rules: {rules}"], f"{TITLE} {__version__}")


# ---- the replay, both ways ----------------------------------------------------------------

def _moves_of(end: HandState) -> list[Action]:
    """The moves of a deal as it ended: its events but those that followed from them."""
    out = []
    for e in end.events:
        if e.act is Act.DISCARD:
            out.append(Action(e.seat, Act.DISCARD, end.cribs[e.seat]))
        elif e.act is Act.PLAY:
            assert e.card is not None
            out.append(Action(e.seat, Act.PLAY, (e.card,)))
        elif e.act is Act.GO:
            out.append(Action(e.seat, Act.GO))
    return out


class _FromText(FromText):
    """Reading: a deal is read from the lines of its hand's start."""

    def __init__(self, lines: list[Line], names: tuple[str, str]) -> None:
        super().__init__(lines, names, parse_move)

    def deal(self, k: int) -> Deal | None:
        if self.hand_line() is None:
            return None
        head, dealt0, dealt1, cut = self.lines_from_here(4, k)
        dealer, _ = self.dealer(head, k)
        hands = [tuple(self.dealt(line, seat, 6)) for seat, line in ((0, dealt0), (1, dealt1))]
        starter = parse_card(canon(self.after(cut, "Starter: ")), cut)
        return Deal(dealer, (hands[0], hands[1]), starter, head.number)


def _apply(state: HandState, a: Action) -> None:
    if a.act is Act.DISCARD:
        state.discard(a.seat, a.cards)
    elif a.act is Act.PLAY:
        state.play(a.seat, a.cards[0])
    else:
        state.go(a.seat)


def _replay(meta: Meta, options: Options, source: FromGame | _FromText, words: bool = True) -> GameLog:
    log = GameLog(meta, options)
    names = meta.names
    for text in header_lines(meta, options, words):
        source.expect(text)
    state: HandState | None = None
    k = 0
    deal = source.deal(1)
    while deal is not None:
        k += 1
        if state is not None:
            if state.winner is not None:
                raise RecordError(f"the game was over after hand {k - 1}", deal.line)
            if deal.dealer == state.dealer:
                raise RecordError(f"hand {k} is dealt by {names[1 - state.dealer]}: the deal alternates",
                                  deal.line)
        state = deal.state(state.scores if state is not None else (0, 0), options)

        def step(kind: str, texts: list[str], action: Action | None = None,
                 show: ShowEntry | None = None) -> None:
            numbers = [source.expect(t) for t in texts]
            log.steps.append(Step(kind, k, tuple(texts), numbers[0] if numbers else None, state.copy(),
                                  action, show))

        step("deal", deal_lines(k, deal, names))
        while state.phase is not Phase.DONE:
            seen = len(state.events)
            if state.phase is Phase.SHOW:        # the show counts itself: no one decides
                entry = state.show()
                step("show", [event_text(e, names, state, entry) for e in state.events[seen:]], show=entry)
                continue
            to_act = state.to_act
            assert to_act is not None
            action = source.move(k, to_act)
            if action is None:                   # the game stopped in this hand
                break
            try:
                _apply(state, action)
            except IllegalMove as exc:
                raise RecordError(said(str(exc), names), action.line) from None
            step("move", [event_text(e, names, state) for e in state.events[seen:]], action)
        if state.phase is not Phase.DONE:
            log.ending = source.ending()
            assert log.ending is not None
            step("end", [ending_line(log.ending, names, k, state.scores)])
            break
        skunk = state.winner is not None and options.is_skunk(state.scores[1 - state.winner])
        texts = [scores_line(k, state, names)]
        numbers = [source.expect(texts[0])]
        if (nxt := source.deal(k + 1)) is None:
            log.ending = None if state.winner is not None else source.ending()
            texts.append(result_line(state, names, k, skunk) if log.ending is None
                         else ending_line(log.ending, names, k, state.scores))
            source.expect(texts[-1])
        elif state.winner is not None:
            raise RecordError(f"the game was over after hand {k}", nxt.line)
        log.steps.append(Step("end", k, tuple(texts), numbers[0], state.copy()))
        log.skunk = skunk
        deal = nxt
    if state is None:
        raise RecordError("the record holds no hand", source.where())
    source.finish()
    log.hands = k
    log.over = state.winner is not None and log.ending is None
    log.winner = log.ending.winner if log.ending is not None else state.winner
    log.scores = state.scores
    return log


# ---- writing and reading ------------------------------------------------------------------

def write(options: Options, meta: Meta, hands: Sequence[tuple[HandState, HandState]],
          ending: Ending | None = None) -> str:
    """The record of the deals played so far: each as dealt (a copy taken before its
    first move) and as it ended. Every deal must be over (or have ended the game), but
    with an ``ending`` (the game stopped: resigned, on the clock, left) the last,
    written as far as it went."""
    source = FromGame(hands, Deal.of, _moves_of, ending)
    _replay(meta, options, source)
    return source.out.text


def write_game(record: GameRecord, options: Options, meta: Meta) -> str:
    """The record of a game played by ``play_game(..., keep=True)``."""
    return write(options, meta, kept_hands(record.hands))


def parse(text: str) -> GameLog:
    """A record's text, checked by replaying it; ``RecordError`` names the first line
    that is not what the game gives (a move not allowed, a number edited, a line cut)."""
    head = read_head(text, TITLE, OTHER_GAMES, RULE_KEYS)
    options = rules_of(head, {"Rules": RULES}, Options, WORDS)
    log = _replay(head.meta, options, _FromText(head.lines, head.meta.names), in_words(head, "Rules"))
    log.text = text
    return log


def read(path: str | Path) -> GameLog:
    """A record file, read and checked (``RecordError``: one sentence, with the line)."""
    return parse(read_file(path))


def decisions(log: GameLog) -> Iterator[tuple[View, Action]]:
    """Each move of the record with the mover's ``View`` just before it: what the seat
    knew when it decided (its own cards, the public facts, the scores)."""
    for before, st in before_each(log.steps):
        yield before.state.view(st.action.seat), st.action


__all__ = ["Action", "Deal", "Ending", "GameLog", "Meta", "PREFIX", "RecordError", "Step", "TITLE", "decisions",
           "event_text", "parse", "parse_move", "read", "write", "write_game"]
