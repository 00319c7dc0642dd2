"""The expert strategy's compiled build or its Python source (see
rnsim/compiled.py). Imported by the strategies package first."""

from rnsim.compiled import TARGETS

BUILD = TARGETS["strategies"]
select = BUILD.select
