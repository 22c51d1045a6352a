"""The container set-up as read by Docker: `docker compose config` where a Docker engine answers
(the client alone is not enough), and the structure every deployment relies on, always."""

from __future__ import annotations

import re
import shutil
import subprocess
from typing import Any

import yaml

from backend.tests.conftest import REPO_ROOT

COMPOSE = REPO_ROOT / "docker-compose.yml"
DOCKERFILE = (REPO_ROOT / "Dockerfile").read_text(encoding="utf-8")


def docker_engine() -> bool:
    """Whether a Docker engine answers (``docker info`` fails without one, client or not)."""
    if shutil.which("docker") is None:
        return False
    try:
        return subprocess.run(["docker", "info"], capture_output=True, timeout=20).returncode == 0
    except (OSError, subprocess.TimeoutExpired):
        return False


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text(encoding="utf-8"))  # merge keys resolved
    return loaded


def test_the_compose_file_is_valid_for_docker_or_holds_its_structure() -> None:
    if docker_engine():
        for profile in ([], ["--profile", "dask"]):
            done = subprocess.run(
                ["docker", "compose", "-f", str(COMPOSE), *profile, "config", "--quiet"],
                cwd=REPO_ROOT,
                capture_output=True,
                text=True,
                timeout=60,
            )
            assert done.returncode == 0, done.stderr
    services = compose()["services"]

    assert set(services) == {"db", "redis", "migrate", "app", "dask-scheduler", "dask-worker"}
    for name, service in services.items():
        assert "image" in service or "build" in service, name
        assert isinstance(service.get("command", []), list), f"{name}: exec form, no shell parsing"


def test_one_image_serves_the_app_the_migrations_and_the_workers() -> None:
    services = compose()["services"]
    ours = {name: s for name, s in services.items() if s.get("image") == services["app"]["image"]}

    assert set(ours) == {"migrate", "app", "dask-scheduler", "dask-worker"}
    assert [name for name, s in services.items() if "build" in s] == ["app"]  # built once
    target = services["app"]["build"]["target"]
    stages = re.findall(r"^FROM \S+ AS (\S+)$", DOCKERFILE, re.MULTILINE)
    assert target in stages
    assert stages[-1] == target  # the default target (`docker build .`) is the one compose runs
    assert {"ui", "wheels"} <= set(stages)  # Node and the wheel builds stay out of the runtime image


def test_every_long_running_service_has_a_healthcheck_and_waits_for_what_it_needs() -> None:
    services = compose()["services"]

    for name, service in services.items():
        if name == "migrate":  # a one-shot job: its exit status is its health, not the API's check
            assert service["restart"] == "no"
            assert service["healthcheck"] == {"disable": True}
            continue
        assert service["healthcheck"]["test"][0] in {"CMD", "CMD-SHELL"}, name
    app = services["app"]["depends_on"]
    assert app["migrate"] == {"condition": "service_completed_successfully"}
    assert app["redis"] == {"condition": "service_healthy"}
    assert app["dask-scheduler"] == {"condition": "service_healthy", "required": False}
    assert services["migrate"]["depends_on"]["db"] == {"condition": "service_healthy"}
    assert "HEALTHCHECK" in DOCKERFILE


def test_rate_limits_are_shared_through_redis_and_the_dask_profile_needs_no_variable() -> None:
    services = compose()["services"]
    env = services["app"]["environment"]

    assert env["REDIS_URL"].startswith("redis://redis:")
    assert services["dask-scheduler"]["profiles"] == ["dask"] == services["dask-worker"]["profiles"]
    scheduler_port = services["dask-scheduler"]["command"][
        services["dask-scheduler"]["command"].index("--port") + 1
    ]
    assert env["DASK_SCHEDULER_IF_PRESENT"] == f"tcp://dask-scheduler:{scheduler_port}"
    assert f"tcp://dask-scheduler:{scheduler_port}" in services["dask-worker"]["command"]
    for name in ("app", "dask-worker"):  # the workers read the uploads the app stores
        assert "traces:/srv/traces" in services[name]["volumes"]
        assert services[name]["environment"]["TRACES_URL"] == "file:///srv/traces"


def test_the_healthcheck_script_passes_a_200_and_fails_a_503_or_a_closed_port() -> None:
    import http.server
    import socket
    import threading

    class Health(http.server.BaseHTTPRequestHandler):
        def do_GET(self) -> None:  # noqa: N802 - the standard library's name
            self.send_response(200 if self.path == "/up" else 503)
            self.end_headers()

        def log_message(self, *args: object) -> None:
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Health)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        closed = probe.getsockname()[1]  # bound, never listening: connections are refused
        try:
            base = f"http://127.0.0.1:{server.server_address[1]}"
            runs = {
                target: subprocess.run(
                    [str(REPO_ROOT / "scripts" / "healthcheck"), target],
                    capture_output=True,
                    text=True,
                    timeout=30,
                )
                for target in (
                    f"{base}/up",
                    f"{base}/down",
                    f"tcp://127.0.0.1:{server.server_address[1]}",
                    f"tcp://127.0.0.1:{closed}",
                )
            }
        finally:
            server.shutdown()

    assert [r.returncode for r in runs.values()] == [0, 1, 0, 1]
    assert "503" in runs[f"{base}/down"].stderr
    assert runs[f"tcp://127.0.0.1:{closed}"].stderr.startswith("unhealthy: ")
