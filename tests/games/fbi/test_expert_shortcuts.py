"""The FBI expert's shortcuts compute exactly what the plain computations
do, so a faster expert plays the same games: the bid's turn play-out
(``first_round`` + ``second_round``) against ``play_out``, bonus-card
bookkeeping (``rescored``) against re-scoring (``evaluate``) whenever scores
are exact, and the shared pair facts against ``rule_pair``."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rnsim_strategies.fbi.expert import (
    _FACTS,
    _LAST_FACTS,
    _LAST_MODEL,
    _LAST_POSITION,
    _MODELS,
    _POSITIONS,
    ExpertStrategy,
    _facts,
    _kit,
    _Pairs,
    legal_pairs,
)
from rnsim_strategies.fbi.model import (
    colour_totals,
    evaluate,
    exact_scores,
    first_round,
    front_first,
    leader,
    pair_colours,
    play_out,
    rescored,
    rule_pair,
    scored_leaders,
    second_round,
    second_value,
    take_value,
    values_of,
)

from rnsim.games.fbi.components import load_components
from rnsim.games.fbi.game import GAME, play
from rnsim.games.fbi.state import Decision, FbiState, _agent_options
from rnsim.games.fbi.view import build_view

COMPS = load_components("classic")
K = len(COMPS.colours)
values = st.integers(min_value=-4, max_value=7)
tables = st.lists(st.lists(values, max_size=4), min_size=K, max_size=K)


def agents(k: int) -> st.SearchStrategy[list[int]]:
    """What a seat holds: nothing, one agent, two, or a 2x pair (a colour twice)."""
    colour = st.integers(min_value=0, max_value=k - 1)
    return st.one_of(st.just([]), st.lists(colour, min_size=1, max_size=1), st.lists(colour, min_size=2, max_size=2))


@settings(max_examples=300, deadline=None)
@given(data=st.data(), table=tables, stacked=st.booleans(), n=st.integers(min_value=3, max_value=5))
def test_turn_play_out_plays_as_play_out(data: st.DataObject, table: list[list[int]], stacked: bool, n: int) -> None:
    if not stacked:
        table = [sorted(t, reverse=True) for t in table]
    order = tuple(data.draw(st.permutations(list(range(n)))))  # as the expert passes it
    me = data.draw(st.integers(min_value=0, max_value=n - 1))
    mine, rule = data.draw(agents(K)), data.draw(agents(K))
    points = data.draw(st.lists(values, min_size=n, max_size=n))
    totals = [[0] * n for _ in range(K)]

    held = [list(rule) for _ in range(n)]
    held[me] = list(mine)
    t1, tot1, pts1 = [c[:] for c in table], [c[:] for c in totals], points[:]
    play_out(list(order) + list(reversed(order)), [list(a) for a in held], t1, tot1, pts1, stacked)

    # the bid's way: the arrests before mine once, then the rest
    front = front_first(table, stacked)
    taken, tot2, pts2, left = [0] * K, [c[:] for c in totals], points[:], [-1] * n
    p = order.index(me)
    first_round(order, 0, p, held, front, taken, tot2, pts2, left)
    first_round(order, p, n, held, front, taken, tot2, pts2, left)
    second_round(order, left, front, taken, tot2, pts2)
    assert (tot2, pts2) == (tot1, pts1)
    assert [len(t) for t in t1] == [len(t) - k for t, k in zip(table, taken, strict=True)]


@settings(max_examples=300, deadline=None)
@given(data=st.data(), n=st.integers(min_value=3, max_value=5), needs=st.booleans(),
       weight=st.sampled_from([0.0, 0.25, 0.5, 1.0]))
def test_bonus_bookkeeping_scores_as_evaluate(data: st.DataObject, n: int, needs: bool, weight: float) -> None:
    assert exact_scores(weight, COMPS.bonus)
    totals = data.draw(st.lists(st.lists(st.integers(-6, 12), min_size=n, max_size=n), min_size=K, max_size=K))
    points = data.draw(st.lists(st.integers(-10, 40), min_size=n, max_size=n))
    me = data.draw(st.integers(min_value=0, max_value=n - 1))
    changes = data.draw(st.dictionaries(st.integers(0, K - 1), st.integers(-6, 8), max_size=2))
    score, leaders, with_bonus = scored_leaders(me, totals, points, COMPS.bonus, weight, needs)
    assert score == evaluate(me, totals, points, COMPS.bonus, weight, needs)

    after = [c[:] for c in totals]
    pts = points[:]
    gain = sum(changes.values())
    pts[me] += gain
    moves = []
    for c, g in changes.items():
        after[c][me] += g
        now = leader(after[c], needs)
        if now != leaders[c]:
            moves.append((c, now))
    expected = evaluate(me, after, pts, COMPS.bonus, weight, needs)
    assert rescored(me, with_bonus, leaders, gain, moves, COMPS.bonus, weight) == expected
    if not moves:
        assert score + gain == expected


def test_inexact_weights_are_rescored_in_full() -> None:
    # 0.1 has no exact binary form: bookkeeping could differ in the last bit
    assert not exact_scores(0.1, COMPS.bonus)
    assert exact_scores(0.5, COMPS.bonus) and exact_scores(1.0, COMPS.bonus) and exact_scores(0.0, COMPS.bonus)


@settings(max_examples=200, deadline=None)
@given(table=tables, stacked=st.booleans(), with_doubler=st.booleans())
def test_shared_pair_facts_agree_with_rule_pair(table: list[list[int]], stacked: bool, with_doubler: bool) -> None:
    if not stacked:
        table = [sorted(t, reverse=True) for t in table]
    legal = legal_pairs(table, COMPS.colours, COMPS.doubler, with_doubler)
    facts = _Pairs(table, COMPS, stacked, with_doubler)
    if not legal:
        assert facts.rule_cols == []
        return

    def plain(pair: tuple[str, ...]) -> int:
        cols = pair_colours(pair, COMPS.colours, COMPS.doubler)
        if len(cols) == 2 and cols[0] == cols[1]:
            return take_value(table[cols[0]], stacked) + second_value(table[cols[0]], stacked)
        return sum(take_value(table[c], stacked) for c in cols)

    best = max(legal, key=plain)  # max keeps the first of equals, as the rule player does
    assert rule_pair(legal, table, stacked, COMPS.colours, COMPS.doubler) == best
    assert facts.rule_cols == pair_colours(best, COMPS.colours, COMPS.doubler)
    ranked = sorted(legal, key=plain, reverse=True)[:4]
    assert facts.top_cols(4) == [pair_colours(p, COMPS.colours, COMPS.doubler) for p in ranked]
    assert [facts.gains()[p][1] for p in legal] == [plain(p) for p in legal]
    for p in legal:  # the arrests, their points and the net per colour
        gains, total, net = facts.gains()[p]
        cols = pair_colours(p, COMPS.colours, COMPS.doubler)
        assert [c for c, _ in gains] == cols and sum(g for _, g in gains) == total
        assert net == ([(cols[0], total)] if len(cols) == 2 and cols[0] == cols[1] else gains)


class _ThenChecked(ExpertStrategy):
    """The expert, checking at each arrest that the pairs ``on_agents`` kept
    for the turn are the ones rebuilt by putting the turn's arrests back."""

    def _then(self, view: Any, table: list[list[int]]) -> _Pairs:
        got = super()._then(view, table)
        kept = self._then_of
        self._then_of = None
        rebuilt = super()._then(view, table)
        self._then_of = kept
        assert got.values == rebuilt.values
        assert (got.legal, got.cols, got.score, got.rule_cols) == (rebuilt.legal, rebuilt.cols, rebuilt.score,
                                                                   rebuilt.rule_cols)
        self.checked += 1
        self.shared += kept is not None and kept[3] is got
        return got


def test_the_kit_is_the_fields_of_the_views_own_rules_and_components() -> None:
    # games of other rules share the component set: the kit must follow the
    # rules too, not only the components
    for knobs in ({}, {"stacked": True}, {"bid_cards": "purple", "doubler": False},
                  {"bonus_needs_positive": False}, {}):
        rules = GAME.rules(knobs)
        state = FbiState.new(rules, 4, random.Random(1), seed=1)
        view = build_view(state, 0)
        kit = _kit(view)
        assert _kit(build_view(state, 2)) is kit  # one for every seat of the game
        comps = view.comps
        assert (kit.colours, kit.k, kit.doubler, kit.card_colour, kit.card_value, kit.bonus, kit.purple) == (
            comps.colours, len(comps.colours), comps.doubler, comps.card_colour, comps.card_value, comps.bonus,
            comps.purple)
        assert (kit.stacked, kit.with_doubler, kit.needs, kit.only_purple) == (
            rules.stacked, rules.doubler, rules.bonus_needs_positive, rules.bid_cards == "purple")


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_pairs_kept_from_the_agents_are_the_table_before_the_arrests(players: int) -> None:
    checked = shared = 0
    for g, knobs in enumerate(({}, {"stacked": True})):
        lineup = [_ThenChecked() for _ in range(players)]
        for s in lineup:
            s.checked = s.shared = 0
        play(GAME.rules(knobs), players, lineup, 11, g)
        checked += sum(s.checked for s in lineup)
        shared += sum(s.shared for s in lineup)
    assert checked > 0 and shared > 0


def _fresh_options(state: FbiState) -> list[Any]:
    """The decision's options built anew from the rules (F3, F6, FR5, FR7)."""
    d = state.pending
    assert d is not None
    if d.kind == "bid":
        return state.comps.bid_options(state.slammer[d.seat], state.rules.bid_cards)
    legal = [c for c in range(len(state.comps.colours)) if state.table[c]]
    return _agent_options(state.comps, legal, state.rules.doubler)


@pytest.mark.parametrize("knobs", [{}, {"doubler": False}, {"bid_cards": "purple"}])
def test_prebuilt_options_are_the_options_built_anew(knobs: dict[str, Any]) -> None:
    rules = GAME.rules(knobs)
    seen = 0
    for g in range(6):
        state = FbiState.new(rules, 3 + g % 3, random.Random(g))
        rng = random.Random(100 + g)
        while not state.over:
            d = state.pending
            assert d is not None
            if d.kind in ("bid", "agents"):
                assert d.options == _fresh_options(state)
                d.options.append("junk")  # each decision owns its list
                again = state.bid_options(d.seat) if d.kind == "bid" else state.agent_options()
                assert "junk" not in again
                d.options.pop()
                seen += 1
            state.apply(rng.choice(d.options))
    assert seen > 0


class _Overridden(ExpertStrategy):
    """The expert with each decision's method overridden (recording the kinds
    asked, then answering as the expert does)."""

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        self.asked: Counter[str] = Counter()

    def on_bid(self, view: Any, decision: Any) -> Any:
        self.asked["bid"] += 1
        return super().on_bid(view, decision)

    def on_agents(self, view: Any, decision: Any) -> Any:
        self.asked["agents"] += 1
        return super().on_agents(view, decision)

    def on_arrest(self, view: Any, decision: Any) -> Any:
        self.asked["arrest"] += 1
        return super().on_arrest(view, decision)


def test_choose_answers_each_decision_through_its_method_a_subclass_override_included() -> None:
    lineup = [_Overridden() for _ in range(4)]
    _, outcome = play(GAME.rules({}), 4, lineup, 5, 0)
    asked = sum((s.asked for s in lineup), Counter())
    assert set(asked) == {"bid", "agents", "arrest"}
    assert sum(asked.values()) == outcome.decisions
    # a kind the expert has no method for: Strategy.choose's random legal option
    e, plain = ExpertStrategy(), ExpertStrategy()
    e.new_game(0, random.Random(4))
    plain.new_game(0, random.Random(4))
    odd = Decision(0, "other", ["a", "b", "c", "d"])
    assert [e.choose(None, odd) for _ in range(8)] == [plain.default(None, odd) for _ in range(8)]


class _CacheChecked(ExpertStrategy):
    """The expert, checking that each answer kept for the next seat (the last
    pairs, position or model) is the one computed anew, and the one its full
    key finds in the caches (the same values)."""

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        self.checked: Counter[str] = Counter()

    def _position(self, view: Any) -> tuple[list[list[int]], list[int]]:
        got = super()._position(view)
        kit = _kit(view)
        assert got == colour_totals(view.slammers, kit.card_colour, kit.card_value, kit.k)
        assert _POSITIONS.get((view.slammers, kit)) in (None, got)
        pairs = _facts(view)
        assert pairs.values == values_of(view.table, kit.card_value, kit.stacked)
        kept = _FACTS.get((view.table, kit))
        assert kept is None or (kept.values, kept.cols, kept.score) == (pairs.values, pairs.cols, pairs.score)
        self.checked["position"] += 1
        return got

    def _rival_model(self, view: Any, f: _Pairs, totals: list[list[int]], points: list[int], samples: int) -> Any:
        got = super()._rival_model(view, f, totals, points, samples)
        key = (f, view.slammers, view.order, view.last_turn, _kit(view).needs, samples, self._rounds,
               self._temperature, self._rival_t, self._bonus_weight, self.candidates(view.players), self._pick_t,
               self._arrest_mix)
        kept = _MODELS.get(key)
        assert kept is None or (kept.index, kept.cums, kept.odds) == (got.index, got.cums, got.odds)
        self.checked["model"] += kept is not None
        return got


@pytest.mark.parametrize("players", [3, 4, 5])
def test_the_answers_kept_for_the_next_seat_are_those_of_their_keys(players: int) -> None:
    # seats of other knobs share a table: the last model must be theirs
    knobs = [{}, {"temperature": 2.0}, {"rival_temperature": 1.0, "arrest_mix": 0.25}, {}, {"pick_temperature": 1.0}]
    checked: Counter[str] = Counter()
    for g, rules in enumerate(({}, {"stacked": True})):
        lineup = [_CacheChecked(**knobs[s]) for s in range(players)]
        play(GAME.rules(rules), players, lineup, 17, g)
        checked = sum((s.checked for s in lineup), checked)
    assert checked["position"] > 0 and checked["model"] > 0


class _Recorded(ExpertStrategy):
    """The expert, recording its answers."""

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        self.answers: list[Any] = []

    def choose(self, view: Any, decision: Any) -> Any:
        got = super().choose(view, decision)
        self.answers.append(got)
        return got


class _Forgetful(_Recorded):
    """The expert without the answers kept for the next seat: it finds each
    by its full key."""

    def choose(self, view: Any, decision: Any) -> Any:
        _LAST_FACTS.of = _LAST_POSITION.of = None
        _LAST_MODEL.model = None
        return super().choose(view, decision)


@pytest.mark.parametrize("players", [4, 5])
def test_the_answers_kept_for_the_next_seat_change_no_choice(players: int) -> None:
    # seats of other knobs share each table: what one kept must not answer another
    knobs = [{}, {"temperature": 2.0}, {"rival_temperature": 1.0, "arrest_mix": 0.25}, {"pick_temperature": 1.0},
             {"agent_pairs_5": 9, "bonus_weight": 0.25}]
    for g in range(2):
        kept = [_Recorded(**knobs[s]) for s in range(players)]
        anew = [_Forgetful(**knobs[s]) for s in range(players)]
        play(GAME.rules({}), players, kept, 29, g)
        play(GAME.rules({}), players, anew, 29, g)
        assert [s.answers for s in kept] == [s.answers for s in anew]
