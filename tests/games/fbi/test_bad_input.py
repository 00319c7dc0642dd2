"""Bad rules and component sets get one-line errors naming the file/key and what is allowed."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rnsim.errors import ComponentError, ConfigError, RulesError
from rnsim.games.fbi.components import DATA_DIR, load_components
from rnsim.games.fbi.game import GAME
from rnsim.games.fbi.rules import FbiRules


@pytest.mark.parametrize("table,msg", [
    ({"stacked": 1}, r"fbi.toml: stacked: must be false or true, got 1"),
    ({"cards_per_player": 9}, r"fbi.toml: cards_per_player: must be 1..4, got 9"),
    ({"bid_cards": "some"}, r'fbi.toml: bid_cards: must be "any" or "purple" or "none"'),
    ({"stakced": True}, r"unknown FBI rule knob 'stakced' \(did you mean 'stacked'\?\)"),
    ({"components": "nowhere"}, r"FBI component set 'nowhere' not found"),
])
def test_bad_knobs(table, msg):
    with pytest.raises(ConfigError, match=msg):
        GAME.rules(table, source="fbi.toml")
    with pytest.raises(RulesError if "component set" not in msg else ComponentError, match=msg):
        FbiRules.from_mapping(table, source="fbi.toml")


def test_knobs_have_defaults_and_ranges():
    names = {k.name for k in GAME.knobs()}
    assert {"stacked", "cards_per_player", "bonus_needs_positive", "bid_cards", "doubler"} <= names
    assert GAME.rules({}).stacked is False  # F15 is a variant, off by default
    assert GAME.rules_hash(GAME.rules({})) != GAME.rules_hash(GAME.rules({"stacked": True}))


def _copy(tmp_path: Path) -> Path:
    dst = tmp_path / "mine"
    shutil.copytree(DATA_DIR / "classic", dst)
    return dst


@pytest.mark.parametrize("fname,old,new,msg", [
    ("characters.toml", "red = [5,", "red = [0,", r"characters.toml: characters.red: must hold non-zero whole numbers only, got 0"),
    ("characters.toml", "black = ", "white = ", r"characters.toml: characters.white: unknown key"),
    ("bonus.toml", "red = 5", "red = -5", r"bonus.toml: bonus.red: must be a whole number >= 0"),
    ("agents.toml", "copies = 5", "copies = 2", r"agents.toml: field_agents.copies: must be 3..5"),
    ("agents.toml", "values = [1, 2, 3, 4, 5]", "values = [1, 3]", r"agents.toml: slammer.values: must be 1, 2, ..., n"),
    ("characters.toml", "values = [1, 2, 3, 4, 5, -1, -2, -3, -4, -5]", "values = [1, 2, 4, -1, -2, -4]",
     r"characters.toml: purple.values: must hold 3 and -3"),
    ("bonus.toml", "[bonus]", "[bonuses]", r"bonus.toml: bonuses: unknown key \(did you mean 'bonus'\?\); allowed: bonus"),
    ("characters.toml", "red = [5,", 'red = ["5",', r"characters.toml: characters.red\[0\]: must be a whole number, got '5'"),
])
def test_bad_component_files_name_file_and_key(tmp_path, fname, old, new, msg):
    folder = _copy(tmp_path)
    f = folder / fname
    text = f.read_text()
    assert old in text
    f.write_text(text.replace(old, new))
    with pytest.raises(ComponentError, match=msg):
        load_components(folder)


def test_a_swapped_component_set_is_used(tmp_path):
    """[rules] components = "path": fewer purple pairs cap the player count."""
    folder = _copy(tmp_path)
    f = folder / "characters.toml"
    f.write_text(f.read_text().replace("values = [1, 2, 3, 4, 5, -1, -2, -3, -4, -5]", "values = [1, 2, 3, 4, -1, -2, -3, -4]"))
    rules = GAME.rules({"components": str(folder)})
    assert rules.load_components().max_players == 4
    with pytest.raises(RulesError, match=r"FBI is played by 3, 4 players"):
        GAME.seats(rules, 5)
    assert GAME.rules_hash(rules) != GAME.rules_hash(GAME.rules({}))


def test_missing_file(tmp_path):
    folder = _copy(tmp_path)
    (folder / "bonus.toml").unlink()
    with pytest.raises(ComponentError, match=r"bonus.toml: missing \(an FBI component set needs"):
        load_components(folder)
