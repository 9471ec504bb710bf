"""Entry ids sort beside their namespace's other ids, on every backend.

The primary-key index of ``tm_memories`` (and of the vector and knowledge tables keyed by the
same ids) then keeps each namespace's entries on a few neighbouring leaf pages, however their
writes were interleaved: a search's join from its candidates to their rows reads those pages
rather than one random leaf page per candidate (13 of the 27 pages the first search of a
16-memory namespace read at a million memories, before).
"""

from __future__ import annotations

import itertools
import uuid

import sqlalchemy as sa

from langchain_tiered_memory.store import _tables as t
from langchain_tiered_memory.types import new_id


def test_an_id_for_a_namespace_is_a_version_8_uuid_with_the_namespace_prefix():
    a, b = new_id("user-1"), new_id("user-1")
    other = new_id("user-2")
    for value in (a, b, other):
        parsed = uuid.UUID(value)
        assert parsed.version == 8
        assert parsed.variant == uuid.RFC_4122
        assert str(parsed) == value
    assert a != b
    assert a[:8] == b[:8] != other[:8]
    # The other 90 bits are random: a thousand ids of one namespace never repeat.
    assert len({new_id("user-1") for _ in range(1_000)}) == 1_000


def test_an_id_without_a_namespace_stays_a_uuid4():
    assert uuid.UUID(new_id()).version == 4


def test_interleaved_writes_keep_each_namespace_together_in_id_order(store):
    namespaces = [f"tenant-{n}" for n in range(12)]
    # Round-robin, one memory at a time: the rows interleave in the table, the ids must not.
    for i, ns in itertools.product(range(6), namespaces):
        store.add(f"note {i} of {ns}", namespace=ns)
    with store.engine.connect() as conn:
        order = conn.execute(
            sa.select(t.memories.c.namespace).order_by(t.memories.c.id)).scalars().all()
    runs = [ns for ns, _ in itertools.groupby(order)]
    assert sorted(runs) == sorted(namespaces), runs
    assert len(order) == 72
