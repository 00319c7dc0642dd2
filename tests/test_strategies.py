"""The built-in strategies: loading, legality, determinism, and that they see
only their view (R24, R25)."""

from __future__ import annotations

import random
import re
from importlib.metadata import EntryPoint
from typing import ClassVar

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rnsim_strategies.red_notice.base import RedNoticeStrategy
from rnsim_strategies.red_notice.expert import Expert
from rnsim_strategies.red_notice.rules_based import RuleBased

import rnsim.strategy as strategy_mod
from rnsim.errors import ConfigError
from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.game import GAME
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.play import run_game
from rnsim.strategy import Strategy, available_strategies, load_strategy

RULES = RuleSet()
COMPS = RULES.load_components()
LEVELS = ("random", "rule", "expert")


# ------------------------------------------------------------------ loading


def test_builtin_short_names_load() -> None:
    assert isinstance(load_strategy("rule"), RuleBased)
    assert isinstance(load_strategy("expert"), Expert)
    assert isinstance(load_strategy("rnsim_strategies.red_notice.expert:Expert", {"risk": 0.2}), Expert)
    assert {"random", "rule", "expert"} <= set(available_strategies())


def test_unknown_name_lists_what_is_available() -> None:
    with pytest.raises(ConfigError) as e:
        load_strategy("exprt")
    msg = str(e.value)
    assert "did you mean 'expert'" in msg and "random" in msg and "rule" in msg


def test_bad_module_and_class_are_clear() -> None:
    with pytest.raises(ConfigError, match="cannot import module"):
        load_strategy("strategies.nope:Expert")
    with pytest.raises(ConfigError, match="it has: .*Expert"):
        load_strategy("rnsim_strategies.red_notice.expert:Hunter")


def test_bad_params_name_what_is_accepted() -> None:
    with pytest.raises(ConfigError, match="unknown param 'riks'; accepted params: risk, greed"):
        load_strategy("expert", {"riks": 0.5})
    with pytest.raises(ConfigError, match=r"'risk' must be in 0.0..1.0, got 1.5"):
        load_strategy("expert", {"risk": 1.5})
    with pytest.raises(ConfigError, match="'greed' must be a number"):
        load_strategy("expert", {"greed": "high"})
    with pytest.raises(ConfigError, match="accepted params: none"):
        load_strategy("rule", {"risk": 0.5})
    # an int where a float is expected is accepted (TOML writes `risk = 1`)
    assert load_strategy("expert", {"risk": 1}).params["risk"] == 1


class _Plugin(Strategy):
    """A plugin as a designer would write it: one override."""

    def on_check(self, view, decision):  # type: ignore[no-untyped-def]
        return "pass"


def test_entry_point_plugin_is_usable_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    ep = EntryPoint(name="my_hunter", value=f"{__name__}:_Plugin", group="rnsim.strategies")
    bad = EntryPoint(name="not_a_strategy", value="random:Random", group="rnsim.strategies")

    def fake_entry_points(group: str) -> list[EntryPoint]:
        assert group == "rnsim.strategies"
        return [ep, bad]

    monkeypatch.setattr(strategy_mod, "entry_points", fake_entry_points)
    assert "my_hunter" in available_strategies()
    s = load_strategy("my_hunter")
    assert type(s).__name__ == "_Plugin"
    r = run_game(GAME, RULES, [s, load_strategy("random")], 3, 0)
    assert r.end_reason in ("million", "arrest", "timeout")
    with pytest.raises(ConfigError, match="not a Strategy subclass"):
        load_strategy("not_a_strategy")
    with pytest.raises(ConfigError, match="available: random, rule, expert, search, my_hunter"):
        load_strategy("nobody")


# --------------------------------------------------------- legal and seeded


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    forger=st.sampled_from((*LEVELS, "base")),
    agent=st.sampled_from((*LEVELS, "base")),
    seed=st.integers(0, 2**31),
    risk=st.floats(0, 1),
    greed=st.floats(0, 1),
)
def test_builtin_strategies_play_only_legal_options(forger: str, agent: str, seed: int, risk: float,
                                                    greed: float) -> None:
    """run_game raises StrategyError on any illegal answer; 20 games per example."""

    def make(name: str) -> Strategy:
        if name == "base":
            return RedNoticeStrategy()  # the base class's defaults must be legal too
        return load_strategy(name, {"risk": risk, "greed": greed} if name == "expert" else None)

    a, j = make(forger), make(agent)
    for i in range(20):
        r = run_game(GAME, RULES, [a, j], seed, i)
        assert r.end_reason in ("million", "arrest", "timeout")


def test_every_pairing_plays_a_thousand_legal_games() -> None:
    for f in LEVELS:
        for a in LEVELS:
            fs, js = load_strategy(f), load_strategy(a)
            for i in range(120):
                run_game(GAME, RULES, [fs, js], 11, i)


@pytest.mark.parametrize("name", LEVELS)
def test_deterministic_given_seed(name: str) -> None:
    def play(i: int) -> tuple:
        r = run_game(GAME, RULES, [load_strategy(name), load_strategy("expert")], 5, i, log=True)
        r2 = run_game(GAME, RULES, [load_strategy("expert"), load_strategy(name)], 5, i, log=True)
        return (r.events, r2.events)

    for i in range(5):
        assert play(i) == play(i)
    # and a different seed plays differently
    assert play(0) != play(1)


# ------------------------------------------------------------------ no leak


def _perturb_hidden(state: GameState, seat: int, rng: random.Random) -> GameState | None:
    """A clone differing only in hidden facts of the seat other than ``seat``."""
    s = state.clone()
    other = 1 - seat
    changed = False
    # the other seat's hand: swap checks with the deck
    hand, deck = s.hands[other], s.deck
    if other == ANGELA and s.revealed_hand is not None:
        pass  # Wiretap made her hand public at some point; leave it
    elif hand and deck:
        for k in range(min(len(hand), len(deck))):
            j = rng.randrange(len(deck))
            hand[k], deck[j] = deck[j], hand[k]
            changed = True
    # Angela's city: anywhere else inside the public belief
    if other == ANGELA and s.angela_city >= 0:
        belief = s.belief & ~(1 << s.angela_city)
        cities = [c for c in range(s.comps.n_cities) if belief >> c & 1]
        if cities:
            s.angela_city = rng.choice(cities)
            changed = True
    # the other seat's undrawn tokens vs her tokens still in hand (both hidden)
    pool, held = s.token_pool[other], s.token_hand[other]
    if pool and held:
        i, j = rng.randrange(len(pool)), rng.randrange(len(held))
        if pool[i] != held[j]:
            pool[i], held[j] = held[j], pool[i]
            held.sort()
            changed = True
    return s if changed else None


@pytest.mark.parametrize("name", [*LEVELS, "expert_bold"])
def test_strategies_decide_on_their_view_only(name: str) -> None:
    checked = 0
    rng = random.Random(99)
    for game in range(30):
        state = GameState.new(RULES, random.Random(1000 + game), comps=COMPS, seed=game)
        # states reached by rule-based and by expert play
        driver = "rule" if game % 2 else "expert"
        players = (load_strategy(driver), load_strategy(driver))
        for seat in (ANGELA, JESSAH):
            players[seat].new_game(seat, random.Random(seat))
        steps = 0
        while not state.over and steps < 400:
            d = state.decision()
            if steps % 3 == 0:
                twin = _perturb_hidden(state, d.seat, rng)
                if twin is not None:
                    assert build_view(twin, d.seat) == build_view(state, d.seat)
                    assert list(twin.decision().options) == list(d.options)
                    answers = []
                    for s in (state, twin):
                        strat = load_strategy("expert", {"risk": 0.9, "greed": 0.1}) if name == "expert_bold" \
                            else load_strategy(name)
                        strat.new_game(d.seat, random.Random(4242 + steps))
                        view = build_view(s, d.seat) if strat.uses_view else None
                        answers.append(strat.choose(view, s.decision()))  # type: ignore[arg-type]
                    assert answers[0] == answers[1], (d, answers)
                    checked += 1
            v = build_view(state, d.seat)
            state.apply(players[d.seat].choose(v, d))
            steps += 1
    assert checked > 300


def test_docs_worked_example_runs(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The plugin in docs/strategies.md, as written, loads and plays."""
    import re
    import sys
    from pathlib import Path

    doc = (Path(__file__).resolve().parent.parent / "docs" / "strategies.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", doc, re.S)
    plugin = next(b for b in blocks if b.startswith("# hunter_lib/cautious.py"))
    pkg = tmp_path / "hunter_lib"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "cautious.py").write_text(plugin)
    monkeypatch.syspath_prepend(str(tmp_path))
    usage = next(b for b in blocks if "play_game(" in b)
    exec(compile(usage, "docs/strategies.md", "exec"), {})
    s = load_strategy("hunter_lib.cautious:CautiousForger", {"avoid": "wiretap"})
    assert s.params == {"avoid": "wiretap"}
    for i in range(30):
        run_game(GAME, RULES, [s, load_strategy("expert")], 2, i)
        run_game(GAME, RULES, [load_strategy("hunter_lib.cautious:Stayer"), load_strategy("rule")], 2, i)
    sys.modules.pop("hunter_lib.cautious", None)
    sys.modules.pop("hunter_lib", None)


_PARITY = """
from rnsim.games.red_notice.game import GAME
from rnsim.play import run_game
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.strategy import load_strategy
import rnsim_strategies.red_notice as strategies
out = [strategies.NATIVE]
for i in range(25):
    r = run_game(GAME, RuleSet(), [load_strategy("expert"), load_strategy("expert", {"risk": 0.8})], 13, i, log=True)
    out.append((r.winner, r.rounds, r.decisions, len(r.events or [])))
print(repr(out))
"""


def test_compiled_expert_plays_like_its_source() -> None:
    """With a fresh mypyc build (make install) the compiled expert is used;
    it must play exactly like the Python source (RNSIM_PURE=1)."""
    import os
    import subprocess
    import sys

    import rnsim_strategies.red_notice as strategies

    if not strategies.NATIVE:
        pytest.skip("no fresh compiled build of the strategies (scripts/build_native.py)")
    runs = []
    for pure in ("0", "1"):
        env = {**os.environ, "RNSIM_PURE": pure}
        got = subprocess.run([sys.executable, "-c", _PARITY], env=env, capture_output=True, text=True, check=True)
        runs.append(got.stdout.strip())
    assert runs[0].startswith("[True") and runs[1].startswith("[False")
    assert runs[0].split(",", 1)[1] == runs[1].split(",", 1)[1]


# --------------------------------------------------------- the game a strategy plays


class _AnyGame(Strategy):
    """A plugin for no game in particular: answers through ``choose`` from the
    legal options alone, and keeps the kinds it was asked."""

    asked: ClassVar[set[str]] = set()

    def choose(self, view, decision):  # type: ignore[no-untyped-def]
        self.asked.add(decision.kind)
        return decision.options[self.rng.randrange(len(decision.options))]


class _Misspelt(RedNoticeStrategy):
    def on_jesah_move(self, view, decision):  # type: ignore[no-untyped-def]
        return decision.options[0]


class _BidderForRedNotice(Strategy):
    """Undeclared, and answers an FBI decision: not a Red Notice strategy."""

    def on_bid(self, view, decision):  # type: ignore[no-untyped-def]
        return "none"


@pytest.mark.parametrize("game", ["red_notice", "fbi"])
def test_every_builtin_strategy_declares_its_game(game: str) -> None:
    from rnsim.games import get_game
    from rnsim.strategy import builtin_strategies

    g = get_game(game)
    for name in builtin_strategies(g):
        strat = load_strategy(name, None, g)
        assert type(strat).game == game, name
    if game == "red_notice":  # and the probes of `rnsim exploit`
        from rnsim_strategies.red_notice.probes import PROBES

        for p in PROBES:
            assert type(load_strategy(p.ref, None, g)).game == game, p.name


@pytest.mark.parametrize(("ref", "game", "declared"), [
    ("rnsim_strategies.red_notice.expert:Expert", "fbi", "Red Notice: A Million or Prison ('red_notice')"),
    ("rnsim_strategies.red_notice.random_play:RandomStrategy", "fbi", "Red Notice: A Million or Prison ('red_notice')"),
    ("rnsim_strategies.fbi.expert:ExpertStrategy", "red_notice", "FBI ('fbi')"),
    ("rnsim_strategies.fbi.random_play:RandomStrategy", "red_notice", "FBI ('fbi')"),
])
def test_a_strategy_of_another_game_is_refused_naming_both_games(ref: str, game: str, declared: str) -> None:
    from rnsim.games import get_game

    title = get_game(game).title
    with pytest.raises(ConfigError, match=re.escape(f"strategy {ref!r} plays {declared}, not {title} ({game!r})")):
        load_strategy(ref, None, game)


def test_an_instance_of_another_game_is_refused_too() -> None:
    from rnsim_strategies.fbi.rule import RuleStrategy

    from rnsim import play_game

    with pytest.raises(ConfigError, match="plays FBI"):
        play_game(angela=RuleStrategy(), jessah="random")
    with pytest.raises(ConfigError, match="plays Red Notice"):
        play_game(game="fbi", ann=RuleBased(), players=3)


def test_an_undeclared_plugin_is_checked_by_the_decisions_it_answers() -> None:
    """Accepted in any game whose decisions it answers: a strategy of one game
    (its handlers name that game's decisions) is refused in another."""
    with pytest.raises(ConfigError, match=r"on_bid answers no decision of Red Notice.*is it written for another "
                                          r"game\?; Red Notice's decisions: start, setup_radar"):
        load_strategy(f"{__name__}:_BidderForRedNotice")
    assert isinstance(load_strategy(f"{__name__}:_BidderForRedNotice", None, "fbi"), _BidderForRedNotice)
    with pytest.raises(ConfigError, match=r"on_check answers no decision of FBI \('fbi'\).*FBI's decisions: "
                                          r"bid, agents, arrest"):
        load_strategy(f"{__name__}:_Plugin", None, "fbi")


def test_a_misspelt_handler_is_refused_rather_than_never_called() -> None:
    with pytest.raises(ConfigError, match=r"on_jesah_move answers no decision .* \(did you mean on_jessah_move\?\)"):
        load_strategy(f"{__name__}:_Misspelt")


@pytest.mark.parametrize(("game", "setup"), [("red_notice", None), ("fbi", 3), ("fbi", 5)])
def test_a_plugin_for_any_game_plays_each_and_every_kind_asked_is_declared(game: str, setup: int | None) -> None:
    """Game.decision_kinds lists every kind the engine asks (the handler check
    reads it), and a strategy answering through ``choose`` plays any game."""
    from rnsim import play_game
    from rnsim.games import get_game

    g = get_game(game)
    _AnyGame.asked = set()
    for seed in range(8):
        seats = {s: _AnyGame() for s in g.seats(g.rules(), setup)}
        extra = {} if setup is None else {g.setup_key: setup}
        play_game(game=game, seed=seed, **extra, **seats)
    assert _AnyGame.asked and _AnyGame.asked <= set(g.decision_kinds)
