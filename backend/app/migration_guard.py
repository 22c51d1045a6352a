"""Downgrades never lose data silently.

A downgrade that would drop stored data calls :func:`refuse_data_loss` first: when the tables it
would drop from hold rows, it stops with :class:`DataLossRefused` (non-zero exit; that revision is
left whole, while the revisions above it, each in its own transaction, stay downgraded) unless
data loss was allowed explicitly, on the command line::

    alembic -x allow_data_loss=true downgrade 0002

or, from Python, with ``config.attributes["allow_data_loss"] = True``. Kept here, not in a
migration, so every migration shares one rule.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import text

TRUE = {"1", "true", "yes", "on"}


class DataLossRefused(RuntimeError):
    """A downgrade would drop stored data and data loss was not allowed."""


def data_loss_allowed() -> bool:
    if context.config.attributes.get("allow_data_loss"):
        return True
    value = context.get_x_argument(as_dictionary=True).get("allow_data_loss", "")
    return value.strip().lower() in TRUE


def refuse_data_loss(revision: str, what: str, count_sql: str) -> None:
    """Stop the downgrade of ``revision`` when ``count_sql`` counts rows it would drop (``what``)."""
    if data_loss_allowed():
        return
    rows = context.get_bind().execute(text(count_sql)).scalar() or 0
    if rows:
        raise DataLossRefused(
            f"downgrading {revision} would drop {what} ({rows} rows); the database stays at revision "
            f"{revision} (revisions above it, if any, were downgraded). "
            "Run with -x allow_data_loss=true to drop them."
        )
