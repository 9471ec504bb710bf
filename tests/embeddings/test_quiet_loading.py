"""Loading the local model is quiet unless asked (issue 15: every example printed
``Loading weights: 100%|…`` to stderr)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator

import pytest
from huggingface_hub.utils import (
    are_progress_bars_disabled,
    disable_progress_bars,
    enable_progress_bars,
)
from transformers.utils import logging as transformers_logging

from langchain_tiered_memory.embeddings import LocalEmbeddings, _progress_bars_off


@pytest.fixture
def bars_state() -> Iterator[None]:
    """Whatever a test sets, the process gets its progress-bar switches back."""
    transformers_on = transformers_logging.is_progress_bar_enabled()
    hub_off = are_progress_bars_disabled()
    yield
    (
        transformers_logging.enable_progress_bar
        if transformers_on
        else transformers_logging.disable_progress_bar
    )()
    (disable_progress_bars if hub_off else enable_progress_bars)()


def test_loading_the_model_writes_nothing_to_stderr(
    capfd: pytest.CaptureFixture[str], bars_state: None
) -> None:
    transformers_logging.enable_progress_bar()
    model = LocalEmbeddings()
    assert len(model.embed_query("a quiet start")) == 384
    out, err = capfd.readouterr()
    assert "Loading weights" not in err
    assert err == "" and out == ""
    # The switch was put back: the user's own progress bars still show.
    assert transformers_logging.is_progress_bar_enabled()
    assert not are_progress_bars_disabled()


def test_verbose_shows_the_progress_bar(
    capfd: pytest.CaptureFixture[str], bars_state: None
) -> None:
    transformers_logging.enable_progress_bar()
    LocalEmbeddings(verbose=True).embed_query("a chatty start")
    _, err = capfd.readouterr()
    assert "Loading weights" in err


@pytest.mark.parametrize(
    ("transformers_on", "hub_on"), list(itertools.product([True, False], repeat=2))
)
def test_the_previous_switches_are_restored(
    bars_state: None, transformers_on: bool, hub_on: bool
) -> None:
    (
        transformers_logging.enable_progress_bar
        if transformers_on
        else transformers_logging.disable_progress_bar
    )()
    (enable_progress_bars if hub_on else disable_progress_bars)()
    with pytest.raises(KeyError), _progress_bars_off():
        assert not transformers_logging.is_progress_bar_enabled()
        assert are_progress_bars_disabled()
        raise KeyError("a failed load restores them too")
    assert transformers_logging.is_progress_bar_enabled() == transformers_on
    assert are_progress_bars_disabled() == (not hub_on)
