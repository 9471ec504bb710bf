"""The ``tiered-memory`` console script: names the extra to install when the CLI's are missing."""

from __future__ import annotations

import sys

_CLI_DEPENDENCIES = frozenset({"typer", "rich", "click"})


def main() -> None:
    """Run the command line, or say which extra installs it."""
    try:
        from .cli import main as run
    except ImportError as exc:
        root = (exc.name or "").split(".")[0]
        if root not in _CLI_DEPENDENCIES:
            raise
        sys.stderr.write(
            f"tiered-memory needs the 'cli' extra ({root} is not installed): "
            "pip install 'langchain-tiered-memory[cli]'\n"
        )
        raise SystemExit(1) from None
    run()
