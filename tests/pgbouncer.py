"""A PgBouncer of a test's own, in transaction pooling, in front of the test
PostgreSQL (TEST_POSTGRES_URL): its own configuration in a directory of its
own, on a free port, trusting the test user as the test server does. Debian's
`pgbouncer` (installed by scripts/ops-tools); missing, the test is skipped,
failed under CI=true."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest
from sqlalchemy.engine import make_url

from tests.waiting import until_sync

# What docs/operations.md asks of a PgBouncer in front of the server, and nothing more.
SETTINGS = """\
[databases]
* = host={host} port={port}

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = {listen}
unix_socket_dir =
auth_type = trust
auth_file = {users}
pool_mode = transaction
max_client_conn = 1000
default_pool_size = 20
server_reset_query = DEALLOCATE ALL
server_reset_query_always = 1
ignore_startup_parameters = extra_float_digits
"""


def _binary() -> str:
    found = shutil.which("pgbouncer") or next(
        (p for p in ("/usr/sbin/pgbouncer", "/usr/bin/pgbouncer") if os.access(p, os.X_OK)), None)
    if found is None:
        message = "pgbouncer is not installed (scripts/ops-tools installs Debian's)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message)
        pytest.skip(message)
    return found


class PgBouncer:
    def __init__(self, server_url: str) -> None:
        self.binary = _binary()
        self.server = make_url(server_url)
        # Readable by the user it runs as: PgBouncer refuses to run as root.
        self.dir = Path(tempfile.mkdtemp(prefix="magery-pgbouncer-"))
        self.dir.chmod(0o755)
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = int(probe.getsockname()[1])
        users = self.dir / "users.txt"
        users.write_text(f'"{self.server.username or "postgres"}" "{self.server.password or ""}"\n')
        config = self.dir / "pgbouncer.ini"
        config.write_text(SETTINGS.format(host=self.server.host or "127.0.0.1", port=self.server.port or 5432,
                                          listen=self.port, users=users))
        for path in (users, config):
            path.chmod(0o644)
        self.log = self.dir / "pgbouncer.log"
        as_user = ["-u", "nobody"] if os.geteuid() == 0 else []
        with self.log.open("wb") as log:
            self.proc = subprocess.Popen([self.binary, *as_user, str(config)], stdout=log, stderr=log)
        until_sync(self._listens, "pgbouncer to listen", every=0.05)

    def _listens(self) -> bool:
        if self.proc.poll() is not None:
            raise RuntimeError(f"pgbouncer exited with {self.proc.returncode}:\n{self.log.read_text()[-2000:]}")
        try:
            socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
        except OSError:
            return False
        return True

    def url(self, database: str) -> str:
        """The server's URL for `database`, through this PgBouncer."""
        return self.server.set(host="127.0.0.1", port=self.port, database=database).render_as_string(
            hide_password=False)

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(30)
        shutil.rmtree(self.dir, ignore_errors=True)
