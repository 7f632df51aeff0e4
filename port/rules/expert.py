"""EXPERT, beyond the original: STANDARD's formulas, with the opponent's hidden hand
reasoned about by sampling and every knock decided by simulation.

* Sampling: the opponent holds the cards it took from the pile and kept, plus cards
  drawn from the unseen ones. A card next to one it threw away or passed over (same
  rank, or a suit neighbour) is less likely in its hand: a player keeps what it
  collects. Each sample also shuffles the rest of the unseen cards as the stock.
  The opponent has also seen a card per stock draw and kept the best: each sample
  draws that many more and throws them back the least-deadwood way, so a sampled
  hand is as built-up as the opponent's real one after as many turns.
* Knock: for each sample, the exact settlement of knocking now (layoffs, undercut)
  against a quick play-out of the hand when playing on (both sides with fast
  least-deadwood play); knock when knocking scores at least as well on average.

The bot's randomness is its own seeded generator; a decision takes at most a few
tens of milliseconds (the samples are bounded), measured by scripts/bench_ai.py.
"""
from __future__ import annotations

import random

from port.cards import Card
from port.rules.computer import (DEFAULT, FULL, Knowledge, Standard, Weights, _bits,
                                 _discard_order, choose_discard, knowledge)
from port.rules.melds import best_discards_mask, deadwood_mask
from port.rules.players import KnockChoice
from port.rules.settle import settle_out
from port.rules.state import DRAW_AT, View

_SPREAD = 0x0001_0001_0001_0001


class Sampler:
    """Opponent hands (and stock orders) consistent with one seat's knowledge."""

    def __init__(self, kn: Knowledge, rng: random.Random) -> None:
        self.kn = kn
        self.rng = rng
        pool = _bits(kn.unseen)
        near = _near(kn.opp_shed)
        self.pool = pool
        self.weights = [0.35 if b & near else 1.0 for b in pool]

    def sample(self) -> tuple[int, list[int]]:
        """One opponent hand (mask) and a stock order (list of bits, top last)."""
        kn = self.kn
        need = kn.opp_unknown
        pool, weights = list(self.pool), list(self.weights)
        hand = kn.opp_has
        rng = self.rng
        # The opponent has seen a card per stock draw and kept the best ten: draw that
        # many more and let it throw, least deadwood first, what it would have thrown.
        extra = min(kn.opp_draws, max(0, len(pool) - need - DRAW_AT - 2))
        drawn = 0
        for _ in range(min(need + extra, len(pool))):
            i = _weighted_index(rng, weights)
            drawn |= pool[i]
            pool[i], weights[i] = pool[-1], weights[-1]
            pool.pop()
            weights.pop()
        for _ in range(extra):
            _, throws = best_discards_mask(hand | drawn)
            throws &= drawn
            t = throws & -throws if throws else drawn & -drawn
            drawn ^= t
            pool.append(t)
        rng.shuffle(pool)
        return hand | drawn, pool


def _weighted_index(rng: random.Random, weights: list[float]) -> int:
    x = rng.random() * sum(weights)
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return i
    return len(weights) - 1


def _near(shed: int) -> int:
    """Cards of the same rank as, or next in suit to, a card in ``shed``."""
    a, b, c, d = shed & 0x1FFF, shed >> 16 & 0x1FFF, shed >> 32 & 0x1FFF, shed >> 48
    ranks = a | b | c | d
    return (_SPREAD * ranks | shed << 1 | shed >> 1) & FULL


# ---- a fast play-out ---------------------------------------------------------------------

def _fast_draw(h: int, top: int | None) -> bool:
    """Take the pile card when it lowers the deadwood and it is not the best throw."""
    if top is None:
        return False
    v, throws = best_discards_mask(h | top)
    return v < deadwood_mask(h) and bool(throws & ~top)


def _fast_discard(h: int, taken: int) -> int:
    v, throws = best_discards_mask(h)
    throws &= ~taken
    if not throws:
        return max((b for b in _bits(h & ~taken)), key=lambda b: -deadwood_mask(h ^ b))
    return max(_bits(throws), key=_discard_order)


def play_out(hands: list[int], stock: list[int], top: int | None, to_move: int,
             kv: int, me: int, options: object, upcard: Card, turns: int) -> int:
    """Play the hand to its end with fast least-deadwood play; points for ``me``
    (negative when the other side scores)."""
    pile_top = top
    while True:
        if len(stock) <= DRAW_AT and not _fast_draw(hands[to_move], pile_top):
            return 0
        h = hands[to_move]
        if _fast_draw(h, pile_top):
            taken = pile_top
            h |= taken   # type: ignore[operator]
        else:
            taken = 0
            h |= stock.pop()
        d = _fast_discard(h, taken or 0)
        h ^= d
        hands[to_move] = h
        pile_top = d
        dw = deadwood_mask(h)
        turns += 1
        if dw == 0 or (dw <= kv and dw <= max(1, kv - turns // 4)):
            r = settle_out(to_move, (hands[0], hands[1]), options, upcard)  # type: ignore[arg-type]
            return r.points if r.winner == me else -r.points
        to_move = 1 - to_move


# ---- the level --------------------------------------------------------------------------

class Expert(Standard):
    """EXPERT: STANDARD's draws and discards, knocks simulated on sampled hands."""

    name = "expert"
    samples = 48

    def __init__(self, seed: int = 0, weights: Weights = DEFAULT) -> None:
        super().__init__(seed, weights)
        self.rng = random.Random(seed)

    def choose_discard(self, view: View) -> Card:
        return choose_discard(view, self.weights, self._knock_better)

    def choose_knock(self, view: View) -> KnockChoice:
        kn = knowledge(view)
        top = view.pile_top
        ok = self._knock_better(view, kn, kn.mine, top.bit if top is not None else None)
        return KnockChoice.KNOCK if ok else KnockChoice.PLAY_ON

    def _knock_better(self, view: View, kn: Knowledge, h10: int, discard: int | None) -> bool:
        """Knocking now against playing on, over sampled opponent hands and stocks."""
        if deadwood_mask(h10) <= 1 or view.stock_count <= 4:
            return True
        # The discard is public once made: it is not in the opponent's hand or the stock.
        if discard is not None and discard & kn.unseen:
            kn = Knowledge(kn.mine, kn.pile | discard, kn.opp_has, kn.opp_shed,
                           kn.unseen & ~discard, kn.opp_unknown, kn.opp_draws)
        sampler = Sampler(kn, self.rng)
        me = view.seat
        knock = on = 0
        for _ in range(self.samples):
            opp, stock = sampler.sample()
            hands = [0, 0]
            hands[me], hands[1 - me] = h10, opp
            r = settle_out(me, (hands[0], hands[1]), view.options, view.upcard)
            knock += r.points if r.winner == me else -r.points
            on += play_out(hands, stock, discard, 1 - me, view.knock_value, me,
                           view.options, view.upcard, kn.opp_draws * 2)
        return knock >= on


__all__ = ["Expert", "Sampler", "play_out"]
