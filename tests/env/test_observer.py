"""The environments' fast paths give what the plain ones give: GinRummy's ``Observer``
(the public events replayed once each, as they come) against a fresh replay of the
whole hand at every step, and the engine's view with its kept public events against
the events themselves."""
from __future__ import annotations

import random

import numpy as np
import pytest

from port.env import cribbage_v0, ginrummy_v0
from port.cribbage import spaces as cs
from port.ginrummy import spaces as gs
from port.ginrummy.rules.options import PRESETS
from port.ginrummy.rules.state import Act, Event

TABLES = {
    "original": {},
    "card room": dict(PRESETS["CARD ROOM"]),
    "classic": dict(PRESETS["CLASSIC"]),
    "deal of eleven": {"deal_eleven": True, "scoring": "FLOP"},
    "upcard offer, knock deck": {"upcard_offer": True, "knock_deck": True, "scoring": "HOLLYWOOD"},
}


@pytest.mark.parametrize("table", list(TABLES))
def test_an_observer_kept_through_a_game_sees_what_a_fresh_replay_sees(table: str) -> None:
    rng = random.Random(3)
    checked = 0
    for seed in range(4):
        e = ginrummy_v0.raw_env(episode="game", score_limit=30, **TABLES[table])
        e.reset(seed=seed)
        kept = {a: gs.Observer() for a in e.possible_agents}
        deals = e.deals
        for _ in range(400):
            if all(e.terminations.values()):
                break
            if e.deals != deals:                    # a new hand: the env's observers start again
                deals = e.deals
                for o in kept.values():
                    o.reset()
            for a in e.possible_agents:
                v = e.view(a)
                assert np.array_equal(kept[a].observe(v), gs.Observer().observe(v))
                seen = e.observe(a)       # read from the hand, without a view
                assert np.array_equal(seen["observation"], gs.observation_of(v))
                assert np.array_equal(seen["action_mask"], gs.mask_of(v))
                checked += 1
            e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    assert checked > 300


def test_a_cribbage_observation_read_from_the_deal_is_the_views() -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(5):
        e = cribbage_v0.raw_env(episode="game", limit=61)
        e.reset(seed=seed)
        for _ in range(400):
            if all(e.terminations.values()):
                break
            for a in e.possible_agents:
                v, pending = e.view(a), e.pending_of(a)
                seen = e.observe(a)       # read from the deal, without a view
                assert np.array_equal(seen["observation"], cs.observation_of(v, pending))
                assert np.array_equal(seen["action_mask"], cs.mask_of(v, pending))
                checked += 1
            e.step(int(rng.choice(np.flatnonzero(e.mask(e.agent_selection)))))
    assert checked > 600


def test_an_observer_given_another_hand_replays_it_from_its_start() -> None:
    a, b = ginrummy_v0.raw_env(), ginrummy_v0.raw_env()
    a.reset(seed=1)
    b.reset(seed=2)
    rng = random.Random(1)
    for e in (a, b):
        for _ in range(12):
            e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    o = gs.Observer()
    o.observe(a.view("player_0"))
    assert np.array_equal(o.observe(b.view("player_0")), gs.observation_of(b.view("player_0")))


def test_a_view_shows_the_events_as_the_seat_may_see_them_whatever_was_asked_before() -> None:
    e = ginrummy_v0.raw_env()
    e.reset(seed=4)
    rng = random.Random(4)
    h = e.hand
    for _ in range(30):
        for seat in (0, 1):
            public = tuple(ev if ev.seat == seat or ev.act is not Act.DRAW_STOCK else Event(ev.seat, ev.act)
                           for ev in h.events)
            assert h.view(seat).events == public
            assert h.copy().view(seat).events == public
        e.step(int(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]))))
    # A list put in the events' place is read afresh.
    h.events = h.events[:3]
    assert h.view(0).events == tuple(ev if ev.seat == 0 or ev.act is not Act.DRAW_STOCK
                                     else Event(ev.seat, ev.act) for ev in h.events)


@pytest.mark.parametrize("module", [ginrummy_v0, cribbage_v0])
def test_an_environments_mask_and_legal_list_alone_are_the_ones_it_observes(module) -> None:
    rng = random.Random(8)
    checked = 0
    for seed in range(6):
        e = module.raw_env(episode="game", **({"score_limit": 30} if module is ginrummy_v0 else {"limit": 61}))
        e.reset(seed=seed)
        for _ in range(300):
            if all(e.terminations.values()):
                break
            for a in e.possible_agents:
                assert np.array_equal(e.mask(a), e.observe(a)["action_mask"])
                assert e.legal(a) == list(np.flatnonzero(e.mask(a)))     # the random opponent's list
                checked += 1
            e.step(int(rng.choice(np.flatnonzero(e.mask(e.agent_selection)))))
    assert checked > 500
