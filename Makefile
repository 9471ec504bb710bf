# Two commands for a new user: `make demo` and `make test`. Both set up .venv when missing.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: setup demo test test-min lint clean bench

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	# CPU torch first: a bare `torch` requirement would otherwise pull a multi-GB CUDA build.
	$(BIN)/python -m pip install -q torch==2.13.0
	$(BIN)/python -m pip install -q -e '.[local,server,cli,postgres,langchain,dev]'
	touch $(STAMP)

demo: setup
	$(BIN)/python examples/demo.py

lint: setup
	$(BIN)/ruff check langchain_tiered_memory tests benchmarks examples
	$(BIN)/mypy langchain_tiered_memory

test: setup lint
	$(BIN)/python -m pytest -q -p no:cacheprovider

# Not part of `make test` (CI): the lowest langchain-core / langgraph / langgraph-checkpoint that
# pyproject allows (constraints-min.txt), in a venv of their own, under the integration tests.
VENV_MIN := .venv-min
MIN_TESTS := tests/langgraph_store tests/history tests/tools/test_tools.py tests/consolidation
test-min:
	test -x $(VENV_MIN)/bin/python || $(PY) -m venv $(VENV_MIN)
	$(VENV_MIN)/bin/python -m pip install -q --upgrade pip
	$(VENV_MIN)/bin/python -m pip install -q -c constraints-min.txt -e . \
		pytest pytest-asyncio pytest-timeout hypothesis
	$(VENV_MIN)/bin/python -m pip list 2>/dev/null | grep -E '^(langchain-core|langgraph|langgraph-checkpoint) '
	$(VENV_MIN)/bin/python -m pytest -q -p no:cacheprovider $(MIN_TESTS) -k "not real_model"

bench: setup
	$(BIN)/python benchmarks/ingest.py

clean:
	rm -rf $(VENV) $(VENV_MIN) .pytest_cache .mypy_cache .ruff_cache
