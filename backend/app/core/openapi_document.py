"""What the app's OpenAPI document says beyond what FastAPI derives from the routes: the answers of
the middleware every request passes, and parameters as they travel (text, never ``null``).

Applied once to the generated document (``create_app`` wraps ``app.openapi``); changes it in place.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

NULL = {"type": "null"}
ERROR_DETAIL = {"$ref": "#/components/schemas/ErrorDetail"}


def parameters_never_null(openapi: dict[str, Any]) -> None:
    """Take the ``null`` branch out of every path, query, header and cookie parameter's schema: an
    optional parameter is left out, never sent as ``null`` (a header or query value is text, so
    ``Idempotency-Key: null`` is four letters, which the key's pattern refuses)."""
    for operations in openapi.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", []):
                schema = parameter.get("schema", {})
                branches = schema.get("anyOf")
                if not isinstance(branches, list) or NULL not in branches:
                    continue
                rest = [branch for branch in branches if branch != NULL]
                del schema["anyOf"]
                if "default" in schema and schema["default"] is None:
                    del schema["default"]
                if len(rest) == 1:
                    schema.update({k: v for k, v in rest[0].items() if k not in schema})
                else:
                    schema["anyOf"] = rest


def bodies_may_be_too_large(openapi: dict[str, Any], limits: Mapping[str, int], default_limit: int) -> None:
    """A 413 on every operation that takes a body: the body size limit (``BodySizeLimitMiddleware``)
    answers it before the operation runs. ``limits`` maps a path to its own limit (uploads)."""
    for path, operations in openapi.get("paths", {}).items():
        limit = limits.get(path, default_limit)
        for operation in operations.values():
            if "requestBody" not in operation:
                continue
            operation.setdefault("responses", {}).setdefault(
                "413",
                {
                    "description": f"The request body is larger than {limit:,} bytes (as sent)",
                    "content": {"application/json": {"schema": ERROR_DETAIL}},
                },
            )


def finish(openapi: dict[str, Any], limits: Mapping[str, int], default_limit: int) -> dict[str, Any]:
    parameters_never_null(openapi)
    bodies_may_be_too_large(openapi, limits, default_limit)
    return openapi
