"""The game-agnostic analysis and report core on a table of a made-up game
with three seats and shared wins: nothing in the core may assume Red Notice."""

from __future__ import annotations

import re
from pathlib import Path

import polars as pl
import pytest

from rnsim.analysis import by_setup, game_length, headline, layout, newcombe, wilson
from rnsim.analysis.stats import difference_columns
from rnsim.analysis.synthetic import write_run

ROOT = Path(__file__).resolve().parents[1]

SEATS = ("north", "east", "south")


def table(games: list[tuple[str, str | None, dict[str, float] | None, int]]) -> pl.DataFrame:
    """Rows of the core schema for a 3-seat game with shares: (players setup,
    winner or None, shares or None for an error row, rounds)."""
    rows = []
    played: dict[str, int] = {}  # every setup (a cell) plays game indices 0..n-1
    for setup, winner, shares, rounds in games:
        i = played[setup] = played.get(setup, -1) + 1
        error = shares is None
        rows.append({
            "run_id": "r", "variant": "base", "players": setup,
            **{f"{s}_strategy": "random" for s in SEATS},
            "game_index": i, "seed": i, "rules_hash": "h", "winner": None if error else winner,
            "end_reason": "error" if error else ("score" if winner or shares else "timeout"),
            "rounds": None if error else rounds,
            "score_north": None if error else 3,
            **{f"share_{s}": None if error else (shares or {}).get(s, 0.0) for s in SEATS},
        })
    return pl.DataFrame(rows, schema_overrides={"rounds": pl.Int16})


GAMES = [
    ("3", "north", {"north": 1.0}, 5),
    ("3", "north", {"north": 1.0}, 7),
    ("3", None, {"north": 0.5, "east": 0.5}, 6),  # a shared win: no single winner
    ("3", "south", {"south": 1.0}, 9),
    ("4", "east", {"east": 1.0}, 4),
    ("4", None, {}, 20),  # nobody won
    ("4", None, None, 0),  # an error
]


def test_layout_of_a_three_seat_game_with_shares() -> None:
    lay = layout(table(GAMES).columns)
    assert lay.seats == SEATS and lay.setup == "players" and lay.shares
    assert lay.cell == ["variant", "north_strategy", "east_strategy", "south_strategy"]


def test_win_rates_are_mean_shares_and_errors_stay_apart() -> None:
    h = headline(table(GAMES)).row(0, named=True)
    assert (h["games"], h["errors"]) == (6, 1)
    assert h["north_wins"] == 2.5 and h["east_wins"] == 1.5 and h["south_wins"] == 1.0
    assert h["north_rate"] == pytest.approx(2.5 / 6)
    assert (h["north_rate_lo"], h["north_rate_hi"]) == pytest.approx(wilson(2.5, 6), abs=1e-12)
    assert h["no_winner"] == 2  # the shared win and the timeout: no single winner
    b = by_setup(table(GAMES))
    assert b["players"].to_list() == ["3", "4"]
    assert b.select("north_wins", "east_wins", "errors").rows() == [(2.5, 0.5, 0), (0.0, 1.0, 1)]


def test_win_rates_without_shares_count_the_winner() -> None:
    df = table(GAMES).drop([f"share_{s}" for s in SEATS])
    h = headline(df).row(0, named=True)
    assert not layout(df.columns).shares
    assert (h["north_wins"], h["east_wins"], h["south_wins"]) == (2, 1, 1)


def test_game_length_by_end_reason() -> None:
    gl = game_length(table(GAMES))
    assert gl.select("end_reason", "winner", "games").rows() == \
        [("score", "east", 1), ("score", "north", 2), ("score", "south", 1), ("score", None, 1), ("timeout", None, 1)]
    assert gl.filter(pl.col("winner") == "north")["mean_rounds"].item() == 6.0


def test_difference_interval_is_newcombe() -> None:
    df = pl.DataFrame({"k1": [30, 0, 5], "n1": [40, 10, 0], "k2": [50, 10, 3], "n2": [100, 10, 9]})
    out = df.with_columns(difference_columns("k1", "n1", "k2", "n2", "d"))
    assert out["d"][0] == pytest.approx(0.25)
    assert (out["d_lo"][0], out["d_hi"][0]) == pytest.approx(newcombe(30, 40, 50, 100), abs=1e-12)
    # Newcombe's worked example 1 (56/70 - 48/80): [0.0524, 0.3339]
    assert newcombe(56, 70, 48, 80) == pytest.approx((0.0524, 0.3339), abs=1e-4)
    assert out["d_lo"][1] == pytest.approx(newcombe(0, 10, 10, 10)[0]) and out["d_lo"][1] >= -1
    assert out["d"][2] is None and out["d_lo"][2] is None  # an empty group has no difference


def test_the_report_of_a_game_without_report_sections(tmp_path: Path) -> None:
    """A game the registry knows nothing about still gets the core report:
    the verdict against an even game of 1/3, outcomes per seat, setups."""
    from rnsim.report.render import FigurePlan, build, compute_tables, to_markdown

    # ten more games nobody won at 4 players: both setups (cells) play games 0..39
    write_run(tmp_path, table(GAMES * 10 + [("4", None, {}, 20)] * 10))
    t = compute_tables(tmp_path)
    assert set(t) == {"headline", "by_setup", "game_length", "game_length_histogram", "errors_by_cell"}
    plan = FigurePlan(tmp_path / "figures", svg=False)
    doc = build(tmp_path, t, plan, plugin=None, manifest={"run_id": "three"})
    plan.draw(workers=1)
    md = to_markdown(doc, tmp_path)
    first = md.split("\n\n")[1]
    assert first.startswith("**No side is measurably favoured: North wins 35.7% [")
    assert ("of 70 played random games, 2.4 points above an even game (33.3%, one win in 3); 42.9% have no winner; "
            "10 games (12.5%) ended in an error and are not counted.**") in first
    assert "| players | games | North wins | East wins | South wins |" in md
    assert "Matchups" not in md  # a matchup matrix needs two seats


#: words of Red Notice that must not appear in the core (the game's own
#: modules live in rnsim/games/red_notice)
RED_NOTICE_WORDS = re.compile(r"angela|jessah|forger|identit|upgrade|red.notice|radar|capture", re.I)

CORE_MODULES = [
    "rnsim/analysis/__init__.py", "rnsim/analysis/aggregate.py", "rnsim/analysis/load.py",
    "rnsim/analysis/stats.py", "rnsim/analysis/synthetic.py",
    "rnsim/report/__init__.py", "rnsim/report/figures.py", "rnsim/report/render.py", "rnsim/report/sections.py",
    "rnsim/report/templating.py", "rnsim/report/templates/report.html.j2", "rnsim/report/templates/report.md.j2",
    "rnsim/report/templates/report.css.j2", "rnsim/report/templates/sort.js.j2",
    "rnsim/cli/report.py",
]


@pytest.mark.parametrize("module", CORE_MODULES)
def test_no_red_notice_name_in_the_core(module: str) -> None:
    text = (ROOT / module).read_text()
    found = sorted({m.group(0).lower() for m in RED_NOTICE_WORDS.finditer(text)})
    assert not found, f"{module} names {found}"
