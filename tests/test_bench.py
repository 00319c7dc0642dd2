"""`rnsim bench`: every overhead is the median of the rounds' paired ratios
with its distribution-free interval, and the process backend's like-for-like
baseline (plain loops in spawned worker processes) plays exactly the
runner's games and stops on a game's failure."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from rnsim_strategies.red_notice.random_play import RandomStrategy

from rnsim.cli.bench import Rounds, pct, times
from rnsim.config import config_from_mapping
from rnsim.tournament import load_results, run_tournament
from rnsim.tournament.plain_loops import play_plain
from rnsim.tournament.schedule import plan_chunks
from rnsim.tournament.worker import Plan
from tests.test_tournament import raw_config


class NoteFirstDraw(RandomStrategy):
    """Random play that appends its seat stream's first draw of each game to
    the file ``log``: a fingerprint of the game's seed, whichever process
    plays it (imported by workers by reference)."""

    PARAMS = {"log": ""}

    def new_game(self, seat: int, rng: Any) -> None:
        super().new_game(seat, rng)
        with open(self.params["log"], "a") as f:
            f.write(f"{rng.random()!r} {os.getpid()}\n")


def test_overheads_are_medians_of_paired_ratios_with_their_interval() -> None:
    # 3 rounds: lowest to highest ratio (75%); fewer: the median alone
    assert pct([1.05, 1.01, 1.03]) == "+3.0% [+1.0, +5.0]"
    assert pct([1.05, 1.01]) == "+3.0%"
    assert times([2.0, 1.8, 1.9]) == "1.90x [1.80, 2.00]"
    # 12 rounds reach 95%: the 3rd lowest to the 3rd highest
    assert pct([1 + i / 100 for i in range(12)]) == "+5.5% [+2.0, +9.0]"
    r = Rounds(games=10, n_run=20)
    for plain, run, start in ((1.0, 4.0, 2.0), (2.0, 6.0, 2.0), (1.0, 3.0, 1.0)):
        r.note("plain", (plain, plain))
        r.note("p1", (run, run))
        r.note("s1", (start, start))
    # per round: the run's CPU less its start-up over its games, then the ratio to the same round's plain loop
    assert r.per_game("p1", "s1") == [0.1, 0.2, 0.1]
    assert r.over(r.per_game("p1", "s1"), r.per_game("plain")) == [1.0, 1.0, 1.0]


def _fingerprints(log: Path) -> tuple[list[str], set[str]]:
    lines = [x.split() for x in log.read_text().splitlines()]
    return sorted(x[0] for x in lines), {x[1] for x in lines}


def test_plain_loops_on_worker_processes_play_the_runners_games(tmp_path: Path) -> None:
    raw = raw_config()
    strategy = {"ref": "tests.test_bench:NoteFirstDraw", "label": "noted"}
    raw["strategies"] = {"angela": [{**strategy, "params": {"log": str(tmp_path / "run.log")}}], "jessah": "random"}
    cfg = config_from_mapping(raw, src="t.toml", out=tmp_path / "run", backend="serial", chunk_size=5)
    assert run_tournament(cfg, progress=False).complete
    assert load_results(tmp_path / "run", lazy=False).height == cfg.total_games  # type: ignore[union-attr]
    raw["strategies"]["angela"][0]["params"]["log"] = str(tmp_path / "plain.log")
    cfg = config_from_mapping(raw, src="t.toml", chunk_size=5)
    chunks = plan_chunks(len(cfg.cells()), cfg.games, cfg.chunk_size)
    assert play_plain(Plan.from_config(cfg, "t"), chunks, 2) == cfg.total_games
    runner, _ = _fingerprints(tmp_path / "run.log")
    plain, pids = _fingerprints(tmp_path / "plain.log")
    assert plain == runner and len(runner) == cfg.total_games
    assert len(pids) == 2 and str(os.getpid()) not in pids  # two spawned processes, not this one


def test_plain_loops_stop_on_a_failing_game_with_its_traceback() -> None:
    raw = raw_config()
    raw["strategies"] = {"angela": {"ref": "tests.test_tournament:RaiseSometimes", "label": "raiser"},
                         "jessah": "random"}
    cfg = config_from_mapping(raw, src="t.toml", chunk_size=5)
    chunks = plan_chunks(len(cfg.cells()), cfg.games, cfg.chunk_size)
    with pytest.raises(RuntimeError, match="(?s)a plain-loop worker failed:.*deliberate failure"):
        play_plain(Plan.from_config(cfg, "t"), chunks, 2)


@pytest.mark.parametrize(("args", "says"), [
    (["--workers", "1,2", "--games", "200"], "--workers: 2 workers need at least 2 chunks, and --games 200 makes 1"),
    (["--workers", "2", "--games", "30", "--chunk-size", "20"], None),
    (["--workers", "0"], "--workers: expected comma-separated worker counts of 1 or more"),
    (["--workers", "one"], "--workers: expected comma-separated worker counts of 1 or more"),
])
def test_worker_counts_the_run_cannot_use_are_refused_before_anything_plays(args: list[str], says: str | None) -> None:
    """The runner never starts more workers than chunks: a line labelled
    "2 w" measured with one worker would be a false number."""
    from click.testing import CliRunner

    from rnsim.cli import main

    r = CliRunner().invoke(main, ["bench", "--repeat", "1", *args])
    if says is None:
        assert r.exit_code == 0, r.output
        assert "runner, process backend, 2 w" in r.output
    else:
        assert r.exit_code == 2, r.output
        assert r.output.strip().splitlines()[-1].startswith(f"error: {says}")
        assert "plain loop" not in r.output  # refused before any measurement
