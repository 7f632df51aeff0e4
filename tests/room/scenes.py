"""The card room's pages in a fixed state, for the stored reference images
(tests/room/reference/*.png; remade by ``scripts/make_main_references.py --room``).

A real room in a subprocess with four accounts: Ann (the program), Bob (a person),
Stan (a BOT account) and Cleo (in Cribbage's program: greyed in GinRummy's lobby), and
the room's three house bots (House Easy, House Standard, House Expert). The program
logs in as Ann by its keys; Bob answers through a ``RoomSession``. ``seek``: Ann has
blocked Bob and PLAY NOW has been looking for 7 s.
"""
from __future__ import annotations

import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from port.main.driver import Driver
from port.main.roompages import ConnectPage, InvitePage, LobbyPage
from port.main.roomsession import RoomSession
from port.screen import png
from tests.ginrummy.helpers import open_game
from tests.room.helpers import Client, RoomProcess

PROFILES = {"ega": "EGA", "cga": "CGA", "herc": "HERC"}
SCENES = [f"{page}_{p}" for page in ("lobby", "invite", "seek") for p in PROFILES]
HOUSE = ("House Easy", "House Expert", "House Standard")


def until(d: Driver, done: Callable[[], bool], sessions: tuple[RoomSession, ...] = (),
          seconds: float = 10.0, what: str = "the page") -> None:
    """Frames (and the test's own sessions polled) until ``done``; a plain failure if never."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        d.step()
        for s in sessions:
            s.poll()
        if done():
            return
        time.sleep(0.005)
    raise AssertionError(f"{what} never came: the program shows {type(d.controller).__name__}, "
                         f"status {getattr(d.controller, 'status', lambda: '')()}")


def log_in(d: Driver, password: str) -> None:
    """The connection page's keys: P, the password, ENTER, L (LOG IN)."""
    assert isinstance(d.controller, ConnectPage), type(d.controller).__name__
    d.key("P")
    d.type(password)
    d.key("RETURN")
    d.key("L")
    until(d, lambda: isinstance(d.controller, LobbyPage), what="the lobby")


class Room:
    """A room with the scenes' four accounts; Bob's session and the others' connections."""

    def __init__(self, folder: Path) -> None:
        self.process = RoomProcess(folder / "room").start()
        self.url = self.process.url
        ann = Client(self.url)
        ann.enter("Ann", "pw1")
        ann.close()
        self.stan = Client(self.url)
        self.stan.enter("Stan", "pw", bot=True)
        self.cleo = Client(self.url)
        self.cleo.enter("Cleo", "pw")
        self.cleo.send("lobby", game="cribbage")
        self.bob = RoomSession(self.url)
        self.bob.register("Bob", "pw2")
        deadline = time.monotonic() + 10
        while not self.bob.welcomed:
            self.bob.poll()
            assert time.monotonic() < deadline and not self.bob.error, f"Bob never came in: {self.bob.error}"
            time.sleep(0.01)
        self.bob.watch_lobby("ginrummy")

    def close(self) -> None:
        self.bob.close()
        self.stan.close()
        self.cleo.close()
        self.process.stop()


def program(room: Room, path: Path, profile: str = "EGA") -> Driver:
    path.mkdir(parents=True, exist_ok=True)
    d = open_game(path, room=room.url, name="Ann", profile=profile)
    d.move(630, 340)                           # the pointer parked out of the way
    return d


def lobby(room: Room, path: Path, profile: str) -> Driver:
    d = program(room, path, profile)
    log_in(d, "pw1")
    page = d.controller
    until(d, lambda: len(page.session.players) == 7 and page.session.players["Cleo"].get("game") == "cribbage",
          what="four players and the three house bots in the lobby")
    d.step()
    assert page.picked == "Bob"                # the first free player (Ann herself is stepped over)
    return d


def invitation(room: Room, path: Path, profile: str) -> Driver:
    """Ann invites Bob with a gin bonus of 10; Bob sends it back with a limit of 150 and
    a clock of 0:30: round 2 on Ann's page, those two in yellow frames."""
    d = lobby(room, path, profile)
    d.key("RETURN")                            # INVITE Bob
    d.key("G")                                 # GIN BONUS 25 -> 10
    d.key("E")                                 # SEND
    bob = room.bob
    until(d, lambda: bool(bob.to_answer()), (bob,), what="Bob's invitation")
    inv = bob.to_answer()[0]
    bob.counter(inv["id"], {**inv["rules"], "score_limit": 150}, 30)
    page = d.controller
    assert isinstance(page, InvitePage)
    until(d, lambda: page.round == 2, (bob,), what="round 2")
    d.step()
    return d


def seek(room: Room, path: Path, profile: str) -> Driver:
    """Ann blocks Bob (K on the row picked), then PLAY NOW (N): looking for 7 s."""
    d = lobby(room, path, profile)
    page = d.controller
    assert isinstance(page, LobbyPage)
    d.key("K")
    until(d, lambda: page.session.blocked == ["Bob"], what="Bob blocked")
    d.key("N")
    until(d, lambda: (page.session.seeking or {}).get("seconds") is not None, what="the room looking")
    page.session.seek_since = page.session.now() - 7.2      # the status line's clock, fixed for the picture
    d.step()
    return d


def clean(d: Driver, room: Room) -> None:
    """What a scene left in the room, undone for the next: an invitation, a seek, a block."""
    page_now = d.controller
    if isinstance(page_now, InvitePage) and page_now.inv_id:
        page_now.session.answer(page_now.inv_id, "decline")
        until(d, lambda: not room.bob.invitations, (room.bob,), what="the invitation closed")
    if isinstance(page_now, LobbyPage) and page_now.session.seeking is not None:
        d.key("C")
        d.key("K")
        until(d, lambda: not page_now.session.blocked, what="Bob unblocked")
    page_now.session.close()


def images(names: list[str]) -> dict[str, png.Indexed]:
    """The scenes' images, all from one room (each a fresh program in a fresh directory)."""
    out = {}
    with tempfile.TemporaryDirectory() as tmp:
        room = Room(Path(tmp))
        try:
            for i, name in enumerate(names):
                page, profile = name.split("_")
                make = {"lobby": lobby, "invite": invitation, "seek": seek}[page]
                d = make(room, Path(tmp) / str(i), PROFILES[profile])
                p = d.screen.profile
                out[name] = png.Indexed(p.width, p.height, d.snapshot(), p.palette)
                clean(d, room)                       # the next scene starts clean
        finally:
            room.close()
    return out


def scene_image(name: str) -> png.Indexed:
    return images([name])[name]


__all__ = ["Room", "SCENES", "images", "log_in", "scene_image", "until"]
