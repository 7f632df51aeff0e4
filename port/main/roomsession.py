"""The card room as both programs' pages see it: one session, polled once a frame.

A shared unit (it knows no game): ``RoomSession`` sits on ``port.client.RoomClient``
and sorts what the room says into what the pages draw: who is in the room (``players``),
the invitations open (``invitations``), and each table the player sits at
(``TableLink``: its stream of the game, its clock, chat, absences and end). The
connection page, the lobby and the invitation page read the session; a game's room
screen reads its ``TableLink`` and plays through it (``move``, ``chat``, ``resign``).

Nothing here blocks a frame, and nothing is lost on a drop: the client reconnects on
its own and syncs each table from the last ``seq`` seen, so the stream a ``TableLink``
gives is the seat's whole stream, in order, each message once.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from port.client import RoomClient, Transport

DEFAULT_URL = "ws://127.0.0.1:7300"
STREAM = ("deal", "event", "ask", "hand_end")        # the seat's numbered stream
CHAT_KEPT = 50                                        # chat lines a table keeps
SEEK_FIELDS = ("game", "rules", "clock", "level")    # what a seek says to the room
SYNC_WAIT = 5.0                                       # seconds a rejoin waits for its whole stream
ANSWER_WAIT = 10.0                                    # seconds an invitation sent waits to be heard of


@dataclass
class TableLink:
    """One table the player sits at: what the room said of it, and how to act on it."""

    session: RoomSession
    table: str
    game: str
    seat: int
    players: list[str]
    rules: dict[str, Any]
    clock: int                                       # seconds a decision; 0: no clock
    inbox: list[dict[str, Any]] = field(default_factory=list)
    chat_lines: list[tuple[str, str]] = field(default_factory=list)
    muted: bool = False
    clock_seat: int | None = None                    # whose decision the clock times
    clock_left: float = 0.0                          # its seconds when last told
    clock_told: float = 0.0                          # when (the session's clock)
    clock_running: bool = True                       # False: it waits for the question to be shown
    shown_seq: int = 0                               # the last question said to be on the screen
    away: dict[str, float] = field(default_factory=dict)   # name -> when the grace ends
    timeouts: list[dict[str, Any]] = field(default_factory=list)
    end: dict[str, Any] | None = None                # the game_end message
    rematch_from: str | None = None                  # the other asked for a rematch
    error: str = ""                                  # the last move the room refused, why
    stalled: str = ""                                # the room cannot keep moves now (its disk is full), why
    seq_seen: int = 0                                # the last stream message heard
    watching: bool = False                           # a table watched, not played: its public stream
    sync_to: int = 0                                 # coming back: the seq the room is at
    hold_until: float = 0.0                          # ... waited for until then at most

    @property
    def opponent(self) -> str:
        return self.players[1 - self.seat]

    @property
    def watchers(self) -> int:
        """How many watch the table (the room's last word of it)."""
        return self.session.watchers.get(self.table, 0)

    @property
    def hints(self) -> bool:
        """Hints are on at a room table only when both accepted them in the invitation."""
        return bool(self.rules.get("hints", False))

    def take(self) -> list[dict[str, Any]]:
        """The table's messages not taken yet, in the order the room said them. Coming
        back (a rejoin, a reconnection), nothing is given until the stream has reached
        where the room said it was: a screen gets what it missed in one piece, never a
        past position that looks like the present (a question already answered)."""
        if self.seq_seen < self.sync_to and self.session.now() < self.hold_until:
            return []
        got, self.inbox = self.inbox, []
        return got

    def sync_from(self, seq: int) -> None:
        """The room's ``tables`` says the seat's stream is at ``seq``."""
        self.sync_to, self.hold_until = seq, self.session.now() + SYNC_WAIT

    def seconds_left(self) -> float | None:
        """The clock of the decision being made now, or None (no clock, or nobody asked)."""
        if self.clock <= 0 or self.clock_seat is None or self.end is not None:
            return None
        if not self.clock_running:
            return self.clock_left           # it starts when the question is on its player's screen
        return max(0.0, self.clock_left - (self.session.now() - self.clock_told))

    @property
    def opponent_here(self) -> bool:
        """The opponent is in the room (not gone from the lobby, not away from the table):
        a rematch can be offered."""
        return self.opponent.lower() not in self.session.gone and self.opponent not in self.away

    def away_left(self) -> tuple[str, float] | None:
        """The opponent while away: their name and the seconds of grace left."""
        until = self.away.get(self.opponent)
        if until is None:
            return None
        return self.opponent, max(0.0, until - self.session.now())

    # what the player does
    def move(self, move: dict[str, Any]) -> None:
        self.error = ""
        if not self.watching:               # a watcher has no seat: nothing it does reaches the table
            self.session.client.send("move", table=self.table, move=move)

    def shown(self, seq: int) -> None:
        """The question ``seq`` (an ``ask``) is on the screen, the player free to answer:
        the room starts its clock now (docs/room.md, "The clock"). Said once; again after
        a reconnection, in case it was lost with the line."""
        if seq > self.shown_seq and self.session.status == "open" and not self.watching:
            self.shown_seq = seq
            self.session.client.send("shown", table=self.table, seq=seq)

    def chat(self, text: str) -> None:
        text = text.strip()[:80]
        if text and not self.watching:
            self.session.client.send("chat", table=self.table, text=text)

    def mute(self, on: bool) -> None:
        if not self.watching:
            self.session.client.send("mute", table=self.table, on=on)

    def resign(self) -> None:
        if not self.watching:
            self.session.client.send("resign", table=self.table)

    def unwatch(self) -> None:
        """Stop watching the table (a watched one): the room stops sending it."""
        self.session.watched.pop(self.table, None)
        if self.session.status == "open":
            self.session.client.send("unwatch", table=self.table)

    def rematch(self) -> None:
        if not self.watching:
            self.session.client.send("rematch", table=self.table)

    def fetch_record(self) -> None:
        """Ask for the finished game's record; it arrives as ``session.records[number]``."""
        if self.end is not None and isinstance(self.end.get("number"), int):
            self.session.client.send("game", number=self.end["number"])

    # what the room said
    def hear(self, m: dict[str, Any]) -> None:
        kind = m.get("type")
        now = self.session.now()
        if kind in STREAM and isinstance(m.get("seq"), int):
            self.seq_seen = max(self.seq_seen, m["seq"])
        if kind == "clock":
            self.clock_seat = m.get("seat")
            self.clock_left, self.clock_told = float(m.get("seconds", 0.0)), now
            self.clock_running = bool(m.get("running", True))
        elif kind == "away":
            self.away[str(m.get("name"))] = now + float(m.get("seconds", 0.0))
        elif kind == "back":
            self.away.pop(str(m.get("name")), None)
        elif kind == "chat":
            self.chat_lines = (self.chat_lines + [(str(m.get("name")), str(m.get("text")))])[-CHAT_KEPT:]
        elif kind == "muted":
            self.muted = bool(m.get("on"))
        elif kind == "timeout":
            self.timeouts.append(m)
        elif kind == "game_end":
            self.end, self.clock_seat = m, None
            if not self.watching:
                self.session.game_over(self, m)
        elif kind == "rematch":
            self.rematch_from = str(m.get("name"))
        elif kind == "error":
            self.error = str(m.get("reason", ""))
        elif kind == "stalled":
            self.stalled = _sentence(str(m.get("reason", "")))
        elif kind == "stall_over":
            self.stalled = ""
        self.inbox.append(m)


class RoomSession:
    """A player's session with the room: the client, polled once a frame, and what it said."""

    def __init__(self, url: str, transport: Transport | None = None,
                 now: Callable[[], float] = time.monotonic,
                 keep_token: Callable[[str | None], None] | None = None,
                 keep_with: Callable[[str], None] | None = None,
                 keep_name: Callable[[str], None] | None = None) -> None:
        self.url = url
        self.client = RoomClient(url, transport, clock=now)
        self.now = now
        self.keep_token = keep_token or (lambda token: None)
        # whom a game is on with ("" when none): kept so a restart offers to rejoin it
        self.keep_with = keep_with or (lambda name: None)
        self.keep_name = keep_name or (lambda name: None)      # the name logged in with
        self.game: str | None = None                  # the program the player is in (``watch_lobby``)
        self.held: dict[str, Any] | None = None       # an invitation made while the line was down
        self.invite_sent_at: float | None = None      # when the last invitation went to the room
        self.games: list[dict[str, Any]] | None = None   # the player's finished games, once asked
        self.name = ""
        self.guest = False
        self.ratings: dict[str, dict[str, Any]] = {}
        self.welcomed = False
        self.error = ""                               # one line for the page, "" when none
        self.note = ""                                # what happened to an invitation
        self.players: dict[str, dict[str, Any]] = {}  # the lobby, by name
        self.gone: set[str] = set()                   # players seen leaving the room (lower case)
        self.invitations: dict[str, dict[str, Any]] = {}
        self.tables: dict[str, TableLink] = {}
        self.started: list[TableLink] = []            # tables begun since the page looked
        self.records: dict[int, dict[str, Any]] = {}  # game number -> its record message
        self.watched: dict[str, TableLink] = {}       # tables watched (``watch``): their public streams
        self.watchers: dict[str, int] = {}            # table -> how many watch it, as the room last said
        # Looking back (HISTORY, TOP, PROFILE): the room's last answer of each kind
        # ("games" of any name, "top", "profile"), None until it comes.
        self.looked: dict[str, dict[str, Any] | None] = {}
        # PLAY NOW: the seek while it is open (as sent, then as the room said it), since when
        self.seeking: dict[str, Any] | None = None
        self.seek_since: float | None = None
        self.blocked: list[str] = []                  # the players this one has blocked (the room's list)

    # ---- getting in -------------------------------------------------------------------

    def login(self, name: str, password: str | None) -> None:
        """A name and password, or a guest (``password`` None)."""
        self.error = ""
        self.client.login(name, password)

    def register(self, name: str, password: str) -> None:
        self.error = ""
        self.client.register(name, password)

    def resume(self, token: str) -> None:
        """Come back to a session kept from before (the program or the page restarted)."""
        self.error = ""
        self.client.resume(token)

    def close(self) -> None:
        if self.client.status != "closed":
            self.client.send("bye")
        self.client.close()

    @property
    def status(self) -> str:
        """"connecting", "open", "reconnecting" or "closed": the status line's word."""
        return self.client.status

    # ---- the lobby and invitations --------------------------------------------------------

    def watch_lobby(self, game: str | None = None) -> None:
        """The lobby, and its changes from now on; ``game``: the program the player is in
        (the other program's lobby shows this player greyed). Said again on every
        connection the session makes (a reconnection, a rejoin), whatever page is up."""
        self.game = game or self.game
        self.client.send("lobby", watch=True, **({"game": self.game} if self.game else {}))

    def invite(self, to: str, game: str, rules: dict[str, Any], clock: int) -> bool:
        """Invite ``to``; made while the line is down, it is held and sent when the line is
        back (False: held). ``invite_sent_at`` says when it went."""
        if self.status != "open":
            self.held = {"to": to, "game": game, "rules": rules, "clock": clock}
            return False
        self.held = None
        self.client.send("invite", to=to, game=game, rules=rules, clock=clock)
        self.invite_sent_at = self.now()
        return True

    # ---- PLAY NOW and blocks -----------------------------------------------------------------

    def seek(self, game: str, rules: dict[str, Any], clock: int, level: str) -> None:
        """PLAY NOW: the first person whose seek fits, else the house bot of ``level``
        after the room's wait. Said again on a new connection while it is open."""
        self.seeking = {"game": game, "rules": rules, "clock": clock, "level": level}
        self.seek_since = self.now()
        self.note = self.error = ""
        if self.status == "open":
            self.client.send("seek", **self.seeking)

    def cancel_seek(self) -> None:
        if self.seeking is not None and self.status == "open":
            self.client.send("cancel_seek")
        self.seeking = self.seek_since = None

    def seek_seconds(self) -> float:
        """How long the seek open now has waited."""
        return 0.0 if self.seek_since is None else max(0.0, self.now() - self.seek_since)

    def block(self, name: str, on: bool = True) -> None:
        """Block ``name`` (no invitations either way, no chat, never paired), or no longer."""
        self.client.send("block" if on else "unblock", name=name)

    def is_blocked(self, name: str) -> bool:
        return name.lower() in (n.lower() for n in self.blocked)

    def watch(self, name: str | None = None, table: str | None = None) -> None:
        """Watch a table (or the one a player is at): the room answers ``watching``, and
        the table is started for the page (``take_started``) as a link that watches."""
        self.error = ""
        self.client.send("watch", **({"table": table} if table else {"name": name}))

    def ask_games(self) -> None:
        """The player's finished games (``games``, newest first), asked of the room."""
        self.games = None
        self.client.send("games")

    def look(self, kind: str, **fields: Any) -> None:
        """Ask the room to look back: ``games`` (a player's last games), ``top`` (a page
        of a leaderboard), ``profile`` (a player's page); the answer arrives as
        ``looked[kind]``. A game's record (``game``) arrives in ``records``."""
        self.looked[kind] = None
        self.client.send(kind, **fields)

    def fetch_record(self, number: int) -> None:
        if number not in self.records:
            self.client.send("game", number=number)

    def game_over(self, link: TableLink, end: dict[str, Any]) -> None:
        """A table's game ended: the header's rating is the new one, and no rejoin is
        offered for it any more (unless another game is still on)."""
        change = (end.get("ratings") or {}).get(self.name)
        if isinstance(change, dict) and isinstance(self.ratings.get(link.game), dict):
            self.ratings[link.game] = {**self.ratings[link.game], "shown": change.get("after")}
        if not any(t.end is None for t in self.tables.values()):
            self.keep_with("")

    def counter(self, inv_id: str, rules: dict[str, Any], clock: int) -> None:
        self.client.send("counter", id=inv_id, rules=rules, clock=clock)

    def answer(self, inv_id: str, how: str) -> None:
        """``accept``, ``decline`` or ``cancel`` (withdraw one's own proposal)."""
        self.client.send(how, id=inv_id)

    def to_answer(self) -> list[dict[str, Any]]:
        """The invitations waiting for this player's answer (the other proposed last)."""
        return [i for i in self.invitations.values() if i.get("proposer") != self.name]

    # ---- once a frame ---------------------------------------------------------------------

    def poll(self) -> list[dict[str, Any]]:
        """Read what the room said since the last frame and sort it; the messages back."""
        got = self.client.poll()
        for m in got:
            self._hear(m)
        self._expire(self.now())
        return got

    def _expire(self, now: float) -> None:
        """Invitations whose round ran out with no word of it (the room's word lost with
        a dropped line): gone, and said so."""
        for key, inv in list(self.invitations.items()):
            if now > float(inv.get("_heard", now)) + float(inv.get("seconds", 120.0)) + 5.0:
                del self.invitations[key]
                self.note = "The invitation expired."

    def _hear(self, m: dict[str, Any]) -> None:
        kind = m.get("type")
        table = m.get("table")
        if kind == "welcome":
            self.welcomed, self.error = True, ""
            self.name, self.guest = str(m.get("name", "")), bool(m.get("guest"))
            self.ratings = dict(m.get("ratings") or {})
            self.keep_token(m.get("token"))
            if not self.guest:
                self.keep_name(self.name)
            for link in self.tables.values():
                link.shown_seq = 0          # a question shown before a drop is said again
            if self.game is not None:
                self.watch_lobby()          # the room greys this player in the other program's lobby
            if self.held is not None:       # made while the line was down: sent now
                self.invite(**self.held)
            self.client.send("blocks")      # one's own blocks: the lobby marks them
            if self.seeking is not None:    # the room ended it with the line: asked again
                self.client.send("seek", **{k: v for k, v in self.seeking.items() if k in SEEK_FIELDS})
            for link in self.watched.values():   # a watcher's place is not kept across a drop: asked again
                if link.end is None:
                    self.client.send("watch", table=link.table, since=link.seq_seen)
        elif kind == "tables":
            for t in m.get("tables", []):
                if t.get("over") or t.get("seat") is None:
                    continue
                link = self.tables.get(t["table"]) or self._link(t)
                if isinstance(t.get("seq"), int):
                    link.sync_from(t["seq"])
        elif kind == "start":
            self._link(m)
        elif kind == "watching":
            self._watched(m)
        elif kind == "unwatched":
            self.watched.pop(str(table), None)
        elif isinstance(table, str) and (table in self.tables or table in self.watched):
            if kind == "watchers":
                self.watchers[table] = int(m.get("count", 0))
            (self.tables.get(table) or self.watched[table]).hear(m)
        elif kind == "watchers" and isinstance(table, str):
            self.watchers[table] = int(m.get("count", 0))    # its table's link may come a moment later
        elif kind == "lobby":
            self.players = {p["name"]: p for p in m.get("players", []) if isinstance(p, dict) and "name" in p}
            self.gone -= {name.lower() for name in self.players}
        elif kind == "presence":
            p = m.get("player") or {}
            if p.get("gone"):
                self.players.pop(str(p.get("name")), None)
                self.gone.add(str(p.get("name")).lower())
            elif "name" in p:
                self.players[p["name"]] = p
                self.gone.discard(str(p["name"]).lower())
        elif kind == "invitation":
            self.invitations[str(m.get("id"))] = {**m, "_heard": self.now()}
        elif kind == "invitation_closed":
            inv = self.invitations.pop(str(m.get("id")), None)
            if inv is not None and m.get("why") != "accepted":
                self.note = f"The invitation was {m.get('why')}."
        elif kind == "record":
            self.records[int(m.get("number", 0))] = m
        elif kind == "games":
            if m.get("name") == self.name:
                self.games = [g for g in m.get("games", []) if isinstance(g, dict)]
            self.looked["games"] = m
        elif kind == "top":
            self.looked["top_provisional" if m.get("provisional") else "top"] = m
        elif kind == "profile":
            self.looked[kind] = m
        elif kind == "seeking":
            if self.seeking is not None:
                self.seeking = {**self.seeking, **{k: m[k] for k in ("seconds",) if k in m}}
        elif kind == "seek_closed":
            why = str(m.get("why", ""))
            if self.seeking is not None and not why.startswith("paired"):
                self.note = "" if why == "cancelled" else f"PLAY NOW: {_sentence(why)}"
            self.seeking = self.seek_since = None
        elif kind == "blocks":
            self.blocked = [str(n) for n in m.get("names", [])]
        elif kind == "unreachable":
            self.error = _sentence(str(m.get("reason", "no room there")))
        elif kind == "error":
            self._refused(m)

    def _refused(self, m: dict[str, Any]) -> None:
        reason = str(m.get("reason", ""))
        if m.get("refused") == "seek":
            self.seeking = self.seek_since = None
        if m.get("refused") == "resume":
            self.keep_token(None)                     # a session too old: log in again
        self.error = _sentence(reason)

    def _link(self, m: dict[str, Any]) -> TableLink:
        link = TableLink(self, str(m["table"]), str(m.get("game")), int(m.get("seat", 0)),
                         [str(p) for p in m.get("players", [])], dict(m.get("rules") or {}),
                         int(m.get("clock", 0) or 0))
        self.tables[link.table] = link
        self.started.append(link)
        self.keep_with(link.opponent)
        return link

    def _watched(self, m: dict[str, Any]) -> None:
        """The room's answer to ``watch``: a link that watches (the players' seats as
        the room numbers them, seat 0 where YOU are drawn); its stream so far follows,
        and the link gives it in one piece (``sync_from``), then the table live."""
        table = str(m["table"])
        self.watchers[table] = int(m.get("watchers", 0))
        link = self.watched.get(table)
        if link is None:
            link = TableLink(self, table, str(m.get("game")), 0, [str(p) for p in m.get("players", [])],
                             dict(m.get("rules") or {}), int(m.get("clock", 0) or 0), watching=True)
            self.watched[table] = link
            self.started.append(link)
        link.sync_from(int(m.get("last", 0)))

    def take_started(self) -> list[TableLink]:
        """Tables begun (or found again on coming back) since the last call."""
        got, self.started = self.started, []
        return got


def _sentence(text: str) -> str:
    """One plain line: a capital first, a full stop last."""
    text = text.strip() or "the room said no"
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


__all__ = ["DEFAULT_URL", "RoomSession", "STREAM", "TableLink"]
