"""The strategy interface: ``choose(view, decision) -> option``.

A strategy plays one seat of a game. It sees only its seat's view (what
``Game.view`` builds) and the decision to answer, and must return one of
``decision.options``. ``choose`` dispatches on the decision kind to
``on_<kind>`` methods and falls back to ``default`` (a uniformly random legal
option); a game's strategies usually subclass a base of that game's own with
sensible defaults per kind (e.g. ``rnsim_strategies.red_notice.base``).

Strategies are loaded by reference (any importable ``module:Class``), by a
built-in short name of the game (``"random"``, ``"rule"``, ``"expert"``, ...:
``Game.strategies``), or by a name registered by an installed package in the
``rnsim.strategies`` entry-point group.

A strategy plays one game: its class says which in ``game`` (each game's
strategy base sets it, e.g. ``RedNoticeStrategy.game = "red_notice"``), and
:func:`load_strategy` refuses it in a seat of another game. A class that does
not say (``game = ""``, a plugin written straight on :class:`Strategy`) is
accepted in any game whose decisions it answers: every ``on_<kind>`` method
it has must name a decision kind the game asks (``Game.decision_kinds``), so a
strategy of one game in another game's seat, or a misspelt handler that would
never be called, is refused before any game is played. A strategy that
answers through ``choose`` or ``default`` alone reads only the decision's
legal options and plays any game.
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
from rnsim.games import DEFAULT_GAME, get_game


def builtin_strategies(game: Any = DEFAULT_GAME) -> dict[str, str]:
    """Short name -> "module:Class" of a game's built-in strategies."""
    g = get_game(game) if isinstance(game, str) else game
    return dict(getattr(g, "strategies", {}))


class Strategy:
    """Base class. ``params`` come from the config; ``rng`` is the seat's own stream.

    Class attribute ``PARAMS`` maps each accepted parameter to its default;
    unknown parameters are refused with the list of accepted ones.
    """

    name: ClassVar[str] = "strategy"
    # The registry name of the game this strategy plays (set by each game's
    # strategy base class); "" = any game whose decisions it answers (see the
    # module docstring and check_game).
    game: ClassVar[str] = ""
    PARAMS: ClassVar[dict[str, Any]] = {}
    # Optional checks per param: (type, low, high); None bounds are open.
    PARAM_RANGES: ClassVar[dict[str, tuple[type, float | None, float | None]]] = {}
    # A strategy that never reads its view may set this False and is then
    # handed None instead, which saves building a view per decision.
    uses_view: ClassVar[bool] = True
    # A strategy class that never reads ``view.history`` may say so with
    # ``uses_history = False`` in its own body; a game in which no seat reads
    # it skips recording it (Red Notice: 2-8% of a game). The flag is not
    # inherited: a plugin that subclasses the expert is assumed to read the
    # history unless it says otherwise (see ``reads_history``).
    uses_history: ClassVar[bool] = True
    # Likewise ``uses_worlds = False`` in a class's own body says it never
    # samples ``view.worlds`` (the hidden state dealt again from its view, for
    # search players); its views are then built without them (Red Notice:
    # 1.025x fewer instructions an expert game, docs/performance.md). Not
    # inherited either (``samples_worlds``).
    uses_worlds: ClassVar[bool] = True

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

    def reads_history(self) -> bool:
        """Whether this strategy may read ``view.history``: False only if
        its own class (not a base class) declares ``uses_history = False``,
        or it reads no view at all."""
        return self.uses_view and bool(vars(type(self)).get("uses_history", True))

    def samples_worlds(self) -> bool:
        """Whether this strategy may sample ``view.worlds``: False only if its
        own class (not a base class) declares ``uses_worlds = False``, or it
        reads no view at all."""
        return self.uses_view and bool(vars(type(self)).get("uses_worlds", True))

    def choose(self, view: Any, decision: Any) -> Any:
        handler = getattr(self, "on_" + decision.kind, None)
        if handler is None:
            return self.default(view, decision)
        return handler(view, decision)

    def default(self, view: Any, decision: Any) -> Any:
        """Fallback for any decision kind without an ``on_<kind>`` method:
        a uniformly random legal option from the seat's own stream."""
        opts = decision.options
        return opts[self.rng.randrange(len(opts))]


def _load_reference(ref: str, game: Any = DEFAULT_GAME) -> type:
    builtin = builtin_strategies(game)
    if ref in builtin:
        ref = builtin[ref]
    elif ":" not in ref:
        for ep in entry_points(group="rnsim.strategies"):
            if ep.name == ref:
                obj = ep.load()
                if not (inspect.isclass(obj) and issubclass(obj, Strategy)):
                    raise ConfigError(f"strategy {ref!r}: entry point {ep.value} is not a Strategy subclass")
                return obj
        names = available_strategies(game)
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


def available_strategies(game: Any = DEFAULT_GAME) -> list[str]:
    names = list(builtin_strategies(game))
    names.extend(ep.name for ep in entry_points(group="rnsim.strategies") if ep.name not in names)
    return names


def handled_kinds(cls: type) -> list[str]:
    """The decision kinds a strategy class answers with an ``on_<kind>`` method
    (its own or inherited), sorted."""
    return [n[3:] for n in dir(cls) if n.startswith("on_") and callable(getattr(cls, n, None))]


def _game_title(name: str, short: bool = False) -> str:
    """How messages name a game: its title and registry name ("FBI ('fbi')"),
    or with ``short`` its title's first part ("Red Notice")."""
    try:
        title = str(getattr(get_game(name), "title", name))
    except ConfigError:  # a game that is not installed here
        return repr(name)
    return title.partition(":")[0] if short else f"{title} ({name!r})"


def check_game(cls: type, game: Any, ref: str) -> None:
    """Refuse a strategy class in a seat of ``game`` when it declares another
    game, or answers a decision kind ``game`` never asks (ConfigError naming
    the strategy, both games or the kind, and what ``game`` offers)."""
    declared = getattr(cls, "game", "")
    if declared and declared != game.name:
        builtin = ", ".join(builtin_strategies(game)) or "none"
        own = _game_title(game.name, short=True)
        raise ConfigError(
            f"strategy {ref!r} plays {_game_title(declared)}, not {_game_title(game.name)}; "
            f"{own}'s built-in strategies: {builtin}, or a 'module:Class' written for {own}")
    kinds = tuple(getattr(game, "decision_kinds", ()))
    if not kinds:
        return  # a game that does not list its decisions: nothing to check against
    unknown = [k for k in handled_kinds(cls) if k not in kinds]
    if unknown:
        close = difflib.get_close_matches(unknown[0], kinds, n=1)
        if close:
            hint = f" (did you mean on_{close[0]}?)"
        else:
            hint = "" if declared else "; is it written for another game?"
        raise ConfigError(
            f"strategy {ref!r}: on_{unknown[0]} answers no decision of {_game_title(game.name)}, so it would never "
            f"be called{hint}; {_game_title(game.name, short=True)}'s decisions: {', '.join(kinds)}")


def strategy_class(ref: str, game: Any = DEFAULT_GAME) -> type:
    """The class a reference names (a short name or 'module:Class'), refused
    like :func:`load_strategy` refuses it, without making an instance."""
    g = get_game(game) if isinstance(game, str) else game
    cls = _load_reference(ref, g)
    check_game(cls, g, ref)
    return cls


def load_strategy(ref: str | Strategy, params: Mapping[str, Any] | None = None, game: Any = DEFAULT_GAME) -> Strategy:
    """A strategy instance from a reference and its params; short names are
    looked up among ``game``'s built-in strategies (a name or a game object).
    A strategy of another game is refused (see :func:`check_game`)."""
    g = get_game(game) if isinstance(game, str) else game
    if isinstance(ref, Strategy):
        if params:
            raise ConfigError("params given for a strategy instance")
        check_game(type(ref), g, type(ref).__name__)
        return ref
    if not isinstance(ref, str):
        raise ConfigError(f"a strategy reference is a string like 'random' or 'module:Class', got {ref!r}")
    cls = _load_reference(ref, g)
    check_game(cls, g, ref)
    return cls(**dict(params or {}))


def builtin_classes(game: Any = DEFAULT_GAME) -> dict[type, str]:
    """Each built-in strategy's class -> its short name."""
    out: dict[type, str] = {}
    for name, ref in builtin_strategies(game).items():
        out.setdefault(strategy_class(ref, game), name)
    return out


def probe_base(ref: str, game: Any = DEFAULT_GAME) -> tuple[str | None, str]:
    """The built-in strategy a probe is built on, and why there is none.

    Its class attribute ``base`` (a built-in strategy's short name) when it
    has one; otherwise the nearest built-in strategy among the classes it
    derives from (its MRO, itself left out). ``(None, why)`` when neither:
    an outside probe, or a built-in strategy itself."""
    cls = strategy_class(ref, game)
    names = builtin_strategies(game)
    named = getattr(cls, "base", None)
    if named is not None:
        if not isinstance(named, str) or named not in names:
            raise ConfigError(f"its class attribute base = {named!r} is not a built-in strategy; "
                              f"built-in: {', '.join(names)}")
        return named, ""
    classes = builtin_classes(game)
    for k in cls.__mro__[1:]:
        if k in classes:
            return classes[k], ""
    if cls in classes:
        return None, f"it is the built-in strategy {classes[cls]!r} itself, built on none"
    return None, "no built-in strategy among its classes"
