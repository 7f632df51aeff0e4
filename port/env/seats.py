"""What both games' environments share: two seats named as PettingZoo names agents, each
with its own spaces, over a game whose current hand is ``game.hand``."""
from __future__ import annotations

import random
from typing import Any

from port.extras import need

need("rl", "gymnasium", "pettingzoo")

from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402
from pettingzoo.utils import wrappers  # noqa: E402
from pettingzoo.utils.env_logger import EnvLogger  # noqa: E402

AGENTS = ("player_0", "player_1")
RESET_OPTIONS = ("deal_seed", "match_seed", "game")


def whole_number(value: object) -> bool:
    """An action number as the environments take it: a Python or numpy integer, or a
    0-d integer array; never a bool, a float, a string, None or a list (which Python's
    ``int()`` would truncate, parse or refuse with its own error)."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return True
    kind = getattr(getattr(value, "dtype", None), "kind", None)
    return kind in ("i", "u") and getattr(value, "shape", None) == ()


def refuse_action(value: object, game: str) -> str:
    """The sentence refusing an action that is not a whole number."""
    return f"{game}: an action is a whole number (an int), not {value!r}"


def deal_seed(seeds: random.Random, seed: int | None, options: dict | None) -> tuple[random.Random, int]:
    """The generator of later deal seeds and this game's deal seed, from ``reset``'s
    arguments (docs/envs.md, "Seeds"): ``seed`` is the deal seed itself (the seed a
    game record's ``Seed:`` line names) and seeds the generator of the next games'
    seeds; ``options={"deal_seed": S}`` deals S without touching that generator;
    ``options={"match_seed": S, "game": g}`` deals the match runner's game g of
    ``--seed S``."""
    # Other keys are left alone, as PettingZoo's and Gymnasium's environments leave
    # them (their API tests pass one of their own).
    opts = {k: v for k, v in (options or {}).items() if k in RESET_OPTIONS}
    for key in opts:
        if not whole_number(opts[key]) or int(opts[key]) < 0:        # type: ignore[call-overload]
            raise ValueError(f"the reset option {key} is a whole number 0 or more, not {opts[key]!r}")
    if "game" in opts and "match_seed" not in opts:
        raise ValueError("the reset option game needs match_seed (the match runner's --seed)")
    if seed is not None:
        if not whole_number(seed):
            raise ValueError(f"the seed is a whole number, not {seed!r}")
        seeds = random.Random(seed)
    if "deal_seed" in opts:
        return seeds, int(opts["deal_seed"])
    if "match_seed" in opts:
        from port.match.common import game_seed
        return seeds, game_seed(int(opts["match_seed"]), int(opts.get("game", 0)))
    if seed is not None:
        return seeds, int(seed) & 0xFFFFFFFF
    return seeds, seeds.getrandbits(32)


class TwoSeats(AECEnv):
    """An AEC environment of two seats; a subclass sets ``observation_spaces``,
    ``action_spaces`` and ``game`` (None until ``reset``)."""

    observation_spaces: dict[str, spaces.Space]
    action_spaces: dict[str, spaces.Space]
    game: Any

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def hand(self) -> Any:
        """The hand the seats play now."""
        assert self.game is not None, "call reset() first"
        return self.game.hand


class OrderEnforcing(wrappers.OrderEnforcingWrapper):
    """PettingZoo's ``OrderEnforcingWrapper``, with the calls a training loop makes at
    every step (``last``, ``agents``, ``agent_selection``) answered by the environment
    itself once it has been reset, instead of through each wrapper's ``__getattr__``
    in turn (a tenth of a step's time). The same checks, the same errors.

    Over ``AssertOutOfBoundsWrapper`` (as ``wrap`` builds it), ``step`` makes both
    wrappers' checks itself and steps the environment: a plain ``int`` action is in a
    ``Discrete(n)`` space when ``0 <= action < n``, which is what gymnasium's
    ``Discrete.contains`` answers too, after a numpy conversion and ``iinfo`` that cost
    a tenth of a step; any other action (numpy integers, wrong types) is still asked of
    the space itself."""

    def __init__(self, env: AECEnv) -> None:
        super().__init__(env)
        self._raw = env.unwrapped
        # The shortcut only where the wrappers are exactly wrap()'s, over Discrete spaces
        # counting from 0.
        acts = getattr(self._raw, "action_spaces", {})
        self._bounds = (isinstance(env, wrappers.AssertOutOfBoundsWrapper) and env.env is self._raw
                        and all(isinstance(sp, spaces.Discrete) and int(sp.start) == 0 for sp in acts.values()))
        self._n = {agent: int(sp.n) for agent, sp in acts.items()}

    def agent_iter(self, max_iter: int = 2**63) -> AgentIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return AgentIterable(self, max_iter)

    def step(self, action: Any) -> None:
        raw = self._raw
        if not self._bounds or not self._has_reset or not raw.agents:
            super().step(action)
            return
        agent = raw.agent_selection
        # AssertOutOfBoundsWrapper's assertion, word for word.
        assert (action is None and (raw.terminations[agent] or raw.truncations[agent])) or (
            0 <= action < self._n[agent] if type(action) is int
            else raw.action_space(agent).contains(action)), "action is not in action space"
        self._has_updated = True
        raw.step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self._raw.last(observe)

    @property
    def agents(self) -> list[str]:
        if not self._has_reset:
            raise AttributeError("agents cannot be accessed before reset")
        return self._raw.agents

    @property
    def agent_selection(self) -> str:
        if not self._has_reset:
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self._raw.agent_selection


class AgentIterable:
    """``agent_iter()``'s loop, as PettingZoo's ``AECOrderEnforcingIterable`` makes it
    (the same stop, the same check that each turn was stepped), reading the
    environment itself instead of through the wrappers' properties."""

    def __init__(self, env: OrderEnforcing, max_iter: int) -> None:
        self.env, self.max_iter = env, max_iter

    def __iter__(self) -> AgentIterator:
        return AgentIterator(self.env, self.max_iter)


class AgentIterator:
    def __init__(self, env: OrderEnforcing, max_iter: int) -> None:
        self.env, self.raw, self.left = env, env._raw, max_iter

    def __iter__(self) -> AgentIterator:
        return self

    def __next__(self) -> str:
        raw = self.raw
        if not raw.agents or self.left <= 0:
            raise StopIteration
        self.left -= 1
        env = self.env
        assert env._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
        env._has_updated = False
        return raw.agent_selection


def wrap(raw: AECEnv) -> AECEnv:
    """The environment inside PettingZoo's usual checks: an action out of the space or
    after the end is reported, and ``render`` before ``reset`` is refused."""
    return OrderEnforcing(wrappers.AssertOutOfBoundsWrapper(raw))
