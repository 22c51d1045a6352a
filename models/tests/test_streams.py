"""Sequential streams (models.pool.pool_work, models.raid.stream_segment_kib): one positioning per
readahead request on each drive, the request queued at the drives for each stated stream, and the
invariants an engineer checks: sequential reads never cost the drives more than random reads of
the same size, and more interleaved streams never run faster each."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from models.configuration import Architecture, Configuration
from models.curves import saturation_scale
from models.drives import DriveSpec
from models.evaluate import evaluate
from models.pool import pool_work
from models.raid import RaidLayout, RaidScheme, stream_segment_kib
from models.tests.conftest import make_config
from models.tests.test_reduction import plans_of
from models.workload import Phase, Workload

HDD = DriveSpec(
    id="t-15k",
    name="test 15K",
    kind="hdd",
    capacity_gb=600,
    rpm=15000,
    avg_read_seek_ms=3.4,
    avg_write_seek_ms=3.9,
    track_to_track_ms=0.2,
    media_rate_mb_s=160,
    overhead_ms=0.2,
)


def reads(size_kib: float, *, random_pct: float, streams: int | None, iops: float = 100.0) -> Workload:
    return Workload(
        name="w",
        capacity_tb=1.6,
        working_set_gb=1600,
        phases=[
            Phase(
                name="p",
                window="w",
                iops=iops,
                read_pct=100,
                random_pct=random_pct,
                io_size_kib=size_kib,
                sequential_streams=streams,
            )
        ],
    )


def test_hand_computed_stream_commands_on_raid10():
    # RAID10 of 12 drives (6 data columns), 64 KiB stripe unit, 1 MiB prefetch, 1 MiB reads: a
    # request covers 2 of the stream's I/Os (the engine's prefetch_multiplier), 2,048 KiB, which
    # moves 2,048 / 6 = 341.33 KiB on each of 6 drives: one KiB costs 6 / 2,048 positionings;
    # 16 streams each keep one request (6 commands) queued: 96 commands outstanding.
    layout = RaidLayout(scheme=RaidScheme.RAID10, group_width=12)
    plans = plans_of(layout)
    wl = Workload(
        name="w",
        capacity_tb=1.0,
        phases=[
            Phase(
                name="p",
                window="w",
                iops=100,
                read_pct=100,
                random_pct=0,
                io_size_kib=1024,
                sequential_streams=16,
            )
        ],
    )
    pw = pool_work([(wl, wl.phases[0], 0.0, 0.0)], plans)
    assert pw.outstanding == pytest.approx(96.0, rel=1e-12)
    assert pw.concurrency_stated
    # 100 reads/s x 1,024 KiB = 102,400 KiB/s streamed: 102,400 x 6 / 2,048 = 300 positionings/s
    assert pw.reads.data.read_pos == pytest.approx(300.0, rel=1e-12)
    # streams unstated: the same positionings, no commands counted (no queuing credit)
    unstated = wl.model_copy(
        update={"phases": [wl.phases[0].model_copy(update={"sequential_streams": None})]}
    )
    pu = pool_work([(unstated, unstated.phases[0], 0.0, 0.0)], plans)
    assert pu.reads.data.read_pos == pytest.approx(300.0, rel=1e-12)
    assert not pu.concurrency_stated


def test_a_larger_prefetch_positions_less_often():
    # a 4 MiB prefetch on the same RAID10: 4,096 / 6 = 682.67 KiB per run, 150 positionings/s
    layout = RaidLayout(scheme=RaidScheme.RAID10, group_width=12)
    plans = plans_of(layout, Architecture(prefetch_kib=4096))
    wl = reads(1024, random_pct=0, streams=16)
    pw = pool_work([(wl, wl.phases[0], 0.0, 0.0)], plans)
    assert pw.reads.data.read_pos == pytest.approx(150.0, rel=1e-12)
    assert pw.outstanding == pytest.approx(96.0, rel=1e-12)  # 16 requests x 6 drive runs


def test_a_stream_request_is_at_least_the_host_readahead_and_the_io():
    assert stream_segment_kib(1024.0, 64.0) == 1024.0
    assert stream_segment_kib(1024.0, 64.0, 8192.0) == 8192.0
    assert stream_segment_kib(1024.0, 4096.0, 512.0) == 4096.0
    # a request covering two of the stream's I/Os: 2 x 4,096 KiB
    assert stream_segment_kib(1024.0, 4096.0, 512.0, 2.0) == 8192.0


LAYOUTS = [
    RaidLayout(scheme=RaidScheme.RAID0, group_width=4),
    RaidLayout(scheme=RaidScheme.RAID10, group_width=12),
    RaidLayout(scheme=RaidScheme.RAID5, group_width=5),
    RaidLayout(scheme=RaidScheme.RAID6, group_width=10),
    RaidLayout(scheme=RaidScheme.RAID6, group_width=10, stripe_unit_kib=512),
    RaidLayout(scheme=RaidScheme.RAID_DP, group_width=16),
    RaidLayout(scheme=RaidScheme.RAIDZ2, group_width=8),
]


def _config(layout: RaidLayout, count: int, prefetch: float | None) -> Configuration:
    """``count`` test drives in ``layout``, no read cache, the array prefetching ``prefetch`` KiB."""
    cfg = make_config(HDD, layout.scheme.value, layout.group_width, count, ctrl={"dram_cache_gb": 0})
    return cfg.model_copy(
        update={
            "pools": [cfg.pools[0].model_copy(update={"raid": layout})],
            "architecture": Architecture(prefetch_kib=prefetch),
        }
    )


def drive_pct(wl: Workload, layout: RaidLayout, count: int, prefetch: float | None) -> float:
    w = evaluate([wl], _config(layout, count, prefetch), cold_cache=False, explain=False).windows[0]
    value = next(c.value for c in w.checks if c.name.startswith("drives:"))
    assert value is not None
    return value


@settings(max_examples=40, deadline=None)
@given(
    layout=st.sampled_from(LAYOUTS),
    size=st.sampled_from([4.0, 8.0, 64.0, 256.0, 1024.0, 4096.0, 16384.0]),
    streams=st.one_of(st.none(), st.integers(1, 256)),
    prefetch=st.one_of(st.none(), st.sampled_from([64.0, 512.0, 4096.0, 16384.0])),
    groups=st.integers(1, 3),
)
def test_sequential_reads_never_busy_the_drives_more_than_random_reads_of_the_same_size(
    layout, size, streams, prefetch, groups
):
    count = layout.group_width * groups
    seq = drive_pct(reads(size, random_pct=0, streams=streams), layout, count, prefetch)
    rnd = drive_pct(reads(size, random_pct=100, streams=None), layout, count, prefetch)
    assert seq <= rnd * (1 + 1e-12)  # no read cache: every random read goes to the drives


@settings(max_examples=12, deadline=None)
@given(
    layout=st.sampled_from(LAYOUTS),
    size=st.sampled_from([64.0, 1024.0, 4096.0]),
    streams=st.integers(2, 128),
    more=st.integers(1, 128),
)
def test_more_interleaved_streams_never_run_faster_each(layout, size, streams, more):
    cfg = _config(layout, layout.group_width * 2, None)

    def per_stream(n: int) -> float:
        wl = reads(size, random_pct=0, streams=n)
        return saturation_scale([wl], cfg, "w", rtol=1e-5) / n

    assert per_stream(streams + more) <= per_stream(streams) * (1 + 1e-4)


def test_the_explanation_says_what_it_assumed_of_the_streams():
    layout = RaidLayout(scheme=RaidScheme.RAID10, group_width=12)
    unstated = str(
        evaluate([reads(1024, random_pct=0, streams=None)], _config(layout, 12, 4096)).model_dump()
    )
    assert (
        "sequential streams not stated: assumed interleaved, requests of 4,096 KiB (readahead) each paying "
        "one positioning on every drive they reach, no queuing credit" in unstated
    )
    # 8 MiB reads: requests of two of them (16,384 KiB), more than the 4 MiB prefetch
    stated = str(evaluate([reads(8192, random_pct=0, streams=16)], _config(layout, 12, 4096)).model_dump())
    assert "sequential: 16 interleaved streams, requests of 16,384 KiB (readahead)" in stated


def test_io_each_stream_keeps_outstanding_lie_one_after_the_other():
    # 16 streams of 1 MiB reads, 64 outstanding: 4 per stream, 4,096 KiB ahead of each, so a request
    # is max(1 MiB prefetch, 2 x 1,024, 4,096) = 4,096 KiB: 4,096 / 6 = 682.67 KiB per drive run,
    # 102,400 KiB/s x 6 / 4,096 = 150 positionings/s on the 12-drive RAID10
    layout = RaidLayout(scheme=RaidScheme.RAID10, group_width=12)
    plans = plans_of(layout)
    wl = reads(1024, random_pct=0, streams=16)
    ph = wl.phases[0].model_copy(update={"concurrency": 64.0})
    pw = pool_work([(wl, ph, 0.0, 0.0)], plans)
    assert pw.reads.data.read_pos == pytest.approx(150.0, rel=1e-12)
    assert pw.outstanding == pytest.approx(96.0, rel=1e-12)  # 16 requests x 6 drive runs


def test_a_stripe_unit_or_prefetch_the_array_cannot_have_is_an_error_naming_the_field():
    # RAID-Z stripes each record (record_kib), replicas keep whole copies: neither has a stripe unit
    with pytest.raises(ValueError, match="stripe_unit_kib: raidz2 has no stripe unit"):
        RaidLayout(scheme=RaidScheme.RAIDZ2, group_width=8, stripe_unit_kib=128)
    # an array offering 64 / 128 / 256 KiB segments cannot have a 512 KiB one
    cfg = make_config(HDD, "raid6", 10, 20)
    arch = Architecture(stripe_units_kib=[64, 128, 256])
    pool = cfg.pools[0].model_copy(
        update={"raid": RaidLayout(scheme=RaidScheme.RAID6, group_width=10, stripe_unit_kib=512)}
    )
    with pytest.raises(
        ValueError,
        match=r"pools\[0\]\.raid\.stripe_unit_kib: this array offers stripe units of 64, 128, 256 KiB, not 512",
    ):
        Configuration.model_validate(
            {**cfg.model_dump(), "architecture": arch.model_dump(), "pools": [pool.model_dump()]}
        )
    # a prefetch beyond what the architecture can read ahead
    with pytest.raises(
        ValueError, match="prefetch_kib: 8192 KiB is more than this architecture can read ahead"
    ):
        Architecture(prefetch_kib=8192, max_prefetch_kib=4096)
