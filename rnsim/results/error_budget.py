"""How many error games a run may hold and still pass: ``rnsim run
--max-errors`` (default 1% of the run's games). An error game (a strategy
raised or answered illegally, or the engine failed) enters no rate, so a run
with many of them answers for fewer games than it claims, or for none."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from rnsim.errors import ConfigError, RnsimError
from rnsim.results.shares import share_text

DEFAULT = "1%"


class TooManyErrors(RnsimError):
    """A finished run whose error games are over its budget. Exit code 1: the
    run's files are whole, its answer is not one to act on."""

    exit_code = 1


@dataclass(frozen=True)
class ErrorBudget:
    """At most ``share`` of the run's games (a fraction), or at most ``games`` games."""

    text: str  # as the user wrote it, for messages
    share: float | None = None
    games: int | None = None

    @classmethod
    def parse(cls, value: str | int, source: str = "--max-errors") -> ErrorBudget:
        """``"1%"`` or ``"0.5%"`` (a share of the run's games, 0-100%) or ``"10"`` (a
        number of games); ConfigError naming ``source`` otherwise."""
        text = str(value).strip()
        why = (f"{source}: {text!r} is not an error budget; give a share of the run's games, e.g. 1% or 0.5% "
               "(0% to 100%), or a number of games, e.g. 0 or 10")
        if isinstance(value, bool):
            raise ConfigError(why)
        if text.endswith("%"):
            try:
                pct = float(text[:-1])
            except ValueError:
                raise ConfigError(why) from None
            if not 0.0 <= pct <= 100.0:
                raise ConfigError(why)
            return cls(text, share=pct / 100.0)
        if text.isdigit():
            return cls(text, games=int(text))
        raise ConfigError(why)

    def allows(self, errors: int, total: int) -> bool:
        if self.games is not None:
            return errors <= self.games
        return errors <= (self.share or 0.0) * total

    def check(self, errors: int, total: int, run_dir: Path) -> None:
        """Raise TooManyErrors, one line, when ``errors`` of ``total`` games are over the budget."""
        if self.allows(errors, total):
            return
        raise TooManyErrors(
            f"{run_dir}: {errors:,} of {total:,} games ({share_text(errors, total)}) ended in an error, more than "
            f"--max-errors {self.text} allows; every rate counts only the {total - errors:,} played games. The "
            f"tracebacks are in {run_dir / 'errors'} (the most frequent in the report's Errors section)")
