"""OpenSpiel's ISMCTS bot on our rules (``port.openspiel``) against our levels.

    .venv/bin/python scripts/openspiel_vs_levels.py --game cribbage --level standard --games 400
    .venv/bin/python scripts/openspiel_vs_levels.py --game ginrummy --level expert --games 400 --sims 40

Each game is one hand (GinRummy) or one deal (Cribbage), played twice on the same
cards with the seats swapped (chance's outcomes come from one seeded generator per
pair). A game is won by the side that scores more in it; an equal score (a drawn
hand, an even deal) is half a win. Prints ISMCTS's win rate with its 95% Wilson
interval, its mean points per game, and the seconds per ISMCTS decision.

The search is OpenSpiel's own ``ISMCTSBot`` (``open_spiel.python.algorithms.ismcts``),
its worlds drawn by our ``resample_from_infostate`` (``sample_world``). Its leaf
evaluator: in Cribbage OpenSpiel's ``RandomRolloutEvaluator``; in GinRummy random
play ends most hands as draws after hundreds of moves, so the evaluator plays the
sampled world out with both seats greedy (draw the pile card when it lowers the
deadwood, discard what leaves the least, knock when offered), a cheap rollout policy
of our own.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402
import pyspiel  # noqa: E402
from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

import port.openspiel  # noqa: E402,F401  (registers the games)
import port.openspiel.games  # noqa: E402
from port.cards import Card  # noqa: E402
from port.cribbage import levels as crib_levels, spaces as cs  # noqa: E402
from port.cribbage.rules.state import Phase as CribPhase  # noqa: E402
from port.ginrummy import levels as gin_levels, spaces as gs  # noqa: E402
from port.ginrummy.rules.melds import deadwood_mask  # noqa: E402
from port.ginrummy.rules.search import DISCARD0, DRAW_PILE, DRAW_STOCK, KNOCK  # noqa: E402
from port.ginrummy.rules.state import Phase  # noqa: E402


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


class GreedyGinRollout(mcts.Evaluator):
    """A GinRummy leaf's value: the sampled world played out by two greedy seats on a
    shuffled stock (the bridge's stock has no order until chance draws from it)."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def evaluate(self, state: Any) -> np.ndarray:
        if state.is_terminal() or state.pos is None or state.current_player() < 0:
            return np.asarray(state.returns() if state.is_terminal() else [0.0, 0.0], dtype=float)
        pos = state.pos.clone()
        self.rng.shuffle(pos.hand.stock)
        while not pos.terminal:
            pos.step(self._greedy(pos))
        return np.asarray(pos.returns(), dtype=float)

    def prior(self, state: Any) -> list[tuple[int, float]]:
        acts = state.legal_actions()
        return [(a, 1.0 / len(acts)) for a in acts]

    @staticmethod
    def _greedy(pos: Any) -> int:
        h = pos.hand
        seat = h.to_move
        acts = pos.legal_actions()
        if KNOCK in acts:
            return KNOCK
        if h.phase is Phase.DRAW or h.phase is Phase.UPCARD_OFFER:
            if DRAW_PILE in acts and h.pile:
                mine = h.hands[seat]
                top = h.pile[-1]
                best = min(deadwood_mask(mine | top.bit ^ c.bit) for c in _cards(mine))
                if best < deadwood_mask(mine):
                    return DRAW_PILE
            return DRAW_STOCK
        mask = h.hands[seat]
        return min(acts, key=lambda a: deadwood_mask(mask ^ Card(a - DISCARD0).bit))


def _cards(mask: int) -> list[Card]:
    from port.cards import cards_of
    return cards_of(mask)


class LevelSeat:
    """One of our levels playing a seat of the OpenSpiel game, asked with its View."""

    def __init__(self, game: str, level: str, seed: int) -> None:
        self.game = game
        self.player = (gin_levels if game == "ginrummy" else crib_levels).load_player(level, seed)
        self.started = False
        self.heard = 0
        self.second: int | None = None

    def act(self, state: Any, seat: int) -> int:
        view = state.pos.view(seat)
        if not self.started:
            self.started = True
            self.player.begin_hand(view)
        if self.game == "ginrummy":
            for e in view.events[self.heard:]:
                self.player.observe(e)
            self.heard = len(view.events)
            return gs.action_from_view(view, self.player)
        if view.phase is CribPhase.DISCARD:
            if self.second is not None:
                a, self.second = self.second, None
                return a
            first, second = self.player.discard(view)
            self.second = int(second)
            return int(first)
        card = self.player.play(view)
        return cs.GO if card is None else int(card)


def play(game_name: str, game: Any, level: str, ismcts_seat: int, pair: int, args: argparse.Namespace,
         timing: list[float]) -> float:
    """One game; ISMCTS's points in it less the level's."""
    chance = random.Random(args.seed * 1_000_003 + pair)
    evaluator = (GreedyGinRollout(args.seed + pair) if game_name == "ginrummy"
                 else mcts.RandomRolloutEvaluator(1, np.random.RandomState(args.seed + pair)))
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=args.uct, max_simulations=args.sims,
                           random_state=np.random.RandomState(args.seed * 7 + pair * 2 + ismcts_seat))
    other = LevelSeat(game_name, level, args.seed + pair)
    state = game.new_initial_state()
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[chance.randrange(len(outcomes))][0])
            continue
        seat = state.current_player()
        if seat == ismcts_seat:
            if len(state.legal_actions()) == 1:
                state.apply_action(state.legal_actions()[0])
                continue
            t0 = time.perf_counter()
            a = bot.step(state)
            timing.append(time.perf_counter() - t0)
        else:
            a = other.act(state, seat)
        state.apply_action(int(a))
    return state.returns()[ismcts_seat]


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--game", choices=("ginrummy", "cribbage"), default="cribbage")
    p.add_argument("--level", default="standard")
    p.add_argument("--games", type=int, default=400, help="games (an even number: pairs, seats swapped)")
    p.add_argument("--sims", type=int, default=100, help="ISMCTS simulations per decision")
    p.add_argument("--uct", type=float, default=None, help="UCT constant (default: 40 GinRummy, 10 Cribbage)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--first", type=int, default=0, help="the first game's number (to split a run; even)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args()
    if args.uct is None:
        args.uct = 40.0 if args.game == "ginrummy" else 10.0
    name = port.openspiel.GIN_NAME if args.game == "ginrummy" else port.openspiel.CRIB_NAME
    game = pyspiel.load_game(name)
    timing: list[float] = []
    wins = 0.0
    points: list[float] = []
    t0 = time.perf_counter()
    for n, g in enumerate(range(args.first, args.first + args.games), 1):
        r = play(args.game, game, args.level, g % 2, g // 2, args, timing)
        points.append(r)
        wins += 1.0 if r > 0 else 0.5 if r == 0 else 0.0
        if n % 20 == 0:
            lo, hi = wilson(wins, n)
            print(f"{n} games: ISMCTS {wins / n:.1%} ({lo:.1%}-{hi:.1%}), wins {wins}, decisions {len(timing)}, "
                  f"{np.mean(points):+.2f} points a game, {np.mean(timing):.3f} s/decision, "
                  f"worlds {port.openspiel.games.RESAMPLED}",
                  file=sys.stderr, flush=True)
    lo, hi = wilson(wins, args.games)
    out = {"game": args.game, "level": args.level, "games": args.games, "first": args.first, "wins": wins, "sims": args.sims, "uct": args.uct,
           "win_rate": wins / args.games, "interval": [lo, hi], "mean_points": float(np.mean(points)),
           "seconds_per_decision": float(np.mean(timing)), "decisions": len(timing),
           "seconds": time.perf_counter() - t0, "worlds": dict(port.openspiel.games.RESAMPLED)}
    if args.json:
        print(json.dumps(out))
    else:
        print(f"ISMCTS ({args.sims} simulations) against {args.level.upper()} at {args.game}, {args.games} games: "
              f"{wins / args.games:.1%} ({lo:.1%}-{hi:.1%}), {out['mean_points']:+.2f} points a game, "
              f"{out['seconds_per_decision']:.3f} s per decision")


if __name__ == "__main__":
    main()
