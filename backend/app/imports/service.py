"""Parse load-generator files with :mod:`models.importers`; a parse error is a 422 at ``text``."""

from __future__ import annotations

from collections.abc import Callable

from backend.app.core.errors import InvalidInput
from backend.app.imports.schemas import FioImport, ImportResult, IometerImport
from models.importers import ImportedPhase, ParseError, parse_fio_job, parse_fio_json, parse_iometer_spec

TEXT = ("body", "text")


def _import(parse: Callable[[], ImportedPhase], body: IometerImport | FioImport) -> ImportResult:
    try:
        imported = parse()
        phase = imported.to_phase(body.window)
    except ParseError as exc:
        raise InvalidInput.at(TEXT, str(exc), "parse_error") from exc
    except ValueError as exc:  # an imported figure the engine's Phase refuses
        raise InvalidInput.at(TEXT, f"the imported phase is not valid: {exc}", "parse_error") from exc
    return ImportResult(imported=imported, phase=phase)


def iometer(body: IometerImport) -> ImportResult:
    if body.name is None:
        return _import(lambda: parse_iometer_spec(body.text), body)
    name = body.name
    return _import(lambda: parse_iometer_spec(body.text, name=name), body)


def fio(body: FioImport) -> ImportResult:
    parse = parse_fio_job if body.format == "job" else parse_fio_json
    return _import(lambda: parse(body.text, name=body.name), body)
