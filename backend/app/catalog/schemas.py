"""Catalog responses: engine records, each list stamped with the ``catalog_version`` it comes from."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, computed_field

from models.catalog import ArrayModel, PortTypeRecord, RaidSchemeRecord, WorkloadTemplate
from models.drives import DriveSpec
from models.naming import HYPOTHETICAL_LABEL
from models.raid import RaidScheme
from models.support import NodeChoice

GroupWidths = dict[RaidScheme, list[int]]
"""Per RAID scheme an array offers, the group widths it builds (the engine's width rules applied)."""


class _Versioned(BaseModel):
    model_config = ConfigDict(frozen=True)

    catalog_version: str = Field(description="catalog data release, YYYY.MM.patch")


class DriveList(_Versioned):
    drives: list[DriveSpec]


class ArrayList(_Versioned):
    arrays: list[ArrayModel]


class ArrayDetail(_Versioned):
    array: ArrayModel
    drives: list[DriveSpec] = Field(description="the catalog drives this array supports")
    group_widths: GroupWidths = Field(description="per scheme offered, the group widths the array builds")
    node_choices: list[NodeChoice] = Field(
        default_factory=list, description="the node counts a clustered array grows to, with their labels"
    )


class RaidSchemeList(_Versioned):
    raid_schemes: list[RaidSchemeRecord]

    @computed_field(  # type: ignore[prop-decorator]
        description="said beside a scheme an array does not offer (models.naming.HYPOTHETICAL_LABEL)"
    )
    @property
    def hypothetical_label(self) -> str:
        return HYPOTHETICAL_LABEL


class PortList(_Versioned):
    ports: list[PortTypeRecord]


class WorkloadTemplateList(_Versioned):
    templates: list[WorkloadTemplate]
