"""Errors rnsim raises for bad input. Each message names the file or source,
the key and what is allowed, so a designer can fix it without reading code."""


class RnsimError(Exception):
    """Base class of every user-facing rnsim error."""

    # The CLI's exit code: 2 for bad input (the default); 1 for a run that could not finish.
    exit_code = 2


class ComponentError(RnsimError):
    """A component file (map, cards, tokens, checks, identities, upgrades) is invalid."""


class RulesError(RnsimError):
    """A rule knob is unknown or out of range."""


class ConfigError(RnsimError):
    """A tournament configuration is invalid."""


class IllegalOption(RnsimError):
    """A strategy answered a decision with an option that is not legal."""


class PositionError(RnsimError):
    """A saved position cannot be loaded."""
