"""The catalog: drives, arrays, port types, RAID schemes and workload templates as versioned data.

Records live in YAML under ``fixtures/`` (one file per vendor family, one per workload template,
plus ``catalog/drives.yaml`` and ``catalog/ports.yaml``); ``fixtures/catalog/catalog.yaml`` holds
the ``catalog_version`` and lists every file. :func:`load_catalog` takes that folder's path (the
engine never finds files by itself), validates every file against its schema and cross-checks
the records; any failure raises :class:`CatalogError` naming the file and the field path
(``records[3].controller.cores``).

Every record carries a ``source``: a datasheet, a published test, ``"estimate: ..."`` for figures
without a verified source, or ``"calibrated: fitted to ..."`` for parameters fitted to published
measurements. Published sources are cited by their key in ``docs/sources.md``
(``[netapp-tr3838]``). Port types and RAID schemes come from the engine (:mod:`models.ports`,
:mod:`models.raid`): ``ports.yaml`` documents each port type and must agree with
``models.ports.PRACTICAL_MB_S``.

Modules: :mod:`~models.catalog.schemas` (record and file types), :mod:`~models.catalog.loader`
(reading and cross-checking), :mod:`~models.catalog.build` (:func:`build_configuration` turns
records into a ready :class:`~models.configuration.Configuration`),
:mod:`~models.catalog.raid_schemes` (engine-derived RAID scheme records),
:mod:`~models.catalog.calibration` (:func:`load_calibration`: the fitted engine parameters and
WAFL layout ages of ``calibration/engine.yaml``), :mod:`~models.catalog.reference`
(:func:`resolve_reference` turns a :class:`CatalogReference` into a configuration),
:mod:`~models.catalog.coverage` (:func:`calibration_gaps`: every record states per part how
calibrated it is, :mod:`models.provenance`).
"""

from models.catalog.build import build_configuration
from models.catalog.calibration import (
    CALIBRATION_FILE,
    Calibration,
    CalibrationError,
    Layout,
    LayoutCalibration,
    load_calibration,
)
from models.catalog.coverage import calibration_gaps, source_gaps
from models.catalog.loader import CATALOG_INDEX, catalog_json_schema, load_catalog
from models.catalog.raid_schemes import raid_scheme_records
from models.catalog.schemas import (
    ArrayModel,
    ArraysFile,
    Catalog,
    CatalogError,
    CatalogIndex,
    DrivesFile,
    FlashCacheOption,
    PortOption,
    PortsFile,
    PortTypeRecord,
    RaidOption,
    RaidSchemeRecord,
    ScaleOut,
    TemplateFile,
    WorkloadTemplate,
    WriteLogOption,
)

# isort: split
# last: reference resolution uses models.support, which imports the records above
from models.catalog.reference import (
    CatalogReference,
    CountMode,
    CustomRecord,
    layout_for_scheme,
    reference_field,
    resolve_reference,
)

__all__ = [
    "CALIBRATION_FILE",
    "CATALOG_INDEX",
    "ArrayModel",
    "ArraysFile",
    "Calibration",
    "CalibrationError",
    "Catalog",
    "CatalogError",
    "CatalogIndex",
    "CatalogReference",
    "CountMode",
    "CustomRecord",
    "DrivesFile",
    "FlashCacheOption",
    "Layout",
    "LayoutCalibration",
    "PortOption",
    "PortTypeRecord",
    "PortsFile",
    "RaidOption",
    "RaidSchemeRecord",
    "ScaleOut",
    "TemplateFile",
    "WorkloadTemplate",
    "WriteLogOption",
    "build_configuration",
    "calibration_gaps",
    "source_gaps",
    "catalog_json_schema",
    "layout_for_scheme",
    "load_calibration",
    "load_catalog",
    "raid_scheme_records",
    "reference_field",
    "resolve_reference",
]
