"""Mistakes a designer makes get one line naming the file or flag, exit 2, and
leave nothing behind ("clear errors instead of tracebacks")."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from rnsim.cli import main
from rnsim.games.red_notice.rules.components import DATA_DIR
from tests.unprivileged import REASON, unprivileged

RUN = '[run]\ngames = 2\nidentities = "random"\nbackend = "serial"\n[strategies]\nangela = "random"\njessah = "random"\n'


def cli(*args: str) -> Result:
    return CliRunner().invoke(main, list(args))


def one_line_error(r: Result, *needles: str, code: int = 2) -> str:
    assert r.exit_code == code, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), r.exception
    lines = [x for x in r.output.splitlines() if x.startswith("error: ")]
    assert len(lines) == 1 and "Traceback" not in r.output, r.output
    for n in needles:
        assert n in lines[0], lines[0]
    return lines[0]


def listing(d: Path) -> list[str]:
    return sorted(str(p.relative_to(d)) for p in d.rglob("*"))


# ---- text encodings of configs, extends files and component files


@pytest.mark.parametrize("bad, says", [(b"\xef\xbb\xbf" + RUN.encode(), "UTF-8 BOM"),
                                       (RUN.encode().replace(b"random", b"r\xe9andom", 1), "not UTF-8 text")])
def test_a_config_that_is_not_utf8_is_named(tmp_path: Path, bad: bytes, says: str) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_bytes(bad)
    before = listing(tmp_path)
    one_line_error(cli("run", str(cfg), "--out", str(tmp_path / "o")), str(cfg), says)
    assert listing(tmp_path) == before


def test_an_extends_file_that_is_not_utf8_is_named(tmp_path: Path) -> None:
    (tmp_path / "base.toml").write_bytes(b"[rules]\nhand_limit = 4 # \xff\n")
    cfg = tmp_path / "c.toml"
    cfg.write_text(RUN + '[rules]\nextends = "base.toml"\n')
    one_line_error(cli("run", str(cfg), "--out", str(tmp_path / "o")), str(tmp_path / "base.toml"),
                   "not UTF-8 text (byte 0xff on line 2)")
    assert not (tmp_path / "o").exists()


def test_a_component_file_with_a_bom_is_named(tmp_path: Path) -> None:
    comps = tmp_path / "mycomps"
    shutil.copytree(DATA_DIR / "classic", comps)
    (comps / "tokens.toml").write_bytes(b"\xef\xbb\xbf" + (comps / "tokens.toml").read_bytes())
    cfg = tmp_path / "c.toml"
    cfg.write_text(RUN + '[rules]\ncomponents = "mycomps"\n')
    one_line_error(cli("run", str(cfg), "--out", str(tmp_path / "o")), str(comps / "tokens.toml"), "UTF-8 BOM")
    assert not (tmp_path / "o").exists()


# ---- the output folder


def test_out_under_a_file(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text(RUN)
    (tmp_path / "afile").write_text("x")
    before = listing(tmp_path)
    one_line_error(cli("run", str(tmp_path / "c.toml"), "--out", str(tmp_path / "afile" / "sub" / "run")),
                   "is under", "which is a file")
    assert listing(tmp_path) == before


@pytest.fixture
def shared_dir() -> Iterator[Path]:
    """A folder an unprivileged user can read (tmp_path is root's, mode 700)."""
    d = Path(tempfile.mkdtemp(prefix="rnsim-err-"))
    d.chmod(0o755)
    try:
        yield d
    finally:
        shutil.rmtree(d)


def _unprivileged() -> list[str] | None:
    return unprivileged()


def _run_as_nobody(args: list[str], where: Path) -> subprocess.CompletedProcess[str]:
    (where / "mpl").mkdir(mode=0o777, exist_ok=True)
    (where / "mpl").chmod(0o777)
    env = {**os.environ, "MPLCONFIGDIR": str(where / "mpl"), "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    return subprocess.run([*_unprivileged(), sys.executable, "-W", "ignore", "-c",  # type: ignore[misc]
                           "from rnsim.cli import main; main()", *args], capture_output=True, text=True, env=env,
                          timeout=120, cwd=where)


@pytest.mark.skipif(_unprivileged() is None, reason=REASON)
def test_an_output_folder_without_write_permission(shared_dir: Path) -> None:
    # as root every folder is writable: drop to an ordinary user
    (shared_dir / "c.toml").write_text(RUN)
    locked = shared_dir / "locked"
    locked.mkdir(mode=0o755)  # root's: nobody may not write in it
    r = _run_as_nobody(["run", str(shared_dir / "c.toml"), "--out", str(locked / "run"), "--no-progress"], shared_dir)
    assert r.returncode == 2, r.stderr
    err = r.stderr.strip().splitlines()
    assert err[-1] == f"error: run.out: cannot create {locked / 'run'}: Permission denied" and "Traceback" not in r.stderr
    assert list(locked.iterdir()) == []


# ---- rnsim replay


@pytest.fixture(scope="module")
def good_log(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    d = tmp_path_factory.mktemp("log")
    r = cli("play", "--seed", "4", "--log", str(d / "g.jsonl"))
    assert r.exit_code == 0, r.output
    return (d / "g.jsonl").read_text().splitlines()


def _missing_key(lines: list[str]) -> str:
    ev = json.loads(lines[1])
    assert ev["t"] == "jessah_start"
    del ev["city"]
    return "\n".join([lines[0], json.dumps(ev), *lines[2:]]) + "\n"


@pytest.mark.parametrize("name, make, says", [
    ("garbage", lambda lines: "this is not a log\n", "line 1: not JSON"),
    ("binary", lambda lines: b"\x00\x9f\x92\x96PK\x03\x04", "not UTF-8 text"),
    ("not a log", lambda lines: '{"games": 3, "seed": 1}\n', 'line 1: not a game event (expected an object with "t"'),
    ("a list", lambda lines: "[1, 2]\n", "line 1: not a game event"),
    ("cut mid-line", lambda lines: "\n".join(lines)[: len("\n".join(lines)) // 2], "not JSON"),
    ("cut at a line", lambda lines: "\n".join(lines[: len(lines) // 2]) + "\n", "truncated event log"),
    ("missing key", _missing_key, "line 2: event 'jessah_start' is malformed (missing or bad 'city')"),
    ("empty", lambda lines: "", "empty event log"),
    ("blank lines", lambda lines: "\n\n  \n", "empty event log"),
])
def test_replay_refuses_what_is_not_a_whole_event_log(tmp_path: Path, good_log: list[str], name: str,
                                                      make: Any, says: str) -> None:
    f = tmp_path / "x.jsonl"
    data = make(good_log)
    f.write_bytes(data if isinstance(data, bytes) else data.encode())
    one_line_error(cli("replay", str(f)), str(f), says)


def test_replay_of_a_whole_log_tells_the_game(tmp_path: Path, good_log: list[str]) -> None:
    f = tmp_path / "x.jsonl"
    f.write_text("\n".join(good_log) + "\n")
    r = cli("replay", str(f))
    assert r.exit_code == 0 and "GAME OVER" in r.output.strip().splitlines()[-1]


# ---- rnsim play


@pytest.fixture(scope="module")
def position(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    d = tmp_path_factory.mktemp("pos")
    r = cli("play", "--seed", "2", "--save-position", str(d / "p.json"), "--at-round", "2")
    assert r.exit_code == 0, r.output
    data: dict[str, Any] = json.loads((d / "p.json").read_text())
    return data


@pytest.mark.parametrize("data, says", [
    (b'{"round": 2, ', "not valid JSON"),
    (b'{"round": "\xe9"}', "not UTF-8 text"),
    (b"\xef\xbb\xbf{}", "UTF-8 BOM"),
    (b"[1, 2]", "not a saved position"),
])
def test_play_from_a_file_that_is_not_a_position(tmp_path: Path, data: bytes, says: str) -> None:
    f = tmp_path / "p.json"
    f.write_bytes(data)
    one_line_error(cli("play", "--from", str(f)), str(f), says)


def test_play_from_names_the_file_of_an_invalid_position(tmp_path: Path, position: dict[str, Any]) -> None:
    f = tmp_path / "p.json"
    f.write_text(json.dumps({**position, "round": "two"}))
    one_line_error(cli("play", "--from", str(f)), f"{f}: round:")


def test_a_position_with_more_captures_than_identities_is_refused(tmp_path: Path,
                                                                 position: dict[str, Any]) -> None:
    f = tmp_path / "p.json"
    f.write_text(json.dumps({**position, "angela": {**position["angela"], "captures": 9}}))
    one_line_error(cli("play", "--from", str(f)), f"{f}: angela.captures: at most 2", "got 9")
    f.write_text(json.dumps({**position, "angela": {**position["angela"], "captures": 2}}))
    assert cli("play", "--from", str(f)).exit_code == 0


def test_play_refuses_an_identity_twice() -> None:
    one_line_error(cli("play", "--identities", "pilot,pilot"), "--identities: pilot given twice")


def test_play_refuses_an_unwritable_log_before_playing(tmp_path: Path) -> None:
    r = cli("play", "--log", str(tmp_path / "nodir" / "game.jsonl"))
    one_line_error(r, "--log:", "nodir is not a folder")
    assert "wins" not in r.output  # refused before the game, not after it
    r = cli("play", "--save-position", str(tmp_path / "nodir" / "p.json"), "--at-round", "2")
    one_line_error(r, "--save-position:", "nodir is not a folder")


def test_play_log_is_written_even_when_stdout_closes_early(tmp_path: Path) -> None:
    log = tmp_path / "g.jsonl"
    cmd = [sys.executable, "-W", "ignore", "-c", "from rnsim.cli import main; main()",
           "play", "--seed", "4", "--log", str(log)]
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert p.stdout is not None
    p.stdout.readline()
    p.stdout.close()  # as `| head -1` does
    p.wait(timeout=120)
    lines = log.read_text().splitlines()
    assert json.loads(lines[-1])["t"] == "game_end"


# ---- workers


def test_workers_are_capped_at_the_chunks_and_warned_above_the_cores(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    from rnsim.tournament import run as run_mod
    from rnsim.tournament.backends import SerialBackend

    asked: list[int] = []

    def backend(name: str, workers: int, address: str | None = None) -> SerialBackend:
        asked.append(workers)
        return SerialBackend()

    monkeypatch.setattr(run_mod, "get_backend", backend)
    monkeypatch.setattr(run_mod.os, "cpu_count", lambda: 2)
    cfg = tmp_path / "c.toml"
    cfg.write_text(RUN.replace('backend = "serial"', 'chunk_size = 1'))
    r = cli("run", str(cfg), "--out", str(tmp_path / "o"), "--workers", "1000", "--games", "4", "--no-report")
    assert r.exit_code == 0, r.output
    assert asked == [4]
    assert "warning: 4 worker processes on 2 cores" in r.output
    r = cli("run", str(cfg), "--out", str(tmp_path / "o2"), "--workers", "2", "--games", "4", "--no-report")
    assert asked == [4, 2] and "warning" not in r.output


@pytest.mark.skipif(_unprivileged() is None, reason=REASON)
def test_an_existing_run_folder_without_write_permission(shared_dir: Path) -> None:
    (shared_dir / "c.toml").write_text(RUN)
    out = shared_dir / "run"
    out.mkdir(mode=0o755)
    r = _run_as_nobody(["run", str(shared_dir / "c.toml"), "--out", str(out), "--no-progress"], shared_dir)
    assert r.returncode == 2, r.stderr
    assert r.stderr.strip().splitlines()[-1] == f"error: run.out: cannot write in {out}: Permission denied"
    assert list(out.iterdir()) == []


@pytest.mark.parametrize("bad", ["2x", "1.5", "-1%", "101%", "%", "lots"])
def test_a_bad_error_budget_is_named_before_anything_runs(tmp_path: Path, bad: str) -> None:
    cfg = tmp_path / "c.toml"
    cfg.write_text(RUN)
    before = listing(tmp_path)
    one_line_error(cli("run", str(cfg), "--out", str(tmp_path / "o"), "--max-errors", bad),
                   f"--max-errors: {bad!r} is not an error budget", "e.g. 1% or 0.5%", "e.g. 0 or 10")
    assert listing(tmp_path) == before
