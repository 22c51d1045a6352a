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
import hmac
import json
import logging
from collections.abc import Callable
from typing import Any, Literal, cast

from pydantic import BaseModel, TypeAdapter, ValidationError
from sqlalchemy import Insert, Table, Text, bindparam, insert, select
from sqlalchemy.orm import Session

from backend.app.core import deadline
from backend.app.core import idempotency as idem
from backend.app.core.errors import Forbidden, InvalidInput, NotFound, refuse_nul_json, well_formed_id
from backend.app.core.lanes import ENGINE_LANE, lane_slot
from backend.app.core.owners import token_digest
from backend.app.engine.context import HardwareSource, SizingContext
from backend.app.engine.money import tco_for
from backend.app.hardware.schemas import HardwareRecord
from backend.app.plan import service as planning
from backend.app.plan.schemas import (
    ConsolidateRequest,
    ExpandRequest,
    QuoteCheckRequest,
    RefreshRequest,
    ReplicationRequest,
)
from backend.app.recommend import service as recommending
from backend.app.recommend.schemas import RecommendRequest
from backend.app.reports import export, pdf, proposal, workbook
from backend.app.reports.schemas import (
    BuildingBlocksSnapshot,
    CompareSnapshot,
    ConsolidateSnapshot,
    CurvesSnapshot,
    DegradedSnapshot,
    EvaluateSnapshot,
    ExpandSnapshot,
    GrowthSnapshot,
    HardwareDrift,
    QuoteCheckSnapshot,
    RaidGridSnapshot,
    RangesSnapshot,
    RecommendSnapshot,
    RefreshSnapshot,
    ReplicationSnapshot,
    ReportCreate,
    ReportCreated,
    ReportDiff,
    ReportKind,
    SensitivitySnapshot,
    SizeSnapshot,
)
from backend.app.sizing import service as sizing
from backend.app.sizing.schemas import (
    CompareRequest,
    CompareResult,
    CurveName,
    CurvesRequest,
    CurvesResult,
    EvaluateRequest,
    RaidGridRequest,
    SizeRequest,
)
from backend.app.tables import Report, json_document_param, new_id_and_token, utcnow
from backend.app.whatif import service as whatif
from backend.app.whatif.schemas import (
    BuildingBlocksRequest,
    BuildingBlocksResult,
    DegradedRequest,
    GrowthRequest,
    RangesRequest,
    SensitivityRequest,
)
from models import ENGINE_VERSION
from models.compare import Figure, figure_changes, figures, headline
from models.evaluate import EvaluationResult
from models.plan.consolidate import Consolidation
from models.plan.expand import ExpansionResult
from models.plan.quote import QuoteCheck
from models.plan.refresh import RefreshResult
from models.plan.replication import ReplicationResult
from models.raid_grid import RaidGrid, busiest_window
from models.recommend import Recommendation
from models.size import SizingResult
from models.tco import MoneyInputs, Tco
from models.whatif import DegradedComparison, GrowthProjection, Outcome, RangesResult, SensitivityResult

logger = logging.getLogger(__name__)

REPORT_ID = ("path", "report_id")
MAX_ID_LENGTH = 64

_INPUTS: dict[str, TypeAdapter[Any]] = {
    "evaluate": TypeAdapter(EvaluateRequest),
    "size": TypeAdapter(SizeRequest),
    "compare": TypeAdapter(CompareRequest),
    "curves": TypeAdapter(CurvesRequest),
    "recommend": TypeAdapter(RecommendRequest),
    "raid-grid": TypeAdapter(RaidGridRequest),
    "growth": TypeAdapter(GrowthRequest),
    "sensitivity": TypeAdapter(SensitivityRequest),
    "ranges": TypeAdapter(RangesRequest),
    "degraded": TypeAdapter(DegradedRequest),
    "building-blocks": TypeAdapter(BuildingBlocksRequest),
    "replication": TypeAdapter(ReplicationRequest),
    "expand": TypeAdapter(ExpandRequest),
    "quote-check": TypeAdapter(QuoteCheckRequest),
    "consolidate": TypeAdapter(ConsolidateRequest),
    "refresh": TypeAdapter(RefreshRequest),
}
PRICED_BY_REPORT: frozenset[str] = frozenset(
    {"evaluate", "curves", "raid-grid", "growth", "sensitivity", "ranges", "degraded"}
)
"""Kinds whose analysis takes no money: the report prices the configurations they evaluate."""
_RECORDS: TypeAdapter[list[HardwareRecord]] = TypeAdapter(list[HardwareRecord])
_CREATED: TypeAdapter[ReportCreated] = TypeAdapter(ReportCreated)
_MONEY: TypeAdapter[MoneyInputs] = TypeAdapter(MoneyInputs)


def share_url(report_id: str) -> str:
    return f"/r/{report_id}"


# ---- computing a report's result and headline


def _evaluate_headline(result: EvaluationResult, prefix: str = "") -> dict[str, Figure]:
    return figures(headline(result), prefix)


def _tco_headline(money: Tco | None, prefix: str = "") -> dict[str, Figure]:
    """The TCO at the horizon and at no reduction, named with the currency and years."""
    if money is None:
        return {}
    out: dict[str, Figure] = {f"{prefix}tco_{money.years}y_{money.currency}": money.total.value}
    for case in money.ratios:
        if case.case == "pessimistic":
            out[f"{prefix}tco_{money.years}y_{money.currency} (no reduction)"] = case.tco.value
    return out


def _size_headline(result: SizingResult) -> dict[str, Figure]:
    return {
        "feasible": result.feasible,
        "drive_count": result.drive_count,
        "binding_constraint": result.binding_constraint,
        **_evaluate_headline(result.result),
        **_tco_headline(result.tco),
    }


def _compare_headline(result: CompareResult) -> dict[str, Figure]:
    out: dict[str, Figure] = {}
    for i, item in enumerate(result.items, start=1):
        out.update(_evaluate_headline(item.result, prefix=f"[{i}] "))
        out.update(_tco_headline(item.tco, prefix=f"[{i}] "))
    return out


def _recommend_headline(result: Recommendation) -> dict[str, Figure]:
    out: dict[str, Figure] = {"configurations": len(result.configurations)}
    for item in result.configurations[:3]:
        p = f"[{item.rank}] "
        out[f"{p}configuration"] = item.configuration.name
        out[f"{p}drive_count"] = item.drive_count
        out[f"{p}cost_usd"] = item.cost_usd
        out[f"{p}rack_units"] = item.rack_units
        out[f"{p}read_latency_ms"] = item.read_latency_ms
        out.update(_tco_headline(item.tco, prefix=p))
    if result.ratio_flip is not None:
        out["ratio flips"] = result.ratio_flip.flips
    return out


def _raid_grid_headline(result: RaidGrid) -> dict[str, Figure]:
    out: dict[str, Figure] = {"window": result.window}
    for row in result.rows:
        p = f"{row.scheme_name}: "
        out[f"{p}drives"] = row.drives
        out[f"{p}cost_per_usable_tb"] = row.cost_per_usable_tb.value
        out[f"{p}read_latency_ms"] = row.read_latency_ms
        out[f"{p}passed"] = row.passed
    return out


def _outcome_headline(outcome: Outcome, prefix: str = "") -> dict[str, Figure]:
    return {
        f"{prefix}passed": outcome.passed,
        f"{prefix}binding": outcome.binding,
        f"{prefix}headroom_used_pct": outcome.headroom_used_pct,
        f"{prefix}read_latency_ms": outcome.read_latency_ms,
    }


def _growth_headline(result: GrowthProjection) -> dict[str, Figure]:
    out: dict[str, Figure] = {
        "first_break_month": result.first_break_month,
        "first_break": result.first_break,
        "capacity_break_month": result.capacity_break_month,
    }
    for w in result.windows:
        out[f"{w.window}: break_month"] = w.break_month
    return out


def _sensitivity_headline(result: SensitivityResult) -> dict[str, Figure]:
    out: dict[str, Figure] = {"most_influential": result.most_influential, **_outcome_headline(result.base)}
    for bar in result.bars[:3]:
        out[f"{bar.label}: swing_pts"] = bar.swing_pts
    return out


def _ranges_headline(result: RangesResult) -> dict[str, Figure]:
    band = result.headroom_used_pct
    return {
        "most_influential": result.most_influential,
        "headroom_used_pct (low)": band.low,
        "headroom_used_pct (expected)": band.expected,
        "headroom_used_pct (high)": band.high,
        "pass_probability": result.pass_probability,
    }


def _degraded_headline(result: DegradedComparison) -> dict[str, Figure]:
    out: dict[str, Figure] = {"worst_mode": result.worst_mode.value}
    for mode in result.modes:
        if mode.outcome is not None:
            out.update(_outcome_headline(mode.outcome, prefix=f"{mode.mode.value}: "))
    return out


def _blocks_headline(result: BuildingBlocksResult) -> dict[str, Figure]:
    sizing_ = result.sizing
    return {
        key: value
        for key, value in sizing_.model_dump().items()
        if isinstance(value, int | float | str | bool) or value is None
    }


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


def _replication_headline(result: ReplicationResult) -> dict[str, Figure]:
    out: dict[str, Figure] = {
        "mode": result.mode,
        "busiest_window": result.busiest_window,
        "bandwidth_mbit_s": result.bandwidth_mbit_s.value,
        "lag_minutes": result.lag_minutes.value if result.lag_minutes else None,
        "sync_write_ms": result.sync_write_ms.value if result.sync_write_ms else None,
    }
    if result.dr is not None:
        out["dr_drives"] = result.dr.failover.drive_count
        out["dr_feasible"] = result.dr.failover.feasible
    return out


def _expand_headline(result: ExpansionResult) -> dict[str, Figure]:
    out: dict[str, Figure] = {
        "drives_added": result.drives_added.value,
        "shelves_added": result.shelves_added.value,
        "usable_tb_added": result.usable_tb_added.value,
        "cost_added_usd": result.cost_added_usd.value,
        "breaks_before_month": result.breaks_before_month,
        "breaks_after_month": result.breaks_after_month,
    }
    for w in result.windows:
        out[f"{w.window}: headroom_used_after_pct"] = w.headroom_used_after_pct
    return out


def _quote_headline(result: QuoteCheck) -> dict[str, Figure]:
    out: dict[str, Figure] = {"verdict": result.verdict, "labels": len(result.labels)}
    for f in result.findings:
        out[f"{f.area}: {f.verdict}"] = f.amount
    return out


def _consolidate_headline(result: Consolidation) -> dict[str, Figure]:
    return {
        "arrays": len(result.arrays),
        "new_arrays": sum(1 for a in result.arrays if not a.fixed),
        "total_cost_usd": result.total_cost_usd,
        "total_rack_units": result.total_rack_units,
        "unplaced": len(result.unplaced),
    }


def _refresh_headline(result: RefreshResult) -> dict[str, Figure]:
    out: dict[str, Figure] = {}
    for c in result.side_by_side:
        out[f"current: {c.figure}"] = c.before
        out[f"successor: {c.figure}"] = c.after
    return out


_ANALYSES: dict[str, tuple[Callable[[Any, SizingContext], Any], Callable[[Any], dict[str, Figure]]]] = {
    "evaluate": (sizing.evaluate, _evaluate_headline),
    "size": (sizing.size, _size_headline),
    "compare": (sizing.compare, _compare_headline),
    "curves": (sizing.curves, _curves_headline),
    "recommend": (recommending.recommend, _recommend_headline),
    "raid-grid": (sizing.raid_grid, _raid_grid_headline),
    "growth": (whatif.growth, _growth_headline),
    "sensitivity": (whatif.sensitivity, _sensitivity_headline),
    "ranges": (whatif.ranges, _ranges_headline),
    "degraded": (whatif.degraded, _degraded_headline),
    "building-blocks": (whatif.building_blocks, _blocks_headline),
    "replication": (planning.replication, _replication_headline),
    "expand": (planning.expand, _expand_headline),
    "quote-check": (planning.quote_check, _quote_headline),
    "consolidate": (planning.consolidate, _consolidate_headline),
    "refresh": (planning.refresh, _refresh_headline),
}
"""Each kind's analysis (the service its route calls) and the headline figures a recomputation diffs."""


def _compute(kind: ReportKind, inputs: Any, ctx: SizingContext) -> tuple[BaseModel, dict[str, Figure]]:
    """The result of ``inputs`` and its headline figures."""
    analysis, head = _ANALYSES[kind]
    result = analysis(inputs, ctx)
    return result, head(result)


def _priced(kind: ReportKind, inputs: Any, result: Any, ctx: SizingContext, money: MoneyInputs) -> list[Tco]:
    """The money of the configurations an analysis of a kind without money inputs evaluated: the
    configuration it resolved (drive counts set), or each scheme of a RAID grid at its sized count."""
    loc = ("body", "money")
    if kind == "raid-grid":
        families = ctx.configurations[-len(result.rows) :] if result.rows else []
        out = []
        for family, row in zip(families, result.rows, strict=True):
            pool = family.pools[0].model_copy(update={"drive_count": row.drives})
            sized = family.model_copy(update={"pools": [pool], "name": row.configuration})
            out.append(tco_for(ctx, inputs.workloads, sized, money, loc=loc))
        return out
    configured = [c for c in ctx.configurations if all(p.drive_count is not None for p in c.pools)]
    return [tco_for(ctx, inputs.workloads, c, money, loc=loc) for c in configured[:1]]


SNAPSHOT_CURVES: list[CurveName] = ["latency_vs_load", "hit_ratio", "headroom"]


def _snapshot_curves(kind: ReportKind, inputs: Any, result: Any, ctx: SizingContext) -> CurvesResult | None:
    """The busiest window's curves of a size or evaluate report (for its proposal), or None.

    Computed in a context of their own, so the report's configurations stay the analysis's; a
    curve the inputs cannot have is left out with a note (``sizing.curves``)."""
    if kind == "size":
        configuration: Any = result.configuration
        adjust = None
    elif kind == "evaluate":
        configuration, adjust = inputs.configuration, inputs.adjust
    else:
        return None
    window, _ = busiest_window(inputs.workloads)
    request = CurvesRequest(
        workloads=inputs.workloads,
        configuration=configuration,
        window=window,
        curves=SNAPSHOT_CURVES,
        adjust=adjust,
        calibration_margin=inputs.calibration_margin,  # the report's verdict's margins
    )
    try:
        return sizing.curves(
            request,
            SizingContext(ctx.catalog, ctx.calibration, ctx.hardware, ctx.model_errors),
            checked=True,  # the analysis evaluated these inputs already
        )
    except InvalidInput:
        logger.warning(
            "report curves: the engine refused the busiest window %r; saved without curves", window
        )
        return None


def _saved_inputs_error(exc: InvalidInput) -> InvalidInput:
    """An error in a report's saved inputs found by a recomputation: at the report id, naming the path."""
    return InvalidInput(
        [
            (REPORT_ID, f"the saved inputs at {'.'.join(map(str, e['loc'][1:]))}: {e['msg']}", e["type"])
            for e in exc.errors
        ]
    )


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
    "recommend": RecommendSnapshot,
    "raid-grid": RaidGridSnapshot,
    "growth": GrowthSnapshot,
    "sensitivity": SensitivitySnapshot,
    "ranges": RangesSnapshot,
    "degraded": DegradedSnapshot,
    "building-blocks": BuildingBlocksSnapshot,
    "replication": ReplicationSnapshot,
    "expand": ExpandSnapshot,
    "quote-check": QuoteCheckSnapshot,
    "consolidate": ConsolidateSnapshot,
    "refresh": RefreshSnapshot,
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
    money: MoneyInputs | None = None,
) -> tuple[ReportCreated, bool]:
    """(the saved report, False), or (the first answer, True) when this is a retry of a write
    already stored under the same idempotency key."""
    first = idem.replay(session, idempotency, _CREATED, lambda i: session.get(Report, i) is not None)
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
            raise _saved_inputs_error(exc) from exc
        priced: list[Tco] = []
        if kind in PRICED_BY_REPORT:
            money = money or MoneyInputs()
            try:
                priced = _priced(kind, inputs, result, ctx, money)
            except InvalidInput as exc:
                if recomputed_from is None:
                    raise
                raise _saved_inputs_error(exc) from exc
            head = {**head, **_tco_headline(priced[0] if priced else None)}
        else:
            money = None
        curves = _snapshot_curves(kind, inputs, result, ctx)
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
            money=money,
            tco=priced,
            curves=curves,
            inputs=inputs,
            result=result,
        )
        text = snapshot.model_dump_json()
    refuse_nul_json(text)
    if idempotency is None and not session.in_transaction() and deadline.autocommit_allowed(session):
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
    return _save(
        session,
        ctx,
        body.name,
        body.kind,
        body.inputs,
        idempotency=idempotency,
        money=getattr(body, "money", None),
    )


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
        money = _MONEY.validate_python(saved["money"]) if saved.get("money") is not None else None
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
    here = SizingContext(ctx.catalog, ctx.calibration, hardware, ctx.model_errors)
    created, _ = _save(
        session,
        here,
        row.name,
        kind,
        inputs,
        recomputed_from=report_id,
        before=saved.get("headline") or {},
        drift=hardware.drift(),
        money=money,
    )
    return created


def delete(session: Session, report_id: str, owner_token: str | None) -> None:
    row = _row(session, report_id)
    if not owner_token or not hmac.compare_digest(token_digest(owner_token), row.owner_token_hash):
        raise Forbidden("the X-Owner-Token header must carry this report's owner token")
    session.delete(row)
    session.commit()


ExportFormat = Literal["json", "csv", "pdf", "xlsx"]
EXPORT_MEDIA_TYPES: dict[str, str] = {
    "json": "application/json",
    "csv": "text/csv; charset=utf-8",
    "pdf": "application/pdf",
    "xlsx": "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
}


def export_report(
    session: Session,
    report_id: str,
    format: ExportFormat,
    *,
    base_url: str = "",
    chromium: str = "chromium",
    pdf_timeout_s: float = 60.0,
) -> tuple[str | bytes, str]:
    """(content, media type) of the report: JSON (the snapshot as saved), CSV (one row per figure),
    PDF (the proposal, printed by Chromium) or XLSX (the BOM workbook). ``base_url`` makes the
    report's link absolute in the proposal and the workbook."""
    text = get_json(session, report_id)
    if format == "json":
        return text, EXPORT_MEDIA_TYPES["json"]
    snapshot = json.loads(text)
    if format == "csv":
        return export.to_csv(snapshot), EXPORT_MEDIA_TYPES["csv"]
    link = base_url.rstrip("/") + share_url(report_id)
    if format == "xlsx":
        return workbook.to_xlsx(snapshot, link), EXPORT_MEDIA_TYPES["xlsx"]
    html = proposal.render(snapshot, link)
    return pdf.html_to_pdf(html, chromium, pdf_timeout_s), EXPORT_MEDIA_TYPES["pdf"]


def diff(session: Session, before_id: str, after_id: str) -> ReportDiff:
    """Two reports side by side: every headline figure of either, before and after (any two
    reports, of any kinds: figures one of them lacks read null on that side)."""
    a, b = (json.loads(get_json(session, report_id)) for report_id in (before_id, after_id))
    changes = figure_changes(a.get("headline") or {}, b.get("headline") or {})
    return ReportDiff(
        before=a["id"],
        after=b["id"],
        before_name=a.get("name", ""),
        after_name=b.get("name", ""),
        before_kind=a["kind"],
        after_kind=b["kind"],
        before_created_at=a["created_at"],
        after_created_at=b["created_at"],
        before_engine_version=a.get("engine_version", ""),
        after_engine_version=b.get("engine_version", ""),
        changes=changes,
        changed=sum(1 for c in changes if c.changed),
    )
