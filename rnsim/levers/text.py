"""What `rnsim sweep` and `rnsim tune` print about a curve: the crossing when
one was seen, and otherwise what was seen instead (the target not reached,
the closest value, the curve's shape, stretches where the knob changes no
game)."""

from __future__ import annotations

import math

from rnsim.analysis.crossing import Crossing, same_game_runs
from rnsim.levers.knobs import fmt_value


def pct(x: float | None) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def pts(x: float | None) -> str:
    return "n/a" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:+.1f}"


def value(x: float) -> str:
    return fmt_value(round(x))


def between(x: float, c: Crossing) -> str:
    """A knob value between the values played, to a hundredth of their spacing."""
    step = min((b - a for a, b in zip(c.x, c.x[1:], strict=False)), default=1.0)
    digits = max(0, 2 - math.floor(math.log10(step))) if step > 0 else 0
    return f"{x:,.{digits}f}"


def rate_at(c: Crossing, k: int) -> str:
    return f"{pct(c.rate[k])} [{pct(c.rate_lo[k])}, {pct(c.rate_hi[k])}]"


def crossing_lines(knob: str, c: Crossing, title: str, note: str) -> list[str]:
    """The crossing of ``title`` (e.g. "forger's win rate") with the target, or what was seen instead."""
    head = f"crossing of the {title} with {pct(c.target)} ({note}):"
    out = [head]
    if not c.found:
        out += _not_reached(knob, c)
    else:
        out += _found(knob, c)
    out += shape_lines(knob, c)
    return out


def _found(knob: str, c: Crossing) -> list[str]:
    k = c.bracket
    assert k is not None
    s = c.steps[k]
    out = []
    if len(c.crossings) > 1:
        out.append(f"  the curve meets the target {len(c.crossings)} times between the values played (at "
                   + ", ".join(between(x, c) for x in c.crossings) + "): it is flat or not monotone near it, so "
                   "no single value balances it at this precision")
    out.append(f"  between {knob} {value(c.x[k])} ({rate_at(c, k)}) and {value(c.x[k + 1])} "
               f"({rate_at(c, k + 1)}): {_difference(s.diff, s.diff_lo, s.diff_hi, s.shared, s.changed)}")
    pieces = " and ".join(f"[{between(a, c)}, {between(b, c)}]" for a, b in c.pieces)
    out.append(f"  on a straight line between them: {knob} = {between(c.estimate, c)}, 95% set {pieces} (a line between the "
               "values played; nothing is observed between two values)")
    if c.open_low or c.open_high:
        end = value(c.x[0]) if c.open_low else value(c.x[-1])
        side = "below" if c.open_low else "above"
        out.append(f"  the 95% set reaches {knob} {end}, the end of the values played: the crossing may lie "
                   f"there or {side} it")
    return out


def _difference(d: float, lo: float, hi: float, shared: int, changed: int) -> str:
    if shared == 0:
        return f"difference {pts(d)} points [{pts(lo)}, {pts(hi)}] (no game played at both)"
    if changed == 0:
        return f"the same outcome in every one of the {shared:,} games played at both"
    return f"paired difference {pts(d)} points [{pts(lo)}, {pts(hi)}], {changed:,} of {shared:,} games changed"


def _not_reached(knob: str, c: Crossing) -> list[str]:
    j = c.closest
    side = "above" if c.rate[j] > c.target else "below"
    out = [f"  none: the target is not reached between {knob} {value(c.x[0])} and {value(c.x[-1])}; every "
           f"value's rate is {side} it ({pct(min(c.rate))} to {pct(max(c.rate))})",
           f"  closest: {knob} {value(c.x[j])} at {rate_at(c, j)}, {abs(100 * (c.rate[j] - c.target)):.1f} points "
           f"{side} the target"]
    if c.covers(c.x[j]):
        out.append("  the target is inside that value's 95% interval: more games may show a crossing next to it")
    return out


def shape_lines(knob: str, c: Crossing) -> list[str]:
    out = []
    lo, hi = min(c.rate), max(c.rate)
    if c.shape in ("rises", "falls"):
        more, less = ("above", "below") if c.shape == "rises" else ("below", "above")
        out.append(f"  shape: {c.shape}: at 95%, some values are clearly {more} earlier ones, none clearly {less} "
                   f"({pct(c.rate[0])} at {knob} {value(c.x[0])}, {pct(c.rate[-1])} at {value(c.x[-1])}; "
                   f"{pct(lo)} to {pct(hi)})")
    elif c.shape in ("peaks", "dips") and c.extreme is not None:
        top = c.x.index(c.extreme)
        word = "peaks" if c.shape == "peaks" else "dips"
        out.append(f"  shape: not monotone: {word} at {knob} {value(c.extreme)} ({pct(c.rate[top])}), clearly "
                   f"{'above' if word == 'peaks' else 'below'} both ends ({pct(c.rate[0])}, {pct(c.rate[-1])})")
    elif c.shape == "not monotone":
        out.append(f"  shape: not monotone: some values clearly above earlier ones, others clearly below "
                   f"({pct(lo)} to {pct(hi)})")
    elif c.shape == "flat":
        out.append(f"  shape: flat: no value's rate differs clearly from another's ({pct(lo)} to {pct(hi)})")
    for a, b, n in same_game_runs(c.steps):
        out.append(f"  {knob} {value(a)} to {value(b)}: every game has the same outcome at each of these values "
                   f"({n:,} games or more compared, paired difference exactly 0): the knob changes no game's "
                   "outcome over that stretch")
    return out
