"""The README's shell blocks run unattended, as written.

Blocks marked ``<!-- not run by tests/docs/test_readme_shell.py: why -->`` (``make test`` itself,
a server that runs until stopped) are skipped; every other ```` ```bash ```` block runs with
``bash -e`` in a temporary directory, with the hashing embedding (fast) and a ChatGPT export
named as the README names it.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parents[2] / "README.md"
EXPORTS = Path(__file__).resolve().parents[1] / "data" / "exports"
_BLOCK = re.compile(r"(<!-- not run by [^>]*-->\s*)?```bash\n(.*?)```", re.DOTALL)


def shell_blocks(text: str) -> list[tuple[bool, str]]:
    """(runnable, code) for every bash block of a markdown text."""
    return [(not marker, code) for marker, code in _BLOCK.findall(text)]


def test_marker_parsing() -> None:
    text = "```bash\nls\n```\n<!-- not run by x: y -->\n```bash\nserve\n```\n"
    assert shell_blocks(text) == [(True, "ls\n"), (False, "serve\n")]


def test_readme_shell_blocks_run(tmp_path: Path) -> None:
    blocks = shell_blocks(README.read_text(encoding="utf-8"))
    runnable = [code for ok, code in blocks if ok]
    assert runnable and len(blocks) > len(runnable)  # some run, the marked ones do not
    shutil.copy(EXPORTS / "chatgpt_conversations.json", tmp_path / "conversations.json")
    env = {
        **os.environ,
        "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "TIERED_MEMORY_DB": str(tmp_path / "memory.db"),
        "TIERED_MEMORY_EMBEDDINGS": "hash",
        "TIERED_MEMORY_RERANK_ENABLED": "false",
        "HF_HUB_OFFLINE": "1",
    }
    for code in runnable:
        done = subprocess.run(["bash", "-e", "-c", code], cwd=tmp_path, env=env,
                              capture_output=True, text=True, timeout=600, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"{code}\n{done.stdout}\n{done.stderr}"
    assert (tmp_path / "dump.jsonl").stat().st_size > 0
    assert (tmp_path / "copy.db").is_file()
