"""A card room's Cribbage game in a fixed state, for its stored reference images
(tests/cribbage/reference/room_*.png), at EGA and HERC.

The room's own driver of the game (``port.room.games.CribDriver``, a fixed seed) says
what the seat's stream would say, and it is handed to the table's link as the session
hands it; the session's clock stands still, so the move clock is drawn the same every
time. Remade by ``python -m tests.cribbage.roomscenes`` (then look at the images).
"""
from __future__ import annotations

import os
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from port.cribbage.main.room import ROOM
from port.cribbage.main.roomplay import RoomPlay
from port.cribbage.rules import View
from port.main.driver import Driver
from port.main.roomsession import RoomSession, TableLink
from port.protocol import decode
from port.room.games import CribDriver
from port.room.watch import public_messages
from port.screen import png
from tests.cribbage.helpers import box_up, open_cribbage

REFERENCE = Path(__file__).parent / "reference"
RULES = {"limit": 121, "skunking": True, "hints": False}
SEED = 11
NOW = 1000.0


def link_to(driver: CribDriver, watching: bool = False) -> tuple[RoomSession, TableLink]:
    """A session that never connects (its clock stopped) and a table link at seat 0 (or
    one that watches the table: Cy watching Ann and Bob)."""
    session = RoomSession("ws://127.0.0.1:9", now=lambda: NOW)
    session.name = "Cy" if watching else "Ann"
    session.client.status = "open"          # as a session in the room: your moves are taken
    link = TableLink(session, "tscene", "cribbage", 0, ["Ann", "Bob"], dict(RULES), 60, watching=watching)
    return session, link


def say(driver: CribDriver, link: TableLink, seq: list[int]) -> None:
    """What the room's driver owes the link's seat (a watcher: the public stream made of
    both seats' messages), as the session hands it over."""
    said = public_messages("cribbage", driver.out) if link.watching else [m for s, m in driver.out if s == link.seat]
    for msg in said:
        seq[0] += 1
        link.hear({**msg, "table": link.table, "seq": seq[0]})
    driver.out = []


def first_fit(driver: CribDriver) -> dict[str, Any]:
    """The seat to move's plain move: its first two cards away, its first card that fits."""
    seat = driver.to_move()
    assert seat is not None
    v = driver.seat_view(seat)
    if driver.decision() == "lay_away":
        return {"act": "lay_away", "cards": [str(c) for c in v.hand[:2]]}
    fits = v.legal_plays()
    return {"act": "play", "card": str(fits[0])} if fits else {"act": "go"}


def settle(d: Driver) -> None:
    p = d.controller
    for _ in range(3000):
        t = p.table
        if not t.pending and not t.beats:
            return
        if box_up(t) and t.age > 2:
            d.key("SPACE")
        else:
            d.step()
    raise AssertionError("the scene did not settle")


def board(d: Driver, driver: CribDriver, link: TableLink, seq: list[int]) -> None:
    """Mid-play of hand 1: two cards on the count, your turn, your clock running, a chat."""
    while not (len(driver.seat_view(0).count_cards) >= 2 and driver.to_move() == 0
               and driver.decision() == "play" and driver.seat_view(0).legal_plays()):
        driver.apply(driver.to_move(), first_fit(driver))
    say(driver, link, seq)
    link.hear({"type": "clock", "table": link.table, "seat": 0, "name": "Ann", "seconds": 42.0})
    link.hear({"type": "chat", "table": link.table, "name": "Bob", "text": "good luck"})
    link.hear({"type": "chat", "table": link.table, "name": "Ann", "text": "thanks, you too"})
    settle(d)


def end(d: Driver, driver: CribDriver, link: TableLink, seq: list[int]) -> None:
    """The game's end: who won and how, the ratings' changes, REMATCH and LOBBY."""
    while not driver.over:
        driver.apply(driver.to_move(), first_fit(driver))
    say(driver, link, seq)
    v = decode(View, link.inbox[-1]["view"])
    winner = "Ann" if driver.winner() == 0 else "Bob"
    link.hear({"type": "game_end", "table": link.table, "number": 7, "how": "played", "winner": winner,
               "scores": list(v.scores), "rated": True,
               "ratings": {"Ann": {"before": "1500?", "after": "1662?", "change": 162},
                           "Bob": {"before": "1623", "after": "1580", "change": -43}}})
    settle(d)


def lay_away(d: Driver, driver: CribDriver, link: TableLink, seq: list[int]) -> None:
    """Hand 1's lay-away, yours to make, your clock running: "Pick two cards ... then
    LAY AWAY." in the message area, the clock over the chat."""
    while driver.to_move() != 0:
        driver.apply(driver.to_move(), first_fit(driver))
    say(driver, link, seq)
    link.hear({"type": "clock", "table": link.table, "seat": 0, "name": "Ann", "seconds": 42.0})
    d.step()                                  # the stream taken: the deal's boxes, cleared by keys
    settle(d)


def watching(d: Driver, driver: CribDriver, link: TableLink, seq: list[int]) -> None:
    """Cy watches Ann and Bob, joined in hand 1's play (the game so far caught up at
    once), three more cards played out at their pace; both hands backs, Bob's clock, two
    watching."""
    while len(driver.seat_view(0).played) < 3:
        driver.apply(driver.to_move(), first_fit(driver))
    say(driver, link, seq)
    link.sync_to = seq[0]
    link.session.watchers[link.table] = 2
    d.step()
    while len(driver.seat_view(0).played) < 6:
        driver.apply(driver.to_move(), first_fit(driver))
    say(driver, link, seq)
    link.hear({"type": "clock", "table": link.table, "seat": driver.to_move(), "name": "Bob", "seconds": 42.0})
    settle(d)


def watching_show(d: Driver, driver: CribDriver, link: TableLink, seq: list[int]) -> None:
    """The show as the players see it, played out at its pace: the first count's box,
    in its owner's name."""
    say(driver, link, seq)
    d.step()
    settle(d)                                 # hand 1 dealt on the watcher's screen
    while driver.hand_number == 1:
        driver.apply(driver.to_move(), first_fit(driver))
    say(driver, link, seq)
    p = d.controller
    for _ in range(3000):
        box = p.table.box
        if box is not None and box.show is not None:
            break
        if box is not None and p.table.age > 2:
            d.key("SPACE")                    # the play's boxes cleared sooner, as a key does
        else:
            d.step()
    d.step(3)


def resign(d: Driver, driver: CribDriver, link: TableLink, seq: list[int]) -> None:
    """RESIGN asked (R) during the play, your clock running: the yes/no boxes clear of it."""
    board(d, driver, link, seq)
    d.key("R")


SCENES: dict[str, tuple[Callable[..., None], dict[str, object]]] = {
    "room_board": (board, {}),
    "room_board_herc": (board, {"profile": "HERC"}),
    "room_board_cga": (board, {"profile": "CGA"}),
    "room_lay_away": (lay_away, {}),
    "room_resign": (resign, {}),
    "room_end": (end, {}),
    "room_watch": (watching, {}),
    "room_watch_herc": (watching, {"profile": "HERC"}),
    "room_watch_cga": (watching, {"profile": "CGA"}),
    "room_watch_show": (watching_show, {}),
}


def scene_image(name: str) -> png.Indexed:
    act, fields = SCENES[name]
    with tempfile.TemporaryDirectory() as tmp:
        d = open_cribbage(Path(tmp), seed=3, **fields)
        d.move(630, 340)                  # the pointer parked out of the way
        d.step()
        driver = CribDriver(RULES, SEED)
        session, link = link_to(driver, watching=name.startswith("room_watch"))
        ctx = d.controller.ctx
        d.loop.controller = ROOM.play(ctx, session, link, lambda: None)
        d.step()
        assert isinstance(d.controller, RoomPlay)
        act(d, driver, link, [0])
        d.step()
        p = d.screen.profile
        return png.Indexed(p.width, p.height, d.snapshot(), p.palette)


def main(names: list[str]) -> int:
    from port.main import loop
    from port.main.launch import Launch

    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    loop.init_pyxel(Launch(headless=True))
    for name in names or list(SCENES):
        png.write(REFERENCE / f"{name}.png", scene_image(name))
        print(f"wrote tests/cribbage/reference/{name}.png")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
