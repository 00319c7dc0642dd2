"""The narrative (`rnsim replay`, `describe`) reads as English: "an orange
$100k check", never "a orange"."""

from __future__ import annotations

import random
import re

import pytest

from rnsim.games import get_game
from rnsim.games.red_notice.engine.narrative import describe, narrate, with_article
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import build_view
from rnsim.games.red_notice.rules.ruleset import RuleSet
from rnsim.play import run_game
from rnsim.strategy import load_strategy

# "a" before a word spoken with a vowel sound, or "an" before a consonant one
_WRONG = re.compile(r"\b(?:a (?!uni|use|one|eu)[aeiou]|an (?![aeiou]|hour|honest)[a-z$0-9])", re.I)


@pytest.mark.parametrize(("phrase", "expected"), [
    ("orange $100k", "an orange $100k"),
    ("red $200k", "a red $200k"),
    ("yellow $100k", "a yellow $100k"),
    ("Indigo $100k", "an Indigo $100k"),
    ("umber $100k", "an umber $100k"),
    ("uniform", "a uniform"),
    ("European route", "a European route"),
    ("one-way route", "a one-way route"),
    ("hour", "an hour"),
    ("$100k", "a $100k"),
])
def test_the_article_follows_the_first_word(phrase: str, expected: str) -> None:
    assert with_article(phrase) == expected


def test_replayed_games_use_an_before_a_vowel() -> None:
    """Every line of 20 random games, as the log reads and as each seat saw
    it: the classic set's orange checks (Africa) are among them."""
    game = get_game("red_notice")
    rules = RuleSet()
    lines: list[str] = []
    for i in range(20):
        out = run_game(game, rules, [load_strategy("random"), load_strategy("random")], 5, i, log=True)
        lines += [ln for ln in narrate(out.events) if ln]
    assert any("an orange" in ln for ln in lines)
    bad = [ln for ln in lines if _WRONG.search(ln)]
    assert not bad, bad[:5]


def test_a_seat_history_uses_an_before_a_vowel() -> None:

    rules = RuleSet()
    comps = rules.load_components()
    seen: list[str] = []
    for seed in range(12):
        s = GameState.new(rules, random.Random(seed), comps=comps, seed=seed)
        rng = random.Random(seed + 100)
        while not s.over:
            d = s.decision()
            s.apply(rng.choice(d.options))
        for seat in (0, 1):
            seen += [describe(e, comps) for e in build_view(s, seat).history]
    assert any("an orange" in ln for ln in seen)
    bad = [ln for ln in seen if _WRONG.search(ln)]
    assert not bad, bad[:5]
