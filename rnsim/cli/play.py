"""`rnsim play` and `rnsim replay`: one game, and its log as a narrative."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import click

from rnsim.cli.seats import SeatOptions, alias_seats, default_game, game_label, given_seats, seat_title
from rnsim.errors import PositionError, RnsimError, read_utf8


def _default_game_options(game: Any, seat: str, i: int) -> list[click.Option]:
    """The default game's own options: a strategy per aliased seat, then (after
    the last seat) its setup named after its setup key (Red Notice: --identities)."""
    out = [click.Option([f"--{seat}"], default=None,
                        help=f"{game_label(game)}: {seat_title(seat)}'s strategy (name or module:Class; "
                             "default: random).")]
    if i == len(alias_seats(game)) - 1 and hasattr(game, "parse_setup"):
        out.append(click.Option([f"--{game.setup_key}"], default=None, help=getattr(game, "setup_option_help", None)))
    return out


@click.command(cls=SeatOptions, per_seat=_default_game_options, after="game_index")
@click.option("--game", "game_name", default=None,
              help="The game to play (a registered name, e.g. fbi; default: Red Notice).")
@click.option("--seat", "seat_refs", multiple=True, metavar="SEAT=STRATEGY",
              help="Another game's strategy per seat, e.g. --seat ann=expert (default: random).")
@click.option("--setup", "setup_value", default=None,
              help="Another game's setup (FBI: the player count, 3-5; default: the game's).")
@click.option("--seed", type=int, default=0, show_default=True, help="Master seed of the game.")
@click.option("--game-index", type=int, default=0, show_default=True, help="Game index under the seed.")
@click.option("--log", "log_file", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the omniscient event log here (JSON lines).")
@click.option("--save-position", "save_to", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Save the position at the first decision of round --at-round to this JSON file.")
@click.option("--at-round", type=click.IntRange(1), default=None, help="Round to save the position at.")
@click.option("--from", "from_file", type=click.Path(exists=True, dir_okay=False, path_type=Path), default=None,
              help="Play on from a saved position instead of a new game ('from here, who wins?').")
@click.option("--games", type=click.IntRange(1), default=1, show_default=True,
              help="With --from: how many games to play on from the position.")
@click.option("--keep-chance", is_flag=True,
              help="With --from: keep the position's chance stream (every game sees the same future draws).")
def play(game_name: str | None, seat_refs: tuple[str, ...], setup_value: str | None, seed: int, game_index: int,
         log_file: Path | None, save_to: Path | None, at_round: int | None, from_file: Path | None, games: int,
         keep_chance: bool, **game_options: str | None) -> None:
    """Play one game and print a summary; or play on from a saved position."""
    g = default_game()
    given = given_seats(g, game_options)
    setup_text = game_options.get(g.setup_key)
    if game_name not in (None, g.name) or seat_refs or setup_value is not None:
        if from_file is not None or save_to is not None or at_round is not None or setup_text is not None:
            raise click.UsageError(f"--from, --save-position, --at-round and --{g.setup_key} are "
                                   f"{game_label(g)}'s; with --game, --seat or --setup play one game")
        _play_any(game_name or g.name, seat_refs, setup_value, seed, game_index, log_file, given)
        return
    refs = {seat: given.get(seat) or "random" for seat in alias_seats(g)}
    _check_strategies(g.name, {f"--{seat}": ref for seat, ref in refs.items()})
    if from_file is not None:
        _play_from(g, from_file, refs, games, seed, keep_chance)
        return
    if (save_to is None) != (at_round is None):
        raise click.UsageError("--save-position and --at-round go together")
    setup = g.parse_setup(setup_text, f"--{g.setup_key}") if setup_text else None
    if log_file is not None:
        _check_writable("--log", log_file)
    if save_to is not None:
        _check_writable("--save-position", save_to)
    if save_to is not None:
        assert at_round is not None
        _save_at_round(g, save_to, at_round, refs, setup, seed, game_index)
        return
    _play_default(g, refs, setup, seed, game_index, log_file)


def _play_default(g: Any, refs: dict[str, str], setup: Any, seed: int, game_index: int, log_file: Path | None) -> None:
    """One game of the default game, its strategies given by its own options."""
    from rnsim.play import run_game, seat_strategies

    rules = g.rules()
    strategies = seat_strategies(g, g.seats(rules, setup), refs)
    r = run_game(g, rules, strategies, seed, game_index, setup=setup, log=log_file is not None)
    if log_file is not None:
        # Before any output: `rnsim play --log F | head -1` closes stdout early and must still get F.
        assert r.events is not None
        with log_file.open("w") as f:
            for ev in r.events:
                f.write(json.dumps(ev) + "\n")
    winner = r.winner or "nobody"
    click.echo(f"seed {seed} game {game_index}: {winner} wins ({r.end_reason}) after {r.rounds} rounds")
    for line in g.summary(r):
        click.echo(f"  {line}")
    if log_file is not None:
        assert r.events is not None
        click.echo(f"  event log: {log_file} ({len(r.events)} events)")


def setup_arg(text: str) -> object:
    """A ``--setup`` value as a config would hold it: a whole number (FBI's
    player count) or the text itself."""
    return int(text) if text.lstrip("-").isdigit() else text


def seat_args(game: Any, items: tuple[str, ...], seats: tuple[str, ...],
              refs: dict[str, str] | None = None) -> dict[str, str]:
    """``--seat SEAT=STRATEGY`` options as {seat: strategy}, on top of ``refs``
    (the default game's own options, e.g. ``--<seat>``, keyed by seat); a seat not among
    ``seats`` is refused, naming them."""
    out = dict(refs or {})
    foreign = [s for s in out if s not in seats]
    if foreign:
        raise RnsimError(f"--{foreign[0]}: {game.name} has no seat {foreign[0]!r}; give its seats' strategies with "
                         f"--seat SEAT=STRATEGY, seats: {', '.join(seats)}")
    for item in items:
        seat, eq, ref = item.partition("=")
        if not eq or not ref:
            raise RnsimError(f"--seat: expected SEAT=STRATEGY like {seats[0]}=random, got {item!r}")
        if seat not in seats:
            raise RnsimError(f"--seat: {game.name} has no seat {seat!r} in this game; seats: {', '.join(seats)}")
        out[seat] = ref
    return out


def _default_setup(g: Any, rules: Any) -> Any:
    """The setup a game plays when none is given, when the game names it among
    its setups (FBI: 4 players); None otherwise."""
    import random

    label = g.setup_label(rules, None, random.Random(0))
    return next((setup for lab, setup in g.setups(rules, None) if lab == label), None)


def _check_strategies(game: Any, refs: dict[str, str]) -> None:
    """Load each option's strategy for ``game`` before any game is played, so an
    unknown strategy or one of another game is named by its option."""
    from rnsim.strategy import load_strategy

    for option, ref in refs.items():
        try:
            load_strategy(ref, None, game)
        except RnsimError as e:
            raise RnsimError(f"{option}: {e}") from None


def _play_any(name: str, seat_refs: tuple[str, ...], setup_value: str | None, seed: int, game_index: int,
              log_file: Path | None, aliased: dict[str, str] | None = None) -> None:
    """One game of any registered game: strategies per seat, the game's own summary.
    ``aliased``: the default game's per-seat options as given (``--<seat>``),
    refused for another game (its seats are named with --seat)."""
    from rnsim.games import get_game
    from rnsim.play import run_game, seat_strategies

    try:
        g = get_game(name)
    except RnsimError as e:
        raise RnsimError(f"--game: {e}") from None
    rules = g.rules()
    setup = None
    if setup_value is not None:
        ((_, setup),) = g.setups(rules, setup_arg(setup_value), source="--setup")
    # the seats of the game played: without --setup, those of the game's own default
    # (FBI: 4 players), so a seat that would not play is refused, not ignored
    refs = seat_args(g, seat_refs, g.seats(rules, setup if setup is not None else _default_setup(g, rules)),
                     aliased)
    _check_strategies(g, {f"--seat {seat}": ref for seat, ref in refs.items()})
    if log_file is not None:
        _check_writable("--log", log_file)
    # run_game rather than play_game: the game's summary reads the Outcome, not a typed result
    strategies = seat_strategies(g, g.seats(rules, setup), refs)
    out = run_game(g, rules, strategies, seed, game_index, setup=setup, log=log_file is not None)
    if log_file is not None:
        with log_file.open("w") as f:
            for ev in out.events or []:
                f.write(json.dumps(ev) + "\n")
    click.echo(f"{g.name} seed {seed} game {game_index}: {out.winner or 'nobody'} wins ({out.end_reason})")
    for line in g.summary(out):
        click.echo(f"  {line}")
    if log_file is not None:
        click.echo(f"  event log: {log_file} ({len(out.events or [])} events)")


@click.command()
@click.argument("log_file", type=click.Path(exists=True, dir_okay=False, path_type=Path))
@click.option("--game", "game_name", default=None,
              help="The game that wrote the log (a registered name; default: the installed game whose "
                   "log it is).")
def replay(log_file: Path, game_name: str | None) -> None:
    """Print a game's event log as a readable narrative."""
    from rnsim.games import get_game

    events = _read_events(log_file)
    if game_name is not None:
        try:
            g = get_game(game_name)
        except RnsimError as e:
            raise RnsimError(f"--game: {e}") from None
        lines = _narrate_log(g, events, log_file)
    else:
        lines = _narrate_any(events, log_file)
    for line in lines:
        click.echo(line)


class _NotThisGame(RnsimError):
    """A log that one game cannot narrate; ``narrated`` = events it read first."""

    def __init__(self, message: str, narrated: int) -> None:
        super().__init__(message)
        self.narrated = narrated


def _read_events(log_file: Path) -> list[tuple[int, dict[str, Any]]]:
    """The log's events with their line numbers: one JSON object per line, each
    with a type ``t`` and a ``round`` or ``turn``, as `rnsim play --log` writes."""
    out: list[tuple[int, dict[str, Any]]] = []
    for n, text in enumerate(read_utf8(log_file).splitlines(), 1):
        if not text.strip():
            continue
        where = f"{log_file}: line {n}"
        try:
            ev = json.loads(text)
        except json.JSONDecodeError as e:
            raise RnsimError(f"{where}: not JSON ({e.msg}); an event log has one JSON event per line "
                             "(a cut-off last line means the log is truncated)") from None
        if not (isinstance(ev, dict) and isinstance(ev.get("t"), str)
                and any(isinstance(ev.get(k), int) for k in ("round", "turn"))):
            raise RnsimError(f'{where}: not a game event (expected an object with "t" and "round" or '
                             '"turn", as `rnsim play --log` writes)')
        out.append((n, ev))
    if not out:
        raise RnsimError(f"{log_file}: empty event log (no events)")
    return out


def _narrate_log(g: Any, events: list[tuple[int, dict[str, Any]]], log_file: Path) -> list[str]:
    """The narrative of a whole log by game ``g``; _NotThisGame when an event is
    not one of ``g``'s or the log stops before ``g``'s end event."""
    lines: list[str] = []
    for k, (n, ev) in enumerate(events):
        try:
            lines.extend(g.narrate([ev]))
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise _NotThisGame(f"{log_file}: line {n}: event {ev['t']!r} is malformed (missing or bad {e}) "
                               f"for a log of {g.name}", k) from None
    last = events[-1][1]
    end = str(getattr(g, "end_event", "game_end"))
    if last.get("t") != end:
        when = f"round {last['round']}" if "round" in last else f"turn {last.get('turn')}"
        raise _NotThisGame(f"{log_file}: truncated event log of {g.name}: it stops in {when} "
                           f"after {len(events)} events, before the game's end", len(events))
    return lines


def _narrate_any(events: list[tuple[int, dict[str, Any]]], log_file: Path) -> list[str]:
    """The narrative by the one installed game that reads the whole log; when
    none does, the error of the game that read furthest (its log, truncated or
    damaged)."""
    from rnsim.games import available_games, get_game

    fits: dict[str, list[str]] = {}
    failures: list[_NotThisGame] = []
    for name in available_games():
        try:
            fits[name] = _narrate_log(get_game(name), events, log_file)
        except _NotThisGame as e:
            failures.append(e)
        except RnsimError:  # a registered game that cannot be loaded here
            continue
    if len(fits) == 1:
        return next(iter(fits.values()))
    if fits:
        raise RnsimError(f"{log_file}: reads as an event log of {' and '.join(fits)}; say which with --game")
    if not failures:
        raise RnsimError(f"{log_file}: no installed game to read it with")
    raise max(failures, key=lambda e: e.narrated)


def _save_at_round(g: Any, path: Path, at_round: int, refs: dict[str, str], setup: Any,
                   seed: int, game_index: int) -> None:
    import random

    from rnsim.play import play_out, seat_strategies
    from rnsim.seeding import game_seeds

    rules = g.rules()
    strats = seat_strategies(g, g.seats(rules, setup), refs)
    seeds = game_seeds(seed, game_index, len(strats))
    chance = random.Random(seeds.chance)
    for i, (s, x) in enumerate(zip(strats, seeds.seats, strict=True)):
        s.new_game(i, random.Random(x))
    state = g.new_state(rules, chance, setup=setup, seed=seeds.chance)
    # the one game loop (and its error reporting), stopped at the round's first decision
    play_out(g, state, strats, stop=lambda st: st.round >= at_round)
    if state.over:
        raise click.UsageError(f"the game ended in round {state.round}, before round {at_round}")
    path.write_text(json.dumps(g.save_position(state), indent=1) + "\n")
    click.echo(f"position at round {state.round} ({state.decision().kind} decision) saved to {path}")


def _play_from(g: Any, path: Path, refs: dict[str, str], games: int, seed: int, keep_chance: bool) -> None:
    from rnsim.analysis.stats import wilson
    from rnsim.play import play_from

    try:
        position = json.loads(read_utf8(path, PositionError))
    except json.JSONDecodeError as e:
        raise PositionError(f"{path}: not valid JSON ({e})") from None
    if not isinstance(position, dict):
        raise PositionError(f"{path}: not a saved position (expected a JSON object, as --save-position writes)")
    g.load_position(position, source=str(path))  # a bad position is named by its file, before any game
    results = play_from(position, game=g, games=games, seed=seed, keep_chance=keep_chance, **refs)
    n = len(results)
    click.echo(f"{n} game(s) from {path} (round {position.get('round')}), "
               f"{'same' if keep_chance else 're-drawn'} chance, {' vs '.join(refs.values())}:")
    rows: list[tuple[str | None, str]] = [(seat, f"{seat_title(seat)} wins") for seat in refs]
    for who, label in (*rows, (None, "timeouts")):
        k = sum(1 for r in results if r.winner == who)
        lo, hi = wilson(k, n)
        click.echo(f"  {label:12s} {k:6d}  {k / n:6.1%}  95% CI [{lo:.1%}, {hi:.1%}]")
    click.echo(f"  mean final round {sum(r.rounds for r in results) / n:.1f}")


def _check_writable(flag: str, path: Path) -> None:
    """Refuse an output file that cannot be written before playing, not after the game."""
    parent = path.parent
    if not parent.is_dir():
        raise RnsimError(f"{flag}: {parent} is not a folder (create it first)")
    if not os.access(parent, os.W_OK):
        raise RnsimError(f"{flag}: cannot write in {parent} (permission denied)")
