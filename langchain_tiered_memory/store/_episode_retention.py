"""The EPISODIC tier's retention budget: episodes are kept by importance.

A namespace keeps at most ``memory.episodeRetention`` live (EPISODIC) episodes. Beyond it the least
important ones (ties: the oldest) move to ARCHIVAL: they stay searchable, down-weighted by
``memory.archivedWeight`` like archived memories, and `restore_episode` brings one back. The facts
a session produced are memories linked by ``episode_id``; archiving their episode leaves them as
they are. Every move writes an audit row (``episode_archive`` / ``episode_restore``).
"""

from __future__ import annotations

from datetime import datetime

import sqlalchemy as sa

from ..errors import EntryNotFound, IllegalTransition, InvalidInput
from ..provenance import WritePath
from ..types import Episode, MemoryTier
from . import _tables as t
from ._db import db_errors, dumps
from ._rows import check_namespace, episode_from_row
from ._shared import StoreContext

__all__ = ["EpisodeRetention"]

_CHUNK = 500


class EpisodeRetention:
    """`prune_episodes` and `restore_episode`; `add_episode` and `decay_pass` prune too."""

    def __init__(self, ctx: StoreContext) -> None:
        self._ctx = ctx

    def prune_episodes(
        self, *, namespace: str | None = None, now: datetime | None = None
    ) -> tuple[str, ...]:
        """Move the least important episodes of over-budget namespaces to ARCHIVAL.

        Args:
            namespace: Only this namespace (default: every namespace over its budget).
            now: The instant written in the audit rows (default: the store's clock).

        Returns:
            The ids of the episodes archived, least important first.
        """
        if namespace is not None:
            check_namespace(namespace)
        when = self._ctx.now(now)
        with (
            db_errors("archive episodes over the retention budget"),
            self._ctx.write() as conn,
            conn.begin(),
        ):
            return self.apply_budget(conn, namespace, when)

    def apply_budget(
        self, conn: sa.Connection, namespace: str | None, when: datetime
    ) -> tuple[str, ...]:
        """Apply the budget on ``conn``, inside the caller's write transaction."""
        budget = self._ctx.config.episode_retention
        if budget is None:
            return ()
        e = t.episodes.c
        live = e.tier == MemoryTier.EPISODIC.value
        if namespace is not None:
            namespaces = [namespace]  # the victims query below finds none when within budget
        else:
            namespaces = list(
                conn.execute(
                    sa.select(e.namespace)
                    .where(live)
                    .group_by(e.namespace)
                    .having(sa.func.count() > budget)
                ).scalars()
            )
        moved: list[str] = []
        for ns in namespaces:
            # Everything past the ``budget`` most important (ties: the newest) goes; one query.
            victims = conn.execute(
                sa.select(e.id, e.importance)
                .where(e.namespace == ns, live)
                .order_by(e.importance.desc(), e.created_at.desc(), e.id.desc())
                .offset(budget)
            ).all()[::-1]
            if not victims:
                continue
            ids = [v.id for v in victims]
            for start in range(0, len(ids), _CHUNK):
                conn.execute(
                    sa.update(t.episodes)
                    .where(e.id.in_(ids[start : start + _CHUNK]))
                    .values(tier=MemoryTier.ARCHIVAL.value)
                )
            reason = dumps({"budget": budget, "live_before": budget + len(victims)})
            conn.execute(
                sa.insert(t.audit_log),
                [
                    self._ctx.audit_row(
                        "episode_archive",
                        ns,
                        entry_id=v.id,
                        actor=WritePath.CONSOLIDATION.value,
                        old=dumps({"tier": MemoryTier.EPISODIC.value, "importance": v.importance}),
                        new=dumps({"tier": MemoryTier.ARCHIVAL.value}),
                        reason=reason,
                        now=when,
                    )
                    for v in victims
                ],
            )
            moved.extend(ids)
        return tuple(moved)

    def restore_episode(
        self,
        episode_id: str,
        *,
        namespace: str | None = None,
        importance: float | None = None,
        now: datetime | None = None,
    ) -> Episode:
        """Bring an archived episode back to the EPISODIC tier.

        The budget still holds: the next prune archives the least important live episode again,
        which may be this one unless it is given a higher ``importance`` here.

        Raises:
            EntryNotFound: No such episode (in ``namespace`` when given).
            IllegalTransition: The episode is not archived.
        """
        if not isinstance(episode_id, str):
            raise InvalidInput("episode_id", "must be a string")
        if importance is not None and (
            isinstance(importance, bool)
            or not isinstance(importance, int | float)
            or not 0.0 <= importance <= 1.0
        ):
            raise InvalidInput("importance", "must be between 0 and 1")
        when = self._ctx.now(now)
        e = t.episodes.c
        query = sa.select(t.episodes).where(e.id == episode_id)
        if namespace is not None:
            query = query.where(e.namespace == check_namespace(namespace))
        with db_errors("restore an episode"), self._ctx.write() as conn, conn.begin():
            row = conn.execute(query).first()
            if row is None:
                raise EntryNotFound(episode_id)
            before = episode_from_row(row)
            if before.tier != MemoryTier.ARCHIVAL:
                raise IllegalTransition(f"cannot restore episode {episode_id}: it is not archived")
            values: dict[str, object] = {"tier": MemoryTier.EPISODIC.value}
            if importance is not None:
                values["importance"] = float(importance)
            conn.execute(sa.update(t.episodes).where(e.id == episode_id).values(**values))
            self._ctx.audit(
                conn,
                "episode_restore",
                before.namespace,
                entry_id=episode_id,
                actor=WritePath.API.value,
                old=dumps({"tier": before.tier.value, "importance": before.importance}),
                new=dumps(values),
                now=when,
            )
            after = conn.execute(sa.select(t.episodes).where(e.id == episode_id)).one()
        return episode_from_row(after)

