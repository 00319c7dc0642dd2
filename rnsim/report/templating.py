"""The report's layout: one Jinja2 environment over the templates shipped in
``rnsim/report/templates/`` (package data). ``report.html.j2`` is the HTML
page (with ``report.css.j2`` and ``sort.js.j2`` inlined), ``report.md.j2``
the Markdown; each holds one macro per block ``kind`` of
:mod:`rnsim.report.sections`. The templates receive the blocks as built and
compute nothing: what a number or sentence says is decided in
:mod:`rnsim.report.render`.

Autoescaping is on for ``*.html.j2`` and escapes as :func:`html.escape`
does (``&``, ``<``, ``>``, ``"`` and ``'``, the quotes as ``&quot;`` and
``&#x27;``); a missing variable or block kind fails loudly
(:class:`jinja2.StrictUndefined`)."""

from __future__ import annotations

import base64
import html
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import BaseLoader, Environment, PackageLoader, StrictUndefined, pass_eval_context, select_autoescape
from jinja2.nodes import EvalContext
from markupsafe import Markup

__all__ = ["environment", "render"]


@pass_eval_context
def _escape(ctx: EvalContext, value: Any) -> Any:
    """Every ``{{ value }}`` of an autoescaped template, escaped as
    :func:`html.escape` does (Markup, e.g. a macro's output, is kept)."""
    if ctx.autoescape and not hasattr(value, "__html__"):
        return Markup(html.escape(str(value)))
    return value


def md_cell(text: str) -> str:
    """A Markdown table cell: its pipes escaped, on one line."""
    return text.replace("|", "\\|").replace("\n", " ")


def relative(path: Path, base: Path) -> str:
    """``path`` relative to ``base``, with forward slashes (a link in report.md);
    ``base`` goes through ``str`` so that an undefined one fails as undefined."""
    return path.relative_to(str(base)).as_posix()


def base64_file(path: Path) -> str:
    """The file's bytes in base64 (an image embedded in the page)."""
    return base64.b64encode(path.read_bytes()).decode("ascii")


def environment(loader: BaseLoader | None = None) -> Environment:
    """The report's environment (``loader``: the shipped templates unless given;
    :func:`render` uses one made once)."""
    env = Environment(
        loader=loader or PackageLoader("rnsim.report", "templates"),
        autoescape=select_autoescape(["html.j2"], default_for_string=False),
        finalize=_escape,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters.update(md_cell=md_cell, relative=relative, base64=base64_file)
    return env


@cache
def _shipped() -> Environment:
    return environment()


def render(name: str, **context: Any) -> str:
    """Render the template ``name`` (e.g. "report.html.j2") with ``context``."""
    return _shipped().get_template(name).render(**context)
