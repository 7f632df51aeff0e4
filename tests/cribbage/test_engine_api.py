"""Cribbage's engine as a bot author meets it: every argument of the wrong type or
out of range is refused with the engine's own error (``IllegalMove``; a wrong type is a
``BadArgument``, a TypeError too), in one plain sentence, and nothing changes."""
from __future__ import annotations

import copy

import pytest

from port.cards import PascalRandom, parse
from port.checks import BadArgument
from port.cribbage.rules import GameState, HandState, IllegalMove, Options

OPTS = Options()


def deck() -> list[int]:
    return list(range(52))


REFUSED = {
    "a float limit": (lambda: Options(limit=121.0), BadArgument),
    "a bool limit": (lambda: Options(limit=True), BadArgument),
    "a string limit": (lambda: Options(limit="121"), BadArgument),
    "a limit of 100": (lambda: Options(limit=100), IllegalMove),
    "skunking 'yes'": (lambda: Options(skunking="yes"), BadArgument),
    "skunking 1": (lambda: Options(skunking=1), BadArgument),
    "a float first dealer": (lambda: GameState(OPTS, PascalRandom(1), 0.0), BadArgument),
    "a bool first dealer": (lambda: GameState(OPTS, PascalRandom(1), True), BadArgument),
    "first dealer 2": (lambda: GameState(OPTS, PascalRandom(1), 2), IllegalMove),
    "options as a string": (lambda: GameState("x", PascalRandom(1), 0), BadArgument),
    "no generator": (lambda: GameState(OPTS, None, 0), BadArgument),
    "one score": (lambda: GameState(OPTS, PascalRandom(1), 0, (0,)), IllegalMove),
    "three scores": (lambda: GameState(OPTS, PascalRandom(1), 0, (0, 0, 0)), IllegalMove),
    "a float score": (lambda: GameState(OPTS, PascalRandom(1), 0, (0.5, 0)), BadArgument),
    "a bool score": (lambda: GameState(OPTS, PascalRandom(1), 0, (True, 0)), BadArgument),
    "a string score": (lambda: GameState(OPTS, PascalRandom(1), 0, ("0", 0)), BadArgument),
    "a negative score": (lambda: GameState(OPTS, PascalRandom(1), 0, (-1, 0)), IllegalMove),
    "a score at the limit": (lambda: GameState(OPTS, PascalRandom(1), 0, (121, 0)), IllegalMove),
    "scores as an int": (lambda: GameState(OPTS, PascalRandom(1), 0, 5), BadArgument),
    "card 52 in the deck": (lambda: HandState(0, list(range(1, 53))), IllegalMove),
    "floats in the deck": (lambda: HandState(0, [float(i) for i in range(52)]), BadArgument),
    "a bool in the deck": (lambda: HandState(0, [True, *range(1, 52)]), BadArgument),
    "a deck of 51": (lambda: HandState(0, list(range(51))), IllegalMove),
    "a float dealer": (lambda: HandState(1.0, deck()), BadArgument),
    "options None": (lambda: HandState(0, deck(), (0, 0), None), BadArgument),
    "starter 52": (lambda: HandState.from_cards(0, parse("AS 2S 3S 4S 5S 6S"), parse("AH 2H 3H 4H 5H 6H"), 52),
                   IllegalMove),
    "card 60 in a hand": (lambda: HandState.from_cards(0, [60, 1, 2, 3, 4, 5], list(range(6, 12)), 20),
                          IllegalMove),
    "the starter in a hand": (lambda: HandState.from_cards(0, list(range(6)), list(range(6, 12)), 3),
                              IllegalMove),
}


@pytest.mark.parametrize("name", list(REFUSED))
def test_a_bad_argument_is_the_engines_own_error(name: str) -> None:
    call, error = REFUSED[name]
    with pytest.raises(error) as got:
        call()
    message = str(got.value)
    assert message.startswith("cannot ") and "\n" not in message and len(message) < 160


def fresh() -> HandState:
    return HandState.from_cards(0, parse("AS 2S 3S 4S 5S 6S"), parse("AH 2H 3H 4H 5H 6H"), parse("KD")[0])


ON_A_DEAL = {
    "view of seat 2": (lambda h: h.view(2), IllegalMove),
    "view of seat True": (lambda h: h.view(True), BadArgument),
    "legal plays of seat 5": (lambda h: h.legal_plays(5), IllegalMove),
    "can_play of seat 0.0": (lambda h: h.can_play(0.0), BadArgument),
    "discarded of seat '1'": (lambda h: h.discarded("1"), BadArgument),
    "lay away card 52": (lambda h: h.discard(1, [52, 1]), IllegalMove),
    "lay away a string": (lambda h: h.discard(1, "AS"), BadArgument),
    "lay away floats": (lambda h: h.discard(1, [0.0, 1.0]), BadArgument),
    "lay away as seat 1.0": (lambda h: h.discard(1.0, parse("AS 2S")), BadArgument),
}


@pytest.mark.parametrize("name", list(ON_A_DEAL))
def test_a_refused_call_leaves_the_deal_as_it_was(name: str) -> None:
    call, error = ON_A_DEAL[name]
    h = fresh()
    before = copy.deepcopy({k: getattr(h, k) for k in HandState.__slots__})
    with pytest.raises(error):
        call(h)
    assert {k: getattr(h, k) for k in HandState.__slots__} == before
