"""EXPERT: its choices are legal, the same for a seed, and never depend on hidden
cards; its table of the chance to win the game is sound."""
from __future__ import annotations

import random

from port.cards import CARDS, Card, PascalRandom, parse
from port.ginrummy.computer import Standard, choose_discard
from port.ginrummy.expert import Expert
from port.ginrummy.rules.options import FirstTurn, Options
from port.ginrummy.rules.players import Draw, KnockChoice, Player, legal_discards, play_game
from port.ginrummy.rules.state import HandState, Phase, View
from port.ginrummy.wintable import WinTable, starter_points, win_table


class Checked(Player):
    """Wraps EXPERT: every answer must be one of the legal ones of its view."""

    def __init__(self, inner: Expert) -> None:
        self.inner = inner
        self.asked = 0

    def choose_draw(self, view: View) -> Draw:
        self.asked += 1
        d = self.inner.choose_draw(view)
        assert d in (Draw.STOCK, Draw.PILE) and (view.pile_top is not None or d is Draw.STOCK)
        return d

    def choose_discard(self, view: View) -> Card:
        self.asked += 1
        c = self.inner.choose_discard(view)
        assert c in legal_discards(view)
        return c

    def choose_knock(self, view: View) -> KnockChoice:
        self.asked += 1
        k = self.inner.choose_knock(view)
        assert k in (KnockChoice.KNOCK, KnockChoice.PLAY_ON, KnockChoice.PLAY_TO_GIN)
        return k


def test_expert_plays_legal_moves_under_every_family_of_rules() -> None:
    for options in (Options(score_limit=40, first_turn=FirstTurn.ALTERNATE),
                    Options(score_limit=40, oklahoma=True),
                    Options(score_limit=30, knocking=False),
                    Options(score_limit=0)):
        p = Checked(Expert(seed=3))
        record = play_game(options, PascalRandom(17), (p, Standard()))
        assert record.winner in (0, 1, None) and p.asked > 10


def test_expert_is_the_same_for_a_seed() -> None:
    o = Options(score_limit=25, first_turn=FirstTurn.ALTERNATE)
    a = play_game(o, PascalRandom(5), (Expert(seed=8), Standard()))
    b = play_game(o, PascalRandom(5), (Expert(seed=8), Standard()))
    assert a.scores == b.scores
    assert [h.result.points for h in a.hands] == [h.result.points for h in b.hands]


def _twin_deck(mine: list[Card], up: Card, keep1: list[Card], stock_top: list[Card],
               rng: random.Random) -> list[Card]:
    """A deck dealing ``mine`` to seat 0 (first) and ``keep1`` plus random cards to
    seat 1, turning ``up``, with the stock's top cards ``stock_top`` (None: random)."""
    fixed = set(mine) | {up} | set(keep1) | {c for c in stock_top if c is not None}
    free = [c for c in CARDS if c not in fixed]
    rng.shuffle(free)
    theirs = keep1 + [free.pop() for _ in range(10 - len(keep1))]
    stock = [c if c is not None else free.pop() for c in stock_top] + free   # top first
    dealt: list[Card] = []
    for a, b in zip(mine, theirs):
        dealt += [a, b]
    dealt.append(up)
    return stock[::-1] + dealt[::-1]


def test_expert_decides_the_same_whatever_the_hidden_cards_are() -> None:
    # Seat 0 takes the upcard and throws; seat 1 draws from the stock (a hidden card)
    # and throws a card it was dealt. Seat 0's view is then the same in every deal
    # below, while seat 1's hand and the stock differ: EXPERT's draw, discard and knock
    # answers must not differ either (with the same seed).
    rng = random.Random(2)
    searched = 0
    for trial in range(6):
        cards = rng.sample(CARDS, 14)
        mine, up, thrown, x, t = cards[:10], cards[10], cards[11], cards[12], cards[13]
        decisions = set()
        for world in range(4):
            deck = _twin_deck(mine, up, [x], [None, t], random.Random(100 * trial + world))
            hand = HandState(Options(), deck)
            hand.draw_pile(0)
            throw = choose_discard(hand.view(0))
            hand.discard(0, throw)
            if hand.phase is Phase.KNOCK:
                hand.play_on(0)
            hand.draw_stock(1)
            hand.discard(1, x)
            if hand.phase is Phase.KNOCK:
                hand.play_on(1)
            expert = Expert(seed=9)
            state = expert.rng.getstate()
            answers: list[object] = [expert.choose_draw(hand.view(0))]
            if answers[0] is Draw.PILE:
                hand.draw_pile(0)
            else:
                hand.draw_stock(0)
            answers.append(expert.choose_discard(hand.view(0)))
            hand.discard(0, answers[-1])   # type: ignore[arg-type]
            if hand.phase is Phase.KNOCK:
                answers.append(expert.choose_knock(hand.view(0)))
            searched += expert.rng.getstate() != state
            decisions.add((str(throw), tuple(str(a) for a in answers)))
        assert len(decisions) == 1, decisions
    assert searched > 0   # the positions did make EXPERT sample worlds


def test_the_win_table_is_symmetric_and_rises_with_the_score() -> None:
    t = win_table(Options(first_turn=FirstTurn.ALTERNATE))
    for i, j in ((0, 0), (30, 70), (95, 10), (50, 50)):
        assert abs(t.chance(i, j, True) + t.chance(j, i, False) - 1) < 1e-9
    assert t.chance(0, 0, True) > t.chance(0, 0, False)   # the starter is ahead a little
    assert t.chance(90, 50, True) > t.chance(80, 50, True) > t.chance(50, 50, True)
    assert t.price(90, 95, True, 10) == 1.0 and t.price(90, 95, True, -5) == 0.0
    # Limit 0: one hand is the game.
    assert WinTable(Options(score_limit=0)).price(0, 0, True, 3) == 1.0


def test_bonuses_enter_the_hand_points_of_the_table() -> None:
    base = starter_points(Options())
    more = starter_points(Options(gin_bonus=10, undercut_bonus=10))
    assert abs(sum(base.values()) - 1) < 1e-9 and abs(sum(more.values()) - 1) < 1e-9
    assert max(base) > max(more)   # gins score 15 fewer
    # Oklahoma's spade upcard doubles: larger extremes than plain knocking.
    assert max(starter_points(Options(oklahoma=True))) > max(base)


def test_a_hand_is_worth_more_near_the_limit() -> None:
    t = win_table(Options(first_turn=FirstTurn.ALTERNATE))
    gain_early = t.price(0, 0, True, 20) - t.chance(0, 0, True)
    gain_late = t.price(80, 80, True, 20) - t.chance(80, 80, True)
    assert gain_late > gain_early


def test_expert_answers_a_knock_question_it_did_not_plan() -> None:
    # A knock question asked straight (no discard of its own before): EXPERT plays the
    # hand out on sampled worlds and answers.
    hand = HandState(Options(), _twin_deck(parse("AS 2S 3S 7H 7D 7C 9C TC JC KD"),
                                           parse("2D")[0], [], [None], random.Random(1)))
    hand.draw_pile(0)
    hand.discard(0, parse("KD")[0])
    assert hand.phase is Phase.KNOCK
    answer = Expert(seed=1).choose_knock(hand.view(0))
    assert answer in (KnockChoice.KNOCK, KnockChoice.PLAY_ON)


class Spending(Player):
    """Wraps EXPERT and notes how many play-outs each of its decisions cost."""

    def __init__(self, inner: Expert) -> None:
        self.inner = inner
        self.spent: list[int] = []

    def _note(self, answer: object) -> object:
        self.spent.append(self.inner.spent)
        return answer

    def choose_draw(self, view: View) -> Draw:
        return self._note(self.inner.choose_draw(view))   # type: ignore[return-value]

    def choose_discard(self, view: View) -> Card:
        return self._note(self.inner.choose_discard(view))   # type: ignore[return-value]

    def choose_knock(self, view: View) -> KnockChoice:
        return self._note(self.inner.choose_knock(view))   # type: ignore[return-value]


def test_expert_shares_a_playout_budget_among_its_candidates() -> None:
    # With a budget of 48 play-outs a decision, one line of play (a knock question)
    # is judged on up to max_worlds worlds, two (a draw) on 24 each, many candidates
    # on no fewer than `worlds` each: the worst decision's cost is bounded by the
    # budget (or by `worlds` per candidate, at most six candidates), not by luck.
    class Small(Expert):
        worlds, playouts, max_worlds = 6, 48, 32

    e = Small(seed=4)
    assert [e._n_worlds(n) for n in (1, 2, 3, 6, 9)] == [32, 24, 16, 8, 6]
    p = Spending(e)
    play_game(Options(score_limit=60, first_turn=FirstTurn.ALTERNATE), PascalRandom(23),
              (p, Standard()))
    searched = [s for s in p.spent if s]
    assert searched and max(searched) <= max(48, 6 * 6), max(searched)
    assert max(searched) > 6 * 2   # some decision used more than `worlds` a candidate


def test_the_shipped_hand_outcomes_are_what_the_script_builds() -> None:
    """The default game's family (knocking at 10) measured again, hand for hand (about
    20 s): the data EXPERT's win table stands on is what scripts/build_gin_win_table.py
    builds with today's STANDARD and rules."""
    import importlib.util
    import json
    import sys
    from pathlib import Path

    from port.ginrummy import wintable

    path = Path(__file__).resolve().parents[2] / "scripts" / "build_gin_win_table.py"
    spec = importlib.util.spec_from_file_location("build_gin_win_table", path)
    assert spec and spec.loader
    build = importlib.util.module_from_spec(spec)
    sys.modules["build_gin_win_table"] = build
    spec.loader.exec_module(build)
    shipped = json.loads(wintable.HANDS_FILE.read_text())
    counts = build.measure(build.FAMILIES["knock"], shipped["hands"], shipped["seed"])
    assert wintable.hands()["knock"] == dict(counts)
