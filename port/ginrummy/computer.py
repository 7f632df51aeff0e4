"""The computer player of the Rules unit: EASY, STANDARD (the default), hints, and the
levels' shared formulas (EXPERT lives in ``port.ginrummy.expert``, the registry of levels in
``port.ginrummy.levels``).

The documentation ("Notes on the Computer player"): the computer does not cheat, it
knows only what a human at its seat could know, and it "chooses its discard by a set
of fixed formulas". STANDARD's formulas, all on hand masks (see ``port.cards``):

* Knowledge, rebuilt from the view's public events: the cards the opponent took from
  the pile and still holds, the cards it threw or passed over, and the *unseen* cards
  (in the stock or the opponent's hand) -- everything not in my hand, not in the pile
  and not known to be in the opponent's hand.
* A ten-card hand is worth ``deadwood - K * potential``: the potential is the deadwood
  a random unseen card would save on the next draw (with the best discard after it),
  so a card's meld chances count only through cards still unseen.
* A discard's danger is the chance the opponent can meld it: pairs of cards that
  would meld with it, each card certain if the opponent took it from the pile, never if
  it is dead or mine, and otherwise as likely as the opponent's share of the unseen.
  It weighs little at the deal and more as the stock runs down (the opponent nears
  its knock, and a meld fed late can end the hand).
* Draw: take the pile card when the best hand after taking it beats keeping the hand
  for a stock draw by a margin (taking also tells the opponent what we collect).
* Knock: when allowed, weighing the deadwood against how long the opponent has had to
  build its hand (the undercut risk); never with a stock about to run out unknocked.

EASY (the documentation: "always pick the largest value unused card in its hand for
discarding instead of following its better choosing formulas") discards the highest
unmelded card. The documentation gives no draw or knock for it; ours follow from that
one rule, as a computer without the formulas would: it takes the pile card whenever
the rule would not throw it straight back, and knocks whenever it may
(docs/choices.md).

The hint ("uses about the same formulas ... that the computer uses") is STANDARD's
choice for the human's seat: ``hint(view)``.

Every decision here is a pure function of the view, so a hint and the computer's own
move can never differ.
"""
from __future__ import annotations

from collections.abc import Callable
import dataclasses
from dataclasses import dataclass

from port.cards import CARDS, LANE, VALUES, Card, cards_of
from port.ginrummy.rules.melds import arrange_mask, best_discards_mask, deadwood_mask
from port.ginrummy.rules.players import Draw, KnockChoice, Player, legal_discards
from port.ginrummy.rules.state import Act, Phase, View

FULL = sum(c.bit for c in CARDS)
_SPREAD = 0x0001_0001_0001_0001
_RANK_MASKS = tuple(_SPREAD << r for r in range(13))
_CARD_AT = {c.bit: c for c in CARDS}
_VALUE_AT = {c.bit: c.value for c in CARDS}


# ---- tuning: the fixed formulas' constants ----------------------------------------------

@dataclass(frozen=True)
class Weights:
    """The constants of STANDARD's formulas (measured with the match runner)."""

    potential: float = 1.6      # K: how many draws' worth of meld chances a hand is worth
    danger: float = 6.0         # deadwood points a discard the opponent can meld costs (deal)
    pile_margin: float = 0.5    # a pile draw must beat the stock by this (it shows our hand)
    knock_free_turns: int = 4   # opponent draws before deadwood starts to weigh on a knock
    knock_slope: float = 2.5    # knock value lost per opponent draw after that
    knock_floor: int = 1        # deadwood always worth knocking with
    potential_end: float = -1.0  # K with the stock run out (-1: same as ``potential``)
    on_potential: float = 0.5    # >= 0: K when playing on a hand that could knock
    knock_last: float = 0.0      # 0: off; else no knock with more deadwood than this
                                 # times the opponent's last discard (it throws its
                                 # costliest loose card, so low throws mean a low hand)
    danger_end: float = 16.0     # ... and with the stock run out (-1: same as ``danger``):
                                 # early the opponent is far from out, late a fed meld ends it

    def k(self, stock: int) -> float:
        """The potential weight with ``stock`` cards left (linear from the deal)."""
        if self.potential_end < 0:
            return self.potential
        f = min(1.0, stock / 31)
        return self.potential_end + (self.potential - self.potential_end) * f

    def dz(self, stock: int) -> float:
        """The danger weight with ``stock`` cards left."""
        if self.danger_end < 0:
            return self.danger
        f = min(1.0, stock / 31)
        return self.danger_end + (self.danger - self.danger_end) * f


DEFAULT = Weights()


# ---- knowledge ------------------------------------------------------------------------

@dataclass(frozen=True)
class Knowledge:
    """What one seat knows, as masks: rebuilt from a view's public facts."""

    mine: int          # my hand
    pile: int          # every card in the discard pile (the top may still be taken)
    opp_has: int       # taken from the pile by the opponent and not thrown again
    opp_shed: int      # discarded or passed over (left on the pile) by the opponent
    unseen: int        # in the stock or the opponent's hand, as far as I know
    opp_unknown: int   # how many of the opponent's cards I cannot name
    opp_draws: int     # the opponent's turns this hand
    stock: int = 31    # cards left in the stock
    opp_last: int = 10  # the value of the opponent's last discard (10 before it has thrown)
    opp_low: bool = False  # the opponent turned down a knock this hand (a public event)

    @property
    def opp_share(self) -> float:
        """Chance that one given unseen card is in the opponent's hand."""
        n = self.unseen.bit_count()
        return self.opp_unknown / n if n else 0.0


def knowledge(view: View) -> Knowledge:
    """Rebuild a seat's knowledge from its view (its hand, the pile, the events)."""
    me = view.seat
    mine = 0
    for c in view.hand:
        mine |= c.bit
    pile = 0
    for c in view.pile:
        pile |= c.bit
    opp_has = shed = draws = 0
    last = 10
    low = False
    # Replay the pile, to know which card a stock draw passed over (the deal of eleven
    # turns no upcard: its opening discard starts the pile, as a DISCARD event).
    stack = [] if view.options.deal_eleven else [view.upcard]
    for e in view.events:
        act = e.act
        if act is Act.DRAW_PILE:
            stack.pop()
            if e.seat != me:
                opp_has |= e.card.bit   # type: ignore[union-attr]
                draws += 1
        elif act is Act.UNDO:
            stack.append(e.card)   # type: ignore[arg-type]
            if e.seat != me:
                opp_has &= ~e.card.bit   # type: ignore[union-attr]
                draws -= 1
        elif act is Act.DISCARD:
            stack.append(e.card)   # type: ignore[arg-type]
            if e.seat != me:
                opp_has &= ~e.card.bit   # type: ignore[union-attr]
                shed |= e.card.bit   # type: ignore[union-attr]
                last = e.card.value   # type: ignore[union-attr]
        elif (act is Act.PLAY_ON or act is Act.PLAY_TO_GIN) and e.seat != me:
            low = True
        elif act is Act.DECLINE and e.seat != me:
            shed |= e.card.bit   # type: ignore[union-attr]   # passed over the upcard
        elif act is Act.DRAW_STOCK and e.seat != me:
            draws += 1
            if stack:
                shed |= stack[-1].bit
    unseen = FULL & ~mine & ~pile & ~opp_has
    unknown = max(0, view.opponent_hand_size - opp_has.bit_count())
    return Knowledge(mine, pile, opp_has, shed, unseen, unknown, draws, view.stock_count, last,
                     low)


# ---- the formulas -----------------------------------------------------------------------

def related(h: int) -> int:
    """Cards that could make a meld with two cards of ``h``: the third of a pair's rank,
    or a card completing three in a row in a suit. Any other card can only be
    deadwood next to ``h``."""
    a, b, c, d = h & 0x1FFF, h >> 16 & 0x1FFF, h >> 32 & 0x1FFF, h >> 48
    pairs = a & b | a & c | a & d | b & c | b & d | c & d
    sets = _SPREAD * pairs
    runs = (h >> 1 & h << 1) | (h >> 1 & h >> 2) | (h << 1 & h << 2)
    return (sets | runs) & FULL & ~h


_potential_cache: dict[tuple[int, int], float] = {}


def potential(h: int, unseen: int) -> float:
    """Expected deadwood saved by drawing one random unseen card into the ten-card hand
    ``h`` and then making the best discard.

    Exact: a card unrelated to the hand (see ``related``) can only replace the hand's
    most costly card, so those cards are counted by rank without trying each.
    """
    key = (h, unseen)
    got = _potential_cache.get(key)
    if got is not None:
        return got
    n = unseen.bit_count()
    dw = deadwood_mask(h)
    if dw == 0 or n == 0:
        return 0.0
    gain = 0
    rel = related(h) & unseen
    m = rel
    while m:
        u = m & -m
        m ^= u
        v = best_discards_mask(h | u)[0]
        if v < dw:
            gain += dw - v
    slack = dw - best_discards_mask(h)[0]   # what dropping the costliest card saves
    rest = unseen & ~rel
    for r in range(13):
        if VALUES[r] >= slack:
            break
        k = (rest & _RANK_MASKS[r]).bit_count()
        if k:
            gain += (slack - VALUES[r]) * k
    result = gain / n
    if len(_potential_cache) > 50_000:
        _potential_cache.clear()
    _potential_cache[key] = result
    return result


def worth(h: int, kn: Knowledge, w: Weights = DEFAULT) -> float:
    """Lower is better: deadwood less the meld chances of a ten-card hand."""
    dw = deadwood_mask(h)
    if dw == 0:
        return -100.0   # gin
    return dw - w.k(kn.stock) * potential(h, kn.unseen)


def danger(card_bit: int, kn: Knowledge) -> float:
    """Chance that the opponent can meld this card if it is discarded."""
    q = kn.opp_share
    pos = card_bit.bit_length() - 1
    r = pos % LANE

    def p(bit: int) -> float:
        if bit & kn.opp_has:
            return 1.0
        if bit & kn.unseen:
            return q * 0.5 if _shed_near(bit, kn.opp_shed) else q
        return 0.0

    miss = 1.0
    # sets: any two other cards of the rank
    mates = [b for b in (1 << (s * LANE + r) for s in range(4)) if b != card_bit]
    ps = [p(b) for b in mates]
    miss *= (1 - ps[0] * ps[1]) * (1 - ps[0] * ps[2]) * (1 - ps[1] * ps[2])
    # runs: the two below, one each side, the two above
    for lo, hi in ((-2, -1), (-1, 1), (1, 2)):
        if 0 <= r + lo and r + hi <= 12:
            miss *= 1 - p(card_bit << lo if lo > 0 else card_bit >> -lo) * \
                p(card_bit << hi if hi > 0 else card_bit >> -hi)
    return 1.0 - miss


def _shed_near(bit: int, shed: int) -> bool:
    """The opponent threw or passed a card of this rank or a suit neighbour: it is
    probably not collecting here."""
    pos = bit.bit_length() - 1
    r = pos % LANE
    return bool(shed & (_RANK_MASKS[r] | bit << 1 | bit >> 1) & FULL)


def _score_discard(h11: int, d: int, kn: Knowledge, w: Weights) -> float:
    return worth(h11 ^ d, kn, w) + w.dz(kn.stock) * danger(d, kn)


def wants_knock(dw: int, view: View, kn: Knowledge, w: Weights = DEFAULT) -> bool:
    """STANDARD's knock formula for a hand left with ``dw`` deadwood (within the
    knock value): knock early; later, the longer the opponent has been building, the
    lower the deadwood must be, for fear of an undercut."""
    if dw <= w.knock_floor or view.stock_count <= 4:
        return True
    if w.knock_last > 0 and dw > w.knock_last * kn.opp_last:
        return False
    late = max(0, kn.opp_draws - w.knock_free_turns)
    return dw <= view.knock_value - w.knock_slope * late


def choose_discard(view: View, w: Weights = DEFAULT,
                   knock_test: Callable[[View, Knowledge, int, int], bool] | None = None) -> Card:
    """STANDARD's discard. ``knock_test(view, knowledge, hand after, discard)`` may
    replace the knock formula (EXPERT simulates instead)."""
    kn = knowledge(view)
    h = kn.mine
    options = [c.bit for c in legal_discards(view)]
    dws = {d: deadwood_mask(h ^ d) for d in options}
    best_dw = min(dws.values())
    if best_dw == 0:   # gin
        return _CARD_AT[max((d for d in options if dws[d] == 0), key=_discard_order)]
    can_knock = not view.play_to_gin and view.knock_value > 0
    if can_knock and best_dw <= view.knock_value:
        d = max((d for d in options if dws[d] == best_dw), key=_discard_order)
        if (knock_test(view, kn, h ^ d, d) if knock_test is not None
                else wants_knock(best_dw, view, kn, w)):
            return _CARD_AT[d]
        if w.on_potential >= 0:   # playing on a low hand: keep it low (undercuts)
            w = dataclasses.replace(w, potential=w.on_potential, potential_end=-1.0)
    # Only discards that keep the deadwood near its best are worth scoring in full.
    cands = [d for d in options if dws[d] <= best_dw + 10]
    best = min(cands, key=lambda d: (_score_discard(h, d, kn, w), -_VALUE_AT[d], -d))
    return _CARD_AT[best]


def _discard_order(d: int) -> tuple[int, int]:
    """Among equal discards: the higher value, then the later card (fixed tie-break)."""
    return (_VALUE_AT[d], d)


def choose_draw(view: View, w: Weights = DEFAULT) -> Draw:
    """STANDARD's draw: the pile card only when it improves the hand enough. The
    upcard offer asks the same formula (``Player.offer``)."""
    top = view.pile_top
    if top is None or view.stock_only:
        return Draw.STOCK
    kn = knowledge(view)
    h = kn.mine
    t = top.bit
    h11 = h | t
    dws = [(deadwood_mask(h11 ^ d), d) for d in _bits(h)]
    best_dw = min(dws)[0]
    if best_dw == 0:
        return Draw.PILE   # gin on the spot
    if (best_dw <= view.knock_value and not view.play_to_gin
            and wants_knock(best_dw, view, kn, w)):
        return Draw.PILE   # a knock on the spot
    if not (related(h) & t) and best_dw >= deadwood_mask(h):
        return Draw.STOCK  # the card makes nothing and lowers nothing
    keep = worth(h, kn, w)
    take = min(_score_discard(h11, d, kn, w) for dw, d in dws if dw <= best_dw + 10)
    return Draw.PILE if take < keep - w.pile_margin else Draw.STOCK


def choose_knock(view: View, w: Weights = DEFAULT) -> KnockChoice:
    """STANDARD's answer to the knock question."""
    kn = knowledge(view)
    dw = deadwood_mask(kn.mine)
    return KnockChoice.KNOCK if wants_knock(dw, view, kn, w) else KnockChoice.PLAY_ON


def easy_discard(view: View) -> Card:
    """EASY's discard: the largest value unused (unmelded) card."""
    allowed = 0
    for c in legal_discards(view):
        allowed |= c.bit
    h = 0
    for c in view.hand:
        h |= c.bit
    return _CARD_AT[_easy_throw(h, allowed)]


def easy_draw(view: View) -> Draw:
    """EASY's draw asks its discard rule: it takes the pile card unless the rule would
    throw that very card straight back (a card that melds, or is lower than its
    largest unused card, is taken)."""
    top = view.pile_top
    if top is None or view.stock_only:
        return Draw.STOCK
    h = top.bit
    for c in view.hand:
        h |= c.bit
    return Draw.STOCK if _easy_throw(h, h) == top.bit else Draw.PILE


def _easy_throw(h: int, allowed: int) -> int:
    """The largest value unused card of the hand mask ``h`` among ``allowed``.

    The unused cards are those outside the least-deadwood arrangement; among cards of
    the same value the higher rank goes (a King before a Ten), then the later suit.
    With every allowed card melded, the card whose loss leaves least deadwood goes.
    """
    _, _, dead = arrange_mask(h)
    pool = dead & allowed
    if not pool:
        pool = best_discards_mask(h)[1] & allowed or allowed
        return min(_bits(pool), key=lambda d: deadwood_mask(h ^ d))
    return max(_bits(pool), key=_easy_order)


def _easy_order(d: int) -> tuple[int, int, int]:
    pos = d.bit_length() - 1
    return (_VALUE_AT[d], pos % LANE, pos)


def _bits(m: int) -> list[int]:
    out = []
    while m:
        low = m & -m
        out.append(low)
        m ^= low
    return out


# ---- hints --------------------------------------------------------------------------

@dataclass(frozen=True)
class Hint:
    """A suggestion for the human's seat: one of the fields is set, for the phase."""

    draw: Draw | None = None
    discard: Card | None = None
    knock: KnockChoice | None = None
    offer: bool | None = None        # the upcard offer: True take, False decline


def hint(view: View) -> Hint:
    """STANDARD's choice for the seat of ``view`` in its current phase (the yellow bar
    of the documentation's "Hints"). Call it once per hint request: it takes well
    under a millisecond."""
    if view.to_move != view.seat:
        return Hint()
    if view.phase is Phase.UPCARD_OFFER:
        return Hint(offer=choose_draw(view) is Draw.PILE)
    if view.phase is Phase.DRAW:
        return Hint(draw=choose_draw(view))
    if view.phase is Phase.DISCARD:
        return Hint(discard=choose_discard(view))
    if view.phase is Phase.KNOCK:
        return Hint(knock=choose_knock(view))
    return Hint()


# ---- the levels as players -------------------------------------------------------------

class Standard(Player):
    """The default computer: STANDARD's fixed formulas."""

    name = "standard"

    def __init__(self, seed: int = 0, weights: Weights = DEFAULT) -> None:
        self.weights = weights

    def choose_draw(self, view: View) -> Draw:
        return choose_draw(view, self.weights)

    def choose_discard(self, view: View) -> Card:
        return choose_discard(view, self.weights)

    def choose_knock(self, view: View) -> KnockChoice:
        return choose_knock(view, self.weights)


class Easy(Player):
    """The EASY option: one plain rule instead of the formulas. It throws the largest
    value unused card, draws the pile card whenever that rule would keep it, and
    knocks whenever it may."""

    name = "easy"

    def __init__(self, seed: int = 0) -> None:
        pass

    def choose_draw(self, view: View) -> Draw:
        return easy_draw(view)

    def choose_discard(self, view: View) -> Card:
        return easy_discard(view)

    def choose_knock(self, view: View) -> KnockChoice:
        return KnockChoice.KNOCK


__all__ = ["DEFAULT", "Easy", "Hint", "Knowledge", "Standard", "Weights",
           "choose_discard", "choose_draw", "choose_knock", "danger",
           "easy_discard", "easy_draw", "hint", "knowledge", "potential", "related", "worth"]
