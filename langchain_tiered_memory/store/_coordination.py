"""Named leases: "only one worker does this at a time", across threads, processes and hosts.

A lease is a row in ``tm_leases`` — ``(name, owner, expires)`` — taken and extended by one atomic
conditional statement, so it works the same on SQLite and PostgreSQL without server-side locks
that would die with a connection pool:

- `acquire_lease` takes the lease when nobody holds it, when the caller already holds it, or when
  the holder's lease has lapsed (a dead worker's lease is taken over after ``ttl``);
- `renew_lease` extends it only while the caller still holds it (a worker that stalled past its
  lease learns it lost it and must stop);
- `release_lease` gives it up at once.

`hold_lease` is the convenience form: a context manager that acquires, renews from a heartbeat
thread while the block runs, and releases at the end.

Lease times are wall-clock epoch seconds (`time.time`), not the store's injectable clock: a lease
is about real processes dying, and a test's frozen clock would keep a dead worker's lease alive
forever. Hosts sharing a database should keep their clocks in sync (NTP); the ``ttl`` should be
much larger than the expected skew.
"""

from __future__ import annotations

import contextlib
import os
import socket
import time
from collections.abc import Callable, Iterator

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite

from .._runtime import Heartbeat
from ..errors import InvalidInput, TieredMemoryError
from ._tables import leases

__all__ = [
    "HeldLease",
    "LeaseLost",
    "acquire_lease",
    "hold_lease",
    "lease_holder",
    "lease_owner_id",
    "leases",
    "owner_is_dead",
    "reembed_once",
    "release_lease",
    "renew_lease",
]

class LeaseLost(TieredMemoryError):
    """Raised by `hold_lease`'s ``check()`` when the heartbeat found the lease taken over."""


def lease_owner_id(tag: str = "") -> str:
    """An owner id naming this host, process and ``tag``: ``host:pid[:tag]``.

    The same shape as the jobs' lease owners, so a lease whose owner is a dead process on this
    host can be taken over at once instead of after its ``ttl``.
    """
    base = f"{socket.gethostname()}:{os.getpid()}"
    return f"{base}:{tag}" if tag else base


def owner_is_dead(owner: str | None) -> bool:
    """True when ``owner`` names a process on this host that no longer exists."""
    if not owner:
        return False
    parts = owner.split(":")
    if len(parts) < 2 or parts[0] != socket.gethostname():
        return False
    try:
        pid = int(parts[1])
    except ValueError:
        return False
    if pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:
        return False
    return False


@contextlib.contextmanager
def _transaction(conn: sa.Connection) -> Iterator[sa.Connection]:
    # Join the caller's transaction when there is one, so the lease commits with its work.
    if conn.in_transaction():
        yield conn
    else:
        with conn.begin():
            yield conn


def _insert_if_absent(conn: sa.Connection, values: dict[str, object]) -> bool:
    """INSERT the row unless the name exists; True when this call inserted it."""
    dialect = conn.dialect.name
    if dialect in ("sqlite", "postgresql"):
        module = sqlite if dialect == "sqlite" else postgresql
        # RETURNING, not rowcount: psycopg reports -1 as the rowcount of this INSERT.
        stmt = module.insert(leases).values(**values).on_conflict_do_nothing()
        return conn.execute(stmt.returning(leases.c.name)).first() is not None
    # Other backends: a savepoint keeps a duplicate-key error from aborting the transaction.
    try:
        with conn.begin_nested():
            conn.execute(sa.insert(leases).values(**values))
        return True
    except sa.exc.IntegrityError:
        return False


def acquire_lease(
    conn: sa.Connection, name: str, owner: str, ttl: float, *, now: float | None = None
) -> bool:
    """Take (or extend) the lease ``name`` for ``owner`` for ``ttl`` seconds.

    Succeeds when the lease is free, already held by ``owner``, held by someone whose lease
    has expired, or held by a process on this host that no longer exists (their work is taken
    over). On SQLite use a write connection (``BEGIN
    IMMEDIATE``) so that the check and the claim are one step; on PostgreSQL the conditional
    UPDATE and ``INSERT ... ON CONFLICT DO NOTHING`` are atomic by themselves.

    Args:
        conn: A connection; the claim joins its transaction, or commits on its own.
        name: What is being leased (``"reembed:<model>"``, ``"consolidate:<ns>:<session>"``).
        owner: Who asks (e.g. `default_lease_owner`); must be unique per worker.
        ttl: Seconds until the lease lapses unless renewed.
        now: Wall-clock epoch seconds (tests); default `time.time`.

    Returns:
        True when ``owner`` holds the lease now.
    """
    if ttl <= 0:
        raise InvalidInput("ttl", "must be > 0")
    wall = time.time() if now is None else now
    c = leases.c
    with _transaction(conn):
        taken = conn.execute(
            sa.update(leases)
            .where(c.name == name, sa.or_(c.owner == owner, c.expires <= wall))
            .values(
                owner=owner,
                expires=wall + ttl,
                acquired_at=sa.case((c.owner == owner, c.acquired_at), else_=wall),
            )
        ).rowcount
        if taken == 1:
            return True
        if _insert_if_absent(
            conn, {"name": name, "owner": owner, "expires": wall + ttl, "acquired_at": wall}
        ):
            return True
        holder = conn.execute(sa.select(c.owner).where(c.name == name)).scalar()
        if holder is None or not owner_is_dead(str(holder)):
            return False
        # The holder was a process on this host that died: take over without waiting for ttl.
        # The owner in the WHERE clause makes this a compare-and-swap against other takers.
        return bool(
            conn.execute(
                sa.update(leases)
                .where(c.name == name, c.owner == holder)
                .values(owner=owner, expires=wall + ttl, acquired_at=wall)
            ).rowcount
            == 1
        )


def renew_lease(
    conn: sa.Connection, name: str, owner: str, ttl: float, *, now: float | None = None
) -> bool:
    """Extend a lease ``owner`` still holds; False when it lapsed and someone else took it.

    A lapsed lease that nobody took over yet is renewed (the owner never really lost it).
    """
    wall = time.time() if now is None else now
    c = leases.c
    with _transaction(conn):
        return bool(
            conn.execute(
                sa.update(leases)
                .where(c.name == name, c.owner == owner)
                .values(expires=wall + ttl)
            ).rowcount
            == 1
        )


def release_lease(conn: sa.Connection, name: str, owner: str) -> bool:
    """Give the lease up; False when ``owner`` did not hold it (nothing changes then)."""
    c = leases.c
    with _transaction(conn):
        return bool(
            conn.execute(sa.delete(leases).where(c.name == name, c.owner == owner)).rowcount == 1
        )


def lease_holder(
    conn: sa.Connection, name: str, *, now: float | None = None
) -> tuple[str, float] | None:
    """``(owner, expires)`` of a live lease, or None when it is free or lapsed."""
    wall = time.time() if now is None else now
    row = conn.execute(
        sa.select(leases.c.owner, leases.c.expires).where(leases.c.name == name)
    ).first()
    if row is None or row.expires <= wall:
        return None
    return str(row.owner), float(row.expires)


def _renewal(
    connect: Callable[[], sa.Connection], name: str, owner: str, ttl: float
) -> Callable[[], bool]:
    def beat() -> bool:
        with connect() as conn:
            return renew_lease(conn, name, owner, ttl)

    return beat


class HeldLease:
    """What `hold_lease` yields: whether the lease was acquired, and a way to check it is kept."""

    def __init__(self, acquired: bool, heartbeat: Heartbeat | None) -> None:
        self.acquired = acquired
        self._heartbeat = heartbeat

    def __bool__(self) -> bool:
        return self.acquired

    @property
    def lost(self) -> bool:
        """True once the heartbeat found another owner holding the lease."""
        return self._heartbeat is not None and self._heartbeat.lost

    def check(self) -> None:
        """Raise `LeaseLost` when the lease was taken over (call between units of work)."""
        if self.lost:
            raise LeaseLost("the lease lapsed and another worker took it over")


@contextlib.contextmanager
def hold_lease(
    connect: Callable[[], sa.Connection], name: str, owner: str, ttl: float = 60.0
) -> Iterator[HeldLease]:
    """Acquire ``name`` for the duration of a ``with`` block, renewed by a heartbeat thread.

    Example:
        >>> with hold_lease(ctx.write, "reembed:m", owner) as lease:  # doctest: +SKIP
        ...     if lease:
        ...         do_the_work(check=lease.check)

    Args:
        connect: Returns a new write connection (e.g. the store context's ``write``).
        name: The lease.
        owner: Who holds it.
        ttl: Seconds the lease survives without renewal (a dead worker's lease lapses after it).

    Yields:
        A `HeldLease`, falsy when another live worker holds the lease (the block should skip the
        work). The lease is released when the block exits, even on error.
    """
    with connect() as conn:
        acquired = acquire_lease(conn, name, owner, ttl)
    if not acquired:
        yield HeldLease(False, None)
        return
    # Renewed every third of the time-to-live: two missed renewals still keep the lease.
    beat = Heartbeat(_renewal(connect, name, owner, ttl), ttl / 3, name=f"lease-{name[:24]}")
    try:
        yield HeldLease(True, beat)
    finally:
        beat.stop()
        with contextlib.suppress(Exception), connect() as conn:
            # A failed release only delays the next worker by at most ``ttl``.
            release_lease(conn, name, owner)


def reembed_once(
    connect: Callable[[], sa.Connection],
    *,
    model_id: str,
    drain: Callable[..., int],
    owner: str,
    batch_size: int = 256,
    progress: Callable[[int, int], None] | None = None,
    ttl: float = 60.0,
) -> int:
    """Drain the store's re-embed queue in exactly one worker at a time.

    Every worker may call it; the one that gets the lease ``reembed:<model_id>`` drains the queue
    (renewing the lease from a heartbeat), the others return 0 at once. A worker that dies
    mid-way leaves the remaining vectors queued (each batch commits on its own) and its lease
    lapses after ``ttl`` — or at once for a dead process on the same host — so the next call
    resumes where it stopped.

    Args:
        connect: Returns a new write connection.
        model_id: The current embedding model (names the lease).
        drain: The unlocked drain loop, called with ``batch_size`` and ``progress``.
        owner: The lease owner id (`lease_owner_id`: host, process and caller).
        batch_size: Texts per embedding call (and per transaction).
        progress: Called with ``(done, total)`` after each batch.
        ttl: Lease time-to-live in seconds.

    Returns:
        How many vectors this call re-embedded (0 when another worker holds the lease).

    Raises:
        LeaseLost: This worker stalled longer than ``ttl`` and another took the queue over; the
            batches it committed are kept.
    """
    with hold_lease(connect, f"reembed:{model_id}", owner, ttl) as lease:
        if not lease:
            return 0

        def checked(done: int, total: int) -> None:
            lease.check()
            if progress is not None:
                progress(done, total)

        return int(drain(batch_size=batch_size, progress=checked))
