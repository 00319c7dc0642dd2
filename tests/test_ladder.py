"""`rnsim ladder`: cells on common game indices, Wilson intervals, the ordering check."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from rnsim.cli import main
from rnsim.cli.ladder import Cell, format_ladder, ladder_holds, run_ladder
from rnsim.errors import ConfigError


def _counts(cells: dict[tuple[str, str], Cell]) -> dict[tuple[str, str], tuple[int, ...]]:
    return {k: (c.games, c.angela, c.jessah, c.timeout, c.error, c.rounds) for k, c in cells.items()}


def test_results_do_not_depend_on_chunking_or_workers() -> None:
    levels = ("random", "rule")
    one = run_ladder(levels, games=8, seed=3, workers=1, chunk=8)
    small = run_ladder(levels, games=8, seed=3, workers=1, chunk=3)
    pool = run_ladder(levels, games=8, seed=3, workers=2, chunk=4)
    assert _counts(one) == _counts(small) == _counts(pool)
    for c in one.values():
        assert c.games == 8 and c.angela + c.jessah + c.timeout + c.error == 8


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
    assert cells[("rule", "random")].angela == wins


def _cell(f: str, a: str, angela: int, jessah: int, n: int = 1000) -> Cell:
    return Cell(f, a, games=n, angela=angela, jessah=jessah, timeout=n - angela - jessah)


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
