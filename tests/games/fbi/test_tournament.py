"""FBI through the whole toolkit: `rnsim run` with a cell per player count and
rotating seats, the report's answers, and `rnsim compare` / `rnsim check` on
the start player's win rate."""

from __future__ import annotations

import json
import re
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from rnsim.cli import main
from rnsim.config import config_from_mapping
from rnsim.drift import load_baseline, run_check, save_baseline
from rnsim.tournament.run import run_tournament
from rnsim.tournament.shards import load_results

LINEUP = {"ann": "expert", "bert": "rule", "chris": "random", "donna": "rule", "emil": "random"}


def _cfg(tmp: Path, **run: object) -> dict[str, object]:
    return {"run": {"game": "fbi", "games": 6, "seed": 3, "workers": 1, "backend": "serial",
                    "out": str(tmp / "run"), "players": [3, 4, 5], **run},
            "strategies": dict(LINEUP)}


def test_players_3_4_5_gives_cells_per_count_with_every_rotation_of_the_lineup(tmp_path: Path) -> None:
    cfg = config_from_mapping(_cfg(tmp_path))
    cells = cfg.cells()
    by_count: dict[str, list[tuple[str | None, ...]]] = {}
    for c in cells:
        labels = cfg.cell_labels(c)
        by_count.setdefault(c.setup_label, []).append(tuple(labels[f"{s}_strategy"] for s in LINEUP))
    # 3 players: expert, rule, random in its 3 rotations; Donna and Emil sit out
    assert by_count["3"] == [("expert", "rule", "random", None, None), ("random", "expert", "rule", None, None),
                             ("rule", "random", "expert", None, None)]
    assert len(by_count["4"]) == 4 and len(by_count["5"]) == 5
    for lineups in by_count.values():  # each strategy meets each seat equally often
        n = len(lineups)
        for k in range(n):
            seen = sorted(str(x[k]) for x in lineups)
            assert seen == sorted(str(x[j]) for j, x in zip(range(n), [lineups[0]] * n, strict=True))


def test_the_same_strategy_at_every_seat_is_one_cell_per_count(tmp_path: Path) -> None:
    raw = _cfg(tmp_path)
    raw["strategies"] = dict.fromkeys(LINEUP, "rule")
    assert [c.setup_label for c in config_from_mapping(raw).cells()] == ["3", "4", "5"]


def test_one_label_for_two_different_strategies_is_refused(tmp_path: Path) -> None:
    from rnsim.errors import ConfigError

    raw = _cfg(tmp_path)
    raw["strategies"] = {"ann": {"ref": "expert", "label": "x"},
                         "bert": {"ref": "expert", "params": {"bonus_weight": 0.1}, "label": "x"}}
    with pytest.raises(ConfigError, match="label 'x' names two different strategies"):
        config_from_mapping(raw)


@pytest.fixture(scope="module")
def fbi_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("fbi")
    raw = _cfg(tmp, games=8)
    raw["variants"] = [{"name": "base"}, {"name": "top-card", "stacked": True}]
    cfg = config_from_mapping(raw)
    summary = run_tournament(cfg, progress=False, echo=lambda _: None)
    assert summary.complete
    return cfg.out


def test_the_result_table_holds_each_seat_that_played_and_rotates_the_strategies(fbi_run: Path) -> None:
    df = load_results(fbi_run).collect() if not isinstance(load_results(fbi_run), pl.DataFrame) else load_results(fbi_run)
    assert df.height == 2 * (3 + 4 + 5) * 8
    assert set(df["players"].unique().to_list()) == {"3", "4", "5"}
    three = df.filter(pl.col("players") == "3")
    assert three["donna_strategy"].null_count() == three.height and three["score_donna"].null_count() == three.height
    assert three["score_ann"].null_count() == 0
    # game i of every rotation is the same deal: the same first handcuffs holder
    firsts = three.filter(pl.col("variant") == "base").group_by("game_index").agg(pl.col("first_handcuffs").n_unique())
    assert firsts["first_handcuffs"].max() == 1
    # each strategy sat at each of the three seats
    for seat in ("ann", "bert", "chris"):
        assert set(three[f"{seat}_strategy"].unique().to_list()) == {"expert", "rule", "random"}
    # shares of a played game add up to one win
    shares = df.select(pl.sum_horizontal(*(pl.col(f"share_{s}").fill_null(0) for s in LINEUP)))
    assert shares.to_series().round(9).unique().to_list() == [1.0]


def test_the_report_answers_the_designers_questions(fbi_run: Path) -> None:
    res = CliRunner().invoke(main, ["report", str(fbi_run)])
    assert res.exit_code == 0, res.output
    md = (fbi_run / "report.md").read_text()
    first = md.split("## ")[0]
    assert re.search(r"3 players: the start player .*the player with the first handcuffs wins \d+\.\d% \[", first)
    for title in ("Start player and seat position", "Strategies", "Scores", "Bonus cards", "Variants, paired"):
        assert f"## {title}" in md
    pos = pl.read_parquet(fbi_run / "tables" / "fbi_positions.parquet")
    # one row per position at each count, and the positions of a count share out the whole win
    assert pos.group_by("variant", "players").agg(pl.len())["len"].sort().to_list() == [3, 3, 4, 4, 5, 5]
    total = pos.group_by("variant", "players").agg(pl.col("rate").sum())["rate"]
    assert all(abs(x - 1) < 1e-9 for x in total)
    strat = pl.read_parquet(fbi_run / "tables" / "fbi_strategies.parquet")
    assert set(strat["strategy"]) == {"expert", "rule", "random"}
    assert (strat["rate_lo"] <= strat["rate"]).all() and (strat["rate"] <= strat["rate_hi"]).all()
    paired = pl.read_parquet(fbi_run / "tables" / "fbi_variants.parquet")
    assert set(paired["variant"]) == {"top-card"} and "all" in paired["players"].to_list()


def test_check_watches_the_start_players_win_rate(tmp_path: Path) -> None:
    config = tmp_path / "fbi.toml"
    config.write_text('[run]\ngame = "fbi"\nseed = 5\nworkers = 1\nbackend = "serial"\nplayers = 4\n'
                      '[strategies]\nann = "rule"\nbert = "rule"\nchris = "rule"\ndonna = "rule"\n')
    base = tmp_path / "baseline.json"
    save_baseline(config, base, games=200, delta=0.2, echo=lambda _: None)
    data = json.loads(base.read_text())
    assert data["gate"]["seat"] == "first_handcuffs" and data["gate"]["statistic"].startswith("start player")
    (cell,) = data["cells"]
    assert 0 <= cell["first_handcuffs_wins"] <= cell["games"] == 200
    assert cell["emil_strategy"] is None
    outcome = run_check(base, echo=lambda _: None)
    assert outcome.exit_code == 0
    assert load_baseline(base).games_per_cell == 200


def test_rnsim_play_and_replay_take_any_game(tmp_path: Path) -> None:
    log = tmp_path / "fbi.jsonl"
    runner = CliRunner()
    res = runner.invoke(main, ["play", "--game", "fbi", "--setup", "3", "--seat", "ann=expert", "--seed", "4",
                               "--log", str(log)])
    assert res.exit_code == 0, res.output
    assert res.output.startswith("fbi seed 4 game 0: ") and "scores: ann " in res.output and "donna" not in res.output
    story = runner.invoke(main, ["replay", "--game", "fbi", str(log)])
    assert story.exit_code == 0 and "Order of arrests" in story.output
    lines = log.read_text().splitlines()
    (tmp_path / "cut.jsonl").write_text("\n".join(lines[:-1]) + "\n")
    cut = runner.invoke(main, ["replay", "--game", "fbi", str(tmp_path / "cut.jsonl")])
    assert cut.exit_code != 0 and "truncated event log" in cut.output
    bad = runner.invoke(main, ["play", "--game", "fbi", "--setup", "3", "--seat", "donna=expert"])
    assert bad.exit_code == 2 and "no seat 'donna'" in bad.output


def test_position_test_finds_a_start_player_advantage_and_not_an_even_table() -> None:
    """One chi-square test per player count: an even table is not flagged, a
    table where the start player wins twice as often is."""
    from rnsim.games.fbi.report import position_test

    def table(rates: list[float], games: int = 2000) -> pl.LazyFrame:
        n = len(rates)
        return pl.LazyFrame({"variant": ["base"] * n, "players": [str(n)] * n, "position": list(range(n)),
                             "observations": [games] * n, "wins": [r * games for r in rates],
                             "design_effect": [1.0] * n})

    even = position_test(table([0.25, 0.26, 0.24, 0.25])).collect().row(0, named=True)
    assert even["df"] == 3 and even["p_value"] > 0.5
    tilted = position_test(table([0.40, 0.20, 0.20, 0.20])).collect().row(0, named=True)
    assert tilted["p_value"] < 1e-6
