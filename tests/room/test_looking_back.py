"""Looking back, over a real room: games played by real room bots (a GinRummy game of
one hand, a Cribbage game to 61), then what anyone sees of them: the ``top``,
``profile``, ``games`` and ``game`` messages, and the HTTP pages on the room's port
(``port.room.pages``) read with the standard library's HTML parser, their record read
by ``ginrummy replay``, ``cribbage replay`` and ``review`` through the real command line,
and the pages in a real browser (Chromium through playwright) where one can run.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

from port.cribbage import record as crib_record
from port.cribbage.main.replay import CribReplay
from port.ginrummy import record as gin_record
from port.ginrummy.main.replay import GinReplay
from port.main.replay import STATUS_X
from port.room import pages as web
from port.room.store import DB_NAME, Rating, SqliteStore, TableRow
from port.screen.profiles import LIGHTGRAY
from tests.record_helpers import run_replay, text_in
from tests.room.helpers import ENV, BotProcess, Client, RoomProcess, in_room

TOP = Path(__file__).resolve().parents[2]
ODD = 'Zed "q" /?:-!'             # a name of every odd character a name may have


@dataclass
class Played:
    room: RoomProcess
    http: str
    lines: dict[str, str]                        # the bots' lines, by game: "game 1: Eve v Stan (ginrummy): ..."
    numbers: dict[str, int]
    table: str                                   # a table still in play (Ann v Bob)
    keep: list[Client] = field(default_factory=list)

    def gin_result(self) -> tuple[str, str, float]:
        """The GinRummy game's first player (its winner; Eve when drawn: a hand of a
        random deal may end drawn), the other, and the first one's score."""
        won = re.search(r": (\w+) won", self.lines["ginrummy"])
        first = won.group(1) if won else "Eve"
        return first, ({"Eve", "Stan"} - {first}).pop(), 1.0 if won else 0.5


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Played]:
    folder = tmp_path_factory.mktemp("looks")
    dist = folder / "dist"
    dist.mkdir()
    (dist / "ginrummy.html").write_text("<html>GinRummy's page</html>")
    with RoomProcess(folder / "room", "--pages", str(dist)) as room:
        watcher = Client(room.url)
        watcher.enter("Watcher")
        waiting = [BotProcess(room.url, "Stan", "--games", "1", "--quiet"),
                   BotProcess(room.url, "Cat", "--game", "cribbage", "--games", "1", "--quiet")]
        for name in ("Stan", "Cat"):
            in_room(watcher, name)
        inviting = [BotProcess(room.url, "Eve", "--invite", "Stan", "--rules", "score_limit=0", "--games", "1",
                               "--quiet"),
                    BotProcess(room.url, "Dan", "--game", "cribbage", "--invite", "Cat", "--rules", "limit=61",
                               "--games", "1", "--quiet")]
        lines: dict[str, str] = {}
        try:
            for bot in inviting + waiting:
                code, out, err = bot.finish(60)
                assert code == 0, err
                game = re.search(r"\((\w+)\): ", out)
                assert game, out
                lines[game.group(1)] = out.strip()
        finally:
            for bot in inviting + waiting:
                bot.stop()
        numbers = {g: int(re.match(r"game (\d+):", line).group(1)) for g, line in lines.items()}  # type: ignore[union-attr]
        # Ann and Bob at a table still in play; the odd name in the room.
        ann, bob, odd = Client(room.url), Client(room.url), Client(room.url)
        ann.enter("Ann")
        bob.enter("Bob")
        odd.enter(ODD)
        ann.send("invite", to="Bob", game="ginrummy")
        inv = bob.wait("invitation")
        bob.send("accept", id=inv["id"])
        table = ann.wait("start")["table"]
        yield Played(room, room.url.replace("ws://", "http://"), lines, numbers, table, [watcher, ann, bob, odd])
        for c in (watcher, ann, bob, odd):
            c.close()


# ---- an HTML parser: what a page holds ---------------------------------------------------------------

class Read(HTMLParser):
    """A page as a reader takes it: its text, its links, its tables' rows, and every
    element opened (a hostile name must make none)."""

    VOID = {"meta", "input", "br", "img", "link"}

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[str] = []
        self.open: list[str] = []
        self.links: list[tuple[str, str]] = []
        self.rows: list[list[str]] = []
        self.text: list[str] = []
        self._href: str | None = None
        self._link = ""
        self._cell: list[str] | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)
        if tag not in self.VOID:
            self.open.append(tag)
        if tag == "a":
            self._href, self._link = dict(attrs).get("href") or "", ""
        if tag == "tr":
            self.rows.append([])
        if tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        assert self.open and self.open[-1] == tag, f"</{tag}> closes <{self.open[-1] if self.open else None}>"
        self.open.pop()
        if tag in ("p", "h1", "h2", "td", "th", "tr", "table", "form"):
            self.text.append(" ")
        if tag == "a" and self._href is not None:
            self.links.append((self._href, self._link.strip()))
            self._href = None
        if tag in ("td", "th") and self._cell is not None and self.rows:
            self.rows[-1].append("".join(self._cell).strip())
            self._cell = None

    def handle_data(self, data: str) -> None:
        if self.open and self.open[-1] in ("style", "title"):
            return
        self.text.append(data)
        if self._href is not None:
            self._link += data
        if self._cell is not None:
            self._cell.append(data)

    @property
    def all_text(self) -> str:
        return " ".join("".join(self.text).split())


def get(url: str) -> tuple[int, str, Any]:
    """A page, as a polite client asks: past the address's rate (429), again after the
    Retry-After the room says."""
    for _ in range(20):
        try:
            with urllib.request.urlopen(url, timeout=10) as r:
                return r.status, r.read().decode(), r.headers
        except urllib.error.HTTPError as e:
            body = e.read().decode()
            e.close()
            if e.code != 429:
                return e.code, body, e.headers
            assert "Too many pages from here: wait a moment." in body
            time.sleep(float(e.headers["Retry-After"]) / 4)
    raise AssertionError(f"{url}: 429 for 5 s")


def page(url: str, status: int = 200) -> Read:
    code, body, headers = get(url)
    assert code == status, (url, code, body[:300])
    assert headers["Content-Type"] == "text/html; charset=utf-8"
    read = Read()
    read.feed(body)
    read.close()
    assert read.open == [], f"{url}: never closed {read.open}"
    assert "script" not in read.tags and "iframe" not in read.tags
    return read


# ---- the messages -----------------------------------------------------------------------------------

def test_the_leaderboard_a_profile_and_any_games_record_by_message(played: Played) -> None:
    c = Client(played.room.url)
    c.enter("Looker")
    top = c.answer("top", game="ginrummy", provisional=True)
    rows = {r["name"]: r for r in top["players"]}
    assert {"Eve", "Stan"} <= set(rows) and top["start"] == 0 and top["more"] is False
    winner, loser, score = played.gin_result()
    assert (rows[winner]["wins"], rows[winner]["draws"], rows[winner]["games"]) == (score == 1, score < 1, 1)
    assert rows[loser]["losses"] == (score == 1) and rows[winner]["shown"].endswith("?")
    assert rows[winner]["rank"] < rows[loser]["rank"] or score < 1
    assert c.answer("top", game="ginrummy")["players"] == []            # nobody is established after one game
    assert [r["rank"] for r in c.answer("top", game="ginrummy", provisional=True, start=1)["players"]] == [2]

    prof = c.answer("profile", name=winner.lower())
    assert prof["type"] == "profile" and prof["name"] == winner and prof["bot"] is True
    gin = prof["games"]["ginrummy"]
    assert [(h["number"], h["opponent"], h["score"], h["before"]) for h in gin["history"]] == [
        (played.numbers["ginrummy"], loser, score, "1500?")]
    assert gin["history"][0]["after"] == gin["shown"] and (gin["history"][0]["change"] > 0 or score < 1)
    assert prof["games"]["cribbage"]["history"] == [] and prof["games"]["cribbage"]["shown"] == "1500?"
    assert [g["number"] for g in prof["last"]] == [played.numbers["ginrummy"]]
    assert c.answer("profile", name="Nobody")["reason"] == "there is no player Nobody"

    # Every finished game is public: anyone reads its record, as the HTTP page serves it.
    number = played.numbers["cribbage"]
    record = c.answer("game", number=number)
    assert record["type"] == "record" and record["text"].startswith("Cribbage game record")
    assert get(f"{played.http}/games/{number}.rec")[1] == record["text"]
    assert c.answer("game", number=999)["reason"] == "there is no game 999"
    games = c.answer("games", name="Cat")
    assert [g["number"] for g in games["games"]] == [number] and "record" not in games["games"][0]

    # Looks past the rate are refused in one sentence, never waited for: a ping goes at once.
    for _ in range(14):
        c.send("top", game="cribbage")
    answers = [c.wait(lambda m: m.get("type") in ("top", "error")) for _ in range(14)]
    refused = [m["reason"] for m in answers if m["type"] == "error"]
    assert refused and set(refused) == {"you are looking too fast: wait a moment"}
    sent = time.monotonic()
    assert c.answer("ping", t=5)["t"] == 5 and time.monotonic() - sent < 1.0
    c.close()


# ---- the HTTP pages -----------------------------------------------------------------------------------

def test_the_pages_read_by_an_html_parser(played: Played) -> None:
    http = played.http
    home = page(http + "/")
    assert ("ginrummy.html", "GINRUMMY") in home.links and not any("cribbage.html" in h for h, _ in home.links)
    assert ("/top/ginrummy", "GINRUMMY TOP") in home.links and ("/top/cribbage", "CRIBBAGE TOP") in home.links
    who = [r for r in home.rows if r and r[0] in ("Ann", "Bob", ODD, "Watcher")]
    assert {r[0] for r in who} == {"Ann", "Bob", ODD, "Watcher"}
    assert [r for r in home.rows if r[:2] == ["GINRUMMY", "Ann v Bob"]], home.rows      # the table in play
    assert (f"/players/{quote(ODD, safe='')}", ODD) in home.links    # the odd name escaped, its link whole

    gin = played.numbers["ginrummy"]
    top = page(http + "/top/ginrummy")
    ranked = {r[1]: r for r in top.rows if r and r[0].isdigit()}
    winner, loser, score = played.gin_result()
    assert ranked[winner][2] == "BOT" and ranked[winner][4:] == (["1", "1", "0", "0"] if score == 1 else
                                                                 ["1", "0", "1", "0"])
    assert score < 1 or int(ranked[winner][0]) < int(ranked[loser][0])
    assert "No established rating yet." in top.all_text

    player = page(http + f"/players/{winner}")
    assert [r for r in player.rows if r and r[0] == str(gin)][0][2] == ("WON" if score == 1 else "DRAWN")
    assert (f"/games/{gin}", str(gin)) in player.links
    for href, _ in player.links:                                    # every link on it leads somewhere
        if href.startswith("/"):
            assert get(http + href)[0] == 200, href

    game = page(http + f"/games/{gin}")
    assert "GAME %d: GINRUMMY" % gin in game.all_text
    assert (f"{winner} won" if score == 1 else "A draw") in game.all_text
    assert "Rules: gin bonus 25, undercut bonus 25, score limit 0" in game.all_text
    assert "HAND 1" in game.all_text and "HAND 2" not in game.all_text
    assert (f"/games/{gin}.rec", "THE RECORD") in game.links
    crib = page(http + f"/games/{played.numbers['cribbage']}")
    assert "Rules: score limit 61, skunking no" in crib.all_text and "'s crib:" in crib.all_text

    odd = page(http + f"/players/{quote(ODD, safe='')}")
    assert odd.all_text.startswith(ODD) and "No finished game yet." in odd.all_text
    for path, sentence in ((f"/players/{quote('<script>alert(1)</script>', safe='')}", "There is no player <script>"),
                           ("/games/999", "There is no game 999"), ("/games/1x", "There is no game 1x"),
                           ("/games/%C2%B2", "There is no game"), ("/top/chess", "There is no such page"),
                           ("/../ROOM.DB", "There is no such page"), ("/cribbage.html", "not built here")):
        missing = page(http + path, 404)
        assert sentence in missing.all_text, (path, missing.all_text)
        assert ("/", "CARD ROOM") in missing.links


def test_a_record_served_is_read_by_replay_and_review_through_the_command_line(played: Played,
                                                                             tmp_path: Path) -> None:
    for game, program, seat in (("ginrummy", "ginrummy", "Eve"), ("cribbage", "cribbage", "Dan")):
        number = played.numbers[game]
        code, text, headers = get(f"{played.http}/games/{number}.rec")
        name = f"{'GR' if game == 'ginrummy' else 'CR'}{number:04d}.REC"
        assert code == 200 and headers["Content-Disposition"] == f'inline; filename="{name}"'
        folder = tmp_path / game
        folder.mkdir()
        (folder / name).write_text(text)
        done = subprocess.run([sys.executable, "-m", f"port.{program}", "review", name, seat], capture_output=True,
                              text=True, timeout=120, cwd=folder, env={**ENV, "DISPLAY": ""})
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith(f"{seat} (seat ") and "decisions: EXPERT agrees with" in done.stdout
        shots = run_replay(program, folder / name, "key end\nshot last\nkey q\n", folder)
        log = (gin_record if game == "ginrummy" else crib_record).parse(text)
        hands, steps = log.steps[-1].hand, len(log.steps)
        viewer = GinReplay if game == "ginrummy" else CribReplay
        assert text_in(shots["last"], STATUS_X, viewer.box_y + 6, f"HAND {hands}/{hands} STEP {steps}/{steps}",
                       LIGHTGRAY)                                   # the viewer at the record's last step


# ---- the pages' bounds ---------------------------------------------------------------------------------

def test_a_page_is_kept_made_and_an_address_past_its_rate_is_told_to_wait(tmp_path: Path) -> None:
    store = SqliteStore(tmp_path / DB_NAME)
    now = [100.0]
    pages = web.Pages(store, tmp_path, clock=lambda: now[0])
    try:
        store.create_account("Ann", b"s", b"t", False)
        store.create_account("Bob", b"s", b"t", False)
        store.open_table(TableRow("t1", "ginrummy", ("Ann", "Bob"), {}, 1, 5.0))
        store.finish_game("t1", "ginrummy", ("Ann", "Bob"), "GinRummy game record, version 1\nHand 1: x.\n",
                          {"how": "played", "winner": "Ann", "scores": [5, 0], "hands": 1},
                          {"Ann": Rating(1600.0, 300.0), "Bob": Rating(1400.0, 300.0)},
                          {"Ann": Rating(), "Bob": Rating()})
        first = pages.page("/players/Ann")
        assert pages.page("/players/Ann") is first                    # the same bytes, not made again
        now[0] += web.PAGE_FRESH + 0.1
        assert pages.page("/players/Ann") is not first                # the present, made again
        game = pages.page("/games/1")
        now[0] += 3600
        assert pages.page("/games/1") is game                         # a finished game never changes
        for i in range(web.PAGE_CACHE + 10):
            pages.page(f"/games/{1000 + i}")
        assert len(pages.made) == web.PAGE_CACHE                      # what is kept is bounded
        answered = [pages.allowed("10.0.0.1") for _ in range(web.PAGE_BURST + 5)]
        assert answered.count(True) == web.PAGE_BURST and pages.allowed("10.0.0.2")
        now[0] += 1.0
        assert [pages.allowed("10.0.0.1") for _ in range(web.PAGE_RATE + 1)].count(True) == web.PAGE_RATE
    finally:
        store.close()


def test_the_pages_in_a_real_browser(played: Played, tmp_path: Path) -> None:
    """Chromium through playwright: the leaderboard's red boxes and a player's page by a
    click, as a person reads them."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("the python playwright package is not installed; the browser check is skipped")
    chromium = "/usr/bin/chromium"
    if not os.path.exists(chromium):
        pytest.skip("Chromium is not installed (/usr/bin/chromium); the browser check is skipped")
    flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync"]
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=chromium, args=flags)
        try:
            tab = browser.new_page()
            tab.goto(played.http + "/")
            assert tab.title() == "CARD ROOM"
            box = tab.locator("a.box", has_text="GINRUMMY TOP")
            assert box.evaluate("e => getComputedStyle(e).borderTopColor") == "rgb(170, 0, 0)"      # EGA red
            assert tab.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(0, 0, 0)"
            box.click()
            tab.wait_for_url("**/top/ginrummy")
            winner = played.gin_result()[0]
            tab.get_by_role("link", name=winner, exact=True).first.click()
            tab.wait_for_url(f"**/players/{winner}")
            assert tab.locator("h1").inner_text() == winner
            tab.get_by_role("link", name=str(played.numbers["ginrummy"]), exact=True).first.click()
            assert tab.locator("h2", has_text="HAND 1").count() == 1
            tab.goto(played.http + "/")
            tab.fill("input[name=name]", ODD)
            tab.get_by_role("button", name="SHOW").click()
            assert tab.locator("h1").inner_text() == ODD
            tab.screenshot(path=str(tmp_path / "player.png"))
        finally:
            browser.close()


# Last: it leaves this address past its page rate for a few seconds.
def test_an_honest_clients_ping_stays_low_while_an_address_asks_for_every_page(played: Played) -> None:
    """One address asks for pages as fast as it can (every game's page, players who are
    not there, the leaderboards: most of it past its rate); a player's pings meanwhile."""
    import threading

    stop = threading.Event()
    codes: list[int] = []

    def flood() -> None:
        n = 0
        while not stop.is_set():
            n += 1
            path = ("/games/%d" % (n % 50 + 1), f"/players/Nobody{n}", "/top/cribbage?page=%d" % (n % 7 + 1), "/")[n % 4]
            try:
                with urllib.request.urlopen(played.http + path, timeout=5) as r:
                    codes.append(r.status)
            except urllib.error.HTTPError as e:
                codes.append(e.code)
                e.close()

    c = Client(played.room.url)
    c.enter("Pinger")
    threads = [threading.Thread(target=flood) for _ in range(3)]
    for t in threads:
        t.start()
    try:
        time.sleep(0.3)
        worst = 0.0
        for i in range(10):
            sent = time.monotonic()
            assert c.answer("ping", t=i)["t"] == i
            worst = max(worst, time.monotonic() - sent)
            time.sleep(0.1)
    finally:
        stop.set()
        for t in threads:
            t.join()
    c.close()
    assert codes.count(429) > codes.count(200) > 0          # most of the flood was told to wait
    assert worst < 0.5, f"a ping took {worst:.3f} s while pages were asked for"
