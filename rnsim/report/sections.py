"""The report's document model, and the protocol by which a game adds its own
sections to the core report.

A report is a list of blocks (:class:`Heading`, :class:`Para`,
:class:`Bullets`, :class:`Table`, :class:`Figure`...) rendered to Markdown and
to self-contained HTML by the templates in ``rnsim/report/templates/`` (one
macro per block ``kind`` in each, see :mod:`rnsim.report.templating`). The core writes the
verdict, the per-seat outcome tables, matchups, game length, errors and the
run's metadata for any game. A game adds its own tables and sections with a
module ``report.py`` beside its game object (``rnsim/games/<name>/report.py``,
or ``<package>/report.py`` for a game installed through the ``rnsim.games``
entry points). Every hook is optional:

``TITLE: str``
    the game's name in the report title (default: the registry name).
``DEFINITIONS: list[str]``
    extra lines for "How to read this report".
``NO_WINNER: str``
    how games without a single winner ended, e.g. "ended in a timeout"
    (default "ended with no winner").
``columns(names: list[str]) -> list[str]``
    the game's own columns its tables read; the core loads them once, with
    its own, into memory (repeated strings as categoricals).
``tables(base: LazyFrame, rows: LazyFrame) -> dict[str, LazyFrame]``
    the game's own tables. ``base`` holds the core's and ``columns()``'s
    columns (in memory when the run is small enough, see
    ``render.IN_MEMORY_GAMES``); ``rows`` scans the shards (for big list
    columns, streamed). Each table is written to ``tables/<name>.csv`` and
    ``.parquet``; keep one row per cell and group, with the cell columns.
``report_sections(tables: dict[str, DataFrame], ctx: ReportContext) -> list[Section]``
    the game's sections for one cell (``ctx.cell``), placed after the cell's
    outcome and before its game length. Plan figures with ``ctx.figure``.
``findings(tables, ctx) -> list[str]``
    short findings for one cell, for "What stands out".
``run_verdict(tables, ctx) -> list[str] | None``
    verdict sentences for the whole run, replacing the per-cell ones (a game
    whose seats rotate, e.g. FBI, answers per player count, not per rotation).
``run_sections(tables, ctx) -> list[Section]`` and ``run_findings(tables, ctx) -> list[str]``
    when present, the game's sections for the whole run (level-2 headings,
    ``ctx.cell`` is None) replace the per-cell sections.
``verdict(ctx) -> str | None``
    the game's own wording of a cell's verdict sentence (default: the core's,
    built from the seat names and seat 0's win rate against an even game).

``tables`` passed to the two cell hooks holds the core tables (``headline``,
``by_setup``, ``game_length``, ...) and the game's; ``ctx.in_cell(df)`` keeps
a table's rows of the current cell.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar

import polars as pl

from rnsim.analysis.aggregate import Layout
from rnsim.results.shares import count, share_text

__all__ = ["Banner", "Block", "Bullets", "Contents", "Figure", "Heading", "Para", "ReportContext", "Section", "Table",
           "Verdict", "count", "p_is", "p_text", "pct", "rate_ci", "seat_label", "share_text", "slug"]


@dataclass
class Heading:
    kind: ClassVar[str] = "heading"  # its macro in the templates
    level: int
    text: str
    anchor: str = ""


@dataclass
class Para:
    kind: ClassVar[str] = "para"  # its macro in the templates
    text: str


@dataclass
class Banner:
    """A warning that comes before everything, the title included (a partial report)."""

    kind: ClassVar[str] = "banner"  # its macro in the templates
    text: str


@dataclass
class Verdict:
    """The report's answer: the first thing a reader sees."""

    kind: ClassVar[str] = "verdict"  # its macro in the templates
    text: str


@dataclass
class Bullets:
    kind: ClassVar[str] = "bullets"  # its macro in the templates
    items: list[str]


@dataclass
class Table:
    kind: ClassVar[str] = "table"  # its macro in the templates
    columns: list[str]
    rows: list[list[str]]
    caption: str = ""
    numeric: list[bool] = field(default_factory=list)

    def numeric_at(self, j: int) -> bool:
        """Whether column ``j`` holds numbers (right-aligned); a column
        ``numeric`` does not reach, or a cell beyond the columns, does not."""
        return j < len(self.columns) and j < len(self.numeric) and bool(self.numeric[j])


@dataclass
class Figure:
    kind: ClassVar[str] = "figure"  # its macro in the templates
    png: Path  # absolute path of the PNG
    caption: str

    @property
    def svg(self) -> Path:
        """The SVG drawn beside the PNG."""
        return self.png.with_suffix(".svg")


@dataclass
class Contents:
    """Where the table of contents goes (HTML only)."""

    kind: ClassVar[str] = "contents"  # its macro in the templates


Block = Banner | Heading | Para | Verdict | Bullets | Table | Figure | Contents


@dataclass
class Section:
    """A game's section of a cell: a titled run of blocks (a level-3 heading
    in the report; ``anchor`` defaults to the cell's slug and the title)."""

    title: str
    blocks: list[Block]
    anchor: str = ""


def pct(x: float | None, digits: int = 1) -> str:
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "–"
    return f"{100 * x:.{digits}f}%"


def rate_ci(r: dict[str, Any], prefix: str, k: str | None = None, n: str | None = None) -> str:
    """``52.0% [48.9, 55.1]``: a rate and its 95% Wilson interval. With the
    row's count columns ``k`` of ``n``, a rate that rounds to 0 or 100% is
    written as its counts: ``2 of 30,000 [0.0, 0.1]``."""
    v = r[prefix]
    if v is None or r[prefix + "_lo"] is None:
        return "–"
    shown = share_text(r[k], r[n]) if k is not None and n is not None and r.get(n) else pct(v)
    return f"{shown} [{100 * r[prefix + '_lo']:.1f}, {100 * r[prefix + '_hi']:.1f}]"


def p_text(p: float | None) -> str:
    """A p-value as the report prints it: 0.0432, 3.1e-05, < 1e-12."""
    if p is None or math.isnan(p):
        return "–"
    return "< 1e-12" if p < 1e-12 else f"{p:.3g}"


def p_is(p: float | None) -> str:
    """"p = 0.0432", "p < 1e-12"."""
    text = p_text(p)
    return f"p {text}" if text.startswith("<") else f"p = {text}"


def slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower() or "x"


def seat_label(seat: str) -> str:
    """A seat's name as the report writes it: ``night_owl`` -> ``Night owl``."""
    return seat.replace("_", " ").capitalize()


@dataclass
class ReportContext:
    """What a game's report hooks know besides the tables."""

    run_dir: Path
    manifest: dict[str, Any]
    layout: Layout
    title: str  # the game's title
    add_figure: Callable[..., Path]  # FigurePlan.add(name, "module:function", *args)
    cell: dict[str, Any] | None = None  # the current cell's headline row
    several_variants: bool = False  # the run compares variants (verdicts name theirs)

    @property
    def seats(self) -> tuple[str, ...]:
        return self.layout.seats

    def seat_label(self, seat: str) -> str:
        return seat_label(seat)

    def in_cell(self, df: pl.DataFrame) -> pl.DataFrame:
        """The rows of ``df`` that belong to the current cell."""
        assert self.cell is not None, "in_cell needs a current cell"
        return df.filter(*(pl.col(c).eq_missing(self.cell[c]) for c in self.layout.cell))

    @property
    def cell_label(self) -> str:
        assert self.cell is not None
        r = self.cell
        vs = " vs ".join(f"{r[f'{s}_strategy']} ({seat_label(s)})" for s in self.layout.seats
                         if r[f"{s}_strategy"] is not None)
        return f"{r['variant']}: {vs}"

    @property
    def cell_slug(self) -> str:
        assert self.cell is not None
        return slug("--".join(str(self.cell[c]) for c in self.layout.cell))

    def figure(self, name: str, function: str, *args: Any) -> Path:
        """Plan a figure of the current cell: ``function`` ("module:function")
        is called with ``args`` in a worker and returns a matplotlib Figure."""
        return self.add_figure(f"{self.cell_slug}-{name}" if self.cell is not None else name, function, *args)
