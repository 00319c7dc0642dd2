"""The example configs shipped with rnsim: `rnsim init DIR` writes a project
that runs as is from DIR (every relative path inside it resolves there, and
the balance gate's baselines match their configs), refuses a folder that is
not empty, and `rnsim run NAME` finds NAME.toml here first, then the example
config NAME."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import rnsim
from rnsim.cli import main
from rnsim.config import load_config
from rnsim.drift.baseline import load_baseline
from rnsim.errors import ConfigError
from rnsim.examples import WORKFLOW_PATH, builtin_names, configs_dir, resolve_config, write_project


def test_init_writes_a_project_that_runs_from_its_folder(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    written = write_project(proj)
    assert {"classic.toml", "fbi.toml", "variants/target-900k.toml", "ci/baseline.json",
            "ci/fbi-baseline.json"} <= {p.as_posix() for p in written}
    assert all((proj / p).is_file() for p in written)
    # the gate's baselines find their configs in the project and match them
    for name in ("baseline.json", "fbi-baseline.json"):
        b = load_baseline(proj / "ci" / name)
        config = b.config_path()
        assert config is not None and config.resolve().parent == (proj / "ci").resolve()
        cfg = load_config(config, out=tmp_path / "o")
        assert {v.name: v.digest for v in cfg.variants} == b.data["rules_hash"]
    # the project's own files are read, not rnsim's: a knob changed in its
    # classic.toml reaches the variant that extends it
    classic = proj / "classic.toml"
    classic.write_text(classic.read_text().replace("\nhand_limit = 5 ", "\nhand_limit = 6 ", 1))
    variant = load_config(proj / "variants" / "target-900k.toml", out=tmp_path / "o")
    assert variant.variants[0].rules.hand_limit == 6 and variant.variants[0].rules.money_target == 900_000
    workflow = (proj / WORKFLOW_PATH).read_text()
    assert f'pip install "rnsim=={rnsim.__version__}"' in workflow
    assert "rnsim check --baseline ci/baseline.json" in workflow and "ci/fbi-baseline.json" in workflow


def test_init_refuses_a_folder_that_is_not_empty_unless_forced(tmp_path: Path) -> None:
    proj = tmp_path / "proj"
    proj.mkdir()
    (proj / "classic.toml").write_text("# mine\n")
    r = CliRunner().invoke(main, ["init", str(proj)])
    assert r.exit_code == 2
    assert r.output.strip() == f"error: {proj}: not empty; rnsim init writes into a new or empty folder " \
                               "(--force replaces the files of the same names)"
    assert [p.name for p in proj.iterdir()] == ["classic.toml"] and (proj / "classic.toml").read_text() == "# mine\n"
    (proj / "notes.md").write_text("kept\n")
    r = CliRunner().invoke(main, ["init", str(proj), "--force"])
    assert r.exit_code == 0, r.output
    assert (proj / "classic.toml").read_text() == (configs_dir() / "classic.toml").read_text()
    assert (proj / "notes.md").read_text() == "kept\n"


def test_init_refuses_a_file(tmp_path: Path) -> None:
    f = tmp_path / "proj"
    f.write_text("x")
    r = CliRunner().invoke(main, ["init", str(f)])
    assert r.exit_code == 2 and "is a file" in r.output and f.read_text() == "x"


def test_a_bare_name_is_the_file_here_then_the_example_config(tmp_path: Path,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert builtin_names() == ["classic", "fbi", "large"]
    assert resolve_config(Path("classic")) == configs_dir() / "classic.toml"
    Path("classic.toml").write_text("[run]\ngames = 3\n")
    assert resolve_config(Path("classic")) == Path("classic.toml")  # the project's own file wins
    assert resolve_config(Path("fbi")) == configs_dir() / "fbi.toml"
    # a path, or a name with a suffix, is taken as given (its reader says it is missing)
    assert resolve_config(Path("sub/fbi")) == Path("sub/fbi")
    assert resolve_config(Path("fbi.toml")) == Path("fbi.toml")
    assert load_config("fbi", out=tmp_path / "o").game == "fbi"


def test_an_unknown_name_lists_the_example_configs_and_creates_nothing(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(ConfigError, match=r"^clasic: no such config file \(nor clasic.toml here\); "
                                          r"built-in configs: classic, fbi, large$"):
        resolve_config(Path("clasic"))
    r = CliRunner().invoke(main, ["run", "clasic", "--games", "2"])
    assert r.exit_code == 2 and "built-in configs: classic, fbi, large" in r.output
    assert list(tmp_path.iterdir()) == []
