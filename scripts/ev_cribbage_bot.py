"""A plain expected-value Cribbage bot, written to the public player interface, to
measure the computer levels against (docs/cribbage-players.md):

- Lay away: for each of the 15 ways to keep four of six, the kept four's exact mean
  show over the 46 starters it has not seen, plus the crib table's expected crib for
  the two thrown cards when it deals, minus it when the opponent deals (the shipped
  ``port/cribbage/crib_tables.json``, which EXPERT uses too).
- Play: one ply. Each legal card is worth what it pegs now less the mean of what the
  opponent's reply would peg, over every card it has not seen (a card that does not
  fit pegs nothing): the card that pegs most now, net of the answer it invites. Among
  equals the highest (the low cards are kept for the go), then the lowest card number.
  (The card that pegs most now with no look at the reply, equals broken away from
  counts of 5 and 21, is much weaker: 48.1% against STANDARD, docs/cribbage-players.md.)

    python -m port.match --game cribbage --a scripts/ev_cribbage_bot.py:EVBot --b standard

It looks only at its ``View``, and nothing in it is random.
"""
from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

from port.cards import Card
from port.cribbage.rules import Player, View, peg_points, score_hand

TABLES = Path(__file__).resolve().parent.parent / "port" / "cribbage" / "crib_tables.json"
RANKS = "A23456789TJQK"
VALUE = (1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)


def _tables() -> dict[str, dict[str, float]]:
    data = json.loads(TABLES.read_text())
    return {"dealer": data["dealer"], "pone": data["pone"]}


def crib_key(a: int, b: int) -> str:
    """The crib table's key of two cards: "55", "5J" (off suit), "5Js" (suited)."""
    ra, rb = sorted((a % 13, b % 13))
    key = RANKS[ra] + RANKS[rb]
    return key + "s" if ra != rb and a // 13 == b // 13 else key


def unseen(view: View) -> list[int]:
    """The cards it has not seen: the opponent's, the crib's other two, the deck."""
    seen = set(view.hand) | set(view.my_crib) | set(view.kept or ())
    seen.update(c for _, c in view.played)
    if view.starter is not None:
        seen.add(view.starter)
    return [c for c in range(52) if c not in seen]


class EVBot(Player):
    name = "ev"

    def __init__(self, seed: int = 0) -> None:
        self.tables = _tables()

    def discard(self, view: View) -> tuple[Card, Card]:
        hand = list(view.hand)
        starters = [c for c in range(52) if c not in set(hand)]
        mine = view.dealer == view.seat
        table = self.tables["dealer" if mine else "pone"]
        sign = 1.0 if mine else -1.0
        best: tuple[float, int] | None = None
        choice = (hand[0], hand[1])
        for i, throw in enumerate(combinations(range(6), 2)):
            keep = [c for j, c in enumerate(hand) if j not in throw]
            a, b = hand[throw[0]], hand[throw[1]]
            v = sum(score_hand(keep, s) for s in starters) / len(starters)
            v += sign * table[crib_key(a, b)]
            if best is None or (v, -i) > best:      # the first of equals
                best = (v, -i)
                choice = (a, b)
        return choice

    def play(self, view: View) -> Card | None:
        legal = list(view.legal_plays())
        if not legal:
            return None
        cc = list(view.count_cards)
        pool = unseen(view)

        def key(c: Card) -> tuple[float, int, int]:
            now = cc + [c]
            count = view.count + VALUE[c % 13]
            reply = 0.0
            if count < 31:
                reply = sum(peg_points(now + [o]) for o in pool
                            if count + VALUE[o % 13] <= 31) / len(pool)
            return (peg_points(now) - reply, VALUE[c % 13], -int(c))

        return max(legal, key=key)
