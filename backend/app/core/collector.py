"""The cyclic garbage collector paused around a long engine call: the application's runtime
tuning, kept out of the engine (``models`` holds no process-wide switches).

A recommendation with custom builds makes ~180 k long-lived family objects, which set off full
collections of every object in the process (three per call, ~70 ms each, ~11 % of the call's
CPU); what it allocates holds no reference cycles that need collecting within the call, and its
results do not depend on it.
"""

from __future__ import annotations

import gc
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")


def collector_paused(call: Callable[[], T]) -> T:
    """``call()`` with the cyclic collector paused, then restored as it was (also when it raises)."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        return call()
    finally:
        if was_on:
            gc.enable()
