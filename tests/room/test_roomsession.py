"""What both programs' room pages stand on (``port.main.roomsession``): a session
polled once a frame that sorts what a real room says into the lobby, the
invitations and each table's stream, and that comes back to a kept session."""
from __future__ import annotations

from pathlib import Path

from port.main.roomsession import RoomSession
from tests.room.helpers import RoomProcess, polled


def test_two_sessions_meet_in_the_lobby_negotiate_and_sit_at_one_table(tmp_path: Path) -> None:
    with RoomProcess(tmp_path / "room") as room:
        kept: list[str | None] = []
        ann = RoomSession(room.url, keep_token=kept.append)
        bob = RoomSession(room.url)
        ann.register("Ann", "pw1")
        bob.register("Bob", "pw2")
        polled([ann, bob], lambda: ann.welcomed and bob.welcomed)
        assert kept and kept[-1]                              # the token, kept for a rejoin
        ann.watch_lobby()
        polled([ann, bob], lambda: "Bob" in ann.players)
        ann.invite("Bob", "cribbage", {"limit": 61}, 30)
        polled([ann, bob], lambda: bool(bob.to_answer()))
        inv = bob.to_answer()[0]
        assert ann.to_answer() == []                          # Ann proposed: Bob answers
        bob.counter(inv["id"], {"limit": 61, "hints": True}, 30)
        polled([ann, bob], lambda: bool(ann.to_answer()))
        assert ann.to_answer()[0]["changed"] == ["hints"]
        ann.answer(inv["id"], "accept")
        polled([ann, bob], lambda: bool(ann.tables) and bool(bob.tables))
        a, b = ann.take_started()[0], bob.take_started()[0]
        assert (a.table, a.seat, b.seat, a.opponent, a.hints) == (b.table, 0, 1, "Bob", True)
        polled([ann, bob], lambda: any(m["type"] == "ask" for m in a.inbox + b.inbox))
        asked = next(link for link in (a, b) if any(m["type"] == "ask" for m in link.inbox))
        polled([ann, bob], lambda: asked.clock_seat is not None)
        # The clock waits for the question to be on its player's screen, then runs.
        assert (asked.seconds_left(), asked.clock_running) == (30, False)
        asked.shown(next(m["seq"] for m in asked.inbox if m["type"] == "ask"))
        polled([ann, bob], lambda: asked.clock_running)
        assert 25 < asked.seconds_left() <= 30
        a.chat("good luck")
        polled([ann, bob], lambda: bool(b.chat_lines))
        assert b.chat_lines == [("Ann", "good luck")]
        a.resign()
        polled([ann, bob], lambda: b.end is not None)
        assert b.end["winner"] == "Bob" and b.end["how"] == "resigned"
        ann.close()
        bob.close()


def test_a_kept_session_comes_back_with_its_table_and_a_wrong_one_is_one_line(tmp_path: Path) -> None:
    with RoomProcess(tmp_path / "room") as room:
        ann, bob = RoomSession(room.url), RoomSession(room.url)
        token: list[str | None] = []
        ann.keep_token = token.append
        ann.register("Ann", "pw1")
        bob.register("Bob", "pw2")
        polled([ann, bob], lambda: ann.welcomed and bob.welcomed)
        ann.invite("Bob", "ginrummy", {}, 0)
        polled([ann, bob], lambda: bool(bob.to_answer()))
        bob.answer(bob.to_answer()[0]["id"], "accept")
        polled([ann, bob], lambda: bool(ann.tables))
        first = ann.take_started()[0]
        polled([ann, bob], lambda: any(m["type"] == "deal" for m in first.inbox))
        seen = [m["type"] for m in first.take()]
        ann.client.transport.close()                           # the program quits, no goodbye
        again = RoomSession(room.url)
        again.resume(str(token[-1]))
        polled([again, bob], lambda: bool(again.tables) and any(m["type"] == "deal" for m in again.tables[first.table].inbox))
        link = again.take_started()[0]
        assert (link.table, link.seat, link.players) == (first.table, 0, ["Ann", "Bob"])
        taken: list[dict] = []
        polled([again], lambda: bool(taken.extend(link.take()) or taken))
        # The stream from its start, in one piece: up to where the room said it was.
        seqs = [m["seq"] for m in taken if "seq" in m]
        assert [m["type"] for m in taken][:len(seen)] == seen
        assert seqs == list(range(1, len(seqs) + 1)) and seqs[-1] >= link.sync_to > 0
        stale = RoomSession(room.url)
        stale.resume("not-a-token")
        polled([stale], lambda: bool(stale.error))
        assert stale.error.count(".") == 1 and stale.status == "closed"
        again.close()
        bob.close()
