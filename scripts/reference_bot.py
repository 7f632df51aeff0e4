"""The plain reference bot of issue 3's targets, written to the player interface.

It takes the pile card only when that card completes a meld, discards to leave the
least deadwood (the higher card among equals), and knocks as soon as it can. Run it
against a level with ``python -m port.match --a standard --b scripts/reference_bot.py:ReferenceBot``.
"""
from __future__ import annotations

from port.cards import Card, mask
from port.ginrummy.rules.melds import arrange_mask, deadwood_mask
from port.ginrummy.rules.players import Draw, KnockChoice, Player, legal_discards
from port.ginrummy.rules.state import View


class ReferenceBot(Player):
    name = "reference"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose_draw(self, view: View) -> Draw:
        top = view.pile_top
        if top is None:
            return Draw.STOCK
        h = mask(view.hand) | top.bit
        # The best discard other than the card itself; the card must sit in a meld after it.
        d = min((c for c in view.hand), key=lambda c: (deadwood_mask(h ^ c.bit), -c.value, -c))
        sets, runs, _ = arrange_mask(h ^ d.bit)
        melded = 0
        for m in sets + runs:
            melded |= m
        return Draw.PILE if melded & top.bit else Draw.STOCK

    def choose_discard(self, view: View) -> Card:
        h = mask(view.hand)
        return min(legal_discards(view), key=lambda c: (deadwood_mask(h ^ c.bit), -c.value, -c))

    def choose_knock(self, view: View) -> KnockChoice:
        return KnockChoice.KNOCK
