# `make run` and `make test` do everything on a fresh machine: venv, install, migrate, serve / test.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
HOST   ?= 127.0.0.1
PORT   ?= 8000
WORKERS ?= 1

.PHONY: run test test-browser bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e .
	touch $@

$(VENV)/.installed-test: pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e '.[test,train]'
	touch $@ $(VENV)/.installed

# `parlour serve` migrates once, then starts the workers (more than one wants PostgreSQL).
run: $(VENV)/.installed
	$(BIN)/parlour serve --host $(HOST) --port $(PORT) --workers $(WORKERS)

test: $(VENV)/.installed-test
	$(BIN)/python -m pytest

test-browser: $(VENV)/.installed-test
	$(BIN)/python -m pytest -m browser

bench: $(VENV)/.installed-test
	$(BIN)/pip install --quiet -e '.[bench]'
	$(BIN)/parlour bench tictactoe --peers

clean:
	rm -rf $(VENV) parlour.db parlour.db-wal parlour.db-shm
