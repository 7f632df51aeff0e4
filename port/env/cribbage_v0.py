"""Cribbage as a PettingZoo AEC environment, on the port's own rules engine
(``port.cribbage.rules``).

    from port.env import cribbage_v0
    env = cribbage_v0.env(episode="game", limit=61)

Agents "player_0" and "player_1" are the engine's seats. Actions and observations:
``port.cribbage.spaces`` (and docs/envs.md). The show is counted by the environment
as soon as the play ends.

Rewards are the points pegged, zero-sum: at each step a seat gets the points it
pegged minus the points the other pegged (the play, a go, heels, the show), so a
seat's return over a deal is its points less the other's, and over a game
(``episode="game"``) its final score less the other's. Pegs stop at the limit, as on
the board. When a game ends, ``info`` holds the winner and whether it was a skunk.

Every rule option of the engine is an argument: ``limit`` (121 or 61), ``skunking``,
and ``first_dealer`` (0, 1, or None to cut for the deal).
"""
from __future__ import annotations

import random
from typing import Any

from port.extras import need
from port.env.seats import AGENTS, TwoSeats, deal_seed, refuse_action, whole_number, wrap

need("rl", "numpy", "gymnasium", "pettingzoo")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

from port.cards import CARDS, Card, PascalRandom  # noqa: E402
from port.cribbage.rules.options import Options  # noqa: E402
from port.cribbage.rules.state import GameState, IllegalMove, Phase, View  # noqa: E402
from port.cribbage import spaces as cs  # noqa: E402

EPISODES = ("hand", "game")
P0, P1 = AGENTS
RULE_OPTIONS = ("limit", "skunking", "first_dealer")


def env(**kwargs: Any) -> AECEnv:
    return wrap(raw_env(**kwargs))


class raw_env(TwoSeats):  # noqa: N801 - PettingZoo's own name for the unwrapped class
    metadata = {"name": "cribbage_v0", "render_modes": ["ansi", "rgb_array"],
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, episode: str = "hand", render_mode: str | None = None, profile: str = "EGA",
                 **rule_options: Any) -> None:
        super().__init__()
        unknown = sorted(set(rule_options) - set(RULE_OPTIONS))
        if unknown:
            raise TypeError(f"{', '.join(unknown)}: not an option of Cribbage's environment (they are "
                            f"{', '.join(RULE_OPTIONS)}, episode, render_mode and profile)")
        limit = rule_options.get("limit", 121)
        skunking = rule_options.get("skunking", False)
        first_dealer = rule_options.get("first_dealer")
        if episode not in EPISODES:
            raise ValueError(f"episode must be 'hand' or 'game', not {episode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or 'rgb_array', not {render_mode!r}")
        if first_dealer not in (None, 0, 1):
            raise ValueError(f"first_dealer is 0, 1 or None (cut for the deal), not {first_dealer!r}")
        self.options = Options(limit=limit, skunking=skunking)
        self.episode = episode
        self.first_dealer = first_dealer
        self.render_mode = render_mode
        self.profile = profile
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(low=0.0, high=1.0, shape=(cs.N_OBS,), dtype=np.float32),
            "action_mask": spaces.Box(low=0, high=1, shape=(cs.N_ACTIONS,), dtype=np.int8),
        }) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(cs.N_ACTIONS) for a in AGENTS}
        self._seeds = random.Random()
        self.deal_seed = 0      # the PascalRandom seed of the game being played
        self.game: GameState | None = None
        self.pending: Card | None = None     # the first card of a discard in two steps
        self.deals = 0
        self._renderer: Any = None

    def view(self, agent: str) -> View:
        """What ``agent``'s seat may know, as the engine's ``View``."""
        return self.hand.view(AGENTS.index(agent))

    def pending_of(self, agent: str) -> Card | None:
        """The card ``agent`` laid away in the first step of its discard, if any."""
        return self.pending if self.hand.to_act == AGENTS.index(agent) else None

    # ---- the AEC API -----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game. ``seed`` is the deal seed (a game record's ``Seed:`` deals its
        game again: the first dealer cut from it, as the game does, unless
        ``first_dealer`` says); the next games' seeds are drawn from it, or from the
        system. ``options``: ``{"deal_seed": S}`` or ``{"match_seed": S, "game": g}``
        (``port.env.seats.deal_seed``)."""
        self._seeds, self.deal_seed = deal_seed(self._seeds, seed, options)
        self.game = GameState.new(self.options, PascalRandom(self.deal_seed), self.first_dealer)
        self.deals += 1
        self.pending = None
        self.agents = list(AGENTS)
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._cumulative_rewards = dict.fromkeys(AGENTS, 0)
        self.terminations = dict.fromkeys(AGENTS, False)
        self.truncations = dict.fromkeys(AGENTS, False)
        self.infos = {P0: {}, P1: {}}
        self._settle()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # What the view would give (``cs.observation_of``, ``cs.mask_of``), read from the
        # deal without building one.
        assert self.game is not None, "call reset() first"
        h, seat = self.game.hand, AGENTS.index(agent)
        pending = self.pending if h.to_act == seat else None
        return {"observation": cs.observation_from(h, seat, pending),
                "action_mask": cs.mask_from(seat, h.to_act, h.phase, h.hands[seat], h.count, pending)}

    def mask(self, agent: str) -> np.ndarray:
        """``agent``'s action mask alone (``observe`` builds the observation too)."""
        h, seat = self.hand, AGENTS.index(agent)
        return cs.mask_from(seat, h.to_act, h.phase, h.hands[seat], h.count, self.pending_of(agent))

    def legal(self, agent: str) -> list[int]:
        """``agent``'s legal actions now, in increasing order: ``np.flatnonzero(mask)``
        as a list, without the array (the random opponent's pick)."""
        assert self.game is not None, "call reset() first"
        h, seat = self.game.hand, AGENTS.index(agent)
        return cs.legal_from(seat, h.to_act, h.phase, h.hands[seat], h.count,
                             self.pending if h.to_act == seat else None)

    # The hot path (every move of a training loop) reads the game's hand directly, not
    # through the ``hand`` property, and fills dicts with ``dict.fromkeys``.

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action.__class__ is not int:
            if not whole_number(action):
                raise IllegalMove(refuse_action(action, "Cribbage"))
            action = int(action)  # type: ignore[call-overload]
        seat = 0 if agent == P0 else 1
        total = self._cumulative_rewards
        total[agent] = 0
        self.rewards = rewards = dict.fromkeys(AGENTS, 0)
        h = self.game.hand                                 # type: ignore[union-attr]
        board = h.board
        b0, b1 = board
        if action != cs.GO and h.phase is Phase.PLAY:
            h.play(seat, action)
        else:
            self._apply(seat, action)
        if h.winner is None and (h.phase is Phase.PLAY or h.phase is Phase.DISCARD):
            # Nothing ended (most moves): _settle's rewards and turn, and PettingZoo's
            # _accumulate_rewards, written out.
            gained = board[0] - b0 - board[1] + b1
            if gained:
                rewards[P0], rewards[P1] = gained, -gained
                total[P0] += gained
                total[P1] -= gained
            self.agent_selection = AGENTS[h.to_act]        # type: ignore[index]
            return
        self._settle((b0, b1))
        total[P0] += rewards[P0]                      # PettingZoo's _accumulate_rewards
        total[P1] += rewards[P1]

    def _apply(self, seat: int, a: int) -> None:
        h = self.game.hand                                 # type: ignore[union-attr]
        if h.phase is Phase.PLAY:
            if a == cs.GO:
                h.go(seat)
            else:
                h.play(seat, a)
        elif h.phase is Phase.DISCARD:
            if a == cs.GO:
                raise IllegalMove("lay away a card to the crib now, not GO")
            card = CARDS[a] if 0 <= a < 52 else Card(a)
            if card not in h.hands[seat] or card == self.pending:
                raise IllegalMove(f"{card} is not in seat {seat}'s hand to lay away")
            if self.pending is None:
                self.pending = card
                return
            first, self.pending = self.pending, None
            h.discard(seat, (first, card))
        elif a == cs.GO:
            h.go(seat)       # not the play: the engine says why not
        else:
            h.play(seat, a)

    def _settle(self, before: tuple[int, int] | None = None) -> None:
        """After a move: count the show when the play is over, deal on in a game, give
        the points pegged as rewards, and pass the turn. ``before``: the pegs before
        the move (none: nothing gained)."""
        game = self.game
        assert game is not None
        h = game.hand
        if h.phase is Phase.SHOW:
            h.count_show()     # the breakdowns written when read (a view, a render)
        board = h.board
        if before is None:
            before = (board[0], board[1])
        g0, g1 = board[0] - before[0], board[1] - before[1]
        if h.winner is not None:
            w = h.winner
            self.infos = {a: {"winner": AGENTS[w], "skunk": game.skunk, "scores": h.scores}
                          for a in AGENTS}
            self.terminations = dict.fromkeys(AGENTS, True)
        elif h.phase is Phase.DONE:
            if self.episode == "hand":
                self.infos = {a: {"scores": h.scores} for a in AGENTS}
                self.terminations = dict.fromkeys(AGENTS, True)
            else:
                game.next_hand()
                self.deals += 1
        rewards = self.rewards
        rewards[AGENTS[0]] = g0 - g1
        rewards[AGENTS[1]] = g1 - g0
        to_act = game.hand.to_act
        if to_act is not None:
            self.agent_selection = AGENTS[to_act]
        elif not hasattr(self, "agent_selection") or self.agent_selection not in AGENTS:
            self.agent_selection = AGENTS[0]

    # ---- showing it ------------------------------------------------------------------

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        from port.env import crib_render
        if self.render_mode == "ansi":
            return crib_render.ansi(self.hand, self.pending)
        if self._renderer is None:
            self._renderer = crib_render.Frames(self.profile)
        return self._renderer.frame(self.hand, self.pending)

    def close(self) -> None:
        self._renderer = None
