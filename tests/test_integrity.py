"""Run-directory integrity: a run never reports success with games missing, a
failed write stops the run resumable, unreadable shards are named and replayed."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from click.testing import CliRunner

from rnsim import load_results
from rnsim.analysis import scan_results
from rnsim.cli import main
from rnsim.config import config_from_mapping
from rnsim.results import integrity
from rnsim.results.integrity import RunNotWhole, check_run
from rnsim.tournament import run as run_mod
from rnsim.tournament import run_tournament
from rnsim.tournament import shards as shards_mod
from rnsim.tournament.backends import SerialBackend
from rnsim.tournament.schedule import Chunk
from rnsim.tournament.shards import ShardWriteError
from rnsim.tournament.worker import ChunkOutput, Plan
from tests.unprivileged import REASON, unprivileged

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


def _failing_writes(monkeypatch: pytest.MonkeyPatch, fail_at: int, err: int = errno.EIO, only: str = "") -> None:
    """Make the parent's ``fail_at``-th fsync fail (the manifest is the first), as a disk that
    errors or fills mid-run does; the temporary file is already written by then. Workers are
    spawned, so only the parent is affected. With ``only``, count only the fsyncs of files
    whose name holds it (the manifest is also rewritten as shards land, in an order that
    depends on timing)."""
    calls = [0]
    real = shards_mod.os.fsync

    def fsync(fd: int) -> None:
        if not only or only in os.readlink(f"/proc/self/fd/{fd}"):
            calls[0] += 1
            if calls[0] == fail_at:
                raise OSError(err, os.strerror(err))
        real(fd)

    monkeypatch.setattr(shards_mod.os, "fsync", fsync)


@pytest.mark.parametrize("backend", ["process", "serial"])
def test_a_failed_shard_write_stops_the_run_resumable(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      reference: pl.DataFrame, backend: str) -> None:
    out = tmp_path / "run"
    _failing_writes(monkeypatch, fail_at=2, only="part-")
    with pytest.raises(ShardWriteError, match="cannot write .*part-"):
        run_tournament(_cfg(out, backend=backend, workers=2), progress=False)
    m = json.loads((out / "manifest.json").read_text())
    assert m["status"] == "failed" and "cannot write" in m["invocations"][-1]["error"]
    assert "workers_replaced" not in m["invocations"][-1] or m["invocations"][-1]["workers_replaced"] == 0
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
    with pytest.raises(run_mod.RunIncomplete, match=r"after the run, 35 of 40 planned games on disk; cell 0 \(base, "
                                                     r"journalist\+pilot, random vs random\): games 0-4 missing"):
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


def _cli(*args: str) -> list[str]:
    return [sys.executable, "-W", "ignore", "-c", "from rnsim.cli import main; main()", *args]


def _slow_run(tmp_path: Path) -> tuple[Path, list[str], dict[str, str]]:
    cfg = tmp_path / "slow.toml"
    cfg.write_text(
        '[run]\ngames = 200\nseed = 5\nchunk_size = 4\nidentities = [["journalist", "pilot"]]\n'
        '[strategies]\nangela = { ref = "tests.test_tournament:SlowRandom", label = "random", params = { sleep = 0.05 } }\n'
        'jessah = "random"\n'
    )
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    return out, _cli("run", str(cfg), "--out", str(out), "--workers", "1", "--no-progress", "--no-report"), env


def test_a_run_directory_in_use_is_refused_and_a_killed_run_leaves_no_lock(tmp_path: Path) -> None:
    out, cmd, env = _slow_run(tmp_path)
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not list((out / "shards").glob("*.parquet")):
            time.sleep(0.02)
        assert p.poll() is None, "the first run must still be playing"
        r = CliRunner().invoke(main, cmd[cmd.index("run"):])  # the same command, a second time
        assert r.exit_code == 2
        last = r.output.strip().splitlines()[-1]
        assert f"{out} is in use by another live invocation" in last and f"pid {p.pid}" in last
        assert len(json.loads((out / "manifest.json").read_text())["invocations"]) == 1
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
    # The kernel dropped the dead run's lock: the same command resumes.
    from rnsim.tournament.lock import run_lock

    with run_lock(out):
        pass


def test_the_lock_is_per_invocation_even_within_one_process(tmp_path: Path) -> None:
    from rnsim.tournament.lock import RunDirBusy, run_lock

    out = tmp_path / "run"
    with run_lock(out), pytest.raises(RunDirBusy, match="in use"):
        run_tournament(_cfg(out), progress=False)
    assert run_tournament(_cfg(out), progress=False).complete


def test_a_failed_start_leaves_no_directory(tmp_path: Path) -> None:
    from rnsim.tournament.lock import run_lock

    out = tmp_path / "new" / "run"
    with pytest.raises(RuntimeError), run_lock(out):
        raise RuntimeError("boom")
    assert not out.exists()


# ---- unreadable shards, verify, report preflight


@pytest.fixture
def finished(tmp_path: Path, reference: pl.DataFrame) -> Path:
    out = tmp_path / "run"
    assert run_tournament(_cfg(out), progress=False).complete
    return out


def _truncate(p: Path) -> None:
    data = p.read_bytes()
    p.write_bytes(data[: len(data) // 2])


def test_resume_moves_an_unreadable_shard_aside_and_replays_its_games(finished: Path,
                                                                     reference: pl.DataFrame) -> None:
    victim = sorted((finished / "shards").glob("part-*.parquet"))[3]
    _truncate(victim)
    said: list[str] = []
    s = run_tournament(_cfg(finished), progress=False, echo=said.append)
    assert any(str(victim) in line and "moved to" in line for line in said)
    assert s.complete and s.played == 5
    assert (finished / "shards" / "corrupt" / victim.name).exists()
    assert _table(finished).equals(reference)


def test_shards_read_in_small_scans_give_the_same_check_and_name_only_the_bad_one(
        finished: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # A run's shards are read a few hundred at a time (the parent's memory stays
    # bounded at millions of games); a bad shard is named alone, whatever its batch.
    whole = check_run(finished)
    monkeypatch.setattr(integrity, "FILES_PER_SCAN", 3)
    again = check_run(finished)
    assert (again.rows, again.shards, again.whole) == (whole.rows, whole.shards, True)
    shards = sorted((finished / "shards").glob("part-*.parquet"))
    assert len(shards) > 3 * 2
    victim = shards[4]
    _truncate(victim)
    bad = check_run(finished)
    assert [p for p, _ in bad.unreadable] == [victim] and not bad.whole
    assert bad.rows == whole.rows - 5
    assert [p for p, _ in shards_mod.unreadable_shards(finished)] == [victim]


def test_report_and_load_results_name_an_unreadable_shard_and_write_nothing(finished: Path) -> None:
    victim = sorted((finished / "shards").glob("part-*.parquet"))[1]
    _truncate(victim)
    before = sorted(p.name for p in finished.iterdir())
    r = CliRunner().invoke(main, ["report", str(finished), "--no-svg"])
    assert r.exit_code == 2 and r.output.startswith(f"error: {victim}: unreadable result shard"), r.output
    assert sorted(p.name for p in finished.iterdir()) == before
    with pytest.raises(shards_mod.CorruptShardError, match=victim.name):
        load_results(finished)


def test_report_refuses_a_corrupt_manifest_before_writing(finished: Path) -> None:
    (finished / "manifest.json").write_text('{"run_id": "x", ')
    before = sorted(p.name for p in finished.iterdir())
    r = CliRunner().invoke(main, ["report", str(finished), "--no-svg"])
    assert r.exit_code == 2 and "manifest.json: unreadable manifest" in r.output, r.output
    assert sorted(p.name for p in finished.iterdir()) == before


def test_verify_passes_a_sound_run_and_names_every_problem(finished: Path) -> None:
    r = CliRunner().invoke(main, ["verify", str(finished)])
    assert r.exit_code == 0 and r.output.strip().endswith("OK") and "holding 40 games" in r.output, r.output
    shards = sorted((finished / "shards").glob("part-*.parquet"))
    _truncate(shards[0])
    shards[-1].unlink()
    # a shard for games 5..9 of cell 0 under a wider name: games 5..9 twice, and 10..14 claimed but absent
    dup = finished / "shards" / Chunk(0, 5, 15).name
    dup.write_bytes((finished / "shards" / f"{Chunk(0, 5, 10).name}.parquet").read_bytes())
    dup.rename(dup.with_suffix(".parquet"))
    r = CliRunner().invoke(main, ["verify", str(finished)])
    assert r.exit_code == 1, r.output
    out = r.output
    assert f"{shards[0]}: unreadable" in out
    assert "part-00000-0000000005-0000000015.parquet: 5 rows, game indices 5..9; its name says games 5..14" in out
    assert "cell 0 (base, journalist+pilot, random vs random): games 0-4 missing, games 5-9 twice" in out
    last = Chunk.from_name(shards[-1].stem)
    assert last is not None and f"cell {last.cell} (base, lawyer+doctor, random vs random): games 15-19 missing" in out
    assert "30 of 40 planned games on disk, 5 more than once" in out


def _setpriv() -> list[str] | None:
    return unprivileged()


@pytest.mark.skipif(_setpriv() is None, reason=REASON)
def test_report_on_a_read_only_run_is_one_line_and_writes_nothing(tmp_path: Path) -> None:
    import shutil
    import tempfile

    # Outside tmp_path (mode 700, root's): the unprivileged user must be able to read the run.
    base = Path(tempfile.mkdtemp(prefix="rnsim-ro-"))
    try:
        base.chmod(0o755)
        (base / "mpl").mkdir(mode=0o777)
        (base / "mpl").chmod(0o777)
        out = base / "run"
        assert run_tournament(_cfg(out), progress=False).complete
        for p in [out, *out.rglob("*")]:
            p.chmod(0o755 if p.is_dir() else 0o644)
        before = sorted(str(p) for p in out.rglob("*"))
        r = subprocess.run([*_setpriv(), *_cli("report", str(out), "--no-svg")], capture_output=True, text=True,  # type: ignore[misc]
                           env={**os.environ, "MPLCONFIGDIR": str(base / "mpl")}, timeout=120)
        assert r.returncode == 2, r.stderr
        assert r.stderr.strip().count("\n") == 0 and "cannot write the report there (Permission denied)" in r.stderr
        assert sorted(str(p) for p in out.rglob("*")) == before
    finally:
        shutil.rmtree(base)


def _can_mount() -> bool:
    import shutil

    return os.geteuid() == 0 and shutil.which("mount") is not None and sys.platform == "linux"


@pytest.mark.skipif(not _can_mount(), reason="needs root to mount a small tmpfs")
def test_a_full_disk_stops_the_run_cleanly_and_it_resumes_after_space_is_freed(tmp_path: Path,
                                                                                reference: pl.DataFrame) -> None:
    disk = tmp_path / "disk"
    disk.mkdir()
    # 8 shards of ~18 kB each: about three fit
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=80k", "tmpfs", str(disk)], capture_output=True).returncode:
        pytest.skip("mount refused (no CAP_SYS_ADMIN in this container)")
    try:
        out = disk / "run"
        with pytest.raises(ShardWriteError, match=r"No space left on device \(the disk is full\).*resumable"):
            run_tournament(_cfg(out), progress=False)
        assert not [p for p in out.rglob("*.tmp")]
        assert json.loads((out / "manifest.json").read_text())["status"] in ("failed", "running")
        kept = len(list((out / "shards").glob("*.parquet")))
        assert 0 < kept < 8
        subprocess.run(["mount", "-o", "remount,size=2m", str(disk)], check=True)
        s = run_tournament(_cfg(out), progress=False)
        assert s.complete and s.done_before == 5 * kept
        assert _table(out).equals(reference)
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=False)


def test_throughput_counts_the_games_of_a_killed_invocation(tmp_path: Path) -> None:
    from rnsim.config import load_config

    cfg = tmp_path / "slow.toml"
    cfg.write_text(
        '[run]\ngames = 100\nseed = 5\nchunk_size = 4\nidentities = [["journalist", "pilot"]]\n'
        '[strategies]\nangela = { ref = "tests.test_tournament:SlowRandom", label = "random", params = { sleep = 0.05 } }\n'
        'jessah = "random"\n'
    )
    out = tmp_path / "run"
    env = {**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    p = subprocess.Popen(_cli("run", str(cfg), "--out", str(out), "--workers", "1", "--no-progress", "--no-report"),
                         env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 60
        noted = 0
        while time.monotonic() < deadline and noted == 0 and p.poll() is None:
            time.sleep(0.05)
            try:
                noted = json.loads((out / "manifest.json").read_text())["invocations"][-1]["games_played"]
            except (OSError, ValueError, KeyError, IndexError):
                pass
        assert p.poll() is None, "the kill must land mid-run"
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait(timeout=30)
    s = run_tournament(load_config(cfg, out=out, backend="serial"), progress=False)
    assert s.complete
    m = json.loads((out / "manifest.json").read_text())
    killed, resumed = m["invocations"]
    assert 0 < killed["games_played"] <= resumed["games_before"] and killed["seconds"] > 0
    assert resumed["games_played"] == 100 - resumed["games_before"]
    games = killed["games_played"] + resumed["games_played"]
    assert m["games_per_s"] == round(games / (killed["seconds"] + resumed["seconds"]), 1)


# ---- every reader checks the run against its plan: no silent partial or double answers


def _report(run_dir: Path, *flags: str) -> Any:
    return CliRunner().invoke(main, ["report", str(run_dir), "--no-svg", *flags])


def _headline_games(run_dir: Path) -> int:
    head = pl.read_parquet(run_dir / "tables" / "headline.parquet")
    return int(head["games"].sum() + head["errors"].sum())


def test_report_refuses_a_run_with_a_shard_deleted_and_reports_it_partial_when_asked(finished: Path,
                                                                                     reference: pl.DataFrame) -> None:
    (finished / "shards" / f"{Chunk(0, 5, 10).name}.parquet").unlink()
    r = _report(finished)
    assert r.exit_code == 1 and r.output.count("\n") == 1, r.output
    assert r.output.startswith(f"error: {finished}: 35 of 40 planned games on disk; cell 0 (base, journalist+pilot, "
                               "random vs random): games 5-9 missing; `rnsim run` with the same config plays the "
                               "missing games; `rnsim report --partial`"), r.output
    assert not (finished / "report.html").exists() and not (finished / "tables").exists()
    r = _report(finished, "--partial")
    assert r.exit_code == 0 and "PARTIAL: 35 of 40 planned games on disk" in r.output, r.output
    md = (finished / "report.md").read_text()
    assert md.startswith("> **Partial report: 35 of 40 planned games on disk (87.5%). Every number below is over the "
                         "games that are there, not the whole run. Cell 0 (base, journalist+pilot, random vs random): "
                         "games 5-9 missing.**\n")
    html = (finished / "report.html").read_text()
    body = html[html.index("<body>") + len("<body>"):].lstrip()
    assert body.startswith('<p class="partial" role="alert">Partial report: 35 of 40 planned games')
    assert "<title>Red Notice balance report: " in html and "(partial)</title>" in html
    assert _headline_games(finished) == 35
    # the same check in the loaders every other command reads runs through
    with pytest.raises(RunNotWhole, match=r"35 of 40 planned games on disk; cell 0 .*: games 5-9 missing"):
        load_results(finished)
    with pytest.raises(RunNotWhole, match="games 5-9 missing"):
        scan_results(finished)
    got = load_results(finished, lazy=False, partial=True)
    want = reference.filter(~((pl.col("identity_pair") == "journalist+pilot") & pl.col("game_index").is_between(5, 9)))
    assert got.sort(KEY).drop("run_id").equals(want.drop("run_id"))  # type: ignore[union-attr]


def test_a_shard_copied_under_another_name_is_refused_never_counted_twice(finished: Path) -> None:
    src = finished / "shards" / f"{Chunk(1, 10, 15).name}.parquet"
    copy = src.with_name(src.stem + " (copy).parquet")
    copy.write_bytes(src.read_bytes())
    r = _report(finished)
    assert r.exit_code == 1 and r.output.count("\n") == 1
    assert f"40 of 40 planned games on disk; {copy}: not a result shard of this run" in r.output, r.output
    assert "plays the missing games" not in r.output  # nothing is missing: nothing to play
    assert _report(finished, "--partial").exit_code == 0
    assert _headline_games(finished) == 40  # not 45
    with pytest.raises(RunNotWhole, match="not a result shard"):
        load_results(finished)
    assert load_results(finished, lazy=False, partial=True).height == 40  # type: ignore[union-attr]
    v = CliRunner().invoke(main, ["verify", str(finished)])
    assert v.exit_code == 1 and f"PROBLEM: {copy}: not a result shard" in v.output


def test_games_on_disk_twice_are_named_and_a_partial_report_counts_them_once(finished: Path,
                                                                            reference: pl.DataFrame) -> None:
    d = finished / "shards"
    # games 0-9 of cell 0 once more, in a shard true to its name (10 rows, games 0..9)
    both = pl.concat([pl.read_parquet(d / f"{Chunk(0, 0, 5).name}.parquet"),
                      pl.read_parquet(d / f"{Chunk(0, 5, 10).name}.parquet")])
    both.write_parquet(d / f"{Chunk(0, 0, 10).name}.parquet")
    r = _report(finished)
    assert r.exit_code == 1 and r.output.count("\n") == 1
    assert ("40 of 40 planned games on disk, 10 more than once; cell 0 (base, journalist+pilot, random vs random): "
            "games 0-9 twice") in r.output, r.output
    assert _report(finished, "--partial").exit_code == 0
    assert _headline_games(finished) == 40
    md = (finished / "report.md").read_text()
    assert md.splitlines()[0].endswith("Games on disk more than once (10 extra rows) are counted once.**")
    got = load_results(finished, lazy=False, partial=True)
    assert got.sort(KEY).drop("run_id").equals(reference.drop("run_id"))  # type: ignore[union-attr]


def test_a_shard_that_holds_other_games_than_its_name_says_is_named(finished: Path) -> None:
    d = finished / "shards"
    target = d / f"{Chunk(1, 15, 20).name}.parquet"
    target.write_bytes((d / f"{Chunk(1, 0, 5).name}.parquet").read_bytes())  # a copy over another chunk's name
    r = _report(finished)
    assert r.exit_code == 1
    assert f"{target}: game indices 0..4; its name says games 15..19" in r.output, r.output
    assert "cell 1 (base, lawyer+doctor, random vs random): games 0-4 twice, games 15-19 missing" in r.output


def test_the_end_of_a_run_checks_the_same_and_a_finished_run_is_not_complete_with_a_copy_in_it(
        finished: Path) -> None:
    src = finished / "shards" / f"{Chunk(0, 0, 5).name}.parquet"
    src.with_name("part-copy.parquet").write_bytes(src.read_bytes())
    with pytest.raises(run_mod.RunIncomplete, match=r"after the run, 40 of 40 planned games on disk; .*part-copy\."
                                                    r"parquet: not a result shard of this run"):
        run_tournament(_cfg(finished), progress=False)
    assert json.loads((finished / "manifest.json").read_text())["status"] == "failed"


def test_a_manifest_written_with_sessions_still_resumes_reports_and_verifies(finished: Path,
                                                                            reference: pl.DataFrame) -> None:
    """Run directories written before one `rnsim run` on a directory was called an
    invocation keep their list under "sessions"."""
    path = finished / "manifest.json"
    m = json.loads(path.read_text())
    m["sessions"] = m.pop("invocations")
    path.write_text(json.dumps(m, indent=2))
    assert CliRunner().invoke(main, ["verify", str(finished)]).exit_code == 0
    assert _report(finished).exit_code == 0
    (finished / "shards" / f"{Chunk(1, 5, 10).name}.parquet").unlink()
    s = run_tournament(_cfg(finished), progress=False)
    assert s.complete and s.played == 5 and _table(finished).equals(reference)
    after = json.loads(path.read_text())
    assert "sessions" not in after and len(after["invocations"]) == 2
    assert after["invocations"][0] == m["sessions"][0]  # the old entry kept as it was
    assert after["invocations"][1]["games_before"] == 35


@pytest.mark.parametrize("sig, code", [(signal.SIGTERM, 143), (signal.SIGINT, 130)])
def test_sigterm_exits_143_and_ctrl_c_130_both_resumable(tmp_path: Path, sig: int, code: int) -> None:
    out, cmd, env = _slow_run(tmp_path)
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not list((out / "shards").glob("*.parquet")):
            time.sleep(0.02)
        assert p.poll() is None, "the signal must land mid-run"
        p.send_signal(sig)
        stdout, _ = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.wait()
    assert p.returncode == code
    assert "INTERRUPTED" in stdout
    assert json.loads((out / "manifest.json").read_text())["status"] == "interrupted"
