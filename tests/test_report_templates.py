"""The report's layout, the Jinja2 templates of rnsim/report/templates/: both
games' reports render through every template with no variable missing
(StrictUndefined), a missing variable or block kind fails loudly, the page
escapes text as html.escape does (the Markdown not at all), and a document of
every block kind is laid out exactly as the page and the Markdown have it."""

from __future__ import annotations

import html
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, ClassVar, get_args

import pytest
from jinja2 import BaseLoader, Environment, PackageLoader, StrictUndefined, UndefinedError

from rnsim.analysis.load import checked, game_name, read_manifest
from rnsim.analysis.synthetic import write_run
from rnsim.games.red_notice.synthetic import random_results
from rnsim.report import render, templating
from rnsim.report.sections import (
    Banner,
    Block,
    Bullets,
    Contents,
    Figure,
    Heading,
    Para,
    Table,
    Verdict,
)

TEMPLATES = Path(__file__).resolve().parents[1] / "rnsim" / "report" / "templates"


class _Recording(BaseLoader):
    """The shipped templates, noting each one loaded."""

    def __init__(self) -> None:
        self.inner = PackageLoader("rnsim.report", "templates")
        self.loaded: set[str] = set()

    def get_source(self, environment: Environment, template: str) -> tuple[str, str | None, Callable[[], bool] | None]:
        self.loaded.add(template)
        return self.inner.get_source(environment, template)


def _doc(run_dir: Path) -> list[Block]:
    """The report's document of a run (its figures planned, not drawn)."""
    check = checked(run_dir, True, render.PARTIAL_HINT)
    man = read_manifest(run_dir)
    plugin = render.game_report(game_name(man))
    t = render.compute_tables(run_dir, plugin, partial=True, check=check)
    return render.build(run_dir, t, render.FigurePlan(run_dir / "figures"), plugin, man, check)


@pytest.fixture(scope="module")
def both_games(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[Path, list[Block]]]:
    """(run directory, document) of a Red Notice run with a game missing (a
    partial report) and errors, and of a real FBI run."""
    from rnsim.config import config_from_mapping
    from rnsim.tournament.run import run_tournament

    tmp = tmp_path_factory.mktemp("templates")
    red = write_run(tmp / "red_notice", random_results(200, seed=4, error_share=0.05,
                                                       strategy_pairs=[("random", "random"), ("hunter", "random")]))
    raw = {"run": {"game": "fbi", "games": 2, "seed": 3, "workers": 1, "backend": "serial", "out": str(tmp / "fbi"),
                   "players": [3]}, "strategies": dict.fromkeys(("ann", "bert", "chris"), "random")}
    cfg = config_from_mapping(raw)
    assert run_tournament(cfg, progress=False, echo=lambda _: None).complete
    return [(red, _doc(red)), (cfg.out, _doc(cfg.out))]


def test_both_games_reports_render_through_every_template_with_no_variable_missing(
        both_games: list[tuple[Path, list[Block]]], monkeypatch: pytest.MonkeyPatch) -> None:
    loader = _Recording()
    env = templating.environment(loader)
    assert env.undefined is StrictUndefined
    env.filters["base64"] = lambda path: "AAAA"  # the figures are planned, not drawn
    monkeypatch.setattr(templating, "_shipped", lambda: env)
    kinds = set()
    for run_dir, doc in both_games:
        assert render.to_markdown(doc, run_dir).startswith("> **Partial report" if "red" in run_dir.name else "# ")
        assert render.to_html(doc, "title").endswith("</html>\n")
        kinds |= {b.kind for b in doc}
    assert loader.loaded == {p.name for p in TEMPLATES.iterdir()}
    assert kinds == {block.kind for block in get_args(Block)}  # every block kind's macro was used


@dataclass
class _Unknown:
    kind: ClassVar[str] = "unknown"
    text: str


def test_a_missing_variable_or_block_kind_fails_loudly(tmp_path: Path) -> None:
    with pytest.raises(UndefinedError, match="'nav' is undefined"):
        templating.render("report.html.j2", doc=[Contents()], title="t", sortable=False)
    with pytest.raises(UndefinedError, match="'base' is undefined"):
        templating.render("report.md.j2", doc=[Figure(tmp_path / "a.png", "a figure")])
    unknown: Any = _Unknown("x")
    for to_text in (lambda: render.to_html([unknown], "t"), lambda: render.to_markdown([unknown], tmp_path)):
        with pytest.raises(UndefinedError, match="unknown"):
            to_text()


TEXT = "Seat A's <b>rate</b> & \"more\""


def test_the_page_escapes_every_text_as_html_escape_does_and_the_markdown_keeps_it(tmp_path: Path) -> None:
    png = tmp_path / "f.png"
    png.write_bytes(b"\x89PNG")
    doc: list[Block] = [Banner(TEXT), Heading(2, TEXT, TEXT), Contents(), Verdict(TEXT), Para(TEXT), Bullets([TEXT]),
                        Table([TEXT], [[TEXT]], TEXT), Figure(png, TEXT)]
    page = render.to_html(doc, TEXT)
    escaped = html.escape(TEXT)
    assert escaped == "Seat A&#x27;s &lt;b&gt;rate&lt;/b&gt; &amp; &quot;more&quot;"
    assert TEXT not in page and "<b>" not in page
    # the title, the banner, heading (text and id), link (anchor and text), verdict, paragraph, item,
    # column, cell, caption, image alt and figure caption
    assert page.count(escaped) == 14
    md = render.to_markdown(doc, tmp_path)
    assert md.count(TEXT) == 10 and "&" + "amp;" not in md


def _every_block(base: Path) -> list[Block]:
    png = base / "figures" / "pair.png"
    png.parent.mkdir(parents=True)
    png.write_bytes(b"\x89PNG not an image")
    return [Banner("Partial: 9 of 10 <games> & 'more'"), Heading(1, 'Game "T" report', "top"),
            Verdict("Seat A's rate <is> 50% & more"), Contents(), Heading(3, "Before any section", "before"),
            Heading(2, "A & B", "a-b"), Heading(3, "Sub <one>", "a-b-sub"), Heading(2, "No subsections", "none"),
            Para("x < y & \"z\""), Bullets(["one", "two & 'three'"]), Bullets([]),
            Table(["name", "n|m", "rate"], [["a|b", "1,234", "5.0%"], ["c\nd", "5", "–", "beyond"]], "Cap <i>",
                  numeric=[False, True]),
            Table(["x"], [["1"]]), Figure(png, "Fig 'one' | <two>")]


PAGE_HEAD = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Title &lt;&amp;&gt; &#x27;q&#x27; &quot;d&quot;</title>
<style>
:root {"""

PAGE_BODY = """<body>
<p class="partial" role="alert">Partial: 9 of 10 &lt;games&gt; &amp; &#x27;more&#x27;</p>
<h1 id="top">Game &quot;T&quot; report</h1>
<p class="verdict">Seat A&#x27;s rate &lt;is&gt; 50% &amp; more</p>
<nav><strong>Contents</strong><ul>
<li><a href="#before">Before any section</a></li>
<li><a href="#a-b">A &amp; B</a>
<ul>
<li><a href="#a-b-sub">Sub &lt;one&gt;</a></li>
</ul></li>
<li><a href="#none">No subsections</a>
</li>
</ul></nav>
<h3 id="before">Before any section</h3>
<h2 id="a-b">A &amp; B</h2>
<h3 id="a-b-sub">Sub &lt;one&gt;</h3>
<h2 id="none">No subsections</h2>
<p>x &lt; y &amp; &quot;z&quot;</p>
<ul><li>one</li><li>two &amp; &#x27;three&#x27;</li></ul>
<ul></ul>
<div class="table-wrap"><table class="sortable"><caption>Cap &lt;i&gt;</caption><thead><tr><th data-sort="text">name</th>\
<th class="num" data-sort="num">n|m</th><th data-sort="text">rate</th></tr></thead><tbody><tr><td>a|b</td>\
<td class="num">1,234</td><td>5.0%</td></tr><tr><td>c
d</td><td class="num">5</td><td>–</td><td>beyond</td></tr></tbody></table></div>
<div class="table-wrap"><table class="sortable"><thead><tr><th data-sort="text">x</th></tr></thead><tbody><tr><td>1</td>\
</tr></tbody></table></div>
<figure><img alt="Fig &#x27;one&#x27; | &lt;two&gt;" src="data:image/png;base64,iVBORyBub3QgYW4gaW1hZ2U=">\
<figcaption>Fig &#x27;one&#x27; | &lt;two&gt;</figcaption></figure>
<script>
(function () {"""

MARKDOWN = """> **Partial: 9 of 10 <games> & 'more'**

# Game "T" report

**Seat A's rate <is> 50% & more**

### Before any section

## A & B

### Sub <one>

## No subsections

x < y & "z"

- one
- two & 'three'



| name | n\\|m | rate |
| --- | ---: | --- |
| a\\|b | 1,234 | 5.0% |
| c d | 5 | – | beyond |

*Cap <i>*

| x |
| --- |
| 1 |

![Fig 'one' \\| <two>](figures/pair.png)

*Fig 'one' | <two>* ([SVG](figures/pair.svg))
"""


def test_every_block_kind_is_laid_out_exactly_as_the_page_and_the_markdown_have_it(tmp_path: Path) -> None:
    doc = _every_block(tmp_path)
    page = render.to_html(doc, "Title <&> 'q' \"d\"")
    assert page.startswith(PAGE_HEAD)
    body = page[page.index("<body>"):]
    assert body.startswith(PAGE_BODY)
    assert body.endswith("\n})();\n</script>\n</body>\n</html>\n")
    assert render.to_markdown(doc, tmp_path) == MARKDOWN
    # a page without tables has no script; contents without sections, no list
    bare = render.to_html([Heading(1, "t", "top"), Contents()], "t")
    assert bare.endswith('<h1 id="top">t</h1>\n<nav><strong>Contents</strong></nav>\n</body>\n</html>\n')
    assert "<script>" not in bare
