"""The benchmark suite's own arithmetic and bookkeeping (benchmarks/): the
toy yardstick never changes, the profile puts a sample in its group, the
comparison refuses a checkout it cannot run (the median's interval is tested
with rnsim.analysis.stats). The suite itself runs in CI's short mode (`make bench MODE=short`)."""

from __future__ import annotations

import hashlib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import toy  # noqa: E402
from benchmarks.common import ROOT  # noqa: E402
from benchmarks.compare import CASES  # noqa: E402
from benchmarks.profile import classify, groups_for  # noqa: E402


def test_toy_yardstick_is_the_same_game_forever() -> None:
    """Every ratio to the toy in the suite's history assumes one toy game:
    its first 500 games (winner, turns) are pinned."""
    h = hashlib.sha256(repr([toy.play(i) for i in range(500)]).encode()).hexdigest()
    assert h == "274476113f6545bad28e3c0306b79d0e0e617cd781b2e98ad5bc891e40cd7c54"
    rounds = sum(toy.play(i)[1] for i in range(500)) / 500 / 2
    assert 35 < rounds < 45  # about as long as a random Red Notice game


def test_profile_groups_a_sample_by_its_most_specific_frame() -> None:
    game = ["<module> (x.py:1)", "run_game (rnsim/play.py:109)", "play_out (rnsim/play.py:132)",
            "CPyPy_expert___Expert___choose (__native__group.c:1)"]
    groups = groups_for("expert")
    core = [*game, "CPyDef_dossier___Dossier___observe (__native__group.c:2)", "py_announce (_dossier_core.c:896)"]
    assert classify(core, groups) == "dossier: C core"
    assert classify(game[:-1] + ["CPyDef_dossier___Dossier___observe (g.c:2)"], groups) == "dossier: Python (compiled)"
    assert classify([*game, "CPyDef_expert___Expert___on_angela_move (g.c:3)"], groups) == "expert: Angela's movement"
    assert classify(game[:3] + ["CPyDef_view___build_view (g.c:4)"], groups) == "engine: views"
    assert classify(["<module> (x.py:1)", "_find_and_load (<frozen importlib._bootstrap>:1176)"], groups) is None
    assert classify(["0x7f (libc.so.6)", "gc_collect_main (libpython3.11.so)"], groups) == "garbage collector"


def test_compare_refuses_a_checkout_without_its_virtualenv(tmp_path: Path) -> None:
    from benchmarks.compare import main

    with pytest.raises(SystemExit) as e:
        main(["--against", str(tmp_path)])
    assert "--against" in str(e.value) and "make install" in str(e.value)
    with pytest.raises(SystemExit) as e:
        main(["--against", str(ROOT), "--cases", "expert,chess"])
    assert "chess" in str(e.value)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_matchup_is_a_valid_one_cell_config(name: str) -> None:
    matchup = CASES[name][0]
    cfg = matchup.config(3)
    assert len(cfg.cells()) == 1
    assert len(cfg.game_obj.seats(cfg.variants[0].rules, cfg.cells()[0].setup)) == len(matchup.seats)


@pytest.mark.parametrize("case", ["expert", "fbi"])
def test_runner_cost_plays_its_games_in_either_mode(case: str) -> None:
    from benchmarks.runner_cost import main

    main([case, "loop", "2"])
    main([case, "run", "2"])
    with pytest.raises(KeyError):
        main(["chess", "run", "2"])


def test_runner_cost_rows_times_a_chunk_of_the_size_asked(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.runner_cost import main

    main(["fbi", "rows", "3"])
    assert "a chunk of 3 games" in capsys.readouterr().out
