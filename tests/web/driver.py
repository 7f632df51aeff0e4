"""A room page's use of the client, run inside Pyodide by tests/web/web_transport_check.mjs.

It does what a game's room page does in the browser: one ``RoomClient`` with the
default transport (under Pyodide: ``BrowserTransport``, the JS WebSocket), polled once
a frame, with ``await asyncio.sleep(FRAME)`` between frames (the browser's events
arrive only between frames: nothing here blocks). It logs in as a guest, reads the
lobby, invites the bot and accepts the rules it sends back, plays GinRummy with a
plain policy, has its connection dropped twice (its own socket closed under it; the
room killed and started again by the test) and plays on, then resigns.

Each line it prints is one JSON object: ``{"step": ...}`` as it goes, ``{"ask":
"restart"}`` when the test is to kill and restart the room, and at the end
``{"summary": {...}}``, what the page saw, for tests/room/test_web_transport.py.
"""
from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from port.client import RoomClient

FRAME = 0.03          # seconds between polls: a frame at about 30 per second


def say(**fields: Any) -> None:
    print(json.dumps(fields), flush=True)


class Page:
    """A page polling its client once a frame, keeping all it was told, in order."""

    def __init__(self, url: str) -> None:
        self.client = RoomClient(url)
        self.seen: list[dict[str, Any]] = []         # every message the client gave
        self.unread: list[dict[str, Any]] = []
        self.statuses: list[str] = [self.client.status]
        self.frames = 0

    async def frame(self) -> None:
        await asyncio.sleep(FRAME)
        self.frames += 1
        got = self.client.poll()
        self.seen += got
        self.unread += got
        if self.client.status != self.statuses[-1]:
            self.statuses.append(self.client.status)

    async def next(self, test: Callable[[dict[str, Any]], bool], what: str, seconds: float = 10.0
                   ) -> dict[str, Any]:
        """The first message (unread ones first) that ``test`` accepts; the others stay unread."""
        deadline = time.monotonic() + seconds
        while True:
            for i, m in enumerate(self.unread):
                if test(m):
                    return self.unread.pop(i)
            if time.monotonic() > deadline:
                raise AssertionError(f"waited {seconds} s for {what}; unread: "
                                     f"{[m.get('type') for m in self.unread][-12:]}")
            await self.frame()

    async def of_type(self, kind: str, seconds: float = 10.0) -> dict[str, Any]:
        return await self.next(lambda m: m.get("type") == kind, kind, seconds)


def gin_move(ask: dict[str, Any]) -> dict[str, Any]:
    """A plain GinRummy policy: decline the upcard, draw from the stock, throw the card
    just drawn, never knock."""
    decision, view = ask["decision"], ask["view"]
    if decision == "offer":
        return {"act": "decline"}
    if decision == "draw":
        return {"act": "stock"}
    if decision == "discard":
        return {"act": "discard", "card": view.get("drawn") or view["hand"][-1]}
    return {"act": "play_on"}


def passes_the_turn(ask: dict[str, Any]) -> bool:
    """A discard sure to pass the turn to the other seat: the policy keeps the dealt hand,
    so if an earlier discard of this hand brought no knock question (no "play on"), this
    one brings none either."""
    view = ask["view"]
    mine = [e["act"] for e in view["events"] if e["seat"] == view["seat"]]
    return ask["decision"] == "discard" and "discard" in mine and not {"play on", "play to gin"} & set(mine)


async def refused(url: str, closed_port: int) -> dict[str, Any]:
    """No room at an address, and a login the room refuses: one line each, no retry."""
    out: dict[str, Any] = {}
    page = Page(f"ws://127.0.0.1:{closed_port}")
    page.client.login("Ann", "pw")
    out["unreachable"] = (await page.of_type("unreachable"))["reason"]
    out["unreachable_status"] = page.client.status
    page = Page(url)
    page.client.login("Nobody", "pw")
    out["refused"] = (await page.of_type("error"))["reason"]
    for _ in range(25):                  # 0.75 s: past the first retry's time
        await page.frame()
    out["refused_after"] = {"status": page.client.status, "messages": [m.get("type") for m in page.unread]}
    return out


async def play(page: Page, table: str, moves: int, log: list[dict[str, Any]]) -> dict[str, Any]:
    """Answer the table's asks until ``moves`` are made; the last ask is returned answered."""
    ask: dict[str, Any] = {}
    for _ in range(moves):
        ask = await page.next(lambda m: m.get("type") in ("ask", "game_end") and m.get("table") == table, "an ask")
        if ask["type"] == "game_end":
            raise AssertionError(f"the game ended early: {ask}")
        move = gin_move(ask)
        page.client.send("move", table=table, move=move)
        log.append({"seq": ask["seq"], "decision": ask["decision"], "move": move})
    return ask


async def back(page: Page, name: str) -> dict[str, Any]:
    """After a drop: the client says it is reconnecting (again at each failed try), then
    comes back as the same player, its table listed."""
    t0 = time.monotonic()
    dropped = await page.of_type("reconnecting")
    status_then = page.client.status
    welcome = await page.of_type("welcome", seconds=20)
    tables = await page.of_type("tables")
    seconds = time.monotonic() - t0
    tries = 1 + sum(m.get("type") == "reconnecting" for m in page.unread)
    page.unread = [m for m in page.unread if m.get("type") != "reconnecting"]
    return {"reason": dropped["reason"], "status": status_then, "same_name": welcome["name"] == name,
            "tables": [t["table"] for t in tables["tables"]], "tries": tries, "seconds": round(seconds, 2)}


async def missed(page: Page, table: str, name: str) -> dict[str, Any]:
    """The socket closed right after a move: back, the table's messages from the one
    after the last seen, as far as the next ask (what was said meanwhile, then more)."""
    last = page.client.seqs[table]
    out = {"last_seq_before": last, **await back(page, name)}
    after = []
    while True:
        m = await page.next(lambda m: m.get("table") == table and m.get("seq", 0) > last, "the table's stream")
        after.append({"type": m["type"], "seq": m["seq"], "seat": (m.get("event") or {}).get("seat")})
        if m["type"] == "ask":
            page.unread.insert(0, m)      # play() answers it
            return {**out, "after": after}


async def held(page: Page, table: str, name: str, ask: dict[str, Any], log: list[dict[str, Any]]) -> dict[str, Any]:
    """The room restarted while the page held an ask: back, nothing said again, then the
    held ask is answered and taken."""
    last = page.client.seqs[table]
    out = {"last_seq_before": last, "held_seq": ask["seq"], **await back(page, name)}
    for _ in range(10):                  # the sync's answer: nothing, or what was missed
        await page.frame()
    again = [m["seq"] for m in page.unread if m.get("table") == table and m.get("seq", 0) > last]
    move = gin_move(ask)
    page.client.send("move", table=table, move=move)
    log.append({"seq": ask["seq"], "decision": ask["decision"], "move": move})
    taken = await page.next(lambda m: m.get("type") == "event" and m.get("table") == table and m["seq"] > last
                            and m["event"]["seat"] == ask["view"]["seat"], "the held move's event")
    return {**out, "said_again": again, "held_taken_seq": taken["seq"]}


async def main(url: str, bot: str, closed_port: int) -> str:
    t0 = time.monotonic()
    summary: dict[str, Any] = {"platform": sys.platform, "python": sys.version.split()[0]}
    summary.update(await refused(url, closed_port))
    say(step="refused")

    page = Page(url)
    summary["transport"] = type(page.client.transport).__name__
    page.client.login("", None)
    welcome = await page.of_type("welcome")
    await page.of_type("tables")
    name = welcome["name"]
    summary["welcome"] = {"name": name, "guest": welcome["guest"], "token": bool(welcome["token"])}
    say(step="welcome", name=name)

    for _ in range(100):                                   # the bot may still be logging in
        page.client.send("lobby")
        lobby = await page.of_type("lobby")
        if any(p["name"] == bot for p in lobby["players"]):
            break
        await asyncio.sleep(0.1)
    summary["lobby"] = [{"name": p["name"], "bot": p["bot"], "status": p["status"]} for p in lobby["players"]]

    # The invitation: ours (score_limit 100), the bot's answer (it takes only 150), accepted.
    page.client.send("invite", to=bot, game="ginrummy", rules={"score_limit": 100}, clock=0)
    ours = await page.of_type("invitation")
    theirs = await page.next(lambda m: m.get("type") == "invitation" and m.get("round") == 2, "the bot's counter")
    page.client.send("accept", id=theirs["id"])
    closed = await page.of_type("invitation_closed")
    start = await page.of_type("start")
    table = start["table"]
    summary["invitation"] = {
        "ours": {"round": ours["round"], "proposer": ours["proposer"], "score_limit": ours["rules"]["score_limit"]},
        "theirs": {"round": theirs["round"], "proposer": theirs["proposer"], "changed": theirs["changed"],
                   "score_limit": theirs["rules"]["score_limit"]},
        "closed": closed["why"]}
    summary["table"] = table
    summary["start"] = {"players": start["players"], "seat": start["seat"], "score_limit": start["rules"]["score_limit"]}
    say(step="start", table=table)

    moves: list[dict[str, Any]] = []
    drops = []
    # Drop 1: the page's own socket closes under it right after a discard, so the bot's
    # answer is said while the page is away: the resumed client must get it from sync.
    while True:
        ask = await play(page, table, 1, moves)
        if len(moves) >= 4 and passes_the_turn(ask):
            break
    page.client.transport._ws.close()
    drops.append({"how": "socket closed", **await missed(page, table, name)})
    say(step="drop 1", back=drops[-1]["seconds"])

    # Drop 2: the room itself is killed (kill -9) and started again on its port by the
    # test, while the page has an ask it has not answered: the position must come back
    # and the page answers the ask it holds.
    await play(page, table, 3, moves)
    ask = await page.next(lambda m: m.get("type") == "ask" and m.get("table") == table, "an ask")
    say(ask="restart")
    drops.append({"how": "room restarted", **await held(page, table, name, ask, moves)})
    say(step="drop 2", back=drops[-1]["seconds"])
    await play(page, table, 4, moves)

    page.client.send("resign", table=table)
    end = await page.of_type("game_end")
    summary["game_end"] = {"how": end["how"], "winner": end["winner"], "rated": end["rated"]}
    page.client.close()
    told = len(page.seen)
    for _ in range(25):                  # 0.75 s: past the first retry's time
        await page.frame()
    stream = [m["seq"] for m in page.seen if m.get("table") == table and "seq" in m]
    summary.update(moves=moves, drops=drops, seqs=stream, statuses=page.statuses, frames=page.frames,
                   seconds=round(time.monotonic() - t0, 2), after_close=[m.get("type") for m in page.seen[told:]])
    return json.dumps(summary)
