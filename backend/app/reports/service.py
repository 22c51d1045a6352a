"""Save, read, recompute, delete and export reports.

Saving recomputes the result from the inputs (a result sent by the client is never stored), then
writes one row and commits before answering: a failure leaves nothing behind. The computation (and
the snapshot's JSON) runs in the engine lane's slot (``core.lanes``), one at a time per worker; the
row is one ``INSERT`` statement, committed by itself (no ``BEGIN``/``COMMIT`` round trips) when
the session has not started a transaction, with nothing read back. A save sent with an
``Idempotency-Key`` stores its answer in the same transaction as the row, and a retry gets that
answer back instead of a second report (``core.idempotency``).
The snapshot is stored as the exact JSON text that reads return, so a report reads byte for byte
the same after catalog, calibration or engine changes. Only the owner token (kept as a SHA-256
digest) deletes a report; there is no way to list reports.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
import logging
from collections.abc import Callable
from typing import Any, Literal, cast

from pydantic import BaseModel, TypeAdapter, ValidationError
from sqlalchemy import Insert, Table, Text, bindparam, insert, select
from sqlalchemy.orm import Session

from backend.app.core import idempotency as idem
from backend.app.core.errors import Forbidden, InvalidInput, NotFound, refuse_nul_json, well_formed_id
from backend.app.core.lanes import ENGINE_LANE, lane_slot
from backend.app.engine.context import HardwareSource, SizingContext
from backend.app.hardware.schemas import HardwareRecord
from backend.app.reports import export
from backend.app.reports.schemas import (
    CompareSnapshot,
    CurvesSnapshot,
    EvaluateSnapshot,
    HardwareDrift,
    ReportCreate,
    ReportCreated,
    ReportKind,
    SizeSnapshot,
)
from backend.app.sizing import service as sizing
from backend.app.sizing.schemas import (
    CompareRequest,
    CompareResult,
    CurvesRequest,
    CurvesResult,
    EvaluateRequest,
    SizeRequest,
)
from backend.app.tables import Report, json_document_param, new_id_and_token, utcnow
from models import ENGINE_VERSION
from models.compare import Figure, figure_changes, figures, headline
from models.evaluate import EvaluationResult
from models.size import SizingResult

logger = logging.getLogger(__name__)

REPORT_ID = ("path", "report_id")
MAX_ID_LENGTH = 64

_INPUTS: dict[str, TypeAdapter[Any]] = {
    "evaluate": TypeAdapter(EvaluateRequest),
    "size": TypeAdapter(SizeRequest),
    "compare": TypeAdapter(CompareRequest),
    "curves": TypeAdapter(CurvesRequest),
}
_RECORDS: TypeAdapter[list[HardwareRecord]] = TypeAdapter(list[HardwareRecord])
_CREATED: TypeAdapter[ReportCreated] = TypeAdapter(ReportCreated)


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def share_url(report_id: str) -> str:
    return f"/r/{report_id}"


# ---- computing a report's result and headline


def _evaluate_headline(result: EvaluationResult, prefix: str = "") -> dict[str, Figure]:
    return figures(headline(result), prefix)


def _size_headline(result: SizingResult) -> dict[str, Figure]:
    return {
        "feasible": result.feasible,
        "drive_count": result.drive_count,
        "binding_constraint": result.binding_constraint,
        **_evaluate_headline(result.result),
    }


def _compare_headline(result: CompareResult) -> dict[str, Figure]:
    out: dict[str, Figure] = {}
    for i, item in enumerate(result.items, start=1):
        out.update(_evaluate_headline(item.result, prefix=f"[{i}] "))
    return out


def _curves_headline(result: CurvesResult) -> dict[str, Figure]:
    out: dict[str, Figure] = {"window": result.window}
    if result.latency_vs_load is not None:
        out["saturation_iops"] = result.latency_vs_load.saturation_iops
        out["operating_load_pct"] = result.latency_vs_load.operating_load_pct
    if result.queue_depth is not None and result.queue_depth.points:
        out["max_queue_depth_iops"] = max(p.iops for p in result.queue_depth.points)
    if result.hit_ratio is not None:
        out["configured_hit_pct"] = result.hit_ratio.configured_hit_pct
    return out


def _compute(kind: ReportKind, inputs: Any, ctx: SizingContext) -> tuple[BaseModel, dict[str, Figure]]:
    """The result of ``inputs`` and its headline figures."""
    if kind == "evaluate":
        evaluation = sizing.evaluate(inputs, ctx)
        return evaluation, _evaluate_headline(evaluation)
    if kind == "size":
        sized = sizing.size(inputs, ctx)
        return sized, _size_headline(sized)
    if kind == "compare":
        compared = sizing.compare(inputs, ctx)
        return compared, _compare_headline(compared)
    curves = sizing.curves(inputs, ctx)
    return curves, _curves_headline(curves)


@functools.cache
def _insert_report(dialect_name: str) -> Insert:
    """``INSERT INTO reports``, built once per dialect (built per save, the statement cost as much
    CPU as the ORM's flush); the snapshot document is the parameter ``snapshot_text``.

    Both snapshot columns take that one parameter, so the text (~50 kB for an evaluation) goes to
    the server once, not once per column: sending, and encoding it for the wire, cost the saving
    thread CPU (with the GIL held) per copy."""
    table = cast(Table, Report.__table__)
    return insert(table).values(
        snapshot=json_document_param("snapshot_text", dialect_name),
        snapshot_json=bindparam("snapshot_text", type_=Text()),
    )


_SNAPSHOT: dict[str, Callable[..., BaseModel]] = {
    "evaluate": EvaluateSnapshot,
    "size": SizeSnapshot,
    "compare": CompareSnapshot,
    "curves": CurvesSnapshot,
}


def _save(
    session: Session,
    ctx: SizingContext,
    name: str,
    kind: ReportKind,
    inputs: Any,
    recomputed_from: str | None = None,
    before: dict[str, Figure] | None = None,
    idempotency: idem.Idempotency | None = None,
    drift: list[HardwareDrift] | None = None,
) -> tuple[ReportCreated, bool]:
    """(the saved report, False), or (the first answer, True) when this is a retry of a write
    already stored under the same idempotency key."""
    first = idem.replay(session, idempotency, _CREATED)
    if first is not None:
        return first, True
    report_id, owner_token = new_id_and_token()
    if idempotency is not None:
        owner_token = idempotency.owner_token(report_id)
    drift = drift or []
    catalog_version = ctx.catalog.version()
    created_at = utcnow()
    with lane_slot(ENGINE_LANE[kind]):
        try:
            result, head = _compute(kind, inputs, ctx)
        except InvalidInput as exc:
            if recomputed_from is None:
                raise exc.moved(("body",), ("body", "inputs")) from exc
            raise InvalidInput(
                [
                    (
                        REPORT_ID,
                        f"the saved inputs at {'.'.join(map(str, e['loc'][1:]))}: {e['msg']}",
                        e["type"],
                    )
                    for e in exc.errors
                ]
            ) from exc
        changes = figure_changes(before, head) if before is not None else []
        snapshot = _SNAPSHOT[kind](
            id=report_id,
            name=name,
            kind=kind,
            created_at=created_at,
            engine_version=ENGINE_VERSION,
            catalog_version=catalog_version,
            calibration=ctx.calibration,
            configurations=ctx.configurations,
            custom_hardware=list(ctx.used_hardware.values()),
            headline=head,
            recomputed_from=recomputed_from,
            changes=changes,
            hardware_drift=drift,
            inputs=inputs,
            result=result,
        )
        text = snapshot.model_dump_json()
    refuse_nul_json(text)
    if idempotency is None and not session.in_transaction():
        # one statement, committed by the server as it runs: no BEGIN and COMMIT round trips
        session.connection(execution_options={"isolation_level": "AUTOCOMMIT"})
    session.execute(
        _insert_report(session.get_bind().dialect.name),
        {
            "id": report_id,
            "name": name,
            "owner_token_hash": token_digest(owner_token),
            "created_at": created_at,
            "engine_version": ENGINE_VERSION,
            "catalog_version": catalog_version,
            "kind": kind,
            "snapshot_text": text,
        },
    )
    created = ReportCreated(
        id=report_id,
        kind=kind,
        share_url=share_url(report_id),
        owner_token=owner_token,
        engine_version=ENGINE_VERSION,
        catalog_version=catalog_version,
        recomputed_from=recomputed_from,
        changes=changes,
        hardware_drift=drift,
    )
    idem.remember(session, idempotency, 201, created)
    first = idem.commit(session, idempotency, _CREATED)
    return (first, True) if first is not None else (created, False)


def create(
    session: Session, ctx: SizingContext, body: ReportCreate, idempotency: idem.Idempotency | None = None
) -> tuple[ReportCreated, bool]:
    """Compute the result of ``body.inputs`` and save the snapshot (``body.result`` is ignored);
    True with the first answer when the write is a retry under the same idempotency key."""
    return _save(session, ctx, body.name, body.kind, body.inputs, idempotency=idempotency)


# ---- reading, recomputing, deleting


def _row(session: Session, report_id: str) -> Report:
    row = session.get(Report, well_formed_id("report", report_id))
    if row is None:
        raise NotFound("report", report_id)
    return row


def get_json(session: Session, report_id: str) -> str:
    """The snapshot exactly as saved (the stored JSON text)."""
    query = select(Report.snapshot_json).where(Report.id == well_formed_id("report", report_id))
    text = session.scalars(query).one_or_none()
    if text is None:
        raise NotFound("report", report_id)
    return text


class _WithCopies:
    """The custom hardware copies a report saved, falling back to the database for any other."""

    def __init__(self, live: HardwareSource, copies: list[HardwareRecord]) -> None:
        self.live = live
        self.copies = {record.id: record for record in copies}

    def get(self, record_id: str) -> HardwareRecord | None:
        return self.copies.get(record_id) or self.live.get(record_id)

    def drift(self) -> list[HardwareDrift]:
        """The saved copies whose live record has changed since, or is gone."""
        out = []
        for record_id, copy in self.copies.items():
            live = self.live.get(record_id)
            if live is None:
                out.append(HardwareDrift(id=record_id, name=copy.name, change="deleted"))
            elif live.name != copy.name or live.spec != copy.spec:
                out.append(HardwareDrift(id=record_id, name=copy.name, change="changed"))
        return out


def recompute(session: Session, ctx: SizingContext, report_id: str) -> ReportCreated:
    """A new report from the saved inputs on the current engine, catalog and calibration.

    Custom hardware is the copy the report saved (the live record may have been edited or
    deleted since: ``hardware_drift`` says which). ``changes`` lists every headline figure before
    and after.
    """
    row = _row(session, report_id)
    saved = json.loads(row.snapshot_json)
    kind = cast(ReportKind, row.kind)
    if kind not in _INPUTS:
        raise InvalidInput.at(REPORT_ID, f"report kind {kind!r} cannot be recomputed")
    try:
        inputs = _INPUTS[kind].validate_python(saved.get("inputs"))
    except ValidationError as exc:
        raise InvalidInput.at(
            REPORT_ID,
            f"the saved inputs are not valid for engine {ENGINE_VERSION}: {exc.errors()[0]['msg']}",
        ) from exc
    try:
        copies = _RECORDS.validate_python(saved.get("custom_hardware") or [])
    except ValidationError:
        logger.warning(
            "report %s: saved custom hardware no longer validates; using the database only", report_id
        )
        copies = []
    hardware = _WithCopies(ctx.hardware, copies)
    here = SizingContext(ctx.catalog, ctx.calibration, hardware)
    created, _ = _save(
        session,
        here,
        row.name,
        kind,
        inputs,
        recomputed_from=report_id,
        before=saved.get("headline") or {},
        drift=hardware.drift(),
    )
    return created


def delete(session: Session, report_id: str, owner_token: str | None) -> None:
    row = _row(session, report_id)
    if not owner_token or not hmac.compare_digest(token_digest(owner_token), row.owner_token_hash):
        raise Forbidden("the X-Owner-Token header must carry this report's owner token")
    session.delete(row)
    session.commit()


def export_report(session: Session, report_id: str, format: Literal["json", "csv"]) -> tuple[str, str]:
    """(content, media type) of the report as JSON (the snapshot) or CSV (one row per figure)."""
    text = get_json(session, report_id)
    if format == "json":
        return text, "application/json"
    return export.to_csv(json.loads(text)), "text/csv; charset=utf-8"
