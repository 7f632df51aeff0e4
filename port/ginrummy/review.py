"""GinRummy's review: a player's decisions beside EXPERT's, each with its estimated cost.

For each decision the player made (a draw, a discard, a knock question) EXPERT judges
every legal choice on the same sampled worlds (``Expert.values``): the chance to win
the game after it (or the hand's points when the game is one hand). The cost of the
choice made is what EXPERT's best choice is worth more, in points of win probability
(percent); the review lists the decisions worst first. It sees what the player saw
(the decision's ``View``), never the hidden cards: EXPERT's own promise.

    seat = Recording(my_player)               # notes each decision as it plays
    play_game(options, rng, (seat, Expert()))
    for j in review(seat.decisions):          # the costliest first
        print(j.line())   # hand 2, turn 5: discard 7H; EXPERT: discard KD (62.0% to 55.5%: costs 6.5)

Plain Python (no pyxel): the screens (``port.ginrummy.main``) show it, records feed it.
"""
from __future__ import annotations

import zlib
from collections.abc import Iterable
from dataclasses import dataclass

from port.cards import Card
from port.files.gamerecord import by_seat
from port.ginrummy.expert import Expert
from port.ginrummy.record import GameLog, choices
from port.ginrummy.rules.players import Draw, KnockChoice, Player
from port.ginrummy.rules.settle import Settlement
from port.ginrummy.rules.state import Event, View

Choice = Draw | Card | KnockChoice
WORLDS = 100      # sampled worlds a decision is judged on (about 10 ms a decision)


@dataclass(frozen=True)
class Decision:
    """One decision of a seat: what it saw, and what it chose."""

    view: View
    choice: Choice
    hand: int = 1        # which hand of the game (1, 2, ...)
    turn: int = 0        # which of the seat's turns in the hand (1, 2, ...)


@dataclass(frozen=True)
class Judgement:
    """A decision judged: every choice's worth, the best, and what the choice made cost."""

    decision: Decision
    values: dict[Choice, float]     # each legal choice -> its worth (0..1: a chance to win)
    best: Choice

    @property
    def chosen(self) -> Choice:
        return self.decision.choice

    @property
    def cost(self) -> float:
        """Points of win probability (percent) the choice made gave away; 0 for EXPERT's."""
        if not self.values or self.chosen not in self.values:
            return 0.0
        return max(0.0, 100 * (self.values[self.best] - self.values[self.chosen]))

    def line(self) -> str:
        """The decision in one line, as the review screen and a text review show it."""
        d = self.decision
        where = f"hand {d.hand}, turn {d.turn}"
        if not self.values:
            return f"{where}: {words(self.chosen)} (not judged)"
        if self.best == self.chosen:
            return f"{where}: {words(self.chosen)}; EXPERT agrees ({percent(self.values[self.best])})"
        return (f"{where}: {words(self.chosen)}; EXPERT: {words(self.best)} "
                f"({percent(self.values[self.best])} to {percent(self.values[self.chosen])}: "
                f"costs {self.cost:.1f})")


class Recording(Player):
    """A player that notes each of its decisions (what it saw, what it chose) for a
    review, and plays as the player it wraps."""

    def __init__(self, inner: Player) -> None:
        self.inner = inner
        self.name = getattr(inner, "name", "player")
        self.decisions: list[Decision] = []
        self.hand = 0
        self.turn = 0
        self.drew = False        # this turn began with a draw (the deal of 11's opening discard has none)

    def begin_hand(self, view: View) -> None:
        self.hand += 1
        self.turn = 0
        self.inner.begin_hand(view)

    def observe(self, event: Event) -> None:
        self.inner.observe(event)

    def _noted(self, view: View, choice: Choice) -> Choice:
        self.decisions.append(Decision(view, choice, self.hand, self.turn))
        return choice

    def choose_draw(self, view: View) -> Draw:
        self.turn += 1
        self.drew = True
        return self._noted(view, self.inner.choose_draw(view))  # type: ignore[return-value]

    def offer(self, view: View) -> bool:
        return self.inner.offer(view)

    def choose_discard(self, view: View) -> Card:
        if not self.drew:
            self.turn += 1
        self.drew = False
        return self._noted(view, self.inner.choose_discard(view))  # type: ignore[return-value]

    def choose_knock(self, view: View) -> KnockChoice:
        return self._noted(view, self.inner.choose_knock(view))  # type: ignore[return-value]

    def end_hand(self, view: View, result: Settlement) -> None:
        self.inner.end_hand(view, result)


def words(choice: Choice) -> str:
    """A choice in the screen's words: "draw from the deck", "discard 7H", "knock"."""
    if isinstance(choice, Draw):
        return "draw from the deck" if choice is Draw.STOCK else "take the discard"
    if isinstance(choice, KnockChoice):
        return {KnockChoice.KNOCK: "knock", KnockChoice.PLAY_ON: "play on",
                KnockChoice.PLAY_TO_GIN: "play to gin"}[choice]
    return f"discard {choice}"


def percent(value: float) -> str:
    return f"{100 * value:.1f}%"


def judge(decision: Decision, worlds: int = WORLDS) -> Judgement:
    """Every choice of one decision on the same worlds. The worlds are seeded from the
    view itself, so the same decision is judged the same way on every run."""
    expert = Expert(seed=_seed_of(decision.view))
    values: dict[Choice, float] = dict(expert.values(decision.view, worlds))
    # "Play to gin" is playing on with no more knock offers: judged as playing on.
    if KnockChoice.PLAY_ON in values:
        values[KnockChoice.PLAY_TO_GIN] = values[KnockChoice.PLAY_ON]
    if not values:
        return Judgement(decision, {}, decision.choice)
    top = max(values.values())
    # Ties go to the choice made, then to a fixed order: no cost without a difference.
    best = decision.choice if values.get(decision.choice) == top else \
        min((c for c, v in values.items() if v == top), key=_order)
    return Judgement(decision, values, best)


def review(decisions: Iterable[Decision], worlds: int = WORLDS) -> list[Judgement]:
    """The decisions judged, the costliest first (in play order among equals)."""
    judged = [judge(d, worlds) for d in decisions]
    order = {id(j): i for i, j in enumerate(judged)}
    return sorted(judged, key=lambda j: (-round(j.cost, 6), order[id(j)]))


def summary(judged: list[Judgement]) -> str:
    """One line over a review: how often EXPERT agreed, and what the rest cost."""
    judged = [j for j in judged if j.values]
    other = [j for j in judged if j.best != j.chosen]
    if not judged:
        return "No decisions to review."
    if len(judged) == 1:           # a hand stopped after one move (a room game resigned)
        return ("1 decision: EXPERT agrees with it." if not other else
                f"1 decision: EXPERT chose otherwise; it cost {other[0].cost:.1f} points of win chance.")
    if not other:
        return f"{len(judged)} decisions: EXPERT agrees with every one."
    return (f"{len(judged)} decisions: EXPERT agrees with {len(judged) - len(other)}; "
            f"the other {len(other)} cost {sum(j.cost for j in other):.1f} points of win chance in all.")


# What the numbers of a line are, said once under the summary (one screen line: 76).
LEGEND = "%: the chance to win the game after a choice; costs: points of win chance."


def lines(judged: list[Judgement]) -> list[str]:
    """A review as the review screen and ``ginrummy review FILE`` show it: the summary,
    the legend of its numbers, then each decision, the costliest first (as ``review``
    sorts them)."""
    legend = [LEGEND] if any(j.values for j in judged) else []
    return [summary(judged), *legend, "", *(j.line() for j in judged)]


def record_lines(log: GameLog, name: str | None = None, worlds: int = WORLDS) -> list[str]:
    """The review of a game record: each seat's decisions (or the seat named), the
    costliest first. ``ValueError`` for a name that is no seat's."""
    return by_seat(log.names, name,
                   lambda seat: lines(review((Decision(*each) for each in choices(log, seat)), worlds)))


def _order(choice: Choice) -> tuple[int, int]:
    if isinstance(choice, Draw):
        return (0, 0 if choice is Draw.STOCK else 1)
    if isinstance(choice, KnockChoice):
        return (1, list(KnockChoice).index(choice))
    return (2, int(choice))


def _seed_of(view: View) -> int:
    """A seed from the decision itself: the seat's cards, the pile and what happened."""
    text = f"{view.seat}|{view.hand}|{view.pile}|{len(view.events)}|{view.scores}"
    return zlib.crc32(text.encode())


__all__ = ["Decision", "Judgement", "LEGEND", "Recording", "WORLDS", "judge", "lines", "percent", "record_lines",
           "review", "summary", "words"]
