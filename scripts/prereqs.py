"""Check one prerequisite of `make` and stop with one line naming it when it is missing.

    python3 scripts/prereqs.py python      this interpreter is a supported Python (3.11-3.13)
    python3 scripts/prereqs.py node        Node.js >= 20.19 and npm on PATH
    python3 scripts/prereqs.py postgres    a PostgreSQL server listening at TEST_DATABASE_URL (tests)

Exit 0 and print nothing when the prerequisite is met; else exit 1 with one line on stderr. Run by
the Makefile with the interpreter it is about to use (PY), so this file stays valid Python for old
interpreters too (no syntax newer than 3.6): a wrong Python gets this message, not a SyntaxError.
"""

import os
import re
import shutil
import socket
import subprocess
import sys

PYTHON_MIN = (3, 11)
PYTHON_MAX = (3, 13)
NODE_MIN = (20, 19)
DEFAULT_TEST_DATABASE_URL = "postgresql+psycopg://postgres@127.0.0.1:5432/test"


def check_python():
    found = sys.version_info[:2]
    if PYTHON_MIN <= found <= PYTHON_MAX:
        return None
    return "Python {}.{}-{}.{} is required, {} is {}.{} (set PY=python3.11, e.g. `make install PY=python3.11`)".format(
        *PYTHON_MIN, *PYTHON_MAX, sys.executable, *found
    )


def check_node():
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        missing = "Node.js" if node is None else "npm"
        return "{} is required (Node.js >= {}.{} with npm) and was not found on PATH".format(
            missing, *NODE_MIN
        )
    version = subprocess.run([node, "--version"], stdout=subprocess.PIPE, text=True).stdout.strip()
    match = re.match(r"v(\d+)\.(\d+)", version)
    if match is None or (int(match.group(1)), int(match.group(2))) < NODE_MIN:
        return "Node.js >= {}.{} is required, {} is {}".format(*NODE_MIN, node, version or "unknown")
    return None


def check_postgres():
    url = os.environ.get("TEST_DATABASE_URL") or DEFAULT_TEST_DATABASE_URL
    match = re.match(r"^postgresql(?:\+\w+)?://(?:[^@/]*@)?(\[[^\]]+\]|[^:/?]*)(?::(\d+))?", url)
    if match is None:
        return f"TEST_DATABASE_URL is not a postgresql:// URL: {url}"
    host = (match.group(1) or "localhost").strip("[]")
    port = int(match.group(2) or 5432)
    try:
        socket.create_connection((host, port), timeout=3).close()
    except OSError as exc:
        return f"PostgreSQL is required for the tests and is not reachable at {host}:{port} (TEST_DATABASE_URL): {exc.strerror or exc}"
    return None


CHECKS = {"python": check_python, "node": check_node, "postgres": check_postgres}


def main(argv):
    if len(argv) != 2 or argv[1] not in CHECKS:
        print("usage: prereqs.py {}".format("|".join(CHECKS)), file=sys.stderr)
        return 2
    problem = CHECKS[argv[1]]()
    if problem:
        print("make: " + problem, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
