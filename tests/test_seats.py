"""The commands ask the game for its seats (rnsim/cli/seats.py): the default
game's per-seat options, and the seats and roles of a two-seat game."""

from __future__ import annotations

from click.testing import CliRunner

from rnsim.cli import main
from rnsim.cli.ladder import Cell
from rnsim.cli.seats import as_duel
from rnsim.games import get_game


def test_a_duel_is_two_seats_of_different_roles_the_watched_first() -> None:
    d = as_duel(get_game("red_notice"))
    assert d is not None and d.seats == ("angela", "jessah") and d.roles == ("forger", "agent")
    assert d.titles == ("Angela", "Jessah") and d.label == "Red Notice"
    assert as_duel(get_game("fbi")) is None  # seats that rotate, the watched one named game by game


def test_the_default_games_seats_have_options_of_their_own() -> None:
    for command, options in (("play", ["--angela", "--jessah", "--identities"]), ("bench", ["--angela", "--jessah"]),
                             ("exploit", ["--angela", "--jessah", "--angela-params", "--jessah-params"]),
                             ("ladder", ["--angela-levels", "--jessah-levels"])):
        text = CliRunner().invoke(main, [command, "--help"]).output
        assert [o for o in options if f"  {o} " in text] == options, command
        at = [text.index(f"  {o} ") for o in options]
        assert at == sorted(at), command  # kind by kind: every seat's strategy, then every seat's params


def test_a_ladder_cell_is_written_with_the_games_roles_and_seats() -> None:
    d = as_duel(get_game("red_notice"))
    assert d is not None
    cell = Cell("rule", "expert", games=10, wins={"angela": 3, "jessah": 6}, timeout=1)
    assert list(cell.record(d).items()) == [
        ("forger", "rule"), ("agent", "expert"), ("games", 10), ("angela", 3), ("jessah", 6), ("timeout", 1),
        ("error", 0), ("rounds", 0), ("seconds", 0.0)]
