"""The band's lineups and cells: part of the run's plan.

A *lineup* is one strategy per seat. The main lineup is the config's first
strategy per seat (the main pair). The band adds, for each level of
``[band] levels``: the level in each seat against the main players of the
others, and the level in every seat (in a game whose seats rotate, the level
in every seat only). For each probe: the probe in its seat against the main
players, and its base there when the base is not the main player of that
seat (the probe's gain is probe minus base on the same games).

Each lineup is played in every variant and setup of the run as a cell, after
the main cells (cell ids continue theirs), under the same master seed: band
game ``i`` pairs with main game ``i`` of the same variant and setup. The
setups take consecutive stretches of the main cells' game indices (setup
``k`` plays ``k*n .. k*n+n-1``, wrapping within ``0..games-1``), so the band's
games of a lineup see as many different chance streams as it has games: game
``i`` of every setup shares its deck order, and a band of 40 indices over
15 setups would hold 40 chance streams, not 600. A lineup the main cells already play (a round robin that
lists the level) is read from them, not played twice.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

from rnsim.config import Cell, RunConfig, StrategySpec

MAIN = "main"


@dataclass(frozen=True)
class Lineup:
    name: str
    kind: str  # "main", "level", "probe" or "base"
    labels: tuple[str, ...]  # the strategy label per seat
    games: int = 0
    seat: str = ""  # a probe's (or base's) seat
    reference: str = ""  # a probe's: the lineup it is paired against (MAIN or its base's)
    base: str = ""  # a probe's: the name of its base strategy, as the report names it
    level: str = ""  # a level lineup's level label

    def to_dict(self) -> dict[str, Any]:
        return {"name": self.name, "kind": self.kind, "labels": list(self.labels), "games": self.games,
                "seat": self.seat, "reference": self.reference, "base": self.base, "level": self.level}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Lineup:
        return cls(str(d["name"]), str(d["kind"]), tuple(d["labels"]), int(d.get("games", 0)), str(d.get("seat", "")),
                   str(d.get("reference", "")), str(d.get("base", "")), str(d.get("level", "")))


@dataclass
class BandPlan:
    lineups: list[Lineup]  # MAIN first
    cells: list[Cell]  # the band cells, ids after the main cells'
    games: list[int]  # games of each band cell
    starts: list[int]  # the first game index of each band cell (it plays start .. start+games-1)
    strategies: dict[str, list[StrategySpec]]  # per seat: the config's, then the band's
    specs: dict[str, StrategySpec] = field(default_factory=dict)  # label -> spec, every lineup's


def _builtin_spec(name: str, game: Any) -> StrategySpec:
    return StrategySpec(name, {}, name)


def _main(cfg: RunConfig) -> tuple[StrategySpec, ...]:
    return tuple(specs[0] for specs in cfg.strategies.values())


def lineups(cfg: RunConfig) -> tuple[list[Lineup], dict[str, StrategySpec]]:
    """The main lineup, then the band's, and every spec they name by label."""
    band = cfg.band
    main = _main(cfg)
    seats = cfg.seats
    specs = {s.label: s for s in main}
    out = [Lineup(MAIN, "main", tuple(s.label for s in main))]
    if band is None:
        return out, specs
    rotate = bool(getattr(cfg.game_obj, "rotate_seats", False))
    for lv in band.levels:
        specs.setdefault(lv.label, StrategySpec(lv.ref, dict(lv.params), lv.label))
        if not rotate:
            for k, seat in enumerate(seats):
                labels = tuple(lv.label if j == k else s.label for j, s in enumerate(main))
                out.append(Lineup(f"{lv.label} as {seat}", "level", labels, band.games, seat, level=lv.label))
        out.append(Lineup(f"{lv.label} at every seat", "level", (lv.label,) * len(seats), band.games, level=lv.label))
    bases: dict[tuple[str, str], Lineup] = {}
    for p in band.probes:
        k = seats.index(p.seat)
        label = p.name if p.name not in specs else f"{p.name} (probe)"
        specs[label] = StrategySpec(p.ref, {}, label)
        reference = MAIN
        base_name = p.base or f"{main[k].label} (main)"
        if p.base is not None and p.base != main[k].label:
            if (p.seat, p.base) not in bases:
                specs.setdefault(p.base, _builtin_spec(p.base, cfg.game_obj))
                labels = tuple(p.base if j == k else s.label for j, s in enumerate(main))
                bases[(p.seat, p.base)] = Lineup(f"{p.base} as {p.seat} (base)", "base", labels, band.probe_games,
                                                 p.seat, base=p.base)
                out.append(bases[(p.seat, p.base)])
            reference = bases[(p.seat, p.base)].name
        labels = tuple(label if j == k else s.label for j, s in enumerate(main))
        out.append(Lineup(p.name, "probe", labels, band.probe_games, p.seat, reference, base_name))
    # a lineup listed twice (a level that is a probe's base) is played once
    seen: set[tuple[str, ...]] = {out[0].labels}
    kept = [out[0]]
    for ln in out[1:]:
        if ln.labels not in seen or ln.kind == "probe":
            seen.add(ln.labels)
            kept.append(ln)
    return kept, specs


def band_plan(cfg: RunConfig) -> BandPlan:
    """The band's cells (after the config's), and the per-seat strategy lists
    they index (the config's, then the band's strategies)."""
    found, specs = lineups(cfg)
    strategies = {seat: list(v) for seat, v in cfg.strategies.items()}
    main_cells = cfg.cells()
    if cfg.band is None:
        return BandPlan(found, [], [], [], strategies, specs)
    index = [{s.label: i for i, s in enumerate(v)} for v in strategies.values()]
    for k, seat in enumerate(cfg.seats):
        for ln in found[1:]:
            label = ln.labels[k]
            if label not in index[k]:
                index[k][label] = len(strategies[seat])
                strategies[seat].append(replace(specs[label], default=False))
    played = {(c.variant, c.setup_label, c.strategies) for c in main_cells}
    g = cfg.game_obj
    cells: list[Cell] = []
    games: list[int] = []
    starts: list[int] = []
    n0 = len(main_cells)
    for v, var in enumerate(cfg.variants):
        for k, (label, setup) in enumerate(var.setups):
            n = len(g.seats(var.rules, setup)) if setup is not None else len(cfg.seats)
            for ln in found[1:]:
                combo = tuple(index[k][lab] for k, lab in enumerate(ln.labels[:n]))
                if (v, label, combo) in played:
                    continue  # the main cells play it already
                played.add((v, label, combo))
                cells.append(Cell(n0 + len(cells), v, setup, label, combo))
                games.append(ln.games)
                starts.append(first_index(k, ln.games, cfg.games))
    return BandPlan(found, cells, games, starts, strategies, specs)


def first_index(k: int, n: int, games: int) -> int:
    """The first game index of setup ``k``'s band cells of ``n`` games, in a
    run of ``games`` per main cell: ``k*n``, wrapped so the stretch ends
    within the main cells' games."""
    return (k * n) % max(1, games - n + 1)


def band_games(cfg: RunConfig) -> int:
    """How many games the band cells of ``cfg`` play (0 without a band)."""
    return 0 if cfg.band is None else sum(band_plan(cfg).games)


def manifest_entry(cfg: RunConfig) -> dict[str, Any] | None:
    """The manifest's ``band``: its cells (after the main cells), the games of
    each, and the lineups the report reads (None without a band)."""
    if cfg.band is None:
        return None
    bp = band_plan(cfg)
    return {"cells": len(bp.cells), "cell_games": bp.games, "cell_starts": bp.starts, "games": sum(bp.games),
            "lineups": [ln.to_dict() for ln in bp.lineups]}
