"""The rules engine: game state, decisions, views, belief, event log.

``NATIVE`` tells whether the mypyc-compiled build of the hot modules is in
use (see scripts/build_native.py); results are identical either way.
"""

from rnsim.games.red_notice.engine._native import select as _select

NATIVE = _select()

from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH, SEATS, Decision  # noqa: E402
from rnsim.games.red_notice.engine.state import GameState  # noqa: E402
from rnsim.games.red_notice.engine.view import View, build_view  # noqa: E402

__all__ = ["ANGELA", "JESSAH", "NATIVE", "SEATS", "Decision", "GameState", "View", "build_view"]
