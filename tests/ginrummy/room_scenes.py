"""A room game's screens in a fixed state, for the stored reference images
(tests/ginrummy/reference/room_*.png; remade by scripts/make_main_references.py with
the rest of ``scenes.SCENES``).

The room deals from the system's generator, so a fixed picture cannot come from a
running room. It comes from the room's own GinRummy driver (``port.room.games``) dealt
from a fixed seed: its messages for the player's seat, numbered as the room numbers
them, are what the table link hears, as if the room had said them; the session's
clock is fixed, so the move clock and the absence read the same every time.
"""
from __future__ import annotations

from typing import Any

from port.ginrummy.computer import hint
from port.ginrummy.main.room import ROOM
from port.ginrummy.rules.players import Draw, KnockChoice
from port.ginrummy.main.table import PACE, Mode
from port.main.driver import Driver
from port.main.roomsession import RoomSession, TableLink
from port.room.games import GinDriver
from port.room.watch import public_messages

SEED = 11
NOW = 1000.0


class FixedRoom:
    """A GinRummy game as the room plays it, heard by the player's table link."""

    def __init__(self, rules: dict[str, Any] | None = None, seat: int = 0, clock: int = 60) -> None:
        self.driver = GinDriver(GinDriver.check_rules(rules or {}), SEED)
        self.session = RoomSession("ws://127.0.0.1:9", now=lambda: NOW)
        self.session.name = ("Ann", "Stan")[seat]
        self.link = TableLink(self.session, "t1", "ginrummy", seat, ["Ann", "Stan"],
                              self.driver.rules, clock)
        self.session.tables["t1"] = self.link
        self.seq = 0
        self.say()

    def say(self) -> None:
        """What the room owes the player's seat since the last time, as it says it."""
        for seat, m in self.driver.out:
            if seat == self.link.seat:
                self.seq += 1
                self.link.hear({"v": 1, **m, "table": "t1", "seq": self.seq})
        self.driver.out = []

    def move(self, seat: int, act: str, card: str | None = None) -> None:
        self.driver.apply(seat, {"act": act} if card is None else {"act": act, "card": card})
        self.say()

    def hear(self, kind: str, **fields: Any) -> None:
        self.link.hear({"v": 1, "type": kind, "table": "t1", **fields})

    def drawn(self, seat: int) -> str:
        return str(self.driver.state.view(seat).drawn)


class FixedWatch:
    """The same game as a watcher hears it: the room's public stream made from both
    seats' messages (``port.room.watch``), heard by a link that watches."""

    def __init__(self, rules: dict[str, Any] | None = None, clock: int = 60) -> None:
        self.driver = GinDriver(GinDriver.check_rules(rules or {}), SEED)
        self.session = RoomSession("ws://127.0.0.1:9", now=lambda: NOW)
        self.session.name = "Cy"
        self.session.client.status = "open"
        self.link = TableLink(self.session, "t1", "ginrummy", 0, ["Ann", "Stan"], self.driver.rules, clock,
                              watching=True)
        self.session.watched["t1"] = self.link
        self.seq = 0
        self.ends = 0                # hands ended so far
        self.say()

    def say(self) -> None:
        for m in public_messages("ginrummy", self.driver.out):
            self.seq += 1
            self.ends += m["type"] == "hand_end"
            self.link.hear({"v": 1, **m, "table": "t1", "seq": self.seq})
        self.driver.out = []

    def joined(self) -> None:
        """The watcher joined here: what it heard so far is the game so far."""
        self.link.sync_to = self.seq

    def hint_move(self) -> None:
        """STANDARD's choice for the seat to move (the hints), made at the table."""
        seat = self.driver.to_move()
        h = hint(self.driver.state.view(seat))
        if h.offer is not None:
            move = {"act": "take" if h.offer else "decline"}
        elif h.draw is not None:
            move = {"act": "pile" if h.draw is Draw.PILE else "stock"}
        elif h.discard is not None:
            move = {"act": "discard", "card": str(h.discard)}
        else:
            move = {"act": {KnockChoice.KNOCK: "knock", KnockChoice.PLAY_ON: "play_on",
                            KnockChoice.PLAY_TO_GIN: "play_to_gin"}[h.knock]}
        self.driver.apply(seat, move)
        self.say()


def room_watch(d: Driver) -> None:
    """Cy watches Ann and Stan: joined after nine moves (caught up at once), two more
    played out at their pace (Stan took the pile: the RED bar); both hands as backs,
    Stan's clock running, three watching."""
    ctx = d.controller.ctx
    room = FixedWatch()
    for _ in range(9):
        room.hint_move()
    room.joined()
    room.session.watchers["t1"] = 3
    d.loop.controller = screen = play(ctx, room.session, room.link, ctx.title_screen)
    d.step(2)
    while room.driver.decision() != "draw" or room.driver.to_move() != 1:
        room.hint_move()
    room.driver.apply(1, {"act": "pile"})
    room.say()
    room.link.hear({"v": 1, "type": "clock", "table": "t1", "seat": 1, "name": "Stan", "seconds": 42.0,
                    "running": True})
    d.step(6 * PACE)
    assert screen.table.computer_took_pile


def room_watch_hand_end(d: Driver) -> None:
    """The hand's end as the players see it (both hands face up, in both names), the
    hand played out at its pace."""
    ctx = d.controller.ctx
    room = FixedWatch()
    room.joined()
    while not room.ends:
        room.hint_move()
    d.loop.controller = screen = play(ctx, room.session, room.link, ctx.title_screen)
    for _ in range(100 * PACE):
        d.step()
        if screen.table.mode is Mode.HAND_END:
            break
    d.step(3)


def room_table(d: Driver) -> None:
    """Ann's draw: Stan took the pile (the RED bar) and discarded, played out at the
    computer's pace; Ann's clock at 0:42 beside her name; two lines of chat; Stan away
    since, 1:42 of his grace left."""
    ctx = d.controller.ctx
    room = FixedRoom()
    room.move(0, "stock")
    room.move(0, "discard", room.drawn(0))
    room.move(1, "pile")
    hand = room.driver.state.view(1).hand
    room.move(1, "discard", str(max((c for c in hand if str(c) != room.drawn(1)), key=lambda c: c.rank)))
    room.hear("chat", name="Stan", text="good luck")
    room.hear("chat", name="Ann", text="thanks, you too")
    room.hear("clock", seat=0, name="Ann", seconds=42.0)
    room.hear("away", name="Stan", seconds=102.0)
    d.loop.controller = play(ctx, room.session, room.link, ctx.title_screen)
    d.step(3 * PACE)


def room_game_end(d: Driver) -> None:
    """Stan resigned after Ann's first turn: the game's end, the ratings."""
    ctx = d.controller.ctx
    room = FixedRoom({"score_limit": 10})
    room.move(0, "stock")
    room.move(0, "discard", room.drawn(0))
    room.hear("game_end", number=4, how="resigned", winner="Ann", scores=[0, 0], rated=True,
              ratings={"Ann": {"before": "1500?", "after": "1662?", "change": 162},
                       "Stan": {"before": "1500?", "after": "1338?", "change": -162}})
    d.loop.controller = play(ctx, room.session, room.link, ctx.title_screen)
    d.step(3)


def room_score_sheet(d: Driver) -> None:
    """A game to 10 under BOXES scoring played out by STANDARD's choices for both
    seats (the hints), the player Stan at seat 1: the hand's end, then the score sheet
    with the ratings."""
    ctx = d.controller.ctx
    room = FixedRoom({"scoring": "BOXES", "score_limit": 10}, seat=1)
    while not room.driver.over:
        seat = room.driver.to_move()
        h = hint(room.driver.state.view(seat))
        if h.offer is not None:
            room.move(seat, "take" if h.offer else "decline")
        elif h.draw is not None:
            room.move(seat, "pile" if h.draw is Draw.PILE else "stock")
        elif h.discard is not None:
            room.move(seat, "discard", str(h.discard))
        else:
            room.move(seat, {KnockChoice.KNOCK: "knock", KnockChoice.PLAY_ON: "play_on",
                             KnockChoice.PLAY_TO_GIN: "play_to_gin"}[h.knock])
    winner = room.driver.winner()
    room.hear("game_end", number=7, how="played", winner=None if winner is None else ["Ann", "Stan"][winner],
              scores=list(room.driver.scores()), rated=True,
              ratings={"Ann": {"before": "1612", "after": "1630", "change": 18},
                       "Stan": {"before": "1500?", "after": "1420?", "change": -80}})
    d.loop.controller = screen = play(ctx, room.session, room.link, ctx.title_screen)
    for _ in range(20 * PACE):                       # the last moves at their pace, the
        d.step()                                     # hand's end, then the sheet
        if screen.table.mode is Mode.HAND_END:
            d.key("C")
        if screen.table.mode is Mode.GAME_END:
            break


ROOM_SCENES = {
    "room_table": (room_table, {}),
    "herc_room_table": (room_table, {"profile": "HERC"}),
    "cga_room_table": (room_table, {"profile": "CGA"}),
    "room_game_end": (room_game_end, {}),
    "room_score_sheet": (room_score_sheet, {}),
    "room_watch": (room_watch, {}),
    "herc_room_watch": (room_watch, {"profile": "HERC"}),
    "cga_room_watch": (room_watch, {"profile": "CGA"}),
    "room_watch_hand_end": (room_watch_hand_end, {}),
}

def play(ctx: Any, session: RoomSession, link: TableLink, back: Any) -> Any:
    """The game's room screen for the link, as the pages open it (a watched link: the watch mode)."""
    return ROOM.play(ctx, session, link, back)


__all__ = ["FixedRoom", "FixedWatch", "ROOM_SCENES"]
