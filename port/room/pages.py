"""The room's HTTP pages, on the room's own port (websockets' ``process_request``):
plain HTML the server makes, in the games' 1990s EGA look (black, the 16 EGA colours,
monospace, red command boxes with a hot letter; no script, no framework).

    /                       both games' web pages, who is in, the tables in play
    /top/ginrummy           a game's leaderboard (?page=N), provisional ratings apart
    /players/NAME           a player: each game's rating, results and rating history, last games
    /games/N                a finished game: players, rules, result, the hands
    /games/N.rec            its record, as ``ginrummy replay``, ``cribbage replay`` and ``review`` read it
    /ginrummy.html ...      the games' web pages, when scripts/build_web.sh built them

Pages read the store (and the lobby's list of who is in); they never reach into a
live table's objects. Everything here is public; nothing private (tokens, passwords,
blocks) is on any page (docs/room.md, "What is public"). Every name and line of text is
escaped, so a name cannot inject HTML, and nothing a client sends becomes a path.

What one client can make the room spend (on its event loop) is bounded: a rate per
address (``limits.PAGE_RATE``; past it 429), and the pages kept made (``PAGE_CACHE``):
a finished game's page never changes, a page of the present is made again at most every
``PAGE_FRESH`` seconds. A game's page is cut from its record's lines, not replayed
through the rules (a replay is the viewer's job, and costs 10-30 ms a game).
"""
from __future__ import annotations

import html
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Callable, Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, quote, unquote

from port.protocol import GAMES
from port.room.archive import game_list, profile, top
from port.room.limits import PAGE_ADDRESSES, PAGE_BURST, PAGE_CACHE, PAGE_FRESH, PAGE_RATE, RateLimit
from port.room.store import FinishedGame, Store, StoreError

log = logging.getLogger("cardroom")

BUILT = ("ginrummy.html", "cribbage.html")
TITLES = {"ginrummy": "GINRUMMY", "cribbage": "CRIBBAGE"}
PREFIXES = {"ginrummy": "GR", "cribbage": "CR"}       # the records' file names (GR0001.REC)
WEB_TOP = 50                  # a leaderboard page's rows over HTTP
WEB_LISTED = 200              # who is in, tables in play: at most this many rows, then "and N more"
PAGES_MAX = 200               # the furthest leaderboard page

# The EGA palette, as the games' screens show it (port/screen/profiles.py).
STYLE = """
body{background:#000;color:#AAA;font-family:"Courier New",Courier,monospace;font-size:16px;margin:16px 24px}
h1{color:#FFFF55;font-size:32px;letter-spacing:4px;margin:0 0 4px}
h2{color:#55FFFF;font-size:18px;margin:20px 0 6px}
p{margin:6px 0}
a{color:#FFF;text-decoration:none}
a:hover,a:focus{color:#FFFF55}
a.box{display:inline-block;border:2px solid #AA0000;color:#FFF;padding:2px 10px;margin:2px 6px 2px 0}
a.box u{color:#55FF55;text-decoration:underline}
a.box:hover,a.box:focus{border-color:#FF5555;outline:none}
table{border-collapse:collapse;border:2px solid #AA0000;margin:4px 0}
th{color:#AAA;text-align:left;padding:2px 10px;border-bottom:1px solid #AA0000}
td{color:#FFF;padding:1px 10px}
td.n,th.n{text-align:right}
.dim{color:#555}.won{color:#55FF55}.lost{color:#FF5555}.drawn{color:#FFFF55}
.sub{color:#AAA}.say{color:#FFF}.score{color:#55FFFF}.bot{color:#FF55FF}
.card{display:inline-block;background:#FFF;color:#000;padding:0 3px;margin:1px;border:1px solid #AAA}
.red{color:#AA0000}
.line{margin:0;white-space:pre-wrap}
form{margin:6px 0}
input{background:#000;color:#FFFF55;border:2px solid #AA0000;font:inherit;padding:1px 4px}
button{background:#000;color:#FFF;border:2px solid #AA0000;font:inherit;padding:1px 8px;cursor:pointer}
"""
SUITS = {"S": ("&#9824;", ""), "H": ("&#9829;", "red"), "D": ("&#9830;", "red"), "C": ("&#9827;", "")}
CARD = re.compile(r"\b([A2-9TJQK])([SHDC])\b")
HAND = re.compile(r"^Hand (\d+): ")


class Page:
    """A page made: its status, type and body, and until when it is served as made."""

    __slots__ = ("status", "kind", "body", "until", "name", "made_here")

    def __init__(self, status: int, body: str | bytes, kind: str = "text/html; charset=utf-8",
                 until: float = float("inf"), name: str = "", made_here: bool = True) -> None:
        self.status, self.kind, self.until, self.name, self.made_here = status, kind, until, name, made_here
        self.body = body.encode() if isinstance(body, str) else body


class Pages:
    """The HTTP side of the room: ``process_request`` answers a plain HTTP request with
    a page, and leaves a WebSocket upgrade to the room."""

    def __init__(self, store: Store, folder: Path, who: Callable[[], list[dict[str, Any]]] = list,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.store, self.folder, self.who, self.clock = store, Path(folder), who, clock
        self.made: OrderedDict[str, Page] = OrderedDict()
        self.rates: OrderedDict[str, RateLimit] = OrderedDict()

    # ---- the edge ---------------------------------------------------------------------------------

    def process_request(self, connection: Any, request: Any) -> Any:
        if request.headers.get("Upgrade", "").lower() == "websocket":
            return None                                    # the room itself
        address = str((getattr(connection, "remote_address", None) or ("?",))[0])
        if not self.allowed(address):
            page = Page(429, frame("TOO MANY PAGES", "<p>Too many pages from here: wait a moment.</p>"))
        else:
            page = self.page(request.path)
        return _response(page)

    def allowed(self, address: str) -> bool:
        """``PAGE_RATE`` pages a second per address, after a burst; the addresses
        remembered are bounded (the longest untouched forgotten first)."""
        rate = self.rates.get(address)
        if rate is None:
            rate = self.rates[address] = RateLimit(PAGE_RATE, PAGE_BURST)
            while len(self.rates) > PAGE_ADDRESSES:
                self.rates.popitem(last=False)
        self.rates.move_to_end(address)
        return rate.allow(self.clock())

    def page(self, target: str) -> Page:
        """The page at ``target`` (a path and query), made or as kept."""
        now = self.clock()
        kept = self.made.get(target)
        if kept is not None and kept.until > now:
            self.made.move_to_end(target)
            return kept
        try:
            page = self.make(target, now)
        except StoreError as exc:                 # said, and made again next time
            return Page(503, frame("NOT NOW", f"<p class='say'>The room cannot read its games just now ({esc(exc)})</p>"))
        except Exception:
            log.exception("a fault making the page %s", target[:100])
            return Page(500, frame("A FAULT", "<p class='say'>The room could not make that page: a fault of the room's, logged.</p>"))
        self.made[target] = page
        self.made.move_to_end(target)
        while len(self.made) > PAGE_CACHE:
            self.made.popitem(last=False)
        return page

    def make(self, target: str, now: float) -> Page:
        path, _, query = target.partition("?")
        args = parse_qs(query)
        fresh = now + PAGE_FRESH
        parts = path.split("/")[1:]
        if path in ("/", "/index.html"):
            return Page(200, self.home(), until=fresh)
        if path.lstrip("/") in BUILT:
            built = self.folder / path.lstrip("/")
            if built.is_file():
                return Page(200, built.read_bytes(), until=fresh, made_here=False)
            return missing("That game's web page is not built here (scripts/build_web.sh builds it).", fresh)
        if len(parts) == 2 and parts[0] == "top" and parts[1] in GAMES:
            return Page(200, self.top(parts[1], _page_number(args)), until=fresh)
        if path == "/players" and args.get("name"):       # the home page's form
            return self.player(args["name"][0], fresh)
        if len(parts) == 2 and parts[0] == "players" and parts[1]:
            return self.player(unquote(parts[1]), fresh)
        if len(parts) == 2 and parts[0] == "games":
            return self.game(parts[1], fresh)
        return missing("There is no such page here.", fresh)

    # ---- the pages ----------------------------------------------------------------------------------

    def home(self) -> str:
        built = [name for name in BUILT if (self.folder / name).is_file()]
        play = " ".join(box(name, TITLES[name.split(".")[0]], hot=0) for name in built) or \
            '<span class="dim">No web page is built here: scripts/build_web.sh builds them.</span>'
        tops = " ".join(box(f"/top/{g}", f"{TITLES[g]} TOP", hot=0) for g in GAMES)
        people = sorted(self.who(), key=lambda p: str(p.get("name", "")).lower())
        rows = [[player_link(str(p.get("name", ""))), "BOT" if p.get("bot") else "GUEST" if p.get("guest") else "",
                 *(esc(str((p.get("ratings") or {}).get(g, ""))) for g in GAMES), where(p)]
                for p in people[:WEB_LISTED]]
        tables = self.store.running_list()
        trows = [[TITLES.get(t.game, esc(t.game)), " v ".join(player_link(n) for n in t.players), when(t.created)]
                 for t in tables[:WEB_LISTED]]
        body = (f"<p class='sub'>GinRummy and Cribbage against people and bots.</p>"
                f"<h2>PLAY IN THE BROWSER</h2><p>{play}</p>"
                f"<h2>LEADERBOARDS</h2><p>{tops}</p>"
                "<h2>FIND A PLAYER</h2><form action='/players' method='get'>"
                "<input name='name' maxlength='16' size='16' aria-label='name'> <button>SHOW</button></form>"
                f"<h2>WHO IS IN ({len(people)})</h2>"
                + (grid(["NAME", "", *(TITLES[g] for g in GAMES), "WHERE"], rows) if rows else
                   "<p class='dim'>Nobody is in the room just now.</p>") + more(len(people))
                + f"<h2>TABLES IN PLAY ({len(tables)})</h2>"
                + (grid(["GAME", "PLAYERS", "SINCE"], trows) if trows else
                   "<p class='dim'>No table is in play just now.</p>") + more(len(tables)))
        return frame("CARD ROOM", body, home=False)

    def top(self, game: str, page: int) -> str:
        start = (page - 1) * WEB_TOP
        rated, more_rated = top(self.store, game, False, start, WEB_TOP)
        new, more_new = top(self.store, game, True, start, WEB_TOP)
        heads = ["#", "NAME", "", "RATING", "GAMES", "WON", "DRAWN", "LOST"]

        def rows(got: list[dict[str, Any]]) -> list[list[str]]:
            return [[str(r["rank"]), player_link(r["name"]), "BOT" if r["bot"] else "", esc(r["shown"]),
                     str(r["games"]), str(r["wins"]), str(r["draws"]), str(r["losses"])] for r in got]

        body = "<h2>RATED</h2>" + (grid(heads, rows(rated), numeric=(0, 3, 4, 5, 6, 7)) if rated else
                                   "<p class='dim'>No established rating yet.</p>")
        body += ("<h2>PROVISIONAL</h2><p class='sub'>Fewer games: a rating with a ? says little yet.</p>"
                 + (grid(heads, rows(new), numeric=(0, 3, 4, 5, 6, 7)) if new else
                    "<p class='dim'>No provisional rating here.</p>"))
        nav = []
        if page > 1:
            nav.append(box(f"/top/{game}?page={page - 1}", "PREVIOUS PAGE", hot=0))
        if (more_rated or more_new) and page < PAGES_MAX:
            nav.append(box(f"/top/{game}?page={page + 1}", "NEXT PAGE", hot=0))
        other = next(g for g in GAMES if g != game)
        nav.append(box(f"/top/{other}", f"{TITLES[other]} TOP", hot=0))
        sub = f"PAGE {page}: RANKS {start + 1}-{start + WEB_TOP}" if page > 1 else "THE TOP PLAYERS"
        return frame(f"{TITLES[game]} TOP", f"<p class='sub'>{sub}</p>{body}<p>{' '.join(nav)}</p>")

    def player(self, name: str, until: float) -> Page:
        got = profile(self.store, name[:40])
        if got is None:
            return missing(f"There is no player {esc(name[:40])} in the room.", until)
        kind = " (BOT)" if got["bot"] else " (GUEST: games kept, not rated)" if got["guest"] else ""
        body = f"<p class='sub'>In the room since {day(got['since'])}{kind}.</p>"
        for game in GAMES:
            g = got["games"][game]
            body += (f"<h2>{TITLES[game]}: {esc(g['shown'])}</h2>"
                     f"<p>{g['games']} rated game{'s' if g['games'] != 1 else ''}: {g['wins']} won, "
                     f"{g['draws']} drawn, {g['losses']} lost.</p>")
            if g["history"]:
                rows = [[game_link(h["number"]), player_link(h["opponent"]), outcome(h["score"]),
                         f"{esc(h['before'])} &rarr; {esc(h['after'])}", f"{h['change']:+d}", day(h["finished"])]
                        for h in g["history"]]
                body += grid(["GAME", "AGAINST", "RESULT", "RATING", "CHANGE", "DATE"], rows, numeric=(4,))
        games = game_list(self.store, got["name"])
        body += f"<h2>LAST GAMES ({len(games)})</h2>"
        if games:
            rows = [[game_link(g["number"]), TITLES.get(g["game"], ""), " v ".join(player_link(p) for p in g["players"]),
                     esc(result_text(g["result"], g["players"])), day(g["finished"])] for g in games]
            body += grid(["GAME", "", "PLAYERS", "RESULT", "DATE"], rows)
        else:
            body += "<p class='dim'>No finished game yet.</p>"
        return Page(200, frame(got["name"], body), until=until)

    def game(self, word: str, until: float) -> Page:
        number, rec = (word[:-4], True) if word.endswith(".rec") else (word, False)
        row = self.store.game(int(number)) if _digits(number, 10) and 0 < int(number) < 2**31 else None
        if row is None:
            return missing(f"There is no game {esc(word[:20])} in the room.", until)
        if rec:                                           # the file name the game's SAVE RECORD would give
            name = f"{PREFIXES.get(row.game, 'GR')}{row.number % 10000:04d}.REC"
            return Page(200, row.record, "text/plain; charset=utf-8", name=name)
        return Page(200, game_page(row))                  # a finished game never changes: kept


# ---- a finished game's page ----------------------------------------------------------------------

def game_page(row: FinishedGame) -> str:
    """Players, rules, result and the hands, cut from the record's lines."""
    lines = row.record.splitlines()
    header, hands = split_hands(lines)
    said = {k: v for k, _, v in (line.partition(": ") for line in header)}
    seats = [v for k, v in said.items() if k.startswith("Seat ")]
    players = "".join(f"<p>{player_link(p)} <span class='dim'>{esc(role)}</span></p>"
                      for p, role in zip(row.players, (s.partition(" (")[2].rstrip(")") for s in seats)))
    rules = "".join(f"<p><span class='sub'>{esc(k)}:</span> {esc(said[k])}</p>"
                    for k in ("Rules", "Table rules") if k in said)
    result_line = next((line for line in reversed(lines) if line.startswith("Result: ")), "")
    body = (f"<p class='sub'>{esc(said.get('Date', day(row.finished)))}</p><h2>PLAYERS</h2>{players}"
            f"<h2>RULES</h2>{rules}<h2>RESULT</h2><p class='say'>{esc(result_text(row.result, list(row.players)))}.</p>"
            + (f"<p class='dim'>{esc(result_line)}</p>" if result_line else "")
            + f"<p>{box(f'/games/{row.number}.rec', 'THE RECORD', hot=4)} "
            f"<span class='dim'>{esc(row.game)} replay FILE, {esc(row.game)} review FILE</span></p>")
    for n, hand in hands:
        body += f"<h2>HAND {n}</h2>" + "".join(hand_line(line) for line in hand)
    return frame(f"GAME {row.number}: {TITLES.get(row.game, esc(row.game))}", body)


def split_hands(lines: list[str]) -> tuple[list[str], list[tuple[int, list[str]]]]:
    """The record's header, and each hand's lines (the Result line after the last)."""
    header: list[str] = []
    hands: list[tuple[int, list[str]]] = []
    for line in lines:
        m = HAND.match(line)
        if m:
            hands.append((int(m.group(1)), [line]))
        elif line.startswith("Result: "):
            continue
        elif hands:
            hands[-1][1].append(line)
        else:
            header.append(line)
    return header, hands


SCORED = ("Scores after", "Knock:", "Gin:", "Big gin:", "Undercut:", "Nobody", "'s hand:", "'s crib:")


def hand_line(line: str) -> str:
    """A line of a hand: the cards as cards; the stock (long, and only for the replay)
    dimmed; what scored in its colour."""
    if line.startswith("Stock, top first:"):
        return f"<p class='line dim'>{esc(line)}</p>"
    kind = "score" if any(s in line for s in SCORED) else "say"
    if " is dealt: " in line or line.startswith(("Upcard: ", "Starter: ")):
        return f"<p class='line {kind}'>{cards_in(line)}</p>"
    return f"<p class='line {kind}'>{esc(line)}</p>"


def cards_in(line: str) -> str:
    """A line with its cards drawn as cards ("8S" as a white card with a black spade)."""
    out, at = [], 0
    for m in CARD.finditer(line):
        out.append(esc(line[at:m.start()]))
        symbol, colour = SUITS[m.group(2)]
        rank = "10" if m.group(1) == "T" else m.group(1)
        out.append(f"<span class='card' title='{m.group(0)}'><span class='{colour}'>{rank}{symbol}</span></span>")
        at = m.end()
    out.append(esc(line[at:]))
    return "".join(out)


# ---- the pieces -----------------------------------------------------------------------------------

def esc(text: object) -> str:
    return html.escape(str(text), quote=True)


def frame(title: str, body: str, home: bool = True) -> str:
    """A whole page: the heading in yellow, the body, and the way home."""
    back = f"<p style='margin-top:24px'>{box('/', 'CARD ROOM', hot=0)}</p>" if home else ""
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{esc(title)}</title>"
            f"<meta name='viewport' content='width=device-width'><style>{STYLE}</style></head>"
            f"<body><h1>{esc(title)}</h1>{body}{back}</body></html>")


def box(href: str, label: str, hot: int | None = None) -> str:
    """A red command box with its hot letter (light green, underlined; the browser's
    access key)."""
    if hot is None or not 0 <= hot < len(label):
        return f"<a class='box' href='{esc(href)}'>{esc(label)}</a>"
    key = label[hot]
    return (f"<a class='box' href='{esc(href)}' accesskey='{esc(key.lower())}'>{esc(label[:hot])}"
            f"<u>{esc(key)}</u>{esc(label[hot + 1:])}</a>")


def grid(heads: list[str], rows: Iterable[list[str]], numeric: tuple[int, ...] = ()) -> str:
    """A table of cells already escaped."""
    def cell(tag: str, i: int, text: str) -> str:
        return f"<{tag} class='n'>{text}</{tag}>" if i in numeric else f"<{tag}>{text}</{tag}>"

    head = "".join(cell("th", i, esc(h)) for i, h in enumerate(heads))
    body = "".join("<tr>" + "".join(cell("td", i, c) for i, c in enumerate(r)) + "</tr>" for r in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def player_link(name: str) -> str:
    return f"<a href='/players/{quote(str(name), safe='')}'>{esc(name)}</a>"


def game_link(number: int) -> str:
    return f"<a href='/games/{int(number)}'>{int(number)}</a>"


def more(n: int) -> str:
    return f"<p class='dim'>and {n - WEB_LISTED} more</p>" if n > WEB_LISTED else ""


def where(p: dict[str, Any]) -> str:
    place = "AT A TABLE" if p.get("status") == "playing" else "FREE"
    game = p.get("game")
    return f"{place} IN {TITLES[game]}" if game in TITLES else place


def outcome(score: float) -> str:
    return {1.0: "<span class='won'>WON</span>", 0.5: "<span class='drawn'>DRAWN</span>"}.get(
        score, "<span class='lost'>LOST</span>")


def result_text(result: dict[str, Any], players: list[str]) -> str:
    """A finished game's result in words: "Stan won 57 to 22", "Stan won: Eve resigned
    in hand 2", "a draw, 100 to 100"."""
    winner, how = result.get("winner"), result.get("how")
    scores = list(result.get("scores") or [0, 0])
    if how == "played" or how is None:
        if winner is None:
            return f"A draw, {scores[0]} to {scores[1]}"
        w = [str(p).lower() for p in players].index(str(winner).lower()) if str(winner) in players else 0
        return f"{winner} won {scores[w]} to {scores[1 - w]}"
    words = {"resigned": "resigned", "clock": "forfeited on the clock", "away": "did not come back"}.get(
        str(how), str(how))
    return f"{winner} won: {result.get('loser')} {words} in hand {result.get('hands', 1)}"


def day(t: float) -> str:
    return datetime.fromtimestamp(float(t), timezone.utc).strftime("%Y-%m-%d")


def when(t: float) -> str:
    return datetime.fromtimestamp(float(t), timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def missing(sentence: str, until: float) -> Page:
    return Page(404, frame("NOT HERE", f"<p class='say'>{sentence}</p>"), until=until)


def _digits(word: str, most: int) -> bool:
    return 0 < len(word) <= most and word.isascii() and word.isdigit()


def _page_number(args: dict[str, list[str]]) -> int:
    word = (args.get("page") or ["1"])[0]
    return max(1, min(PAGES_MAX, int(word))) if _digits(word, 5) else 1


def _response(page: Page) -> Any:   # -> websockets.http11.Response
    """The page, its length said (else the browser waits for the connection to close)."""
    from websockets.datastructures import Headers
    from websockets.http11 import Response

    headers = Headers({"Content-Type": page.kind, "Content-Length": str(len(page.body)), "Connection": "close",
                       "X-Content-Type-Options": "nosniff"})
    if page.made_here:            # no script, nothing from elsewhere: only its own style and form
        headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'"
    if page.name:
        headers["Content-Disposition"] = f'inline; filename="{page.name}"'
    if page.status == 429:
        headers["Retry-After"] = "1"
    reason = {200: "OK", 404: "Not Found", 429: "Too Many Requests", 500: "Internal Server Error",
              503: "Service Unavailable"}.get(page.status, "OK")
    return Response(page.status, reason, headers, page.body)


__all__ = ["Pages", "frame", "game_page", "result_text"]
