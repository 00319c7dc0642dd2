"""rnsim: tournament simulation and balance testing for Red Notice."""

from rnsim.play import GameResult, play_game
from rnsim.rules import RuleSet, load_components

__version__ = "0.1.0"

__all__ = ["GameResult", "RuleSet", "__version__", "load_components", "play_game"]
