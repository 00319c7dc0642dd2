"""Tournaments: schedule, backends, shards, resume, manifest (`rnsim run`)."""

from rnsim.tournament.run import RunSummary, run_tournament
from rnsim.tournament.shards import load_errors, load_results

__all__ = ["RunSummary", "load_errors", "load_results", "run_tournament"]
