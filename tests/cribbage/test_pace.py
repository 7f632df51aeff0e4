"""The score keeps pace with the boxes that announce it: frame by frame through whole
games, the score on the screen changes only in a frame where the box announcing those
very points is up (and drawn), and every such box comes with its points: pegging, the
go and the last card, heels, each count of the show in the documentation's order
("non-dealer, then dealer's hand, then CRIB") and the count that wins the game ("The
game ends the moment a player reaches the agreed score limit")."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from port.cards import PascalRandom
from port.cribbage.main import layout as L
from port.cribbage.main.table import Box, CribTable
from port.cribbage.rules import GameState, Options
from port.main.driver import Driver
from port.screen.profiles import LIGHTGREEN, LIGHTRED
from tests.cribbage.helpers import card_index, open_cribbage
from tests.cribbage.seen import shows_box, shows_line

LIMIT = 61
# A game whose first starter is a jack: heels comes, with its card in flight first.
HEELS_SEED = next(s for s in range(500)
                  if GameState.new(Options(LIMIT), PascalRandom(s)).hand.stock[-1].rank == 10)


def announced(box: Box, name: str) -> tuple[int, int] | None:
    """The seat and points a box announces, read from its words as a player reads
    them: "PLAYER PEGS 2", heels' "COMPUTER PEGS 2.", a show's "TOTAL 16." (or "TOTAL
    16: 5 PEGGED TO THE LAST HOLE.")."""
    def seat(words: str) -> int:
        return L.HUMAN if words.startswith((name, "YOUR")) else L.COMPUTER

    if m := re.fullmatch(r"(.+) PEGS (\d+)", box.title):
        return seat(m.group(1)), int(m.group(2))
    if box.title == "HIS HEELS":
        m = re.fullmatch(r"(.+) PEGS (\d+)\.", box.lines[1])
        assert m is not None
        return seat(m.group(1)), int(m.group(2))
    if box.show is not None:
        m = re.fullmatch(r"TOTAL (\d+)(?:: (\d+) PEGGED TO THE LAST HOLE)?\.", box.lines[-1])
        if m is None:
            assert box.lines == ["NO POINTS."]
            return None
        points = int(m.group(2) or m.group(1))
        return (seat(box.title), points) if points else None
    return None


class Watch:
    """Looks at every frame: where the score moved, the box announcing it must be up,
    drawn, and say exactly that; where such a box first came, the score must move."""

    def __init__(self, d: Driver, t: CribTable) -> None:
        self.d, self.t = d, t
        self.front = list(t.front)
        self.box: Box | None = t.box
        self.moves: list[tuple[Box, int, int]] = []      # (box, seat, points)
        self.boxes: list[Box] = []                        # every box, as it came

    def frame(self) -> None:
        t, d = self.t, self.d
        front, box = list(t.front), t.box
        new_box = box is not None and box is not self.box
        if new_box:
            self.boxes.append(box)
        if front != self.front:
            moved = [s for s in (0, 1) if front[s] != self.front[s]]
            assert len(moved) == 1, (self.front, front)
            seat, points = moved[0], front[moved[0]] - self.front[moved[0]]
            assert box is not None, f"the score moved {self.front} -> {front} with no box up"
            assert new_box, "the score moved while a box that had been up was still up"
            assert announced(box, "PLAYER") == (seat, points), (box.title, box.lines, seat, points)
            assert shows_box(d, box), "the box is drawn in that frame"
            you, cpu = front
            assert shows_line(d, L.SCORES_X, L.SCORES_Y, f"{'COMPUTER':<8}  {cpu:>3}", LIGHTRED)
            assert shows_line(d, L.SCORES_X, L.SCORES_Y + L.LINE, f"{'PLAYER':<8}  {you:>3}", LIGHTGREEN)
            assert not t.over, "the game's end waits for the box that wins it"
            self.moves.append((box, seat, points))
        elif new_box:
            assert announced(box, "PLAYER") is None, f"{box.title}: its points did not move the score"
        self.front, self.box = front, box

    def step(self) -> None:
        self.d.step()
        self.frame()

    def key(self, name: str) -> None:
        """A key down for one frame and up the next, each frame watched."""
        self.d.down(name)
        self.step()
        self.d.up(name)
        self.step()


def play_watched(d: Driver, t: CribTable) -> Watch:
    """A whole game by the hint's moves, boxes cleared by a key a few frames after they
    come, every frame watched."""
    w = Watch(d, t)
    for _ in range(30000):
        if t.over:
            return w
        if t.box is not None and t.age > 3:
            w.key("SPACE")
        elif t.your_turn_to_lay_away():
            w.key("H")
            for c in t.hint:
                w.key(str(card_index(t, c) + 1))
            w.key("ENTER")
        elif t.your_turn_to_play():
            w.key("H")
            w.key(str(card_index(t, t.hint[0]) + 1))
        else:
            w.step()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("animate", [True, False], ids=["animation", "noanimation"])
def test_the_score_moves_with_the_box_that_announces_it(tmp_path: Path, animate: bool) -> None:
    d = open_cribbage(tmp_path, go=True, seed=HEELS_SEED, score_limit=LIMIT, noanimation=not animate)
    t = d.controller.table
    w = play_watched(d, t)
    assert max(t.front) == LIMIT and t.game.winner is not None
    titles = [box.title for box, _, _ in w.moves]
    assert titles[0] == "HIS HEELS"
    assert any(x.endswith("PEGS 1") for x in titles) and any(x.endswith("PEGS 2") for x in titles)
    assert any(box.show is not None for box, _, _ in w.moves)
    # The last points moved are the game's: their box was up before the end screen.
    box, seat, points = w.moves[-1]
    assert seat == t.game.winner and t.front[seat] == LIMIT
    # Each hand's show in the documentation's order; the scores after each hand follow.
    roles = {"(NON-DEALER)": "non-dealer", "(DEALER)": "dealer", "CRIB": "crib"}
    hands: list[list[str]] = [[]]
    for box in w.boxes:
        if box.title.startswith("AFTER HAND"):
            hands.append([])
        elif box.show is not None:
            hands[-1].append(next(v for k, v in roles.items() if box.title.endswith(k)))
    assert len(hands) == t.game.hands_dealt
    for shows in hands[:-1]:
        assert shows == ["non-dealer", "dealer", "crib"]
    assert shows_in_order(hands[-1])


def shows_in_order(shows: list[str]) -> bool:
    """The last hand's: all three, or as far as the count that won the game."""
    return shows == ["non-dealer", "dealer", "crib"][:len(shows)]
