"""The catalog: the real fixtures validate and build, broken or impossible records are rejected."""

from __future__ import annotations

import math
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml
from pydantic import ValidationError

from models.base import InputError
from models.catalog import (
    ArrayModel,
    Catalog,
    CatalogError,
    RaidOption,
    build_configuration,
    catalog_json_schema,
    load_catalog,
    source_gaps,
)
from models.configuration import Configuration, FlashCacheKind
from models.controller import HaMode
from models.drives import DriveSpec
from models.evaluate import evaluate
from models.ports import PRACTICAL_MB_S, PortGroup, PortType
from models.raid import RaidLayout, RaidScheme

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures"


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return load_catalog(FIXTURES)


def _copy(tmp_path: Path) -> Path:
    """A writable copy of the fixtures' catalog and templates."""
    root = tmp_path / "fixtures"
    shutil.copytree(FIXTURES / "catalog", root / "catalog")
    shutil.copytree(FIXTURES / "templates", root / "templates")
    return root


def _edit(root: Path, rel: str, change: Any) -> None:
    """Load ``rel``, let ``change`` mutate the document, write it back."""
    path = root / rel
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")


def _raw_records(kind_dir: str, kind: str) -> list[tuple[str, str]]:
    """(file, id) of every record in the YAML files of ``kind`` under ``kind_dir``."""
    out: list[tuple[str, str]] = []
    for f in sorted((FIXTURES / kind_dir).glob("*.yaml")):
        doc = yaml.safe_load(f.read_text(encoding="utf-8"))
        if doc.get("kind") == kind:
            out.extend((f.name, r["id"]) for r in doc["records"])
    return out


# ---- the real fixtures --------------------------------------------------------------------------


def test_real_catalog_loads_with_its_version_and_every_part(catalog: Catalog) -> None:
    assert catalog.catalog_version == "2026.11.13"
    assert len(catalog.drives) >= 60
    assert len(catalog.arrays) >= 45
    assert len(catalog.templates) == 8
    assert set(catalog.ports) == set(PortType)
    assert set(catalog.raid_schemes) == set(RaidScheme)


def test_every_fixture_file_is_listed_in_the_catalog_index(catalog: Catalog) -> None:
    on_disk = {f"catalog/{f.name}" for f in (FIXTURES / "catalog").glob("*.yaml")}
    on_disk |= {f"templates/{f.name}" for f in (FIXTURES / "templates").glob("*.yaml")}
    assert on_disk == set(catalog.files)


def test_array_and_drive_ids_are_unique_across_files() -> None:
    for ids in (_raw_records("catalog", "drives"), _raw_records("catalog", "arrays")):
        names = [i for _, i in ids]
        assert len(names) == len(set(names)), [i for i in names if names.count(i) > 1]


def test_every_record_has_a_source(catalog: Catalog) -> None:
    assert source_gaps(catalog) == []


def test_a_record_part_without_a_source_is_named_with_record_and_field(catalog: Catalog) -> None:
    # a controller left at the custom records' default source, a blank licence source
    x70 = catalog.arrays["pure-flasharray-x70"]
    a400 = catalog.arrays["netapp-aff-a400"]
    licence = a400.commercial.licences[0].model_copy(update={"source": "  "})
    broken = catalog.model_copy(
        update={
            "arrays": {
                **catalog.arrays,
                x70.id: x70.model_copy(
                    update={"controller": x70.controller.model_copy(update={"source": "user-defined"})}
                ),
                a400.id: a400.model_copy(
                    update={"commercial": a400.commercial.model_copy(update={"licences": [licence]})}
                ),
            }
        }
    )
    hint = "no source (cite a docs/sources.md key, a datasheet or 'estimate: ...')"
    assert source_gaps(broken) == [
        "arrays[netapp-aff-a400].commercial.licences[ONTAP software bundle (data protection and security)]"
        f".source: {hint}",
        f"arrays[pure-flasharray-x70].controller.source: {hint}",
    ]


def test_calibrated_controllers_say_what_they_were_fitted_to(catalog: Catalog) -> None:
    fas2050 = catalog.arrays["netapp-fas2050"].controller
    assert fas2050.source.startswith("calibrated:")
    assert "fas2050_fileserver_cpu_bound" in fas2050.source and "fixtures/calibration" in fas2050.source
    # FAS3070 per-core costs are the FAS2050 ones / 1.5 (a documented estimate), not a separate fit
    fas3070 = catalog.arrays["netapp-fas3070"].controller
    assert fas3070.source.startswith("calibrated: FAS2050 fitted per-core costs / 1.5")
    assert fas3070.cpu_us_read_miss == pytest.approx(fas2050.cpu_us_read_miss / 1.5, rel=0.01)


def test_fas2050_has_one_core_and_fas3070_four(catalog: Catalog) -> None:
    # published set-ups: FAS2050 "1 CPU", FAS3070 "4 CPUs" (the CPU costs are calibrated elsewhere)
    assert catalog.arrays["netapp-fas2050"].controller.cores == 1
    assert catalog.arrays["netapp-fas3070"].controller.cores == 4


def test_netapp_dram_per_controller(catalog: Catalog) -> None:
    dram = {
        a: catalog.arrays[a].controller.dram_cache_gb
        for a in ("netapp-fas2050", "netapp-fas3070", "netapp-fas3170")
    }
    assert dram == {"netapp-fas2050": 2, "netapp-fas3070": 8, "netapp-fas3170": 16}


def test_right_sized_capacity_is_netapp_mib_in_gib(catalog: Catalog) -> None:
    # 450 GB -> 418,000 MiB = 418,000 / 1024 = 408.2 GiB (not 418 GiB)
    assert catalog.drives["hdd-15k-sas-450"].right_sized_gib == pytest.approx(418_000 / 1024, abs=1e-3)
    # 1 TB SATA -> 847,555 MiB = 827.69 GiB
    assert catalog.drives["hdd-7k2-sata-1000"].right_sized_gib == pytest.approx(847_555 / 1024, abs=1e-3)


def test_catalog_port_rates_are_the_engine_rates(catalog: Catalog) -> None:
    assert {t: p.practical_mb_s for t, p in catalog.ports.items()} == PRACTICAL_MB_S


def test_raid_scheme_records_carry_the_classic_small_write_costs(catalog: Catalog) -> None:
    rs = catalog.raid_schemes
    assert rs[RaidScheme.RAID10].small_write_cost == 2
    assert rs[RaidScheme.RAID5].small_write_cost == 4
    assert rs[RaidScheme.RAID6].small_write_cost == 6
    # RAID-DP 14+2 in a full aggregate (98%): k = 14 x 0.02^0.5 = 1.980 free blocks per stripe;
    # read-modify-write (k + p < d - k): per 4 KiB block 1 + 2/k writes and 1 + 2/k reads = 2 + 4/k
    k = 14 * 0.02**0.5
    assert rs[RaidScheme.RAID_DP].small_write_cost == pytest.approx(2 + 4 / k)
    assert (rs[RaidScheme.RAID6].min_width, rs[RaidScheme.RAID6].parity_drives) == (4, 2)
    assert rs[RaidScheme.REPLICA].capacity_efficiency == 0.5


def test_templates_are_complete_workloads_with_the_published_file_server_mix(catalog: Catalog) -> None:
    fs = catalog.templates["file-server"].workload.phases[0]
    # published iometer_file_server: size_mix_bytes_pct {512: 10, 1024: 5, 2048: 5, 4096: 60, 8192: 2,
    # 16384: 4, 32768: 4, 65536: 10}, 80% reads, 100% random
    assert [(s.size_kib * 1024, s.pct) for s in fs.io_sizes] == [
        (512, 10),
        (1024, 5),
        (2048, 5),
        (4096, 60),
        (8192, 2),
        (16384, 4),
        (32768, 4),
        (65536, 10),
    ]
    assert (fs.read_pct, fs.random_pct) == (80, 100)
    oltp = catalog.templates["oltp-database"].workload
    assert {p.window for p in oltp.phases} == {"business hours", "nightly export", "month-end batch"}
    month_end = max(oltp.working_set_for(p) for p in oltp.phases if p.window == "month-end batch")
    assert month_end > 5 * oltp.working_set_for(oltp.phases[0])  # a much larger working set


# ---- every array x drive x scheme ---------------------------------------------------------------


def _combinations(catalog: Catalog, array: ArrayModel) -> list[tuple[DriveSpec, RaidOption]]:
    return [(d, r) for d in catalog.drives_for(array) for r in array.raid]


ARRAY_IDS = sorted(load_catalog(FIXTURES).arrays)


@pytest.mark.parametrize("array_id", ARRAY_IDS)
def test_every_array_builds_with_every_supported_drive_and_scheme(catalog: Catalog, array_id: str) -> None:
    array = catalog.arrays[array_id]
    for drive, option in _combinations(catalog, array):
        cfg = build_configuration(array, drive, option.scheme)
        assert isinstance(cfg, Configuration)
        assert cfg.array_id == array_id
        assert cfg.pools[0].raid.scheme is option.scheme
        assert cfg.pools[0].raid.group_width == option.default_width


@pytest.mark.parametrize("array_id", ARRAY_IDS)
def test_every_array_evaluates_the_file_server_template(catalog: Catalog, array_id: str) -> None:
    array = catalog.arrays[array_id]
    workload = catalog.templates["file-server"].workload
    for drive, option in _combinations(catalog, array):
        result = evaluate([workload], build_configuration(array, drive, option.scheme))
        assert result.windows


@pytest.mark.parametrize(
    "template_id",
    [
        "backup-streaming",
        "data-warehouse-scans",
        "exchange-mail",
        "file-server",
        "hpc-streaming",
        "oltp-database",
        "spc1-like",
        "vdi-boot-storm",
    ],
)
def test_every_template_evaluates_on_every_array_default_configuration(
    catalog: Catalog, template_id: str
) -> None:
    workload = catalog.templates[template_id].workload
    for array in catalog.arrays.values():
        assert array.default_drive is not None
        cfg = build_configuration(array, catalog.drives[array.default_drive], array.default_raid)
        assert evaluate([workload], cfg).windows, array.id


# ---- build_configuration ------------------------------------------------------------------------


def test_build_reproduces_the_published_fas3070_set_up(catalog: Catalog) -> None:
    # 20 x 300 GB 15K FC, one RAID-DP group of 20 (18 data + 2 parity), WAFL reserve 10%
    fas = catalog.arrays["netapp-fas3070"]
    cfg = build_configuration(
        fas, catalog.drives["hdd-15k-fc-300"], "raid-dp", group_width=20, drive_count=20
    )
    pool = cfg.pools[0]
    assert (pool.drive_count, pool.raid.group_width, pool.raid.data_drives) == (20, 20, 18)
    assert cfg.capacity.filesystem_reserve_pct == 10
    assert cfg.controller.cores == 4 and cfg.controller.dram_cache_gb == 8
    assert cfg.packaging.max_drives == 504
    assert cfg.cache.flash_cache_gb == 0


def test_default_drive_count_is_whole_groups(catalog: Catalog) -> None:
    # FAS3070 entry configuration 20 drives, default RAID-DP width 16 -> one group of 16
    fas = catalog.arrays["netapp-fas3070"]
    assert build_configuration(fas, catalog.drives["hdd-15k-fc-300"], "raid-dp").pools[0].drive_count == 16
    # VNX5300 25 drives in RAID 5 4+1 -> 5 groups of 5
    vnx = catalog.arrays["emc-vnx5300"]
    assert build_configuration(vnx, catalog.drives["hdd-10k-sas-600"], "raid5").pools[0].drive_count == 25


def test_unsupported_drive_is_an_input_error(catalog: Catalog) -> None:
    with pytest.raises(InputError, match="does not support drive 'nvme-9550-max-6400'") as exc:
        build_configuration(catalog.arrays["netapp-fas2050"], catalog.drives["nvme-9550-max-6400"], "raid-dp")
    assert exc.value.field == "drive"


def test_unsupported_scheme_is_an_input_error(catalog: Catalog) -> None:
    with pytest.raises(InputError, match="does not support raid-dp") as exc:
        build_configuration(catalog.arrays["emc-vnx5300"], catalog.drives["hdd-10k-sas-600"], "raid-dp")
    assert exc.value.field == "raid_scheme"


def test_unknown_scheme_name_is_an_input_error(catalog: Catalog) -> None:
    with pytest.raises(InputError, match="unknown scheme 'raid7'"):
        build_configuration(catalog.arrays["generic"], catalog.drives["hdd-10k-sas-600"], "raid7")


def test_width_outside_the_arrays_layouts_is_an_input_error(catalog: Catalog) -> None:
    unity = catalog.arrays["emc-unity-400"]  # RAID 5 only as 4+1, 8+1, 12+1
    with pytest.raises(InputError, match=r"groups of \[5, 9, 13\] drives, got 6"):
        build_configuration(unity, catalog.drives["hdd-10k-sas-1200"], "raid5", group_width=6)
    assert (
        build_configuration(unity, catalog.drives["hdd-10k-sas-1200"], "raid5", group_width=9)
        .pools[0]
        .raid.group_width
        == 9
    )


def test_one_drive_raid6_is_rejected_everywhere(catalog: Catalog) -> None:
    with pytest.raises(ValidationError, match="raid6 group width must be between 4 and 32 drives, got 1"):
        RaidLayout(scheme="raid6", group_width=1)
    with pytest.raises(ValidationError, match="raid6 group width must be between 4 and 32 drives, got 1"):
        RaidOption(scheme="raid6", default_width=1, min_width=1, max_width=1)
    with pytest.raises(InputError, match="got 1") as exc:
        build_configuration(
            catalog.arrays["generic"], catalog.drives["hdd-10k-sas-600"], "raid6", group_width=1
        )
    assert exc.value.field == "group_width"


def test_too_few_or_too_many_drives_are_input_errors(catalog: Catalog) -> None:
    fas = catalog.arrays["netapp-fas2050"]
    drive = catalog.drives["hdd-15k-sas-300"]
    with pytest.raises(InputError, match="at least 16 drives"):
        build_configuration(fas, drive, "raid-dp", drive_count=10)
    # 104 drives + max(2, ceil(104/28) = 4) spares > 104
    with pytest.raises(InputError, match="exceed the FAS2050 \\(HA pair\\) maximum of 104"):
        build_configuration(fas, drive, "raid-dp", drive_count=104)


def test_flash_cache_sizes_come_from_the_arrays_options(catalog: Catalog) -> None:
    fas = catalog.arrays["netapp-fas3170"]
    drive = catalog.drives["hdd-15k-fc-300"]
    cfg = build_configuration(fas, drive, "raid-dp", flash_cache_gb=32)
    assert (
        cfg.cache.flash_cache_gb == 32
        and cfg.cache.dedupe_aware
        and cfg.cache.flash_kind is FlashCacheKind.FLASH_CACHE
    )
    with pytest.raises(InputError, match="offers no 100 GB flash cache") as exc:
        build_configuration(fas, drive, "raid-dp", flash_cache_gb=100)
    assert exc.value.field == "flash_cache_gb"
    with pytest.raises(InputError, match="no flash cache"):
        build_configuration(
            catalog.arrays["netapp-fas2050"], catalog.drives["hdd-15k-sas-300"], "raid-dp", flash_cache_gb=16
        )
    zfs = catalog.arrays["oracle-zfs-7320"]
    cfg = build_configuration(zfs, catalog.drives["hdd-7k2-nlsas-2000"], "raidz2", flash_cache_gb=1024)
    assert cfg.cache.flash_kind is FlashCacheKind.L2ARC
    vnx = catalog.arrays["emc-vnx5300"]
    cfg = build_configuration(vnx, catalog.drives["hdd-10k-sas-600"], "raid5", flash_cache_gb=200)
    assert cfg.cache.flash_kind is FlashCacheKind.FAST_CACHE and not cfg.cache.dedupe_aware


def test_ports_default_to_the_arrays_option_and_must_be_offered(catalog: Catalog) -> None:
    fas = catalog.arrays["netapp-fas3070"]
    drive = catalog.drives["hdd-15k-fc-300"]
    cfg = build_configuration(fas, drive, "raid-dp")
    assert [(p.type, p.count) for p in cfg.ports] == [(PortType.FC4, 4), (PortType.GBE1, 8)]
    custom = [PortGroup(type="10gbe", count=2)]
    assert build_configuration(fas, drive, "raid-dp", ports=custom).ports == custom
    with pytest.raises(InputError, match="offers no 16gfc ports"):
        build_configuration(fas, drive, "raid-dp", ports=[PortGroup(type="16gfc", count=2)])


def test_solidfire_grows_by_whole_nodes_of_ten_drives(catalog: Catalog) -> None:
    sf = catalog.arrays["netapp-solidfire-sf9605"]
    ssd = catalog.drives["ssd-sata-960"]
    base = build_configuration(sf, ssd, "replica")
    assert (base.controller.count, base.pools[0].drive_count, base.pools[0].raid.copies) == (4, 40, 2)
    assert base.controller.ha_mode is HaMode.SCALE_OUT
    big = build_configuration(sf, ssd, "replica", drive_count=100)
    # 100 drives / 10 per node = 10 nodes; default 8 ports for 4 nodes -> ceil(8 x 10/4) = 20
    assert big.controller.count == 10
    assert big.ports[0].count == 20
    with pytest.raises(InputError, match="exactly 10 drives") as exc:
        build_configuration(sf, ssd, "replica", drive_count=45)
    assert exc.value.field == "drive_count"
    with pytest.raises(InputError, match="at least 4 nodes") as exc:
        build_configuration(sf, ssd, "replica", drive_count=30)
    assert exc.value.field == "drive_count"


def test_vmax_adds_engines_for_the_drives(catalog: Catalog) -> None:
    vmax = catalog.arrays["emc-vmax"]
    # 870 drives + ceil(870 / 30) = 29 spares = 899 attached; / 300 per engine -> 3 engines x 2 directors
    cfg = build_configuration(vmax, catalog.drives["hdd-15k-fc-450"], "raid5", drive_count=870)
    assert cfg.controller.count == 6
    assert cfg.ports[0].count == 48  # 16 FC ports per engine
    # 900 drives + 30 spares = 930 attached: spares count against the engine's 300, so a 4th engine
    cfg = build_configuration(vmax, catalog.drives["hdd-15k-fc-450"], "raid5", drive_count=900)
    assert cfg.controller.count == 8


def test_generic_array_takes_custom_drives_and_erasure_coding(catalog: Catalog) -> None:
    custom = DriveSpec(
        id="my-drive",
        name="My 12 TB drive",
        kind="hdd",
        capacity_gb=12000,
        rpm=7200,
        avg_read_seek_ms=8.0,
        avg_write_seek_ms=9.0,
        media_rate_mb_s=200,
    )
    cfg = build_configuration(catalog.arrays["generic"], custom, "erasure", drive_count=60)
    raid = cfg.pools[0].raid
    assert (raid.ec_data, raid.ec_parity, raid.group_width) == (4, 2, 6)
    assert cfg.pools[0].drive.id == "my-drive"
    cfg = build_configuration(catalog.arrays["generic"], custom, "raid-dp", layout_full_stripe_share=0.8)
    assert cfg.pools[0].raid.full_stripe_share == 0.8


def test_json_schema_describes_every_record_type() -> None:
    schemas = catalog_json_schema()
    for name in (
        "DriveSpec",
        "ArrayModel",
        "WorkloadTemplate",
        "PortTypeRecord",
        "RaidSchemeRecord",
        "CatalogIndex",
    ):
        assert schemas[name]["type"] == "object"
    assert "controller" in schemas["ArrayModel"]["properties"]
    assert "workload" in schemas["WorkloadTemplate"]["properties"]


# ---- broken fixtures ----------------------------------------------------------------------------


def test_a_broken_field_names_the_file_and_the_field_path(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "catalog/netapp-fas.yaml", lambda d: d["records"][1]["controller"].update(cores=-1))
    with pytest.raises(CatalogError) as exc:
        load_catalog(root)
    assert exc.value.file == "catalog/netapp-fas.yaml"
    assert exc.value.field == "records[1].controller.cores"
    assert "catalog/netapp-fas.yaml: records[1].controller.cores: Input should be greater than 0" in str(
        exc.value
    )
    assert "'netapp-fas3070'" in str(exc.value)


def test_a_datasheet_figure_without_a_source_key_names_the_file_record_and_field(tmp_path: Path) -> None:
    # the //C60's 84,000 IOPS ceiling said to be a datasheet figure, with no source key
    root = _copy(tmp_path)
    _edit(
        root,
        "catalog/pure-flasharray.yaml",
        lambda d: d["records"][1]["calibration"]["controller"]["figures"].update(
            max_iops={"status": "datasheet"}
        ),
    )
    with pytest.raises(CatalogError) as exc:
        load_catalog(root)
    assert exc.value.file == "catalog/pure-flasharray.yaml"
    assert exc.value.field == "records[1].calibration.controller.figures.max_iops"
    assert "status 'datasheet' needs at least one source key" in str(exc.value)
    assert "(record 'pure-flasharray-c60')" in str(exc.value)


def test_an_unknown_drive_reference_is_named(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "catalog/emc-vnx.yaml", lambda d: d["records"][0]["drives"].append("hdd-99k-imaginary"))
    with pytest.raises(
        CatalogError, match=r"records\[0\]\.drives\[\d+\]: unknown drive id 'hdd-99k-imaginary'"
    ) as exc:
        load_catalog(root)
    assert exc.value.file == "catalog/emc-vnx.yaml"


def test_a_raid_width_outside_the_schemes_limits_is_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "catalog/netapp-fas.yaml", lambda d: d["records"][0]["raid"][0].update(max_width=40))
    with pytest.raises(
        CatalogError, match="raid-dp group width must be between 3 and 28 drives, got 40"
    ) as exc:
        load_catalog(root)
    assert exc.value.field == "records[0].raid[0]"


def test_duplicate_ids_are_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "catalog/drives.yaml", lambda d: d["records"].append(dict(d["records"][0])))
    with pytest.raises(CatalogError, match="duplicate drive id 'hdd-7k2-sata-500'"):
        load_catalog(root)
    root = _copy(tmp_path / "second")

    def dup_array(d: dict[str, Any]) -> None:
        d["records"].append(dict(d["records"][0]))

    _edit(root, "catalog/emc-unity.yaml", dup_array)
    with pytest.raises(CatalogError, match="duplicate array id 'emc-unity-400'"):
        load_catalog(root)


def _add_drive(root: Path, **fields: Any) -> None:
    record = {
        "id": "custom-hdd",
        "name": "Custom disk",
        "kind": "hdd",
        "capacity_gb": 1000,
        "rpm": 7200,
        "avg_read_seek_ms": 8.5,
        "avg_write_seek_ms": 9.5,
        "media_rate_mb_s": 100,
        "source": "estimate: test record",
        **fields,
    }
    _edit(root, "catalog/drives.yaml", lambda d: d["records"].append(record))


def test_a_negative_seek_is_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _add_drive(root, avg_read_seek_ms=-3)
    with pytest.raises(
        CatalogError, match=r"avg_read_seek_ms: Input should be greater than 0 \(record 'custom-hdd'\)"
    ):
        load_catalog(root)


def test_a_zero_rpm_hard_disk_is_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _add_drive(root, rpm=0)
    with pytest.raises(CatalogError, match=r"\.rpm: Input should be greater than or equal to 3600"):
        load_catalog(root)


def test_a_hard_disk_without_rpm_is_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _add_drive(root, rpm=None)
    with pytest.raises(CatalogError, match="rpm is required for a hard disk"):
        load_catalog(root)


def test_a_port_rate_disagreeing_with_the_engine_is_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "catalog/ports.yaml", lambda d: d["records"][0].update(practical_mb_s=125))
    with pytest.raises(CatalogError, match="disagrees with the engine's models.ports.PRACTICAL_MB_S"):
        load_catalog(root)


def test_a_template_must_be_named_after_its_file(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "templates/spc1-like.yaml", lambda d: d.update(id="spc-one"))
    with pytest.raises(CatalogError, match="must match the file name 'spc1-like.yaml'"):
        load_catalog(root)


def test_a_template_with_a_bad_phase_names_the_phase(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "templates/file-server.yaml", lambda d: d["workload"]["phases"][0].update(read_pct=120))
    with pytest.raises(CatalogError) as exc:
        load_catalog(root)
    assert exc.value.file == "templates/file-server.yaml"
    assert exc.value.field == "workload.phases[0].read_pct"


def test_unknown_fields_are_rejected(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    _edit(root, "catalog/hp-3par.yaml", lambda d: d["records"][0].update(max_drivs=10))
    with pytest.raises(CatalogError, match=r"records\[0\]\.max_drivs: Extra inputs are not permitted"):
        load_catalog(root)


def test_invalid_yaml_reports_the_file_and_line(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    path = root / "catalog/generic.yaml"
    path.write_text("kind: arrays\nrecords: [\n  {id: x\n", encoding="utf-8")
    with pytest.raises(CatalogError, match=r"catalog/generic.yaml: line \d+: invalid YAML") as exc:
        load_catalog(root)
    assert exc.value.file == "catalog/generic.yaml"


def test_a_missing_listed_file_is_reported(tmp_path: Path) -> None:
    root = _copy(tmp_path)
    (root / "catalog/hds-vsp.yaml").unlink()
    with pytest.raises(CatalogError, match="listed file 'catalog/hds-vsp.yaml' does not exist"):
        load_catalog(root)


def test_scale_out_base_must_be_whole_nodes() -> None:
    doc = yaml.safe_load((FIXTURES / "catalog/netapp-solidfire.yaml").read_text(encoding="utf-8"))
    record = doc["records"][0]
    record["controller"]["count"] = 3  # below the 4-node minimum
    with pytest.raises(ValidationError, match="whole number of nodes between min_nodes and max_nodes"):
        ArrayModel.model_validate(record)


def test_flash_option_offers_exact_sizes_or_any_size_up_to_the_largest() -> None:
    generic = load_catalog(FIXTURES).arrays["generic"].flash_cache[0]
    assert generic.offers(123.0) and generic.offers(16000) and not generic.offers(16001)
    fas = load_catalog(FIXTURES).arrays["netapp-fas3070"].flash_cache[0]
    assert fas.offers(64) and not fas.offers(48)
    assert math.isclose(max(fas.sizes_gb), 64)
