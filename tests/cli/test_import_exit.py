"""Issue 15: a failed or partial import exits non-zero and is not taken as done; dumps."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from langchain_tiered_memory.cli import app

EXPORTS = Path(__file__).parents[1] / "data" / "exports"
HASH = ["--embeddings", "hash"]


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, [*args, *HASH])
    return result.exit_code, result.output


def test_a_file_that_is_not_an_export_fails_and_can_be_rerun(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    for bad in ("not json at all {", json.dumps({"foo": 1})):
        path = tmp_path / "conversations.json"
        path.write_text(bad)
        code, out = invoke("import", str(path), "--db", db)
        assert code == 1, out
        code, out = invoke("import", str(path), "--db", db)
        assert code == 1 and "already imported" not in out  # tried again, not skipped
    # Fixed in place (same name): imported.
    shutil.copy(EXPORTS / "chatgpt_conversations.json", tmp_path / "conversations.json")
    code, out = invoke("import", str(tmp_path / "conversations.json"), "--db", db)
    assert code == 0 and "imported 2 conversations" in out, out


def test_the_right_format_on_a_second_run_imports(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    path = tmp_path / "chat.txt"
    shutil.copy(EXPORTS / "messages.jsonl", path)
    code, _ = invoke("import", str(path), "--db", db, "--format", "chatgpt")
    assert code == 1
    code, out = invoke("import", str(path), "--db", db, "--format", "jsonl")
    assert code == 0 and "nothing written" not in out, out


def test_a_truncated_export_is_partial(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    path = str(EXPORTS / "broken_truncated.json")
    code, out = invoke("import", path, "--db", db)
    assert code == 1, out
    code, out = invoke("import", path, "--db", db, "--allow-problems", "--json")
    assert code == 0 and json.loads(out)["failed"] is False


def test_export_to_a_positional_file_and_import_twice(tmp_path: Path) -> None:
    db = str(tmp_path / "m.db")
    assert invoke("add", "Dana prefers oat milk", "--db", db, "--key", "pref.milk",
                  "--user")[0] == 0
    dump = tmp_path / "dump.jsonl"
    code, out = invoke("export", str(dump), "--db", db)  # as the README writes it
    assert code == 0, out
    records = [json.loads(line) for line in dump.read_text().splitlines()]
    [memory] = [r for r in records if r["record"] == "memory"]
    assert isinstance(memory["tags"], list)  # a JSON list, not a JSON-encoded string
    copy = str(tmp_path / "copy.db")
    code, out = invoke("import-jsonl", str(dump), "--db", copy)
    assert code == 0, out
    code, out = invoke("import-jsonl", str(dump), "--db", copy)
    assert code == 1 and "already in this store" in out and "UNIQUE" not in out


def test_options_are_checked_before_the_store_is_opened(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["search", "x", "--mode", "bogus",
                                      "--db", str(tmp_path / "never.db")])
    assert result.exit_code == 2 and "bogus" in result.output
    assert not (tmp_path / "never.db").exists()
