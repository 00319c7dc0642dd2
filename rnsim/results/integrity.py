"""Is a run directory whole? The one check every reader of a run directory
makes: ``rnsim verify``, ``rnsim report``, the end of ``rnsim run``, and the
loaders (``rnsim.load_results``, ``rnsim.analysis.scan_results``) that the
other commands read runs through.

Whole means: every result shard is readable and holds exactly the games its
name says (``shards/part-<cell>-<start>-<stop>.parquet``), no other file sits
among them, and against the manifest's plan (``cells`` x ``games_per_cell``,
every cell playing game indices ``0..games-1``) every game is on disk exactly
once. A run with a strength band (rnsim.band) plans its band cells after the
main cells, each with its own games (the manifest's ``band.cell_games``);
each from its own first game index (``band.cell_starts``); the main cells'
rows and the band's are read apart (:meth:`RunCheck.scan`). The check reads the chunk names, the manifest and one column of the
shards (``game_index``): the set of (cell, game index) on disk, duplicates
included, is compared with the plan without reading the games themselves.

A reader refuses a run that is not whole (:class:`RunNotWhole`, one line
naming the missing and repeated games) unless asked for a partial answer;
then it reads each planned game once and says what is missing.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from rnsim.errors import RnsimError
from rnsim.results.chunks import Chunk
from rnsim.results.manifest import MANIFEST, plan_of, read_manifest

SHARDS = "shards"
ERRORS = "errors"
CORRUPT = "corrupt"  # under shards/: unreadable shards moved aside on resume

#: how many problems a one-line summary names before "and N more"
NAMED = 3


class CorruptShardError(RnsimError):
    """A result shard cannot be read (truncated, overwritten)."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"{path}: unreadable result shard ({reason})")
        self.path = path


class RunNotWhole(RnsimError):
    """Games the plan expects are missing from a run directory, or some are on
    disk more than once. Exit code 1: the files are sound input, the run is not
    finished (or was tampered with)."""

    exit_code = 1

    def __init__(self, check: RunCheck, hint: str = "") -> None:
        hints = (["`rnsim run` with the same config plays the missing games"] if check.missing else []) \
            + ([hint] if hint else [])
        super().__init__(f"{check.run_dir}: {check.summary()}" + "".join(f"; {h}" for h in hints))
        self.check = check


def reason_of(e: Exception) -> str:
    """The first line of an exception's message (polars' can run to pages)."""
    text = str(e).strip()
    return text.splitlines()[0][:200] if text else type(e).__name__


def games_text(a: int, b: int) -> str:
    """Game indices ``a..b-1`` as a reader writes them: "game 3", "games 10-14"."""
    return f"game {a}" if b - a == 1 else f"games {a}-{b - 1}"


def times_text(n: int) -> str:
    return {2: "twice", 3: "three times"}.get(n, f"{n} times")


def _sweep(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int, int]]:
    """How many times each game index is covered by the half-open ``spans``:
    maximal runs ``(start, stop, times)`` with ``times`` > 0, in order."""
    delta: dict[int, int] = {}
    for a, b in spans:
        delta[a] = delta.get(a, 0) + 1
        delta[b] = delta.get(b, 0) - 1
    out: list[tuple[int, int, int]] = []
    depth = 0
    points = sorted(delta)
    for x, y in zip(points, points[1:], strict=False):
        depth += delta[x]
        if depth > 0:
            if out and out[-1][1] == x and out[-1][2] == depth:
                out[-1] = (out[-1][0], y, depth)
            else:
                out.append((x, y, depth))
    return out


def _union(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The half-open ``spans`` merged: one range per stretch, however many copies."""
    out: list[tuple[int, int]] = []
    for a, b in sorted(spans):
        if out and a <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], b))
        else:
            out.append((a, b))
    return out


def _gaps(runs: Sequence[tuple[int, int, int]], stop: int, start: int = 0) -> list[tuple[int, int]]:
    """The parts of ``start..stop-1`` no run covers."""
    out: list[tuple[int, int]] = []
    at = start
    for a, b, _ in runs:
        if a >= stop:
            break
        if a > at:
            out.append((at, a))
        at = max(at, b)
    if at < stop:
        out.append((at, stop))
    return out


@dataclass
class RunCheck:
    """What a run directory holds against its plan (see the module docstring)."""

    run_dir: Path
    manifest: dict[str, Any] | None
    plan: tuple[int, int] | None  # (cells, games per cell)
    shards: list[tuple[Chunk, Path]] = field(default_factory=list)  # the readable result shards
    rows: int = 0  # rows in them
    missing: dict[int, list[tuple[int, int]]] = field(default_factory=dict)  # cell -> [start, stop) not on disk
    repeated: dict[int, list[tuple[int, int, int]]] = field(default_factory=dict)  # cell -> (start, stop, times)
    outside: list[tuple[int, int, int]] = field(default_factory=list)  # (cell, start, stop) beyond the plan
    unreadable: list[tuple[Path, str]] = field(default_factory=list)
    files: list[str] = field(default_factory=list)  # other problems of single files
    labels: dict[int, str] = field(default_factory=dict)  # cell -> "base, journalist+pilot, rule vs rule"
    moved_aside: int = 0  # shards an earlier resume moved to shards/corrupt/
    band_games: list[int] = field(default_factory=list)  # games of each band cell, after the plan's cells
    band_starts: list[int] = field(default_factory=list)  # the first game index of each band cell

    def games_of(self, cell: int) -> tuple[int, int] | None:
        """The game indices ``cell`` plans, (start, stop) (None: outside the plan)."""
        if self.plan is None:
            return None
        cells, games = self.plan
        k = cell - cells
        if 0 <= cell < cells:
            return 0, games
        if 0 <= k < len(self.band_games):
            start = self.band_starts[k] if k < len(self.band_starts) else 0
            return start, start + self.band_games[k]
        return None

    @property
    def planned(self) -> int | None:
        return None if self.plan is None else self.plan[0] * self.plan[1] + sum(self.band_games)

    @property
    def n_missing(self) -> int:
        return sum(b - a for spans in self.missing.values() for a, b in spans)

    @property
    def n_repeated(self) -> int:
        """Rows beyond the first of games on disk more than once."""
        return sum((b - a) * (t - 1) for spans in self.repeated.values() for a, b, t in spans)

    @property
    def n_outside(self) -> int:
        return sum(b - a for _, a, b in self.outside)

    @property
    def present(self) -> int:
        """Distinct planned games on disk (rows, when there is no plan)."""
        return self.rows - self.n_repeated - self.n_outside if self.planned is None \
            else self.planned - self.n_missing

    @property
    def whole(self) -> bool:
        return (self.plan is not None and not self.missing and not self.repeated and not self.outside
                and not self.unreadable and not self.files)

    def cell(self, c: int) -> str:
        label = self.labels.get(c)
        return f"cell {c} ({label})" if label else f"cell {c}"

    def problems(self) -> list[str]:
        """Every problem, one line each, the plan's first."""
        out: list[str] = []
        if self.manifest is None:
            out.append(f"{self.run_dir / MANIFEST}: missing; the games cannot be checked against a plan")
        elif self.plan is None:
            out.append(f"{self.run_dir / MANIFEST}: lacks cells / games_per_cell (not written by rnsim run); "
                       "the games cannot be checked against a plan")
        out += [f"{p}: unreadable ({why})" for p, why in self.unreadable]
        out += self.files
        for c in sorted(set(self.missing) | set(self.repeated)):
            found = [(a, f"{games_text(a, b)} missing") for a, b in self.missing.get(c, [])]
            found += [(a, f"{games_text(a, b)} {times_text(t)}") for a, b, t in self.repeated.get(c, [])]
            parts = [text for _, text in sorted(found)]  # in game order
            shown = parts[:6] + ([f"and {len(parts) - 6} more ranges"] if len(parts) > 6 else [])
            out.append(f"{self.cell(c)}: " + ", ".join(shown))
        if self.outside and self.plan is not None:
            band = f" and {len(self.band_games):,} band cells" if self.band_games else ""
            out += [f"{self.cell(c)}: {games_text(a, b)} on disk but outside the plan ({self.plan[0]:,} cells x "
                    f"{self.plan[1]:,} games{band})" for c, a, b in self.outside]
        return out

    def counts(self) -> str:
        """How many games are there, against the plan: "35 of 40 planned games on disk"."""
        extra = f", {self.n_repeated:,} more than once" if self.n_repeated else ""
        if self.planned is None:
            return f"{self.present:,} games on disk{extra} (no plan to check them against)"
        return f"{self.present:,} of {self.planned:,} planned games on disk{extra}"

    def summary(self) -> str:
        """One line: the counts and the first problems."""
        found = self.problems()
        more = f"; and {len(found) - NAMED} more (rnsim verify lists them)" if len(found) > NAMED else ""
        return "; ".join([self.counts(), *found[:NAMED]]) + more

    def require(self, partial: bool = False, hint: str = "") -> None:
        """Refuse a run that is not whole, unless ``partial``: an unreadable
        shard first (CorruptShardError, naming it), then the plan's missing and
        repeated games (RunNotWhole, ``hint`` saying how to go on)."""
        if partial or self.whole:
            return
        if self.unreadable:
            raise CorruptShardError(*self.unreadable[0])
        raise RunNotWhole(self, hint)

    def scan(self, partial: bool = False, band: bool = False) -> pl.LazyFrame:
        """The rows of the run's readable result shards, each planned game once
        when ``partial`` (repeats and games outside the plan dropped): the main
        cells' rows, or with ``band`` the band cells' (rnsim.band). Call
        :meth:`require` first: without ``partial`` the rows are read as they are."""
        first_band = self.plan[0] if self.plan is not None else None
        shards = [(c, p) for c, p in self.shards
                  if first_band is None or (c.cell >= first_band) == band] if self.band_games or band else self.shards
        if not shards:
            what = "band " if band else ""
            raise RnsimError(f"{self.run_dir / SHARDS}: no readable {what}result shard")
        paths = [str(p) for _, p in shards]
        if not partial or not (self.repeated or self.outside):
            return pl.scan_parquet(paths)
        lf = pl.scan_parquet(paths, include_file_paths="_file").with_columns(
            pl.col("_file").str.extract(r"part-(\d+)-\d+-\d+\.parquet$", 1).cast(pl.Int64).alias("_cell"))
        if self.plan is not None and not band:
            lf = lf.filter((pl.col("_cell") < self.plan[0]) & pl.col("game_index").is_between(0, self.plan[1] - 1))
        elif self.plan is not None:
            cells = self.plan[0]
            spans = [self.games_of(cells + k) or (0, 0) for k in range(len(self.band_games))]
            k = pl.col("_cell").sub(cells)
            ids = list(range(len(spans)))
            lf = lf.filter(pl.col("_cell").is_between(cells, cells + len(spans) - 1)).filter(pl.col("game_index").is_between(
                k.replace_strict(ids, [a for a, _ in spans], default=0, return_dtype=pl.Int64),
                k.replace_strict(ids, [b - 1 for _, b in spans], default=-1, return_dtype=pl.Int64)))
        return lf.unique(subset=["_cell", "game_index"], keep="first", maintain_order=True).drop("_file", "_cell")


def chunk_files(run_dir: Path) -> tuple[list[tuple[Chunk, Path]], list[Path]]:
    """The result shards of ``run_dir`` by chunk, in (cell, start) order, and
    every other file under shards/ (leftovers, copies, foreign files)."""
    d = Path(run_dir) / SHARDS
    chunks: list[tuple[Chunk, Path]] = []
    others: list[Path] = []
    for p in sorted(d.iterdir()) if d.is_dir() else []:
        if not p.is_file():
            continue
        c = Chunk.from_name(p.name.removesuffix(".parquet")) if p.suffix == ".parquet" else None
        if c is None:
            others.append(p)
        else:
            chunks.append((c, p))
    chunks.sort(key=lambda x: (x[0].cell, x[0].start, x[0].stop))
    return chunks, others


def _stats_expr() -> list[pl.Expr]:
    g = pl.col("game_index")
    return [pl.len().alias("rows"), g.min().alias("lo"), g.max().alias("hi"), g.n_unique().alias("unique")]


#: shards read by one scan of :func:`file_stats`: one scan of every shard of a
#: million-game run holds each row's file name at once (190 MB more at its peak
#: over 4,005 shards of 250 games); scans of 256 shards hold 36 MB, in the same time
FILES_PER_SCAN = 256


def file_stats(paths: Sequence[Path]) -> dict[Path, tuple[int, int | None, int | None, int] | str]:
    """Per file: (rows, lowest and highest game index, distinct game indices),
    or why it cannot be read. One scan of one column per
    :data:`FILES_PER_SCAN` files; a file by file pass over a batch only when
    some file of it fails."""
    out: dict[Path, tuple[int, int | None, int | None, int] | str] = {}
    for i in range(0, len(paths), FILES_PER_SCAN):
        out.update(_batch_stats(paths[i:i + FILES_PER_SCAN]))
    return out


def _batch_stats(paths: Sequence[Path]) -> dict[Path, tuple[int, int | None, int | None, int] | str]:
    try:
        t = (pl.scan_parquet([str(p) for p in paths], include_file_paths="_file").select("_file", "game_index")
             .group_by("_file").agg(_stats_expr()).collect())
        got: dict[Path, tuple[int, int | None, int | None, int] | str] = {
            Path(f): (int(n), lo, hi, int(u)) for f, n, lo, hi, u in t.iter_rows()}
        # a file without rows has no group: it holds no game
        return {p: got.get(p, (0, None, None, 0)) for p in paths}
    except Exception:  # polars raises several types for a damaged file: find and name it below
        pass
    out: dict[Path, tuple[int, int | None, int | None, int] | str] = {}
    for p in paths:
        try:
            n, lo, hi, u = pl.scan_parquet(p).select(_stats_expr()).collect().row(0)
            out[p] = (int(n), lo, hi, int(u))
        except Exception as e:
            out[p] = reason_of(e)
    return out


def _cell_label(path: Path) -> str | None:
    """A cell's name, from the first row of one of its shards: its variant,
    setup and strategies (the column after ``variant`` is the setup column)."""
    try:
        names = pl.read_parquet_schema(path)
        cols = list(names)
        keys = ["variant"] if "variant" in cols else []
        i = cols.index("variant") + 1 if keys else len(cols)
        if i < len(cols) and not cols[i].endswith("_strategy"):
            keys.append(cols[i])
        seats = [c for c in cols if c.endswith("_strategy")]
        row = pl.read_parquet(path, columns=keys + seats, n_rows=1).row(0, named=True)
    except Exception:  # the label is a courtesy; the problem is named without it
        return None
    parts = [str(row[k]) for k in keys if row[k] is not None]
    strategies = [str(row[s]) for s in seats if row[s] is not None]
    if strategies:
        parts.append(" vs ".join(strategies))
    return ", ".join(parts) or None


def check_run(run_dir: str | Path, manifest: dict[str, Any] | None = None) -> RunCheck:
    """Check ``run_dir`` against its plan (the manifest's, read unless given)."""
    run_dir = Path(run_dir)
    man = read_manifest(run_dir) if manifest is None else manifest
    check = RunCheck(run_dir, man, plan_of(man), band_games=band_of(man), band_starts=band_of(man, "cell_starts"))
    chunks, others = chunk_files(run_dir)
    check.files += [f"{p}: not a result shard of this run (a copy, a leftover or a foreign file); move it out of "
                    f"{run_dir / SHARDS}" for p in others]
    corrupt = run_dir / SHARDS / CORRUPT
    check.moved_aside = sum(1 for _ in corrupt.iterdir()) if corrupt.is_dir() else 0
    stats = file_stats([p for _, p in chunks])
    spans: dict[int, list[tuple[int, int]]] = {}
    for c, p in chunks:
        s = stats[p]
        if isinstance(s, str):
            check.unreadable.append((p, s))
            continue
        check.shards.append((c, p))
        n, lo, hi, unique = s
        check.rows += n
        if (n, lo, hi, unique) == (c.games, c.start, c.stop - 1, c.games):
            spans.setdefault(c.cell, []).append((c.start, c.stop))
            continue
        what = [f"{n:,} rows" if n != c.games else "",
                "some game twice" if unique != n else "",
                f"game indices {lo}..{hi}" if n and (lo, hi) != (c.start, c.stop - 1) else ""]
        check.files.append(f"{p}: " + ", ".join(w for w in what if w) + f"; its name says games {c.start}..{c.stop - 1}")
        if n:
            values = pl.read_parquet(p, columns=["game_index"])["game_index"].to_list()
            spans.setdefault(c.cell, []).extend((int(i), int(i) + 1) for i in values)
    names = {c.name for c, _ in chunks}
    err = run_dir / ERRORS
    check.files += [f"{p}: error shard without its result shard" for p in sorted(err.glob("part-*.parquet"))
                    if p.name.removesuffix(".parquet") not in names] if err.is_dir() else []
    _compare(check, spans)
    named = set(check.missing) | set(check.repeated) | {c for c, _, _ in check.outside}
    first: dict[int, Path] = {}
    for c, p in check.shards:
        first.setdefault(c.cell, p)
    check.labels = {c: label for c in sorted(named) if c in first and (label := _cell_label(first[c])) is not None}
    return check


def band_of(manifest: dict[str, Any] | None, key: str = "cell_games") -> list[int]:
    """The games (or with ``key`` "cell_starts", the first game index) of
    each band cell the manifest plans (none without a band)."""
    band = (manifest or {}).get("band")
    games = band.get(key) if isinstance(band, dict) else None
    if not isinstance(games, list) or not all(isinstance(g, int) and g >= 0 for g in games):
        return []
    return list(games)


def _compare(check: RunCheck, spans: dict[int, list[tuple[int, int]]]) -> None:
    """Fill in the missing, repeated and out-of-plan games from what each cell holds."""
    cells = None if check.plan is None else check.plan[0] + len(check.band_games)
    for cell in sorted(set(spans) | set(range(cells or 0))):
        runs = _sweep(spans.get(cell, []))
        planned = check.games_of(cell)
        inside = planned is not None
        start, stop = planned or (0, 0)
        if inside:
            gaps = _gaps(runs, stop, start)
            if gaps:
                check.missing[cell] = gaps
        twice = [(max(a, start), min(b, stop), t) if inside else (a, b, t) for a, b, t in runs
                 if t > 1 and (not inside or (a < stop and b > start))]
        if twice:
            check.repeated[cell] = twice
        if cells is not None:
            beyond = [(a, min(b, start)) for a, b, _ in runs if a < start] \
                + [(max(a, stop), b) for a, b, _ in runs if b > stop]
            check.outside += [(cell, a, b) for a, b in _union(beyond)]
