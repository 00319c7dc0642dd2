"""The report: a real small run (the tournament runner, serial backend) gets a
complete Markdown and self-contained HTML report; the CLI; edge cases."""

from __future__ import annotations

import base64
import re
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import numpy as np
import polars as pl
import pytest
from click.testing import CliRunner
from polars.testing import assert_frame_equal

from rnsim.analysis import layout, wilson
from rnsim.cli import main
from rnsim.games.red_notice.synthetic import random_results, table_from_games, write_run
from rnsim.report import write_report

TABLES = ("headline", "by_setup", "game_length", "game_length_histogram", "errors_by_cell",
          "identity_pairs", "identities", "upgrades", "upgrade_rounds", "flow_by_round")

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


class _Doc(HTMLParser):
    """Collects what the tests check: ids, headings, images, links, and tag balance."""

    VOID = {"meta", "img", "br", "hr", "link", "input"}

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.ids: list[str] = []
        self.headings: list[str] = []
        self.imgs: list[str] = []
        self.hrefs: list[str] = []
        self.stack: list[str] = []
        self.unbalanced: list[str] = []
        self._in_heading = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if a.get("id"):
            self.ids.append(a["id"] or "")
        if tag == "img":
            self.imgs.append(a.get("src") or "")
        if tag == "a":
            self.hrefs.append(a.get("href") or "")
        if tag in ("h1", "h2", "h3"):
            self._in_heading = True
            self.headings.append("")
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag: str) -> None:
        if tag in ("h1", "h2", "h3"):
            self._in_heading = False
        if not self.stack or self.stack.pop() != tag:
            self.unbalanced.append(tag)

    def handle_data(self, data: str) -> None:
        if self._in_heading:
            self.headings[-1] += data


@pytest.fixture(scope="module")
def real_run(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A real tournament: 15 identity pairs x 12 games x 2 Angela strategies,
    random play, serial backend."""
    from rnsim.config import config_from_mapping
    from rnsim.tournament.run import run_tournament

    out = tmp_path_factory.mktemp("real") / "run"
    raw = {"run": {"games": 12, "seed": 7, "identities": "all", "chunk_size": 6},
           "strategies": {"angela": ["random", {"ref": "random", "label": "random-b"}], "jessah": "random"}}
    cfg = config_from_mapping(raw, src="test", out=out, backend="serial", workers=1)
    assert run_tournament(cfg, progress=False, echo=lambda s: None).complete
    return out


@pytest.fixture(scope="module")
def reported(real_run: Path) -> Path:
    html = write_report(real_run)
    assert html == real_run / "report.html"
    return real_run


def test_report_files_are_written(reported: Path) -> None:
    assert (reported / "report.md").is_file() and (reported / "report.html").is_file()
    for name in TABLES:
        csv = pl.read_csv(reported / "tables" / f"{name}.csv")
        pq = pl.read_parquet(reported / "tables" / f"{name}.parquet")
        assert csv.height == pq.height, name
    pngs = sorted((reported / "figures").glob("*.png"))
    # headline, matchups, and 6 per cell (pairs, identities, upgrades, length, flow, hiding) x 2 cells
    assert len(pngs) == 2 + 6 * 2
    for png in pngs:
        assert png.read_bytes().startswith(PNG_MAGIC)
        assert png.with_suffix(".svg").read_text().lstrip().startswith(("<?xml", "<svg"))
    pairs = pl.read_parquet(reported / "tables" / "identity_pairs.parquet")
    assert pairs.height == 2 * 15 and pairs["games"].to_list() == [12] * 30


def test_report_numbers_match_the_run(reported: Path) -> None:
    head = pl.read_parquet(reported / "tables" / "headline.parquet")
    rows = pl.scan_parquet(sorted((reported / "shards").glob("*.parquet"))).collect()
    assert int(head["games"].sum() + head["errors"].sum()) == rows.height == 360
    assert int(head["angela_wins"].sum()) == rows.filter(pl.col("winner") == "angela").height
    assert int(head["no_winner"].sum()) == rows.filter(pl.col("end_reason") == "timeout").height


def test_html_is_complete_and_self_contained(reported: Path) -> None:
    text = (reported / "report.html").read_text()
    doc = _Doc()
    doc.feed(text)
    assert doc.unbalanced == [] and doc.stack == []
    sections = ["What stands out", "Outcomes", "Matchups", "base: random (Angela) vs random (Jessah)",
                "base: random-b (Angela) vs random (Jessah)", "Errors", "How to read this report", "Run", "Files"]
    # the answers first, the run's metadata last
    assert [h for h in doc.headings if h in sections] == sections
    for sub in ("Identity pairs", "Identities", "Upgrades: an association, not a cause", "Cash and captures by round",
                "Game length"):
        assert doc.headings.count(sub) == 2, sub
    # every figure embedded, as the very PNG written to figures/
    pngs = {p.read_bytes() for p in (reported / "figures").glob("*.png")}
    assert len(doc.imgs) == len(pngs)
    embedded = set()
    for src in doc.imgs:
        assert src.startswith("data:image/png;base64,")
        embedded.add(base64.b64decode(src.split(",", 1)[1]))
    assert embedded == pngs
    # no network: no URL anywhere, every link is an in-page anchor that exists
    # (base64 payloads removed first: random letters may spell anything)
    markup = re.sub(r"data:image/png;base64,[A-Za-z0-9+/=]+", "data:", text)
    assert not re.search(r"(https?:)?//[\w.-]+\.\w", markup)
    assert "http" not in markup.lower() and "<link" not in markup
    # one inline script (sorting tables), nothing loaded
    assert markup.count("<script") == 1 and not any(t == "script" and "src" in a for t, a in doc.tags)
    assert "url(" not in markup and "@import" not in markup
    assert doc.hrefs and all(h.startswith("#") and h[1:] in doc.ids for h in doc.hrefs)
    assert "@media print" in text


def test_markdown_has_every_section_and_figure(reported: Path) -> None:
    md = (reported / "report.md").read_text()
    for section in ("## How to read this report", "## What stands out", "## Outcomes", "## Matchups",
                    "### Identity pairs", "### Upgrades: an association, not a cause", "### Game length", "## Errors",
                    "## Run"):
        assert section in md
    figs = re.findall(r"!\[[^\]]*\]\((figures/[^)]+\.png)\)", md)
    assert sorted(figs) == sorted(f"figures/{p.name}" for p in (reported / "figures").glob("*.png"))
    assert "95% Wilson score interval" in md


def test_cli_report(tmp_path: Path) -> None:
    write_run(tmp_path / "run", random_results(2010, seed=5))  # 134 games in each of 15 cells
    res = CliRunner().invoke(main, ["report", str(tmp_path / "run"), "--no-svg"])
    assert res.exit_code == 0, res.output
    assert "report.html" in res.output
    assert (tmp_path / "run" / "report.html").is_file()
    assert not list((tmp_path / "run" / "figures").glob("*.svg"))


def test_cli_report_on_a_directory_without_shards(tmp_path: Path) -> None:
    res = CliRunner().invoke(main, ["report", str(tmp_path)])
    assert res.exit_code == 2
    assert "no shards/ directory" in res.output


def test_report_shows_errors_apart_and_flags_few_games(tmp_path: Path) -> None:
    games = [dict(pair=("journalist", "pilot"), winner="angela")] * 3 \
        + [dict(pair=("journalist", "pilot"), end_reason="error")] * 2 \
        + [dict(pair=("lawyer", "doctor"), winner="jessah")] * 4 \
        + [dict(pair=("lawyer", "doctor"), winner=None)]
    # every cell (an identity pair) plays game indices 0..4
    write_run(tmp_path, table_from_games({**g, "game_index": i % 5} for i, g in enumerate(games)))
    write_report(tmp_path, svg=False)
    md = (tmp_path / "report.md").read_text()
    # 8 played games, 3 Angela wins; the 2 errors are shown apart
    assert "| base | random | random | 8 | 37.5% [13.7, 69.4] | 50.0% [21.5, 78.5] | 1 (12.5%) | 2 |" in md
    assert "2 games ended in a strategy error" in md
    assert "synthetic error" in md  # the error side table's message
    assert "too few games for a useful interval" in md.lower()
    pairs = pl.read_parquet(tmp_path / "tables" / "identity_pairs.parquet")
    assert pairs["identity_pair"].to_list() == ["journalist+pilot", "lawyer+doctor"]


def test_pair_map_shows_each_pair_once_centred_on_the_overall_rate() -> None:
    from rnsim.games.red_notice.analysis import identity_pairs
    from rnsim.games.red_notice.figures import identity_order, pair_heatmap

    t = table_from_games([dict(pair=("lawyer", "journalist"), winner="angela"),
                          dict(pair=("lawyer", "pilot"), winner="jessah"),
                          dict(pair=("journalist", "pilot"), winner="angela")])
    pairs = identity_pairs(t)
    assert identity_order(pairs) == ["lawyer", "journalist", "pilot"]  # component order recovered
    fig = pair_heatmap(pairs, 2 / 3, "three identities")
    ax = fig.axes[0]
    # a triangle: rows from the second identity, columns up to the one before last
    assert [x.get_text() for x in ax.get_yticklabels()] == ["journalist", "pilot"]
    assert [x.get_text() for x in ax.get_xticklabels()] == ["lawyer", "journalist"]
    texts = [x.get_text() for x in ax.texts]
    assert len(texts) == 3  # each pair once
    assert sum(x.startswith("100.0%") for x in texts) == 2 and sum(x.startswith("0.0%") for x in texts) == 1
    norm = ax.images[0].norm
    assert norm.vcenter == pytest.approx(2 / 3)  # white is the overall rate
    assert (norm.vmin, norm.vmax) == pytest.approx((0.0, 4 / 3))  # the range the data need, symmetric


def test_rnsim_run_writes_the_report_unless_told_not_to(tmp_path: Path) -> None:
    cfg = tmp_path / "tiny.toml"
    cfg.write_text('[run]\ngames = 3\nseed = 3\nbackend = "serial"\nidentities = [["journalist", "pilot"]]\n'
                   '[strategies]\nangela = "random"\njessah = "random"\n')
    r = CliRunner().invoke(main, ["run", str(cfg), "--out", str(tmp_path / "a"), "--no-progress"])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "a" / "report.html").is_file() and "report:" in r.output
    r = CliRunner().invoke(main, ["run", str(cfg), "--out", str(tmp_path / "b"), "--no-progress", "--no-report"])
    assert r.exit_code == 0, r.output
    assert not (tmp_path / "b" / "report.html").exists()


def test_many_cells_draw_their_figures_on_a_pool(tmp_path: Path) -> None:
    from rnsim.report import render
    from rnsim.report.render import FigurePlan, build, compute_tables

    df = random_results(900, seed=2, strategy_pairs=[("random", "random"), ("hunter", "random"),
                                                      ("random", "hunter")])
    write_run(tmp_path, df)
    plan = FigurePlan(tmp_path / "figures", svg=False)
    plugin = render.game_report("red_notice")
    build(tmp_path, compute_tables(tmp_path, plugin), plan, plugin)
    assert len(plan.jobs) == 2 + 5 * 3  # enough for two workers
    plan.draw(workers=2)
    pngs = sorted((tmp_path / "figures").glob("*.png"))
    assert [p.name for p in pngs] == sorted(f"{name}.png" for name, *_ in plan.jobs)
    assert all(p.read_bytes().startswith(PNG_MAGIC) for p in pngs)


def test_tables_are_the_same_in_memory_or_streamed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from rnsim.report import render

    write_run(tmp_path, random_results(2520, seed=9, strategy_pairs=[("random", "random"), ("hunter", "random")]),
              shard_rows=30)
    plugin = render.game_report("red_notice")
    in_memory = render.compute_tables(tmp_path, plugin)
    monkeypatch.setattr(render, "IN_MEMORY_GAMES", 0)
    streamed = render.compute_tables(tmp_path, plugin)
    assert set(in_memory) == set(TABLES)
    for name in TABLES:
        # the streaming engine may sum floats in another order: equal up to the last bits
        assert_frame_equal(in_memory[name], streamed[name], check_exact=False, rel_tol=1e-12)


def test_pair_map_frames_the_flagged_pairs() -> None:
    from matplotlib.patches import Rectangle

    from rnsim.games.red_notice.analysis import identity_pairs
    from rnsim.games.red_notice.figures import pair_heatmap

    jp, ld, lp = ("journalist", "pilot"), ("lawyer", "doctor"), ("lawyer", "pilot")
    g = [dict(pair=jp, winner="angela")] * 90 + [dict(pair=jp, winner="jessah")] * 10 \
        + [dict(pair=ld, winner="angela")] * 10 + [dict(pair=ld, winner="jessah")] * 90 \
        + [dict(pair=lp, winner="angela")] * 50 + [dict(pair=lp, winner="jessah")] * 50
    pairs = identity_pairs(table_from_games(g))
    assert pairs.filter(pl.col("differs"))["identity_pair"].sort().to_list() == ["journalist+pilot", "lawyer+doctor"]
    frames = [p for p in pair_heatmap(pairs, 0.5, "t").axes[0].patches
              if isinstance(p, Rectangle) and not p.get_fill()]
    assert len(frames) == 2  # the two flagged pairs


def test_the_report_answers_first(tmp_path: Path) -> None:
    """The first thing after the title is the verdict sentence, then what its
    interval is (sampling error only, in a run without a strength band),
    then the outcome figure; the run's metadata comes last."""
    g = [dict(pair=("journalist", "pilot"), winner="angela")] * 438 \
        + [dict(pair=("journalist", "pilot"), winner="jessah")] * 552 \
        + [dict(pair=("journalist", "pilot"), winner=None)] * 10
    for x in g:
        x.update(angela_strategy="expert", jessah_strategy="expert")
    write_run(tmp_path, table_from_games(g), manifest={"master_seed": 12345})
    write_report(tmp_path, svg=False)
    text = (tmp_path / "report.html").read_text()
    body = text[text.index("</h1>") + len("</h1>"):]
    first = re.match(r'\s*<p class="verdict">([^<]*)</p>\s*<p>The intervals above are sampling error only[^<]*</p>'
                     r'\s*<figure>', body)
    assert first, body[:300]
    lo, hi = wilson(438, 1000)
    assert first.group(1) == (f"Jessah is favoured: Angela wins 43.8% [{100 * lo:.1f}, {100 * hi:.1f}] of 1,000 "
                              f"expert games, 6.2 points below an even game; 1.0% are timeouts.")
    md = (tmp_path / "report.md").read_text()
    assert md.index("master_seed".replace("_", " ")) > md.index("## Run") > md.index("## Errors")


def test_outcome_figure_marks_an_even_game() -> None:
    from rnsim.analysis import headline
    from rnsim.report.figures import headline_chart

    head = headline(random_results(300, seed=1))
    ax = headline_chart(head, ("angela", "jessah"), ("Angela", "Jessah"), ["base"], "t").axes[0]
    even = [line for line in ax.get_lines() if list(line.get_xdata()) == [0.5, 0.5]]
    assert len(even) == 1 and even[0].get_linestyle() == "--"


def test_round_axes_have_integer_ticks_and_flow_is_cut_where_few_games_remain() -> None:
    from matplotlib.ticker import MaxNLocator

    from rnsim.games.red_notice.analysis import flow_by_round
    from rnsim.games.red_notice.figures import flow_chart

    flow = flow_by_round(random_results(3000, seed=4))
    fig = flow_chart(flow, 200, "t")
    a1 = fig.axes[0]
    assert isinstance(a1.xaxis.get_major_locator(), MaxNLocator)
    ticks = [t for t in a1.get_xticks() if a1.get_xlim()[0] <= t <= a1.get_xlim()[1]]
    assert all(float(t).is_integer() for t in ticks)
    kept = flow.filter(pl.col("games_in_play") >= 200)["round"]
    drawn = a1.get_lines()[0].get_xdata()
    assert list(drawn) == kept.to_list() and len(drawn) < flow.height
    assert len(a1.collections) == 2  # an interval band per line


def test_three_identities_per_game_in_the_report(tmp_path: Path) -> None:
    write_run(tmp_path, random_results(1200, seed=3, per_game=3))
    write_report(tmp_path, svg=False)
    ids = pl.read_parquet(tmp_path / "tables" / "identities.parquet")
    assert ids.height == 6 and int(ids["games"].sum()) == 3 * 1200  # each game counts for its three identities
    md = (tmp_path / "report.md").read_text()
    assert "### Identity sets" in md and "lawyer + journalist + secret agent" in md
    assert not list((tmp_path / "figures").glob("*-pairs.png"))  # a pair map needs pairs


# ---- many tests on one page (FBI: seat position per player count, the start player's verdicts)

FBI_SEATS = ("ann", "bert", "chris", "donna", "emil")


def _fbi_base(games: int, rng: np.random.Generator, start_edge: float = 0.0,
              variants: tuple[str, ...] = ("base", "top-card")) -> pl.LazyFrame:
    """FBI result rows with what the position tables read: every player count
    3-5 per variant, the winner drawn at random (the start player's chance
    raised by ``start_edge`` at 4 players)."""
    parts = []
    for v in variants:
        for n in (3, 4, 5):
            first = rng.integers(0, n, games)
            p = np.full((games, n), 1.0 / n)
            if n == 4 and start_edge:
                p[np.arange(games), first] += start_edge
                p[np.arange(games), (first + 1) % n] -= start_edge
            winner = (rng.random(games)[:, None] > np.cumsum(p, axis=1)).sum(axis=1)
            cols: dict[str, Any] = {"variant": v, "players": str(n), "game_index": np.arange(games),
                                    "end_reason": "deck_empty", "first_handcuffs": np.array(FBI_SEATS)[first]}
            for k, s in enumerate(FBI_SEATS):
                here = k < n
                cols[f"share_{s}"] = (winner == k).astype(float) if here else None
                cols[f"{s}_strategy"] = "expert" if here else None
                cols[f"score_{s}"] = np.zeros(games, dtype=int) if here else None
                cols[f"bonus_points_{s}"] = np.zeros(games, dtype=int) if here else None
            parts.append(pl.DataFrame(cols, schema_overrides={f"{x}_{s}": t for s in FBI_SEATS for x, t in
                                                              (("share", pl.Float64), ("score", pl.Int64),
                                                               ("bonus_points", pl.Int64), ("strategy", pl.String))}))
    return pl.concat(parts, how="vertical_relaxed").lazy()


def _fbi_position_tables(base: pl.LazyFrame) -> dict[str, pl.DataFrame]:
    from rnsim.analysis.stats import clustered_rate_columns
    from rnsim.games.fbi import report as fbi

    positions = (clustered_rate_columns(["variant", "players", "position"], ["game_index"], pl.col("share"))(
        fbi.seat_rows(base)).with_columns((1.0 / pl.col("players").cast(pl.Float64)).alias("even")))
    return {"fbi_positions": positions.collect(), "fbi_position_test": fbi.position_test(positions).collect()}


def test_fbi_seat_position_flags_by_chance_stay_near_alpha_and_a_real_edge_survives() -> None:
    """Runs of two variants x 3, 4 and 5 players (six position tests on one
    page), 300 games each, no seat favoured: "seat position matters" appears
    in at most about 5% of the runs (one test at a time: about a quarter).
    A start player who wins 37% at 4 players is still found."""
    from rnsim.games.fbi import report as fbi

    rng = np.random.default_rng(11)
    runs = 150
    said, raw = 0, 0
    for _ in range(runs):
        t = _fbi_position_tables(_fbi_base(300, rng))
        found = fbi._position_findings(t)
        said += any("seat position matters" in x for x in found)
        raw += bool((t["fbi_position_test"]["p_value"] < 0.05).any())
        assert found[0].startswith("Seat position: 6 player counts (one test per variant) are tested at 5% each: "
                                   "where nothing differs, chance alone would say position matters in about 0.3 of "
                                   "them")
    assert said / runs < 0.05 + 3 * (0.05 * 0.95 / runs) ** 0.5, said / runs
    assert raw / runs > 0.15, raw / runs
    hits = 0
    for _ in range(20):
        found = fbi._position_findings(_fbi_position_tables(_fbi_base(300, rng, start_edge=0.12)))
        hits += any(x.startswith(("base, 4 players: seat position matters", "top-card, 4 players: seat position "
                                  "matters")) for x in found)
    assert hits >= 18


def test_fbi_verdicts_and_findings_keep_the_raw_p_and_flag_only_what_survives() -> None:
    """The case of a 300-game run of configs/fbi.toml: a position test with
    p = 0.0432 among six is not "seat position matters" (Holm: 0.216 here)."""
    from rnsim.analysis.stats import holm_column
    from rnsim.games.fbi import report as fbi
    from rnsim.report.sections import ReportContext

    t = _fbi_position_tables(_fbi_base(300, np.random.default_rng(3)))
    t["fbi_position_test"] = holm_column(t["fbi_position_test"].with_columns(
        pl.Series("p_value", [0.3, 0.5, 0.0432, 0.9, 0.7, 0.0299])), "p_value")
    found = fbi._position_findings(t)
    assert not any("seat position matters" in x for x in found)
    assert ("Seat position is not shown to matter where only the raw p is under 5%, as chance alone would give: "
            "base, 5 players (p = 0.0432, 0.216 after the correction)") in found[-1]
    ctx = ReportContext(Path("."), {}, layout(["variant", "players", "ann_strategy"]), "FBI", lambda *a: Path("x"),
                        several_variants=True)
    verdicts = fbi.run_verdict(t, ctx)
    assert len(verdicts) == 6 and all("after Holm's correction for 6 verdicts" in v for v in verdicts)


# ---- what the page shows: counts where a rate rounds to 0, an axis fitted to the bulk, percent everywhere


@pytest.fixture(scope="module")
def two_timeouts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """6,000 games of one cell ending by round 15, but 2 timeouts at round 60 (0.03%)."""
    g = [dict(winner="angela", rounds=10 + i % 6) for i in range(2400)] \
        + [dict(winner="jessah", rounds=8 + i % 8) for i in range(3598)] + [dict(winner=None, rounds=60)] * 2
    run = tmp_path_factory.mktemp("timeouts") / "run"
    write_run(run, table_from_games(g))
    write_report(run, svg=True, workers=1)
    return run


def test_a_rate_that_rounds_to_zero_is_printed_as_its_counts(two_timeouts: Path) -> None:
    md = (two_timeouts / "report.md").read_text()
    assert "are timeouts" in md and "0.0% are timeouts" not in md
    verdict = next(line for line in md.splitlines() if line.startswith("**No side") or line.startswith("**Jessah"))
    assert verdict.endswith("; 2 of 6,000 are timeouts.**"), verdict
    assert "- 2 of the 6,000 played games ended in a timeout; they count as a win for nobody." in md
    assert "| 2 (under 0.1%) | 0 |" in md  # Outcomes: the count, and a share that is not 0.0%
    assert "| timeout | nobody | 2 | 2 of 6,000 |" in md  # Game length by end reason
    assert not re.search(r"\b0\.0% are\b|\(0\.0%\)", md)


def test_the_game_length_axis_fits_the_bulk_and_counts_the_longer_games(two_timeouts: Path) -> None:
    from rnsim.report.figures import game_length_chart, length_cut

    hist = pl.read_parquet(two_timeouts / "tables" / "game_length_histogram.parquet")
    assert length_cut(hist) == (15, 2, 60)
    reasons = {"million": ("Angela wins", "red"), "arrest": ("Jessah wins", "blue"), "timeout": ("no winner", "grey")}
    ax = game_length_chart(hist, reasons, "t").axes[0]
    assert ax.get_xlim()[1] < 16  # not stretched to round 60
    assert ax.get_xlabel() == "game length (rounds)\n2 games longer, up to round 60, not shown"
    svg = next((two_timeouts / "figures").glob("*-length.svg")).read_text()
    assert "2 games longer, up to round 60, not shown" in svg  # on the chart as drawn
    md = (two_timeouts / "report.md").read_text()
    assert "the axis ends where 99.5% of the games have ended: 2 games longer, up to round 60, not shown" in md
    # a run without such outliers keeps its whole axis, with no note
    short = hist.filter(pl.col("rounds") < 60)
    assert length_cut(short)[1] == 0 and game_length_chart(short, reasons, "t").axes[0].get_xlabel() == \
        "game length (rounds)"


def test_the_identities_chart_reads_in_percent_as_the_tables_do(two_timeouts: Path) -> None:
    from rnsim.games.red_notice.figures import identities_chart

    ids = pl.read_parquet(two_timeouts / "tables" / "identities.parquet")
    fig = identities_chart(ids, 0.4, "t")
    fig.canvas.draw()
    for ax in fig.axes:
        labels = [t.get_text() for t in ax.get_xticklabels() if t.get_text()]
        assert labels and all(re.fullmatch(r"\d+%", x) for x in labels), labels


def test_the_same_figure_writes_the_same_svg_twice(tmp_path) -> None:
    """A report's files depend on its tables only: no date, no random element ids."""
    import matplotlib.pyplot as plt

    from rnsim.report import figures as figs

    def draw(where):
        fig, ax = plt.subplots()
        ax.plot([0, 1, 2], [0.2, 0.5, 0.4], marker="o")
        ax.fill_between([0, 1, 2], [0.1, 0.4, 0.3], [0.3, 0.6, 0.5], alpha=0.3)
        figs.save(fig, where, "curve")
        return (where / "curve.svg").read_bytes()

    assert draw(tmp_path / "a") == draw(tmp_path / "b")
