"""Store-wide invariants checked after crashes and concurrent runs (straight on the tables)."""

from __future__ import annotations

from collections import defaultdict

import sqlalchemy as sa

from langchain_tiered_memory.store import _tables as t

REMOVALS = ("delete", "purge", "gc_purge")


def consistency_problems(url: str) -> list[str]:
    """Every broken invariant, as a readable line; empty when the store is consistent.

    - every entry and episode has its vector, every vector its owner;
    - every ``superseded_by`` names an existing entry of the same namespace and key with a higher
      version; at most one live (not superseded) version per key; versions unique per key;
    - the audit log matches the rows: every entry has its ``add`` row, every superseded entry
      its ``supersede`` row, and an entry that was added but is gone was removed on the record.
    """
    engine = sa.create_engine(url)
    problems: list[str] = []
    try:
        with engine.connect() as conn:
            m, v, e, a = t.memories.c, t.vectors.c, t.episodes.c, t.audit_log.c
            mems = {r.id: r for r in conn.execute(
                sa.select(m.id, m.namespace, m.key, m.version, m.superseded_by, m.status))}
            episodes = {r[0] for r in conn.execute(sa.select(e.id))}
            vecs = {(r.owner_id, r.kind) for r in conn.execute(sa.select(v.owner_id, v.kind))}
            vec_ids = {o for o, _ in vecs}
            problems += [f"entry {i} has no vector" for i in mems if i not in vec_ids]
            problems += [f"episode {i} has no vector" for i in episodes if i not in vec_ids]
            for owner, kind in vecs:
                if owner not in (mems if kind == "memory" else episodes):
                    problems.append(f"{kind} vector {owner} has no owner")
            live: dict[tuple[str, str], list[str]] = defaultdict(list)
            versions: dict[tuple[str, str], list[int]] = defaultdict(list)
            for row in mems.values():
                slot = (row.namespace, row.key)
                versions[slot].append(row.version)
                if row.superseded_by is None:
                    live[slot].append(row.id)
                    continue
                succ = mems.get(row.superseded_by)
                if succ is None:
                    problems.append(f"{row.id} superseded by missing {row.superseded_by}")
                elif succ.namespace != row.namespace:
                    problems.append(f"{row.id} superseded across namespaces")
                elif succ.key == row.key and succ.version <= row.version:
                    problems.append(f"{row.id} superseded by an older version")
            problems += [f"key {s} has live versions {ids}" for s, ids in live.items()
                         if len(ids) > 1]
            problems += [f"key {s} repeats versions {sorted(vs)}" for s, vs in versions.items()
                         if len(vs) != len(set(vs))]
            actions: dict[str, list[str]] = defaultdict(list)
            for row in conn.execute(
                sa.select(a.entry_id, a.action).where(a.entry_id.is_not(None)).order_by(a.seq)
            ):
                actions[row.entry_id].append(row.action)
            for entry_id, row in mems.items():
                if "add" not in actions.get(entry_id, []):
                    problems.append(f"entry {entry_id} has no add audit row")
                if row.superseded_by and "supersede" not in actions.get(entry_id, []):
                    problems.append(f"entry {entry_id} superseded without an audit row")
            for entry_id, acts in actions.items():
                if "add" in acts and entry_id not in mems and not set(acts) & set(REMOVALS):
                    problems.append(f"audit says {entry_id} was added, but it is gone")
    finally:
        engine.dispose()
    return problems
