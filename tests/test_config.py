"""Tournament config: strict validation with clear messages, extends, variants,
strategy labels, CLI overrides. A broken config never starts a game."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rnsim.cli import main
from rnsim.config import load_config
from rnsim.errors import ConfigError

REPO = Path(__file__).resolve().parent.parent


def write(tmp_path: Path, text: str, name: str = "cfg.toml") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


BROKEN = [
    ("rule = {}", ["unknown key 'rule'", "did you mean 'rules'"]),
    ("[run]\ngmaes = 10", ["unknown key 'run.gmaes'", "did you mean 'games'"]),
    ('[run]\ngames = "many"', ["run.games: must be a whole number 1..1000000000, got 'many'"]),
    ("[run]\ngames = 0", ["run.games: must be 1..1000000000, got 0"]),
    ('[run]\nworkers = "lots"', ['run.workers: must be "auto" or a whole number 1..1024']),
    ('[run]\nbackend = "proces"', ["run.backend: unknown backend 'proces'", "did you mean 'process'"]),
    ("[run]\nseed = -1", ["run.seed: must be 0..9223372036854775807, got -1"]),
    ('[run]\nidentities = "some"', ['run.identities: must be "all"']),
    ('[run]\nidentities = [["journalist", "pilott"]]', ["run.identities[0]: unknown identity 'pilott'", "did you mean 'pilot'"]),
    ('[run]\nidentities = [["journalist"]]', ["run.identities[0]: gives Angela 2 identities"]),
    ("[rules]\nhand_limt = 4", ["unknown key 'rules.hand_limt'", "did you mean 'hand_limit'"]),
    ("[rules]\nhand_limit = 0", ["cfg.toml: rules: hand_limit: must be 1..50, got 0"]),
    ("[rules]\nmoney_target = 1.5", ["cfg.toml: rules: money_target: must be a whole number"]),
    ("[[variants]]\nhand_limit = 4", ["variants[0].name: every variant needs a name"]),
    ('[[variants]]\nname = "a"\n[[variants]]\nname = "a"', ["variants[1].name: variant name 'a' is used twice"]),
    ('[[variants]]\nname = "short"\nhand_limitt = 4', ["unknown key 'variants[short].hand_limitt'", "did you mean 'hand_limit'"]),
    ('[[variants]]\nname = "short"\nsecurity_start = 9', ["cfg.toml: variants[short]: security_start: must be at most security_cap"]),
    ('[strategies]\nangela = "randm"', ["strategies.angela: unknown strategy 'randm'", "did you mean 'random'"]),
    ('[strategies]\nangela = { ref = "random", prams = {} }', ["unknown key 'strategies.angela.prams'", "did you mean 'params'"]),
    ('[strategies]\njessah = [{ ref = "random", params = { depth = 2 } }]', ["strategies.jessah[0]:", "unknown param 'depth'"]),
    ('[strategies]\njessah = ["random", "random"]', ["strategies.jessah[1]: label 'random' is used twice"]),
    ('[strategies]\nanglea = "random"', ["unknown key 'strategies.anglea'", "did you mean 'angela'"]),
    ('[rules]\nextends = "missing.toml"', ["rules.extends: file not found: 'missing.toml'"]),
    ("[run\ngames = 3", ["cfg.toml: not valid TOML"]),
    ('[run]\ngame = "red_notic"', ["run.game: unknown game 'red_notic'", "did you mean 'red_notice'"]),
    ('[run]\nplayers = 4', ["unknown key 'run.players'", "valid keys in run: game, games"]),
    ('[strategies]\nangela = []', ["strategies.angela: must be a strategy name or a table", "a non-empty list", "got []"]),
    ('[strategies]\njessah = ["random", { label = "x" }]', ["strategies.jessah[1]: missing 'ref' (a strategy name"]),
    ('[run]\nworkers = 0', ["run.workers: must be 1..1024, got 0"]),
]


@pytest.mark.parametrize("text,expected", BROKEN, ids=[b[1][0][:40] for b in BROKEN])
def test_broken_config_names_file_key_and_allowed(tmp_path: Path, text: str, expected: list[str]) -> None:
    cfg = write(tmp_path, text)
    out = tmp_path / "run"
    r = CliRunner().invoke(main, ["run", str(cfg), "--out", str(out), "--no-progress"])
    assert r.exit_code == 2, r.output
    for e in expected:
        assert e in r.output, f"{e!r} not in {r.output!r}"
    assert str(cfg) in r.output  # every message names the file
    assert not out.exists()  # nothing started


def test_cli_override_is_validated_and_named(tmp_path: Path) -> None:
    cfg = write(tmp_path, "[run]\ngames = 5")
    r = CliRunner().invoke(main, ["run", str(cfg), "--games", "-3", "--out", str(tmp_path / "o")])
    assert r.exit_code == 2
    assert "--games (overriding" in r.output and "run.games: must be 1..1000000000, got -3" in r.output
    assert not (tmp_path / "o").exists()


def test_extends_cycle_is_refused(tmp_path: Path) -> None:
    write(tmp_path, '[rules]\nextends = "b.toml"\nhand_limit = 4', "a.toml")
    write(tmp_path, '[rules]\nextends = "a.toml"', "b.toml")
    with pytest.raises(ConfigError, match="extends cycle"):
        load_config(tmp_path / "a.toml")


def test_extends_and_variants_resolve_in_order(tmp_path: Path) -> None:
    write(tmp_path, "[rules]\nhand_limit = 4\nmoney_target = 900_000", "base.toml")
    (tmp_path / "v").mkdir()
    write(tmp_path, '[rules]\nextends = "../base.toml"\nmoney_target = 800_000', "v/cheap.toml")
    cfg_path = write(
        tmp_path,
        '[rules]\nextends = "base.toml"\nmax_rounds = 40\n'
        '[[variants]]\nname = "base"\n'
        '[[variants]]\nname = "cheap"\nextends = "v/cheap.toml"\n'
        '[[variants]]\nname = "long"\nmax_rounds = 80\n',
    )
    cfg = load_config(cfg_path)
    by = {v.name: v.rules for v in cfg.variants}
    assert (by["base"].hand_limit, by["base"].money_target, by["base"].max_rounds) == (4, 900_000, 40)
    # a variant's extends replaces the knobs that file sets, then its own keys apply
    assert (by["cheap"].hand_limit, by["cheap"].money_target, by["cheap"].max_rounds) == (4, 800_000, 40)
    assert by["long"].max_rounds == 80 and by["long"].money_target == 900_000
    assert len({v.digest for v in cfg.variants}) == 3


def test_defaults_pairs_and_round_robin(tmp_path: Path) -> None:
    cfg = load_config(write(
        tmp_path,
        '[strategies]\nangela = ["random", { ref = "random", label = "r2" }]\n'
        'jessah = [{ ref = "rnsim_strategies.red_notice.random_play:RandomStrategy" }]\n',
    ))
    assert cfg.games == 1000 and cfg.seed == 0 and cfg.backend == "process" and cfg.out == Path("runs/cfg")
    ids = [s for _, s in cfg.variants[0].setups]
    assert len(ids) == 15 and ids[0] == ("lawyer", "journalist") and len(set(ids)) == 15
    assert cfg.variants[0].setups[0][0] == "lawyer+journalist"
    assert cfg.seats == ("angela", "jessah")
    assert [s.label for s in cfg.strategies["angela"]] == ["random", "r2"]
    assert cfg.strategies["jessah"][0].label == "rnsim_strategies.red_notice.random_play:RandomStrategy"
    cells = cfg.cells()
    assert len(cells) == 15 * 2 and cfg.total_games == 30_000
    assert {c.strategies for c in cells} == {(0, 0), (1, 0)}
    assert cfg.cell_labels(cells[1]) == {"variant": "base", "identity_pair": "lawyer+journalist",
                                         "angela_strategy": "r2", "jessah_strategy": cfg.strategies["jessah"][0].label}


def test_random_pairs_and_explicit_list_in_component_order(tmp_path: Path) -> None:
    cfg = load_config(write(tmp_path, '[run]\nidentities = "random"'))
    assert cfg.variants[0].setups == (("random", None),)
    cfg = load_config(write(tmp_path, '[run]\nidentities = [["pilot", "journalist"]]'))
    assert cfg.variants[0].setups == (("journalist+pilot", ("journalist", "pilot")),)


def test_label_defaults_to_ref_with_sorted_params() -> None:
    from rnsim.config import _strategy_label

    assert _strategy_label("x:Y", {"b": 2, "a": "s"}) == 'x:Y(a="s",b=2)'
    assert _strategy_label("random", {}) == "random"


def test_hash_ignores_execution_knobs_but_not_results(tmp_path: Path) -> None:
    p = write(tmp_path, "[run]\ngames = 10\nseed = 4")
    h = load_config(p).config_hash()
    assert load_config(p, workers=1, out=tmp_path / "x", backend="serial", chunk_size=3).config_hash() == h
    assert load_config(p, seed=5).config_hash() != h
    assert load_config(p, games=11).config_hash() != h


@pytest.mark.parametrize("path", sorted((REPO / "configs").rglob("*.toml")), ids=lambda p: p.name)
def test_shipped_configs_are_valid(path: Path) -> None:
    cfg = load_config(path)
    assert cfg.total_games > 0


def test_builtin_component_name_is_not_shadowed_by_a_folder_of_that_name(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # A run directory called "classic" in the current directory must not be
    # taken for the component set "classic".
    from rnsim.games.red_notice.rules.components import DATA_DIR, component_folder

    (tmp_path / "classic").mkdir()
    monkeypatch.chdir(tmp_path)
    assert component_folder("classic") == DATA_DIR / "classic"
    assert component_folder("./classic") == tmp_path.joinpath("classic").relative_to(tmp_path)


def test_component_folder_is_relative_to_the_config_file(tmp_path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import shutil

    from rnsim.config import load_config
    from rnsim.games.red_notice.rules.components import DATA_DIR

    project = tmp_path / "project"
    shutil.copytree(DATA_DIR / "classic", project / "my-set")
    (project / "run.toml").write_text('[run]\ngames = 1\n[rules]\ncomponents = "my-set"\nmoney_target = 900_000\n')
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    cfg = load_config(project / "run.toml")
    assert cfg.variants[0].rules.components == str((project / "my-set").resolve())
    assert cfg.variants[0].rules.money_target == 900_000


def test_a_seat_left_out_plays_the_strongest_strategy_a_tournament_can_afford(tmp_path: Path) -> None:
    # Red Notice names expert, not search (registered after it, and stronger,
    # but some 300x slower): a config with no [strategies] must not start an
    # hours-long run of search.
    cfg = load_config(write(tmp_path, '[run]\ngames = 10'))
    assert [s.ref for s in cfg.strategies["angela"]] == ["expert"]
    assert [s.ref for s in cfg.strategies["jessah"]] == ["expert"]
    cfg = load_config(write(tmp_path, '[strategies]\njessah = "search"'))
    assert ([s.ref for s in cfg.strategies["angela"]], [s.ref for s in cfg.strategies["jessah"]]) == (["expert"],
                                                                                                     ["search"])
    # a game that names no default gets its last (strongest) built-in
    fbi = load_config(write(tmp_path, '[run]\ngame = "fbi"\nplayers = [3]'))
    assert {s.ref for seat in fbi.seats for s in fbi.strategies[seat]} == {"expert"}


def test_seats_left_out_are_named_and_marked_without_changing_the_run(tmp_path: Path) -> None:
    """The default is said, not silent: defaults() names the seats that play it
    (in some cell), the manifest's spec carries "default": true, and the
    resolved config (the run's identity) is the one of a config naming them."""
    bare = load_config(write(tmp_path, '[run]\ngames = 10'))
    assert bare.defaults() == {"angela": "expert", "jessah": "expert"}
    assert bare.defaults_note() == "; angela, jessah: not in [strategies], play the default 'expert'"
    assert bare.strategies["angela"][0].to_dict() == {"ref": "expert", "params": {}, "label": "expert", "default": True}
    named = load_config(write(tmp_path, '[run]\ngames = 10\n[strategies]\nangela = "expert"\njessah = "expert"'))
    assert named.defaults() == {} and named.defaults_note() == ""
    assert named.config_hash() == bare.config_hash()
    # FBI at 3 players with Ann named: Bert and Chris play the default; Donna and Emil play no game
    fbi = load_config(write(tmp_path, '[run]\ngame = "fbi"\nplayers = 3\n[strategies]\nann = "rule"\nbert = "random"'))
    assert fbi.defaults() == {"chris": "expert"}
    assert fbi.defaults_note() == "; chris: not in [strategies], play the default 'expert'"
    # seats rotate: each list also holds the others' strategies, never marked as its default
    assert [s.to_dict().get("default", False) for s in fbi.strategies["chris"]] == [True, False, False]
    assert [s.to_dict().get("default", False) for s in fbi.strategies["ann"]] == [False, False, False]
