"""Where a game's time goes: a sampling profile (py-spy, native frames
included, so the compiled modules' functions show) grouped by what the time
is spent on, and callgrind instruction counts per game (repeatable on a
loaded machine).

    .venv/bin/python -m benchmarks.profile pyspy --case expert --games 3000
    .venv/bin/python -m benchmarks.profile callgrind --case expert --games 30
    .venv/bin/python -m benchmarks.profile games --case fbi --games 100     # only play (wrap any profiler)

Cases: the suite's matchups (``benchmarks.compare`` names them): expert
(Red Notice, expert vs expert, identities drawn per game), random, search,
fbi (FBI, four experts). ``--mode chunk`` plays through the tournament
worker's ``play_chunk`` (rows and Parquet included) instead of a plain loop.

pyspy: the samples taken while a game is played (imports and the warm-up
game left out), each counted in the first group of its case's list whose
pattern one of its frames matches (the list runs from the specific to the
general: the dossier's C core before the dossier, the dossier before the
decision that asked it). Shares with their binomial standard error.

callgrind: two runs, of N and of 2N games: instructions per game are the
difference over N (imports, warm-up and the first N games cancel). Per game
too: the inclusive cost of the compiled entry points (views, the state
machine, each decision handler, the dossier) and the exclusive cost per
compiled module and per other library. Build with RNSIM_KEEP_BUILD=1
(scripts/build_native.py) to keep mypyc's C for ``callgrind_annotate
--auto=yes`` line by line; ``--keep DIR`` keeps the callgrind files.
"""

from __future__ import annotations

import argparse
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from pathlib import Path

from benchmarks.common import ROOT

# (group, frame pattern): first match wins, so specific before general
RED_NOTICE_GROUPS: list[tuple[str, str]] = [
    ("dossier: C core", r"_dossier_core\.c|^py_(announce|answer|fit|start|draw|normal)"),
    ("engine: history decoding", r"CPyDef_history___|engine/history\.py"),
    ("dossier: Python (compiled)", r"CPyDef_dossier___|red_notice/dossier\.py"),
    ("engine: views", r"build_view|CPyDef_view___"),
    ("expert: Angela's movement", r"on_angela_move"),
    ("expert: Jessah's hunt (movement)", r"on_jessah_move"),
    ("expert: security spends", r"on_(jessah|angela)_security"),
    ("expert: tokens (bidding)", r"on_place_token"),
    ("expert: watching leaks", r"Expert____watch"),
    ("expert: other decisions", r"CPyDef_expert___|CPyDef_board___|Expert\.|rules_based|random_play|choose"),
    ("engine: new game", r"GameState___new\b|GameState\.new|___new_state|new_state \("),
    ("engine: state machine", r"CPyDef_(state|effects|frames|decision|belief)___|engine/(state|effects|frames)\.py"),
    ("seeding (numpy SeedSequence)", r"game_seeds|SeedSequence|bit_generator"),
    ("seeding (random.Random streams)", r"^random_seed|init_by_array|_random_Random_seed"),
    ("strategies: new game", r"new_game"),
    ("engine: outcome", r"outcome \(|___outcome"),
]

# search's decisions: its own steps first, then its rollouts, then the
# expert it consults at every decision (its prior; Jessah's dossier)
SEARCH_GROUPS: list[tuple[str, str]] = [
    ("search: the value model", r"angela_wins|value___features|red_notice/value\.py"),
    ("search: drawing worlds (determinize)", r"Worlds___sample|sample_world|determinize"),
    ("search: copying worlds (state, chance stream)", r"GameState___clone|Random\.getstate|random_Random_getstate"),
    ("search: streams set or seeded (rollout players', copies' chance)", r"_Stream|Random\.(seed|setstate)|random_Random_(seed|setstate)"),
    ("search: rollouts (expert decisions, state machine, views)", r"Search\._rollout|play_until|play_to_end"),
    ("search: its own expert (the prior, Jessah's dossier)", r"Search\.choose"),
    *RED_NOTICE_GROUPS,
]

FBI_GROUPS: list[tuple[str, str]] = [
    ("engine: views", r"CPyDef_view___|fbi/view\.py|build_view"),
    ("expert: the model's play-outs", r"CPyDef_model___|fbi/model\.py"),
    ("expert: agents (field agents)", r"on_agents"),
    ("expert: arrests", r"on_arrest"),
    ("expert: bids", r"on_bid"),
    ("expert: other", r"CPyDef_expert___|fbi/expert\.py|choose"),
    ("engine: state machine", r"CPyDef_state___|fbi/state\.py"),
    ("seeding (numpy SeedSequence)", r"game_seeds|SeedSequence|bit_generator"),
    ("seeding (random.Random streams)", r"^random_seed|init_by_array|_random_Random_seed"),
    ("strategies: new game", r"new_game"),
    ("engine: outcome", r"outcome \(|___outcome"),
]

RUN_GAME = re.compile(r"^run_game \(")
IN_CHUNK = re.compile(r"^_?play_chunk \(")
GC = re.compile(r"^gc_collect|^collect_with_callback")


def groups_for(case: str) -> list[tuple[str, re.Pattern[str]]]:
    table = FBI_GROUPS if case == "fbi" else SEARCH_GROUPS if case == "search" else RED_NOTICE_GROUPS
    return [(name, re.compile(p)) for name, p in table]


def _player(case: str, games: int, mode: str) -> list[str]:
    return [sys.executable, "-m", "benchmarks.profile", "games", "--case", case, "--games", str(games), "--mode", mode]


def play(case: str, games: int, mode: str) -> None:
    from benchmarks.common import Loop
    from benchmarks.compare import CASES

    matchup = CASES[case][0]
    if mode == "loop":
        from rnsim.play import fewer_collections, run_game

        loop = Loop(matchup)
        with fewer_collections():  # as Loop.play, keeping no outcome
            for i in range(games):
                run_game(loop.game, loop.rules, loop.strategies, 0, i, setup=loop.setup)
        return
    from rnsim.tournament.schedule import Chunk
    from rnsim.tournament.worker import Plan, WorkerState, play_chunk

    ws = WorkerState(Plan.from_config(matchup.config(games), "profile"))
    play_chunk(ws, Chunk(0, 10**6, 10**6 + 1))  # warm-up
    for a in range(0, games, 250):
        play_chunk(ws, Chunk(0, a, min(a + 250, games)))


# --------------------------------------------------------------------------- py-spy

# mypyc names a function of a build of several shared libraries (Red Notice's
# engine and expert, rnsim/compiled.py native_deps) by its full module path
# (CPyDef_rnsim___games___red_notice___engine___view___build_view): read as
# the short names of a one-library build (CPyDef_view___build_view)
_QUALIFIED = re.compile(r"\b(CPy(?:Def|Py|Type|Static)_)(?:rnsim_strategies|rnsim)___(?:\w+?___)*?"
                        r"(?=(?:view|history|state|effects|frames|decision|belief|registry|determinize|"
                        r"board|dossier|expert|value)___)")


def short_name(name: str) -> str:
    """A compiled function's name as a one-library mypyc build spells it."""
    return _QUALIFIED.sub(r"\1", name)


def classify(frames: list[str], groups: list[tuple[str, re.Pattern[str]]]) -> str | None:
    """The group of one sample (frames from the root), or None when no game
    was being played (imports, set-up). A sample in the tournament worker's
    chunk but outside any game is the runner's (rows, Parquet). The
    collector's own frames come without the Python stack that triggered
    them: counted as in-game (the games are what allocates)."""
    frames = [short_name(f) for f in frames]
    if any(GC.search(f) for f in frames):
        return "garbage collector"
    if not any(RUN_GAME.search(f) for f in frames):
        return "runner: rows and Parquet" if any(IN_CHUNK.search(f) for f in frames) else None
    for name, pattern in groups:
        if any(pattern.search(f) for f in frames):
            return name
    return "the game loop and the rest"


def pyspy(case: str, games: int, mode: str, rate: int, keep: Path | None) -> None:
    exe = shutil.which("py-spy") or str(Path(sys.executable).with_name("py-spy"))
    if not Path(exe).exists():
        raise SystemExit("profile pyspy: py-spy is not installed (pip install py-spy, or the bench extra)")
    with tempfile.TemporaryDirectory(prefix="rnsim-profile-") as d:
        raw = (keep or Path(d)) / f"pyspy-{case}-{mode}.txt"
        raw.parent.mkdir(parents=True, exist_ok=True)
        subprocess.run([exe, "record", "--native", "--format", "raw", "--rate", str(rate),
                        "-o", str(raw), "--", *_player(case, games, mode)], check=True, cwd=ROOT,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        counts: Counter[str] = Counter()
        for line in raw.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            if not stack or not count.isdigit():
                continue
            group = classify(stack.split(";"), groups_for(case))
            if group is not None:
                counts[group] += int(count)
    total = sum(counts.values())
    print(f"py-spy --native, {rate} samples/s: {case} ({mode}), {games} games; {total:,} samples while playing")
    print(f"{'group':40s} {'share':>7s} {'+-':>5s}")
    for name, k in counts.most_common():
        p = k / total
        print(f"{name:40s} {100 * p:6.1f}% {100 * math.sqrt(p * (1 - p) / total):4.1f}")


# --------------------------------------------------------------------------- callgrind

ENTRY = re.compile(r"^CPyDef_(view___build_view|\w+___\w+___(apply|choose|observe|reset|new_game|_watch)|"
                   r"expert___\w+___on_\w+|\w+___\w+___new)$")
FUNCTION = re.compile(r"^\s*([\d,]+)\s+(?:\([^)]*\)\s+)?(\S.*?):(\S+?)(?:'\d+)?(?:\s+\[(.*)\])?\s*$")


def _callgrind(case: str, games: int, mode: str, out: Path) -> None:
    env = {**os.environ, "PYTHONHASHSEED": "0", "OPENBLAS_NUM_THREADS": "1"}
    subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *_player(case, games, mode)],
                   check=True, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def _costs(path: Path, inclusive: bool) -> tuple[int, dict[tuple[str, str, str], int]]:
    """(program total, {(file, function, object): instructions}) from callgrind_annotate.

    From a folder where it finds the build's C under its relative name (the
    checkout), callgrind_annotate lists each compiled function's inclusive
    cost a second time under that name: ``_one_name_per_file`` keeps one."""
    text = subprocess.run(["callgrind_annotate", f"--inclusive={'yes' if inclusive else 'no'}", "--threshold=100",
                           str(path)], check=True, capture_output=True, text=True).stdout
    total = 0
    costs: dict[tuple[str, str, str], int] = {}
    for line in text.splitlines():
        if "PROGRAM TOTALS" in line:
            total = int(line.split()[0].replace(",", ""))
            continue
        m = FUNCTION.match(line)
        if m is None or "'" in line.split(":")[-1].split()[0]:  # recursive-cycle entries ('2) are not costs
            continue
        key = (m.group(2), short_name(m.group(3)), m.group(4) or "")
        costs[key] = costs.get(key, 0) + int(m.group(1).replace(",", ""))
    return total, _one_name_per_file(costs)


def _one_name_per_file(costs: dict[tuple[str, str, str], int]) -> dict[tuple[str, str, str], int]:
    """One entry per real file and function: a file listed under a relative
    path and its absolute one (the build's C, relative to the checkout; one
    of them without its object) is the same function's cost listed twice, so
    the larger stands, not the sum."""
    best: dict[tuple[str, str], tuple[int, str]] = {}
    for (file, function, obj), v in costs.items():
        key = (file if file.startswith("/") else str(ROOT / file), function)
        was, was_obj = best.get(key, (0, ""))
        best[key] = (max(was, v), was_obj or obj)
    return {(file, function, obj): v for (file, function), (v, obj) in best.items()}


def _where(file: str, function: str, obj: str) -> str:
    """An exclusive cost's owner: a compiled module, the dossier's C core, or a library."""
    m = re.match(r"CPy(?:Def|Py)_(\w+?)___", function)
    if m:
        return f"compiled {m.group(1)}"
    if "_dossier_core" in file or "_dossier_core" in obj:
        return "dossier C core"
    if "libpython" in obj or "Python-3" in file:
        return "CPython (interpreter, objects, dicts, allocation)"
    if "libc.so" in obj:
        return "libc (malloc, memcpy)"
    if "numpy" in obj:
        return "numpy"
    if "polars" in obj:
        return "polars"
    if "_group__mypyc" in obj:
        return "mypyc's runtime library (boxing, tagged ints)"
    if not obj:
        return "inlined CPython headers (reference counts, deallocation)"
    return Path(obj).name


def callgrind(case: str, games: int, mode: str, keep: Path | None, top: int) -> None:
    if shutil.which("valgrind") is None or shutil.which("callgrind_annotate") is None:
        raise SystemExit("profile callgrind: needs valgrind (apt-get install valgrind)")
    with tempfile.TemporaryDirectory(prefix="rnsim-profile-") as d:
        where = keep or Path(d)
        where.mkdir(parents=True, exist_ok=True)
        files = {n: where / f"callgrind-{case}-{mode}-{n}.out" for n in (games, 2 * games)}
        for n, f in files.items():
            _callgrind(case, n, mode, f)
        tot_n, inc_n = _costs(files[games], inclusive=True)
        tot_2n, inc_2n = _costs(files[2 * games], inclusive=True)
        _, exc_n = _costs(files[games], inclusive=False)
        _, exc_2n = _costs(files[2 * games], inclusive=False)
    per_game = (tot_2n - tot_n) / games
    print(f"callgrind: {case} ({mode}); {per_game / 1e6:.2f} M instructions a game "
          f"(runs of {2 * games} and {games} games: {tot_2n:,} - {tot_n:,}, over {games})")

    def diff(a: dict[tuple[str, str, str], int], b: dict[tuple[str, str, str], int]) -> dict[tuple[str, str, str], float]:
        return {k: (b.get(k, 0) - a.get(k, 0)) / games for k in set(a) | set(b)}

    # a function's inlined pieces are listed under the header they came from: summed
    inc: Counter[str] = Counter()
    for k, v in diff(inc_n, inc_2n).items():
        if ENTRY.match(k[1]):
            inc[k[1]] += int(v)
    entries = sorted(((v, name) for name, v in inc.items() if v > 0), reverse=True)
    print("\ninclusive, per game (entry points; nested ones overlap their callers):")
    for v, name in entries[:top]:
        print(f"  {name:60s} {v / 1e6:7.2f} M {100 * v / per_game:5.1f}%")
    exc = diff(exc_n, exc_2n)
    owners: Counter[str] = Counter()
    for k, v in exc.items():
        owners[_where(*k)] += int(v)
    print("\nexclusive, per game, by owner:")
    for name, v in owners.most_common(top):
        if v > 0:
            print(f"  {name:60s} {v / 1e6:7.2f} M {100 * v / per_game:5.1f}%")
    print("\nexclusive, per game, top functions:")
    for k, v in sorted(exc.items(), key=lambda kv: -kv[1])[:top]:
        print(f"  {k[1][:60]:60s} {v / 1e6:7.2f} M {100 * v / per_game:5.1f}%  ({Path(k[2]).name or Path(k[0]).name})")


def main(argv: list[str] | None = None) -> int:
    from benchmarks.compare import CASES

    ap = argparse.ArgumentParser(prog="python -m benchmarks.profile", description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("what", choices=("pyspy", "callgrind", "games"))
    ap.add_argument("--case", default="expert", choices=list(CASES))
    ap.add_argument("--games", type=int, default=None, help="games (default: pyspy 3000, callgrind 30, games 100)")
    ap.add_argument("--mode", default="loop", choices=("loop", "chunk"))
    ap.add_argument("--rate", type=int, default=200, help="pyspy: samples per second")
    ap.add_argument("--top", type=int, default=25, help="callgrind: rows per table")
    ap.add_argument("--keep", type=Path, default=None, help="keep the profiler's files in this folder")
    a = ap.parse_args(argv)
    games = a.games or {"pyspy": 3000, "callgrind": 30, "games": 100}[a.what]
    if games < 1:
        raise SystemExit("profile: --games must be at least 1")
    if a.what == "games":
        play(a.case, games, a.mode)
        sys.stdout.flush()
        os._exit(0)  # no interpreter shutdown: its collections would count as the games' in a profile
    elif a.what == "pyspy":
        pyspy(a.case, games, a.mode, a.rate, a.keep)
    else:
        callgrind(a.case, games, a.mode, a.keep, a.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
