"""Design levers: every numeric knob has a notch, and the component choices a
designer tunes (upgrades in the deck, identities dealt, tokens, checks) are
validated rule knobs that the engine honours."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnsim import play_game
from rnsim.errors import RulesError
from rnsim.games.red_notice.rules.components import POW
from rnsim.games.red_notice.rules.ruleset import COMPONENT_KNOBS, KNOBS, NUMERIC_KNOBS, RuleSet

CLASSIC = RuleSet()
UPGRADES = list(CLASSIC.load_components().upgrade_ids)
IDENTITIES = [i.id for i in CLASSIC.load_components().identities]


def test_every_numeric_knob_declares_a_notch_that_fits_its_range() -> None:
    assert "money_target" in NUMERIC_KNOBS and KNOBS["money_target"].notch == 100_000
    for name in NUMERIC_KNOBS:
        k = KNOBS[name]
        assert k.notch is not None and k.notch > 0, name
        assert k.lo is not None and k.hi is not None and k.notch <= k.hi - k.lo, name
    assert all(KNOBS[k].notch is None for k in COMPONENT_KNOBS)


def test_default_rules_hash_is_unchanged_by_the_component_knobs() -> None:
    # configs/ci/baseline.json stores this hash for the classic rules
    assert CLASSIC.digest() == "5b41a3f985f315da"
    assert not set(COMPONENT_KNOBS) & set(CLASSIC.to_dict())


def test_component_knobs_change_the_rules_hash() -> None:
    hashes = {
        CLASSIC.digest(),
        RuleSet.from_mapping({"upgrades_excluded": ["wiretap"]}).digest(),
        RuleSet.from_mapping({"upgrade_copies": {"wiretap": 2}}).digest(),
        RuleSet.from_mapping({"identities_excluded": ["pilot"]}).digest(),
        RuleSet.from_mapping({"identities_plain": ["pilot"]}).digest(),
        RuleSet.from_mapping({"token_values": [1, 2, 2, 3, 3, 4, 4, 6, "POW"]}).digest(),
        RuleSet.from_mapping({"check_values": {"red": [100_000, 100_000, 300_000]}}).digest(),
    }
    assert len(hashes) == 7


def test_excluded_upgrades_leave_the_deck_and_copies_add_cards() -> None:
    r = RuleSet.from_mapping({"upgrades_excluded": ["satellite_sweep", "informant"], "upgrade_copies": {"wiretap": 3}})
    deck = [u.id for u in r.load_components().upgrade_cards]
    assert "satellite_sweep" not in deck and "informant" not in deck
    assert deck.count("wiretap") == 3 and len(deck) == 10 - 2 + 2
    assert [u.id for u in RuleSet.from_mapping({"upgrade_copies": {"wiretap": 0}}).load_components().upgrade_cards].count(
        "wiretap") == 0


def test_plain_identity_keeps_the_id_and_escapes_two_steps_without_a_power() -> None:
    comps = RuleSet.from_mapping({"identities_plain": ["doctor", "pilot"]}).load_components()
    by_id = {i.id: i for i in comps.identities}
    assert [i.id for i in comps.identities] == IDENTITIES  # same ids, same order: games stay paired
    for iid in ("doctor", "pilot"):
        assert (by_id[iid].effect, by_id[iid].moves, by_id[iid].checks) == ("pilot", 2, 0)
    assert by_id["lawyer"].effect == "lawyer"


def test_tokens_and_check_values_replace_the_component_sets() -> None:
    r = RuleSet.from_mapping({"token_values": [1, 1, 2, 2, 3, 3, 4, 4, "POW"],
                              "check_values": {"red": [100_000, 300_000]}})
    comps = r.load_components()
    assert comps.tokens == (1, 1, 2, 2, 3, 3, 4, 4, POW)
    red = comps.continents[[c.colour for c in comps.continents].index("red")]
    assert sorted(c.value for c in comps.checks if comps.continents[c.continent] is red) == [100_000, 300_000]
    assert len(comps.checks) == 17


def test_engine_deals_only_allowed_identities_and_offers_only_the_deck() -> None:
    rules = RuleSet.from_mapping({
        "identities_excluded": ["lawyer", "journalist", "doctor"],
        "upgrades_excluded": [u for u in UPGRADES if u != "bank_alert"],
    })
    seen_ids: set[str] = set()
    seen_up: set[str] = set()
    for i in range(30):
        g = play_game(rules, angela="rule", jessah="rule", seed=5, game_index=i)
        seen_ids |= set(g.identities)
        seen_up |= set(g.upgrades_gained)
    assert seen_ids <= {"secret_agent", "businesswoman", "pilot"} and seen_ids
    assert seen_up == {"bank_alert"}


def test_restating_the_component_set_plays_the_same_games() -> None:
    """Knobs that restate the set's own values (one copy of each upgrade, the
    printed tokens) are a different rule text but the same game: every game is
    identical, move for move."""
    same = RuleSet.from_mapping({"upgrade_copies": {u: 1 for u in UPGRADES},
                                 "token_values": [1, 2, 2, 3, 3, 4, 4, 5, "POW"]})
    for i in range(5):
        a = play_game(CLASSIC, angela="random", jessah="rule", seed=11, game_index=i, log=True)
        b = play_game(same, angela="random", jessah="rule", seed=11, game_index=i, log=True)
        assert a.events == b.events


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"upgrades_excluded": ["satelite_sweep"]}, "did you mean 'satellite_sweep'"),
        ({"upgrades_excluded": "wiretap"}, "must be a list of ids"),
        ({"upgrades_excluded": ["wiretap", "wiretap"]}, "listed twice"),
        ({"upgrade_copies": {"wiretap": 11}}, "0..10"),
        ({"upgrade_copies": {"wiretap": True}}, "0..10"),
        ({"upgrade_copies": ["wiretap"]}, "must be a table"),
        ({"upgrade_copies": {"wiretap": 2}, "upgrades_excluded": ["wiretap"]}, "keep one of the two"),
        ({"identities_excluded": ["pilots"]}, "did you mean 'pilot'"),
        ({"identities_excluded": IDENTITIES[:5]}, "identities_per_game: must be at most 1"),
        ({"identities_plain": ["lawer"]}, "did you mean 'lawyer'"),
        ({"token_values": []}, "non-empty list"),
        ({"token_values": [1, 2, "pow"]}, '"POW"'),
        ({"token_values": [1, 2, 3]}, "only 3 action tokens"),
        ({"check_values": {"pink": [100_000]}}, "unknown colour 'pink'"),
        ({"check_values": {"red": [0]}}, "positive whole number"),
        ({"check_values": {"red": []}}, "non-empty list"),
        ({"upgrades_excludd": ["wiretap"]}, "did you mean 'upgrades_excluded'"),
    ],
)
def test_bad_component_knobs_get_a_clear_error(table: dict, message: str) -> None:
    with pytest.raises(RulesError, match="rules: ") as e:
        RuleSet.from_mapping(table)
    assert message in str(e.value)
    assert "\n" not in str(e.value)


@settings(max_examples=40, deadline=None)
@given(
    excluded=st.lists(st.sampled_from(UPGRADES), unique=True, max_size=4),
    copies=st.dictionaries(st.sampled_from(UPGRADES), st.integers(0, 3), max_size=3),
    plain=st.lists(st.sampled_from(IDENTITIES), unique=True, max_size=3),
    out=st.lists(st.sampled_from(IDENTITIES), unique=True, max_size=3),
    target=st.integers(5, 20).map(lambda k: k * 100_000),
)
def test_component_knobs_survive_a_round_trip_through_their_toml_form(
    excluded: list[str], copies: dict[str, int], plain: list[str], out: list[str], target: int
) -> None:
    copies = {k: v for k, v in copies.items() if k not in excluded}
    table = {"upgrades_excluded": excluded, "upgrade_copies": copies, "identities_plain": plain,
             "identities_excluded": out, "money_target": target}
    rules = RuleSet.from_mapping(table)
    again = RuleSet.from_mapping(rules.to_dict())
    assert again == rules and again.digest() == rules.digest()
    assert rules.replace(money_target=target + 100_000).upgrades_excluded == rules.upgrades_excluded
    hash(rules)  # rule sets key caches and dicts


class _Watch:
    """Plays like ``inner`` and remembers every upgrade it saw face up."""

    def __new__(cls, inner: str):  # type: ignore[no-untyped-def]
        from rnsim.strategy import Strategy, load_strategy

        class Watch(Strategy):
            name = "watch"

            def __init__(self) -> None:
                super().__init__()
                self.inner = load_strategy(inner)
                self.seen: set[str] = set()

            def new_game(self, seat, rng) -> None:  # type: ignore[no-untyped-def]
                super().new_game(seat, rng)
                self.inner.new_game(seat, rng)

            def choose(self, view, decision):  # type: ignore[no-untyped-def]
                self.seen |= set(view.upgrades_face_up)
                return self.inner.choose(view, decision)

        return Watch()


def test_a_variant_without_an_upgrade_deals_the_base_game_until_the_upgrade_would_show() -> None:
    """Component knobs keep the pairing: the variant shuffles the original
    deck and leaves the card out, so every game in which the upgrade never
    came face up is the base game move for move; an excluded identity
    changes only the games it was dealt in."""
    no_wiretap = RuleSet.from_mapping({"upgrades_excluded": ["wiretap"]})
    same = differ = 0
    for i in range(40):
        a, j = _Watch("rule"), _Watch("rule")
        base = play_game(CLASSIC, angela=a, jessah=j, seed=2, game_index=i, log=True)
        var = play_game(no_wiretap, angela="rule", jessah="rule", seed=2, game_index=i, log=True)
        if "wiretap" not in a.seen | j.seen:
            assert var.events == base.events
            same += 1
        else:
            differ += 1
    assert same >= 5 and differ >= 5  # both kinds of game occur: the test tests something

    no_pilot = RuleSet.from_mapping({"identities_excluded": ["pilot"]})
    dealt = set()
    for i in range(40):
        base = play_game(CLASSIC, angela="rule", jessah="rule", seed=2, game_index=i, log=True)
        var = play_game(no_pilot, angela="rule", jessah="rule", seed=2, game_index=i, log=True)
        assert "pilot" not in var.identities
        if "pilot" not in base.identities:
            assert var.events == base.events
        else:
            # the other identity is kept, the pilot replaced, the checks dealt the same
            assert set(base.identities) - {"pilot"} <= set(var.identities)
            assert var.events[0].get("hands") == base.events[0].get("hands")
            dealt.add(tuple(sorted(var.identities)))
    assert len(dealt) >= 3  # the replacement is drawn, not always the same identity
