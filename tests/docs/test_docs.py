"""Every ```python block of docs/*.md runs, page by page, in a temporary directory."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parents[2] / "docs"
_BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)


def python_blocks(text: str) -> list[str]:
    """The ```python fenced blocks of a markdown page, in order."""
    return _BLOCK.findall(text)


PAGES = sorted(DOCS.glob("*.md"))


def test_every_integration_point_has_a_page() -> None:
    names = {p.stem for p in PAGES}
    assert names >= {
        "retriever",
        "history",
        "consolidation",
        "langgraph-store",
        "tools",
        "embeddings",
        "cli",
        "rest",
        "migration",
    }


def test_block_extraction() -> None:
    text = "intro\n```python\nx = 1\n```\n```bash\nls\n```\n```python\ny = x\n```\n"
    assert python_blocks(text) == ["x = 1\n", "y = x\n"]


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_snippets_run(page: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, object] = {"__name__": f"docs_{page.stem.replace('-', '_')}"}
    for i, block in enumerate(python_blocks(page.read_text(encoding="utf-8"))):
        code = compile(block, f"{page.name}[block {i}]", "exec")
        exec(code, namespace)
