"""The players of a statistics file, as both games keep them.

Both documentations say the same: "You can have up to 20 different names currently
running in this stats file. If the current player name is not found in this file, it
is added to the top of the file with zero totals. WARNING, if this addition makes more
than 20 names, the name on the bottom of the list (the oldest) is truncated." A name is
at most 8 characters ("Paul Schoenberger will give you Schoenbe"). What a player's
totals are is each game's own (``port.ginrummy.files.PlayerStats``); anything with a
``name`` goes in the list.
"""
from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

from port.files.records import FileError

DEFAULT_NAME = "PLAYER"     # the documentation: "The default name is 'PLAYER'"
NAME_MAX = 8                # "The name can be a maximum of 8 characters long"
MAX_PLAYERS = 20            # "up to 20 different names currently running in this stats file"
# The characters GinRummy's NAME field takes (Cribbage's takes . and , too): letters,
# digits, ! " - : / ? and the space. The options menus and the room's names use them.
NAME_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" + '!"-:/? ')


class Named(Protocol):
    @property
    def name(self) -> str: ...


P = TypeVar("P", bound=Named)


def clean_name(text: str) -> str:
    """A player name as stored: control characters dropped, at most 8 characters.

    An empty result is the default name, so a stats line never has a blank name.
    """
    kept = "".join(ch for ch in text if ch.isprintable())[:NAME_MAX]
    return kept if kept.strip() else DEFAULT_NAME


def plain(text: str) -> str:
    """Text as the player sees it: each byte that was not UTF-8 (a command-line word or a
    path from a system that is not UTF-8, which Python keeps as a lone surrogate) is a
    "?". Such text cannot be drawn, printed or written to a file; a name made of it
    becomes a plain name ("?" is a character the options menu allows in names)."""
    if text.isascii():
        return text
    return "".join("?" if 0xD800 <= ord(ch) <= 0xDFFF else ch for ch in text)


QUOTE_MAX = 60              # characters of a word a message quotes: the message stays one line


def cut(text: str, limit: int = QUOTE_MAX) -> str:
    """Text as a message shows it: printable (``plain``), and a long one cut to ``limit``
    characters, saying so and how long it was (a 5,000-character word is never echoed
    whole)."""
    text = plain(text)
    return text if len(text) <= limit else f"{text[:limit - 3]}... ({len(text):,} characters, cut)"


def quoted(text: str, limit: int = QUOTE_MAX) -> str:
    """Text quoted in a message, as ``repr`` would, but cut as ``cut`` cuts it (the note
    outside the quotes): ``'AAAA'... (5,000 characters, cut)``."""
    text = plain(text)
    return repr(text) if len(text) <= limit else f"{text[:limit - 3]!r}... ({len(text):,} characters, cut)"


def check_name(name: object) -> None:
    if not isinstance(name, str) or len(name) > NAME_MAX or not name.isprintable() or not name.strip():
        raise FileError(f"bad player name {name!r}")


def unique(players: Iterable[P]) -> list[P]:
    """The list as a file may hold it: each name once (the first kept), at most 20."""
    seen: set[str] = set()
    out = []
    for p in players:
        if p.name not in seen:
            seen.add(p.name)
            out.append(p)
    return out[:MAX_PLAYERS]


def find(players: Iterable[P], name: str) -> P | None:
    return next((p for p in players if p.name == name), None)


def put(players: list[P], player: P) -> list[P]:
    """The list with a player's new totals: a known name keeps its place (Cribbage 2.0's
    history fixed a bug that overwrote the first name); a new one goes on top and past
    20 the bottom one is dropped."""
    if find(players, player.name) is not None:
        return [player if p.name == player.name else p for p in players]
    return [player, *players][:MAX_PLAYERS]
