"""Analysis of result tables: Polars aggregations and interval statistics.

Reads result tables only (docs/architecture.md); never imports the engine,
``rnsim.play`` or the tournament runner. Every aggregation returns a Polars
``DataFrame``, so a notebook can start from::

    from rnsim.analysis import scan_results, identity_pairs
    pairs = identity_pairs(scan_results("runs/2026-11-30"))
"""

from rnsim.analysis.aggregate import (
    CELL,
    errors_by_cell,
    flow_by_round,
    game_length,
    game_length_histogram,
    headline,
    identities,
    identity_pairs,
    matchup_matrix,
    matchups,
    upgrades,
)
from rnsim.analysis.load import ResultsError, read_manifest, scan_errors, scan_results, upgrade_ids
from rnsim.analysis.stats import Z95, rate_columns, wilson, wilson_exprs, z_for

__all__ = [
    "CELL", "Z95", "ResultsError", "errors_by_cell", "flow_by_round", "game_length", "game_length_histogram",
    "headline", "identities", "identity_pairs", "matchup_matrix", "matchups", "rate_columns", "read_manifest",
    "scan_errors", "scan_results", "upgrade_ids", "upgrades", "wilson", "wilson_exprs", "z_for",
]
