# syntax=docker/dockerfile:1
# Sizer: API + built UI in one image. `docker compose up` runs it against PostgreSQL.

# ---- UI build ---------------------------------------------------------------------------------
FROM node:20-slim AS ui
WORKDIR /src/frontend
COPY frontend/package.json frontend/package-lock.json ./
RUN npm ci --no-audit --no-fund --loglevel=error
COPY frontend/ ./
RUN npm run build

# ---- Runtime ----------------------------------------------------------------------------------
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app

COPY requirements.lock ./
RUN pip install -r requirements.lock

COPY pyproject.toml alembic.ini ./
COPY models ./models
COPY backend ./backend
COPY migrations ./migrations
COPY fixtures ./fixtures
COPY scripts/prestart ./scripts/prestart
# Editable, as in `make install`: settings find fixtures/ and frontend/dist/ beside the code in /app.
RUN pip install --no-deps -e . \
    && useradd --system --uid 10001 --home-dir /app sizer \
    && mkdir -p var /srv/traces \
    && chown sizer var /srv/traces
COPY --from=ui /src/frontend/dist ./frontend/dist

USER sizer
EXPOSE 8000
CMD ["scripts/prestart"]
