"""The two games as the room plays them: a seeded game that takes one move at a time
from the seat to move, and says to each seat what its ``View`` shows.

The match runner asks its players (``play_game``); the room waits for them. A driver
here is the same game turned inside out: the same state machine (``Game`` for GinRummy,
``GameState`` for Cribbage), dealt from ``PascalRandom(seed)`` exactly as the runner
deals, with the same options (GinRummy's first turn alternating, Cribbage's first
dealer cut from the deck), asking the seat the engine says is to move. Each step puts
the messages each seat is owed on ``out``: ``deal`` (a hand begins: the seat's view),
``event`` (a public event as the seat may see it), ``ask`` (the seat is to decide:
the decision and its view), ``hand_end`` (the view and, in GinRummy, the settlement).
They are the player interface's calls in its order (``begin_hand``, ``observe``,
``choose_*``, ``end_hand``), so a seat fed them (``port.room.seat``) plays exactly as
in the runner, and the record written at the end is the runner's record.

Everything a driver says follows from the rules, the seed and the moves; so the room
keeps only those (``port.room.store``) and makes a driver again by replaying them.
"""
from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from port.cards import Card, PascalRandom, card
from port.checks import IllegalMove
from port.cribbage import record as crib_record
from port.cribbage.rules import options as crib_options
from port.cribbage.rules import state as crib
from port.files.gamerecord import Ending, Meta
from port.ginrummy import record as gin_record
from port.ginrummy.rules import options as gin_options
from port.ginrummy.rules import state as gin
from port.protocol import ProtocolError, encode

Out = list[tuple[int, dict[str, Any]]]     # (seat, message) in the order they are owed

# Rules of the room, not of either game's engine: both games have them.
ROOM_RULES: dict[str, Any] = {"hints": False}


class RulesError(ValueError):
    """Rules an invitation cannot have: one sentence."""


def _rule_value(name: str, value: object, default: object) -> object:
    """A rule's value from JSON, of the default's kind (a list where a tuple is kept)."""
    if isinstance(default, bool):
        if type(value) is not bool:
            raise RulesError(f"the rule {name!r} is true or false, not {value!r}")
        return value
    if isinstance(default, int):
        if type(value) is not int:
            raise RulesError(f"the rule {name!r} is a whole number, not {value!r}")
        return value
    if isinstance(default, str):
        if type(value) is not str:
            raise RulesError(f"the rule {name!r} is a word, not {value!r}")
        return value
    if isinstance(default, (tuple, list)):
        if not isinstance(value, (list, tuple)) or any(type(v) is not str for v in value) or len(value) > 4:
            raise RulesError(f"the rule {name!r} is a list of words, not {value!r}")
        return list(value)         # as JSON has it: the rules travel and are stored as JSON
    raise RulesError(f"the rule {name!r} cannot be set")


def _rules(given: Mapping[str, Any] | None, defaults: dict[str, Any], game: str) -> dict[str, Any]:
    """Every rule, the given ones over the defaults; unknown names refused."""
    out = {k: list(v) if isinstance(v, tuple) else v for k, v in defaults.items()}
    for name, value in (given or {}).items():
        if name not in defaults:
            shown = name if len(name) <= 20 else name[:20] + "..."
            known = ", ".join(sorted(defaults))
            raise RulesError(f"{game} has no rule {shown!r} (its rules: {known})")
        out[name] = _rule_value(name, value, defaults[name])
    return out


def _engine_fields(cls: type, skip: tuple[str, ...]) -> dict[str, Any]:
    return {f.name: f.default for f in dataclasses.fields(cls) if f.name not in skip}


class Driver:
    """What both games' drivers share: the seed, the moves so far, the messages owed."""

    game = ""
    TITLE = ""                           # the game's name in a refusal ("GinRummy has no rule ...")
    DEFAULTS: dict[str, Any] = {}
    FIXED: dict[str, Any] = {}           # engine options the room sets itself

    def __init__(self, rules: Mapping[str, Any], seed: int) -> None:
        self.rules = dict(rules)
        self.seed = seed
        self.out: Out = []
        self.moves: list[tuple[int, dict[str, Any]]] = []   # (seat, move), as made
        self.hand_number = 0
        self.options = self.options_of(self.rules)
        self._views: list[Any] | None = None        # each seat's view as JSON values, for the state now

    @classmethod
    def engine_options(cls) -> type:
        raise NotImplementedError

    @classmethod
    def options_of(cls, rules: Mapping[str, Any]) -> Any:
        """The engine's options for the rules (``RulesError``: the engine's own sentence)."""
        fields = {k: v for k, v in rules.items() if k not in ROOM_RULES}
        try:
            return cls.engine_options()(**fields, **cls.FIXED)
        except (TypeError, ValueError) as exc:
            raise RulesError(str(exc)) from None

    @classmethod
    def check_rules(cls, given: Mapping[str, Any] | None) -> dict[str, Any]:
        """The rules an invitation names, complete and checked (``RulesError``)."""
        rules = _rules(given, cls.DEFAULTS, cls.TITLE)
        cls.options_of(rules)
        return rules

    def _begin(self) -> None:
        """A hand is dealt: each seat is shown it, then the first seat is asked."""
        self.changed()
        self.hand_number += 1
        self.start = self.hand_state().copy()
        self.sent = 0
        for seat in (0, 1):
            self._say(seat, "deal", hand=self.hand_number, view=self.view(seat))
        self._ask()

    def view(self, seat: int) -> Any:
        """The seat's view as JSON values, made once for each state the game is in: a
        move's events and the ask after it carry the same view (and the same object,
        which the table then writes as JSON once)."""
        views = self._views
        if views is None:
            views = self._views = [None, None]
        made = views[seat]
        if made is None:
            made = views[seat] = encode(self.seat_view(seat))
        return made

    def changed(self) -> None:
        """The game's state changed: the views are made again when next asked for."""
        self._views = None

    def hand_state(self) -> Any:
        raise NotImplementedError

    def seat_view(self, seat: int) -> Any:
        raise NotImplementedError

    def _ask(self) -> None:
        raise NotImplementedError

    # what a table asks
    @property
    def over(self) -> bool:
        raise NotImplementedError

    def to_move(self) -> int | None:
        raise NotImplementedError

    def apply(self, seat: int, move: Mapping[str, Any]) -> None:
        """Make the seat's move (``IllegalMove`` or ``ProtocolError``: nothing changed)."""
        raise NotImplementedError

    def scores(self) -> tuple[int, int]:
        raise NotImplementedError

    def winner(self) -> int | None:
        raise NotImplementedError

    def played(self, ending: Ending | None = None) -> list[tuple[Any, Any]]:
        """The hands of the record (as dealt, as ended): the finished ones and, for a game
        that stopped (``ending``: resigned, on the clock, left), the one it stopped in."""
        hands: list[tuple[Any, Any]] = list(getattr(self, "kept", []))
        current = self.hand_state()
        if ending is not None and (not hands or hands[-1][1] is not current):
            hands.append((self.start, current))
        return hands

    def record(self, meta: Meta, ending: Ending | None = None) -> str:
        """The game record: every hand played, the last one as far as it went."""
        raise NotImplementedError

    def _say(self, seat: int, kind: str, **fields: Any) -> None:
        self.out.append((seat, {"type": kind, **fields}))

    def _both(self, kind: str, **fields: Any) -> None:
        self._say(0, kind, **fields)
        self._say(1, kind, **fields)


def _card_of(move: Mapping[str, Any], name: str = "card") -> Card:
    text = move.get(name)
    if not isinstance(text, str):
        raise ProtocolError(f"the move needs its {name!r}: a card's text, such as \"7H\"")
    try:
        return card(text)
    except ValueError:
        raise ProtocolError(f"{text[:8]!r} is not a card (cards are written like \"7H\", \"TD\", \"AS\")") from None


def _act_of(move: Mapping[str, Any], acts: Sequence[str]) -> str:
    act = move.get("act")
    if not isinstance(act, str) or act not in acts:
        raise ProtocolError(f"a move's \"act\" is one of {', '.join(acts)}")
    extra = set(move) - {"act", "card", "cards"}
    if extra:
        raise ProtocolError(f"a move has no field {sorted(extra)[0][:20]!r}")
    return act


# ---- GinRummy -----------------------------------------------------------------------------

GIN_DECISIONS = {gin.Phase.UPCARD_OFFER: "offer", gin.Phase.DRAW: "draw", gin.Phase.DISCARD: "discard",
                 gin.Phase.KNOCK: "knock"}
GIN_ACTS = ("take", "decline", "stock", "pile", "discard", "undo", "knock", "play_on", "play_to_gin")


class GinDriver(Driver):
    """GinRummy to the score limit, as the match runner plays it."""

    game = "ginrummy"
    TITLE = "GinRummy"
    DEFAULTS = {**_engine_fields(gin_options.Options, ("first_turn",)), **ROOM_RULES}
    # The runner's rule for two players of equal standing: hands alternate.
    FIXED = {"first_turn": gin_options.FirstTurn.ALTERNATE}

    def __init__(self, rules: Mapping[str, Any], seed: int) -> None:
        super().__init__(rules, seed)
        self.state = gin.Game(self.options, PascalRandom(seed), 0)
        self.kept: list[tuple[gin.HandState, gin.HandState]] = []
        self._begin()

    @classmethod
    def engine_options(cls) -> type:
        return gin_options.Options

    def hand_state(self) -> gin.HandState:
        return self.state.hand

    def seat_view(self, seat: int) -> gin.View:
        return self.state.view(seat)

    def _ask(self) -> None:
        hand = self.state.hand
        if hand.phase is not gin.Phase.OVER:
            seat = hand.to_move
            self._say(seat, "ask", decision=GIN_DECISIONS[hand.phase], view=self.view(seat))

    @property
    def over(self) -> bool:
        return self.state.over

    def to_move(self) -> int | None:
        hand = self.state.hand
        return None if hand.phase is gin.Phase.OVER else hand.to_move

    def decision(self) -> str | None:
        return GIN_DECISIONS.get(self.state.hand.phase)

    def apply(self, seat: int, move: Mapping[str, Any]) -> None:
        hand = self.state.hand
        act = _act_of(move, GIN_ACTS)
        if hand.phase is gin.Phase.OVER:
            raise IllegalMove("the game is over", "the game is over")
        if act == "discard":
            hand.discard(seat, _card_of(move))
        elif act in ("take", "decline", "stock", "pile", "undo", "knock", "play_on", "play_to_gin"):
            getattr(hand, _GIN_METHODS[act])(seat)
        self.moves.append((seat, dict(move)))
        self.changed()
        self._flush()
        if hand.phase is gin.Phase.OVER:
            self._end_hand()
        else:
            self._ask()

    def _flush(self) -> None:
        events = self.state.hand.events
        if self.sent >= len(events):
            return
        # Each event carries the seat's view once the move is done, so that a screen
        # draws the table from the rules' own view rather than working it out again.
        views = [self.view(0), self.view(1)]
        while self.sent < len(events):
            e = events[self.sent]
            self.sent += 1
            for seat in (0, 1):
                self._say(seat, "event", event=encode(gin._public(e, seat)), view=views[seat])

    def _end_hand(self) -> None:
        hand = self.state.hand
        assert hand.result is not None
        result = encode(hand.result)
        for seat in (0, 1):
            self._say(seat, "hand_end", hand=self.hand_number, view=self.view(seat),
                      result=result)
        self.kept.append((self.start, hand))
        self.state.record()
        if not self.state.over:
            self.state.next_hand()
            self._begin()

    def scores(self) -> tuple[int, int]:
        if self.state.over:
            totals = self.state.sheet().totals
            return (totals[0], totals[1])
        return (self.state.scores[0], self.state.scores[1])

    def winner(self) -> int | None:
        return self.state.winner

    def record(self, meta: Meta, ending: Ending | None = None) -> str:
        hands = self.played(ending)
        return gin_record.write(self.options, meta, hands, ending) if hands else ""


_GIN_METHODS = {"take": "take_upcard", "decline": "decline_upcard", "stock": "draw_stock",
                "pile": "draw_pile", "undo": "undo_draw", "knock": "knock", "play_on": "play_on",
                "play_to_gin": "play_to_gin"}


# ---- Cribbage -----------------------------------------------------------------------------

CRIB_ACTS = ("lay_away", "play", "go")


class CribDriver(Driver):
    """Cribbage to 61 or 121, as the match runner plays it (the show counted at once)."""

    game = "cribbage"
    TITLE = "Cribbage"
    DEFAULTS = {**_engine_fields(crib_options.Options, ()), **ROOM_RULES}

    def __init__(self, rules: Mapping[str, Any], seed: int) -> None:
        super().__init__(rules, seed)
        self.state = crib.GameState.new(self.options, PascalRandom(seed))
        self.kept: list[tuple[crib.HandState, crib.HandState]] = []
        self._begin()

    @classmethod
    def engine_options(cls) -> type:
        return crib_options.Options

    def hand_state(self) -> crib.HandState:
        return self.state.hand

    def seat_view(self, seat: int) -> crib.View:
        return self.state.hand.view(seat)

    def _ask(self) -> None:
        hand = self.state.hand
        if hand.phase is crib.Phase.SHOW:
            hand.finish_show()       # nobody decides anything in the show
            self.changed()
            self._flush()
        if hand.phase is crib.Phase.DONE:
            self._end_hand()
            return
        seat = hand.to_act
        assert seat is not None
        decision = "lay_away" if hand.phase is crib.Phase.DISCARD else "play"
        self._say(seat, "ask", decision=decision, view=self.view(seat))

    @property
    def over(self) -> bool:
        return self.state.over

    def to_move(self) -> int | None:
        hand = self.state.hand
        return hand.to_act if hand.phase in (crib.Phase.DISCARD, crib.Phase.PLAY) else None

    def decision(self) -> str | None:
        phase = self.state.hand.phase
        return "lay_away" if phase is crib.Phase.DISCARD else "play" if phase is crib.Phase.PLAY else None

    def apply(self, seat: int, move: Mapping[str, Any]) -> None:
        hand = self.state.hand
        act = _act_of(move, CRIB_ACTS)
        if self.to_move() != seat:
            whose = self.to_move()
            reason = "the game is over" if whose is None else f"it is seat {whose}'s turn"
            raise IllegalMove(f"seat {seat} cannot move now: {reason}", reason)
        if act == "lay_away":
            cards = move.get("cards")
            if not isinstance(cards, list) or len(cards) != 2:
                raise ProtocolError("laying away names two cards: \"cards\": [\"5H\", \"6H\"]")
            hand.discard(seat, [_card_of({"card": c}) for c in cards])
        elif act == "play":
            hand.play(seat, _card_of(move))
        else:
            hand.go(seat)
        self.moves.append((seat, dict(move)))
        self.changed()
        self._flush()
        self._ask()

    def _flush(self) -> None:
        events = self.state.hand.events
        if self.sent >= len(events):
            return
        hand = self.state.hand
        views = [self.view(0), self.view(1)]     # as GinRummy's: the view after the move
        while self.sent < len(events):
            e = events[self.sent]
            self.sent += 1
            for seat in (0, 1):
                self._say(seat, "event", event=encode(e), view=views[seat])

    def _end_hand(self) -> None:
        hand = self.state.hand
        for seat in (0, 1):
            self._say(seat, "hand_end", hand=self.hand_number, view=self.view(seat))
        self.kept.append((self.start, hand))
        if not self.state.over:
            self.state.next_hand()
            self._begin()

    def scores(self) -> tuple[int, int]:
        s = self.state.hand.scores
        return (s[0], s[1])

    def winner(self) -> int | None:
        return self.state.winner

    def record(self, meta: Meta, ending: Ending | None = None) -> str:
        hands = self.played(ending)
        return crib_record.write(self.options, meta, hands, ending) if hands else ""


DRIVERS: dict[str, type[Driver]] = {"ginrummy": GinDriver, "cribbage": CribDriver}


def replay(game: str, rules: Mapping[str, Any], seed: int, moves: Sequence[tuple[int, Mapping[str, Any]]]) -> Driver:
    """A driver made again from its rules, seed and moves (seat, move), with every
    message it said on ``out``. A move the rules refuse raises as it did not then."""
    driver = DRIVERS[game](rules, seed)
    for seat, move in moves:
        driver.apply(seat, move)
    return driver


__all__ = ["CribDriver", "DRIVERS", "Driver", "GinDriver", "ROOM_RULES", "RulesError", "replay"]
