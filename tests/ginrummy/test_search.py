"""Search on GinRummy's exact rules (``port.ginrummy.rules.search``): a position stepped
by the environments' action numbers, its clone, and ``sample_world``."""
from __future__ import annotations

import copy
import random

import pytest

from port.ginrummy.rules import IllegalMove, Options, Phase, deadwood, sample_world
from port.ginrummy.rules.search import DISCARD0, DRAW_STOCK, KNOCK, Position

# The chi-square statistic's value that a uniform sample passes 999 times in 1,000
# (degrees of freedom -> critical value).
CHI2_999 = {1: 10.83, 40: 73.40}


def chi_square(counts: list[int], expected: list[float]) -> float:
    return sum((c - e) ** 2 / e for c, e in zip(counts, expected))


def random_positions(options: Options, games: int, seed: int, episode: str = "hand"):
    """Positions met in random play, each with the seat to look from."""
    rng = random.Random(seed)
    for g in range(games):
        p = Position.deal(options, seed=g, episode=episode)
        while not p.terminal:
            if rng.random() < 0.1:
                yield p, rng.choice((0, 1))
            p.step(rng.choice(p.legal_actions()))
        yield p, rng.choice((0, 1))


def test_a_position_steps_by_the_environments_action_numbers() -> None:
    p = Position.deal(Options(score_limit=0), seed=20)
    assert p.to_move() == 0 and p.legal_actions() == [0, 1]
    p.step(DRAW_STOCK)
    assert p.hand.phase is Phase.DISCARD
    assert p.legal_actions() == [DISCARD0 + c for c in sorted(p.hand.hand(0))]
    with pytest.raises(IllegalMove, match="not legal now"):
        p.step(KNOCK)
    with pytest.raises(IllegalMove, match="whole number"):
        p.step(2.5)                                      # type: ignore[arg-type]


@pytest.mark.parametrize("copier", [Position.clone, copy.deepcopy])     # deepcopy: how OpenSpiel copies
def test_a_clone_moves_on_its_own(copier) -> None:
    p = Position.deal(Options(score_limit=100), seed=5, episode="game")
    q = copier(p)
    rng = random.Random(1)
    while not q.terminal:
        q.step(rng.choice(q.legal_actions()))
    assert p.hand.events == [] and p.game.scores == [0, 0] and p.legal_actions() == [0, 1]
    assert q.game.over and q.returns()[0] == -q.returns()[1] != 0


def test_a_hand_ends_with_its_points_as_returns() -> None:
    rng = random.Random(2)
    outcomes = set()
    for _ in range(100):
        p = Position.deal(Options(score_limit=0), seed=rng.getrandbits(32))
        while not p.terminal:
            acts = p.legal_actions()
            if KNOCK in acts:                                   # knock whenever offered
                p.step(KNOCK)
            elif acts[0] >= DISCARD0:                           # the discard leaving least deadwood
                held = p.hand.hand(p.to_move())
                p.step(min(acts, key=lambda a: deadwood([c for c in held if c != a - DISCARD0])))
            else:
                p.step(rng.choice(acts))
        r = p.hand.result
        assert r is not None
        outcomes.add(r.outcome.value)
        want = 0.0 if r.winner is None else float(r.points) * (1 if r.winner == 0 else -1)
        assert p.returns() == (want, -want)
    assert {"knock", "draw"} <= outcomes


@pytest.mark.parametrize("options", [Options(score_limit=0), Options(score_limit=0, oklahoma=True),
                                     Options(score_limit=0, upcard_offer=True),
                                     Options(score_limit=0, deal_eleven=True),
                                     Options(score_limit=0, knock_deck=True)],
                         ids=["default", "oklahoma", "upcard-offer", "deal-eleven", "knock-deck"])
def test_every_sampled_world_shows_the_seat_the_view_it_was_sampled_from(options: Options) -> None:
    rng = random.Random(7)
    checked = 0
    for p, seat in random_positions(options, 6, 1):
        view = p.view(seat)
        world = sample_world(view, rng)
        assert world.view(seat) == view
        if p.to_move() == seat:
            assert world.legal_actions() == p.legal_actions()
        checked += 1
    assert checked > 30


def test_a_world_sampled_in_a_game_keeps_the_scores() -> None:
    rng = random.Random(3)
    p = Position.deal(Options(score_limit=100), seed=4, episode="game")
    p.game.scores = [40, 25]
    for _ in range(30):
        p.step(rng.choice(p.legal_actions()))
        seat = rng.choice((0, 1))
        world = sample_world(p.view(seat), rng, episode="game")
        assert world.view(seat) == p.view(seat) and world.game.scores == [40, 25]


def test_the_hidden_cards_are_drawn_uniformly() -> None:
    """Before any move the 41 cards seat 1 has not seen are equally likely to be the
    stock's top (chi-square over 4,100 samples)."""
    p = Position.deal(Options(score_limit=0), seed=11)
    view = p.view(1)
    rng = random.Random(5)
    unseen = sorted(set(range(52)) - set(view.hand) - {view.upcard})
    tops = {c: 0 for c in unseen}
    n = 4100
    for _ in range(n):
        tops[sample_world(view, rng).hand.stock[-1]] += 1
    assert chi_square(list(tops.values()), [n / 41] * 41) < CHI2_999[40]


def test_a_discarded_card_came_from_the_deal_or_a_stock_draw_before_it_in_proportion() -> None:
    """Seat 0 draws from the stock and discards: the card came from its ten dealt cards
    or the one drawn, so it was the drawn card one time in eleven. (Knocking off, so no
    knock question weighs on the deals.)"""
    options = Options(score_limit=0, knocking=False)
    p = Position.deal(options, seed=3)
    p.step(DRAW_STOCK)
    p.step(p.legal_actions()[0])
    view = p.view(1)
    discarded = view.pile[-1]
    rng = random.Random(9)
    n = 2200
    drawn = sum(1 for _ in range(n) if sample_world(view, rng).hand.events[0].card == discarded)
    assert chi_square([drawn, n - drawn], [n / 11, n * 10 / 11]) < CHI2_999[1]


def play_on_positions(count: int, seed: int):
    """Positions at a seat's draw after the other seat answered a knock question with
    play on (seats that discard to the least deadwood, and play on two questions in
    three): scripts/sample_check.py's, so that its measurements and these tests look
    at the same positions."""
    import importlib.util
    from pathlib import Path

    path = Path(__file__).resolve().parents[2] / "scripts" / "sample_check.py"
    spec = importlib.util.spec_from_file_location("sample_check", path)
    assert spec is not None and spec.loader is not None
    script = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(script)
    return script.play_on_views(count, seed)


def test_after_a_play_on_the_cheap_knock_question_check_agrees_with_the_engines_replay() -> None:
    """``sample_world`` rejects most deals on the other hand's deadwood at its knock
    questions before replaying them: that check must keep exactly the deals the
    engine's replay keeps, or the sample would not be uniform."""
    from port.ginrummy.rules.search import _Frame

    rng = random.Random(4)
    kept = 0
    for p, seat in play_on_positions(4, seed=2):
        frame = _Frame(p.view(seat))
        assert frame.asks                                   # the view shows a question asked
        for _ in range(400):
            cards = frame.draw(rng)
            passes = frame.misfit(cards, 1) == 0
            assert passes == (frame.build(cards, rng, "hand") is not None)
            kept += passes
        for _ in range(300):                                # the early rejection keeps only consistent deals
            cards = frame.draw(rng, asked=True)
            if cards is not None and not frame.misfit(cards, 1):
                assert frame.build(cards, rng, "hand") is not None
    assert kept > 0


def test_after_a_play_on_the_exact_draws_and_the_chain_show_the_seat_its_view() -> None:
    from port.ginrummy.rules.search import chained_world, exact_world

    rng = random.Random(6)
    for p, seat in play_on_positions(3, seed=5):
        view = p.view(seat)
        exact = exact_world(view, rng, tries=200000)
        assert exact is not None and exact.view(seat) == view
        chained = chained_world(view, rng, mix=200)
        assert chained.view(seat) == view and chained.legal_actions() == p.legal_actions()
