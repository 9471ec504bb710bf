"""A throwaway PostgreSQL 15 cluster on loopback, for the tests that run the store on Postgres.

CI starts with nothing running, so this installs Debian's ``postgresql`` package when its server
binaries are missing, creates a cluster in a temporary directory owned by the ``postgres`` user
(``initdb`` refuses to run as root), starts it on a free 127.0.0.1 port with trust auth, and removes
it at the end of the test session.
"""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
import uuid
from dataclasses import dataclass

import pgserver
import psycopg


def _bindir() -> str | None:
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
    return os.path.dirname(found[-1]) if found else None


def _install() -> str:
    bindir = _bindir()
    if bindir:
        return bindir
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    subprocess.run(["apt-get", "update", "-qq"], check=True, env=env, capture_output=True)
    subprocess.run(
        ["apt-get", "install", "-y", "-qq", "postgresql"], check=True, env=env, capture_output=True
    )
    bindir = _bindir()
    if not bindir:
        raise RuntimeError("PostgreSQL server binaries not found after apt-get install postgresql")
    return bindir


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _as_postgres(args: list[str]) -> list[str]:
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *args]
    return args


@dataclass
class PostgresCluster:
    """A running cluster; `url` gives a SQLAlchemy URL for a database name."""

    bindir: str
    datadir: str
    port: int

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/{database}"

    def psql(self, sql: str, database: str = "postgres") -> None:
        subprocess.run(
            [os.path.join(self.bindir, "psql"), "-h", "127.0.0.1", "-p", str(self.port),
             "-U", "postgres", "-d", database, "-v", "ON_ERROR_STOP=1", "-q", "-c", sql],
            check=True, capture_output=True,
        )

    def new_database(self) -> str:
        """Create an empty database and return its SQLAlchemy URL."""
        name = "t_" + uuid.uuid4().hex[:12]
        self.psql(f"CREATE DATABASE {name}")
        return self.url(name)

    def stop(self) -> None:
        subprocess.run(
            _as_postgres([os.path.join(self.bindir, "pg_ctl"), "-D", self.datadir, "-m",
                          "immediate", "stop"]),
            capture_output=True,
        )
        shutil.rmtree(os.path.dirname(self.datadir), ignore_errors=True)


def start_cluster() -> PostgresCluster:
    """Install if needed, init and start a cluster on a free loopback port."""
    bindir = _install()
    root = tempfile.mkdtemp(prefix="tm-pg-")
    datadir = os.path.join(root, "data")
    os.makedirs(datadir)
    if os.geteuid() == 0:
        shutil.chown(root, "postgres", "postgres")
        shutil.chown(datadir, "postgres", "postgres")
    subprocess.run(
        _as_postgres([os.path.join(bindir, "initdb"), "-D", datadir, "-U", "postgres",
                      "-A", "trust", "-E", "UTF8", "--no-sync"]),
        check=True, capture_output=True,
    )
    port = _free_port()
    opts = (f"-c listen_addresses=127.0.0.1 -c port={port} -c unix_socket_directories={root} "
            "-c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200")
    subprocess.run(
        _as_postgres([os.path.join(bindir, "pg_ctl"), "-D", datadir, "-o", opts, "-l",
                      os.path.join(root, "log"), "-w", "-t", "60", "start"]),
        check=True, capture_output=True,
    )
    cluster = PostgresCluster(bindir, datadir, port)
    deadline = time.monotonic() + 30
    while True:
        try:
            cluster.psql("SELECT 1")
            return cluster
        except subprocess.CalledProcessError:
            if time.monotonic() > deadline:
                cluster.stop()
                raise
            time.sleep(0.2)


@dataclass
class PgvectorCluster:
    """A running ``pgserver`` cluster (PostgreSQL 16 with pgvector) on a Unix socket."""

    server: object
    socket_dir: str

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://postgres@/{database}?host={self.socket_dir}"

    def new_database(self) -> str:
        """Create an empty database with the ``vector`` extension and return its URL."""
        name = "v_" + uuid.uuid4().hex[:12]
        with psycopg.connect(f"host={self.socket_dir} user=postgres dbname=postgres",
                             autocommit=True) as conn:
            conn.execute(f"CREATE DATABASE {name}")
        with psycopg.connect(f"host={self.socket_dir} user=postgres dbname={name}",
                             autocommit=True) as conn:
            conn.execute("CREATE EXTENSION vector")
        return self.url(name)

    def stop(self) -> None:
        self.server.cleanup()  # type: ignore[attr-defined]
        shutil.rmtree(self.socket_dir, ignore_errors=True)


def start_pgvector_cluster() -> PgvectorCluster:
    """Start a throwaway ``pgserver`` cluster (the PyPI package ships PostgreSQL 16 + pgvector)."""
    root = tempfile.mkdtemp(prefix="tm-pgv-")
    server = pgserver.get_server(root, cleanup_mode="stop")
    # A throwaway cluster needs no durability: as with `start_cluster`, and a fast shutdown.
    with psycopg.connect(f"host={root} user=postgres dbname=postgres", autocommit=True) as conn:
        for name in ("fsync", "synchronous_commit", "full_page_writes"):
            conn.execute(f"ALTER SYSTEM SET {name} = off")
        conn.execute("SELECT pg_reload_conf()")
    return PgvectorCluster(server, root)
