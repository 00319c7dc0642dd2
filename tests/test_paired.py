"""Paired differences of win rates, on synthetic result tables (no games)."""

from __future__ import annotations

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rnsim.analysis.paired import ALL, paired_differences, paired_games

WINNERS = ["angela", "jessah", None]


def table(variant: str, winners: list[str | None], pairs: list[str] | None = None,
          errors: set[int] | None = None) -> pl.DataFrame:
    n = len(winners)
    pairs = pairs or ["journalist+pilot"] * n
    errors = errors or set()
    return pl.DataFrame({
        "variant": [variant] * n,
        "identity_pair": pairs,
        "angela_strategy": ["random"] * n,
        "jessah_strategy": ["random"] * n,
        "game_index": list(range(n)),
        "winner": [None if i in errors else w for i, w in enumerate(winners)],
        "end_reason": ["error" if i in errors else ("timeout" if w is None else "million") for i, w in enumerate(winners)],
    }, schema_overrides={"winner": pl.String, "game_index": pl.Int64})


def test_two_identical_variants_give_an_interval_of_exactly_zero_width() -> None:
    rng = np.random.default_rng(1)
    winners = [WINNERS[k] for k in rng.integers(0, 3, 500)]
    pairs = [["journalist+pilot", "lawyer+doctor"][k] for k in rng.integers(0, 2, 500)]
    df = pl.concat([table("a", winners, pairs), table("b", winners, pairs)])
    out = paired_differences(df, "a", "b")
    assert set(out["identity_pair"]) == {"journalist+pilot", "lawyer+doctor", ALL}
    for row in out.iter_rows(named=True):
        assert row["diff"] == 0.0
        assert row["paired_hi"] - row["paired_lo"] == 0.0
        assert row["unpaired_hi"] - row["unpaired_lo"] > 0
        assert row["variance_removed"] == 1.0
        assert row["discordant"] == 0


def test_correlated_variants_give_a_narrower_paired_interval() -> None:
    rng = np.random.default_rng(2)
    a = rng.random(2000) < 0.3
    # variant b wins every game a wins, and some more: a strongly coupled change
    b = a | (rng.random(2000) < 0.2)
    df = pl.concat([table("a", ["angela" if x else "jessah" for x in a]),
                    table("b", ["angela" if x else "jessah" for x in b])])
    row = paired_differences(df, "a", "b").filter(pl.col("identity_pair") == ALL).row(0, named=True)
    assert row["diff"] == pytest.approx(b.mean() - a.mean())
    assert row["paired_lo"] > 0  # the change is found
    assert row["paired_hi"] - row["paired_lo"] < row["unpaired_hi"] - row["unpaired_lo"]
    assert 0 < row["variance_removed"] < 1


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(WINNERS), st.sampled_from(WINNERS)), min_size=3, max_size=200))
def test_the_paired_variance_is_the_variance_of_the_per_game_differences(games: list[tuple[str | None, str | None]]) -> None:
    df = pl.concat([table("ref", [g[0] for g in games]), table("var", [g[1] for g in games])])
    row = paired_differences(df, "ref", "var", seat="jessah").filter(pl.col("identity_pair") == ALL).row(0, named=True)
    y0 = np.array([g[0] == "jessah" for g in games], dtype=float)
    y1 = np.array([g[1] == "jessah" for g in games], dtype=float)
    n = len(games)
    assert row["games"] == n
    assert row["diff"] == pytest.approx((y1 - y0).mean(), abs=1e-12)
    assert row["var_paired"] == pytest.approx(np.var(y1 - y0, ddof=1) / n, abs=1e-12)
    assert row["var_unpaired"] == pytest.approx((np.var(y0, ddof=1) + np.var(y1, ddof=1)) / n, abs=1e-12)
    assert row["paired_lo"] <= row["diff"] <= row["paired_hi"]


def test_error_games_are_dropped_with_their_partner() -> None:
    a = table("a", ["angela"] * 10, errors={3})
    b = table("b", ["jessah"] * 10, errors={7})
    joined = paired_games(pl.concat([a, b]), "a", "b").collect()
    assert sorted(joined["game_index"]) == [0, 1, 2, 4, 5, 6, 8, 9]
    row = paired_differences(pl.concat([a, b]), "a", "b").filter(pl.col("identity_pair") == ALL).row(0, named=True)
    assert row["games"] == 8 and row["diff"] == -1.0


def test_timeouts_are_not_wins() -> None:
    df = pl.concat([table("a", [None] * 6), table("b", ["angela", None, None, None, None, None])])
    row = paired_differences(df, "a", "b").filter(pl.col("identity_pair") == ALL).row(0, named=True)
    assert row["rate_ref"] == 0.0 and row["rate_var"] == pytest.approx(1 / 6)


def test_the_overall_row_is_stratified_by_cell() -> None:
    # Two cells with very different base rates and the same (zero) change: pooling the
    # games blindly would count the base-rate gap as noise.
    rng = np.random.default_rng(3)
    ws1 = ["angela" if x else "jessah" for x in rng.random(400) < 0.9]
    ws2 = ["angela" if x else "jessah" for x in rng.random(400) < 0.1]
    flip = rng.random(800) < 0.1
    base = ws1 + ws2
    changed = [("jessah" if w == "angela" else "angela") if f else w for w, f in zip(base, flip, strict=True)]
    pairs = ["journalist+pilot"] * 400 + ["lawyer+doctor"] * 400
    df = pl.concat([table("a", base, pairs), table("b", changed, pairs)])
    out = paired_differences(df, "a", "b")
    cells = out.filter(pl.col("identity_pair") != ALL)
    overall = out.filter(pl.col("identity_pair") == ALL).row(0, named=True)
    # cells on different game indices: the clustered variance is the stratified one
    # (up to the n/(n-1) factors of each)
    assert overall["var_paired"] == pytest.approx((cells["var_paired"] * 0.25).sum(), rel=0.01)
    assert overall["diff"] == pytest.approx(cells["diff"].mean())


def test_no_common_games_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="under both variants"):
        paired_differences(table("a", ["angela"] * 5), "a", "b")


def test_the_overall_interval_counts_one_deal_in_several_cells_once() -> None:
    """Game i of every cell shares its chance stream: when two cells' outcomes
    move together game by game, the overall interval must not treat them as
    twice the evidence (clustered on the game index)."""
    rng = np.random.default_rng(1)
    n = 400
    ref = rng.random(n) < 0.4
    var = np.where(rng.random(n) < 0.2, ~ref, ref)  # about 20% of games change outcome
    rows = []
    for cell in ("a+b", "c+d"):  # two cells, identical outcomes per game index
        for v, ys in (("base", ref), ("other", var)):
            rows += [{"variant": v, "identity_pair": cell, "angela_strategy": "x", "jessah_strategy": "y",
                      "game_index": i, "end_reason": "million" if y else "arrest",
                      "winner": "angela" if y else "jessah"} for i, y in enumerate(ys)]
    df = pl.DataFrame(rows)
    t = paired_differences(df, "base", "other", seat="angela", keys=["identity_pair", "angela_strategy",
                                                                     "jessah_strategy"])
    one = t.filter(pl.col("identity_pair") == "a+b").row(0, named=True)
    both = t.filter(pl.col("identity_pair") == ALL).row(0, named=True)
    assert both["diff"] == pytest.approx(one["diff"])
    # the same evidence as one cell, not twice it
    assert both["se_paired"] == pytest.approx(one["se_paired"], rel=0.01)


def _seated(variant: str, players: int, winners: list[str | None]) -> pl.DataFrame:
    """A table of a game whose seats come and go: FBI's five seat columns,
    null for a seat not in a game of ``players``."""
    seats = ["ann", "bert", "chris", "donna", "emil"]
    n = len(winners)
    return pl.DataFrame({
        "variant": [variant] * n, "players": [str(players)] * n,
        **{f"{s}_strategy": [("rule" if k < players else None)] * n for k, s in enumerate(seats)},
        "game_index": list(range(n)), "winner": winners, "end_reason": ["deck_empty"] * n,
    }, schema_overrides={"winner": pl.String, **{f"{s}_strategy": pl.String for s in seats}})


@pytest.mark.parametrize("counts", [[3], [3, 4], [3, 4, 5]])
def test_a_cell_whose_absent_seats_are_null_pairs_like_any_other(counts: list[int]) -> None:
    """Seats absent from a cell's games have null strategy columns; the pairing
    joins on them null-safe, so every player count is paired (not only the
    one where every seat plays)."""
    rng = np.random.default_rng(5)
    parts = []
    for p in counts:
        ref = [["ann", "bert", None][k] for k in rng.integers(0, 3, 60)]
        var = [w if rng.random() < 0.7 else "bert" for w in ref]
        parts += [_seated("base", p, ref), _seated("top-card", p, var)]
    df = pl.concat(parts)
    out = paired_differences(df, "base", "top-card", seat="ann")
    rows = {r["players"]: r for r in out.iter_rows(named=True)}
    assert set(rows) == {*(str(p) for p in counts), ALL}
    for p in counts:
        r = rows[str(p)]
        assert r["games"] == 60
        ref_wins = df.filter((pl.col("variant") == "base") & (pl.col("players") == str(p)) & (pl.col("winner") == "ann"))
        assert r["rate_ref"] == pytest.approx(ref_wins.height / 60)
        assert r["paired_lo"] <= r["diff"] <= r["paired_hi"]
    assert rows[ALL]["games"] == 60 * len(counts)
    assert paired_games(df, "base", "top-card", seat="ann").collect().height == 60 * len(counts)


def test_the_same_games_in_another_order_give_the_same_bits() -> None:
    """Two reports of one run agree to the last digit, whatever order the
    parallel scan hands the games over in (the overall row's clustered
    variance sums floats over cells and games)."""
    rng = np.random.default_rng(3)
    n = 3000
    cells = ["a+b", "c+d", "e+f"]
    frames = []
    for k, cell in enumerate(cells):
        base = rng.random(n) < 0.2 + 0.1 * k
        other = np.where(rng.random(n) < 0.3, ~base, base)
        for v, ys in (("base", base), ("other", other)):
            frames.append(table(v, ["angela" if y else "jessah" for y in ys], pairs=[cell] * n))
    df = pl.concat(frames)
    first = paired_differences(df, "base", "other", seat="angela")
    for seed in range(6):
        shuffled = df.sample(fraction=1.0, shuffle=True, seed=seed)
        assert paired_differences(shuffled, "base", "other", seat="angela").equals(first), seed


def shared_table(variant: str, shares: list[tuple[float, float, float]], starts: list[str]) -> pl.DataFrame:
    """An FBI-like table: three seats, a start player per game, each seat's
    share of the win (1/k of a win shared by k; F13)."""
    n = len(shares)
    seats = ("ann", "bert", "chris")
    winner = [next((s for s, x in zip(seats, sh, strict=True) if x == 1.0), None) for sh in shares]
    return pl.DataFrame({
        "variant": [variant] * n, "players": [3] * n,
        **{f"{s}_strategy": ["expert"] * n for s in seats},
        "game_index": list(range(n)), "winner": winner, "first_handcuffs": starts,
        "end_reason": ["deck_empty" if w else "shared_win" for w in winner],
        **{f"share_{s}": [sh[i] for sh in shares] for i, s in enumerate(seats)},
    }, schema_overrides={"winner": pl.String})


def _shares(rng: np.random.Generator, n: int) -> list[tuple[float, float, float]]:
    out = []
    for _ in range(n):
        tied = rng.choice(3, size=int(rng.choice([1, 1, 1, 2, 3])), replace=False)
        out.append(tuple(1.0 / len(tied) if i in tied else 0.0 for i in range(3)))
    return out


def test_a_shared_win_counts_as_its_share_for_the_watched_start_player() -> None:
    """The paired difference of a game whose win can be shared reads the
    watched player's share (as FBI's verdict counts it), not only wins alone:
    its difference and paired variance are those of the per-game shares."""
    rng = np.random.default_rng(3)
    n = 400
    starts = [["ann", "bert", "chris"][k] for k in rng.integers(0, 3, n)]
    ref, var = _shares(rng, n), _shares(rng, n)
    df = pl.concat([shared_table("a", ref, starts), shared_table("b", var, starts)])
    row = paired_differences(df, "a", "b", seat="first_handcuffs", keys=["players"]).filter(
        pl.col("players").cast(pl.String) != ALL).row(0, named=True)
    idx = {"ann": 0, "bert": 1, "chris": 2}
    y_ref = np.array([ref[i][idx[s]] for i, s in enumerate(starts)])
    y_var = np.array([var[i][idx[s]] for i, s in enumerate(starts)])
    d = y_var - y_ref
    assert row["rate_ref"] == pytest.approx(y_ref.mean()) and row["diff"] == pytest.approx(d.mean())
    assert row["var_paired"] == pytest.approx(d.var(ddof=1) / n)
    assert row["var_unpaired"] == pytest.approx((y_ref.var(ddof=1) + y_var.var(ddof=1)) / n)
    assert row["discordant"] == int(np.count_nonzero(d))
    same = paired_differences(pl.concat([shared_table("a", ref, starts), shared_table("b", ref, starts)]),
                              "a", "b", seat="first_handcuffs", keys=["players"])
    assert (same["paired_hi"] - same["paired_lo"]).abs().max() == 0.0
