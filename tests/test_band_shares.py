"""FBI's strength band counts a game as its verdict does: a win shared by k
players is 1/k of a win for each (F13), so the band's main row is the
verdict's own rate and the other rows are comparable with it."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from rnsim.cli import main
from rnsim.tournament.shards import load_results

CONFIG = """
[run]
game = "fbi"
games = 60
seed = 4
players = [4]
backend = "serial"
[strategies]
ann = "expert"
bert = "expert"
chris = "expert"
donna = "expert"
[band]
games = 30
levels = ["rule"]
probes = []
"""


@pytest.fixture(scope="module")
def fbi_band_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("fbi-band")
    (tmp / "fbi.toml").write_text(CONFIG)
    res = CliRunner().invoke(main, ["run", str(tmp / "fbi.toml"), "--out", str(tmp / "run"), "--no-progress"])
    assert res.exit_code == 0, res.output
    return tmp / "run"


def test_the_band_main_row_is_the_start_players_share_of_the_wins(fbi_band_run: Path) -> None:
    games = pl.DataFrame(load_results(fbi_band_run).collect())
    start = games.select(pl.coalesce(*(pl.when(pl.col("first_handcuffs") == s).then(pl.col(f"share_{s}"))
                                       for s in ("ann", "bert", "chris", "donna"))).alias("y"))["y"]
    assert games.filter(pl.col("end_reason") == "shared_win").height > 0  # the case this guards is in the run
    band = pl.read_csv(fbi_band_run / "tables" / "band.csv")
    main_row = band.filter(pl.col("kind") == "main").row(0, named=True)
    assert main_row["games"] == games.height
    assert main_row["rate"] == pytest.approx(float(start.mean()))
    assert main_row["wins"] == pytest.approx(float(start.sum()))
    report = (fbi_band_run / "report.md").read_text()
    assert "1/k of a win for each of the k tied players (F13), as in the verdict" in report
    assert f"wins {100 * main_row['rate']:.1f}%" in report  # the verdict's rate is the band's
