"""The Chinese recall set stays loadable, split, and cites turns that exist."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from benchmarks.zh_recall_check import DEFAULT_DATA, check


def test_shipped_set_is_well_formed_and_large_enough() -> None:
    errors, loaded = check(DEFAULT_DATA)
    assert errors == []
    splits = {split for split, _, _ in loaded}
    assert splits == {"dev", "blind"}
    assert sum(len(raw["qa"]) for _, _, raw in loaded) >= 150
    for split in ("dev", "blind"):
        assert sum(1 for s, _, _ in loaded if s == split) >= 3


def test_speakers_and_questions_are_chinese() -> None:
    _, loaded = check(DEFAULT_DATA)
    for _, name, raw in loaded:
        for q in raw["qa"]:
            assert any("\u4e00" <= ch <= "\u9fff" for ch in q["question"]), (name, q["question"])
        assert all("\u4e00" <= ch <= "\u9fff" for ch in raw["speaker_a"] + raw["speaker_b"]), name


def test_a_dangling_evidence_id_is_reported(tmp_path: Path) -> None:
    root = tmp_path / "zh_recall"
    shutil.copytree(DEFAULT_DATA, root)
    target = root / json.loads((root / "splits.json").read_text(encoding="utf-8"))["blind"][0]
    raw = json.loads(target.read_text(encoding="utf-8"))
    raw["qa"][0]["evidence"] = ["D9:99"]
    target.write_text(json.dumps(raw, ensure_ascii=False), encoding="utf-8")

    errors, _ = check(root)

    assert len(errors) == 1 and "D9:99" in errors[0]


def test_a_file_missing_from_the_splits_is_reported(tmp_path: Path) -> None:
    root = tmp_path / "zh_recall"
    shutil.copytree(DEFAULT_DATA, root)
    splits = json.loads((root / "splits.json").read_text(encoding="utf-8"))
    splits["dev"] = splits["dev"][1:]
    (root / "splits.json").write_text(json.dumps(splits), encoding="utf-8")

    errors, _ = check(root)

    assert any("splits.json" in e for e in errors)
