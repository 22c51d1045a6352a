"""The headroom load (first target reached) sits below the saturation load (first resource at 100%)."""

from __future__ import annotations

import pytest

from models.checks import check_words
from models.curves import latency_vs_load
from models.drives import DriveSpec
from models.evaluate import evaluate
from models.headroom import headroom_mark
from models.naming import plural
from models.tests.conftest import make_config, oltp


def test_the_headroom_load_is_where_the_drives_reach_their_70_pct_target(hdd15k: DriveSpec) -> None:
    workloads = [oltp(iops=2000, read_pct=70)]
    config = make_config(hdd15k, "raid6", 8, count=32)
    curve = latency_vs_load(workloads, config, points=4)

    mark = headroom_mark(workloads, config, "business hours", curve.saturation_iops)

    assert mark.headroom_iops is not None and mark.headroom_load_pct is not None
    assert mark.headroom_iops < curve.saturation_iops
    assert mark.binding == "the drives"
    # at the headroom load the drives are at their target, within the search's 0.1%
    scale = mark.headroom_iops / 2000
    drives = evaluate(workloads, config, load_scale=scale).windows[0].pools[0].drive_utilization_pct.value
    assert drives == pytest.approx(70.0, rel=3e-3)
    assert mark.headroom_load_pct == pytest.approx(100 * mark.headroom_iops / curve.saturation_iops)


@pytest.mark.parametrize(
    ("name", "pools", "words"),
    [
        ("drives:aggr0", 1, "the drives"),
        ("drives:fast", 2, "the drives of fast"),
        ("drives:aggr0:degraded group", 1, "the drives (one RAID group degraded)"),
        ("parity drives:aggr0", 1, "the parity drives"),
        ("back-end bus", 1, "the back-end bus"),
        ("read latency:oltp/day", 1, "the read latency of oltp, day"),
        ("ports", 1, "the front-end ports"),
        ("controllers", 1, "the controllers"),
    ],
)
def test_check_names_read_as_words_without_identifiers(name: str, pools: int, words: str) -> None:
    assert check_words(name, pools) == words


def test_counts_take_the_right_number() -> None:
    assert plural(1, "group") == "1 group"
    assert plural(3, "group") == "3 groups"
    assert plural(1, "rack") == "1 rack"
    assert plural(2, "entry", "entries") == "2 entries"
