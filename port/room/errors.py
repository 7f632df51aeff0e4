"""The room's refusal: a request it turns down, its sentence sent back as an ``error``."""
from __future__ import annotations


class Refused(Exception):
    """A request the room turns down: the sentence goes back as an error."""


__all__ = ["Refused"]
