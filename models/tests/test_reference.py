"""The engine's calibration file and catalog references (models.catalog.calibration, .reference):
read once by the caller, resolved by the engine for the API and the command line alike."""

from __future__ import annotations

from pathlib import Path

import pytest

from models.base import InputError
from models.catalog import (
    ArrayModel,
    Calibration,
    CalibrationError,
    Catalog,
    CatalogReference,
    Layout,
    LayoutCalibration,
    load_calibration,
    load_catalog,
    resolve_reference,
)
from models.controller import ControllerSpec
from models.raid import RaidScheme

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"

AGES = Calibration(
    layouts={
        Layout.FRESH: LayoutCalibration(full_stripe_share=0.9, scatter=0.3),
        Layout.AGED: LayoutCalibration(full_stripe_share=0.5, scatter=0.6),
    },
    default_layout=Layout.AGED,
)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def test_the_fixtures_calibration_reads_its_fitted_queuing_and_three_layout_ages() -> None:
    calibration = load_calibration(FIXTURES)

    assert calibration.file == "calibration/engine.yaml"
    assert calibration.version == "2026-11-28"  # YAML reads it as a date; kept as text
    assert calibration.parameters.command_queuing.sas_fc.q_half == 3.61
    assert calibration.layouts[Layout.MODERATE] == LayoutCalibration(full_stripe_share=0.133, scatter=0.642)
    assert calibration.default_layout is None


def test_no_calibration_file_means_engine_defaults(tmp_path: Path) -> None:
    assert load_calibration(tmp_path) == Calibration()


def test_a_malformed_calibration_names_the_file_and_field(tmp_path: Path) -> None:
    (tmp_path / "calibration").mkdir()
    (tmp_path / "calibration" / "engine.yaml").write_text("layouts:\n  fresh: {full_stripe_share: 1.5}\n")

    with pytest.raises(CalibrationError, match="engine.yaml") as raised:
        load_calibration(tmp_path)
    assert "full_stripe_share" in str(raised.value)


def test_a_wafl_reference_gets_the_named_age_else_the_default_age() -> None:
    assert AGES.wafl_layout(Layout.FRESH) == (Layout.FRESH, 0.9, 0.3)
    assert AGES.wafl_layout(None) == (Layout.AGED, 0.5, 0.6)
    assert Calibration().wafl_layout(None) == (None, None, 0.0)
    with pytest.raises(InputError, match="'moderate' is not calibrated") as raised:
        AGES.wafl_layout(Layout.MODERATE)
    assert raised.value.field == "layout"


def test_a_reference_takes_the_array_defaults_and_the_calibrated_age(catalog: Catalog) -> None:
    config = resolve_reference(CatalogReference(array_id="netapp-fas3270"), catalog, AGES)

    pool = config.pools[0]
    # FAS3270: default drive hdd-10k-sas-600, RAID-DP groups of 16, entry 48 drives = 3 groups
    assert pool.drive.id == "hdd-10k-sas-600"
    assert (pool.raid.scheme, pool.raid.group_width, pool.drive_count) == (RaidScheme.RAID_DP, 16, 48)
    assert (pool.raid.full_stripe_share, pool.raid.scatter) == (0.5, 0.6)  # the default age: aged
    assert "aged" in config.name


def test_a_family_reference_leaves_the_drive_count_to_find(catalog: Catalog) -> None:
    config = resolve_reference(CatalogReference(array_id="netapp-fas3270"), catalog, AGES, "family")

    assert config.pools[0].drive_count is None
    with pytest.raises(InputError) as raised:
        resolve_reference(
            CatalogReference(array_id="netapp-fas3270", drive_count=48), catalog, AGES, "family"
        )
    assert raised.value.field == "drive_count"


@pytest.mark.parametrize(
    ("reference", "field"),
    [
        (CatalogReference(array_id="no-such-array"), "array_id"),
        (CatalogReference(array_id="netapp-fas3270", drive_id="no-such-drive"), "drive_id"),
        (CatalogReference(array_id="netapp-fas3270", controller_id="ctl-1"), "controller_id"),
        (CatalogReference(array_id="netapp-fas3270", raid_scheme=RaidScheme.RAID10), "raid_scheme"),
        (CatalogReference(array_id="netapp-fas3270", group_width=40), "group_width"),
        (CatalogReference(array_id="netapp-fas3270", drive_count=5000), "drive_count"),
        (CatalogReference(array_id="netapp-fas3270", layout=Layout.MODERATE), "layout"),
    ],
)
def test_a_wrong_reference_is_an_error_at_its_own_field(
    catalog: Catalog, reference: CatalogReference, field: str
) -> None:
    with pytest.raises(InputError) as raised:
        resolve_reference(reference, catalog, AGES)
    assert raised.value.field == field


def test_custom_hardware_comes_from_the_callers_lookup(catalog: Catalog) -> None:
    array = catalog.arrays["netapp-fas3270"]
    faster = array.controller.model_copy(update={"cores": 8})
    mine = array.model_copy(update={"id": "my-array", "model": "My array"})
    records: dict[str, ArrayModel | ControllerSpec] = {"ctl-1": faster, "my-array": mine}

    config = resolve_reference(
        CatalogReference(array_id="my-array", controller_id="ctl-1"), catalog, AGES, custom=records.get
    )

    assert config.array_id == "my-array"
    assert config.name.startswith("My array")
    assert config.controller.cores == 8
