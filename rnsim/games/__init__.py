"""The registry of games: a name -> the game object behind the boundary
(:class:`rnsim.game.Game`).

Built-in games are listed here by module path (imported only when asked for);
an installed package adds one with an entry point in the ``rnsim.games`` group,
as strategies do in ``rnsim.strategies``::

    [project.entry-points."rnsim.games"]
    my_game = "my_package.game:GAME"
"""

from __future__ import annotations

import difflib
import importlib
from importlib.metadata import entry_points
from typing import Any

from rnsim.errors import ConfigError

#: built-in games: name -> "module:attribute" of the game object
BUILTIN: dict[str, str] = {
    "red_notice": "rnsim.games.red_notice.game:GAME",
    "fbi": "rnsim.games.fbi.game:GAME",
}

DEFAULT_GAME = "red_notice"

_loaded: dict[str, Any] = {}


def available_games() -> list[str]:
    names = list(BUILTIN)
    names.extend(ep.name for ep in entry_points(group="rnsim.games") if ep.name not in names)
    return names


def get_game(name: str = DEFAULT_GAME) -> Any:
    """The game object registered under ``name`` (a clear error naming the
    registered games otherwise)."""
    if name in _loaded:
        return _loaded[name]
    ref = BUILTIN.get(name)
    if ref is None:
        for ep in entry_points(group="rnsim.games"):
            if ep.name == name:
                ref = ep.value
                break
    if ref is None:
        names = available_games()
        close = difflib.get_close_matches(str(name), names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ConfigError(f"unknown game {name!r}{hint}; available: {', '.join(names)}")
    mod_name, _, attr = ref.partition(":")
    game = getattr(importlib.import_module(mod_name), attr)
    _loaded[name] = game
    return game
