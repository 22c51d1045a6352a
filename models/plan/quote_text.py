"""A vendor's quote pasted as text, read into a :class:`~models.plan.quote.Quote`.

One item per line (or separated by ``;``), in the words quotes use; what is read, case-insensitive:

* the model: the first catalog array model named in the text (``FAS8040``, ``VNX5300``), else the
  first line up to a comma (an unknown model, estimated);
* drives: ``<count> x <capacity> <GB|TB> [<rpm>K|SSD|NVMe]`` (``144 x 900GB 10K SAS``), matched to
  the catalog drive of that capacity and class, one the array takes first;
* ``<n> shelves``, ``<n> controllers`` (or ``nodes``), a RAID scheme (``RAID-DP``, ``RAID 6``,
  ``RAID-TEC``, ``RAID 10``...), ``<n> GB|TB flash cache``, and a software release
  (``ONTAP 9.1``, ``release 8.2``).

What cannot be read is an :class:`~models.base.InputError` at ``text`` naming the item missing,
never a guess: a drive line matching no catalog drive names its capacity and class.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from models.base import InputError
from models.catalog import ArrayModel
from models.drives import DriveSpec
from models.plan.quote import Quote
from models.raid import RaidScheme

_DRIVES = re.compile(
    r"(?P<count>\d+)\s*[x×*]\s*(?P<size>\d+(?:\.\d+)?)\s*(?P<unit>GB|TB)\b(?P<rest>[^;\n,]*)", re.IGNORECASE
)
_RPM = re.compile(r"(?P<k>\d+(?:\.\d+)?)\s*K\b", re.IGNORECASE)
_SHELVES = re.compile(r"(\d+)\s*(?:x\s*)?(?:[a-z]+\d+\w*\s+)?(?:disk\s*)?shel(?:f|ves)", re.IGNORECASE)
_CONTROLLERS = re.compile(r"(\d+)\s*(?:x\s*)?(?:controllers?|nodes?)\b", re.IGNORECASE)
_FLASH = re.compile(
    r"(\d+(?:\.\d+)?)\s*(GB|TB)\s*(?:of\s*)?(?:flash\s*cache|pam|fast\s*cache)", re.IGNORECASE
)
_RELEASE = re.compile(r"(?:ontap|release|version|os|firmware)\s*v?(\d+(?:\.\d+)*\w*)", re.IGNORECASE)
_RAID = [
    (re.compile(r"raid[\s-]*tec", re.IGNORECASE), RaidScheme.RAID_TEC),
    (re.compile(r"raid[\s-]*dp", re.IGNORECASE), RaidScheme.RAID_DP),
    (re.compile(r"raid[\s-]*(?:10|1\+0)\b", re.IGNORECASE), RaidScheme.RAID10),
    (re.compile(r"raid[\s-]*6\b", re.IGNORECASE), RaidScheme.RAID6),
    (re.compile(r"raid[\s-]*5\b", re.IGNORECASE), RaidScheme.RAID5),
]


def _squash(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _model_key(array: ArrayModel) -> str:
    """The model as a quote writes it: ``FAS3270 (HA pair)`` -> ``fas3270``."""
    return _squash(re.sub(r"\(.*?\)", "", array.model))


def _drive(
    count_match: re.Match[str], drives: Mapping[str, DriveSpec], array: ArrayModel | None
) -> DriveSpec:
    size_gb = float(count_match.group("size")) * (
        1000.0 if count_match.group("unit").upper() == "TB" else 1.0
    )
    rest = count_match.group("rest")
    rpm = _RPM.search(rest)
    flash = re.search(r"ssd|flash|nvme", rest, re.IGNORECASE)

    def fits(d: DriveSpec) -> bool:
        if abs(d.capacity_gb - size_gb) > 0.5:
            return False
        if flash:
            return d.kind.value in ("ssd", "nvme")
        if rpm:
            return d.rpm is not None and abs(d.rpm - float(rpm.group("k")) * 1000.0) < 1.0
        return True

    found = [d for d in drives.values() if fits(d)]
    if array is not None:
        found.sort(key=lambda d: (not array.supports_drive(d.id), d.id))
    if not found:
        what = "flash" if flash else (f"{rpm.group('k')}K" if rpm else "any class")
        raise InputError("text", f"no catalog drive of {size_gb:g} GB ({what}): add it as custom hardware")
    return found[0]


def read_quote(text: str, arrays: Mapping[str, ArrayModel], drives: Mapping[str, DriveSpec]) -> Quote:
    """The :class:`Quote` a pasted bill of materials states (see the module docstring)."""
    flat = text.strip()
    if not flat:
        raise InputError("text", "is empty: paste the quote's lines")
    squashed = _squash(flat)
    named = [a for a in arrays.values() if _model_key(a) and _model_key(a) in squashed]
    array = max(named, key=lambda a: len(_model_key(a))) if named else None
    model = array.model if array is not None else re.split(r"[,;\n]", flat, maxsplit=1)[0].strip()[:120]
    lines = _DRIVES.search(flat)
    if lines is None:
        raise InputError(
            "text",
            "no drive line found: write '<count> x <capacity> GB|TB <rpm>K|SSD', e.g. 144 x 900GB 10K SAS",
        )
    drive = _drive(lines, drives, array)
    scheme = next((s for pattern, s in _RAID if pattern.search(flat)), None)
    shelves = _SHELVES.search(flat)
    controllers = _CONTROLLERS.search(flat)
    flash = _FLASH.search(flat)
    release = _RELEASE.search(flat)
    return Quote(
        model=model or "quoted system",
        array_id=array.id if array is not None else None,
        controllers=int(controllers.group(1)) if controllers else None,
        shelves=int(shelves.group(1)) if shelves else None,
        drive_id=drive.id,
        drive_count=int(lines.group("count")),
        raid_scheme=scheme,
        flash_cache_gb=float(flash.group(1)) * (1000.0 if flash.group(2).upper() == "TB" else 1.0)
        if flash
        else 0.0,
        software_release=release.group(1) if release else None,
    )
