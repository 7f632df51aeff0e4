"""A small masked policy network played with numpy alone, for both games' ``policy``
level (``port.ginrummy.policy``, ``port.cribbage.policy``).

The network is a multilayer perceptron: the seat's observation (the game's
``spaces.observation_of``), with a few numbers the game computes from that observation
alone (its ``policy.features``: what a discard leaves, say), through ReLU layers to
one logit per action; the actions the mask refuses are set to minus infinity and the
best logit is played (greedy: the same position always gets the same move). Its weights
are an ``.npz`` of ``W0, b0, W1, b1, ...`` (stored as float16 to keep the file small)
written by ``scripts/train_policy.py``, with ``n_obs`` and ``n_actions`` to check it was
trained for the game that loads it.

**The action head** (optional, in the same file: ``H0, G0, h0, H1, h1``). A game's
``features`` may also give a few numbers for each action (a matrix, one row per
action: what discarding this card leaves, STANDARD's score of it, ...). Each row goes
through one small layer shared by every action, together with the trunk's last hidden
layer (so the same numbers can count differently in another position), to one more
number added to that action's logit::

    u_a = relu(F_a @ H0 + hidden @ G0 + h0) @ H1 + h1

Shared weights learn "a discard that leaves less deadwood is better" once, not once per
card. A file without these arrays is played by the trunk alone, as before.

numpy is the optional extra 'rl': this module imports it, so only the games' policy
modules import this one, after ``port.extras.need`` has said what is missing.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any, Union

import numpy as np

# What a game's ``features`` gives: the trunk's input, or that and one row per action.
Features = Callable[[np.ndarray], Union[np.ndarray, tuple[np.ndarray, np.ndarray]]]
HEAD = ("H0", "G0", "h0", "H1", "h1")


class Net:
    """The forward pass: ``act(observation, action_mask) -> action``, as a policy of
    ``port.bots.PolicySeat``."""

    name = "policy"

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]],
                 features: Features | None = None, head: dict[str, np.ndarray] | None = None) -> None:
        self.layers = layers
        self.features = features
        self.head = head

    def logits(self, observation: Any) -> np.ndarray:
        x = np.asarray(observation, dtype=np.float32)
        per: np.ndarray | None = None
        if self.features is not None:
            got = self.features(x)
            x, per = got if isinstance(got, tuple) else (got, None)
        return forward(self.layers, self.head, x, per)

    def act(self, observation: Any, action_mask: Any) -> int:
        z = self.logits(observation)
        legal = np.asarray(action_mask, dtype=bool)
        return int(np.argmax(np.where(legal, z, -np.inf)))


def forward(layers: list[tuple[np.ndarray, np.ndarray]], head: dict[str, np.ndarray] | None,
            x: np.ndarray, per: np.ndarray | None) -> np.ndarray:
    """The logits of one input ``x`` (and its per-action rows ``per``, used only when
    the network has an action head)."""
    h = x
    for w, b in layers[:-1]:
        h = np.maximum(h @ w + b, 0.0)
    w, b = layers[-1]
    z = h @ w + b
    if head is not None and per is not None:
        u = np.maximum(per @ head["H0"] + (h @ head["G0"] + head["h0"]), 0.0)
        z = z + (u @ head["H1"])[:, 0] + head["h1"][0]
    return z


def layers_of(arrays: dict[str, np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (weight, bias) pairs ``W0, b0, W1, b1, ...`` of a weights file, as float32."""
    out = []
    while f"W{len(out)}" in arrays:
        i = len(out)
        out.append((np.asarray(arrays[f"W{i}"], np.float32), np.asarray(arrays[f"b{i}"], np.float32)))
    return out


def head_of(arrays: dict[str, np.ndarray]) -> dict[str, np.ndarray] | None:
    """The action head's arrays as float32, or None for a file without one."""
    if not all(k in arrays for k in HEAD):
        return None
    return {k: np.asarray(arrays[k], np.float32) for k in HEAD}


@functools.lru_cache(maxsize=8)
def load_net(path: Path, n_obs: int, n_actions: int,
             features: Features | None = None, n_in: int | None = None,
             n_per: int | None = None) -> Net:
    """The network in ``path``, checked against the game's arrays; a missing or
    damaged file is a ``ValueError`` of one plain sentence. ``features`` turns an
    observation into the network's input, of ``n_in`` numbers (default: the
    observation as it is), and ``n_per`` numbers per action for a file with an action
    head. Loaded once per process."""
    if not Path(path).is_file():
        raise ValueError(f"the policy's weights file {path} is missing: "
                         "train it with scripts/train_policy.py or reinstall the game")
    try:
        with np.load(path) as f:
            arrays = {k: f[k] for k in f.files}
            layers = layers_of(arrays)
            head = head_of(arrays)
            shape = (int(arrays["n_obs"]), int(arrays["n_actions"]))
    except Exception as exc:     # a damaged or foreign file: say which, not how numpy failed
        raise ValueError(f"the policy's weights file {path} cannot be read ({type(exc).__name__})") from None
    fits = bool(layers) and layers[0][0].shape[0] == (n_in or n_obs) and layers[-1][0].shape[1] == n_actions
    if head is not None:
        fits = fits and head["H0"].shape[0] == n_per and head["G0"].shape[0] == layers[-1][0].shape[0]
    if shape != (n_obs, n_actions):
        raise ValueError(f"the policy's weights file {path} is for {shape[0]} observations and "
                         f"{shape[1]} actions, not this game's {n_obs} and {n_actions}")
    if not fits:
        raise ValueError(f"the policy's weights file {path} was trained on other features than "
                         "this version's: train it again with scripts/train_policy.py")
    return Net(layers, features, head)


__all__ = ["HEAD", "Features", "Net", "forward", "head_of", "layers_of", "load_net"]
