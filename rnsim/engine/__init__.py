"""The rules engine: game state, decisions, views, belief, event log."""

from rnsim.engine.decision import ANGELA, JESSAH, SEATS, Decision
from rnsim.engine.state import GameState
from rnsim.engine.view import View, build_view

__all__ = ["ANGELA", "JESSAH", "SEATS", "Decision", "GameState", "View", "build_view"]
