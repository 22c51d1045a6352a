"""The money of a configuration a request evaluated: the engine's TCO with the array's commercial
terms (support term, rate, licences) from its catalog or custom record, errors at ``money``."""

from __future__ import annotations

from backend.app.core.errors import InvalidInput, Loc
from backend.app.engine.context import SizingContext
from models.base import InputError
from models.configuration import Configuration
from models.tco import MoneyInputs, Tco, tco
from models.workload import Workload

MONEY: Loc = ("body", "money")


def tco_for(
    ctx: SizingContext,
    workloads: list[Workload],
    cfg: Configuration,
    money: MoneyInputs,
    *,
    pool_index: int = 0,
    loc: Loc = MONEY,
) -> Tco:
    """:func:`models.tco.tco` of ``cfg`` (drive counts set) under ``money``; an engine error (support
    beyond the catalog's term) is a 422 at ``loc`` + its field."""
    array = ctx.known_array(cfg.array_id)
    try:
        return tco(
            workloads, cfg, money, array.commercial if array is not None else None, pool_index=pool_index
        )
    except InputError as exc:
        raise InvalidInput.at(loc + (exc.field,), exc.reason) from exc
