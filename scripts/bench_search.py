"""What a determinized search player would pay per decision: the cost of
cloning a state, of a determinization (engine/determinize.py) and of an
expert-vs-expert rollout from it to the end of the game.

    python scripts/bench_search.py --games 20 --samples 5

Run it on an idle machine: it reports wall-clock microseconds and rollouts
per second (CPU time, so other processes disturb it less).
"""

from __future__ import annotations

import argparse
import random
import time

from rnsim.games.red_notice.engine.determinize import copies_rng, determinize
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.play import play_out
from rnsim.seeding import game_seeds
from rnsim.strategy import load_strategy


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=20, help="games whose decisions are sampled")
    ap.add_argument("--samples", type=int, default=5, help="decisions sampled per game")
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args()
    rules = RuleSet()
    comps = rules.load_components()
    a, j = load_strategy("expert"), load_strategy("expert")
    ra, rj = load_strategy("expert"), load_strategy("expert")
    clone_s = det_s = roll_s = 0.0
    n_clone = n_roll = 0
    for g in range(args.games):
        s = game_seeds(args.seed, g)
        a.new_game(0, random.Random(s.seats[0]))
        j.new_game(1, random.Random(s.seats[1]))
        st = GameState.new(rules, random.Random(s.chance), comps=comps, seed=s.chance)
        copies = copies_rng(args.seed, g)
        k = 0
        while not st.over:
            d = st.pending
            k += 1
            if k % 17 == 0 and n_clone < (g + 1) * args.samples:
                t = time.process_time()
                for _ in range(20):
                    st.clone()
                clone_s += (time.process_time() - t) / 20
                t = time.process_time()
                sample = determinize(st, d.seat, copies)
                det_s += time.process_time() - t
                n_clone += 1
                ra.new_game(0, random.Random(copies.getrandbits(63)))
                rj.new_game(1, random.Random(copies.getrandbits(63)))
                t = time.process_time()
                play_out(sample, (ra, rj))
                roll_s += time.process_time() - t
                n_roll += 1
            st.apply((a if d.seat == 0 else j).choose(build_view(st, d.seat), d))
    print(f"clone: {1e6 * clone_s / n_clone:.1f} us; determinize: {1e6 * det_s / n_clone:.1f} us; "
          f"expert rollout to the end: {1e3 * roll_s / n_roll:.2f} ms ({n_roll / roll_s:.0f} rollouts/s CPU); "
          f"{n_roll} samples")


if __name__ == "__main__":
    main()
