"""Per-client rate limits and quotas on writes: 429 with Retry-After, in memory or in Redis."""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient
from pydantic import ValidationError

from backend.app.core.config import Settings
from backend.app.main import create_app
from backend.tests.conftest import FAS3270, workload

REDIS_URL = "redis://127.0.0.1:6379/15"
CONTROLLER = {"kind": "controller", "spec": {"model": "Turbo", "count": 2, "cores": 16, "dram_cache_gb": 64}}
REPORT = {
    "name": "r",
    "kind": "evaluate",
    "inputs": {"workloads": [workload()], "configuration": {**FAS3270, "drive_count": 48}},
}


@contextmanager
def api(settings: Settings, client_address: str = "192.0.2.10") -> Iterator[TestClient]:
    with TestClient(create_app(settings), raise_server_exceptions=False, client=(client_address, 50000)) as c:
        yield c


@pytest.fixture
def limited(migrated_db_url: str, make_settings: Callable[..., Settings]) -> Callable[..., Settings]:
    """Settings on the migrated test database with rate limits switched on (and ``overrides``)."""

    def make(**overrides: Any) -> Settings:
        return make_settings(**{"database_url": migrated_db_url, "rate_limits_enabled": True, **overrides})

    return make


def test_a_client_over_its_report_limit_gets_429_with_retry_after(limited: Callable[..., Settings]) -> None:
    with api(limited(rate_limit_reports="2/minute")) as client:
        answers = [client.post("/api/v1/reports", json=REPORT) for _ in range(3)]

    assert [a.status_code for a in answers] == [201, 201, 429]
    retry_after = int(answers[2].headers["Retry-After"])
    assert 1 <= retry_after <= 61  # the minute window admits the next write within a minute
    assert "2 per 1 minute" in answers[2].json()["detail"]


def test_limits_count_each_client_and_each_kind_of_write_apart(limited: Callable[..., Settings]) -> None:
    settings = limited(rate_limit_hardware="1/minute")
    app = create_app(settings)
    with (
        TestClient(app, client=("192.0.2.1", 1)) as first,
        TestClient(app, client=("192.0.2.2", 1)) as second,
    ):
        answers = [
            first.post("/api/v1/hardware", json=CONTROLLER).status_code,
            first.post("/api/v1/hardware", json=CONTROLLER).status_code,  # over: 1 per minute
            second.post("/api/v1/hardware", json=CONTROLLER).status_code,  # another client
            first.post("/api/v1/reports", json=REPORT).status_code,  # another kind of write
        ]

    assert answers == [201, 429, 201, 201]


def test_a_daily_quota_applies_beside_the_burst_limit(limited: Callable[..., Settings]) -> None:
    with api(limited(rate_limit_hardware="100/minute;2/day")) as client:
        answers = [client.post("/api/v1/hardware", json=CONTROLLER) for _ in range(3)]

    assert [a.status_code for a in answers] == [201, 201, 429]
    assert int(answers[2].headers["Retry-After"]) > 3600  # the day's window, not the minute's
    assert "2 per 1 day" in answers[2].json()["detail"]


def test_reads_and_engine_calls_are_never_limited(limited: Callable[..., Settings]) -> None:
    with api(limited(rate_limit_reports="1/minute", rate_limit_hardware="1/minute")) as client:
        statuses = {client.get("/api/v1/hardware").status_code for _ in range(5)}
        statuses |= {client.post("/api/v1/evaluate", json=REPORT["inputs"]).status_code for _ in range(3)}

    assert statuses == {200}


def test_limits_switched_off_let_every_write_through(limited: Callable[..., Settings]) -> None:
    with api(limited(rate_limits_enabled=False, rate_limit_hardware="1/minute")) as client:
        answers = {client.post("/api/v1/hardware", json=CONTROLLER).status_code for _ in range(3)}

    assert answers == {201}


def test_with_redis_every_worker_shares_one_count(limited: Callable[..., Settings]) -> None:
    """Two apps (as two worker processes would) counting in one Redis: the second write of the
    client is refused by the other worker."""
    settings = limited(rate_limit_hardware="1/minute", redis_url=REDIS_URL)
    address = f"198.51.100.{secrets.randbelow(250) + 1}-{secrets.token_hex(4)}"  # fresh in Redis
    with api(settings, address) as worker_a, api(settings, address) as worker_b:
        answers = [
            worker_a.post("/api/v1/hardware", json=CONTROLLER).status_code,
            worker_b.post("/api/v1/hardware", json=CONTROLLER).status_code,
        ]

    assert answers == [201, 429]


def test_writes_go_through_when_redis_is_unreachable(limited: Callable[..., Settings]) -> None:
    settings = limited(rate_limit_hardware="1/minute", redis_url="redis://127.0.0.1:1/0")
    with api(settings) as client:
        answers = [client.post("/api/v1/hardware", json=CONTROLLER).status_code for _ in range(2)]

    assert answers == [201, 201]  # a limiter outage never stops the service (it is logged)


@pytest.mark.parametrize(
    ("field", "value"),
    [("rate_limit_reports", "lots per minute"), ("rate_limit_traces", ""), ("redis_url", "http://x")],
)
def test_a_malformed_limit_setting_fails_at_start_naming_it(field: str, value: str) -> None:
    with pytest.raises(ValidationError) as raised:
        Settings.model_validate({field: value})

    assert raised.value.errors()[0]["loc"] == (field,)


def test_a_forwarded_address_counts_only_when_a_trusted_proxy_sends_it(
    limited: Callable[..., Settings],
) -> None:
    # issue #34: uvicorn's default trusts X-Forwarded-For from 127.0.0.1, so a spoofed header from
    # the host itself got a fresh quota per request
    settings = limited(rate_limit_hardware="2/minute", trusted_proxies=["10.0.0.0/24"])
    app = create_app(settings)
    with TestClient(app, raise_server_exceptions=False, client=("127.0.0.1", 50000)) as local:
        spoofed = [
            local.post("/api/v1/hardware", json=CONTROLLER, headers={"X-Forwarded-For": f"198.51.100.{i}"})
            for i in range(3)
        ]
    with TestClient(app, raise_server_exceptions=False, client=("10.0.0.9", 50000)) as proxy:
        forwarded = [
            proxy.post("/api/v1/hardware", json=CONTROLLER, headers={"X-Forwarded-For": f"203.0.113.{i}"})
            for i in range(3)
        ]

    assert [r.status_code for r in spoofed] == [201, 201, 429]  # one client: the loopback peer
    assert [r.status_code for r in forwarded] == [201, 201, 201]  # three clients behind the proxy


def test_trusted_proxies_are_addresses_or_networks(make_settings: Callable[..., Settings]) -> None:
    assert make_settings(trusted_proxies="10.0.0.0/8, 192.0.2.1").trusted_proxies == [
        "10.0.0.0/8",
        "192.0.2.1",
    ]
    with pytest.raises(ValidationError, match="TRUSTED_PROXIES: 'proxy.example' is not an IP address"):
        make_settings(trusted_proxies="proxy.example")


@pytest.mark.parametrize("path", ["host-stats", "iostat", "array-stats", "live-optics", "rvtools"])
def test_file_imports_have_a_quota_counted_before_the_body_is_read(
    limited: Callable[..., Settings], path: str
) -> None:
    # issue #34: host-statistics imports had no limit and spooled up to 2 GiB each to /tmp
    with api(limited(rate_limit_imports="1/minute")) as client:
        first = client.post(f"/api/v1/import/{path}", content=b"not statistics")
        second = client.post(f"/api/v1/import/{path}", content=b"not statistics")
        timeline = client.post("/api/v1/import/timeline", json={})

    assert first.status_code != 429
    assert second.status_code == 429 and int(second.headers["retry-after"]) > 0
    assert timeline.status_code == 422  # lining imports up is a computation: not counted
