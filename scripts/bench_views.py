"""Same-run benchmark of building Red Notice views: microseconds of CPU per
``build_view`` in two checkouts (e.g. main before a change and the change),
interleaved, medians of the repeats, and the ratio new / old.

Each checkout plays the same expert-vs-expert games in its own interpreter
(its own venv and compiled build, if built), timing ``build_view`` of the
deciding seat at every decision as the game goes (20 times over, timed
together, as reading the CPU clock costs about as much as a view), then, for reference, the rules alone: the same answers replayed on a
fresh game, with no strategy and no view (history recorded).

    python scripts/bench_views.py OLD_DIR NEW_DIR [--games 40] [--repeat 5]

CPU time (``time.process_time``), so other load on a shared machine distorts
it much less; still, interleave and read medians.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
from pathlib import Path

SNIPPET = r"""
import gc, json, random, sys, time
games = int(sys.argv[1])
from rnsim.games import get_game
from rnsim.games.red_notice import engine as _engine
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy
game = get_game("red_notice")
rules = RuleSet()
comps = rules.load_components()
clock = time.process_time
REPEAT = 20  # views built per decision, timed together: the clock costs ~1 us a reading
views = n_views = 0.0
scripts = []
gc.collect()
for i in range(games):
    seeds = game_seeds(0, i, 2)
    strats = [load_strategy("expert", None, game) for _ in range(2)]
    for seat, s in enumerate(strats):
        s.new_game(seat, random.Random(seeds.seats[seat]))
    st = GameState.new(rules, random.Random(seeds.chance), comps=comps, seed=seeds.chance)
    answers = []
    while not st.over:
        d = st.pending
        t = clock()
        for _ in range(REPEAT):
            v = build_view(st, d.seat)
        views += clock() - t
        n_views += REPEAT
        opt = strats[d.seat].choose(v, d)
        answers.append(opt)
        st.apply(opt)
    scripts.append((seeds.chance, answers))
gc.collect()
t = clock()
for chance, answers in scripts:
    st = GameState.new(rules, random.Random(chance), comps=comps, seed=chance)
    for opt in answers:
        st.apply(opt)
rules_t = clock() - t
print(json.dumps({"views": n_views / REPEAT, "us_per_view": 1e6 * views / n_views,
                  "ms_views_per_game": 1e3 * views / REPEAT / games, "ms_rules_per_game": 1e3 * rules_t / games,
                  "native": getattr(_engine, "NATIVE", None)}))
"""


def measure(root: Path, games: int) -> dict[str, float]:
    py = root / ".venv" / "bin" / "python"
    out = subprocess.run([str(py), "-c", SNIPPET, str(games)], cwd=root, capture_output=True, text=True, check=True)
    res: dict[str, float] = json.loads(out.stdout.strip().splitlines()[-1])
    return res


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("old", type=Path)
    ap.add_argument("new", type=Path)
    ap.add_argument("--games", type=int, default=40, help="expert-vs-expert games per measurement")
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    runs: dict[str, list[dict[str, float]]] = {"old": [], "new": []}
    for _ in range(args.repeat):
        for label, root in (("old", args.old), ("new", args.new)):
            runs[label].append(measure(root, args.games))
    print(f"bench_views: old = {args.old}, new = {args.new}; {args.games} expert games, median of "
          f"{args.repeat}, interleaved; compiled engine: old {runs['old'][0]['native']}, new {runs['new'][0]['native']}; "
          f"{runs['new'][0]['views'] / args.games:.0f} views per game")
    for key, unit in (("us_per_view", "us per view"), ("ms_views_per_game", "ms of views per game"),
                      ("ms_rules_per_game", "ms of rules per game")):
        old = statistics.median(r[key] for r in runs["old"])
        new = statistics.median(r[key] for r in runs["new"])
        print(f"  {unit:22s} old {old:8.3f}  new {new:8.3f}  ratio new/old {new / old:.3f}   "
              f"(runs old {', '.join(f'{r[key]:.3f}' for r in runs['old'])}; "
              f"new {', '.join(f'{r[key]:.3f}' for r in runs['new'])})")


if __name__ == "__main__":
    main()
