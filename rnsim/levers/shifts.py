"""`rnsim levers`: every one-step change of the rules against the rules
themselves, paired game by game: each numeric knob a notch down and up, each
choice knob set to each other choice, and the game's own levers
(``Game.levers``), optionally with restricted play; played in stages until
every shift is as precise as asked."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from rnsim.analysis.stats import Z95
from rnsim.errors import ConfigError
from rnsim.levers.balance import Balance, balance_of
from rnsim.levers.knobs import fmt_value, refusal
from rnsim.levers.play import Echo, Played, drawn, play_changes
from rnsim.levers.source import BASE, Change, LeverConfig, lever_config

#: games per change of the first stage of a sequential `rnsim levers`
FIRST_STAGE_GAMES = 400


def lever_changes(game: Any, rules: Any, fixed_setups: bool) -> tuple[list[Change], list[str]]:
    """Every numeric knob a notch down and up, every choice knob set to each
    other choice, then the game's levers (restricted play apart). Returns the
    changes and, for the ones skipped (refused by the rules, or unpaired), why."""
    changes: list[Change] = []
    skipped: list[str] = []
    for k in game.knobs():
        cur = getattr(rules, k.name)
        if k.numeric:
            assert k.notch is not None
            values = [int(cur - k.notch), int(cur + k.notch)]
        elif k.choices is not None:
            values = [v for v in k.choices if v != cur or isinstance(v, bool) != isinstance(cur, bool)]
        else:
            continue  # a knob a single step cannot move (a list of ids, a table)
        for v in values:
            label = f"{k.name} {fmt_value(cur)} -> {fmt_value(v)}"
            if k.changes_setup and fixed_setups:
                skipped.append(f"{label}: deals other {game.setup_key} under each value, so its games pair with "
                               "the base games only when the setups are drawn game by game (--setups game)")
                continue
            why = refusal(game, rules, {k.name: v})
            if why is not None:
                skipped.append(f"{label}: {why}")
                continue
            changes.append(Change(f"{k.name}.{fmt_value(v).strip(chr(34)).replace(',', '')}", label, {k.name: v},
                                  "knob", k.name))
    for lever in getattr(game, "levers", lambda r: [])(rules):
        if lever.never is None:
            changes.append(Change(lever.name, lever.label, dict(lever.knobs), lever.kind, lever.subject))
    return changes, skipped


def restricted_changes(game: Any, rules: Any) -> list[Change]:
    """The game's restricted-play levers (``Lever.never``)."""
    return [Change(lv.name, lv.label, {}, lv.kind, lv.subject, lv.never, lv.decision)
            for lv in getattr(game, "levers", lambda r: [])(rules) if lv.never is not None]


def restricted_specs(cfg: Any, change: Change) -> dict[str, list[Any]]:
    """Every seat's strategy wrapped so that it never chooses ``change.never``
    while another option is offered (its label kept: the cells stay the config's)."""
    out: dict[str, list[Any]] = {}
    for seat, specs in cfg.strategies.items():
        if len(specs) != 1:
            raise ConfigError(f"{cfg.path}: strategies.{seat}: restricted play needs one strategy per seat, "
                              f"got {len(specs)}")
        s = specs[0]
        # a built-in's short name is the game's: hand the wrapper its full reference
        ref = getattr(cfg.game_obj, "strategies", {}).get(s.ref, s.ref)
        params: dict[str, Any] = {"inner": ref, "inner_params": dict(s.params), "never": change.never}
        if change.decision is not None:
            params["kind"] = change.decision
        out[seat] = [{"ref": "rnsim.levers.restricted:Restricted", "params": params, "label": s.label}]
    return out


def paired_shift(results: pl.DataFrame, reference: str, variant: str, keys: Sequence[str],
                 z: float = Z95) -> dict[str, Any]:
    """The paired shift of the balance outcome ``y`` from ``reference`` to
    ``variant`` over the games played (without error) under both, joined on
    the cell ``keys`` and the game index, with a 95% interval clustered on the
    game index.

    Game ``i`` of every cell sees the same chance stream, so with several
    cells (fixed setups, strategies) the cells' games ``i`` are correlated and
    are not independent pairs: a change that makes the games diverge moves
    them together. The interval treats each game index as one cluster (the
    sandwich variance of a ratio estimator, with the usual C/(C-1) factor);
    with one cell every game is its own cluster and it is the ordinary paired
    interval. A change that alters no game has ``D_i = 0`` everywhere and an
    interval of exactly zero width."""
    cols = [*keys, "game_index"]
    ref = results.filter((pl.col("variant") == reference) & pl.col("y").is_not_null()).select(
        *cols, pl.col("y").alias("y_ref"))
    var = results.filter((pl.col("variant") == variant) & pl.col("y").is_not_null()).select(
        *cols, pl.col("y").alias("y_var"))
    g = ref.join(var, on=cols, how="inner", nulls_equal=True)  # a seat absent from a setup has a null strategy
    n = g.height
    if n == 0:
        nan = float("nan")
        return {"games": 0, "rate_ref": nan, "rate_var": nan, "diff": nan, "paired_lo": nan, "paired_hi": nan,
                "discordant": 0, "clusters": 0}
    d = (g["y_var"] - g["y_ref"]).to_numpy().astype(np.float64)
    _, cl = np.unique(g["game_index"].to_numpy(), return_inverse=True)
    c = int(cl.max()) + 1
    tot = np.bincount(cl, weights=d, minlength=c)
    size = np.bincount(cl, minlength=c).astype(np.float64)
    mean = float(d.sum()) / n
    if c > 1 and np.any(d != 0):
        var_ = float(((tot - mean * size) ** 2).sum()) / n**2 * c / (c - 1)
        half = z * math.sqrt(var_)
    else:
        half = 0.0
    return {"games": n, "rate_ref": float(g["y_ref"].mean()), "rate_var": float(g["y_var"].mean()),  # type: ignore[arg-type]
            "diff": mean, "paired_lo": mean - half, "paired_hi": mean + half,
            "discordant": int(np.count_nonzero(d)), "clusters": c}


def shift_row(ch: Change, d: dict[str, Any]) -> dict[str, Any]:
    """One row of the levers table from a paired difference (base -> change)."""
    return {"change": ch.label, "variant": ch.name, "kind": ch.kind, "subject": ch.subject, "games": d["games"],
            "rate_base": d["rate_ref"], "rate_changed": d["rate_var"], "shift": d["diff"],
            "shift_lo": d["paired_lo"], "shift_hi": d["paired_hi"], "discordant": d["discordant"],
            "half_width": d["paired_hi"] - d["diff"]}


def stage_seed(seed: int, stage: int) -> int:
    """Stage 0 plays the config's own seed (a single-stage run is the plain
    tournament); every later stage its own stream, so stages are new games."""
    if stage == 0:
        return seed
    return int(np.random.SeedSequence([seed, stage]).generate_state(1, dtype=np.uint64)[0] >> 1)


def pairs_needed(d: dict[str, Any], precision: float, margin: float = 1.1) -> int:
    """Paired games a change needs for a half-width of ``precision``: the
    half-width falls like 1/sqrt(games) (its discordance rate held fixed)."""
    half = d["paired_hi"] - d["diff"]
    return math.ceil(d["games"] * (half / precision) ** 2 * margin)


@dataclass
class LeversResult:
    table: pl.DataFrame
    skipped: list[str]
    played: Played
    balance: Balance
    setups: list[str]  # the setup labels of the cells (pooled, each cell paired game by game)
    #: written beside the table as levers.json (what the report needs to know
    #: which cells these values belong to): the base rules' hash, the
    #: strategies per seat, the setups, games and seconds
    meta: dict[str, Any] = field(default_factory=dict)


@dataclass
class _Stages:
    """The games of every stage, pooled (stages are new games: each its own range of game indices)."""

    config: LeverConfig
    out: Path
    play: dict[str, Any]
    echo: Echo
    keep: list[str]
    played: Played
    frames: list[pl.DataFrame] = field(default_factory=list)

    def batch(self, changes: list[Change], cfg: Any, where: Path, n: int, seed: int, stage: int, base: bool) -> None:
        knobs = [c for c in changes if c.never is None]
        parts = []
        if base or knobs:
            p = play_changes(self.config, [BASE] * base + knobs, out=where, games=n, seed=seed, echo=self.echo,
                             **self.play)
            self._count(p)
            parts.append(p.results)
        for c in changes:
            if c.never is not None:
                rp = play_changes(self.config, [BASE], out=where / "restricted" / c.subject, games=n, seed=seed,
                                  echo=self.echo, strategies=restricted_specs(cfg, c), **self.play)
                self._count(rp)
                parts.append(rp.results.with_columns(pl.lit(c.name).alias("variant")))
        if stage == 0:
            self.played.results = parts[0]
            self.played.cfg = cfg
        self.frames.extend(x.select(self.keep).with_columns(pl.col("game_index").cast(pl.Int64) + stage * 2**32)
                           for x in parts)

    def _count(self, p: Played) -> None:
        self.played.games += p.games
        self.played.seconds += p.seconds

    def shifts(self, changes: Sequence[Change], keys: Sequence[str]) -> dict[str, dict[str, Any]]:
        both = pl.concat(self.frames)
        return {c.name: paired_shift(both, BASE.name, c.name, keys) for c in changes}


def run_levers(config: LeverConfig | Path, *, out: Path, restricted: bool = False, setups: str = "game",
               precision: float | None = None, max_games: int = 400_000, echo: Echo = print,
               **play: Any) -> LeversResult:
    """Every lever of ``config`` against its rules (``setups`` as for
    :func:`rnsim.levers.sweep.run_sweep`).

    With ``precision`` (a half-width, in rate units) the changes are played
    in stages until each one's paired 95% interval is that narrow: stage 0
    plays every change ``games`` games per cell (default
    :data:`FIRST_STAGE_GAMES` per change); each later stage plays, with its
    own seed, each change still too wide as many more games as the
    1/sqrt(games) law says it needs (and the base rules as many as the
    neediest). A stage that would take the total past ``max_games`` is not
    started, so a run stopped by the budget resumes with a larger one. A
    change's shift pools its paired games of every stage."""
    source = lever_config(config)
    value = source.setups(setups)
    if value is not None:
        play["setups"] = value
    cfg = source.with_changes([BASE], setups=value)
    game = cfg.game_obj
    rules = cfg.variants[0].rules
    changes, skipped = lever_changes(game, rules, not drawn(cfg))
    if restricted:
        extra = restricted_changes(game, rules)
        if not extra:
            raise ConfigError(f"--restricted: {game.name} declares no restricted play (no lever of its "
                              "Game.levers names an option never chosen)")
        changes += extra
    cells = 1 if drawn(cfg) else len(cfg.cells())
    seed = play.pop("seed", None)
    seed = cfg.seed if seed is None else seed
    games = play.pop("games", None)
    if games is None:
        games = cfg.games if precision is None else math.ceil(FIRST_STAGE_GAMES / cells)
    balance = balance_of(game, cfg.seats)
    keys = [game.setup_column, *(f"{seat}_strategy" for seat in cfg.seats)]
    stages = _Stages(source, out, play, echo, ["variant", *keys, "game_index", "y"],
                     Played(pl.DataFrame(), out, 0, 0.0))
    stages.batch(list(changes), cfg, out if precision is None else out / "stage-0", games, seed, 0, True)
    stats = stages.shifts(changes, keys)
    rounds = dict.fromkeys((c.name for c in changes), 1)
    stage = 0
    while precision is not None:
        pending = [c for c in changes if stats[c.name]["paired_hi"] - stats[c.name]["diff"] > precision]
        if not pending:
            break
        batches = _plan(pending, stats, precision, cells, games)
        cost = cells * (batches[0][0] + sum(n * len(b) for n, b in batches))
        if stages.played.games + cost > max_games:
            echo(f"levers: stopped: the next stage needs {cost:,} games, more than the "
                 f"{max_games - stages.played.games:,} left of --max-games; {len(pending)} change(s) are wider "
                 f"than +-{100 * precision:.1f} points")
            break
        stage += 1
        echo(f"levers: stage {stage}: {len(pending)} change(s) wider than +-{100 * precision:.1f} points, "
             + ", ".join(f"{len(b)} x {n:,}" for n, b in batches) + " more games per cell")
        sd = stage_seed(seed, stage)
        for j, (n, batch) in enumerate(batches):
            stages.batch(batch, cfg, out / (f"stage-{stage}" if j == 0 else f"stage-{stage}-{j}"), n, sd, stage, j == 0)
        for c in pending:
            rounds[c.name] += 1
        stats.update(stages.shifts(pending, keys))
    rows = [{**shift_row(c, stats[c.name]), "stages": rounds[c.name]} for c in changes]
    table = pl.DataFrame(rows).sort(pl.col("shift").abs(), descending=True)
    labels = sorted({c.setup_label for c in cfg.cells()})
    meta = levers_meta(cfg, stages.played, source.path, value if value is not None else cfg.setups, balance)
    return LeversResult(table, skipped, stages.played, balance, labels, meta)


def _plan(pending: list[Change], stats: dict[str, dict[str, Any]], precision: float, cells: int,
          games: int) -> list[tuple[int, list[Change]]]:
    """Each change gets the games the 1/sqrt(games) law says it lacks, at
    least half a first stage (a smaller batch costs its start-up for little).
    Changes of similar need (within a factor 1.5) share a tournament; every
    batch of a stage plays the stage's seed, so game i is the same deal in all
    of them and the base rules are played once, by the largest batch."""
    need = {c.name: max(math.ceil((pairs_needed(stats[c.name], precision) - stats[c.name]["games"]) / cells),
                        math.ceil(games / 2)) for c in pending}
    order = sorted(pending, key=lambda c: (-need[c.name], c.name))
    batches: list[tuple[int, list[Change]]] = []
    for c in order:
        if batches and need[c.name] * 1.5 >= batches[-1][0]:
            batches[-1][1].append(c)
        else:
            batches.append((need[c.name], [c]))
    return batches


def levers_meta(cfg: Any, played: Played, config: Path, setups: Any, balance: Balance) -> dict[str, Any]:
    base = played.results.filter(pl.col("variant") == BASE.name)
    out: dict[str, Any] = {"config": str(config), "rules_hash": cfg.variants[0].digest}
    for seat in cfg.seats:
        col = f"{seat}_strategy"
        out[col] = sorted(v for v in base[col].unique().to_list() if v is not None) if col in base.columns else []
    out[cfg.game_obj.setup_key] = setups if isinstance(setups, str) else "list"
    out.update({"balance": balance.title, "seed": cfg.seed, "games": played.games,
                "seconds": round(played.seconds, 1)})
    return out


def check_for_run(config: LeverConfig | Path, run_dir: Path) -> None:
    """Refuse ``--for-run RUN`` when no variant of RUN plays CONFIG's rules:
    the report would find values measured on other rules."""
    import json

    try:
        man = json.loads((run_dir / "manifest.json").read_text())
    except (OSError, ValueError):
        raise ConfigError(f"--for-run: {run_dir} is not a run directory (no readable manifest.json)") from None
    source = lever_config(config)
    digest = source.base().variants[0].digest
    hashes = man.get("rules_hash") or {}
    if digest not in hashes.values():
        raise ConfigError(f"--for-run: {run_dir} plays no variant with {source.path}'s rules (rules hash {digest}; the "
                          f"run's: {', '.join(f'{k} {v}' for k, v in hashes.items()) or 'none'})")
