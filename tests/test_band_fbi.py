"""FBI's strength band: its built-in probes join the band, each gaining its
own seat's share of the games won over its base on the same deals, and the
start player's advantage is stated at every level."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest

from rnsim.band.analysis import band_table
from rnsim.band.plan import MAIN, band_plan
from rnsim.config import config_from_mapping
from rnsim.results.integrity import check_run
from rnsim.tournament import run_tournament

RAW: dict[str, Any] = {
    "run": {"game": "fbi", "games": 16, "seed": 3, "players": [3]},
    "strategies": {s: "expert" for s in ("ann", "bert", "chris", "donna", "emil")},
    "band": {"games": 10, "probe_games": 12, "levels": ["rule"], "probes": ["pair_reader", "bid_reader"]},
}


def _cfg(**over: Any) -> Any:
    return config_from_mapping(RAW, src="t.toml", **{"chunk_size": 8, "backend": "serial", **over})


@pytest.fixture(scope="module")
def fbi_band(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("fbiband") / "run"
    assert run_tournament(_cfg(out=out), progress=False).complete
    return out


def test_the_fbi_band_plays_each_probe_in_anns_seat_among_the_main_players() -> None:
    bp = band_plan(_cfg())
    probes = [ln for ln in bp.lineups if ln.kind == "probe"]
    assert [(ln.name, ln.seat, ln.reference, ln.base) for ln in probes] == [
        ("pair_reader", "ann", MAIN, "expert"), ("bid_reader", "ann", MAIN, "expert")]
    assert probes[0].labels[:3] == ("pair_reader", "expert", "expert")


def test_a_probes_gain_is_its_seats_share_of_the_win_paired_with_the_main_games(fbi_band: Path) -> None:
    check = check_run(fbi_band)
    man = check.manifest
    assert man is not None
    t = band_table(check, man, "first_handcuffs")
    assert t is not None
    row = t.filter(pl.col("lineup") == "pair_reader").row(0, named=True)
    main = check.scan().collect().select("game_index", pl.col("share_ann").alias("a"))
    probe = (check.scan(band=True).collect().filter(pl.col("ann_strategy") == "pair_reader")
             .select("game_index", pl.col("share_ann").alias("b")))
    both = main.join(probe, on="game_index")
    assert both.height == row["games"] == 12
    assert row["gain"] == pytest.approx(float((both["b"] - both["a"]).mean()))
    assert row["gain_lo"] < row["gain"] < row["gain_hi"]
    # the start player's rate counts a shared win as 1/k (F13), as the report's positions do
    played = check.scan().collect()
    start = sum(r[f"share_{r['first_handcuffs']}"] for r in played.iter_rows(named=True))
    m = t.filter(pl.col("lineup") == MAIN).row(0, named=True)
    assert m["wins"] == pytest.approx(start) and m["even"] == pytest.approx(1 / 3)


def test_the_fbi_report_states_the_probes_and_the_start_players_advantage(fbi_band: Path, tmp_path: Path) -> None:
    import shutil

    from rnsim.report import write_report

    run = tmp_path / "run"
    shutil.copytree(fbi_band, run)
    write_report(run, svg=False, workers=1)
    md = (run / "report.md").read_text()
    verdict = next(x for x in md.splitlines() if x.startswith("**") and "by the players' level" in x)
    check = check_run(run)
    assert check.manifest is not None
    t = band_table(check, check.manifest, "first_handcuffs")
    assert t is not None
    probes = t.filter(pl.col("kind") == "probe").sort("gain", descending=True)
    strongest = probes.row(0, named=True)["lineup"]
    assert strongest != probes.row(1, named=True)["lineup"]
    if probes.row(0, named=True)["gain"] > 0:
        assert f"the strongest of the 2 built-in probes tried, {strongest} (built on expert), gains its own seat" in verdict
    else:
        assert f"of the 2 tried gains its seat anything against expert players (the best: {strongest}, " in verdict
    assert "the start player's advantage over an even share, points [95%]" in md
    assert "| base | 3 | pair_reader | Ann | expert | 12 |" in md
    assert "A shared win counts 1/k of a win for each of the k tied players (F13)" in md


def _r(lineup: str, kind: str, players: str, rate: float, diff: float | None = None,
       gain: float | None = None) -> dict[str, Any]:
    d = (diff, diff - 0.02, diff + 0.02) if diff is not None else (None, None, None)
    g = (gain, gain - 0.02, gain + 0.02) if gain is not None else (None, None, None)
    return {"variant": "base", "setup": "4", "lineup": lineup, "kind": kind, "players": players, "level": "",
            "seat": "ann" if kind == "probe" else "", "reference": "" if kind == "main" else MAIN,
            "base": "expert" if kind == "probe" else "", "games": 500, "wins": rate * 500, "rate": rate,
            "rate_lo": rate - 0.02, "rate_hi": rate + 0.02, "even": 0.25, "ref_rate": None,
            "diff": d[0], "diff_lo": d[1], "diff_hi": d[2], "gain": g[0], "gain_lo": g[1], "gain_hi": g[2]}


def _line(*rows: dict[str, Any]) -> str:
    from rnsim.band.words import band_verdicts

    seats = ("ann", "bert", "chris", "donna")
    return band_verdicts(pl.DataFrame(list(rows), infer_schema_length=None), seats, "the start player")[0].text


MAIN4 = _r(MAIN, "main", "expert vs expert vs expert vs expert", 0.30)


def test_a_rotating_games_headline_names_the_probe_that_gains_its_seat_most() -> None:
    text = _line(MAIN4, _r("a", "probe", "a vs expert vs expert vs expert", 0.30, diff=0.0, gain=0.05),
                 _r("b", "probe", "b vs expert vs expert vs expert", 0.31, diff=0.01, gain=0.70))
    assert text.endswith("the verdict is the same at every level tried; the strongest of the 2 built-in probes "
                         "tried, b (built on expert), gains its own seat 70.0 points [+68.0, +72.0] of the games won "
                         "at 4 players against the main players (its whole interval above 3 points).")


def test_a_probe_that_moves_the_start_players_rate_past_its_distance_from_even_is_not_stable() -> None:
    text = _line(MAIN4, _r("b", "probe", "b vs expert vs expert vs expert", 0.20, diff=-0.10, gain=0.40))
    assert "4 players 30.0% [28.0, 32.0] with expert players (NOT stable: the players (levels and probes) move it " \
           "10.0 points, its distance from an even game is 5.0)" in text
