"""Analysis of result tables: Polars aggregations and interval statistics.

Reads result tables only (docs/architecture.md); never imports a game's
engine, ``rnsim.play`` or the tournament runner, and knows no game: seats,
cells and the setup column are read from the table (:func:`layout`). A game's
own tables live beside it (``rnsim.games.<name>.analysis``).
A notebook can start from::

    from rnsim.analysis import scan_results, headline
    cells = headline(scan_results("runs/2026-11-30"))
"""

from rnsim.analysis.aggregate import (
    Layout,
    by_setup,
    errors_by_cell,
    game_length,
    game_length_histogram,
    headline,
    layout,
    matchup_matrix,
)
from rnsim.analysis.load import ResultsError, read_manifest, scan_errors, scan_results
from rnsim.analysis.stats import Z95, difference_columns, newcombe, rate_columns, wilson, wilson_exprs, z_for

__all__ = [
    "Z95", "Layout", "ResultsError", "by_setup", "difference_columns", "errors_by_cell", "game_length",
    "game_length_histogram", "headline", "layout", "matchup_matrix", "newcombe", "rate_columns", "read_manifest",
    "scan_errors", "scan_results", "wilson", "wilson_exprs", "z_for",
]
