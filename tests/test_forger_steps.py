"""benchmarks/forger_steps.py, the diagnosis of where search's forger
overrules the expert forger's movement steps: its log records what a step
does, its table groups the decisions as players.md quotes them, and its
Python copy of the expert's plan plays the expert game for game (the
variants measured on it differ only in their danger table)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import forger_steps  # noqa: E402
from rnsim.games.red_notice.game import GAME  # noqa: E402
from rnsim.play import run_game  # noqa: E402
from rnsim.strategy import load_strategy  # noqa: E402


def _row(dj: int, e_dj: int, s_dj: int, e_dt: int, s_dt: int, expert: object, search: object,
         escape: bool = False) -> dict[str, object]:
    return {"dj": dj, "e_dj": e_dj, "s_dj": s_dj, "e_dt": e_dt, "s_dt": s_dt, "expert": expert, "search": search,
            "ids_up": 2, "exposure": [0.0, 0.0, 1.0, 0.0, 0.0], "info": {"escape": escape}}


def test_table_groups_by_where_the_expert_step_leaves_her(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A step into Jessah's city is "enter"; a stop in it is distance 0; an
    escape is left out with --no-escapes; search's step is counted nearer or
    farther from Jessah and from her cashes against the expert's."""
    rows = [
        _row(1, 0, 2, 1, 2, ["move", 5], ["move", 7]),   # enters Jessah's city; search goes farther
        _row(1, 0, 0, 1, 1, ["move", 5], ["move", 5]),   # enters, search agrees
        _row(0, 0, 0, 0, 0, "stop", "stop"),             # already in Jessah's city
        _row(2, 2, 1, 0, 1, "stop", ["move", 9]),        # search nearer Jessah, farther from her cashes
        _row(0, 1, 2, 0, 0, ["move", 3], ["move", 4], escape=True),
    ]
    f = tmp_path / "steps.jsonl"
    f.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    forger_steps.table(argparse.Namespace(file=str(f), ends=True, exposure=False, ids=False, no_escapes=True))
    lines = {ln.split()[0]: ln.split()[1:] for ln in capsys.readouterr().out.splitlines()[2:]}
    # columns: n e_stop over s_stop s_stay s_move s_remove_radar s_remove_barrier
    #          nearerJ fartherJ nearerT fartherT s_intoJ e_intoJ
    assert lines["enter"] == ["2", "0", "1", "0", "0", "1", "0", "0", "0", "1", "0", "1", "0", "1"]
    assert lines["0"] == ["1", "1", "0"] + ["0"] * 11
    assert lines["2"] == ["1", "1", "1", "0", "0", "1", "0", "0", "1", "0", "0", "1", "0", "0"]
    assert "1" not in lines  # the escape, left out


def test_log_records_where_each_step_leaves_her(tmp_path: Path) -> None:
    """Every logged step moves her at most one route: the city it leaves her
    in is at most one step nearer or farther from Jessah; where search keeps
    the expert's step, both leave her in the same city."""
    out = tmp_path / "steps.jsonl"
    forger_steps.log(argparse.Namespace(games=4, seed=5, jessah="expert", out=str(out)))
    rows = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    assert rows
    for r in rows:
        assert abs(r["e_dj"] - r["dj"]) <= 1 and abs(r["s_dj"] - r["dj"]) <= 1
        if r["search"] == r["expert"]:
            assert r["s_city"] == r["e_city"]
        if r["expert"] == "stop":
            assert r["e_city"] == r["here"]


def test_python_plan_copy_plays_the_expert() -> None:
    """``ProxSame`` (the Python copy of ``Expert._plan_scores`` with the
    expert's table) plays the expert forger game for game, so ``ProxFar``
    differs from the expert by its danger table only."""
    rules = GAME.rules()
    for g in range(12):
        a = run_game(GAME, rules, [load_strategy("expert", {}), load_strategy("expert", {})], 17, g, log=True)
        b = run_game(GAME, rules, [forger_steps.ProxSame(), load_strategy("expert", {})], 17, g, log=True)
        assert (a.winner, a.rounds, a.decisions) == (b.winner, b.rounds, b.decisions)
        assert a.events == b.events
