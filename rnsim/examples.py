"""The example configs shipped with rnsim: run one by name (`rnsim run
classic`), or write them all as a ready project (`rnsim init DIR`).

They are the repository's configs/ folder: setup.py ships it inside the
package as rnsim/configs; in a checkout rnsim reads configs/ itself. A config
names others by paths relative to itself (``extends = "../classic.toml"``, a
baseline's ``config_file``), so the folder is used and copied whole.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from rnsim.errors import ConfigError

#: What `rnsim init` writes beside the configs: the balance gate on every pull
#: request, for GitHub Actions ({version} is rnsim's).
WORKFLOW_PATH = Path(".github") / "workflows" / "balance.yml"
WORKFLOW = """\
# The balance gate on every pull request (GitHub Actions), written by
# `rnsim init`: fails when a change to the rules, the components or the
# strategies moves a win rate pinned by a baseline in ci/. Paths are relative
# to the folder `rnsim init` wrote (the repository's root here; otherwise set
# `defaults.run.working-directory`).
#
# rnsim is pinned: another version may play other games, so upgrade it in its
# own pull request, with baselines made again (`rnsim baseline save
# ci/config.toml --out ci/baseline.json`, and the same for ci/fbi.toml).
name: balance
on: [pull_request]
jobs:
  balance:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - uses: actions/setup-python@v5
        with: {{ python-version: "3.11" }}
      - run: pip install "rnsim=={version}"
      - name: Red Notice balance gate
        run: rnsim check --baseline ci/baseline.json --output balance-report.md
      - name: FBI balance gate
        run: rnsim check --baseline ci/fbi-baseline.json --output fbi-balance-report.md
      - name: results block
        if: always()
        run: cat balance-report.md fbi-balance-report.md >> "$GITHUB_STEP_SUMMARY" || true
"""


def configs_dir() -> Path:
    """The folder of the example configs."""
    here = Path(__file__).resolve().parent
    installed = here / "configs"  # setup.py ships configs/ there
    return installed if installed.is_dir() else here.parent / "configs"


def builtin_names() -> list[str]:
    """The configs `rnsim run NAME` accepts: classic, fbi, large."""
    return sorted(p.stem for p in configs_dir().glob("*.toml"))


def resolve_config(path: Path) -> Path:
    """The config file a command names. In this order: the file as given; for
    a bare name (no folder, no suffix), NAME.toml in the current directory,
    then the example config NAME (so a project's own classic.toml wins over
    rnsim's). Anything else is returned as given (its reader reports it
    missing)."""
    if path.is_file() or path.suffix or len(path.parts) != 1:
        return path
    local = path.with_name(f"{path.name}.toml")
    if local.is_file():
        return local
    builtin = configs_dir() / f"{path.name}.toml"
    if builtin.is_file():
        return builtin
    raise ConfigError(f"{path}: no such config file (nor {local} here); built-in configs: "
                      f"{', '.join(builtin_names())}")


def example_files() -> list[Path]:
    """The example configs and baselines, relative to configs_dir()."""
    root = configs_dir()
    return sorted(p.relative_to(root) for p in root.rglob("*") if p.is_file() and p.suffix in (".toml", ".json"))


def write_project(folder: Path, *, force: bool = False) -> list[Path]:
    """Write the example configs, their CI baselines and a CI workflow into
    ``folder`` (created if missing), laid out as rnsim ships them so every
    relative path inside them resolves. Refuses a folder that is not empty
    unless ``force`` (then the files of the same names are replaced, others
    kept). Returns the files written, relative to ``folder``."""
    from rnsim import __version__

    if folder.exists() and not folder.is_dir():
        raise ConfigError(f"{folder}: is a file; rnsim init writes a project into a folder")
    if folder.is_dir() and any(folder.iterdir()) and not force:
        raise ConfigError(f"{folder}: not empty; rnsim init writes into a new or empty folder "
                          "(--force replaces the files of the same names)")
    root = configs_dir()
    written = example_files()
    for rel in written:
        (folder / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / rel, folder / rel)
    (folder / WORKFLOW_PATH).parent.mkdir(parents=True, exist_ok=True)
    (folder / WORKFLOW_PATH).write_text(WORKFLOW.format(version=__version__))
    return [*written, WORKFLOW_PATH]
