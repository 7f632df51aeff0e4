"""The board: what a position is worth in games, for EXPERT's choices near the end.

``port/cribbage/win_table.json`` (scripts/build_crib_win_table.py) holds, for each
limit and with or without skunks, the pone's equity at the start of a deal from every
score (the chance of winning less the chance of losing, a skunk counting two), and
the distributions of a deal's points it was built from. Here are the values EXPERT
needs from it:

- ``start``: a deal's start, from one seat's side;
- ``after_play``: the end of the play with both hands known (the show's order decides:
  the pone's hand, then the dealer's hand and crib; the crib from its distribution);
- ``hand_curve``: before the play, the worth of each hand value a kept four may show,
  over the play's and the other boxes' distributions (for laying away; ``at`` reads
  it between whole values).

Far from the end a point is worth about the same anywhere, and EXPERT counts points;
near it (``near_end``) the table decides.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

from port.cribbage.rules import Options

WIN_FILE = Path(__file__).resolve().parent / "win_table.json"
NEAR = 45          # the board decides when a seat is this close to the limit
Dist = tuple[tuple[int, float], ...]


@lru_cache(maxsize=1)
def _data() -> dict[str, object]:
    data: dict[str, object] = json.loads(WIN_FILE.read_text())
    return data


@lru_cache(maxsize=4)
def table(limit: int, skunking: bool) -> tuple[tuple[float, ...], ...]:
    """``table[p][q]``: the pone's equity at a deal's start, pone on p, dealer on q."""
    rows = _data()[f"{limit}{'s' if skunking else ''}"]
    assert isinstance(rows, list)
    return tuple(tuple(float(x) for x in row.split()) for row in rows)


@lru_cache(maxsize=1)
def points() -> dict[str, Dist]:
    """A deal's points as probabilities (the file's counts of every block together):
    ``play`` (the pone's and the dealer's points folded into one key, pone * 100 +
    dealer), ``pone`` (its hand), ``dealer`` (hand and crib), ``crib``."""
    blocks = _data()["counts"]
    assert isinstance(blocks, list)
    total: dict[str, dict[int, int]] = {}
    for counts in blocks:
        for name, table in counts.items():
            if name == "race":
                continue
            into = total.setdefault(name, {})
            for k, n in table.items():
                u, _, v = k.partition(",")
                key = int(u) * 100 + int(v) if v else int(u)
                into[key] = into.get(key, 0) + n
    deals = sum(total["crib"].values())
    return {name: tuple(sorted((k, n / deals) for k, n in t.items())) for name, t in total.items()}


@lru_cache(maxsize=1)
def races() -> dict[tuple[int, int], float]:
    """When the play would take the pone to ``a`` points and the dealer to ``b``
    (both up to 16): the chance the pone gets there first."""
    blocks = _data()["counts"]
    assert isinstance(blocks, list)
    cells: dict[tuple[int, int], list[int]] = {}
    for counts in blocks:
        for k, (first, both) in counts["race"].items():
            a, b = k.split(",")
            cell = cells.setdefault((int(a), int(b)), [0, 0])
            cell[0] += first
            cell[1] += both
    return {k: first / both for k, (first, both) in cells.items()}


def race_share(a: int, b: int, u: int, v: int) -> float:
    """The pone's chance to reach its need ``a`` before the dealer reaches ``b`` when
    the play gives them ``u`` and ``v`` points: counted (``races``), or else the seat
    with the smaller share of its play still to make."""
    r = races().get((a, b))
    if r is not None:
        return r
    return 1.0 if a * v < b * u else 0.0


def near_end(scores: tuple[int, int], options: Options) -> bool:
    """Whether the board, not the points, should decide: a seat within ``NEAR`` of
    the limit (or, with skunks, of the skunk line: the loser's line matters too)."""
    top = max(scores)
    if top + NEAR >= options.limit:
        return True
    return options.skunking and top + NEAR >= options.skunk_line


def pay(loser: int, options: Options) -> float:
    """A game won is worth 1, or 2 when the loser is skunked."""
    return 2.0 if options.is_skunk(loser) else 1.0


def start(me: int, opp: int, i_deal: bool, options: Options) -> float:
    """My equity at the start of a deal (``i_deal``: I deal it)."""
    t = table(options.limit, options.skunking)
    return -t[opp][me] if i_deal else t[me][opp]


def _crib_show(pone: int, dealer: int, options: Options) -> float:
    """The pone's equity when the dealer, on ``dealer`` after its hand, counts the
    crib (from its distribution) and the next deal follows."""
    return _crib_show_cached(pone, dealer, options.limit, options.skunking)


@lru_cache(maxsize=65536)
def _crib_show_cached(pone: int, dealer: int, limit: int, skunking: bool) -> float:
    options = Options(limit, skunking)
    t = table(limit, skunking)
    v = 0.0
    for c, w in points()["crib"]:
        if dealer + c >= limit:
            v -= w * pay(pone, options)
        else:
            v -= w * t[dealer + c][pone]     # the dealer is the next pone
    return v


def after_play(me: int, opp: int, i_deal: bool, my_hand: int, opp_hand: int,
               options: Options) -> float:
    """My equity at the end of the play, scores ``me`` and ``opp`` (both short of the
    limit), with the two hands' show known: the pone counts first, then the dealer
    its hand, then the crib (its distribution)."""
    limit = options.limit
    if i_deal:
        pone, p_hand, dealer, d_hand = opp, opp_hand, me, my_hand
    else:
        pone, p_hand, dealer, d_hand = me, my_hand, opp, opp_hand
    if pone + p_hand >= limit:
        v = pay(dealer, options)
    elif dealer + d_hand >= limit:
        v = -pay(pone + p_hand, options)
    else:
        v = _crib_show(pone + p_hand, dealer + d_hand, options)
    return -v if i_deal else v


LOW, HIGH = -8, 40    # the hand values a curve holds (a shifted hand may leave 0..29)


def hand_curve(me: int, opp: int, i_deal: bool, options: Options, shift: int = 0) -> tuple[float, ...]:
    """Before the play: my equity if my kept four shows ``h`` points (``curve[h - LOW]``
    for h from LOW to HIGH - 1), over the play's distribution and the other boxes'
    (the opponent's hand; the crib's when I deal). ``shift`` moves the dealer's hand
    and crib by that many points when the opponent deals (its crib is better or worse
    than the usual one)."""
    return _curve(me, opp, i_deal, options.limit, options.skunking, shift)


def at(curve: tuple[float, ...], h: float) -> float:
    """The curve at a hand value between two whole ones (straight between them)."""
    x = min(max(h - LOW, 0.0), HIGH - LOW - 1.0)
    i = int(x)
    if i >= HIGH - LOW - 1:
        return curve[-1]
    f = x - i
    return curve[i] + f * (curve[i + 1] - curve[i])


@lru_cache(maxsize=512)
def _curve(me: int, opp: int, i_deal: bool, limit: int, skunking: bool,
           shift: int) -> tuple[float, ...]:
    options = Options(limit, skunking)
    t = table(limit, skunking)
    dist = points()
    dealer_show = [(max(0, x + shift), w) for x, w in dist["dealer"]]
    # What follows the play: the same few sums recur for every hand value, so each
    # is made once. ``later[(mh, o)]``: my score after my hand is ``mh``, the
    # opponent's ``o`` before its show.
    later: dict[tuple[int, int], float] = {}
    lost: dict[tuple[int, int], float] = {}

    def shows(m: int, mh: int, o: int) -> float:
        if i_deal:
            # The pone's hand first (it may win before my hand counts), then my hand
            # (``mh`` holds it), then my crib.
            first = lost.get((m, o))
            if first is None:
                first = -sum(wy for y, wy in dist["pone"] if o + y >= limit) * pay(m, options)
                lost[(m, o)] = first
            rest = later.get((mh, o))
            if rest is None:
                rest = 0.0
                for y, wy in dist["pone"]:
                    if o + y < limit:
                        rest += wy * (pay(o + y, options) if mh >= limit
                                      else -_crib_show(o + y, mh, options))
                later[(mh, o)] = rest
            return first + rest
        if mh >= limit:
            return pay(o, options)
        e = later.get((mh, o))
        if e is None:
            e = 0.0
            for x, wx in dealer_show:
                e += wx * (-pay(mh, options) if o + x >= limit else -t[o + x][mh])
            later[(mh, o)] = e
        return e

    out: list[float] = []
    for h in range(LOW, HIGH):
        if me + h >= limit and out:
            # My hand alone reaches the limit: more points change nothing.
            out.append(out[-1])
            continue
        total = 0.0
        for key, w in dist["play"]:
            u, v = divmod(key, 100)                # the pone's and the dealer's play
            mine, theirs = (v, u) if i_deal else (u, v)
            m, o = me + mine, opp + theirs
            if m >= limit and o >= limit:
                r = race_share(limit - me, limit - opp, mine, theirs) if not i_deal else \
                    1.0 - race_share(limit - opp, limit - me, theirs, mine)
                total += w * (r * pay(opp, options) - (1.0 - r) * pay(me, options))
            elif m >= limit or o >= limit:
                total += w * (pay(opp, options) if m >= limit else -pay(me, options))
            else:
                total += w * shows(m, max(0, m + h), o)
        out.append(total)
    return tuple(out)


__all__ = ["HIGH", "LOW", "NEAR", "after_play", "at", "hand_curve", "near_end", "pay", "points", "start", "table"]
