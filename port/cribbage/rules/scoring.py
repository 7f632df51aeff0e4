"""Cribbage scoring: the show (a hand or crib of four cards with the starter) and the
pegging of the card just played, each as a number and as a spoken breakdown.

The documentation ("Scoring Hands", "Pegging Combinations"):

* show: FIFTEEN 2 for each combination totalling 15; PAIR 2 for each pair; RUN 1 a
  card for each combination in sequence (double runs count twice); FLUSH 4 for the
  four hand cards of one suit, 5 with the starter, and in the crib only the five-card
  flush; JACK of the starter's suit 1 (nobs). "EACH and EVERY combination counts."
* play: FIFTEEN 2 and 31 2 for the count; PAIR 2, TRIPLET 6, FOUR 12 for cards of one
  rank played in a row; RUN 1 a card for the last 3 or more cards in sequence in any
  order. The go is the state machine's (port.cribbage.rules.state), not a combination.

How ``score_hand`` is fast: fifteens, pairs and runs depend on the five ranks only, so
a table built at import holds their points for every multiset of five ranks (6,175 of
them). Each card carries a weight ``5 ** rank``; the sum of five weights is the rank
multiset written in base 5 (no rank is held more than four times), and that sum is the
table's key. From it two tries are built at import (about 30 ms, 1 MB): one call is
then ten list subscripts and one addition, no arithmetic on keys and no new int (see
``score_hand``).
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import combinations, combinations_with_replacement, permutations
from operator import itemgetter

from port.cards import CARDS, VALUES, Card

#: Count value of each rank: A=1, pips their number, 10 J Q K = 10 (the same values
#: as GinRummy's deadwood, so the Cards unit's table).
RANK_VALUE = VALUES
JACK = 10
NUMBER_WORDS = ("zero", "one", "two", "three", "four", "five")


@dataclass(frozen=True)
class Score:
    """One scoring combination: what it is, its cards, its points and the running
    total after it, and the words a player says ("fifteen 2", "a pair is 6")."""

    kind: str                    # fifteen, pair, run, flush, nobs; pegging: thirty-one, pair royal, ...
    cards: tuple[Card, ...]
    points: int
    total: int
    words: str


def value(c: int) -> int:
    """A card's count value in cribbage."""
    return RANK_VALUE[c % 13]


# ---- the show -------------------------------------------------------------------------

# The subsets of two or more of the five show cards (the hand's four, then the
# starter), numbered in the breakdown's cadence: by size, then in the order
# ``combinations`` gives them. A subset's number is its place in that order, so a
# sorted list of numbers is in the cadence; each number's places, bit mask and
# ``itemgetter`` of its cards.
_SUBSETS: tuple[tuple[int, ...], ...] = tuple(idx for k in range(2, 6) for idx in combinations(range(5), k))
_NUMBER: dict[tuple[int, ...], int] = {idx: n for n, idx in enumerate(_SUBSETS)}
_MASK: tuple[int, ...] = tuple(sum(1 << i for i in idx) for idx in _SUBSETS)
_CARDS_OF: tuple[itemgetter, ...] = tuple(itemgetter(*idx) for idx in _SUBSETS)
_OF_SIZE: dict[int, list[tuple[int, tuple[int, ...]]]] = {
    k: [(n, idx) for n, idx in enumerate(_SUBSETS) if len(idx) == k] for k in range(2, 6)}
# For each order of the five places (the sort of their ranks): subset number n of the
# sorted places as a subset number of the places themselves.
_RENUMBER: dict[tuple[int, ...], tuple[int, ...]] = {
    order: tuple(_NUMBER[tuple(sorted(order[i] for i in idx))] for idx in _SUBSETS)
    for order in permutations(range(5))}

# A plan: the subsets of five ranks that make fifteens, pairs and runs (the longest),
# as sorted subset numbers; kept per rank multiset (6,175 at most, each made once).
Plan = tuple[list[int], list[int], list[int]]
_PLANS: dict[tuple[int, ...], Plan] = {}


def _make_plan(ranks: Sequence[int]) -> Plan:
    """The subsets of ``ranks`` (by number) that make each fifteen, each pair, and each
    run of the longest length."""
    # Each subset's count value and the union of its rank bits, from the subset less
    # its lowest card: 31 additions for the five cards instead of one sum per subset.
    sums = [0] * 32
    bits = [0] * 32
    for m in range(1, 32):
        low = (m & -m).bit_length() - 1
        sums[m] = sums[m & (m - 1)] + RANK_VALUE[ranks[low]]
        bits[m] = bits[m & (m - 1)] | 1 << ranks[low]
    fifteens = [n for n, m in enumerate(_MASK) if sums[m] == 15]
    pairs = [n for n, (i, j) in _OF_SIZE[2] if ranks[i] == ranks[j]]
    runs: list[int] = []
    for k in (5, 4, 3):
        # k cards in sequence: k different ranks whose bits are one unbroken block.
        block = (1 << k) - 1
        runs = [n for n, _ in _OF_SIZE[k] if bits[_MASK[n]] // (bits[_MASK[n]] & -bits[_MASK[n]]) == block]
        if runs:
            break
    return fifteens, pairs, runs


def _plan(ranks: list[int]) -> Plan:
    """``_make_plan(ranks)``, from the kept plan of the same ranks in increasing order,
    renumbered to the places of ``ranks``: which places combine depends only on their
    ranks, so the plan of a multiset serves every order of it."""
    order = sorted(range(5), key=ranks.__getitem__)
    key = (ranks[order[0]], ranks[order[1]], ranks[order[2]], ranks[order[3]], ranks[order[4]])
    plan = _PLANS.get(key)
    if plan is None:
        plan = _PLANS[key] = _make_plan(key)
    to = _RENUMBER[tuple(order)]
    fifteens, pairs, runs = plan
    return (sorted([to[n] for n in fifteens]) if fifteens else fifteens,
            sorted([to[n] for n in pairs]) if pairs else pairs,
            sorted([to[n] for n in runs]) if runs else runs)


def _build_table() -> dict[int, int]:
    """Fifteens, pairs and runs of every multiset of five ranks (none held five times),
    keyed by the sum of their weights ``5 ** rank``; each multiset's plan is kept too
    (``_PLANS``: the breakdown's)."""
    table = {}
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(r) for r in set(ranks)) <= 4:
            fifteens, pairs, runs = _PLANS[ranks] = _make_plan(ranks)
            run = len(_SUBSETS[runs[0]]) if runs else 0
            table[sum(5 ** r for r in ranks)] = 2 * len(fifteens) + 2 * len(pairs) + run * len(runs)
    return table


_WEIGHT: tuple[int, ...] = tuple(5 ** (c % 13) for c in range(52))
_SUIT: tuple[int, ...] = tuple(c // 13 for c in range(52))
# The jack of each card's suit: nobs is the starter's _NOBS held in the hand.
_NOBS: tuple[int, ...] = tuple(c // 13 * 13 + JACK for c in range(52))
_TABLE: dict[int, int] = _build_table()

# A trie is nested lists indexed by card: ``trie[a][b][c][d][starter]`` is a number.
Trie = list


def _rank_trie(table: dict[int, int]) -> Trie:
    """Fifteens, pairs and runs as a trie: the node reached by some cards is the one of
    their rank multiset (its base-5 key), shared by every order and suit of those
    cards, so 2,380 nodes of 52 entries; the leaves are ``table``'s points."""
    keys = [[0]]
    for _ in range(4):
        keys.append(sorted({k + w for k in keys[-1] for w in _WEIGHT}))
    # Five cards of one rank (not a hand of distinct cards) have no entry: 0.
    nodes: dict[int, list] = {k: [table.get(k + w, 0) for w in _WEIGHT] for k in keys[4]}
    for depth in (3, 2, 1, 0):
        nodes = {k: [nodes[k + w] for w in _WEIGHT] for k in keys[depth]}
    return nodes[0]


_EMPTY, _MIXED = 4, 5


def _suit_trie(crib: bool) -> Trie:
    """Flush and nobs as a trie: the node reached by some hand cards is the one of
    their suit state (the suit they all share, or mixed) and the suits of the jacks
    among them; the starter's entry adds the flush (of four, or five with the
    starter; a crib only five) and nobs (the jack of the starter's suit held)."""
    memo: dict[tuple[int, int, int], list] = {}

    def node(depth: int, flush: int, jacks: int) -> list:
        key = (depth, flush, jacks)
        if key not in memo:
            out = []
            for c in range(52):
                s = _SUIT[c]
                if depth < 4:
                    out.append(node(depth + 1, s if flush in (_EMPTY, s) else _MIXED,
                                    jacks | (1 << s if c % 13 == JACK else 0)))
                    continue
                points = jacks >> s & 1
                if flush == s:
                    points += 5
                elif flush < _EMPTY and not crib:
                    points += 4
                out.append(points)
            memo[key] = out
        return memo[key]

    return node(0, _EMPTY, 0)


_RANKS: Trie = _rank_trie(_TABLE)
_HAND_SUITS: Trie = _suit_trie(crib=False)
_CRIB_SUITS: Trie = _suit_trie(crib=True)


def score_hand(hand: Sequence[int], starter: int, crib: bool = False) -> int:
    """Points of four cards with the starter in the show (``crib``: only a five-card
    flush counts). Cards are ints 0..51 (``Card`` or plain ``int``), all different.

    Two tries (``_rank_trie``, ``_suit_trie``) walked by the five cards: the rank
    points and the flush and nobs points, each a list subscript a card. Summing card
    weights into a dict key instead, as the table's builder does, costs about four
    times as much a call in CPython: each sum past 256 is a new int object."""
    a, b, c, d = hand
    if crib:
        return _RANKS[a][b][c][d][starter] + _CRIB_SUITS[a][b][c][d][starter]
    return _RANKS[a][b][c][d][starter] + _HAND_SUITS[a][b][c][d][starter]


_new_object = object.__new__


def _score(kind: str, cards: tuple[Card, ...], points: int, total: int, words: str) -> Score:
    """``Score(kind, cards, points, total, words)``, its fields put in its dict at once:
    the frozen dataclass's ``__init__`` sets each through ``object.__setattr__``, twice
    the time of the whole breakdown's other work for a card. The same object (equal,
    same hash, same repr; still frozen)."""
    s = _new_object(Score)
    d = s.__dict__
    d["kind"] = kind
    d["cards"] = cards
    d["points"] = points
    d["total"] = total
    d["words"] = words
    return s


def _rank_of(c: int) -> int:
    return c % 13


def hand_breakdown(hand: Sequence[int], starter: int, crib: bool = False) -> list[Score]:
    """Every combination of the show in the usual cadence: fifteens, pairs, runs,
    flush, nobs ("fifteen 2, fifteen 4, a pair is 6, a run of three is 9, nobs is 10")."""
    cards = [CARDS[c] for c in hand]
    if len(cards) != 4:
        raise ValueError(f"a hand in the show is four cards, not {len(cards)}")
    five = cards + [CARDS[starter]]
    if len(set(five)) != 5:
        raise ValueError("a card is counted twice in the show")
    out: list[Score] = []
    total = 0
    fifteens, pairs, runs = _plan([c % 13 for c in five])
    for n in fifteens:
        total += 2
        out.append(_score("fifteen", _CARDS_OF[n](five), 2, total, f"fifteen {total}"))
    for n in pairs:
        total += 2
        out.append(_score("pair", _CARDS_OF[n](five), 2, total, f"a pair is {total}"))
    if runs:
        k = len(_SUBSETS[runs[0]])
        for n in runs:
            total += k
            out.append(_score("run", tuple(sorted(_CARDS_OF[n](five), key=_rank_of)), k, total,
                              f"a run of {NUMBER_WORDS[k]} is {total}"))
    suit = cards[0] // 13
    if cards[1] // 13 == suit and cards[2] // 13 == suit and cards[3] // 13 == suit:
        if five[4] // 13 == suit:
            total += 5
            out.append(_score("flush", tuple(five), 5, total, f"a flush of five is {total}"))
        elif not crib:
            total += 4
            out.append(_score("flush", tuple(cards), 4, total, f"a flush of four is {total}"))
    nobs = _NOBS[five[4]]
    for c in cards:
        if c == nobs:
            total += 1
            out.append(_score("nobs", (c,), 1, total, f"nobs is {total}"))
    return out


# ---- the play -------------------------------------------------------------------------

def peg_points(count_cards: Sequence[int]) -> int:
    """What the last card of the current count pegs: 15 or 31 for 2, a pair 2, three
    of a kind 6, four 12, a run of the last n cards (any order) n. Not the go."""
    n = len(count_cards)
    if n == 0:
        return 0
    total = 0
    for c in count_cards:
        total += RANK_VALUE[c % 13]
    points = 2 if total == 15 or total == 31 else 0
    last = count_cards[-1] % 13
    if n > 1 and count_cards[-2] % 13 == last:
        same = 2
        while same < n and count_cards[-1 - same] % 13 == last:
            same += 1
        return points + same * (same - 1)   # 2, 6, 12: every pair among them
    return points + _run_length(count_cards)


def _run_length(count_cards: Sequence[int]) -> int:
    """The longest run (3 or more) the last cards make, or 0. Walking back from the
    last card, a repeated rank ends the search: a pair breaks a run."""
    seen = 0
    lo = hi = count_cards[-1] % 13
    best = 0
    for i in range(len(count_cards) - 1, -1, -1):
        r = count_cards[i] % 13
        bit = 1 << r
        if seen & bit:
            break
        seen |= bit
        lo, hi = min(lo, r), max(hi, r)
        k = len(count_cards) - i
        if k >= 3 and hi - lo == k - 1:
            best = k
    return best


def peg_breakdown(count_cards: Sequence[int]) -> list[Score]:
    """The combinations the last card of the count pegs, with words ("fifteen for 2",
    "a pair for 2", "a run of four for 4", "thirty-one for 2")."""
    n = len(count_cards)
    if not n:
        return []
    count = 0
    for c in count_cards:
        count += RANK_VALUE[c % 13]
    last = count_cards[-1] % 13
    same = 1
    while same < n and count_cards[-1 - same] % 13 == last:
        same += 1
    run = _run_length(count_cards) if same == 1 and n >= 3 else 0
    if count != 15 and count != 31 and same == 1 and not run:
        return []                 # most cards peg nothing: no Card objects made
    cards = tuple(CARDS[c] for c in count_cards)
    out: list[Score] = []
    total = 0
    if count == 15:
        total = 2
        out.append(_score("fifteen", cards, 2, 2, "fifteen for 2"))
    elif count == 31:
        total = 2
        out.append(_score("thirty-one", cards, 2, 2, "thirty-one for 2"))
    if same > 1:
        kind, say = _SAME[same]
        points = same * (same - 1)
        out.append(_score(kind, cards[-same:], points, total + points, say))
    elif run:
        out.append(_score("run", cards[-run:], run, total + run, f"a run of {_RUN_WORDS.get(run, str(run))} for {run}"))
    return out


_SAME = {2: ("pair", "a pair for 2"), 3: ("pair royal", "three of a kind for 6"),
         4: ("double pair royal", "four of a kind for 12")}
_RUN_WORDS = {3: "three", 4: "four", 5: "five", 6: "six", 7: "seven"}


# ---- the count said aloud ----------------------------------------------------------------
#
# A breakdown lists every combination ("EACH and EVERY combination counts separately").
# Players at a table say the count in a cadence of running totals, naming some
# combinations together: "fifteen 2, fifteen 4, fifteen 6, fifteen 8 and a double run of
# three is 16" for the documentation's 8,7,7,6,2. The phrases below are built from a
# breakdown and only say it: their points add up to the breakdown's, never otherwise.

@dataclass(frozen=True)
class Said:
    """One phrase of a count said aloud: the words with the running total, the cards
    they name and their points ("a double run of three is 16": two runs and their pair)."""

    words: str
    cards: tuple[Card, ...]
    points: int
    total: int


# Cards of one rank said together: a pair, three of a kind (the pair royal), four.
_KIND_WORDS = {2: "a pair", 3: "three of a kind", 4: "four of a kind"}
# Runs of one length said together, by how many there are; their pairs go with them.
# Each with its article, as every other phrase has ("a pair", "a run of three").
_RUNS_WORDS = {1: "a run of {k}", 2: "a double run of {k}", 3: "a triple run", 4: "a double double run"}


def _by_rank(cards: Sequence[Card]) -> tuple[Card, ...]:
    return tuple(sorted(dict.fromkeys(cards), key=lambda c: (c.rank, c.suit)))


def show_phrases(parts: Sequence[Score]) -> list[Said]:
    """A show's breakdown (``hand_breakdown``) as a player says it: each fifteen, the
    cards of one rank together ("three of a kind is 12"), the runs with the pairs inside
    them ("a double run of three is 8", "a double double run is 16"), the flush ("a flush of
    four is 9"), his nobs; each with the running total."""
    fifteens = [p for p in parts if p.kind == "fifteen"]
    runs = [p for p in parts if p.kind == "run"]
    in_runs = {c.rank for r in runs for c in r.cards}
    kinds: dict[int, list[Score]] = {}
    for p in parts:
        if p.kind == "pair" and p.cards[0].rank not in in_runs:
            kinds.setdefault(p.cards[0].rank, []).append(p)
    said: list[tuple[str, tuple[Card, ...], int]] = []
    for p in fifteens:
        said.append(("fifteen", p.cards, p.points))
    for pairs in kinds.values():
        cards = _by_rank([c for p in pairs for c in p.cards])
        said.append((_KIND_WORDS[len(cards)] + " is", cards, sum(p.points for p in pairs)))
    if runs:
        with_pairs = runs + [p for p in parts if p.kind == "pair" and p.cards[0].rank in in_runs]
        name = _RUNS_WORDS[len(runs)].format(k=NUMBER_WORDS[len(runs[0].cards)])
        said.append((name + " is", _by_rank([c for p in with_pairs for c in p.cards]),
                     sum(p.points for p in with_pairs)))
    for p in parts:
        if p.kind == "flush":
            said.append((f"a flush of {NUMBER_WORDS[len(p.cards)]} is", p.cards, p.points))
        elif p.kind == "nobs":
            said.append(("his nobs is", p.cards, p.points))
    return _running(said)


def peg_phrases(parts: Sequence[Score]) -> list[Said]:
    """What a card pegs (``peg_breakdown``) as a player says it: one combination as
    it is called ("fifteen for 2", "a run of four for 4"); two with the running total
    ("fifteen 2 and a pair is 4", "thirty-one 2 and a run of three is 5")."""
    if len(parts) == 1:
        p = parts[0]
        return [Said(p.words, p.cards, p.points, p.total)]
    said: list[tuple[str, tuple[Card, ...], int]] = []
    for p in parts:
        if p.kind in ("fifteen", "thirty-one"):
            said.append((p.kind, p.cards, p.points))
        elif p.kind == "run":
            said.append((f"a run of {_RUN_WORDS.get(len(p.cards), str(len(p.cards)))} is", p.cards, p.points))
        else:
            said.append((_KIND_WORDS[len(p.cards)] + " is", p.cards, p.points))
    return _running(said)


def _running(said: Sequence[tuple[str, tuple[Card, ...], int]]) -> list[Said]:
    out: list[Said] = []
    total = 0
    for words, cards, points in said:
        total += points
        out.append(Said(f"{words} {total}", tuple(cards), points, total))
    return out


def aloud(phrases: Sequence[Said]) -> list[str]:
    """The phrases punctuated as one spoken sentence, a piece a phrase: commas between,
    "and" before the last, a full stop at the end ("fifteen 2," "fifteen 4" "and a pair
    is 6."). Joined with spaces they are the sentence."""
    n = len(phrases)
    out = []
    for i, p in enumerate(phrases):
        words = f"and {p.words}" if n > 1 and i == n - 1 else p.words
        out.append(words + ("." if i == n - 1 else "," if i < n - 2 else ""))
    return out


__all__ = ["RANK_VALUE", "Said", "Score", "aloud", "hand_breakdown", "peg_breakdown",
           "peg_phrases", "peg_points", "score_hand", "show_phrases", "value"]
