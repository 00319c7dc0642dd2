"""The report of a run: figures (matplotlib) and Markdown + self-contained
HTML, built from result tables only (never the engine)."""

from rnsim.report.render import write_report

__all__ = ["write_report"]
