# Two commands for a fresh machine: `make demo` and `make test`.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: demo test test-slow lint typecheck bench clean install

$(STAMP): pyproject.toml
	@test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -e '.[test,charts,notebooks,simulate,bench,distributed,report,excel]'
	@touch $(STAMP)

install: $(STAMP)

demo: $(STAMP)
	$(BIN)/swissframe demo

# (one pytest worker a core: the suite is CPU-bound, 13 min on one core of 2, 4–7 on both)
test: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist worksteal
	$(BIN)/python -m mypy
	$(BIN)/python -m ruff check swissframe tests

test-slow: $(STAMP)
	$(BIN)/python -m pytest -q -n auto --dist worksteal -m slow

bench: $(STAMP)
	$(BIN)/python benchmarks/run.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
