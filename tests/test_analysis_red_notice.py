"""Every aggregation (the core's and Red Notice's own) on a small hand-listed
Red Notice result table with known counts."""

from __future__ import annotations

import ast
from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from polars.testing import assert_frame_equal

from rnsim.analysis import (
    ResultsError,
    errors_by_cell,
    game_length,
    game_length_histogram,
    headline,
    layout,
    matchup_matrix,
    newcombe,
    scan_results,
    wilson,
)
from rnsim.games.red_notice.analysis import (
    flow_by_round,
    identities,
    identity_pairs,
    upgrade_ids,
    upgrade_rounds,
    upgrades,
)
from rnsim.games.red_notice.synthetic import random_results, schema_for, table_from_games, write_run

JP = ("journalist", "pilot")
LD = ("lawyer", "doctor")
RR = {"angela_strategy": "random", "jessah_strategy": "random"}
HR = {"angela_strategy": "hunter", "jessah_strategy": "random"}


def games() -> list[dict]:
    g: list[dict] = []
    # random vs random, journalist+pilot: Angela 3, Jessah 2, 1 timeout, 1 error
    g += [dict(RR, pair=JP, winner="angela", rounds=10, upgrades={"wiretap": 2}, burnt=("pilot",)),
          dict(RR, pair=JP, winner="angela", rounds=12),
          dict(RR, pair=JP, winner="angela", rounds=14),
          dict(RR, pair=JP, winner="jessah", rounds=6, upgrades={"wiretap": 4}, burnt=("journalist", "pilot")),
          dict(RR, pair=JP, winner="jessah", rounds=8, burnt=("pilot", "journalist")),
          dict(RR, pair=JP, winner=None, rounds=60, upgrades={"wiretap": 6}),
          dict(RR, pair=JP, end_reason="error")]
    # random vs random, lawyer+doctor: Angela 1, Jessah 3
    g += [dict(RR, pair=LD, winner="angela", rounds=20),
          dict(RR, pair=LD, winner="jessah", rounds=4, upgrades={"wiretap": 8, "informant": 1}, burnt=("doctor",)),
          dict(RR, pair=LD, winner="jessah", rounds=5, burnt=("lawyer",)),
          dict(RR, pair=LD, winner="jessah", rounds=7, burnt=("doctor",))]
    # hunter vs random: Angela 2 of 2
    g += [dict(HR, pair=JP, winner="angela", rounds=9), dict(HR, pair=LD, winner="angela", rounds=11)]
    return g


@pytest.fixture(scope="module")
def table() -> pl.DataFrame:
    return table_from_games(games())


def cell(df: pl.DataFrame, a: str = "random", j: str = "random") -> pl.DataFrame:
    return df.filter((pl.col("angela_strategy") == a) & (pl.col("jessah_strategy") == j))


def test_synthetic_table_follows_the_schema(table: pl.DataFrame) -> None:
    assert dict(table.schema) == schema_for()
    assert upgrade_ids(table.schema)[:2] == ["precise_radars", "permanent_units"]
    assert len(upgrade_ids(table.schema)) == 10


def test_layout_is_read_from_the_table(table: pl.DataFrame) -> None:
    lay = layout(table.columns)
    assert lay.seats == ("angela", "jessah") and lay.setup == "identity_pair" and not lay.shares
    assert lay.cell == ["variant", "angela_strategy", "jessah_strategy"]


def test_headline_counts_and_timeouts_apart(table: pl.DataFrame) -> None:
    h = cell(headline(table.lazy())).row(0, named=True)
    assert (h["games"], h["angela_wins"], h["jessah_wins"], h["no_winner"], h["errors"]) == (10, 4, 5, 1, 1)
    assert h["angela_rate"] == 0.4 and h["jessah_rate"] == 0.5 and h["no_winner_rate"] == 0.1
    assert (h["angela_rate_lo"], h["angela_rate_hi"]) == pytest.approx(wilson(4, 10), abs=1e-12)
    assert (h["jessah_rate_lo"], h["jessah_rate_hi"]) == pytest.approx(wilson(5, 10), abs=1e-12)
    assert h["mean_rounds"] == pytest.approx((10 + 12 + 14 + 6 + 8 + 60 + 20 + 4 + 5 + 7) / 10)
    assert h["median_rounds"] == 9.0
    hr = cell(headline(table), "hunter").row(0, named=True)
    assert (hr["games"], hr["angela_wins"], hr["angela_rate"], hr["angela_rate_hi"]) == (2, 2, 1.0, 1.0)


def test_identity_pairs(table: pl.DataFrame) -> None:
    p = cell(identity_pairs(table))
    assert p["identity_pair"].to_list() == ["journalist+pilot", "lawyer+doctor"]  # best to worst
    assert p["rank"].to_list() == [1, 2]
    jp, ld = p.row(0, named=True), p.row(1, named=True)
    assert jp["n_identities"] == 2
    assert (jp["games"], jp["angela_wins"], jp["jessah_wins"], jp["timeouts"], jp["errors"]) == (6, 3, 2, 1, 1)
    assert jp["forger_rate"] == 0.5 and ld["forger_rate"] == 0.25
    assert (ld["forger_rate_lo"], ld["forger_rate_hi"]) == pytest.approx(wilson(1, 4), abs=1e-12)
    assert jp["overall_forger_rate"] == ld["overall_forger_rate"] == 0.4
    assert not jp["differs"] and not ld["differs"]


def test_identity_pair_flag_when_interval_excludes_overall() -> None:
    g = [dict(pair=JP, winner="angela")] * 90 + [dict(pair=JP, winner="jessah")] * 10 \
        + [dict(pair=LD, winner="angela")] * 10 + [dict(pair=LD, winner="jessah")] * 90
    p = identity_pairs(table_from_games(g))
    assert p["identity_pair"].to_list() == ["journalist+pilot", "lawyer+doctor"]
    assert p["overall_forger_rate"].to_list() == [0.5, 0.5]
    assert p["differs"].to_list() == [True, True]


def test_identities(table: pl.DataFrame) -> None:
    i = cell(identities(table))
    by = {r["identity"]: r for r in i.iter_rows(named=True)}
    assert set(by) == {"journalist", "pilot", "lawyer", "doctor"}
    assert (by["pilot"]["games"], by["pilot"]["angela_wins"], by["pilot"]["errors"]) == (6, 3, 1)
    assert by["pilot"]["burnt_first"] == 2 and by["journalist"]["burnt_first"] == 1
    assert by["doctor"]["burnt_first"] == 2 and by["lawyer"]["burnt_first"] == 1
    assert by["doctor"]["burnt_first_share"] == 0.5
    assert by["lawyer"]["forger_rate"] == 0.25


def test_upgrades_with_and_without(table: pl.DataFrame) -> None:
    u = cell(upgrades(table))
    assert u.height == 10
    w = u.filter(pl.col("upgrade") == "wiretap").row(0, named=True)
    # gained in 4 played games (rounds 2, 4, 6, 8), Jessah won 2 of them; 6 without, Jessah won 3
    assert (w["games"], w["gained"], w["agent_wins_with"], w["games_without"], w["agent_wins_without"]) == \
        (10, 4, 2, 6, 3)
    assert w["gained_rate"] == 0.4 and w["agent_rate_with"] == 0.5 and w["agent_rate_without"] == 0.5
    assert w["effect"] == 0.0
    assert (w["effect_lo"], w["effect_hi"]) == pytest.approx(newcombe(2, 4, 3, 6), abs=1e-12)
    assert w["effect_lo"] < 0 < w["effect_hi"]
    assert (w["p10_round"], w["p90_round"], w["mean_round"]) == (2.0, 8.0, 5.0)
    assert (w["agent_rate_with_lo"], w["agent_rate_with_hi"]) == pytest.approx(wilson(2, 4), abs=1e-12)
    inf = u.filter(pl.col("upgrade") == "informant").row(0, named=True)
    assert (inf["gained"], inf["agent_rate_with"], inf["agent_wins_without"]) == (1, 1.0, 4)
    assert inf["agent_rate_without"] == pytest.approx(4 / 9)
    assert inf["effect"] == pytest.approx(1 - 4 / 9)
    never = u.filter(pl.col("upgrade") == "private_jet").row(0, named=True)
    assert never["gained"] == 0 and never["agent_rate_with"] is None and never["agent_rate_with_lo"] is None
    assert never["agent_rate_without"] == 0.5 and never["p10_round"] is None and never["effect"] is None
    rounds = cell(upgrade_rounds(table)).filter(pl.col("upgrade") == "wiretap")
    assert rounds.select("round", "games").rows() == [(2, 1), (4, 1), (6, 1), (8, 1)]


def test_upgrades_follow_the_component_set() -> None:
    ups = ("alpha", "beta_round")  # an id ending in "_round" must not confuse the discovery
    t = table_from_games([dict(winner="jessah", upgrades={"beta_round": 3}), dict(winner="angela")], upgrades=ups)
    assert upgrade_ids(t.schema) == list(ups)
    assert upgrade_ids(t.columns) == list(ups)
    u = upgrades(t)
    assert u["upgrade"].to_list() == list(ups)
    assert u.filter(pl.col("upgrade") == "beta_round")["agent_rate_with"].item() == 1.0


def test_matchups(table: pl.DataFrame) -> None:
    m = headline(table)
    assert m.select("angela_strategy", "jessah_strategy", "games", "angela_wins").rows() == \
        [("hunter", "random", 2, 2), ("random", "random", 10, 4)]
    mat = matchup_matrix(m, "base", layout(table.columns))
    assert mat.columns == ["angela_strategy", "random"]
    assert mat.rows() == [("hunter", 1.0), ("random", 0.4)]


def test_game_length(table: pl.DataFrame) -> None:
    gl = cell(game_length(table))
    by = {r["end_reason"]: r for r in gl.iter_rows(named=True)}
    assert set(by) == {"million", "arrest", "timeout"}  # errors have no length
    assert (by["million"]["games"], by["million"]["winner"], by["million"]["median_rounds"]) == (4, "angela", 13.0)
    assert (by["arrest"]["games"], by["arrest"]["min_rounds"], by["arrest"]["max_rounds"]) == (5, 4.0, 8.0)
    assert by["timeout"]["winner"] is None and by["timeout"]["share"] == 0.1
    h = cell(game_length_histogram(table))
    assert h["games"].sum() == 10
    assert h.filter(pl.col("end_reason") == "timeout").select("rounds", "games").rows() == [(60, 1)]


def test_flow_by_round() -> None:
    t = table_from_games([
        dict(winner="angela", rounds=2, angela_cash_by_round=[100, 300], jessah_cash_by_round=[0, 100],
             captures_by_round=[0, 1]),
        dict(winner="jessah", rounds=1, angela_cash_by_round=[200], jessah_cash_by_round=[50],
             captures_by_round=[1]),
        dict(end_reason="error"),
    ])
    f = flow_by_round(t)
    assert f.select("round", "games_in_play", "angela_cash_mean", "jessah_cash_mean", "captures_mean").rows() == \
        [(1, 2, 150.0, 25.0, 0.5), (2, 1, 300.0, 100.0, 1.0)]
    assert f["angela_cash_sd"][0] == pytest.approx(70.71067811865476) and f["angela_cash_sd"][1] is None


def test_errors_by_cell(table: pl.DataFrame) -> None:
    assert errors_by_cell(table).select("angela_strategy", "identity_pair", "errors").rows() == \
        [("random", "journalist+pilot", 1)]


def test_lazy_and_eager_agree_to_the_last_bit_on_a_random_table(tmp_path: Path) -> None:
    df = random_results(3000, seed=3, strategy_pairs=[("random", "random"), ("hunter", "random")])
    write_run(tmp_path, df, shard_rows=700)
    lf = scan_results(tmp_path)
    assert len(list((tmp_path / "shards").glob("*.parquet"))) == 30  # a shard per cell of 100 games
    for f in (headline, identity_pairs, identities, upgrades, game_length, flow_by_round):
        # to the last bit: shards hand the rows over in another order than the table
        assert_frame_equal(f(lf), f(df), check_exact=True)
    h = headline(lf)
    assert int(h["games"].sum() + h["errors"].sum()) == 3000
    assert (h["angela_wins"] + h["jessah_wins"] + h["no_winner"] == h["games"]).all()


def test_scan_results_errors_name_the_problem(tmp_path: Path) -> None:
    with pytest.raises(ResultsError, match="no shards/ directory"):
        scan_results(tmp_path)
    (tmp_path / "shards").mkdir()
    with pytest.raises(ResultsError, match=r"no result shards"):
        scan_results(tmp_path)
    (tmp_path / "manifest.json").write_text('{"cells": 1, "games_per_cell": 1}')
    pl.DataFrame({"variant": ["base"], "game_index": [0]}).write_parquet(
        tmp_path / "shards" / "part-00000-0000000000-0000000001.parquet")
    with pytest.raises(ResultsError, match="lacks column.*winner.*<seat>_strategy"):
        scan_results(tmp_path)


FORBIDDEN = ("rnsim.games.red_notice", "rnsim.play", "rnsim.tournament")


@pytest.mark.parametrize("package", ["analysis", "report"])
def test_analysis_and_report_never_import_the_engine(package: str) -> None:
    root = Path(__file__).resolve().parents[1] / "rnsim"
    files = sorted((root / package).glob("*.py"))
    if package == "report":
        files.append(root / "cli" / "report.py")
    assert files
    for path in files:
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module or ""] if isinstance(node, ast.ImportFrom) else []
            for n in names:
                assert not n.startswith(FORBIDDEN) and n != "rnsim", f"{path.name} imports {n}"


PAIRS = [("lawyer", "journalist"), ("journalist", "pilot"), ("doctor", "pilot")]
OUTCOMES = ["angela", "jessah", "timeout", "error"]


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(st.integers(0, len(PAIRS) - 1), st.sampled_from(OUTCOMES), st.booleans()),
                min_size=1, max_size=60))
def test_counts_match_a_plain_count(games_: list[tuple[int, str, bool]]) -> None:
    rows = [dict(pair=PAIRS[p], winner=o if o in ("angela", "jessah") else None,
                 end_reason="error" if o == "error" else None, upgrades={"wiretap": 3} if up else {})
            for p, o, up in games_]
    t = table_from_games(rows)
    pairs = identity_pairs(t)
    for p_i, pair in enumerate(PAIRS):
        mine = [(o, up) for p, o, up in games_ if p == p_i]
        got = pairs.filter(pl.col("identity_pair") == "+".join(pair))
        if not mine:
            assert got.height == 0
            continue
        r = got.row(0, named=True)
        assert r["angela_wins"] == sum(o == "angela" for o, _ in mine)
        assert r["jessah_wins"] == sum(o == "jessah" for o, _ in mine)
        assert r["timeouts"] == sum(o == "timeout" for o, _ in mine)
        assert r["errors"] == sum(o == "error" for o, _ in mine)
        assert r["games"] == r["angela_wins"] + r["jessah_wins"] + r["timeouts"]
    played = [(o, up) for _, o, up in games_ if o != "error"]
    ups = upgrades(t)
    if not played:  # a cell whose every game failed has no upgrade record
        assert ups.height == 0
        return
    w = ups.filter(pl.col("upgrade") == "wiretap").row(0, named=True)
    assert w["games"] == len(played)
    assert w["gained"] == sum(up for _, up in played)
    assert w["agent_wins_with"] == sum(up and o == "jessah" for o, up in played)
    assert w["agent_wins_without"] == sum(not up and o == "jessah" for o, up in played)
    h = headline(t).row(0, named=True)
    assert h["games"] + h["errors"] == len(games_)
    if h["games"]:
        total = h["angela_rate"] + h["jessah_rate"] + h["no_winner_rate"]
        assert total == pytest.approx(1.0)


def test_three_identities_per_game_keep_every_identity() -> None:
    """identities_per_game = 3: the third identity counts in every table."""
    g = [dict(pair=("lawyer", "journalist", "pilot"), winner="angela", burnt=("pilot",)),
         dict(pair=("lawyer", "journalist", "pilot"), winner="jessah", burnt=("journalist", "pilot", "lawyer")),
         dict(pair=("lawyer", "doctor", "pilot"), winner="jessah", burnt=("doctor",)),
         dict(pair=("lawyer", "doctor", "pilot"), end_reason="error")]
    t = table_from_games(g)
    by = {r["identity"]: r for r in identities(t).iter_rows(named=True)}
    assert set(by) == {"lawyer", "journalist", "pilot", "doctor"}
    assert (by["pilot"]["games"], by["pilot"]["angela_wins"], by["pilot"]["errors"]) == (3, 1, 1)
    assert (by["lawyer"]["games"], by["doctor"]["games"], by["journalist"]["games"]) == (3, 1, 2)
    assert (by["pilot"]["burnt_first"], by["journalist"]["burnt_first"], by["doctor"]["burnt_first"]) == (1, 1, 1)
    p = identity_pairs(t)
    assert p["identity_pair"].to_list() == ["lawyer+journalist+pilot", "lawyer+doctor+pilot"]
    assert p["n_identities"].to_list() == [3, 3] and p["games"].to_list() == [2, 1]


def test_old_run_directories_with_identity_columns_still_read() -> None:
    """Run directories written before identities were lists (identity_1/2,
    identity_burnt_1/2) give the same identity tables."""
    t = table_from_games(games())
    old = t.drop("identities", "identities_burnt").with_columns(
        identity_1=pl.col("identity_pair").str.split("+").list.get(0),
        identity_2=pl.col("identity_pair").str.split("+").list.get(1),
        identity_burnt_1=t["identities_burnt"].list.get(0, null_on_oob=True),
        identity_burnt_2=t["identities_burnt"].list.get(1, null_on_oob=True))
    assert identities(old).equals(identities(t))
    assert identity_pairs(old).equals(identity_pairs(t))
