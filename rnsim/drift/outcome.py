"""What a balance check ends with: each cell's counts and replay, the verdict
and the exit code it gives (``rnsim check``). Read by the gate, which fills it,
and by the Markdown block, which prints it."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rnsim.analysis.sequential import DRIFT, NO_DRIFT, UNDECIDED, SequentialGate

EXIT_NO_DRIFT, EXIT_DRIFT, EXIT_USAGE, EXIT_UNDECIDED = 0, 1, 2, 3


@dataclass
class CheckCell:
    name: str
    cell_id: int
    baseline: dict[str, Any]
    counts: dict[str, int] = field(default_factory=dict)
    replayed: int = 0  # baseline games replayed
    replay_differs: int | None = None  # game index of the first replayed game that ended otherwise
    replay_settled: bool = False  # decided "no drift" by the replay


@dataclass
class CheckOutcome:
    verdict: str  # DRIFT, NO_DRIFT or UNDECIDED
    gate: SequentialGate
    cells: list[CheckCell]
    games: int
    budget: int
    notes: list[str]
    block: str

    @property
    def exit_code(self) -> int:
        return {NO_DRIFT: EXIT_NO_DRIFT, DRIFT: EXIT_DRIFT, UNDECIDED: EXIT_UNDECIDED}[self.verdict]
