"""Fit search's value model (strategies/red_notice/value.py) on expert games.

    python scripts/fit_value_model.py --games 8000 --seed 4100 \
        --out strategies/red_notice/data/value_model.json

Plays ``--games`` games on the default rules between the players of
search's rollouts (the expert forger, and the expert agent hunting on the
bare public set, ``dossier = 0``), game i from master seed ``--seed`` and
index i, and keeps the state at the first decision of each round and at
every ``--stride``-th decision (the states a cut rollout stops at) with the
game's winner. Games without a
winner are left out. A logistic regression of "Angela wins" on the
features (Newton's method, a small ridge of ``--ridge``) is written to
``--out`` with its seed, games, rows and log loss (in-sample, and on the
last fifth of the games held out of a second fit).
"""

from __future__ import annotations

import argparse
import json
import random

import numpy as np
from rnsim_strategies.red_notice.expert import Expert
from rnsim_strategies.red_notice.value import FEATURES, features

from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.game import GAME
from rnsim.seeding import game_seeds


def collect(games: int, seed: int, stride: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rules = GAME.rules()
    comps = rules.load_components()
    players = (Expert(), Expert(dossier=0))
    xs: list[list[float]] = []
    ys: list[float] = []
    gi: list[int] = []
    for g in range(games):
        s = game_seeds(seed, g)
        players[0].new_game(0, random.Random(s.seats[0]))
        players[1].new_game(1, random.Random(s.seats[1]))
        st = GameState.new(rules, random.Random(s.chance), comps=comps, seed=s.chance)
        st.stop_history()
        rows: list[list[float]] = []
        last = k = 0
        while not st.over:
            d = st.pending
            assert d is not None
            k += 1
            if st.round != last or k % stride == 0:
                last = st.round
                rows.append(features(st))
            st.apply(players[d.seat].choose(build_view(st, d.seat), d))
        if st.winner is None:
            continue
        xs.extend(rows)
        ys.extend([1.0 - st.winner] * len(rows))
        gi.extend([g] * len(rows))
    return np.array(xs), np.array(ys), np.array(gi)


def fit(x: np.ndarray, y: np.ndarray, ridge: float) -> np.ndarray:
    a = np.hstack([np.ones((len(x), 1)), x])
    w = np.zeros(a.shape[1])
    for _ in range(50):
        p = 1.0 / (1.0 + np.exp(-a @ w))
        grad = a.T @ (p - y) + ridge * np.r_[0.0, w[1:]]
        hess = (a * (p * (1 - p))[:, None]).T @ a + ridge * np.diag(np.r_[0.0, np.ones(len(w) - 1)])
        step = np.linalg.solve(hess, grad)
        w -= step
        if np.max(np.abs(step)) < 1e-9:
            break
    return w


def log_loss(w: np.ndarray, x: np.ndarray, y: np.ndarray) -> float:
    p = 1.0 / (1.0 + np.exp(-(w[0] + x @ w[1:])))
    p = np.clip(p, 1e-12, 1 - 1e-12)
    return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--games", type=int, default=8000)
    ap.add_argument("--seed", type=int, default=4100)
    ap.add_argument("--ridge", type=float, default=1.0)
    ap.add_argument("--stride", type=int, default=4, help="keep every stride-th decision's state too")
    ap.add_argument("--out", default="strategies/red_notice/data/value_model.json")
    args = ap.parse_args()
    x, y, gi = collect(args.games, args.seed, args.stride)
    train = gi < int(args.games * 0.8)
    held = fit(x[train], y[train], args.ridge)
    w = fit(x, y, args.ridge)
    out = {
        "features": list(FEATURES),
        "weights": [round(float(v), 6) for v in w],
        "fitted_by": "scripts/fit_value_model.py",
        "seed": args.seed, "games": args.games, "rows": len(y), "stride": args.stride, "ridge": args.ridge,
        "players": "expert forger vs expert agent with dossier = 0 (search's rollout players), default rules",
        "angela_wins": round(float(y.mean()), 4),
        "log_loss": round(log_loss(w, x, y), 4),
        "held_out_log_loss": round(log_loss(held, x[~train], y[~train]), 4),
        "base_log_loss": round(log_loss(np.r_[np.log(y.mean() / (1 - y.mean())), np.zeros(len(FEATURES))],
                                        x[~train], y[~train]), 4),
    }
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
        f.write("\n")
    for k, v in out.items():
        if k != "weights":
            print(f"{k}: {v}")
    for name, v in zip(("intercept", *FEATURES), w, strict=True):
        print(f"  {name:>15} {v:+.3f}")


if __name__ == "__main__":
    main()
