"""Write the OpenAPI schema for the UI's type generation: ``python -m backend.app.openapi_dump OUT.json``.

Keys are sorted and indented so the committed file diffs cleanly.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from backend.app.main import create_app


def render_openapi() -> str:
    return json.dumps(create_app().openapi(), sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python -m backend.app.openapi_dump OUT.json", file=sys.stderr)
        return 2
    out = Path(argv[0])
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(render_openapi(), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
