"""A chunk: a run of consecutive game indices of one cell, and the name of
the shard that holds its rows.

A game is (variant, setup, strategies, game index); a cell is the first
three. Every cell of a run plays game indices ``0..games-1``. A chunk's name
is derived from (cell, start, stop) only, so the files of a run directory
say which games they hold whatever chunk size or worker count wrote them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NAME = re.compile(r"^part-(\d+)-(\d+)-(\d+)$")


@dataclass(frozen=True, slots=True)
class Chunk:
    cell: int
    start: int  # first game index
    stop: int  # one past the last game index

    @property
    def games(self) -> int:
        return self.stop - self.start

    @property
    def name(self) -> str:
        return f"part-{self.cell:05d}-{self.start:010d}-{self.stop:010d}"

    @classmethod
    def from_name(cls, name: str) -> Chunk | None:
        m = _NAME.match(name)
        if m is None:
            return None
        cell, start, stop = (int(x) for x in m.groups())
        return cls(cell, start, stop) if start < stop else None
