"""The table rules of the other sources as the screens show and change them: each rule's
value as text, its next value, and the presets that set a group at once. Plain logic on
``files.Config``; the TABLE RULES page draws it, the title screen sums it up.

The engine's ``Options`` reads the same fields (``Config.options()``); what each rule does
is the engine's (docs/engine.md). The original's rules are every default.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from port.ginrummy import files
from port.ginrummy.rules import options as rule_options
from port.main.menus import yes_no

KNOCK_CARDS = ("FIXED", "OKLAHOMA", "DECK")
KNOCK_CARD_TEXT = {"FIXED": "FIXED 10", "OKLAHOMA": "OKLAHOMA UPCARD", "DECK": "FROM A DECK"}
SCORING_TEXT = {"TOTAL": "TOTAL", "BOXES": "BOXES", "GAME_ONLY": "GAME ONLY", "FLOP": "FLOP",
                "HOLLYWOOD": "HOLLYWOOD"}
# NONE, each suit alone, then both (the card room's "spades doubler is commonly used").
DOUBLER_CHOICES: tuple[tuple[str, ...], ...] = ((), ("SPADES",), ("HEARTS",), ("SPADES", "HEARTS"))
PRESET_NAMES = tuple(rule_options.PRESETS)        # ORIGINAL, CARD ROOM, CLASSIC

# What a preset sets, besides the table rules: the bonuses, and Oklahoma where it names
# it (the engine's ``preset``). The score limit, knocking and everything of the screen
# (big cards, pointer, sort, arranging) stay the player's.
PRESET_ALSO = ("gin_bonus", "undercut_bonus", "oklahoma")


def step(choices: tuple[Any, ...], now: Any, back: bool) -> Any:
    """The next choice after ``now`` (the previous one with ``back``), round again."""
    i = choices.index(now) if now in choices else -1
    return choices[(i + (-1 if back else 1)) % len(choices)]


def with_knock_card(cfg: files.Config, kind: str) -> files.Config:
    """FIXED, OKLAHOMA or DECK: the two fields kept consistent (never both). The
    doublers go with the knock deck, and Oklahoma's upcard with no deal of 11."""
    return settled(cfg.with_(oklahoma=kind == "OKLAHOMA", knock_deck=kind == "DECK"),
                   "oklahoma" if kind == "OKLAHOMA" else "knock_deck")


def settled(cfg: files.Config, chosen: str) -> files.Config:
    """The rules the engine takes together, after the player chose ``chosen``: the rule
    just chosen stays and the ones it cannot go with give way (docs/choices.md). The
    engine refuses the knock deck with Oklahoma, doublers without the knock deck, and
    the deal of 11 with an upcard (Oklahoma's or the offer's)."""
    c = cfg
    if chosen == "doublers" and c.doublers and not c.knock_deck:
        c = c.with_(knock_deck=True, oklahoma=False)         # the doublers read the knock deck
    if chosen in ("oklahoma", "knock_deck") and not c.knock_deck:
        c = c.with_(doublers=())
    if chosen == "deal_eleven" and c.deal_eleven:
        c = c.with_(upcard_offer=False, oklahoma=False)
    if chosen in ("upcard_offer", "oklahoma") and (c.upcard_offer or c.oklahoma):
        c = c.with_(deal_eleven=False)
    return c


@dataclass(frozen=True)
class Rule:
    label: str
    hot: str | int                                # the hot letter, or its index in label
    value: Callable[[files.Config], str]
    change: Callable[[files.Config, bool], files.Config]   # (config, back) -> next config


def _flip(field: str) -> Callable[[files.Config, bool], files.Config]:
    return lambda c, back: settled(c.with_(**{field: not getattr(c, field)}), field)


RULES: tuple[Rule, ...] = (
    Rule("KNOCK CARD", "K", lambda c: KNOCK_CARD_TEXT[c.knock_card],
         lambda c, back: with_knock_card(c, step(KNOCK_CARDS, c.knock_card, back))),
    Rule("SCORING", "S", lambda c: SCORING_TEXT[c.scoring],
         lambda c, back: c.with_(scoring=step(files.SCORINGS, c.scoring, back))),
    Rule("DOUBLERS", "D", lambda c: "+".join(c.doublers) or "NONE",
         lambda c, back: settled(c.with_(doublers=step(DOUBLER_CHOICES, c.doublers, back)), "doublers")),
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


def preset_fields(name: str, cfg: files.Config | None = None) -> dict[str, Any]:
    """The fields the engine's preset (``port.ginrummy.rules.options.preset``) sets, as they come
    out over ``cfg``'s rules: the table rules, the bonuses and Oklahoma."""
    base = (cfg or files.Config()).options()
    out = rule_options.preset(name, base)
    return {k: getattr(out, k) for k in (*files.TABLE_RULES, *PRESET_ALSO)}


def apply_preset(cfg: files.Config, name: str) -> files.Config:
    return cfg.with_(**preset_fields(name, cfg))


def preset_of(cfg: files.Config) -> str | None:
    """The preset the configuration's rules match now, or None (the player's own mix)."""
    for name in PRESET_NAMES:
        if all(getattr(cfg, k) == v for k, v in preset_fields(name, cfg).items()):
            return name
    return None


def summary(cfg: files.Config) -> str:
    """One line for the title screen when the table is not the original's ("" if it is)."""
    name = preset_of(cfg)
    if name == "ORIGINAL":
        return ""
    return f"TABLE RULES {name}" if name else "TABLE RULES OF YOUR OWN"
