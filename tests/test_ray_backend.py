"""The ray backend: the same result table as the process backend (error rows
included), resume across backends, a task whose worker dies is retried, a node
running other code or data fails clearly, a local cluster is started when no
address is given, and without Ray installed choosing the backend is a clear
usage error (exit code 2), not a traceback.

The module starts one Ray head node (2 CPUs) with `ray start --head`, as a user
would, and the runs connect to it by address."""

from __future__ import annotations

import dataclasses
import json
import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from rnsim import __version__, load_results
from rnsim.cli import main
from rnsim.config import config_from_mapping, load_config
from rnsim.errors import ConfigError
from rnsim.tournament import load_errors, run_tournament
from rnsim.tournament.backends import RunnerError
from rnsim.tournament.ray_backend import ClusterMismatch, RayBackend, check_worker, code_fingerprint
from rnsim.tournament.schedule import plan_chunks
from rnsim.tournament.shards import SHARDS
from rnsim.tournament.worker import ChunkOutput, Plan

KEY = ["variant", "identity_pair", "angela_strategy", "jessah_strategy", "game_index"]


def raw_config(**run: Any) -> dict[str, Any]:
    # Two variants x two pairs x two Angela strategies, one of which raises on
    # some games (error rows), x 12 games: 96 short games.
    return {
        "run": {"games": 12, "seed": 5, "identities": [["journalist", "pilot"], ["lawyer", "doctor"]], **run},
        "rules": {"max_rounds": 30},
        "variants": [{"name": "base"}, {"name": "cheap", "money_target": 700_000}],
        "strategies": {
            "angela": ["random", {"ref": "tests.test_tournament:RaiseSometimes", "label": "raiser"}],
            "jessah": "random",
        },
    }


def run_dir(tmp_path: Path, name: str, raw: dict[str, Any] | None = None, **over: Any) -> Path:
    cfg = config_from_mapping(raw or raw_config(), src="t.toml", out=tmp_path / name, **over)
    s = run_tournament(cfg, progress=False)
    assert s.complete
    return tmp_path / name


def table(d: Path) -> pl.DataFrame:
    return load_results(d, lazy=False).sort(KEY)  # type: ignore[union-attr]


def errors(d: Path) -> pl.DataFrame:
    return load_errors(d).sort(["variant", "identity_pair", "angela_strategy", "game_index"])


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def ray_address(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    if os.environ.get("RNSIM_REQUIRE_RAY"):  # CI (.ci/run): a missing extra is a failure, not a skip
        import ray  # noqa: F401
    else:
        pytest.importorskip("ray")
    # A throwaway cluster on this machine: no token authentication, for the
    # head and for the connections this module makes.
    saved = {k: os.environ.get(k) for k in ("RAY_AUTH_MODE", "RAY_ADDRESS")}
    os.environ["RAY_AUTH_MODE"] = "disabled"
    os.environ.pop("RAY_ADDRESS", None)
    port = _free_port()
    log = tmp_path_factory.mktemp("ray") / "head.log"
    cmd = [str(Path(sys.executable).with_name("ray")), "start", "--head", "--block", "--num-cpus", "2",
           "--port", str(port), "--include-dashboard=false", "--disable-usage-stats"]
    with log.open("w") as out:
        head = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 120
        while "Ray runtime started" not in log.read_text():
            if head.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"`{' '.join(cmd)}` did not start a head node:\n{log.read_text()}")
            time.sleep(0.2)
        yield f"127.0.0.1:{port}"
    finally:
        head.terminate()  # `ray start --block` stops the node's processes on SIGTERM
        try:
            head.wait(timeout=60)
        except subprocess.TimeoutExpired:
            head.kill()
        # `ray start` leaves this node's address as "the current cluster"; do not
        # leave a dead one there for the next `ray` command on this machine.
        current = Path("/tmp/ray/ray_current_cluster")
        if current.is_file() and current.read_text().strip().endswith(f":{port}"):
            current.unlink()
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


@pytest.mark.ray
def test_ray_table_identical_to_process_backend(tmp_path: Path, ray_address: str) -> None:
    proc = run_dir(tmp_path, "process", backend="process", workers=2, chunk_size=5)
    ray_ = run_dir(tmp_path, "ray", backend="ray", address=ray_address, chunk_size=5)
    t = table(ray_)
    assert t.height == 2 * 2 * 2 * 12
    assert t.equals(table(proc))
    e = errors(ray_)
    assert e.height > 0 and e.equals(errors(proc))  # a raising strategy is still an error row
    assert t.filter(pl.col("end_reason") == "error").height == e.height
    # one shard per chunk, written by the driver, named like the process backend's
    assert sorted(p.name for p in (ray_ / SHARDS).iterdir()) == sorted(p.name for p in (proc / SHARDS).iterdir())
    m = json.loads((ray_ / "manifest.json").read_text())
    invocation = m["invocations"][-1]
    assert m["status"] == "complete" and invocation["backend"] == "ray" and invocation["games_per_s"] > 0
    cluster = invocation["cluster"]
    assert cluster["cluster_resources"]["CPU"] == 2 and cluster["nodes"] == 1
    assert cluster["address"] == ray_address and cluster["startup_seconds"] > 0
    assert invocation["address"] == ray_address


@pytest.mark.ray
def test_ray_resumes_a_process_run(tmp_path: Path, ray_address: str) -> None:
    raw = raw_config()
    raw["variants"] = [{"name": "base"}]
    d = run_dir(tmp_path, "mixed", raw, backend="process", workers=2, chunk_size=4)
    full = table(d)
    shards = sorted((d / SHARDS).iterdir())
    for p in shards[::2]:  # as if the run had been stopped with half the chunks written
        p.unlink()
    cfg = config_from_mapping(raw, src="t.toml", out=d, backend="ray", address=ray_address, chunk_size=4)
    s = run_tournament(cfg, progress=False)
    assert s.complete and s.played == sum(4 for _ in shards[::2]) and s.done_before == full.height - s.played
    assert table(d).equals(full)
    invocations = json.loads((d / "manifest.json").read_text())["invocations"]
    assert [x["backend"] for x in invocations] == ["process", "ray"]


@pytest.mark.ray
def test_lost_ray_worker_task_is_retried(tmp_path: Path, ray_address: str) -> None:
    marker = tmp_path / "died"
    raw = raw_config(identities="random", games=24)
    raw["variants"] = [{"name": "base"}]
    raw["strategies"] = {"angela": {"ref": "tests.test_tournament:DieOnce", "params": {"marker": str(marker)},
                                    "label": "d"}, "jessah": "random"}
    d = run_dir(tmp_path, "k", raw, backend="ray", address=ray_address, chunk_size=6)
    assert marker.exists()  # a worker process really died mid-chunk
    ref = run_dir(tmp_path, "ref", raw, backend="serial")  # the marker exists now: nobody dies
    assert table(d).equals(table(ref)) and table(d).height == 24


@pytest.mark.ray
def test_node_with_other_component_data_fails_clearly(tmp_path: Path, ray_address: str) -> None:
    raw = raw_config(games=4)
    raw["variants"] = [{"name": "base"}]
    cfg = config_from_mapping(raw, src="t.toml", out=tmp_path / "x")
    plan = Plan.from_config(cfg, "r")
    # the driver's rules hash differs from what the workers compute, as when a
    # node has other component data installed
    plan = dataclasses.replace(plan, variants=(dataclasses.replace(plan.variants[0], digest="0123456789abcdef"),))
    got: list[ChunkOutput] = []
    with pytest.raises(RunnerError, match=r"Ray node .* does not run the driver's rnsim .*variant 'base': rules hash"):
        RayBackend(2, address=ray_address).run(plan, plan_chunks(len(plan.cells), 4, 4), got.append)
    assert got == []


@pytest.mark.ray
def test_cli_without_address_starts_and_stops_a_local_cluster(tmp_path: Path, ray_address: str) -> None:
    import ray
    from click.testing import CliRunner

    cfg = tmp_path / "c.toml"
    cfg.write_text('[run]\ngames = 10\nchunk_size = 5\nidentities = "random"\nbackend = "ray"\nworkers = 1\n'
                   '[strategies]\nangela = "random"\njessah = "random"\n')
    r = CliRunner().invoke(main, ["run", str(cfg), "--out", str(tmp_path / "o"), "--no-report", "--no-progress"])
    assert r.exit_code == 0, r.output
    assert "complete" in r.output and "10 of 10" in r.output
    assert not ray.is_initialized()  # the cluster it started for the run is gone
    cluster = json.loads((tmp_path / "o" / "manifest.json").read_text())["invocations"][-1]["cluster"]
    assert cluster["address"] == "local" and cluster["cluster_resources"]["CPU"] == 1  # workers = 1
    assert run_tournament(load_config(cfg, backend="serial", out=tmp_path / "ref"), progress=False).complete
    assert table(tmp_path / "o").equals(table(tmp_path / "ref"))


def test_worker_check_names_what_differs() -> None:
    cfg = config_from_mapping(raw_config(games=1), src="t.toml")
    plan = Plan.from_config(cfg, "r")
    expected = code_fingerprint(plan)
    check_worker(plan, expected, "here")  # the same code: no complaint
    assert set(expected) == {"rnsim", "rnsim source", "strategy random", "strategy tests.test_tournament:RaiseSometimes"}
    other = {**expected, "rnsim": "0.0.9", "strategy random": "ffff"}
    with pytest.raises(ClusterMismatch) as e:
        check_worker(plan, other, "node 10.0.0.9")
    msg = str(e.value)
    assert "node 10.0.0.9" in msg and f"rnsim: {__version__} here, 0.0.9 on the driver" in msg
    assert "strategy random:" in msg and "Install the same rnsim" in msg


def test_without_ray_the_backend_is_a_usage_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from click.testing import CliRunner

    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now fails as if not installed
    cfg = tmp_path / "c.toml"
    cfg.write_text('[run]\ngames = 2\nidentities = "random"\n[strategies]\nangela = "random"\njessah = "random"\n')
    for args in (["--backend", "ray"], []):
        if not args:
            cfg.write_text(cfg.read_text().replace("[run]\n", '[run]\nbackend = "ray"\n'))
        r = CliRunner().invoke(main, ["run", str(cfg), "--out", str(tmp_path / "o"), *args])
        assert r.exit_code == 2, r.output
        assert "needs the ray extra" in r.output and "pip install 'rnsim[ray]'" in r.output
        assert "Traceback" not in r.output and r.exception is not None and isinstance(r.exception, SystemExit)
    assert not (tmp_path / "o").exists()  # refused before anything was written
    with pytest.raises(ConfigError, match=r"pip install 'rnsim\[ray\]'"):
        RayBackend(2)
    # the other backends never import ray
    r = CliRunner().invoke(main, ["run", str(cfg), "--backend", "serial", "--out", str(tmp_path / "s"), "--no-report"])
    assert r.exit_code == 0 and "2 of 2" in r.output, r.output


def test_address_needs_the_ray_backend() -> None:
    with pytest.raises(ConfigError, match="run.address: only the 'ray' backend"):
        config_from_mapping({"run": {"address": "10.0.0.5:6379"}}, src="t.toml")
    with pytest.raises(ConfigError, match="run.address: must be a Ray cluster address"):
        config_from_mapping({"run": {"backend": "ray", "address": 6379}}, src="t.toml")


@pytest.mark.ray
def test_the_drift_gates_batches_share_one_ray_connection(tmp_path: Path, ray_address: str,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """A pool on the Ray backend connects once for all its batches (a local
    cluster takes seconds to start), and plays what the process backend plays."""
    from rnsim.tournament.batches import play_ranges, pool_for
    from rnsim.tournament.ray_backend import import_ray

    raw = raw_config()
    cfg = config_from_mapping(raw, src="t.toml", out=tmp_path / "b", backend="ray", address=ray_address)
    ray = import_ray()
    inits: list[object] = []
    real_init = ray.init
    monkeypatch.setattr(ray, "init", lambda *a, **k: inits.append(k) or real_init(*a, **k))
    with pool_for(cfg, "batches") as pool:
        first = play_ranges(cfg, [(0, 0, 4)], pool=pool)
        second = play_ranges(cfg, [(0, 4, 8)], pool=pool)
    assert len(inits) <= 1
    local = play_ranges(config_from_mapping(raw, src="t.toml", out=tmp_path / "s", backend="serial"), [(0, 0, 8)])
    got = pl.concat([first, second]).sort("game_index").drop("cell")
    assert got.equals(local.sort("game_index").drop("cell"))
