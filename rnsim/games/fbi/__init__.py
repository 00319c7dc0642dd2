"""FBI, a card game for 3-5 players, behind rnsim's game boundary (``game:GAME``).

``NATIVE`` tells whether the mypyc-compiled build of the engine's hot modules
(state, view) is in use (scripts/build_native.py); results are identical
either way.
"""

from rnsim.games.fbi._native import select as _select

NATIVE = _select()
