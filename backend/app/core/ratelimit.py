"""Rate limits and quotas per client on writes, with the ``limits`` library.

Each category of write (``reports``, ``hardware``, ``traces``, ``imports``) has its own limits, e.g.
``60/minute;2000/day`` (a burst limit and a daily quota), counted per client address in a moving
window. A client over any of them gets 429 with ``Retry-After``: the seconds until the window
admits it again. Counters live in memory (one count per worker process), or in Redis when
``REDIS_URL`` is set (one count for every worker and server). If Redis cannot be reached the
write goes through (logged): a limiter outage must not stop the service.

The client is the connection's peer address; behind a reverse proxy, name it in
``TRUSTED_PROXIES`` so that it is the client's own address (forwarded headers from anyone else,
loopback included, are ignored: uvicorn runs with ``--no-proxy-headers``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping

import anyio
from fastapi import Request
from limits import RateLimitItem, parse_many
from limits.storage import Storage, storage_from_string
from limits.strategies import MovingWindowRateLimiter

from backend.app.core.errors import RateLimited

logger = logging.getLogger(__name__)

REDIS_TIMEOUT_S = 0.5


def parse_limits(text: str) -> list[RateLimitItem]:
    """``"60/minute;2000/day"`` as limit items; ``ValueError`` naming what is wrong."""
    try:
        items = parse_many(text)
    except ValueError as exc:
        raise ValueError(f"not a rate limit like '60/minute;2000/day': {text!r} ({exc})") from None
    if not items:
        raise ValueError(f"no rate limit in {text!r}")
    return items


class WriteLimiter:
    """The limits of each write category, counted per client in memory or in Redis."""

    def __init__(self, limits: Mapping[str, str], redis_url: str | None = None) -> None:
        self.limits = {category: parse_limits(text) for category, text in limits.items()}
        self.redis_url = redis_url
        self._strategy: MovingWindowRateLimiter | None = None
        self._lock = threading.Lock()

    def _limiter(self) -> MovingWindowRateLimiter:
        with self._lock:
            if self._strategy is None:
                if self.redis_url:
                    storage = storage_from_string(
                        self.redis_url,
                        socket_timeout=REDIS_TIMEOUT_S,
                        socket_connect_timeout=REDIS_TIMEOUT_S,
                        wrap_exceptions=True,
                    )
                else:
                    storage = storage_from_string("memory://")
                assert isinstance(storage, Storage)  # a synchronous storage (no async+ scheme)
                self._strategy = MovingWindowRateLimiter(storage)
            return self._strategy

    def hit(self, category: str, client: str) -> None:
        """Count one write of ``client``; :class:`RateLimited` when it is over a limit."""
        limiter = self._limiter()
        for item in self.limits.get(category, []):
            try:
                allowed = limiter.hit(item, category, client)
                if allowed:
                    continue
                reset_at = limiter.get_window_stats(item, category, client).reset_time
            except Exception as exc:  # the counter store is down: let the write through
                logger.warning("rate limiter unavailable, %s write allowed: %s", category, exc)
                return
            raise RateLimited(str(item), int(reset_at - time.time()) + 1)

    async def check(self, category: str, client: str) -> None:
        if self.redis_url:  # a network round trip: off the event loop
            await anyio.to_thread.run_sync(self.hit, category, client)
        else:
            self.hit(category, client)


def client_of(request: Request) -> str:
    return request.client.host if request.client else "unknown"


class WriteQuota:
    """Dependency counting one write of ``category`` for the requesting client."""

    def __init__(self, category: str) -> None:
        self.category = category

    async def __call__(self, request: Request) -> None:
        limiter: WriteLimiter | None = request.app.state.write_limiter
        if limiter is not None:
            await limiter.check(self.category, client_of(request))
