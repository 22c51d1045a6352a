"""What the app's own OpenAPI document says about a request, for the middleware that enforces it.

* :meth:`OperationIndex.methods` - the methods a path declares, for ``Allow`` on 405 and OPTIONS
  answers (every route is one method, so Starlette's 405 listed only the first route's);
* :meth:`OperationIndex.bool_refused` - whether a JSON ``true``/``false`` sits where the request
  body's schema wants a number: pydantic's lax mode reads ``false`` as ``0``, the schema does not;
* :meth:`OperationIndex.non_bool_refused` - whether a number or a string sits where the schema
  wants a boolean: pydantic's lax mode reads ``0`` and ``"yes"`` as booleans, the schema does not.

Built once from ``app.openapi()`` on first use.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

from starlette.datastructures import Headers, MutableHeaders
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

Path = tuple[str | int, ...]
NUMERIC = {"number", "integer"}
_REF = "#/components/schemas/"


def _pattern(template: str) -> re.Pattern[str]:
    parts = re.split(r"\{[^}/]+\}", template)
    return re.compile("^" + "[^/]+".join(re.escape(p) for p in parts) + "$")


class OperationIndex:
    def __init__(self, openapi: dict[str, Any]) -> None:
        self.components: dict[str, Any] = openapi.get("components", {}).get("schemas", {})
        self.paths: list[tuple[re.Pattern[str], dict[str, Any]]] = [
            (_pattern(template), operations) for template, operations in openapi.get("paths", {}).items()
        ]
        self._boolean_names: dict[int, frozenset[str]] = {}

    def _operations(self, path: str) -> dict[str, Any] | None:
        for pattern, operations in self.paths:
            if pattern.match(path):
                return operations
        return None

    def methods(self, path: str) -> list[str] | None:
        """The methods ``path`` answers (HEAD with GET, and OPTIONS), or None for an unknown path."""
        operations = self._operations(path)
        if operations is None:
            return None
        declared = [m.upper() for m in operations]
        if "GET" in declared:
            declared.append("HEAD")
        return sorted(set(declared)) + ["OPTIONS"]

    def json_only(self, method: str, path: str) -> bool:
        """Whether the operation's body is JSON and nothing else (no upload, no form)."""
        operation = (self._operations(path) or {}).get(method.lower()) or {}
        content = (operation.get("requestBody") or {}).get("content") or {}
        return set(content) == {"application/json"}

    def body_schema(self, method: str, path: str) -> dict[str, Any] | None:
        operation = (self._operations(path) or {}).get(method.lower()) or {}
        content = (operation.get("requestBody") or {}).get("content") or {}
        schema: dict[str, Any] | None = (content.get("application/json") or {}).get("schema")
        return schema

    # ---- booleans where numbers are wanted

    def _expand(self, schema: Any, depth: int = 0) -> Iterator[dict[str, Any]]:
        """``schema`` with references resolved and every anyOf/oneOf/allOf branch laid out."""
        if not isinstance(schema, dict) or depth > 32:
            return
        ref = schema.get("$ref")
        if isinstance(ref, str) and ref.startswith(_REF):
            yield from self._expand(self.components.get(ref[len(_REF) :]), depth + 1)
            return
        branches = [b for key in ("anyOf", "oneOf", "allOf") for b in schema.get(key, [])]
        if branches:
            for branch in branches:
                yield from self._expand(branch, depth + 1)
            if not any(k in schema for k in ("type", "properties", "items")):
                return
        yield schema

    def _children(self, schema: dict[str, Any], segment: str | int) -> Iterator[Any]:
        if isinstance(segment, int):
            if "items" in schema:
                yield schema["items"]
            prefix = schema.get("prefixItems") or []
            if segment < len(prefix):
                yield prefix[segment]
        else:
            properties = schema.get("properties") or {}
            if segment in properties:
                yield properties[segment]
            elif isinstance(schema.get("additionalProperties"), dict):
                yield schema["additionalProperties"]

    def _types(self, schema: dict[str, Any], path: Path) -> set[str] | None:
        """The JSON types the schemas reaching ``path`` take; None when any value goes there, or
        the path is not in the schema at all."""
        level = list(self._expand(schema))
        for segment in path:
            level = [e for s in level for child in self._children(s, segment) for e in self._expand(child)]
            if not level:
                return None
        types: set[str] = set()
        for s in level:
            kind = s.get("type")
            if kind is None:
                return None  # any value goes here
            types.update(kind if isinstance(kind, list) else [kind])
        return types

    def bool_refused(self, schema: dict[str, Any], path: Path) -> bool:
        """True when every schema reaching ``path`` wants a number there (none takes a boolean or
        anything); False when some branch takes it, or the path is not in the schema at all."""
        types = self._types(schema, path)
        return types is not None and types <= NUMERIC | {"null"} and bool(types & NUMERIC)

    def non_bool_refused(self, schema: dict[str, Any], path: Path) -> bool:
        """True when every schema reaching ``path`` wants a boolean there (or null)."""
        types = self._types(schema, path)
        return types is not None and types <= {"boolean", "null"} and "boolean" in types

    def boolean_names(self, schema: dict[str, Any]) -> frozenset[str]:
        """Names of the properties that take a boolean anywhere in ``schema`` (cached per schema):
        only values under these names can sit where a boolean is wanted."""
        key = id(schema)
        if key not in self._boolean_names:
            names: set[str] = set()
            seen: set[int] = set()
            stack: list[Any] = [schema]
            while stack:
                node = stack.pop()
                if not isinstance(node, dict) or id(node) in seen:
                    continue
                seen.add(id(node))
                for expanded in self._expand(node):
                    for name, child in (expanded.get("properties") or {}).items():
                        if any(e.get("type") == "boolean" for e in self._expand(child)):
                            names.add(name)
                        stack.append(child)
                    for key_ in ("items", "additionalProperties"):
                        stack.append(expanded.get(key_))
                    stack.extend(expanded.get("prefixItems") or [])
            self._boolean_names[key] = frozenset(names)
        return self._boolean_names[key]


def bool_paths(node: Any, path: Path = ()) -> Iterator[Path]:
    if isinstance(node, bool):
        yield path
    elif isinstance(node, dict):
        for key, value in node.items():
            yield from bool_paths(value, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            yield from bool_paths(value, path + (index,))


def non_bool_paths(node: Any, names: frozenset[str], path: Path = ()) -> Iterator[Path]:
    """Paths of the numbers and strings held by a property named in ``names`` (a boolean's name)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in names and isinstance(value, int | float | str) and not isinstance(value, bool):
                yield path + (key,)
            elif isinstance(value, dict | list):
                yield from non_bool_paths(value, names, path + (key,))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            if isinstance(value, dict | list):
                yield from non_bool_paths(value, names, path + (index,))


class AllowMiddleware:
    """``Allow`` lists every method a path declares: on 405 answers, and OPTIONS answers (204) for
    API paths that are not CORS preflights (those go on to the CORS middleware)."""

    def __init__(self, app: ASGIApp, index: Callable[[], OperationIndex]) -> None:
        self.app = app
        self.index = index

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope["path"].startswith("/api/"):
            await self.app(scope, receive, send)
            return
        methods = self.index().methods(scope["path"])
        if methods is None:
            await self.app(scope, receive, send)
            return
        allow = ", ".join(methods)
        headers = Headers(scope=scope)
        preflight = "origin" in headers and "access-control-request-method" in headers
        if scope["method"] == "OPTIONS" and not preflight:
            await Response(status_code=204, headers={"Allow": allow})(scope, receive, send)
            return

        async def send_allow(message: Message) -> None:
            if message["type"] == "http.response.start" and message["status"] == 405:
                MutableHeaders(scope=message)["Allow"] = allow
            await send(message)

        await self.app(scope, receive, send_allow)
