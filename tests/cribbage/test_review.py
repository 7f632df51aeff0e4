"""Cribbage's review: each decision beside EXPERT's, the full table of throws, the
pegging choices, each with its cost in points (docs/review.md)."""
from __future__ import annotations

import random
import subprocess
import sys
from itertools import combinations
from pathlib import Path

from port.cards import CARDS, PascalRandom, card, parse
from port.cribbage import record
from port.cribbage.computer import Standard
from port.cribbage.easy import Easy
from port.cribbage.expert import Expert, expert_discard, expert_play
from port.cribbage.review import Decision, Recording, choices, judge, lines, record_lines, review
from port.cribbage.rules import HandState, Options, Phase, play_game, score_hand
from port.files.gamerecord import Meta
from tests.cribbage.test_computer import deal


def test_the_lay_away_table_holds_all_15_throws_with_exact_hands() -> None:
    state = deal("5S 5H JD 9C 2S KH", "AS 2H 5D 9D 7D 8D", "KD")       # seat 0 is pone
    view = state.view(0)
    j = judge(Decision(view, (card("5S"), card("5H"))))                # throwing the fives
    assert j is not None and len(j.table) == 15
    assert {frozenset(r.throw) for r in j.table} == {frozenset(t) for t in combinations(view.hand, 2)}
    totals = [r.total for r in j.table]
    assert totals == sorted(totals, reverse=True) and j.values[j.best] == totals[0]
    unseen = [c for c in CARDS if c not in view.hand]
    for r in j.table:                                   # the hand: exact, over the 46 starters
        assert len(r.shows) == 46
        assert r.hand == sum(score_hand(r.keep, s) for s in unseen) / 46
        assert r.crib < 0, "the opponent's crib is taken off"
        assert abs(r.total - (r.hand + r.crib + r.peg)) < 1e-9
    assert set(j.best) == set(expert_discard(view)), "away from the end, the table's best is EXPERT's"
    assert j.cost > 3 and "costs" in j.line() and j.line().startswith("hand 1, lay away: 5S 5H; EXPERT: 2S 9C (")
    rows = j.details()
    assert rows[0].split() == ["THROW", "KEEP", "HAND", "CRIB", "PEG", "TOTAL"] and len(rows) == 16
    assert rows[1].endswith("EXPERT") and sum(r.endswith("YOURS") for r in rows) == 1
    mine = deal("AS 2H 5D 9D 7D 8D", "5S 5H JD 9C 2S KH", "KD", dealer_seat=1).view(1)
    dealt = judge(Decision(mine, (card("JD"), card("KH"))))
    assert dealt is not None and all(r.crib > 0 for r in dealt.table), "my own crib is added"


def test_a_pegging_choice_is_judged_against_every_card_that_fits() -> None:
    state = deal("5S 4H TD JC 2S 3S", "AS 2H 5D 9C 7D 8D", "KD")
    for s in (0, 1):
        state.discard(s, tuple(state.hands[s][-2:]))
    state.play(0, card("TD"))                           # the pone leads a ten
    view = state.view(1)                                # AS 2H 5D 9C in hand
    j = judge(Decision(view, card("9C"), play=1))       # 19: the pone's ten or two make 21 or 31...
    assert j is not None and set(j.values) == set(view.legal_plays())
    assert j.best == expert_play(view) != card("9C") and j.cost > 1.5
    assert j.values[card("5D")] > j.values[card("9C")] + 1, "fifteen for 2 is worth more than 19"
    assert j.line().startswith(f"hand 1, play 1 at count 10: 9C; EXPERT: {j.best} (+2.84 to +0.91: costs 1.94)")
    assert j.details()[0].split()[::2] == ["AS", "2H", "5D", "9C"]       # by rank
    agreed = judge(Decision(view, j.best, play=1))
    assert agreed is not None and agreed.cost == 0 and "EXPERT agrees" in agreed.line()


def test_a_single_card_that_fits_is_no_decision() -> None:
    state = deal("KS QH JD AS TC 2S", "KD QD JC TH 9C 8D", "5C")
    for s in (0, 1):
        state.discard(s, tuple(state.hands[s][-2:]))
    state.play(0, card("KS"))
    state.play(1, card("KD"))
    state.play(0, card("QH"))                           # 30
    state.go(1)                                         # the dealer's tens do not fit: GO
    view = state.view(0)
    assert view.legal_plays() == [card("AS")]
    assert judge(Decision(view, card("AS"), play=3)) is None
    assert review([Decision(view, card("AS"), play=3)]) == []


def test_the_judgement_is_the_same_whatever_the_hidden_cards_are() -> None:
    mine, starter_not = parse("5S 4H TD JC 2S 3S"), parse("KD")
    seen = set()
    for k in range(3):
        rest = [c for c in CARDS if c not in mine + starter_not]
        random.Random(k).shuffle(rest)
        state = HandState.from_cards(1, mine, rest[:6], rest[6], (0, 0), Options())
        state.discard(1, tuple(state.hands[1][:2]))
        view = state.view(0)
        lay = judge(Decision(view, (card("2S"), card("3S"))))
        assert lay is not None
        seen.add(tuple(sorted((str(sorted(c)), round(v, 9)) for c, v in lay.values.items())))
    assert len(seen) == 1


def test_a_whole_games_review_lists_the_costliest_first_and_is_repeatable() -> None:
    seat = Recording(Easy(seed=1))
    game = play_game(Options(limit=61), PascalRandom(3), (seat, Standard()), keep=True)
    kinds = {d.lay_away for d in seat.decisions}
    assert kinds == {True, False} and sum(d.lay_away for d in seat.decisions) == len(game.hands)
    first = review(seat.decisions)
    costs = [j.cost for j in first]
    assert costs == sorted(costs, reverse=True) and costs[0] > 0 and min(costs) >= 0
    assert [j.line() for j in review(seat.decisions)] == [j.line() for j in first]
    text = lines(first)
    assert text[0].startswith(f"{len(first)} decisions: EXPERT agrees with ")
    assert "laying away" in text[0] and "pegging" in text[0]
    # A record of the same game gives the same decisions as the recording did.
    log = record.parse(record.write_game(game, Options(limit=61), Meta(("Dave", "HAL"), ("easy", "standard"))))
    from_record = list(choices(log, 0))
    assert [(d.choice if not d.lay_away else set(d.choice), d.hand, d.play) for d in from_record] == \
        [(d.choice if not d.lay_away else set(d.choice), d.hand, d.play) for d in seat.decisions]
    assert [j.line() for j in review(from_record)] == [j.line() for j in first]


def test_experts_own_choices_cost_nothing_away_from_the_end() -> None:
    seat = Recording(Expert())
    play_game(Options(limit=121), PascalRandom(5), (seat, Standard()))
    early = [d for d in seat.decisions if max(d.view.scores) < 70]
    assert early and all(j.cost == 0 for j in review(early))


def test_cribbage_review_file_prints_each_seats_review(tmp_path: Path) -> None:
    options = Options(limit=61)
    game = play_game(options, PascalRandom(4), (Easy(seed=2), Standard()), keep=True)
    path = tmp_path / "CR0001.REC"
    path.write_text(record.write_game(game, options, Meta(("Dave", "HAL"), ("easy", "standard"))))
    cmd = [sys.executable, "-m", "port.cribbage", "review", str(path)]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert out[0] == "Dave (seat 0):" and "decisions: EXPERT agrees with" in out[1]
    assert "HAL (seat 1):" in out and out[3].startswith("hand ")
    assert any(line.split() == ["THROW", "KEEP", "HAND", "CRIB", "PEG", "TOTAL"] for line in out)
    assert out == record_lines(record.read(path))
    only = subprocess.run(cmd + ["HAL"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert only.stdout.splitlines()[0] == "HAL (seat 1):" and "Dave (seat 0):" not in only.stdout
    bad = subprocess.run(cmd + ["Bob"], capture_output=True, text=True, timeout=300, cwd=tmp_path)
    assert bad.returncode == 2 and bad.stderr.count("\n") == 1
    assert "no seat of this record is named 'Bob'" in bad.stderr
    assert list(tmp_path.iterdir()) == [path]          # nothing written: it only prints
    helped = subprocess.run([sys.executable, "-m", "port.cribbage", "help"], capture_output=True, text=True,
                            timeout=300, cwd=tmp_path)
    assert "cribbage review FILE [name]" in helped.stdout


# ---- on screen: REVIEW (V) at a deal's end and the game's ---------------------------------

def test_v_at_the_hands_end_shows_the_hands_decisions_beside_experts(tmp_path: Path) -> None:
    from port.cribbage.main import layout as L
    from port.main.reviewscreen import ReviewScreen, wrap
    from port.screen.profiles import RED, YELLOW
    from tests.cribbage.helpers import box_up, click_at, in_game, open_cribbage, pixels_in
    from tests.cribbage.test_records import to_hand_end
    from tests.ginrummy.helpers import shows_text

    d = open_cribbage(tmp_path, score_limit=61, noanimation=True)
    s = in_game(d)
    t = s.table
    assert pixels_in(d, L.REVIEW_BOX.x, L.REVIEW_BOX.y, L.REVIEW_BOX.w, 1, RED) < L.REVIEW_BOX.w
    to_hand_end(d, t)
    d.step()
    assert box_up(t) and t.beat.box.title == "AFTER HAND 1"
    assert pixels_in(d, L.REVIEW_BOX.x, L.REVIEW_BOX.y, L.REVIEW_BOX.w, 1, RED) == L.REVIEW_BOX.w
    d.key("V")
    r = d.controller
    assert isinstance(r, ReviewScreen)
    assert shows_text(d, 8, 16, "REVIEW OF HAND 1: YOUR DECISIONS BESIDE EXPERT'S", YELLOW)
    d.step()                                          # the lines are made, then drawn
    assert r.rows is not None and "decisions: EXPERT agrees with" in r.rows[0]
    assert any(row.startswith("hand 1, lay away: ") for row in r.rows)
    assert not any(row.startswith("hand 2") for row in r.rows)
    assert any(row.split() == ["THROW", "KEEP", "HAND", "CRIB", "PEG", "TOTAL"] for row in r.rows)
    assert all(shows_text(d, 8, 52 + 14 * i, row) for i, row in enumerate(wrap(r.make())[:3]))
    d.key("B")                                        # back to the hand's end, as it was
    assert d.controller is s and box_up(t) and t.can_save
    click_at(d, L.REVIEW_BOX)                         # the box does it too
    assert isinstance(d.controller, ReviewScreen)
    d.key("RETURN")
    assert d.controller is s and box_up(t)
    d.key("SPACE")                                    # the box goes, the next deal comes
    d.step()
    assert not t.can_save


def test_at_the_games_end_the_review_is_of_the_whole_game(tmp_path: Path) -> None:
    from port.main.reviewscreen import ReviewScreen
    from tests.cribbage.helpers import in_game, open_cribbage
    from tests.cribbage.test_game import keyboard_game

    d = open_cribbage(tmp_path, score_limit=61, noanimation=True, seed=3)
    t = in_game(d).table
    keyboard_game(d, t)
    assert t.over
    d.key("V")
    d.step()
    r = d.controller
    assert isinstance(r, ReviewScreen) and r.title.startswith("REVIEW OF THE GAME")
    assert r.rows and any(row.startswith(f"hand {len(t.dealt)}") for row in r.rows)
    assert any(row.startswith("hand 1,") for row in r.rows)


def test_one_decision_is_said_in_the_singular() -> None:
    """A room game resigned after one move has a review of one decision (the lay-away)."""
    from port.cribbage.review import summary

    state = deal("5S 5H JD 9C 2S KH", "AS 2H 5D 9D 7D 8D", "KD")
    view = state.view(0)
    wrong = judge(Decision(view, (card("5S"), card("5H"))))
    right = judge(Decision(view, tuple(expert_discard(view))))
    assert wrong is not None and right is not None
    assert summary([right]) == "1 decision: EXPERT agrees with it."
    assert summary([wrong]) == f"1 decision: EXPERT chose otherwise; it cost {wrong.cost:.2f} points (laying away)."
