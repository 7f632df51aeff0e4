"""Cribbage's EASY level (port/cribbage/easy.py): GinRummy's EASY rule carried over,
the highest-value unused cards to the crib and the highest card that fits; and the
expected-value bot of scripts/ev_cribbage_bot.py, which measures the levels."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from port.cards import PascalRandom, card, parse
from port.cribbage.computer import Standard
from port.cribbage.easy import Easy, easy_discard, easy_play, unused
from port.cribbage.expert import Expert
from port.cribbage.levels import LEVELS, load_player
from port.cribbage.rules import HandState, Options, Phase, View, play_game
from port.match import main as match_main

ROOT = Path(__file__).resolve().parents[2]
EV = str(ROOT / "scripts" / "ev_cribbage_bot.py") + ":EVBot"


def _view(six: str, dealer_seat: int = 1, seat: int = 0) -> View:
    other = "AS 2H 3D 4C 6S 8D" if "AS" not in six else "AC 2D 3H 4S 6C 8H"
    non_dealer, dealer = (other, six) if seat == dealer_seat else (six, other)
    return HandState.from_cards(dealer_seat, parse(non_dealer), parse(dealer), card("KD")).view(seat)


def test_unused_cards_take_no_part_in_what_the_six_score() -> None:
    # K+5 and Q+5 make fifteen: the 9, the 2 and the 7 score nothing with anything.
    assert set(unused(parse("KS QH 5D 9C 2S 7H"))) == set(parse("9C 2S 7H"))
    assert unused(parse("5S 5H 5D 5C 2S 3H")) == []


def test_easy_lays_away_the_highest_unused_cards_whoever_deals() -> None:
    for dealer_seat in (0, 1):
        assert set(easy_discard(_view("KS QH 5D 9C 2S 7H", dealer_seat))) == set(parse("9C 7H"))
    # One unused card (the 8): the highest used card makes up the two, a king before a queen.
    assert set(easy_discard(_view("4S 5H 6D KC QS 8H"))) == set(parse("8H KC"))


def test_easy_plays_its_highest_card_that_fits() -> None:
    state = HandState.from_cards(1, parse("5S 4H TD JC 2S 3S"), parse("AS 2H 5D 9C 7D 8D"), card("KD"))
    state.discard(0, parse("2S 3S"))
    state.discard(1, parse("7D 8D"))
    assert easy_play(state.view(0)) == card("JC")       # a jack before a ten: the rank
    state.play(0, card("JC"))
    state.play(1, card("9C"))
    assert easy_play(state.view(0)) == card("TD")       # 19: the ten fits (29), the highest
    state.play(0, card("TD"))
    state.play(1, card("AS"))                            # 30
    assert easy_play(state.view(0)) is None              # nothing fits: GO


def test_easy_is_a_level_by_name_and_loses_to_standard() -> None:
    assert LEVELS["easy"] is Easy and isinstance(load_player("EASY"), Easy)
    wins = sum(play_game(Options(limit=61), PascalRandom(40 + g), (Standard(), Easy())).winner == 0
               for g in range(6))
    assert wins >= 4


def test_the_runner_takes_easy_in_a_round_robin(capsys) -> None:  # type: ignore[no-untyped-def]
    code = match_main(["--game", "cribbage", "--players", "easy,standard", "--games", "2",
                       "--limit", "61", "--workers", "1"])
    assert code == 0 and "easy" in capsys.readouterr().out


def _ev_module():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("ev_cribbage_bot", ROOT / "scripts" / "ev_cribbage_bot.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["ev_cribbage_bot"] = module
    spec.loader.exec_module(module)
    return module


def test_the_ev_bot_plays_legal_moves_through_whole_games() -> None:
    # play_game raises IllegalMove on any illegal answer: whole games are the test.
    ev = load_player(EV)
    assert ev.name == "ev"
    for other in (Standard(), Expert(), Easy()):
        for seats in ((ev, other), (other, ev)):
            record = play_game(Options(limit=61), PascalRandom(3), seats)
            assert max(record.scores) == 61


def test_the_ev_bot_counts_the_crib_and_the_reply() -> None:
    bot = _ev_module().EVBot()
    # 4 5 5 7 8 9: as dealer the pair of fives goes to its own crib (the table's best
    # throw); as pone it keeps them and gives the 4 and the 9.
    assert set(bot.discard(_view("4S 5H 5D 7D 8C 9C", dealer_seat=0))) == set(parse("5H 5D"))
    assert set(bot.discard(_view("4S 5H 5D 7D 8C 9C", dealer_seat=1))) == set(parse("4S 9C"))
    # Leading, nothing pegs: a five invites a ten for fifteen, so it leads otherwise.
    state = HandState.from_cards(1, parse("5S 4H TD JC 2S 3S"), parse("AS 2H 5D 9C 7D 8D"), card("KD"))
    state.discard(0, parse("2S 3S"))
    state.discard(1, parse("7D 8D"))
    assert state.phase is Phase.PLAY and bot.play(state.view(0)) != card("5S")
