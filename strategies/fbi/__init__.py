"""Built-in FBI strategies: random, rule, expert (any seat, any player count),
and :class:`FbiStrategy`, the base to subclass for an FBI strategy.

``NATIVE`` tells whether the mypyc-compiled build of the expert (model,
expert) is in use (scripts/build_native.py); it plays identically either way.
"""

from typing import ClassVar

from rnsim.strategy import Strategy


class FbiStrategy(Strategy):
    """Subclass this to write an FBI strategy: answer ``on_bid``, ``on_agents``
    and ``on_arrest`` (rnsim/games/fbi/state.py lists their options); a kind
    without a method gets a random legal option from the seat's stream.

    Defined before the compiled build is chosen: the expert's source, loaded
    when the build is stale, subclasses it."""

    # the game these strategies play: rnsim refuses them in another game's seats
    game: ClassVar[str] = "fbi"


from rnsim_strategies.fbi._native import select as _select  # noqa: E402

NATIVE = _select()
