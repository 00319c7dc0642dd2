"""The knobs a levers command may move, read from the game (``Game.knobs``):
names, ranges, notches and the values a designer asks for."""

from __future__ import annotations

import difflib
import json
from collections.abc import Mapping
from typing import Any

from rnsim.errors import ConfigError, RnsimError
from rnsim.game import Knob


def knob_table(game: Any) -> dict[str, Knob]:
    return {k.name: k for k in game.knobs()}


def numeric_knobs(game: Any) -> list[str]:
    return [k.name for k in game.knobs() if k.numeric]


def check_knob(game: Any, name: str, source: str = "--knob") -> Knob:
    """The numeric knob ``name`` of ``game``, or a one-line error listing the game's numeric knobs."""
    knobs = knob_table(game)
    numeric = numeric_knobs(game)
    listed = ", ".join(numeric) if numeric else "none"
    if name not in knobs:
        close = difflib.get_close_matches(name, list(knobs), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ConfigError(f"{source}: {game.name} has no knob {name!r}{hint}; its numeric knobs: {listed}")
    if not knobs[name].numeric:
        raise ConfigError(f"{source}: {name!r} is not a numeric knob of {game.name}; its numeric knobs: {listed}")
    return knobs[name]


def bounds(k: Knob) -> tuple[int, int]:
    assert k.low is not None and k.high is not None
    return int(k.low), int(k.high)


def parse_values(text: str, k: Knob, source: str = "--values") -> list[int]:
    """``"800000,900000,1000000"`` or ``"start:stop:step"`` (stop included), sorted."""
    try:
        if ":" in text:
            parts = [int(p.replace("_", "")) for p in text.split(":")]
            if len(parts) != 3 or parts[2] == 0:
                raise ValueError
            start, stop, step = parts
            vals = list(range(start, stop + (1 if step > 0 else -1), step))
        else:
            vals = [int(p.replace("_", "").strip()) for p in text.split(",") if p.strip()]
    except ValueError:
        raise ConfigError(f'{source}: must be whole numbers "a,b,c" or "start:stop:step", got {text!r}') from None
    if len(vals) < 2:
        raise ConfigError(f"{source}: a sweep needs at least two values, got {vals}")
    if len(set(vals)) != len(vals):
        raise ConfigError(f"{source}: a value is listed twice: {vals}")
    lo, hi = bounds(k)
    bad = [v for v in vals if not lo <= v <= hi]
    if bad:
        raise ConfigError(f"{source}: {k.name} must be {lo}..{hi}, got {bad[0]}")
    return sorted(vals)


def fmt_value(v: Any) -> str:
    """A knob value as a designer writes it: 1,000,000; 5; true; "any"."""
    if isinstance(v, bool) or v is None:
        return json.dumps(v)
    if isinstance(v, int | float):
        return f"{int(v):,}" if float(v).is_integer() else f"{v:,.4g}"
    return str(v)


def changed_rules(game: Any, rules: Any, knobs: Mapping[str, Any]) -> Any:
    """``rules`` with ``knobs`` set, validated by the game (raises its error)."""
    replace = getattr(rules, "replace", None)
    if replace is not None:
        return replace(**knobs)
    return game.rules({**rules.to_dict(), **knobs})


def refusal(game: Any, rules: Any, knobs: Mapping[str, Any]) -> str | None:
    """Why the game refuses ``knobs`` on top of ``rules`` (None when it accepts them)."""
    try:
        changed_rules(game, rules, knobs)
    except RnsimError as e:
        return str(e).split(": ", 1)[-1]
    return None
