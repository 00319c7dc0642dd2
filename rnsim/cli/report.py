"""`rnsim report RUN_DIR`: the designer's report of a finished run (or, asked
for, of the games an unfinished one holds), from its result tables alone."""

from __future__ import annotations

import time
from pathlib import Path

import click


@click.command()
@click.argument("run_dir", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--svg/--no-svg", default=True, show_default=True, help="Also write every figure as SVG.")
@click.option("--partial", is_flag=True,
              help="Report on the games that are there when some of the plan's are missing or on disk twice "
                   "(each game counted once); the report says so in its first line. Without it such a run is "
                   "refused, naming the games.")
def report(run_dir: Path, svg: bool, partial: bool) -> None:
    """Write report.md, report.html (self-contained), figures/ and tables/ into RUN_DIR."""
    from rnsim.cli.verify import check_report_inputs
    from rnsim.report import write_report

    check = check_report_inputs(run_dir, partial)  # before writing anything: a half-written report helps no one
    t = time.perf_counter()
    html = write_report(run_dir, svg=svg, partial=partial, check=check)
    click.echo(f"report: {html} and {html.with_suffix('.md')} ({time.perf_counter() - t:.1f} s)"
               + ("" if check.whole else f"; PARTIAL: {check.counts()}"))
