"""The manifest pins what played a run, and is enough to reproduce its table."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import polars as pl
import pytest
from click.testing import CliRunner

import rnsim
from rnsim import load_results
from rnsim.cli import main
from rnsim.errors import RnsimError
from rnsim.provenance import config_from_manifest, git_state, source_hash
from rnsim.tournament import run_tournament

KEY = ["variant", "identity_pair", "angela_strategy", "jessah_strategy", "game_index"]
CONFIG = """\
[run]
games = 2000
seed = 21
chunk_size = 4
identities = [["journalist", "pilot"], ["lawyer", "doctor"]]
backend = "serial"

[rules]
max_rounds = 30

[[variants]]
name = "base"

[[variants]]
name = "short"
max_rounds = 12
hand_limit = 4

[strategies]
angela = ["random", { ref = "rule", label = "rule" }]
jessah = "random"
"""


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, dict]:  # type: ignore[type-arg]
    d = tmp_path_factory.mktemp("prov")
    cfg = d / "game.toml"
    cfg.write_text(CONFIG)
    args = ["run", str(cfg), "--games", "6", "--out", str(d / "run"), "--no-report"]
    saved = sys.argv
    sys.argv = ["rnsim", *args]  # as the console script sees it (CliRunner leaves sys.argv alone)
    try:
        r = CliRunner().invoke(main, args)
    finally:
        sys.argv = saved
    assert r.exit_code == 0, r.output
    cfg.unlink()  # the run directory alone must be enough from here on
    return d / "run", json.loads((d / "run" / "manifest.json").read_text())


def test_manifest_names_what_played_and_what_overrode_the_config(played: tuple[Path, dict]) -> None:  # type: ignore[type-arg]
    _, m = played
    assert m["rnsim_version"] == rnsim.__version__ == "0.2.0"
    assert m["source_config"]["run"]["games"] == 2000  # the file as written...
    assert m["overrides"]["games"] == 6 and m["config"]["games"] == 6  # ...and what played
    assert "seed" not in m["overrides"]
    p = m["invocations"][0]["provenance"]
    assert p["git"] is None or re.fullmatch(r"[0-9a-f]{40}", p["git"]["commit"])
    assert re.fullmatch(r"[0-9a-f]{64}", p["source_sha256"])
    assert p["build"]["engine"] in ("compiled", "pure") and p["build"]["strategies"] in ("compiled", "pure")
    assert p["packages"]["polars"] == pl.__version__ and p["packages"]["numpy"] and p["packages"]["multiprocess"]
    assert p["python"].endswith(__import__("platform").python_version())
    assert p["command"][:5] == ["rnsim", "run", str(played[0].parent / "game.toml"), "--games", "6"]


def test_games_replayed_from_the_manifest_alone_give_the_same_rows(played: tuple[Path, dict],  # type: ignore[type-arg]
                                                                   tmp_path: Path) -> None:
    run_dir, m = played
    cfg = config_from_manifest(m, out=tmp_path / "replay")
    assert cfg.config_hash() == m["config_hash"]
    assert run_tournament(cfg, progress=False).complete
    a = load_results(run_dir, lazy=False).sort(KEY).drop("run_id")  # type: ignore[union-attr]
    b = load_results(tmp_path / "replay", lazy=False).sort(KEY).drop("run_id")  # type: ignore[union-attr]
    assert a.height == 2 * 2 * 2 * 6 and a.equals(b)


def test_a_manifest_whose_rules_no_longer_match_is_refused(played: tuple[Path, dict],  # type: ignore[type-arg]
                                                          tmp_path: Path) -> None:
    _, m = played
    bad = json.loads(json.dumps(m))
    bad["config"]["variants"][1]["rules"]["max_rounds"] = 13
    with pytest.raises(RnsimError, match=r"differs from the run's \(rules or components of variant\(s\) short"):
        config_from_manifest(bad, out=tmp_path / "x")


def test_source_hash_covers_the_files_a_plain_walk_finds_in_path_order(tmp_path: Path) -> None:
    """The hash is that of every source file (by suffix), bytecode caches and
    a wheel's example configs left out, in the order sorted paths give: a
    manifest's source_sha256 stays comparable with one written by any
    version of the walk."""
    import hashlib

    from rnsim.provenance import NOT_SOURCE, SOURCE_SUFFIXES

    files = ["m.py", "a-c.py", "a/b.py", "a/z/y.c", "a.b/t.toml", "tpl/x.j2", "configs/c.toml", "sub/configs/k.toml",
             "__pycache__/m.py", "a/__pycache__/q.py", "notes.txt", "a/.hidden.py"]
    roots = {"rnsim": tmp_path / "rnsim", "rnsim_strategies": tmp_path / "strategies"}
    for root in roots.values():
        for i, f in enumerate(files):
            (root / f).parent.mkdir(parents=True, exist_ok=True)
            (root / f).write_text(f"{root.name} {i}\n")

    h = hashlib.sha256()
    for name, root in sorted(roots.items()):
        for p in sorted(p for p in root.rglob("*") if p.suffix in SOURCE_SUFFIXES and "__pycache__" not in p.parts
                        and (name, p.relative_to(root).parts[0]) != NOT_SOURCE):
            h.update(f"{name}/{p.relative_to(root).as_posix()}\0".encode() + p.read_bytes() + b"\0")
    assert source_hash(roots) == h.hexdigest()


def test_source_hash_follows_the_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import rnsim.provenance as prov

    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "m.py").write_text("X = 1\n")
    monkeypatch.setattr(prov, "_roots", lambda: {"rnsim": tmp_path / "a"})
    h1 = source_hash()
    (tmp_path / "a" / "m.py").write_text("X = 2\n")
    assert source_hash() != h1
    assert git_state(tmp_path) is None  # not a git work tree: the source hash is the pin
