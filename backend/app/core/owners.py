"""Owner tokens: whoever created a record (a report, a custom hardware entry, a trace job) gets a
token once, in the create's answer; changing or deleting the record needs it in ``X-Owner-Token``.

Only the token's SHA-256 is stored; a record stored before owners existed (its digest NULL) cannot
be changed through the API.
"""

from __future__ import annotations

import hashlib
import hmac

from backend.app.core.errors import Forbidden


def token_digest(token: str) -> str:
    """What is stored of an owner token: its SHA-256, hex."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def check_owner(stored_digest: str | None, token: str | None, what: str) -> None:
    """:class:`Forbidden` unless ``token`` is the owner token of the record ``what`` (e.g. "trace
    job 1234"), whose stored digest is ``stored_digest``."""
    if stored_digest is None:
        raise Forbidden(f"{what} was created before records had owners; it cannot be changed")
    if not token or not hmac.compare_digest(token_digest(token), stored_digest):
        raise Forbidden(f"the X-Owner-Token header must carry the owner token of {what}")
