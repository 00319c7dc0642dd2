# Quick start: `make run` (the main job on the default config) and `make test`
# (the whole suite). Each installs what it needs into .venv on first use.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
EXTRAS ?= test,ray

.PHONY: install run test lint typecheck bench clean

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

install: $(STAMP)

run: install
	$(BIN)/rnsim play --seed 1

test: install
	$(BIN)/python -m pytest -q tests

lint: install
	$(BIN)/ruff check rnsim strategies tests
	$(BIN)/mypy

bench: install
	$(BIN)/rnsim bench

clean:
	rm -rf $(VENV) build *.egg-info
