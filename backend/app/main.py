"""FastAPI application factory; ``uvicorn backend.app.main:app`` serves the module-level ``app``.

The schema is created by ``alembic upgrade head`` (``make migrate``, ``scripts/prestart``), never here.
The engine calibration (``fixtures/calibration/engine.yaml``) is read here, once; the hardware
catalog on the first request that needs it.
"""

from __future__ import annotations

import copy
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from fastapi.routing import APIRoute
from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

from backend.app.api.main import API_ROUTERS
from backend.app.catalog.service import CatalogStore
from backend.app.core import deadline, openapi_document
from backend.app.core.compression import CompressedAnswers
from backend.app.core.config import Settings, get_settings
from backend.app.core.deadline import RequestClock
from backend.app.core.errors import ServerErrorMiddleware, install_exception_handlers
from backend.app.core.middleware import BodySizeLimitMiddleware, SecurityHeadersMiddleware
from backend.app.core.operations import AllowMiddleware, OperationIndex
from backend.app.core.ratelimit import WriteLimiter
from backend.app.core.strict_json import StrictJSONMiddleware
from backend.app.db import create_db_engine, create_session_factory
from backend.app.docs import mount_docs
from backend.app.health_service import DatabaseProbe
from backend.app.imports.routes import TIMELINE_BODY_BYTES, UPLOAD_PATHS
from backend.app.ui import mount_ui
from models import ENGINE_VERSION
from models.catalog import load_calibration
from models.provenance import MODEL_ERROR_FILE, load_model_error_table

API_PREFIX = "/api/v1"


def operation_id(route: APIRoute) -> str:
    """``{tag}-{name}``, e.g. ``health-get``: stable names for the generated TypeScript client."""
    if not route.tags:
        raise RuntimeError(f"route {route.path} needs a tag for its operation id")
    return f"{route.tags[0]}-{route.name}"


_OPENAPI_DOCUMENTS: dict[tuple[Any, ...], dict[str, Any]] = {}
"""OpenAPI documents already generated in this process, by :func:`_routes_signature`."""


def _qualified_name(endpoint: Any) -> str:
    return f"{getattr(endpoint, '__module__', '')}.{getattr(endpoint, '__qualname__', repr(endpoint))}"


def _routes_signature(app: FastAPI) -> tuple[Any, ...]:
    """What the OpenAPI document is generated from: title, version and every route's path, methods,
    endpoint and visibility."""
    return (
        app.title,
        app.version,
        tuple(
            (
                getattr(route, "path", ""),
                tuple(sorted(getattr(route, "methods", None) or ())),
                _qualified_name(getattr(route, "endpoint", None)),
                getattr(route, "include_in_schema", False),
            )
            for route in app.routes
        ),
    )


def _share_openapi(app: FastAPI, settings_key: tuple[Any, ...]) -> None:
    """Generate ``app``'s OpenAPI document once per process, not once per app.

    Generating it walks every schema (about a second of CPU); an app is created per test and per
    worker, and the document is the same for every app with the same routes and the same
    ``settings_key`` (the settings the document states: body size limits). Each app gets its own
    copy, so nothing one app does to its document reaches another.
    """
    generate = app.openapi

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is None:
            key = (_routes_signature(app), settings_key)
            document = _OPENAPI_DOCUMENTS.get(key)
            if document is None:
                # generate() leaves its document as app.openapi_schema, replaced by a copy below:
                # the shared one is held here alone
                document = _OPENAPI_DOCUMENTS.setdefault(key, generate())
            app.openapi_schema = copy.deepcopy(document)
        return app.openapi_schema

    app.openapi = openapi  # type: ignore[method-assign]


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    limits = settings.database_limits()
    engine = create_db_engine(
        settings.database_url,
        limits,
        pool_size=settings.db_pool_size,
        max_overflow=settings.db_max_overflow,
        pool_timeout=settings.db_pool_timeout_s,
    )
    probe = DatabaseProbe(
        lambda: create_db_engine(settings.database_url, limits, pool_size=1, max_overflow=0),
        interval_s=settings.health_probe_interval_s,
    )

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        yield
        probe.stop()
        engine.dispose()

    app = FastAPI(
        title="Sizer",
        summary="Storage-array sizing and what-if calculator",
        version=ENGINE_VERSION,
        openapi_url="/openapi.json",
        docs_url=None,  # served with local assets by mount_docs
        redoc_url=None,
        generate_unique_id_function=operation_id,
        lifespan=lifespan,
        # no redirect of /path/ to /path: Starlette builds it from the Host header, so a forged Host
        # got a redirect to another site; a path with a trailing slash is a 404 like any other
        redirect_slashes=False,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.database_probe = probe
    app.state.write_limiter = (
        WriteLimiter(settings.write_limits(), settings.redis_url) if settings.rate_limits_enabled else None
    )
    app.state.session_factory = create_session_factory(engine)
    # no commit after the request's deadline or its client's departure (core/deadline.py)
    deadline.install(app.state.session_factory, settings.db_statement_timeout_ms)
    app.state.catalog = CatalogStore(settings.fixtures_dir)  # loaded on first use
    app.state.calibration = load_calibration(settings.fixtures_dir)  # once, at start; fails fast
    # per-class model error from make validate (fixtures/calibration/model_error.yaml); fails fast
    app.state.model_errors = load_model_error_table(settings.fixtures_dir / MODEL_ERROR_FILE)

    body_limits = {
        f"{API_PREFIX}/traces": settings.max_trace_bytes,
        **{f"{API_PREFIX}{path}": settings.max_trace_bytes for path in UPLOAD_PATHS},
        f"{API_PREFIX}/import/timeline": max(settings.max_body_bytes, TIMELINE_BODY_BYTES),
    }
    generate = app.openapi

    def openapi() -> dict[str, Any]:  # FastAPI's document, with what the middleware answers
        if app.openapi_schema is None:
            openapi_document.finish(generate(), body_limits, settings.max_body_bytes)
        return generate()  # the finished document FastAPI keeps

    app.openapi = openapi  # type: ignore[method-assign]

    install_exception_handlers(app)
    index: list[OperationIndex] = []

    def operations() -> OperationIndex:  # built from the OpenAPI document on first use
        if not index:
            index.append(OperationIndex(app.openapi()))
        return index[0]

    # Added innermost first: security headers wrap everything, so 413s and CORS preflights get them.
    app.add_middleware(StrictJSONMiddleware, index=operations)
    app.add_middleware(AllowMiddleware, index=operations)
    app.add_middleware(
        BodySizeLimitMiddleware,
        max_body_bytes=settings.max_body_bytes,
        path_limits=body_limits,
    )
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["*"],
            allow_headers=["*"],
        )
    app.add_middleware(ServerErrorMiddleware)
    app.add_middleware(RequestClock)
    # the UI's files are precompressed by the build and chosen by backend.app.ui: not compressed here
    app.add_middleware(CompressedAnswers, prefixes=(API_PREFIX + "/", "/openapi.json", "/docs", "/redoc"))
    app.add_middleware(SecurityHeadersMiddleware)
    if settings.trusted_proxies:  # outermost: every part of the app sees the forwarded client
        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=settings.trusted_proxies)

    for router in API_ROUTERS:
        app.include_router(router, prefix=API_PREFIX)
    mount_docs(app, openapi_url="/openapi.json", health_url=f"{API_PREFIX}/health")
    mount_ui(app, settings.frontend_dist)
    _share_openapi(app, (tuple(sorted(body_limits.items())), settings.max_body_bytes))
    return app


app = create_app()
