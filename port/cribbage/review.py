"""Cribbage's review: a player's decisions beside EXPERT's, each with its cost in points.

Two kinds of decision, both judged in points as EXPERT values them away from the
board's end (``port.cribbage.expert``):

- **laying away**: the full table of the 15 throws, each with the kept four's exact
  mean show over the 46 starters not seen, the crib's expected value (+ for your own
  crib, - for the opponent's), the kept four's expected pegging margin, and the total;
  the cost is the best total less the chosen throw's.
- **pegging**: each legal card's worth, what it pegs now plus the mean over the
  opponent's likely hands of the rest of the play searched to its end (your points
  less the opponent's); the cost is the best card's worth less the chosen one's. A
  card played because it was the only one that fitted, and a GO, are no decision.

It sees what the player saw (the decision's ``View``), never the hidden cards.

    seat = Recording(my_player)              # notes each decision as it plays
    play_game(options, rng, (seat, Expert()))
    for line in lines(review(seat.decisions)):   # the costliest first
        print(line)

Plain Python (no pyxel): the game screen (``port.cribbage.main``) shows it, records
feed it (``record_lines``, ``cribbage review FILE [NAME]``).
"""
from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass

from port.cards import Card
from port.cribbage.expert import Split, discard_table, play_values
from port.cribbage.record import GameLog
from port.cribbage.rules import Act, Player, View
from port.files.gamerecord import before_each, by_seat

Choice = tuple[Card, Card] | Card


@dataclass(frozen=True)
class Decision:
    """One decision of a seat: what it saw and what it chose (two cards laid away, or a
    card played), in which hand (deal) of the game, and which of its plays in the hand
    (0: laying away)."""

    view: View
    choice: Choice
    hand: int = 1
    play: int = 0

    @property
    def lay_away(self) -> bool:
        return isinstance(self.choice, tuple)


@dataclass(frozen=True)
class Judgement:
    """A decision judged: each choice's worth in points, EXPERT's best, the cost of the
    choice made, and for laying away the whole table of throws."""

    decision: Decision
    values: dict[Choice, float]
    best: Choice
    table: tuple[Split, ...] = ()     # laying away: the 15 throws, the best total first

    @property
    def chosen(self) -> Choice:
        return self.decision.choice

    @property
    def cost(self) -> float:
        """Points the choice made gave away against EXPERT's; 0 for EXPERT's own."""
        if self.chosen not in self.values:
            return 0.0
        return max(0.0, self.values[self.best] - self.values[self.chosen])

    def line(self) -> str:
        """The decision in one line: "hand 3, lay away: 5H 9C; EXPERT: QH KD (+7.02 to
        +4.76: costs 2.26)"."""
        d = self.decision
        if d.lay_away:
            where = f"hand {d.hand}, lay away"
        else:
            where = f"hand {d.hand}, play {d.play} at count {d.view.count}"
        mine = words(self.chosen)
        if self.best == self.chosen:
            return f"{where}: {mine}; EXPERT agrees ({points(self.values[self.best])})"
        return (f"{where}: {mine}; EXPERT: {words(self.best)} ({points(self.values[self.best])} "
                f"to {points(self.values[self.chosen])}: costs {self.cost:.2f})")

    def details(self) -> list[str]:
        """The lines under the decision's: the table of throws, or each card's worth."""
        if not self.decision.lay_away:
            return ["  " + "  ".join(f"{c} {points(self.values[c])}" for c in by_rank(self.values))]
        out = ["  THROW  KEEP          HAND   CRIB    PEG  TOTAL"]
        for row in self.table:
            mark = [m for m, c in (("EXPERT", self.best), ("YOURS", self.chosen)) if c == _throw(row.throw)]
            out.append(f"  {words(row.throw):5}  {' '.join(map(str, by_rank(row.keep))):12} {row.hand:5.2f} "
                       f"{row.crib:+6.2f} {row.peg:+6.2f} {row.total:6.2f}  {' '.join(mark)}".rstrip())
        return out


class Recording(Player):
    """A player that notes each of its decisions (what it saw, what it chose) for a
    review, and plays as the player it wraps."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "player")
        self.decisions: list[Decision] = []
        self.hand = 0
        self.plays = 0

    def begin_hand(self, view: View) -> None:
        self.inner.begin_hand(view)

    def end_hand(self, view: View) -> None:
        self.inner.end_hand(view)

    def discard(self, view: View) -> tuple[Card, Card]:
        self.hand += 1
        self.plays = 0
        throw = self.inner.discard(view)
        self.decisions.append(Decision(view, (throw[0], throw[1]), self.hand, 0))
        return throw

    def play(self, view: View) -> Card | None:
        card = self.inner.play(view)
        if card is not None:
            self.plays += 1
            self.decisions.append(Decision(view, card, self.hand, self.plays))
        return card


def words(choice: Choice) -> str:
    """A choice as the record writes cards: "5H 9C" for a throw, "KD" for a card."""
    if isinstance(choice, tuple):
        return " ".join(str(c) for c in by_rank(choice))
    return str(choice)


def by_rank(cards: Iterable[Card]) -> list[Card]:
    """Cards as a player reads them: by rank (ace low), then suit."""
    return sorted(cards, key=lambda c: (c % 13, c // 13))


def points(value: float) -> str:
    return f"{value:+.2f}"


def judge(decision: Decision) -> Judgement | None:
    """EXPERT's values for one decision; None when there was nothing to choose (a
    single card that fitted)."""
    view = decision.view
    if decision.lay_away:
        rows = discard_table(view)
        values: dict[Choice, float] = {_throw(r.throw): r.total for r in rows}
        table = tuple(sorted(rows, key=lambda r: -r.total))
    else:
        values = dict(play_values(view))
        table = ()
        if len(values) < 2:
            return None
    chosen = _throw(decision.choice) if decision.lay_away else decision.choice
    decision = Decision(view, chosen, decision.hand, decision.play)
    top = max(values.values())
    # Ties go to the choice made, then to the first in EXPERT's order: no cost without
    # a difference.
    best = chosen if values.get(chosen) == top else next(c for c, v in values.items() if v == top)
    return Judgement(decision, values, best, table)


def review(decisions: Iterable[Decision]) -> list[Judgement]:
    """The decisions judged (those with a choice), the costliest first, in play order
    among equals."""
    judged = [j for d in decisions if (j := judge(d)) is not None]
    order = {id(j): i for i, j in enumerate(judged)}
    return sorted(judged, key=lambda j: (-round(j.cost, 6), order[id(j)]))


def summary(judged: list[Judgement]) -> str:
    """One line over a review: how often EXPERT agreed, and what the rest cost."""
    if not judged:
        return "No decisions to review."
    other = [j for j in judged if j.best != j.chosen]
    thrown = sum(j.cost for j in other if j.decision.lay_away)
    pegged = sum(j.cost for j in other if not j.decision.lay_away)
    if len(judged) == 1:           # a hand stopped after one move (a room game resigned)
        return ("1 decision: EXPERT agrees with it." if not other else
                f"1 decision: EXPERT chose otherwise; it cost {thrown + pegged:.2f} points "
                f"({'laying away' if thrown else 'pegging'}).")
    if not other:
        return f"{len(judged)} decisions: EXPERT agrees with every one."
    return (f"{len(judged)} decisions: EXPERT agrees with {len(judged) - len(other)}; the other "
            f"{len(other)} cost {thrown + pegged:.2f} points in all ({thrown:.2f} laying away, "
            f"{pegged:.2f} pegging).")


def lines(judged: list[Judgement]) -> list[str]:
    """A review as the review screen and ``cribbage review FILE`` show it: the summary,
    then each decision, the costliest first, with its table or its cards' worths."""
    out = [summary(judged)]
    for j in judged:
        out += ["", j.line(), *j.details()]
    return out


def choices(log: GameLog, seat: int | None = None) -> Iterator[Decision]:
    """The lay-aways and the cards played of a record (of ``seat``, or both), each with
    the mover's View just before it: what ``Recording`` notes while a game is played."""
    hand, plays = 0, [0, 0]
    for before, st in before_each(log.steps):
        if st.hand != hand:
            hand, plays = st.hand, [0, 0]
        a = st.action
        if seat is not None and a.seat != seat or a.act is Act.GO:
            continue
        view = before.state.view(a.seat)
        if a.act is Act.DISCARD:
            yield Decision(view, (a.cards[0], a.cards[1]), hand, 0)
        else:
            plays[a.seat] += 1
            yield Decision(view, a.cards[0], hand, plays[a.seat])


def record_lines(log: GameLog, name: str | None = None) -> list[str]:
    """The review of a game record: each seat's decisions (or the seat named), the
    costliest first. ``ValueError`` for a name that is no seat's."""
    return by_seat(log.names, name, lambda seat: lines(review(choices(log, seat))))


def _throw(choice: Choice) -> Choice:
    """A throw in one order (the lower card first), so the table's key and the choice
    made meet."""
    if isinstance(choice, tuple):
        a, b = sorted(choice)
        return (a, b)
    return choice


__all__ = ["Decision", "Judgement", "Recording", "by_rank", "choices", "judge", "lines", "points",
           "record_lines", "review", "summary", "words"]
