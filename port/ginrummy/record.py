"""GinRummy's game record: the text of a game a person can read (docs/records.md), the
writer, the reader, and the replay that both go through. Plain Python on the Rules
unit and the shared ``port.files.gamerecord``: no pyxel.

A record holds everything needed to play the game again exactly: the rules, each
hand's deal (both hands, the upcard, the knock card, the stock in order) and every
move in order (draws with their cards, discards, knocks, the upcard offer's answers,
undone draws). What follows from them (gin, the layoffs, each hand's settlement, the
scores, the result) is written too, for the reader, and checked on reading: a record
is read by replaying its moves through the real engine, and each line the replay gives
must be the record's line. So every state of the game, and each seat's ``View`` before
each of its decisions, is recomputed exactly (``decisions``).

    text = write(options, meta, [(start, end), ...])     # hands as dealt and as ended
    game = parse(text)                                   # or read(path): a GameLog
    game.steps[i].state                                  # the hand after step i
"""
from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from port import __version__
from port.cards import Card, PascalRandom, cards_of
from port.files.gamerecord import (
    NUMBER, YES_NO, Codec, Ending, FromGame, FromText, Line, Meta, RecordError, RuleWords, before_each, canon,
    cards_text, ending_line, head_lines, in_words, kept_hands, parse_card, parse_cards, read_file, read_head, read_move,
    rules_of, rules_text, rules_words, said,
)
from port.checks import IllegalMove
from port.ginrummy.rules.options import SCORING_METHODS, FirstTurn, Options
from port.ginrummy.rules.players import Draw, GameRecord, KnockChoice
from port.ginrummy.rules.settle import DrawnBy, Outcome, Settlement
from port.ginrummy.rules.state import PILE_RUN_LIMIT, Act, Event, Game, HandState, Phase, View

TITLE = "GinRummy"
PREFIX = "GR"                      # GR0001.REC
OTHER_GAMES = {"Cribbage": "cribbage"}
RULE_KEYS = ("Rules", "Table rules")
STOCK_CARDS = 31                   # 52 less 20 dealt and the upcard (or 21 dealt, eleven)


def _doublers_text(d: tuple[str, ...]) -> str:
    return ",".join(d) or "none"


def _doublers(text: str) -> tuple[str, ...]:
    return () if text == "none" else tuple(text.split(","))


def _choice(allowed: Sequence[str]) -> Codec:
    def read(text: str) -> str:
        if text not in allowed:
            raise ValueError(f"one of {', '.join(allowed)}, not {text!r}")
        return text
    return (str, read)


# The rules as the record writes them: Options' fields, the original's then the table rules'.
RULES: dict[str, Codec] = {
    "gin_bonus": NUMBER, "undercut_bonus": NUMBER, "score_limit": NUMBER, "oklahoma": YES_NO,
    "knocking": YES_NO,
    "first_turn": (lambda f: f.value, lambda t: FirstTurn(_choice([f.value for f in FirstTurn])[1](t))),
}   # first_turn: "seat0" (the original: you always go first) or "alternate" (matches)
TABLE_RULES: dict[str, Codec] = {
    "knock_deck": YES_NO, "scoring": _choice(SCORING_METHODS), "doublers": (_doublers_text, _doublers),
    "shutout": YES_NO, "upcard_offer": YES_NO, "deal_eleven": YES_NO, "random_first": YES_NO,
    "winner_deals": YES_NO, "box_bonus": NUMBER,
}

_TURNS = {FirstTurn.SEAT0: "seat 0", FirstTurn.ALTERNATE: "alternates"}


def _turn(text: str) -> FirstTurn:
    for turn, said in _TURNS.items():
        if text == said:
            return turn
    raise ValueError(f"expected {' or '.join(_TURNS.values())}, not {text!r}")


# The rules in a player's words: "Rules: gin bonus 25, undercut bonus 25, score limit
# 100, Oklahoma no, knocking yes, first turn seat 0" (docs/records.md).
WORDS: RuleWords = {
    "gin_bonus": ("gin bonus", None), "undercut_bonus": ("undercut bonus", None),
    "score_limit": ("score limit", None), "oklahoma": ("Oklahoma", None), "knocking": ("knocking", None),
    "first_turn": ("first turn", (lambda f: _TURNS[f], _turn)),
    "knock_deck": ("knock deck", None), "scoring": ("scoring", None), "doublers": ("doublers", None),
    "shutout": ("shutout doubler", None), "upcard_offer": ("upcard offer", None),
    "deal_eleven": ("deal of eleven", None), "random_first": ("first dealer at random", None),
    "winner_deals": ("winner deals", None), "box_bonus": ("box bonus", None),
}


@dataclass(frozen=True)
class Deal:
    """One hand as dealt: who moves first (the other deals), both hands, the upcard
    (None in the deal of eleven), the knock deck's card, the stock top first."""

    first: int
    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    upcard: Card | None
    knock_card: Card | None
    stock: tuple[Card, ...]
    line: int | None = None        # the record's "Hand N" line, when read

    @classmethod
    def of(cls, hand: HandState) -> Deal:
        """The deal of a hand not yet played (a copy taken at the deal)."""
        knock = hand.knock_card if hand.options.knock_deck else None
        return cls(hand.first, (tuple(cards_of(hand.hands[0])), tuple(cards_of(hand.hands[1]))),
                   hand.upcard if not hand.options.deal_eleven else None, knock, tuple(reversed(hand.stock)))

    def deck(self) -> list[Card]:
        """The deck that deals this hand (its last card on top), as ``HandState`` deals."""
        h = self.hands
        order = [h[(self.first + i) % 2][i // 2] for i in range(20)]
        if len(h[self.first]) == 11:
            order.append(h[self.first][10])
        turned = [self.upcard] if self.upcard is not None else []
        return list(reversed(self.stock)) + turned + order[::-1]

    def state(self, options: Options) -> HandState:
        try:
            return HandState(options, self.deck(), self.first, self.knock_card)
        except (IllegalMove, ValueError, IndexError) as exc:
            raise RecordError(str(exc), self.line) from None


@dataclass(frozen=True)
class Action:
    """A move of a seat: the engine's act and its card (a draw's, a discard's)."""

    seat: int
    act: Act
    card: Card | None = None
    line: int | None = None        # the record's line, when read


@dataclass(frozen=True)
class Step:
    """One step of the game as the replay viewer shows it: a hand dealt, a move (with
    what followed at once: gin, a draw hand), or a hand's end (its settlement, the
    scores, and after the last hand the result)."""

    kind: str                      # "deal", "move", "end"
    hand: int                      # 1 for the first hand
    lines: tuple[str, ...]         # the record's lines for this step
    line: int | None               # the first of them in the file, when read
    state: HandState               # the hand after this step (a copy)
    scores: tuple[int, int]        # the game's scores after this step
    boxes: tuple[int, int]
    action: Action | None = None   # the move (kind "move")


@dataclass
class GameLog:
    """A game record, read or written: its facts, and the replay's steps."""

    meta: Meta
    options: Options
    steps: list[Step] = field(default_factory=list)
    text: str = ""                 # the record as written (the lines the replay gives)
    hands: int = 0
    over: bool = False             # the game was played to its end
    winner: int | None = None      # once over: the score sheet's winner (None: a draw); or the ending's
    ending: Ending | None = None   # the game stopped before its end (resigned, on the clock, left)
    scores: tuple[int, int] = (0, 0)     # the hands' points
    totals: tuple[int, int] = (0, 0)     # the score sheet's final totals (the scores while not over)

    @property
    def names(self) -> tuple[str, str]:
        return self.meta.names


# ---- the lines ------------------------------------------------------------------------------

def event_text(e: Event, names: tuple[str, str], result: Settlement | None) -> str:
    """The line of one event of the engine."""
    n = names[e.seat]
    c = e.card
    if e.act is Act.DRAW_STOCK:
        return f"{n} draws {c} from the stock."
    if e.act is Act.DRAW_PILE:
        return f"{n} takes {c} from the pile."
    if e.act is Act.UNDO:
        return f"{n} puts {c} back on the pile."
    if e.act is Act.DISCARD:
        return f"{n} discards {c}."
    if e.act is Act.DECLINE:
        return f"{n} declines the upcard {c}."
    if e.act is Act.DRAW_HAND:
        if result is not None and result.drawn_by is DrawnBy.PILE:
            return f"The pile was taken {PILE_RUN_LIMIT} times in a row: a draw hand."
        return f"{n} draws from the stock with two cards left: a draw hand."
    return {Act.KNOCK: f"{n} knocks.", Act.GIN: f"{n} goes gin.", Act.PLAY_ON: f"{n} plays on.",
            Act.PLAY_TO_GIN: f"{n} plays to gin."}[e.act]


def _automatic(e: Event, result: Settlement | None) -> bool:
    """An event that follows from a move, not a move: gin after a discard, the draw
    hand after the pile went round too often."""
    return e.act is Act.GIN or (e.act is Act.DRAW_HAND and result is not None
                                and result.drawn_by is DrawnBy.PILE)


_MOVES: list[tuple[re.Pattern[str], Act]] = [
    (re.compile(r"draws (\w\w) from the stock"), Act.DRAW_STOCK),
    (re.compile(r"draws from the stock with two cards left: a draw hand"), Act.DRAW_HAND),
    (re.compile(r"takes (\w\w) from the pile"), Act.DRAW_PILE),
    (re.compile(r"puts (\w\w) back on the pile"), Act.UNDO),
    (re.compile(r"discards (\w\w)"), Act.DISCARD),
    (re.compile(r"declines the upcard (\w\w)"), Act.DECLINE),
    (re.compile(r"knocks"), Act.KNOCK),
    (re.compile(r"plays on"), Act.PLAY_ON),
    (re.compile(r"plays to gin"), Act.PLAY_TO_GIN),
]


def parse_move(line: Line, names: tuple[str, str]) -> Action | None:
    """The move a line says, or None if it says none."""
    said_ = read_move(line, names, _MOVES)
    if said_ is None:
        return None
    seat, act, groups = said_
    return Action(seat, act, parse_card(groups[0], line) if groups else None, line.number)


def deal_lines(k: int, deal: Deal, names: tuple[str, str], options: Options) -> list[str]:
    first = deal.first
    lines = [f"Hand {k}: {names[1 - first]} deals, {names[first]} moves first."]
    lines += [f"{names[s]} is dealt: {cards_text(deal.hands[s])}." for s in (0, 1)]
    lines.append(f"Upcard: {deal.upcard}." if deal.upcard is not None else "Upcard: none (the deal of eleven).")
    if options.knock_deck:
        lines.append(f"Knock card: {deal.knock_card}.")
    lines.append(f"Stock, top first: {cards_text(deal.stock)}.")
    return lines


def settle_lines(r: Settlement, names: tuple[str, str], options: Options) -> list[str]:
    """The hand's end: each hand shown (the knocker's first), then who scores what."""
    lines = []
    for seat in ((r.knocker, 1 - r.knocker) if r.knocker is not None else (0, 1)):
        melds = ", ".join(cards_text(m) for m in r.melds[seat]) or "no melds"
        parts = [f"{names[seat]} shows {melds}"]
        if r.knocker is not None and seat != r.knocker and r.layoffs:
            parts.append(f"lays off {cards_text(r.layoffs)}")
        parts.append(f"deadwood {cards_text(r.deadwood_cards[seat])} = {r.deadwood[seat]}")
        lines.append("; ".join(parts) + ".")
    if r.outcome is Outcome.DRAW or r.winner is None:
        lines.append("Draw hand: no score.")
    else:
        how = {Outcome.GIN: "Gin", Outcome.KNOCK: "Knock", Outcome.UNDERCUT: "Undercut"}[r.outcome]
        boxes = f" and {r.boxes} box{'es' * (r.boxes != 1)}" if options.boxes else ""
        lines.append(f"{how}{', doubled' if r.doubled else ''}: {names[r.winner]} scores {r.points}{boxes}.")
    return lines


def scores_line(k: int, game: Game, names: tuple[str, str]) -> str:
    s = game.scores
    line = f"Scores after hand {k}: {names[0]} {s[0]}, {names[1]} {s[1]}"
    if game.options.boxes:
        line += f"; boxes {game.boxes[0]} to {game.boxes[1]}"
    if len(game.column_points) > 1:
        line += "; games " + ", ".join(f"{p[0]}-{p[1]}" for p in game.column_points)
    return line + "."


def result_line(game: Game, names: tuple[str, str], hands: int) -> str:
    played = f"after {hands} hand{'s' * (hands != 1)}"
    if not game.over:
        s = game.scores
        return f"Result: not finished {played}, {names[0]} {s[0]}, {names[1]} {s[1]}."
    sheet = game.sheet()
    t = sheet.totals
    if sheet.winner is None:
        return f"Result: a drawn game, {t[0]} to {t[1]} {played}."
    w = sheet.winner
    return f"Result: {names[w]} wins {t[w]} to {t[1 - w]} {played}."


def header_lines(meta: Meta, options: Options, words: bool = True) -> list[str]:
    """The header; ``words=False``: the rules as records before 0.2 wrote them."""
    def line(codecs: dict[str, Codec]) -> str:
        return rules_words(options, codecs, WORDS) if words else rules_text(options, codecs)

    rules = [f"Rules: {line(RULES)}", f"Table rules: {line(TABLE_RULES)}"]
    return head_lines(TITLE, meta, rules, f"{TITLE} {__version__}")


# ---- the replay, both ways ----------------------------------------------------------------

def _moves_of(end: HandState) -> list[Action]:
    """The moves of a hand as it ended: its events but those that followed from a move."""
    return [Action(e.seat, e.act, e.card) for e in end.events if not _automatic(e, end.result)]


class _FromText(FromText):
    """Reading: a deal is read from the lines of its hand's start."""

    def __init__(self, lines: list[Line], names: tuple[str, str], options: Options) -> None:
        super().__init__(lines, names, parse_move)
        self.options = options

    def deal(self, k: int) -> Deal | None:
        if self.hand_line() is None:
            return None
        opts = self.options
        head, dealt0, dealt1, up, *rest = self.lines_from_here(5 + opts.knock_deck, k)
        dealer, m = self.dealer(head, k, ", (.+) moves first", ", ... moves first")
        first = 1 - dealer
        if m.group(3) != self.names[first]:
            raise RecordError(f"the seat that does not deal moves first: {self.names[first]}", head.number)
        hands = [tuple(self.dealt(line, seat, 11 if seat == first and opts.deal_eleven else 10))
                 for seat, line in ((0, dealt0), (1, dealt1))]
        up_text = canon(self.after(up, "Upcard: "))
        upcard = None if opts.deal_eleven else parse_card(up_text, up)
        knock = None
        if opts.knock_deck:
            line = rest.pop(0)
            knock = parse_card(self.after(line, "Knock card: "), line)
        stock = parse_cards(self.after(rest[0], "Stock, top first: "), rest[0], STOCK_CARDS)
        return Deal(first, (hands[0], hands[1]), upcard, knock, tuple(stock), head.number)


def _apply(state: HandState, a: Action) -> None:
    s = a.seat
    act = a.act
    if act in (Act.DRAW_STOCK, Act.DRAW_HAND):
        state.draw_stock(s)
    elif act is Act.DRAW_PILE:
        (state.take_upcard if state.phase is Phase.UPCARD_OFFER else state.draw_pile)(s)
    elif act is Act.UNDO:
        state.undo_draw(s)
    elif act is Act.DISCARD:
        assert a.card is not None
        state.discard(s, a.card)
    elif act is Act.DECLINE:
        state.decline_upcard(s)
    elif act is Act.KNOCK:
        state.knock(s)
    elif act is Act.PLAY_ON:
        state.play_on(s)
    elif act is Act.PLAY_TO_GIN:
        state.play_to_gin(s)
    else:
        raise IllegalMove(f"{act.value} is not a move")


def _replay(meta: Meta, options: Options, source: FromGame | _FromText, words: bool = True) -> GameLog:
    log = GameLog(meta, options)
    names = meta.names
    for text in header_lines(meta, options, words):
        source.expect(text)
    game: Game | None = None
    k = 0
    deal = source.deal(1)
    while deal is not None:
        k += 1
        state = deal.state(options)
        try:
            if game is None:
                game = Game(options, PascalRandom(0), state.first, hand=state)
            elif game.over:
                raise RecordError(f"the game was over after hand {k - 1}", deal.line)
            else:
                game.next_hand(hand=state)
        except IllegalMove as exc:
            raise RecordError(f"hand {k}: {said(str(exc), names)}", deal.line) from None
        scores = (game.scores[0], game.scores[1])
        boxes = (game.boxes[0], game.boxes[1])

        def expect(texts: list[str]) -> int | None:
            numbers = [source.expect(t) for t in texts]
            return numbers[0] if numbers else None

        def step(kind: str, texts: list[str], first: int | None, action: Action | None = None) -> None:
            log.steps.append(Step(kind, k, tuple(texts), first, state.copy(), scores, boxes, action))

        texts = deal_lines(k, deal, names, options)
        step("deal", texts, expect(texts))
        while state.phase is not Phase.OVER:
            action = source.move(k, state.to_move)
            if action is None:                   # the game stopped in this hand
                break
            seen = len(state.events)
            try:
                _apply(state, action)
            except IllegalMove as exc:
                raise RecordError(said(str(exc), names), action.line) from None
            texts = [event_text(e, names, state.result) for e in state.events[seen:]]
            step("move", texts, expect(texts), action)
        if state.phase is not Phase.OVER:
            log.ending = source.ending()
            assert log.ending is not None
            texts = [ending_line(log.ending, names, k, game.scores)]
            step("end", texts, expect(texts))
            break
        assert state.result is not None
        game.record()
        scores = (game.scores[0], game.scores[1])
        boxes = (game.boxes[0], game.boxes[1])
        texts = [*settle_lines(state.result, names, options), scores_line(k, game, names)]
        first = expect(texts)
        if (nxt := source.deal(k + 1)) is None:
            log.ending = None if game.over else source.ending()
            texts.append(result_line(game, names, k) if log.ending is None
                         else ending_line(log.ending, names, k, game.scores))
            expect(texts[-1:])
        elif game.over:
            raise RecordError(f"the game was over after hand {k}", nxt.line)
        step("end", texts, first)
        deal = nxt
    if game is None:
        raise RecordError("the record holds no hand", source.where())
    source.finish()
    log.hands = k
    log.over = game.over
    log.scores = (game.scores[0], game.scores[1])
    sheet = game.sheet()
    log.totals = sheet.totals if game.over else log.scores
    log.winner = sheet.winner if game.over else log.ending.winner if log.ending is not None else None
    return log


# ---- writing and reading ------------------------------------------------------------------

def write(options: Options, meta: Meta, hands: Sequence[tuple[HandState, HandState]],
          ending: Ending | None = None) -> str:
    """The record of the hands played so far: each as dealt (a copy taken before its
    first move) and as it ended. Every hand must be over, but with an ``ending`` (the
    game stopped: resigned, on the clock, left) the last, written as far as it went."""
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
    options = rules_of(head, {"Rules": RULES, "Table rules": TABLE_RULES}, Options, WORDS)
    log = _replay(head.meta, options, _FromText(head.lines, head.meta.names, options), in_words(head, "Rules"))
    log.text = text
    return log


def read(path: str | Path) -> GameLog:
    """A record file, read and checked (``RecordError``: one sentence, with the line)."""
    return parse(read_file(path))


def decisions(log: GameLog) -> Iterator[tuple[View, Action]]:
    """Each move of the record with the mover's ``View`` just before it: what the seat
    knew when it decided (its own cards, the public facts, the scores)."""
    for before, st in before_each(log.steps):
        yield before.state.view(st.action.seat, before.scores, before.boxes), st.action


Choice = Draw | Card | KnockChoice


def choices(log: GameLog, seat: int | None = None) -> Iterator[tuple[View, Choice, int, int]]:
    """The draws, discards and knock answers of the record (of ``seat``, or both) as
    the player interface's choices, each with the mover's View before it, its hand and
    its turn in the hand: what ``port.ginrummy.review``'s ``Recording`` notes while a
    game is played, so a record feeds the review (``Decision(*each)``). The upcard
    offer's answers and undone draws are no such decisions."""
    hand, turns, drew = 0, [0, 0], [False, False]
    for before, st in before_each(log.steps):
        if st.hand != hand:
            hand, turns, drew = st.hand, [0, 0], [False, False]
        a = st.action
        view = before.state.view(a.seat, before.scores, before.boxes)
        if view.phase is Phase.UPCARD_OFFER or a.act in (Act.UNDO, Act.DECLINE):
            continue
        s = a.seat
        choice: Choice
        if a.act in (Act.DRAW_STOCK, Act.DRAW_HAND, Act.DRAW_PILE):
            turns[s] += 1
            drew[s] = True
            choice = Draw.PILE if a.act is Act.DRAW_PILE else Draw.STOCK
        elif a.act is Act.DISCARD:
            if not drew[s]:           # the deal of eleven's opening discard, a taken upcard's discard
                turns[s] += 1
            drew[s] = False
            assert a.card is not None
            choice = a.card
        else:
            choice = _ANSWERS[a.act]
        if seat is None or s == seat:
            yield view, choice, hand, turns[s]


_ANSWERS = {Act.KNOCK: KnockChoice.KNOCK, Act.PLAY_ON: KnockChoice.PLAY_ON, Act.PLAY_TO_GIN: KnockChoice.PLAY_TO_GIN}


__all__ = ["Action", "Deal", "Ending", "GameLog", "Meta", "PREFIX", "RecordError", "Step", "TITLE", "choices", "decisions",
           "event_text", "parse", "parse_move", "read", "write", "write_game"]
