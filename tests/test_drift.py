"""The drift gate and variant comparison on real games (small, serial runs)."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

from rnsim.analysis.paired import ALL
from rnsim.cli import main
from rnsim.drift import (
    EXIT_DRIFT,
    EXIT_NO_DRIFT,
    EXIT_UNDECIDED,
    EXIT_USAGE,
    compare_config,
    compare_run,
    load_baseline,
    run_check,
    save_baseline,
)
from rnsim.errors import ConfigError

CONFIG = """
[run]
seed = 5
identities = "random"
backend = "serial"
games = 300
[rules]
{rules}
[strategies]
angela = "rule"
jessah = "rule"
"""

# A tolerance of 8 points keeps these checks to a few hundred games each.
DELTA = 0.08


def write(tmp: Path, name: str, rules: str = "") -> Path:
    p = tmp / name
    p.write_text(CONFIG.format(rules=rules))
    return p


@pytest.fixture(scope="module")
def gate_dir(tmp_path_factory: pytest.TempPathFactory) -> Path:
    tmp = tmp_path_factory.mktemp("gate")
    write(tmp, "classic.toml")
    write(tmp, "target-800k.toml", "money_target = 800_000")
    save_baseline(tmp / "classic.toml", tmp / "baseline.json", delta=DELTA, echo=lambda s: None)
    return tmp


def test_the_baseline_file_is_small_readable_and_complete(gate_dir: Path) -> None:
    path = gate_dir / "baseline.json"
    data = json.loads(path.read_text())
    assert path.stat().st_size < 5000
    assert data["config_file"] == "classic.toml"
    assert data["master_seed"] == 5 and data["rnsim_version"]
    assert set(data["rules_hash"]) == {"base"} and len(data["rules_hash"]["base"]) == 16
    (cell,) = data["cells"]
    assert cell["identity_pair"] == "random" and cell["angela_strategy"] == "rule"
    assert cell["games"] == data["games_per_cell"] > 0
    assert cell["angela_wins"] + cell["jessah_wins"] + cell["timeouts"] == cell["games"]
    assert data["gate"]["delta"] == DELTA and data["gate"]["budget"] > data["gate"]["batch"] > 0
    assert len(cell["replay"]) == data["gate"]["replay_games"] and set(cell["replay"]) <= {"0", "1"}


def test_a_money_target_of_800k_is_flagged_as_drift(gate_dir: Path) -> None:
    out = run_check(gate_dir / "baseline.json", config=gate_dir / "target-800k.toml", echo=lambda s: None)
    assert out.verdict == "drift" and out.exit_code == EXIT_DRIFT
    assert out.cells[0].replay_differs is not None  # the replay saw the change at once
    (r,) = out.gate.results()
    assert r.diff > 0 and r.llr >= r.upper
    assert "money_target 1000000 -> 800000" in out.block
    assert out.games < out.budget


def test_the_same_rules_under_another_master_seed_are_not_flagged(gate_dir: Path) -> None:
    out = run_check(gate_dir / "baseline.json", seed=99, echo=lambda s: None)
    assert out.verdict == "no drift" and out.exit_code == EXIT_NO_DRIFT
    (r,) = out.gate.results()
    assert r.llr <= r.lower
    assert "seed 99, game indices from 0" in out.block


def test_unchanged_code_is_settled_by_the_exact_replay(gate_dir: Path) -> None:
    base = load_baseline(gate_dir / "baseline.json")
    k = base.gate["replay_games"]
    a = run_check(gate_dir / "baseline.json", echo=lambda s: None)
    assert a.verdict == "no drift"
    (c,) = a.cells
    assert c.replay_settled and c.replayed == k and c.replay_differs is None
    assert a.games == k and c.counts["games"] == 0  # no fresh game needed
    assert "replayed" in a.block
    b = run_check(gate_dir / "baseline.json", echo=lambda s: None)
    assert a.block == b.block  # reproducible


def test_without_replay_the_check_plays_fresh_games_past_the_baseline(gate_dir: Path) -> None:
    out = run_check(gate_dir / "baseline.json", replay=False, echo=lambda s: None)
    n0 = load_baseline(gate_dir / "baseline.json").games_per_cell
    assert f"game indices from {n0}" in out.block
    assert out.cells[0].replayed == 0 and out.cells[0].counts["games"] > 0


def test_one_differing_replayed_game_sends_the_cell_to_the_sprt(gate_dir: Path, tmp_path: Path) -> None:
    data = json.loads((gate_dir / "baseline.json").read_text())
    cell = data["cells"][0]
    flipped = "1" if cell["replay"][13] == "0" else "0"
    cell["replay"] = cell["replay"][:13] + flipped + cell["replay"][14:]
    data["config_file"] = str(gate_dir / "classic.toml")
    (tmp_path / "tampered.json").write_text(json.dumps(data))
    out = run_check(tmp_path / "tampered.json", echo=lambda s: None)
    (c,) = out.cells
    assert c.replay_differs == 13 and not c.replay_settled
    assert c.counts["games"] > 0  # tested on fresh games instead
    assert out.verdict == "no drift"


def test_the_process_backend_gives_the_same_verdict_and_counts(gate_dir: Path) -> None:
    serial = run_check(gate_dir / "baseline.json", seed=7, echo=lambda s: None)
    pooled = run_check(gate_dir / "baseline.json", seed=7, backend="process", workers=2, echo=lambda s: None)
    assert [c.counts for c in serial.cells] == [c.counts for c in pooled.cells]
    assert serial.block == pooled.block


def test_exit_codes_of_the_cli(gate_dir: Path) -> None:
    runner = CliRunner()
    base = str(gate_dir / "baseline.json")
    r = runner.invoke(main, ["check", "--baseline", base, "--config", str(gate_dir / "target-800k.toml")])
    assert r.exit_code == EXIT_DRIFT, r.output
    assert "### rnsim balance check: DRIFT" in r.output and "| cell |" in r.output
    r = runner.invoke(main, ["check", "--baseline", base, "--seed", "99"])
    assert r.exit_code == EXIT_NO_DRIFT, r.output
    # a budget too small to decide anything (fewer games than a decision needs)
    r = runner.invoke(main, ["check", "--baseline", base, "--budget", "20", "--seed", "99"])
    assert r.exit_code == EXIT_UNDECIDED, r.output
    assert "UNDECIDED" in r.output
    r = runner.invoke(main, ["check", "--baseline", base, "--budget", "20", "--seed", "99", "--allow-undecided"])
    assert r.exit_code == EXIT_NO_DRIFT, r.output
    # usage and config errors
    r = runner.invoke(main, ["check", "--baseline", str(gate_dir / "missing.json")])
    assert r.exit_code == EXIT_USAGE and "baseline file not found" in r.output
    r = runner.invoke(main, ["check", "--baseline", base, "--delta", "0.7"])
    assert r.exit_code == EXIT_USAGE and "delta" in r.output
    r = runner.invoke(main, ["check"])
    assert r.exit_code == EXIT_USAGE


def test_another_delta_resizes_the_budget_or_is_refused(gate_dir: Path) -> None:
    stored = load_baseline(gate_dir / "baseline.json").gate["budget"]
    wider = run_check(gate_dir / "baseline.json", seed=99, delta=0.12, echo=lambda s: None)
    assert wider.budget < stored
    with pytest.raises(ConfigError, match="too few"):
        run_check(gate_dir / "baseline.json", delta=0.01, echo=lambda s: None)


def test_a_baseline_cell_missing_from_the_config_is_a_config_error(gate_dir: Path, tmp_path: Path) -> None:
    other = tmp_path / "other.toml"
    other.write_text(CONFIG.format(rules="").replace('angela = "rule"', 'angela = "random"'))
    with pytest.raises(ConfigError, match="not a cell of the current config"):
        run_check(gate_dir / "baseline.json", config=other, echo=lambda s: None)


def test_a_broken_baseline_file_is_a_config_error(tmp_path: Path) -> None:
    p = tmp_path / "b.json"
    p.write_text(json.dumps({"format": "rnsim-baseline/1", "cells": []}))
    with pytest.raises(ConfigError, match="missing key"):
        load_baseline(p)
    p.write_text("{not json")
    with pytest.raises(ConfigError, match="not a readable baseline"):
        load_baseline(p)


def test_the_stored_config_is_replayed_when_the_file_is_gone(tmp_path: Path) -> None:
    write(tmp_path, "gone.toml")
    save_baseline(tmp_path / "gone.toml", tmp_path / "b.json", games=200, delta=0.15, echo=lambda s: None)
    (tmp_path / "gone.toml").unlink()
    out = run_check(tmp_path / "b.json", seed=3, echo=lambda s: None)
    assert out.verdict in ("no drift", "undecided") and out.games > 0


# ------------------------------------------------------------------ compare


@pytest.fixture(scope="module")
def compared(tmp_path_factory: pytest.TempPathFactory):  # type: ignore[no-untyped-def]
    tmp = tmp_path_factory.mktemp("compare")
    cfg_file = tmp / "variants.toml"
    cfg_file.write_text(
        CONFIG.format(rules="").replace("games = 300", "games = 400")
        + '\n[[variants]]\nname = "classic"\n\n[[variants]]\nname = "classic-again"\n\n'
        + '[[variants]]\nname = "target-800k"\nmoney_target = 800_000\n'
    )
    cfg = compare_config([cfg_file], out=tmp / "run")
    return compare_run(cfg, progress=False, echo=lambda s: None)


def test_two_identical_variants_give_a_zero_width_paired_interval(compared) -> None:  # type: ignore[no-untyped-def]
    t = compared.tables["classic-again"]
    for row in t.iter_rows(named=True):
        assert row["diff"] == 0.0
        assert row["paired_hi"] - row["paired_lo"] == 0.0
        assert row["unpaired_hi"] - row["unpaired_lo"] > 0


def test_two_different_variants_give_a_narrower_paired_interval(compared) -> None:  # type: ignore[no-untyped-def]
    row = compared.tables["target-800k"].filter(pl.col("identity_pair") == ALL).row(0, named=True)
    assert row["games"] == 400
    assert row["diff"] > 0  # a lower target helps the forger
    assert row["paired_hi"] - row["paired_lo"] < row["unpaired_hi"] - row["unpaired_lo"]
    assert 0 < row["variance_removed"] < 1
    assert "Pairing removed" in compared.text


def test_compare_writes_its_report_and_tables(compared) -> None:  # type: ignore[no-untyped-def]
    run = compared.run_dir
    assert (run / "compare.md").read_text().startswith("## Variants compared")
    assert (run / "tables" / "paired_classic_vs_target-800k.csv").is_file()


def test_compare_of_two_files_names_variants_after_them(tmp_path: Path) -> None:
    a = write(tmp_path, "classic.toml")
    b = write(tmp_path, "target-800k.toml", "money_target = 800_000")
    cfg = compare_config([a, b], games=50, out=tmp_path / "run")
    assert [v.name for v in cfg.variants] == ["classic", "target-800k"]
    assert cfg.variants[1].rules.money_target == 800_000
    with pytest.raises(ConfigError, match="two or more"):
        compare_config([a])


def test_compare_cli(tmp_path: Path) -> None:
    a = write(tmp_path, "classic.toml")
    b = write(tmp_path, "target-800k.toml", "money_target = 800_000")
    r = CliRunner().invoke(main, ["compare", str(a), str(b), "--games", "60", "--out", str(tmp_path / "run"),
                                  "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "target-800k − classic" in r.output and "**all cells**" in r.output


def test_the_variance_the_pairing_removed_is_never_a_negative_share() -> None:
    """A cell where paired games varied more than independent ones would
    (few games, by chance) reads "none", as the overall sentence says,
    never "-39%"."""
    from rnsim.drift.markdown import variance_removed_text

    assert variance_removed_text(-0.39) == "none" and variance_removed_text(0.0) == "none"
    assert variance_removed_text(0.614) == "61%" and variance_removed_text(None) == "n/a"


def test_compare_of_one_game_per_cell_is_refused_before_playing(tmp_path: Path) -> None:
    """A paired interval needs two games a cell: one is bad input (exit 2,
    one line naming --games), not a traceback after the games are played."""
    a = write(tmp_path, "classic.toml")
    b = write(tmp_path, "target-800k.toml", "money_target = 800_000")
    r = CliRunner().invoke(main, ["compare", str(a), str(b), "--games", "1", "--out", str(tmp_path / "run"),
                                  "--no-progress"])
    assert r.exit_code == 2, r.output
    assert "needs at least 2 games per cell, got 1 (--games" in r.output
    assert not (tmp_path / "run").exists()


def test_compare_plays_the_main_pair_only_when_the_first_file_has_a_band(tmp_path: Path) -> None:
    """A [band] is the report's measure of the players: compare leaves it out
    and says so, so its cells are neither paid for nor read as rows of the
    comparison of the rules."""
    a = tmp_path / "classic.toml"
    a.write_text(CONFIG.format(rules="") + "\n[band]\nenabled = true\ngames = 4\nprobe_games = 4\nprobes = []\n")
    b = write(tmp_path, "target-800k.toml", "money_target = 800_000")
    said: list[str] = []
    cfg = compare_config([a, b], games=40, out=tmp_path / "run", echo=said.append)
    assert cfg.band is None
    assert any("[band] is not played by compare" in s and "classic.toml" in s for s in said)
    result = compare_run(cfg, progress=False, echo=lambda s: None)
    manifest = json.loads((result.run_dir / "manifest.json").read_text())
    assert "band" not in manifest and not list(result.run_dir.glob("band*"))
