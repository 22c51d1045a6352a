"""Deferred small writes (issue 32, point 3): a Ceph BlueStore OSD commits a write up to
bluestore_prefer_deferred_size (64 KiB on hard disks, none on flash) into its write-ahead log and
writes it in place later; with the log on the data drive the drive takes the write twice."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from models.architecture import deferred_write_kib, wal_copy_kib
from models.configuration import Architecture, Configuration, WalPlacement, WriteArchitecture
from models.evaluate import evaluate
from models.tests.test_rebuild import NLSAS_18000, NVME_7680
from models.tests.test_wal import _scale_out
from models.workload import Phase, Workload


def _busy(cfg: Configuration, iops: float, size_kib: float = 4.0) -> float:
    phase = Phase(name="w", window="w", iops=iops, read_pct=0, io_size_kib=size_kib, random_pct=100)
    wl = Workload(name="w", capacity_tb=10, working_set_gb=5000, phases=[phase])
    value = evaluate([wl], cfg).windows[0].pools[0].drive_utilization_pct.value
    assert value is not None
    return value


def _deferring(kib: float | None, wal: WalPlacement | None = None, drive=NLSAS_18000) -> Configuration:
    cfg = _scale_out(drive, wal)
    assert cfg.architecture is not None
    arch = cfg.architecture.model_copy(update={"deferred_write_kib": kib})
    pool = cfg.pools[0].model_copy(update={"planned_fill_pct": 100.0})
    return Configuration.model_validate(
        {**cfg.model_dump(), "architecture": arch.model_dump(), "pools": [pool.model_dump()]}
    )


def test_bluestore_defers_up_to_64k_on_hard_disks_and_nothing_on_flash():
    arch = Architecture(write_architecture=WriteArchitecture.REPLICATED_SCALE_OUT)
    assert deferred_write_kib(arch, NLSAS_18000) == 64.0
    assert deferred_write_kib(arch, NVME_7680) == 0.0
    # the log on a flash device takes the first copy: nothing twice on the data drive
    flash_wal = arch.model_copy(update={"wal": WalPlacement.FLASH})
    assert wal_copy_kib(flash_wal, NLSAS_18000) == 0.0
    assert wal_copy_kib(arch, NLSAS_18000) == 64.0


def test_a_deferred_4k_write_doubles_the_data_drives_work_with_the_log_on_them():
    # 12 x 18 TB NL-SAS, RAID 10 inside the node, planned full: 100 random 4 KiB writes/s, two drive
    # writes each of 0.2 + 0.018963 + 13.266667 = 13.485630 ms: 200 x 13.48563 / 1000 / 12 = 22.476%;
    # deferred, each lands twice (log, then in place): 44.952%
    per = 0.2 + 4096 / 216e6 * 1000 + 0.6 + 30000 / 7200 + 7.9
    assert _busy(_deferring(0.0), 100) == pytest.approx(200 * per / 1000 / 12 * 100, rel=1e-6)
    assert _busy(_deferring(None), 100) == pytest.approx(400 * per / 1000 / 12 * 100, rel=1e-6)
    # a 128 KiB write is above the 64 KiB default: written once
    assert _busy(_deferring(None), 100, 128.0) == pytest.approx(_busy(_deferring(0.0), 100, 128.0), rel=1e-12)


def test_deferral_stated_for_an_array_that_does_not_defer_is_a_422_naming_the_field():
    with pytest.raises(ValidationError, match="deferred_write_kib"):
        Architecture(write_architecture=WriteArchitecture.IN_PLACE_RAID, deferred_write_kib=32)
    with pytest.raises(ValidationError, match="deferred_write_kib"):
        Architecture(write_architecture=WriteArchitecture.REPLICATED_SCALE_OUT, deferred_write_kib=-1)


@settings(max_examples=20, deadline=None)
@given(st.floats(10, 300), st.sampled_from([4.0, 16.0, 64.0, 256.0]), st.floats(0, 1024), st.floats(0, 1024))
def test_deferring_more_never_lightens_the_data_drives(iops, size, a, b):
    lo, hi = sorted((a, b))
    assert _busy(_deferring(hi), iops, size) >= _busy(_deferring(lo), iops, size) * (1 - 1e-12)


def test_a_catalog_reference_prefetch_beyond_the_architecture_is_an_error_naming_prefetch_kib():
    from models.base import InputError
    from models.catalog.reference import _with_prefetch

    assert _with_prefetch(Architecture(max_prefetch_kib=4096), 2048).prefetch_kib == 2048
    with pytest.raises(InputError) as exc:
        _with_prefetch(Architecture(max_prefetch_kib=1024), 2048)
    assert exc.value.field == "prefetch_kib"
