"""N games of a matchup in a plain loop over ``run_game`` or through the
runner (``run_tournament``, serial backend, chunks of 250: rows, Parquet,
shards, manifest, the final check and summary), for counting instructions
under callgrind. Four counts give the runner's cost per game once a run is
going and its fixed cost per run::

    for mode in loop run; do for n in 250 500; do
      valgrind --tool=callgrind --callgrind-out-file=/tmp/cg-$mode-$n.out \\
        .venv/bin/python -m benchmarks.runner_cost expert $mode $n
    done; done

Per game: (run 500 - run 250) / 250 against (loop 500 - loop 250) / 250;
fixed: run 250 - loop 250 - 250 x the difference per game. ``expert`` is
Red Notice expert vs expert (identities drawn per game), ``fbi`` four FBI
experts; the games are those of master seed 0 from index 0 in both modes.

Mode ``rows`` prints the CPU of the worker's own part of a chunk of 250
games (rows, table, Parquet; ``rows 1000`` a chunk of 1,000): the chunk
played with its games' outcomes computed beforehand, median of 40
(``rows 250 R``: of R). Under callgrind, ``rows 250 22`` less ``rows 250
2``, over 20, is a chunk's instructions. Run with another checkout's
virtualenv from a folder holding only a link to this ``benchmarks/``
(``/other/.venv/bin/python -m benchmarks.runner_cost expert rows``), it
measures the other's runner.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.common import FBI_EXPERT_4, RED_NOTICE_EXPERT, Loop, Matchup

MATCHUPS = {"expert": RED_NOTICE_EXPERT, "fbi": FBI_EXPERT_4}


def main(argv: list[str]) -> None:
    case, mode, games = argv[0], argv[1], int(argv[2]) if len(argv) > 2 else 250
    repeats = int(argv[3]) if len(argv) > 3 else 40
    matchup = MATCHUPS[case]
    if mode == "loop":
        Loop(matchup).play(games)
        return
    if mode == "rows":
        print(f"{matchup.title}: the worker's own part of a chunk of {games} games {rows_ms(matchup, games, repeats):.2f} ms (CPU)")
        return
    from rnsim.tournament import run_tournament

    with tempfile.TemporaryDirectory(prefix="rnsim-cost-") as d:
        cfg = matchup.config(games, out=Path(d) / "run", chunk_size=250)
        if not run_tournament(cfg, progress=False).complete:
            raise SystemExit("runner_cost: the run did not complete")


def rows_ms(matchup: Matchup, games: int = 250, repeats: int = 40) -> float:
    """CPU milliseconds of ``_play_chunk`` over ``games`` games whose outcomes
    are already known (``run_game`` replaced by a look-up): its rows, table and Parquet."""
    import rnsim.tournament.worker as worker
    from rnsim.tournament.schedule import Chunk

    loop = Loop(matchup)
    outcomes = loop.play(games)
    ws = worker.WorkerState(worker.Plan.from_config(matchup.config(games), "rows"))
    real = worker.run_game
    worker.run_game = lambda *a, **k: outcomes[a[4]]  # type: ignore[assignment]
    try:
        times = []
        for _ in range(repeats + 1):
            t = time.process_time()
            worker._play_chunk(ws, Chunk(0, 0, games))
            times.append(time.process_time() - t)
    finally:
        worker.run_game = real
    return 1000 * statistics.median(times[1:])


if __name__ == "__main__":
    main(sys.argv[1:])
