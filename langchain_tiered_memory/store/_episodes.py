"""The EPISODIC tier: session summaries, stored and searched like memories."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from datetime import datetime

import sqlalchemy as sa

from ..errors import InvalidInput
from ..provenance import WritePath
from ..retrieval.engine import IndexSource, RecallRequest, recall
from ..text import tokenize
from ..types import Episode, MemoryTier
from . import _tables as t
from ._db import db_errors, dumps, to_ts
from ._db_episodes import episode_candidates
from ._episode_retention import EpisodeRetention
from ._rows import (
    Draft,
    check_limit,
    check_namespace,
    check_time,
    episode_from_row,
    vector_row,
)
from ._shared import StoreContext
from ._writer import Writer


class Episodes:
    """`add_episode`, `get_episode`, `list_episodes`, `search_episodes`."""

    def __init__(self, ctx: StoreContext, writer: Writer, retention: EpisodeRetention) -> None:
        self._ctx = ctx
        self._writer = writer
        self._retention = retention

    def add_episode(
        self, episode: Episode, *, path: WritePath = WritePath.CONSOLIDATION
    ) -> Episode:
        """Store an episode (its summary goes through the scanner like any memory content).

        When the namespace then holds more live episodes than ``memory.episodeRetention``, the
        least important move to ARCHIVAL in the same transaction (possibly this one).

        Raises:
            MemoryWriteBlocked: The summary or an entity id was refused.
        """
        if not isinstance(episode, Episode):
            raise InvalidInput("episode", "must be an Episode")
        check_namespace(episode.namespace)
        if not episode.summary.strip():
            raise InvalidInput("summary", "must be a non-empty string")
        if not 0.0 <= episode.importance <= 1.0:
            raise InvalidInput("importance", "must be between 0 and 1")
        if episode.tier not in (MemoryTier.EPISODIC, MemoryTier.ARCHIVAL):
            raise InvalidInput("tier", "an episode is EPISODIC or ARCHIVAL")
        draft = Draft(
            content=episode.summary,
            namespace=episode.namespace,
            tags=tuple(e for e in episode.entity_ids if e.strip()),
            metadata=dict(episode.metadata),
        )
        draft = self._writer.guard(draft, path, None)
        # What the PII policy redacted is what gets stored, in every field.
        episode = replace(
            episode, summary=draft.content, entity_ids=draft.tags, metadata=draft.metadata
        )
        self.insert_episodes([episode], path)
        return episode

    def insert_episodes(self, episodes: Sequence[Episode], path: WritePath) -> None:
        """Embed and insert already-guarded episodes, their vectors and audit rows, in one
        transaction (executemany per table), then apply each namespace's retention budget."""
        if not episodes:
            return
        matrix = self._ctx.embed([e.summary for e in episodes])
        rows, vectors, audit = [], [], []
        for ep, vector in zip(episodes, matrix, strict=True):
            rows.append(
                {
                    "id": ep.id,
                    "namespace": ep.namespace,
                    "session_key": ep.session_key,
                    "summary": ep.summary,
                    "message_range_start": ep.message_range_start,
                    "message_range_end": ep.message_range_end,
                    "entity_ids": dumps(list(ep.entity_ids)),
                    "importance": ep.importance,
                    "created_at": to_ts(ep.created_at),
                    "event_at": to_ts(ep.event_at),
                    "metadata": dumps(dict(ep.metadata)),
                    "terms": " ".join(tokenize(ep.summary + " " + " ".join(ep.entity_ids))),
                    "tier": MemoryTier(ep.tier).value,
                }
            )
            vectors.append(vector_row(ep.id, "episode", ep.namespace, self._ctx.model_id, vector))
            audit.append(
                self._ctx.audit_row(
                    "episode_add",
                    ep.namespace,
                    entry_id=ep.id,
                    actor=path.value,
                    new=dumps({"summary": ep.summary}),
                )
            )
        with db_errors("write episodes"), self._ctx.write() as conn, conn.begin():
            conn.execute(sa.insert(t.episodes), rows)
            conn.execute(sa.insert(t.vectors), vectors)
            conn.execute(sa.insert(t.audit_log), audit)
            self._ctx.episodes_changed(conn, [ep.id for ep in episodes])
            for namespace in sorted({ep.namespace for ep in episodes}):
                self._retention.apply_budget(conn, namespace, self._ctx.now())

    def get_episode(self, episode_id: str, *, namespace: str | None = None) -> Episode | None:
        """The episode with this id (within ``namespace`` when given), or None."""
        if not isinstance(episode_id, str):
            raise InvalidInput("episode_id", "must be a string")
        query = sa.select(t.episodes).where(t.episodes.c.id == episode_id)
        if namespace is not None:
            query = query.where(t.episodes.c.namespace == check_namespace(namespace))
        with db_errors("read an episode"), self._ctx.read() as conn:
            row = conn.execute(query).first()
        return episode_from_row(row) if row else None

    def list_episodes(
        self,
        *,
        namespace: str = "default",
        session_key: str | None = None,
        entity: str | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
        limit: int | None = None,
        tier: MemoryTier | None = None,
    ) -> list[Episode]:
        """Episodes of a namespace, newest first, filtered by session, entity, time and tier
        (EPISODIC or ARCHIVAL; default both)."""
        check_namespace(namespace)
        check_time(since, "since")
        check_time(until, "until")
        check_limit(limit, "limit")
        e = t.episodes.c
        query = sa.select(t.episodes).where(e.namespace == namespace)
        if session_key is not None:
            query = query.where(e.session_key == session_key)
        if tier is not None:
            if tier not in (MemoryTier.EPISODIC, MemoryTier.ARCHIVAL):
                raise InvalidInput("tier", "an episode is EPISODIC or ARCHIVAL")
            query = query.where(e.tier == MemoryTier(tier).value)
        if since is not None:
            query = query.where(e.created_at >= to_ts(since))
        if until is not None:
            query = query.where(e.created_at < to_ts(until))
        query = query.order_by(e.created_at.desc())
        with db_errors("list episodes"), self._ctx.read() as conn:
            out = [episode_from_row(r) for r in conn.execute(query)]
        if entity is not None:
            out = [ep for ep in out if entity in ep.entity_ids]
        return out[:limit] if limit is not None else out

    def episode_ids_for_sessions(
        self, session_keys: Iterable[str], *, namespace: str
    ) -> dict[str, str]:
        """Map each of ``session_keys`` that already has an episode to that episode's id.

        Lets a resumed import or consolidation skip the episodes it wrote before a crash.
        """
        check_namespace(namespace)
        keys = sorted(set(session_keys))
        out: dict[str, str] = {}
        e = t.episodes.c
        with db_errors("read episodes"), self._ctx.read() as conn:
            for start in range(0, len(keys), 500):
                rows = conn.execute(
                    sa.select(e.session_key, e.id).where(
                        e.namespace == namespace, e.session_key.in_(keys[start : start + 500])
                    )
                )
                out.update({r.session_key: r.id for r in rows})
        return out

    def search_episodes(
        self,
        query: str,
        *,
        namespace: str = "default",
        k: int = 5,
        entities: Iterable[str] | None = None,
        since: datetime | None = None,
        until: datetime | None = None,
    ) -> list[tuple[Episode, float]]:
        """Episodes that best answer ``query`` (the memories' recall engine), with entity and time filters.

        ARCHIVAL episodes are included, their score times ``memory.archivedWeight``.
        """
        check_namespace(namespace)
        if not isinstance(query, str):
            raise InvalidInput("query", "must be a string")
        check_limit(k, "k", optional=False)
        if isinstance(entities, str):
            raise InvalidInput("entities", "must be a list of strings")
        # Compared with aware timestamps below: a naive or non-datetime bound is refused here.
        for name, bound in (("since", since), ("until", until)):
            if check_time(bound, name) is not None and bound.tzinfo is None:  # type: ignore[union-attr]
                raise InvalidInput(name, "must be timezone-aware")
        if k <= 0 or not query.strip():
            return []
        # Entity and time filters need the episode rows: rank a wider page, filter it below.
        page = max(self._ctx.config.candidate_pool, k * 3)
        tokens = tokenize(query)
        request = RecallRequest(tokens, self._ctx.query_vector(query), page, "hybrid", None, query)
        pushdown = self._ctx.pushdown()
        if pushdown is not None:  # search pushdown: the database holds the episode index
            with episode_candidates(pushdown.engine, namespace, model_id=self._ctx.model_id,
                                    tokens=tokens) as source:
                ranked_candidates = recall(source, request, config=self._ctx.config)
        else:
            with self._ctx.index(namespace) as index:
                ranked_candidates = recall(
                    IndexSource(index.episode_keyword, index.episode_vectors, index.lock),
                    request, config=self._ctx.config)
        wanted = set(entities or ())
        ranked = [(c.id, c.score) for c in ranked_candidates]
        # One query for every candidate rather than one per candidate.
        e = t.episodes.c
        with db_errors("read episodes"), self._ctx.read() as conn:
            rows = conn.execute(
                sa.select(t.episodes).where(
                    e.id.in_([i for i, _ in ranked]), e.namespace == namespace
                )
            )
            found = {r.id: episode_from_row(r) for r in rows}
        out: list[tuple[Episode, float]] = []
        for episode_id, score in ranked:
            episode = found.get(episode_id)
            if episode is None:
                continue
            when = episode.event_at or episode.created_at
            if wanted and not wanted.intersection(episode.entity_ids):
                continue
            if (since and when < since) or (until and when >= until):
                continue
            if episode.tier == MemoryTier.ARCHIVAL:
                # Archived episodes stay findable, weighted like archived memories.
                score *= self._ctx.config.archived_weight
            out.append((episode, score))
        out.sort(key=lambda pair: pair[1], reverse=True)
        return out[:k]
