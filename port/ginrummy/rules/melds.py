"""Melds and the deadwood minimiser: the performance core of the Rules unit.

The idea, on hand masks (one 16-bit lane per suit, see ``port.cards``):

* Runs live inside one suit, so with only runs allowed each suit is independent: a
  table built once at import, ``_RUN_DW[lane]``, gives the least deadwood of any
  13-bit suit lane, and ``_RUN_MELDS[lane]`` one arrangement that reaches it.
* Sets cut across suits. A rank can only form a set if at least three suits hold it,
  and a random 10-card hand has such a rank only about one time in four. For each
  such rank the hand either makes no set there, or a set of all four, or a set of
  three of them; after those choices the rest is runs only, read from the table.

So the least deadwood is the minimum, over the set choices, of four table look-ups.
For most hands there is no choice to make, and the whole computation is a handful of
bit operations: the cycle-budget test (tests/ginrummy/test_budget.py) holds the median at
under 150 bytecode instructions per 10-card hand.

Worked example: 3D 3H 4S 7C 7D 7S 8D 8S 9D 9H 9S. Sevens and nines each have three
suits, so four set choices are tried; the best makes 7S 8S 9S and 7D 8D 9D as runs and
leaves 3D 3H 4S 7C 9H: 3+3+4+7+9 = 26 with 11 cards; the best discard (9H) leaves 17.
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from port.cards import CARDS, LANE, LANE_MASK, VALUES, Card, cards_of, mask

# Every rank's bit in all four lanes, and the same for the lowest rank (Ace).
_SPREAD = 0x0001_0001_0001_0001


def _build_run_tables() -> tuple[list[int], list[tuple[int, ...]]]:
    """Least run-only deadwood of every 13-bit suit lane, and runs reaching it.

    The lowest card of a lane is either deadwood or the start of a run of three or
    more consecutive cards: the smaller of the two choices, on the rest, is the answer.
    Lanes are filled in increasing order, and every choice removes bits, so the rest
    is always a smaller number that is already known.
    """
    size = 1 << 13
    dw = [0] * size
    runs: list[tuple[int, ...]] = [()] * size
    for m in range(1, size):
        low = m & -m
        r = low.bit_length() - 1
        best = VALUES[r] + dw[m ^ low]
        best_runs = runs[m ^ low]
        run = low
        k = r + 1
        while k < 13 and m >> k & 1:
            run |= 1 << k
            if k - r >= 2:
                rest = m ^ run
                if dw[rest] < best:
                    best, best_runs = dw[rest], (run,) + runs[rest]
            k += 1
        dw[m] = best
        runs[m] = best_runs
    return dw, runs


_RUN_DW, _RUN_MELDS = _build_run_tables()


def _build_set_options() -> list[dict[int, tuple[int, ...]]]:
    """For each rank, the hand-mask bits a set may take from the suits holding it.

    Indexed by rank, then by ``(hand >> rank) & _SPREAD`` (which suits hold the rank).
    Three suits: the three. Four suits: all four, or any three.
    """
    opts: list[dict[int, tuple[int, ...]]] = []
    for r in range(13):
        table: dict[int, tuple[int, ...]] = {}
        for pattern in range(16):
            suits = [s for s in range(4) if pattern >> s & 1]
            if len(suits) < 3:
                continue
            key = sum(1 << (s * LANE) for s in suits)
            full = key << r
            choices = [full]
            if len(suits) == 4:
                choices += [full ^ (1 << (s * LANE + r)) for s in suits]
            table[key] = tuple(choices)
        opts.append(table)
    return opts


_SET_OPTIONS = _build_set_options()
# The ranks present in a 13-bit rank mask, for walking the ranks that can make sets.
_RANKS_IN = [tuple(r for r in range(13) if m >> r & 1) for m in range(1 << 13)]


def deadwood_mask(h: int) -> int:
    """Least deadwood of a hand mask (any size; 10 cards in play).

    The hot path: four lanes, a test for ranks held in three or more suits, and
    (for most hands) four table look-ups. One rank in exactly three suits (the
    commonest set case) is inline: the set is made (that rank cleared in every lane)
    or not.
    """
    a = h & 0x1FFF
    b = h >> 16 & 0x1FFF
    c = h >> 32 & 0x1FFF
    d = h >> 48
    dw = _RUN_DW
    v = dw[a] + dw[b] + dw[c] + dw[d]
    triple = a & b & (c | d) | c & d & (a | b)
    if not triple:
        return v
    if triple & (triple - 1) or a & b & c & d:   # two ranks, or one in four suits
        return _deadwood_with_sets(h, triple)
    keep = ~triple
    v2 = dw[a & keep] + dw[b & keep] + dw[c & keep] + dw[d & keep]
    return v2 if v2 < v else v


def _set_removals(h: int, triple: int) -> list[int] | tuple[int, int]:
    """Every way of taking sets out of the hand: masks of the cards the sets use."""
    if not triple & (triple - 1):
        rm = h & _SPREAD * triple
        if rm.bit_count() == 3:
            # One rank in exactly three suits (most hands with a set): no set, or that set.
            return 0, rm
    removals = [0]
    for r in _RANKS_IN[triple]:
        choices = _SET_OPTIONS[r][h >> r & _SPREAD]
        removals = removals + [x | y for x in removals for y in choices]
    return removals


# The set choices of a hand depend only on its cards of the ranks that can make sets:
# kept per such group of cards (at most some 38,000 groups exist, and play meets few),
# each as (removal mask, its spades, hearts, diamonds and clubs lanes), bigger set
# removals first so that arrange_mask's ties keep the sets (a fixed tie-break; the
# least-deadwood searches take the minimum and every tie, which no order changes).
_CHOICES: dict[int, tuple[tuple[int, int, int, int, int], ...]] = {}


def _set_choices(h: int, triple: int) -> tuple[tuple[int, int, int, int, int], ...]:
    """``_set_removals`` of the hand, split into lanes, ordered and cached."""
    key = h & _SPREAD * triple
    got = _CHOICES.get(key)
    if got is None:
        got = _CHOICES[key] = tuple(
            (rm, rm & 0x1FFF, rm >> 16 & 0x1FFF, rm >> 32 & 0x1FFF, rm >> 48)
            for rm in sorted(_set_removals(key, triple), key=lambda x: -x.bit_count()))
    return got


def _deadwood_with_sets(h: int, triple: int) -> int:
    dw = _RUN_DW
    a, b, c, d = h & 0x1FFF, h >> 16 & 0x1FFF, h >> 32 & 0x1FFF, h >> 48
    best = 999
    for _, ra, rb, rc, rd in _set_choices(h, triple):
        v = dw[a ^ ra] + dw[b ^ rb] + dw[c ^ rc] + dw[d ^ rd]
        if v < best:
            best = v
    return best


def _build_gain_tables() -> tuple[list[int], list[int]]:
    """For every suit lane: how much its best discard saves, and which cards do it.

    ``_GAIN[lane]`` is ``_RUN_DW[lane] - min(_RUN_DW[lane ^ card])`` over the lane's
    cards (runs only), ``_GAIN_CARDS[lane]`` the cards reaching it. An empty lane has
    no card to discard: its gain is below any real one, so it is never chosen.
    """
    size = 1 << 13
    gain = [-1000] * size
    cards = [0] * size
    for lane in range(1, size):
        best, which = 1000, 0
        rest = lane
        while rest:
            low = rest & -rest
            rest ^= low
            v = _RUN_DW[lane ^ low]
            if v < best:
                best, which = v, low
            elif v == best:
                which |= low
        gain[lane] = _RUN_DW[lane] - best
        cards[lane] = which
    return gain, cards


_GAIN, _GAIN_CARDS = _build_gain_tables()


def best_discards_mask(h: int) -> tuple[int, int]:
    """For a hand of 11 (any size), the least deadwood one discard can leave, and the
    mask of every card whose discard leaves it (exact; all ties included).

    For a fixed choice of sets the rest is runs only, and a discard changes only its
    own lane: the best discard is the lane with the largest gain. A card in a chosen
    set is never discarded under that choice; the choices without that set cover it.
    No set (two hands in three) and one rank in exactly three suits (one in four) are
    inline: a call and re-splitting the lanes cost a quarter of the time. Keep
    ``best_discards`` in step.
    """
    a = h & 0x1FFF
    b = h >> 16 & 0x1FFF
    c = h >> 32 & 0x1FFF
    d = h >> 48
    gain = _GAIN
    dw = _RUN_DW
    ga = gain[a]
    gb = gain[b]
    gc = gain[c]
    gd = gain[d]
    g = ga if ga > gb else gb   # max() of four costs a tuple and a slow call
    t = gc if gc > gd else gd
    if t > g:
        g = t
    v = dw[a] + dw[b] + dw[c] + dw[d] - g
    triple = a & b & (c | d) | c & d & (a | b)
    gcards = _GAIN_CARDS
    found = 0
    if triple:
        if triple & (triple - 1) or a & b & c & d:   # two ranks, or one in four suits
            v, fa, fb, fc, fd = _best_discards_with_sets(a, b, c, d, h, triple)
            return v, fa | fb << 16 | fc << 32 | fd << 48
        # One rank in exactly three suits: the best of making that set or not.
        keep = ~triple
        a2, b2, c2, d2 = a & keep, b & keep, c & keep, d & keep
        ha, hb, hc, hd = gain[a2], gain[b2], gain[c2], gain[d2]
        g2 = ha if ha > hb else hb
        t = hc if hc > hd else hd
        if t > g2:
            g2 = t
        v2 = dw[a2] + dw[b2] + dw[c2] + dw[d2] - g2
        if v2 == v:   # both ways tie: every discard of either
            found = ((gcards[a2] if ha == g2 else 0) | (gcards[b2] << 16 if hb == g2 else 0)
                     | (gcards[c2] << 32 if hc == g2 else 0)
                     | (gcards[d2] << 48 if hd == g2 else 0))
        elif v2 < v:   # the set is made: its lanes give the discards (plain stores)
            a = a2
            b = b2
            c = c2
            d = d2
            ga = ha
            gb = hb
            gc = hc
            gd = hd
            g = g2
            v = v2
    if ga == g:
        found |= gcards[a]
    if gb == g:
        found |= gcards[b] << 16
    if gc == g:
        found |= gcards[c] << 32
    if gd == g:
        found |= gcards[d] << 48
    return v, found


def _best_discards_with_sets(a: int, b: int, c: int, d: int, h: int, triple: int
                             ) -> tuple[int, int, int, int, int]:
    """The least deadwood after a discard over every set choice, and each lane's best
    discards (spades, hearts, diamonds, clubs). The runs-only best discard of each
    choice is inline: a call per choice cost as much as the choice's own work."""
    dw, gain, gcards = _RUN_DW, _GAIN, _GAIN_CARDS
    best = 999
    fa = fb = fc = fd = 0
    for _, ra, rb, rc, rd in _set_choices(h, triple):
        a2 = a ^ ra
        b2 = b ^ rb
        c2 = c ^ rc
        d2 = d ^ rd
        ga = gain[a2]
        gb = gain[b2]
        gc = gain[c2]
        gd = gain[d2]
        top = ga if ga > gb else gb
        t = gc if gc > gd else gd
        if t > top:
            top = t
        v = dw[a2] + dw[b2] + dw[c2] + dw[d2] - top
        if v > best:
            continue
        if v < best:
            best = v
            fa = fb = fc = fd = 0
        if ga == top:
            fa |= gcards[a2]
        if gb == top:
            fb |= gcards[b2]
        if gc == top:
            fc |= gcards[c2]
        if gd == top:
            fd |= gcards[d2]
    return best, fa, fb, fc, fd


# ---- the readable interface --------------------------------------------------------

@dataclass(frozen=True)
class Arrangement:
    """Melds and deadwood of a hand. Sets show blue on screen, runs green."""

    sets: tuple[tuple[Card, ...], ...]
    runs: tuple[tuple[Card, ...], ...]
    deadwood_cards: tuple[Card, ...]

    @property
    def deadwood(self) -> int:
        return sum(c.value for c in self.deadwood_cards)

    @property
    def melds(self) -> tuple[tuple[Card, ...], ...]:
        return self.sets + self.runs

    def __str__(self) -> str:
        parts = [" ".join(map(str, m)) for m in self.melds]
        parts.append("deadwood " + (" ".join(map(str, self.deadwood_cards)) or "none"))
        return " | ".join(parts)


# ---- from card lists: what bot authors call ---------------------------------------------
#
# Ten or eleven cards in a list (what a bot holds) are read two at a time from a pair
# table: ``_PAIR[x][y]`` is the mask of cards x and y, and for distinct cards the sum
# of their masks is the hand's. Five look-ups and four additions cost about 0.6 of
# the C-level ``sum(map(_bit_of, cards))`` (a call of ``list.__getitem__`` a card),
# which stays for other sizes and for iterables that are not lists: with it the
# conversion was half of the whole call (docs/engine.md). Two tables giving the two
# 29-bit halves (the interpreter's small-int fast paths) were 5% faster again, but
# cost 24 bytecodes more, past the cycle budget of 11 cards. Both functions then run
# the minimiser inline (a call more costs a tenth of the time).

_BIT = [c.bit for c in CARDS]
_bit_of = _BIT.__getitem__   # a list's is a direct C method; a tuple's a slot wrapper, 1.5x slower
_PAIR: list[list[int]] = [[_BIT[x] + _BIT[y] for y in range(52)] for x in range(52)]


def _suit_cards(s: int, m: int) -> tuple[Card, ...]:
    """The cards of suit ``s`` in the 13-bit lane ``m``, Ace up."""
    return tuple(CARDS[s * 13 + r] for r in range(13) if m >> r & 1)


def _discard_tables() -> tuple[tuple[tuple[Card, ...], ...], ...]:
    """For each suit and 13-bit lane, the cards of the lane's best discards
    (``_GAIN_CARDS``), ready to return. Equal tuples are one object: a few hundred
    tuples, not thousands, for the garbage collector to walk (it walks every tuple
    that holds a card, and a program keeping many answers pays for each walk)."""
    out = []
    for s in range(4):
        same: dict[int, tuple[Card, ...]] = {}
        for m in set(_GAIN_CARDS):
            same[m] = _suit_cards(s, m)
        out.append(tuple(same[m] for m in _GAIN_CARDS))
    return tuple(out)


_DISCARDS_S, _DISCARDS_H, _DISCARDS_D, _DISCARDS_C = _discard_tables()
# The cards of a set choice's best discards, which may mix several lanes' (rare).
_LANE_CARDS: dict[int, tuple[Card, ...]] = {}


def _cards_of_lanes(fa: int, fb: int, fc: int, fd: int) -> tuple[Card, ...]:
    key = fa | fb << 16 | fc << 32 | fd << 48
    got = _LANE_CARDS.get(key)
    if got is None:
        got = _LANE_CARDS[key] = (_suit_cards(0, fa) + _suit_cards(1, fb)
                                  + _suit_cards(2, fc) + _suit_cards(3, fd))
    return got


def deadwood(cards: Iterable[int]) -> int:
    """Least deadwood of some distinct cards: deadwood(parse("AS 2S 3S 9H")) == 9.

    ``deadwood_mask(mask(cards))`` inline, a list of ten read by pairs (see the note
    above), with the commonest set case inline too: one rank held in exactly three
    suits, where the set is either made (that rank's bit cleared in every lane) or not.
    """
    if type(cards) is list and len(cards) == 10:
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9 = cards
        p = _PAIR
        h = p[c0][c1] + p[c2][c3] + p[c4][c5] + p[c6][c7] + p[c8][c9]
    else:
        h = sum(map(_bit_of, cards))
    a = h & 0x1FFF
    b = h >> 16 & 0x1FFF
    c = h >> 32 & 0x1FFF
    d = h >> 48
    dw = _RUN_DW
    v = dw[a] + dw[b] + dw[c] + dw[d]
    triple = a & b & (c | d) | c & d & (a | b)
    if not triple:
        return v
    if triple & (triple - 1) or a & b & c & d:   # two ranks, or one in four suits
        return _deadwood_with_sets(h, triple)
    keep = ~triple
    v2 = dw[a & keep] + dw[b & keep] + dw[c & keep] + dw[d & keep]
    return v2 if v2 < v else v


def best_discards(cards: Iterable[int]) -> tuple[int, tuple[Card, ...]]:
    """For 11 distinct cards: the least deadwood a discard can leave, and every such
    discard, as a tuple (by suit, Ace up within a suit).

    ``best_discards_mask(mask(cards))`` inline, a list of eleven read by pairs (see
    the note above), the cards read from per-suit tables instead of unpacked from a
    mask; one rank in exactly three suits (a quarter of 11-card hands) is inline too:
    the best of making that set or not.
    """
    if type(cards) is list and len(cards) == 11:
        c0, c1, c2, c3, c4, c5, c6, c7, c8, c9, c10 = cards
        p = _PAIR
        h = p[c0][c1] + p[c2][c3] + p[c4][c5] + p[c6][c7] + p[c8][c9] + _BIT[c10]
    else:
        h = sum(map(_bit_of, cards))
    a = h & 0x1FFF
    b = h >> 16 & 0x1FFF
    c = h >> 32 & 0x1FFF
    d = h >> 48
    gain = _GAIN
    dw = _RUN_DW
    ga = gain[a]
    gb = gain[b]
    gc = gain[c]
    gd = gain[d]
    g = ga if ga > gb else gb   # max() of four costs a tuple and a slow call
    t = gc if gc > gd else gd
    if t > g:
        g = t
    v = dw[a] + dw[b] + dw[c] + dw[d] - g
    triple = a & b & (c | d) | c & d & (a | b)
    # The tables' own tuples: one winning lane (most hands) allocates nothing.
    out: tuple[Card, ...] = ()
    if triple:
        if triple & (triple - 1) or a & b & c & d:   # two ranks, or one in four suits
            v, fa, fb, fc, fd = _best_discards_with_sets(a, b, c, d, h, triple)
            return v, _cards_of_lanes(fa, fb, fc, fd)
        # One rank in exactly three suits: the best of making that set or not.
        keep = ~triple
        a2, b2, c2, d2 = a & keep, b & keep, c & keep, d & keep
        ha, hb, hc, hd = gain[a2], gain[b2], gain[c2], gain[d2]
        g2 = ha if ha > hb else hb
        t = hc if hc > hd else hd
        if t > g2:
            g2 = t
        v2 = dw[a2] + dw[b2] + dw[c2] + dw[d2] - g2
        if v2 == v:   # both ways tie: every discard of either, each card once
            gcards = _GAIN_CARDS
            return v, _cards_of_lanes(
                (gcards[a] if ga == g else 0) | (gcards[a2] if ha == g2 else 0),
                (gcards[b] if gb == g else 0) | (gcards[b2] if hb == g2 else 0),
                (gcards[c] if gc == g else 0) | (gcards[c2] if hc == g2 else 0),
                (gcards[d] if gd == g else 0) | (gcards[d2] if hd == g2 else 0))
        if v2 < v:   # the set is made: its lanes give the discards (plain stores, no tuple)
            a = a2
            b = b2
            c = c2
            d = d2
            ga = ha
            gb = hb
            gc = hc
            gd = hd
            g = g2
            v = v2
    if ga == g:
        out = _DISCARDS_S[a]
    if gb == g:
        out += _DISCARDS_H[b]
    if gc == g:
        out += _DISCARDS_D[c]
    if gd == g:
        out += _DISCARDS_C[d]
    return v, out


def _runs_of_lanes(g: int) -> list[int]:
    """Hand masks of the best runs of each suit lane of g."""
    out = []
    for s in range(4):
        for run in _RUN_MELDS[g >> (s * LANE) & LANE_MASK]:
            out.append(run << (s * LANE))
    return out


def _split_sets(rm: int) -> list[int]:
    """A removal mask (several sets) split into one mask per set, by rank."""
    if not rm:
        return []
    ranks = (rm | rm >> 16 | rm >> 32 | rm >> 48) & 0x1FFF
    return [rm & (_SPREAD << r) for r in _RANKS_IN[ranks]]


def arrange_mask(h: int) -> tuple[list[int], list[int], int]:
    """One least-deadwood arrangement: (set masks, run masks, deadwood mask).

    Among equal arrangements it prefers the one with more cards in sets (the first
    found), which is a fixed, documented choice: any of them has the same deadwood.
    """
    a, b, c, d = h & 0x1FFF, h >> 16 & 0x1FFF, h >> 32 & 0x1FFF, h >> 48
    triple = a & b & (c | d) | c & d & (a | b)
    best_rm = 0
    if triple:
        dw = _RUN_DW
        best = 999
        for rm, ra, rb, rc, rd in _set_choices(h, triple):
            v = dw[a ^ ra] + dw[b ^ rb] + dw[c ^ rc] + dw[d ^ rd]
            if v < best:
                best, best_rm = v, rm
    runs = _runs_of_lanes(h ^ best_rm)
    melded = best_rm
    for run in runs:
        melded |= run
    return _split_sets(best_rm), runs, h ^ melded


def arrange(cards: Iterable[int]) -> Arrangement:
    """A least-deadwood arrangement of some cards, as sets, runs and deadwood."""
    sets, runs, dead = arrange_mask(mask(cards))
    return Arrangement(
        sets=tuple(tuple(cards_of(m)) for m in sets),
        runs=tuple(tuple(cards_of(m)) for m in runs),
        deadwood_cards=tuple(cards_of(dead)),
    )


# ---- every meld and every arrangement (settlement; not the hot path) ----------------

def all_melds_mask(h: int) -> list[int]:
    """Every meld the hand holds: each set of 3 or 4 and each run of 3 or more."""
    melds = []
    for r in range(13):
        suits = h >> r & _SPREAD
        bits = [1 << (s * LANE + r) for s in range(4) if suits >> (s * LANE) & 1]
        if len(bits) >= 3:
            full = sum(bits)
            melds.append(full)
            if len(bits) == 4:
                melds.extend(full ^ b for b in bits)
    for s in range(4):
        lane = h >> (s * LANE) & LANE_MASK
        for lo in range(13):
            run = 0
            for k in range(lo, 13):
                if not lane >> k & 1:
                    break
                run |= 1 << k
                if k - lo >= 2:
                    melds.append(run << (s * LANE))
    return melds


def _value_of(m: int) -> int:
    return sum(VALUES[(b.bit_length() - 1) % LANE] for b in _bits(m))


def _bits(m: int) -> Iterator[int]:
    while m:
        low = m & -m
        yield low
        m ^= low


def least_arrangements_mask(h: int) -> list[tuple[int, ...]]:
    """Every choice of disjoint melds that leaves the least deadwood (as meld masks).

    Used where the choice matters beyond the count: the knocker's melds decide what
    the other player can lay off (7S 7H 7D 7C as one set takes no layoff, while
    7H 7D 7C with 7S 8S 9S takes 6S and TS).
    """
    target = deadwood_mask(h)
    melds = all_melds_mask(h)
    found: list[tuple[int, ...]] = []

    def walk(i: int, used: int, chosen: tuple[int, ...]) -> None:
        if _value_of(h ^ used) == target:
            found.append(chosen)
        for j in range(i, len(melds)):
            m = melds[j]
            if not m & used:
                walk(j + 1, used | m, chosen + (m,))

    walk(0, 0, ())
    return found


def arrangements_within_mask(h: int, limit: int) -> list[tuple[int, tuple[int, ...]]]:
    """Every choice of disjoint melds leaving at most ``limit`` deadwood, with that
    deadwood, in the order ``least_arrangements_mask`` finds them (so its answers
    come in the same order among these). The knocker's choices at settlement: a
    knocker may leave a meldable card loose, within the knock value, to deny a layoff.
    """
    melds = all_melds_mask(h)
    total = _value_of(h)
    values = [_value_of(m) for m in melds]
    found: list[tuple[int, tuple[int, ...]]] = []

    def walk(i: int, used: int, dead: int, chosen: tuple[int, ...]) -> None:
        if dead <= limit:
            found.append((dead, chosen))
        for j in range(i, len(melds)):
            m = melds[j]
            if not m & used:
                walk(j + 1, used | m, dead - values[j], chosen + (m,))

    walk(0, 0, total, ())
    return found
