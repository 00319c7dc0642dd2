# Quick start: `make run` (the main job on the default config) and `make test`
# (the whole suite). Each installs what it needs into .venv on first use.
PY ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
EXTRAS ?= test,ray

# Every module compiled (rnsim/compiled.py TARGETS) plus what mypy reads to
# compile them: the strategies build type-checks the whole strategies package
# (staged by scripts/build_native.py), the strategy base and the engine.
NATIVE_SRC := $(addprefix rnsim/games/red_notice/engine/,decision.py belief.py frames.py effects.py state.py view.py)
NATIVE_STAMP := rnsim/games/red_notice/engine/_native.sha256
STRAT_NATIVE_SRC := $(wildcard strategies/*.py strategies/red_notice/*.py) rnsim/strategy.py $(NATIVE_SRC) \
	scripts/build_native.py rnsim/compiled.py
STRAT_NATIVE_STAMP := strategies/red_notice/_native.sha256

.PHONY: install run test lint typecheck bench clean native pure baseline check-balance

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e ".[$(EXTRAS)]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

# The engine's hot modules compiled with mypyc (about 3x faster). If the
# build fails the Python source is used: same results, slower.
$(NATIVE_STAMP): $(STAMP) $(NATIVE_SRC)
	$(BIN)/python -c "import mypyc" 2>/dev/null || $(BIN)/python -m pip install --quiet mypy
	$(BIN)/python scripts/build_native.py engine || echo "warning: compiled engine not built; using the Python source"

# The expert strategy compiled the same way (about 1.4x faster expert games).
$(STRAT_NATIVE_STAMP): $(NATIVE_STAMP) $(STRAT_NATIVE_SRC)
	$(BIN)/python scripts/build_native.py strategies || echo "warning: compiled strategies not built; using the Python source"

native: $(NATIVE_STAMP) $(STRAT_NATIVE_STAMP)

pure:
	$(BIN)/python scripts/build_native.py --clean

install: $(STAMP) $(NATIVE_STAMP) $(STRAT_NATIVE_STAMP)

run: install
	$(BIN)/rnsim run configs/classic.toml

test: install
	$(BIN)/python -m pytest tests

lint: install
	$(BIN)/ruff check rnsim strategies tests
	$(BIN)/mypy

bench: install
	$(BIN)/rnsim bench

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
	rm -f rnsim/games/*/engine/*.so $(NATIVE_STAMP) strategies/*/*.so $(STRAT_NATIVE_STAMP)
