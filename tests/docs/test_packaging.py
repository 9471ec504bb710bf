"""`make test-min` installs exactly the lower bounds pyproject.toml declares."""

from __future__ import annotations

import re
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parents[2]


def test_min_constraints_are_the_declared_lower_bounds() -> None:
    deps = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]
    lower = {}
    for dep in deps:
        found = re.fullmatch(r"([A-Za-z0-9_.-]+)>=([0-9.]+)", dep.replace(" ", ""))
        if found:
            lower[found[1].lower()] = found[2]
    pins = {}
    for line in (ROOT / "constraints-min.txt").read_text().splitlines():
        if line.strip() and not line.startswith("#"):
            name, version = line.split("==")
            pins[name.strip().lower()] = version.strip()
    assert set(pins) == {"langchain-core", "langgraph", "langgraph-checkpoint"}
    assert all(lower[name] == version for name, version in pins.items()), (pins, lower)
    makefile = (ROOT / "Makefile").read_text()
    assert "test-min:" in makefile and "constraints-min.txt" in makefile
    assert re.search(r"^test: .*", makefile, re.M) and "test-min" not in re.search(
        r"^test: .*", makefile, re.M)[0]  # type: ignore[index]
