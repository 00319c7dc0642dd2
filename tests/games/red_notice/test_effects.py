"""Card effects are registered once, by the name the component files use, and
component validation knows exactly those names."""

from __future__ import annotations

import copy

import pytest

from rnsim.errors import ComponentError
from rnsim.games.red_notice.engine.effects import IDENTITY_EFFECTS, UPGRADE_EFFECTS
from rnsim.games.red_notice.rules.components import build_components, load_components


def test_the_classic_set_uses_every_registered_effect():
    comps = load_components("classic")
    assert {i.effect for i in comps.identities} == set(IDENTITY_EFFECTS)
    assert {u.effect for u in comps.upgrade_cards} == set(UPGRADE_EFFECTS)
    for u in comps.upgrade_cards:
        assert (u.kind == "permanent") == UPGRADE_EFFECTS[u.effect].PERMANENT, u.id


def test_a_card_is_found_by_its_name():
    # A designer looking for "Bank Alert" or "the Pilot's escape" finds one class.
    assert type(UPGRADE_EFFECTS["bank_alert"]).__name__ == "BankAlert"
    assert type(IDENTITY_EFFECTS["pilot"]).__name__ == "Pilot"
    for name, e in {**IDENTITY_EFFECTS, **UPGRADE_EFFECTS}.items():
        assert e.NAME == name


@pytest.mark.parametrize("effect, kind", [("bank_alert", "immediate"), ("wiretap", "permanent")])
def test_kind_must_match_the_effect(effect, kind):
    raw = copy.deepcopy(load_components("classic").raw)
    card = next(u for u in raw["upgrades.toml"]["upgrades"] if u["effect"] == effect)
    card["kind"] = kind
    with pytest.raises(ComponentError, match=f"effect '{effect}' is"):
        build_components(raw)


def test_unknown_effects_list_the_registry():
    raw = copy.deepcopy(load_components("classic").raw)
    raw["identities.toml"]["identities"][0]["effect"] = "teleport"
    with pytest.raises(ComponentError) as e:
        build_components(raw)
    assert ", ".join(IDENTITY_EFFECTS) in str(e.value)


def test_the_engine_implements_exactly_the_effects_the_rules_name(monkeypatch):
    """The rules own the vocabulary (rules/effect_names.py) and know nothing of
    the engine; the engine refuses to load when a name has no class, or a class
    no name, or an upgrade's timing differs."""
    from rnsim.games.red_notice.engine import effects
    from rnsim.games.red_notice.rules import effect_names

    assert tuple(IDENTITY_EFFECTS) == effect_names.IDENTITY_EFFECTS
    assert {k: e.PERMANENT for k, e in UPGRADE_EFFECTS.items()} == effect_names.UPGRADE_PERMANENT
    effects._check_vocabulary()
    monkeypatch.setattr(effect_names, "IDENTITY_EFFECTS", (*effect_names.IDENTITY_EFFECTS, "teleport"))
    with pytest.raises(ImportError, match="rules' vocabulary"):
        effects._check_vocabulary()
    monkeypatch.undo()
    monkeypatch.setattr(effect_names, "UPGRADE_PERMANENT", {**effect_names.UPGRADE_PERMANENT, "wiretap": True})
    with pytest.raises(ImportError, match="rules' vocabulary"):
        effects._check_vocabulary()
