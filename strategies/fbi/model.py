"""What the FBI strategies know about the rules: which card an arrest takes,
how good a pair of field agents looks, and a quick play-out of the rest of a
turn's arrests. Tables here are per colour lists of card VALUES in placement
order (the top card is last, F15)."""

from __future__ import annotations

import functools
from typing import Any


def take_index(cards: list[int], stacked: bool) -> int:
    """Index of the card an arrest takes: the top (F15, the last placed) or, as
    ``table_values`` keeps each colour sorted best first, the most valuable (F8);
    -1 if none."""
    if not cards:
        return -1
    return len(cards) - 1 if stacked else 0


def take_value(cards: list[int], stacked: bool) -> int:
    """Points an arrest in this colour is worth now (a pass is 0)."""
    i = take_index(cards, stacked)
    return 0 if i < 0 else cards[i]


def second_value(cards: list[int], stacked: bool) -> int:
    """Points of a second arrest in the same colour (after the first)."""
    if len(cards) < 2:
        return 0
    rest = cards[:]
    del rest[take_index(rest, stacked)]
    return take_value(rest, stacked)


def table_values(view: Any) -> list[list[int]]:
    """Per colour, the values on the table: in placement order with the variant
    (F15), else sorted best first (only the best card is ever taken, F8)."""
    val = view.comps.card_value
    if view.rules.stacked:
        return [[val[c] for c in t] for t in view.table]
    return [sorted((val[c] for c in t), reverse=True) for t in view.table]


def pair_colours(pair: tuple[str, ...], colours: tuple[str, ...], doubler: str) -> list[int]:
    """The colours a pair of agents arrests in (the 2x doubles its partner, F6); a new list."""
    return list(_pair_colours(pair, colours, doubler))


@functools.lru_cache(maxsize=4096)
def _pair_colours(pair: tuple[str, ...], colours: tuple[str, ...], doubler: str) -> tuple[int, ...]:
    cols = [colours.index(a) for a in pair if a != doubler]
    if len(cols) == 1 and doubler in pair:
        cols = cols * 2
    return tuple(cols)


def rule_pair(options: list[tuple[str, ...]], table: list[list[int]], stacked: bool,
              colours: tuple[str, ...], doubler: str) -> tuple[str, ...]:
    """The pair whose two arrests look best, ignoring everybody else."""
    best, best_score = options[0], -10**9
    for opt in options:
        cols = pair_colours(opt, colours, doubler)
        if len(cols) == 2 and cols[0] == cols[1]:
            score = take_value(table[cols[0]], stacked) + second_value(table[cols[0]], stacked)
        else:
            score = sum(take_value(table[c], stacked) for c in cols)
        if score > best_score:
            best, best_score = opt, score
    return best


def greedy_colour(agents: list[int], table: list[list[int]], stacked: bool) -> int:
    """Of a player's remaining agents, the colour whose arrest is worth most now."""
    best, best_v = agents[0], -10**9
    for c in agents:
        v = take_value(table[c], stacked)
        if v > best_v:
            best, best_v = c, v
    return best


def play_out(seq: list[int], agents: list[list[int]], table: list[list[int]], totals: list[list[int]],
             points: list[int], stacked: bool, first: int = -1) -> None:
    """Play the arrest steps ``seq`` (seats) greedily, changing ``agents``,
    ``table``, ``totals`` and ``points`` in place. ``first`` >= 0 fixes the
    colour played on the first step."""
    for i, seat in enumerate(seq):
        mine = agents[seat]
        if not mine:
            continue
        c = first if (i == 0 and first >= 0) else greedy_colour(mine, table, stacked)
        mine.remove(c)
        k = take_index(table[c], stacked)
        if k >= 0:
            v = table[c].pop(k)
            totals[c][seat] += v
            points[seat] += v


def evaluate(me: int, totals: list[list[int]], points: list[int], bonus: tuple[int, ...],
             bonus_weight: float, needs_positive: bool = True, rival_weight: float = 1.0) -> float:
    """My points minus the best rival's, bonus cards counted at ``bonus_weight``
    (1 when the totals are final) for a strict leader in a colour (F11).
    ``totals[colour][seat]`` is a seat's signed sum in a colour (F10)."""
    pts: list[float] = list(points)
    for c, b in enumerate(bonus):
        col = totals[c]
        best = max(col)
        if (best > 0 or not needs_positive) and col.count(best) == 1:
            pts[col.index(best)] += b * bonus_weight
    if rival_weight == 0.0:
        return pts[me]
    rival = max(pts[:me] + pts[me + 1:])
    return pts[me] - rival_weight * rival
