"""Types of the C module _flat_core.c (the FBI expert's flat play-outs and
scores; each the twin of the model.py function of the same name, None where
the Python source must answer)."""

def held_scores(order: tuple[int, ...], me: int, my_pairs: list[list[int]], held: list[list[int]],
                front: list[list[int]], base: list[int], bonus: tuple[int, ...], bonus_weight: float,
                needs_positive: bool) -> tuple[float, ...] | None: ...
def flat_turns(order: tuple[int, ...], me: int, my_pairs: list[list[int]], others: list[int],
               front: list[list[int]], base: list[int]) -> list[list[int]] | None: ...
def flat_top(me: int, states: list[list[int]], n: int, k: int, bonus: tuple[int, ...], bonus_weight: float,
             needs_positive: bool, scores: list[float], leads: list[list[int]]) -> float | None: ...
def flat_given_up(me: int, states: list[list[int]], n: int, k: int, bonus: tuple[int, ...], bonus_weight: float,
                  needs_positive: bool, lead: list[int], c: int, x: int, scores: list[float] | None,
                  leads: list[list[int]]) -> float | None: ...
