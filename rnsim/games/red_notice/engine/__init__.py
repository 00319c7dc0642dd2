"""The rules engine: game state, decisions, views, belief, event log.

``NATIVE`` tells whether the mypyc-compiled build of the hot modules is in
use (see scripts/build_native.py); results are identical either way.
"""

from rnsim.games.red_notice.engine._native import select as _select

NATIVE = _select()

# The effects register themselves in engine/registry.py when they load, before
# the state, which finds a card's effect there by name; the sampler of worlds
# registers itself with the view (View.worlds draws with it).
from rnsim.games.red_notice.engine import effects as _effects  # noqa: E402, F401, I001
from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH, SEATS, Decision  # noqa: E402
from rnsim.games.red_notice.engine.state import GameState  # noqa: E402
from rnsim.games.red_notice.engine.view import View, build_view  # noqa: E402
from rnsim.games.red_notice.engine import determinize as _determinize  # noqa: E402, F401, I001

__all__ = ["ANGELA", "JESSAH", "NATIVE", "SEATS", "Decision", "GameState", "View", "build_view"]
