"""Citations: every source key the repository cites is in the bibliography, and nothing points
outside the repository."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
BIBLIOGRAPHY = ROOT / "docs" / "sources.md"
SCANNED = ("fixtures", "models", "backend/app", "docs", "README.md", "frontend/src")
SUFFIXES = {".py", ".yaml", ".yml", ".md", ".ts", ".tsx", ".json"}

# A key is lowercase words joined by hyphens: [netapp-tr3838], [che-2002] (not right after a word:
# td[data-best], ignore[arg-type]; nor a one-item YAML list, drives: [ssd-sata-960]).
_KEY = re.compile(r"(?<![A-Za-z0-9_])(?<!: )\[([a-z0-9]+(?:-[a-z0-9]+)+)\]")
_ENTRY = re.compile(r"^- \*\*\[([a-z0-9-]+)\]\*\*", re.MULTILINE)


def _files() -> list[Path]:
    out: list[Path] = []
    for rel in SCANNED:
        base = ROOT / rel
        paths = [base] if base.is_file() else base.rglob("*")
        out += [p for p in paths if p.is_file() and p.suffix in SUFFIXES and "node_modules" not in p.parts]
    return out


def _cited() -> dict[str, set[str]]:
    cited: dict[str, set[str]] = {}
    for p in _files():
        for m in _KEY.finditer(p.read_text(encoding="utf-8", errors="ignore")):
            key = m.group(1)
            if all(len(part) <= 2 for part in key.split("-")):
                continue  # a regex character class such as [a-z0-9] or [0-9]
            cited.setdefault(key, set()).add(str(p.relative_to(ROOT)))
    return cited


def _defined() -> list[str]:
    return _ENTRY.findall(BIBLIOGRAPHY.read_text(encoding="utf-8"))


def test_every_cited_source_key_has_a_bibliography_entry() -> None:
    defined = set(_defined())
    missing = {k: sorted(v) for k, v in _cited().items() if k not in defined}
    assert missing == {}


def test_every_bibliography_entry_is_cited_somewhere() -> None:
    cited = _cited()
    unused = [k for k in _defined() if not (cited.get(k, set()) - {"docs/sources.md"})]
    assert unused == []


def test_bibliography_keys_are_unique() -> None:
    keys = _defined()
    assert len(keys) == len(set(keys))
    assert len(keys) >= 40  # the bibliography as written; entries are only ever added


# Written split so that a plain grep of the repository for them finds nothing, this file included.
WORKBENCH_NEEDLES = ["shared" + "/", "storage" + "-facts", "published" + "-measurements.yaml", "facts" + " ["]


@pytest.mark.parametrize("needle", WORKBENCH_NEEDLES)
def test_no_file_cites_a_workbench_document_outside_the_repository(needle: str) -> None:
    hits = [
        str(p.relative_to(ROOT)) for p in _files() if needle in p.read_text(encoding="utf-8", errors="ignore")
    ]
    assert hits == []
