"""The ray backend: the same result table as the process backend (error rows
included), resume across backends, a task whose worker dies is retried, a node
running other code or data fails clearly, and without Ray installed choosing
the backend is a clear usage error (exit code 2), not a traceback.

One local Ray cluster (2 CPUs) is started for the module; the backend finds
it initialised and uses it."""

from __future__ import annotations

import dataclasses
import json
import logging
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import polars as pl
import pytest

from rnsim import __version__, load_results
from rnsim.config import config_from_mapping
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


@pytest.fixture(scope="module")
def ray_cluster() -> Iterator[Any]:
    if os.environ.get("RNSIM_REQUIRE_RAY"):  # CI (.ci/run): a missing extra is a failure, not a skip
        import ray
    else:
        ray = pytest.importorskip("ray")
    ray.init(address="local", num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR)
    try:
        yield ray
    finally:
        ray.shutdown()


@pytest.mark.ray
def test_ray_table_identical_to_process_backend(tmp_path: Path, ray_cluster: Any) -> None:
    proc = run_dir(tmp_path, "process", backend="process", workers=2, chunk_size=5)
    ray_ = run_dir(tmp_path, "ray", backend="ray", workers=2, chunk_size=5)
    t = table(ray_)
    assert t.height == 2 * 2 * 2 * 12
    assert t.equals(table(proc))
    e = errors(ray_)
    assert e.height > 0 and e.equals(errors(proc))  # a raising strategy is still an error row
    assert t.filter(pl.col("end_reason") == "error").height == e.height
    # one shard per chunk, written by the driver, named like the process backend's
    assert sorted(p.name for p in (ray_ / SHARDS).iterdir()) == sorted(p.name for p in (proc / SHARDS).iterdir())
    m = json.loads((ray_ / "manifest.json").read_text())
    session = m["sessions"][-1]
    assert m["status"] == "complete" and session["backend"] == "ray" and session["games_per_s"] > 0
    cluster = session["cluster"]
    assert cluster["cluster_resources"]["CPU"] == 2 and cluster["nodes"] == 1
    assert cluster["ray_version"] == ray_cluster.__version__


@pytest.mark.ray
def test_ray_resumes_a_process_run(tmp_path: Path, ray_cluster: Any) -> None:
    raw = raw_config()
    raw["variants"] = [{"name": "base"}]
    d = run_dir(tmp_path, "mixed", raw, backend="process", workers=2, chunk_size=4)
    full = table(d)
    shards = sorted((d / SHARDS).iterdir())
    for p in shards[::2]:  # as if the run had been stopped with half the chunks written
        p.unlink()
    cfg = config_from_mapping(raw, src="t.toml", out=d, backend="ray", workers=2, chunk_size=4)
    s = run_tournament(cfg, progress=False)
    assert s.complete and s.played == sum(4 for _ in shards[::2]) and s.done_before == full.height - s.played
    assert table(d).equals(full)
    sessions = json.loads((d / "manifest.json").read_text())["sessions"]
    assert [x["backend"] for x in sessions] == ["process", "ray"]


@pytest.mark.ray
def test_lost_ray_worker_task_is_retried(tmp_path: Path, ray_cluster: Any) -> None:
    marker = tmp_path / "died"
    raw = raw_config(identities="random", games=24)
    raw["variants"] = [{"name": "base"}]
    raw["strategies"] = {"angela": {"ref": "tests.test_tournament:DieOnce", "params": {"marker": str(marker)},
                                    "label": "d"}, "jessah": "random"}
    d = run_dir(tmp_path, "k", raw, backend="ray", workers=2, chunk_size=6)
    assert marker.exists()  # a worker process really died mid-chunk
    ref = run_dir(tmp_path, "ref", raw, backend="serial")  # the marker exists now: nobody dies
    assert table(d).equals(table(ref)) and table(d).height == 24


@pytest.mark.ray
def test_node_with_other_component_data_fails_clearly(tmp_path: Path, ray_cluster: Any) -> None:
    raw = raw_config(games=4)
    raw["variants"] = [{"name": "base"}]
    cfg = config_from_mapping(raw, src="t.toml", out=tmp_path / "x")
    plan = Plan.from_config(cfg, "r")
    # the driver's rules hash differs from what the workers compute, as when a
    # node has other component data installed
    plan = dataclasses.replace(plan, variants=(dataclasses.replace(plan.variants[0], digest="0123456789abcdef"),))
    got: list[ChunkOutput] = []
    with pytest.raises(RunnerError, match=r"Ray node .* does not run the driver's rnsim .*variant 'base': rules hash"):
        RayBackend(2).run(plan, plan_chunks(len(plan.cells), 4, 4), got.append)
    assert got == []


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

    from rnsim.cli import main

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


def test_address_needs_the_ray_backend() -> None:
    with pytest.raises(ConfigError, match="run.address: only the 'ray' backend"):
        config_from_mapping({"run": {"address": "10.0.0.5:6379"}}, src="t.toml")
    with pytest.raises(ConfigError, match="run.address: must be a Ray cluster address"):
        config_from_mapping({"run": {"backend": "ray", "address": 6379}}, src="t.toml")
