"""Rule variants side by side (`rnsim compare`): every variant plays the same
cells and game indices (common random numbers), and the watched seat's win
rates are compared pairwise with :mod:`rnsim.analysis.paired`."""

from __future__ import annotations

import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import polars as pl

from rnsim.analysis.paired import paired_differences
from rnsim.config import RunConfig, Variant, load_config
from rnsim.drift.cells import balance_seat, cell_keys
from rnsim.drift.markdown import comparison_text
from rnsim.errors import ConfigError, RnsimError

Echo = Callable[[str], None]


def _stderr(msg: str) -> None:
    print(msg, file=sys.stderr)


def compare_config(paths: Sequence[Path], *, games: int | None = None, seed: int | None = None,
                   workers: int | str | None = None, backend: str | None = None, out: Path | None = None,
                   echo: Echo = _stderr) -> RunConfig:
    """One run config holding every variant to compare: the variants of a single
    file (it needs at least two ``[[variants]]``), or one variant per file (its
    ``[rules]``, named after the file; the run settings and strategies come from the
    first file). Every variant plays the same cells and game indices. A ``[band]``
    is left out: the comparison is of the rules, on the main pair."""
    if not paths:
        raise ConfigError("compare: give at least one config file")
    first = load_config(paths[0], games=games, seed=seed, workers=workers, backend=backend, out=out)
    if len(paths) == 1:
        if len(first.variants) < 2:
            raise ConfigError(f"{paths[0]}: variants: compare needs two or more [[variants]] in one file, or two files")
        cfg = first
    else:
        variants: list[Variant] = []
        for p in paths:
            c = first if p == paths[0] else load_config(p, games=games, seed=seed, workers=workers, backend=backend)
            labels = {seat: [s.label for s in specs] for seat, specs in c.strategies.items()}
            first_labels = {seat: [s.label for s in specs] for seat, specs in first.strategies.items()}
            ignored = [k for k, same in (
                ("run.game", c.game == first.game),
                ("strategies", labels == first_labels),
                (f"run.{first.game_obj.setup_key}", c.setups == first.setups), ("run.games", c.games == first.games),
                ("run.seed", c.seed == first.seed)) if not same]
            if ignored:
                echo(f"note: {p}: only its rules are used; {', '.join(ignored)} come from {paths[0]}")
            for v in c.variants:
                name = p.stem if len(c.variants) == 1 else f"{p.stem}.{v.name}"
                if any(x.name == name for x in variants):
                    raise ConfigError(f"{p}: variant name {name!r} is used twice; rename a file or a [[variants]] name")
                variants.append(Variant(name, v.rules, v.digest, v.setups))
        cfg = replace(first, variants=variants)
    if cfg.band is not None:
        # The band measures how the verdict depends on the players; a comparison
        # of rules plays the main pair only, so the band's cells would be paid
        # for and then read as extra rows of the comparison.
        echo(f"note: {paths[0]}: [band] is not played by compare (it compares the rules on the main pair)")
        cfg = replace(cfg, band=None)
    if out is None:
        stem = "-vs-".join(p.stem for p in paths) if len(paths) > 1 else paths[0].stem
        cfg = replace(cfg, out=Path("runs") / f"compare-{stem}")
    if cfg.games < 2:  # a paired interval needs the spread of at least two differences per cell
        raise ConfigError(f"games: a paired comparison needs at least 2 games per cell, got {cfg.games} "
                          f"(--games, or run.games in {paths[0]})")
    return cfg


@dataclass
class Comparison:
    run_dir: Path
    reference: str
    tables: dict[str, pl.DataFrame]  # variant -> paired_differences of the watched seat's win rate
    text: str


def compare_run(cfg: RunConfig, *, progress: bool = True, echo: Echo = _stderr) -> Comparison:
    from rnsim.tournament.run import run_tournament
    from rnsim.tournament.shards import load_results

    summary = run_tournament(cfg, progress=progress, echo=echo)
    if not summary.complete:
        raise RnsimError(f"{cfg.out}: the run was interrupted; run the same command again to resume")
    results = load_results(cfg.out)
    assert isinstance(results, pl.LazyFrame)
    reference = cfg.variants[0].name
    keys = cell_keys(cfg)
    seat = balance_seat(cfg)
    tables = {v.name: paired_differences(results, reference, v.name, seat=seat, keys=keys)
              for v in cfg.variants[1:]}
    text = comparison_text(cfg, results, reference, tables)
    (cfg.out / "tables").mkdir(exist_ok=True)
    for name, t in tables.items():
        t.write_csv(cfg.out / "tables" / f"paired_{reference}_vs_{name}.csv")
    (cfg.out / "compare.md").write_text(text + "\n")
    return Comparison(cfg.out, reference, tables, text)
