"""Looking back: finished games (a player's list of them, a game's record), the
leaderboards and a player's profile, read from the store (never from a live table).

Every finished game is public, as the HTTP pages serve it (docs/room.md, "What is
public"): ``game`` gives any game's record, ``games`` anyone's list. Each answer is
bounded (a page of a leaderboard, the last games), and a connection may look only so
fast (``limits.LOOK_RATE``): past it a look is refused in one sentence, so it never
delays the connection's moves.
"""
from __future__ import annotations

import time
from typing import Any

from port.protocol import GAMES, Message, dump
from port.room import ratings
from port.room.errors import Refused
from port.room.limits import GAMES_LISTED, PROFILE_GAMES, PROFILE_HISTORY, TOP_PAGE
from port.room.store import FinishedGame, RatedGame, Standing, Store

# The room is passed in, not imported: the server imports this module.
Room = Any


class Archive:
    """The room's looking-back part: ``games``, ``game``, ``top``, ``profile``."""

    def __init__(self, room: Room) -> None:
        self.room = room

    def _look(self, who: Any) -> None:
        """A look is allowed at the connection's rate, or refused (never waited for)."""
        looks = getattr(who, "looks", None)
        if looks is not None and not looks.allow(time.monotonic()):
            raise Refused("you are looking too fast: wait a moment")

    async def on_games(self, who: Any, msg: Message) -> None:
        self._look(who)
        name = msg.get("name", who.name)
        who.put(dump("games", name=name, games=game_list(self.room.store, name)))

    async def on_game(self, who: Any, msg: Message) -> None:
        self._look(who)
        row = self.room.store.game(msg["number"])
        if row is None:
            raise Refused(f"there is no game {msg['number']}")
        who.put(dump("record", number=row.number, game=row.game, players=list(row.players), result=row.result,
                     text=row.record))

    async def on_top(self, who: Any, msg: Message) -> None:
        self._look(who)
        game, provisional, start = msg["game"], bool(msg.get("provisional", False)), msg.get("start", 0)
        rows, more = top(self.room.store, game, provisional, start)
        who.put(dump("top", game=game, provisional=provisional, start=start, players=rows, more=more))

    async def on_profile(self, who: Any, msg: Message) -> None:
        self._look(who)
        got = profile(self.room.store, msg["name"])
        if got is None:
            raise Refused(f"there is no player {msg['name']}")
        who.put(dump("profile", **got))


# ---- what both the messages and the HTTP pages say ---------------------------------------------

def summary(g: FinishedGame) -> dict[str, Any]:
    """A finished game in a list: no record (a list reads none)."""
    return {"number": g.number, "game": g.game, "players": list(g.players), "result": g.result,
            "finished": g.finished}


def game_list(store: Store, name: str, limit: int = GAMES_LISTED) -> list[dict[str, Any]]:
    return [summary(g) for g in store.games_of(name, limit, records=False)]


def standing_fields(s: Standing) -> dict[str, Any]:
    r = s.rating
    return {"name": s.name, "bot": s.bot, "rating": round(r.rating, 1), "rd": round(r.rd, 1),
            "shown": ratings.shown(r), "provisional": ratings.provisional(r), "games": r.games,
            "wins": s.wins, "draws": s.draws, "losses": s.losses}


def top(store: Store, game: str, provisional: bool = False, start: int = 0,
        page: int = TOP_PAGE) -> tuple[list[dict[str, Any]], bool]:
    """A page of ``game``'s leaderboard from rank ``start`` + 1, and whether more follow."""
    got = store.leaderboard(game, provisional, start, page + 1)
    return [{"rank": start + i + 1, **standing_fields(s)} for i, s in enumerate(got[:page])], len(got) > page


def point(h: RatedGame) -> dict[str, Any]:
    """One game of a rating history, as the room says a rating's change."""
    return {"number": h.number, "opponent": h.opponent, "score": h.score, "before": ratings.shown(h.before),
            "after": ratings.shown(h.after), "change": round(h.after.rating - h.before.rating),
            "rating": round(h.after.rating, 1), "finished": h.finished}


def profile(store: Store, name: str) -> dict[str, Any] | None:
    """A player's page: each game's rating, results and rating history, and the last
    games (None: no such account)."""
    account = store.account(name)
    if account is None:
        return None
    games = {}
    for game in GAMES:
        s = store.standing(account.name, game)
        if s is None:
            return None
        games[game] = {**standing_fields(s),
                       "history": [point(h) for h in store.rating_history(account.name, game, PROFILE_HISTORY)]}
    return {"name": account.name, "bot": account.bot, "guest": account.guest, "since": account.created,
            "games": games, "last": game_list(store, account.name, PROFILE_GAMES)}


__all__ = ["Archive", "game_list", "point", "profile", "standing_fields", "summary", "top"]
