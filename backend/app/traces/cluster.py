"""Trace jobs on a Dask cluster, when ``DASK_SCHEDULER_ADDRESS`` is set.

The API process submits one task per job (:func:`run_on_cluster`) and lets go of it
(``fire_and_forget``): the job's state lives in the database and on the cluster, so the API
process may restart, or die, while it runs. On a worker, that task marks the job running and
fans out one task per partition of the block keys (:func:`profile_part`: each reads the trace
from the shared storage by URL and keeps its partition, :class:`~models.traces.builder.Partition`),
follows them through Dask ``Variable`` s (progress up, a stop flag down), writes the progress to
the job's row, reads ``cancel_requested`` back, and merges the partitions
(:func:`models.traces.analyze.combine`) into the result it stores. Workers need this package and
the database URL (passed with the task) and must reach the trace storage (``TRACES_URL``).
Dask is the optional ``[distributed]`` extra: imported here only when a cluster is used.
"""

from __future__ import annotations

import contextlib
import tempfile
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from backend.app.db import create_db_engine, create_session_factory
from backend.app.traces.jobs import JobSpec, ProgressFn, StopFn, TraceLimits, execute
from backend.app.traces.storage import TraceStore, open_url
from models.traces import TraceAnalysis, TraceOptions
from models.traces.analyze import PartitionResult, combine, profile_partitions
from models.traces.builder import Partition

if TYPE_CHECKING:
    from distributed import Client

CONNECT_TIMEOUT_S = 5.0
"""Longest wait for the scheduler (and for a worker) when a job is submitted [s]
(``DASK_CONNECT_TIMEOUT_S``), and for a Dask ``Variable`` on the cluster."""
POLL_S = 0.25
"""How often the coordinating task reads its partitions' progress [s]."""
WORKER_PREFIX = "dask:"
"""``trace_jobs.worker`` of a job the cluster runs (no API process owns it)."""


WORKER_CONFIG = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
"""Dask configuration for the workers' processes: Dask's default sets glibc's
``MALLOC_TRIM_THRESHOLD_`` to 64 KiB, which also fixes the mmap threshold at 128 KiB, so every
numpy temporary of a trace chunk (MBs) is a fresh mmap and its pages are faulted in again: the
analysis then takes 3x the CPU. Unset it: ``dask.config.set(WORKER_CONFIG)`` before a
``LocalCluster``; ``DASK_CONFIG=backend/app/traces/dask`` (the same setting as a file) in the
environment of ``dask worker``."""


class SchedulerUnavailable(Exception):
    """The Dask scheduler (or any worker) cannot be reached (-> 503 at submit time)."""


class DaskRunner:
    """Submits trace jobs to the Dask scheduler at ``address``."""

    def __init__(
        self,
        address: str,
        database_url: str,
        store: TraceStore,
        limits: TraceLimits | None = None,
        connect_timeout_s: float = CONNECT_TIMEOUT_S,
    ) -> None:
        self.address = address
        self.connect_timeout_s = connect_timeout_s
        self.database_url = database_url
        self.store = store
        self.limits = limits or TraceLimits()
        self._client: Client | None = None

    def client(self) -> Client:
        if self._client is not None and self._client.status == "running":
            return self._client
        from distributed import Client

        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close()
        try:
            self._client = Client(self.address, timeout=self.connect_timeout_s, set_as_default=False)
        except (OSError, TimeoutError) as exc:
            self._client = None
            raise SchedulerUnavailable(f"the Dask scheduler at {self.address} is unreachable: {exc}") from exc
        return self._client

    def check(self) -> None:
        """SchedulerUnavailable unless the scheduler answers and has a worker."""
        client = self.client()
        try:
            client.wait_for_workers(1, timeout=self.connect_timeout_s)
        except (OSError, TimeoutError) as exc:
            raise SchedulerUnavailable(f"the Dask scheduler at {self.address} has no workers: {exc}") from exc

    def default_partitions(self) -> int:
        """One partition per worker thread of the cluster."""
        return max(1, sum(self.client().nthreads().values()))

    def worker_label(self, this_process: str) -> str:
        return f"{WORKER_PREFIX}{self.address}"[:160]

    def submit(self, spec: JobSpec) -> None:
        """Hand the job to the cluster, and return once the scheduler holds it (so that this
        process may die the next moment); SchedulerUnavailable if it does not within the timeout."""
        from distributed import fire_and_forget

        client = self.client()
        key = f"trace-job-{spec.job_id}"
        future = client.submit(run_on_cluster, self.database_url, spec, key=key, pure=False)
        fire_and_forget(future)
        deadline = time.monotonic() + self.connect_timeout_s
        while not client.run_on_scheduler(_scheduler_has, key=key):
            if time.monotonic() > deadline:
                raise SchedulerUnavailable(f"the Dask scheduler at {self.address} did not take the job")
            time.sleep(0.01)

    def shutdown(self) -> None:
        if self._client is not None:
            with contextlib.suppress(Exception):
                self._client.close()
            self._client = None


def _scheduler_has(dask_scheduler: Any, key: str) -> bool:
    """Run on the scheduler: whether it holds task ``key``."""
    return key in dask_scheduler.tasks


def run_on_cluster(database_url: str, spec: JobSpec) -> None:
    """The job, run by a Dask worker (see the module's description)."""
    engine = create_db_engine(database_url)
    try:
        execute(create_session_factory(engine), spec, analyze_on_cluster)
    finally:
        engine.dispose()


def _names(job_id: str, partitions: int) -> tuple[str, list[str]]:
    return f"trace-{job_id}-stop", [f"trace-{job_id}-part-{i}" for i in range(partitions)]


def analyze_on_cluster(spec: JobSpec, progress: ProgressFn, should_stop: StopFn) -> TraceAnalysis:
    """Fan the partitions out over the cluster, follow them, merge them."""
    from distributed import Variable, worker_client

    n = spec.partitions
    stop_name, part_names = _names(spec.job_id, n)
    started = time.monotonic()
    with worker_client() as client:  # leaves this worker's thread to the partitions meanwhile
        stop = Variable(stop_name, client=client)
        stop.set(False)
        parts = [Variable(name, client=client) for name in part_names]
        for v in parts:
            v.set((0.0, 0))
        futures = [
            client.submit(profile_part, spec, i, key=f"trace-{spec.job_id}-partition-{i}", pure=False)
            for i in range(n)
        ]
        try:
            while not all(f.done() for f in futures):
                time.sleep(POLL_S)
                states = [v.get(timeout=CONNECT_TIMEOUT_S) for v in parts]
                fraction = sum(s[0] for s in states) / n
                records = min(s[1] for s in states)
                progress(0.85 * fraction, records, records / max(time.monotonic() - started, 1e-9))
                if should_stop():
                    stop.set(True)
            results: list[PartitionResult] = client.gather(futures)
        finally:
            for v in [stop, *parts]:
                with contextlib.suppress(Exception):
                    v.delete()
    with tempfile.TemporaryDirectory(prefix="sizer-trace-") as scratch:
        return combine(results, TraceOptions(**spec.options), Path(scratch), should_stop)


def profile_part(spec: JobSpec, index: int) -> PartitionResult:
    """Partition ``index`` of the job's trace, read from the storage by URL (a Dask task)."""
    from distributed import Variable, get_client

    client = get_client()
    stop_name, part_names = _names(spec.job_id, spec.partitions)
    stop, mine = Variable(stop_name, client=client), Variable(part_names[index], client=client)
    last = [0.0]
    stopped = [False]

    def progress(fraction: float, records: int, rate: float) -> None:
        now = time.monotonic()
        if now - last[0] >= POLL_S:
            last[0] = now
            mine.set((fraction, records))
            stopped[0] = bool(stop.get(timeout=CONNECT_TIMEOUT_S))

    with open_url(spec.trace_url) as stream:
        return profile_partitions(
            stream,
            TraceOptions(**spec.options),
            [Partition(index, spec.partitions)],
            total_bytes=spec.size_bytes,
            progress=progress,
            should_stop=lambda: stopped[0],
            max_text_bytes=spec.limits.max_text_bytes,
            max_records=spec.limits.max_records,
        )[0]
