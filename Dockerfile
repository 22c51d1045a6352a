# syntax=docker/dockerfile:1
# Sizer: one image for the API with the built UI, the migrations and the Dask workers.
# `docker compose up --build` runs it against PostgreSQL and Redis (docker-compose.yml).
#
# Targets:
#   full (default)  the engine, API and UI with the [policies], [distributed] and [s3] extras
#   lean            without the extras (libCacheSim curves, Dask jobs and S3 storage say which
#                   extra they need): `docker build --target lean .`
# Architectures: amd64 installs wheels only. libCacheSim (the [policies] extra) publishes no
# wheel for arm64: there the full image leaves it out (the engine says the extra is missing
# when a trace asks for ARC or S3-FIFO curves), unless built from source in the wheels stage with
# `--build-arg BUILD_LIBCACHESIM=1` (a C/C++ toolchain, CMake, GLib and zstd, there only).
ARG PYTHON_IMAGE=python:3.11-slim

# ---- UI build ---------------------------------------------------------------------------------
FROM node:20-slim AS ui
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY frontend/ ./
RUN npm run build

# ---- Wheels: every locked package as a wheel for this platform (build tools stay here) --------
FROM ${PYTHON_IMAGE} AS wheels
ARG BUILD_LIBCACHESIM=0
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
COPY requirements.lock requirements-full.lock /locks/
RUN set -eux; \
    grep -v '^libcachesim==' /locks/requirements-full.lock > /locks/full-but-policies.lock; \
    pip wheel --no-deps -r /locks/requirements.lock -w /wheels/lean; \
    pip wheel --no-deps -r /locks/full-but-policies.lock -w /wheels/full; \
    lcs="$(grep -o '^libcachesim==[^ ;]*' /locks/requirements-full.lock)"; \
    if pip download --no-deps --only-binary :all: "$lcs" -d /wheels/full; then :; \
    elif [ "$BUILD_LIBCACHESIM" = 1 ]; then \
        apt-get update -qq; \
        apt-get install -y -qq --no-install-recommends build-essential cmake pkg-config libglib2.0-dev libzstd-dev; \
        pip wheel --no-deps --no-binary libcachesim "$lcs" -w /wheels/full; \
    else \
        echo "$lcs: no wheel for $(uname -m); the image is built without the [policies] extra" \
             "(--build-arg BUILD_LIBCACHESIM=1 builds it from source)"; \
    fi

# ---- Runtime base: the application, no Python packages yet ------------------------------------
# The targets below install the wheels, then this package editable, as `make install` does:
# settings find fixtures/ and frontend/dist/ beside the code in /app.
FROM ${PYTHON_IMAGE} AS base
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
RUN useradd --system --uid 10001 --home-dir /app sizer \
    && mkdir -p var /srv/traces \
    && chown sizer var /srv/traces
COPY pyproject.toml alembic.ini ./
COPY models ./models
COPY backend ./backend
COPY migrations ./migrations
COPY fixtures ./fixtures
COPY scripts/prestart scripts/healthcheck ./scripts/
COPY --from=ui /src/frontend/dist ./frontend/dist
EXPOSE 8000
HEALTHCHECK --interval=10s --timeout=5s --start-period=60s --retries=3 CMD ["scripts/healthcheck"]
CMD ["scripts/prestart"]

# ---- lean: the engine, API and UI without the extras ------------------------------------------
FROM base AS lean
RUN --mount=type=bind,from=wheels,source=/wheels/lean,target=/wheels \
    pip install --no-deps --no-index /wheels/*.whl \
    && pip install --no-deps -e .
USER sizer

# ---- full (default): with the [policies], [distributed] and [s3] extras -----------------------
FROM base AS full
RUN --mount=type=bind,from=wheels,source=/wheels/full,target=/wheels \
    pip install --no-deps --no-index /wheels/*.whl \
    && pip install --no-deps -e .
USER sizer
