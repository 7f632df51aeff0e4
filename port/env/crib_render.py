"""Pictures of a Cribbage deal for the environment's ``render``: text ("ansi"), and
frames drawn by the real Screen unit on headless pyxel ("rgb_array"). For someone
watching both seats: both hands and the crib are face up."""
from __future__ import annotations

import numpy as np

from port.cards import Card, text
from port.cribbage.rules.state import HandState, Phase
from port.env.gin_render import Frames as _GinFrames

NAMES = ("player_0", "player_1")


def status(hand: HandState) -> str:
    if hand.winner is not None:
        return f"{NAMES[hand.winner]} wins the game"
    if hand.phase is Phase.DISCARD:
        return f"{NAMES[hand.to_act]} to lay away" if hand.to_act is not None else "discard"
    if hand.phase is Phase.PLAY:
        return f"{NAMES[hand.to_act]} to play" if hand.to_act is not None else "play"
    return "the deal is over" if hand.phase is Phase.DONE else "the show"


def ansi(hand: HandState, pending: Card | None = None) -> str:
    lines = []
    for seat in (1, 0):
        role = "dealer" if seat == hand.dealer else "pone"
        laid = f"  crib {text(hand.cribs[seat])}" if hand.cribs[seat] else (
            f"  laying away {pending}" if pending is not None and hand.to_act == seat else "")
        lines.append(f"{NAMES[seat]} ({role}, {hand.scores[seat]:>3}): {text(hand.hands[seat])}{laid}")
    starter = str(hand.starter) if hand.starter is not None else "--"
    lines.append(f"starter {starter}  count {hand.count} ({text(hand.count_cards)})  {status(hand)}")
    return "\n".join(lines) + "\n"


class Frames(_GinFrames):
    """The Screen unit's off-screen page, drawn with a deal of Cribbage."""

    def frame(self, hand: HandState, pending: Card | None = None) -> np.ndarray:  # type: ignore[override]
        from port.screen.profiles import BLACK, LIGHTGRAY, WHITE, YELLOW

        s = self.screen
        s.set_page(0)
        s.clear(BLACK)
        for seat, y in ((1, 16), (0, 206)):
            role = "DEALER" if seat == hand.dealer else "PONE"
            s.text(40, y - 14, f"{NAMES[seat].upper()}  {role}  {hand.scores[seat]}", LIGHTGRAY)
            for i, c in enumerate(hand.hands[seat]):
                s.card(40 + i * 54, y, c)
                if c == pending and hand.to_act == seat:
                    s.bar(40 + i * 54, y - 8, 48, 4, YELLOW)
        s.text(48, 98, "DECK", LIGHTGRAY)
        s.deck(40, 112, len(hand.stock))
        s.text(110, 98, "STARTER", LIGHTGRAY)
        if hand.starter is not None:
            s.card(110, 112, hand.starter)
        s.text(190, 98, "CRIB", LIGHTGRAY)
        crib = hand.cribs[0] + hand.cribs[1]
        for i, c in enumerate(crib):
            s.card(190 + i * 20, 112, c)
        s.text(340, 98, f"COUNT {hand.count}", LIGHTGRAY)
        for i, c in enumerate(hand.count_cards):
            s.card(340 + i * 30, 112, c)
        s.text(366, 190, status(hand).upper(), WHITE)
        idx = np.frombuffer(s.snapshot(), dtype=np.uint8).reshape(self._shape)
        return self._palette[idx]
