"""The protocol's values: each engine value the room sends is JSON that gives back the
very value (``decode(encode(v)) == v``), so a bot client plays on the View the
server's engine made; and what cannot be read is one ProtocolError."""
from __future__ import annotations

import json

import pytest

from port.cards import PascalRandom, parse as cards
from port.cribbage.levels import load_player as crib_player
from port.cribbage.rules import GameState, Options as CribOptions
from port.cribbage.rules.players import step as crib_step
from port.cribbage.rules.state import Phase, View as CribView
from port.ginrummy.levels import load_player as gin_player
from port.ginrummy.rules import Game, Options
from port.ginrummy.rules.players import step as gin_step
from port.ginrummy.rules.settle import Settlement
from port.ginrummy.rules.state import Phase as GinPhase, View
from port.protocol import ProtocolError, decode, encode, parse


def _again(hint, value):
    return decode(hint, json.loads(json.dumps(encode(value))))


def test_every_gin_view_of_a_hand_comes_back_equal() -> None:
    game = Game(Options(knock_deck=True, doublers=("SPADES",), scoring="BOXES"), PascalRandom(4), 0)
    players = (gin_player("standard", 1), gin_player("easy", 2))
    hand_ = game.hand
    views = 0
    while hand_.phase is not GinPhase.OVER:
        for seat in (0, 1):
            view = game.view(seat)
            assert _again(View, view) == view
            views += 1
        gin_step(hand_, players[hand_.to_move], game.view(hand_.to_move))
    assert _again(Settlement, hand_.result) == hand_.result
    assert views > 20


def test_every_cribbage_view_of_a_deal_comes_back_equal() -> None:
    state = GameState.new(CribOptions(limit=61), PascalRandom(9))
    players = (crib_player("standard", 1), crib_player("easy", 2))
    while state.hand.phase is not Phase.DONE:
        crib_step(state.hand, players)
        for seat in (0, 1):
            view = state.hand.view(seat)
            assert _again(CribView, view) == view
    assert state.hand.view(0).shows        # the show's scores came back too


def test_a_card_is_its_text_and_bad_data_is_one_sentence() -> None:
    assert encode(cards("AS TD")) == ["AS", "TD"]
    with pytest.raises(ProtocolError, match="a card is its text"):
        decode(View, {**encode(Game(Options(), PascalRandom(1), 0).view(0)), "hand": [7]})
    with pytest.raises(ProtocolError, match="a View is a JSON object"):
        decode(View, [1, 2])


def test_parse_gives_a_typed_message() -> None:
    msg = parse('{"v":1,"type":"invite","to":"Bob","game":"cribbage","clock":30}')
    assert (msg.type, msg["to"], msg.get("clock"), msg.get("rules")) == ("invite", "Bob", 30, None)
    with pytest.raises(ProtocolError, match="needs its 'game' field"):
        parse('{"v":1,"type":"invite","to":"Bob"}')


def test_every_message_a_client_may_send_has_its_part_in_the_room(tmp_path) -> None:
    """The room's edge dispatches each checked message to the part that owns it: a type
    the protocol takes and no part answers would be a fault at the first such message."""
    from port.protocol import CLIENT
    from port.room.server import Room
    from port.room.store import SqliteStore

    store = SqliteStore(tmp_path / "ROOM.DB")
    try:
        assert set(Room(store).handlers) == set(CLIENT)
    finally:
        store.close()


def test_shown_names_a_table_and_a_question() -> None:
    """``shown``: the player's screen shows its question ``seq`` (its clock starts)."""
    msg = parse('{"v":1,"type":"shown","table":"t1","seq":14}')
    assert (msg.type, msg["table"], msg["seq"]) == ("shown", "t1", 14)
    with pytest.raises(ProtocolError, match="the shown message's 'seq' is 1 to 1000000, not 0"):
        parse('{"v":1,"type":"shown","table":"t1","seq":0}')
    with pytest.raises(ProtocolError, match="needs its 'seq' field"):
        parse('{"v":1,"type":"shown","table":"t1"}')
