"""Context assembly: the L0-L3 system-prompt block.

The store gathers the candidates of each level; `langchain_tiered_memory.context.layout_levels`
fits them into the token budget and renders the markdown.
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa

from ..context import ContextBlock, ContextItem, layout_levels
from ..errors import InvalidInput
from ..types import MemoryEntry, MemoryTier, MemoryType
from . import _tables as t
from ._db import db_errors
from ._episodes import Episodes
from ._reads import Reads
from ._recall import Recall
from ._rows import check_limit, check_namespace
from ._shared import StoreContext

_IDENTITY_PREFIXES = ("identity.", "name", "user.name", "profile.name")
_IDENTITY_WORDS = ("language", "locale", "lang")


def _is_identity(entry: MemoryEntry) -> bool:
    key = entry.key.lower()
    if key.startswith(_IDENTITY_PREFIXES) or "identity" in entry.tags:
        return True
    return entry.type == MemoryType.USER and any(w in key for w in _IDENTITY_WORDS)


def _core_rank(entry: MemoryEntry) -> tuple[bool, float, str]:
    # Which core entries survive a tight budget: pinned first, then the most important.
    return (not entry.pinned, -entry.importance, entry.key)


class ContextBlocks:
    """`context` / `context_block`: identity, core snapshot, recall and episodes for a prompt."""

    def __init__(self, ctx: StoreContext, reads: Reads, recall: Recall, episodes: Episodes) -> None:
        self._ctx = ctx
        self._reads = reads
        self._recall = recall
        self._episodes = episodes

    def context_block(
        self,
        namespace: str = "default",
        query: str | None = None,
        *,
        budget: int | None = None,
        k: int = 8,
        episodes: int = 2,
        links: bool = True,
        reinforce: bool = False,
    ) -> ContextBlock:
        """Assemble the memory block and report what went in (see `context`)."""
        check_namespace(namespace)
        if query is not None and not isinstance(query, str):
            raise InvalidInput("query", "must be a string or None")
        check_limit(budget, "budget", maximum=self._ctx.config.max_context_budget)
        check_limit(k, "k", optional=False)
        check_limit(episodes, "episodes", optional=False)
        total = self._ctx.config.context_token_budget if budget is None else int(budget)
        live = [
            e
            for e in self._reads.list(namespace=namespace, include_superseded=False)
            if e.tier != MemoryTier.ARCHIVAL or e.pinned
        ]
        identity = sorted((e for e in live if _is_identity(e)), key=lambda e: e.key)
        shown = {e.id for e in identity}
        core = sorted(
            (e for e in live if e.id not in shown and (e.pinned or e.type == MemoryType.USER)),
            key=_core_rank,
        )
        shown.update(e.id for e in core)
        levels: dict[str, list[ContextItem]] = {
            "L0": [ContextItem(e.content, e.id, "L0") for e in identity],
            "L1": [ContextItem(e.content, e.id, "L1") for e in core],
            "L2": [],
            "L3": [],
        }
        if query and query.strip():
            # The prompt gets what is believed now: archived entries (forgotten, decayed or
            # superseded) stay recallable through search, but are left out of the block.
            hits = self._recall.search(
                query,
                namespace=namespace,
                k=k,
                reinforce=reinforce,
                tiers=(MemoryTier.SEMANTIC, MemoryTier.EPISODIC, MemoryTier.WORKING),
            )
            recalled = [h.entry for h in hits if h.entry.id not in shown]
            levels["L2"] = [ContextItem(e.content, e.id, "L2") for e in recalled]
            shown.update(e.id for e in recalled)
            if episodes > 0:
                for episode, _score in self._episodes.search_episodes(
                    query, namespace=namespace, k=episodes
                ):
                    day = (episode.event_at or episode.created_at).date().isoformat()
                    levels["L3"].append(
                        ContextItem(f"({day}) {episode.summary}", episode.id, "L3", "episode")
                    )
            if links and recalled:
                for entry in self._linked(namespace, [e.id for e in recalled]):
                    if entry.id not in shown and entry.superseded_by is None:
                        shown.add(entry.id)
                        levels["L3"].append(ContextItem(entry.content, entry.id, "L3", "link"))
        return layout_levels(levels, total)

    def context(
        self,
        namespace: str = "default",
        query: str | None = None,
        *,
        budget: int | None = None,
        k: int = 8,
        episodes: int = 2,
        links: bool = True,
        reinforce: bool = False,
    ) -> str:
        """The memory block for a system prompt, in levels, within a token budget.

        L0 identity (name, language) and L1 core snapshot (pinned and USER entries) are always
        included and ordered by text, so the block's start is stable across turns (cache-friendly
        prompts). With a ``query``, L2 adds what recall finds for it and L3 the best episode
        summaries and entries linked to the recalled ones. Each level gets a share of ``budget``
        (L0 up to half, then L1/L2/L3 40/45/15 of the rest), unused share passing on; tokens are estimated as one per
        CJK character plus one per four other characters.

        Args:
            namespace: Whose memory.
            query: The current user message (enables L2 and L3).
            budget: Token budget (default ``memory.contextTokenBudget``, at most
                ``memory.maxContextBudget``; a larger one is `InvalidInput`).
            k: Entries L2 recall considers.
            episodes: Episode summaries L3 considers.
            links: Add entries linked to the recalled ones to L3.
            reinforce: Count the recalled entries as accessed.

        Returns:
            Markdown starting with ``## Memory``, or "" when the namespace holds nothing relevant.
        """
        return self.context_block(
            namespace,
            query,
            budget=budget,
            k=k,
            episodes=episodes,
            links=links,
            reinforce=reinforce,
        ).text

    def _linked(self, namespace: str, ids: Sequence[str]) -> list[MemoryEntry]:
        if not ids:
            return []
        lk = t.links.c
        with db_errors("read memory links"), self._ctx.read() as conn:
            rows = conn.execute(
                sa.select(lk.a, lk.b)
                .where(lk.namespace == namespace, sa.or_(lk.a.in_(ids), lk.b.in_(ids)))
                .order_by(lk.created_at, lk.a, lk.b)
            ).all()
        wanted = set(ids)
        others = [r.b if r.a in wanted else r.a for r in rows]
        found = self._reads.get_many(others, namespace=namespace)
        return [found[i] for i in dict.fromkeys(others) if i in found]


