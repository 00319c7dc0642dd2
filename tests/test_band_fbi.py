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
    assert row["gain"] > 0.3  # it reads the experts' pairs: far more than its share
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
    assert "the strongest of the 2 built-in probes tried, pair_reader (built on expert), gains its own seat" in verdict
    assert "the start player's advantage over an even share, points [95%]" in md
    assert "| base | 3 | pair_reader | Ann | expert | 12 |" in md
    assert "A shared win counts 1/k of a win for each of the k tied players (F13)" in md
