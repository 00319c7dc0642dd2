"""`rnsim sweep`, `rnsim tune` and `rnsim levers` on real games of both games:
the knobs and the balance come from the game, no crossing is printed where
none was seen, a knob that changes no game is named, and FBI's player counts
are cells (pooled, and one crossing per count)."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest

RN = 'seed = 7\nworkers = 1\nbackend = "serial"\nidentities = "random"'
RN_SEATS = 'angela = "rule"\njessah = "rule"'
FBI = 'game = "fbi"\nseed = 3\nworkers = 1\nbackend = "serial"\nplayers = [3, 4, 5]'
FBI_SEATS = "\n".join(f'{s} = "rule"' for s in ("ann", "bert", "chris", "donna", "emil"))


def _config(tmp_path: Path, run: str = RN, rules: str = "", strategies: str = RN_SEATS, name: str = "c") -> Path:
    p = tmp_path / f"{name}.toml"
    p.write_text(f"[run]\n{run}\n[rules]\n{rules}\n[strategies]\n{strategies}\n")
    return p


def _cli(*args: object):  # type: ignore[no-untyped-def]
    from click.testing import CliRunner

    from rnsim.cli import main

    return CliRunner().invoke(main, [str(a) for a in args])


# --------------------------------------------------------------------------- Red Notice


def test_money_target_sweep_brackets_the_target_and_interpolates_between_the_two_values(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    out = tmp_path / "sweep"
    r = _cli("sweep", cfg, "--knob", "money_target", "--values", "700000:1300000:300000", "--games", "150",
             "--out", out, "--no-progress", "--per-setup")
    assert r.exit_code == 0, r.output
    t = pl.read_parquet(out / "tables" / "sweep.parquet")
    assert t["money_target"].to_list() == [700_000, 1_000_000, 1_300_000]
    assert t["games"].to_list() == [150] * 3
    assert all(hi <= 0 for hi in t["diff_prev_lo"].drop_nulls().to_list())  # a higher target never helps the forger
    assert t["rate"][0] > 0.5 > t["rate"][2]
    assert "crossing of the forger's win rate with 50.0% (a balanced game):" in r.output
    assert "  between money_target " in r.output and "on a straight line between them: money_target = " in r.output
    assert "450 games" in r.output and (out / "figures" / "sweep.png").is_file()
    # identities are dealt at random, yet the per-setup curves name the pairs dealt
    pp = pl.read_parquet(out / "tables" / "sweep_per_setup.parquet")
    assert "random" not in pp["setup"].to_list() and pp["setup"].n_unique() == 15
    assert pp.group_by("money_target").agg(pl.col("games").sum())["games"].to_list() == [150] * 3


def test_a_sweep_table_in_the_config_is_swept_and_the_other_commands_accept_it(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    cfg.write_text(cfg.read_text() + '[sweep]\nhand_limit = "4:6:2"\n')
    r = _cli("sweep", cfg, "--games", "10", "--out", tmp_path / "s", "--no-progress")
    assert r.exit_code == 0, r.output
    assert "  hand_limit 4: " in r.output and "  hand_limit 6: " in r.output
    r = _cli("tune", cfg, "--knob", "hand_limit", "--tolerance", "1", "--range", "3:5", "--batch", "10",
             "--max-games", "60", "--out", tmp_path / "t")
    assert r.exit_code == 0, r.output


def test_a_target_never_reached_gives_no_crossing_but_the_closest_value(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    r = _cli("sweep", cfg, "--knob", "hand_limit", "--values", "3:6:1", "--games", "40", "--target", "0.97",
             "--out", tmp_path / "s", "--no-progress")
    assert r.exit_code == 0, r.output
    assert "none: the target is not reached between hand_limit 3 and 6" in r.output
    assert "closest: hand_limit " in r.output
    assert "on a straight line" not in r.output and "  between hand_limit" not in r.output


def test_a_knob_that_changes_no_game_over_part_of_its_range_is_named(tmp_path: Path) -> None:
    """No check is worth $300,000 or more, so from there up the value of the
    upgrade check changes nothing: every game has the same outcome."""
    cfg = _config(tmp_path)
    out = tmp_path / "s"
    r = _cli("sweep", cfg, "--knob", "upgrade_check_value", "--values", "200000:600000:100000", "--games", "40",
             "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    assert ("upgrade_check_value 300,000 to 600,000: every game has the same outcome at each of these values"
            in r.output)
    t = pl.read_parquet(out / "tables" / "sweep.parquet")
    assert t["changed_prev"].to_list()[2:] == [0, 0, 0] and t["diff_prev"].to_list()[2:] == [0.0, 0.0, 0.0]


def test_tune_plays_a_prefix_of_the_games_at_lattice_values_the_same_as_a_sweep(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    out = tmp_path / "tune"
    r = _cli("tune", cfg, "--knob", "money_target", "--tolerance", "150000", "--batch", "40",
             "--range", "600000:1400000", "--out", out)
    assert r.exit_code == 0, r.output
    b = pl.read_parquet(out / "tables" / "tune_batches.parquet")
    assert all(v % 100_000 == 0 for v in b["money_target"].to_list())
    assert f"{b['games'].sum():,} games in {b.height} batches" in r.output
    assert "crossing of the forger's win rate with 50.0%" in r.output
    assert (out / "figures" / "tune.png").is_file()
    # the games of a value are indices 0..n-1 of the config's seed: a sweep of
    # the same seed plays exactly these games at the values they share
    g = pl.read_parquet(out / "tables" / "tune_games.parquet")
    assert g.equals(g.sort("money_target", "stratum", "game_index"))  # in game order, whatever order chunks finish
    v = int(g["money_target"].mode()[0])
    mine = g.filter(pl.col("money_target") == v).sort("game_index")
    assert mine["game_index"].to_list() == list(range(mine.height))
    sw = tmp_path / "sweep"
    assert _cli("sweep", cfg, "--knob", "money_target", "--values", f"{v},{v + 100_000}", "--games", mine.height,
                "--out", sw, "--no-progress").exit_code == 0
    res = pl.read_parquet(sw / "shards" / "*.parquet").filter(pl.col("variant") == f"money_target.{v}")
    won = (res.sort("game_index")["winner"] == "angela").fill_null(False).cast(pl.Float64).to_list()
    assert won == mine["y"].to_list()


def test_tune_says_no_crossing_when_the_target_is_out_of_reach(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    r = _cli("tune", cfg, "--knob", "hand_limit", "--tolerance", "1", "--target", "0.97", "--range", "3:7",
             "--batch", "40", "--out", tmp_path / "t")
    assert r.exit_code == 0, r.output
    assert "no crossing in the range" in r.output and "none: the target is not reached" in r.output
    assert "on a straight line" not in r.output


def test_levers_labels_every_change_and_sorts_by_size(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    out = tmp_path / "lv"
    r = _cli("levers", cfg, "--games", "6", "--precision", "0", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    t = pl.read_parquet(out / "tables" / "levers.parquet")
    assert {"money_target 1,000,000 -> 900,000", "money_target 1,000,000 -> 1,100,000",
            "upgrade satellite_sweep removed from the deck", "identity pilot -> plain identity",
            "initiative_first angela -> jessah"} <= set(t["change"].to_list())
    shifts = t["shift"].abs().to_list()
    assert shifts == sorted(shifts, reverse=True)
    assert all(lo <= s <= hi for s, lo, hi in zip(t["shift"], t["shift_lo"], t["shift_hi"], strict=True))
    assert "shifts of the forger's win rate" in r.output and (out / "figures" / "levers.png").is_file()
    assert "skipped: cards_per_round 4 -> 5: " in r.output


def test_levers_play_in_stages_until_every_interval_is_narrow_enough(tmp_path: Path) -> None:
    cfg = _config(tmp_path)
    out = tmp_path / "lv"
    r = _cli("levers", cfg, "--games", "10", "--precision", "20", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    t = pl.read_parquet(out / "tables" / "levers.parquet")
    assert (t["half_width"] <= 0.20 + 1e-12).all(), t.filter(pl.col("half_width") > 0.2)
    assert f"{t.height} of {t.height} within +-20" in r.output
    more = t.filter(pl.col("stages") > 1)
    assert more.height and (more["games"] > 10).all()
    assert (t.filter(pl.col("stages") == 1)["games"] == 10).all()
    assert (out / "stage-1" / "manifest.json").is_file()


def test_null_changes_when_upgrades_are_never_offered(tmp_path: Path) -> None:
    """No check is worth $300k, so Jessah is never offered an upgrade: removing
    one from the deck changes no game, and restricted play (never taking it)
    changes no game either."""
    from rnsim.config import load_config
    from rnsim.levers import BASE, Change, paired_shift, play_changes, restricted_changes, restricted_specs

    cfg = _config(tmp_path, rules="upgrade_check_value = 300_000")
    keys = ["identity_pair", "angela_strategy", "jessah_strategy"]
    p = play_changes(cfg, [BASE, Change("no.wiretap", "", {"upgrades_excluded": ["wiretap"]})], out=tmp_path / "a",
                     games=80)
    d = paired_shift(p.results, "base", "no.wiretap", keys)
    assert d["games"] == 80 and d["discordant"] == 0 and d["paired_lo"] == d["paired_hi"] == 0
    c = load_config(cfg)
    never = next(ch for ch in restricted_changes(c.game_obj, c.variants[0].rules) if ch.subject == "wiretap")
    specs = restricted_specs(c, never)
    assert specs["angela"][0]["label"] == "rule" and specs["jessah"][0]["params"]["never"] == "wiretap"
    q = play_changes(cfg, [BASE], out=tmp_path / "b", games=80, strategies=specs)
    both = pl.concat([p.results.filter(pl.col("variant") == "base").select("variant", *keys, "game_index", "y"),
                      q.results.select(pl.lit("never").alias("variant"), *keys, "game_index", "y")])
    d = paired_shift(both, "base", "never", keys)
    assert d["games"] == 80 and d["discordant"] == 0 and d["diff"] == 0


def test_report_leads_the_upgrades_with_their_causal_values(tmp_path: Path) -> None:
    """`rnsim levers --restricted --for-run RUN` puts each upgrade's and
    identity's causal value into RUN's report, above the association."""
    cfg = _config(tmp_path)
    run = tmp_path / "run"
    assert _cli("run", cfg, "--games", "40", "--out", run).exit_code == 0
    r = _cli("levers", cfg, "--restricted", "--for-run", run, "--games", "6", "--precision", "0", "--no-progress")
    assert r.exit_code == 0, r.output
    t = pl.read_parquet(run / "levers" / "tables" / "levers.parquet")
    assert set(t.filter(pl.col("kind") == "restricted")["subject"].to_list()) == set(
        t.filter(pl.col("kind") == "upgrade")["subject"].to_list())
    assert _cli("report", run).exit_code == 0
    html = (run / "report.html").read_text()
    assert html.index("Upgrades: what each is worth (causal)") < html.index("Upgrades: an association, not a cause")
    assert (run / "figures" / "base-rule-rule-upgrades-causal.png").is_file()


def test_levers_for_a_run_of_other_rules_is_refused_and_creates_nothing(tmp_path: Path) -> None:
    (tmp_path / "other").mkdir()
    other = _config(tmp_path / "other", rules="money_target = 900_000")
    run = tmp_path / "run"
    assert _cli("run", other, "--games", "2", "--out", run).exit_code == 0
    r = _cli("levers", _config(tmp_path), "--for-run", run, "--games", "2")
    assert r.exit_code == 2 and "plays no variant with" in r.output
    assert not (run / "levers").exists()


@pytest.mark.parametrize(
    ("game", "args", "message"),
    [
        ("rn", ["sweep", "--knob", "money_targt", "--values", "1,2"], "did you mean 'money_target'"),
        ("rn", ["sweep", "--knob", "initiative_first", "--values", "1,2"], "not a numeric knob"),
        ("rn", ["sweep", "--knob", "money_target", "--values", "9x"], "start:stop:step"),
        ("rn", ["sweep", "--knob", "money_target", "--values", "0,100"], "money_target must be 1..100000000"),
        ("rn", ["sweep", "--knob", "hand_limit", "--values", "5"], "at least two values"),
        ("rn", ["sweep", "--knob", "money_target", "--values", "1,2", "--target", "1"], "--target"),
        ("rn", ["sweep"], "[sweep] table"),
        ("rn", ["tune", "--knob", "money_target", "--tolerance", "0"], "--tolerance"),
        ("rn", ["tune", "--knob", "money_target", "--tolerance", "1000", "--range", "5:1"], "--range"),
        ("rn", ["tune", "--knob", "money_target", "--tolerance", "1", "--range", "1:100000000", "--step", "1000"],
         "at most 201"),
        ("fbi", ["sweep", "--knob", "money_target", "--values", "1,2"], "fbi has no knob 'money_target'"),
        ("fbi", ["tune", "--knob", "hand_limit", "--tolerance", "1"], "its numeric knobs: cards_per_player"),
        ("fbi", ["sweep", "--knob", "stacked", "--values", "0,1"], "'stacked' is not a numeric knob of fbi"),
        ("fbi", ["sweep", "--knob", "cards_per_player", "--values", "1:5:1"], "cards_per_player must be 1..4"),
        ("fbi", ["levers", "--restricted"], "fbi declares no restricted play"),
    ],
)
def test_bad_lever_arguments_get_a_clear_error_and_create_nothing(tmp_path: Path, game: str, args: list[str],
                                                                   message: str) -> None:
    cfg = _config(tmp_path) if game == "rn" else _config(tmp_path, FBI, strategies=FBI_SEATS)
    out = tmp_path / "out"
    r = _cli(args[0], cfg, *args[1:], "--out", out)
    assert r.exit_code == 2, r.output
    assert message in r.output
    if game == "fbi":  # FBI's own knobs are listed, not Red Notice's
        assert "hand_limit" not in r.output.replace("'hand_limit'", "")
    assert not out.exists()


# --------------------------------------------------------------------------- FBI


def test_fbi_levers_pool_the_player_counts_and_measure_the_start_player(tmp_path: Path) -> None:
    cfg = _config(tmp_path, FBI, strategies=FBI_SEATS)
    out = tmp_path / "lv"
    r = _cli("levers", cfg, "--games", "12", "--precision", "0", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    assert "shifts of the start player's win rate; each value pools 3 cells (players 3, 4, 5)" in r.output
    t = pl.read_parquet(out / "tables" / "levers.parquet")
    assert {"cards_per_player 2 -> 1", "cards_per_player 2 -> 3", "stacked false -> true",
            "bid_cards any -> purple", "bid_cards any -> none", "doubler true -> false"} <= set(t["change"].to_list())
    assert (t["games"] == 36).all()  # 12 games in each of the three counts, every one paired
    import json

    meta = json.loads((out / "levers.json").read_text())
    assert meta["players"] == "list" and meta["ann_strategy"] == ["rule"] and meta["emil_strategy"] == ["rule"]


def test_fbi_sweep_gives_a_crossing_per_player_count_and_pooled(tmp_path: Path) -> None:
    cfg = _config(tmp_path, FBI, strategies=FBI_SEATS)
    out = tmp_path / "sw"
    r = _cli("sweep", cfg, "--knob", "cards_per_player", "--values", "1:3:1", "--games", "20", "--out", out,
             "--no-progress")
    assert r.exit_code == 0, r.output
    assert ("crossing of the start player's win rate with 26.1% (the mean of a balanced game's 33.3% at 3, "
            "25.0% at 4, 20.0% at 5, the cells pooled):") in r.output
    for n in (3, 4, 5):
        assert f"players {n} alone:" in r.output
    t = pl.read_parquet(out / "tables" / "sweep.parquet")
    assert t["games"].to_list() == [60] * 3
    pp = pl.read_parquet(out / "tables" / "sweep_per_setup.parquet")
    assert sorted(set(pp["setup"].to_list())) == ["3", "4", "5"] and (pp["games"] == 20).all()


def test_fbi_tune_runs_on_its_knob(tmp_path: Path) -> None:
    cfg = _config(tmp_path, FBI, strategies=FBI_SEATS)
    out = tmp_path / "tu"
    r = _cli("tune", cfg, "--knob", "cards_per_player", "--tolerance", "1", "--range", "1:4", "--batch", "30",
             "--max-games", "600", "--out", out)
    assert r.exit_code == 0, r.output
    assert "3 cells each (players 3, 4, 5), pooled" in r.output
    assert "start player's win rate" in r.output
    g = pl.read_parquet(out / "tables" / "tune_games.parquet")
    assert sorted(set(g["setup"].to_list())) == ["3", "4", "5"] and g.height <= 600


def test_fbi_levers_with_one_player_count(tmp_path: Path) -> None:
    cfg = _config(tmp_path, FBI.replace("[3, 4, 5]", "[4]"), strategies=FBI_SEATS)
    r = _cli("levers", cfg, "--games", "8", "--precision", "0", "--out", tmp_path / "lv", "--no-progress")
    assert r.exit_code == 0, r.output
    assert "pools" not in r.output and "(6.2% -> " not in r.output.split("\n")[0]


def test_a_config_with_variants_varies_the_rules_of_one_of_them(tmp_path: Path) -> None:
    """The shipped FBI config has two variants: the levers commands vary the
    first one's rules (say so), or the one --variant names."""
    run = FBI.replace("[3, 4, 5]", "[4]")
    cfg = tmp_path / "v.toml"
    cfg.write_text(f'[run]\n{run}\n[rules]\n[[variants]]\nname = "base"\n[[variants]]\nname = "top-card"\n'
                   f"stacked = true\n[strategies]\n{FBI_SEATS}\n")
    r = _cli("levers", cfg, "--games", "4", "--precision", "0", "--out", tmp_path / "a", "--no-progress")
    assert r.exit_code == 0, r.output
    assert "has variants base, top-card: these commands vary the rules of 'base'" in r.output
    assert "stacked false -> true" in r.output
    r = _cli("levers", cfg, "--variant", "top-card", "--games", "4", "--precision", "0", "--out", tmp_path / "b",
             "--no-progress")
    assert r.exit_code == 0 and "stacked true -> false" in r.output, r.output
    r = _cli("sweep", cfg, "--variant", "top", "--knob", "cards_per_player", "--values", "1,2", "--out",
             tmp_path / "c")
    assert r.exit_code == 2 and "has no variant 'top'; its variants: base, top-card" in r.output
    assert not (tmp_path / "c").exists()


def test_a_shared_win_counts_as_a_share_for_the_watched_seat() -> None:
    from rnsim.levers.balance import Balance

    b = Balance("first_handcuffs", "start player", ("ann", "bert", "chris"), True)
    df = pl.DataFrame({"winner": ["ann", None, "bert", None], "end_reason": ["deck_empty", "shared_win",
                                                                          "deck_empty", "error"],
                       "first_handcuffs": ["ann", "bert", "ann", "ann"],
                       "share_ann": [1.0, 0.5, 0.0, None], "share_bert": [0.0, 0.5, 1.0, None],
                       "share_chris": [0.0, 0.0, 0.0, None]})
    assert df.select(b.outcome(df.columns))["y"].to_list() == [1.0, 0.5, 0.0, None]
    red = Balance("angela", "forger", ("angela", "jessah"), False)
    rn = pl.DataFrame({"winner": ["angela", "jessah", None], "end_reason": ["million", "arrest", "timeout"]})
    assert rn.select(red.outcome(rn.columns))["y"].to_list() == [1.0, 0.0, 0.0]


def test_the_levers_package_names_no_game() -> None:
    """Knobs, the balance and the levers come from the game boundary: no Red
    Notice word in the code of rnsim/levers (docstrings and comments may give
    examples)."""
    from tests.test_layers import MODULES, game_words

    mods = [m for m in MODULES if m == "rnsim.levers" or m.startswith("rnsim.levers.")]
    assert len(mods) >= 8
    found = {m: game_words(MODULES[m]) for m in mods}
    assert not any(found.values()), found


@pytest.mark.parametrize("name", ["red_notice", "fbi"])
def test_every_game_declares_knobs_the_levers_commands_can_move(name: str) -> None:
    """A numeric knob has a range its default and a notch fit in; a choice
    knob lists its default among its choices; and the game's rules accept a
    notch up or down from the default wherever the range allows."""
    from rnsim.games import get_game
    from rnsim.levers.knobs import refusal

    game = get_game(name)
    rules = game.rules({})
    numeric = [k for k in game.knobs() if k.numeric]
    assert numeric
    for k in game.knobs():
        if k.numeric:
            assert k.low is not None and k.high is not None and k.notch is not None
            assert k.low <= k.default <= k.high and 0 < k.notch <= k.high - k.low, k.name
        elif k.choices is not None:
            assert k.default in k.choices, k.name
    k = numeric[0]
    assert refusal(game, rules, {k.name: int(k.default + k.notch)}) is None


def test_the_levers_commands_take_a_config_by_name(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`rnsim sweep classic` from an empty folder plays the example config, as
    `rnsim run classic` does; an unknown name lists the built-in ones."""
    monkeypatch.chdir(tmp_path)
    r = _cli("sweep", "classic", "--knob", "money_target", "--values", "800000,1000000", "--games", 2,
             "--workers", 1)
    assert r.exit_code == 0, r.output
    assert (tmp_path / "runs" / "classic-sweep-money_target" / "tables" / "sweep.csv").is_file()
    for command in ("sweep", "tune", "levers"):
        r = _cli(command, "no-such-config", "--knob", "money_target") if command != "levers" else \
            _cli(command, "no-such-config")
        assert r.exit_code == 2 and "built-in configs: classic, fbi, large" in r.output, (command, r.output)


@pytest.mark.parametrize("command", [
    ("sweep", "--knob", "hand_limit", "--values", "4,5", "--games", "4"),
    ("tune", "--knob", "hand_limit", "--range", "3:5", "--tolerance", "1", "--max-games", "60"),
    ("levers", "--games", "2", "--precision", "0"),
])
def test_a_levers_command_reads_its_config_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                     command: tuple[str, ...]) -> None:
    """The config is parsed at the command's edge and handed down as a
    LeverConfig; every run config is built from it, not from the file again."""
    import rnsim.levers.source as source

    cfg = _config(tmp_path)
    read = []
    real = source._toml
    monkeypatch.setattr(source, "_toml", lambda p: read.append(p) or real(p))
    r = _cli(command[0], cfg, *command[1:], "--out", tmp_path / "out", *(["--no-progress"] * (command[0] != "tune")))
    assert r.exit_code == 0, r.output
    assert read == [cfg]
