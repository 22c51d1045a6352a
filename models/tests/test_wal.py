"""Where a write is logged before its acknowledgement (Architecture.wal, models.architecture.wal_placement):
a software-defined node without a WAL device commits each write on its data hard disk."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import ValidationError

from models.architecture import wal_placement
from models.configuration import Architecture, Configuration, WalPlacement, WriteArchitecture
from models.evaluate import evaluate
from models.tests.conftest import make_config
from models.tests.test_rebuild import NLSAS_18000, NVME_7680
from models.workload import Phase, Workload


def _writes(iops: float, size_kib: float = 4.0) -> list[Workload]:
    phase = Phase(name="w", window="w", iops=iops, read_pct=0, io_size_kib=size_kib, concurrency=1)
    return [Workload(name="w", capacity_tb=10, working_set_gb=5000, phases=[phase])]


def _scale_out(drive, wal: WalPlacement | None = None) -> Configuration:
    cfg = make_config(drive, "raid10", 2, 12, ctrl={"nvram_mb": 0})
    arch = Architecture(write_architecture=WriteArchitecture.REPLICATED_SCALE_OUT, wal=wal)
    return cfg.model_copy(update={"architecture": arch})


def _write_ms(cfg: Configuration, iops: float, size_kib: float = 4.0) -> float:
    ms = evaluate(_writes(iops, size_kib), cfg).windows[0].phases[0].write_latency_ms.value
    assert ms is not None
    return ms


def test_a_replicated_scale_out_node_logs_on_its_data_drive_unless_told():
    assert wal_placement(_scale_out(NLSAS_18000).architecture) is WalPlacement.DATA_DRIVE
    assert wal_placement(_scale_out(NLSAS_18000, WalPlacement.FLASH).architecture) is WalPlacement.FLASH
    assert wal_placement(make_config(NLSAS_18000, "raid10", 2, 12).architecture) is WalPlacement.NVRAM


def test_a_4k_write_waits_for_a_positioning_on_the_data_hdd():
    # 18 TB 7.2K NL-SAS, nearly idle: overhead 0.2 + write seek 8.5 + half a turn 4.1667
    # + 4,096 B / 216 MB/s 0.019 = 12.886 ms more than with the WAL on flash
    # (deferral off: with it on, each 4 KiB write also lands a second time on the drive, whose
    # queue then adds a little wait: test_deferred_writes)
    no_deferral = _scale_out(NLSAS_18000)
    no_deferral = no_deferral.model_copy(
        update={"architecture": no_deferral.architecture.model_copy(update={"deferred_write_kib": 0.0})}
    )
    on_drive = _write_ms(no_deferral, 5)
    on_flash = _write_ms(_scale_out(NLSAS_18000, WalPlacement.FLASH), 5)
    assert on_drive - on_flash == pytest.approx(0.2 + 8.5 + 30000 / 7200 + 4096 / 216e6 * 1000, rel=0.01)
    res = evaluate(_writes(5), _scale_out(NLSAS_18000)).windows[0].phases[0].write_latency_ms
    assert "log record on the data drive" in res.text


def test_a_flash_data_drive_adds_nothing_to_the_flash_acknowledgement():
    assert _write_ms(_scale_out(NVME_7680), 50) == pytest.approx(
        _write_ms(_scale_out(NVME_7680, WalPlacement.FLASH), 50)
    )


def test_a_wal_in_nvram_the_controller_does_not_have_is_an_error_naming_the_field():
    cfg = _scale_out(NLSAS_18000)
    bad = {**cfg.model_dump(), "architecture": {**cfg.architecture.model_dump(), "wal": "nvram"}}
    with pytest.raises(ValidationError, match="architecture.wal"):
        Configuration.model_validate(bad)


@settings(max_examples=20, deadline=None)
@given(st.floats(1, 300), st.sampled_from([4.0, 16.0, 64.0]))
def test_the_wal_on_the_data_hdd_never_acknowledges_sooner_than_on_flash(iops, size):
    on_drive = (
        evaluate(_writes(iops, size), _scale_out(NLSAS_18000)).windows[0].phases[0].write_latency_ms.value
    )
    on_flash = evaluate(_writes(iops, size), _scale_out(NLSAS_18000, WalPlacement.FLASH)).windows[0].phases[0]
    if on_drive is not None:
        assert on_flash.write_latency_ms.value is not None
        assert on_drive >= on_flash.write_latency_ms.value
