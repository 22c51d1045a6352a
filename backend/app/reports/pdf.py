"""HTML to PDF with headless Chromium (no browser download, no Python browser package).

Chromium is optional: the PDF export looks for it when asked (``settings.chromium_path``, default
``chromium`` on the PATH; ``make chromium`` installs it) and answers 503 naming what is missing
when it is not there.

Starting Chromium costs 1.5-2.5 s of the 2-3 s a one-shot ``--print-to-pdf`` takes here, so each
server process keeps one headless Chromium running once it has printed (started on the first PDF,
stopped when the process exits) and prints over the DevTools protocol on its loopback port
(``Page.setDocumentContent``, then ``Page.printToPDF`` with the page's own CSS page size): about
0.7-1 s a proposal. Should that browser fail, the print is made once more by a fresh one-shot
``chromium --print-to-pdf`` of a temporary file. Chromium runs with networking disabled (no name
resolves, a dead proxy), so the document, which references nothing outside itself, can make it
open no address. At most :data:`MAX_AT_ONCE` proposals print at a time per process.
"""

from __future__ import annotations

import atexit
import base64
import json
import logging
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from backend.app.core.errors import Unavailable

logger = logging.getLogger(__name__)

MAX_AT_ONCE = 2
START_TIMEOUT_S = 20.0
_SLOTS = threading.BoundedSemaphore(MAX_AT_ONCE)

FLAGS = (
    "--headless",
    "--disable-gpu",
    "--no-sandbox",
    "--no-first-run",
    "--no-zygote",
    "--disable-extensions",
    "--disable-background-networking",
    "--disable-sync",
    "--disable-dev-shm-usage",
    # no name resolves and no proxy answers: a page cannot reach any address
    "--host-resolver-rules=MAP * ~NOTFOUND",
    "--proxy-server=127.0.0.1:9",
)


def chromium_binary(configured: str) -> str:
    """The Chromium executable ``configured`` names (a path, or a name looked up on the PATH)."""
    found = shutil.which(configured)
    if found is None:
        raise Unavailable(
            f"PDF export needs Chromium, and {configured!r} was not found: install it (make chromium) "
            "or set CHROMIUM_PATH to its executable"
        )
    return found


class _Browser:
    """One headless Chromium of this process, reached over the DevTools protocol on 127.0.0.1."""

    def __init__(self, binary: str) -> None:
        self.binary = binary
        self.lock = threading.Lock()
        self.process: subprocess.Popen[bytes] | None = None
        self.profile: tempfile.TemporaryDirectory[str] | None = None
        self.endpoint: str | None = None

    def _start(self) -> str:
        self.profile = tempfile.TemporaryDirectory(prefix="chromium-", ignore_cleanup_errors=True)
        port_file = Path(self.profile.name) / "DevToolsActivePort"
        self.process = subprocess.Popen(
            [
                self.binary,
                *FLAGS,
                "--remote-debugging-port=0",
                f"--user-data-dir={self.profile.name}",
                "about:blank",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + START_TIMEOUT_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            if port_file.is_file():
                lines = port_file.read_text().split()
                if len(lines) >= 2:
                    return f"ws://127.0.0.1:{lines[0]}{lines[1]}"
            time.sleep(0.02)
        self.stop()
        raise RuntimeError("Chromium did not open its DevTools port")

    def url(self) -> str:
        with self.lock:
            if self.process is None or self.process.poll() is not None or self.endpoint is None:
                self.stop()
                self.endpoint = self._start()
            return self.endpoint

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self.process, self.endpoint = None, None
        if self.profile is not None:
            self.profile.cleanup()
            self.profile = None

    def print(self, html: str, timeout_s: float) -> bytes:
        from websockets.sync.client import connect

        deadline = time.monotonic() + timeout_s
        with connect(self.url(), max_size=None, open_timeout=timeout_s) as ws:
            counter = 0

            def call(method: str, params: dict[str, Any] | None = None, session: str | None = None) -> Any:
                nonlocal counter
                counter += 1
                message: dict[str, Any] = {"id": counter, "method": method, "params": params or {}}
                if session is not None:
                    message["sessionId"] = session
                ws.send(json.dumps(message))
                while True:
                    answer = json.loads(ws.recv(timeout=max(0.1, deadline - time.monotonic())))
                    if answer.get("id") == counter:
                        if "error" in answer:
                            raise RuntimeError(f"{method}: {answer['error']}")
                        return answer["result"]

            target = call("Target.createTarget", {"url": "about:blank"})["targetId"]
            try:
                session = call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
                frame = call("Page.getFrameTree", session=session)["frameTree"]["frame"]["id"]
                call("Page.setDocumentContent", {"frameId": frame, "html": html}, session)
                data = call(
                    "Page.printToPDF",
                    {"preferCSSPageSize": True, "printBackground": True, "displayHeaderFooter": False},
                    session,
                )["data"]
            finally:
                call("Target.closeTarget", {"targetId": target})
        return base64.b64decode(data)


_BROWSERS: dict[str, _Browser] = {}
_BROWSERS_LOCK = threading.Lock()


def _browser(binary: str) -> _Browser:
    with _BROWSERS_LOCK:
        if binary not in _BROWSERS:
            _BROWSERS[binary] = _Browser(binary)
        return _BROWSERS[binary]


@atexit.register
def stop_browsers() -> None:
    """Stop every Chromium this process started (at exit)."""
    with _BROWSERS_LOCK:
        for browser in _BROWSERS.values():
            browser.stop()


def _print_once(html: str, binary: str, timeout_s: float) -> bytes:
    """A one-shot ``chromium --print-to-pdf`` of ``html`` written to a private temporary folder."""
    with tempfile.TemporaryDirectory(prefix="proposal-") as tmp:
        page = Path(tmp) / "proposal.html"
        out = Path(tmp) / "proposal.pdf"
        page.write_text(html, encoding="utf-8")
        command = [
            binary,
            *FLAGS,
            "--no-pdf-header-footer",
            f"--user-data-dir={tmp}/profile",
            f"--print-to-pdf={out}",
            page.as_uri(),
        ]
        try:
            done = subprocess.run(command, capture_output=True, timeout=timeout_s, check=False)
        except subprocess.TimeoutExpired as exc:
            raise Unavailable(f"Chromium did not print the proposal within {timeout_s:g} s") from exc
        if not out.is_file() or out.stat().st_size == 0:
            tail = done.stderr.decode("utf-8", "replace").strip().splitlines()[-1:] or ["no output"]
            raise Unavailable(f"Chromium did not print the proposal (exit {done.returncode}): {tail[0]}")
        return out.read_bytes()


def html_to_pdf(html: str, chromium: str, timeout_s: float = 60.0) -> bytes:
    """The PDF Chromium prints of ``html`` (the page's own CSS page size and print rules)."""
    binary = chromium_binary(chromium)
    with _SLOTS:
        browser = _browser(binary)
        try:
            return browser.print(html, timeout_s)
        except Exception as exc:  # a browser that died or hung: print once more, the slow way
            logger.warning(
                "kept Chromium failed to print (%s: %s); printing one-shot", type(exc).__name__, exc
            )
            browser.stop()
            return _print_once(html, binary, timeout_s)
