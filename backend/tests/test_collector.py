"""The API pauses the cyclic garbage collector around a recommendation (backend.app.core.collector),
and leaves it as it found it, also when the call raises."""

from __future__ import annotations

import gc

import pytest

from backend.app.core.collector import collector_paused


@pytest.mark.parametrize("enabled", [True, False])
def test_the_collector_is_paused_during_the_call_and_restored_after(enabled: bool) -> None:
    was = gc.isenabled()
    try:
        gc.enable() if enabled else gc.disable()
        assert collector_paused(gc.isenabled) is False
        assert gc.isenabled() is enabled

        def fails() -> None:
            raise ValueError("engine error")

        with pytest.raises(ValueError, match="engine error"):
            collector_paused(fails)
        assert gc.isenabled() is enabled
    finally:
        gc.enable() if was else gc.disable()
