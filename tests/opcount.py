"""Count the CPython bytecode instructions a call executes (deterministic, unlike time).

Uses sys.settrace with per-opcode events, so every instruction of the call and of
anything it calls in Python (comprehensions included) is counted once. C functions
(len, sorted, list.append) count as the one instruction that calls them.
"""
from __future__ import annotations

import gc
import sys
from collections.abc import Callable
from typing import Any


def count_instructions(fn: Callable[..., Any], *args: Any) -> tuple[int, Any]:
    count = 0

    def tracer(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal count
        if event == "call":
            frame.f_trace_opcodes = True
            frame.f_trace_lines = False
            return tracer
        if event == "opcode":
            count += 1
        return tracer

    # The collector off while counting: a collection the call happens to trigger runs
    # the finalizers of other code's garbage (a test suite's, hypothesis's), whose
    # instructions are not the call's own.
    was_on = gc.isenabled()
    gc.disable()
    old = sys.gettrace()
    sys.settrace(tracer)
    try:
        result = fn(*args)
    finally:
        sys.settrace(old)
        if was_on:
            gc.enable()
    return count, result
