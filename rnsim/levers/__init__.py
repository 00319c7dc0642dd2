"""Design levers on real games: sweeps, the adaptive crossing search and the
tornado of one-notch changes (statistics in docs/levers.md).

Every command here plays its rule variants through the ordinary tournament
(:func:`rnsim.tournament.run.run_tournament`) by adding ``[[variants]]`` to the
user's config, so game ``i`` of every variant sees the same chance stream
(common random numbers) and the results are ordinary run directories that
``rnsim report`` can read. A command run again with the same arguments resumes
(or reuses) its run directory.
"""

from __future__ import annotations

import copy
import math
import time
import tomllib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl

from rnsim.analysis.crossing import Crossing, crossing
from rnsim.analysis.paired import ALL, paired_differences
from rnsim.analysis.stats import Z95, wilson
from rnsim.analysis.tuning import TuneResult, tune
from rnsim.errors import ConfigError, RnsimError
from rnsim.games.red_notice.rules.ruleset import KNOBS, NUMERIC_KNOBS, RuleSet

#: a game of a Red Notice lever run: its cell and index
GAME_KEYS = ["identity_pair", "angela_strategy", "jessah_strategy", "game_index"]

SEAT = "angela"  # the forger: every rate here is her win rate

Echo = Callable[[str], None]


@dataclass(frozen=True)
class Change:
    """One rule variant: ``knobs`` on top of the config's ``[rules]``."""

    name: str  # the variant name in the run
    label: str  # what a designer reads, e.g. "money_target 1,000,000 -> 900,000"
    knobs: dict[str, Any]
    kind: str = "knob"  # "knob", "upgrade", "identity" or "base"
    subject: str = ""  # the knob, upgrade or identity changed (what the report matches on)


BASE = Change("base", "base rules", {}, "base")


@dataclass
class Played:
    results: pl.DataFrame
    run_dir: Path
    games: int  # games in the run directory (all variants)
    seconds: float  # time spent playing in this call
    variants: list[str] = field(default_factory=list)


def fmt_value(v: Any) -> str:
    if isinstance(v, bool) or not isinstance(v, int | float):
        return str(v)
    return f"{int(v):,}" if float(v).is_integer() else f"{v:,.4g}"


def read_config(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            raw = tomllib.load(fh)
    except FileNotFoundError:
        raise ConfigError(f"{path}: no such config file") from None
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{path}: not valid TOML: {e}") from None
    if raw.get("variants"):
        raise ConfigError(f"{path}: variants: the levers commands vary the rules themselves; "
                          "give them a config with one rule set (no [[variants]])")
    return raw


# The run config's shape is changing under the game boundary (seat-keyed
# strategies, the game's setup key): these two read either shape.
def seat_specs(cfg: Any, seat: str) -> list[Any]:
    specs = getattr(cfg, "strategies", None)
    return list(specs[seat]) if isinstance(specs, dict) else list(getattr(cfg, seat))


def setups_value(cfg: Any) -> Any:
    return cfg.identities if hasattr(cfg, "identities") else getattr(cfg, "setups", None)


def base_rules(path: Path) -> RuleSet:
    from rnsim.config import load_config

    read_config(path)
    return load_config(path).variants[0].rules


def check_knob(name: str, source: str = "--knob") -> None:
    if name not in KNOBS:
        import difflib

        close = difflib.get_close_matches(name, list(KNOBS), n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        raise ConfigError(f"{source}: unknown knob {name!r}{hint}; numeric knobs: {', '.join(NUMERIC_KNOBS)}")
    if name not in NUMERIC_KNOBS:
        raise ConfigError(f"{source}: {name!r} is not a numeric knob; numeric knobs: {', '.join(NUMERIC_KNOBS)}")


def parse_values(text: str, knob: str, source: str = "--values") -> list[int]:
    """``"800000,900000,1000000"`` or ``"start:stop:step"`` (stop included)."""
    check_knob(knob)
    k = KNOBS[knob]
    try:
        if ":" in text:
            parts = [int(p.replace("_", "")) for p in text.split(":")]
            if len(parts) != 3 or parts[2] == 0:
                raise ValueError
            start, stop, step = parts
            vals = list(range(start, stop + (1 if step > 0 else -1), step))
        else:
            vals = [int(p.replace("_", "").strip()) for p in text.split(",") if p.strip()]
    except ValueError:
        raise ConfigError(f'{source}: must be whole numbers "a,b,c" or "start:stop:step", got {text!r}') from None
    if len(vals) < 2:
        raise ConfigError(f"{source}: a sweep needs at least two values, got {vals}")
    if len(set(vals)) != len(vals):
        raise ConfigError(f"{source}: a value is listed twice: {vals}")
    assert k.lo is not None and k.hi is not None
    bad = [v for v in vals if not k.lo <= v <= k.hi]
    if bad:
        raise ConfigError(f"{source}: {knob} must be {k.lo}..{k.hi}, got {bad[0]}")
    return sorted(vals)


def play_changes(
    config: Path,
    changes: Sequence[Change],
    *,
    out: Path,
    games: int | None = None,
    seed: int | None = None,
    workers: str | int | None = None,
    backend: str | None = None,
    progress: bool = False,
    echo: Echo = print,
    angela: list[Any] | None = None,
    jessah: list[Any] | None = None,
    identities: Any = None,
) -> Played:
    """Play every change (and nothing else) as variants of ``config`` into
    ``out`` (``angela``/``jessah`` replace the config's strategies,
    ``identities`` its ``[run] identities``)."""
    from rnsim.config import config_from_mapping
    from rnsim.tournament.run import run_tournament
    from rnsim.tournament.shards import load_results

    raw = copy.deepcopy(read_config(config))
    raw.pop("sweep", None)  # rnsim sweep's own table; the tournament does not know it
    raw["variants"] = [{"name": c.name, **c.knobs} for c in changes]
    if angela is not None:
        raw.setdefault("strategies", {})["angela"] = angela
    if jessah is not None:
        raw.setdefault("strategies", {})["jessah"] = jessah
    if identities is not None:
        raw.setdefault("run", {})["identities"] = identities
    cfg = config_from_mapping(raw, src=str(config), base_dir=config.parent, path=config, games=games, seed=seed,
                              workers=workers, out=out, backend=backend)
    t0 = time.perf_counter()
    summary = run_tournament(cfg, progress=progress, echo=echo)
    seconds = time.perf_counter() - t0
    if not summary.complete:
        raise RnsimError(f"{out}: interrupted; run the same command again to resume")
    results = load_results(out, lazy=False)
    assert isinstance(results, pl.DataFrame)
    if setups_value(cfg) == "random":
        # one cell of drawn identities: game i is paired with game i whatever it
        # was dealt (a change of identities_per_game deals different pairs)
        results = results.with_columns(pl.col("identity_pair").alias("dealt_pair"),
                                       pl.lit("random").alias("identity_pair"))
    return Played(results, out, cfg.total_games, seconds, [c.name for c in changes])


# --------------------------------------------------------------------------- rates


def rates(results: pl.DataFrame, by: Sequence[str] = ("variant",), seat: str = SEAT) -> pl.DataFrame:
    """Games (without error), wins and the win rate of ``seat`` with its Wilson interval."""
    df = (
        results.filter(pl.col("end_reason") != "error")
        .group_by(list(by))
        .agg(pl.len().alias("games"), (pl.col("winner") == seat).fill_null(False).sum().alias("wins"))
        .sort(list(by))
    )
    lo, hi = wilson(df["wins"].to_numpy(), df["games"].to_numpy())
    return df.with_columns(
        (pl.col("wins") / pl.col("games")).alias("rate"), pl.Series("rate_lo", lo), pl.Series("rate_hi", hi)
    )


def paired_wins(results: pl.DataFrame, variants: Sequence[str], seat: str = SEAT) -> np.ndarray:
    """Games x variants 0/1 matrix of ``seat``'s wins, over the games played
    without error under every variant (the same game keys)."""
    df = results.filter(pl.col("variant").is_in(list(variants)))
    bad = df.filter(pl.col("end_reason") == "error").select(GAME_KEYS).unique()
    df = df.join(bad, on=GAME_KEYS, how="anti")
    wide = (
        df.select(*GAME_KEYS, "variant", (pl.col("winner") == seat).fill_null(False).cast(pl.Int8).alias("y"))
        .pivot(on="variant", index=GAME_KEYS, values="y")
        .drop_nulls()
    )
    return wide.select(list(variants)).to_numpy().astype(np.float64)


def paired_crossing(results: pl.DataFrame, variants: Sequence[str], values: Sequence[float],
                    target: float = 0.5) -> Crossing:
    y = paired_wins(results, variants)
    if y.shape[0] < 2:
        raise RnsimError("too few games played without error under every value to place the crossing")
    n = np.full(len(values), y.shape[0], dtype=np.float64)
    return crossing(values, y.sum(axis=0), n, target, co_wins=y.T @ y)


def neighbour_differences(results: pl.DataFrame, names: Sequence[str], z: float = Z95) -> list[dict[str, Any]]:
    """Paired difference of each value to the previous one (overall row)."""
    out: list[dict[str, Any]] = [{}]
    for prev, cur in zip(names, names[1:], strict=False):
        d = paired_differences(results, prev, cur, SEAT, z).filter(pl.col("identity_pair") == ALL).row(0, named=True)
        out.append({"diff_prev": d["diff"], "diff_prev_lo": d["paired_lo"], "diff_prev_hi": d["paired_hi"],
                    "discordant_prev": d["discordant"]})
    return out


def write_table(df: pl.DataFrame, folder: Path, name: str) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    csv, pq = folder / f"{name}.csv", folder / f"{name}.parquet"
    df.write_csv(csv)
    df.write_parquet(pq)
    return [csv, pq]


# --------------------------------------------------------------------------- sweep


@dataclass
class SweepResult:
    knobs: list[str]
    table: pl.DataFrame  # one row per point
    crossing: Crossing | None  # one knob only
    played: Played
    per_pair: pl.DataFrame | None = None


def sweep_changes(knobs: Sequence[str], grids: Sequence[Sequence[int]]) -> list[tuple[Change, tuple[int, ...]]]:
    import itertools

    out = []
    for combo in itertools.product(*grids):
        name = "+".join(f"{k}.{v}" for k, v in zip(knobs, combo, strict=True))
        label = ", ".join(f"{k} {fmt_value(v)}" for k, v in zip(knobs, combo, strict=True))
        out.append((Change(name, label, dict(zip(knobs, combo, strict=True))), tuple(combo)))
    return out


def run_sweep(config: Path, knobs: Sequence[str], grids: Sequence[Sequence[int]], *, out: Path,
              target: float = 0.5, per_pair: bool = False, identities: Any = "random", echo: Echo = print,
              **play: Any) -> SweepResult:
    """Play every point of the grid on the same game indices. ``identities``
    replaces the config's ``[run] identities`` (default "random": with "all",
    the identity cells' games ``i`` are one deal, and the crossing's
    game-clustered interval would treat them as independent games; None keeps
    the config's)."""
    if not 1 <= len(knobs) <= 2:
        raise ConfigError(f"--knob: a sweep varies one or two knobs, got {len(knobs)}")
    if len(set(knobs)) != len(knobs):
        raise ConfigError("--knob: the same knob is given twice")
    rules = base_rules(config)
    if identities is not None:
        play["identities"] = identities
    points = sweep_changes(knobs, grids)
    for ch, _ in points:
        try:
            rules.replace(**ch.knobs)
        except RnsimError as e:
            raise ConfigError(f"--values: {ch.label}: {e}") from None
    played = play_changes(config, [c for c, _ in points], out=out, echo=echo, **play)
    names = [c.name for c, _ in points]
    r = rates(played.results).join(pl.DataFrame({"variant": names, "order": range(len(names))}), on="variant")
    r = r.sort("order")
    cols: dict[str, list[Any]] = {k: [v[i] for _, v in points] for i, k in enumerate(knobs)}
    table = pl.concat([pl.DataFrame(cols), r.drop("order")], how="horizontal")
    cross = None
    if len(knobs) == 1:
        diffs = neighbour_differences(played.results, names)
        table = pl.concat([table, pl.DataFrame(diffs, schema={"diff_prev": pl.Float64, "diff_prev_lo": pl.Float64,
                                                              "diff_prev_hi": pl.Float64,
                                                              "discordant_prev": pl.Int64})],
                          how="horizontal")
        cross = paired_crossing(played.results, names, [float(v[0]) for _, v in points], target)
    pp = None
    if per_pair:
        res = played.results
        if "dealt_pair" in res.columns:
            res = res.with_columns(pl.col("dealt_pair").alias("identity_pair"))
        pp = rates(res, by=("identity_pair", "variant")).join(
            pl.DataFrame({"variant": names, **{k: cols[k] for k in knobs}}), on="variant")
    return SweepResult(list(knobs), table, cross, played, pp)


# --------------------------------------------------------------------------- tune


def run_tune(config: Path, knob: str, lo: int, hi: int, *, out: Path, target: float, tolerance: float,
             batch: int = 400, step: int | None = None, max_games: int = 200_000, seed: int | None = None,
             identities: Any = "random", echo: Echo = print, **play: Any) -> tuple[TuneResult, float]:
    """The adaptive search on real games: every batch is a tournament of one
    variant with its own master seed (derived from the config's seed and the
    batch number), so batches are independent games. ``identities`` as for
    :func:`run_sweep` (with "all" a batch's games are not independent, which
    the binomial fit assumes)."""
    check_knob(knob)
    if identities is not None:
        play["identities"] = identities
    k = KNOBS[knob]
    assert k.notch is not None and k.lo is not None and k.hi is not None
    notch = step if step is not None else k.notch
    if notch < 1:
        raise ConfigError(f"--step: must be a positive whole number, got {notch}")
    if not (k.lo <= lo < hi <= k.hi):
        raise ConfigError(f"--range: {knob} must satisfy {k.lo} <= lo < hi <= {k.hi}, got {lo}:{hi}")
    rules = base_rules(config)
    from rnsim.config import load_config

    master = seed if seed is not None else load_config(config).seed
    counter = [0]
    t0 = time.perf_counter()

    def play_batch(value: float, first_game: int, games: int) -> tuple[int, int]:
        v = int(round(value))
        try:
            rules.replace(**{knob: v})
        except RnsimError as e:
            raise ConfigError(f"--range: {knob} = {v}: {e}") from None
        b = counter[0]
        counter[0] += 1
        bseed = int(np.random.SeedSequence([master, b]).generate_state(1, dtype=np.uint64)[0] >> 1)
        ch = Change(f"{knob}.{v}", f"{knob} {fmt_value(v)}", {knob: v})
        n_cells = 1 if identities == "random" else max(1, _cells(config))
        per_cell = max(1, math.ceil(games / n_cells))
        p = play_changes(config, [ch], out=out / f"batch-{b:03d}", games=per_cell, seed=bseed, echo=echo, **play)
        r = rates(p.results).row(0, named=True)
        echo(f"  batch {b}: {knob} = {fmt_value(v)}: {r['wins']:,} / {r['games']:,} forger wins "
             f"({100 * r['rate']:.1f}%)")
        return int(r["wins"]), int(r["games"])

    res = tune(play_batch, lo, hi, target=target, tolerance=tolerance, batch=batch, integer=True, notch=notch,
               max_games=max_games)
    return res, time.perf_counter() - t0


def _cells(config: Path) -> int:
    from rnsim.config import load_config

    cfg = load_config(config)
    return len(cfg.cells())


# --------------------------------------------------------------------------- levers


def lever_changes(rules: RuleSet, identities: Any = "random") -> tuple[list[Change], list[str]]:
    """Every numeric knob one notch down and up, the choice knob flipped, every
    upgrade removed from the deck, every identity played as the plain identity.
    Returns the changes and the ones skipped (invalid under these rules) with why."""
    changes: list[Change] = []
    skipped: list[str] = []
    for name in NUMERIC_KNOBS:
        k = KNOBS[name]
        assert k.notch is not None
        cur = getattr(rules, name)
        for v in (cur - k.notch, cur + k.notch):
            label = f"{name} {fmt_value(cur)} -> {fmt_value(v)}"
            if name == "identities_per_game" and identities != "random":
                skipped.append(f"{label}: changes the identity pairs themselves, so games cannot be paired by pair; "
                               'use [run] identities = "random"')
                continue
            try:
                rules.replace(**{name: v})
            except RnsimError as e:
                skipped.append(f"{label}: {str(e).split(': ', 1)[-1]}")
                continue
            changes.append(Change(f"{name}.{v}", label, {name: v}, "knob", name))
    other = "jessah" if rules.initiative_first == "angela" else "angela"
    changes.append(Change(f"initiative_first.{other}", f"initiative_first {rules.initiative_first} -> {other}",
                          {"initiative_first": other}, "knob", "initiative_first"))
    comps = rules.load_components()
    for u in comps.upgrade_ids:
        excluded = [*rules.upgrades_excluded, u]
        copies = {k: v for k, v in rules.upgrade_copies if k != u}
        knobs: dict[str, Any] = {"upgrades_excluded": excluded}
        if copies or rules.upgrade_copies:
            knobs["upgrade_copies"] = copies
        changes.append(Change(f"no.{u}", f"upgrade {u} removed from the deck", knobs, "upgrade", u))
    for ident in comps.identities:
        if ident.id in rules.identities_plain:
            continue
        changes.append(Change(f"plain.{ident.id}", f"identity {ident.id} -> plain identity",
                              {"identities_plain": [*rules.identities_plain, ident.id]}, "identity", ident.id))
    return changes, skipped


@dataclass
class LeversResult:
    table: pl.DataFrame
    skipped: list[str]
    played: Played
    #: what the report needs to know which cells these values belong to
    #: (written beside the table as levers.json): the base rules' hash, the
    #: strategies, the identities setting, games and seconds
    meta: dict[str, Any] = field(default_factory=dict)


def paired_shift(results: pl.DataFrame, reference: str, variant: str, seat: str = SEAT,
                 z: float = Z95) -> dict[str, Any]:
    """The paired shift of ``seat``'s win rate from ``reference`` to
    ``variant`` over the games played (without error) under both, with a 95%
    interval clustered on the game index.

    Game ``i`` of every identity cell sees the same chance stream (the same
    deal but for the identities), so with ``identities = "all"`` the cells'
    games ``i`` are correlated and the games are not independent pairs: a
    change that makes the games diverge moves them together. The interval
    treats each game index as one cluster (the sandwich variance of a ratio
    estimator, with the usual C/(C-1) factor); with random identities every
    game is its own cluster and it is the ordinary paired interval. A change
    that alters no game has ``D_i = 0`` everywhere and an interval of exactly
    zero width."""
    from rnsim.analysis.paired import paired_games

    g = paired_games(results, reference, variant, seat).collect()
    n = g.height
    if n == 0:
        nan = float("nan")
        return {"games": 0, "rate_ref": nan, "rate_var": nan, "diff": nan, "paired_lo": nan, "paired_hi": nan,
                "discordant": 0, "clusters": 0}
    d = (g["y_var"] - g["y_ref"]).to_numpy().astype(np.int64)
    _, cl = np.unique(g["game_index"].to_numpy(), return_inverse=True)
    c = int(cl.max()) + 1
    tot = np.bincount(cl, weights=d, minlength=c)
    size = np.bincount(cl, minlength=c).astype(np.float64)
    mean = float(d.sum()) / n
    if c > 1 and np.any(d != 0):
        var = float(((tot - mean * size) ** 2).sum()) / n**2 * c / (c - 1)
        half = z * math.sqrt(var)
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


def _restricted_specs(config: Path) -> tuple[dict[str, list[Any]], list[str]]:
    """The config's strategies (one per seat) and, per upgrade, both seats
    wrapped so that neither chooses it while another upgrade is offered (the
    casher chooses Jessah's upgrade: Angela when she cashes the $200k check)."""
    from rnsim.config import load_config

    cfg = load_config(config)
    base: dict[str, Any] = {}
    for seat in ("angela", "jessah"):
        specs = seat_specs(cfg, seat)
        if len(specs) != 1:
            raise ConfigError(f"{config}: strategies.{seat}: restricted play needs one strategy per seat, "
                              f"got {len(specs)}")
        base[seat] = specs[0]
    ups = list(cfg.variants[0].rules.load_components().upgrade_ids)
    out: dict[str, list[Any]] = {}
    for u in ups:
        out[u] = [
            [{"ref": "rnsim.levers.restricted:Restricted",
              "params": {"inner": base[seat].ref, "inner_params": dict(base[seat].params), "never": u},
              "label": base[seat].label}]
            for seat in ("angela", "jessah")
        ]
    return out, ups


def restricted_shift(base_results: pl.DataFrame, restricted_results: pl.DataFrame, name: str) -> dict[str, Any]:
    """Paired shift of the forger's rate from the base games to the same games
    under restricted play (both frames from runs with the same seed and cells)."""
    keep = ["identity_pair", "angela_strategy", "jessah_strategy", "game_index", "winner", "end_reason"]
    frame = pl.concat([
        base_results.filter(pl.col("variant") == BASE.name).select(keep).with_columns(pl.lit(BASE.name).alias("variant")),
        restricted_results.select(keep).with_columns(pl.lit(name).alias("variant")),
    ])
    return paired_shift(frame, BASE.name, name)


#: games per change of the first stage of a sequential `rnsim levers`
FIRST_STAGE_GAMES = 400


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


def run_levers(config: Path, *, out: Path, restricted: bool = False, identities: Any = "random",
               precision: float | None = None, max_games: int = 400_000, echo: Echo = print,
               **play: Any) -> LeversResult:
    """Every lever of ``config`` against its rules. ``identities`` replaces
    the config's ``[run] identities`` (default "random": the game as dealt,
    R20, where game indices are independent; None keeps the config's).

    With ``precision`` (a half-width, in rate units) the changes are played
    in stages until each one's paired 95% interval is that narrow: stage 0
    plays every change ``games`` games per cell (default
    :data:`FIRST_STAGE_GAMES` per change); each later stage plays, with its
    own seed, each change still too wide as many more games as the
    1/sqrt(games) law says it needs (and the base rules as many as the
    neediest). A stage that would take the total past ``max_games`` is not
    started, so a run stopped by the budget resumes with a larger one. A
    change's shift pools its paired games of every stage (stages are
    independent games, paired within each)."""
    from rnsim.config import load_config

    cfg = load_config(config)
    rules = base_rules(config)
    if identities is not None:
        play["identities"] = identities
    ident = identities if identities is not None else setups_value(cfg)
    changes, skipped = lever_changes(rules, ident)
    specs: dict[str, list[Any]] = {}
    if restricted:
        specs, ups = _restricted_specs(config)
        changes += [Change(f"never-{u}", f"upgrade {u} never chosen (restricted play)", {}, "restricted", u)
                    for u in ups]
    cells = 1 if ident == "random" else max(1, _cells(config))
    seed = play.pop("seed", None)
    seed = cfg.seed if seed is None else seed
    games = play.pop("games", None)
    if games is None:
        games = cfg.games if precision is None else math.ceil(FIRST_STAGE_GAMES / cells)
    frames: list[pl.DataFrame] = []
    played = Played(pl.DataFrame(), out, 0, 0.0)
    keep = ["variant", "identity_pair", "angela_strategy", "jessah_strategy", "game_index", "winner", "end_reason"]

    def play_batch(batch: list[Change], where: Path, n: int, sd: int, stage: int, base: bool) -> pl.DataFrame:
        knobs = [c for c in batch if c.kind != "restricted"]
        parts = []
        if base or knobs:
            p = play_changes(config, [BASE] * base + knobs, out=where, games=n, seed=sd, echo=echo, **play)
            played.games += p.games
            played.seconds += p.seconds
            parts.append(p.results)
        for c in batch:
            if c.kind == "restricted":
                angela, jessah = specs[c.subject]
                rp = play_changes(config, [BASE], out=where / "restricted" / c.subject, games=n, seed=sd,
                                  echo=echo, angela=angela, jessah=jessah, **play)
                played.games += rp.games
                played.seconds += rp.seconds
                parts.append(rp.results.with_columns(pl.lit(c.name).alias("variant")))
        # stages are different games: each gets its own range of game indices
        frames.extend(x.select(keep).with_columns(pl.col("game_index").cast(pl.Int64) + stage * 2**32)
                      for x in parts)
        return parts[0]

    first = play_batch(list(changes), out if precision is None else out / "stage-0", games, seed, 0, True)
    played.results = first
    stats = {c.name: paired_shift(pl.concat(frames), BASE.name, c.name) for c in changes}
    stages = dict.fromkeys((c.name for c in changes), 1)
    stage = 0
    while precision is not None:
        pending = [c for c in changes if stats[c.name]["paired_hi"] - stats[c.name]["diff"] > precision]
        if not pending:
            break
        # Each change gets the games the 1/sqrt(games) law says it lacks, at
        # least half a first stage (a smaller batch costs its start-up for
        # little). Changes of similar need share a tournament; every batch of
        # a stage plays the stage's seed, so game i is the same deal in all of
        # them and the base rules are played once, by the largest batch.
        need = {c.name: max(math.ceil((pairs_needed(stats[c.name], precision) - stats[c.name]["games"]) / cells),
                            math.ceil(games / 2)) for c in pending}
        order = sorted(pending, key=lambda c: (-need[c.name], c.name))
        batches: list[tuple[int, list[Change]]] = []
        for c in order:
            if batches and need[c.name] * 1.5 >= batches[-1][0]:
                batches[-1][1].append(c)
            else:
                batches.append((need[c.name], [c]))
        cost = cells * (batches[0][0] + sum(n * len(b) for n, b in batches))
        if played.games + cost > max_games:
            echo(f"levers: stopped: the next stage needs {cost:,} games, more than the {max_games - played.games:,} "
                 f"left of --max-games; {len(pending)} change(s) are wider than +-{100 * precision:.1f} points")
            break
        stage += 1
        echo(f"levers: stage {stage}: {len(pending)} change(s) wider than +-{100 * precision:.1f} points, "
             + ", ".join(f"{len(b)} x {n:,}" for n, b in batches) + " more games per cell")
        sd = stage_seed(seed, stage)
        for j, (n, batch) in enumerate(batches):
            play_batch(batch, out / (f"stage-{stage}" if j == 0 else f"stage-{stage}-{j}"), n, sd, stage, j == 0)
        for c in pending:
            stages[c.name] += 1
        both = pl.concat(frames)
        stats.update({c.name: paired_shift(both, BASE.name, c.name) for c in pending})
    rows = [{**shift_row(c, stats[c.name]), "stages": stages[c.name]} for c in changes]
    table = pl.DataFrame(rows).sort(pl.col("shift").abs(), descending=True)
    return LeversResult(table, skipped, played, levers_meta(cfg, played, config, ident))


def levers_meta(cfg: Any, played: Played, config: Path, identities: Any) -> dict[str, Any]:
    base = played.results.filter(pl.col("variant") == BASE.name)
    return {
        "config": str(config), "rules_hash": cfg.variants[0].digest,
        "angela_strategy": base["angela_strategy"].unique().to_list(),
        "jessah_strategy": base["jessah_strategy"].unique().to_list(),
        "identities": identities if isinstance(identities, str) else "list",
        "seed": cfg.seed, "games": played.games, "seconds": round(played.seconds, 1),
    }


def check_for_run(config: Path, run_dir: Path) -> None:
    """Refuse ``--for-run RUN`` when no variant of RUN plays CONFIG's rules:
    the report would find values measured on other rules."""
    import json

    from rnsim.config import load_config

    try:
        man = json.loads((run_dir / "manifest.json").read_text())
    except (OSError, ValueError):
        raise ConfigError(f"--for-run: {run_dir} is not a run directory (no readable manifest.json)") from None
    digest = load_config(config).variants[0].digest
    hashes = man.get("rules_hash") or {}
    if digest not in hashes.values():
        raise ConfigError(f"--for-run: {run_dir} plays no variant with {config}'s rules (rules hash {digest}; the "
                          f"run's: {', '.join(f'{k} {v}' for k, v in hashes.items()) or 'none'})")
