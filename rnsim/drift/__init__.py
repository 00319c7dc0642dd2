"""Rule variants side by side (`rnsim compare`) and the balance-drift gate
(`rnsim baseline save`, `rnsim check`).

- :mod:`rnsim.drift.baseline`: the baseline file format;
- :mod:`rnsim.drift.cells`: a check's cells, their labels and win counts;
- :mod:`rnsim.drift.gate`: the gate (baseline, exact replay, sequential test);
- :mod:`rnsim.drift.compare`: variants compared on the same games;
- :mod:`rnsim.drift.outcome`: what a check ends with (cells, verdict, exit code);
- :mod:`rnsim.drift.markdown`: what both print.

The statistics live in :mod:`rnsim.analysis.sequential` and
:mod:`rnsim.analysis.paired`; the games are played by the tournament's backends
(:mod:`rnsim.tournament.batches`).
"""

from rnsim.drift.baseline import BASELINE_FORMAT, Baseline, load_baseline
from rnsim.drift.cells import cell_labels, cell_name, counts_by_cell, play_counts, play_games, seat_outcomes
from rnsim.drift.compare import Comparison, compare_config, compare_run
from rnsim.drift.gate import BUDGET_FACTOR, default_batch, run_check, save_baseline
from rnsim.drift.markdown import comparison_text, results_block
from rnsim.drift.outcome import EXIT_DRIFT, EXIT_NO_DRIFT, EXIT_UNDECIDED, EXIT_USAGE, CheckCell, CheckOutcome

__all__ = [
    "BASELINE_FORMAT", "BUDGET_FACTOR", "EXIT_DRIFT", "EXIT_NO_DRIFT", "EXIT_UNDECIDED", "EXIT_USAGE",
    "Baseline", "CheckCell", "CheckOutcome", "Comparison", "cell_labels", "cell_name", "compare_config",
    "compare_run", "comparison_text", "counts_by_cell", "default_batch", "load_baseline", "play_counts",
    "play_games", "results_block", "run_check", "save_baseline", "seat_outcomes",
]
