"""Both games as single-agent Gymnasium environments: the learner plays one seat, the
opponent (one of our levels, a bot file, a ``Player`` or a policy) is played inside
``step()`` until it is the learner's turn again.

    from port.env.single import GinRummySingle
    env = GinRummySingle(seat="alternate", opponent="standard", episode="hand")
    obs, info = env.reset(seed=1)
    obs, reward, terminated, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))

Each is a ``gymnasium.Env`` over the game's AEC environment (``ginrummy_v0.raw_env``,
``cribbage_v0.raw_env``, which it drives without PettingZoo's wrappers): the same
engine, the same actions, the same observation array (a ``Box``, the AEC
observation's ``"observation"``), the same rewards seen from the learner's seat.

* ``seat``: 0, 1, ``"random"`` (drawn per episode from the environment's generator)
  or ``"alternate"`` (0, 1, 0, ... from each seeded reset).
* ``opponent``: a level ("easy", "standard", "expert", in both games),
  "path/to/bot.py:Name" (a player or a policy), a ``Player`` object, a
  policy (``policy(observation, action_mask) -> action`` or an object with ``act``),
  or ``"random"`` (uniformly random legal actions). A level or bot file named by
  string is built again at each reset with a seed from the environment's generator,
  so ``reset(seed=...)`` fixes its choices too; an object given is used as it is.
* ``episode``: "hand" (one hand or deal; the default) or "game" (to the score limit).
  The reward of a step is what the learner's seat gained less what the opponent
  gained over the learner's action and the opponent's answers (GinRummy: a hand's
  points when it ends; Cribbage: the points pegged), so an episode's return is the
  learner's score less the opponent's.
* ``reset()`` always ends at a learner decision: when the hand (or the game) is over
  before the learner has moved (the opponent gins at once, or the hand is drawn),
  it deals again (``redeals`` counts them; ``info["deal_seed"]`` is the AEC
  environment's seed for the deal played). In a "game" episode, points the opponent made before the learner's
  first move in a game still on are added to the learner's first reward.
* ``action_masks()``: the legal actions now, as booleans (sb3-contrib's MaskablePPO
  convention); ``info["action_mask"]`` holds the same as int8.
* ``illegal``: "refuse" (the default: the state is unchanged, the reward is
  ``illegal_reward``, ``info["illegal"]`` says why in one sentence) or "raise" (the
  game's ``IllegalMove``).

All other keywords are the game's own options (GinRummy's rule and table options,
Cribbage's ``limit``, ``skunking``, ``first_dealer``), ``render_mode`` and ``profile``.
``make_vec`` builds several in a Gymnasium vector environment.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from typing import Any

from port.extras import need

need("rl", "numpy", "gymnasium", "pettingzoo")

import gymnasium  # noqa: E402
import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402

from port.bots import PolicySeat  # noqa: E402
from port.env import adapters, crib_adapters, cribbage_v0, ginrummy_v0, register_ids  # noqa: E402
from port.env.seats import AGENTS, deal_seed, refuse_action, whole_number  # noqa: E402
from port.cribbage import levels as crib_levels, spaces as cs  # noqa: E402
from port.cribbage.rules.players import Player as CribPlayer  # noqa: E402
from port.cribbage.rules.state import IllegalMove as CribIllegal  # noqa: E402
from port.ginrummy import levels as gin_levels, spaces as gs  # noqa: E402
from port.ginrummy.rules.players import Player as GinPlayer  # noqa: E402
from port.ginrummy.rules.state import IllegalMove as GinIllegal  # noqa: E402

SEATS = (0, 1, "random", "alternate")
ILLEGAL = ("refuse", "raise")
REDEALS = 1000      # deals in a row that end before the learner moves: never near it


class _Game:
    """What differs between the two games for a single seat: the AEC environment,
    the player type, the levels, the adapter asking a player, the action's name."""

    def __init__(self, name: str, raw: Callable[..., Any], player: type, load: Callable[[str, int], Any],
                 level_policy: type, describe: Callable[[Any, int], str], illegal: type[Exception]) -> None:
        self.name, self.raw, self.player, self.load = name, raw, player, load
        self.level_policy, self.describe, self.illegal = level_policy, describe, illegal


def _gin_action(raw: Any, a: int) -> str:
    return gs.action_name(a)


def _crib_action(raw: Any, a: int) -> str:
    return cs.action_name(a, raw.hand.phase)


GIN = _Game("GinRummy", ginrummy_v0.raw_env, GinPlayer, gin_levels.load_player, adapters.LevelPolicy,
            _gin_action, GinIllegal)
CRIB = _Game("Cribbage", cribbage_v0.raw_env, CribPlayer, crib_levels.load_player, crib_adapters.LevelPolicy,
             _crib_action, CribIllegal)


class _Random:
    """The "random" opponent: a uniformly random legal action."""

    def __init__(self, raw: Any, seed: int) -> None:
        self.raw = raw
        self.rng = random.Random(seed)
        self.choice, self.legal = self.rng.choice, raw.legal

    def __call__(self) -> int:
        # The legal actions as a list in the mask's order: the same pick from the same
        # generator as np.flatnonzero(mask) gave, without the arrays.
        return int(self.choice(self.legal(self.raw.agent_selection)))


class _Policy:
    """A policy on the arrays as the opponent, its answers checked against the mask."""

    def __init__(self, raw: Any, policy: Any, game: _Game) -> None:
        self.raw, self.seat, self.game = raw, PolicySeat(policy), game

    def __call__(self) -> int:
        obs = self.raw.observe(self.raw.agent_selection)
        return self.seat.ask(obs["observation"], obs["action_mask"],
                             lambda a: self.game.describe(self.raw, a), self.game.illegal)


class SingleSeat(gymnasium.Env):
    """One seat of a two-seat game as a Gymnasium environment (see the module)."""

    game: _Game
    metadata = {"render_modes": ["ansi", "rgb_array"], "render_fps": 2}

    def __init__(self, seat: int | str = 0, opponent: Any = "standard", episode: str = "hand",
                 illegal: str = "refuse", illegal_reward: float = 0.0,
                 render_mode: str | None = None, **options: Any) -> None:
        if seat not in SEATS:
            raise ValueError(f"seat must be 0, 1, 'random' or 'alternate', not {seat!r}")
        if illegal not in ILLEGAL:
            raise ValueError(f"illegal must be 'refuse' or 'raise', not {illegal!r}")
        self.raw = self.game.raw(episode=episode, render_mode=render_mode, **options)
        self.render_mode = render_mode
        self.seat_option = seat
        self.opponent_spec = opponent
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.observation_space = self.raw.observation_spaces[AGENTS[0]]["observation"]
        self.action_space = spaces.Discrete(self.raw.action_spaces[AGENTS[0]].n)
        if isinstance(opponent, str) and opponent.lower() != "random":
            self.game.load(opponent, 0)            # a wrong name is refused now, in one sentence
        elif not isinstance(opponent, (str, self.game.player)) and not (
                callable(opponent) or callable(getattr(opponent, "act", None))):
            raise TypeError(f"opponent: name a level, 'random' or path/to/bot.py:Name, or give a "
                            f"{self.game.name} Player or a policy, not {opponent!r}")
        self.seat = 0 if seat == "alternate" else seat if isinstance(seat, int) else 0
        self.agent = AGENTS[self.seat]
        self.redeals = 0           # deals that ended before the learner moved (dealt again)
        self.deal_seed = 0         # the seed the AEC environment was last reset with
        self._opponent: Callable[[], int] | None = None
        self._mask = np.zeros(self.action_space.n, dtype=np.int8)
        self._pending = 0.0
        self._over = True

    # ---- the opponent ----------------------------------------------------------------

    def _new_opponent(self, seed: int) -> Callable[[], int]:
        spec, raw = self.opponent_spec, self.raw
        if isinstance(spec, str) and spec.lower() == "random":
            return _Random(raw, seed)
        if isinstance(spec, (str, self.game.player)):
            # a player asked with its seat's view, told of the hands and events
            return self.game.level_policy(spec, raw, seed)
        return _Policy(raw, spec, self.game)

    def _opponent_moves(self) -> float:
        """Play the opponent until the learner is to move or the episode is over; the
        learner's reward over those moves."""
        raw, me = self.raw, self.agent
        reward = 0.0
        assert self._opponent is not None
        while not raw.terminations[me] and raw.agent_selection != me:
            raw.step(self._opponent())
            reward += raw.rewards[me]
        return reward

    # ---- the Gymnasium API -------------------------------------------------------------

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple[np.ndarray, dict]:
        """A new episode from the environment's generator (``seed`` reseeds it).
        ``options``: ``{"deal_seed": S}`` deals the game of deal seed S (a game
        record's ``Seed:``), ``{"match_seed": S, "game": g}`` the match runner's game
        g of ``--seed S``; a deal over before the learner moves is still dealt again
        from the generator (``info["deal_seed"]`` says which was played)."""
        super().reset(seed=seed)
        given = deal_seed(random.Random(), None, options)[1] if options else None
        rng = self.np_random
        if self.seat_option == "random":
            self.seat = int(rng.integers(2))
        elif self.seat_option == "alternate":
            self.seat = 0 if seed is not None else 1 - self.seat
        self.agent = AGENTS[self.seat]
        raw = self.raw
        for _ in range(REDEALS):
            self.deal_seed = int(rng.integers(2 ** 32)) if given is None else given
            given = None
            raw.reset(options={"deal_seed": self.deal_seed})
            self._opponent = self._new_opponent(int(rng.integers(2 ** 31)))
            reward = self._opponent_moves()
            if not raw.terminations[self.agent]:
                break
            self.redeals += 1      # over before the learner moved: deal again
        else:
            raise RuntimeError(f"{REDEALS} deals in a row ended before the learner's first move")
        self._pending = reward
        self._over = False
        obs, info = self._seen()
        info["seat"] = self.seat
        info["deal_seed"] = self.deal_seed     # the game's deal seed: a record's Seed:, the AEC reset's seed
        return obs, info

    def _seen(self) -> tuple[np.ndarray, dict]:
        o = self.raw.observe(self.agent)
        self._mask = o["action_mask"]
        info = dict(self.raw.infos[self.agent])
        info["action_mask"] = self._mask.copy()
        return o["observation"], info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict]:
        if self._over:
            raise self.game.illegal(f"the {self.game.name} episode is over: call reset() before step()")
        if action.__class__ is not int and not whole_number(action):
            return self._refuse(action)
        a = int(action)  # type: ignore[call-overload]
        if not 0 <= a < len(self._mask) or not self._mask[a]:
            return self._refuse(a)
        raw, me = self.raw, self.agent
        raw.step(a)
        reward = self._pending + raw.rewards[me]
        if raw.agent_selection != me and not raw.terminations[me]:
            reward += self._opponent_moves()
        self._pending = 0.0
        terminated = bool(raw.terminations[me])
        self._over = terminated
        obs, info = self._seen()
        return obs, float(reward), terminated, False, info

    def _refuse(self, a: object) -> tuple[np.ndarray, float, bool, bool, dict]:
        legal = ", ".join(self.game.describe(self.raw, int(x)) for x in np.flatnonzero(self._mask))
        if not whole_number(a):
            sentence = f"{refuse_action(a, self.game.name)}; legal now: {legal}"
        else:
            n = int(a)  # type: ignore[call-overload]
            named = self.game.describe(self.raw, n) if 0 <= n < len(self._mask) else "no such action"
            sentence = f"{self.game.name}: action {n} ({named}) is not legal now; legal: {legal}"
        if self.illegal == "raise":
            raise self.game.illegal(sentence)
        obs, info = self._seen()
        info["illegal"] = sentence
        return obs, self.illegal_reward, False, False, info

    def action_masks(self) -> np.ndarray:
        """The learner's legal actions now, as booleans (all False once the episode is over)."""
        return self._mask.astype(bool)

    def render(self) -> str | np.ndarray | None:
        return self.raw.render()

    def close(self) -> None:
        self.raw.close()


class GinRummySingle(SingleSeat):
    """GinRummy for one learner seat (``port.env.single``; options: ``ginrummy_v0``)."""

    game = GIN


class CribbageSingle(SingleSeat):
    """Cribbage for one learner seat (``port.env.single``; options: ``cribbage_v0``)."""

    game = CRIB


GAMES: dict[str, type[SingleSeat]] = {"ginrummy": GinRummySingle, "cribbage": CribbageSingle}


def make(game: str = "ginrummy", **kwargs: Any) -> SingleSeat:
    """The single-agent environment of ``game`` ("ginrummy" or "cribbage")."""
    if game not in GAMES:
        raise ValueError(f"game must be 'ginrummy' or 'cribbage', not {game!r}")
    return GAMES[game](**kwargs)


def make_vec(game: str = "ginrummy", n: int = 4, vectorization: str = "sync",
             **kwargs: Any) -> gymnasium.vector.VectorEnv:
    """``n`` single-agent environments in one Gymnasium vector environment
    (``SyncVectorEnv``, or ``AsyncVectorEnv`` for ``vectorization="async"``: one process
    each). Sub-environments reset in the step that ends their episode (Gymnasium's
    same-step autoreset, as Stable-Baselines3's vector environments do), so the
    observations and masks after a step are always of a learner decision. The masks
    of the batch: ``action_masks(vec)``, ``vec.call("action_masks")``, or
    ``infos["action_mask"]``. ``vec.reset(seed=s)`` seeds sub-environment i with s + i."""
    if game not in GAMES:
        raise ValueError(f"game must be 'ginrummy' or 'cribbage', not {game!r}")
    if vectorization not in ("sync", "async"):
        raise ValueError(f"vectorization must be 'sync' or 'async', not {vectorization!r}")
    fns = [partial(make, game, **kwargs) for _ in range(n)]
    cls = gymnasium.vector.SyncVectorEnv if vectorization == "sync" else gymnasium.vector.AsyncVectorEnv
    return cls(fns, autoreset_mode=gymnasium.vector.AutoresetMode.SAME_STEP)


def action_masks(vec: gymnasium.vector.VectorEnv) -> np.ndarray:
    """The masks of a vector environment's sub-environments, one row each (booleans)."""
    return np.stack(vec.call("action_masks"))


register_ids(gymnasium)      # port.env does it too, once gymnasium is imported


__all__ = ["CribbageSingle", "GinRummySingle", "SingleSeat", "action_masks", "make", "make_vec"]
