"""Invariants over thousands of random games, checked after every applied decision."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rnsim_strategies.red_notice.random_play import RandomStrategy

from rnsim.games.red_notice.engine import belief as bel
from rnsim.games.red_notice.engine import state as S
from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.frames import Move
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.seeding import game_seeds

CLASSIC = RuleSet()
IDENTITIES = [i.id for i in CLASSIC.load_components().identities]
PAIRS = [(a, b) for i, a in enumerate(IDENTITIES) for b in IDENTITIES[i + 1:]]


def check_invariants(s: GameState) -> None:
    rules, comps = s.rules, s.comps
    # Angela is always where the public thinks she may be. During one of her
    # movements the belief is the one from its start; she is then within
    # the steps taken so far of it.
    if s.angela_city >= 0:
        moving = [f for f in s.stack if isinstance(f, Move) and f.seat == ANGELA and f.radars is not None]
        if moving:
            f = moving[-1]
            near = bel.reach(f.belief, comps.neighbour_mask, f.steps - f.left)
            assert near >> s.angela_city & 1, "Angela left the reach of the belief during a movement"
        else:
            assert s.belief >> s.angela_city & 1, "Angela is outside the public belief"
    # hands and security
    # (the deal may exceed the limit by the one check shown at the start, R19)
    for seat, placed in ((ANGELA, s.angela_city >= 0), (JESSAH, s.jessah_city >= 0)):
        assert len(s.hands[seat]) <= (rules.hand_limit if placed else rules.starting_checks)
    assert 0 <= s.security <= rules.security_cap
    # checks: conserved, no duplicates
    every = s.deck + s.hands[0] + s.hands[1] + s.cashed[0] + s.cashed[1]
    assert sorted(every) == list(range(len(comps.checks)))
    for seat in (ANGELA, JESSAH):
        assert s.cash_total[seat] == sum(comps.checks[c].value for c in s.cashed[seat])
    # tokens per seat within a reset cycle (once the first round has dealt them)
    if s.round_cards:
        for seat in (ANGELA, JESSAH):
            on_board = [x[1] for i, pair in enumerate(s.slots) if not s.revealed[i] for x in pair
                        if x is not None and x[0] == seat]
            held = s.token_pool[seat] + s.token_hand[seat] + on_board + s.spent[seat]
            assert Counter(held) == Counter(comps.tokens)
        for pair in s.slots:
            assert not (pair[0] is not None and pair[1] is not None and pair[0][0] == pair[1][0])
    # radars and barriers: within supply, one per space (a side per space)
    assert all(r in (0, S.WHITE, S.BLACK) for r in s.radars)
    assert all(b in (0, S.WHITE, S.BLACK) for b in s.barriers)
    assert s.n_radars == sum(1 for r in s.radars if r) <= comps.radar_supply
    assert s.n_barriers == sum(1 for b in s.barriers if b) <= comps.barrier_supply
    # upgrades: every card in exactly one place
    ups = s.upgrade_deck + s.upgrades_face_up + s.permanents + s.upgrades_gone
    assert sorted(ups) == list(range(len(comps.upgrade_cards)))
    # identities: a capture burns one; the game ends exactly when a win condition holds
    n_id = rules.identities_per_game
    assert len(s.identities_up) + len(s.identities_down) == n_id
    won_million = s.cash_total[ANGELA] >= rules.money_target
    arrested = s.captures > n_id
    if s.over:
        assert s.pending is None
        if s.end_reason == "million":
            assert won_million and s.winner == ANGELA and not arrested
        elif s.end_reason == "arrest":
            assert arrested and s.winner == JESSAH and not s.identities_up and not won_million
        else:
            assert s.end_reason == "timeout" and s.winner is None
            assert s.round == rules.max_rounds and not won_million and not arrested
    else:
        assert not won_million and not arrested
        assert s.round <= rules.max_rounds
        d = s.decision()
        # a capture burns one identity, chosen at the "identity" decision
        assert len(s.identities_down) == s.captures - (d.kind == "identity")
        assert len(d.options) >= 2, "a forced decision must be applied by the engine"


def play_checked(rules: RuleSet, master: int, index: int, identities=None) -> GameState:
    seeds = game_seeds(master, index)
    players = (RandomStrategy(), RandomStrategy())
    players[0].new_game(ANGELA, random.Random(seeds.seats[ANGELA]))
    players[1].new_game(JESSAH, random.Random(seeds.seats[JESSAH]))
    s = GameState.new(rules, random.Random(seeds.chance), identities=identities, seed=seeds.chance)
    check_invariants(s)
    while not s.over:
        d = s.decision()
        s.apply(players[d.seat].choose(None, d))  # type: ignore[arg-type]
        check_invariants(s)
    return s


ENDS: Counter[str] = Counter()


@settings(max_examples=700, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(master=st.integers(0, 2**32 - 1), index=st.integers(0, 10_000), pair=st.sampled_from(PAIRS))
def test_invariants_classic_rules(master, index, pair):
    s = play_checked(CLASSIC, master, index, identities=pair)
    ENDS[s.end_reason] += 1


@st.composite
def variants(draw):
    return RuleSet().replace(
        money_target=draw(st.sampled_from([300_000, 600_000, 1_000_000])),
        hand_limit=draw(st.integers(2, 6)),
        security_cap=draw(st.integers(2, 6)),
        security_start=draw(st.integers(0, 2)),
        identities_per_game=draw(st.integers(0, 3)),
        max_rounds=draw(st.integers(1, 25)),
        upgrades_face_up=draw(st.integers(1, 3)),
        initiative_first=draw(st.sampled_from(["angela", "jessah"])),
    )


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rules=variants(), master=st.integers(0, 2**32 - 1))
def test_invariants_rule_variants(rules, master):
    play_checked(rules, master, 0)


def test_all_end_reasons_occur():
    # The invariant runs above must have reached each end at least once, or
    # they tested less than they claim.
    ends: Counter[str] = Counter()
    for i in range(150):
        ends[play_checked(CLASSIC, 99, i).end_reason] += 1
    assert set(ends) == {"million", "arrest", "timeout"}, ends
