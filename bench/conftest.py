"""Benchmarks reuse the engine test fixtures (drives, configurations, workloads)."""

from models.tests.conftest import hdd15k, ssd  # noqa: F401


def fas8040_oltp_family():  # noqa: ANN201 - (workloads, family, calibration)
    """The OLTP template and the FAS8040 family of #33 (900 GB 10K drives, RAID-DP, 1,024 GB Flash
    Cache), built as the API builds it (catalog and calibration through the sizing context)."""
    from pathlib import Path

    import yaml

    from backend.app.catalog.service import CatalogStore
    from backend.app.engine.context import SizingContext
    from backend.app.engine.inputs import CatalogReference
    from models.catalog import load_calibration
    from models.workload import Workload

    fixtures = Path(__file__).resolve().parents[1] / "fixtures"
    calibration = load_calibration(fixtures)
    ctx = SizingContext(CatalogStore(fixtures), calibration, None)  # type: ignore[arg-type]
    ref = CatalogReference(
        array_id="netapp-fas8040", drive_id="hdd-10k-sas-900", raid_scheme="raid-dp", flash_cache_gb=1024
    )
    family = ctx.configuration(ref, ("configuration",), count="family")
    doc = yaml.safe_load((fixtures / "templates" / "oltp-database.yaml").read_text())
    return [Workload.model_validate(doc["workload"])], family, calibration
