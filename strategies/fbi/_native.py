"""The FBI expert strategy's compiled build or its Python source (see
rnsim/compiled.py). Imported by the FBI strategies package first."""

from rnsim.compiled import TARGETS

BUILD = TARGETS["fbi-strategies"]
select = BUILD.select
