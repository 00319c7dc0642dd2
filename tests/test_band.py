"""The strength band (rnsim.band): its [band] table, its cells in the run's
plan, their integrity, and the report's words for a stable and an unstable
verdict."""

from __future__ import annotations

import copy
import json
import shutil
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

from rnsim.band.config import band_table
from rnsim.band.plan import MAIN, band_games, band_plan
from rnsim.cli import main
from rnsim.config import config_from_mapping
from rnsim.errors import ConfigError
from rnsim.results.integrity import check_run
from rnsim.tournament import run_tournament

RAW: dict[str, Any] = {
    "run": {"games": 12, "seed": 3, "identities": [["journalist", "pilot"], ["lawyer", "doctor"]]},
    "rules": {"max_rounds": 30},
    "strategies": {"angela": "expert", "jessah": "expert"},
    "band": {"games": 4, "probe_games": 6, "levels": ["rule"], "probes": ["pow_denier", "leak_reader"]},
}


def _cfg(raw: dict[str, Any] = RAW, **over: Any) -> Any:
    return config_from_mapping(raw, src="t.toml", **{"chunk_size": 5, "backend": "serial", **over})


def _with_band(**band: Any) -> dict[str, Any]:
    raw = copy.deepcopy(RAW)
    raw["band"] = band
    return raw


@pytest.mark.parametrize(("band", "message"), [
    ({"game": 3}, "t.toml: unknown key 'band.game' (did you mean 'games'?)"),
    ({"games": 13}, "t.toml: band.games: must be 1..12 (at most run.games), got 13"),
    ({"games": "40"}, "t.toml: band.games: must be a whole number 1..12 (run.games), got '40'"),
    ({"probe_games": 0}, "t.toml: band.probe_games: must be 1..12"),
    ({"enabled": "yes"}, "t.toml: band.enabled: must be true or false, got 'yes'"),
    ({"levels": ["grandmaster"]}, "t.toml: band.levels[0]:"),
    ({"levels": ["rule", "rule"]}, "t.toml: band.levels[1]: 'rule' is listed twice"),
    ({"probes": ["dodgr"]}, "t.toml: band.probes: unknown probe 'dodgr'; allowed: 'all', 'none', a seat"),
    ({"probes": 3}, "t.toml: band.probes: must be 'all', 'none', a seat (angela, jessah)"),
])
def test_a_bad_band_value_is_a_one_line_error_naming_file_and_key(band: dict[str, Any], message: str) -> None:
    with pytest.raises(ConfigError) as e:
        _cfg(_with_band(**band))
    assert str(e.value).startswith(message)
    assert "\n" not in str(e.value)


def test_a_bad_band_value_exits_2_and_creates_nothing(tmp_path: Path) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('[run]\ngames = 10\n[band]\ngames = 20\n')
    res = CliRunner().invoke(main, ["run", str(cfg), "--out", str(tmp_path / "out")])
    assert res.exit_code == 2
    assert "band.games: must be 1..10" in res.output
    assert not (tmp_path / "out").exists()


def test_without_a_band_table_or_disabled_the_plan_and_identity_are_unchanged() -> None:
    raw = {k: v for k, v in RAW.items() if k != "band"}
    off = _with_band(enabled=False)
    assert _cfg(raw).config_hash() == _cfg(off).config_hash()
    assert _cfg(off).band is None and band_plan(_cfg(off)).cells == []
    assert _cfg(raw).total_games == 2 * 12


def test_the_plan_holds_the_band_cells_after_the_main_cells() -> None:
    cfg = _cfg()
    bp = band_plan(cfg)
    names = [ln.name for ln in bp.lineups]
    assert names == [MAIN, "rule as angela", "rule as jessah", "rule at every seat", "pow_denier", "leak_reader"]
    # every lineup at every identity pair; levels play band.games, probes band.probe_games
    assert len(bp.cells) == 2 * 5 and [c.id for c in bp.cells] == list(range(2, 12))
    assert sorted(bp.games) == [4] * 6 + [6] * 4
    # the second identity pair plays the next stretch of game indices (paired with its own main games)
    assert sorted(set(zip(bp.games, bp.starts, strict=True))) == [(4, 0), (4, 4), (6, 0), (6, 6)]
    assert cfg.total_games == 2 * 12 and band_games(cfg) == sum(bp.games) == 48
    labels = {tuple(bp.strategies[s][i].label for s, i in zip(cfg.seats, c.strategies, strict=True))
              for c in bp.cells}
    assert ("pow_denier", "expert") in labels and ("expert", "leak_reader") in labels and ("rule", "rule") in labels


def test_a_shorter_run_plays_the_band_in_proportion() -> None:
    cfg = _cfg(games=6)  # half of run.games
    assert (cfg.band.games, cfg.band.probe_games) == (2, 3)
    assert (_cfg(games=1).band.games, _cfg(games=1).band.probe_games) == (1, 1)


def test_a_level_the_round_robin_plays_is_not_played_twice() -> None:
    raw = copy.deepcopy(RAW)
    raw["strategies"]["angela"] = ["expert", "rule"]
    cfg = _cfg(raw)
    cells = cfg.cells()
    band = band_plan(cfg).cells
    main_lineups = {(c.setup_label, c.strategies) for c in cells}
    assert not any((c.setup_label, c.strategies) in main_lineups for c in band)
    assert len(band) == 2 * 4  # "rule as angela" is a main cell already


@pytest.fixture(scope="module")
def band_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("band") / "run"
    assert run_tournament(_cfg(out=out), progress=False).complete
    return out


def test_the_band_cells_go_through_the_runner_and_the_manifest(band_run: Path) -> None:
    man = json.loads((band_run / "manifest.json").read_text())
    assert man["cells"] == 2 and man["games_per_cell"] == 12
    assert man["band"]["cells"] == 10 and man["band"]["games"] == 6 * 4 + 4 * 6 and man["games"] == 72
    check = check_run(band_run)
    assert check.whole and check.planned == 72
    assert check.scan().select("game_index").collect().height == 24
    band = check.scan(band=True).collect()
    assert band.height == 48 and set(band["angela_strategy"]) == {"rule", "pow_denier", "expert"}
    assert band.filter(pl.col("identity_pair") == "lawyer+doctor")["game_index"].unique().sort().to_list() \
        == list(range(4, 12))


def test_verify_counts_the_band_cells_in_its_plan_line(band_run: Path) -> None:
    res = CliRunner().invoke(main, ["verify", str(band_run)])
    assert res.exit_code == 0, res.output
    assert "plan: 2 cell(s) x 12 games = 24 + 10 band cell(s) of 48 games = 72;" in res.output


def test_integrity_counts_the_band_cells_missing_and_doubled(band_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(band_run, run)
    shards = run / "shards"
    gone = shards / "part-00011-0000000006-0000000010.parquet"  # the last band cell's first chunk
    assert gone.exists()
    gone.unlink()
    twice = pl.read_parquet(shards / "part-00002-0000000000-0000000004.parquet").head(2)
    twice.write_parquet(shards / "part-00002-0000000000-0000000002.parquet")
    check = check_run(run)
    assert not check.whole
    assert check.missing == {11: [(6, 10)]}
    assert check.repeated == {2: [(0, 2, 2)]}
    assert check.counts() == "68 of 72 planned games on disk, 2 more than once"
    res = CliRunner().invoke(main, ["report", str(run)])
    assert res.exit_code == 1 and "cell 11" in res.output


def test_a_config_rebuilt_from_the_manifest_plays_the_same_band(band_run: Path) -> None:
    from rnsim.provenance import config_from_manifest

    man = json.loads((band_run / "manifest.json").read_text())
    assert band_table(man["config"]["band"])["probes"] == ["pow_denier", "leak_reader"]
    assert config_from_manifest(man, band_run).config_hash() == man["config_hash"]


# ------------------------------------------------------------- the report's words

def _row(lineup: str, kind: str, players: str, rate: float, lo: float, hi: float, games: int = 600,
         diff: float | None = None, seat: str = "", level: str = "", base: str = "", gain: float | None = None,
         setup: str = "all", even: float = 0.5) -> dict[str, Any]:
    pair = (diff, diff - 0.02, diff + 0.02) if diff is not None else (None, None, None)
    g = (gain, gain - 0.015, gain + 0.015) if gain is not None else (None, None, None)
    return {"variant": "base", "setup": setup, "lineup": lineup, "kind": kind, "players": players, "level": level,
            "seat": seat, "reference": "" if kind == "main" else MAIN, "base": base, "games": games,
            "wins": int(rate * games), "rate": rate, "rate_lo": lo, "rate_hi": hi, "even": even, "ref_rate": None,
            "diff": pair[0], "diff_lo": pair[1], "diff_hi": pair[2], "gain": g[0], "gain_lo": g[1], "gain_hi": g[2]}


def _band(*rows: dict[str, Any]) -> pl.DataFrame:
    return pl.DataFrame(list(rows), infer_schema_length=None)


MAIN_ROW = _row(MAIN, "main", "expert vs expert", 0.185, 0.181, 0.189, 30000)
PROBE = _row("pow_denier", "probe", "pow_denier vs expert", 0.21, 0.19, 0.23, 1200, diff=0.025, seat="angela",
             base="expert", gain=0.025)


def _verdict(t: pl.DataFrame) -> str:
    from rnsim.band.words import band_verdicts
    from rnsim.report.sections import Verdict

    blocks = band_verdicts(t, ("angela", "jessah"))
    return next(b.text for b in blocks if isinstance(b, Verdict))


def test_a_stable_verdict_names_every_strength_and_the_strongest_probe() -> None:
    t = _band(MAIN_ROW, _row("search at every seat", "level", "search vs search", 0.221, 0.19, 0.25,
                             diff=0.036, level="search"), PROBE)
    assert _verdict(t) == (
        "Jessah is favoured at every strength tried. Angela wins 18.5% [18.1, 18.9] with the expert pair, "
        "22.1% [19.0, 25.0] with the search pair; the strongest of the 1 built-in probes tried, pow_denier "
        "(Angela, built on expert), moves it 2.5 points [+1.0, +4.0] in its seat's favour.")


def test_a_verdict_whose_side_changes_with_the_players_is_not_stable() -> None:
    t = _band(MAIN_ROW, _row("search as angela", "level", "search vs expert", 0.58, 0.54, 0.62, diff=0.4,
                             seat="angela", level="search"))
    assert _verdict(t).startswith(
        "The verdict is NOT stable across the players tried: Jessah is favoured with the expert pair but Angela is "
        "favoured with search as Angela (expert Jessah). Angela wins 18.5% [18.1, 18.9] with the expert pair, "
        "58.0% [54.0, 62.0] with search as Angela (expert Jessah).")


def test_a_band_wider_than_the_distance_from_even_is_not_stable() -> None:
    main = _row(MAIN, "main", "expert vs expert", 0.46, 0.455, 0.465, 30000)
    t = _band(main, _row("search at every seat", "level", "search vs search", 0.51, 0.47, 0.55, diff=0.05,
                         level="search"))
    assert _verdict(t).startswith(
        "The verdict is NOT stable across the players tried: the players move Angela's win rate by up to 5.0 "
        "points, as much as its distance from an even game (4.0 points).")


def test_a_run_without_a_band_says_its_interval_is_sampling_error_only() -> None:
    from rnsim.band.words import band_verdicts

    (para,) = band_verdicts(None, ("angela", "jessah"))
    assert para.text.startswith("The intervals above are sampling error only, with the players given")


def test_a_rotating_game_states_its_levels_in_one_line() -> None:
    from rnsim.band.words import band_verdicts

    rows = [_row(MAIN, "main", "expert vs expert vs expert", 0.40, 0.37, 0.43, 1000, setup="3", even=1 / 3),
            _row("rule at every seat", "level", "rule vs rule vs rule", 0.36, 0.33, 0.39, 500, diff=-0.04,
                 level="rule", setup="3", even=1 / 3)]
    (line, _) = band_verdicts(_band(*rows), ("ann", "bert", "chris"), "the start player")
    assert line.text == (
        "The start player's win rate by the players' level: 3 players 40.0% [37.0, 43.0] with expert players, "
        "36.0% [33.0, 39.0] with rule players (the same verdict): the verdict is the same at every level tried.")


def test_the_report_of_a_band_run_has_the_band_headline_and_section(band_run: Path, tmp_path: Path) -> None:
    from rnsim.report import write_report

    run = tmp_path / "run"
    shutil.copytree(band_run, run)
    write_report(run, svg=False, workers=1)
    md = (run / "report.md").read_text()
    lines = [x for x in md.splitlines() if x.startswith("**")]
    assert "with the rule pair" in lines[1] and "built-in probe" in lines[1]
    assert "## Strength band" in md and "| pow_denier | Angela | expert |" in md
    band = pl.read_csv(run / "tables" / "band.csv")
    assert band["lineup"].to_list()[0] == MAIN and band.height == 6


def test_a_resumed_run_plays_only_the_band_games_it_lacks(band_run: Path, tmp_path: Path) -> None:
    run = tmp_path / "run"
    shutil.copytree(band_run, run)
    before = pl.read_parquet(run / "shards" / "part-00011-0000000006-0000000010.parquet")
    (run / "shards" / "part-00011-0000000006-0000000010.parquet").unlink()
    summary = run_tournament(_cfg(out=run), progress=False)
    assert summary.complete and summary.played == 4 and summary.total_games == 72
    again = pl.read_parquet(run / "shards" / "part-00011-0000000006-0000000010.parquet")
    assert again.drop("run_id").equals(before.drop("run_id"))  # the same games, game for game


def test_a_move_within_its_interval_does_not_make_the_verdict_unstable() -> None:
    main = _row(MAIN, "main", "expert vs expert", 0.46, 0.455, 0.465, 30000)
    noisy = _row("search at every seat", "level", "search vs search", 0.51, 0.40, 0.62, 60, level="search")
    noisy.update(diff=0.05, diff_lo=-0.06, diff_hi=0.16)
    assert _verdict(_band(main, noisy)).startswith("Jessah is favoured with the expert pair; with the search pair no "
                                                   "side is measurably favoured.")


def test_a_probe_that_plays_its_seat_worse_than_its_base_does_not_unsettle_the_verdict() -> None:
    main = _row(MAIN, "main", "expert vs expert", 0.292, 0.287, 0.297, 30000)
    weaker = _row("leak_reader_near", "probe", "expert vs leak_reader_near", 0.514, 0.49, 0.54, 1200, diff=0.222,
                  seat="jessah", base="expert", gain=-0.222)
    text = _verdict(_band(main, weaker))
    assert text.startswith("Jessah is favoured at every strength tried.")
    assert text.endswith("; leak_reader_near (Jessah, -22.2 [-23.7, -20.7] points for its seat) moves it +22.2 "
                         "points: a probe playing its own seat worse than its base is a weaker player, not an exploit, "
                         "so its move is not counted against the verdict.")
    exploit = _row("sharp_hunter", "probe", "expert vs sharp_hunter", 0.07, 0.06, 0.08, 1200, diff=-0.222,
                   seat="jessah", base="expert", gain=0.222)
    assert _verdict(_band(main, exploit)).startswith(
        "The verdict is NOT stable across the players tried: the players move Angela's win rate by up to 22.2 "
        "points, as much as its distance from an even game (20.8 points).")
