"""Engine inputs every feature's requests share: workloads and a configuration given in full or by reference.

A configuration is given either in full (an engine :class:`Configuration`, e.g. one returned by
``/size``) or as a :class:`CatalogReference` resolved on the server (the engine's
:func:`models.catalog.resolve_reference`, called by :mod:`backend.app.engine.context`);
the two are told apart by the ``controller`` key that only a full configuration has.
"""

from __future__ import annotations

from typing import Annotated, Any

from pydantic import AfterValidator, Discriminator, Field, Tag

from models.catalog import CatalogReference
from models.configuration import Configuration
from models.workload import Workload

MAX_WORKLOADS = 32
MAX_PHASES = 128
"""Phases across all workloads of one request: keeps the slowest request (curves) to seconds."""


def _phase_budget(workloads: list[Workload]) -> list[Workload]:
    phases = sum(len(w.phases) for w in workloads)
    if phases > MAX_PHASES:
        raise ValueError(f"at most {MAX_PHASES} phases across all workloads, got {phases}")
    return workloads


Workloads = Annotated[
    list[Workload],
    Field(min_length=1, max_length=MAX_WORKLOADS, description=f"at most {MAX_PHASES} phases in all"),
    AfterValidator(_phase_budget),
]


def _configuration_kind(value: Any) -> str | None:
    if isinstance(value, Configuration):
        return "configuration"
    if isinstance(value, CatalogReference):
        return "catalog"
    if isinstance(value, dict):
        return "configuration" if "controller" in value else "catalog"
    return None


ConfigurationInput = Annotated[
    Annotated[Configuration, Tag("configuration")] | Annotated[CatalogReference, Tag("catalog")],
    Discriminator(_configuration_kind),
]


__all__ = ["MAX_PHASES", "MAX_WORKLOADS", "CatalogReference", "ConfigurationInput", "Workloads"]
