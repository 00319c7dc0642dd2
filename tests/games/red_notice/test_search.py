"""The ``search`` player: legal, deterministic games, and
choices that never depend on what its seat cannot see (R24, R25).

Its strength against the expert is a benchmark (benchmarks/search.py
cells), not a unit test: it needs thousands of games."""

from __future__ import annotations

import random

import pytest
from rnsim_strategies.red_notice.search import Search

from rnsim import play_game
from rnsim.errors import ConfigError
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.game import GAME
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy

RULES = GAME.rules()
# Few kinds and one world keep a whole game to a few seconds on the Python source.
CHEAP = {"iterations": 1, "kinds": "bank,identity,upgrade,check"}


def test_search_plays_whole_legal_games_in_both_seats_deterministically():
    # An illegal answer would raise (StrategyError); the same seed replays the same game.
    runs = [play_game(angela="search", jessah="search", angela_params=CHEAP, jessah_params=CHEAP,
                      seed=3, game_index=1, log=True) for _ in range(2)]
    assert runs[0].events == runs[1].events
    assert runs[0].end_reason in ("million", "arrest", "timeout")


def test_zero_iterations_is_the_expert_and_a_budget_searches():
    # The expert's Jessah keeps a dossier of 64 guesses by default, search's of
    # 1,000 (``particles``): with the same dossier, no search is the expert.
    r0 = play_game(angela="search", jessah="search", angela_params={"iterations": 0},
                   jessah_params={"iterations": 0, "particles": 64}, seed=5, game_index=0, log=True)
    rx = play_game(angela="expert", jessah="expert", seed=5, game_index=0, log=True)
    assert r0.events == rx.events
    r1000 = play_game(angela="expert", jessah="search", jessah_params={"iterations": 0}, seed=5, game_index=0,
                      log=True)
    rx1000 = play_game(angela="expert", jessah="expert", jessah_params={"dossier": 1000}, seed=5, game_index=0,
                       log=True)
    assert r1000.events == rx1000.events
    s = Search(**CHEAP)
    play_game(angela=s, jessah="expert", seed=5, game_index=0)
    assert s.searched > 0 and s.rollouts >= 2 * s.searched  # each search tries every option in a world


def test_choices_do_not_move_when_the_hidden_facts_are_redrawn():
    """Search the same decision on the real game and on a copy whose hidden
    facts (for this seat) are re-drawn: same choice, same rollout outcomes."""
    params = {"iterations": 2, "kinds": "bank,check,joker,identity,upgrade,angela_security,jessah_move"}
    a, j = load_strategy("expert"), load_strategy("expert")
    s = game_seeds(7, 0)
    a.new_game(0, random.Random(s.seats[0]))
    j.new_game(1, random.Random(s.seats[1]))
    st = GameState.new(RULES, random.Random(s.chance), seed=s.chance)
    checked = {0: 0, 1: 0}
    n = 0
    while not st.over and min(checked.values()) < 3:
        d = st.pending
        n += 1
        if d.kind in params["kinds"] and len(d.options) > 1 and n % 2 == 0:
            other = GAME.conceal(st, d.seat, random.Random(n))
            answers = []
            for game in (st, other):
                p = Search(**params)
                p.new_game(d.seat, random.Random(n))
                answers.append((p.choose(build_view(game, d.seat), game.pending), p.rollouts))
            assert answers[0] == answers[1], (d, answers)
            checked[d.seat] += answers[0][1] > 0
        st.apply((a if d.seat == 0 else j).choose(build_view(st, d.seat), d))
    assert min(checked.values()) >= 3, checked


def test_by_default_jessah_searches_nothing_and_is_the_1000_guess_dossier_agent():
    # Her rollouts cost her 2.7 points (docs/strategies.md), so the default
    # kinds give her none; she is then the expert on search's dossier of
    # 1,000 guesses, event for event the
    # thousand_hunter probe, while Angela keeps her search.
    assert Search().budgets[1] == {}
    assert Search().budgets[0]["angela_move"] == 2 and Search().budgets[0]["bank"] == 4
    for g in range(2):
        got = play_game(angela="expert", jessah="search", seed=11, game_index=g, log=True)
        want = play_game(angela="expert", jessah="rnsim_strategies.red_notice.probes.agents:ThousandHunter", seed=11,
                         game_index=g, log=True)
        assert got.events == want.events
    # ahead 0.6 on 200 guesses: the ahead_hunter probe
    got = play_game(angela="expert", jessah="search", jessah_params={"ahead": 0.6, "particles": 200}, seed=11,
                    game_index=0, log=True)
    want = play_game(angela="expert", jessah="rnsim_strategies.red_notice.probes.agents:AheadHunter", seed=11,
                     game_index=0, log=True)
    assert got.events == want.events


def test_kinds_set_worlds_per_seat_and_kind_and_iterations_scales_them():
    s = Search(iterations=4, kinds="angela.place_token:0.75,bank:2,jessah.check")
    assert s.budgets == ({"place_token": 3, "bank": 8}, {"bank": 8, "check": 4})
    assert Search(iterations=8, kinds="bank:2").budgets == ({"bank": 16}, {"bank": 16})
    assert Search(iterations=0).budgets == ({k: 0 for k in Search().budgets[0]}, {k: 0 for k in Search().budgets[1]})


def test_a_seat_searches_only_its_kinds():
    # Jessah's bids are left to the expert by the default kinds: a game where
    # only bids are searched for Angela spends no rollout in Jessah's seat.
    params = {"iterations": 1, "kinds": "angela.place_token:2"}
    a, j = Search(**params), Search(**params)
    play_game(angela=a, jessah=j, seed=2, game_index=0)
    assert a.spent.keys() == {"place_token"} and a.rollouts > 0
    assert j.rollouts == 0 and j.searched == 0


def test_bad_params_name_the_key_and_what_is_allowed():
    with pytest.raises(ConfigError, match="kinds.*unknown kind 'place'.*allowed: angela_move"):
        Search(kinds="place")
    with pytest.raises(ConfigError, match="'iterations' must be in 0..10000"):
        Search(iterations=-1)
    with pytest.raises(ConfigError, match="'first_step' must be true or false"):
        Search(first_step="yes")
    with pytest.raises(ConfigError, match="unknown seat 'forger' in 'forger.bank'; allowed: angela, jessah"):
        Search(kinds="forger.bank")
    with pytest.raises(ConfigError, match=r"weight 'x' in 'bank:x' must be a number in \(0, 100\]"):
        Search(kinds="bank:x")
    with pytest.raises(ConfigError, match="weight '0' in 'bank:0'"):
        Search(kinds="bank:0")
    with pytest.raises(ConfigError, match="'belief' must be one of dossier, walk, expert, got 'set'"):
        Search(belief="set")
    with pytest.raises(ConfigError, match="'particles' must be in 1..100000"):
        Search(particles=0)


def test_a_rollout_player_given_the_searchers_memory_plays_on_as_the_searcher_would():
    """Expert.copy_memory_from: an expert Jessah taking over mid-game with
    the real Jessah's memory makes every later choice the real one makes,
    draw for draw; one starting blank (as rollouts did before) does not,
    once a radar removal has been read (that focus lives only in memory).
    Rollout players keep no dossier (it is not memory they copy), so all
    three here hunt on the bare set."""
    from rnsim_strategies.red_notice.expert import Expert

    forks = differed = checked = 0
    for g in range(60):
        s = game_seeds(11, g)
        a, j = Expert(), Expert(dossier=0)
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(RULES, random.Random(s.chance), seed=s.chance)
        heir: Expert | None = None
        blank: Expert | None = None
        while not st.over:
            d = st.pending
            v = build_view(st, d.seat)
            if d.seat == 0:
                st.apply(a.choose(v, d))
                continue
            if heir is None and j._leak_focus:
                heir, blank = Expert(dossier=0), Expert(dossier=0)
                for h in (heir, blank):
                    h.new_game(1, random.Random(0))
                heir.copy_memory_from(j)
                forks += 1
            before = j.rng.getstate()
            pick = j.choose(v, d)
            if heir is not None:
                # the same stream state for all three: only memory can differ
                heir.rng.setstate(before)
                assert heir.choose(v, d) == pick, (g, d.kind)
                assert heir.rng.getstate() == j.rng.getstate()
                checked += 1
                if blank is not None:
                    blank.rng.setstate(before)
                    if blank.choose(v, d) != pick:
                        differed += 1
                        blank = None
            st.apply(pick)
        if forks >= 5 and differed >= 2:
            break
    assert forks >= 5 and differed >= 2 and checked > 50, (forks, differed, checked)


def test_the_weighted_hunt_heads_for_the_heaviest_city_in_reach_and_defers_when_none_is():
    """``hunt``: with all the weight on one city two steps away, Jessah's
    first step is onto a shortest path to it; with all of it out of reach,
    the step is the expert's."""
    from rnsim_strategies.red_notice.board import board_for

    st = GameState.new(RULES, random.Random(4), seed=4)
    while not (st.pending.kind == "jessah_move" and st.pending.info.get("left", 1) >= 2):
        st.apply(st.pending.options[0] if st.pending.kind != "jessah_move" else "stop")
    d = st.pending
    v = build_view(st, 1)
    b = board_for(v.comps)
    here = v.jessah_city
    p = Search(iterations=1, hunt=True)
    p.new_game(1, random.Random(0))
    n = v.comps.n_cities
    for target in (c for c in range(n) if b.dist[here][c] == 2):
        w = [0.0] * n
        w[target] = 1.0
        p._weights = w
        got = p._weighted_hunt(v, d, "stop")
        assert got != "stop" and got[0] == "move" and b.dist[got[1]][target] == 1, (target, got)
    far = [c for c in range(n) if b.dist[here][c] > d.info["left"]]
    w = [0.0] * n
    for c in far:
        w[c] = 1.0 / len(far)
    p._weights = w
    assert p._weighted_hunt(v, d, "stop") == "stop"


def test_jessah_security_is_searched_on_a_shortlist_of_legal_spends():
    """``jessah.jessah_security``: some 80 legal spends are cut to the expert's
    choice, passing and a few radars and barriers where the belief's weight
    is, so the kind can be searched within ``max_options``."""
    params = {"iterations": 1, "kinds": "jessah.jessah_security"}
    j = Search(**params)
    seen = []
    real = j._security_shortlist

    def spy(view, decision, pick):  # type: ignore[no-untyped-def]
        out = real(view, decision, pick)
        seen.append((len(decision.options), out, pick, [o in decision.options for o in out]))
        return out

    j._security_shortlist = spy  # type: ignore[method-assign]
    play_game(angela="expert", jessah=j, seed=2, game_index=1)
    assert seen and j.spent.get("jessah_security", 0) > 0
    for n_legal, out, pick, legal in seen:
        assert all(legal) and out[0] == pick and len(set(out)) == len(out) and len(out) <= 8 < n_legal
        assert "pass" in out


def test_expert_belief_worlds_weigh_the_set_and_the_removal_focus_as_the_expert_agent_does():
    """``belief = "expert"``: Jessah's worlds put Angela in the set of cities
    she can be in, each city of the expert agent's radar-removal focus weighed
    the expert's ratio times the others, nothing outside the set; and the
    real Angela is always among them (the weights read only the view)."""
    focused = 0
    for g in range(40):
        s = game_seeds(13, g)
        a = load_strategy("expert")
        j = Search(iterations=1, kinds="check", belief="expert")
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(RULES, random.Random(s.chance), seed=s.chance)
        while not st.over:
            d = st.pending
            v = build_view(st, d.seat)
            pick = (a if d.seat == 0 else j).choose(v, d)
            if d.seat == 1:
                w = j._weights
                assert w is not None and abs(sum(w) - 1.0) < 1e-9
                assert w[st.angela_city] > 0
                focus = j.expert._leak_focus & v.belief
                low = min(p for c, p in enumerate(w) if v.belief >> c & 1)
                for c, p in enumerate(w):
                    if not v.belief >> c & 1:
                        assert p == 0.0
                    else:
                        ratio = j.expert._leak_ratio if focus >> c & 1 else 1.0
                        assert p == pytest.approx(low * ratio if focus != v.belief else low)
                focused += focus != 0
            st.apply(pick)
        if focused >= 20:
            break
    assert focused >= 20


def test_only_jessahs_dossier_makes_a_game_keep_its_history():
    """The dossier reads view.history, so a game with search as Jessah keeps
    one; search as Angela, or Jessah on another belief, reads none (and the
    game skips recording it, as for the expert)."""
    j, a = Search(**CHEAP), Search(**CHEAP)
    j.new_game(1, random.Random(0))
    a.new_game(0, random.Random(0))
    assert j.reads_history() and not a.reads_history()
    walk = Search(belief="walk", **CHEAP)
    walk.new_game(1, random.Random(0))
    assert not walk.reads_history()
    zero = Search(iterations=0, belief="expert")
    zero.new_game(1, random.Random(0))
    assert not zero.reads_history()


def test_jessahs_hunt_follows_her_dossier():
    """Search's Jessah hunts on the dossier's probabilities (the expert's
    path search, each city worth its probability): on the same game her
    movements part from those of an expert without a dossier, and with
    belief = walk they do not (that belief only draws her worlds, and her
    movements are not searched)."""
    from rnsim_strategies.red_notice.expert import Expert

    def moves(jessah: Search | Expert) -> list:
        out = play_game(angela="expert", jessah=jessah, seed=9, game_index=0, log=True)
        return [e for e in out.events if e["t"] in ("jessah_move", "inspect")][:40]

    bare = moves(Expert(dossier=0))
    assert moves(Search(iterations=1, kinds="upgrade", belief="walk")) == bare
    assert moves(Search(iterations=1, kinds="upgrade")) != bare


def test_jessahs_look_ahead_changes_her_hunt_over_its_range():
    # ``ahead`` 0 is the hunt without look-ahead, 0.6 the default, 5 one that
    # weighs where a path ends far above what it inspects: three hunts.
    def hunt(ahead: float) -> list[tuple]:
        return [play_game(angela="expert", jessah="search", jessah_params={"ahead": ahead}, seed=11, game_index=g,
                          log=True).events for g in range(3)]

    plays = [hunt(a) for a in (0.0, 0.6, 5.0)]
    assert plays[0] != plays[1] and plays[1] != plays[2] and plays[0] != plays[2]


def test_jessahs_rollout_player_hunts_on_a_clone_of_her_dossier_that_leaves_hers_untouched():
    """With ``rollout_dossier`` > 0, the Jessah of her rollouts hunts on a
    clone of her dossier cut to that many guesses, reading the world's history
    on from where hers stopped (rollouts played to the end); her own dossier answers every view as an
    expert's of the same size and stream does, however many rollouts ran."""
    from rnsim_strategies.red_notice.expert import Expert

    params = {"iterations": 1, "kinds": "jessah.bank,jessah.check", "rollout_dossier": 8, "horizon": 0}
    j = Search(**params)
    shadow = Expert(dossier=Search.PARAMS["particles"])
    a = load_strategy("expert")
    s = game_seeds(4, 0)
    a.new_game(0, random.Random(s.seats[0]))
    j.new_game(1, random.Random(s.seats[1]))
    shadow.new_game(1, random.Random(s.seats[1]))
    state = GameState.new(RULES, random.Random(s.chance), seed=s.chance)
    clones = 0
    while not state.over:
        d = state.pending
        v = build_view(state, d.seat)
        if d.seat == 1:
            before = j.rollouts
            o = j.choose(v, d)
            assert j.expert.dossier is not None and shadow.dossier is not None
            assert j.expert.hunt_weights == shadow.dossier.observe(v)
            if j.rollouts > before:
                rolled = j._players[1].dossier
                assert rolled is not None and rolled.particles == 8 and rolled.seen > j.expert.dossier.seen
                clones += 1
        else:
            o = a.choose(v, d)
        state.apply(o)
    assert clones > 0
