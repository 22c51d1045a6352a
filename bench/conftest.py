"""Benchmarks reuse the engine test fixtures (drives, configurations, workloads)."""

from models.tests.conftest import hdd15k, ssd  # noqa: F401
