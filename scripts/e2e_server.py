"""The API for end-to-end tests with its trace jobs on a Dask cluster: a ``LocalCluster`` of two
worker processes started here, ``DASK_SCHEDULER_ADDRESS`` pointing at it, then uvicorn.

    python scripts/e2e_server.py --port 8765     (DATABASE_URL, TRACES_DIR from the environment)

Started by ``frontend/playwright.config.ts`` when ``E2E_DASK`` is set; the cluster stops with it.
"""

from __future__ import annotations

import argparse
import logging
import os

import dask
import uvicorn
from distributed import LocalCluster

from backend.app.traces.cluster import WORKER_CONFIG


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    dask.config.set(WORKER_CONFIG)
    with LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None, silence_logs=logging.ERROR
    ) as cluster:
        os.environ["DASK_SCHEDULER_ADDRESS"] = cluster.scheduler_address
        uvicorn.run(
            "backend.app.main:app",
            host="127.0.0.1",
            port=args.port,
            server_header=False,
            access_log=False,
            proxy_headers=False,
        )


if __name__ == "__main__":
    main()
