"""The benchmark suite's own arithmetic and bookkeeping (benchmarks/): the
median's interval covers as it says, the toy yardstick never changes, the
profile puts a sample in its group, the comparison refuses a checkout it
cannot run. The suite itself runs in CI's short mode (`make bench MODE=short`)."""

from __future__ import annotations

import hashlib
import math
import random
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks import toy  # noqa: E402
from benchmarks.common import ROOT, median_interval  # noqa: E402
from benchmarks.compare import CASES  # noqa: E402
from benchmarks.profile import classify, groups_for  # noqa: E402


def _coverage(draw, true_median: float, n: int, trials: int, seed: int) -> float:
    rng = random.Random(seed)
    hits = 0
    for _ in range(trials):
        _, lo, hi = median_interval([draw(rng) for _ in range(n)])
        hits += lo <= true_median <= hi
    return hits / trials


@pytest.mark.parametrize("n", [6, 15, 40])
def test_median_interval_covers_on_skewed_and_bimodal_draws(n: int) -> None:
    """The order-statistics interval covers the median at least 95% of the
    time whatever the distribution (here a skewed and a two-humped one), and
    no more than its exact binomial level (so it is not needlessly wide)."""
    from scipy.stats import binom

    k = max(j for j in range(1, n) if binom.cdf(j - 1, n, 0.5) <= 0.025)
    exact = 1 - 2 * binom.cdf(k - 1, n, 0.5)
    trials = 4000
    se = math.sqrt(exact * (1 - exact) / trials)
    skewed = _coverage(lambda r: r.expovariate(1.0), math.log(2), n, trials, seed=n)
    # humps N(0, 1) and N(10, 1) weighing 40% and 60%: the median is where the
    # upper hump holds a sixth of its mass below: 10 + z(1/6)
    upper_q = 10 - 0.9674215661017013
    bimodal = _coverage(lambda r: r.gauss(0, 1) if r.random() < 0.4 else r.gauss(10, 1), upper_q, n, trials,
                        seed=100 + n)
    for cov in (skewed, bimodal):
        assert cov >= 0.95 - 4 * se
        assert abs(cov - exact) < 4 * se


def test_median_interval_needs_six_values_for_95_percent() -> None:
    assert median_interval([1.0, 2.0, 3.0, 4.0, 5.0])[1:] == (-math.inf, math.inf)
    assert median_interval([3.0, 1.0, 2.0, 6.0, 5.0, 4.0]) == (3.5, 1.0, 6.0)


def test_toy_yardstick_is_the_same_game_forever() -> None:
    """Every ratio to the toy in the suite's history assumes one toy game:
    its first 500 games (winner, turns) are pinned."""
    h = hashlib.sha256(repr([toy.play(i) for i in range(500)]).encode()).hexdigest()
    assert h == "274476113f6545bad28e3c0306b79d0e0e617cd781b2e98ad5bc891e40cd7c54"
    rounds = sum(toy.play(i)[1] for i in range(500)) / 500 / 2
    assert 35 < rounds < 45  # about as long as a random Red Notice game


def test_profile_groups_a_sample_by_its_most_specific_frame() -> None:
    game = ["<module> (x.py:1)", "run_game (rnsim/play.py:109)", "play_out (rnsim/play.py:132)",
            "CPyPy_expert___Expert___choose (__native__group.c:1)"]
    groups = groups_for("expert")
    core = [*game, "CPyDef_dossier___Dossier___observe (__native__group.c:2)", "py_announce (_dossier_core.c:896)"]
    assert classify(core, groups) == "dossier: C core"
    assert classify(game[:-1] + ["CPyDef_dossier___Dossier___observe (g.c:2)"], groups) == "dossier: Python (compiled)"
    assert classify([*game, "CPyDef_expert___Expert___on_angela_move (g.c:3)"], groups) == "expert: Angela's movement"
    assert classify(game[:3] + ["CPyDef_view___build_view (g.c:4)"], groups) == "engine: views"
    assert classify(["<module> (x.py:1)", "_find_and_load (<frozen importlib._bootstrap>:1176)"], groups) is None
    assert classify(["0x7f (libc.so.6)", "gc_collect_main (libpython3.11.so)"], groups) == "garbage collector"


def test_compare_refuses_a_checkout_without_its_virtualenv(tmp_path: Path) -> None:
    from benchmarks.compare import main

    with pytest.raises(SystemExit) as e:
        main(["--against", str(tmp_path)])
    assert "--against" in str(e.value) and "make install" in str(e.value)
    with pytest.raises(SystemExit) as e:
        main(["--against", str(ROOT), "--cases", "expert,chess"])
    assert "chess" in str(e.value)


@pytest.mark.parametrize("name", sorted(CASES))
def test_every_matchup_is_a_valid_one_cell_config(name: str) -> None:
    matchup = CASES[name][0]
    cfg = matchup.config(3)
    assert len(cfg.cells()) == 1
    assert len(cfg.game_obj.seats(cfg.variants[0].rules, cfg.cells()[0].setup)) == len(matchup.seats)


@pytest.mark.parametrize("case", ["expert", "fbi"])
def test_runner_cost_plays_its_games_in_either_mode(case: str) -> None:
    from benchmarks.runner_cost import main

    main([case, "loop", "2"])
    main([case, "run", "2"])
    with pytest.raises(KeyError):
        main(["chess", "run", "2"])


def test_runner_cost_rows_times_a_chunk_of_the_size_asked(capsys: pytest.CaptureFixture[str]) -> None:
    from benchmarks.runner_cost import main

    main(["fbi", "rows", "3"])
    assert "a chunk of 3 games" in capsys.readouterr().out
