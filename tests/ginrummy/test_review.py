"""GinRummy's review: each decision beside EXPERT's, with what it cost (docs/review.md)."""
from __future__ import annotations

import random

from port.cards import CARDS, PascalRandom, card, parse
from port.ginrummy.computer import Easy, Standard
from port.ginrummy.review import Decision, Recording, judge, review, words
from port.ginrummy.rules import Draw, FirstTurn, HandState, KnockChoice, Options, Phase, play_game
from tests.ginrummy.test_rules import position

MINE = "AS 2S 3S 7H 7D 7C KD QC 9S 4D"      # two melds, loose KD QC 9S 4D: deadwood 33


def at_discard(stock_top: str = "JH") -> HandState:
    h = position(MINE, "2H 3H 4H 8C 8D 8S TC TD JC 5C", "6C", stock_top)
    h.draw_stock(0)                          # seat 0 draws the JH: now it must discard
    return h


def test_breaking_a_meld_costs_more_than_throwing_a_loose_card() -> None:
    h = at_discard()
    bad = judge(Decision(h.view(0), card("2S")))
    run, loose = parse("AS 2S 3S"), parse("KD QC JH 9S 4D")
    assert bad.best in loose and bad.cost > 2
    assert max(bad.values[c] for c in run) < min(bad.values[c] for c in parse("KD QC JH"))
    assert set(bad.values) == set(h.view(0).hand)  # every legal discard was judged
    good = judge(Decision(h.view(0), bad.best))
    assert good.cost == 0 and good.values == bad.values
    assert "EXPERT agrees" in good.line() and f"costs {bad.cost:.1f}" in bad.line()


def test_a_draw_and_a_knock_question_are_judged_too() -> None:
    h = position(MINE, "2H 3H 4H 8C 8D 8S TC TD JC 5C", "KS", "JH")
    draw = judge(Decision(h.view(0), Draw.PILE))
    assert set(draw.values) == {Draw.STOCK, Draw.PILE}
    low = position("AS 2S 3S 4H 5H 6H 7D 7C 7S 2D", "2H 3H KH 8C 8D 8S TC TD JC 5C", "KS", "9C")
    low.draw_stock(0)
    low.discard(0, card("9C"))               # deadwood 2: the knock question
    assert low.phase is Phase.KNOCK
    knock = judge(Decision(low.view(0), KnockChoice.PLAY_TO_GIN))
    assert set(knock.values) == {KnockChoice.KNOCK, KnockChoice.PLAY_ON, KnockChoice.PLAY_TO_GIN}
    assert knock.best is KnockChoice.KNOCK and knock.cost > 0     # 2 points against a stranger's 10 cards


def test_the_judgement_is_the_same_whatever_the_hidden_cards_are() -> None:
    # The same view in deals whose other hand and stock differ: the same values.
    seen = set()
    for stock in ("JH 5C", "JH KH", "JH 2C"):
        rest = [c for c in CARDS if c not in parse(MINE) + parse("6C") + parse(stock)]
        random.Random(len(seen)).shuffle(rest)
        other = " ".join(str(c) for c in rest[:10])
        h = position(MINE, other, "6C", stock)
        h.draw_stock(0)
        j = judge(Decision(h.view(0), card("4D")))
        seen.add(tuple(sorted((str(c), round(v, 9)) for c, v in j.values.items())))
    assert len(seen) == 1


def test_a_whole_games_review_lists_the_costliest_first_and_is_repeatable() -> None:
    seat = Recording(Easy(seed=1))
    play_game(Options(score_limit=40, first_turn=FirstTurn.ALTERNATE), PascalRandom(3), (seat, Standard()))
    assert {type(d.choice) for d in seat.decisions} >= {Draw, type(card("AS"))}
    first = review(seat.decisions)
    costs = [j.cost for j in first]
    assert costs == sorted(costs, reverse=True) and costs[0] > 0 and min(costs) >= 0
    assert [j.line() for j in review(seat.decisions)] == [j.line() for j in first]
    assert all(j.chosen in j.values or not j.values for j in first)
    assert words(Draw.STOCK) == "draw from the deck" and words(card("7H")) == "discard 7H"
