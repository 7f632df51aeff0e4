"""Search on Cribbage's exact rules (``port.cribbage.rules.search``): a position stepped
by the environments' action numbers, its clone, and ``sample_world``."""
from __future__ import annotations

import copy
import random

import pytest

from port.cards import card, parse
from port.cribbage.rules import Act, HandState, IllegalMove, Options, Phase, RANK_VALUE, sample_world
from port.cribbage.rules.search import GO, Position
from port.cribbage.rules.state import GameState

CHI2_999 = {45: 80.08}      # degrees of freedom -> the value a uniform sample passes 999 times in 1,000


def test_a_discard_is_two_steps_of_the_same_seat_and_go_is_52() -> None:
    p = Position.deal(Options(), seed=3, first_dealer=1)
    pone = p.to_move()
    assert pone == 0 and len(p.legal_actions()) == 6
    first = p.legal_actions()[0]
    p.step(first)
    assert p.to_move() == 0 and first not in p.legal_actions() and len(p.legal_actions()) == 5
    p.step(p.legal_actions()[0])
    assert p.to_move() == 1 and p.hand.cribs[0]
    with pytest.raises(IllegalMove, match="not legal now"):
        p.step(GO)


@pytest.mark.parametrize("copier", [Position.clone, copy.deepcopy])     # deepcopy: how OpenSpiel copies
def test_a_clone_moves_on_its_own_and_a_game_deals_on(copier) -> None:
    p = Position.deal(Options(limit=61), seed=8, episode="game")
    q = copier(p)
    rng = random.Random(1)
    while not q.terminal:
        q.step(rng.choice(q.legal_actions()))
    assert p.hand.phase is Phase.DISCARD and p.hand.scores == (0, 0)
    assert q.game.over and q.game.hands_dealt > 1 and max(q.hand.scores) == 61
    d = float(q.hand.scores[0] - q.hand.scores[1])
    assert q.returns() == (d, -d)


def test_a_deals_returns_are_its_points_and_the_game_keeps_the_scores_before_it() -> None:
    game = GameState.at(HandState.from_cards(1, parse("5S 5H 5D JC 2S 3S"), parse("4S 6S 8D 9D KH QH"),
                                             card("5C"), scores=(30, 40)), rng=None)  # type: ignore[arg-type]
    p = Position(game)
    rng = random.Random(4)
    while not p.terminal:
        p.step(rng.choice(p.legal_actions()))
    assert game.scores == (30, 40) and game.board == p.hand.scores
    gained = [game.board[s] - game.scores[s] for s in (0, 1)]
    assert p.returns() == (gained[0] - gained[1], gained[1] - gained[0])


def test_every_sampled_world_shows_the_seat_the_view_it_was_sampled_from() -> None:
    rng = random.Random(3)
    checked = gos = 0
    for g in range(12):
        p = Position.deal(Options(), seed=g)
        while True:
            for seat in (0, 1):
                view = p.view(seat)
                world = sample_world(view, rng, pending=p.pending if p.to_move() == seat else None)
                assert world.view(seat) == view
                if p.to_move() == seat:
                    assert world.legal_actions() == p.legal_actions()
                checked += 1
            if p.terminal:
                break
            p.step(rng.choice(p.legal_actions()))
        gos += sum(e.act is Act.GO for e in p.hand.events)
    assert checked > 300 and gos > 0


def test_a_go_said_is_kept_true_in_every_sample() -> None:
    """Seat 1 said GO at 25: no card it still held then was 6 or less, in any sample."""
    hand = HandState.from_cards(1, parse("TS JS QS KS 2C 3C"), parse("9H 8H 7H TH AD 4D"), card("5C"))
    hand.discard(0, parse("2C 3C"))
    hand.discard(1, parse("AD 4D"))
    hand.play(0, card("TS"))
    hand.play(1, card("7H"))      # 17
    hand.play(0, card("QS"))      # 27: seat 1's 9H 8H TH do not fit
    assert hand.count == 27
    hand.go(1)
    view = hand.view(0)
    rng = random.Random(2)
    for _ in range(300):
        world = sample_world(view, rng)
        held = world.hand.hands[1]
        assert all(RANK_VALUE[c.rank] > 4 for c in held), held


def test_the_hidden_cards_are_drawn_uniformly() -> None:
    """Before the discard, each of the 46 cards the dealer has not seen is the starter
    as often as any other (chi-square over 4,600 samples)."""
    p = Position.deal(Options(), seed=12, first_dealer=0)
    view = p.view(0)
    rng = random.Random(6)
    unseen = sorted(set(range(52)) - set(view.hand))
    counts = {c: 0 for c in unseen}
    n = 4600
    for _ in range(n):
        counts[sample_world(view, rng).hand.stock[-1]] += 1
    expected = n / len(unseen)
    assert sum((c - expected) ** 2 / expected for c in counts.values()) < CHI2_999[45]


def test_a_deals_clone_has_every_field_and_shares_no_list() -> None:
    p = Position.deal(Options(), seed=5)
    rng = random.Random(1)
    for _ in range(9):
        p.step(rng.choice(p.legal_actions()))
    h = p.hand
    c = h.clone()
    for name in HandState.__slots__:
        mine, theirs = getattr(h, name), getattr(c, name)
        assert mine == theirs, name
        assert type(mine) is not list or mine is not theirs, name
    assert c.hands[0] is not h.hands[0] and c.hands[1] is not h.hands[1]
