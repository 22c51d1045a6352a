"""``/import``: Iometer and fio files into a workload phase."""

from __future__ import annotations

from fastapi import APIRouter

from backend.app.imports import service
from backend.app.imports.schemas import FioImport, ImportResult, IometerImport
from backend.app.schemas import error_responses

router = APIRouter(prefix="/import", tags=["import"], responses=error_responses(400))


@router.post("/iometer")
def iometer(body: IometerImport) -> ImportResult:
    """An Iometer access specification as a phase (I/O-size mix, read %, random %)."""
    return service.iometer(body)


@router.post("/fio")
def fio(body: FioImport) -> ImportResult:
    """A fio job file or JSON result as a phase (mix, rate, queue depth, measured latencies)."""
    return service.fio(body)
