"""FBI through every subcommand, on the shipped config and on configs of one
player count: each works, or is refused in one line (exit 2) naming what is
supported. Few games each: these test the wiring, not the balance."""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from rnsim.cli import main

ROOT = Path(__file__).resolve().parents[3]
SHIPPED = (ROOT / "configs" / "fbi.toml").read_text()
RULE_LINEUP = '[strategies]\nann = "rule"\nbert = "rule"\nchris = "rule"\ndonna = "rule"\nemil = "rule"\n'


def _shipped(tmp: Path, players: list[int]) -> Path:
    """configs/fbi.toml (two variants, expert at every seat) with other player counts."""
    text, n = re.subn(r"(?m)^players = \[3, 4, 5\]", f"players = {players}", SHIPPED)
    assert n == 1, "configs/fbi.toml no longer says players = [3, 4, 5]"
    path = tmp / f"fbi-{'-'.join(map(str, players))}.toml"
    path.write_text(text)
    return path


def _rule_config(tmp: Path, players: int | list[int], strategies: str = RULE_LINEUP, name: str = "rule") -> Path:
    path = tmp / f"{name}.toml"
    path.write_text(f'[run]\ngame = "fbi"\nseed = 4\nworkers = 1\nbackend = "serial"\nplayers = {players}\n'
                    + strategies)
    return path


def _invoke(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(main, list(args))
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res.exit_code, res.output


def _error_line(output: str) -> str:
    """The one error line a refusal prints (and no traceback)."""
    assert "Traceback" not in output
    errors = [line for line in output.splitlines() if line.startswith("error: ")]
    assert len(errors) == 1, output
    return errors[0]


def _paired_rows(markdown: str, heading: str) -> list[str]:
    """The rows (header first) of the table under the first heading containing ``heading``."""
    table = markdown[markdown.index(heading):].split("\n\n")[1]
    return [line for line in table.splitlines() if not line.startswith("|---")]


# ---------------------------------------------------------------- compare and the report's paired section


@pytest.mark.parametrize("players", [[3], [3, 4], [3, 4, 5]])
def test_compare_pairs_every_player_count(tmp_path: Path, players: list[int]) -> None:
    config = _shipped(tmp_path, players)
    out = tmp_path / "cmp"
    code, output = _invoke("compare", str(config), "--games", "6", "--workers", "1", "--backend", "serial",
                           "--out", str(out), "--no-progress")
    assert code == 0, output
    md = (out / "compare.md").read_text()
    rows = _paired_rows(md, "top-card − base: start player's win rate, paired")
    counts = [row.split("|")[1].strip() for row in rows[1:]]
    assert counts == [*(str(p) for p in players), "**all cells**"]
    for row in rows[1:]:
        games, diff = row.split("|")[3].strip(), row.split("|")[6].strip()
        assert re.fullmatch(r"[+-]\d+\.\d \([+-]\d+\.\d, [+-]\d+\.\d\)", diff), row
        assert int(games.replace(",", "")) == 6 * (len(players) if "all" in row else 1)
    with (out / "tables" / "paired_base_vs_top-card.csv").open() as f:
        assert [r["players"] for r in csv.DictReader(f)] == [*(str(p) for p in players), "all"]
    # a seat absent at 3 players shows as absent, not as a 0.0% win rate
    if 3 in players:
        three = next(line for line in md.splitlines() if line.startswith("| base | 3 |"))
        assert three.rstrip(" |").split("|")[-3:-1] == [" – ", " – "]


@pytest.mark.parametrize("players", [[3], [3, 4], [3, 4, 5]])
def test_the_run_reports_variants_paired_at_every_player_count(tmp_path: Path, players: list[int]) -> None:
    out = tmp_path / "run"
    code, output = _invoke("run", str(_shipped(tmp_path, players)), "--games", "5", "--workers", "1",
                           "--backend", "serial", "--out", str(out), "--no-progress")
    assert code == 0, output
    md = (out / "report.md").read_text()
    section = md[md.index("## Variants, paired"):].split("\n## ")[0]
    rows = [line for line in section.splitlines() if line.startswith("| top-card | base |")]
    assert [row.split("|")[3].strip() for row in rows] == [*(str(p) for p in players), "**all**"]
    assert all(re.search(r"\| [+-]\d+\.\d \[[+-]\d+\.\d, [+-]\d+\.\d\] \|$", row) for row in rows)


# ---------------------------------------------------------------- seats left out, strategies of another game


def test_a_run_says_which_seats_play_the_default_and_the_manifest_marks_them(tmp_path: Path) -> None:
    config = _rule_config(tmp_path, [3, 4], '[strategies]\nann = "rule"\n')
    out = tmp_path / "run"
    code, output = _invoke("run", str(config), "--games", "2", "--out", str(out), "--no-progress", "--no-report")
    assert code == 0, output
    first = output.splitlines()[0]
    # emil plays in no game at 3 or 4 players: not named
    assert first.endswith("; bert, chris, donna: not in [strategies], play the default 'expert'"), first
    strategies = json.loads((out / "manifest.json").read_text())["strategies"]
    assert strategies["bert"][0] == {"ref": "expert", "params": {}, "label": "expert", "default": True}
    assert "default" not in strategies["ann"][0]
    # another seat's strategy pooled into ann's list (seats rotate) is not ann's default
    assert all("default" not in s for s in strategies["ann"])


def test_a_red_notice_config_that_leaves_out_its_seats_says_so(tmp_path: Path) -> None:
    config = tmp_path / "bare.toml"
    config.write_text('[run]\nidentities = [["journalist", "pilot"]]\nworkers = 1\nbackend = "serial"\n[rules]\n')
    code, output = _invoke("run", str(config), "--games", "1", "--out", str(tmp_path / "run"), "--no-progress",
                           "--no-report")
    assert code == 0, output
    assert output.splitlines()[0].endswith("; angela, jessah: not in [strategies], play the default 'expert'")


def test_a_red_notice_strategy_in_an_fbi_seat_is_a_config_error(tmp_path: Path) -> None:
    config = _rule_config(tmp_path, 3, '[strategies]\nann = "rule"\nbert = "rnsim_strategies.red_notice.expert:Expert"\n')
    out = tmp_path / "run"
    code, output = _invoke("run", str(config), "--out", str(out))
    assert code == 2
    line = _error_line(output)
    assert line.startswith(f"error: {config}: strategies.bert: strategy 'rnsim_strategies.red_notice.expert:Expert' "
                           "plays Red Notice: A Million or Prison ('red_notice'), not FBI ('fbi')"), line
    assert not out.exists()


def test_an_fbi_strategy_in_a_red_notice_seat_is_a_config_error(tmp_path: Path) -> None:
    config = tmp_path / "rn.toml"
    config.write_text('[strategies]\nangela = "rule"\njessah = "rnsim_strategies.fbi.expert:ExpertStrategy"\n')
    code, output = _invoke("compare", str(config), str(config), "--out", str(tmp_path / "cmp"))
    assert code == 2
    line = _error_line(output)
    assert "strategies.jessah: strategy 'rnsim_strategies.fbi.expert:ExpertStrategy' plays FBI ('fbi'), not " \
           "Red Notice" in line and line.startswith(f"error: {config}: ")
    assert not (tmp_path / "cmp").exists()


# ---------------------------------------------------------------- one player count through run, report, verify, check


@pytest.mark.parametrize("players", [3, 5])
def test_one_player_count_runs_reports_verifies_and_checks(tmp_path: Path, players: int) -> None:
    config = _rule_config(tmp_path, players)
    out = tmp_path / "run"
    code, output = _invoke("run", str(config), "--games", "6", "--out", str(out), "--no-progress", "--no-report")
    assert code == 0, output
    code, output = _invoke("report", str(out))
    assert code == 0, output
    md = (out / "report.md").read_text()
    assert f"{players} players: the start player" in md.split("## ")[0]
    code, output = _invoke("verify", str(out))
    assert code == 0 and output.rstrip().endswith(f"{out}: OK"), output
    base = tmp_path / "baseline.json"
    code, output = _invoke("baseline", "save", str(config), "--out", str(base), "--games", "150", "--delta", "0.2")
    assert code == 0, output
    (cell,) = json.loads(base.read_text())["cells"]
    assert cell["players"] == str(players) and cell["games"] == 150
    code, output = _invoke("check", "--baseline", str(base))
    assert code == 0 and "| no drift |" in output, output


# ---------------------------------------------------------------- play, replay, bench


def test_play_refuses_red_notice_seats_and_strategies_for_fbi() -> None:
    code, output = _invoke("play", "--game", "fbi", "--angela", "expert")
    assert code == 2 and _error_line(output) == (
        "error: --angela: fbi has no seat 'angela'; give its seats' strategies with --seat SEAT=STRATEGY, "
        "seats: ann, bert, chris, donna")
    code, output = _invoke("play", "--game", "fbi", "--seat", "chris=rnsim_strategies.red_notice.rules_based:RuleBased")
    assert code == 2 and _error_line(output).startswith(
        "error: --seat chris: strategy 'rnsim_strategies.red_notice.rules_based:RuleBased' plays Red Notice")
    code, output = _invoke("play", "--jessah", "rnsim_strategies.fbi.rule:RuleStrategy")
    assert code == 2 and _error_line(output).startswith("error: --jessah: strategy 'rnsim_strategies.fbi.rule")
    # without --setup FBI plays 4 players: a fifth seat's strategy would be ignored, so it is refused
    code, output = _invoke("play", "--game", "fbi", "--seat", "emil=rule")
    assert code == 2 and "no seat 'emil' in this game; seats: ann, bert, chris, donna" in _error_line(output)


def test_play_names_any_game_and_prints_its_summary() -> None:
    code, output = _invoke("play", "--game", "red_notice", "--seat", "angela=rule", "--seed", "1")
    assert code == 0, output
    assert output.startswith("red_notice seed 1 game 0: ") and "\n  identities: " in output
    code, output = _invoke("play", "--game", "fbi", "--setup", "3", "--seat", "ann=rule", "--seed", "1")
    assert code == 0 and "\n  scores: ann " in output and "donna" not in output, output


def test_replay_finds_the_game_that_wrote_the_log(tmp_path: Path) -> None:
    for game, args, ending in (("fbi", ["--game", "fbi", "--setup", "5"], "GAME OVER after turn"),
                               ("red_notice", [], "GAME OVER in round")):
        log = tmp_path / f"{game}.jsonl"
        code, output = _invoke("play", *args, "--seed", "2", "--log", str(log))
        assert code == 0, output
        code, output = _invoke("replay", str(log))
        assert code == 0, output
        assert ending in output
        lines = log.read_text().splitlines()
        (tmp_path / "cut.jsonl").write_text("\n".join(lines[:6]) + "\n")
        code, output = _invoke("replay", str(tmp_path / "cut.jsonl"))
        assert code == 2 and f"truncated event log of {game}" in _error_line(output)


def test_bench_plays_fbi(tmp_path: Path) -> None:
    code, output = _invoke("bench", "--game", "fbi", "--setup", "3", "--seat", "ann=rule", "--games", "10",
                           "--repeat", "1", "--workers", "1")
    assert code == 0, output
    assert output.startswith("bench: 10 fbi games of rule vs random vs random (players 3;")
    code, output = _invoke("bench", "--game", "fbi", "--jessah", "rule", "--games", "10")
    assert code == 2 and _error_line(output).startswith("error: --jessah: fbi has no seat 'jessah'")


# ---------------------------------------------------------------- ladder and exploit at FBI's equal seats


@pytest.mark.parametrize("command", ["ladder", "exploit"])
def test_ladder_and_exploit_take_fbi_at_one_player_count_and_refuse_another_in_one_line(command: str) -> None:
    code, output = _invoke(command, "--game", "fbi", "--setup", "6", "--games", "2")
    assert code == 2
    assert _error_line(output).startswith(f"error: {command}: --setup: players: FBI is played by 3, 4, 5 players")
    code, output = _invoke(command, "--game", "fbj")
    assert code == 2 and "unknown game 'fbj' (did you mean 'fbi'?)" in _error_line(output)


def test_ladder_and_exploit_refuse_an_fbi_strategy_in_a_red_notice_seat() -> None:
    code, output = _invoke("ladder", "--levels", "random,rnsim_strategies.fbi.rule:RuleStrategy", "--games", "2",
                           "--workers", "1")
    assert code == 2 and "plays FBI ('fbi'), not Red Notice" in _error_line(output)
    code, output = _invoke("exploit", "--angela", "rnsim_strategies.fbi.expert:ExpertStrategy", "--games", "2",
                           "--workers", "1")
    assert code == 2 and _error_line(output).startswith("error: exploit: --angela: strategy "
                                                        "'rnsim_strategies.fbi.expert:ExpertStrategy' plays FBI")
