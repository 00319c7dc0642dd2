"""Design levers on any game: which knob moves the balance, by how much, and
which value balances the game (docs/levers.md).

Knobs, the balance and the game's own levers come from the game boundary
(``Game.knobs``, ``balance_seat``, ``seat_roles``, ``fair_rate``,
``lever_setups``, ``levers``: :mod:`rnsim.game`); nothing here names a game.
Every command plays its rule variants through the ordinary tournament, so game
``i`` of every variant sees the same chance stream (common random numbers):

- :mod:`.sweep`: one or two knobs on a grid (`rnsim sweep`);
- :mod:`.tune`: the lattice search for the balanced value (`rnsim tune`);
- :mod:`.shifts`: every one-step change against the rules (`rnsim levers`);
- :mod:`.restricted`: restricted play (an option never chosen);
- :mod:`.source`: the config as the commands play it, read once;
- :mod:`.knobs`, :mod:`.balance`, :mod:`.play`: what they share.
"""

from __future__ import annotations

from rnsim.levers.balance import Balance, balance_of, fair_rate
from rnsim.levers.knobs import check_knob, fmt_value, numeric_knobs, parse_values
from rnsim.levers.play import Played, play_changes, write_table
from rnsim.levers.shifts import (
    LeversResult,
    check_for_run,
    lever_changes,
    paired_shift,
    restricted_changes,
    restricted_specs,
    run_levers,
)
from rnsim.levers.source import BASE, Change, LeverConfig
from rnsim.levers.sweep import SweepResult, run_sweep
from rnsim.levers.tune import TuneRun, run_tune

__all__ = [
    "BASE", "Balance", "Change", "LeverConfig", "LeversResult", "Played", "SweepResult", "TuneRun", "balance_of", "check_for_run",
    "check_knob", "fair_rate", "fmt_value", "lever_changes", "numeric_knobs", "paired_shift", "parse_values",
    "play_changes", "restricted_changes", "restricted_specs", "run_levers", "run_sweep", "run_tune",
    "write_table",
]
