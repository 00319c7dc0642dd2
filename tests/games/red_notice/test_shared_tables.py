"""What the engine builds once and shares: the seats' round sets its views
read (GameState.seat_sets), the option tuples its decisions offer
(state._Options) and the answers found among them by identity (_offers),
the barrier board a Jessah security decision tests membership on, the
(seat, half) pairs of performances() and belief.expand's read of a list.
Each gives what the code it stands for gave: the same views, the same
legal answers, the same values.
"""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnsim.errors import IllegalOption
from rnsim.games.red_notice.engine import belief as bel
from rnsim.games.red_notice.engine.decision import JessahSecurityOptions
from rnsim.games.red_notice.engine.state import POW, GameState, _offers, _options, performances
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet

RULES = RuleSet()


def _copy(opt: object) -> object:
    """An equal answer that is not the same object (as a strategy builds it)."""
    return tuple(list(opt)) if isinstance(opt, tuple) else opt


def _games(seeds: range):
    """(state, decision) at every decision of random games, answers rebuilt."""
    for seed in seeds:
        s = GameState.new(RULES, random.Random(seed))
        rng = random.Random(seed + 1000)
        while not s.over:
            d = s.decision()
            yield s, d
            s.apply(_copy(d.options[rng.randrange(len(d.options))]))


def test_views_read_from_the_shared_round_sets_equal_views_of_a_fresh_copy():
    # a copy keeps none of the sets: its views build them from its lists
    n = 0
    for s, _ in _games(range(12)):
        for seat in (0, 1):
            v, f = build_view(s, seat), build_view(s.clone(), seat)
            assert v == f
            # the cards revealed, as a sample of the seat's decision reads them
            assert (v._world is None) == (f._world is None)
            if v._world is not None and f._world is not None:
                assert v._world.revealed == f._world.revealed
            n += 1
    assert n > 1000


def test_the_sets_a_view_holds_stay_as_they_were_when_the_game_goes_on():
    s = GameState.new(RULES, random.Random(3))
    rng = random.Random(4)
    kept = []
    while not s.over:
        d = s.decision()
        v = build_view(s, d.seat)
        kept.append((v, v.slots, v.my_tokens, v.my_pool, v.spent, v.cards))
        s.apply(d.options[rng.randrange(len(d.options))])
    for v, slots, tokens, pool, spent, cards in kept:
        assert (v.slots, v.my_tokens, v.my_pool, v.spent, v.cards) == (slots, tokens, pool, spent, cards)


def test_an_answer_equal_to_an_option_is_found_among_the_shared_tuples():
    found = 0
    for s, d in _games(range(6)):
        table = _options(s.comps)
        if not isinstance(d.options, list):
            continue
        for opt in d.options:
            same = table.canonical(_copy(opt))
            assert same == opt
            assert _offers(d.options, same)
            if isinstance(opt, tuple) and d.kind in ("place_token", "angela_move", "jessah_move"):
                assert same is opt  # found by identity, not compared
                found += 1
    assert found > 1000


@pytest.mark.parametrize("bad", [(99, 0, 0), (1, -1, 0), (1, 0, 2), (1.5, 0, 0), ("move", -1), ("move", 10**6),
                                 ("remove_radar", 0), ("stay",), "nonsense", None, [1, 0, 0], (True, 0, 0)])
def test_an_answer_offered_nowhere_is_refused(bad):
    for s, d in itertools.islice(_games(range(3)), 400):
        if bad in d.options:
            continue
        assert not _offers(d.options, _options(s.comps).canonical(bad))
        with pytest.raises(IllegalOption):
            s.clone().apply(bad)


def _reference_membership(opts: JessahSecurityOptions, opt: object) -> bool:
    """JessahSecurityOptions.__contains__ on sets of the lists (no board)."""
    free, placed = frozenset(opts.free), frozenset(opts.placed)
    if opt == "pass":
        return True
    if not isinstance(opt, tuple) or not opt:
        return False
    if opt[0] == "radar" and len(opt) == 2:
        return opt[1] in opts.radars
    if opt[0] == "barrier" and len(opt) == 2:
        return opts.new_barriers and opt[1] in free
    if opt[0] == "move_barrier" and len(opt) == 3:
        return opt[1] in placed and opt[2] in free
    return False


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from([0, 0, 0, 1, 2]), min_size=6, max_size=12), st.booleans(),
       st.lists(st.one_of(st.integers(-2, 14), st.just(True), st.just(1.0)), min_size=2, max_size=2))
def test_jessah_security_membership_reads_the_board_as_the_lists_say(board, new, picks):
    free = [r for r, b in enumerate(board) if not b]
    placed = [r for r, b in enumerate(board) if b]
    with_board = JessahSecurityOptions([0, 2], free, new, placed, tuple(board))
    without = JessahSecurityOptions([0, 2], free, new, placed)
    a, b = picks
    for opt in (("barrier", a), ("move_barrier", a, b), ("radar", a), "pass", ("barrier",), 3):
        assert (opt in with_board) == (opt in without) == _reference_membership(without, opt)
    assert list(with_board) == list(without)


def _reference_performances(a, b, initiative):
    """performances() as the rules state it (R1-R3), by unpacking."""
    if a is None and b is None:
        return ()
    if a is None or b is None:
        seat, _ = a if a is not None else b
        half = 0 if a is not None else 1
        return ((seat, half), (seat, 1 - half))
    (sa, va), (sb, vb) = a, b
    if va == vb:
        first = 0 if sa == initiative else 1
        return ((sa, 0), (sb, 1)) if first == 0 else ((sb, 1), (sa, 0))
    if va == POW or vb == POW:
        return ((sa, 0), (sa, 1)) if va == POW else ((sb, 1), (sb, 0))
    if va > vb:
        return ((sa, 0), (sa, 1), (sb, 1))
    return ((sb, 1), (sb, 0), (sa, 0))


def test_performances_pairs_are_those_of_the_rules():
    tokens = [None] + [(seat, v) for seat in (0, 1) for v in (1, 2, 3, 4, 5, POW)]
    for a, b, ini in itertools.product(tokens, tokens, (0, 1)):
        assert performances(a, b, ini) == _reference_performances(a, b, ini)


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.lists(st.integers(0, 2**32 - 1), min_size=32, max_size=32))
def test_expand_reads_a_list_as_any_sequence(mask, nbr):
    out = mask
    for c in range(32):
        if mask >> c & 1:
            out |= nbr[c]
    assert bel.expand(mask, nbr) == bel.expand(mask, tuple(nbr)) == out
