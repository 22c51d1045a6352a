"""Idempotent writes: a client that retries a write with the same ``Idempotency-Key`` header gets the
first answer again instead of a second record.

A key names one write per client and operation (``reports.create``, ``hardware.create``,
``traces.create``): the same client retrying with the same key and request gets the first answer
(with ``Idempotent-Replayed: true``); the same key with a different request is a 409. The client
is the one the rate limits count (:func:`backend.app.core.ratelimit.client_of`: the peer address,
or the forwarded one from a trusted proxy), so another client sending the same key is another
write in its own key space: it never sees the first client's answer or owner token. When the
record created under a key has been deleted, a replay answers 410 Gone (never the id of a record
that is no longer there); a new key makes a new record. Answers are kept for
``IDEMPOTENCY_TTL_S`` (settings), in the same transaction as the record they describe, so a
write and its remembered answer are stored together or not at all; of two concurrent writes with
one key, the second finds the first's answer.

Nothing that grants ownership is stored: the row is found by a SHA-256 digest of the operation,
the client and the key, and the owner token handed out under a key is derived again on replay
(HMAC-SHA256 keyed by the client's key, over the resource id and a random salt kept in the row):
neither the key alone (it never leaves the client) nor the database alone yields it. Keys are
16-200 characters of ``A-Z a-z 0-9 _ - . :`` (a random UUID is the usual choice).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import logging
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Annotated, Any, TypeVar

import orjson
from fastapi import Header
from pydantic import BaseModel, TypeAdapter
from sqlalchemy import delete
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from backend.app.core.errors import Conflict, Gone
from backend.app.tables import IdempotencyKey, utcnow

logger = logging.getLogger(__name__)

T = TypeVar("T")

KEY_PATTERN = r"^[A-Za-z0-9_.:\-]{16,200}$"
REPLAYED_HEADER = "Idempotent-Replayed"
PURGE_EVERY = 256  # writes between two deletions of expired answers (per process)

IdempotencyKeyHeader = Annotated[
    str | None,
    Header(
        alias="Idempotency-Key",
        pattern=KEY_PATTERN,
        description=(
            "a unique key for this write (e.g. a random UUID): a retry with the same key and body "
            "gets the first answer instead of a second record; the same key with another body is 409"
        ),
    ),
]

_writes = 0


def digest(text: str | bytes) -> str:
    return hashlib.sha256(text.encode() if isinstance(text, str) else text).hexdigest()


@dataclass(frozen=True)
class Idempotency:
    """One idempotent write: its operation, the client's key, a digest of the validated request,
    and who sent it (the rate limits' client)."""

    operation: str
    key: str
    request_digest: str
    ttl_s: float
    client: str = ""
    salt: str = field(default_factory=lambda: secrets.token_hex(16))
    """The new write's salt of its owner token (a replay uses the stored row's)."""

    @classmethod
    def of(
        cls, operation: str, key: str | None, request: BaseModel, ttl_s: float, client: str = ""
    ) -> Idempotency | None:
        if key is None:
            return None
        return cls(operation, key, digest(request.model_dump_json()), ttl_s, client)

    @property
    def key_digest(self) -> str:
        return digest(f"{self.operation}\n{self.client}\n{self.key}")

    def owner_token(self, resource_id: str, salt: str | None = None) -> str:
        """The owner token of ``resource_id`` written under this key (the same on every replay:
        ``salt`` is the stored row's, this write's own by default)."""
        message = f"owner-token\n{self.operation}\n{resource_id}\n{salt or self.salt}"
        mac = hmac.new(self.key.encode(), message.encode(), "sha256")
        return base64.urlsafe_b64encode(mac.digest()).decode().rstrip("=")


def owner_token(idempotency: Idempotency | None, resource_id: str) -> str:
    """A fresh random owner token, or the one derived from the write's idempotency key."""
    return idempotency.owner_token(resource_id) if idempotency else secrets.token_urlsafe(32)


def replay(
    session: Session,
    idempotency: Idempotency | None,
    answer: TypeAdapter[T],
    exists: Callable[[str], bool] | None = None,
) -> T | None:
    """The first answer to this write, if there is one (an expired one is forgotten); 409 when the
    key was used for a different request; :class:`Gone` (410) when ``exists`` says the record
    it created has been deleted since."""
    if idempotency is None:
        return None
    row = session.get(IdempotencyKey, idempotency.key_digest)
    if row is None:
        return None
    if utcnow() - row.created_at > timedelta(seconds=idempotency.ttl_s):
        session.delete(row)
        session.flush()
        return None
    if not hmac.compare_digest(row.request_digest, idempotency.request_digest):
        raise Conflict(
            f"Idempotency-Key was already used for a different {idempotency.operation} request; "
            "use a new key for a new request"
        )
    data: dict[str, Any] = orjson.loads(row.response_json)
    resource_id = str(data["id"])
    if exists is not None and not exists(resource_id):
        raise Gone(
            f"the record this Idempotency-Key created ({resource_id}) has been deleted; "
            "use a new key to create another"
        )
    data["owner_token"] = idempotency.owner_token(resource_id, row.token_salt)
    return answer.validate_python(data)


def commit(session: Session, idempotency: Idempotency | None, answer: TypeAdapter[T]) -> T | None:
    """Commit the write and its remembered answer; None when done, or the first answer when a
    concurrent retry under the same key committed first (this write is rolled back)."""
    try:
        session.commit()
    except IntegrityError:
        session.rollback()
        first = replay(session, idempotency, answer)
        if first is None:
            raise
        return first
    return None


def remember(session: Session, idempotency: Idempotency | None, status_code: int, answer: BaseModel) -> None:
    """Add the answer to the session (committed with the record); every so often, drop expired ones."""
    global _writes
    if idempotency is None:
        return
    session.add(
        IdempotencyKey(
            key_digest=idempotency.key_digest,
            request_digest=idempotency.request_digest,
            status_code=status_code,
            response_json=answer.model_dump_json(exclude={"owner_token"}),
            token_salt=idempotency.salt,
            created_at=utcnow(),
        )
    )
    _writes += 1
    if _writes % PURGE_EVERY == 0:
        cutoff = utcnow() - timedelta(seconds=idempotency.ttl_s)
        session.execute(delete(IdempotencyKey).where(IdempotencyKey.created_at < cutoff))
