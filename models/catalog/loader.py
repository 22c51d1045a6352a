"""Loading the catalog: read the index and every file it lists, validate each against its schema
and cross-check the records; failures raise :class:`CatalogError` naming file and field.
"""

from __future__ import annotations

import math
from pathlib import Path, PurePosixPath
from typing import Any, TypeVar

import yaml
from pydantic import BaseModel, ValidationError

from models.catalog.raid_schemes import raid_scheme_records
from models.catalog.schemas import (
    ArrayModel,
    ArraysFile,
    Catalog,
    CatalogError,
    CatalogIndex,
    DrivesFile,
    PortsFile,
    PortTypeRecord,
    RaidSchemeRecord,
    TemplateFile,
    WorkloadTemplate,
)
from models.drives import DriveSpec
from models.ports import PRACTICAL_MB_S, PortType

CATALOG_INDEX = PurePosixPath("catalog/catalog.yaml")
"""Location of the catalog index inside the fixtures folder."""

_M = TypeVar("_M", bound=BaseModel)


def _loc(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += f".{part}" if out else str(part)
    return out


def _record_label(raw: Any, loc: tuple[int | str, ...]) -> str:
    """`` (record 'id')`` for errors inside ``records[i]`` when the raw record has an id."""
    if len(loc) >= 2 and loc[0] == "records" and isinstance(loc[1], int) and isinstance(raw, dict):
        records = raw.get("records")
        if isinstance(records, list) and 0 <= loc[1] < len(records) and isinstance(records[loc[1]], dict):
            rid = records[loc[1]].get("id") or records[loc[1]].get("type")
            if rid is not None:
                return f" (record {rid!r})"
    return ""


def _validate(model: type[_M], raw: Any, file: str) -> _M:
    try:
        return model.model_validate(raw)
    except ValidationError as exc:
        errors = []
        for e in exc.errors(include_url=False):
            loc = tuple(e["loc"])
            errors.append((_loc(loc) or "(file)", f"{e['msg']}{_record_label(raw, loc)}"))
        raise CatalogError(file, errors) from exc


def _read_yaml(root: Path, rel: str) -> Any:
    p = PurePosixPath(rel)
    if p.is_absolute() or ".." in p.parts:
        raise CatalogError(
            str(CATALOG_INDEX), [("", f"file path {rel!r} must stay inside the fixtures folder")]
        )
    path = root / p
    if not path.is_file():
        raise CatalogError(str(CATALOG_INDEX), [("", f"listed file {rel!r} does not exist under {root}")])
    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"line {mark.line + 1}" if mark is not None else ""
        raise CatalogError(rel, [(where, f"invalid YAML: {getattr(exc, 'problem', exc)}")]) from exc


def load_catalog(root: Path) -> Catalog:
    """Load and validate the catalog under ``root`` (the ``fixtures/`` folder).

    Reads ``catalog/catalog.yaml`` and every file it lists; validates each against its schema;
    cross-checks duplicate ids, array references to unknown drives, default drives and scale-out
    limits, template ids matching their file names, and port rates agreeing with the engine.
    Raises :class:`CatalogError` (file + field path) on the first file with problems.
    """
    root = Path(root)
    index_raw = _read_yaml(root, str(CATALOG_INDEX))
    index = _validate(CatalogIndex, index_raw, str(CATALOG_INDEX))
    files: list[str] = []

    # drives
    drives: dict[str, DriveSpec] = {}
    drive_where: dict[str, str] = {}
    for rel in index.drives:
        dfile = _validate(DrivesFile, _read_yaml(root, rel), rel)
        files.append(rel)
        for i, d in enumerate(dfile.records):
            if d.id in drives:
                raise CatalogError(
                    rel, [(f"records[{i}].id", f"duplicate drive id {d.id!r} (also {drive_where[d.id]})")]
                )
            drives[d.id] = d
            drive_where[d.id] = f"{rel} records[{i}]"

    # ports
    pfile = _validate(PortsFile, _read_yaml(root, index.ports), index.ports)
    files.append(index.ports)
    ports: dict[PortType, PortTypeRecord] = {}
    for i, p in enumerate(pfile.records):
        if p.type in ports:
            raise CatalogError(index.ports, [(f"records[{i}].type", f"duplicate port type {p.type.value!r}")])
        engine = PRACTICAL_MB_S[p.type]
        if not math.isclose(p.practical_mb_s, engine, rel_tol=1e-9):
            raise CatalogError(
                index.ports,
                [
                    (
                        f"records[{i}].practical_mb_s",
                        f"{p.practical_mb_s:g} MB/s disagrees with the engine's models.ports.PRACTICAL_MB_S "
                        f"({engine:g} MB/s for {p.type.value}); change both together",
                    )
                ],
            )
        ports[p.type] = p
    missing_ports = [t.value for t in PortType if t not in ports]
    if missing_ports:
        raise CatalogError(index.ports, [("records", f"port types missing: {', '.join(missing_ports)}")])

    # arrays
    arrays: dict[str, ArrayModel] = {}
    array_where: dict[str, str] = {}
    for rel in index.arrays:
        afile = _validate(ArraysFile, _read_yaml(root, rel), rel)
        files.append(rel)
        for i, a in enumerate(afile.records):
            errors: list[tuple[str, str]] = []
            if a.id in arrays:
                errors.append((f"records[{i}].id", f"duplicate array id {a.id!r} (also {array_where[a.id]})"))
            for j, did in enumerate(a.drives):
                if did not in drives:
                    errors.append(
                        (f"records[{i}].drives[{j}]", f"unknown drive id {did!r} (record {a.id!r})")
                    )
            if a.default_drive is not None and a.default_drive not in drives:
                errors.append((f"records[{i}].default_drive", f"unknown drive id {a.default_drive!r}"))
            if errors:
                raise CatalogError(rel, errors)
            arrays[a.id] = a
            array_where[a.id] = f"{rel} records[{i}]"

    # templates
    templates: dict[str, WorkloadTemplate] = {}
    for rel in index.templates:
        tfile = _validate(TemplateFile, _read_yaml(root, rel), rel)
        files.append(rel)
        if tfile.id != PurePosixPath(rel).stem:
            raise CatalogError(
                rel,
                [("id", f"template id {tfile.id!r} must match the file name {PurePosixPath(rel).name!r}")],
            )
        if tfile.id in templates:
            raise CatalogError(rel, [("id", f"duplicate template id {tfile.id!r}")])
        templates[tfile.id] = WorkloadTemplate.model_validate(tfile.model_dump(exclude={"kind"}))

    return Catalog(
        catalog_version=index.catalog_version,
        drives=drives,
        arrays=arrays,
        templates=templates,
        ports=ports,
        raid_schemes=raid_scheme_records(),
        files=[str(CATALOG_INDEX), *files],
    )


def catalog_json_schema() -> dict[str, dict[str, Any]]:
    """JSON Schemas of the catalog's record and file types, keyed by type name."""
    types: list[type[BaseModel]] = [
        CatalogIndex,
        DriveSpec,
        ArrayModel,
        WorkloadTemplate,
        PortTypeRecord,
        RaidSchemeRecord,
        DrivesFile,
        PortsFile,
        ArraysFile,
        TemplateFile,
    ]
    return {t.__name__: t.model_json_schema() for t in types}
