"""Types of the C module _flat_core.c (the FBI expert's flat play-outs and
scores; each the twin of the model.py function of the same name, None where
the Python source must answer)."""

from collections.abc import Callable

def held_scores(order: tuple[int, ...], me: int, my_pairs: list[list[int]], held: list[list[int]],
                front: list[list[int]], base: list[int], bonus: tuple[int, ...], bonus_weight: float,
                needs_positive: bool) -> tuple[float, ...] | None: ...
def best_bid(rest: list[int], me: int, places: list[int], values: list[int], colours: list[int], keep: int,
             my_pairs: list[list[int]], others: list[int], front: list[list[int]], base: list[int],
             bonus: tuple[int, ...], bonus_weight: float, needs_positive: bool) -> int | None: ...
def flat_turns(order: tuple[int, ...], me: int, my_pairs: list[list[int]], others: list[int],
               front: list[list[int]], base: list[int]) -> list[list[int]] | None: ...
def flat_top(me: int, states: list[list[int]], n: int, k: int, bonus: tuple[int, ...], bonus_weight: float,
             needs_positive: bool, scores: list[float], leads: list[list[int]]) -> float | None: ...
def flat_given_up(me: int, states: list[list[int]], n: int, k: int, bonus: tuple[int, ...], bonus_weight: float,
                  needs_positive: bool, lead: list[int], c: int, x: int, scores: list[float] | None,
                  leads: list[list[int]]) -> float | None: ...
def contest(order: tuple[int, ...], me: int, mine: list[list[int]], cums: list[list[float]],
            memo: dict[int, bytes], samples: int, random: Callable[[], float], front: list[list[int]],
            totals: list[list[int]], points: list[int], bonus: tuple[int, ...], bonus_weight: float,
            needs_positive: bool) -> list[float] | None: ...
def fictitious_play(order: tuple[int, ...], mine: list[list[int]], start: list[float],
                    memo: dict[int, bytes], samples: int, random: Callable[[], float],
                    front: list[list[int]], totals: list[list[int]], points: list[int], bonus: tuple[int, ...],
                    bonus_weight: float, needs_positive: bool, rounds: int, temperature: float,
                    pick_temperature: float, arrest_mix: float) -> tuple[list[list[float]], list[list[float]]] | None: ...
def held_tables(me: int, mine: list[int], choices: list[list[list[int]]], cums: list[list[float]], samples: int,
                random: Callable[[], float]) -> list[list[list[int]]] | None: ...
def first_sums(order: tuple[int, ...], me: int, step: int, firsts: list[int], my_agents: list[int],
               tables: list[list[list[int]]], front: list[list[int]], totals: list[list[int]], points: list[int],
               bonus: tuple[int, ...], bonus_weight: float, needs_positive: bool) -> list[float] | None: ...
def first_scores(order: tuple[int, ...], me: int, step: int, firsts: list[int], my_agents: list[int],
                 agents: list[list[int]], front: list[list[int]], totals: list[list[int]], points: list[int],
                 bonus: tuple[int, ...], bonus_weight: float, needs_positive: bool) -> list[float] | None: ...

def colour_totals(slammers: tuple[tuple[int, ...], ...], card_colour: tuple[int, ...], card_value: tuple[int, ...],
                  k: int) -> tuple[list[list[int]], list[int]] | None: ...

#: 1 where a C long holds 64 bits; 0 (a 32-bit long) leaves the core unused
WIDE: int
