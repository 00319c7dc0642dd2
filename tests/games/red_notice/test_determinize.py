"""Determinization: over many decisions of many games the
true state is in the sampler's support, and no sample contradicts the view
of the seat it was drawn for (R24, R25)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rnsim.games.red_notice.engine.determinize import copies_rng, determinize, possible
from rnsim.games.red_notice.engine.history import public
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy

RULES = RuleSet()
COMPS = RULES.load_components()


def _decisions(games: int, seed: int):
    """(state, seat) at every decision of ``games`` expert-vs-rule games."""
    a, j = load_strategy("expert"), load_strategy("rule")
    for g in range(games):
        s = game_seeds(seed, g)
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(RULES, random.Random(s.chance), comps=COMPS, seed=s.chance)
        while not st.over:
            d = st.pending
            yield st, d.seat
            st.apply((a if d.seat == 0 else j).choose(build_view(st, d.seat), d))


def test_true_state_is_in_the_support_and_samples_keep_the_view():
    rng = copies_rng(9, 0)
    n = 0
    for st, seat in _decisions(3, 9):
        n += 1
        if n % 3:
            continue  # every third decision keeps the test short
        sup = possible(st, seat)
        other = 1 - seat
        assert sup.angela_cities >> st.angela_city & 1 if st.angela_city >= 0 else True
        assert set(st.hands[other]) <= sup.opponent_checks
        sample = determinize(st, seat, rng)
        # The sample is in the support too...
        if sample.angela_city >= 0:
            assert sup.angela_cities >> sample.angela_city & 1
        assert set(sample.hands[other]) <= sup.opponent_checks
        assert possible(sample, seat).opponent_tokens == sup.opponent_tokens
        # ...and the seat cannot tell it from the real game.
        assert build_view(sample, seat) == build_view(st, seat)
        # The real game is untouched.
        assert sample is not st and sample.pending.kind == st.pending.kind
    assert n > 100


def test_weights_choose_angelas_city():
    for st, seat in _decisions(2, 4):
        if seat == 1 and st.angela_city >= 0 and st.belief.bit_count() >= 2 and st.pending.kind != "angela_move":
            cities = [c for c in range(COMPS.n_cities) if st.belief >> c & 1]
            w = [0.0] * COMPS.n_cities
            w[cities[-1]] = 1.0
            for i in range(5):
                assert determinize(st, 1, random.Random(i), w).angela_city == cities[-1]
            with pytest.raises(ValueError, match="no probability"):
                determinize(st, 1, random.Random(0), [0.0] * COMPS.n_cities)
            return
    pytest.fail("no Jessah decision with an uncertain belief")


def test_same_stream_same_sample():
    for st, seat in _decisions(1, 2):
        if st.round >= 2:
            a = determinize(st, seat, random.Random(5))
            b = determinize(st, seat, random.Random(5))
            assert (a.angela_city, a.hands, a.deck, a.upgrade_deck) == (b.angela_city, b.hands, b.deck, b.upgrade_deck)
            return


def test_a_sample_does_not_depend_on_the_hidden_facts():
    """Re-drawing what the seat cannot see (Game.conceal) before sampling gives
    the very same sample: a search player using samples reads nothing hidden."""
    from rnsim.games.red_notice.game import GAME

    n = 0
    for st, seat in _decisions(2, 11):
        n += 1
        if n % 5:
            continue
        other = GAME.conceal(st, seat, random.Random(n))
        a = GAME.save_position(determinize(st, seat, random.Random(n)))
        b = GAME.save_position(determinize(other, seat, random.Random(n)))
        assert a == b, (st.pending, seat)
    assert n > 100


def test_a_view_kept_for_later_samples_the_world_of_its_own_decision():
    """Worlds hold no link to the game: once the game has moved on (its
    history grown, its decks drawn), a kept view's samples are the ones it
    gave at its decision, and its seat cannot tell them from that decision."""
    kept = []
    for game in range(10):  # as many games as it takes to keep more than five views
        kept += _kept_views(game)
        if len(kept) > 5:
            break
    assert len(kept) > 5
    for k, view, before in kept:
        assert _position(view.worlds.sample(random.Random(k))) == before


def _kept_views(game: int) -> list[tuple[int, Any, str]]:
    """Game ``game`` of master seed 3 (expert vs rule player) played to its end,
    a view kept every 20 decisions with a sample it gave at its decision."""
    a, j = load_strategy("expert"), load_strategy("rule")
    s = game_seeds(3, game)
    a.new_game(0, random.Random(s.seats[0]))
    j.new_game(1, random.Random(s.seats[1]))
    st = GameState.new(RULES, random.Random(s.chance), comps=COMPS, seed=s.chance)
    kept = []
    n = 0
    while not st.over:
        d = st.pending
        view = build_view(st, d.seat)
        if n % 20 == 0 and view.worlds is not None:
            sample = view.worlds.sample(random.Random(n))
            assert build_view(sample, d.seat) == view  # the worlds handle is not part of the compared view
            kept.append((n, view, _position(sample)))
        st.apply((a if d.seat == 0 else j).choose(view, d))
        n += 1
    return kept


def _position(state: GameState) -> str:
    from rnsim.games.red_notice.game import GAME

    return json.dumps(GAME.save_position(state), sort_keys=True)


# --------------------------------------------- the samples of the real state

# What a sample carries of the game (everything the rules read); the tallies
# (stats, cash and captures by round, upgrade rounds, burnt identities), the
# seed and the log are not carried (engine/determinize.py).
_PLAYED = ("rules", "comps", "angela_city", "jessah_city", "radars", "n_radars", "barriers", "n_barriers",
           "radar_pending", "deck", "hands", "cashed", "cash_total", "security", "identities_up",
           "identities_down", "captures", "upgrade_deck", "upgrades_face_up", "permanents", "upgrades_gone",
           "round", "initiative", "action_deck", "round_cards", "token_pool", "token_hand", "slots", "revealed",
           "spent", "pending", "over", "winner", "end_reason", "belief", "last_seen", "last_announcement",
           "revealed_hand", "history", "recording")


def _redrawn(state: GameState, seat: int, rng: random.Random, weights=None, angela=None) -> GameState:
    """The reference: a copy of the real state with every hidden fact
    re-drawn from ``rng`` in canonical order. It reads the real state, which
    View.worlds may not; its samples must be the same all the same."""
    s = state.clone()
    opp = 1 - seat
    pool = sorted(s.hands[opp] + s.deck)
    rng.shuffle(pool)
    n = len(s.hands[opp])
    if angela is None:
        s.hands[opp], s.deck = pool[:n], pool[n:]
    else:
        s.hands[opp], s.deck = list(angela[1]), [c for c in pool if c not in angela[1]]
    board = [(i, h) for i, pair in enumerate(s.slots) if not s.revealed[i]
             for h, x in enumerate(pair) if x is not None and x[0] == opp]
    n_pool, n_hand = len(s.token_pool[opp]), len(s.token_hand[opp])
    values = sorted(s.token_pool[opp] + s.token_hand[opp] + [s.slots[i][h][1] for i, h in board])
    rng.shuffle(values)
    s.token_pool[opp] = values[:n_pool]
    s.token_hand[opp] = sorted(values[n_pool:n_pool + n_hand])
    for (i, h), v in zip(board, values[n_pool + n_hand:], strict=True):
        s.slots[i][h] = (opp, v)
    s.upgrade_deck.sort()
    rng.shuffle(s.upgrade_deck)
    s.action_deck.sort()
    rng.shuffle(s.action_deck)
    s.history[opp] = public(s.history[seat], seat)
    if seat == 1 and s.angela_city >= 0:
        cities = [c for c in range(s.comps.n_cities) if s.belief >> c & 1]
        if angela is not None:
            s.angela_city = angela[0]
        elif weights is None:
            s.angela_city = rng.choice(cities)
        else:
            s.angela_city = rng.choices(cities, weights=[weights[c] for c in cities])[0]
    s.rng = random.Random(rng.getrandbits(63))
    return s


def _same_game(a: GameState, b: GameState) -> bool:
    return (all(getattr(a, k) == getattr(b, k) for k in _PLAYED)
            and [repr(f) for f in a.stack] == [repr(f) for f in b.stack]
            and a.rng.getstate() == b.rng.getstate())


@pytest.mark.parametrize("pair", [("expert", "expert"), ("rule", "random"), ("random", "expert")])
def test_worlds_sample_what_a_copy_of_the_real_state_redrawn_would_be(pair):
    """View.worlds holds none of the real state, yet draws the very sample a
    copy of it with its hidden facts re-drawn would give (so search plays the
    same games), for each way a sample is asked: uniform, weighted, and
    Jessah's (city, hand) from a model of her own."""
    a, j = load_strategy(pair[0]), load_strategy(pair[1])
    n = kinds = 0
    for g in range(3):
        s = game_seeds(21, g)
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(RULES, random.Random(s.chance), comps=COMPS, seed=s.chance)
        while not st.over:
            d = st.pending
            view = build_view(st, d.seat)
            if view.worlds is not None and n % 3 == 0:
                asks: list[dict] = [{}]
                if d.seat == 1 and st.angela_city >= 0:
                    w = [float(c % 3) for c in range(COMPS.n_cities)]
                    if any(w[c] for c in range(COMPS.n_cities) if st.belief >> c & 1):
                        asks.append({"weights": w})
                    unseen = sorted(set(st.hands[0]) | set(st.deck))
                    hand = tuple(random.Random(n).sample(unseen, len(st.hands[0])))
                    city = max(c for c in range(COMPS.n_cities) if st.belief >> c & 1)
                    asks.append({"angela": (city, hand)})
                for ask in asks:
                    got = view.worlds.sample(random.Random(n), **ask)
                    assert _same_game(got, _redrawn(st, d.seat, random.Random(n), **ask)), (d, ask)
                    kinds += 1
            n += 1
            st.apply((a if d.seat == 0 else j).choose(view, d))
    assert kinds > 150
