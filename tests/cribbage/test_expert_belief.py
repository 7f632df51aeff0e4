"""Cribbage's EXPERT (port/cribbage/expert.py): its belief about the opponent's cards
(port/cribbage/infer.py), the board (port/cribbage/board.py and its table), and the
choices they make on hands written out."""
from __future__ import annotations

import json
import random

from port.cards import PascalRandom, card, parse
from port.cribbage import board, computer, expert, infer
from port.cribbage.computer import Standard
from port.cribbage.expert import Expert
from port.cribbage.rules import HandState, Options, Phase, play_game
from tests.cribbage.test_computer import _builder, deal


# ---- the belief -----------------------------------------------------------------------

def test_the_discard_model_is_standards_formula() -> None:
    # infer.sensible_throw is STANDARD's discard made fast (a sum by ranks): the same
    # two cards on every hand dealt here, as dealer and as pone.
    for i in range(60):
        state = HandState.deal(i % 2, PascalRandom(300 + i))
        for seat in (0, 1):
            v = state.view(seat)
            fast = infer.sensible_throw(list(v.hand), v.is_dealer)
            assert set(fast) == set(computer.standard_discard(v))


def _played(non_dealer: str, dealer: str, moves: list[str]) -> HandState:
    """A deal (seat 1 deals, starter 3D) after the discards (the last two cards of
    each six) and the given plays ("GO" for a go)."""
    state = deal(non_dealer, dealer, "3D")
    for s in (0, 1):
        state.discard(s, tuple(state.hands[s][-2:]))
    for m in moves:
        s = state.to_act
        assert s is not None
        state.go(s) if m == "GO" else state.play(s, card(m))
    return state


PLAY = ["4S", "6S", "2D", "7H", "6H", "GO", "5C"]   # the dealer's GO at 25


def test_the_belief_reads_the_opponents_plays_and_gos() -> None:
    state = _played("4S 6H 2D 5C KS QS", "6S 7H 9D TC JS JH", PLAY)
    seen = infer.seen_play(state.view(1))           # the pone's plays, as the dealer sees them
    assert [c for c, _, _ in seen.plays] == parse("4S 2D 6H 5C")
    assert seen.plays[1] == (card("2D"), tuple(parse("4S 6S")), 10)
    assert seen.gos == ()
    seen = infer.seen_play(state.view(0))           # the dealer's, as the pone sees them
    assert [c for c, _, _ in seen.plays] == parse("6S 7H") and seen.gos == (25,)


def _chance(hands: list[tuple[tuple[int, ...], float]], rank: int) -> float:
    """The belief's chance that the opponent holds a card of ``rank``."""
    return sum(w for h, w in hands if rank in h) / sum(w for _, w in hands)


def test_a_go_rules_out_every_card_that_fitted() -> None:
    # The dealer said GO at 25: its two cards are each worth 7 or more. A rule of the
    # game, not a model: no hand in the belief breaks it.
    state = _played("4S 6H 2D 5C KS QS", "6S 7H 9D TC JS JH", PLAY)
    hands = infer.opponent_hands(state.view(0), random.Random(1))
    assert hands and all(len(h) == 2 and min(computer.VALUE[r] for r in h) >= 7 for h, _ in hands)


def test_the_belief_follows_a_sensible_players_discard_and_plays() -> None:
    # Dealt six, a sensible player keeps its fives (they make fifteen with the many
    # tens): after the pone's lead the belief holds a five more often than the unseen
    # cards would. Then at 10 the pone plays a king where a five made fifteen, which
    # STANDARD's formula takes: a five becomes unlikely.
    for moves, more in ((["4S", "6S"], True), (["4S", "6S", "KD"], False)):
        v = _played("4S KD 8C 9C QH JC", "6S 7H 9D TC JS JH", moves).view(1)
        hands = infer.opponent_hands(v, random.Random(2))
        pool = computer.unseen(v)
        fives = sum(1 for c in pool if c % 13 == 4) / len(pool)
        plain = 1 - (1 - fives) ** v.opponent_left
        if more:
            assert _chance(hands, 4) > 1.2 * plain
        else:
            assert _chance(hands, 4) < plain / 2


# ---- the board ------------------------------------------------------------------------

def test_the_shipped_win_table_is_what_the_script_builds() -> None:
    # Each block of deals has its own seeds: one is replayed; the equities are the
    # dynamic programme over the shipped counts, recomputed whole.
    build = _builder("build_crib_win_table")
    shipped = json.loads(board.WIN_FILE.read_text())
    assert shipped["block"] == build.BLOCK and len(shipped["counts"]) == build.BLOCKS
    assert shipped["counts"][3] == build.block(3)
    points = build.distributions(shipped["counts"])
    for limit, skunking in ((61, False), (61, True), (121, False)):
        key = f"{limit}{'s' if skunking else ''}"
        assert shipped[key] == build.rows(build.equity(points, limit, skunking))


def test_the_board_favours_the_dealer_and_counts_the_pone_first() -> None:
    o = Options()
    t = board.table(121, False)
    # From 0-0 the dealer is ahead (his crib); a point more is worth more to either
    # seat. At 115-115 the pone is ahead: it counts its hand first. At 120-120 the
    # first point wins, and the dealer, who has the heels and answers each card, more
    # often pegs it.
    assert board.start(0, 0, True, o) > 0 > board.start(0, 0, False, o)
    assert all(t[p][40] <= t[p + 1][40] for p in range(120)) and t[60][40] < t[61][40]
    assert all(t[40][q] >= t[40][q + 1] for q in range(120)) and t[40][60] > t[40][61]
    assert t[115][115] > 0.3 and t[120][120] < 0
    # With skunks a game is worth up to two: the pone on 100 against 40 all but
    # skunks the dealer.
    s = board.table(121, True)
    assert s[100][40] > 1.5 and max(max(r) for r in s) <= 2.0


def test_near_the_end_the_pone_keeps_the_hand_that_can_count_out() -> None:
    # KD QH 8H 5D 7H 5S. In points the pone keeps Q 7 5 5 and throws the king and the
    # 8 (the 7-8 in the dealer's crib would make fifteen). At 104 to 114 the dealer
    # needs 7 and will all but surely reach them in his show: the pone must count out
    # first, 17 from the play and its hand, which K Q 5 5 (12.2 a starter, a fifth
    # of them 15 or more) does far more often than Q 7 5 5: it gives the 8 and the 7.
    six = "KD QH 8H 5D 7H 5S"
    early = deal(six, "AS 2S 3S 4S 6S 9S", "AD").view(0)
    late = deal(six, "AS 2S 3S 4S 6S 9S", "AD", scores=(104, 114)).view(0)
    assert set(expert.expert_discard(early)) == set(parse("KD 8H"))
    assert set(expert.expert_discard(late)) == set(parse("8H 7H"))


def test_near_the_end_choices_do_not_depend_on_hidden_cards() -> None:
    # As tests/test_cribbage_computer.py checks from 0-0: near the end too, where the
    # board decides, the same view gives the same choice whatever the hidden cards.
    rng = random.Random(9)
    bot = Expert()
    checked = 0
    for g in range(3):
        state = HandState.deal(g % 2, PascalRandom(60 + g), (100 + g, 108 - g))
        while state.phase is Phase.DISCARD or state.phase is Phase.PLAY:
            seat = state.to_act
            assert seat is not None
            twin = state.copy()
            other = 1 - seat
            hidden = list(twin.hands[other]) + list(twin.cribs[other]) + list(twin.stock)
            rng.shuffle(hidden)
            n, k = len(twin.hands[other]), len(twin.cribs[other])
            twin.hands[other], twin.cribs[other] = hidden[:n], tuple(hidden[n:n + k])
            twin.stock = hidden[n + k:]
            v = state.view(seat)
            assert twin.view(seat) == v
            if state.phase is Phase.DISCARD:
                choice = bot.discard(v)
                assert bot.discard(twin.view(seat)) == choice
                state.discard(seat, choice)
            else:
                c = bot.play(v)
                assert bot.play(twin.view(seat)) == c
                state.go(seat) if c is None else state.play(seat, c)
            checked += 1
    assert checked > 20


def test_expert_beats_standard_over_a_few_short_games() -> None:
    # Not a measure (docs/cribbage-players.md has those): a smoke test that the whole
    # machine plays, near the end too, and is not worse than STANDARD by far.
    wins = 0
    for g in range(8):
        seats = (Expert(), Standard()) if g % 2 == 0 else (Standard(), Expert())
        record = play_game(Options(limit=61), PascalRandom(500 + g // 2), seats)
        wins += record.winner == g % 2
    assert wins >= 3
