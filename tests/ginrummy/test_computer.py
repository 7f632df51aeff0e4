"""The computer levels: EASY's documented rule, STANDARD's formulas, and hints that
are STANDARD's own choices."""
from __future__ import annotations

import random

from port.cards import CARDS, Card, PascalRandom, mask, parse
from port.ginrummy import computer, levels
from port.ginrummy.computer import (Easy, Standard, choose_discard, choose_draw, danger,
                                 easy_discard, easy_draw, hint, knowledge, potential, related)
from port.ginrummy.rules.melds import arrange, best_discards_mask, deadwood_mask
from port.ginrummy.rules.options import Options
from port.ginrummy.rules.players import Draw, KnockChoice, Player, play_game, play_hand
from port.ginrummy.rules.state import HandState, Phase, View


def deck_for(seat0: str, upcard: str, seat1: str = "") -> list[Card]:
    """A deck dealing ``seat0`` to seat 0 (and ``seat1``, or other cards, to seat 1),
    turning up ``upcard``."""
    mine, theirs, up = parse(seat0), parse(seat1), parse(upcard)[0]
    used = set(mine) | set(theirs) | {up}
    rest = [c for c in CARDS if c not in used]
    theirs = theirs + [rest.pop() for _ in range(10 - len(theirs))]
    top: list[Card] = []
    for a, b in zip(mine, theirs):
        top += [a, b]
    top.append(up)
    return rest + top[::-1]


def view_after_draw(seat0: str, upcard: str, pile: bool = True) -> View:
    hand = HandState(Options(), deck_for(seat0, upcard))
    if pile:
        hand.draw_pile(0)
    else:
        hand.draw_stock(0)
    return hand.view(0)


# ---- EASY -----------------------------------------------------------------------------

def test_easy_discards_its_largest_unused_card() -> None:
    # AS 2S 3S and 7H 7D 7C are melded; of KD 9C 4H 5D QS the largest is a ten-count,
    # and of KD and QS the King goes.
    view = view_after_draw("AS 2S 3S 7H 7D 7C KD 9C 4H 5D", "QS")
    assert easy_discard(view) == parse("KD")[0]


def test_easy_never_throws_the_card_it_took_from_the_pile() -> None:
    view = view_after_draw("AS 2S 3S 7H 7D 7C 4D 9C 4H 5D", "KH")
    assert easy_discard(view) == parse("9C")[0]


def test_easy_keeps_melds_even_when_they_hold_the_high_cards() -> None:
    view = view_after_draw("JS QS KS TH TD TC 9D 2C 3H AD", "4C")
    assert easy_discard(view) == parse("9D")[0]


def test_easy_follows_the_rule_in_every_discard_of_real_games() -> None:
    class Check(Easy):
        def choose_discard(self, view: View) -> Card:
            card = super().choose_discard(view)
            h = mask(view.hand)
            dead = arrange(view.hand).deadwood_cards
            allowed = [c for c in dead if not (view.drawn_from_pile and c == view.drawn)]
            if allowed:
                assert card.value == max(c.value for c in allowed)
            return card

    for seed in range(10):
        play_hand(HandState.deal(Options(), PascalRandom(seed)), (Check(), Standard()))


def view_to_draw(seat0: str, upcard: str) -> View:
    return HandState(Options(), deck_for(seat0, upcard)).view(0)


def test_easy_takes_the_pile_card_its_rule_would_keep() -> None:
    # Nothing melds with the 3C, but EASY would throw the KD for it.
    assert easy_draw(view_to_draw("AS 2S 3S 7H 7D 7C KD 9C 4H 5D", "3C")) is Draw.PILE
    # The QH makes a run with JH and KH: kept, so taken.
    assert easy_draw(view_to_draw("AS 2S 3S 7H 7D 7C JH KH 4H 5D", "QH")) is Draw.PILE


def test_easy_leaves_the_pile_card_its_rule_would_throw_straight_back() -> None:
    # The KC melds with nothing and is the largest unused card with it.
    assert easy_draw(view_to_draw("AS 2S 3S 7H 7D 7C 8D 9C 4H 5D", "KC")) is Draw.STOCK


def test_easy_knocks_whenever_it_may() -> None:
    # Taking the 2C and throwing the KD leaves 2 points: a knock is offered.
    hand = HandState(Options(), deck_for("AS 2S 3S 4H 5H 6H 8D 8C 8S KD", "2C"))
    hand.draw_pile(0)
    hand.discard(0, parse("KD")[0])
    assert hand.phase is Phase.KNOCK
    assert Easy().choose_knock(hand.view(0)) is KnockChoice.KNOCK
    for seed in range(6):
        deal = HandState.deal(Options(), PascalRandom(seed))
        asked: list[KnockChoice] = []

        class Counting(Easy):
            def choose_knock(self, view: View) -> KnockChoice:
                asked.append(super().choose_knock(view))
                return asked[-1]

        play_hand(deal, (Counting(), Standard()))
        assert all(a is KnockChoice.KNOCK for a in asked)


def test_easy_draws_by_its_rule_in_every_draw_of_real_games() -> None:
    seen = {Draw.PILE: 0, Draw.STOCK: 0}

    class Check(Easy):
        def choose_draw(self, view: View) -> Draw:
            d = super().choose_draw(view)
            top = view.pile_top
            if top is not None:
                eleven = view.hand + (top,)
                dead = arrange(eleven).deadwood_cards
                highest = max((c.value for c in dead), default=-1)
                # Taken exactly when the pile card is not the one the rule throws.
                thrown_back = top in dead and top.value == highest and \
                    max((c for c in dead if c.value == highest), key=lambda c: (c.rank, int(c))) == top
                assert d is (Draw.STOCK if thrown_back else Draw.PILE)
                seen[d] += 1
            return d

    for seed in range(10):
        play_hand(HandState.deal(Options(), PascalRandom(seed)), (Check(), Standard()))
    assert seen[Draw.PILE] and seen[Draw.STOCK]


def test_the_easy_option_picks_easy_over_the_level() -> None:
    assert isinstance(levels.computer_for(True, "expert"), Easy)
    assert type(levels.computer_for(False)) is Standard


# ---- STANDARD ---------------------------------------------------------------------------

def test_standard_goes_gin_when_it_can() -> None:
    view = view_after_draw("AS 2S 3S 7H 7D 7C 4D 5D 6D KC", "7S")
    assert choose_discard(view) == parse("KC")[0]


def test_standard_takes_an_upcard_that_makes_gin_or_a_meld() -> None:
    hand = HandState(Options(), deck_for("AS 2S 3S 7H 7D 7C 4D 5D 6D KC", "8D"))
    assert choose_draw(hand.view(0)) is Draw.PILE
    hand = HandState(Options(), deck_for("AS 2S 3S 7H 7D 9C 4D 5D KH KC", "7C"))
    assert choose_draw(hand.view(0)) is Draw.PILE


def test_standard_leaves_an_upcard_that_does_nothing() -> None:
    hand = HandState(Options(), deck_for("AS 2S 3S 7H 7D 9C 4D 5D KH KC", "QH"))
    assert choose_draw(hand.view(0)) is Draw.STOCK


def test_standard_remembers_what_the_opponent_took_and_avoids_feeding_it() -> None:
    hand = HandState(Options(), deck_for("AS 2S 3S 4H 9D 9C JD JC 5C KD", "8H",
                                         "8S 8D 2D 5H 6H TD TS QS 3C 3D"))
    hand.draw_stock(0)
    hand.discard(0, parse("KD")[0])
    hand.draw_pile(1)            # takes KD ...
    hand.discard(1, parse("2D")[0])
    hand.draw_stock(0)
    kn = knowledge(hand.view(0))
    assert kn.opp_has == parse("KD")[0].bit
    assert danger(parse("KH")[0].bit, kn) > danger(parse("9C")[0].bit, kn)


def test_related_and_potential_agree_with_trying_every_card() -> None:
    rng = random.Random(5)
    for _ in range(200):
        cards = rng.sample(range(52), 20)
        h = mask(cards[:10])
        unseen = mask(cards[10:])
        dw = deadwood_mask(h)
        slow = 0
        for c in cards[10:]:
            v = best_discards_mask(h | CARDS[c].bit)[0]
            slow += max(0, dw - v)
            if not related(h) & CARDS[c].bit:
                # An unrelated card can only replace the hand's costliest card.
                assert v == min(dw, best_discards_mask(h)[0] + CARDS[c].value)
        assert abs(potential(h, unseen) - slow / 10) < 1e-9


# ---- hints ---------------------------------------------------------------------------

class Checked(Standard):
    """STANDARD asking the hint at every step and checking it equals its own choice."""

    asked = 0

    def choose_draw(self, view: View) -> Draw:
        choice = super().choose_draw(view)
        assert hint(view).draw is choice
        Checked.asked += 1
        return choice

    def choose_discard(self, view: View) -> Card:
        choice = super().choose_discard(view)
        assert hint(view).discard == choice
        return choice

    def choose_knock(self, view: View) -> KnockChoice:
        choice = super().choose_knock(view)
        assert hint(view).knock is choice
        return choice


def test_hints_are_standards_own_choices() -> None:
    for seed in range(3):
        play_game(Options(), PascalRandom(seed), (Checked(), Easy()))
    assert Checked.asked > 50


def test_no_hint_out_of_turn() -> None:
    hand = HandState.deal(Options(), PascalRandom(1))
    assert hint(hand.view(1)) == computer.Hint()
    assert hint(hand.view(0)).draw in (Draw.STOCK, Draw.PILE)


# ---- EXPERT --------------------------------------------------------------------------

def test_expert_samples_only_hands_consistent_with_what_it_knows() -> None:
    from port.ginrummy.expert import Sampler
    hand = HandState(Options(), deck_for("AS 2S 3S 4H 9D 9C JD JC 5C KD", "8H",
                                         "8S 8D 2D 5H 6H TD TS QS 3C 3D"))
    hand.draw_stock(0)
    hand.discard(0, parse("KD")[0])
    hand.draw_pile(1)
    hand.discard(1, parse("2D")[0])
    hand.draw_stock(0)
    kn = knowledge(hand.view(0))
    sampler = Sampler(kn, random.Random(1))
    for _ in range(50):
        opp, stock = sampler.sample()
        assert opp.bit_count() == 10 and opp & kn.opp_has == kn.opp_has
        assert not opp & (kn.mine | kn.pile)
        assert len(stock) == hand.stock.__len__()
        assert sum(stock) | opp == kn.unseen | kn.opp_has


def test_expert_is_deterministic_for_its_seed() -> None:
    from port.ginrummy.expert import Expert
    a = play_game(Options(score_limit=50), PascalRandom(9), (Expert(seed=4), Standard()))
    b = play_game(Options(score_limit=50), PascalRandom(9), (Expert(seed=4), Standard()))
    assert a.scores == b.scores and len(a.hands) == len(b.hands)


def test_expert_out_points_agree_with_the_settlement() -> None:
    from port.ginrummy.expert import out_points
    from port.ginrummy.rules.settle import Outcome, settle_out_mask
    rng = random.Random(11)
    o = Options()
    for _ in range(300):
        cards = rng.sample(range(52), 20)
        kh, dh = mask(cards[:10]), mask(cards[10:])
        r = settle_out_mask(0, (kh, dh), o, CARDS[0])   # any deadwood: the unchecked path
        pts = out_points(kh, dh, o.gin_bonus, o.undercut_bonus)
        if r.outcome is Outcome.UNDERCUT:
            assert pts <= 0
        # One least-deadwood arrangement of the knocker may let the defender lay off
        # more than the settlement's chosen one: never less.
        assert pts <= r.points if r.winner == 0 else pts <= -r.points


def test_expert_play_out_ends_the_hand_with_the_points_of_one_side() -> None:
    from port.ginrummy.expert import play_out
    rng = random.Random(3)
    for _ in range(100):
        cards = rng.sample(range(52), 52)
        bits = [CARDS[c].bit for c in cards]
        hands = [sum(bits[:10]), sum(bits[10:20])]
        pts = play_out(hands, bits[21:], bits[20], 0, 10, 0, 25, 25)
        assert -150 < pts < 150
        assert hands[0].bit_count() == 10 and hands[1].bit_count() == 10
        assert not hands[0] & hands[1]


def test_standards_danger_weight_grows_as_the_stock_runs_down() -> None:
    w = computer.DEFAULT
    assert w.dz(31) < w.dz(15) < w.dz(0)
    # A card the opponent can meld costs more late than at the deal.
    hand = HandState(Options(), deck_for("AS 2S 3S 4H 9D 9C JD JC 5C KD", "8H",
                                         "8S 8D 2D 5H 6H TD TS QS 3C 3D"))
    kn = knowledge(hand.view(0))
    assert w.dz(kn.stock) == w.dz(31)


def test_expert_reads_a_hand_from_its_loose_cards() -> None:
    from port.cards import hand as hand_of
    from port.ginrummy.expert import _loosest
    assert _loosest(hand_of("AS 2S 3S 7H 7D 7C KD 9C 4H 5D")) == 10
    assert _loosest(hand_of("AS 2S 3S 7H 7D 7C 8C 9C TC 5D")) == 5
    assert _loosest(hand_of("AS 2S 3S 7H 7D 7C 8C 9C TC JC")) == 0


def knock_offered_to_seat_1() -> HandState:
    """Seat 1 (dealt first, so the first hand given) takes the 2C and throws its KD:
    2 points left, so it is offered a knock."""
    hand = HandState(Options(), deck_for("AS 2S 3S 4H 5H 6H 8D 8C 8S KD", "2C",
                                         "9D 9C JD JC 5C KC QH 4D 6S 8H"), first=1)
    hand.draw_pile(1)
    hand.discard(1, parse("KD")[0])
    return hand


def test_a_turned_down_knock_is_known_to_the_other_seat() -> None:
    # Seat 1 plays on within the knock value: seat 0 sees the public "play on".
    hand = knock_offered_to_seat_1()
    assert not knowledge(hand.view(0)).opp_low
    hand.play_on(1)
    assert knowledge(hand.view(0)).opp_low
    assert not knowledge(hand.view(1)).opp_low   # its own play on tells it nothing


def test_expert_samples_a_low_hand_for_an_opponent_that_turned_down_a_knock() -> None:
    from port.ginrummy.expert import Expert
    hand = knock_offered_to_seat_1()
    hand.play_on(1)
    kn = knowledge(hand.view(0))
    told = Expert(seed=2)._deals(kn, 40, hand.knock_value)
    plain = Expert(seed=2)
    plain.low_tries = 0
    blind = plain._deals(kn, 40, hand.knock_value)
    # Each told sample is the lowest of up to 12 tries (or the first within the knock
    # value): far lower hands than samples that ignore the "play on".
    mean = [sum(deadwood_mask(o) for o, _ in d) / 40 for d in (told, blind)]
    assert mean[0] < mean[1] - 10


def test_expert_play_outs_can_knock_by_standards_formula() -> None:
    from port.cards import hand as hand_of
    from port.ginrummy.expert import play_out
    # Seat 0 holds 5 points and draws the QS, which it throws back: knocking at once
    # ends the hand there. By STANDARD's formula (knocks after 4 draws, slope 2.5) it
    # still knocks early in a hand, but not after 12 draws: the hand goes on.
    h0 = hand_of("AS 2S 3S 7H 7D 7C 9C TC JC 5D")
    h1 = hand_of("KH QD JS 9H 8S 6C 4C 2H 3D KC")
    stock = [c.bit for c in parse("KS QC 2D 4S 6D 8D TD JH QH KD QS")]

    def run(schedule: tuple[int, float, int, int] | None) -> int:
        return play_out([h0, h1], list(stock), None, 0, 10, 0, 25, 25, schedule)

    at_once = run(None)
    assert at_once > 0
    assert run((4, 2.5, 1, 0)) == at_once
    assert run((4, 2.5, 1, 12)) != at_once


def test_expert_learns_whether_its_opponent_waits_before_knocking() -> None:
    from port.ginrummy.expert import Expert
    hand = knock_offered_to_seat_1()
    expert = Expert(seed=1)
    # Until the opponent (seat 1) is seen turning a knock down, play-outs have it
    # knock at once; after, for the rest of the game, by STANDARD's formula.
    assert expert._at_once(hand.view(0)) == 1
    hand.play_on(1)
    assert expert._at_once(hand.view(0)) == -1
    fresh = HandState(Options(), deck_for("AS 2S 3S 4H 5H 6H 8D 8C 8S KD", "2C"))
    assert expert._at_once(fresh.view(0)) == -1   # remembered into the next hand
