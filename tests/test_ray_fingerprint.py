"""The Ray node check fingerprints strategy *source*, so a node running the
compiled build (mypyc) and one running the Python source agree."""

from __future__ import annotations

import os
import subprocess
import sys


def _hash_in_subprocess(pure: bool) -> str:
    env = dict(os.environ)
    env.pop("RNSIM_PURE", None)
    if pure:
        env["RNSIM_PURE"] = "1"
    code = "from rnsim.tournament.ray_backend import _strategy_source_hash as h; print(h('expert'), h('rule'))"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    return out.stdout.strip()


def test_strategy_fingerprint_is_the_same_for_compiled_and_source_builds() -> None:
    assert _hash_in_subprocess(pure=False) == _hash_in_subprocess(pure=True)


def test_source_file_of_a_compiled_module_is_its_python_source() -> None:
    import rnsim_strategies.red_notice.board
    import rnsim_strategies.red_notice.expert

    from rnsim.tournament.ray_backend import _source_file

    for mod in (rnsim_strategies.red_notice.expert, rnsim_strategies.red_notice.board):
        path = _source_file(mod)
        assert path.suffix == ".py" and path.is_file()
        assert path.stem == mod.__name__.rpartition(".")[2]
