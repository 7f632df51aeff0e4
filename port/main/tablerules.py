"""The table rules of the other sources as the screens show and change them: each rule's
value as text, its next value, and the presets that set a group at once. Plain logic on
``files.Config`` (no pyxel); the TABLE RULES page draws it, the title screen sums it up.

The engine's ``Options`` reads the same fields (``Config.options()``); what each rule does
is the engine's (docs/engine.md). The original's rules are every default.
"""
from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

from port import files
from port.rules import options as rule_options

KNOCK_CARDS = ("FIXED", "OKLAHOMA", "DECK")
KNOCK_CARD_TEXT = {"FIXED": "FIXED 10", "OKLAHOMA": "OKLAHOMA UPCARD", "DECK": "FROM A DECK"}
SCORING_TEXT = {"TOTAL": "TOTAL", "BOXES": "BOXES", "GAME_ONLY": "GAME ONLY", "FLOP": "FLOP",
                "HOLLYWOOD": "HOLLYWOOD"}
# NONE, each suit alone, then both (the card room's "spades doubler is commonly used").
DOUBLER_CHOICES: tuple[tuple[str, ...], ...] = ((), ("SPADES",), ("HEARTS",), ("SPADES", "HEARTS"))
PRESET_NAMES = ("ORIGINAL", "CARD ROOM", "CLASSIC")

# What a preset sets, besides the table rules: the bonuses and the knock card's Oklahoma.
# The score limit, knocking and everything of the screen (big cards, pointer, sort,
# arranging) stay the player's.
PRESET_ALSO = ("gin_bonus", "undercut_bonus", "oklahoma")


def yes_no(flag: bool) -> str:
    return "YES" if flag else "NO"


def step(choices: tuple[Any, ...], now: Any, back: bool) -> Any:
    """The next choice after ``now`` (the previous one with ``back``), round again."""
    i = choices.index(now) if now in choices else -1
    return choices[(i + (-1 if back else 1)) % len(choices)]


def with_knock_card(cfg: files.Config, kind: str) -> files.Config:
    """FIXED, OKLAHOMA or DECK: the two fields kept consistent (never both)."""
    return cfg.with_(oklahoma=kind == "OKLAHOMA", knock_deck=kind == "DECK")


@dataclass(frozen=True)
class Rule:
    label: str
    hot: str | int                                # the hot letter, or its index in label
    value: Callable[[files.Config], str]
    change: Callable[[files.Config, bool], files.Config]   # (config, back) -> next config


def _flip(field: str) -> Callable[[files.Config, bool], files.Config]:
    return lambda c, back: c.with_(**{field: not getattr(c, field)})


RULES: tuple[Rule, ...] = (
    Rule("KNOCK CARD", "K", lambda c: KNOCK_CARD_TEXT[c.knock_card],
         lambda c, back: with_knock_card(c, step(KNOCK_CARDS, c.knock_card, back))),
    Rule("SCORING", "S", lambda c: SCORING_TEXT[c.scoring],
         lambda c, back: c.with_(scoring=step(files.SCORINGS, c.scoring, back))),
    Rule("DOUBLERS", "D", lambda c: "+".join(c.doublers) or "NONE",
         lambda c, back: c.with_(doublers=step(DOUBLER_CHOICES, c.doublers, back))),
    Rule("SHUTOUT", 1, lambda c: yes_no(c.shutout), _flip("shutout")),
    Rule("UPCARD OFFER", "U", lambda c: yes_no(c.upcard_offer), _flip("upcard_offer")),
    Rule("DEAL 11", 5, lambda c: yes_no(c.deal_eleven), _flip("deal_eleven")),
    # The non-dealer plays first, so the original's "you always go first" is the
    # computer dealing every hand.
    Rule("FIRST DEALER", "F", lambda c: "RANDOM" if c.random_first else "COMPUTER",
         _flip("random_first")),
    Rule("WINNER DEALS", "W", lambda c: yes_no(c.winner_deals), _flip("winner_deals")),
    Rule("BOX BONUS", "B", lambda c: str(c.box_bonus),
         lambda c, back: c.with_(box_bonus=step(files.BOX_BONUSES, c.box_bonus, back))),
    Rule("ARRANGE HAND", "A", lambda c: yes_no(c.arrange), _flip("arrange")),
)


def preset_fields(name: str) -> dict[str, Any]:
    """The fields a preset sets, read from the engine's ``PRESETS`` (an ``Options`` or
    a mapping of its fields); the table rules plus ``PRESET_ALSO``."""
    preset = presets()[name]
    if isinstance(preset, Mapping):
        given = dict(preset)
    else:
        given = {f.name: getattr(preset, f.name) for f in fields(preset)}
    base = rule_options.Options()
    wanted = (*files.TABLE_RULES, *PRESET_ALSO)
    out = {k: given.get(k, getattr(base, k, getattr(files.Config(), k))) for k in wanted}
    out["doublers"] = tuple(s for s in files.DOUBLER_SUITS if s in out["doublers"])
    return out


def presets() -> Mapping[str, Any]:
    return getattr(rule_options, "PRESETS", None) or _FALLBACK_PRESETS


def apply_preset(cfg: files.Config, name: str) -> files.Config:
    return cfg.with_(**preset_fields(name))


def preset_of(cfg: files.Config) -> str | None:
    """The preset the configuration's rules match now, or None (the player's own mix)."""
    for name in PRESET_NAMES:
        if all(getattr(cfg, k) == v for k, v in preset_fields(name).items()):
            return name
    return None


def summary(cfg: files.Config) -> str:
    """One line for the title screen when the table is not the original's ("" if it is)."""
    name = preset_of(cfg)
    if name == "ORIGINAL":
        return ""
    return f"TABLE RULES {name}" if name else "TABLE RULES OF YOUR OWN"


# Until the engine's PRESETS arrive (port/rules/options.py, the engine half of issue 12):
# the same three groups as the sources give them.
_FALLBACK_PRESETS: dict[str, dict[str, Any]] = {
    "ORIGINAL": {},
    # 003: knock card from a second deck, boxes, the spades doubler, shutout, deal of
    # 11, random first dealer then the winner deals; 25 for gin, undercut and a box.
    "CARD ROOM": {"knock_deck": True, "scoring": "BOXES", "doublers": ("SPADES",), "shutout": True,
                  "deal_eleven": True, "random_first": True, "winner_deals": True},
    # 001: the upcard offered, the dealer by a cut, gin 20 and undercut 10.
    "CLASSIC": {"upcard_offer": True, "random_first": True, "gin_bonus": 20, "undercut_bonus": 10},
}
