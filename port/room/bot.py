"""``python -m port.room.bot``: a computer level or a bot file as a player of the room.

    python -m port.room.bot --room ws://127.0.0.1:7300 --name Stan --password pw --player standard
    python -m port.room.bot --name Ed --password pw --player expert --game cribbage --accept "limit=121"
    python -m port.room.bot --name Mybot --password pw --player path/to/bot.py:MyBot --invite Stan --games 10
    python -m port.room.bot --name Ed --password pw --seek expert --games 3     # PLAY NOW: a person, else House Expert

It logs in as a BOT account (made on first use), then either waits for invitations
(accepting those within ``--accept``; proposing back the allowed values once, then
declining) or, with ``--invite NAME``, invites NAME and, after each game, invites
again, or, with ``--seek [LEVEL]``, asks the room for a game (PLAY NOW: the first
person whose seek fits, else after the room's wait the house bot of LEVEL, default
standard) and again after each game, until ``--games N`` games have been played; it prints one line per finished
game and exits 0. It plays through the player interface (``port.room.seat``), fed
exactly what its seat is told, as in the match runner. A dropped connection is
retried with backoff and the position taken up where it was (``sync``). A bot that
raises or answers with a move the rules refuse resigns that game, and plays on.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import sys
import traceback
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from port.protocol import GAMES, LEVELS, VERSION
from port.room.seat import Seat, seat_for

PROG = "python -m port.room.bot"
EXIT_USAGE = 2


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> None:
        print(f"{PROG}: {message}", file=sys.stderr)
        raise SystemExit(EXIT_USAGE)


def parser() -> argparse.ArgumentParser:
    p = _Parser(prog=PROG, description="A level or a bot file as a player of the card room.")
    p.add_argument("--room", "--server", dest="server", metavar="URL", default="ws://127.0.0.1:7300",
                   help="the room's address, as the programs' --room (--server: the same; default "
                        "ws://127.0.0.1:7300)")
    p.add_argument("--name", required=True, help="the bot's account (made as a BOT account on first use)")
    p.add_argument("--password", required=True)
    p.add_argument("--player", default="standard",
                   help="easy, standard, expert, or path/to/bot.py:Name (the player interface)")
    p.add_argument("--game", default="ginrummy", choices=GAMES, help="the game it invites to, or accepts")
    p.add_argument("--accept", default="", metavar="RULES",
                   help='the rules it accepts, "rule=value|value,...": "score_limit=100|150,oklahoma=false"; '
                        "any rules without it")
    p.add_argument("--invite", metavar="NAME", help="invite NAME (and again after each game)")
    p.add_argument("--seek", nargs="?", const="standard", choices=LEVELS, metavar="LEVEL",
                   help="PLAY NOW: paired with the first person whose seek fits, else with the room's house bot "
                        "of LEVEL (easy, standard, expert; default standard); again after each game")
    p.add_argument("--rules", default="", metavar="RULES",
                   help='the rules it invites (or seeks) with: "score_limit=150,clock=30"')
    p.add_argument("--games", type=int, default=0, help="stop after this many games (0: play on)")
    p.add_argument("--seed", type=int, default=0, help="the player's own seed (game n of the run uses SEED+n)")
    p.add_argument("--retries", type=int, default=10, help="connection attempts in a row before giving up")
    p.add_argument("--quiet", action="store_true", help="print only the finished games")
    return p


def value_of(text: str) -> Any:
    """A rule's value as written on the command line: true/false, a number, a list of
    words (spades+hearts), or a word."""
    low = text.strip().lower()
    if low in ("true", "false", "yes", "no", "on", "off"):
        return low in ("true", "yes", "on")
    try:
        return int(low)
    except ValueError:
        pass
    if "+" in text:
        return [w.strip().upper() for w in text.split("+") if w.strip()]
    if low in ("none", "[]"):
        return []
    return text.strip().upper() if text.strip().isalpha() and text.strip().upper() == text.strip().upper() else text.strip()


def rules_of(text: str) -> dict[str, list[Any]]:
    """``"a=1|2,b=true"`` as {rule: allowed values}; ValueError (one sentence) if malformed."""
    out: dict[str, list[Any]] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, eq, values = part.partition("=")
        if not eq or not name.strip() or not values.strip():
            raise ValueError(f"{part!r} is not rule=value (several values: rule=a|b)")
        out[name.strip()] = [value_of(v) for v in values.split("|")]
    return out


@dataclass
class Bot:
    """The room client's state: its tables' seats, what it waits for, its tally."""

    args: argparse.Namespace
    load: Callable[[str, int], Any]
    accept: dict[str, list[Any]]
    invite_rules: dict[str, Any]
    ws: Any = None
    token: str | None = None
    me: str = ""
    seats: dict[str, Seat] = field(default_factory=dict)
    seqs: dict[str, int] = field(default_factory=dict)
    syncing: dict[str, dict[str, Any] | None] = field(default_factory=dict)
    countered: set[str] = field(default_factory=set)
    finished: set[str] = field(default_factory=set)
    names: dict[str, str] = field(default_factory=dict)     # table -> "A v B (game)"
    started: int = 0
    done: int = 0
    inviting: bool = False

    def say(self, text: str) -> None:
        if not self.args.quiet:
            print(text, flush=True)

    async def send(self, kind: str, **fields: Any) -> None:
        await self.ws.send(json.dumps({"v": VERSION, "type": kind, **fields}))

    # ---- the session --------------------------------------------------------------------

    async def login(self) -> None:
        if self.token is not None:
            await self.send("resume", token=self.token)
            reply = await self._reply(("welcome", "error"))
            if reply["type"] == "welcome":
                await self._welcome(reply)
                return
        await self.send("login", name=self.args.name, password=self.args.password)
        reply = await self._reply(("welcome", "error"))
        if reply["type"] == "error" and reply.get("reason", "").startswith("there is no account"):
            await self.send("register", name=self.args.name, password=self.args.password, bot=True)
            reply = await self._reply(("welcome", "error"))
        if reply["type"] == "error":
            raise Fatal(f"the room refused {self.args.name}: {reply.get('reason')}")
        await self._welcome(reply)

    async def _reply(self, kinds: tuple[str, ...]) -> dict[str, Any]:
        while True:
            msg = json.loads(await self.ws.recv())
            if msg.get("type") in kinds:
                return msg
            await self.handle(msg)

    async def _welcome(self, msg: dict[str, Any]) -> None:
        self.token, self.me = msg["token"], msg["name"]
        self.say(f"{self.me} is in the room at {self.args.server}")
        await self.send("lobby", game=self.args.game)     # which game's lobby shows it plainly
        tables = await self._reply(("tables",))
        for t in tables.get("tables", []):
            if not t.get("over") and t.get("seat") is not None:
                await self._take_up(t["table"], t["game"], int(t["seat"]))
        if self.args.invite and not self.seats_playing():
            await self.invite()
        if self.args.seek and not self.seats_playing():
            await self.seek()

    def seats_playing(self) -> bool:
        return any(t not in self.finished for t in self.seats)

    async def _take_up(self, table: str, game: str, seat: int) -> None:
        """A table this bot sits at: go on from the last message it saw (from the start,
        with a fresh player, if this process has never seen it)."""
        if table not in self.seats:
            self.seats[table] = seat_for(game, self.load(self.args.player, self.args.seed + self.started))
            self.started += 1
            self.seqs[table] = 0
        self.syncing[table] = None
        await self.send("sync", table=table, since=self.seqs[table])
        await self.send("ping", t=_sync_mark(table))

    async def invite(self) -> None:
        rules = {k: v for k, v in self.invite_rules.items() if k != "clock"}
        clock = self.invite_rules.get("clock")
        fields: dict[str, Any] = {"to": self.args.invite, "game": self.args.game, "rules": rules}
        if clock is not None:
            fields["clock"] = clock
        self.inviting = True
        await self.send("invite", **fields)

    async def seek(self) -> None:
        """PLAY NOW: the game, the rules and clock of ``--rules`` (the others: any)."""
        rules = {k: v for k, v in self.invite_rules.items() if k != "clock"}
        clock = self.invite_rules.get("clock")
        await self.send("seek", game=self.args.game, rules=rules, level=self.args.seek,
                        **({"clock": clock} if clock is not None else {}))

    # ---- what the room says -----------------------------------------------------------------

    async def handle(self, msg: dict[str, Any]) -> bool:
        """One message; True when the run is over (``--games`` reached)."""
        kind = msg.get("type")
        table = msg.get("table")
        if "seq" in msg and table in self.seats:
            await self._stream(table, msg)
        elif kind == "start":
            self.names[table] = f"{msg['players'][0]} v {msg['players'][1]} ({msg['game']})"
            self.seats[table] = seat_for(msg["game"], self.load(self.args.player, self.args.seed + self.started))
            self.started += 1
            self.seqs[table] = 0
        elif kind == "pong" and isinstance(msg.get("t"), int) and msg["t"] < 0:
            await self._synced(msg["t"])
        elif kind == "invitation":
            await self._invitation(msg)
        elif kind == "invitation_closed" and self.args.invite and not self.seats_playing():
            if "accepted" not in msg.get("why", ""):
                self.say(f"invitation {msg.get('why')}; inviting again in 2 s")
                await asyncio.sleep(2.0)
                await self.invite()
        elif kind == "seek_closed" and not str(msg.get("why", "")).startswith("paired"):
            self.say(f"PLAY NOW: {msg.get('why')}; again in 2 s")
            await asyncio.sleep(2.0)
            await self.seek()
        elif kind == "seek_closed":
            self.say(f"PLAY NOW: {msg.get('why')}")
        elif kind == "game_end":
            return await self._game_end(msg)
        elif kind == "error":
            await self._error(msg)
        elif kind == "timeout" and msg.get("name") == self.me:
            self.say(f"table {table}: the clock moved for {self.me}")
        return False

    async def _stream(self, table: str, msg: dict[str, Any]) -> None:
        if msg["seq"] <= self.seqs[table]:
            return                  # said again by a sync: seen already
        self.seqs[table] = msg["seq"]
        try:
            move = self.seats[table].feed(msg)
        except Exception as exc:    # the bot's own fault: it costs this game only
            await self._bot_failed(table, exc)
            return
        if table in self.syncing:
            # Said again by a sync: only an ask that is the last of it is still open.
            self.syncing[table] = move if msg["type"] == "ask" else None
        elif move is not None:
            await self.send("move", table=table, move=move)

    async def _synced(self, mark: int) -> None:
        for table in list(self.syncing):
            if _sync_mark(table) == mark:
                move = self.syncing.pop(table)
                if move is not None:
                    await self.send("move", table=table, move=move)

    async def _bot_failed(self, table: str, exc: BaseException) -> None:
        where = traceback.extract_tb(exc.__traceback__)[-1] if exc.__traceback__ else None
        at = f" ({where.filename}:{where.lineno})" if where else ""
        print(f"{PROG}: {self.args.player} failed at table {table}: {type(exc).__name__}: {exc}{at}; it resigns that game",
              file=sys.stderr, flush=True)
        await self.send("resign", table=table)

    async def _error(self, msg: dict[str, Any]) -> None:
        if msg.get("refused") == "move" and msg.get("table") in self.seats:
            print(f"{PROG}: the room refused {self.args.player}'s move at table {msg['table']}: "
                  f"{msg.get('reason')}; it resigns that game", file=sys.stderr, flush=True)
            await self.send("resign", table=msg["table"])
        elif msg.get("refused") == "seek" and self.args.seek:
            self.say(f"cannot look for a game yet ({msg.get('reason')}); again in 2 s")
            await asyncio.sleep(2.0)
            await self.seek()
        elif msg.get("refused") == "invite" and self.args.invite:
            self.say(f"cannot invite {self.args.invite} yet ({msg.get('reason')}); again in 2 s")
            await asyncio.sleep(2.0)
            await self.invite()
        else:
            self.say(f"the room says: {msg.get('reason')}")

    async def _invitation(self, msg: dict[str, Any]) -> None:
        if msg.get("proposer") == self.me:
            return                   # ours: the other side answers
        if msg["game"] != self.args.game and not self.args.invite:
            await self.send("decline", id=msg["id"])
            return
        wanted = self._counter(msg)
        if not wanted:
            await self.send("accept", id=msg["id"])
        elif msg["id"] not in self.countered:
            self.countered.add(msg["id"])
            await self.send("counter", id=msg["id"], **wanted)
        else:
            await self.send("decline", id=msg["id"])

    def _counter(self, msg: dict[str, Any]) -> dict[str, Any]:
        """What to propose back for the rules ``--accept`` does not allow (empty: accept)."""
        rules: dict[str, Any] = {}
        out: dict[str, Any] = {}
        for name, allowed in self.accept.items():
            have = msg.get("clock") if name == "clock" else msg["rules"].get(name)
            if have in allowed or (isinstance(have, list) and sorted(have) in [sorted(a) for a in allowed
                                                                                if isinstance(a, list)]):
                continue
            if name == "clock":
                out["clock"] = allowed[0]
            else:
                rules[name] = allowed[0]
        if rules:
            out["rules"] = rules
        return out

    async def _game_end(self, msg: dict[str, Any]) -> bool:
        table = msg["table"]
        if table in self.finished:
            return False
        self.finished.add(table)
        self.done += 1
        scores = msg.get("scores", [])
        result = f"{msg['winner']} won" if msg.get("winner") else "drawn"
        how = {"played": "", "resigned": ", resigned", "clock": ", forfeited on the clock",
               "away": ", forfeited (gone)"}.get(msg.get("how", ""), "")
        print(f"game {msg.get('number')}: {self._players(table)}: {result} {'-'.join(map(str, scores))}{how}", flush=True)
        if self.args.games and self.done >= self.args.games:
            return True
        if self.args.invite:
            await self.invite()
        elif self.args.seek:
            await self.seek()
        return False

    def _players(self, table: str) -> str:
        return self.names.get(table, f"table {table}")


class Fatal(Exception):
    """The run cannot go on: one sentence, exit 2."""


def _sync_mark(table: str) -> int:
    """A ping's number that marks the end of a table's sync (negative: never a clock's)."""
    return -(abs(hash(table)) % 2**31) - 1


async def run(args: argparse.Namespace, load: Callable[[str, int], Any]) -> int:
    from websockets.asyncio.client import connect
    from websockets.exceptions import ConnectionClosed, InvalidHandshake, InvalidURI

    try:
        accept = rules_of(args.accept)
        invite_rules = {k: v[0] for k, v in rules_of(args.rules).items()}
    except ValueError as exc:
        raise Fatal(str(exc)) from None
    bot = Bot(args, load, accept, invite_rules)
    failures, delay = 0, 0.5
    while True:
        try:
            async with connect(args.server, max_size=2**22, open_timeout=10) as ws:
                bot.ws = ws
                await bot.login()
                failures, delay = 0, 0.5
                async for raw in ws:
                    if await bot.handle(json.loads(raw)):
                        await bot.send("bye")
                        return 0
        except InvalidURI:
            raise Fatal(f"{args.server} is not a room's address (ws://HOST:PORT)") from None
        except (OSError, ConnectionClosed, InvalidHandshake, asyncio.TimeoutError, TimeoutError) as exc:
            failures += 1
            if failures >= args.retries:
                raise Fatal(f"cannot reach the room at {args.server} ({type(exc).__name__})") from None
            bot.say(f"connection lost ({type(exc).__name__}); again in {delay:.1f} s")
            bot.syncing.clear()
            await asyncio.sleep(delay)
            delay = min(delay * 2, 30.0)


def loader(game: str) -> Callable[[str, int], Any]:
    """The game's way of naming a player (a level or a bot file), for both games."""
    from port.cribbage.levels import load_player as crib_player
    from port.ginrummy.levels import load_player as gin_player

    loads = {"ginrummy": gin_player, "cribbage": crib_player}

    def load(spec: str, seed: int) -> Any:
        return loads[game](spec, seed)
    return load


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    if args.games < 0:
        parser().error("--games is 0 or more")
    if args.seek and args.invite:
        parser().error("--seek and --invite: one or the other")
    load = loader(args.game)
    try:
        load(args.player, 0)
    except Exception as exc:    # a bot file that does not load: one sentence
        print(f"{PROG}: cannot load the player {args.player!r}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    try:
        return asyncio.run(run(args, load))
    except Fatal as exc:
        print(f"{PROG}: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 0


if __name__ == "__main__":
    sys.exit(main())
