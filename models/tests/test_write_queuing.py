"""Write queuing credit (issue 32, point 2): a drive reorders the writes queued at it, as it does
reads. Writes acknowledged from NVRAM destage behind the host's back (one command each unless the
reads build a queue); a write logged on its data drive (no NVRAM: Ceph without a WAL device) waits
there, so the host's outstanding writes queue at the drives; a hard disk whose volatile write cache
the pool turns on (``DrivePool.drive_write_cache``, default off) reorders every write it holds."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from models.configuration import Configuration, DrivePool, WalPlacement
from models.curves import queue_depth_sweep
from models.drives import CommandQueuing, drive_times, positioning_ms, write_cache_factor
from models.evaluate import evaluate
from models.tests.conftest import make_config
from models.tests.test_rebuild import NLSAS_18000, NVME_7680
from models.tests.test_wal import _scale_out
from models.workload import Phase, Workload


def _writes(iops: float, concurrency: int | None = None) -> list[Workload]:
    phase = Phase(
        name="w", window="w", iops=iops, read_pct=0, io_size_kib=4, random_pct=100, concurrency=concurrency
    )
    return [Workload(name="w", capacity_tb=10, working_set_gb=5000, phases=[phase])]


def _with_cache(cfg: Configuration, on: bool = True) -> Configuration:
    pool = cfg.pools[0].model_copy(update={"drive_write_cache": on, "planned_fill_pct": 100.0})
    return Configuration.model_validate({**cfg.model_dump(), "pools": [pool.model_dump()]})


def test_write_cache_reorders_writes_as_deep_as_the_drive_queue():
    # f(256) = 1 / (1 + g (q - 1) / (q - 1 + h)) with g = 1, h = 8: 1 / (1 + 255 / 263) = 0.507722
    assert write_cache_factor(CommandQueuing(gain_max=1.0, q_half=8.0, queue_limit=256)) == pytest.approx(
        1 / (1 + 255 / 263), rel=1e-12
    )
    t = drive_times(NLSAS_18000)._replace(write_queue_factor=0.5)
    # reads keep the host queue's factor; writes take the smaller of it and the cache's
    pr, pw = positioning_ms(t, 1.0, 0.8)
    assert pr == pytest.approx((0.6 + 30000 / 7200 + 7.4) * 0.8, rel=1e-12)
    assert pw == pytest.approx((0.6 + 30000 / 7200 + 7.9) * 0.5, rel=1e-12)


def test_raid10_random_writes_with_the_drive_write_cache_on_and_off():
    # 12 x 18 TB NL-SAS in RAID 10, planned full (span 1), 200 random 4 KiB writes/s from NVRAM,
    # two drive writes each: 400 accesses/s over 12 drives. Per access: overhead 0.2 + 4,096 B /
    # 216 MB/s 0.018963 + write positioning (0.6 + 4.166667 + 7.9) = 13.266667 ms.
    # off: 400 x 13.485630 / 1000 / 12 = 44.952%.
    # on:  positioning x f(256) 0.507722 = 6.735777; 400 x 6.954740 / 1000 / 12 = 23.182%.
    base = make_config(NLSAS_18000, "raid10", 2, 12)
    off = evaluate(_writes(200), _with_cache(base, False)).windows[0].pools[0]
    on = evaluate(_writes(200), _with_cache(base, True)).windows[0].pools[0]
    xfer = 4096 / 216e6 * 1000
    pos = 0.6 + 30000 / 7200 + 7.9
    assert off.drive_utilization_pct.value == pytest.approx(
        400 * (0.2 + xfer + pos) / 1000 / 12 * 100, rel=1e-6
    )
    f = 1 / (1 + 255 / 263)
    assert on.drive_utilization_pct.value == pytest.approx(
        400 * (0.2 + xfer + pos * f) / 1000 / 12 * 100, rel=1e-6
    )
    assert "write cache is on (stated: drive_write_cache)" in on.drive_utilization_pct.text
    assert "write cache" not in off.drive_utilization_pct.text


def test_writes_logged_on_the_data_drive_queue_there_as_the_host_keeps_them():
    # a Ceph node without a WAL device, 12 drives, 48 writes outstanding: 48 / 12 = 4 per drive
    res = evaluate(_writes(100, concurrency=48), _scale_out(NLSAS_18000)).windows[0].pools[0]
    assert "up to 4 outstanding" in res.drive_utilization_pct.text
    # with the WAL on flash the writes are acknowledged there and destage unqueued
    flash = evaluate(_writes(100, concurrency=48), _scale_out(NLSAS_18000, WalPlacement.FLASH))
    assert "none stated: no command-queuing credit" in flash.windows[0].pools[0].drive_utilization_pct.text


def test_a_flash_pool_cannot_state_a_drive_write_cache():
    pool = make_config(NVME_7680, "raid10", 2, 12).pools[0]
    with pytest.raises(ValidationError, match="drive_write_cache"):
        DrivePool.model_validate({**pool.model_dump(), "drive_write_cache": True})


_DEPTHS = [1, 2, 4, 8, 16, 32, 64, 128, 512]


@settings(max_examples=12, deadline=None)
@given(
    st.sampled_from([None, WalPlacement.FLASH]),
    st.booleans(),
    st.integers(0, 30),
    st.sampled_from([4.0, 16.0, 64.0]),
)
def test_more_outstanding_writes_never_give_fewer_iops(wal, cache, read_pct, size):
    cfg = _with_cache(_scale_out(NLSAS_18000, wal), cache)
    phase = Phase(name="w", window="w", iops=100, read_pct=read_pct, io_size_kib=size, random_pct=100)
    wl = [Workload(name="w", capacity_tb=10, working_set_gb=5000, phases=[phase])]
    iops = [pt.iops for pt in queue_depth_sweep(wl, cfg, depths=_DEPTHS).points]
    assert all(b >= a * (1 - 1e-9) for a, b in zip(iops, iops[1:], strict=False))


@settings(max_examples=15, deadline=None)
@given(st.floats(20, 400), st.sampled_from([1, 12, 48, 200]))
def test_a_drive_write_cache_or_more_outstanding_writes_never_busy_the_drives_more(iops, conc):
    def busy(cfg: Configuration, c: int) -> float:
        value = evaluate(_writes(iops, concurrency=c), cfg).windows[0].pools[0].drive_utilization_pct.value
        assert value is not None
        return value

    off, on = _with_cache(_scale_out(NLSAS_18000), False), _with_cache(_scale_out(NLSAS_18000), True)
    assert busy(off, conc) <= busy(off, 1) * (1 + 1e-9)
    assert busy(on, conc) <= busy(off, conc) * (1 + 1e-9)
