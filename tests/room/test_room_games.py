"""Whole games in the room: a real server on a real port, real clients.

Bot clients (``python -m port.room.bot``) play whole games; the record the room keeps
is the match runner's for the same seed and moves, and ``ginrummy review`` and
``cribbage replay`` read it unchanged. A test client plays through the same seat code
while it checks what it is told against the game made again from the moves.
"""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from port.cards import PascalRandom
from port.cribbage import record as crib_record
from port.cribbage.levels import load_player as crib_player
from port.cribbage.rules.options import Options as CribOptions
from port.cribbage.rules.players import play_game as crib_play
from port.files.gamerecord import Meta
from port.ginrummy import record as gin_record
from port.ginrummy.levels import load_player as gin_player
from port.ginrummy.rules.options import FirstTurn, Options as GinOptions
from port.ginrummy.rules.players import play_game as gin_play
from port.room.games import replay
from port.room.seat import seat_for
from tests.room.helpers import ENV, BotProcess, Client, RoomProcess, in_room, stream

GAMES = {
    "ginrummy": (gin_player, gin_play, gin_record, lambda r: GinOptions(**r, first_turn=FirstTurn.ALTERNATE)),
    "cribbage": (crib_player, crib_play, crib_record, lambda r: CribOptions(**r)),
}


@pytest.fixture
def room(tmp_path: Path):
    with RoomProcess(tmp_path / "room") as server:
        yield server


def _fetch_record(url: str, name: str, number: int) -> dict[str, Any]:
    c = Client(url)
    try:
        c.enter(name)
        reply = c.answer("game", number=number)
        assert reply["type"] == "record", reply
        return reply
    finally:
        c.close()


@pytest.mark.parametrize("game, rules, flag", [("ginrummy", {"score_limit": 50}, "score_limit=50"),
                                               ("cribbage", {"limit": 61}, "limit=61")])
def test_a_whole_game_between_bot_clients_is_the_match_runners(room: RoomProcess, tmp_path: Path,
                                                                game: str, rules: dict, flag: str) -> None:
    host = BotProcess(room.url, "Stan", "--player", "standard", "--seed", "11", "--game", game, "--games", "1")
    guest = BotProcess(room.url, "Eve", "--player", "easy", "--seed", "22", "--game", game, "--games", "1",
                       "--invite", "Stan", "--rules", flag)
    rc, out, err = guest.finish(60)
    assert rc == 0, err
    assert host.finish(20)[0] == 0
    line = out.strip().splitlines()[-1]
    number = int(re.match(r"game (\d+): Eve v Stan", line).group(1))
    record = _fetch_record(room.url, "Stan", number)
    text = record["text"]
    seed = int(re.search(r"^Seed: (\d+)$", text, re.M).group(1))
    day = re.search(r"^Date: (\S+)$", text, re.M).group(1)

    load, play, rec, options_of = GAMES[game]
    options = options_of(rules)
    played = play(options, PascalRandom(seed), (load("easy", 22), load("standard", 11)), keep=True)
    expected = rec.write_game(played, options, Meta(("Eve", "Stan"), ("room bot", "room bot"), date=day, seed=seed))
    assert text == expected
    winner = "Eve" if played.winner == 0 else "Stan"
    assert f": {winner} won" in line

    # The record is the existing format: replay and review read it unchanged.
    path = tmp_path / ("GR0001.REC" if game == "ginrummy" else "CR0001.REC")
    path.write_text(text)
    review = subprocess.run([sys.executable, "-m", f"port.{game}", "review", str(path), "Eve"],
                            capture_output=True, text=True, env=ENV, timeout=120)
    assert review.returncode == 0, review.stderr
    assert "Eve" in review.stdout


def _play_pair(url: str, game: str, rules: dict[str, Any], seeds: tuple[int, int] = (1, 2),
               specs: tuple[str, str] = ("easy", "easy"), clock: int = 0) -> tuple[list[Client], str, list]:
    """Two test clients play a whole game through the seats, one move at a time; the
    moves in the order made (seat, move), the table and both clients."""
    a, b = Client(url), Client(url)
    a.enter("Ann")
    b.enter("Bob")
    a.send("invite", to="Bob", game=game, rules=rules, clock=clock)
    inv = b.wait("invitation")
    b.send("accept", id=inv["id"])
    table = a.wait("start")["table"]
    b.wait("start")
    load = GAMES[game][0]
    seats = [seat_for(game, load(specs[0], seeds[0])), seat_for(game, load(specs[1], seeds[1]))]
    clients = [a, b]
    moves: list[tuple[int, dict[str, Any]]] = []
    done = [False, False]
    while not all(done):
        for i, c in enumerate(clients):
            if done[i]:
                continue
            for m in c.drain(0.02):
                if m.get("type") == "game_end":
                    done[i] = True
                if m.get("table") == table and "seq" in m:
                    move = seats[i].feed(m)
                    if move is not None:
                        c.send("move", table=table, move=move)
                        moves.append((i, move))
    return clients, table, moves


def test_each_seat_is_told_exactly_what_the_game_says(room: RoomProcess) -> None:
    """Two people's worth of play through the network: each seat's numbered stream is
    the game made again from the moves, message for message (so the hidden-card check
    of tests/room/test_hidden.py, made on the same messages, holds on the wire)."""
    for game, rules in (("ginrummy", {"score_limit": 0}), ("cribbage", {"limit": 61})):
        clients, table, moves = _play_pair(room.url, game, rules)
        end = clients[0].got[-1] if clients[0].got[-1]["type"] == "game_end" else \
            next(m for m in clients[0].got if m.get("type") == "game_end")
        record = _fetch_record(room.url, "Ann", end["number"])
        seed = int(re.search(r"^Seed: (\d+)$", record["text"], re.M).group(1))
        full = {**GAMES_DEFAULT[game], **rules}
        again = replay(game, full, seed, moves)
        for seat, c in enumerate(clients):
            said = [json.loads(json.dumps(m)) for s, m in again.out if s == seat]
            assert stream(c.got, table) == said
            seqs = [m["seq"] for m in c.got if m.get("table") == table and "seq" in m]
            assert seqs == list(range(1, len(seqs) + 1))
        for c in clients:
            c.close()


GAMES_DEFAULT = {"ginrummy": __import__("port.room.games", fromlist=["GinDriver"]).GinDriver.DEFAULTS,
                 "cribbage": __import__("port.room.games", fromlist=["CribDriver"]).CribDriver.DEFAULTS}


def test_a_bot_that_fails_loses_its_own_game_only(room: RoomProcess, tmp_path: Path) -> None:
    bad = tmp_path / "bad.py"
    bad.write_text("from port.ginrummy.rules import Player\n"
                   "class Broken(Player):\n"
                   "    name = 'broken'\n"
                   "    def choose_discard(self, view):\n"
                   "        raise RuntimeError('no idea')\n")
    host = BotProcess(room.url, "Stan", "--player", "standard", "--games", "2")
    broken = BotProcess(room.url, "Brok", "--player", f"{bad}:Broken", "--invite", "Stan", "--games", "2")
    rc, out, err = broken.finish(60)
    assert rc == 0, err
    lines = [l for l in out.splitlines() if l.startswith("game ")]
    assert len(lines) == 2 and all("Stan won" in l and "resigned" in l for l in lines), out
    assert "failed at table" in err and "RuntimeError: no idea" in err and "Traceback" not in err
    assert host.finish(20)[0] == 0


def test_ratings_after_a_game(room: RoomProcess) -> None:
    clients, table, _ = _play_pair(room.url, "cribbage", {"limit": 61}, specs=("standard", "easy"))
    end = next(m for m in clients[0].got if m.get("type") == "game_end")
    assert end["rated"] is True
    winner, loser = end["winner"], ("Bob" if end["winner"] == "Ann" else "Ann")
    change = end["ratings"]
    assert change[winner]["change"] > 0 > change[loser]["change"]
    assert change[winner]["before"] == "1500?"           # provisional: marked
    lobby = clients[1].answer("lobby")
    shown = {p["name"]: p["ratings"]["cribbage"] for p in lobby["players"]}
    assert shown[winner] == change[winner]["after"]
    games = clients[0].answer("games")
    assert games["games"][0]["number"] == end["number"] and games["games"][0]["result"]["winner"] == winner
    for c in clients:
        c.close()


def test_the_bot_client_refuses_a_bad_word_in_one_line(room: RoomProcess) -> None:
    bot = BotProcess(room.url, "Stan", "--player", "nonsense")
    rc, out, err = bot.finish(20)
    assert rc == 2 and err.count("\n") == 1 and "cannot load the player" in err
    bot = BotProcess("ws://127.0.0.1:1", "Stan", "--retries", "2")          # --room, as the programs'
    rc, out, err = bot.finish(20)
    assert rc == 2 and err.strip().endswith(")") and "cannot reach the room at ws://127.0.0.1:1" in err
    from port.room.bot import parser                                       # --server: the same option
    assert parser().parse_args(["--server", "ws://h:2", "--name", "S", "--password", "p"]).server == "ws://h:2"
