"""The player interface: what a bot is told, and that it cannot see more (the
documentation: the computer "does not look at the deck ... does not look at your hand")."""
from __future__ import annotations

from pathlib import Path

import pytest

from port.cards import Card, PascalRandom, parse
from port.ginrummy.computer import Standard
from port.ginrummy.rules.options import Options
from port.ginrummy.levels import load_player
from port.ginrummy.rules.players import (Draw, GameRecord, KnockChoice, Player, legal_discards, play_game,
                                play_hand)
from port.ginrummy.rules.state import Act, Event, Game, HandState, IllegalMove, Phase, View

ROOT = Path(__file__).resolve().parents[2]


class Spy(Standard):
    """STANDARD that keeps every view and event it is given."""

    def __init__(self) -> None:
        super().__init__()
        self.views: list[View] = []
        self.events: list[Event] = []

    def begin_hand(self, view: View) -> None:
        self.views.append(view)

    def observe(self, event: Event) -> None:
        self.events.append(event)

    def choose_draw(self, view: View) -> Draw:
        self.views.append(view)
        return super().choose_draw(view)

    def choose_discard(self, view: View) -> Card:
        self.views.append(view)
        return super().choose_discard(view)

    def choose_knock(self, view: View) -> KnockChoice:
        self.views.append(view)
        return super().choose_knock(view)


def _reachable(root: object) -> list[object]:
    """Every object reachable from ``root`` through attributes and containers."""
    seen: dict[int, object] = {}
    todo = [root]
    while todo:
        o = todo.pop()
        if id(o) in seen or isinstance(o, (str, bytes, type(None), bool, float)):
            continue
        seen[id(o)] = o
        if isinstance(o, dict):
            todo.extend(o.keys())
            todo.extend(o.values())
        elif isinstance(o, (list, tuple, set, frozenset)):
            todo.extend(o)
        for name in getattr(type(o), "__slots__", ()):
            if hasattr(o, name):
                todo.append(getattr(o, name))
        if hasattr(o, "__dict__"):
            todo.append(vars(o))
    return list(seen.values())


def _public_cards(hand: HandState, seat: int) -> set[int]:
    """Cards this seat may know at the end of play: its own, the pile, and every card
    shown by an event it may see (pile draws, discards, its own stock draws)."""
    known = set(hand.hand(seat)) | set(hand.pile) | {hand.upcard}
    for e in hand.events:
        if e.card is not None and (e.act is not Act.DRAW_STOCK or e.seat == seat):
            known.add(int(e.card))
    return known


def test_a_bot_cannot_reach_the_other_hand_or_the_stock() -> None:
    for seed in range(6):
        spies = (Spy(), Spy())
        hand = HandState.deal(Options(), PascalRandom(seed))
        stock_at_start = list(hand.stock)
        play_hand(hand, spies)
        for seat, spy in enumerate(spies):
            allowed = _public_cards(hand, seat)
            # Everything the bot was given, and everything it built from it.
            for o in _reachable((spy.views, spy.events, spy)):
                assert not isinstance(o, (HandState, Game)), "a bot was handed the state"
                if isinstance(o, Card):
                    assert int(o) in allowed, f"seat {seat} could see {o}"
                if isinstance(o, list) and len(o) > 2:
                    assert o != stock_at_start[-len(o):], "a bot was handed the stock"
            # The views hold no mask or list of the other hand either.
            other = hand.hands[1 - seat]
            for o in _reachable(spy.views):
                assert not (isinstance(o, int) and not isinstance(o, (Card, bool)) and o == other and o > 52)


def test_the_opponents_stock_draws_are_hidden_and_the_own_are_shown() -> None:
    spies = (Spy(), Spy())
    hand = HandState.deal(Options(), PascalRandom(3))
    play_hand(hand, spies)
    for seat, spy in enumerate(spies):
        for e in spy.events:
            if e.act is Act.DRAW_STOCK:
                assert (e.card is not None) == (e.seat == seat)
        assert len(spy.events) == len(hand.events)


def test_views_are_frozen_copies() -> None:
    hand = HandState.deal(Options(), PascalRandom(1))
    view = hand.view(0)
    with pytest.raises(AttributeError):
        view.hand = ()   # type: ignore[misc]
    assert isinstance(view.hand, tuple) and isinstance(view.pile, tuple)


def test_each_choice_is_asked_in_its_phase_with_the_seat_to_move() -> None:
    spies = (Spy(), Spy())
    play_hand(HandState.deal(Options(), PascalRandom(8)), spies)
    for seat, spy in enumerate(spies):
        for v in spy.views[1:]:
            assert v.seat == seat and v.to_move == seat
            assert v.phase in (Phase.DRAW, Phase.DISCARD, Phase.KNOCK)
            assert len(v.hand) == (11 if v.phase is Phase.DISCARD else 10)


class PileGrabber(Player):
    """Takes the pile card and tries to throw it straight back: a bot's bug."""

    def choose_draw(self, view: View) -> Draw:
        return Draw.PILE

    def choose_discard(self, view: View) -> Card:
        assert view.drawn is not None
        return view.drawn


def test_an_illegal_answer_is_reported_not_replaced() -> None:
    hand = HandState.deal(Options(), PascalRandom(2))
    with pytest.raises(IllegalMove):
        play_hand(hand, (PileGrabber(), Standard()))


def test_legal_discards_leave_out_the_card_just_taken_from_the_pile() -> None:
    hand = HandState.deal(Options(), PascalRandom(2))
    top = hand.pile_top
    hand.draw_pile(0)
    legal = legal_discards(hand.view(0))
    assert top not in legal and len(legal) == 10


class Smallest(Player):
    """The example bot of docs/players.md: keep low cards."""

    def choose_discard(self, view: View) -> Card:
        return max(legal_discards(view), key=lambda c: (c.value, c))


def test_a_minimal_bot_plays_a_whole_game() -> None:
    record = play_game(Options(score_limit=50), PascalRandom(4), (Smallest(), Standard()))
    assert isinstance(record, GameRecord)
    assert max(record.scores) >= 50 and record.winner in (0, 1)


def test_players_are_named_by_level_or_by_file() -> None:
    assert load_player("standard").name == "standard"
    assert load_player("EASY").name == "easy"
    bot = load_player(str(ROOT / "scripts" / "reference_bot.py") + ":ReferenceBot")
    assert bot.name == "reference"
    with pytest.raises(ValueError):
        load_player("nobody")


def test_the_reference_bot_takes_the_upcard_only_for_a_meld() -> None:
    bot = load_player(str(ROOT / "scripts" / "reference_bot.py") + ":ReferenceBot")
    hand = HandState(Options(), _deck("AS 2S 4H 6D 8C TH QD KC 9H 5C", "3S"))
    assert bot.choose_draw(hand.view(0)) is Draw.PILE
    hand = HandState(Options(), _deck("AS 2S 4H 6D 8C TH QD KC 9H 5C", "2H"))
    assert bot.choose_draw(hand.view(0)) is Draw.STOCK


def _deck(seat0: str, upcard: str) -> list[Card]:
    """A deck that deals ``seat0`` to seat 0 (seat 1 gets other cards) and turns up ``upcard``."""
    mine = parse(seat0)
    up = parse(upcard)[0]
    rest = [Card(i) for i in range(52) if Card(i) not in mine and Card(i) != up]
    top: list[Card] = []
    for i in range(10):
        top += [mine[i], rest.pop()]
    top.append(up)
    return rest + top[::-1]


def test_the_example_bot_of_the_documentation_plays(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "players.md").read_text()
    code = text.split("```python\n", 1)[1].split("```", 1)[0]
    (tmp_path / "mybot.py").write_text(code)
    bot = load_player(str(tmp_path / "mybot.py") + ":LowCards")
    record = play_game(Options(score_limit=50), PascalRandom(6), (bot, Standard()))
    assert record.winner in (0, 1)
