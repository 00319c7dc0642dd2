"""Which games a run plays, cut into chunks.

A game is (variant, setup, strategies, game index); a cell is the first
three. Every cell plays game indices ``0..games-1`` with the same master
seed, so game ``i`` sees the same chance stream in every cell (paired
comparisons). A chunk (:class:`rnsim.results.chunks.Chunk`) is a run of
consecutive indices of one cell; its name is derived from (cell, start, stop)
only, so a resumed run knows exactly which games are done whatever chunk size
or worker count each invocation used.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rnsim.results.chunks import Chunk

__all__ = ["Chunk", "covered", "overlaps", "plan_chunks"]


def _gaps(start: int, stop: int, done: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The parts of [start, stop) not covered by the sorted intervals ``done``."""
    out: list[tuple[int, int]] = []
    at = start
    for a, b in done:
        if b <= at or a >= stop:
            continue
        if a > at:
            out.append((at, a))
        at = max(at, b)
        if at >= stop:
            break
    if at < stop:
        out.append((at, stop))
    return out


def plan_chunks(
    n_cells: int, games: int | Sequence[tuple[int, int]], chunk_size: int,
    done: Mapping[int, Iterable[tuple[int, int]]] | None = None,
) -> list[Chunk]:
    """Chunks still to play, interleaved across cells (block by block of game
    indices) so a run stopped half-way holds a balanced sample of every cell.
    ``games``: every cell's games (indices ``0..games-1``), or each cell's
    ``(start, stop)`` (a run's band cells play fewer, see rnsim.band.plan)."""
    spans = [(0, games)] * n_cells if isinstance(games, int) else list(games)
    finished = {c: sorted(v) for c, v in (done or {}).items()}
    out: list[Chunk] = []
    for block in range(0, max((b for _, b in spans), default=0), chunk_size):
        for cell in range(n_cells):
            lo, hi = max(block, spans[cell][0]), min(block + chunk_size, spans[cell][1])
            for a, b in _gaps(lo, hi, finished.get(cell, [])) if lo < hi else ():
                out.append(Chunk(cell, a, b))
    return out


def covered(chunks: Iterable[Chunk]) -> dict[int, list[tuple[int, int]]]:
    """Finished intervals per cell. Overlaps (which a correct run never makes)
    are reported by ``overlaps``."""
    out: dict[int, list[tuple[int, int]]] = {}
    for c in chunks:
        out.setdefault(c.cell, []).append((c.start, c.stop))
    for v in out.values():
        v.sort()
    return out


def overlaps(done: Mapping[int, list[tuple[int, int]]]) -> list[tuple[int, tuple[int, int], tuple[int, int]]]:
    bad = []
    for cell, iv in done.items():
        for x, y in zip(iv, iv[1:], strict=False):
            if y[0] < x[1]:
                bad.append((cell, x, y))
    return bad
