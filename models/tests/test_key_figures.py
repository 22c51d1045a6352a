"""Per-drive IOPS and the write penalty: read off the engine's back-end load, per pool and window."""

from __future__ import annotations

import pytest

from models.drives import DriveSpec
from models.evaluate import evaluate
from models.tests.conftest import make_config, oltp


def _pool(result):
    return result.windows[0].pools[0]


def writes_4k(iops: float = 1000, **phase):
    """``iops`` random 4 KiB writes per second (the size the classic write penalties are quoted for)."""
    w = oltp(iops=iops, read_pct=0)
    return w.model_copy(update={"phases": [w.phases[0].model_copy(update={"io_size_kib": 4, **phase})]})


@pytest.mark.parametrize(
    ("scheme", "width", "penalty"),
    [
        ("raid10", 8, 2.0),  # a mirrored write: one write per copy
        ("raid5", 5, 4.0),  # d = 4, p = 1: min(RMW 2 x (1 + 1) = 4, RCW (4 - 1) + (1 + 1) = 5) = 4
        ("raid6", 8, 6.0),  # d = 6, p = 2: min(RMW 2 x (1 + 2) = 6, RCW (6 - 1) + (1 + 2) = 8) = 6
    ],
)
def test_random_writes_pay_the_schemes_small_write_cost(
    hdd15k: DriveSpec, scheme: str, width: int, penalty: float
) -> None:
    # 1,000 random 4 KiB writes per second, nothing absorbed in cache, no replication
    result = evaluate([writes_4k()], make_config(hdd15k, scheme, width, count=width * 4))

    figure = _pool(result).write_penalty
    assert figure is not None
    assert figure.value == pytest.approx(penalty)
    assert figure.inputs["frontend_writes"] == pytest.approx(1000)
    assert figure.inputs["backend_writes"] == pytest.approx(1000 * penalty)


def test_per_drive_iops_is_the_back_end_load_over_the_pools_drives(hdd15k: DriveSpec) -> None:
    # 1,000 random 4 KiB writes on RAID 10 of 16 drives: 2,000 back-end I/Os / 16 drives = 125 per drive
    result = evaluate([writes_4k()], make_config(hdd15k, "raid10", 8, count=16))

    figure = _pool(result).per_drive_iops
    assert figure is not None
    assert figure.value == pytest.approx(125.0)
    assert figure.value == pytest.approx(_pool(result).backend_iops.value / 16)


def test_absorbed_overwrites_lower_the_penalty_below_the_small_write_cost(hdd15k: DriveSpec) -> None:
    config = make_config(hdd15k, "raid10", 8, count=16)
    full = _pool(evaluate([writes_4k()], config)).write_penalty
    absorbed = _pool(evaluate([writes_4k(write_overwrite_pct=50)], config)).write_penalty

    assert full is not None and absorbed is not None
    assert full.value == pytest.approx(2.0)  # every 4 KiB write mirrored
    assert absorbed.value < full.value  # writes absorbed in cache never reach the drives
    # 1,000 writes/s, half of them overwriting data still in cache: 500 reach the drives, twice each:
    # 1,000 back-end writes / 1,000 front-end writes = 1.0, beside a small-write cost of 2; the card's
    # figure and its formula agree because the text names the absorbed half
    assert absorbed.value == pytest.approx(1.0)
    assert absorbed.inputs["absorbed_writes"] == pytest.approx(500.0)
    assert "500 of the 1,000 writes/s (50%) overwrite data still in the write cache" in absorbed.text
    assert "overwrite data" not in full.text


def test_a_window_without_writes_states_the_small_write_cost(hdd15k: DriveSpec) -> None:
    result = evaluate([oltp(iops=1000, read_pct=100)], make_config(hdd15k, "raid10", 8, count=16))

    figure = _pool(result).write_penalty
    assert figure is not None
    assert figure.value == 2.0
    assert "no writes" in figure.text
