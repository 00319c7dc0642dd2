"""View.history: every event a seat has seen, and nothing it has not (R24, R25).

Scenario tests per event kind (rulings cited), the no-leak property for the
history, and what a user relies on: it only grows, a view's history is a
snapshot, clones and positions keep it.
"""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rnsim.errors import PositionError
from rnsim.games.red_notice.conceal import conceal
from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.determinize import determinize
from rnsim.games.red_notice.engine.history import FIELDS, SECRET, Event, mask, public
from rnsim.games.red_notice.engine.position import load_position, save_position
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet
from tests.games.red_notice.scenario import (
    bank,
    capture,
    check,
    city,
    move,
    play,
    position_data,
    scenario,
    security,
    upgrade,
)

RULES = RuleSet()
ROOT = Path(__file__).resolve().parents[3]


def kinds(events) -> list[str]:
    return [e.kind for e in events]


def of(state: GameState, seat: int, kind: str) -> list[Event]:
    return [e for e in build_view(state, seat).history if e.kind == kind]


def random_game(seed: int, stop_after: int | None = None) -> GameState:
    s = GameState.new(RULES, random.Random(seed))
    rng = random.Random(seed + 1)
    n = 0
    while not s.over and (stop_after is None or n < stop_after):
        opts = s.decision().options
        s.apply(opts[rng.randrange(len(opts))])
        n += 1
    return s


# ------------------------------------------------------------------ setup (R19)


def test_r19_the_shown_checks_and_starts_are_public_and_angelas_city_is_hers_only():
    s = GameState.new(RULES, random.Random(5))
    jessah_hand = list(s.hands[JESSAH])
    chk_j, city_j = s.decision().options[0]
    s.apply((chk_j, city_j))
    while s.decision().kind == "setup_radar":
        s.apply(s.decision().options[0])
    chk_a, city_a = s.decision().options[-1]
    s.apply((chk_a, city_a))
    k = s.comps.city_continent[city_a]
    for seat in (ANGELA, JESSAH):
        h = build_view(s, seat).history
        deal = [e for e in h if e.kind == "deal"]
        # Each seat sees its own dealt hand, and only the size of the other's.
        assert [e.value for e in deal] == [3, 3]
        assert deal[seat].items != () and deal[1 - seat].items == ()
        js = next(e for e in h if e.kind == "jessah_start")
        assert (js.seat, js.check, js.city) == (JESSAH, chk_j, city_j) and chk_j in jessah_hand
        radars = [e.continent for e in h if e.kind == "setup_radar"]
        assert len(radars) == RULES.radars_at_setup and all(s.radars[c] for c in radars)
        ang = next(e for e in h if e.kind == "angela_start")
        assert (ang.check, ang.continent) == (chk_a, k)  # her continent is public...
        assert ang.city == (city_a if seat == ANGELA else -1)  # ...her city is not
    assert kinds(build_view(s, JESSAH).history)[-1] == "round_start"


# ------------------------------------------------------------- tokens (R1, R2, R21)


def test_r21_a_token_placed_face_down_shows_its_value_to_its_owner_until_the_card_reveals_it():
    s = scenario(phase="place", cards=("C1|J", "B|M1", "S2|M1", "M2|C1"),
                 tokens={"angela": [1, 2, 3], "jessah": [2, 3, 4]})
    play(s, (3, 0, 0), (4, 0, 1))
    for seat in (ANGELA, JESSAH):
        placed = of(s, seat, "token_placed")
        assert [(e.seat, e.card, e.half) for e in placed] == [(ANGELA, 0, 0), (JESSAH, 0, 1)]
        assert [e.value for e in placed] == ([3, -1] if seat == ANGELA else [-1, 4])
    play(s, (1, 1, 0), (2, 1, 1), (2, 2, 0), (3, 2, 1))
    # Resolution reveals card 0 to both (R2: the higher token, Jessah's 4, acts first).
    for seat in (ANGELA, JESSAH):
        card = of(s, seat, "card")[0]
        assert card.card == 0 and card.items == ((ANGELA, 3), (JESSAH, 4))
        # The earlier record is not rewritten: history only grows.
        assert of(s, seat, "token_placed")[0].value == (3 if seat == ANGELA else -1)


# ---------------------------------------------------------- movement (R14, R15, R16)


def test_r15_angelas_steps_are_hers_only_and_the_announcement_is_public():
    s = scenario(angela="Cape Town", radars="SA OC", then=[move("angela", 3)])
    play(s, "Santiago", "Auckland", "Sydney")
    steps = of(s, ANGELA, "angela_step")
    assert [s.comps.cities[e.city] for e in steps] == ["Santiago", "Auckland", "Sydney"]
    assert of(s, JESSAH, "angela_step") == []  # not even whether she moved
    for seat in (ANGELA, JESSAH):
        (ann,) = of(s, seat, "announce")
        sa, oc = s.comps.continent_of_id("SA"), s.comps.continent_of_id("OC")
        assert ann.items == ((sa, -1), (oc, -1)) and ann.value == 3 and ann.name == ""


def test_r15_precise_radars_name_the_city_in_the_announcement():
    s = scenario(angela="Cape Town", radars="SA", permanents="precise_radars", upgrades_face_up="wiretap",
                 then=[move("angela", 1)])
    play(s, "Santiago")
    (ann,) = of(s, JESSAH, "announce")
    assert ann.items == ((s.comps.continent_of_id("SA"), city(s, "Santiago")),)


def test_jessahs_history_is_the_same_whichever_way_angela_went():
    """Two games that differ only in Angela's hidden path (same announcement)
    give Jessah the same history; Angela's own histories differ (R15, R25)."""
    a = scenario(angela="Cape Town", then=[move("angela", 2)])
    play(a, "stay", "stay")
    b = scenario(angela="Cape Town", then=[move("angela", 2)])
    play(b, "Lagos", "Cape Town")
    assert build_view(a, JESSAH).history == build_view(b, JESSAH).history
    assert build_view(a, ANGELA).history != build_view(b, ANGELA).history


def test_r16_r17_inspections_and_their_results_then_the_capture_and_the_identity_burnt():
    s = scenario(angela="Rome", jessah="Paris", then=[move("jessah", 2)])
    play(s, "inspect", "Rome")
    for seat in (ANGELA, JESSAH):
        h = build_view(s, seat).history
        got = [(e.kind, s.comps.cities[e.city], e.found) for e in h if e.kind in ("inspect", "jessah_move", "capture")]
        assert got == [("inspect", "Paris", False), ("jessah_move", "Rome", False), ("inspect", "Rome", True),
                       ("capture", "Rome", False)]
        assert [e.value for e in h if e.kind == "capture"] == [1]
    play(s, "pilot")
    assert [e.name for e in of(s, JESSAH, "identity")] == ["pilot"]


# -------------------------------------------------------------- security (R10, R11)


def test_r11_security_gains_and_spends_are_public_with_the_token_removed():
    s = scenario(security=3, radars="AF", barriers="Nairobi|Cape Town", then=[security("angela", 2)])
    play(s, "gain", "remove radar AF", "gain")
    for seat in (ANGELA, JESSAH):
        h = [e for e in build_view(s, seat).history if e.kind.startswith("security")]
        assert [(e.kind, e.value) for e in h] == [("security_gain", 4), ("security_spent", -1), ("security_gain", 3)]
        assert (h[1].name, h[1].continent, h[1].route) == ("radar", s.comps.continent_of_id("AF"), -1)


def test_r10_jessahs_security_actions_are_public():
    s = scenario(then=[security("jessah", 3)])
    play(s, "radar AF", "barrier Paris|Rome", "move barrier Paris|Rome to Rome|Cairo")
    h = [e for e in build_view(s, ANGELA).history if e.kind in ("radar", "barrier", "barrier_moved")]
    comps = s.comps
    assert [(e.kind, e.continent, e.route, e.from_route) for e in h] == [
        ("radar", comps.continent_of_id("AF"), -1, -1),
        ("barrier", -1, comps.route("Paris", "Rome"), -1),
        ("barrier_moved", -1, comps.route("Rome", "Cairo"), comps.route("Paris", "Rome")),
    ]


# ----------------------------------------------------------------- checks (R8, R26)


def test_r26_drawn_checks_are_known_to_the_drawer_only_their_number_to_both():
    s = scenario(then=[check("jessah", 2)])
    play(s, "draw", "draw")
    mine, theirs = of(s, JESSAH, "draw"), of(s, ANGELA, "draw")
    assert [e.value for e in mine] == [e.value for e in theirs] == [2]
    assert sorted(mine[0].items) == sorted(s.hands[JESSAH][-2:]) and theirs[0].items == ()


def test_r8_angelas_cash_reveals_her_city_to_both():
    s = scenario(angela="Kolkata", angela_hand=("yellow 200k",), then=[bank("angela")])
    play(s, "yellow 200k")
    for seat in (ANGELA, JESSAH):
        (cash,) = of(s, seat, "cash")
        assert cash.city == city(s, "Kolkata") and cash.seat == ANGELA
        assert s.comps.checks[cash.check].value == 200_000


# -------------------------------------------------------------- upgrades (R9, effects)


def test_upgrades_wiretap_shows_angelas_hand_to_both():
    s = scenario(angela_hand=("red 100k", "blue 200k"), upgrades_face_up="wiretap satellite_sweep",
                 then=[upgrade("jessah")])
    play(s, "wiretap")
    for seat in (ANGELA, JESSAH):
        up = of(s, seat, "upgrade")[0]
        assert (up.name, up.seat) == ("wiretap", JESSAH) and len(up.items) == 2  # two new ones face up
        (tap,) = of(s, seat, "wiretap")
        assert sorted(tap.items) == sorted(s.hands[ANGELA])


def test_upgrades_satellite_sweep_and_informant_answers_are_public():
    s = scenario(angela="Rome", upgrades_face_up="satellite_sweep informant", upgrade_deck="",
                 then=[upgrade("jessah")])
    play(s, "satellite_sweep")
    for seat in (ANGELA, JESSAH):
        assert [e.continent for e in of(s, seat, "satellite_sweep")] == [s.comps.continent_of_id("EU")]
        assert of(s, seat, "upgrade")[0].items == ()  # the informant left the game; none face up
    s = scenario(angela="Rome", upgrades_face_up="informant satellite_sweep", then=[upgrade("jessah")])
    play(s, "informant", "Paris")
    for seat in (ANGELA, JESSAH):
        (inf,) = of(s, seat, "informant")
        assert (inf.city, inf.found) == (city(s, "Paris"), True)  # Rome is next to Paris


def test_r9_no_upgrade_left_is_public():
    s = scenario(upgrades_face_up="", upgrade_deck="", then=[upgrade("jessah")])
    assert [e.kind for e in build_view(s, ANGELA).history] == ["no_upgrade_left"]


def test_r17_identity_escape_events_follow_the_capture():
    s = scenario(angela="Rome", identities="lawyer pilot", radars="EU", barriers="Paris|Rome",
                 then=[capture("Rome")])
    play(s, "lawyer")  # one white barrier, one white radar: the discards are forced
    h = build_view(s, JESSAH).history
    assert [e.kind for e in h] == ["capture", "identity", "lawyer_discard", "lawyer_discard"]
    assert [(e.name, e.route, e.continent) for e in h[2:]] == [
        ("barrier", s.comps.route("Paris", "Rome"), -1), ("radar", -1, s.comps.continent_of_id("EU"))]


# ------------------------------------------------------------------ tags


def test_events_carry_their_round_and_the_card_being_resolved():
    s = scenario(phase="resolve", cards=("S2|M1", "B|M1"), slots=[[("angela", 3), None], [None, ("jessah", 2)]])
    while s.round == 3:
        d = s.decision()
        s.apply("pass" if "pass" in d.options else "stop" if "stop" in d.options else d.options[0])
    h = build_view(s, JESSAH).history
    cards = [(e.kind, e.card) for e in h if e.round == 3]
    assert cards[0] == ("card", 0) and ("card", 1) in cards
    i = cards.index(("card", 1))
    assert all(c == 0 for _, c in cards[:i]) and all(c == 1 for k, c in cards[i:] if k != "round_end")
    assert cards[-1] == ("round_end", -1)
    assert h[-1].round == 4 and h[-1].kind == "round_start" and h[-1].card == -1


# ----------------------------------------------------- the no-leak property (R24, R25)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1))
def test_each_seat_sees_the_same_public_events_and_only_its_own_secrets(seed):
    s = GameState.new(RULES, random.Random(seed))
    rng = random.Random(seed)
    views = []
    n = 0
    while not s.over and n < 400:
        d = s.decision()
        if n % 9 == 0:
            views.append([build_view(s, seat) for seat in (ANGELA, JESSAH)])
        # While a card resolves, the latest event belongs to it (its "card" event comes first).
        v = build_view(s, d.seat)
        if v.resolving >= 0:
            assert v.history[-1].card == v.resolving
        s.apply(d.options[rng.randrange(len(d.options))])
        n += 1
    h = s.history
    # Both seats saw the same public events in the same order.
    assert public(h[ANGELA], ANGELA) == public(h[JESSAH], JESSAH)
    for seat in (ANGELA, JESSAH):
        other = 1 - seat
        for r in h[seat]:
            assert r[0] in FIELDS
            if r[0] in SECRET and r[2] == other:
                assert mask(r) == r, f"{r} shows {('Angela', 'Jessah')[other]}'s secret to the other seat"
        # Its own secrets in full: every drawn or dealt check, every token value.
        for e in build_view(s, seat).history:
            if e.seat == seat and e.kind in ("deal", "draw"):
                assert len(e.items) == e.value
            if e.seat == seat and e.kind == "token_placed":
                assert e.value >= 0
    # Any slice reads like the whole history cut (the card tags of its first events included).
    whole = tuple(build_view(s, JESSAH).history)
    cut = random.Random(seed).sample(range(len(whole)), min(6, len(whole)))
    for a, b in zip(cut, sorted(cut), strict=True):
        assert build_view(s, JESSAH).history[a:b] == whole[a:b]
        assert build_view(s, JESSAH).history[b] == whole[b]
    # Append-only: an old view's history is a prefix of the later ones, and did not move.
    for before, after in zip(views, views[1:], strict=False):
        for seat in (ANGELA, JESSAH):
            old, new = before[seat].history, after[seat].history
            assert len(old) <= len(new) and tuple(old) == new[:len(old)]


@pytest.mark.parametrize("seed", range(3))
def test_concealed_facts_leave_the_seats_history_alone(seed):
    """Two states that differ only in facts hidden from a seat (conceal re-draws
    them and drops the opponent's own secrets from her history) give that seat
    the same history; the opponent's history did change."""
    s = GameState.new(RULES, random.Random(seed))
    rng = random.Random(seed)
    changed = 0
    n = 0
    while not s.over and n < 300:
        if n % 7 == 0:
            for seat in (ANGELA, JESSAH):
                other = conceal(s, seat, random.Random(n))
                assert build_view(other, seat).history == build_view(s, seat).history
                changed += other.history[1 - seat] != s.history[1 - seat]
        d = s.decision()
        s.apply(d.options[rng.randrange(len(d.options))])
        n += 1
    assert changed > 10


def test_a_sample_for_jessah_carries_none_of_angelas_secrets():
    s = random_game(4, stop_after=150)
    while s.decision().seat != JESSAH:
        s.apply(s.decision().options[0])
    sample = determinize(s, JESSAH, random.Random(1))
    assert not [r for r in sample.history[ANGELA] if r[0] == "angela_step"]
    assert sample.history[ANGELA] == public(s.history[JESSAH], JESSAH)
    assert sample.history[JESSAH] == s.history[JESSAH]


# ------------------------------------------------------------ snapshot, clone, positions


def test_a_view_keeps_the_history_it_was_built_with():
    s = random_game(2, stop_after=60)
    v = build_view(s, JESSAH)
    n, last = len(v.history), v.history[-1]
    for _ in range(20):
        s.apply(s.decision().options[0])
    assert len(v.history) == n and v.history[-1] == last and list(v.history)[-1] == last
    assert len(build_view(s, JESSAH).history) > n
    with pytest.raises(IndexError):
        v.history[n]
    assert list(reversed(v.history))[0] == last and v.history[-3:] == tuple(v.history)[-3:]


def test_a_clone_has_the_same_history_and_grows_its_own():
    s = random_game(6, stop_after=80)
    c = s.clone()
    assert c.history == s.history
    before = [list(h) for h in s.history]
    for _ in range(30):
        c.apply(c.decision().options[-1])
    assert s.history == before and len(c.history[ANGELA]) > len(before[ANGELA])


@pytest.mark.parametrize("stop", [0, 40, 200])
def test_positions_keep_both_histories(stop):
    s = random_game(8, stop_after=stop)
    data = json.loads(json.dumps(save_position(s)))
    loaded = load_position(data)
    for seat in (ANGELA, JESSAH):
        assert len(loaded.history[seat]) == len(s.history[seat])
        # Checks alike may be renumbered (position.py): compare what the events say.
        assert save_position(loaded)["history"] == data["history"]
        assert kinds(build_view(loaded, seat).history) == kinds(build_view(s, seat).history)


def test_an_old_position_without_history_loads_with_an_empty_one():
    data = position_data(**_scenario_defaults())
    assert "history" not in data
    s = load_position(data)
    assert len(build_view(s, ANGELA).history) == 0
    s.apply(s.decision().options[0])
    assert len(build_view(s, ANGELA).history) >= 1


def test_a_bad_history_event_names_its_key():
    data = position_data(**_scenario_defaults())
    data["history"] = {"jessah": [{"kind": "inspect", "round": 2, "city": "Atlantis"}]}
    with pytest.raises(PositionError, match=r"history\.jessah\[0\]\.city: unknown city 'Atlantis'"):
        load_position(data)
    data["history"] = {"jessah": [{"kind": "teleport", "round": 2}]}
    with pytest.raises(PositionError, match=r"history\.jessah\[0\]\.kind: unknown event kind 'teleport'"):
        load_position(data)


def _scenario_defaults() -> dict:
    import inspect

    params = inspect.signature(scenario).parameters
    kw = {k: p.default for k, p in params.items()}
    kw["then"] = [move("angela", 1)]
    return kw


def test_a_game_nobody_reads_views_of_keeps_no_history_and_says_so():
    s = GameState.new(RULES, random.Random(3))
    s.stop_history()
    for _ in range(60):
        s.apply(s.decision().options[0])
    assert s.history == [[], []]
    v = build_view(s, JESSAH)
    with pytest.raises(RuntimeError, match="keeps no history"):
        len(v.history)
    with pytest.raises(RuntimeError, match="keeps no history"):
        list(v.history)


def test_run_game_keeps_the_history_when_one_seat_reads_views():
    from rnsim.games import get_game
    from rnsim.play import run_game
    from rnsim.strategy import load_strategy

    class Watcher:
        uses_view = True

        def __init__(self) -> None:
            self.seen: list[int] = []

        def new_game(self, seat, rng) -> None:
            self.rng = rng

        def choose(self, view, decision):
            self.seen.append(len(view.history))
            return decision.options[self.rng.randrange(len(decision.options))]

    game = get_game("red_notice")
    watcher = Watcher()
    run_game(game, RULES, [load_strategy("random", None, game), watcher], 0, 5)
    # Jessah decides first (R19): she sees both deals, then every later event.
    assert watcher.seen[0] == 2 and watcher.seen == sorted(watcher.seen) and watcher.seen[-1] > 50


class _Recorded:
    """The game, with the state of its last new game kept for a look."""

    def __init__(self, game) -> None:
        self.game = game
        self.state = None

    def __getattr__(self, name):
        return getattr(self.game, name)

    def new_state(self, *args, **kw):
        self.state = self.game.new_state(*args, **kw)
        return self.state


_BARE = {"dossier": 0}  # the expert agent without her dossier, which reads the history


@pytest.mark.parametrize("pair", [
    (("expert", None), ("expert", _BARE)), (("rule", None), ("expert", _BARE)),
    (("expert", None), ("rule", None)), (("search", {"iterations": 0}), ("rule", None)),
    (("random", None), ("rule", None)),
], ids=["expert-bare", "rule-bare", "expert-rule", "search-rule", "random-rule"])
def test_built_in_players_skip_the_history_no_one_reads(pair):
    from rnsim.games import get_game
    from rnsim.play import run_game
    from rnsim.strategy import load_strategy

    game = _Recorded(get_game("red_notice"))
    strats = [load_strategy(n, params, game.game) for n, params in pair]
    run_game(game, RULES, strats, 0, 3)
    assert game.state.over and not game.state.recording and game.state.history == [[], []]


def test_the_expert_agent_gets_the_history_her_dossier_reads():
    from rnsim.games import get_game
    from rnsim.play import run_game
    from rnsim.strategy import load_strategy

    game = _Recorded(get_game("red_notice"))
    run_game(game, RULES, [load_strategy("rule", None, game.game), load_strategy("expert", None, game.game)], 0, 3)
    assert game.state.over and game.state.recording and game.state.history[1]


def test_a_plugin_that_subclasses_the_expert_still_gets_the_history():
    # uses_history = False is not inherited: a designer's subclass that reads
    # view.history must not find it empty because its base does not read it.
    from rnsim_strategies.red_notice.expert import Expert

    from rnsim.games import get_game
    from rnsim.play import run_game
    from rnsim.strategy import load_strategy

    class Reader(Expert):
        def new_game(self, seat, rng) -> None:
            super().new_game(seat, rng)
            self.seen: list[int] = []

        def choose(self, view, decision):
            self.seen.append(len(view.history))
            return super().choose(view, decision)

    game = _Recorded(get_game("red_notice"))
    reader = Reader()
    run_game(game, RULES, [reader, load_strategy("expert", None, game.game)], 0, 3)
    assert game.state.recording and reader.seen == sorted(reader.seen) and reader.seen[-1] > 20


# ------------------------------------------------------------------ docs


def test_every_event_kind_is_documented():
    doc = (ROOT / "docs" / "strategies.md").read_text()
    missing = [k for k in FIELDS if f"`{k}`" not in doc]
    assert not missing, f"docs/strategies.md does not describe the event kinds {missing}"


def test_every_event_reads_as_a_line_and_hidden_parts_stay_hidden():
    from rnsim.games.red_notice.engine.narrative import describe

    s = random_game(12)
    comps = s.comps
    for seat in (ANGELA, JESSAH):
        lines = [describe(e, comps) for e in build_view(s, seat).history]
        assert all(isinstance(x, str) and x and not x.startswith(e.kind + " ")
                   for x, e in zip(lines, build_view(s, seat).history, strict=True))
    jessah = [describe(e, comps) for e in build_view(s, JESSAH).history]
    assert any("starts somewhere in" in x for x in jessah) and not any("Angela steps" in x for x in jessah)
    assert any("face-down token" in x for x in jessah)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), start=st.integers(0, 400), seat=st.sampled_from([ANGELA, JESSAH]),
       skip=st.sets(st.sampled_from(sorted(FIELDS)), max_size=6))
def test_history_since_is_the_slice_without_the_kinds_skipped(seed, start, seat, skip):
    """``history.since(start, skip)`` is ``history[start:]`` less the
    events of the kinds in ``skip``, each with the card it belongs to (the
    card of a skipped "card" record still counts for the events after it)."""
    s = random_game(seed)
    h = build_view(s, seat).history
    got = h.since(start, frozenset(skip))
    assert got == [e for e in h[start:] if e.kind not in skip]


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), start=st.integers(0, 400), seat=st.sampled_from([ANGELA, JESSAH]))
def test_history_raw_is_the_slice_undecoded_with_its_card(seed, start, seat):
    """``history.raw(start)`` is the records of ``history[start:]`` as the
    engine stores them, and the card in resolution before the first: read
    on with the rule History decodes by (a "card" record sets it, a record
    outside the cards clears it), they give each event's card."""
    from rnsim.games.red_notice.engine.history import _NO_CARD, decode

    s = random_game(seed)
    h = build_view(s, seat).history
    records, card = h.raw(start)
    want = h[start:]
    assert len(records) == len(want)
    for r, e in zip(records, want, strict=True):
        if r[0] == "card":
            card = r[3]
        elif r[0] in _NO_CARD:
            card = -1
        assert decode(r, r[3] if r[0] == "token_placed" else card) == e


def test_views_of_games_on_two_component_sets_each_show_their_own_set():
    """What a view reads of its component set (identity and upgrade ids,
    the radar and barrier supplies) is read once per set: views of two
    games on different sets, built in turn, each show their own."""
    import dataclasses

    rules = RuleSet()
    comps = rules.load_components()
    other = dataclasses.replace(comps, radar_supply=comps.radar_supply + 3, barrier_supply=comps.barrier_supply + 5,
                                identities=comps.identities[::-1])
    a = GameState.new(rules, random.Random(1), comps=comps)
    b = GameState.new(rules, random.Random(1), comps=other)
    for _ in range(2):
        for s, c in ((a, comps), (b, other)):
            v = build_view(s, JESSAH)
            assert v.radar_supply == c.radar_supply - s.n_radars
            assert v.barrier_supply == c.barrier_supply - s.n_barriers
            assert v.identities_up == tuple(c.identity_ids[i] for i in s.identities_up)
