"""The strategy interface: ``choose(view, decision) -> option``.

A strategy plays one seat. It sees only its seat's :class:`~rnsim.games.red_notice.engine.view.View`
and the :class:`~rnsim.games.red_notice.engine.decision.Decision` to answer, and must return one
of ``decision.options``. Subclass :class:`Strategy` and override only what you
care about: ``choose`` dispatches on the decision kind to ``on_<kind>``
methods, and every kind has a default (see :class:`Strategy`).

Strategies are loaded by reference (``"strategies.hunter:Hunter"``, any
importable ``module:Class``), by a built-in short name (``"random"``, ...),
or by a name registered by an installed package in the ``rnsim.strategies``
entry-point group.
"""

from __future__ import annotations

import difflib
import importlib
import inspect
import random
from collections.abc import Mapping
from importlib.metadata import entry_points
from typing import Any, ClassVar

from rnsim.errors import ConfigError
from rnsim.games.red_notice.engine.decision import Decision, Option
from rnsim.games.red_notice.engine.view import View

# Short names of the built-in strategies (module:Class under `strategies`).
BUILTIN: dict[str, str] = {
    "random": "rnsim_strategies.red_notice.random_play:RandomStrategy",
    "rule": "rnsim_strategies.red_notice.rules_based:RuleBased",
    "expert": "rnsim_strategies.red_notice.expert:Expert",
}


class Strategy:
    """Base class. ``params`` come from the config; ``rng`` is the seat's own stream.

    Class attribute ``PARAMS`` maps each accepted parameter to its default;
    unknown parameters are refused with the list of accepted ones.
    """

    name: ClassVar[str] = "strategy"
    PARAMS: ClassVar[dict[str, Any]] = {}
    # Optional checks per param: (type, low, high); None bounds are open.
    PARAM_RANGES: ClassVar[dict[str, tuple[type, float | None, float | None]]] = {}
    # A strategy that never reads its view may set this False and is then
    # handed None instead, which saves building a view per decision.
    uses_view: ClassVar[bool] = True

    def __init__(self, **params: Any) -> None:
        unknown = [k for k in params if k not in self.PARAMS]
        if unknown:
            accepted = ", ".join(self.PARAMS) or "none"
            raise ConfigError(
                f"strategy {type(self).__name__}: unknown param {unknown[0]!r}; accepted params: {accepted}"
            )
        for k, v in params.items():
            self._check_param(k, v)
        self.params: dict[str, Any] = {**self.PARAMS, **params}
        self.rng: random.Random = random.Random(0)
        self.seat: int = 0

    def _check_param(self, key: str, value: Any) -> None:
        spec = self.PARAM_RANGES.get(key)
        if spec is None:
            return
        typ, lo, hi = spec
        ok_type = isinstance(value, typ) and not isinstance(value, bool)
        if typ is float and isinstance(value, int) and not isinstance(value, bool):
            ok_type = True  # an int where a float is expected is fine (TOML `risk = 1`)
        where = f"strategy {type(self).__name__}: param {key!r}"
        if not ok_type:
            raise ConfigError(f"{where} must be {'a number' if typ is float else typ.__name__}, got {value!r}")
        if (lo is not None and value < lo) or (hi is not None and value > hi):
            raise ConfigError(f"{where} must be in {lo}..{hi}, got {value!r}")

    def new_game(self, seat: int, rng: random.Random) -> None:
        """Called before each game with the seat played and the seat's stream."""
        self.seat = seat
        self.rng = rng

    def choose(self, view: View, decision: Decision) -> Option:
        handler = getattr(self, "on_" + decision.kind, None)
        if handler is None:
            return self.default(view, decision)
        return handler(view, decision)

    def default(self, view: View, decision: Decision) -> Option:
        """Fallback for any decision kind without an ``on_<kind>`` method:
        a uniformly random legal option from the seat's own stream."""
        opts = decision.options
        return opts[self.rng.randrange(len(opts))]

    # Sensible defaults where random play is clearly silly; every other kind
    # (start, setup_radar, place_token, upgrade, identity, informant, ...) falls
    # back to ``default``.
    def on_check(self, view: View, decision: Decision) -> Option:
        return "draw"

    def on_angela_security(self, view: View, decision: Decision) -> Option:
        return "gain"

    def on_bank(self, view: View, decision: Decision) -> Option:
        """Cash the most valuable check that can be cashed here."""
        checks = view.comps.checks
        cashable = [o for o in decision.options if o != "pass"]
        return max(cashable, key=lambda c: (checks[c].value, -c))

    def on_joker(self, view: View, decision: Decision) -> Option:
        """Any action rather than none."""
        opts = [o for o in decision.options if o != "pass"]
        return opts[self.rng.randrange(len(opts))]

    def on_jessah_security(self, view: View, decision: Decision) -> Option:
        """Place something rather than nothing."""
        opts = [o for o in decision.options if o != "pass"] or decision.options
        return opts[self.rng.randrange(len(opts))]

    def on_angela_move(self, view: View, decision: Decision) -> Option:
        """A random step (or standing still); never spends security by default."""
        opts = [o for o in decision.options if o in ("stay", "stop") or o[0] == "move"]
        return opts[self.rng.randrange(len(opts))]

    def on_jessah_move(self, view: View, decision: Decision) -> Option:
        """A random step or inspection; never gives up the movement by default."""
        opts = [o for o in decision.options if o != "stop"]
        return opts[self.rng.randrange(len(opts))]


def _load_reference(ref: str) -> type:
    if ref in BUILTIN:
        ref = BUILTIN[ref]
    elif ":" not in ref:
        for ep in entry_points(group="rnsim.strategies"):
            if ep.name == ref:
                obj = ep.load()
                if not (inspect.isclass(obj) and issubclass(obj, Strategy)):
                    raise ConfigError(f"strategy {ref!r}: entry point {ep.value} is not a Strategy subclass")
                return obj
        names = available_strategies()
        close = difflib.get_close_matches(ref, names, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ConfigError(
            f"unknown strategy {ref!r}{hint}; available: {', '.join(names)}, or any importable 'module:Class'"
        )
    mod_name, _, cls_name = ref.partition(":")
    try:
        mod = importlib.import_module(mod_name)
    except ImportError as e:
        raise ConfigError(f"strategy {ref!r}: cannot import module {mod_name!r}: {e}") from None
    obj = getattr(mod, cls_name, None)
    if obj is None:
        found = [n for n, v in vars(mod).items() if inspect.isclass(v) and issubclass(v, Strategy) and v is not Strategy]
        raise ConfigError(f"strategy {ref!r}: module {mod_name!r} has no {cls_name!r}; it has: {', '.join(found) or 'no strategies'}")
    if not (inspect.isclass(obj) and issubclass(obj, Strategy)):
        raise ConfigError(f"strategy {ref!r}: {cls_name} is not a subclass of rnsim.strategy.Strategy")
    return obj


def available_strategies() -> list[str]:
    names = list(BUILTIN)
    names.extend(ep.name for ep in entry_points(group="rnsim.strategies") if ep.name not in names)
    return names


def load_strategy(ref: str | Strategy, params: Mapping[str, Any] | None = None) -> Strategy:
    """A strategy instance from a reference and its params."""
    if isinstance(ref, Strategy):
        if params:
            raise ConfigError("params given for a strategy instance")
        return ref
    if not isinstance(ref, str):
        raise ConfigError(f"a strategy reference is a string like 'random' or 'module:Class', got {ref!r}")
    cls = _load_reference(ref)
    return cls(**dict(params or {}))
