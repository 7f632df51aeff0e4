"""A small masked policy network played with numpy alone, for both games' ``policy``
level (``port.ginrummy.policy``, ``port.cribbage.policy``).

The network is a multilayer perceptron: the seat's observation (the game's
``spaces.observation_of``), with a few numbers the game computes from that observation
alone (its ``policy.features``: what a discard leaves, say), through ReLU layers to
one logit per action; the actions the mask refuses are set to minus infinity and the
best logit is played (greedy: the same position always gets the same move). Its weights are an ``.npz`` of ``W0, b0,
W1, b1, ...`` (stored as float16 to keep the file small) written by
``scripts/train_policy.py``, with ``n_obs`` and ``n_actions`` to check it was trained
for the game that loads it.

numpy is the optional extra 'rl': this module imports it, so only the games' policy
modules import this one, after ``port.extras.need`` has said what is missing.
"""
from __future__ import annotations

import functools
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np


class Net:
    """The forward pass: ``act(observation, action_mask) -> action``, as a policy of
    ``port.bots.PolicySeat``."""

    name = "policy"

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]],
                 features: Callable[[np.ndarray], np.ndarray] | None = None) -> None:
        self.layers = layers
        self.features = features

    def logits(self, observation: Any) -> np.ndarray:
        h = np.asarray(observation, dtype=np.float32)
        if self.features is not None:
            h = self.features(h)
        for i, (w, b) in enumerate(self.layers):
            h = h @ w + b
            if i < len(self.layers) - 1:
                h = np.maximum(h, 0.0)
        return h

    def act(self, observation: Any, action_mask: Any) -> int:
        z = self.logits(observation)
        legal = np.asarray(action_mask, dtype=bool)
        return int(np.argmax(np.where(legal, z, -np.inf)))


def layers_of(arrays: dict[str, np.ndarray]) -> list[tuple[np.ndarray, np.ndarray]]:
    """The (weight, bias) pairs ``W0, b0, W1, b1, ...`` of a weights file, as float32."""
    out = []
    while f"W{len(out)}" in arrays:
        i = len(out)
        out.append((np.asarray(arrays[f"W{i}"], np.float32), np.asarray(arrays[f"b{i}"], np.float32)))
    return out


@functools.lru_cache(maxsize=8)
def load_net(path: Path, n_obs: int, n_actions: int,
             features: Callable[[np.ndarray], np.ndarray] | None = None, n_in: int | None = None) -> Net:
    """The network in ``path``, checked against the game's arrays; a missing or
    damaged file is a ``ValueError`` of one plain sentence. ``features`` turns an
    observation into the network's input, of ``n_in`` numbers (default: the
    observation as it is). Loaded once per process."""
    if not Path(path).is_file():
        raise ValueError(f"the policy's weights file {path} is missing: "
                         "train it with scripts/train_policy.py or reinstall the game")
    try:
        with np.load(path) as f:
            layers = layers_of({k: f[k] for k in f.files})
            shape = (int(f["n_obs"]), int(f["n_actions"]))
    except Exception as exc:     # a damaged or foreign file: say which, not how numpy failed
        raise ValueError(f"the policy's weights file {path} cannot be read ({type(exc).__name__})") from None
    fits = bool(layers) and layers[0][0].shape[0] == (n_in or n_obs) and layers[-1][0].shape[1] == n_actions
    if shape != (n_obs, n_actions) or not fits:
        raise ValueError(f"the policy's weights file {path} is for {shape[0]} observations and "
                         f"{shape[1]} actions, not this game's {n_obs} and {n_actions}")
    return Net(layers, features)


__all__ = ["Net", "layers_of", "load_net"]
