"""`rnsim ladder --game fbi`: the strength ladder of a game of equal seats,
each level alone among another, rotated over every seat, and the start
player's advantage at each level."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rnsim.cli import main
from rnsim.cli.ladder_table import Lineup, run_table_ladder, table_holds
from rnsim.cli.seats import as_table
from rnsim.errors import ConfigError
from rnsim.games import get_game


def _table(setup: str | None = "3"):  # noqa: ANN202
    t = as_table(get_game("fbi"), setup, "ladder")
    assert t is not None
    return t


def test_fbi_is_a_table_of_equal_seats_at_one_player_count_and_red_notice_is_not() -> None:
    assert _table("5").seats == ("ann", "bert", "chris", "donna", "emil")
    assert _table(None).setup == 4  # the middle of FBI's counts
    assert as_table(get_game("red_notice"), None, "ladder") is None
    with pytest.raises(ConfigError, match="ladder: --setup: players"):
        _table("6")


def test_the_stronger_level_alone_wins_more_than_an_even_share_in_every_rotation() -> None:
    cells = run_table_ladder(_table("3"), ("random", "expert"), games=8, seed=2)
    up, down = cells[("expert", "random")], cells[("random", "expert")]
    assert up.games == down.games == 8 * 3  # every game of every rotation, one seat each
    assert up.rate > 2 / 3 and down.rate < 1 / 3
    assert cells[("expert", "expert")].games == 8  # every seat the same level: one cell
    assert table_holds(cells, ("random", "expert"), 3) == []
    # the same games in the other order of levels: the ladder fails both ways
    assert len(table_holds(cells, ("expert", "random"), 3)) == 2


def test_a_level_within_an_even_share_does_not_hold() -> None:
    even = Lineup("a", "b", 100, 33.0, 0.33, 0.25, 0.42)
    cells = {("a", "b"): even, ("b", "a"): Lineup("b", "a", 100, 34.0, 0.34, 0.26, 0.43)}
    bad = table_holds(cells, ("a", "b"), 3)
    assert bad == ["b alone among a players does not win more than an even share (34.0% [26.0, 43.0], even 33.3%)",
                   "a alone among b players does not win less than an even share (33.0% [25.0, 42.0], even 33.3%)"]


def test_the_command_prints_the_ladder_and_the_start_players_advantage(tmp_path: Path) -> None:
    out = tmp_path / "l.json"
    r = CliRunner().invoke(main, ["ladder", "--game", "fbi", "--setup", "3", "--levels", "random,rule",
                                  "--games", "6", "--seed", "4", "--workers", "1", "--json", str(out)])
    assert r.exit_code == 0, r.output
    assert "FBI, 3 players: one player of a level (row) alone among players of another" in r.output
    assert "The start player's advantage" in r.output
    assert "ladder ordering" in r.output
    data = json.loads(out.read_text())
    assert data["players"] == 3 and data["levels"] == ["random", "rule"]
    assert {(c["alone"], c["others"]) for c in data["cells"]} == {("random", "rule"), ("rule", "random")}
    assert [s["level"] for s in data["start_player"]] == ["random", "rule"]
    assert all(c["seat_games"] == 18 for c in data["cells"])


@pytest.mark.parametrize(("args", "message"), [
    (["--game", "fbi", "--setup", "6"], "error: ladder: --setup: players: FBI is played by 3, 4, 5 players"),
    (["--game", "red_notice", "--setup", "4"], "error: ladder: --setup '4': only for a game whose seats"),
    (["--game", "fbi", "--plot", "x.png"], "error: ladder: --plot: the skill curve is drawn for two seats"),
    (["--game", "fbi", "--levels", "rule,rule"], "error: ladder: --levels 'rule,rule': a level is listed twice"),
    (["--game", "fbi", "--levels", "rule"], "error: ladder: --levels needs at least two strategies"),
])
def test_a_bad_option_for_a_game_of_equal_seats_is_a_one_line_error(args: list[str], message: str) -> None:
    r = CliRunner().invoke(main, ["ladder", "--games", "2", "--workers", "1", *args])
    assert r.exit_code == 2, r.output
    assert r.output.strip().splitlines()[-1].startswith(message), r.output
