# The server image, in two stages.
#
#   build:   a C compiler, then scripts/install-image: the runtime dependencies
#            of uv.lock into .venv and the engine compiled with mypyc (the build
#            extra's mypy), then the build's tools removed again. A build of the
#            engine that breaks fails the image (MAGERY_REQUIRE_COMPILED=1): it
#            never falls back to the pure-Python engine, ~2x slower.
#   runtime: a slim Python with that .venv (the built modules in
#            .venv/magery-engine, no compiler, no mypy) and the code, run by a
#            user that is not root and can write only /srv/magery/var.
#
# docker-compose.yml runs two of these behind Caddy on PostgreSQL; alone,
# `docker run -p 8000:8000 IMAGE` serves from an SQLite file in /srv/magery/var.
ARG PYTHON_IMAGE=python:3.11-slim-bookworm

FROM ${PYTHON_IMAGE} AS build
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 PYTHONDONTWRITEBYTECODE=1
# mypyc's output is C: gcc and libc's headers (the image has Python's own).
RUN apt-get update \
    && apt-get install -y --no-install-recommends gcc libc6-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /srv/magery
COPY pyproject.toml uv.lock README.md ./
COPY scripts ./scripts
COPY app ./app
RUN bash scripts/install-image

FROM ${PYTHON_IMAGE} AS runtime
RUN useradd --system --uid 10001 --user-group --home-dir /srv/magery/var --no-create-home \
        --shell /usr/sbin/nologin magery \
    && mkdir -p /srv/magery/var && chown magery:magery /srv/magery/var
WORKDIR /srv/magery
# The .venv (with its install stamp, so scripts/serve installs nothing at start,
# and the compiled engine, which serves app/rules while the sources copied below
# are the ones it was built from) and the files the server reads; tests, bench
# and docs stay out. uv (.tools) stays in the build stage.
COPY --from=build /srv/magery/.venv ./.venv
COPY pyproject.toml uv.lock README.md alembic.ini ./
COPY scripts ./scripts
COPY app ./app
COPY migrations ./migrations
COPY static ./static
COPY templates ./templates
# Compiled once here, as root: the server's user cannot write these folders, so
# otherwise every process (the server and each of its bot and analysis workers)
# compiled every module from source at each start.
RUN .venv/bin/python -m compileall -q -j 0 .venv/lib app migrations
ENV EXTRAS="" HOST=0.0.0.0 PORT=8000 LOG_FORMAT=json \
    DATABASE_URL=sqlite+aiosqlite:////srv/magery/var/magery.sqlite3 \
    PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1
USER magery
EXPOSE 8000
# Open files: every socket and connection holds one. The server raises its soft
# limit to the hard one as it starts (app/realtime/open_files.py); a Dockerfile
# cannot set the hard one, so docker-compose.yml does (ulimits: nofile 65536),
# and `docker run --ulimit nofile=65536:65536` alone (docs/operations.md).
# Liveness only (the process answers); readiness (/readyz) is the proxy's question.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
    CMD ["python", "scripts/healthcheck", "/healthz"]
# uvicorn finishes the requests in flight on SIGTERM, says 1001 to every
# socket and stops the bots; past 20 s it stops waiting (compose allows 30).
STOPSIGNAL SIGTERM
CMD ["bash", "scripts/serve", "--timeout-graceful-shutdown", "20"]
