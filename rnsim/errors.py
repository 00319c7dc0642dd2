"""Errors rnsim raises for bad input. Each message names the file or source,
the key and what is allowed, so a designer can fix it without reading code."""

from __future__ import annotations

import difflib
import os
from collections.abc import Iterable
from pathlib import Path


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


def read_utf8(path: os.PathLike[str] | str, error: type[RnsimError] = RnsimError) -> str:
    """The text of ``path``, or ``error`` with a one-line message naming the file when it is
    not UTF-8 (a UTF-8 byte-order mark, which TOML and JSON readers reject, is named as such)."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError:
        raise error(f"{p}: file not found") from None
    except OSError as e:
        raise error(f"{p}: cannot read: {e.strerror or e}") from None
    if data.startswith(b"\xef\xbb\xbf"):
        raise error(f"{p}: starts with a UTF-8 BOM (byte-order mark); save it as UTF-8 without BOM")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise error(f"{p}: not UTF-8 text (byte 0x{data[e.start]:02x} on line {line}); save it as UTF-8") from None


def shown_path(path: os.PathLike[str] | str) -> str:
    """A file as messages name it: relative to the current directory when it
    is inside it (a config names files relative to itself, which makes their
    paths absolute), else as it is."""
    try:
        return str(Path(path).resolve().relative_to(Path.cwd().resolve()))
    except (ValueError, OSError):
        return str(path)


def did_you_mean(word: str, choices: Iterable[object]) -> str:
    """\" (did you mean 'Paris'?)\" when one of ``choices`` is close to ``word``, else ""."""
    close = difflib.get_close_matches(word, [str(c) for c in choices], n=1)
    return f" (did you mean {close[0]!r}?)" if close else ""
