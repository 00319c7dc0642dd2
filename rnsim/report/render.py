"""Building the report of a run, for any game: aggregate (one lazy scan over the
shards), write the tables (CSV + Parquet) and the figures (PNG + SVG), and
render the same content as Markdown and as one self-contained HTML file
(figures embedded as base64 PNG, inline CSS, a small inline script that sorts
tables, no network, prints cleanly). This module decides what the report
says (numbers, rows, sentences); the layout is in the templates,
``rnsim/report/templates/`` (:mod:`rnsim.report.templating`).

The report answers first: a verdict sentence per cell and the outcome figure,
then what stands out, the tables, one section per cell (the game's own
sections, see :mod:`rnsim.report.sections`, then game length), errors, how to
read it, and last the run's metadata."""

from __future__ import annotations

import importlib
import math
import os
from collections.abc import Sequence
from importlib.metadata import entry_points
from pathlib import Path
from types import ModuleType
from typing import Any

import polars as pl

from rnsim.analysis import aggregate as agg
from rnsim.analysis.load import ResultsError, checked, game_name, read_manifest, scan_errors, scan_results
from rnsim.analysis.stats import chance_words
from rnsim.band.analysis import TABLE as BAND_TABLE
from rnsim.band.analysis import band_table
from rnsim.report import figures as figs
from rnsim.report import templating
from rnsim.report.sections import (
    Banner,
    Block,
    Bullets,
    Contents,
    Figure,
    Heading,
    Para,
    ReportContext,
    Section,
    Table,
    Verdict,
    count,
    p_is,
    p_text,
    pct,
    rate_ci,
    seat_label,
    share_text,
    slug,
)
from rnsim.results.integrity import RunCheck

__all__ = ["Banner", "Block", "Bullets", "Contents", "Figure", "FigurePlan", "Heading", "Para", "Table", "Verdict",
           "build", "compute_tables", "to_html", "to_markdown", "write_report"]

#: a 95% interval wider than this (in rate units) is "too few games to be useful"
WIDE_INTERVAL = 0.20

#: the core's tables, written for every game (a game adds its own)
CORE_TABLES = ("headline", "by_setup", "game_length", "game_length_histogram", "errors_by_cell")


# ---------------------------------------------------------------- figures

def _draw(job: tuple[str, str, tuple[Any, ...], str, bool]) -> str:
    """Draw and save one figure; module-level so a worker process can run it."""
    name, ref, args, directory, svg = job
    module, _, func = ref.rpartition(":")
    fig = getattr(importlib.import_module(module), func)(*args)
    return str(figs.save(fig, Path(directory), name, svg))


class FigurePlan:
    """The figures a report needs, drawn all at once so that a report with many
    cells can draw them on several cores (a figure costs a fraction of a
    second whatever the run size; a dozen cells make sixty of them)."""

    def __init__(self, directory: Path, svg: bool = True) -> None:
        self.directory = directory
        self.svg = svg
        self.jobs: list[tuple[str, str, tuple[Any, ...], str, bool]] = []

    def add(self, name: str, func: str, *args: Any) -> Path:
        """Plan ``func(*args)`` as ``<name>.png``; returns that path. ``func``
        is "module:function", or a function name of :mod:`rnsim.report.figures`."""
        ref = func if ":" in func else f"{figs.__name__}:{func}"
        self.jobs.append((name, ref, args, str(self.directory), self.svg))
        return self.directory / f"{name}.png"

    def draw(self, workers: int | None = None) -> None:
        """Draw every planned figure: in this process for a few, else on a pool
        of ``workers`` processes (default: every core). The pool is started
        with "spawn": forking a process that already runs Polars' thread pool
        can deadlock."""
        self.directory.mkdir(parents=True, exist_ok=True)
        n = workers if workers is not None else (os.cpu_count() or 1)
        n = min(n, len(self.jobs) // PER_WORKER)
        if n < 2:
            for job in self.jobs:
                _draw(job)
            return
        import multiprocess

        with multiprocess.get_context("spawn").Pool(n) as pool:
            pool.map(_draw, self.jobs, chunksize=1)


#: below this many figures per worker a pool's start-up costs more than it saves
PER_WORKER = 8


# ---------------------------------------------------------------- the game's part

def game_report(name: str) -> ModuleType | None:
    """The report module beside a game's object (``<package>/report.py``), or
    None when the game has none (its report is the core's alone)."""
    from rnsim.games import BUILTIN

    ref = BUILTIN.get(name)
    if ref is None:
        ref = next((ep.value for ep in entry_points(group="rnsim.games") if ep.name == name), None)
    if ref is None:
        raise ResultsError(f"manifest.json: game {name!r} is not installed (installed: "
                           f"{', '.join(sorted(BUILTIN))}); install the package that provides it")
    package = ref.partition(":")[0].rpartition(".")[0]
    try:
        return importlib.import_module(f"{package}.report")
    except ModuleNotFoundError as e:
        if e.name == f"{package}.report":
            return None
        raise


def _title(name: str, plugin: ModuleType | None) -> str:
    return str(getattr(plugin, "TITLE", None) or name.replace("_", " ").title())


# ---------------------------------------------------------------- formatting

def num(x: float | int | None, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if isinstance(x, int):
        return f"{x:,}"
    return f"{x:,.{digits}f}"


def some(items: list[str], limit: int = 6) -> str:
    """The first few of a list, then how many more."""
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


# ---------------------------------------------------------------- aggregation

#: up to this many games, the columns the scalar tables need are read from the
#: shards once and kept in memory, repeated strings (cells, setups, winners) as
#: categoricals: about 60 MB per million games. A runner writes one shard per
#: chunk, so a million games can be 4,000 files, and opening them once instead
#: of once per table is what keeps a report fast. Bigger runs are aggregated
#: straight from the shards, table by table.
IN_MEMORY_GAMES = 5_000_000


def _categorical(schema: pl.Schema, c: str) -> pl.Expr:
    t = schema[c]
    if t == pl.String:
        return pl.col(c).cast(pl.Categorical)
    if t == pl.List(pl.String):
        return pl.col(c).cast(pl.List(pl.Categorical))
    return pl.col(c)


def compute_tables(run_dir: str | Path, plugin: ModuleType | None = None, *, partial: bool = False,
                   check: RunCheck | None = None) -> dict[str, pl.DataFrame]:
    """Every table of the report: the core's (:data:`CORE_TABLES`), then the
    game's own (``plugin.tables``), over the run's games (each planned game
    once; a run with games missing or doubled is refused unless ``partial``).

    Tables are computed one after the other (not in parallel) and with the
    streaming engine, so the peak memory of a million-game report stays a few
    hundred MB (449 MB on a million synthetic games: ``report.ReportTime`` of
    the benchmark suite)."""
    lf = scan_results(run_dir, partial=partial, check=check)
    schema = lf.collect_schema()
    names = schema.names()
    lay = agg.layout(names)
    games = lf.select(pl.len()).collect().item()
    wanted = lay.scalar_columns()
    if plugin is not None and hasattr(plugin, "columns"):
        wanted += [c for c in plugin.columns(names) if c not in wanted]
    if games <= IN_MEMORY_GAMES:
        base = lf.select([_categorical(schema, c) for c in wanted]).collect(engine="streaming").lazy()
    else:
        base = lf
    queries: dict[str, pl.LazyFrame] = {
        "headline": agg.headline_query(base, lay), "by_setup": agg.by_setup_query(base, lay),
        "game_length": agg.game_length_query(base, lay),
        "game_length_histogram": agg.game_length_histogram_query(base, lay),
        "errors_by_cell": agg.errors_by_cell_query(base, lay),
    }
    if plugin is not None and hasattr(plugin, "tables"):
        queries.update(plugin.tables(base, lf))
    tables = {}
    for name, q in queries.items():
        df = q.collect(engine="streaming")
        tables[name] = df.with_columns(pl.col(pl.Categorical).cast(pl.String))
    band = _band_table(run_dir, plugin, partial, check)
    if band is not None:
        tables[BAND_TABLE] = band
    return tables


def _band_table(run_dir: str | Path, plugin: ModuleType | None, partial: bool,
                check: RunCheck | None) -> pl.DataFrame | None:
    """The strength band's table (rnsim.band.analysis), None without a band."""
    check = check or checked(run_dir, partial)
    if not check.band_games or check.manifest is None:
        return None
    return band_table(check, check.manifest, _watch(plugin)[0] or None, partial)


def _watch(plugin: ModuleType | None) -> tuple[str, str]:
    """The column naming the player a game's verdict watches, and its words
    (``BAND_WATCH`` of the game's report; ("", "") for seat 0)."""
    found = getattr(plugin, "BAND_WATCH", None)
    return (str(found[0]), str(found[1])) if found else ("", "")


def error_messages(run_dir: str | Path, limit: int = 10) -> pl.DataFrame | None:
    """The most frequent strategy-error messages of the side table."""
    lf = scan_errors(run_dir)
    if lf is None:
        return None
    names = lf.collect_schema().names()
    keys = [c for c in ("seat", "strategy", "decision", "message") if c in names]
    if not keys:
        return None
    setup = agg.layout(names).setup
    # one example game per message, to replay it: its cell and game index
    example = [pl.col(c).sort_by("game_index").first().alias(f"example_{c}")
               for c in ("variant", setup, "game_index") if c and c in names and "game_index" in names]
    return (lf.group_by(keys).agg(pl.len().alias("count"), *example)
            .sort(["count", *keys], descending=[True, *[False] * len(keys)], nulls_last=True)
            .head(limit).collect())


# ---------------------------------------------------------------- the verdict

def _strategies(r: dict[str, Any], seats: Sequence[str]) -> str:
    seats = [s for s in seats if r[f"{s}_strategy"] is not None]  # seats not in this setup's games
    names = [str(r[f"{s}_strategy"]) for s in seats]
    if len(set(names)) == 1:
        return names[0]
    return " vs ".join(f"{n} ({seat_label(s)})" for n, s in zip(names, seats, strict=True))


def with_verdict_tests(head: pl.DataFrame, seats: Sequence[str]) -> pl.DataFrame:
    """The headline with each cell's test against an even game: ``p_even``
    (the score test of seat 0's wins against 1/seats, which the 95% Wilson
    interval inverts), ``p_even_holm`` (Holm's correction across the cells
    with games: the page gives all their verdicts at once) and ``tests``."""
    from rnsim.analysis.stats import holm_column, score_p_value

    even = 1.0 / len(seats)
    p = [score_p_value(float(k or 0), float(n), even) if n else None
         for k, n in zip(head[f"{seats[0]}_wins"].to_list(), head["games"].to_list(), strict=True)]
    out = holm_column(head.with_columns(pl.Series("p_even", p, dtype=pl.Float64)), "p_even", out="p_even_holm")
    return out.with_columns(pl.lit(int(out["p_even"].is_not_null().sum())).alias("tests"))


def verdict(r: dict[str, Any], seats: Sequence[str], with_variant: bool) -> str:
    """One sentence that answers "is it balanced?" for a cell: seat 0's win
    rate and interval against an even game (50% with two seats, 1/n with n),
    and who is favoured when the interval excludes it. With several cells
    (``r["tests"]`` > 1, see :func:`with_verdict_tests`) a side is called
    favoured only when the cell's test survives Holm's correction across
    them; the p-values are given. Error games are named: the rates count
    played games only."""
    from rnsim.analysis.stats import ALPHA

    s0, label0 = seats[0], seat_label(seats[0])
    pre = f"Variant {r['variant']}: " if with_variant else ""
    if not r["games"]:
        return f"{pre}{'n' if pre else 'N'}o game of {_strategies(r, seats)} was played out ({r['errors']:,} ended " \
               "in an error)."
    even = 1.0 / len(seats)
    rate, lo, hi = r[f"{s0}_rate"], r[f"{s0}_rate_lo"], r[f"{s0}_rate_hi"]
    tests = int(r.get("tests") or 1)
    held = tests <= 1 or (r.get("p_even_holm") is not None and r["p_even_holm"] < ALPHA)
    if lo > even and held:
        who = f"{label0} is favoured"
    elif hi < even and held:
        who = f"{seat_label(seats[1])} is favoured" if len(seats) == 2 else f"{label0} is at a disadvantage"
    elif lo > even or hi < even:
        who = f"No side is measurably favoured once the {tests} verdicts are corrected for chance"
    else:
        who = "No side is measurably favoured"
    gap = 100 * (rate - even)
    where = "above" if gap > 0 else "below"
    even_text = "an even game" if len(seats) == 2 else f"an even game ({pct(even)}, one win in {len(seats)})"
    tail = f"{abs(gap):.1f} points {where} {even_text}" if round(abs(gap), 1) else f"level with {even_text}"
    if tests > 1:
        tail += (f" ({p_is(r.get('p_even'))}; {p_text(r.get('p_even_holm'))} after Holm's correction for {tests} "
                 "verdicts)")
    total = r["games"] + r["errors"]
    none = f"; {share_text(r['no_winner'], r['games'])} have no winner" if r["no_winner"] else ""
    played = "played " if r["errors"] else ""
    errors = (f"; {_games(r['errors'])} ({share_text(r['errors'], total)}) ended in an error and "
              f"{'is' if r['errors'] == 1 else 'are'} not counted" if r["errors"] else "")
    return (f"{pre}{who}: {label0} wins {rate_ci(r, f'{s0}_rate', f'{s0}_wins', 'games')} of {r['games']:,} "
            f"{played}{_strategies(r, seats)} games, {tail}{none}{errors}.")


# ---------------------------------------------------------------- what stands out

def _games(n: int) -> str:
    return f"{n:,} game" if n == 1 else f"{n:,} games"


def _of(k: int, n: int, whole: str) -> str:
    """The subject of a finding: "46 games (5.1% of the played games)", or
    "2 of the 30,000 played games" where the share would print as 0.0%."""
    share = share_text(k, n)
    return f"{count(k)} of the {count(n)} {whole}" if " of " in share else f"{_games(k)} ({share} of the {whole})"


def count_share(k: float | int, n: float | int) -> str:
    """A table cell: the count and its share, "1,234 (4.1%)"; "2 (under 0.1%)"
    where the share would print as 0.0% (the count is beside it)."""
    share = share_text(k, n)
    if " of " in share:
        share = "under 0.1%" if k < n / 2 else "over 99.9%"
    return f"{count(k)} ({share})"


def core_findings(r: dict[str, Any], seats: Sequence[str], no_winner: str = "ended with no winner",
                  shares: bool = False) -> list[str]:
    out = []
    if r["no_winner"]:
        counted = ("each of the k tied seats counts 1/k of a win" if shares
                   else "they count as a win for nobody")
        out.append(f"{_of(r['no_winner'], r['games'], 'played games')} {no_winner}; {counted}.")
    if r["errors"]:
        they = "it is" if r["errors"] == 1 else "they are"
        out.append(f"{_of(r['errors'], r['games'] + r['errors'], 'games of the cell')} ended in a strategy error; "
                   f"{they} left out of every rate (see Errors).")
    s0 = seats[0]
    if r["games"] == 0 or (r[f"{s0}_rate_hi"] - r[f"{s0}_rate_lo"]) > WIDE_INTERVAL:
        out.append(f"only {r['games']:,} games were played: too few for a useful interval overall.")
    return out


def _definitions(seats: Sequence[str], plugin: ModuleType | None) -> list[str]:
    labels = [seat_label(s) for s in seats]
    out = [
        "A cell is one rules variant and one strategy per seat; every number below is per cell.",
        "Games = games played out. Games that ended in a strategy error are counted apart (column errors) and "
        "are left out of every rate.",
        "Win rate of a seat = its wins / games; a game nobody won counts for nobody, so the seats' rates and "
        "the no-winner rate add up to 100%.",
        "Every rate is followed by its 95% Wilson score interval in brackets, in percent.",
        f"Balance is stated against an even game: {pct(1 / len(seats))} for each of "
        f"{', '.join(labels)}. A seat is called favoured only when its interval excludes that.",
        "Click a table header to sort by that column (again to reverse).",
    ]
    return out + list(getattr(plugin, "DEFINITIONS", []))


# ---------------------------------------------------------------- content

def _manifest_rows(man: dict[str, Any]) -> list[list[str]]:
    rows = []
    for k, v in man.items():
        if isinstance(v, str | int | float | bool):
            rows.append([k.replace("_", " "), f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)])
        elif isinstance(v, dict) and v and all(isinstance(x, str | int | float) for x in v.values()) and len(v) <= 12:
            rows.append([k.replace("_", " "), "; ".join(f"{a}: {b}" for a, b in v.items())])
    return rows


def _in_cell(df: pl.DataFrame, r: dict[str, Any], cell: Sequence[str]) -> pl.DataFrame:
    return df.filter(*(pl.col(c).eq_missing(r[c]) for c in cell))


def partial_banner(check: RunCheck) -> str:
    """The first line of a partial report: what it covers, and what it lacks."""
    found = check.problems()
    named = "; ".join(found[:3]) + (f"; and {len(found) - 3} more (rnsim verify lists them)" if len(found) > 3 else "")
    share = (f" ({share_text(check.present, check.planned)})" if check.planned else "")
    repeats = (f" Games on disk more than once ({check.n_repeated:,} extra rows) are counted once."
               if check.n_repeated else "")
    return (f"Partial report: {check.counts()}{share}. Every number below is over the games that are there, "
            f"not the whole run. {named[:1].upper() + named[1:]}.{repeats}")


def build(run_dir: Path, t: dict[str, pl.DataFrame], plan: FigurePlan,
          plugin: ModuleType | None = None, manifest: dict[str, Any] | None = None,
          check: RunCheck | None = None) -> list[Block]:
    """The report's content: headings, text, tables, and figures (planned in
    ``plan``; draw them with ``plan.draw()`` before rendering). ``check``: the
    run's check against its plan; a run that is not whole opens with a banner
    saying the report is partial."""
    man = read_manifest(run_dir) if manifest is None else manifest
    name = game_name(man)
    title = _title(name, plugin)
    head = t["headline"]
    lay = agg.layout((check.scan(partial=True) if check is not None else scan_results(run_dir)).collect_schema())
    seats, labels = lay.seats, [seat_label(s) for s in lay.seats]
    run_id = man.get("run_id") or run_dir.name
    total = int(head.select(pl.col("games").sum() + pl.col("errors").sum()).item()) if head.height else 0
    with_variant = head["variant"].n_unique() > 1
    ctx = ReportContext(run_dir, man, lay, title, plan.add, several_variants=with_variant)
    cells = [_cell_name(r, seats, with_variant, head.height) for r in head.iter_rows(named=True)]

    doc: list[Block] = [Banner(partial_banner(check))] if check is not None and not check.whole else []
    doc.append(Heading(1, f"{title} balance report: {run_id}", "top"))
    head = with_verdict_tests(head, seats) if head.height else head
    rows = list(head.iter_rows(named=True))
    # A game whose seats rotate (FBI) answers for the whole run, not per rotation of a lineup.
    run_level = plugin is not None and hasattr(plugin, "run_sections")
    own_verdicts = plugin.run_verdict(t, ctx) if rows and plugin is not None and hasattr(plugin, "run_verdict") else None
    if own_verdicts:
        doc += [Verdict(v) for v in own_verdicts]
    else:
        for r in rows[:8]:
            ctx.cell = r
            own = plugin.verdict(ctx) if plugin is not None and hasattr(plugin, "verdict") else None
            doc.append(Verdict(own or verdict(r, seats, with_variant)))
        if len(rows) > 8:
            doc.append(Para(f"… and {len(rows) - 8} more cells: see Outcomes."))
    ctx.cell = None
    if not rows:
        doc.append(Verdict("No game has been played yet."))
    else:
        from rnsim.band.words import band_verdicts  # it builds the report's blocks (a cycle at import)

        doc += band_verdicts(t.get(BAND_TABLE), seats, _watch(plugin)[1], with_variant)
    if head.height and not run_level:  # a run-level game opens with its own figures
        doc.append(Figure(plan.add("headline", "headline_chart", head, seats, labels, cells,
                                   f"Outcomes per cell ({total:,} games)"),
                          f"Share of played games won by each seat and won by nobody; the black bar is the 95% "
                          f"interval of {labels[0]}'s win rate, the dashed line an even game "
                          f"({pct(1 / len(seats))})."))
    doc.append(Contents())

    findings: list[str] = []
    if run_level and rows and hasattr(plugin, "run_findings"):
        findings += plugin.run_findings(t, ctx)  # type: ignore[union-attr]
    for r, cname in zip(rows, cells, strict=True):
        ctx.cell = r
        found = core_findings(r, seats, getattr(plugin, "NO_WINNER", "ended with no winner"), lay.shares)
        if run_level:  # the game words its findings for the whole run; keep the cell's errors
            found = [x for x in found if "strategy error" in x]
        if plugin is not None and hasattr(plugin, "findings") and r["games"]:
            found = plugin.findings(t, ctx) + found
        findings += [f"{cname}: {x}" if len(rows) > 1 else x[:1].upper() + x[1:] for x in found]
    tests = int(head["tests"][0]) if "tests" in head.columns and head.height else 0
    if tests > 1 and not own_verdicts:
        findings.append(chance_words(tests, "cell verdicts", "call a side favoured in"))
    doc += [Heading(2, "What stands out", "what-stands-out"), Bullets(findings or ["Nothing: no games yet."])]

    doc.append(Heading(2, "Outcomes", "outcomes"))
    doc.append(Table(
        ["variant", *(f"{x} strategy" for x in labels), "games", *(f"{x} wins" for x in labels), "no winner",
         "errors", "mean rounds", "median rounds"],
        [[r["variant"], *("–" if r[f"{s}_strategy"] is None else str(r[f"{s}_strategy"]) for s in seats),
          num(r["games"]),
          *("–" if r[f"{s}_strategy"] is None else rate_ci(r, f"{s}_rate", f"{s}_wins", "games") for s in seats),
          count_share(r["no_winner"], r["games"]),
          num(r["errors"]), num(r["mean_rounds"]), num(r["median_rounds"])] for r in rows],
        "Win rate [95% interval] per seat and cell.",
        numeric=[False] * (1 + len(seats)) + [True] * (len(seats) + 5)))
    doc += _matchups(head, lay, plan)
    doc += _band_section(t.get(BAND_TABLE), seats, plugin)
    if run_level and rows:
        ctx.cell = None
        for sec in plugin.run_sections(t, ctx):  # type: ignore[union-attr]
            doc.append(Heading(2, sec.title, sec.anchor or slug(sec.title)))
            doc += sec.blocks
    else:
        for r in rows:
            ctx.cell = r
            doc += _cell_section(r, t, ctx, plugin)
    doc += _errors_section(run_dir, t, lay)
    doc += [Heading(2, "How to read this report", "how-to-read"), Bullets(_definitions(seats, plugin))]
    doc.append(Heading(2, "Run", "run"))
    doc.append(Para(f"{total:,} result rows in {head.height} cell(s), read from {run_dir}/shards; "
                    f"game: {title}."))
    mrows = _manifest_rows(man)
    if mrows:
        doc.append(Table(["run", "value"], mrows, "From manifest.json"))
    doc.append(Heading(2, "Files", "files"))
    doc.append(Para("The tables behind every figure are in tables/ (CSV and Parquet, one row per cell and "
                    "group, rates as fractions with _lo/_hi interval columns); the figures are in figures/ "
                    "(PNG and SVG). Load them in Python with rnsim.analysis or polars.read_parquet."))
    doc.append(Bullets([f"tables/{n}.csv, tables/{n}.parquet" for n in t]))
    return doc


def _band_section(band: pl.DataFrame | None, seats: Sequence[str], plugin: ModuleType | None) -> list[Block]:
    from rnsim.band.words import band_section

    return band_section(band, seats, _watch(plugin)[1])


def _cell_name(r: dict[str, Any], seats: Sequence[str], with_variant: bool, n: int) -> str:
    name = " vs ".join(str(r[f"{s}_strategy"]) for s in seats if r[f"{s}_strategy"] is not None)
    return f"{r['variant']}: {name}" if with_variant or n == 1 else name


def _matchups(head: pl.DataFrame, lay: agg.Layout, plan: FigurePlan) -> list[Block]:
    if len(lay.seats) != 2:
        return []
    seats, labels = lay.seats, [seat_label(s) for s in lay.seats]
    a, b = (f"{s}_strategy" for s in seats)
    doc: list[Block] = []
    for variant in sorted(head["variant"].unique().to_list()):
        part = head.filter(pl.col("variant") == variant)
        if part.height < 2:
            continue
        if not doc:
            doc.append(Heading(2, "Matchups", "matchups"))
        doc.append(Heading(3, f"Variant {variant}", f"matchups-{slug(variant)}"))
        name = f"matchups-{slug(variant)}"
        doc.append(Figure(plan.add(name, "matchup_heatmap", part, seats, labels,
                                   f"{labels[0]}'s win rate by strategy pair ({variant})"),
                          f"{labels[0]}'s win rate for each strategy pair of variant {variant} (rows: "
                          f"{labels[0]}'s strategy, columns: {labels[1]}'s), with 95% interval and games; white is "
                          f"an even game."))
        cols = sorted(part[b].unique().to_list())
        rows = []
        for x in sorted(part[a].unique().to_list()):
            row = [x]
            for j in cols:
                hit = part.filter((pl.col(a) == x) & (pl.col(b) == j))
                row.append(f"{rate_ci(hit.row(0, named=True), f'{seats[0]}_rate')}, n={hit['games'][0]:,}"
                           if hit.height else "–")
            rows.append(row)
        doc.append(Table([f"{labels[0]} \\ {labels[1]}", *cols], rows,
                         f"{labels[0]}'s win rate [95% interval], games", numeric=[False] + [True] * len(cols)))
    return doc


def _reasons(gl: pl.DataFrame, seats: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Each end reason's legend label and colour: the winning seat's colour
    when one seat always wins by it."""
    out: dict[str, tuple[str, str]] = {}
    for reason in gl["end_reason"].unique(maintain_order=True).to_list():
        winners = gl.filter(pl.col("end_reason") == reason)["winner"].unique().to_list()
        if len(winners) == 1 and winners[0] in seats:
            i = list(seats).index(winners[0])
            out[reason] = (f"{seat_label(winners[0])} wins ({reason})", figs.seat_colour(i))
        elif winners == [None]:
            out[reason] = (f"no winner ({reason})", figs.NO_WINNER)
        else:
            out[reason] = (reason, figs.SEAT_COLOURS[-1 - len(out) % 3])
    return out


def _cell_section(r: dict[str, Any], t: dict[str, pl.DataFrame], ctx: ReportContext,
                  plugin: ModuleType | None) -> list[Block]:
    seats = ctx.seats
    label, s = ctx.cell_label, ctx.cell_slug
    doc: list[Block] = [Heading(2, label, s)]
    if not r["games"]:
        doc.append(Para(f"No game of this cell was played out: {r['errors']:,} ended in a strategy error "
                        f"(see Errors)."))
        return doc
    wins = ", ".join(f"{seat_label(x)} won {rate_ci(r, f'{x}_rate', f'{x}_wins', 'games')}" for x in seats)
    doc.append(Para(f"{r['games']:,} games played: {wins}, {r['no_winner']:,} with no winner "
                    f"({share_text(r['no_winner'], r['games'])}), {r['errors']:,} errors. Games last {num(r['mean_rounds'])} "
                    f"rounds on average (median {num(r['median_rounds'])})."))
    sections: list[Section] = []
    if plugin is not None and hasattr(plugin, "report_sections"):
        sections = plugin.report_sections(t, ctx)
    elif ctx.layout.setup and "by_setup" in t:
        sections = [_setup_section(t, ctx)]
    for sec in sections:
        doc.append(Heading(3, sec.title, sec.anchor or f"{s}-{slug(sec.title)}"))
        doc += sec.blocks
    doc.append(Heading(3, "Game length", f"{s}-length"))
    hist = _in_cell(t["game_length_histogram"], r, ctx.layout.cell)
    gl = _in_cell(t["game_length"], r, ctx.layout.cell)
    note = figs.longer_note(*figs.length_cut(hist)[1:])
    doc.append(Figure(ctx.figure("length", "game_length_chart", hist, _reasons(gl, seats), f"Game length — {label}"),
                      "How many rounds games last, by how they ended"
                      + (f"; the axis ends where {100 * figs.LENGTH_BULK:g}% of the games have ended: {note} (see "
                         "the table)." if note else ".")))
    doc.append(Table(
        ["end reason", "winner", "games", "share", "mean rounds", "median", "10th pct", "90th pct", "min", "max"],
        [[g["end_reason"], seat_label(g["winner"]) if g["winner"] else "nobody", num(g["games"]),
          share_text(g["games"], r["games"]),
          num(g["mean_rounds"]), num(g["median_rounds"], 0), num(g["p10_rounds"], 0), num(g["p90_rounds"], 0),
          num(g["min_rounds"], 0), num(g["max_rounds"], 0)] for g in gl.iter_rows(named=True)],
        "Game length by end reason.", numeric=[False, False, True, True, True, True, True, True, True, True]))
    return doc


def _setup_section(t: dict[str, pl.DataFrame], ctx: ReportContext) -> Section:
    """The core's view of setups, for a game without report sections."""
    setup = ctx.layout.setup or ""
    part = ctx.in_cell(t["by_setup"])
    return Section(f"By {setup.replace('_', ' ')}", [Table(
        [setup.replace("_", " "), "games", *(f"{seat_label(x)} wins" for x in ctx.seats), "no winner", "errors"],
        [[str(p[setup]), num(p["games"]), *(rate_ci(p, f"{x}_rate") for x in ctx.seats), num(p["no_winner"]),
          num(p["errors"])] for p in part.iter_rows(named=True)],
        "Win rate [95% interval] per seat.", numeric=[False] + [True] * (len(ctx.seats) + 3))])


def _clip(text: str, limit: int = 240) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _errors_section(run_dir: Path, t: dict[str, pl.DataFrame], lay: agg.Layout) -> list[Block]:
    doc: list[Block] = [Heading(2, "Errors", "errors")]
    ebc = t["errors_by_cell"]
    if not ebc.height:
        doc.append(Para("No game ended in a strategy error."))
        return doc
    doc.append(Para(f"{int(ebc['errors'].sum()):,} games ended in a strategy error. They are kept out of every "
                    f"rate above; their tracebacks are in errors/*.parquet."))
    keys = [c for c in ebc.columns if c != "errors"]
    doc.append(Table([k.replace("_", " ") for k in keys] + ["errors"],
                     [[str(e[k]) for k in keys] + [num(e["errors"])] for e in ebc.iter_rows(named=True)],
                     numeric=[False] * len(keys) + [True]))
    msgs = error_messages(run_dir)
    if msgs is not None and msgs.height:
        doc.append(Table([c.replace("_", " ") for c in msgs.columns],
                         [["–" if v is None else _clip(str(v)) for v in row] for row in msgs.rows()],
                         "Most frequent error messages, each with its first game (replay it with rnsim play, "
                         "the run's master seed and that game index).",
                         numeric=[c in ("count", "example_game_index") for c in msgs.columns]))
    return doc


# ---------------------------------------------------------------- rendering

def to_markdown(doc: Sequence[Block], base: Path) -> str:
    """The report as Markdown (template ``report.md.j2``); figures are linked
    relative to ``base``, the run directory."""
    return templating.render("report.md.j2", doc=doc, base=base)


def contents(doc: Sequence[Block]) -> list[tuple[Heading, list[Heading] | None]]:
    """The table of contents: each level-2 heading with the level-3 headings
    that follow it; a level-3 heading before any level-2 one on its own (None)."""
    out: list[tuple[Heading, list[Heading] | None]] = []
    for h in doc:
        if not isinstance(h, Heading) or h.level not in (2, 3):
            continue
        subs = out[-1][1] if out else None
        if h.level == 2:
            out.append((h, []))
        elif subs is not None:
            subs.append(h)
        else:
            out.append((h, None))
    return out


def to_html(doc: Sequence[Block], title: str) -> str:
    """The report as one self-contained HTML page (template ``report.html.j2``):
    figures embedded, the style and the script that sorts tables inline."""
    return templating.render("report.html.j2", doc=doc, title=title, nav=contents(doc),
                             sortable=any(isinstance(b, Table) for b in doc))


def write_tables(t: dict[str, pl.DataFrame], directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name, df in t.items():
        df.write_parquet(directory / f"{name}.parquet")
        df.write_csv(directory / f"{name}.csv")


#: what a refused report tells its reader to do
PARTIAL_HINT = "`rnsim report --partial` reports on the games that are there, each once"


def write_report(run_dir: str | Path, svg: bool = True, workers: int | None = None, *, partial: bool = False,
                 check: RunCheck | None = None) -> Path:
    """Write ``report.md``, ``report.html``, ``figures/`` and ``tables/`` into
    the run directory; returns the path of ``report.html``. Reads result
    tables only (``shards/``, ``errors/``, ``manifest.json``). ``workers``
    caps the processes drawing figures (default: every core; 1 = none).

    The run is checked against its plan first (``check``, when the caller made
    it): a run with games missing or on disk twice is refused
    (:class:`rnsim.results.integrity.RunNotWhole`) unless ``partial``; a
    partial report says so in its first line."""
    run_dir = Path(run_dir)
    if check is None:
        check = checked(run_dir, partial, PARTIAL_HINT)
    else:
        check.require(partial, PARTIAL_HINT)
    man = read_manifest(run_dir)
    plugin = game_report(game_name(man))
    t = compute_tables(run_dir, plugin, partial=partial, check=check)
    write_tables(t, run_dir / "tables")
    plan = FigurePlan(run_dir / "figures", svg=svg)
    doc = build(run_dir, t, plan, plugin, man, check)
    plan.draw(workers)
    (run_dir / "report.md").write_text(to_markdown(doc, run_dir))
    title = next((b.text for b in doc if isinstance(b, Heading)), "Balance report")
    if not check.whole:
        title += " (partial)"
    out = run_dir / "report.html"
    out.write_text(to_html(doc, title))
    return out
