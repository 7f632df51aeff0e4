"""EXPERT, beyond the original: STANDARD's best few moves, settled by playing the hand
out on sampled worlds, every candidate on the same worlds, each outcome priced by the
chance to win the game. docs/players.md ("How EXPERT chooses") explains it for a
newcomer; in short:

* Candidates: at most ``candidates`` discards within ``close`` of STANDARD's best
  score, STANDARD's own choice, and the knocking discard when the hand may knock;
  STANDARD's formulas with EXPERT's own constants (``WEIGHTS``).
  One candidate and no knock: STANDARD's move, no search. A draw is searched only
  when STANDARD's take and keep scores are within ``draw_close``.
* Worlds (``Sampler``): the opponent's hidden hand, built up like a real hand (one
  extra card seen per draw it made, the least useful thrown back), with the cards it
  took and kept, fewer cards next to those it shed, and the rest as a shuffled stock.
* Play-outs (``play_out``): fast greedy play by both sides to the end of the hand,
  knocks by STANDARD's formula (an opponent not yet seen turning a knock down knocks
  at once), settled as the engine settles (``out_points``).
* Common random numbers: every candidate is played out on the same worlds, and a
  candidate replaces STANDARD's move only when its world-by-world gain is more than
  ``z`` standard errors.
* A budget of ``playouts`` play-outs per decision, shared by its lines of play: a knock
  question (one line) is judged on ``max_worlds`` (100) worlds, a draw (two lines) on
  100 each, six discard candidates on 33 each (never fewer than ``worlds``, 20): the
  worst decision costs the budget, whatever the position.
* Pricing: ``port.ginrummy.wintable``, the chance to win the game after the hand's points,
  from both scores and who starts next: this is what makes its knocks score-aware.

The bot's randomness is its own seeded generator; the number of worlds is fixed, so a
seed gives the same games on any machine. scripts/bench_ai.py measures the times.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import replace

from port.cards import CARDS, Card
from port.ginrummy.computer import (DEFAULT, FULL, Knowledge, Standard, Weights, _bits,
                                 _discard_order, _score_discard, choose_discard, knowledge,
                                 related, worth)
from port.ginrummy.rules.melds import arrange_mask, best_discards_mask, deadwood_mask
from port.ginrummy.rules.players import Draw, KnockChoice, legal_discards
from port.ginrummy.rules.settle import best_layoffs
from port.ginrummy.rules.options import FirstTurn
from port.ginrummy.rules.state import DRAW_AT, Act, Phase, View
from port.ginrummy.wintable import win_table

_SPREAD = 0x0001_0001_0001_0001
_WAITS = (Act.PLAY_ON, Act.PLAY_TO_GIN)
_CARD_AT = {c.bit: c for c in CARDS}
_VALUE_AT = {c.bit: c.value for c in CARDS}


class Sampler:
    """Opponent hands (and stock orders) consistent with one seat's knowledge."""

    near_weight = 0.35   # how likely a card next to one the opponent shed is kept

    def __init__(self, kn: Knowledge, rng: random.Random, built: float = 1.0) -> None:
        self.kn = kn
        self.built = built
        self.rng = rng
        self.pool = _bits(kn.unseen)
        self.near = _near(kn.opp_shed)

    def sample(self) -> tuple[int, list[int]]:
        """One opponent hand (mask) and a stock order (list of bits, top last)."""
        kn = self.kn
        need = kn.opp_unknown
        pool = list(self.pool)
        near, keep = self.near, self.near_weight
        hand = kn.opp_has
        rng = self.rng
        random_ = rng.random
        # The opponent has seen a card per stock draw and kept the best ten: draw that
        # many more and let it throw, least deadwood first, what it would have thrown.
        extra = min(int(kn.opp_draws * self.built), max(0, len(pool) - need - DRAW_AT - 2))
        drawn = 0
        left = min(need + extra, len(pool))
        while left:
            # A card near one the opponent shed is drawn with weight ``keep``: pick
            # uniformly, and accept such a card with that chance (rejection sampling).
            i = int(random_() * len(pool))
            b = pool[i]
            if b & near and random_() >= keep:
                continue
            pool[i] = pool[-1]
            pool.pop()
            drawn |= b
            left -= 1
        for _ in range(extra):
            _, throws = best_discards_mask(hand | drawn)
            throws &= drawn
            t = throws & -throws if throws else drawn & -drawn
            drawn ^= t
            pool.append(t)
        rng.shuffle(pool)
        return hand | drawn, pool


def _near(shed: int) -> int:
    """Cards of the same rank as, or next in suit to, a card in ``shed``."""
    a, b, c, d = shed & 0x1FFF, shed >> 16 & 0x1FFF, shed >> 32 & 0x1FFF, shed >> 48
    ranks = a | b | c | d
    return (_SPREAD * ranks | shed << 1 | shed >> 1) & FULL


def _loosest(h: int) -> int:
    """The value of the costliest card outside the hand's best melds (0 for gin)."""
    dead = arrange_mask(h)[2]
    return _VALUE_AT[_highest(dead)] if dead else 0


# ---- a fast play-out ---------------------------------------------------------------------

def _highest(m: int) -> int:
    """The costliest card of a mask (the later card among equals)."""
    best, best_v = 0, -1
    while m:
        b = m & -m
        m ^= b
        v = _VALUE_AT[b]
        if v >= best_v:
            best, best_v = b, v
    return best


def out_points(kh: int, dh: int, gin_bonus: int, undercut_bonus: int) -> int:
    """What the knocker (hand ``kh``) scores going out against ``dh``; negative when
    undercut. The knocker's melds are one least-deadwood arrangement (the settlement
    chooses among ties; a play-out need not)."""
    sets, runs, dead = arrange_mask(kh)
    k_dw = deadwood_mask(kh)
    if k_dw == 0:
        return gin_bonus + deadwood_mask(dh)
    d_dw = best_layoffs(tuple(sets + runs), dh)[0]
    if k_dw < d_dw:
        return d_dw - k_dw
    return -(undercut_bonus + k_dw - d_dw)


def play_out(hands: list[int], stock: list[int], top: int | None, to_move: int,
             kv: int, me: int, gin_bonus: int, undercut_bonus: int,
             schedule: tuple[int, float, int, int] | None = None, at_once: int = -1,
             stock_first: bool = False, memo: dict[int, tuple[int, int]] | None = None) -> int:
    """Play the hand to its end with fast least-deadwood play; points for ``me``
    (negative when the other side scores). ``hands`` and ``stock`` are consumed.

    Both sides knock as soon as they may, or with ``schedule`` = (free turns, slope,
    floor, the draws made so far by each side) by STANDARD's knock formula, except the
    seat ``at_once``, which still knocks as soon as it may. ``stock_first``: the side
    to move draws from the stock on its first turn, whatever the pile offers.

    ``memo`` keeps the best discards of the 11-card hands met: the candidates of one
    decision are played out on the same worlds, so the opponent meets the same hands
    again and again (about half the look-ups hit)."""
    if memo is None:
        memo = {}
    get = memo.get
    dws = [deadwood_mask(hands[0]), deadwood_mask(hands[1])]
    if stock_first:
        top = None   # the pile card passed over is buried under the next discard
    if schedule is not None:
        free, slope, floor, drawn = schedule
        draws = [drawn, drawn]   # each side's own draws (the other's are about as many)
    while True:
        h = hands[to_move]
        took = False
        if top is not None:
            x = h | top
            r = get(x)
            if r is None:
                r = memo[x] = best_discards_mask(x)
            v, throws = r
            throws &= ~top
            if v < dws[to_move] and throws:
                took = True
                h |= top
        if not took:
            if len(stock) <= DRAW_AT:
                return 0
            h |= stock.pop()
            r = get(h)
            if r is None:
                r = memo[h] = best_discards_mask(h)
            v, throws = r
        d = _highest(throws)
        h ^= d
        hands[to_move] = h
        dws[to_move] = v
        top = d
        if schedule is not None:
            draws[to_move] += 1
            late = max(0, draws[to_move] - free)
            if v <= kv and v > floor and len(stock) > 4 and v > kv - slope * late \
                    and to_move != at_once:
                to_move ^= 1   # STANDARD's formula plays on
                continue
        if v <= kv:
            pts = out_points(h, hands[1 - to_move], gin_bonus, undercut_bonus)
            return pts if to_move == me else -pts
        to_move ^= 1


# ---- the level ----------------------------------------------------------------------

# EXPERT's own constants for STANDARD's formulas: its candidates and its fallback are
# STANDARD's choices under these. Found by scripts/tune_standard.py --search (Optuna,
# 40 trials of 2,000 games against the reference bot on seed 7), confirmed on seed 1:
# more patient knocks (the deadwood a knock may keep falls from the opponent's third
# draw, 4.33 a draw, with no low floor) and less fear of feeding the opponent late.
# STANDARD keeps its own (DEFAULT): the hints are its choices. docs/players.md.
WEIGHTS = replace(DEFAULT, potential=1.63, danger=5.4, danger_end=6.91, pile_margin=0.73,
                  knock_free_turns=3, knock_slope=4.33, knock_floor=0, on_potential=0.23)


class Expert(Standard):
    """EXPERT: STANDARD's best few moves, settled by playing the hand out on sampled
    worlds, every candidate on the same worlds, outcomes priced by the chance to win
    the game (``port.ginrummy.wintable``)."""

    name = "expert"
    worlds = 20             # sampled worlds a candidate is played out on, at least
    playouts = 200          # > 0: play-outs per decision, shared by its candidates: fewer
    max_worlds = 100        # candidates get more worlds, up to this many (never fewer
                            # than ``worlds``); 0: ``worlds`` for every decision
    candidates = 4          # discards played out at most (STANDARD's best few)
    close = 3.0             # ... within this many of STANDARD's points of its best
    draw_close = 2.0        # a draw is searched when STANDARD's take and keep are this close
    z = 1.5                 # leave STANDARD's move only for a paired gain of z standard errors
    tries = 2               # > 1: resample up to this often for a hand whose loose
                            # cards are no costlier than the opponent's last discard
    low_tries = 12          # > 0: resample up to this often for a hand within the knock
                            # value once the opponent has turned a knock down
    built = 1.0             # share of the opponent's draws a sampled hand has seen
    standard_knocks = True  # play-outs knock by STANDARD's formula, not at once
    read_habit = True       # play out an opponent that never turned a knock down as
                            # knocking at once
    by_game = True          # price outcomes by the chance to win the game (else points)

    def __init__(self, seed: int = 0, weights: Weights = WEIGHTS) -> None:
        super().__init__(seed, weights)
        self.rng = random.Random(seed)
        self.opp_waits = False   # the opponent has turned down a knock this game
        self.plan: tuple[int, bool] | None = None   # (hand after the discard, knock?)
        self.memo: dict[int, tuple[int, int]] = {}  # one decision's best discards
        self.spent = 0   # play-outs of the last decision (what its time is made of)

    # -- the worlds --

    def _n_worlds(self, lines: int) -> int:
        """Worlds for a decision that plays out ``lines`` lines of play: ``worlds``, or
        the play-out budget shared among them, so that a close choice between few moves
        is judged on more worlds for the same worst-case time."""
        if self.playouts <= 0:
            return self.worlds
        return max(self.worlds, min(self.max_worlds, self.playouts // max(1, lines)))

    def _deals(self, kn: Knowledge, n: int, kv: int) -> list[tuple[int, list[int]]]:
        sampler = Sampler(kn, self.rng, self.built)
        low = self.low_tries if kn.opp_low else 0
        if (self.tries <= 1 or kn.opp_draws == 0) and not low:
            return [sampler.sample() for _ in range(n)]
        # A player throws its costliest loose card: prefer hands whose loose cards are
        # all worth no more than the opponent's last discard. An opponent that turned
        # down a knock (a public "play on") held a hand within the knock value.
        out = []
        for _ in range(n):
            best, best_dw = None, 999
            for _ in range(max(self.tries, low)):
                deal = sampler.sample()
                ok = _loosest(deal[0]) <= kn.opp_last or kn.opp_draws == 0
                if low:
                    dw = deadwood_mask(deal[0])
                    if dw < best_dw:
                        best, best_dw = deal, dw
                    ok = ok and dw <= kv
                if ok:
                    break
            else:
                deal = best if best is not None else deal
            out.append(deal)
        return out

    def _schedule(self, kn: Knowledge) -> tuple[int, float, int, int] | None:
        """STANDARD's knock formula for the sides of a play-out (None: knock at once)."""
        if not self.standard_knocks:
            return None
        w = self.weights
        return (w.knock_free_turns, w.knock_slope, w.knock_floor, kn.opp_draws)

    def _at_once(self, view: View) -> int:
        """The opponent's seat while it has knocked whenever offered this game (it is
        then played out knocking at once), else -1. An opponent seen turning a knock
        down (a public "play on") waits like STANDARD for the rest of the game."""
        if not self.read_habit:
            return -1
        opp = 1 - view.seat
        if not self.opp_waits and any(e.seat == opp and e.act in _WAITS for e in view.events):
            self.opp_waits = True
        return -1 if self.opp_waits else opp

    # -- pricing --

    def _pricer(self, view: View) -> Callable[[int], float]:
        """Points of this hand for me (negative: for them) -> what they are worth: the
        chance to win the game after them, or the points themselves."""
        o = view.options
        mult = 2 if o.doubled(view.knock_card) else 1   # the knock card: Oklahoma's upcard or the knock deck's
        if not self.by_game:
            return lambda pts: float(pts * mult)
        table = win_table(o)
        me = view.seat
        starter = view.events[0].seat if view.events else view.to_move
        nxt = 1 - starter if o.first_turn is FirstTurn.ALTERNATE else starter
        mine, theirs = view.scores[me], view.scores[1 - me]
        start = nxt == me
        memo: dict[int, float] = {}

        def price(pts: int) -> float:
            got = memo.get(pts)
            if got is None:
                got = memo[pts] = table.price(mine, theirs, start, pts * mult)
            return got

        return price

    # -- evaluating a hand after a discard, on every world --

    def _after(self, view: View, kn: Knowledge, h10: int, d: int | None,
               deals: list[tuple[int, list[int]]], price: Callable[[int], float]
               ) -> tuple[list[float], list[float] | None]:
        """Per world, the worth of keeping ``h10`` with ``d`` thrown and playing on, and
        (when the hand may knock) of knocking at once."""
        me = view.seat
        o = view.options
        kv = view.knock_value
        dw = deadwood_mask(h10)
        g, u = o.gin_bonus, o.undercut_bonus
        if dw == 0:
            gin = [price(out_points(h10, opp, g, u)) for opp, _ in deals]
            return gin, None
        schedule, at_once = self._schedule(kn), self._at_once(view)
        on = []
        memo = self.memo
        self.spent += len(deals)
        for opp, stock in deals:
            hands = [0, 0]
            hands[me], hands[1 - me] = h10, opp
            on.append(price(play_out(hands, list(stock), d, 1 - me, kv, me, g, u,
                                     schedule, at_once, memo=memo)))
        knock = None
        if dw <= kv and not view.play_to_gin:
            knock = [price(out_points(h10, opp, g, u)) for opp, _ in deals]
        return on, knock

    @staticmethod
    def _best_of(on: list[float], knock: list[float] | None) -> tuple[list[float], bool]:
        """The better of playing on and knocking, chosen on the means (never per world,
        which would be choosing with sight of the hidden cards)."""
        if knock is not None and sum(knock) >= sum(on):
            return knock, True
        return on, False

    def _prefer(self, values: list[list[float]], standard: int) -> int:
        """The candidate to play: STANDARD's (index ``standard``) unless another beats
        it, world by world, by ``z`` standard errors of the paired differences."""
        n = len(values[standard])
        best_i, best_gain = standard, 0.0
        for i, vals in enumerate(values):
            if i == standard:
                continue
            diffs = [a - b for a, b in zip(vals, values[standard])]
            mean = sum(diffs) / n
            if mean <= best_gain:
                continue
            var = sum((x - mean) ** 2 for x in diffs) / max(1, n - 1)
            if mean > self.z * (var / n) ** 0.5:
                best_i, best_gain = i, mean
        return best_i

    # -- decisions --

    def choose_discard(self, view: View) -> Card:
        self.spent = 0
        kn = knowledge(view)
        h = kn.mine
        w = self.weights
        options = [c.bit for c in legal_discards(view)]
        dws = {d: deadwood_mask(h ^ d) for d in options}
        best_dw = min(dws.values())
        standard = choose_discard(view, w).bit   # STANDARD's own move (also the hint)
        if best_dw == 0:
            self.plan = None
            return _CARD_AT[standard]
        can_knock = not view.play_to_gin and view.knock_value > 0 and best_dw <= view.knock_value
        # The candidates: STANDARD's best few by its own score, the knocking discard,
        # and STANDARD's choice.
        scored = sorted((_score_discard(h, d, kn, w), -_VALUE_AT[d], -d, d)
                        for d in options if dws[d] <= best_dw + 10)
        top = scored[0][0]
        cands = [x[3] for x in scored[:self.candidates] if x[0] <= top + self.close]
        if can_knock:
            knocker = max((d for d in options if dws[d] == best_dw), key=_discard_order)
            if knocker not in cands:
                cands.append(knocker)
        if standard not in cands:
            cands.insert(0, standard)
        if len(cands) == 1 and not can_knock:
            self.plan = None
            return _CARD_AT[standard]
        deals = self._deals(kn, self._n_worlds(len(cands)), view.knock_value)
        price = self._pricer(view)
        self.memo = {}
        values, knocks = [], []
        for d in cands:
            on, knock = self._after(view, kn, h ^ d, d, deals, price)
            vals, k = self._best_of(on, knock)
            values.append(vals)
            knocks.append(k)
        i = self._prefer(values, cands.index(standard))
        self.plan = (h ^ cands[i], knocks[i])
        return _CARD_AT[cands[i]]

    def choose_knock(self, view: View) -> KnockChoice:
        self.spent = 0
        kn = knowledge(view)
        if self.plan is not None and self.plan[0] == kn.mine:
            return KnockChoice.KNOCK if self.plan[1] else KnockChoice.PLAY_ON
        top = view.pile_top
        d = top.bit if top is not None else None
        deals = self._deals(kn, self._n_worlds(1), view.knock_value)
        self.memo = {}
        on, knock = self._after(view, kn, kn.mine, d, deals, self._pricer(view))
        return KnockChoice.KNOCK if self._best_of(on, knock)[1] else KnockChoice.PLAY_ON

    def choose_draw(self, view: View) -> Draw:
        self.spent = 0
        standard = super().choose_draw(view)
        top = view.pile_top
        if top is None or self.draw_close < 0 or view.stock_only:
            return standard
        kn = knowledge(view)
        w = self.weights
        h, t = kn.mine, top.bit
        h11 = h | t
        dws = [(deadwood_mask(h11 ^ d), d) for d in _bits(h)]
        best_dw = min(dws)[0]
        if best_dw == 0 or (not (related(h) & t) and best_dw >= deadwood_mask(h)):
            return standard
        keep = worth(h, kn, w)
        take_score, _, _, take_d = min((_score_discard(h11, d, kn, w), -_VALUE_AT[d], -d, d)
                                       for dw, d in dws if dw <= best_dw + 10)
        if abs(take_score - keep) > self.draw_close:
            return standard
        # Take: STANDARD's discard after it, then the better of knocking and playing on;
        # stock: draw the world's next card and play on fast. Both on the same worlds.
        deals = self._deals(kn, self._n_worlds(2), view.knock_value)
        price = self._pricer(view)
        self.memo = {}
        take = self._best_of(*self._after(view, kn, h11 ^ take_d, take_d, deals, price))[0]
        stock = self._stock_draw(view, kn, deals, price)
        values = [take, stock] if standard is Draw.PILE else [stock, take]
        i = self._prefer(values, 0)
        return standard if i == 0 else (Draw.STOCK if standard is Draw.PILE else Draw.PILE)

    def _stock_draw(self, view: View, kn: Knowledge, deals: list[tuple[int, list[int]]],
                    price: Callable[[int], float]) -> list[float]:
        """Per world, the worth of leaving the pile's top and drawing the world's next
        stock card, playing on fast."""
        me, o = view.seat, view.options
        top = view.pile_top
        schedule, at_once = self._schedule(kn), self._at_once(view)
        out = []
        self.spent += len(deals)
        for opp, order in deals:
            hands = [0, 0]
            hands[me], hands[1 - me] = kn.mine, opp
            out.append(price(play_out(hands, list(order), top.bit if top is not None else None, me,
                                      view.knock_value, me, o.gin_bonus, o.undercut_bonus, schedule,
                                      at_once, stock_first=True, memo=self.memo)))
        return out

    # -- review: every choice of a decision, judged on the same worlds --

    def values(self, view: View, worlds: int = 100) -> dict[Draw | Card | KnockChoice, float]:
        """Each legal choice of the decision the view is at, with its estimated worth
        (the chance to win the game; the points of the hand when ``by_game`` is off),
        every choice played out on the same ``worlds`` sampled worlds: what a review
        shows beside the choice made (``port.ginrummy.review``). A discard's worth
        includes the better of knocking and playing on after it; taking the pile card
        is followed by STANDARD's discard. Empty for a decision it does not judge (the
        upcard offer, a hand that is over)."""
        self.spent = 0
        self.memo = {}
        kn = knowledge(view)
        price = self._pricer(view)
        deals = self._deals(kn, worlds, view.knock_value)

        def mean(xs: list[float]) -> float:
            return sum(xs) / len(xs)

        if view.phase is Phase.DISCARD:
            return {c: mean(self._best_of(*self._after(view, kn, kn.mine ^ c.bit, c.bit, deals, price))[0])
                    for c in legal_discards(view)}
        if view.phase is Phase.KNOCK:
            top = view.pile_top
            on, knock = self._after(view, kn, kn.mine, top.bit if top is not None else None, deals, price)
            out: dict[Draw | Card | KnockChoice, float] = {KnockChoice.PLAY_ON: mean(on)}
            if knock is not None:
                out[KnockChoice.KNOCK] = mean(knock)
            return out
        if view.phase is Phase.DRAW:
            out = {Draw.STOCK: mean(self._stock_draw(view, kn, deals, price))}
            top = view.pile_top
            if top is not None and not view.stock_only:
                h11 = kn.mine | top.bit
                take_d = min((_score_discard(h11, d, kn, self.weights), -_VALUE_AT[d], -d, d)
                             for d in _bits(kn.mine))[3]
                out[Draw.PILE] = mean(self._best_of(*self._after(view, kn, h11 ^ take_d, take_d,
                                                                 deals, price))[0])
            return out
        return {}


__all__ = ["Expert", "Sampler", "out_points", "play_out"]
