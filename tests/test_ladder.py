"""`rnsim ladder`: cells on common game indices, Wilson intervals, the ordering check."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rnsim.cli import main
from rnsim.cli.ladder import Cell, format_ladder, ladder_holds, run_ladder
from rnsim.errors import ConfigError


def _counts(cells: dict[tuple[str, str], Cell]) -> dict[tuple[str, str], tuple[int, ...]]:
    return {k: (c.games, c.wins.get("angela", 0), c.wins.get("jessah", 0), c.timeout, c.error, c.rounds) for k, c in cells.items()}


def test_results_do_not_depend_on_chunking_or_workers() -> None:
    levels = ("random", "rule")
    one = run_ladder(levels, games=8, seed=3, workers=1, chunk=8)
    small = run_ladder(levels, games=8, seed=3, workers=1, chunk=3)
    pool = run_ladder(levels, games=8, seed=3, workers=2, chunk=4)
    assert _counts(one) == _counts(small) == _counts(pool)
    for c in one.values():
        assert c.games == 8 and sum(c.wins.values()) + c.timeout + c.error == 8


def test_cells_share_game_indices() -> None:
    """Every cell plays games 0..n-1 of the same master seed: the same deals."""
    from rnsim.games.red_notice.game import GAME
    from rnsim.games.red_notice.rules.ruleset import RuleSet
    from rnsim.play import run_game
    from rnsim.strategy import load_strategy

    cells = run_ladder(("random", "rule"), games=5, seed=9, workers=1)
    rules = RuleSet()
    wins = sum(run_game(GAME, rules, [load_strategy("rule"), load_strategy("random")], 9, i).winner == "angela"
               for i in range(5))
    assert cells[("rule", "random")].wins["angela"] == wins


def _cell(f: str, a: str, angela: int, jessah: int, n: int = 1000) -> Cell:
    return Cell(f, a, games=n, wins={"angela": angela, "jessah": jessah}, timeout=n - angela - jessah)


def test_ordering_check() -> None:
    levels = ("weak", "strong")
    good = {
        ("weak", "weak"): _cell("weak", "weak", 500, 500),
        ("weak", "strong"): _cell("weak", "strong", 100, 900),
        ("strong", "weak"): _cell("strong", "weak", 900, 100),
        ("strong", "strong"): _cell("strong", "strong", 500, 500),
    }
    assert ladder_holds(good, levels) == []
    # overlapping intervals (51% vs 50% on 1000 games) do not count as a win
    bad = dict(good)
    bad[("strong", "weak")] = _cell("strong", "weak", 510, 100)
    bad[("weak", "weak")] = _cell("weak", "weak", 500, 480)
    assert ladder_holds(bad, levels) == ["forger strong does not beat forger weak against agent weak"]
    text = format_ladder(good, levels)
    assert "90.0% [88.0,  91.7]" in text and "games per cell: 1000" in text


def test_cli_prints_matrices(tmp_path) -> None:  # type: ignore[no-untyped-def]
    out = tmp_path / "ladder.json"
    r = CliRunner().invoke(main, ["ladder", "--games", "3", "--workers", "1", "--levels", "random, rule",
                                  "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert "Forger (Angela) win rate" in r.output and "Agent (Jessah) win rate" in r.output
    data = json.loads(out.read_text())
    assert data["levels"] == ["random", "rule"] and len(data["cells"]) == 4


def test_bad_level_is_a_clear_error() -> None:
    with pytest.raises(ConfigError, match="available: random, rule, expert"):
        run_ladder(("random", "nobody"), games=2)
    r = CliRunner().invoke(main, ["ladder", "--games", "2", "--levels", "random"])
    assert r.exit_code == 2 and "at least two strategies" in r.output


def test_levels_take_params_and_seats_take_their_own_levels() -> None:
    from rnsim.cli.ladder import parse_level

    assert parse_level("search@iterations=2+margin=1.5") == ("search", {"iterations": 2, "margin": 1.5})
    assert parse_level("expert") == ("expert", {})
    with pytest.raises(ConfigError, match="not key=value"):
        parse_level("search@iterations")
    # A forger-only plugin is a row, never a column: 2 forger levels x 1 agent level.
    cells = run_ladder(("random", "rule"), games=4, seed=2, workers=1, second_levels=("rule@",))
    assert set(cells) == {("random", "rule@"), ("rule", "rule@")}
    # The same strategy at two params is two levels; the agent's param reaches the game.
    with pytest.raises(ConfigError, match="param 'risk' must be in 0.0..1.0"):
        run_ladder(("random",), games=1, second_levels=("expert@risk=2",))


def test_ordering_and_skill_curve_with_one_seat_levels() -> None:
    from rnsim.cli.ladder import skill_curve

    cells = {
        ("weak", "agent"): _cell("weak", "agent", 300, 700),
        ("strong", "agent"): _cell("strong", "agent", 600, 400),
    }
    # the only ordering asked is among the forgers, in the one agent column
    assert ladder_holds(cells, ("weak", "strong"), ("agent",)) == []
    assert skill_curve(cells, ("weak", "strong"), ("agent",)) == []  # no level in both seats
    both = {
        ("a", "a"): _cell("a", "a", 450, 550), ("a", "b"): _cell("a", "b", 300, 700),
        ("b", "a"): _cell("b", "a", 600, 400), ("b", "b"): _cell("b", "b", 455, 545),
    }
    curve = skill_curve(both, ("a", "b"))
    assert curve[0].startswith("Skill curve (equal levels), Angela's win rate: a 45.0% [")
    assert "stable at the top" in curve[1] and "NOT" not in curve[1]
    both[("b", "b")] = _cell("b", "b", 550, 450)
    assert "NOT stable" in skill_curve(both, ("a", "b"))[1]


def test_cli_one_seat_levels_and_plot(tmp_path) -> None:  # type: ignore[no-untyped-def]
    png = tmp_path / "skill.png"
    r = CliRunner().invoke(main, ["ladder", "--games", "2", "--workers", "1", "--angela-levels", "random,rule",
                                  "--jessah-levels", "rule", "--plot", str(png)])
    assert r.exit_code == 0, r.output
    assert png.stat().st_size > 0 and "forger rule does not beat" not in r.output.split("ordering")[0]
    r = CliRunner().invoke(main, ["ladder", "--games", "2", "--plot", str(tmp_path / "x.txt")])
    assert r.exit_code == 2 and "must end in .png" in r.output and not (tmp_path / "x.txt").exists()
