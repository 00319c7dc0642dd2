# Quick start: `make run` (the main job on the default config) and `make test`
# (the whole suite). Each installs what it needs into .venv on first use.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml setup.py | cksum | cut -d' ' -f1)
EXTRAS ?= test,ray,docs

.PHONY: install run test lint typecheck bench clean native pure baseline check-balance docs

# setup.py is the one build (of the wheel, `pip install .` and this): the
# packages, and the compiled builds of the hot modules (rnsim/compiled.py
# TARGETS: Red Notice's engine and expert, with the dossier's C core, FBI's
# engine and expert, and the engines' shared chance draws; about 3x, 1.4x and
# 2x faster), compiled here in place, each game's engine and expert in one
# build (rnsim/compiled.py native_deps).
# The build requirements go into .venv first, so the editable install builds
# with them (--no-build-isolation) and the compiled builds are made once.
$(STAMP): pyproject.toml setup.py
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip "setuptools>=70.1" "mypy>=1.8" "msgspec>=0.18"
	$(BIN)/python setup.py -q build_ext --inplace
	$(BIN)/python -m pip install --quiet --no-build-isolation -e ".[$(EXTRAS)]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# Rebuilds only the compiled builds missing or older than the sources they
# were built from (their stamps are the one record of that), two compilers at
# a time; nothing when they are fresh. A build that fails leaves its Python
# source in use (same results, slower; setup.py warns, and the last line says
# what runs).
native: $(STAMP)
	$(BIN)/python setup.py -q build_ext --inplace
	@$(BIN)/python -c "from rnsim.compiled import chosen; print('build:', ', '.join(f'{k} {v}' for k, v in chosen().items()))"

pure:
	$(BIN)/python setup.py -q clean_compiled

install: $(STAMP) native

run: install
	$(BIN)/rnsim run configs/classic.toml

# One pytest worker per core (pytest-xdist); a test file's tests stay on one
# worker (--dist loadfile), so module fixtures such as the Ray cluster start once.
test: install
	$(BIN)/python -m pytest -n auto --dist loadfile tests

lint: install
	$(BIN)/ruff check rnsim strategies tests setup.py
	$(BIN)/mypy

# The benchmark suite (benchmarks/, airspeed velocity; docs/performance.md).
# `make bench` runs it in full and keeps the results in .asv/results under the
# current commit (`.venv/bin/asv publish && .venv/bin/asv preview`: each
# benchmark plotted over commits); `make bench MODE=short` (CI) runs each
# benchmark once at small sizes and keeps nothing.
MODE ?= full
ASV_FLAGS_full = --set-commit-hash=$$(git rev-parse HEAD)
ASV_FLAGS_short = --quick --dry-run
bench: install
	$(BIN)/python -c "import asv" 2>/dev/null || $(BIN)/python -m pip install --quiet -e ".[$(EXTRAS),bench]"
	$(BIN)/asv machine --yes >/dev/null
	RNSIM_BENCH=$(MODE) $(BIN)/asv run --python=same --show-stderr $(ASV_FLAGS_$(MODE))

# The balance gate (run by .ci/run): `make check-balance` tests the current code
# against configs/ci/baseline.json (Red Notice) and configs/ci/fbi-baseline.json
# (FBI's cell); `make baseline` regenerates both after a change that moves the
# balance on purpose (commit them with the change).
baseline: install
	$(BIN)/rnsim baseline save configs/ci/config.toml --out configs/ci/baseline.json
	$(BIN)/rnsim baseline save configs/ci/fbi.toml --out configs/ci/fbi-baseline.json

check-balance: install
	$(BIN)/rnsim check --baseline configs/ci/baseline.json
	$(BIN)/rnsim check --baseline configs/ci/fbi-baseline.json

clean:
	test ! -x $(BIN)/python || $(BIN)/python setup.py -q clean_compiled
	rm -rf $(VENV) build *.egg-info

# The manual as a website in site/ (mkdocs.yml): strict, so a broken link,
# anchor or API reference fails. The docs' commands run in tests/test_docs.py.
docs: install
	NO_MKDOCS_2_WARNING=1 $(BIN)/mkdocs build --quiet
