"""``/reports``: save a result, share it by id, recompute it, export it; delete with the owner token.

There is deliberately no route that lists reports: a report is reachable only by its id.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated

from fastapi import APIRouter, Body, Depends, Header, Path, Query, Request, Response, status
from sqlalchemy.orm import Session

from backend.app.core.config import Settings
from backend.app.core.deadline import client_watch
from backend.app.core.deps import get_sizing_context, open_session
from backend.app.core.idempotency import REPLAYED_HEADER, Idempotency, IdempotencyKeyHeader
from backend.app.core.lanes import run_saving
from backend.app.core.ratelimit import WriteQuota, client_of
from backend.app.engine.context import SizingContext
from backend.app.reports import service
from backend.app.reports.schemas import ReportCreate, ReportCreated, ReportDiff, ReportSnapshot
from backend.app.schemas import error_responses

router = APIRouter(prefix="/reports", tags=["reports"], responses=error_responses(503))

ReportId = Annotated[str, Path(min_length=1, max_length=service.MAX_ID_LENGTH, description="report id")]


QUOTA = [Depends(WriteQuota("reports"))]


async def _saved(request: Request, save: Callable[[Session, SizingContext], Response]) -> Response:
    """``save(session, ctx)``'s answer, run in a report-saving thread (``core.lanes.run_saving``)
    with a session of its own, closed there when the save is done.

    Session and engine context are made here (``deps.open_session``, ``deps.get_sizing_context``),
    not solved as dependencies: the session dependency is a generator, the costliest kind for
    FastAPI to solve, and its session was closed after the thread had given the answer back."""
    ctx = await get_sizing_context(request)

    def run() -> Response:
        with open_session(request) as session:
            return save(session, ctx)

    async with client_watch(request):  # a client gone before the commit: nothing is saved
        return await run_saving(run)


def created_response(created: ReportCreated, replayed: bool = False) -> Response:
    """The 201 answer: the model serialized once by pydantic-core (FastAPI would validate it again
    first)."""
    headers = {REPLAYED_HEADER: "true"} if replayed else None
    return Response(
        created.model_dump_json(by_alias=True),
        status_code=status.HTTP_201_CREATED,
        media_type="application/json",
        headers=headers,
    )


@router.post(
    "",
    response_model=ReportCreated,
    status_code=status.HTTP_201_CREATED,
    responses=error_responses(400, 409, 410, 429),
    dependencies=QUOTA,
)
async def create(
    body: Annotated[ReportCreate, Body()],
    request: Request,
    idempotency_key: IdempotencyKeyHeader = None,
) -> Response:
    """Recompute the result from ``inputs`` and save it; committed before the 201. With an
    ``Idempotency-Key``, a retry gets the first answer (``Idempotent-Replayed: true``)."""
    settings: Settings = request.app.state.settings

    def save(session: Session, ctx: SizingContext) -> Response:
        key = Idempotency.of(
            "reports.create", idempotency_key, body, settings.idempotency_ttl_s, client_of(request)
        )
        return created_response(*service.create(session, ctx, body, key))

    return await _saved(request, save)


@router.get("/{report_id}", response_model=ReportSnapshot, responses=error_responses(404))
def get(request: Request, report_id: ReportId) -> Response:
    """The snapshot exactly as saved (immutable)."""
    with open_session(request) as session:
        return Response(service.get_json(session, report_id), media_type="application/json")


@router.post(
    "/{report_id}/recompute",
    response_model=ReportCreated,
    status_code=status.HTTP_201_CREATED,
    responses=error_responses(404, 429),
    dependencies=QUOTA,
)
async def recompute(request: Request, report_id: ReportId) -> Response:
    """A new report from the saved inputs on the current engine and catalog, with the headline changes."""
    return await _saved(
        request, lambda session, ctx: created_response(service.recompute(session, ctx, report_id))
    )


@router.delete(
    "/{report_id}",
    status_code=status.HTTP_204_NO_CONTENT,
    responses=error_responses(403, 404, 429),
    dependencies=QUOTA,
)
def delete(
    request: Request,
    report_id: ReportId,
    x_owner_token: Annotated[
        str | None, Header(max_length=200, description="the owner token from the save")
    ] = None,
) -> Response:
    with open_session(request) as session:
        service.delete(session, report_id, x_owner_token)
    return Response(status_code=status.HTTP_204_NO_CONTENT)


@router.get(
    "/{report_id}/export",
    response_model=ReportSnapshot,
    responses={
        200: {
            "content": {
                "text/csv": {"schema": {"type": "string"}},
                "application/pdf": {"schema": {"type": "string", "format": "binary"}},
                service.EXPORT_MEDIA_TYPES["xlsx"]: {"schema": {"type": "string", "format": "binary"}},
            },
            "description": "JSON snapshot, CSV, the PDF proposal or the XLSX BOM workbook",
        },
        **error_responses(404, 503),
    },
)
def export(
    request: Request,
    report_id: ReportId,
    format: Annotated[
        service.ExportFormat,
        Query(
            description="json: the snapshot; csv: one row per figure; pdf: the proposal (needs Chromium on the "
            "server); xlsx: the bill of materials and its money, one sheet per configuration"
        ),
    ] = "json",
) -> Response:
    """Download the report: the JSON snapshot, CSV with one row per window x component figure, the PDF
    proposal or the XLSX BOM workbook (both with the report's link)."""
    settings: Settings = request.app.state.settings
    with open_session(request) as session:
        content, media_type = service.export_report(
            session,
            report_id,
            format,
            base_url=str(request.base_url),
            chromium=settings.chromium_path,
            pdf_timeout_s=settings.pdf_timeout_s,
        )
    disposition = f'attachment; filename="report-{report_id}.{format}"'
    return Response(content, media_type=media_type, headers={"Content-Disposition": disposition})


@router.get("/{report_id}/diff/{other_id}", response_model=ReportDiff, responses=error_responses(404))
def diff(request: Request, report_id: ReportId, other_id: ReportId) -> ReportDiff:
    """Two saved reports side by side: every headline figure of either, before (this report) and
    after (the other), and which changed."""
    with open_session(request) as session:
        return service.diff(session, report_id, other_id)
