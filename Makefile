# Quick start: `make run` (the main job on the default config) and `make test`
# (the whole suite). Each installs what it needs into .venv on first use.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
EXTRAS ?= test,ray

.PHONY: install run test lint typecheck bench clean native pure baseline check-balance

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# The hot modules compiled with mypyc (rnsim/compiled.py TARGETS: Red Notice's
# engine and expert, FBI's engine and expert; about 3x, 1.4x and 2x faster).
# build_native.py --stale rebuilds only the builds missing or older than the
# sources they were built from (the stamps are the one record of that), two
# at a time. A build that fails leaves its Python source in use: same
# results, slower.
native: $(STAMP)
	$(BIN)/python -c "import mypyc" 2>/dev/null || $(BIN)/python -m pip install --quiet mypy
	$(BIN)/python scripts/build_native.py --stale || echo "warning: some compiled modules not built; using their Python source"

pure:
	$(BIN)/python scripts/build_native.py --clean

install: $(STAMP) native

run: install
	$(BIN)/rnsim run configs/classic.toml

# One pytest worker per core (pytest-xdist); a test file's tests stay on one
# worker (--dist loadfile), so module fixtures such as the Ray cluster start once.
test: install
	$(BIN)/python -m pytest -n auto --dist loadfile tests

lint: install
	$(BIN)/ruff check rnsim strategies tests
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
	rm -rf $(VENV) build *.egg-info
	rm -f rnsim/games/*/engine/*.so rnsim/games/*/*.so strategies/*/*.so
	rm -f rnsim/games/*/engine/_native.sha256 rnsim/games/*/_native.sha256 strategies/*/_native.sha256
