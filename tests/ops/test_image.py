"""The container files: docker-compose.yml validates with a real compose client
(and needs its env file for the password), the Dockerfile builds in two stages
and runs as a user, and the files its final stage copies are enough to start the
server. No Docker daemon runs here: the image itself is not built."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import yaml

from app.config import Settings
from tests.ops.conftest import ROOT, Server, free_port
from tests.waiting import DEADLINE

ENV_EXAMPLE = ROOT / "deploy" / "magery.env.example"


def compose_client() -> list[str]:
    """`docker compose` (the plugin) or `docker-compose`; skip (fail under CI=true) without either."""
    if shutil.which("docker"):
        done = subprocess.run(["docker", "compose", "version"], capture_output=True, text=True)
        if done.returncode == 0:
            return ["docker", "compose"]
    if shutil.which("docker-compose"):
        return ["docker-compose"]
    message = ("no compose client (docker compose or docker-compose) to validate docker-compose.yml; "
               "scripts/ops-tools installs Debian's docker-compose")
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


def project(tmp_path: Path, with_env: bool = True) -> Path:
    """A copy of what `docker compose` reads, as an operator would have it."""
    shutil.copy(ROOT / "docker-compose.yml", tmp_path)
    shutil.copy(ROOT / "Dockerfile", tmp_path)
    shutil.copytree(ROOT / "deploy", tmp_path / "deploy")
    (tmp_path / "deploy" / "magery.env").unlink(missing_ok=True)
    if with_env:
        shutil.copy(ENV_EXAMPLE, tmp_path / "deploy" / "magery.env")
    return tmp_path


def compose(where: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COMPOSE_", "POSTGRES_"))}
    return subprocess.run([*compose_client(), *args], cwd=where, capture_output=True, text=True,
                          env=env, timeout=120)


def test_docker_compose_config_validates(tmp_path: Path) -> None:
    done = compose(project(tmp_path), "config")
    assert done.returncode == 0, done.stderr
    config: dict[str, Any] = yaml.safe_load(done.stdout)
    services = config["services"]
    assert set(services) == {"db", "pgbouncer", "redis", "app1", "app2", "proxy"}
    for name, service in services.items():
        assert service["restart"] == "unless-stopped", name
    db = services["db"]
    assert db["image"].startswith("postgres:")
    assert "pg_isready" in " ".join(db["healthcheck"]["test"])
    assert any(str(v).startswith("pgdata:") for v in db["volumes"]) and "pgdata" in config["volumes"]
    pooler = services["pgbouncer"]  # transaction pooling, the replicas' only way to PostgreSQL
    assert pooler["environment"]["POOL_MODE"] == "transaction" and pooler["environment"]["DB_HOST"] == "db"
    assert pooler["environment"]["SERVER_RESET_QUERY"] == "DEALLOCATE ALL"
    redis = services["redis"]  # pub/sub between the replicas, nothing kept
    assert redis["image"].startswith("redis:") and "redis-cli" in " ".join(redis["healthcheck"]["test"])
    for name in ("app1", "app2"):
        app = services[name]
        assert app["build"] and app["depends_on"]["db"]["condition"] == "service_healthy"
        assert app["depends_on"]["redis"]["condition"] == "service_healthy"
        assert app["environment"]["DATABASE_URL"].startswith("postgresql+asyncpg://")
        # The replicas hear each other through Redis, and the settings say so at start.
        assert app["environment"]["REALTIME_BUS"] == "redis"
        assert app["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        assert app["depends_on"]["pgbouncer"]["condition"] == "service_healthy"
        assert "@pgbouncer:5432/" in app["environment"]["DATABASE_URL"]
        assert Settings(realtime_bus="redis", redis_url=app["environment"]["REDIS_URL"],
                        database_pooler=app["environment"]["DATABASE_POOLER"],
                        database_url=app["environment"]["DATABASE_URL"]).realtime_bus == "redis"
        # Only the proxy reaches a replica, so its X-Forwarded-For may be believed.
        assert "ports" not in app and app["environment"]["TRUSTED_PROXIES"] == "[\"*\"]"
    proxy = services["proxy"]
    assert proxy["image"].startswith("caddy:")
    assert proxy["environment"]["MAGERY_UPSTREAMS"].split() == ["app1:8000", "app2:8000"]
    assert any("Caddyfile" in str(v) for v in proxy["volumes"])
    assert {proxy["depends_on"][a]["condition"] for a in ("app1", "app2")} == {"service_healthy"}


def test_the_password_comes_from_the_env_file_not_the_compose_file(tmp_path: Path) -> None:
    text = (ROOT / "docker-compose.yml").read_text()
    example = dict(line.split("=", 1) for line in ENV_EXAMPLE.read_text().splitlines()
                   if line and not line.startswith("#"))
    assert example["POSTGRES_PASSWORD"] not in text
    assert not re.search(r"POSTGRES_PASSWORD\s*:", text)
    assert example["POSTGRES_PASSWORD"] in example["DATABASE_URL"]  # the two agree
    assert "deploy/magery.env" in (ROOT / ".gitignore").read_text().splitlines()
    done = compose(project(tmp_path, with_env=False), "config")
    assert done.returncode != 0  # no env file, no password: the compose client refuses


def _stages(dockerfile: str) -> list[list[str]]:
    """The Dockerfile's instructions (continuations joined), split by stage."""
    joined = re.sub(r"\\\n", " ", dockerfile)
    lines = [line.strip() for line in joined.splitlines() if line.strip() and not line.strip().startswith("#")]
    stages: list[list[str]] = []
    for line in lines:
        if line.upper().startswith("FROM "):
            stages.append([])
        if stages:
            stages[-1].append(line)
    return stages


def test_the_dockerfile_is_multi_stage_slim_and_runs_as_a_user() -> None:
    text = (ROOT / "Dockerfile").read_text()
    assert re.search(r"^ARG PYTHON_IMAGE=python:3\.\d+-slim", text, re.M)
    stages = _stages(text)
    assert len(stages) >= 2
    build, final = stages[0], stages[-1]
    # Runtime dependencies only, from the lock (the compiled engine: test_image_engine.py).
    assert any(line.startswith("RUN ") and "scripts/install-image" in line for line in build)
    assert 'bash scripts/install ""' in (ROOT / "scripts" / "install-image").read_text().splitlines()[-1]
    assert any(line.startswith("COPY --from=build") and ".venv" in line for line in final)
    users = [line.split()[1] for line in final if line.startswith("USER ")]
    assert users and users[-1] not in ("root", "0")
    # The modules are compiled while root may still write them: the server's user cannot.
    compiled = [i for i, line in enumerate(final) if line.startswith("RUN ") and "compileall" in line]
    assert compiled and compiled[-1] < final.index(f"USER {users[-1]}")
    assert all(f" {folder}" in final[compiled[-1]] for folder in (".venv/lib", "app"))
    assert any(line.startswith("HEALTHCHECK") and "scripts/healthcheck" in line for line in final)
    cmd = [line for line in final if line.startswith("CMD ")][-1]
    assert "scripts/serve" in cmd  # the README's start script
    assert any(line.startswith("ENV") and 'EXTRAS=""' in line for line in final)
    copied = " ".join(line for line in final if line.startswith("COPY "))
    for kept_out in ("tests", "bench", "docs", ".git"):
        assert f" {kept_out} " not in f" {copied} "
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    for entry in (".git", ".venv", ".tools", ".env", "deploy/magery.env", "*.sqlite3"):
        assert entry in ignored


async def test_the_final_stages_files_start_the_server(tmp_path: Path) -> None:
    """What the runtime stage copies from the context, and nothing else, serves."""
    srv = tmp_path / "srv"
    srv.mkdir()
    final = _stages((ROOT / "Dockerfile").read_text())[-1]
    for line in final:
        words = line.split()
        if words[0] != "COPY" or words[1].startswith("--from"):
            continue
        for source in words[1:-1]:
            path = ROOT / source
            if path.is_dir():
                shutil.copytree(path, srv / source, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                shutil.copy(path, srv / source)
    found = subprocess.run([sys.executable, "-c", "import app; print(app.__file__)"], cwd=srv,
                           capture_output=True, text=True, env={**os.environ, "PYTHONPATH": str(srv)})
    assert found.stdout.strip().startswith(str(srv)), found  # the copy runs, not the checkout
    (srv / "var").mkdir()
    server = Server(f"sqlite+aiosqlite:///{srv}/var/magery.sqlite3", tmp_path / "server.log", cwd=srv)
    try:
        await asyncio.to_thread(server.wait_ready)
        async with httpx.AsyncClient(base_url=server.base, timeout=DEADLINE) as http:
            assert (await http.post("/api/v1/matches", json={"options": {}})).status_code == 201
        check = [sys.executable, str(srv / "scripts" / "healthcheck")]
        # The script waits 2 s for its answer; here, on a machine that may be very busy, a minute.
        env = {**os.environ, "PORT": str(server.port), "HEALTHCHECK_TIMEOUT": str(DEADLINE)}
        alive = subprocess.run(check, env=env, timeout=2 * DEADLINE)
        assert alive.returncode == 0
        ready = subprocess.run([*check, "/readyz"], env=env, timeout=2 * DEADLINE)
        assert ready.returncode == 0
        dead = subprocess.run(check, env={**env, "PORT": str(free_port())}, capture_output=True,
                              timeout=2 * DEADLINE)
        assert dead.returncode == 1
    finally:
        server.stop()
