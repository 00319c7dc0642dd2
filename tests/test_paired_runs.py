"""scripts/paired_runs.py pairs the same games of two run directories: each
identity pair's games with the same pair's, never across pairs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from rnsim.cli import main

ROOT = Path(__file__).resolve().parents[1]
CONFIG = """
[run]
seed = 3
games = 40
backend = "serial"
identities = [["journalist", "pilot"], ["lawyer", "doctor"]]
[strategies]
angela = "rule"
jessah = "rule"
"""


def test_paired_runs_pairs_each_identity_pair_with_itself(tmp_path: Path) -> None:
    (tmp_path / "c.toml").write_text(CONFIG)
    res = CliRunner().invoke(main, ["run", str(tmp_path / "c.toml"), "--out", str(tmp_path / "a"), "--no-report",
                                    "--no-progress"])
    assert res.exit_code == 0, res.output
    shutil.copytree(tmp_path / "a", tmp_path / "b")
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "paired_runs.py"), str(tmp_path / "a"),
                          str(tmp_path / "b")], capture_output=True, text=True, check=True).stdout
    rows = [line for line in out.splitlines() if "n=" in line]
    assert [r.split()[0] for r in rows] == ["journalist+pilot", "lawyer+doctor", "all"]
    assert all("changed 0" in r and "diff  +0.00 [ +0.00,  +0.00]" in r for r in rows)
    assert "n=    80" in rows[-1] and all("n=    40" in r for r in rows[:2])
