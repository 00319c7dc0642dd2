"""How a count of games and its share of a total are written, everywhere
rnsim prints one (the report, the run's summary): a share that would round to
0% or 100% without being it is written as its counts, so 2 timeouts of 30,000
read "2 of 30,000", never "0.0%"."""

from __future__ import annotations


def count(k: float | int) -> str:
    """A count as rnsim writes it: 2, 30,000, 2.5 (a shared win counts 1/k)."""
    return f"{int(k):,}" if float(k).is_integer() else f"{k:,.1f}"


def share_text(k: float | int | None, n: float | int | None, digits: int = 1) -> str:
    """``k`` of ``n`` as a percentage ("2.0%"), or as the counts ("2 of 30,000")
    when the percentage would round to 0 or 100 without being it; "–" when
    ``n`` is 0."""
    if k is None or not n:
        return "–"
    text = f"{100 * k / n:.{digits}f}%"
    if 0 < k < n and float(text[:-1]) in (0.0, 100.0):
        return f"{count(k)} of {count(n)}"
    return text
