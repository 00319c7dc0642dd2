"""Playing on from a saved position: `rnsim play --save-position/--from` and
rnsim.play.play_from ("from here, who wins?")."""

from __future__ import annotations

import json

from click.testing import CliRunner

from rnsim.cli import main
from rnsim.games.red_notice.engine.position import save_position
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.rules import RuleSet
from rnsim.play import play_from
from rnsim.seeding import game_rngs


def _position_at_round(r: int, seed: int = 11) -> dict:
    chance, (ra, _), cs = game_rngs(seed, 0)
    state = GameState.new(RuleSet(), chance, seed=cs)
    while state.round < r:
        d = state.decision()
        state.apply(d.options[int(ra.random() * len(d.options))])
    assert not state.over
    return save_position(state)


def test_play_from_is_deterministic_given_the_seed() -> None:
    pos = _position_at_round(5)
    a = play_from(pos, games=20, seed=3)
    b = play_from(pos, games=20, seed=3)
    assert [(r.winner, r.rounds, r.angela_cashed) for r in a] == [(r.winner, r.rounds, r.angela_cashed) for r in b]


def test_play_from_starts_where_the_position_is() -> None:
    pos = _position_at_round(6)
    before = pos["by_round"]["angela_cash"]
    assert len(before) == 5  # rounds 1-5 are history at the start of round 6
    for r in play_from(pos, games=10, seed=1):
        assert r.rounds >= 6
        assert r.angela_cash_by_round[:5] == before


def test_redrawn_chance_gives_different_futures_and_kept_chance_the_same_draws() -> None:
    pos = _position_at_round(4)
    redrawn = play_from(pos, games=30, seed=9)
    assert len({(r.winner, r.rounds, r.angela_cashed, r.captures) for r in redrawn}) > 1
    # With the chance stream kept and the same strategy seed, games are identical.
    kept_a = play_from(pos, games=1, seed=9, keep_chance=True)[0]
    kept_b = play_from(pos, games=1, seed=9, keep_chance=True)[0]
    assert kept_a == kept_b


def test_cli_saves_a_position_and_plays_on_from_it(tmp_path) -> None:  # type: ignore[no-untyped-def]
    runner = CliRunner()
    pos = tmp_path / "pos.json"
    res = runner.invoke(main, ["play", "--seed", "4", "--save-position", str(pos), "--at-round", "3"])
    assert res.exit_code == 0, res.output
    assert json.loads(pos.read_text())["round"] == 3
    res = runner.invoke(main, ["play", "--from", str(pos), "--games", "40", "--seed", "2"])
    assert res.exit_code == 0, res.output
    assert "40 game(s)" in res.output and "Angela wins" in res.output and "95% CI" in res.output
    counts = [int(line.split()[2]) for line in res.output.splitlines() if line.strip().startswith(("Angela", "Jessah"))]
    counts.append(int(next(line.split()[1] for line in res.output.splitlines() if line.strip().startswith("timeouts"))))
    assert sum(counts) == 40


def test_cli_save_position_needs_at_round(tmp_path) -> None:  # type: ignore[no-untyped-def]
    res = CliRunner().invoke(main, ["play", "--save-position", str(tmp_path / "p.json")])
    assert res.exit_code == 2
    assert "--at-round" in res.output
