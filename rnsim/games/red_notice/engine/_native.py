"""The engine's compiled build or its Python source (see rnsim/compiled.py).
Imported by rnsim.games.red_notice.engine before anything else of the engine."""

from rnsim.compiled import TARGETS

BUILD = TARGETS["engine"]
select = BUILD.select
