"""Positions: save, load, and play on identically; malformed positions are refused clearly."""

from __future__ import annotations

import copy
import inspect
import json
import random

import pytest

from rnsim.errors import PositionError
from rnsim.games.red_notice.engine.position import (
    DERIVED,
    FRAMES,
    SAVED,
    from_json,
    load_position,
    save_position,
    to_json,
)
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.rules.ruleset import RuleSet

RULES = RuleSet()


def _random_answer(state: GameState, rng: random.Random):
    opts = state.decision().options
    return opts[rng.randrange(len(opts))]


def _play_on(state: GameState, rng: random.Random, limit: int = 100_000) -> None:
    n = 0
    while not state.over and n < limit:
        state.apply(_random_answer(state, rng))
        n += 1


def test_every_slot_of_the_state_is_saved_or_derived():
    # A new GameState field that positions do not know about would silently be
    # lost on load: this fails first.
    # The engine may be the mypyc-compiled build or the Python source.
    fields = getattr(GameState, "__mypyc_attrs__", None) or getattr(GameState, "__slots__", None) \
        or inspect.get_annotations(GameState)
    assert set(fields) == SAVED | DERIVED


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_round_trip_plays_on_identically(seed):
    """Save at many decisions of a random game, load, play both on with the same
    strategy stream: the event logs after the save point are identical."""
    game = GameState.new(RULES, random.Random(seed), seed=seed, log=True)
    strategy = random.Random(1000 + seed)
    checked = 0
    i = 0
    while not game.over:
        if i % 23 == 0:
            data = json.loads(json.dumps(save_position(game)))  # through real JSON text
            loaded = load_position(data, log=True)
            assert save_position(loaded) == data
            original = game.clone()
            start = len(original.log)
            r1 = random.Random()
            r1.setstate(strategy.getstate())
            r2 = random.Random()
            r2.setstate(strategy.getstate())
            _play_on(original, r1)
            _play_on(loaded, r2)
            assert loaded.log == original.log[start:]
            assert (loaded.winner, loaded.end_reason, loaded.round) == (original.winner, original.end_reason,
                                                                        original.round)
            assert loaded.stats == original.stats
            assert loaded.cash_by_round == original.cash_by_round
            checked += 1
        game.apply(_random_answer(game, strategy))
        i += 1
    assert checked >= 5
    # A finished game saves and loads too.
    done = load_position(save_position(game))
    assert done.over and done.winner == game.winner and done.end_reason == game.end_reason


def test_file_helpers(tmp_path):
    game = GameState.new(RULES, random.Random(3))
    rng = random.Random(4)
    for _ in range(120):
        game.apply(_random_answer(game, rng))
    f = tmp_path / "pos.json"
    to_json(game, f)
    text = f.read_text()
    # Readable: names, not ints.
    assert '"city"' in text and '"colour"' in text
    back = from_json(f)
    assert save_position(back) == save_position(game)
    assert back.decision().kind == game.decision().kind
    assert list(back.decision().options) == list(game.decision().options) or back.decision().kind == "bank"


# ---------------------------------------------------------------- malformed


def _base() -> dict:
    # A position at a token placement of round 3 or later: no movement in progress.
    game = GameState.new(RULES, random.Random(8))
    rng = random.Random(9)
    while game.round < 3 or game.decision().kind != "place_token":
        game.apply(_random_answer(game, rng))
    return json.loads(json.dumps(save_position(game)))


def _broken(edit) -> str:
    data = _base()
    edit(data)
    with pytest.raises(PositionError) as e:
        load_position(data)
    return str(e.value)


def test_unknown_city():
    msg = _broken(lambda d: d["angela"].__setitem__("city", "Atlantis"))
    assert "angela.city" in msg and "Atlantis" in msg and "Cape Town" in msg


@pytest.mark.parametrize("where, value", [
    (("angela", "city"), ["Paris"]),
    (("public", "last_seen"), {"city": {}, "continent": "europe", "round": 1}),
    (("upgrades", "deck"), [["wiretap"]]),
])
def test_a_list_or_table_where_a_name_goes_is_a_one_line_error(where, value):
    """Not a TypeError from a lookup: the key and what it must be."""
    def edit(d):
        d[where[0]][where[1]] = value
    msg = _broken(edit)
    assert ".".join(where) in msg and "unknown" in msg


def test_an_end_reason_that_is_not_a_name_is_a_one_line_error():
    """The compiled state types its end reason: a number there was a TypeError."""
    msg = _broken(lambda d: d.__setitem__("end_reason", 5))
    assert "end_reason" in msg and "got 5" in msg


def test_a_frame_that_is_not_a_name_is_a_one_line_error():
    msg = _broken(lambda d: d["stack"][0].__setitem__("frame", ["round"]))
    assert "stack[0].frame" in msg and "unknown frame" in msg


def test_an_event_kind_that_is_not_a_name_is_a_one_line_error():
    msg = _broken(lambda d: d["history"]["angela"][0].__setitem__("kind", ["deal"]))
    assert "history.angela[0].kind" in msg and "unknown event kind" in msg


def test_unknown_key():
    msg = _broken(lambda d: d["board"].__setitem__("lasers", {}))
    assert "board.lasers" in msg and "unknown key" in msg


def test_bad_side():
    msg = _broken(lambda d: d["board"].__setitem__("radars", {"AF": "grey"}))
    assert "board.radars.AF" in msg and "white" in msg


@pytest.mark.parametrize("edit, expected", [
    (lambda d: d["rng"][1].__setitem__(0, -1), "rng[1][0]: must be 0..4294967295, got -1"),
    (lambda d: d["rng"].__setitem__(2, "x"), "rng[2]: must be a number or null, got 'x'"),
    (lambda d: d["board"].__setitem__("barriers", {"London|Paris": ["white"]}),
     "board.barriers.London|Paris: must be \"white\" or \"black\", got ['white']"),
])
def test_a_bad_chance_stream_or_side_is_a_one_line_error(edit, expected):
    """A negative number in the chance stream was an OverflowError, a side
    given as a list a TypeError, and a gauss value of text was accepted."""
    assert expected in _broken(edit)


def test_too_many_checks():
    def edit(d):
        d["angela"]["hand"].append(copy.deepcopy(d["check_deck"][0]))

    msg = _broken(edit)
    assert "more often than the set holds" in msg or "hand limit" in msg


def test_missing_check():
    msg = _broken(lambda d: d["check_deck"].pop())
    assert "check_deck" in msg and "nowhere in the position" in msg


def test_security_above_cap():
    msg = _broken(lambda d: d["angela"].__setitem__("security", 7))
    assert "angela.security" in msg and "0..4" in msg


def test_belief_must_hold_angela():
    def edit(d):
        d["public"]["belief"] = [c for c in d["public"]["belief"] if c != d["angela"]["city"]] or ["Lima"]
        if d["angela"]["city"] == "Lima":
            d["public"]["belief"] = ["Paris"]

    msg = _broken(edit)
    assert "public.belief" in msg


def test_unknown_frame():
    msg = _broken(lambda d: d["stack"].append({"frame": "teleport", "fields": []}))
    assert "stack[" in msg and "teleport" in msg


def test_bad_frame_field():
    msg = _broken(lambda d: d["stack"][0]["fields"].append("soon"))
    assert "stack[0].fields[" in msg and "'soon'" in msg


def test_frames_that_do_not_fit():
    msg = _broken(lambda d: d["stack"].append({"frame": "move", "fields": [0]}))
    assert "stack[" in msg and "do not fit" in msg
    assert "seat, left, mode, triggered, radars, belief, steps" in msg  # the fields, by name


def test_frame_fields_by_name():
    # A hand-written position may name a frame's fields; it loads like the list form.
    s = GameState.new(RULES, random.Random(5))
    rng = random.Random(6)
    while s.decision().kind != "angela_move":
        s.apply(_random_answer(s, rng))
    data = json.loads(json.dumps(save_position(s)))
    named = copy.deepcopy(data)
    for f in named["stack"]:
        f["fields"] = dict(zip(FRAMES[f["frame"]].FIELDS, f["fields"], strict=True))
    assert any(f["frame"] == "move" and f["fields"]["seat"] == 0 for f in named["stack"])
    assert save_position(load_position(named)) == data
    del named["stack"][-1]["fields"]["left"]
    with pytest.raises(PositionError, match=r"stack\[\d+\]\.fields\.left: missing"):
        load_position(named)


def test_bad_rng():
    msg = _broken(lambda d: d.__setitem__("rng", [3, [1, 2], None]))
    assert "rng" in msg


def test_token_not_in_set():
    msg = _broken(lambda d: d["tokens"]["angela"]["pool"].append(9))
    assert "tokens.angela" in msg


def test_bad_rules_knob():
    msg = _broken(lambda d: d["rules"].__setitem__("hand_limit", 0))
    assert "hand_limit" in msg and "1..50" in msg


def test_decision_mismatch():
    msg = _broken(lambda d: d.__setitem__("decision", {"seat": "angela", "kind": "informant"}))
    assert "decision" in msg and "resumes at" in msg


def test_unknown_file(tmp_path):
    with pytest.raises(PositionError, match="cannot read"):
        from_json(tmp_path / "nope.json")


def test_load_under_other_rules():
    # "From here, who wins if the target were $600k?": the same position under a variant.
    game = GameState.new(RULES, random.Random(21))
    rng = random.Random(22)
    while game.round < 4:
        game.apply(_random_answer(game, rng))
    data = save_position(game)
    variant = RULES.replace(money_target=600_000)
    loaded = load_position(data, rules=variant)
    assert loaded.rules.money_target == 600_000 and loaded.decision().kind == game.decision().kind
    _play_on(loaded, random.Random(5))
    assert loaded.over


def test_a_scenario_is_an_ordinary_position():
    from tests.games.red_notice.scenario import move, scenario

    s = scenario(angela="Cape Town", radars={"AF": "black", "SA": "white"}, barriers="Lagos|Cape Town",
                 angela_hand=("orange 100k",), then=[move("angela", 2)])
    data = save_position(s)
    assert data["board"] == {"radars": {"SA": "white", "AF": "black"}, "barriers": {"Lagos|Cape Town": "white"},
                             "radars_triggered": []}
    assert data["angela"]["hand"] == [{"colour": "orange", "value": 100_000}]
    back = load_position(json.loads(json.dumps(data)))
    assert save_position(back) == data and list(back.decision().options) == list(s.decision().options)
