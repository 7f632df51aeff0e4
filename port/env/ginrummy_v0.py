"""GinRummy as a PettingZoo AEC environment, on the port's own rules engine.

    from port.env import ginrummy_v0
    env = ginrummy_v0.env(episode="game", score_limit=100, oklahoma=True)
    env.reset(seed=1)
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        action = None if term or trunc else policy(obs["observation"], obs["action_mask"])
        env.step(action)

Agents "player_0" and "player_1" are the engine's seats 0 and 1. The action space and
the observation are documented in ``port.ginrummy.spaces`` (and docs/envs.md).

Rewards are the real points of the game, zero-sum: when a hand ends its winner gets
+points (gin or undercut bonus, doubling and all) and the other seat -points; a drawn
hand gives 0. ``episode="hand"`` ends the episode after one hand; ``episode="game"``
plays hands until a score reaches the limit, so a seat's return is its final score
minus the other's.

Every hand ends: the engine makes a hand a draw when the pile has been taken 20 times
in a row (``PILE_RUN_LIMIT``), so there is no truncation.

Every rule option of the engine is an argument: ``gin_bonus``, ``undercut_bonus``,
``score_limit``, ``oklahoma``, ``knocking``, ``first_turn`` ("alternate", the default:
the first turn alternates from hand to hand, as the match runner plays; "seat0": seat 0
starts every hand, as the original's human did), and the table rules
(``knock_deck``, ``scoring``, ``doublers``, ``shutout``, ``upcard_offer`` — answered with
action 1 to take the upcard, 0 to decline —, ``deal_eleven``, ``random_first``,
``winner_deals``, ``box_bonus``), with the engine's defaults. Under a scoring method
with game-end bonuses a "game" episode's returns are the score sheet's final difference.
"""
from __future__ import annotations

import dataclasses
import random
from typing import Any

from port.extras import need
from port.env.seats import AGENTS, TwoSeats, deal_seed, refuse_action, whole_number, wrap

need("rl", "numpy", "gymnasium", "pettingzoo")

import numpy as np  # noqa: E402
from gymnasium import spaces  # noqa: E402
from pettingzoo import AECEnv  # noqa: E402

from port.cards import CARDS, PascalRandom  # noqa: E402
from port.ginrummy import spaces as gs  # noqa: E402
from port.ginrummy.rules.options import FirstTurn, Options  # noqa: E402
from port.ginrummy.rules.players import KnockChoice  # noqa: E402
from port.ginrummy.rules.state import Game, IllegalMove, Phase, View  # noqa: E402

EPISODES = ("hand", "game")


def env(**kwargs: Any) -> AECEnv:
    """The environment with PettingZoo's usual checks: an action out of the space or
    after the end is reported, and ``render`` before ``reset`` is refused."""
    return wrap(raw_env(**kwargs))


def options_from(**rule_options: Any) -> Options:
    """The engine's ``Options`` from the environment's keyword arguments: every field of
    ``Options`` (the original's rules and the table rules), with the engine's defaults
    but ``first_turn`` ("alternate" unless given: the first turn alternates from hand
    to hand, as the match runner plays; "seat0" is the original's). A wrong name or value is the engine's
    one-sentence refusal."""
    fields = {f.name for f in dataclasses.fields(Options)}
    unknown = sorted(set(rule_options) - fields)
    if unknown:
        raise TypeError(f"{', '.join(unknown)}: not a rule option (they are {', '.join(sorted(fields))})")
    rule_options["first_turn"] = FirstTurn(rule_options.get("first_turn", FirstTurn.ALTERNATE))
    if "doublers" in rule_options:
        rule_options["doublers"] = tuple(rule_options["doublers"])
    return Options(**rule_options)


class raw_env(TwoSeats):  # noqa: N801 - PettingZoo's own name for the unwrapped class
    metadata = {"name": "ginrummy_v0", "render_modes": ["ansi", "rgb_array"],
                "is_parallelizable": False, "render_fps": 2}

    def __init__(self, episode: str = "hand", render_mode: str | None = None,
                 profile: str = "EGA", **rule_options: Any) -> None:
        super().__init__()
        if episode not in EPISODES:
            raise ValueError(f"episode must be 'hand' or 'game', not {episode!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or 'rgb_array', not {render_mode!r}")
        self.options = options_from(**rule_options)
        self.episode = episode
        self.render_mode = render_mode
        self.profile = profile
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs = spaces.Box(low=0.0, high=np.finfo(np.float32).max, shape=(gs.N_OBS,), dtype=np.float32)
        self.observation_spaces = {a: spaces.Dict({
            "observation": obs,
            "action_mask": spaces.Box(low=0, high=1, shape=(gs.N_ACTIONS,), dtype=np.int8),
        }) for a in AGENTS}
        self.action_spaces = {a: spaces.Discrete(gs.N_ACTIONS) for a in AGENTS}
        self._seeds = random.Random()
        self.deal_seed = 0      # the PascalRandom seed of the game being played
        self.game: Game | None = None
        self.deals = 0          # hands dealt so far: tells policies a new hand from the last
        # Each seat's observation, kept up to date event by event (``gs.Observer``);
        # new ones for each hand dealt.
        self._observers: dict[str, gs.Observer] = {}
        self._observed_deal = -1
        self._renderer: Any = None

    # ---- the hand the seats play ----------------------------------------------------

    def view(self, agent: str) -> View:
        """What ``agent``'s seat may know, as the engine's ``View``: the observation's
        source, and what our own players (``port.env.adapters``) read."""
        assert self.game is not None, "call reset() first"
        return self.game.view(AGENTS.index(agent))

    # ---- the AEC API -----------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new game. ``seed`` is the deal seed (Turbo Pascal's generator, so a seed
        deals the same cards on every machine, and a game record's ``Seed:`` deals its
        game again); the next games' seeds are drawn from it, or from the system.
        ``options``: ``{"deal_seed": S}`` or ``{"match_seed": S, "game": g}``
        (``port.env.seats.deal_seed``)."""
        self._seeds, self.deal_seed = deal_seed(self._seeds, seed, options)
        self.game = Game(self.options, PascalRandom(self.deal_seed))
        self.deals += 1
        self.agents = list(AGENTS)
        self.rewards = {a: 0 for a in AGENTS}
        self._cumulative_rewards = {a: 0 for a in AGENTS}
        self.terminations = {a: False for a in AGENTS}
        self.truncations = {a: False for a in AGENTS}
        self.infos = {a: {} for a in AGENTS}
        self.agent_selection = AGENTS[self.hand.to_move]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        # What the view would give (``gs.observation_of``, ``gs.mask_of``), read from the
        # hand without building one: the view was a fifth of a step.
        assert self.game is not None, "call reset() first"
        h, seat, scores = self.game.hand, AGENTS.index(agent), self.game.scores
        return {"observation": self._observer(agent).observe_hand(h, seat, (scores[0], scores[1])),
                "action_mask": gs.mask_from(h, seat)}

    def mask(self, agent: str) -> np.ndarray:
        """``agent``'s action mask alone (``observe`` builds the observation too)."""
        assert self.game is not None, "call reset() first"
        return gs.mask_from(self.game.hand, AGENTS.index(agent))

    def legal(self, agent: str) -> list[int]:
        """``agent``'s legal actions now, in increasing order: ``np.flatnonzero(mask)``
        as a list, without the array (the random opponent's pick)."""
        assert self.game is not None, "call reset() first"
        return gs.legal_from(self.game.hand, AGENTS.index(agent))

    def _observer(self, agent: str) -> gs.Observer:
        if self._observed_deal != self.deals:
            self._observed_deal = self.deals
            self._observers = {a: gs.Observer() for a in AGENTS}
        return self._observers[agent]

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action.__class__ is not int and not whole_number(action):
            raise IllegalMove(refuse_action(action, "GinRummy"))
        seat = AGENTS.index(agent)
        self._cumulative_rewards[agent] = 0
        self.rewards = dict.fromkeys(AGENTS, 0)
        self._apply(seat, int(action))  # type: ignore[call-overload]
        h = self.game.hand                                 # type: ignore[union-attr]
        if h.phase is Phase.OVER:
            self._hand_over()
        else:
            self.agent_selection = AGENTS[h.to_move]
        total = self._cumulative_rewards              # PettingZoo's _accumulate_rewards
        for a, r in self.rewards.items():
            total[a] += r

    def _apply(self, seat: int, a: int) -> None:
        """Make the move on the engine: an illegal one raises ``IllegalMove`` (a plain
        sentence) and changes nothing. (The action read by comparison, the commonest
        first; a wrong one gets ``gs.draw_of``'s or ``gs.discard_of``'s sentence.)"""
        h = self.game.hand                                 # type: ignore[union-attr]
        phase = h.phase
        if phase is Phase.DISCARD and gs.DISCARD0 <= a < gs.DISCARD0 + 52:
            h.discard(seat, CARDS[a - gs.DISCARD0])
        elif phase is Phase.DRAW and a == gs.DRAW_STOCK:
            h.draw_stock(seat)
        elif phase is Phase.DRAW and a == gs.DRAW_PILE:
            h.draw_pile(seat)
        elif phase is Phase.UPCARD_OFFER:
            if gs.draw_of(a) is gs.Draw.PILE:
                h.take_upcard(seat)
            else:
                h.decline_upcard(seat)
        elif phase is Phase.DRAW:
            gs.draw_of(a)                                  # not a draw: its sentence
        elif phase is Phase.DISCARD:
            h.discard(seat, gs.discard_of(a))
        elif h.phase is Phase.KNOCK:
            k = gs.knock_of(a)
            if k is KnockChoice.KNOCK:
                h.knock(seat)
            elif k is KnockChoice.PLAY_TO_GIN:
                h.play_to_gin(seat)
            else:
                h.play_on(seat)

    def _hand_over(self) -> None:
        assert self.game is not None
        result = self.game.record()
        if result.winner is not None:
            self.rewards[AGENTS[result.winner]] = result.points
            self.rewards[AGENTS[1 - result.winner]] = -result.points
        for a in AGENTS:
            self.infos[a] = {"hand": result.outcome.value, "scores": tuple(self.game.scores)}
        if self.episode == "game" and self.game.over:
            # The game's end may add what no hand scored (game and box bonuses, the
            # shutout doubling): the returns are the score sheet's final difference.
            sheet, scores = self.game.sheet(), self.game.scores
            extra = (sheet.totals[0] - sheet.totals[1]) - (scores[0] - scores[1])
            self.rewards[AGENTS[0]] += extra
            self.rewards[AGENTS[1]] -= extra
        if self.episode == "hand" or self.game.over:
            self.terminations = {a: True for a in AGENTS}
        else:
            self.game.next_hand()
            self.deals += 1
            self.agent_selection = AGENTS[self.hand.to_move]

    # ---- showing it ------------------------------------------------------------------

    def render(self) -> str | np.ndarray | None:
        if self.render_mode is None:
            return None
        if self.render_mode == "ansi":
            from port.env.gin_render import ansi
            return ansi(self.hand, tuple(self.game.scores) if self.game else (0, 0))
        if self._renderer is None:
            from port.env.gin_render import Frames
            self._renderer = Frames(self.profile)
        assert self.game is not None
        return self._renderer.frame(self.hand, (self.game.scores[0], self.game.scores[1]),
                                    self.options.score_limit)

    def close(self) -> None:
        self._renderer = None
