"""Typed options: every option the engine offers has the type its
decision kind declares in ``engine/decision.py`` (``OPTION_TYPES``), and the
strategy handlers a plugin author overrides are annotated with those types."""

from __future__ import annotations

import random
import types
import typing
from typing import Any, Literal, get_args, get_origin

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rnsim_strategies.red_notice.base import RedNoticeStrategy
from rnsim_strategies.red_notice.expert import Expert
from rnsim_strategies.red_notice.random_play import RandomStrategy
from rnsim_strategies.red_notice.rules_based import RuleBased

from rnsim.games.red_notice.engine import decision as D
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.seeding import game_seeds
from tests.games.red_notice.scenario import capture, kind, play, scenario

RULES = RuleSet()
IDENTITIES = [i.id for i in RULES.load_components().identities]


def conforms(value: Any, tp: Any) -> bool:
    """Whether ``value`` has type ``tp`` (the alias forms decision.py uses:
    int, str, Literal, fixed-length tuple and unions of them)."""
    origin = get_origin(tp)
    if origin is Literal:
        return any(type(value) is type(a) and value == a for a in get_args(tp))
    if origin in (typing.Union, types.UnionType):
        return any(conforms(value, a) for a in get_args(tp))
    if origin is tuple:
        args = get_args(tp)
        return (isinstance(value, tuple) and len(value) == len(args)
                and all(conforms(v, a) for v, a in zip(value, args, strict=True)))
    if tp is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, tp)


def test_conforms_tells_a_wrong_shape_from_the_right_one():
    assert conforms(("move", 3), D.AngelaMoveOption)
    assert conforms("stay", D.AngelaMoveOption)
    assert not conforms(3, D.AngelaMoveOption)  # a bare city is not a step
    assert not conforms(("move", "3"), D.AngelaMoveOption)
    assert not conforms("inspect", D.AngelaMoveOption)  # Jessah's, not Angela's
    assert conforms(("move_barrier", 1, 2), D.JessahSecurityOption)
    assert not conforms(("move_barrier", 1), D.JessahSecurityOption)
    assert conforms(7, D.BankOption) and conforms("pass", D.BankOption) and not conforms("draw", D.BankOption)


def _play_checking(master: int, index: int, rules: RuleSet, identities: tuple[str, str] | None) -> set[str]:
    seeds = game_seeds(master, index)
    s = GameState.new(rules, random.Random(seeds.chance), identities=identities)
    players = [RandomStrategy(), RandomStrategy()]
    players[0].new_game(0, random.Random(seeds.seats[0]))
    players[1].new_game(1, random.Random(seeds.seats[1]))
    kinds: set[str] = set()
    while not s.over:
        d = s.pending
        assert d is not None
        assert d.kind in D.OPTION_TYPES, f"decision kind {d.kind!r} has no declared option type"
        tp = D.OPTION_TYPES[d.kind]
        bad = [o for o in d.options if not conforms(o, tp)]
        assert not bad, f"{d.kind}: options {bad[:3]} are not {tp}"
        kinds.add(d.kind)
        s.apply(players[d.seat].choose(None, d))  # type: ignore[arg-type]
    return kinds


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(master=st.integers(0, 2**32 - 1), index=st.integers(0, 10_000),
       pair=st.sampled_from([(a, b) for i, a in enumerate(IDENTITIES) for b in IDENTITIES[i + 1:]]))
def test_every_offered_option_has_its_kinds_declared_type(master, index, pair):
    _play_checking(master, index, RULES, pair)


def test_every_declared_kind_is_asked_with_options_of_its_type():
    """No declared kind is dead: random play over every identity pair meets
    all of them but the Businesswoman's removals of black pieces with
    Permanent Units in play, which a scenario reaches."""
    seen: set[str] = set()
    pairs = [(a, b) for i, a in enumerate(IDENTITIES) for b in IDENTITIES[i + 1:]]
    for g in range(120):
        seen |= _play_checking(3, g, RULES, pairs[g % len(pairs)])
    s = scenario(identities="businesswoman pilot", angela="Auckland", permanents="permanent_units",
                 upgrades_face_up="wiretap informant", radars={"EU": "black", "NA": "black"},
                 barriers={"Paris|Rome": "black", "Lima|Santiago": "black"}, then=[capture("Auckland")])
    assert kind(s) == "identity"
    play(s, "businesswoman")
    for asked, answer in (("remove_black_radar", "NA"), ("remove_black_barrier", "Lima|Santiago")):
        d = s.decision()
        assert d.kind == asked and all(conforms(o, D.OPTION_TYPES[asked]) for o in d.options)
        seen.add(asked)
        play(s, answer)
    assert seen == set(D.OPTION_TYPES)


@pytest.mark.parametrize("cls", [RedNoticeStrategy, RuleBased, Expert])
def test_handlers_are_annotated_with_their_kinds_option_type(cls):
    """A plugin author reads the handler's signature: it must say the kind's type."""
    ns = {n: getattr(D, n) for n in dir(D)}
    handlers = [k for k in D.OPTION_TYPES if f"on_{k}" in vars(cls)]
    assert handlers, f"{cls.__name__} overrides no handler"
    for handled in handlers:
        fn = vars(cls)[f"on_{handled}"]
        # compiled (mypyc) methods keep no annotations; the source's do
        ann = getattr(fn, "__annotations__", None)
        if not ann:
            continue
        hints = typing.get_type_hints(fn, globalns={**ns, **vars(__import__(cls.__module__, fromlist=["_"]))})
        assert hints["return"] == D.OPTION_TYPES[handled], f"{cls.__name__}.on_{handled} returns {hints['return']}"
        assert hints["decision"] == D.Decision[D.OPTION_TYPES[handled]]
