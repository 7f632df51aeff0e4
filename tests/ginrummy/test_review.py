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


# ---- on screen: REVIEW (V) at the hand's end and the game's -------------------------------

def test_v_at_the_hands_end_shows_the_hands_decisions_beside_experts(tmp_path) -> None:
    from port.ginrummy.main import play
    from port.ginrummy.main.table import Mode
    from port.main.reviewscreen import ReviewScreen, wrap
    from port.screen.profiles import RED, YELLOW
    from tests.ginrummy.helpers import click_at, open_game, pixels_in, shows_text
    from tests.ginrummy.test_records import to_hand_end

    d = open_game(tmp_path)
    s = to_hand_end(d)                                # drew from the deck, threw it, knocked
    assert pixels_in(d, *play.REVIEW_BOX[:2], play.REVIEW_BOX.w, 1, RED) == play.REVIEW_BOX.w
    d.key("V")
    r = d.controller
    assert isinstance(r, ReviewScreen)
    assert shows_text(d, 8, 16, "REVIEW OF HAND 1: YOUR DECISIONS BESIDE EXPERT'S", YELLOW)
    d.step()                                          # the lines are made, then drawn
    assert r.rows is not None and r.rows[0].startswith("3 decisions: EXPERT agrees with")
    assert r.rows[0] == "3 decisions: EXPERT agrees with every one."     # the knock with 5
    assert any("hand 1, turn 1: knock" in row for row in r.rows)
    assert all(shows_text(d, 8, 52 + 14 * i, row) for i, row in enumerate(wrap(r.make())[:3]))
    assert shows_text(d, 8, 52 + 14, "%: the chance to win the game after a choice; costs: points of win chance.")
    d.key("B")                                        # back to the hand's end, as it was
    assert d.controller is s and s.table.mode is Mode.HAND_END
    click_at(d, play.REVIEW_BOX)                      # the box does it too
    assert isinstance(d.controller, ReviewScreen)
    d.key("RETURN")
    d.key("RETURN")                                   # the next hand
    assert s.table.mode is not Mode.HAND_END


def test_at_the_games_end_the_review_is_of_the_whole_game(tmp_path) -> None:
    from port.ginrummy.main.table import Mode
    from port.main.reviewscreen import ReviewScreen
    from tests.ginrummy.helpers import open_game
    from tests.ginrummy.test_records import to_hand_end

    d = open_game(tmp_path, score_limit=0)
    s = to_hand_end(d)
    d.key("RETURN")
    assert s.table.mode is Mode.GAME_END
    d.key("V")
    d.step()
    r = d.controller
    assert isinstance(r, ReviewScreen) and r.title.startswith("REVIEW OF THE GAME")
    assert r.rows and "3 decisions" in r.rows[0]


def test_ginrummy_review_file_prints_each_seats_review(tmp_path) -> None:
    import subprocess
    import sys

    from port.files.gamerecord import Meta
    from port.ginrummy import record

    game = play_game(Options(score_limit=30, first_turn=FirstTurn.ALTERNATE), PascalRandom(4),
                     (Easy(seed=2), Standard()), keep=True)
    path = tmp_path / "GR0001.REC"
    path.write_text(record.write_game(game, Options(score_limit=30, first_turn=FirstTurn.ALTERNATE),
                                      Meta(("Dave", "HAL"), ("easy", "standard"))))
    cmd = [sys.executable, "-m", "port.ginrummy", "review", str(path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0] == "Dave (seat 0):" and "decisions: EXPERT agrees with" in out[1]
    assert out[2] == "%: the chance to win the game after a choice; costs: points of win chance."
    assert "HAL (seat 1):" in out and out[3] == "" and out[4].startswith("hand ")
    only = subprocess.run(cmd + ["HAL"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert only.stdout.splitlines()[0] == "HAL (seat 1):" and "Dave (seat 0):" not in only.stdout
    bad = subprocess.run(cmd + ["Bob"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1 and "no seat of this record is named 'Bob'" in bad.stderr
    assert list(tmp_path.iterdir()) == [path]          # nothing written: it only prints
