"""rnsim installs like any package: the wheel built from the source (through
its sdist, as `python -m build` does) holds every module and data file of
rnsim/ and strategies/ (as rnsim_strategies), the example configs, and nothing
else; without a C compiler it still builds, warns, and runs the Python source,
saying so; and an installed copy is pinned by a source hash equal to its
checkout's. (.ci/wheel-smoke builds the compiled wheel in isolation and runs the
quick start from it.)"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
import textwrap
import zipfile
from pathlib import Path

import pytest

from rnsim.provenance import source_hash

ROOT = Path(__file__).resolve().parent.parent



def _snapshot(dest: Path) -> Path:
    """The checkout's tracked files with their uncommitted edits: what a clean
    clone of this work tree holds."""
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    rev = subprocess.run(["git", "-C", str(ROOT), "stash", "create"], capture_output=True, text=True,
                         check=True).stdout.strip()
    tar = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", rev or "HEAD"], capture_output=True,
                         check=True).stdout
    dest.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(tar)) as t:
        t.extractall(dest, filter="data")
    return dest


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, str]:
    """(source tree, wheel, build log) of an sdist-then-wheel build where the
    C compiler fails (CC=false): the build of a machine without one."""
    tmp = tmp_path_factory.mktemp("packaging")
    src = _snapshot(tmp / "src")
    r = subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp / "dist"), str(src)],
                       capture_output=True, text=True, env={**os.environ, "CC": "false"})
    log = r.stdout + r.stderr
    assert r.returncode == 0, log[-4000:]
    return src, next((tmp / "dist").glob("rnsim-*.whl")), log


def _expected(src: Path) -> set[str]:
    """Every file of rnsim/ and strategies/ at its import path, and the
    example configs in rnsim/configs."""
    out = set()
    for folder, package in (("rnsim", "rnsim"), ("strategies", "rnsim_strategies"), ("configs", "rnsim/configs")):
        out |= {f"{package}/{p.relative_to(src / folder).as_posix()}" for p in (src / folder).rglob("*") if p.is_file()}
    return out


def test_the_wheel_holds_every_module_and_data_file_and_nothing_else(built: tuple[Path, Path, str]) -> None:
    src, wheel, _ = built
    names = {n for n in zipfile.ZipFile(wheel).namelist() if not n.split("/")[0].endswith(".dist-info")}
    expected = _expected(src)
    assert {n for n in expected if n.endswith(".py")} >= {"rnsim/drift/gate.py",
                                                          "rnsim_strategies/red_notice/probes/agents.py"}
    missing, extra = sorted(expected - names), sorted(names - expected)
    assert not missing and not extra, f"missing from the wheel: {missing}; not in the source: {extra}"
    assert {n.split("/")[0] for n in names} == {"rnsim", "rnsim_strategies"}  # no tests/, no scripts/


def test_without_a_c_compiler_the_wheel_holds_the_source_only_and_says_so(built: tuple[Path, Path, str]) -> None:
    _, wheel, log = built
    assert "warning: no working C compiler" in log and "Python source of engine, strategies" in log
    assert not [n for n in zipfile.ZipFile(wheel).namelist() if n.endswith((".so", ".pyd", ".sha256"))]


def test_the_installed_copy_runs_pure_and_its_manifest_says_why(built: tuple[Path, Path, str],
                                                                 tmp_path: Path) -> None:
    _, wheel, _ = built
    site, cwd = tmp_path / "site", tmp_path / "empty"
    zipfile.ZipFile(wheel).extractall(site)
    cwd.mkdir()
    code = textwrap.dedent("""
        import sys
        import rnsim, rnsim_strategies
        assert rnsim.__file__.startswith(sys.argv[1]) and rnsim_strategies.__file__.startswith(sys.argv[1])
        from rnsim.cli import main
        main(["run", "classic", "--games", "2", "--workers", "1", "--out", "run", "--no-report", "--no-progress"])
    """)
    env = {k: v for k, v in os.environ.items() if k != "RNSIM_PURE"}
    r = subprocess.run([sys.executable, "-c", code, str(site)], cwd=cwd, capture_output=True, text=True,
                       env={**env, "PYTHONPATH": str(site)})
    assert r.returncode == 0, r.stderr[-3000:]
    p = json.loads((cwd / "run" / "manifest.json").read_text())["invocations"][0]["provenance"]
    assert p["build"] == dict.fromkeys(("engine", "strategies", "fbi-engine", "fbi-strategies", "chance"), "pure")
    assert set(p["build_pure_why"].values()) == {"not built"}
    assert p["git"] is None


def test_an_installed_copy_has_its_checkouts_source_hash(built: tuple[Path, Path, str], tmp_path: Path) -> None:
    src, wheel, _ = built
    zipfile.ZipFile(wheel).extractall(tmp_path)
    installed = source_hash({"rnsim": tmp_path / "rnsim", "rnsim_strategies": tmp_path / "rnsim_strategies"})
    assert installed == source_hash({"rnsim": src / "rnsim", "rnsim_strategies": src / "strategies"})
    # and it is a hash of the code: an edit changes it
    (tmp_path / "rnsim_strategies" / "red_notice" / "_dossier_core.c").write_text("/* edited */\n")
    assert source_hash({"rnsim": tmp_path / "rnsim", "rnsim_strategies": tmp_path / "rnsim_strategies"}) != installed


def test_an_installed_copy_inside_another_repository_is_not_pinned_to_its_commit(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A designer's project keeps its virtualenv in its own git repository: the
    manifest must not take that repository's commit for rnsim's."""
    if shutil.which("git") is None:
        pytest.skip("no git")
    import rnsim.provenance as provenance

    project = tmp_path / "project"
    site = project / ".venv" / "lib" / "site-packages"
    for package in ("rnsim", "rnsim_strategies"):
        (site / package).mkdir(parents=True)
        (site / package / "__init__.py").write_text("")
    git = ["git", "-C", str(project), "-c", "user.name=a", "-c", "user.email=a@b"]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-q", "-m", "project"], check=True)
    monkeypatch.setattr(provenance, "_roots", lambda: {p: site / p for p in ("rnsim", "rnsim_strategies")})
    p = provenance.provenance(["rnsim", "run"])
    assert p["git"] is None and p["source_sha256"] == provenance.source_hash()
    # the checkout itself is pinned to its commit
    monkeypatch.setattr(provenance, "_roots", lambda: {"rnsim": project / "rnsim", "rnsim_strategies": site})
    assert provenance.provenance(["rnsim", "run"])["git"]["commit"]  # type: ignore[index]
