"""`rnsim report RUN_DIR`: the designer's report of a finished (or partly
finished) run, from its result tables alone."""

from __future__ import annotations

import time
from pathlib import Path

import click


@click.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--svg/--no-svg", default=True, show_default=True, help="Also write every figure as SVG.")
def report(run_dir: Path, svg: bool) -> None:
    """Write report.md, report.html (self-contained), figures/ and tables/ into RUN_DIR."""
    from rnsim.cli.verify import check_report_inputs
    from rnsim.report import write_report

    check_report_inputs(run_dir)  # before writing anything: a half-written report helps no one
    t = time.perf_counter()
    html = write_report(run_dir, svg=svg)
    click.echo(f"report: {html} and {html.with_suffix('.md')} ({time.perf_counter() - t:.1f} s)")
