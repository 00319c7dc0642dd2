"""Building the report of a run: aggregate (one lazy scan over the shards),
write the tables (CSV + Parquet) and the figures (PNG + SVG), and render the
same content as Markdown and as one self-contained HTML file (figures embedded
as base64 PNG, inline CSS, no network, prints cleanly)."""

from __future__ import annotations

import base64
import html
import math
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import polars as pl

from rnsim.analysis import aggregate as agg
from rnsim.analysis.load import read_manifest, scan_errors, scan_results
from rnsim.report import figures as figs

#: a 95% interval wider than this (in rate units) is "too few games to be useful"
WIDE_INTERVAL = 0.20


# ---------------------------------------------------------------- document model

@dataclass
class Heading:
    level: int
    text: str
    anchor: str = ""


@dataclass
class Para:
    text: str


@dataclass
class Bullets:
    items: list[str]


@dataclass
class Table:
    columns: list[str]
    rows: list[list[str]]
    caption: str = ""
    numeric: list[bool] = field(default_factory=list)


@dataclass
class Figure:
    png: Path  # absolute path of the PNG
    caption: str


Block = Heading | Para | Bullets | Table | Figure


# ---------------------------------------------------------------- figures

def _draw(job: tuple[str, str, tuple[Any, ...], str, bool]) -> str:
    """Draw and save one figure; module-level so a worker process can run it."""
    name, func, args, directory, svg = job
    fig = getattr(figs, func)(*args)
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
        """Plan ``figures.<func>(*args)`` as ``<name>.png``; returns that path."""
        self.jobs.append((name, func, args, str(self.directory), self.svg))
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


# ---------------------------------------------------------------- formatting

def pct(x: float | None, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{100 * x:.{digits}f}%"


def rate_ci(r: dict[str, Any], prefix: str) -> str:
    """``52.0% [48.9–55.1]``: a rate and its 95% Wilson interval."""
    v = r[prefix]
    if v is None:
        return "–"
    return f"{pct(v)} [{100 * r[prefix + '_lo']:.1f}–{100 * r[prefix + '_hi']:.1f}]"


def num(x: float | int | None, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    if isinstance(x, int):
        return f"{x:,}"
    return f"{x:,.{digits}f}"


def cell_label(r: dict[str, Any]) -> str:
    return f"{r['variant']}: {r['angela_strategy']} (Angela) vs {r['jessah_strategy']} (Jessah)"


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "x"


def cell_slug(r: dict[str, Any]) -> str:
    return slug(f"{r['variant']}--{r['angela_strategy']}--vs--{r['jessah_strategy']}")


def _in_cell(df: pl.DataFrame, r: dict[str, Any]) -> pl.DataFrame:
    return df.filter(*(pl.col(c).eq_missing(r[c]) for c in agg.CELL))


def _ident(x: str) -> str:
    return x.replace("_", " ")


# ---------------------------------------------------------------- aggregation

TABLES = ("headline", "identity_pairs", "identities", "upgrades", "matchups", "game_length",
          "game_length_histogram", "flow_by_round", "errors_by_cell")


#: up to this many games, the columns the scalar tables need are read from the
#: shards once and kept in memory, repeated strings (cells, pairs, winners) as
#: categoricals: about 60 MB per million games. A runner writes one shard per
#: chunk, so a million games can be 4,000 files, and opening them once instead
#: of once per table is what keeps a report fast. Bigger runs are aggregated
#: straight from the shards, table by table.
IN_MEMORY_GAMES = 5_000_000


def compute_tables(run_dir: str | Path) -> dict[str, pl.DataFrame]:
    """Every table of the report.

    Tables are computed one after the other (not in parallel) and with the
    streaming engine, so the peak memory of a million-game report stays a few
    hundred MB (the runner's target for a whole run is 500 MB)."""
    lf = scan_results(run_dir)
    games = lf.select(pl.len()).collect().item()
    if games <= IN_MEMORY_GAMES:
        schema = lf.collect_schema()
        cols = [pl.col(c).cast(pl.Categorical) if schema[c] == pl.String else pl.col(c)
                for c in agg.scalar_columns(lf)]
        base = lf.select(cols).collect(engine="streaming").lazy()
    else:
        base = lf
    queries = {
        "headline": agg.headline_query(base), "identity_pairs": agg.identity_pairs_query(base),
        "identities": agg.identities_query(base), "upgrades": agg.upgrades_query(base),
        "matchups": agg.matchups_query(base), "game_length": agg.game_length_query(base),
        "game_length_histogram": agg.game_length_histogram_query(base),
        "flow_by_round": agg.flow_by_round_query(lf),  # the by-round lists stream from the shards
        "errors_by_cell": agg.errors_by_cell_query(base),
    }
    tables = {}
    for name in TABLES:
        df = queries[name].collect(engine="streaming")
        tables[name] = df.with_columns(pl.col(pl.Categorical).cast(pl.String))
    return tables


def error_messages(run_dir: str | Path, limit: int = 10) -> pl.DataFrame | None:
    """The most frequent strategy-error messages of the side table."""
    lf = scan_errors(run_dir)
    if lf is None:
        return None
    names = lf.collect_schema().names()
    keys = [c for c in ("seat", "strategy", "decision", "message") if c in names]
    if not keys:
        return None
    # one example game per message, to replay it: its cell and game index
    example = [pl.col(c).sort_by("game_index").first().alias(f"example_{c}")
               for c in ("variant", "identity_pair", "game_index") if c in names and "game_index" in names]
    return (lf.group_by(keys).agg(pl.len().alias("count"), *example)
            .sort(["count", *keys], descending=[True, *[False] * len(keys)], nulls_last=True)
            .head(limit).collect())


# ---------------------------------------------------------------- what stands out

def _some(items: list[str], limit: int = 6) -> str:
    """The first few of a list, then how many more."""
    more = f" and {len(items) - limit} more" if len(items) > limit else ""
    return ", ".join(items[:limit]) + more


def standouts(t: dict[str, pl.DataFrame]) -> list[str]:
    """Short findings generated from the numbers, per cell."""
    out: list[str] = []
    head = t["headline"]
    several = head.height > 1
    one_variant = head["variant"].n_unique() == 1
    for r in head.iter_rows(named=True):
        short = f"{r['angela_strategy']} vs {r['jessah_strategy']}"
        pre = "" if not several else f"{short}: " if one_variant else f"{r['variant']}, {short}: "
        pairs = _in_cell(t["identity_pairs"], r).filter(pl.col("games") > 0)
        if pairs.height:
            best, worst = pairs.row(0, named=True), pairs.row(pairs.height - 1, named=True)
            out.append(f"{pre}the most favourable identity pair for Angela is {_ident(best['identity_pair'])} "
                       f"({rate_ci(best, 'forger_rate')}, {best['games']:,} games); the least favourable is "
                       f"{_ident(worst['identity_pair'])} ({rate_ci(worst, 'forger_rate')}, {worst['games']:,} games); "
                       f"overall {pct(r['forger_rate'])}.")
            flagged = pairs.filter(pl.col("differs"))
            if flagged.height:
                out.append(f"{pre}{flagged.height} of {pairs.height} pairs have a 95% interval that excludes the "
                           f"overall rate: " + _some([f"{_ident(x)} ({pct(v)})" for x, v in
                                                      zip(flagged["identity_pair"], flagged["forger_rate"],
                                                          strict=True)]) + ".")
            else:
                out.append(f"{pre}no identity pair's 95% interval excludes the overall rate of {pct(r['forger_rate'])}.")
            wide = pairs.filter((pl.col("forger_rate_hi") - pl.col("forger_rate_lo")) > WIDE_INTERVAL)
            if wide.height:
                what = f"too few games for a useful interval (95% interval wider than {100 * WIDE_INTERVAL:.0f} points)"
                if wide.height == pairs.height:
                    out.append(f"{pre}{what} in every identity pair ({int(pairs['games'].min()):,} to "  # type: ignore[arg-type]
                               f"{int(pairs['games'].max()):,} games each): play more games per cell.")  # type: ignore[arg-type]
                else:
                    out.append(f"{pre}{what} in {wide.height} pair(s): " + _some(
                        [f"{_ident(x)} ({n:,} games)" for x, n in
                         zip(wide["identity_pair"], wide["games"], strict=True)]) + ".")
        ups = _in_cell(t["upgrades"], r)
        if ups.height and "effect" in ups.columns:
            ups = ups.filter(pl.col("effect").is_not_null() & pl.col("effect").is_not_nan())
        if ups.height:
            big = ups.sort(pl.col("effect").abs(), descending=True).row(0, named=True)
            out.append(f"{pre}the upgrade with the biggest effect is {_ident(big['upgrade'])}: Jessah wins "
                       f"{rate_ci(big, 'agent_rate_with')} of the {big['gained']:,} games where she gained it versus "
                       f"{rate_ci(big, 'agent_rate_without')} of the {big['games_without']:,} where she did not "
                       f"({100 * big['effect']:+.1f} points; an association, not a controlled effect).")
        ids = _in_cell(t["identities"], r).filter(pl.col("games") > 0)
        if ids.height:
            burnt = ids.sort("burnt_first_share", descending=True, nulls_last=True).row(0, named=True)
            out.append(f"{pre}{_ident(burnt['identity'])} is the identity most often burnt first "
                       f"({pct(burnt['burnt_first_share'])} of the games it was dealt in).")
        if r["timeouts"]:
            out.append(f"{pre}{r['timeouts']:,} games ({pct(r['timeout_rate'])}) ended in a timeout; "
                       f"they count for neither side.")
        if r["errors"]:
            out.append(f"{pre}{r['errors']:,} games ended in a strategy error; they are left out of every rate "
                       f"(see Errors).")
        small = r["games"] == 0 or (r["forger_rate_hi"] - r["forger_rate_lo"]) > WIDE_INTERVAL
        if small:
            out.append(f"{pre}only {r['games']:,} games were played: too few for a useful interval overall.")
    return out


# ---------------------------------------------------------------- content

DEFINITIONS = [
    "A cell is one rules variant and one strategy pair; every number below is per cell.",
    "Games = games played out (end reason million, arrest or timeout). Games that ended in a strategy error are "
    "counted apart (column errors) and are left out of every rate.",
    "Forger (Angela) win rate = Angela's wins / games. Agent (Jessah) win rate = Jessah's wins / games. "
    "Timeout rate = timeouts / games. A timeout is nobody's win, so the three rates add up to 100%.",
    "Every rate is followed by its 95% Wilson score interval in brackets, in percentage points.",
    f"A flagged pair (⚑) is one whose interval excludes the cell's overall forger rate. An interval wider "
    f"than {100 * WIDE_INTERVAL:.0f} points means too few games for a useful estimate.",
    "Upgrade win rates compare games where Jessah gained the upgrade with games where she did not: this is an "
    "association, not a controlled experiment (long games give her more chances to gain upgrades).",
]


def _manifest_rows(man: dict[str, Any]) -> list[list[str]]:
    rows = []
    for k, v in man.items():
        if isinstance(v, str | int | float | bool):
            rows.append([k.replace("_", " "), f"{v:,}" if isinstance(v, int) and not isinstance(v, bool) else str(v)])
        elif isinstance(v, dict) and v and all(isinstance(x, str | int | float) for x in v.values()) and len(v) <= 12:
            rows.append([k.replace("_", " "), "; ".join(f"{a}: {b}" for a, b in v.items())])
    return rows


def build(run_dir: Path, t: dict[str, pl.DataFrame], plan: FigurePlan) -> list[Block]:
    """The report's content: headings, text, tables, and figures (planned in
    ``plan``; draw them with ``plan.draw()`` before rendering)."""
    man = read_manifest(run_dir)
    head = t["headline"]
    run_id = man.get("run_id") or run_dir.name
    total = int(head.select(pl.col("games").sum() + pl.col("errors").sum()).item()) if head.height else 0
    doc: list[Block] = [Heading(1, f"Red Notice balance report: {run_id}", "top")]
    doc.append(Para(f"{total:,} result rows in {head.height} cell(s), read from {run_dir}/shards."))
    mrows = _manifest_rows(man)
    if mrows:
        doc.append(Table(["run", "value"], mrows, "From manifest.json"))

    doc += [Heading(2, "How to read this report", "how-to-read"), Bullets(DEFINITIONS)]
    doc += [Heading(2, "What stands out", "what-stands-out"), Bullets(standouts(t) or ["No games yet."])]

    doc.append(Heading(2, "Headline", "headline"))
    doc.append(Table(
        ["variant", "Angela strategy", "Jessah strategy", "games", "forger win rate", "agent win rate",
         "timeouts", "errors", "mean rounds", "median rounds"],
        [[r["variant"], r["angela_strategy"], r["jessah_strategy"], num(r["games"]), rate_ci(r, "forger_rate"),
          rate_ci(r, "agent_rate"), f"{r['timeouts']:,} ({pct(r['timeout_rate'])})", num(r["errors"]),
          num(r["mean_rounds"]), num(r["median_rounds"])] for r in head.iter_rows(named=True)],
        numeric=[False, False, False, True, True, True, True, True, True, True]))
    if head.height:
        doc.append(Figure(plan.add("headline", "headline_chart", head, "Outcomes per cell"),
                          "Share of played games won by each side, and timeouts; the black bar is the 95% "
                          "interval of Angela's win rate."))

    mu = t["matchups"]
    for variant in sorted(mu["variant"].unique().to_list()):
        part = mu.filter(pl.col("variant") == variant)
        if part.height < 2:
            continue
        if not any(isinstance(b, Heading) and b.anchor == "matchups" for b in doc):
            doc.append(Heading(2, "Matchups", "matchups"))
        doc.append(Heading(3, f"Variant {variant}", f"matchups-{slug(variant)}"))
        name = f"matchups-{slug(variant)}"
        doc.append(Figure(plan.add(name, "matchup_heatmap", part, f"Forger win rate by strategy pair ({variant})"),
                          f"Angela's win rate for each strategy pair of variant {variant} (rows: Angela's strategy, "
                          f"columns: Jessah's), with 95% interval and games."))
        cols = sorted(part["jessah_strategy"].unique().to_list())
        rows = []
        for a in sorted(part["angela_strategy"].unique().to_list()):
            row = [a]
            for j in cols:
                hit = part.filter((pl.col("angela_strategy") == a) & (pl.col("jessah_strategy") == j))
                row.append(f"{rate_ci(hit.row(0, named=True), 'forger_rate')}, n={hit['games'][0]:,}"
                           if hit.height else "–")
            rows.append(row)
        doc.append(Table(["Angela \\ Jessah", *cols], rows, "Forger win rate [95% interval], games",
                         numeric=[False] + [True] * len(cols)))

    for r in head.iter_rows(named=True):
        doc += _cell_section(r, t, plan)

    doc += _errors_section(run_dir, t)
    doc.append(Heading(2, "Files", "files"))
    doc.append(Para("The tables behind every figure are in tables/ (CSV and Parquet, one row per cell and "
                    "group, rates as fractions with _lo/_hi interval columns); the figures are in figures/ "
                    "(PNG and SVG). Load them in Python with rnsim.analysis or polars.read_parquet."))
    doc.append(Bullets([f"tables/{n}.csv, tables/{n}.parquet" for n in TABLES]))
    return doc


def _cell_section(r: dict[str, Any], t: dict[str, pl.DataFrame], plan: FigurePlan) -> list[Block]:
    label = cell_label(r)
    s = cell_slug(r)
    doc: list[Block] = [Heading(2, label, s)]
    if not r["games"]:
        doc.append(Para(f"No game of this cell was played out: {r['errors']:,} ended in a strategy error "
                        f"(see Errors)."))
        return doc
    doc.append(Para(f"{r['games']:,} games played: Angela won {rate_ci(r, 'forger_rate')}, Jessah won "
                    f"{rate_ci(r, 'agent_rate')}, {r['timeouts']:,} timeouts ({pct(r['timeout_rate'])}), "
                    f"{r['errors']:,} errors. Games last {num(r['mean_rounds'])} rounds on average "
                    f"(median {num(r['median_rounds'])})."))

    pairs = _in_cell(t["identity_pairs"], r)
    doc.append(Heading(3, "Identity pairs", f"{s}-pairs"))
    if pairs.height:
        doc.append(Figure(plan.add(f"{s}-pairs", "pair_heatmap", pairs, f"Forger win rate by identity pair\n{label}"),
                          "Angela's win rate for each pair of identities (symmetric; the diagonal is not a pair), "
                          "with its 95% interval and the number of games. A black frame marks a pair whose "
                          "interval excludes the overall rate."))
        doc.append(Table(
            ["rank", "identity pair", "games", "forger win rate", "agent win rate", "timeouts", "errors", "flag"],
            [[str(p["rank"]), _ident(p["identity_pair"]), num(p["games"]), rate_ci(p, "forger_rate"),
              rate_ci(p, "agent_rate"), num(p["timeouts"]), num(p["errors"]),
              ("⚑ above overall" if (p["forger_rate"] or 0) > (p["overall_forger_rate"] or 0) else "⚑ below overall")
              if p["differs"] else ""]
             for p in pairs.iter_rows(named=True)],
            f"Best to worst pair for Angela; overall forger rate {pct(r['forger_rate'])}. ⚑ = the pair's 95% "
            f"interval excludes the overall rate.",
            numeric=[True, False, True, True, True, True, True, False]))

    ids = _in_cell(t["identities"], r)
    doc.append(Heading(3, "Identities", f"{s}-identities"))
    if ids.height:
        doc.append(Figure(plan.add(f"{s}-identities", "identities_chart", ids, r["forger_rate"], f"Identities — {label}"),
                          "Left: Angela's win rate over the games whose pair contains the identity (dashed: "
                          "overall). Right: how often it was the first identity she burnt. Bars: 95% intervals."))
        doc.append(Table(
            ["identity", "games dealt", "forger win rate", "burnt first", "burnt first share"],
            [[_ident(i["identity"]), num(i["games"]), rate_ci(i, "forger_rate"), num(i["burnt_first"]),
              rate_ci(i, "burnt_first_share")] for i in ids.iter_rows(named=True)],
            "Each game counts for both identities of its pair.", numeric=[False, True, True, True, True]))

    ups = _in_cell(t["upgrades"], r)
    doc.append(Heading(3, "Upgrades", f"{s}-upgrades"))
    if ups.height and "effect" in ups.columns:
        ups = ups.sort(pl.col("effect").abs(), descending=True, nulls_last=True)
        doc.append(Figure(plan.add(f"{s}-upgrades", "upgrades_chart", ups, f"Upgrades — {label}"),
                          "Left: Jessah's win rate in games where she gained the upgrade and where she did not. "
                          "Right: how often she gained it, and the median round. Bars: 95% intervals."))
        doc.append(Table(
            ["upgrade", "gained", "gained in", "agent wins with it", "agent wins without it", "difference",
             "median round", "mean round"],
            [[_ident(u["upgrade"]), num(u["gained"]), rate_ci(u, "gained_rate"),
              rate_ci(u, "agent_rate_with"), rate_ci(u, "agent_rate_without"),
              "–" if u["effect"] is None or math.isnan(u["effect"]) else f"{100 * u['effect']:+.1f} pts",
              num(u["median_round"]), num(u["mean_round"])] for u in ups.iter_rows(named=True)],
            "Sorted by the size of the difference. Played games only.",
            numeric=[False, True, True, True, True, True, True, True]))
    else:
        doc.append(Para("The result table has no upgrade columns (upgrade_<id>)."))

    doc.append(Heading(3, "Game flow", f"{s}-flow"))
    hist = _in_cell(t["game_length_histogram"], r)
    doc.append(Figure(plan.add(f"{s}-length", "game_length_chart", hist, f"Game length — {label}"),
                      "How many rounds games last, by how they ended."))
    gl = _in_cell(t["game_length"], r)
    doc.append(Table(
        ["end reason", "winner", "games", "share", "mean rounds", "median", "10th pct", "90th pct", "min", "max"],
        [[g["end_reason"], g["winner"] or "nobody", num(g["games"]), pct(g["share"]), num(g["mean_rounds"]),
          num(g["median_rounds"], 0), num(g["p10_rounds"], 0), num(g["p90_rounds"], 0), num(g["min_rounds"], 0),
          num(g["max_rounds"], 0)] for g in gl.iter_rows(named=True)],
        "Game length by end reason.", numeric=[False, False, True, True, True, True, True, True, True, True]))
    flow = _in_cell(t["flow_by_round"], r)
    if flow.height:
        doc.append(Figure(plan.add(f"{s}-flow", "flow_chart", flow, f"Cash and captures by round — {label}"),
                          "Mean cumulative cash of each side and mean captures at the end of each round, over the "
                          "games still in play then (shaded: how many), so late rounds describe long games only."))
    return doc


def _clip(text: str, limit: int = 240) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _errors_section(run_dir: Path, t: dict[str, pl.DataFrame]) -> list[Block]:
    doc: list[Block] = [Heading(2, "Errors", "errors")]
    ebc = t["errors_by_cell"]
    if not ebc.height:
        doc.append(Para("No game ended in a strategy error."))
        return doc
    doc.append(Para(f"{int(ebc['errors'].sum()):,} games ended in a strategy error. They are kept out of every "
                    f"rate above; their tracebacks are in errors/*.parquet."))
    doc.append(Table(["variant", "Angela strategy", "Jessah strategy", "identity pair", "errors"],
                     [[e["variant"], e["angela_strategy"], e["jessah_strategy"], _ident(e["identity_pair"]),
                       num(e["errors"])] for e in ebc.iter_rows(named=True)],
                     numeric=[False, False, False, False, True]))
    msgs = error_messages(run_dir)
    if msgs is not None and msgs.height:
        doc.append(Table([c.replace("_", " ") for c in msgs.columns],
                         [["–" if v is None else _clip(str(v)) for v in row] for row in msgs.rows()],
                         "Most frequent error messages, each with its first game (replay it with rnsim play, "
                         "the run's master seed and that game index).",
                         numeric=[c in ("count", "example_game_index") for c in msgs.columns]))
    return doc


# ---------------------------------------------------------------- rendering

def _md_cell(s: str) -> str:
    return s.replace("|", "\\|").replace("\n", " ")


def to_markdown(doc: Sequence[Block], base: Path) -> str:
    out: list[str] = []
    for b in doc:
        if isinstance(b, Heading):
            out.append(f"{'#' * b.level} {b.text}\n")
        elif isinstance(b, Para):
            out.append(b.text + "\n")
        elif isinstance(b, Bullets):
            out.append("\n".join(f"- {x}" for x in b.items) + "\n")
        elif isinstance(b, Table):
            align = [("---:" if (b.numeric[i] if i < len(b.numeric) else False) else "---")
                     for i in range(len(b.columns))]
            lines = ["| " + " | ".join(_md_cell(c) for c in b.columns) + " |", "| " + " | ".join(align) + " |"]
            lines += ["| " + " | ".join(_md_cell(c) for c in row) + " |" for row in b.rows]
            if b.caption:
                lines.append(f"\n*{b.caption}*")
            out.append("\n".join(lines) + "\n")
        elif isinstance(b, Figure):
            rel = b.png.relative_to(base).as_posix()
            out.append(f"![{_md_cell(b.caption)}]({rel})\n\n*{b.caption}* ([SVG]({rel[:-4]}.svg))\n")
    return "\n".join(out)


CSS = """
:root { --ink: #1d1d1f; --muted: #5f6368; --rule: #d9d9de; --band: #f6f6f8; --accent: #b2182b; }
* { box-sizing: border-box; }
body { font: 15px/1.5 -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif; color: var(--ink);
       max-width: 1100px; margin: 0 auto; padding: 24px 32px 64px; }
h1 { font-size: 1.7em; border-bottom: 3px solid var(--accent); padding-bottom: 6px; }
h2 { font-size: 1.3em; margin-top: 2.2em; border-bottom: 1px solid var(--rule); padding-bottom: 4px; }
h3 { font-size: 1.08em; margin-top: 1.6em; }
p, li { max-width: 80ch; }
nav { background: var(--band); border: 1px solid var(--rule); border-radius: 6px; padding: 10px 18px;
      font-size: 0.92em; }
nav ul { margin: 4px 0; padding-left: 20px; }
a { color: #1a56a6; text-decoration: none; }
table { border-collapse: collapse; margin: 10px 0 4px; font-size: 0.86em; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid var(--rule); padding: 4px 10px; text-align: left; vertical-align: top; }
th { background: var(--band); font-weight: 600; }
td.num, th.num { text-align: right; white-space: nowrap; }
tbody tr:nth-child(even) td { background: #fbfbfc; }
caption { caption-side: bottom; text-align: left; color: var(--muted); font-size: 0.92em; padding-top: 4px; }
figure { margin: 14px 0 20px; }
figure img { max-width: 100%; height: auto; border: 1px solid var(--rule); border-radius: 4px; }
figcaption { color: var(--muted); font-size: 0.9em; max-width: 90ch; }
.table-wrap { overflow-x: auto; }
@media print {
  body { max-width: none; padding: 0; font-size: 10.5pt; }
  nav { display: none; }
  h2 { break-before: auto; break-after: avoid; }
  h3 { break-after: avoid; }
  figure, table, tr { break-inside: avoid; page-break-inside: avoid; }
  thead { display: table-header-group; }
  figure img { border: none; max-height: 24cm; }
  a { color: inherit; }
  .table-wrap { overflow: visible; }
}
@page { size: A4; margin: 14mm 12mm; }
"""


def to_html(doc: Sequence[Block], title: str) -> str:
    esc = html.escape
    toc = [b for b in doc if isinstance(b, Heading) and b.level in (2, 3)]
    nav = ["<nav><strong>Contents</strong><ul>"]
    open_sub = False
    for h in toc:
        if h.level == 2:
            if open_sub:
                nav.append("</ul></li>")
                open_sub = False
            nav.append(f'<li><a href="#{esc(h.anchor)}">{esc(h.text)}</a>')
            nav.append("<ul>")
            open_sub = True
        else:
            nav.append(f'<li><a href="#{esc(h.anchor)}">{esc(h.text)}</a></li>')
    if open_sub:
        nav.append("</ul></li>")
    nav.append("</ul></nav>")
    nav_html = "\n".join(nav).replace("<ul>\n</ul>", "")

    body: list[str] = []
    for i, b in enumerate(doc):
        if isinstance(b, Heading):
            body.append(f'<h{b.level} id="{esc(b.anchor)}">{esc(b.text)}</h{b.level}>')
            if i == 0:
                body.append("@@NAV@@")
        elif isinstance(b, Para):
            body.append(f"<p>{esc(b.text)}</p>")
        elif isinstance(b, Bullets):
            body.append("<ul>" + "".join(f"<li>{esc(x)}</li>" for x in b.items) + "</ul>")
        elif isinstance(b, Table):
            numeric = [j < len(b.numeric) and b.numeric[j] for j in range(len(b.columns))]

            def cls(j: int, numeric: list[bool] = numeric) -> str:
                return ' class="num"' if j < len(numeric) and numeric[j] else ""
            rows = "".join("<tr>" + "".join(f"<td{cls(j)}>{esc(c)}</td>" for j, c in enumerate(row)) + "</tr>"
                           for row in b.rows)
            cap = f"<caption>{esc(b.caption)}</caption>" if b.caption else ""
            head = "".join(f"<th{cls(j)}>{esc(c)}</th>" for j, c in enumerate(b.columns))
            body.append(f'<div class="table-wrap"><table>{cap}<thead><tr>{head}</tr></thead>'
                        f"<tbody>{rows}</tbody></table></div>")
        elif isinstance(b, Figure):
            data = base64.b64encode(b.png.read_bytes()).decode("ascii")
            body.append(f'<figure><img alt="{esc(b.caption)}" src="data:image/png;base64,{data}">'
                        f"<figcaption>{esc(b.caption)}</figcaption></figure>")
    text = "\n".join(body).replace("@@NAV@@", nav_html, 1)
    return (f'<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">\n'
            f"<title>{esc(title)}</title>\n<style>{CSS}</style>\n</head>\n<body>\n{text}\n</body>\n</html>\n")


def write_tables(t: dict[str, pl.DataFrame], directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    for name, df in t.items():
        df.write_parquet(directory / f"{name}.parquet")
        df.write_csv(directory / f"{name}.csv")


def write_report(run_dir: str | Path, svg: bool = True, workers: int | None = None) -> Path:
    """Write ``report.md``, ``report.html``, ``figures/`` and ``tables/`` into
    the run directory; returns the path of ``report.html``. Reads result
    tables only (``shards/``, ``errors/``, ``manifest.json``). ``workers``
    caps the processes drawing figures (default: every core; 1 = none)."""
    run_dir = Path(run_dir)
    t = compute_tables(run_dir)
    write_tables(t, run_dir / "tables")
    plan = FigurePlan(run_dir / "figures", svg=svg)
    doc = build(run_dir, t, plan)
    plan.draw(workers)
    (run_dir / "report.md").write_text(to_markdown(doc, run_dir))
    title = doc[0].text if isinstance(doc[0], Heading) else "Red Notice balance report"
    out = run_dir / "report.html"
    out.write_text(to_html(doc, title))
    return out
