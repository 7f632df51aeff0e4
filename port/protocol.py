"""The card room's protocol (v1): the messages, their checks, and the values they carry.

A shared unit, low in the house: the room's server (``port.room``), its bot client and
both games' room pages use it, and it knows no game by import. One JSON object per
WebSocket frame, always with ``"v": 1`` and a ``"type"``; docs/room.md lists every
message with an example.

Two halves:

* **The checks** (``parse``): every message a client sends is parsed here, once, into a
  ``Message`` (its type and its fields, each of the right kind and range) or refused
  with a ``ProtocolError`` whose text is the one sentence the server sends back. The
  game's own rules still refuse an illegal move; this only makes sure that what
  reaches them is of the right shape.
* **The values** (``encode``/``decode``): the engines' frozen dataclasses (a seat's
  ``View``, an ``Event``, a ``Settlement``, the ``Options``) as JSON and back, led by
  their type hints: a card is its text ("AS"), an enum its value, a tuple a list. A
  bot client rebuilds exactly the ``View`` the server's engine made, and plays through
  the same player interface as the match runner.
"""
from __future__ import annotations

import dataclasses
import enum
import json
import math
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from port.cards import Card, card

VERSION = 1
MAX_BYTES = 16 * 1024          # a larger frame is refused (the server closes nothing for it)
NAME_MAX = 16
CHAT_MAX = 80
PASSWORD_MAX = 128
ID_MAX = 40
GAMES = ("ginrummy", "cribbage")
LEVELS = ("easy", "standard", "expert")      # the computer levels: the house bots' names and a seek's fallback


class ProtocolError(ValueError):
    """A message the room does not take: ``str(error)`` is the sentence sent back."""


# ---- the checks ------------------------------------------------------------------------------

@dataclass(frozen=True)
class Field:
    """One field of a message: its kind, whether it must be there, its range."""

    kind: str                       # "str", "int", "number", "bool", "object", "choice"
    required: bool = True
    low: int = 0                    # str: the least length; int, number: the least value
    high: int = 0                   # str: the most length; int, number: the most value
    choices: tuple[str, ...] = ()


def _s(high: int, low: int = 1, required: bool = True) -> Field:
    return Field("str", required, low, high)


def _i(low: int, high: int, required: bool = True) -> Field:
    return Field("int", required, low, high)


_B = Field("bool")
_OB = Field("bool", required=False)
_OBJ = Field("object")
_OOBJ = Field("object", required=False)
_TABLE = _s(ID_MAX)
_ID = _s(ID_MAX)
_CLOCK = _i(0, 3600, required=False)

# What a client may send: each type with its fields (docs/room.md, "From a client").
CLIENT: dict[str, dict[str, Field]] = {
    "register": {"name": _s(NAME_MAX), "password": _s(PASSWORD_MAX), "bot": _OB},
    "login": {"name": _s(NAME_MAX), "password": _s(PASSWORD_MAX), "token": _s(64, required=False)},
    "guest": {},
    "resume": {"token": _s(64)},
    "lobby": {"watch": _OB, "game": Field("choice", required=False, choices=GAMES)},
    "invite": {"to": _s(NAME_MAX), "game": Field("choice", choices=GAMES), "rules": _OOBJ,
               "clock": _CLOCK},
    "counter": {"id": _ID, "rules": _OOBJ, "clock": _CLOCK},
    "accept": {"id": _ID},
    "decline": {"id": _ID},
    "cancel": {"id": _ID},
    "move": {"table": _TABLE, "move": _OBJ},
    "sync": {"table": _TABLE, "since": _i(0, 1_000_000, required=False)},
    "shown": {"table": _TABLE, "seq": _i(1, 1_000_000)},
    "resign": {"table": _TABLE},
    "rematch": {"table": _TABLE},
    "chat": {"table": _TABLE, "text": _s(CHAT_MAX)},
    "mute": {"table": _TABLE, "on": _B},
    "watch": {"table": _s(ID_MAX, required=False), "name": _s(NAME_MAX, required=False),
              "since": _i(0, 1_000_000, required=False)},
    "unwatch": {"table": _TABLE},
    "games": {"name": _s(NAME_MAX, required=False)},
    "game": {"number": _i(1, 2**31 - 1)},
    "top": {"game": Field("choice", choices=GAMES), "provisional": _OB, "start": _i(0, 10_000, required=False)},
    "profile": {"name": _s(NAME_MAX)},
    # A client's clock, echoed: any JSON number (a page's performance.now() has a
    # fraction), within what a double holds exactly as a whole number.
    "ping": {"t": Field("number", False, -2**53, 2**53)},
    "bye": {},
    "logout": {},
    "password": {"old": _s(PASSWORD_MAX), "new": _s(PASSWORD_MAX)},
    # PLAY NOW (a seek: paired with a person whose seek fits, else a house bot) and blocks
    "seek": {"game": Field("choice", choices=GAMES), "rules": _OOBJ, "clock": _CLOCK,
             "level": Field("choice", required=False, choices=LEVELS)},
    "cancel_seek": {},
    "block": {"name": _s(NAME_MAX)},
    "unblock": {"name": _s(NAME_MAX)},
    "blocks": {},
}


@dataclass(frozen=True)
class Message:
    """A client's message, checked: its type and its fields (absent optional ones are
    simply not in ``fields``)."""

    type: str
    fields: Mapping[str, Any]

    def get(self, name: str, default: Any = None) -> Any:
        return self.fields.get(name, default)

    def __getitem__(self, name: str) -> Any:
        return self.fields[name]


def parse(raw: str | bytes) -> Message:
    """One frame from a client, checked, or ``ProtocolError`` with the sentence to send."""
    if len(raw) > MAX_BYTES:
        raise ProtocolError(f"a message is at most {MAX_BYTES} bytes; this one has {len(raw)}")
    if isinstance(raw, bytes):
        try:
            raw = raw.decode("utf-8")
        except UnicodeDecodeError:
            raise ProtocolError("a message is JSON text in UTF-8") from None
    try:
        data = _fast_loads(raw)
    except ValueError:           # not JSON to orjson: json says what the room answers
        try:
            data = json.loads(raw, parse_constant=_no_constant)
        except (ValueError, RecursionError):
            raise ProtocolError("a message is one JSON object; this one is not JSON") from None
    if not isinstance(data, dict):
        raise ProtocolError("a message is one JSON object, not a " + _json_kind(data))
    if data.get("v") != VERSION:
        raise ProtocolError(f"this room speaks version {VERSION} of the protocol: send \"v\": {VERSION}")
    kind = data.get("type")
    if not isinstance(kind, str):
        raise ProtocolError("a message needs a \"type\", a string")
    spec = CLIENT.get(kind)
    if spec is None:
        shown = kind if len(kind) <= 20 else kind[:20] + "..."
        raise ProtocolError(f"there is no message type {shown!r}")
    fields: dict[str, Any] = {}
    for name, value in data.items():
        if name in ("v", "type"):
            continue
        field = spec.get(name)
        if field is None:
            shown = name if len(name) <= 20 else name[:20] + "..."
            raise ProtocolError(f"a {kind} message has no field {shown!r}")
        fields[name] = _check(kind, name, field, value)
    for name, field in spec.items():
        if field.required and name not in fields:
            raise ProtocolError(f"a {kind} message needs its {name!r} field")
    return Message(kind, fields)


try:
    # orjson reads a message about four times faster than json and to the same values;
    # what it refuses (NaN, a number past 64 bits, a lone surrogate, deep nesting) json
    # reads again, so the room's answer to such a message is the same (docs/room-bench.md).
    from orjson import loads as _fast_loads
except ImportError:              # pragma: no cover - a room without it reads with json
    def _fast_loads(raw: str) -> Any:
        raise ValueError("no orjson")


def _no_constant(name: str) -> None:
    raise ValueError(name)       # NaN, Infinity: not JSON


def _json_kind(value: object) -> str:
    return {list: "list", str: "string", int: "number", float: "number", bool: "true or false",
            type(None): "null"}.get(type(value), "value")


def _check(kind: str, name: str, field: Field, value: object) -> Any:
    where = f"the {kind} message's {name!r}"
    if field.kind in ("str", "choice"):
        if not isinstance(value, str):
            raise ProtocolError(f"{where} is a string, not a {_json_kind(value)}")
        if field.kind == "choice":
            if value not in field.choices:
                raise ProtocolError(f"{where} is one of {', '.join(field.choices)}")
            return value
        if not field.low <= len(value) <= field.high:
            raise ProtocolError(f"{where} is {field.low} to {field.high} characters long, not {len(value)}")
        if any(ord(ch) < 32 or ord(ch) == 127 for ch in value):
            raise ProtocolError(f"{where} holds a control character")
        return value
    if field.kind == "int":
        if type(value) is not int:
            raise ProtocolError(f"{where} is a whole number, not a {_json_kind(value)}")
        if not field.low <= value <= field.high:
            raise ProtocolError(f"{where} is {field.low} to {field.high}, not {value}")
        return value
    if field.kind == "number":
        if type(value) not in (int, float):
            raise ProtocolError(f"{where} is a number, not a {_json_kind(value)}")
        if not field.low <= value <= field.high:          # 1e999 reads as inf: out of range too
            raise ProtocolError(f"{where} is {field.low} to {field.high}, not {value:.6g}")
        return value
    if field.kind == "bool":
        if type(value) is not bool:
            raise ProtocolError(f"{where} is true or false, not a {_json_kind(value)}")
        return value
    if not isinstance(value, dict):
        raise ProtocolError(f"{where} is a JSON object, not a {_json_kind(value)}")
    if len(value) > 40 or any(not isinstance(v, (str, int, bool, list)) or isinstance(v, float)
                              for v in value.values()):
        raise ProtocolError(f"{where} holds at most 40 plain values (strings, numbers, true or false, lists)")
    return value


def dump(kind: str, /, **fields: Any) -> str:
    """A message from the server, as the JSON text of one frame."""
    return json.dumps({"v": VERSION, "type": kind, **fields}, separators=(",", ":"))


def dumps(message: Mapping[str, Any]) -> str:
    """A message already made as a dict (with its "type"), as the JSON text of one frame."""
    return json.dumps({"v": VERSION, **message}, separators=(",", ":"))


# ---- the values ------------------------------------------------------------------------------

def encode(value: Any, hint: Any = None) -> Any:
    """An engine's value as JSON: a dataclass as an object of its fields, a card as its
    text, an enum as its value, a tuple as a list. ``hint`` (a type) says what the value
    is where the value alone cannot (a card held as a plain int)."""
    if hint is not None:
        return _encoder(hint)(value)
    return _encode_any(value)


def _encode_any(value: Any) -> Any:
    if isinstance(value, Card):
        return str(value)
    if isinstance(value, enum.Enum):
        return value.value
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return _encoder(type(value))(value)
    if isinstance(value, (tuple, list)):
        return [_encode_any(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _encode_any(v) for k, v in value.items()}
    return value


def decode(hint: Any, data: Any) -> Any:
    """The value of type ``hint`` that ``encode`` gave ``data`` for; ``ProtocolError``
    (one sentence) when the data is not of that shape."""
    try:
        return _decoder(hint)(data)
    except ProtocolError:
        raise
    except (TypeError, ValueError, KeyError, AttributeError) as exc:
        raise ProtocolError(f"cannot read a {_name(hint)}: {exc}") from None


def _name(hint: Any) -> str:
    return getattr(hint, "__name__", str(hint))


@cache
def _hints(cls: type) -> tuple[tuple[str, Any], ...]:
    hints = typing.get_type_hints(cls)
    return tuple((f.name, hints[f.name]) for f in dataclasses.fields(cls))


def _parts(hint: Any) -> tuple[Any, tuple[Any, ...]]:
    return typing.get_origin(hint), typing.get_args(hint)


def _same(v: Any) -> Any:
    return v


_CARD_TEXT: dict[int, str] = {n: str(Card(n)) for n in range(52)}   # a card's text by its number
_CARD_OF: dict[str, Card] = {t: Card(n) for n, t in _CARD_TEXT.items()}


@cache
def _encoder(hint: Any) -> Callable[[Any], Any]:
    origin, args = _parts(hint)
    if hint is Card:
        return _card_text
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        if len(rest) == 1:                       # X | None: X's own encoder, or null
            some = _encoder(rest[0])
            return lambda v: None if v is None else some(v)
        return _encode_any
    if hint is int or hint is str or hint is bool or hint is float:
        return _same
    if origin in (tuple, list):
        if len(args) == 2 and args[1] is Ellipsis or origin is list:
            inner = _encoder(args[0]) if args else _encode_any
            if inner is _same:
                return list
            return lambda v: [inner(x) for x in v]
        each = [_encoder(a) for a in args]
        return lambda v: [f(x) for f, x in zip(each, v)]
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return lambda v: v.value
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        fields = [(name, _encoder(h)) for name, h in _hints(hint)]

        def fresh(v: Any) -> dict[str, Any]:
            return {name: f(getattr(v, name)) for name, f in fields}
        if hint.__dataclass_params__.frozen and not hint.__name__.endswith("View"):   # type: ignore[attr-defined]
            return _remembered(fresh)
        return fresh
    return _encode_any


def _remembered(fresh: Callable[[Any], dict[str, Any]]) -> Callable[[Any], dict[str, Any]]:
    """A frozen value's encoding, made once: a seat's View changes with every message,
    but the small values in it (its events, its options, a count's scores) repeat, and
    an equal frozen value encodes the same. The dicts given out are shared: read only."""
    memo: dict[Any, dict[str, Any]] = {}
    # The same object again (a hand's events are kept and said again in every view of
    # it) is found by its id first: hashing a frozen dataclass hashes all its fields, and
    # that was a third of a view's encoding. The object is held with its encoding, so
    # its id is not reused while it is here.
    same: dict[int, tuple[Any, dict[str, Any]]] = {}

    def encode_once(v: Any) -> dict[str, Any]:
        held = same.get(id(v))
        if held is not None and held[0] is v:
            return held[1]
        try:
            got = memo.get(v)
        except TypeError:                  # a frozen value holding a list: not hashable
            return fresh(v)
        if got is None:
            if len(memo) >= _MEMO_MAX:
                memo.clear()
            got = memo[v] = fresh(v)
        if len(same) >= _MEMO_MAX:
            same.clear()
        same[id(v)] = (v, got)
        return got
    return encode_once


_MEMO_MAX = 50_000      # encodings kept per type, then forgotten all at once


@cache
def _decoder(hint: Any) -> Callable[[Any], Any]:
    origin, args = _parts(hint)
    if hint is Card:
        return _card
    if hint is Any or hint is object:
        return lambda d: d
    if origin in (typing.Union, types.UnionType):
        rest = [a for a in args if a is not type(None)]
        inner = _decoder(rest[0]) if len(rest) == 1 else (lambda d: d)
        return lambda d: None if d is None else inner(d)
    if origin in (tuple, list):
        make = tuple if origin is tuple else list
        if len(args) == 2 and args[1] is Ellipsis or origin is list:
            inner = _decoder(args[0]) if args else (lambda d: d)
            return lambda d: make(inner(x) for x in _list(d, hint))
        each = [_decoder(a) for a in args]

        def fixed(d: Any) -> Any:
            items = _list(d, hint)
            if len(items) != len(each):
                raise ProtocolError(f"a {_name(hint)} has {len(each)} items, not {len(items)}")
            return make(f(x) for f, x in zip(each, items))
        return fixed
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        return hint
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        return _dataclass_decoder(hint)
    if hint is bool:
        return lambda d: _exact(d, bool, "true or false")
    if hint is int:
        return lambda d: _exact(d, int, "a whole number")
    if hint is float:
        return _number
    if hint is str:
        return lambda d: _exact(d, str, "a string")
    return lambda d: d


def _card_text(v: Any) -> str:
    text = _CARD_TEXT.get(v)
    return text if text is not None else str(Card(v))


def _dataclass_decoder(cls: type) -> Callable[[Any], Any]:
    fields = [(name, _decoder(h)) for name, h in _hints(cls)]

    def make(d: Any) -> Any:
        if not isinstance(d, dict):
            raise ProtocolError(f"a {cls.__name__} is a JSON object")
        return cls(**{name: f(d[name]) for name, f in fields if name in d})
    return make


def _card(d: Any) -> Card:
    got = _CARD_OF.get(d) if isinstance(d, str) else None
    if got is None:
        if not isinstance(d, str):
            raise ProtocolError(f"a card is its text, such as \"AS\", not {d!r}")
        return card(d)       # another spelling the Cards unit reads ("as"), or its one sentence
    return got


def _list(d: Any, hint: Any) -> list[Any]:
    if not isinstance(d, list):
        raise ProtocolError(f"a {_name(hint)} is a JSON list")
    return d


def _exact(d: Any, kind: type, words: str) -> Any:
    if type(d) is not kind:
        raise ProtocolError(f"{d!r} is not {words}")
    return d


def _number(d: Any) -> float:
    if type(d) not in (int, float) or not math.isfinite(d):
        raise ProtocolError(f"{d!r} is not a number")
    return float(d)


__all__ = ["CHAT_MAX", "CLIENT", "GAMES", "LEVELS", "MAX_BYTES", "Message", "NAME_MAX", "ProtocolError", "VERSION",
           "decode", "dump", "dumps", "encode", "parse"]
