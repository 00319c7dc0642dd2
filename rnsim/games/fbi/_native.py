"""The FBI engine's compiled build or its Python source (see rnsim/compiled.py).
Imported by rnsim.games.fbi before anything else of the game."""

from rnsim.compiled import TARGETS

BUILD = TARGETS["fbi-engine"]
select = BUILD.select
