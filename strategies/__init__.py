"""rnsim's built-in strategies, one subpackage per game.

This folder installs under the import name ``rnsim_strategies`` (see
pyproject.toml), so it never collides with another distribution's top-level
``strategies`` package: ``rnsim_strategies.red_notice.expert``.
"""
