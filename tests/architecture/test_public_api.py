"""The public API is a contract: `__all__` and the store facade's names and signatures.

The snapshot in ``public_api.txt`` changes only on purpose (regenerate with
``python -m tests.architecture.test_public_api > tests/architecture/public_api.txt``).
"""

from __future__ import annotations

import inspect
import re
import tempfile
from pathlib import Path

import langchain_tiered_memory as pkg
from langchain_tiered_memory import TieredMemoryStore
from tests.helpers import HashEmbeddings

SNAPSHOT = Path(__file__).with_name("public_api.txt")


def _store_lines() -> list[str]:
    with tempfile.TemporaryDirectory() as tmp:
        store = TieredMemoryStore(Path(tmp) / "api.db", embeddings=HashEmbeddings())
        try:
            return _member_lines(store)
        finally:
            store.close()


def _member_lines(store: TieredMemoryStore) -> list[str]:
    lines = []
    for name in sorted(n for n in dir(TieredMemoryStore) if not n.startswith("_")):
        member = inspect.getattr_static(TieredMemoryStore, name)
        if isinstance(member, property):
            lines.append(f"store.{name}: property{'' if member.fset is None else ' (settable)'}")
            continue
        bound = getattr(store, name)
        kind = "async " if inspect.iscoroutinefunction(bound) else ""
        try:
            sig = str(inspect.signature(bound))
        except (TypeError, ValueError):
            sig = "(...)"
        # Sentinel defaults print their address: keep the snapshot stable across runs.
        lines.append(f"store.{kind}{name}{re.sub(' at 0x[0-9a-f]+', '', sig)}")
    return lines


def snapshot() -> str:
    """The current public API, one line per name."""
    lines = [f"__all__ {name}" for name in sorted(pkg.__all__)]
    return "\n".join(lines + _store_lines()) + "\n"


def test_public_api_unchanged() -> None:
    assert snapshot() == SNAPSHOT.read_text(encoding="utf-8")


if __name__ == "__main__":
    print(snapshot(), end="")
