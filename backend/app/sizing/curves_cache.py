"""Curves computed once per process for the same inputs.

A window's curves are a pure function of the workloads, the configuration as resolved (every
hardware figure in it, so a custom record that changes is a new key), the window, the curves
asked for, the engine parameters and the model-error table: about 36 evaluations (the latency
curve's points and the headroom search). The same inputs come back often: a report saved after
the sizing drew its curves, saved twice, recomputed with an unchanged catalog; the UI asking again
for a window it showed. :class:`CurvesCache` keeps the last :data:`CURVES_KEPT` answers; a hit
costs a serialization of the inputs for its key (about 0.1 ms) instead of the evaluations.

Calibration and model errors are loaded once per app and never change: an entry holds the objects
it was computed with and only answers a request made with those same objects.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Collection
from typing import Any

from backend.app.sizing.schemas import CurvesResult
from models.configuration import Configuration
from models.workload import Workload

CURVES_KEPT = 64
"""Answers kept (a window's curves are 10-40 kB in memory)."""


class CurvesCache:
    def __init__(self, kept: int = CURVES_KEPT) -> None:
        self.kept = kept
        self._entries: OrderedDict[tuple[Any, ...], tuple[object, object, CurvesResult]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def get(
        self,
        workloads: list[Workload],
        config: Configuration,
        window: str,
        wanted: Collection[str],
        engine: tuple[object, object],
        compute: Callable[[], CurvesResult],
    ) -> CurvesResult:
        """The curves of these inputs, computed by ``compute()`` unless an entry has them.

        ``engine`` is (engine parameters, model-error table): compared by identity."""
        key = (
            tuple(w.__pydantic_serializer__.to_json(w) for w in workloads),
            config.__pydantic_serializer__.to_json(config),
            window,
            tuple(sorted(wanted)),
        )
        with self._lock:
            entry = self._entries.get(key)
            if entry is not None and entry[0] is engine[0] and entry[1] is engine[1]:
                self._entries.move_to_end(key)
                self.hits += 1
                return entry[2]
            self.misses += 1
        result = compute()  # outside the lock: two threads may compute the same curves once each
        with self._lock:
            self._entries[key] = (engine[0], engine[1], result)
            self._entries.move_to_end(key)
            while len(self._entries) > self.kept:
                self._entries.popitem(last=False)
        return result


CURVES = CurvesCache()
"""The process's cache (every app in it shares it: entries are keyed by their engine objects)."""
