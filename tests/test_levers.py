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


# --------------------------------------------------------------------------- commands on real games


def _config(tmp_path, rules: str = "", strategies: str = 'angela = "rule"\njessah = "rule"') -> object:
    p = tmp_path / "c.toml"
    p.write_text(f'[run]\nseed = 7\nworkers = 1\nbackend = "serial"\nidentities = "random"\n'
                 f"[rules]\n{rules}\n[strategies]\n{strategies}\n")
    return p


def _cli(*args: str):  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from rnsim.cli import main

    return CliRunner().invoke(main, [str(a) for a in args])


def test_money_target_sweep_is_monotone_with_a_crossing_inside_its_bracket(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import polars as pl

    cfg = _config(tmp_path)
    out = tmp_path / "sweep"
    r = _cli("sweep", cfg, "--knob", "money_target", "--values", "700000:1300000:300000", "--games", "150",
             "--out", out, "--no-progress", "--per-pair")
    assert r.exit_code == 0, r.output
    t = pl.read_parquet(out / "tables" / "sweep.parquet")
    assert t["money_target"].to_list() == [700_000, 1_000_000, 1_300_000]
    assert t["games"].to_list() == [150] * 3
    # a higher target never helps the forger: no paired difference is significantly positive
    assert all(lo <= 0 for lo in t["diff_prev_lo"].drop_nulls().to_list())
    assert t["rate"][0] > 0.5 > t["rate"][2]
    assert "crossing (50.0%): money_target = " in r.output and "bracket: money_target" in r.output
    from rnsim.levers import paired_crossing
    from rnsim.tournament.shards import load_results

    res = load_results(out, lazy=False)
    c = paired_crossing(res, [f"money_target.{v}" for v in (700_000, 1_000_000, 1_300_000)],
                        [700_000, 1_000_000, 1_300_000])
    assert c.bracket is not None and c.bracket.x_low <= c.estimate <= c.bracket.x_high
    assert (out / "figures" / "sweep.png").is_file() and (out / "tables" / "sweep.csv").is_file()
    assert "1,350 games" not in r.output and "450 games" in r.output
    # identities are dealt at random, yet the per-pair curves name the pairs dealt
    pp = pl.read_parquet(out / "tables" / "sweep_per_pair.parquet")
    assert "random" not in pp["identity_pair"].to_list() and pp["identity_pair"].n_unique() == 15
    assert pp.group_by("money_target").agg(pl.col("games").sum())["games"].to_list() == [150] * 3


def test_null_changes_when_upgrades_are_never_offered(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """No check is worth $300k, so Jessah is never offered an upgrade: removing
    one from the deck is a null change (its paired interval contains 0), and
    restricted play (she never takes it) changes no game at all."""
    import polars as pl

    from rnsim.analysis.paired import ALL, paired_differences
    from rnsim.levers import BASE, Change, play_changes

    cfg = _config(tmp_path, "upgrade_check_value = 300_000")
    p = play_changes(cfg, [BASE, Change("no.wiretap", "", {"upgrades_excluded": ["wiretap"]})], out=tmp_path / "a",
                     games=80)
    d = paired_differences(p.results, "base", "no.wiretap").filter(pl.col("identity_pair") == ALL).row(0, named=True)
    assert d["games"] == 80 and d["paired_lo"] <= 0 <= d["paired_hi"]

    from rnsim.levers import _restricted_specs, restricted_shift

    specs, ups = _restricted_specs(cfg)
    assert "satellite_sweep" in ups and specs["wiretap"][0][0]["label"] == "rule"
    q = play_changes(cfg, [BASE], out=tmp_path / "b", games=80, angela=specs["wiretap"][0], jessah=specs["wiretap"][1])
    d = restricted_shift(p.results, q.results, "never-wiretap")
    assert d["games"] == 80 and d["discordant"] == 0
    assert d["paired_lo"] == d["paired_hi"] == d["diff"] == 0


def test_restricted_play_never_chooses_the_upgrade_when_another_is_offered() -> None:
    from rnsim.levers.restricted import Restricted

    taken: set[str] = set()
    free: set[str] = set()
    for i in range(25):
        g = play_game(CLASSIC, angela=Restricted(inner="rule", never="wiretap"),
                      jessah=Restricted(inner="rule", never="wiretap"), seed=3, game_index=i)
        taken |= set(g.upgrades_gained)
        free |= set(play_game(CLASSIC, angela="rule", jessah="rule", seed=3, game_index=i).upgrades_gained)
    assert "wiretap" in free  # these games do offer it
    assert "wiretap" not in taken and taken


def test_levers_labels_every_change_and_sorts_by_size(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import polars as pl

    cfg = _config(tmp_path)
    out = tmp_path / "lv"
    r = _cli("levers", cfg, "--games", "6", "--precision", "0", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    t = pl.read_parquet(out / "tables" / "levers.parquet")
    labels = set(t["change"].to_list())
    assert {"money_target 1,000,000 -> 900,000", "money_target 1,000,000 -> 1,100,000",
            "upgrade satellite_sweep removed from the deck", "identity pilot -> plain identity",
            "initiative_first angela -> jessah"} <= labels
    shifts = t["shift"].abs().to_list()
    assert shifts == sorted(shifts, reverse=True)
    assert all(lo <= s <= hi for s, lo, hi in zip(t["shift"], t["shift_lo"], t["shift_hi"], strict=True))
    # a knob at the edge of its range or of another knob's limit is skipped with the reason
    assert "skipped: security_start 2 -> 3" not in r.output
    assert "skipped: tokens_per_round 3 -> 4" not in r.output or "cards_per_round" in r.output
    assert "games (" in r.output and (out / "figures" / "levers.png").is_file()


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["sweep", "--knob", "money_targt", "--values", "1,2"], "did you mean 'money_target'"),
        (["sweep", "--knob", "initiative_first", "--values", "1,2"], "not a numeric knob"),
        (["sweep", "--knob", "money_target", "--values", "9x"], "start:stop:step"),
        (["sweep", "--knob", "money_target", "--values", "0,100"], "money_target must be 1..100000000"),
        (["sweep", "--knob", "hand_limit", "--values", "5"], "at least two values"),
        (["sweep", "--knob", "money_target", "--values", "1,2", "--target", "1"], "--target"),
        (["sweep"], "[sweep] table"),
        (["tune", "--knob", "money_target", "--tolerance", "0"], "--tolerance"),
        (["tune", "--knob", "money_target", "--tolerance", "1000", "--range", "5:1"], "--range"),
    ],
)
def test_bad_lever_arguments_get_a_clear_error_and_create_nothing(tmp_path, args: list[str], message: str) -> None:  # type: ignore[no-untyped-def]
    cfg = _config(tmp_path)
    out = tmp_path / "out"
    r = _cli(args[0], cfg, *args[1:], "--out", out)
    assert r.exit_code == 2, r.output
    assert message in r.output
    assert not out.exists()


def test_tune_on_real_games_reports_the_crossing_and_its_games(tmp_path) -> None:  # type: ignore[no-untyped-def]
    import polars as pl

    cfg = _config(tmp_path)
    out = tmp_path / "tune"
    r = _cli("tune", cfg, "--knob", "money_target", "--tolerance", "300000", "--batch", "30",
             "--range", "600000:1400000", "--out", out)
    assert r.exit_code == 0, r.output
    t = pl.read_parquet(out / "tables" / "tune_batches.parquet")
    # every value played is on the $100k notch lattice, and the games add up
    assert all(v % 100_000 == 0 for v in t["money_target"].to_list())
    assert f"{t['games'].sum():,} games in {t.height} batches" in r.output
    assert "crossing (50.0%): money_target = " in r.output and "a grid of 9 values" in r.output
    assert (out / "figures" / "tune.png").is_file()


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 1)), min_size=3, max_size=60))
def test_paired_shift_is_the_paired_interval_for_independent_games_and_zero_when_nothing_changed(
        pairs: list[tuple[int, int]]) -> None:
    import polars as pl

    from rnsim.analysis.paired import ALL, paired_differences
    from rnsim.levers import paired_shift

    def frame(variant: str, ys: list[int], pair: str = "random") -> pl.DataFrame:
        return pl.DataFrame({"variant": variant, "identity_pair": pair, "angela_strategy": "a",
                             "jessah_strategy": "b", "game_index": range(len(ys)),
                             "winner": ["angela" if y else "jessah" for y in ys], "end_reason": "x"})

    ref, var = [a for a, _ in pairs], [b for _, b in pairs]
    res = pl.concat([frame("base", ref), frame("v", var)])
    mine = paired_shift(res, "base", "v")
    theirs = paired_differences(res, "base", "v").filter(pl.col("identity_pair") == ALL).row(0, named=True)
    assert mine["games"] == len(pairs) and mine["diff"] == pytest.approx(theirs["diff"])
    assert mine["paired_lo"] == pytest.approx(theirs["paired_lo"]) and mine["paired_hi"] == pytest.approx(
        theirs["paired_hi"])
    same = paired_shift(pl.concat([frame("base", ref), frame("v", ref)]), "base", "v")
    assert same["paired_lo"] == same["paired_hi"] == same["diff"] == 0


def test_paired_shift_clusters_the_identity_cells_of_one_game_index() -> None:
    """With identities = "all", game i of every identity cell is the same deal:
    a change that moves every cell of a deal together must not look 15 times
    as precise as one that moves one cell."""
    import polars as pl

    from rnsim.levers import paired_shift

    rows = []
    for i in range(40):
        for pair in ("a+b", "a+c", "b+c"):
            rows.append({"variant": "base", "identity_pair": pair, "game_index": i, "winner": "angela" if i % 2 else "jessah"})
            rows.append({"variant": "v", "identity_pair": pair, "game_index": i, "winner": "angela" if i % 4 < 2 else "jessah"})
    res = pl.DataFrame(rows).with_columns(angela_strategy=pl.lit("a"), jessah_strategy=pl.lit("b"),
                                          end_reason=pl.lit("x"))
    d = paired_shift(res, "base", "v")
    one = paired_shift(res.filter(pl.col("identity_pair") == "a+b"), "base", "v")
    assert d["clusters"] == 40 and d["games"] == 120 and d["diff"] == pytest.approx(one["diff"])
    # three copies of the same 40 deals carry the information of 40 deals, not 120
    assert d["paired_hi"] - d["paired_lo"] == pytest.approx(one["paired_hi"] - one["paired_lo"])


def test_report_leads_the_upgrades_with_their_causal_values(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """`rnsim levers --restricted --for-run RUN` puts each upgrade's and
    identity's causal value into RUN's report, above the association, and
    "What stands out" quotes them."""
    import polars as pl

    cfg = _config(tmp_path)
    run = tmp_path / "run"
    assert _cli("run", cfg, "--games", "40", "--out", run).exit_code == 0
    r = _cli("levers", cfg, "--restricted", "--for-run", run, "--games", "6", "--precision", "0", "--no-progress")
    assert r.exit_code == 0, r.output
    t = pl.read_parquet(run / "levers" / "tables" / "levers.parquet")
    assert set(t.filter(pl.col("kind") == "restricted")["subject"].to_list()) == set(
        t.filter(pl.col("kind") == "upgrade")["subject"].to_list())
    assert _cli("report", run).exit_code == 0
    html = (run / "report.html").read_text()
    causal = html.index("Upgrades: what each is worth (causal)")
    assert causal < html.index("Upgrades: an association, not a cause")
    assert "its power&#x27;s value to Angela" in html or "its power's value to Angela" in html
    start = html.index('id="what-stands-out"')
    stands = html[start:html.index('id="outcomes"', start)]
    assert "the upgrade that moves the balance most is" in stands.lower() and "causal" in stands
    assert "association, not a cause)" not in stands  # the association finding gives way
    assert (run / "figures" / "base-rule-rule-upgrades-causal.png").is_file()


def test_levers_for_a_run_of_other_rules_is_refused_and_creates_nothing(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "other").mkdir()
    other = _config(tmp_path / "other", "money_target = 900_000")
    run = tmp_path / "run"
    assert _cli("run", other, "--games", "2", "--out", run).exit_code == 0
    r = _cli("levers", _config(tmp_path), "--for-run", run, "--games", "2")
    assert r.exit_code == 2 and "plays no variant with" in r.output
    assert not (run / "levers").exists()


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


def test_levers_play_in_stages_until_every_interval_is_narrow_enough(tmp_path) -> None:  # type: ignore[no-untyped-def]
    """With --precision, the changes still too wide after the first stage
    get more games (a new seed per stage) and the others stop; the pooled
    interval is within the precision for every change that stopped."""
    import polars as pl

    cfg = _config(tmp_path)
    out = tmp_path / "lv"
    r = _cli("levers", cfg, "--games", "10", "--precision", "20", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    t = pl.read_parquet(out / "tables" / "levers.parquet")
    assert (t["half_width"] <= 0.20 + 1e-12).all(), t.filter(pl.col("half_width") > 0.2)
    assert f"{t.height} of {t.height} within +-20" in r.output
    more = t.filter(pl.col("stages") > 1)
    assert more.height and (more["games"] > 10).all()  # the wide ones played on ...
    assert (t.filter(pl.col("stages") == 1)["games"] == 10).all()  # ... the narrow ones stopped
    assert (out / "stage-1" / "manifest.json").is_file()
