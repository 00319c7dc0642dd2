"""`rnsim play` and `rnsim replay`: one game, and its log as a narrative."""

from __future__ import annotations

import json
from pathlib import Path

import click

from rnsim.play import play_game
from rnsim.rules.ruleset import RuleSet


@click.command()
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed of the game.")
@click.option("--game-index", type=int, default=0, show_default=True, help="Game index under the seed.")
@click.option("--angela", default="random", show_default=True, help="Angela's strategy (name or module:Class).")
@click.option("--jessah", default="random", show_default=True, help="Jessah's strategy (name or module:Class).")
@click.option("--identities", default=None, help='Angela\'s identities, e.g. "journalist,pilot" (default: random).')
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the omniscient event log here (JSON lines).")
def play(seed: int, game_index: int, angela: str, jessah: str, identities: str | None, log_file: Path | None) -> None:
    """Play one game and print a summary."""
    idents = tuple(x.strip() for x in identities.split(",")) if identities else None
    r = play_game(RuleSet(), angela=angela, jessah=jessah, identities=idents, seed=seed,
                  game_index=game_index, log=log_file is not None)
    winner = r.winner or "nobody"
    click.echo(f"seed {seed} game {game_index}: {winner} wins ({r.end_reason}) after {r.rounds} rounds")
    click.echo(f"  identities: {', '.join(r.identities)}; burnt: {', '.join(r.identities_burnt) or 'none'}")
    click.echo(f"  Angela cashed ${r.angela_cashed:,}; Jessah cashed ${r.jessah_cashed:,}; captures: {r.captures}")
    ups = ", ".join(f"{u} (round {n})" for u, n in r.upgrades_gained.items()) or "none"
    click.echo(f"  upgrades gained by Jessah: {ups}")
    if log_file is not None:
        assert r.events is not None
        with log_file.open("w") as f:
            for ev in r.events:
                f.write(json.dumps(ev) + "\n")
        click.echo(f"  event log: {log_file} ({len(r.events)} events)")


@click.command()
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
def replay(log_file: Path) -> None:
    """Print a game's event log as a readable narrative."""
    from rnsim.engine.narrative import narrate

    events = [json.loads(line) for line in log_file.read_text().splitlines() if line.strip()]
    for line in narrate(events):
        click.echo(line)
