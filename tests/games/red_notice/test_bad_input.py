"""Bad input gives clear errors: broken component files, bad rule knobs,
strategies answering illegally."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from rnsim_strategies.red_notice.base import RedNoticeStrategy as Strategy
from rnsim_strategies.red_notice.random_play import RandomStrategy

from rnsim.errors import ComponentError, RulesError
from rnsim.games.red_notice.engine.decision import Decision
from rnsim.games.red_notice.game import GAME
from rnsim.games.red_notice.rules.components import DATA_DIR, load_components
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.play import StrategyError, run_game


def broken_set(tmp_path: Path, fname: str, old: str, new: str) -> Path:
    folder = tmp_path / "broken"
    shutil.copytree(DATA_DIR / "classic", folder)
    f = folder / fname
    text = f.read_text()
    assert old in text, f"{old!r} not in {fname}: the test data moved"
    f.write_text(text.replace(old, new, 1))
    return folder


def component_error(tmp_path: Path, fname: str, old: str, new: str) -> str:
    folder = broken_set(tmp_path, fname, old, new)
    with pytest.raises(ComponentError) as e:
        load_components(folder)
    msg = str(e.value)
    assert str(folder / fname) in msg  # names the file
    # The rules refuse it the same way.
    with pytest.raises(ComponentError):
        RuleSet(components=str(folder)).validate()
    return msg


def test_unknown_city_in_a_route(tmp_path):
    msg = component_error(tmp_path, "map.toml", '"Helsinki|Ulaanbaatar"', '"Helsinki|Atlantis"')
    assert "routes[28]" in msg and "unknown city 'Atlantis'" in msg


def test_duplicate_route(tmp_path):
    msg = component_error(tmp_path, "map.toml", '"Port Douglas|Auckland",', '"Port Douglas|Auckland", "Auckland|Port Douglas",')
    assert "routes[52]" in msg and "duplicate route" in msg


def test_card_half_with_3_icons(tmp_path):
    msg = component_error(tmp_path, "cards.toml", '["M2", "C1"]', '["M3", "C1"]')
    assert "cards[3][0]" in msg and "'M3'" in msg and "1 or 2 icons" in msg


def test_check_colour_without_continent(tmp_path):
    msg = component_error(tmp_path, "checks.toml", "red = [", "pink = [100000]\nred = [")
    assert "values.pink" in msg and "no continent" in msg and "red" in msg


def test_unknown_key(tmp_path):
    msg = component_error(tmp_path, "tokens.toml", "radars = 6", "radars = 6\nlasers = 2")
    assert "lasers" in msg and "unknown key" in msg and "allowed keys" in msg


def test_disconnected_map(tmp_path):
    folder = broken_set(tmp_path, "map.toml", '"Santiago|Auckland",', "")
    f = folder / "map.toml"
    text = f.read_text()
    for route in ('"Cape Town|Perth",', '"Singapore|Port Douglas",', '"Singapore|Perth",'):
        assert route in text
        text = text.replace(route, "")
    f.write_text(text)
    with pytest.raises(ComponentError) as e:
        load_components(folder)
    msg = str(e.value)
    assert str(f) in msg and "routes" in msg and "not connected" in msg
    for c in ("Port Douglas", "Perth", "Sydney", "Auckland"):
        assert c in msg


def test_unknown_identity_effect(tmp_path):
    msg = component_error(tmp_path, "identities.toml", 'effect = "pilot"', 'effect = "teleport"')
    assert "identities[5].effect" in msg and "unknown effect 'teleport'" in msg and "pilot" in msg


def test_unknown_upgrade_effect(tmp_path):
    msg = component_error(tmp_path, "upgrades.toml", 'effect = "informant"', 'effect = "mind_reading"')
    assert "upgrades[9].effect" in msg and "unknown effect 'mind_reading'" in msg


def test_not_toml(tmp_path):
    msg = component_error(tmp_path, "cards.toml", "cards = [", "cards = [[[")
    assert "not valid TOML" in msg


def test_a_folder_beside_the_config_is_named_as_the_designer_knows_it(tmp_path, monkeypatch):
    """A config names its folder relative to itself; run from the config's
    folder, the message names the file from there (not an absolute path)
    and suggests the closest name: a city, a key, an effect, a colour."""
    from rnsim.config import load_config
    from rnsim.errors import ConfigError

    for fname, old, new, hint in [("tokens.toml", "radars = 6", "radar = 6", "'radars'"),
                                  ("identities.toml", 'effect = "pilot"', 'effect = "pilott"', "'pilot'"),
                                  ("checks.toml", "red = [", "redd = [100000]\nred = [", "'red'")]:
        assert f"(did you mean {hint}?)" in component_error(tmp_path / fname, fname, old, new), fname
    study = tmp_path / "study"
    broken_set(study, "map.toml", '"Helsinki|Ulaanbaatar"', '"Helsinki|Ulanbaatar"')
    (study / "study.toml").write_text('[run]\ngames = 2\n\n[rules]\ncomponents = "broken"\n')
    monkeypatch.chdir(study)
    with pytest.raises(ConfigError) as e:
        load_config("study.toml")
    assert str(e.value).startswith("broken/map.toml: routes[28]: unknown city 'Ulanbaatar'")
    assert "(did you mean 'Ulaanbaatar'?)" in str(e.value)


# ------------------------------------------------------------------ rule knobs


@pytest.mark.parametrize("knob,value,expect", [
    ("hand_limit", 0, "hand_limit: must be 1..50, got 0"),
    ("max_rounds", 5000, "max_rounds: must be 1..1000, got 5000"),
    ("security_cap", "four", "security_cap: must be a whole number (0..50)"),
    ("initiative_first", "bob", 'initiative_first: must be "angela" or "jessah"'),
    ("security_start", 9, "security_start: must be at most security_cap (4)"),
    ("radars_at_setup", 7, "radars_at_setup"),
])
def test_bad_knob(knob, value, expect):
    with pytest.raises(RulesError) as e:
        RuleSet.from_mapping({knob: value}, source="variant.toml: rules")
    assert "variant.toml: rules" in str(e.value) and expect in str(e.value)


def test_unknown_knob_suggests_the_close_one():
    with pytest.raises(RulesError, match=r"unknown rule knob 'hand_limt' \(did you mean 'hand_limit'\?\)"):
        RuleSet.from_mapping({"hand_limt": 4})


# ------------------------------------------------------------------ strategies


class Cheater(Strategy):
    """Answers every bank decision with a check it does not hold."""

    def on_bank(self, view, decision: Decision):
        return 999

    def default(self, view, decision):
        return decision.options[0]


class Crasher(Strategy):
    def on_place_token(self, view, decision):
        raise ZeroDivisionError("boom")


def test_illegal_option_names_strategy_decision_and_seed():
    rules = RuleSet()
    for index in range(50):
        try:
            run_game(GAME, rules, [Cheater(), RandomStrategy()], 7, index)
        except StrategyError as e:
            assert e.strategy == "Cheater" and e.seat == "angela" and e.decision == "bank"
            msg = str(e)
            assert "Cheater" in msg and "'bank'" in msg and f"game seed {e.seed}" in msg and "999" in msg
            return
    pytest.fail("the cheater never met a bank decision")


def test_a_raising_strategy_names_itself():
    with pytest.raises(StrategyError) as e:
        run_game(GAME, RuleSet(), [RandomStrategy(), Crasher()], 3, 0)
    assert e.value.strategy == "Crasher" and e.value.decision == "place_token"
    assert "ZeroDivisionError: boom" in str(e.value) and "game seed" in str(e.value)
    assert "ZeroDivisionError" in e.value.traceback


def test_a_bad_check_value_is_named_by_colour_and_place(tmp_path):
    """checks.toml's values are a table keyed by colour: the message names
    the colour and the place of the value, not just the table."""
    msg = component_error(tmp_path, "checks.toml", "red = [", "red = [0, ")
    assert "values.red[0]: must be a positive whole number of dollars, got 0" in msg
