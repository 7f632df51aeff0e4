"""Pictures of a GinRummy hand for the environment's ``render``: text ("ansi"), and
frames drawn by the real Screen unit on headless pyxel ("rgb_array").

Render is for someone watching both seats, so both hands are face up (an agent's
observation never shows the other hand; see ``port.ginrummy.spaces``).
"""
from __future__ import annotations

import numpy as np

from port.cards import Card, sort_key_rank, text
from port.ginrummy.rules.melds import arrange
from port.ginrummy.rules.state import HandState, Phase

NAMES = ("player_0", "player_1")


def _arranged(cards: list[Card]) -> tuple[list[Card], list[tuple[Card, ...]], set[Card]]:
    """The cards melds first (sets, then runs), then the loose cards by rank."""
    arr = arrange(cards)
    groups = list(arr.sets) + list(arr.runs)
    order = [c for g in groups for c in g] + sorted(arr.deadwood_cards, key=sort_key_rank)
    return order, groups, {c for s in arr.sets for c in s}


def status(hand: HandState) -> str:
    """Who does what now, or how the hand ended."""
    r = hand.result
    if hand.phase is Phase.OVER and r is not None:
        if r.winner is None:
            return "draw hand: no score"
        assert r.knocker is not None
        return f"{NAMES[r.knocker]} {r.outcome.value}; {NAMES[r.winner]} scores {r.points}"
    verb = {Phase.DRAW: "to draw", Phase.DISCARD: "to discard", Phase.KNOCK: "may knock"}[hand.phase]
    return f"{NAMES[hand.to_move]} {verb}"


def ansi(hand: HandState, scores: tuple[int, int]) -> str:
    """A few lines of text: each hand arranged (melds in brackets), the pile and stock."""
    lines = []
    for seat in (1, 0):
        order, groups, _ = _arranged(hand.hand(seat))
        melded = [f"[{text(g)}]" for g in groups]
        loose = text(c for c in order if not any(c in g for g in groups))
        lines.append(f"{NAMES[seat]} ({scores[seat]:>3}): {' '.join(melded + [loose]).strip()}"
                     f"  deadwood {hand.deadwood(seat)}")
    top = hand.pile_top
    lines.append(f"pile {top if top is not None else '--'} ({len(hand.pile)})  stock {len(hand.stock)}"
                 f"  knock {hand.knock_value}  {status(hand)}")
    return "\n".join(lines) + "\n"


class Frames:
    """Draws hands on an off-screen Screen page and returns them as RGB arrays."""

    def __init__(self, profile: str = "EGA") -> None:
        from port.main.loop import init_pyxel      # pyxel once per process, headless
        from port.main.launch import Launch
        from port.screen import Screen

        init_pyxel(Launch(headless=True, profile=profile))
        self.screen = Screen(profile, noblank=True)
        p = self.screen.profile
        pal = np.array([[(c >> 16) & 255, (c >> 8) & 255, c & 255] for c in p.palette], dtype=np.uint8)
        self._palette = np.zeros((256, 3), dtype=np.uint8)
        self._palette[:len(pal)] = pal
        self._shape = (p.height, p.width)

    def frame(self, hand: HandState, scores: tuple[int, int], limit: int) -> np.ndarray:
        from port.screen.profiles import BLACK, BLUE, GREEN, LIGHTGRAY, RED, WHITE

        s = self.screen
        s.set_page(0)
        s.clear(BLACK)
        for seat, y in ((1, 16), (0, 206)):
            s.text(40, y - 14, f"{NAMES[seat].upper()}  DEADWOOD {hand.deadwood(seat)}", LIGHTGRAY)
            order, groups, sets = _arranged(hand.hand(seat))
            pos = {c: i for i, c in enumerate(order)}
            for g in groups:
                first, last = pos[g[0]], pos[g[-1]]
                s.bar(40 + first * 54, y - 6, (last - first) * 54 + 48, 4, BLUE if g[0] in sets else GREEN)
            for i, c in enumerate(order):
                s.card(40 + i * 54, y, c)
        s.text(48, 98, "DECK", LIGHTGRAY)
        s.deck(40, 112, len(hand.stock))
        s.text(118, 98, "PILE", LIGHTGRAY)
        if hand.pile:
            s.card(110, 112, hand.pile[-1])
        else:
            s.box(110, 112, 48, 64, LIGHTGRAY)
        s.text(190, 98, "KNOCK", LIGHTGRAY)
        s.fill(190, 112, 48, 64, WHITE)
        s.box(190, 112, 48, 64, BLACK)
        label = str(hand.knock_value)
        s.text(190 + (48 - s.text_width(label, 3)) // 2, 132, label, BLACK, 3)
        if hand.options.doubled(hand.upcard):
            s.box(186, 108, 56, 72, RED, thick=2)
        s.text(366, 112, status(hand).upper(), WHITE)
        s.text(520, 290, f"{'PLAYER_0':<9}{scores[0]:>4}", WHITE)
        s.text(520, 304, f"{'PLAYER_1':<9}{scores[1]:>4}", WHITE)
        s.text(520, 318, f"{'LIMIT':<9}{limit:>4}", LIGHTGRAY)
        idx = np.frombuffer(s.snapshot(), dtype=np.uint8).reshape(self._shape)
        return self._palette[idx]
