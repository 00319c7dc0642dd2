"""Run-directory integrity: a run never reports success with games missing, a
failed write stops the run resumable, unreadable shards are named and replayed."""

from __future__ import annotations

import errno
import json
import os
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

from rnsim import load_results
from rnsim.cli import main
from rnsim.config import config_from_mapping
from rnsim.tournament import run as run_mod
from rnsim.tournament import run_tournament
from rnsim.tournament import shards as shards_mod
from rnsim.tournament.backends import SerialBackend
from rnsim.tournament.schedule import Chunk
from rnsim.tournament.shards import ShardWriteError
from rnsim.tournament.worker import ChunkOutput, Plan

KEY = ["variant", "identity_pair", "angela_strategy", "jessah_strategy", "game_index"]
RAW: dict[str, Any] = {
    "run": {"games": 20, "seed": 3, "identities": [["journalist", "pilot"], ["lawyer", "doctor"]]},
    "rules": {"max_rounds": 30},
    "strategies": {"angela": "random", "jessah": "random"},
}


def _cfg(out: Path, **over: Any) -> Any:
    return config_from_mapping(RAW, src="t.toml", out=out, **{"chunk_size": 5, "backend": "serial", **over})


def _table(run_dir: Path) -> pl.DataFrame:
    return load_results(run_dir, lazy=False).sort(KEY)  # type: ignore[union-attr]


@pytest.fixture(scope="module")
def reference(tmp_path_factory: pytest.TempPathFactory) -> pl.DataFrame:
    out = tmp_path_factory.mktemp("ref") / "run"
    assert run_tournament(_cfg(out), progress=False).complete
    return _table(out)


def _failing_writes(monkeypatch: pytest.MonkeyPatch, fail_at: int, err: int = errno.EIO) -> None:
    """Make the parent's ``fail_at``-th fsync fail (the manifest is the first), as a disk that
    errors or fills mid-run does; the temporary file is already written by then. Workers are
    spawned, so only the parent is affected."""
    calls = [0]
    real = shards_mod.os.fsync

    def fsync(fd: int) -> None:
        calls[0] += 1
        if calls[0] == fail_at:
            raise OSError(err, os.strerror(err))
        real(fd)

    monkeypatch.setattr(shards_mod.os, "fsync", fsync)


@pytest.mark.parametrize("backend", ["process", "serial"])
def test_a_failed_shard_write_stops_the_run_resumable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      reference: pl.DataFrame, backend: str) -> None:
    out = tmp_path / "run"
    _failing_writes(monkeypatch, fail_at=4)
    with pytest.raises(ShardWriteError, match="cannot write .*part-"):
        run_tournament(_cfg(out, backend=backend, workers=2), progress=False)
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "failed" and "cannot write" in m["sessions"][-1]["error"]
    assert "workers_replaced" not in m["sessions"][-1] or m["sessions"][-1]["workers_replaced"] == 0
    assert not list((out / "shards").glob("*.tmp"))
    monkeypatch.undo()
    s = run_tournament(_cfg(out, backend=backend, workers=2), progress=False)
    assert s.complete and s.done_before > 0
    assert _table(out).equals(reference)


def test_cli_exit_1_on_a_failed_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text('[run]\ngames = 8\nchunk_size = 2\nidentities = "random"\nbackend = "serial"\n'
                   '[strategies]\nangela = "random"\njessah = "random"\n')
    _failing_writes(monkeypatch, fail_at=3, err=errno.ENOSPC)
    r = CliRunner().invoke(main, ["run", str(cfg), "--out", str(tmp_path / "o"), "--no-report"])
    assert r.exit_code == 1, r.output
    last = r.output.strip().splitlines()[-1]
    assert last.startswith("error: cannot write") and "disk is full" in last and "Traceback" not in r.output
    assert json.loads((tmp_path / "o" / "manifest.json").read_text())["status"] == "failed"


def test_write_atomic_removes_its_temporary_file_on_enospc(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _failing_writes(monkeypatch, fail_at=1, err=errno.ENOSPC)
    target = tmp_path / "part-00000-0000000000-0000000001.parquet"
    with pytest.raises(ShardWriteError, match=r"No space left on device \(the disk is full\).*resumable"):
        shards_mod.write_atomic(target, b"x" * 100)
    monkeypatch.undo()
    assert list(tmp_path.iterdir()) == []


class _DropsAChunk(SerialBackend):
    """A backend that loses a chunk without a word, as a buggy cluster backend could."""

    def run(self, plan: Plan, chunks: Sequence[Chunk], on_result: Callable[[ChunkOutput], None]) -> None:
        super().run(plan, list(chunks)[1:], on_result)


def test_complete_only_when_every_planned_game_is_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         reference: pl.DataFrame) -> None:
    out = tmp_path / "run"
    monkeypatch.setattr(run_mod, "get_backend", lambda *a, **k: _DropsAChunk())
    with pytest.raises(run_mod.RunIncomplete, match=r"35 of 40 games on disk.*cell 0 misses games 0\.\.4"):
        run_tournament(_cfg(out), progress=False)
    assert json.loads((out / "manifest.json").read_text())["status"] == "failed"
    monkeypatch.undo()
    assert run_tournament(_cfg(out), progress=False).played == 5
    assert _table(out).equals(reference)


def test_process_backend_never_takes_a_parent_error_for_a_worker_death(tmp_path: Path) -> None:
    from rnsim.tournament.backends import ProcessBackend
    from rnsim.tournament.schedule import plan_chunks

    cfg = _cfg(tmp_path / "unused")
    plan = Plan.from_config(cfg, "t")
    got: list[Chunk] = []

    def on_result(out: ChunkOutput) -> None:
        got.append(out.chunk)
        if len(got) == 2:
            raise OSError(errno.EIO, "parent-side I/O error")

    b = ProcessBackend(2)
    with pytest.raises(OSError, match="parent-side"):
        b.run(plan, plan_chunks(len(cfg.cells()), cfg.games, 5), on_result)
    assert b.replaced == 0 and len(got) == 2
