"""Cribbage's computer players: STANDARD (the original's formulas, and the hints),
EXPERT, the reference bot, the levels by name and the crib tables."""
from __future__ import annotations

import importlib.util
import json
import random
import sys
from pathlib import Path

import pytest

from port.cards import Card, PascalRandom, card, parse
from port.cribbage import computer, expert
from port.cribbage.computer import Standard, alone, hint_discard, hint_play
from port.cribbage.expert import Expert, crib_key, crib_tables
from port.cribbage.levels import LEVELS, load_player
from port.cribbage.rules import HandState, Options, Phase, Player, View, play_game

ROOT = Path(__file__).resolve().parents[2]
REF = str(ROOT / "scripts" / "reference_cribbage_bot.py") + ":ReferenceBot"


def bots() -> list[Player]:
    return [Standard(), Expert(), load_player(REF)]


def deal(non_dealer: str, dealer: str, starter: str, dealer_seat: int = 1,
         scores: tuple[int, int] = (0, 0), options: Options = Options()) -> HandState:
    return HandState.from_cards(dealer_seat, parse(non_dealer), parse(dealer), card(starter),
                                scores, options)


def test_every_level_plays_legal_moves_through_whole_games() -> None:
    # play_game raises IllegalMove on any illegal answer: a whole game is the test.
    for a in bots():
        for b in bots():
            record = play_game(Options(limit=61), PascalRandom(7), (a, b))
            assert record.winner in (0, 1) and max(record.scores) == 61


def test_the_same_seed_gives_the_same_game() -> None:
    one = play_game(Options(), PascalRandom(11), (Expert(seed=3), Standard(seed=4)))
    two = play_game(Options(), PascalRandom(11), (Expert(seed=3), Standard(seed=4)))
    assert one == two


def _swap_hidden(state: HandState, seat: int, rng: random.Random) -> HandState:
    """The same deal as ``seat`` sees it, the hidden cards dealt otherwise: the
    opponent's cards still in hand, its crib cards and the deck are shuffled among
    themselves (the starter and every played card stay put)."""
    other = 1 - seat
    twin = state.copy()
    hidden = list(twin.hands[other]) + list(twin.cribs[other]) + list(twin.stock)
    rng.shuffle(hidden)
    n, k = len(twin.hands[other]), len(twin.cribs[other])
    twin.hands[other] = hidden[:n]
    twin.cribs[other] = tuple(hidden[n:n + k])
    twin.stock = hidden[n + k:]
    return twin


def test_a_choice_is_the_same_whatever_the_hidden_cards_are() -> None:
    # The documentation: the computer "does not look at your crib when discarding, it
    # does not look at your hand". For views met in real deals, the bots choose the
    # same with the opponent's cards, its crib cards and the deck dealt otherwise.
    rng = random.Random(5)
    players = (Expert(), Standard())
    checked = differ = 0
    for g in range(6):
        state = HandState.deal(g % 2, PascalRandom(100 + g))
        while state.phase is not Phase.DONE and state.phase is not Phase.SHOW:
            seat = state.to_act
            assert seat is not None
            for bot in bots():
                twin = _swap_hidden(state, seat, rng)
                differ += twin.hands[1 - seat] != state.hands[1 - seat]
                assert twin.view(seat) == state.view(seat)
                if state.phase is Phase.DISCARD:
                    assert bot.discard(twin.view(seat)) == bot.discard(state.view(seat))
                else:
                    assert bot.play(twin.view(seat)) == bot.play(state.view(seat))
                checked += 1
            view = state.view(seat)
            if state.phase is Phase.DISCARD:
                state.discard(seat, players[seat].discard(view))
            else:
                choice = players[seat].play(view)
                state.go(seat) if choice is None else state.play(seat, choice)
    assert checked > 100 and differ > checked // 2


def test_cards_alone_score_fifteens_pairs_runs_and_a_four_card_flush() -> None:
    assert alone(parse("5S TH")) == 2
    assert alone(parse("7S 7H 8D")) == 4 + 2          # 7-8 twice for fifteen, the pair
    assert alone(parse("3S 4H 4D 5C")) == 2 + 6         # the pair, a double run of three
    assert alone(parse("2S 4S 6S 8S")) == 4           # a flush of four, nothing else
    assert alone(parse("AS 2H 3D 4C")) == 4


def test_standard_lays_away_by_whose_crib_it_is() -> None:
    # Version 1.2: the discard formulas "take into consideration which player is
    # holding the crib". 4 5 5 7 8 9: the dealer gives its own crib the pair of fives
    # (keeping 4 7 8 9), the pone keeps them and throws the 4 and the 9.
    six = "4S 5H 5D 7D 8C 9C"
    mine = deal("AS 3S 6S TS JS KS", six, "KD", dealer_seat=1).view(1)
    theirs = deal(six, "AS 3S 6S TS JS KS", "KD", dealer_seat=1).view(0)
    assert set(computer.standard_discard(mine)) == set(parse("5H 5D"))
    assert set(computer.standard_discard(theirs)) == set(parse("4S 9C"))


def _play_view(non_dealer: str, dealer: str, moves: list[str], seat: int) -> View:
    """The view of ``seat`` after the discards (the two last cards of each six) and the
    given plays ("GO" for a go)."""
    state = deal(non_dealer, dealer, "KD")
    for s in (0, 1):
        state.discard(s, tuple(state.hands[s][-2:]))
    for m in moves:
        s = state.to_act
        assert s is not None
        state.go(s) if m == "GO" else state.play(s, card(m))
    assert state.to_act == seat
    return state.view(seat)


def test_standard_never_leads_a_five_and_takes_fifteen_when_it_can() -> None:
    lead = _play_view("5S 4H TD JC 2S 3S", "AS 2H 3D 4C 7D 8D", [], 0)
    assert hint_play(lead) == card("4H")        # below five: no fifteen for the reply
    fifteen = _play_view("5S 4H TD JC 2S 3S", "AS 2H 5D 9C 7D 8D", ["TD"], 1)
    assert hint_play(fifteen) == card("5D")


def test_the_hints_are_standards_own_choices() -> None:
    v = deal("5S 5H JD QC KS 2H", "AS 3S 4S 6S 8S 9S", "7D").view(0)
    assert hint_discard(v) == Standard().discard(v)


def test_every_level_says_go_only_when_it_must() -> None:
    v = _play_view("TS JH QD KC 2S 3S", "TD JD QC KS 7D 8D", ["TS", "JD", "JH"], 1)
    assert v.count == 30 and v.legal_plays() == []
    for bot in bots():
        assert bot.play(v) is None


def test_expert_pegs_out_when_a_card_wins_the_game() -> None:
    state = deal("5S 4H TD JC 2S 3S", "AS 2H 5D 9C 7D 8D", "KD", scores=(100, 119))
    for s in (0, 1):
        state.discard(s, tuple(state.hands[s][-2:]))
    state.play(0, card("TD"))
    assert Expert().play(state.view(1)) == card("5D")   # fifteen for 2: 121


def test_levels_by_name_and_bots_from_files() -> None:
    assert set(LEVELS) == {"easy", "standard", "expert", "policy"}
    assert isinstance(load_player("EXPERT"), Expert)
    assert load_player(REF).name == "reference"
    with pytest.raises(ValueError):
        load_player("grandmaster")


def test_the_crib_tables_cover_every_throw() -> None:
    t = crib_tables()
    assert len(t["dealer"]) == len(t["pone"]) == 13 + 2 * 78
    assert crib_key(card("5S"), card("5H")) == "55"
    assert crib_key(card("JS"), card("5S")) == "5Js" and crib_key(card("JS"), card("5H")) == "5J"
    # A pair of fives is the best of throws, for either crib; a king and a nine off
    # suit are among the worst. The dealer's opponent feeds less: the pone table is higher.
    for side in ("dealer", "pone"):
        assert t[side]["55"] == max(t[side].values())
        assert t[side]["9K"] < 4.5
    assert all(t["pone"][k] > t["dealer"][k] for k in t["dealer"])


def _builder(name: str = "build_crib_tables"):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, ROOT / "scripts" / f"{name}.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_the_shipped_crib_tables_are_what_the_script_builds() -> None:
    # Each entry has its own seeded generator: a few are recomputed alone.
    build = _builder()
    shipped = json.loads(expert.TABLES_FILE.read_text())
    assert shipped["samples"] == build.SAMPLES
    assert sorted(shipped["dealer"]) == sorted(build.keys())
    for table, key in (("dealer", "55"), ("pone", "7Ts")):
        assert shipped[table][key] == build.entry(table, key)


def test_the_shipped_peg_table_is_what_the_script_builds() -> None:
    build = _builder("build_peg_table")
    shipped = json.loads(expert.PEG_FILE.read_text())
    assert shipped["hands"] == build.HANDS and len(shipped["pone"]) == len(build.keys()) == 1820
    decks = build._opponents(build.HANDS)
    for key in ("5TJQ", "A234"):
        assert (shipped["pone"][key], shipped["dealer"][key]) == build.entry(key, decks)


def test_the_peg_table_favours_the_dealer_and_low_cards() -> None:
    # The pone leads and the dealer answers: the dealer pegs more, most with low cards
    # that reach the go and 31; the pone suffers most with fives and middle cards.
    t = expert.peg_table()
    assert sum(t["dealer"].values()) > 0 > sum(t["pone"].values())
    assert t["dealer"]["A234"] > t["dealer"]["TJQK"] and t["pone"]["A234"] > t["pone"]["5555"]


def test_a_card_is_a_card() -> None:
    v = deal("5S 5H JD QC KS 2H", "AS 3S 4S 6S 8S 9S", "7D").view(0)
    for bot in bots():
        a, b = bot.discard(v)
        assert isinstance(a, Card) and {a, b} <= set(v.hand) and a != b
