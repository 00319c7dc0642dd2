"""The conformance suite every registered game must pass (in the spirit of
pgx's api_test and OpenSpiel's random_sim_test), parametrised over
``rnsim.games.available_games()``:

- random playouts are legal and end;
- an illegal answer is refused;
- ``clone`` is equal and independent;
- positions round-trip and play on identically;
- play is deterministic across processes and PYTHONHASHSEED values;
- views leak nothing (``Game.conceal`` re-draws what a seat cannot see), and
  nothing reachable from a view leads to a hidden fact or the real state;
- the compiled build, where a game has one, plays like the source.
"""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import types
from typing import Any

import pytest

from rnsim.errors import IllegalOption
from rnsim.games import available_games, get_game

GAMES = available_games()
SEEDS = range(6)
MAX_DECISIONS = 200_000


def _setups(game: Any, rules: Any) -> list[Any]:
    return [setup for _label, setup in game.setups(rules, None)]


def _new(game: Any, seed: int, setup_index: int = 0, log: bool = False) -> Any:
    return _new_with_seats(game, seed, setup_index, log)[0]


def _new_with_seats(game: Any, seed: int, setup_index: int = 0, log: bool = False) -> tuple[Any, tuple[str, ...]]:
    rules = game.rules()
    setups = _setups(game, rules)
    setup = setups[setup_index % len(setups)]
    state = game.new_state(rules, random.Random(seed), setup=setup, seed=seed, log=log)
    return state, tuple(game.seats(rules, setup))


def _playout(state: Any, rng: random.Random, limit: int = MAX_DECISIONS) -> int:
    """Answer every decision with a uniformly random legal option."""
    n = 0
    while not state.over:
        d = state.decision()
        assert 0 <= d.seat, d
        assert len(d.options) > 0, f"a {d.kind!r} decision without options"
        state.apply(d.options[rng.randrange(len(d.options))])
        n += 1
        assert n < limit, "the game did not end"
    return n


def _fingerprint(game: Any, state: Any) -> str:
    """Everything about a state, as text (its saved position)."""
    return json.dumps(game.save_position(state), sort_keys=True)


@pytest.fixture(params=GAMES)
def game(request: pytest.FixtureRequest) -> Any:
    return get_game(request.param)


def test_registered_games_follow_the_protocol(game: Any) -> None:
    from rnsim.game import Game

    assert isinstance(game, Game)
    assert game.name in GAMES and game.title and game.version
    rules = game.rules()
    assert isinstance(game.rules_hash(rules), str) and game.rules_hash(rules) == game.rules_hash(game.rules())
    for knob in game.knobs():
        assert knob.name and knob.doc
    for _label, setup in game.setups(rules, None):
        seats = game.seats(rules, setup)
        assert len(seats) >= 2 and len(set(seats)) == len(seats)


@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_are_legal_and_end(game: Any, seed: int) -> None:
    state, seats = _new_with_seats(game, seed, setup_index=seed)
    decisions = _playout(state, random.Random(1000 + seed))
    outcome = game.outcome(state, decisions)
    assert outcome.winner is None or outcome.winner in seats
    assert outcome.end_reason
    assert outcome.rounds >= 1
    if outcome.shares:
        # shares of a win: each in [0, 1], summing to 1 when someone won
        assert set(outcome.shares) <= set(seats)
        assert all(0.0 <= v <= 1.0 for v in outcome.shares.values())
        total = sum(outcome.shares.values())
        assert abs(total - 1.0) < 1e-9 or total == 0.0
        if outcome.winner is not None:
            assert outcome.shares[outcome.winner] == 1.0
    assert state.pending is None


def test_an_illegal_answer_is_refused(game: Any) -> None:
    state = _new(game, 7)
    state.decision()
    before = _fingerprint(game, state)
    with pytest.raises(IllegalOption):
        state.apply(object())
    assert _fingerprint(game, state) == before


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_clone_is_equal_and_independent(game: Any, seed: int) -> None:
    state = _new(game, seed)
    rng = random.Random(seed)
    steps = 0
    while not state.over:
        d = state.decision()
        if steps % 23 == 0:
            copy = state.clone()
            assert _fingerprint(game, copy) == _fingerprint(game, state)
            snapshot = _fingerprint(game, state)
            # Playing the copy to its end never touches the original...
            _playout(copy, random.Random(steps))
            assert _fingerprint(game, state) == snapshot
            # ...and the same answers on the original and a fresh copy give the same game.
            twin = state.clone()
            a, b = random.Random(steps), random.Random(steps)
            _playout(twin, a)
            other = state.clone()
            _playout(other, b)
            assert _fingerprint(game, twin) == _fingerprint(game, other)
        state.apply(d.options[rng.randrange(len(d.options))])
        steps += 1


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_positions_round_trip_and_play_on_identically(game: Any, seed: int) -> None:
    state = _new(game, seed)
    rng = random.Random(seed)
    steps = 0
    while not state.over:
        d = state.decision()
        if steps % 29 == 0:
            data = json.loads(json.dumps(game.save_position(state)))  # through real JSON
            loaded = game.load_position(data)
            assert _fingerprint(game, loaded) == _fingerprint(game, state)
            a, b = state.clone(), loaded
            _playout(a, random.Random(steps))
            _playout(b, random.Random(steps))
            assert _fingerprint(game, a) == _fingerprint(game, b)
        state.apply(d.options[rng.randrange(len(d.options))])
        steps += 1


@pytest.mark.parametrize("seed", SEEDS[:4])
def test_views_leak_nothing(game: Any, seed: int) -> None:
    """A seat's view of a state equals its view of any state that differs only
    in what that seat cannot see; the re-drawn facts were real changes (some
    other seat's view, or the fingerprint, changed)."""
    state, seats = _new_with_seats(game, seed, setup_index=seed)
    rng = random.Random(seed)
    changed = checked = steps = 0
    while not state.over:
        d = state.decision()
        if steps % 5 == 0:
            for seat in range(len(seats)):
                other = game.conceal(state, seat, random.Random(steps * 31 + seat))
                assert game.view(other, seat) == game.view(state, seat), f"seat {seat} sees hidden facts"
                changed += _fingerprint(game, other) != _fingerprint(game, state)
                checked += 1
        state.apply(d.options[rng.randrange(len(d.options))])
        steps += 1
    assert checked > 0 and changed > checked // 4, "conceal changed (almost) nothing: the test would not catch a leak"


_PLAY = """
import json, random, sys
from rnsim.games import get_game
g = get_game(sys.argv[1])
rules = g.rules()
setups = [s for _l, s in g.setups(rules, None)]
out = []
for seed in range(3):
    st = g.new_state(rules, random.Random(seed), setup=setups[seed % len(setups)], seed=seed, log=True)
    rng = random.Random(seed)
    n = 0
    while not st.over:
        d = st.decision()
        st.apply(d.options[rng.randrange(len(d.options))])
        n += 1
    o = g.outcome(st, n)
    out.append([o.winner, o.end_reason, o.rounds, n, o.events])
print(json.dumps(out, sort_keys=True, default=str))
"""


def _play_in_subprocess(name: str, **env: str) -> str:
    full = {**os.environ, **env}
    got = subprocess.run([sys.executable, "-c", _PLAY, name], env=full, capture_output=True, text=True,
                         timeout=300, check=True)
    return got.stdout


def test_play_is_deterministic_across_processes_and_hash_seeds(game: Any) -> None:
    a = _play_in_subprocess(game.name, PYTHONHASHSEED="1")
    b = _play_in_subprocess(game.name, PYTHONHASHSEED="2")
    assert a == b and len(a) > 100


def test_compiled_build_plays_like_the_source(game: Any) -> None:
    compiled = _play_in_subprocess(game.name, PYTHONHASHSEED="3", RNSIM_PURE="0")
    pure = _play_in_subprocess(game.name, PYTHONHASHSEED="3", RNSIM_PURE="1")
    assert compiled == pure


# ------------------------------------------------ nothing to steal from a view
#
# A strategy is Python code in the engine's process: whatever object it can
# reach from what it is handed (its view and the decision) it can read. The
# test below walks all of it, at hundreds of decisions of games played by the
# game's strategies, and fails when the walk reaches the real state, one of
# its mutable parts, or a value that changes when the facts hidden from the
# seat are re-drawn (Game.conceal).

_ATOMS = (int, float, complex, str, bytes, bool, type(None))
# The program, not the game: a module, a class or a function's globals lead
# to every loaded module (through sys.modules, to this test's own frames,
# which hold the real state), so the walk stops there; what it reaches below
# them is shared by every game and holds nothing of one.
_STOPS = (types.ModuleType, type, types.CodeType)


def _edges(obj: Any) -> list[tuple[str, Any]]:
    """The objects ``obj`` refers to, each with a name for the path."""
    if isinstance(obj, (tuple, list)):
        return [(f"[{i}]", x) for i, x in enumerate(obj)]
    if isinstance(obj, dict):
        out: list[tuple[str, Any]] = []
        for k, x in obj.items():
            out += [(f"<key {k!r}>", k), (f"[{k!r}]", x)]
        return out
    if isinstance(obj, (set, frozenset)):
        return [(f"<{x!r}>", x) for x in sorted(obj, key=repr)]
    if isinstance(obj, types.FunctionType):  # not __globals__ (see _STOPS) nor __code__
        out = [(".__defaults__", obj.__defaults__), (".__kwdefaults__", obj.__kwdefaults__)]
        out += [(f"<closure {i}>", c) for i, c in enumerate(obj.__closure__ or ())]
        return out + [(".__dict__", obj.__dict__)]
    if isinstance(obj, types.CellType):
        try:
            return [("<cell>", obj.cell_contents)]
        except ValueError:  # an empty cell
            return []
    if isinstance(obj, types.GeneratorType):
        frame = obj.gi_frame
        return [] if frame is None else [(f"<local {k}>", x) for k, x in frame.f_locals.items()]
    return _attributes(obj)


def _attributes(obj: Any) -> list[tuple[str, Any]]:
    out = []
    if hasattr(obj, "__self__"):  # bound methods, builtin ones too (``state.deck.pop``)
        out.append((".__self__", obj.__self__))
    if hasattr(obj, "__func__"):
        out.append((".__func__", obj.__func__))
    # Slots, the attributes of compiled (mypyc) classes, and properties (View.worlds):
    # descriptors of the class. A property is read as a strategy would read it,
    # since its getter may reach what the object itself does not hold.
    for cls in type(obj).__mro__:
        for name, d in vars(cls).items():
            if isinstance(d, (types.MemberDescriptorType, types.GetSetDescriptorType, property)) and name not in (
                    "__dict__", "__weakref__", "__class__"):
                try:
                    out.append((f".{name}", getattr(obj, name)))
                except AttributeError:  # an unset slot
                    pass
    d = getattr(obj, "__dict__", None)
    if isinstance(d, dict):
        out += [(f".{k}", x) for k, x in d.items()]
    # Anything else the object holds (partials, C-level references)
    named = {id(x) for _, x in out}
    out += [("<referent>", x) for x in gc.get_referents(obj) if id(x) not in named and not isinstance(x, type)]
    return out


def _walk(root: Any) -> list[tuple[str, Any]]:
    """Every object reachable from ``root`` (breadth first), with the first
    path found to it; atoms (numbers, strings) at every place they are found,
    since the same small int may be a city here and a count there."""
    seen = {id(root)}
    out = [("view", root)]
    i = 0
    while i < len(out):
        path, obj = out[i]
        i += 1
        if isinstance(obj, _ATOMS) or isinstance(obj, _STOPS) or isinstance(obj, random.Random):
            continue
        for name, x in _edges(obj):
            if isinstance(x, _ATOMS):
                out.append((path + name, x))
            elif id(x) not in seen:
                seen.add(id(x))
                out.append((path + name, x))
    return out


def _value(obj: Any) -> Any:
    """What an object says of the game by itself (its contents are walked)."""
    if isinstance(obj, _ATOMS):
        return obj
    if isinstance(obj, random.Random):
        return obj.getstate()  # a stream is its future draws
    if isinstance(obj, (tuple, list, dict, set, frozenset)):
        return (type(obj).__name__, len(obj))
    return type(obj).__qualname__


def _parts(root: Any) -> dict[int, Any]:
    """The objects reachable from ``root`` but its atoms, by id (holding them:
    an id is an object's only while it lives, and compiled attributes are
    new objects at each read)."""
    return {id(x): x for _, x in _walk(root) if not isinstance(x, _ATOMS)}


def _frozen(obj: Any) -> bool:
    """A tuple of values all the way down: it says nothing but its value
    (compared with the concealed twin's above) and leads nowhere, so a view
    may share it with the state (Red Notice's board and public sets,
    GameState.radars_tuple and public_sets)."""
    return type(obj) is tuple and all(isinstance(x, _ATOMS) or _frozen(x) for x in obj)


def _own_records(game: Any, state: Any, seat: int) -> list[Any]:
    """What a view may share with the game: Red Notice's View.history reads
    the seat's own record list, append-only, up to its length at the view's
    decision (engine/view.py), so a view costs the same however long the game."""
    return [state.history[seat]] if game.name == "red_notice" else []


def _leaks(game: Any, state: Any, seat: int, rng: random.Random, view_of: Any = None,
           after: Any = None) -> list[str]:
    """What ``seat`` could steal from its view of ``state`` (and the decision it
    is asked): the real state or one of its mutable parts, or a value that
    moves when the hidden facts are re-drawn. ``after``: the view as the
    strategy left it (after choosing), checked for links to the game too."""
    view_of = view_of or game.view
    twin = game.conceal(state, seat, rng)
    real = [("view", view_of(state, seat)), ("decision", state.pending)]
    other = [("view", view_of(twin, seat)), ("decision", twin.pending)]
    found = []
    for (name, a), (_, b) in zip(real, other, strict=True):
        wa, wb = _walk(a), _walk(b)
        va = [(p.replace("view", name, 1), _value(x)) for p, x in wa]
        vb = [(p.replace("view", name, 1), _value(x)) for p, x in wb]
        if va != vb:
            k = next((i for i, (x, y) in enumerate(zip(va, vb, strict=False)) if x != y), min(len(va), len(vb)))
            end = ("(the end of the walk)", None)
            found.append(f"a hidden fact: {(va + [end])[k]} in this game, {(vb + [end])[k]} once the facts "
                         f"hidden from the seat are re-drawn")
    # The game's own objects: what the state reaches and its concealed copy
    # does not share (rules, components, the decision, immutable parts are shared).
    parts, shared = _parts(state), _parts(twin)
    mine = set(parts) - set(shared) - {id(x) for x in _own_records(game, state, seat)}
    for name, root in [*real, *([("view after choosing", after)] if after is not None else [])]:
        for path, x in _walk(root):
            if id(x) in mine and not _frozen(x):
                what = "the real state" if x is state else f"a part of the real state ({type(x).__name__})"
                found.append(f"{path.replace('view', name, 1)} is {what}")
    return found


def _secrecy_seatings(game: Any) -> list[tuple[Any, list[tuple[str, dict[str, Any]]]]]:
    """(setup, one strategy per seat) for the games the secrecy test plays:
    every built-in strategy, search with a small budget in both seats."""
    setups = _setups(game, game.rules())
    if game.name == "red_notice":
        search_a = {"iterations": 1, "kinds": "angela.bank,angela.check,angela.angela_move,angela.place_token"}
        search_j = {"iterations": 1, "particles": 50, "kinds": "jessah.jessah_move,jessah.bank,jessah.check"}
        return [(setups[0], [("expert", {}), ("expert", {})]),
                (setups[5], [("rule", {}), ("random", {})]),
                (setups[9], [("search", search_a), ("search", search_j)]),
                (setups[3], [("random", {}), ("search", {**search_j, "belief": "walk"})])]
    names = sorted(game.strategies)
    out = []
    for i, setup in enumerate(setups * 2):
        seats = game.seats(game.rules(), setup)
        out.append((setup, [(names[(i + k) % len(names)], {}) for k in range(len(seats))]))
    return out


def test_nothing_reachable_from_a_view_holds_a_hidden_fact(game: Any) -> None:
    """Every object a strategy can reach from its view and its decision, at a
    third of the decisions of games played by every built-in strategy (search
    in both seats for Red Notice), is checked two ways (``_leaks``):

    - by identity: no object reached is the real state or one of its own
      mutable parts (what the state reaches and a clone of it does not share),
      so a strategy can neither read the game as it moves on nor change it.
      The one exception is the seat's own record list (``_own_records``);
    - by value: the same walk over the seat's view of a twin of the state whose
      hidden facts are re-drawn (``Game.conceal``: Angela's city while hidden,
      the opponent's hand and tokens, the decks' order and the chance stream;
      in FBI the deck and the others' chosen agents) must meet the very same
      values at the very same paths. Whatever differs depends on a hidden fact.

    The comparison is view against view, never a value against the real
    hidden facts, so a value a view draws for itself cannot be mistaken for a
    leak, and a hidden fact is found wherever it is copied to (a tuple, a
    closure, a frame). A re-draw that happens to equal the truth hides a leak
    at that decision only; hundreds of decisions are checked.
    ``test_the_secrecy_walk_finds_a_planted_leak`` shows each way of leaking
    is found."""
    from rnsim.strategy import load_strategy

    rules = game.rules()
    checked = 0
    for g, (setup, seating) in enumerate(_secrecy_seatings(game)):
        strategies = [load_strategy(ref, params, game) for ref, params in seating]
        for seat, s in enumerate(strategies):
            s.new_game(seat, random.Random(100 * g + seat))
        state = game.new_state(rules, random.Random(g), setup=setup, seed=g, log=True)
        n = 0
        while not state.over:
            d = state.pending
            view = game.view(state, d.seat)
            option = strategies[d.seat].choose(view, d)
            if n % 3 == 0:  # fresh views of the game and its twin, and the one the strategy used
                found = _leaks(game, state, d.seat, random.Random(n), after=view)
                assert not found, (g, n, d.kind, found[:3])
                checked += 1
            state.apply(option)
            n += 1
    assert checked >= 150


class _Leaky:
    """A view with something more (a planted leak)."""

    __slots__ = ("view", "leak")

    def __init__(self, view: Any, leak: Any) -> None:
        self.view, self.leak = view, leak


def _closure_over(xs: Any) -> Any:
    return lambda: len(xs)


def _with_world_facts(**fields: Any) -> Any:
    """Red Notice's view, the facts its worlds are drawn from given fields
    taken from the real game."""
    from rnsim.games.red_notice.engine.view import build_view

    def view_of(state: Any, seat: int) -> Any:
        v = build_view(state, seat)
        for name, f in fields.items():
            setattr(v._world, name, f(state, seat))
        return v
    return view_of


def _with_history(view_of_records: Any) -> Any:
    """Red Notice's view with another record list as its history."""
    from rnsim.games.red_notice.engine.view import History, build_view

    def view_of(state: Any, seat: int) -> Any:
        v = build_view(state, seat)
        records = view_of_records(state, seat)
        v.history = History(records, len(records), True)
        return v
    return view_of


_HELD: dict[int, Any] = {}  # where _Hatch's getter finds what it hands out, by the hatch's id


class _Hatch:
    """A view whose attribute is a getter reading what the view does not hold
    (a planted leak: nothing reaches the state but the getter's answer)."""

    __slots__ = ()

    @property
    def leak(self) -> Any:
        return _HELD[id(self)][1]


def _hatch(state: Any, seat: int) -> _Hatch:
    h = _Hatch()
    _HELD[id(h)] = (h, state)  # the hatch kept alive, so its id stays its own
    return h


# name -> (the games it applies to, the view with the leak, what the walk must say)
_PLANTED: dict[str, tuple[tuple[str, ...], Any, str]] = {
    "the real state": (("red_notice", "fbi"), lambda st, seat: _Leaky(None, st), "view.leak is the real state"),
    "a closure over the deck": (("red_notice", "fbi"), lambda st, seat: _Leaky(None, _closure_over(st.deck)),
                                "view.leak<closure 0><cell> is a part of the real state (list)"),
    "a bound method of the deck": (("red_notice", "fbi"), lambda st, seat: _Leaky(None, st.deck.pop),
                                   "view.leak.__self__ is a part of the real state (list)"),
    "a getter handing out the real state": (("red_notice", "fbi"), _hatch, "view.leak is the real state"),
    "a tuple holding the deck": (("red_notice", "fbi"), lambda st, seat: _Leaky(None, (1, st.deck)),
                                 "view.leak[1] is a part of the real state (list)"),
    "a copy of the deck's order": (("red_notice", "fbi"), lambda st, seat: _Leaky(None, tuple(st.deck)),
                                   "a hidden fact: ('view.leak[0]'"),
    "worlds sharing the live frames": (("red_notice",), _with_world_facts(stack=lambda st, seat: list(st.stack)),
                                       "view._world.stack[0] is a part of the real state (Round)"),
    "worlds keeping the upgrade deck's order": (
        ("red_notice",), _with_world_facts(upgrades_gone=lambda st, seat: tuple(st.upgrade_deck)),
        "a hidden fact: ('view._world.upgrades_gone[0]'"),
    "a history of the opponent's records": (("red_notice",), _with_history(lambda st, seat: st.history[1 - seat]),
                                            "view.history._records is a part of the real state (list)"),
    "a copy of the opponent's hand": (("red_notice",), lambda st, seat: _Leaky(None, tuple(st.hands[1 - seat])),
                                      "a hidden fact: ('view.leak[0]'"),
    "a copy of the others' chosen agents": (("fbi",), lambda st, seat: _Leaky(None, tuple(st.pairs)),
                                            "a hidden fact: ('view.leak["),
}


@pytest.mark.parametrize(("name", "leak"), [(g, leak) for leak, (games, _, _) in sorted(_PLANTED.items())
                                             for g in games if g in GAMES])
def test_the_secrecy_walk_finds_a_planted_leak(name: str, leak: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The walk above can fail: each leak planted in the view is reported, with its path."""
    game = get_game(name)
    _, view_of, says = _PLANTED[leak]
    state = _new(game, 3)
    rng = random.Random(3)
    # A decision well into the game, where the leak's target holds a secret:
    # Jessah's, once Angela has moved; in FBI, once the agents are chosen.
    while game.name == "red_notice" and (state.round < 3 or state.pending.seat != 1) or (
            game.name == "fbi" and state.phase != 2):
        state.apply(state.pending.options[rng.randrange(len(state.pending.options))])
    seat = state.pending.seat
    assert not _leaks(game, state, seat, random.Random(1))
    monkeypatch.setattr(game, "view", view_of)
    found = _leaks(game, state, seat, random.Random(1))
    assert any(says in f for f in found), found
