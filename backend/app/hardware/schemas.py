"""Custom hardware requests and records: the engine's own ``DriveSpec``, ``ControllerSpec``, ``ArrayModel``.

A record's ``id`` is assigned by the server and is the id to use in a catalog reference
(``array_id``, ``drive_id``, ``controller_id``); the ``id`` inside a drive or array spec is set to it.
Creating a record answers with its owner token: editing and deleting need it, reading does not.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, computed_field

from backend.app.schemas import Request
from models.catalog import ArrayModel
from models.controller import ControllerSpec
from models.drives import DriveSpec
from models.raid import RaidScheme
from models.support import NodeChoice, group_widths, node_choices

HardwareKind = Literal["drive", "controller", "array"]

_ID_IGNORED = "ignored: the server sets it to the record id"
_NAME = "display name; defaults to the spec's name (drive) or model (controller, array)"


class CustomDriveSpec(DriveSpec):
    """A :class:`DriveSpec` whose ``id`` the server assigns."""

    id: str | None = Field(default=None, description=_ID_IGNORED)  # type: ignore[assignment]


class CustomArraySpec(ArrayModel):
    """An :class:`ArrayModel` whose ``id`` the server assigns; ``drives`` may list custom drive ids."""

    id: str | None = Field(default=None, description=_ID_IGNORED)  # type: ignore[assignment]


class DriveInput(Request):
    kind: Literal["drive"]
    name: str | None = Field(default=None, min_length=1, max_length=200, description=_NAME)
    spec: CustomDriveSpec


class ControllerInput(Request):
    kind: Literal["controller"]
    name: str | None = Field(default=None, min_length=1, max_length=200, description=_NAME)
    spec: ControllerSpec


class ArrayInput(Request):
    kind: Literal["array"]
    name: str | None = Field(default=None, min_length=1, max_length=200, description=_NAME)
    spec: CustomArraySpec


HardwareInput = Annotated[DriveInput | ControllerInput | ArrayInput, Field(discriminator="kind")]


class _Record(BaseModel):
    model_config = ConfigDict(frozen=True)

    id: str = Field(description="record id: use it as array_id / drive_id / controller_id")
    name: str
    created_at: datetime


class DriveRecord(_Record):
    kind: Literal["drive"]
    spec: DriveSpec


class ControllerRecord(_Record):
    kind: Literal["controller"]
    spec: ControllerSpec


class ArrayRecord(_Record):
    kind: Literal["array"]
    spec: ArrayModel

    @computed_field(description="per RAID scheme offered, the group widths the array builds")  # type: ignore[prop-decorator]
    @property
    def group_widths(self) -> dict[RaidScheme, list[int]]:
        return group_widths(self.spec)

    @computed_field(description="the node counts a clustered array grows to, with their labels")  # type: ignore[prop-decorator]
    @property
    def node_choices(self) -> list[NodeChoice]:
        return node_choices(self.spec)


HardwareRecord = Annotated[DriveRecord | ControllerRecord | ArrayRecord, Field(discriminator="kind")]

_OWNER_TOKEN = "send as X-Owner-Token to edit or delete the record; not stored, not shown again"


class DriveCreated(DriveRecord):
    owner_token: str = Field(description=_OWNER_TOKEN)


class ControllerCreated(ControllerRecord):
    owner_token: str = Field(description=_OWNER_TOKEN)


class ArrayCreated(ArrayRecord):
    owner_token: str = Field(description=_OWNER_TOKEN)


HardwareCreated = Annotated[DriveCreated | ControllerCreated | ArrayCreated, Field(discriminator="kind")]
"""A new record and the token that alone can edit or delete it."""


class HardwareList(BaseModel):
    model_config = ConfigDict(frozen=True)

    hardware: list[HardwareRecord]
