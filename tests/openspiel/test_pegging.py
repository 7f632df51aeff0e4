"""The pegging endgame as an OpenSpiel game (``port.openspiel.pegging``): OpenSpiel's
checks, the engine's points, and OpenSpiel's CFR lowering its exploitability."""
from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest

pyspiel = pytest.importorskip("pyspiel", reason="open_spiel is not installed (pip install 'ginrummy[openspiel]')")

from port.cards import PascalRandom, parse, text  # noqa: E402
from port.cribbage.rules.options import Options  # noqa: E402
from port.cribbage.rules.search import GO, Position  # noqa: E402
from port.cribbage.rules.state import GameState, HandState  # noqa: E402
from port.openspiel import pegging  # noqa: E402

TOP = Path(__file__).resolve().parents[2]
SMALLEST = {"cards": 2, "deck": "4H 5D 5C TS KC"}      # 30 deals, solved in a few iterations


def deal(game: object, pone: str, dealer: str) -> object:
    """The cut's state with these hands dealt by chance's outcomes."""
    state = game.new_initial_state()                                        # type: ignore[attr-defined]
    for cards in (pone, dealer):
        wanted = tuple(sorted(parse(cards)))
        state.apply_action(game.cut.hands.index(wanted))                    # type: ignore[attr-defined]
    return state


def play(state: object, line: str) -> None:
    for word in line.split():
        action = GO if word == "go" else int(parse(word)[0])
        assert action in state.legal_actions(), (word, str(state))         # type: ignore[attr-defined]
        state.apply_action(action)                                          # type: ignore[attr-defined]


@pytest.mark.parametrize("params", [{}, {"cards": 3, "deck": "AS 4H 5D 5C TS JH QD"},
                                    {"cards": 4, "dealer": 0}], ids=["2-each", "3-each", "4-each"])
def test_openspiels_random_simulation_checks_pass_on_the_pegging_cut(params: dict) -> None:
    game = pyspiel.load_game(pegging.NAME, params)
    pyspiel.random_sim_test(game, num_sims=20, serialize=True, verbose=False)


def test_the_returns_are_the_pegging_the_engine_scores_for_a_line_of_play() -> None:
    game = pyspiel.load_game(pegging.NAME, {"deck": "5H TS 5D KC 4H"})
    state = deal(game, "5H TS", "5D KC")
    assert state.current_player() == 0                                      # the pone (seat 0) leads
    play(state, "TS 5D 5H KC")      # 10; 15 (the dealer pegs 2); 20, a pair (the pone 2); 30, the last card
    assert state.is_terminal()
    assert state.pegging_words() == ["fifteen for 2", "a pair for 2", "last card for 1"]
    assert state.returns() == [-1.0, 1.0]

    game3 = pyspiel.load_game(pegging.NAME, {"cards": 3, "deck": "TS QD 5C JH KC 4H"})
    state = deal(game3, "TS QD 5C", "JH KC 4H")
    # 30 and a run (the pone pegs 3); the dealer's KC and 4H do not fit: GO; the pone's 5C neither
    play(state, "TS JH QD go")
    assert state.legal_actions() == sorted(int(c) for c in parse("KC 4H"))   # the dealer leads the new count
    play(state, "KC 5C 4H")         # 15 for the pone; the dealer's last card
    assert state.pegging_words() == ["a run of three for 3", "go for 1", "fifteen for 2", "last card for 1"]
    assert state.returns() == [5.0, -5.0]

    state = deal(pyspiel.load_game(pegging.NAME), "TS QD", "JH AS")         # the default deck
    play(state, "TS JH QD AS")      # a run for the pone; 31 for the dealer, and no point for the last card
    assert state.pegging_words() == ["a run of three for 3", "thirty-one for 2"]
    assert state.returns() == [1.0, -1.0]


def test_with_four_cards_the_cut_plays_and_pegs_as_a_real_deal() -> None:
    """The cut's moves and points are those of a whole deal on ``Position``, the
    same hands kept, over random lines of play."""
    game = pyspiel.load_game(pegging.NAME, {"cards": 4, "deck": "AS 2H 3D 4C 5S 5H TD JC QS KH"})
    rng = random.Random(7)
    for _ in range(30):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        pone, dealer = state.play.dealt
        spare = [c for c in parse("6S 7S 8S 9S 6H 7H 8H 9H 2C") if c not in pone + dealer]
        hand = HandState.from_cards(1, list(pone) + spare[:2], list(dealer) + spare[2:4], spare[8], options=Options())
        real = Position(GameState.at(hand, PascalRandom(0)), "hand")
        for card in (spare[0], spare[1], spare[2], spare[3]):               # each lays away its two spares
            real.step(int(card))
        while not state.is_terminal():
            assert state.legal_actions() == real.legal_actions(), str(state)
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            real.step(action)
        assert list(state.play.hand.pegging) == real.hand.pegging
        assert state.returns()[0] == real.hand.pegging[0] - real.hand.pegging[1]


def test_a_seat_cannot_tell_the_other_seats_cards() -> None:
    game = pyspiel.load_game(pegging.NAME, SMALLEST)
    a, b = deal(game, "4H 5D", "TS KC"), deal(game, "4H 5D", "5C KC")
    play(a, "4H KC")
    play(b, "4H KC")
    assert a.information_state_string(0) == b.information_state_string(0)
    assert a.information_state_tensor(0) == b.information_state_tensor(0)
    assert a.information_state_string(1) != b.information_state_string(1)
    assert "TS" not in a.information_state_string(0) and "TS" in a.information_state_string(1)


def test_openspiels_cfr_lowers_the_exploitability_of_the_smallest_cut() -> None:
    game = pyspiel.load_game(pegging.NAME, SMALLEST)
    uniform = pyspiel.exploitability(game, pyspiel.UniformRandomPolicy(game))
    solver = pyspiel.CFRSolver(game)
    solver.evaluate_and_update_policy()
    first = pyspiel.exploitability(game, solver.average_policy())
    for _ in range(4):
        solver.evaluate_and_update_policy()
    fifth = pyspiel.exploitability(game, solver.average_policy())
    assert uniform > 0.1
    assert fifth < first / 3


def test_a_bad_deck_is_one_sentence() -> None:
    with pytest.raises(ValueError, match="'ZZ' is not a card"):
        pyspiel.load_game(pegging.NAME, {"deck": "4H ZZ"})
    with pytest.raises(ValueError, match="needs 6 cards or more for 3 each"):
        pyspiel.load_game(pegging.NAME, {"cards": 3, "deck": "4H 5D 5C TS KC"})


def test_the_script_prints_the_table_of_exploitability_falling() -> None:
    out = subprocess.run([sys.executable, str(TOP / "scripts" / "cfr_pegging.py"), "--deck", SMALLEST["deck"],
                          "--iterations", "1,5", "--json"], capture_output=True, text=True, timeout=120, cwd=TOP)
    assert out.returncode == 0, out.stderr
    assert "30 deals" in out.stdout and "exploitability" in out.stdout
    result = json.loads(out.stdout.strip().splitlines()[-1])
    rows = result["rows"]
    assert [r["iterations"] for r in rows] == [1, 5]
    assert rows[1]["exploitability"] < rows[0]["exploitability"]
    assert text(parse(SMALLEST["deck"])) in result["game"]
