"""GinRummy in the card room: what it hands the room's shared pages (``RoomGame``).

The invitation page lays the rules out as the options and TABLE RULES pages do: the
options' score limit, bonuses and knocking, then every table rule but ARRANGE HAND (a
rule of the screen, not of the game), with the same values and the same ways round. Two
hot letters give way where both pages used one letter: UNDERCUT BONUS is R (U is UPCARD
OFFER's) and KNOCKING is N (K is KNOCK CARD's); the score limit is L.

The rules change through the configuration the TABLE RULES page changes (``tablerules``),
so a rule chosen makes the ones it cannot go with give way, as on that page: the room is
sent only rules the engine takes together (and says so in one sentence if not).
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, fields
from typing import Any

from port.ginrummy import files
from port.ginrummy.main import tablerules
from port.ginrummy.rules.options import BONUS_CHOICES, LIMIT_MENU_MAX, LIMIT_STEP
from port.main.context import GameContext
from port.main.controller import Controller
from port.main.menus import yes_no
from port.main.roomgame import RuleRow, Rules
from port.main.roomsession import RoomSession, TableLink
from port.ginrummy.main import roomplay, roomwatch

# The engine's options by their room names (docs/room.md, "Rules"): the Config's fields
# of the same names.
RULE_FIELDS = ("score_limit", "gin_bonus", "undercut_bonus", "oklahoma", "knocking", *files.TABLE_RULES)
_CONFIG_FIELDS = frozenset(f.name for f in fields(files.Config))


def to_config(rules: Rules, base: files.Config | None = None) -> files.Config:
    """The rules as the configuration the TABLE RULES page reads (a rule not given: the
    original's; a value the page cannot hold keeps the page's own)."""
    cfg = base or files.Config()
    for key in RULE_FIELDS:
        if key in rules and key in _CONFIG_FIELDS:
            value = tuple(rules[key]) if key == "doublers" else rules[key]
            try:
                cfg = cfg.with_(**{key: value})
            except (files.FileError, TypeError, ValueError):
                continue
    return cfg


def from_config(cfg: Any, rules: Rules | None = None) -> Rules:
    """The configuration's (or the engine's ``Options``') rules as the room names them,
    over ``rules`` (hints kept)."""
    out: dict[str, Any] = dict(rules or {})
    for key in RULE_FIELDS:
        value = getattr(cfg, key)
        out[key] = list(value) if key == "doublers" else value
    return out


def _limit(rules: Rules, back: bool) -> Rules:
    """Steps of 50 from 0 to 500, round again, as the options page's SCORE LIMIT."""
    v = int(rules.get("score_limit", 100))
    if not back:
        v = 0 if v >= LIMIT_MENU_MAX else (v // LIMIT_STEP + 1) * LIMIT_STEP
    else:
        v = LIMIT_MENU_MAX if v <= 0 or v > LIMIT_MENU_MAX else (v - 1) // LIMIT_STEP * LIMIT_STEP
    return {**rules, "score_limit": v}


def _bonus(key: str) -> Callable[[Rules, bool], Rules]:
    def change(rules: Rules, back: bool) -> Rules:
        return {**rules, key: tablerules.step(BONUS_CHOICES, rules.get(key, 25), back)}
    return change


def _via(rule: tablerules.Rule) -> RuleRow:
    """A TABLE RULES row on the invitation page: the same label, letter, values and steps."""
    keys = {"KNOCK CARD": ("oklahoma", "knock_deck", "doublers"), "SCORING": ("scoring",),
            "DOUBLERS": ("doublers",), "SHUTOUT": ("shutout",), "UPCARD OFFER": ("upcard_offer",),
            "DEAL 11": ("deal_eleven",), "FIRST DEALER": ("random_first",),
            "WINNER DEALS": ("winner_deals",), "BOX BONUS": ("box_bonus",)}[rule.label]
    value = rule.value
    if rule.label == "FIRST DEALER":
        # At a room table nobody is the computer: the one invited deals the first hand
        # (the inviter plays first, docs/room.md "Seats"), or the deal is cut at random.
        value = lambda c: "RANDOM" if c.random_first else "THE INVITED"   # noqa: E731
    return RuleRow(rule.label, rule.hot, keys, lambda r: value(to_config(r)),
                   lambda r, back: from_config(rule.change(to_config(r), back), r))


ROWS: tuple[RuleRow, ...] = (
    RuleRow("SCORE LIMIT", 6, ("score_limit",), lambda r: str(r.get("score_limit", 100)), _limit),
    RuleRow("GIN BONUS", "G", ("gin_bonus",), lambda r: str(r.get("gin_bonus", 25)), _bonus("gin_bonus")),
    RuleRow("UNDERCUT BONUS", 4, ("undercut_bonus",), lambda r: str(r.get("undercut_bonus", 25)),
            _bonus("undercut_bonus")),
    RuleRow("KNOCKING", 1, ("knocking",), lambda r: yes_no(bool(r.get("knocking", True))),
            lambda r, back: {**r, "knocking": not r.get("knocking", True)}),
    *(_via(rule) for rule in tablerules.RULES if rule.label != "ARRANGE HAND"),
)


@dataclass(frozen=True)
class GinRoom:
    game: str = "ginrummy"
    title: str = "GinRummy"

    def rule_rows(self) -> tuple[RuleRow, ...]:
        return ROWS

    def my_rules(self, ctx: GameContext) -> Rules:
        """The options and table rules in force (the CFG's, and the command line's limit)."""
        return from_config(ctx.config.options())     # a mix edited into the CFG, settled

    def play(self, ctx: GameContext, session: RoomSession, link: TableLink,
             back: Callable[[], Controller]) -> Controller:
        if link.watching:                                   # a table watched: the screen in its watch mode
            return roomwatch.watch(ctx, session, link, back)
        return roomplay.play(ctx, session, link, back)     # the game screen playing a person

    def rules_line(self, rules: Rules) -> str:
        limit = int(rules.get("score_limit", 100))
        words = [str(limit) if limit else "ONE HAND"]          # a limit of 0: the first hand is the game
        if rules.get("oklahoma"):
            words.append("OKLAHOMA")
        if rules.get("scoring", "TOTAL") != "TOTAL":
            words.append(str(rules["scoring"]))
        return ", ".join(words)

    def replay(self, ctx: GameContext, text: str, back: Controller) -> Controller:
        from port.ginrummy import record
        from port.ginrummy.main.replay import GinReplay

        return GinReplay(ctx, record.parse(text), back)       # type: ignore[arg-type]

    def review(self, ctx: GameContext, text: str, seat: int, back: Controller) -> Controller:
        from port.ginrummy import record, review
        from port.ginrummy.review import Decision
        from port.main.reviewscreen import ReviewScreen

        log = record.parse(text)

        def lines() -> list[str]:
            return review.lines(review.review([Decision(*each) for each in record.choices(log, seat)]))

        return ReviewScreen(ctx.session, f"REVIEW: {log.names[seat]}'S DECISIONS BESIDE EXPERT'S", lines, back)


ROOM = GinRoom()

__all__ = ["ROOM", "ROWS", "from_config", "to_config"]
