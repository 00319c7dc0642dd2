"""rnsim: tournament simulation and balance testing for board games (Red Notice built in)."""

from rnsim.games.red_notice.game import GameResult
from rnsim.games.red_notice.rules import RuleSet, load_components
from rnsim.play import play_from, play_game

__version__ = "0.2.0"


def load_results(run_dir, lazy=True, *, partial=False):  # type: ignore[no-untyped-def]
    """The per-game result table of a run directory (a Polars LazyFrame, or a
    DataFrame with ``lazy=False``); a run with games missing or doubled is
    refused unless ``partial=True``. Imported lazily so ``import rnsim`` stays light."""
    from rnsim.tournament.shards import load_results as _load

    return _load(run_dir, lazy=lazy, partial=partial)


__all__ = ["GameResult", "RuleSet", "__version__", "load_components", "load_results", "play_from", "play_game"]
