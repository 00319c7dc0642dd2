"""Tournaments: identical tables whatever the backend, workers or chunk size;
resume after SIGKILL/SIGTERM equals an uninterrupted run; strategy faults become
error rows; a dying worker's chunk is replayed; the schema is the contract."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rnsim_strategies.red_notice.random_play import RandomStrategy

from rnsim import load_results
from rnsim.config import config_from_mapping, load_config
from rnsim.errors import ConfigError, RnsimError
from rnsim.games.red_notice.engine.decision import Decision, Option
from rnsim.games.red_notice.engine.view import View
from rnsim.tournament import load_errors, run_tournament
from rnsim.tournament.schedule import Chunk, covered, plan_chunks

KEY = ["variant", "identity_pair", "angela_strategy", "jessah_strategy", "game_index"]


# ---- strategies that misbehave on purpose (imported by workers by reference)

class RaiseSometimes(RandomStrategy):
    """Raises on about `p` of the games (decided from the seat's own stream, so
    the same games fail in every run)."""

    PARAMS = {"p": 0.2, "illegal": False}

    def new_game(self, seat: int, rng: Any) -> None:
        super().new_game(seat, rng)
        self.fail = rng.random() < self.params["p"]

    def choose(self, view: View, decision: Decision) -> Option:
        if self.fail:
            if self.params["illegal"]:
                return "no-such-option"
            raise ValueError("deliberate failure")
        return super().choose(view, decision)


class DieOnce(RandomStrategy):
    """Kills its own process (as a segfault or the OOM killer would) on the
    first game where its stream says so, once in the whole run: the marker file
    records that it happened."""

    PARAMS = {"marker": "", "p": 0.3}

    def new_game(self, seat: int, rng: Any) -> None:
        super().new_game(seat, rng)
        if rng.random() < self.params["p"]:
            try:
                fd = os.open(self.params["marker"], os.O_CREAT | os.O_EXCL | os.O_WRONLY)
            except FileExistsError:
                return
            os.close(fd)
            os._exit(7)


class DieAlways(RandomStrategy):
    """Kills its own process at the start of every game: whichever worker
    plays its chunk dies, every time."""

    def new_game(self, seat: int, rng: Any) -> None:
        super().new_game(seat, rng)
        os._exit(7)


class SlowRandom(RandomStrategy):
    """Random play that takes its time: the same games as "random", slow enough
    for a test to interrupt the run mid-way whatever the engine's speed."""

    PARAMS = {"sleep": 0.01}

    def new_game(self, seat: int, rng: Any) -> None:
        super().new_game(seat, rng)
        time.sleep(self.params["sleep"])


def raw_config(**run: Any) -> dict[str, Any]:
    return {
        "run": {"games": 12, "seed": 11, "identities": [["journalist", "pilot"], ["lawyer", "doctor"]], **run},
        "rules": {"max_rounds": 30},
        "variants": [{"name": "base"}, {"name": "cheap", "money_target": 700_000}],
        "strategies": {"angela": ["random", {"ref": "rule", "label": "rule"}], "jessah": "random"},
    }


def run_table(tmp_path: Path, name: str, raw: dict[str, Any] | None = None, **over: Any) -> pl.DataFrame:
    cfg = config_from_mapping(raw or raw_config(), src="t.toml", out=tmp_path / name, **over)
    s = run_tournament(cfg, progress=False)
    assert s.complete
    return load_results(tmp_path / name, lazy=False).sort(KEY)  # type: ignore[union-attr]


def test_same_table_whatever_backend_workers_and_chunks(tmp_path: Path) -> None:
    ref = run_table(tmp_path, "serial", backend="serial", chunk_size=5)
    assert ref.height == 2 * 2 * 2 * 12  # variants x pairs x strategy pairs x games
    assert ref.equals(run_table(tmp_path, "serial7", backend="serial", chunk_size=7))
    assert ref.equals(run_table(tmp_path, "p1", backend="process", workers=1, chunk_size=12))
    assert ref.equals(run_table(tmp_path, "p2", backend="process", workers=2, chunk_size=5))


def test_common_random_numbers_across_cells(tmp_path: Path) -> None:
    raw = raw_config()
    raw["variants"] = [{"name": "a"}, {"name": "b"}]  # same rules under two names
    t = run_table(tmp_path, "crn", raw, backend="serial")
    a = t.filter(pl.col("variant") == "a").drop("variant")
    b = t.filter(pl.col("variant") == "b").drop("variant")
    assert a.equals(b)  # same game index -> same chance stream -> same game
    # and the seed column depends on the game index only, never on the cell
    seeds = t.group_by("game_index").agg(pl.col("seed").n_unique())
    assert seeds["seed"].max() == 1


def test_schema_is_the_contract(tmp_path: Path) -> None:
    t = run_table(tmp_path, "s", backend="serial")
    doc = (Path(__file__).resolve().parent.parent / "docs" / "architecture.md").read_text()
    for name, dtype in t.schema.items():
        assert dtype != pl.Object
        documented = f"`{name}`" in doc or (name.startswith("upgrade_") and "`upgrade_<id>" in doc)
        assert documented, f"column {name} is not in docs/architecture.md"
    assert t.schema["game_index"] == pl.Int64 and t.schema["rounds"] == pl.Int16
    assert t.schema["angela_cash_by_round"] == pl.List(pl.Int32)
    assert t.schema["captures_by_round"] == pl.List(pl.Int8)
    assert t.schema["upgrade_wiretap"] == pl.Boolean
    assert set(t["end_reason"].unique()) <= {"million", "arrest", "timeout"}
    assert (t["identity_pair"] == t["identities"].list.join("+")).all()
    assert t.schema["identities"] == pl.List(pl.String) and t.schema["identities_burnt"] == pl.List(pl.String)
    assert (t["identities_burnt"].list.len() <= t["captures"].cast(pl.UInt32)).all()
    # the core columns first, in the contract's order, then the game's own
    assert t.columns[:11] == ["run_id", "variant", "identity_pair", "angela_strategy", "jessah_strategy",
                              "game_index", "seed", "rules_hash", "winner", "end_reason", "rounds"]
    # winner is consistent with the end reason
    assert t.filter(pl.col("end_reason") == "million")["winner"].eq("angela").all()
    assert t.filter(pl.col("end_reason") == "arrest")["winner"].eq("jessah").all()
    assert t.filter(pl.col("end_reason") == "timeout")["winner"].is_null().all()
    assert (t["angela_cash_by_round"].list.len() == t["rounds"].cast(pl.UInt32)).all()
    gained = t.filter(pl.col("upgrade_wiretap"))
    assert gained["upgrade_wiretap_round"].is_not_null().all()
    m = json.loads((tmp_path / "s" / "manifest.json").read_text())
    assert m["status"] == "complete" and m["games"] == t.height and m["master_seed"] == 11
    assert set(m["rules_hash"]) == {"base", "cheap"} and t["run_id"].unique().to_list() == [m["run_id"]]
    assert m["invocations"][0]["games_per_s"] > 0


def test_random_identity_pairs_come_from_the_chance_stream(tmp_path: Path) -> None:
    raw = raw_config(identities="random")
    t = run_table(tmp_path, "r", raw, backend="serial")
    assert t.height == 2 * 2 * 12 and t["identity_pair"].n_unique() > 3
    per_game = t.group_by("game_index").agg(pl.col("identity_pair").n_unique())
    assert per_game["identity_pair"].max() == 1


def test_strategy_faults_become_error_rows(tmp_path: Path) -> None:
    raw = raw_config(identities="random", games=30)
    raw["strategies"] = {
        "angela": {"ref": "tests.test_tournament:RaiseSometimes", "label": "raiser"},
        "jessah": {"ref": "tests.test_tournament:RaiseSometimes", "params": {"illegal": True}, "label": "illegal"},
    }
    cfg = config_from_mapping(raw, src="t.toml", out=tmp_path / "e", backend="process", workers=2, chunk_size=7)
    s = run_tournament(cfg, progress=False)
    assert s.complete and s.errors > 0
    assert any("error games: " in line and str(s.errors) in line for line in s.lines())
    t = load_results(tmp_path / "e", lazy=False)
    assert t.height == 2 * 30  # every game has a row
    bad = t.filter(pl.col("end_reason") == "error")
    assert bad.height == s.errors and bad["winner"].is_null().all() and bad["rounds"].is_null().all()
    assert bad["identity_pair"].str.contains(r"\+").all()  # the drawn pair is still recorded
    e = load_errors(tmp_path / "e")
    assert e.height == s.errors
    assert set(e["seat"]) == {"angela", "jessah"}
    assert e.filter(pl.col("seat") == "angela")["traceback"].str.contains("deliberate failure").all()
    assert e.filter(pl.col("seat") == "jessah")["message"].str.contains("no-such-option").all()
    joined = bad.join(e, on=["variant", "game_index"], how="inner")
    assert (joined["seed"] == joined["seed_right"]).all()


# a chunk's list column: its rows (lists or tuples; None for a game that ended in an error)
_list_rows = st.lists(st.one_of(st.lists(st.integers(-128, 127), max_size=5),
                                st.lists(st.integers(-128, 127), max_size=5).map(tuple), st.none()),
                      min_size=1, max_size=12)


@settings(max_examples=300, deadline=None)
@given(ints=_list_rows, names=st.lists(st.lists(st.sampled_from(["ava", "bo", "", "z\u00e9"]), max_size=4),
                                       min_size=1, max_size=12),
       width=st.integers(0, 3), scores=st.lists(st.one_of(st.integers(-99, 99), st.none()), min_size=12, max_size=12))
def test_a_chunks_table_is_the_dataframe_constructors_to_the_parquet_byte(
    ints: list[Any], names: list[list[str]], width: int, scores: list[int | None]
) -> None:
    # _frame builds list columns its own way, and the columns of one dtype
    # as slices of one Series: the shard must not tell
    from rnsim.tournament.worker import FrameLayout, _frame, _parquet

    n = min(len(ints), len(names))
    schema: dict[str, pl.DataType] = {
        "game_index": pl.Int64(), "by_round": pl.List(pl.Int8()), "identities": pl.List(pl.String()),
        "score_a": pl.Int16(), "burnt": pl.List(pl.String()), "label": pl.String(), "score_b": pl.Int16(),
        "pair": pl.List(pl.Int16()), "cash_by_round": pl.List(pl.Int32()), "seed": pl.Int64()}
    cols = {"game_index": list(range(n)), "by_round": ints[:n], "identities": names[:n], "score_a": scores[:n],
            "burnt": [None if r is None else [str(x) for x in r] for r in ints[:n]], "label": ["x"] * n,
            "score_b": scores[::-1][:n], "pair": [[i] * width for i in range(n)],
            # the same lengths as by_round, where there are lists: the rows' bounds are shared
            "cash_by_round": [[7 * x for x in r] if r is not None else [] for r in ints[:n]],
            "seed": [2**62 + i for i in range(n)]}
    for made in (_frame(cols, schema), _frame(cols, schema, FrameLayout.of(schema))):
        assert made.schema == pl.Schema(schema)
        assert _parquet(made) == _parquet(pl.DataFrame(cols, schema=schema))


def test_an_empty_chunks_table_is_the_dataframe_constructors() -> None:
    from rnsim.tournament.worker import _frame, _parquet

    schema: dict[str, pl.DataType] = {"game_index": pl.Int64(), "by_round": pl.List(pl.Int8())}
    cols: dict[str, Any] = {"game_index": range(3, 3), "by_round": ()}
    assert _parquet(_frame(cols, schema)) == _parquet(pl.DataFrame({"game_index": [], "by_round": []}, schema=schema))


def test_dead_worker_chunk_is_replayed(tmp_path: Path) -> None:
    marker = tmp_path / "died"
    raw = raw_config(identities="random", games=40)
    raw["variants"] = [{"name": "base"}]
    raw["strategies"] = {"angela": {"ref": "tests.test_tournament:DieOnce", "params": {"marker": str(marker)},
                                    "label": "d"}, "jessah": "random"}
    cfg = config_from_mapping(raw, src="t.toml", out=tmp_path / "k", backend="process", workers=2, chunk_size=8)
    s = run_tournament(cfg, progress=False)
    assert marker.exists() and s.workers_replaced == 1 and s.complete
    t = load_results(tmp_path / "k", lazy=False).sort(KEY)
    # reference: the marker already exists, so nobody dies
    ref = run_table(tmp_path, "ref", raw, backend="serial")
    assert t.equals(ref) and t.height == 40


def test_a_chunk_that_keeps_killing_its_worker_stops_the_run_naming_it(tmp_path: Path) -> None:
    raw = raw_config(identities="random", games=16)
    raw["variants"] = [{"name": "base"}]
    raw["strategies"] = {"angela": {"ref": "tests.test_tournament:DieAlways", "label": "d"}, "jessah": "random"}
    cfg = config_from_mapping(raw, src="t.toml", out=tmp_path / "k", backend="process", workers=1, chunk_size=8)
    with pytest.raises(RnsimError, match=r"chunk \S+ \(cell 0, games 0\.\.7\) killed its worker 3 times \(exit code 7\)"):
        run_tournament(cfg, progress=False)


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-W", "ignore", "-c", "from rnsim.cli import main; main()", *args]


@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGKILL, signal.SIGTERM])
def test_killed_run_resumes_to_the_uninterrupted_table(tmp_path: Path, sig: int) -> None:
    cfg = tmp_path / "kill.toml"
    cfg.write_text(
        '[run]\ngames = 120\nseed = 5\nchunk_size = 10\nidentities = [["journalist", "pilot"], ["doctor", "pilot"]]\n'
        '[strategies]\nangela = { ref = "tests.test_tournament:SlowRandom", label = "random" }\njessah = "random"\n'
    )
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    p = subprocess.Popen(_cli("run", str(cfg), "--out", str(out), "--workers", "2", "--no-progress"), env=env,
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and len(list((out / "shards").glob("*.parquet"))) < 3:
        time.sleep(0.02)
    p.send_signal(sig)
    rc = p.wait(timeout=30)
    partial = list((out / "shards").glob("*.parquet"))
    assert 3 <= len(partial) < 24, "the kill must land mid-run"
    if sig == signal.SIGTERM:
        assert rc == 143  # 128 + SIGTERM, the shell convention
        assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"
    r = subprocess.run(_cli("run", str(cfg), "--out", str(out), "--no-progress"), env=env, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "kept from before" in r.stdout
    resumed = load_results(out, lazy=False).sort(KEY)  # type: ignore[union-attr]
    assert resumed.height == 240 and resumed.select(KEY).is_unique().all()
    ref_raw = {"run": {"games": 120, "seed": 5, "identities": [["journalist", "pilot"], ["doctor", "pilot"]]},
               "strategies": {"angela": "random", "jessah": "random"}}
    ref = run_table(tmp_path, "ref", ref_raw, backend="serial")
    assert resumed.drop("run_id").equals(ref.drop("run_id"))
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "complete" and len(m["invocations"]) == 2


def test_resume_plays_only_missing_games_and_refuses_another_config(tmp_path: Path) -> None:
    raw = raw_config()
    ref = run_table(tmp_path, "full", raw, backend="serial", chunk_size=4)
    out = tmp_path / "part"
    cfg = config_from_mapping(raw, src="t.toml", out=out, backend="serial", chunk_size=4)
    run_tournament(cfg, progress=False)
    # lose some chunks, as a crash would, and leave debris of a half-written one
    shards = sorted((out / "shards").glob("*.parquet"))
    for p in shards[::3]:
        p.unlink()
    (out / "shards" / "part-00000-0000000000-0000000004.parquet.tmp").write_bytes(b"junk")
    cfg2 = config_from_mapping(raw, src="t.toml", out=out, backend="process", workers=2, chunk_size=5)
    s = run_tournament(cfg2, progress=False)
    assert s.complete and s.played == sum(1 for _ in shards[::3]) * 4 and s.done_before == ref.height - s.played
    assert load_results(out, lazy=False).sort(KEY).equals(ref)  # type: ignore[union-attr]
    assert not list((out / "shards").glob("*.tmp"))
    # a complete run is not replayed
    assert run_tournament(cfg2, progress=False).played == 0
    # a different config is refused, naming what differs
    other = config_from_mapping(raw, src="t.toml", out=out, seed=12)
    with pytest.raises(ConfigError, match=r"different config.*seed: 11 -> 12"):
        run_tournament(other, progress=False)


def test_non_empty_directory_without_manifest_is_refused(tmp_path: Path) -> None:
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "notes.txt").write_text("mine")
    cfg = config_from_mapping(raw_config(), src="t.toml", out=tmp_path / "x")
    with pytest.raises(ConfigError, match="not empty"):
        run_tournament(cfg, progress=False)


def test_load_results_names_a_bad_directory(tmp_path: Path) -> None:
    with pytest.raises(RnsimError, match="no result shards"):
        load_results(tmp_path)


def test_cli_run_prints_summary(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rnsim.cli import main

    cfg = tmp_path / "c.toml"
    cfg.write_text('[run]\ngames = 3\nidentities = "random"\nbackend = "serial"\n[strategies]\nangela = "random"\njessah = "random"\n')
    r = CliRunner().invoke(main, ["run", str(cfg), "--out", str(tmp_path / "o"), "--seed", "9"])
    assert r.exit_code == 0, r.output
    assert "complete" in r.output and "3 of 3" in r.output
    assert load_config(cfg, seed=9).config_hash() == json.loads((tmp_path / "o" / "manifest.json").read_text())["config_hash"]


@settings(max_examples=200, deadline=None)
@given(
    n_cells=st.integers(1, 4), games=st.integers(1, 60), first=st.integers(1, 20), second=st.integers(1, 20),
    keep=st.lists(st.booleans(), min_size=0, max_size=300),
)
def test_resume_plan_covers_exactly_the_missing_games(
    n_cells: int, games: int, first: int, second: int, keep: list[bool]
) -> None:
    initial = plan_chunks(n_cells, games, first)
    done = [c for c, k in zip(initial, keep, strict=False) if k]
    rest = plan_chunks(n_cells, games, second, covered(done))
    seen: dict[int, list[int]] = {}
    for c in done + rest:
        assert c.games <= max(first, second)
        seen.setdefault(c.cell, []).extend(range(c.start, c.stop))
    for cell in range(n_cells):
        assert sorted(seen[cell]) == list(range(games))  # every game once, none twice
    for c in rest:
        assert Chunk.from_name(c.name) == c


def test_bench_command_reports_every_measurement() -> None:
    from click.testing import CliRunner

    from rnsim.cli import main

    r = CliRunner().invoke(main, ["bench", "--games", "20", "--repeat", "1", "--workers", "1"])
    assert r.exit_code == 0, r.output
    for text in ("plain loop over run_game", "runner, serial backend", "process backend, 1 w",
                 "overhead vs plain loop", "CPU", "games/CPU-s", "CPU per game once a run is going",
                 "the run's fixed cost", "plain loops in 1 worker process:",
                 "over the plain loop in this process", "overhead vs plain loops in 1 worker process: CPU",
                 "(like for like)"):
        assert text in r.output


@pytest.mark.slow
def test_scripts_without_a_main_guard(tmp_path: Path) -> None:
    # Workers do not re-run the parent's main module, so a plain script works...
    script = tmp_path / "unguarded.py"
    script.write_text(
        "from rnsim.config import config_from_mapping\n"
        "from rnsim.tournament import run_tournament\n"
        f"cfg = config_from_mapping({raw_config()!r}, out={str(tmp_path / 'o')!r}, workers=2)\n"
        "print(run_tournament(cfg, progress=False).complete)\n"
    )
    r = subprocess.run([sys.executable, "-W", "ignore", str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.strip() == "True", r.stderr
    # ...but one whose strategy lives in __main__ needs it, and cannot start its workers unguarded
    script.write_text(
        "from rnsim_strategies.red_notice.random_play import RandomStrategy\n"
        "class Mine(RandomStrategy):\n    pass\n"
        "from rnsim.config import config_from_mapping\n"
        "from rnsim.tournament import run_tournament\n"
        "raw = {'run': {'games': 2, 'identities': 'random'}, 'strategies': {'angela': '__main__:Mine', 'jessah': 'random'}}\n"
        f"run_tournament(config_from_mapping(raw, out={str(tmp_path / 'm')!r}, workers=1), progress=False)\n"
    )
    r = subprocess.run([sys.executable, "-W", "ignore", str(script)], capture_output=True, text=True, timeout=120)
    assert r.returncode != 0
    assert "worker processes die while starting" in r.stderr and '__name__ == "__main__"' in r.stderr


def test_batches_play_the_runs_games_on_one_pool(tmp_path: Path) -> None:
    """The drift gate's and the ladder's batches are the run's games (same rows
    whatever the backend), and the process pool keeps its workers across batches."""
    from rnsim.tournament.batches import play_ranges, pool_for

    raw = raw_config()
    run = run_table(tmp_path, "ref", raw, backend="serial")
    serial = config_from_mapping(raw, src="t.toml", backend="serial")
    ranges = [(0, 0, 5), (3, 2, 12), (7, 0, 12)]
    one = play_ranges(serial, ranges).sort(["cell", "game_index"])
    cells = serial.cells()
    for c, a, b in ranges:
        labels = serial.cell_labels(cells[c])
        want = run.filter(*(pl.col(k) == v for k, v in labels.items()), pl.col("game_index").is_between(a, b - 1))
        got = one.filter(pl.col("cell") == c)
        assert got["winner"].to_list() == want.sort("game_index")["winner"].to_list()
    process = config_from_mapping(raw, src="t.toml", backend="process", workers=2)
    with pool_for(process, "t") as pool:
        first = play_ranges(process, ranges[:1], pool=pool)
        pids = sorted(s.proc.pid for s in pool.backend._slots)
        rest = play_ranges(process, ranges[1:], pool=pool)
        assert sorted(s.proc.pid for s in pool.backend._slots) == pids  # the same workers
    both = pl.concat([first, rest]).sort(["cell", "game_index"])
    assert both.equals(one)


# ---- error games: a run whose games mostly failed is not a passing run


def _raising(tmp_path: Path, p: float) -> Path:
    cfg = tmp_path / f"raise-{p}.toml"
    cfg.write_text('[run]\ngames = 20\nseed = 4\nbackend = "serial"\nidentities = [["journalist", "pilot"]]\n'
                   '[rules]\nmax_rounds = 30\n'
                   f'[strategies]\nangela = {{ ref = "tests.test_tournament:RaiseSometimes", label = "raiser", '
                   f'params = {{ p = {p} }} }}\njessah = "random"\n')
    return cfg


def test_a_run_whose_every_game_is_an_error_fails_once_its_report_is_written(tmp_path: Path) -> None:
    from click.testing import CliRunner

    from rnsim.cli import main

    out = tmp_path / "o"
    r = CliRunner().invoke(main, ["run", str(_raising(tmp_path, 1.0)), "--out", str(out), "--no-progress"])
    assert r.exit_code == 1, r.output
    errors = [line for line in r.output.splitlines() if line.startswith("error: ")]
    assert errors == [f"error: {out}: 20 of 20 games (100.0%) ended in an error, more than --max-errors 1% allows; "
                      f"every rate counts only the 0 played games. The tracebacks are in {out / 'errors'} (the most "
                      "frequent in the report's Errors section)"], r.output
    assert "  error games: 20 (100.0% of the run's games)" in r.output
    assert (out / "report.html").is_file()  # written first: it shows the errors
    md = (out / "report.md").read_text()
    assert "**No game of raiser (Angela) vs random (Jessah) was played out (20 ended in an error).**" in md
    # the same run allowed every game to fail passes; resuming it re-checks
    r = CliRunner().invoke(main, ["run", str(_raising(tmp_path, 1.0)), "--out", str(out), "--no-progress",
                                  "--max-errors", "100%", "--no-report"])
    assert r.exit_code == 0, r.output


@pytest.mark.parametrize("limit, code", [("50%", 0), ("10%", 0), ("5%", 1), ("2", 0), ("1", 1), ("0", 1)])
def test_max_errors_is_a_share_of_the_games_or_a_count(tmp_path: Path, limit: str, code: int) -> None:
    from click.testing import CliRunner

    from rnsim.cli import main

    r = CliRunner().invoke(main, ["run", str(_raising(tmp_path, 0.2)), "--out", str(tmp_path / "o"),
                                  "--no-progress", "--no-report", "--max-errors", limit])
    t = load_results(tmp_path / "o", lazy=False)
    errors = int((t["end_reason"] == "error").sum())  # type: ignore[index]
    assert errors == 2  # 10% of the 20 games: within 2 games and 10%, over 1 game and 5%
    assert r.exit_code == code, r.output


def test_the_verdict_says_its_rate_is_over_played_games_only(tmp_path: Path) -> None:
    from rnsim.games.red_notice.synthetic import table_from_games, write_run
    from rnsim.report import write_report

    g = [dict(winner="angela")] * 240 + [dict(winner="jessah")] * 240 + [dict(end_reason="error")] * 20
    write_run(tmp_path, table_from_games(g))
    write_report(tmp_path, svg=False, workers=1)
    first = (tmp_path / "report.md").read_text().split("\n\n")[1]
    assert first == ("**No side is measurably favoured: Angela wins 50.0% [45.5, 54.5] of 480 played random games, "
                     "level with an even game; 20 games (4.0%) ended in an error and are not counted.**")
