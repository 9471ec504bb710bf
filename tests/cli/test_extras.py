"""A missing optional dependency names the extra that installs it."""

from __future__ import annotations

import subprocess
import sys

import pytest

_BLOCK = "import sys; sys.modules[{name!r}] = None; "


def _run(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120)


def test_cli_without_typer_names_the_cli_extra() -> None:
    done = _run(_BLOCK.format(name="typer")
                + "from langchain_tiered_memory._entry import main; main()")
    assert done.returncode == 1
    assert "pip install 'langchain-tiered-memory[cli]'" in done.stderr
    assert "Traceback" not in done.stderr


def test_serve_without_fastapi_names_the_server_extra(tmp_path) -> None:  # type: ignore[no-untyped-def]
    done = _run(_BLOCK.format(name="uvicorn")
                + "import os; os.environ['TIERED_MEMORY_TOKENS'] = 't=a'; "
                + "sys.argv = ['tiered-memory', 'serve', '--db', "
                + repr(str(tmp_path / "m.db")) + "]; "
                + "from langchain_tiered_memory._entry import main; main()")
    assert done.returncode == 2
    assert "langchain-tiered-memory[server]" in done.stderr.replace("\n", " ").replace("│", "")


@pytest.mark.parametrize("blocked", ["langchain.agents.middleware", "langchain"])
def test_middleware_without_langchain_names_the_extra(blocked: str) -> None:
    done = _run(_BLOCK.format(name=blocked)
                + "from langchain_tiered_memory.middleware import TieredMemoryMiddleware")
    assert done.returncode == 1
    assert "MissingExtra" in done.stderr
    assert "pip install 'langchain-tiered-memory[langchain]'" in done.stderr
