"""The player interface of the Rules unit: what any player (the computer levels, an
outside bot, the human through Main) is told and asked, and the loop that plays a
hand or a whole game between two players on the one state machine.

A player only ever receives a ``View`` (its own hand and public facts, built fresh by
the engine from copies) and public ``Event``s (a stock draw of the opponent hides its
card). It never holds the ``HandState`` or the ``Game``: that is how the documentation's
promise "the computer does NOT cheat ... it does not look at the deck ... it does not
look at your hand" holds by construction, for every player.

    class Lowest(Player):
        def choose_discard(self, view):          # the only method a bot must write
            return max(legal_discards(view), key=lambda c: c.value)
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum

from port.cards import Card, Rng, mask
from port.ginrummy.rules.options import Options
from port.ginrummy.rules.scoring import ScoreSheet
from port.ginrummy.rules.settle import Outcome, Settlement

from port.ginrummy.rules.state import Act, Event, Game, HandState, IllegalMove, Move, Phase, View, knock_options_of


class Draw(str, Enum):
    """Where to draw from."""

    STOCK = "stock"
    PILE = "pile"


class KnockChoice(str, Enum):
    """The answer to the knock question ("knock?  YES  NO  Play to Gin")."""

    KNOCK = "knock"
    PLAY_ON = "play_on"
    PLAY_TO_GIN = "play_to_gin"


class Player:
    """Base class of every player. Override the ``choose_*`` methods; the others are
    hooks with empty defaults.

    Calls, in order, per hand: ``begin_hand``; then ``observe`` for every public event
    (both seats' moves, as this seat may see them) interleaved with ``offer`` /
    ``choose_draw`` / ``choose_discard`` / ``choose_knock`` on this seat's turns; then
    ``end_hand``. The view passed is in the matching phase (UPCARD_OFFER, DRAW,
    DISCARD, KNOCK) with this seat to move.
    """

    name = "player"

    def begin_hand(self, view: View) -> None:
        """A new hand is dealt: ``view`` shows the ten cards and the upcard."""

    def observe(self, event: Event) -> None:
        """A public event: who drew from where (the card too when it came from the
        pile, or when this seat drew it), what was discarded, knocks and gins."""

    def choose_draw(self, view: View) -> Draw:
        """Draw from the stock or the pile. Default: the stock."""
        return Draw.STOCK

    def offer(self, view: View) -> bool:
        """The upcard offer (``Options.upcard_offer``; phase UPCARD_OFFER): True takes
        the first upcard, False declines it. Default: the player's own pile decision
        (``choose_draw`` on the same view, the upcard being the pile's top)."""
        return Draw(self.choose_draw(view)) is Draw.PILE

    def choose_discard(self, view: View) -> Card:
        """One of ``legal_discards(view)``."""
        raise NotImplementedError

    def choose_knock(self, view: View) -> KnockChoice:
        """Asked after a discard that leaves deadwood within the knock value. Default: knock."""
        return KnockChoice.KNOCK

    def end_hand(self, view: View, result: Settlement) -> None:
        """The hand is settled (``view`` still shows this seat's final ten cards)."""


def legal_discards(view: View) -> list[Card]:
    """The cards this seat may discard now: any, except the card just taken from the
    pile (the deal of eleven's opening discard may be any of the 11)."""
    if view.drawn_from_pile and view.drawn is not None:
        return [c for c in view.hand if c != view.drawn]
    return list(view.hand)


def knock_options(view: View) -> dict[Card, int]:
    """While this seat discards: each legal discard that goes out, with the deadwood of
    the ten cards it leaves: 0 is gin (the hand ends at once), anything else is within
    the knock value and the knock question follows (none after Play to Gin). The same
    answer as ``HandState.knock_options(seat)``; empty outside the DISCARD phase."""
    if view.phase is not Phase.DISCARD or view.to_move != view.seat:
        return {}
    pile_card = view.drawn if view.drawn_from_pile else None
    return knock_options_of(mask(view.hand), pile_card, 0 if view.play_to_gin else view.knock_value)


# ---- playing ------------------------------------------------------------------------

@dataclass
class HandRecord:
    """How one hand went, for the runner's tallies. With ``keep``, the hand itself too:
    ``start`` a copy as dealt, ``end`` the hand as it ended (its events, its result),
    what a game record is written from (``port.ginrummy.record``)."""

    result: Settlement
    first: int
    turns: int
    start: HandState | None = None
    end: HandState | None = None


@dataclass
class GameRecord:
    """A finished game between seat 0 and seat 1."""

    scores: tuple[int, int]
    winner: int | None
    hands: list[HandRecord] = field(default_factory=list)
    sheet: ScoreSheet | None = None    # the score sheet at the end (final totals, bonuses)
    boxes: tuple[int, int] = (0, 0)


class _Seats:
    """Passes events to both players, each filtered to what that seat may see."""

    def __init__(self, hand: HandState, players: tuple[Player, Player]) -> None:
        self.hand = hand
        self.players = players
        self.sent = 0

    def flush(self) -> None:
        events = self.hand.events
        while self.sent < len(events):
            e = events[self.sent]
            self.sent += 1
            hidden = Event(e.seat, e.act) if e.act is Act.DRAW_STOCK else e
            for seat, p in enumerate(self.players):
                p.observe(e if seat == e.seat else hidden)


def step(hand: HandState, player: Player, view: View) -> Move:
    """Ask ``player`` (the seat of ``view``, to move) for its move in the current phase
    and make it on ``hand``; the engine's ``Move`` says what happened. An illegal answer
    raises ``IllegalMove`` and changes nothing."""
    seat = view.seat
    if hand.phase is Phase.UPCARD_OFFER:
        if player.offer(view):
            return hand.take_upcard(seat)
        return hand.decline_upcard(seat)
    if hand.phase is Phase.DRAW:
        if Draw(player.choose_draw(view)) is Draw.PILE:
            return hand.draw_pile(seat)
        return hand.draw_stock(seat)
    if hand.phase is Phase.DISCARD:
        return hand.discard(seat, player.choose_discard(view))
    if hand.phase is Phase.KNOCK:
        answer = KnockChoice(player.choose_knock(view))
        if answer is KnockChoice.KNOCK:
            return hand.knock(seat)
        if answer is KnockChoice.PLAY_TO_GIN:
            return hand.play_to_gin(seat)
        return hand.play_on(seat)
    raise IllegalMove(f"seat {seat} cannot move: the hand is over", "the hand is over")


def play_hand(hand: HandState, players: tuple[Player, Player],
              scores: tuple[int, int] = (0, 0), max_turns: int = 1000,
              boxes: tuple[int, int] = (0, 0), keep: bool = False) -> HandRecord:
    """Play one dealt hand to its end, asking each player for its moves (``keep``: the
    record holds the hand as dealt and as it ended).

    A player that answers with an illegal move raises ``IllegalMove``: a bot's bug is
    reported, never silently replaced by another move. The engine ends every hand
    (at most 629 draws: see ``PILE_RUN_LIMIT``), so ``max_turns`` is only a guard.
    """
    first = hand.to_move
    start = hand.copy() if keep else None
    seats = _Seats(hand, players)
    for seat, p in enumerate(players):
        p.begin_hand(hand.view(seat, scores, boxes))
    turns = 0
    while hand.phase is not Phase.OVER:
        seat = hand.to_move
        p = players[seat]
        view = hand.view(seat, scores, boxes)
        if hand.phase is Phase.DRAW:
            turns += 1
            if turns > max_turns:
                raise RuntimeError(f"a hand ran past {max_turns} turns")   # a guard: the engine ends hands sooner
        step(hand, p, view)
        seats.flush()
    assert hand.result is not None
    for seat, p in enumerate(players):
        p.end_hand(hand.view(seat, scores, boxes), hand.result)
    return HandRecord(hand.result, first, turns, start, hand if keep else None)


def play_game(options: Options, rng: Rng, players: tuple[Player, Player],
              first: int = 0, keep: bool = False) -> GameRecord:
    """Play a whole game to the score limit (limit 0: one hand). ``keep``: each hand's
    record holds the hand as dealt and as it ended (for a game record); the play is
    the same either way."""
    game = Game(options, rng, first)
    record = GameRecord((0, 0), None)
    while True:
        scores = (game.scores[0], game.scores[1])
        boxes = (game.boxes[0], game.boxes[1])
        record.hands.append(play_hand(game.hand, players, scores, boxes=boxes, keep=keep))
        game.record()
        if game.over:
            break
        game.next_hand()
    record.scores = (game.scores[0], game.scores[1])
    record.boxes = (game.boxes[0], game.boxes[1])
    record.winner = game.winner
    record.sheet = game.sheet()
    return record


__all__ = ["Draw", "GameRecord", "HandRecord", "IllegalMove", "KnockChoice", "Move", "Outcome", "step",
           "Player", "knock_options", "legal_discards", "play_game", "play_hand"]
