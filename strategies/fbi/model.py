"""What the FBI strategies know about the rules: which card an arrest takes,
how good a pair of field agents looks, and a quick play-out of the rest of a
turn's arrests. Tables here are per colour lists of card VALUES in placement
order (the top card is last, F15)."""

from __future__ import annotations

import functools
import math
from array import array
from collections.abc import Callable
from typing import Any, Final

from rnsim.games.fbi.view import FbiView

# Written as loops over typed lists, not max()/count()/index(): compiled
# (scripts/build_native.py) a loop is native code, a builtin call generic.
_NEG_INF: Final = -math.inf

#: The flat play-outs and scores in C (strategies/fbi/_flat_core.c), set by
#: the package when the compiled build is in use; None: the Python source.
#: ``colour_totals``, ``fictitious_play``, ``contest``, ``held_tables``, ``held_scores``,
#: ``first_sums``, ``first_scores``, ``best_bid``, ``flat_turns``, ``flat_top`` and
#: ``flat_given_up`` ask it
#: first; where it answers None (an input outside what the C handles) their
#: Python source below answers. Each is the reference for its C twin
#: (tests/games/fbi/test_flat_core.py).
core: Any = None


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


def table_values(view: FbiView) -> list[list[int]]:
    """Per colour, the values on the table: in placement order with the variant
    (F15), else sorted best first (only the best card is ever taken, F8)."""
    return values_of(view.table, view.comps.card_value, view.rules.stacked)


def values_of(table: tuple[tuple[int, ...], ...], value: tuple[int, ...], stacked: bool) -> list[list[int]]:
    """``table_values`` of a table of card ids, given the cards' values and
    the variant (F15)."""
    out: list[list[int]] = []
    for t in table:
        vs: list[int] = []
        for card in t:
            v = value[card]
            i = len(vs)
            vs.append(v)
            if not stacked:  # insertion: best first (equal values are equal ints)
                while i > 0 and vs[i - 1] < v:
                    vs[i] = vs[i - 1]
                    i -= 1
                vs[i] = v
        out.append(vs)
    return out


def colour_totals(slammers: tuple[tuple[int, ...], ...], card_colour: tuple[int, ...], card_value: tuple[int, ...],
                  k: int) -> tuple[list[list[int]], list[int]]:
    """Each colour's total per seat (colour-major: totals[colour][seat], F10)
    and each seat's points (every card's value, purple included, F12) from
    the slammers' card ids; new lists. The reference for _flat_core.c's
    ``colour_totals``."""
    if core is not None:
        got: tuple[list[list[int]], list[int]] | None = core.colour_totals(slammers, card_colour, card_value, k)
        if got is not None:
            return got
    n = len(slammers)
    totals = [[0] * n for _ in range(k)]
    points = [0] * n
    for s in range(n):
        p = 0
        for c in slammers[s]:
            v = card_value[c]
            p += v
            cc = card_colour[c]
            if cc >= 0:
                row = totals[cc]
                row[s] = row[s] + v
        points[s] = p
    return totals, points


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
    """The pair whose two arrests look best, ignoring everybody else (the
    first of equals). ``take_value`` and ``second_value`` written out."""
    best, best_score = options[0], -10**9
    top = -1 if stacked else 0
    below = -2 if stacked else 1
    for opt in options:
        cols = _pair_colours(opt, colours, doubler)
        if len(cols) == 2:
            a, b = cols
            ta = table[a]
            if a == b:
                score = (ta[top] + ta[below]) if len(ta) > 1 else (ta[0] if ta else 0)
            else:
                tb = table[b]
                score = (ta[top] if ta else 0) + (tb[top] if tb else 0)
        else:
            score = 0
            for c in cols:
                t = table[c]
                if t:
                    score += t[top]
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
    colour played on the first step.

    The look-ahead's inner loop: ``greedy_colour`` and ``take_index`` are
    written out here (a player holds at most two agents; on a tie the first
    listed is played), which plays exactly as calling them."""
    start = 0
    if first >= 0 and seq:
        start = 1
        seat = seq[0]
        mine = agents[seat]
        if mine:
            mine.remove(first)
            col = table[first]
            if col:
                v = col.pop() if stacked else col.pop(0)
                totals[first][seat] += v
                points[seat] += v
    for i in range(start, len(seq)):
        seat = seq[i]
        mine = agents[seat]
        if not mine:
            continue
        if len(mine) == 1:
            c = mine.pop()
        elif len(mine) == 2:
            a, b = mine
            ta, tb = table[a], table[b]
            if stacked:
                va = ta[-1] if ta else 0
                vb = tb[-1] if tb else 0
            else:
                va = ta[0] if ta else 0
                vb = tb[0] if tb else 0
            if vb > va:
                c = b
                del mine[1]
            else:
                c = a
                del mine[0]
        else:
            c = greedy_colour(mine, table, stacked)
            mine.remove(c)
        col = table[c]
        if col:
            v = col.pop() if stacked else col.pop(0)
            totals[c][seat] += v
            points[seat] += v


def front_first(table: list[list[int]], stacked: bool) -> list[list[int]]:
    """Each colour's values in the order arrests take them (F8: best first;
    F15: the top, i.e. the last placed, first), for ``first_round``."""
    return [t[::-1] for t in table] if stacked else table


def first_round(order: tuple[int, ...], start: int, stop: int, held: list[list[int]],
                front: list[list[int]], taken: list[int], totals: list[list[int]],
                points: list[int], left: list[int]) -> None:
    """Steps ``start``..``stop`` - 1 of a turn's first round of arrests
    (``order``), each seat holding the agents ``held[seat]`` (at most two)
    and playing its better one; ``left[seat]`` gets the colour of the agent
    kept (-1: none).

    The table is ``front`` (``front_first``, not changed) less the first
    ``taken[colour]`` cards of each colour. With ``second_round`` this plays
    exactly as ``play_out`` over the turn; ``taken``, ``totals`` and
    ``points`` change in place."""
    for i in range(start, stop):
        seat = order[i]
        ag = held[seat]
        if len(ag) == 2:
            a = ag[0]
            b = ag[1]
            ta, tb = front[a], front[b]
            ka, kb = taken[a], taken[b]
            va = ta[ka] if ka < len(ta) else 0
            vb = tb[kb] if kb < len(tb) else 0
            if vb > va:
                c = b
                left[seat] = a
            else:
                c = a
                left[seat] = b
        elif ag:
            c = ag[0]
        else:
            continue
        arrest(seat, c, front, taken, totals, points)


def arrest(seat: int, c: int, front: list[list[int]], taken: list[int], totals: list[list[int]],
           points: list[int]) -> None:
    """``seat`` arrests the next card of colour ``c`` still on the table, if any."""
    t = front[c]
    k = taken[c]
    if k < len(t):
        v = t[k]
        taken[c] = k + 1
        row = totals[c]
        row[seat] = row[seat] + v
        points[seat] = points[seat] + v


def second_round(order: tuple[int, ...], left: list[int], front: list[list[int]], taken: list[int],
                 totals: list[list[int]], points: list[int]) -> None:
    """The second round (``order`` reversed): each seat plays the agent it kept."""
    for i in range(len(order) - 1, -1, -1):
        seat = order[i]
        c = left[seat]
        if c < 0:
            continue
        arrest(seat, c, front, taken, totals, points)


def evaluate(me: int, totals: list[list[int]], points: list[int], bonus: tuple[int, ...],
             bonus_weight: float, needs_positive: bool = True, rival_weight: float = 1.0) -> float:
    """My points minus the best rival's, bonus cards counted at ``bonus_weight``
    (1 when the totals are final) for a strict leader in a colour (F11).
    ``totals[colour][seat]`` is a seat's signed sum in a colour (F10).

    Each seat's bonus points are added in colour order, so the float sums are
    the same whatever shortcut a caller takes around this function."""
    pts = [float(p) for p in points]  # exact: int + float adds the int as this float
    for c in range(len(totals)):
        s = leader(totals[c], needs_positive)
        if s >= 0:
            pts[s] += bonus[c] * bonus_weight
    mine = pts[me]
    if rival_weight == 0.0:
        return mine
    return mine - rival_weight * best_rival(pts, me)


def best_rival(pts: list[float], me: int) -> float:
    """The highest of the others' points (``max`` with mine left out)."""
    best = _NEG_INF
    for s in range(len(pts)):
        if s != me:
            p = pts[s]
            if p > best:
                best = p
    return best


def scored_leaders(me: int, totals: list[list[int]], points: list[int], bonus: tuple[int, ...],
                   bonus_weight: float, needs_positive: bool = True,
                   rival_weight: float = 1.0) -> tuple[float, list[int], list[float]]:
    """``evaluate`` (the same operations in the same order), per colour the
    seat given the bonus card (-1: nobody), and each seat's points with its
    bonus cards."""
    pts = [float(p) for p in points]
    leaders = [-1] * len(totals)
    for c in range(len(totals)):
        s = leader(totals[c], needs_positive)
        if s >= 0:
            pts[s] += bonus[c] * bonus_weight
            leaders[c] = s
    mine = pts[me]
    if rival_weight == 0.0:
        return mine, leaders, pts
    return mine - rival_weight * best_rival(pts, me), leaders, pts


def rescored(me: int, with_bonus: list[float], leaders: list[int], my_gain: int,
             moves: list[tuple[int, int]], bonus: tuple[int, ...], bonus_weight: float) -> float:
    """With exact scores (``exact_scores``): the score (rival weight 1) after
    my points change by ``my_gain`` and each (colour, seat) in ``moves`` gives
    that colour's bonus card to the seat (-1: nobody) instead of its leader in
    ``leaders``; ``with_bonus`` is ``scored_leaders``' third value."""
    pts = with_bonus[:]
    pts[me] += my_gain
    for c, s in moves:
        old = leaders[c]
        if old >= 0:
            pts[old] -= bonus[c] * bonus_weight
        if s >= 0:
            pts[s] += bonus[c] * bonus_weight
    return pts[me] - best_rival(pts, me)


def leader(col: list[int], needs_positive: bool) -> int:
    """The seat given a colour's bonus card with these totals (-1: nobody,
    F11): the single highest total, above 0 unless ``needs_positive`` is off."""
    best = col[0]
    at = 0
    ties = 1
    for s in range(1, len(col)):
        v = col[s]
        if v > best:
            best, at, ties = v, s, 1
        elif v == best:
            ties += 1
    if ties == 1 and (best > 0 or not needs_positive):
        return at
    return -1


EXACT_STEP: Final = 2.0 ** 20


def exact_scores(bonus_weight: float, bonus: tuple[int, ...]) -> bool:
    """Whether every score is a multiple of 2**-20 well inside a float's 53
    bits (bonus_weight 0, 0.5, 1, ...; integer bonus cards): then adding or
    removing a card's points changes a score by exactly that, to the bit, and
    a score can be updated instead of recomputed."""
    return (bonus_weight * EXACT_STEP).is_integer() and all(abs(b) < EXACT_STEP for b in bonus)


# A turn's position as ONE flat list of ints, so a look-ahead copies one list
# (a single slice) instead of a table of lists, and a score is read from it
# without building any list:
#
#   [0, k*n)            totals, colour-major: colour c, seat s at c*n + s
#   [k*n, k*n+n)        points per seat
#   [k*n+n, k*n+n+k)    per colour, the cards already taken from its front
#   [k*n+n+k, k*n+2n+k) per seat, the colour of the agent kept for the
#                       second round (-1: none)
#
# (k colours, n seats). ``flat_turns`` plays as ``first_round`` and
# ``second_round`` over the same turn, and ``flat_score`` scores as
# ``evaluate``: the same float operations in the same order.


def flat_position(totals: list[list[int]], points: list[int]) -> list[int]:
    """The flat position of colour totals ``totals[colour][seat]`` and
    ``points``: nothing taken yet, no agent kept."""
    out: list[int] = []
    for col in totals:
        out.extend(col)
    out.extend(points)
    out.extend([0] * len(totals))
    out.extend([-1] * len(points))
    return out


def flat_arrest(st: list[int], seat: int, c: int, front: list[list[int]], n: int, k: int) -> None:
    """``arrest`` on a flat position: ``seat`` takes the next card of colour
    ``c`` still on the table, if any."""
    t = front[c]
    ti = k * n + n + c
    j = st[ti]
    if j < len(t):
        v = t[j]
        st[ti] = j + 1
        i = c * n + seat
        st[i] = st[i] + v
        i = k * n + seat
        st[i] = st[i] + v


def flat_step(st: list[int], seat: int, ag: list[int], front: list[list[int]], n: int, k: int) -> None:
    """One step of ``first_round`` on a flat position: ``seat`` holding the
    agents ``ag`` plays its better one and keeps the other."""
    if len(ag) == 2:
        a = ag[0]
        b = ag[1]
        taken = k * n + n
        ta, tb = front[a], front[b]
        ka, kb = st[taken + a], st[taken + b]
        va = ta[ka] if ka < len(ta) else 0
        vb = tb[kb] if kb < len(tb) else 0
        if vb > va:
            c = b
            st[taken + k + seat] = a
        else:
            c = a
            st[taken + k + seat] = b
    elif ag:
        c = ag[0]
    else:
        return
    flat_arrest(st, seat, c, front, n, k)


def flat_turns(order: tuple[int, ...], me: int, my_pairs: list[list[int]], others: list[int],
               front: list[list[int]], base: list[int]) -> list[list[int]]:
    """A turn's arrests in ``order`` from the flat position ``base``, once per
    pair of mine (``my_pairs``) against rivals who each hold ``others``: the
    flat position each leaves. Plays as ``first_round`` then ``second_round``.
    The reference for _flat_core.c's ``flat_turns``."""
    if core is not None:
        got: list[list[int]] | None = core.flat_turns(order, me, my_pairs, others, front, base)
        if got is not None:
            return got
    n = len(order)
    k = len(front)
    p = 0
    while order[p] != me:
        p += 1
    # the arrests before my first are the same whatever my pair
    st0 = base
    if p:
        st0 = base[:]
        for i in range(p):
            flat_step(st0, order[i], others, front, n, k)
    kept = k * n + n + k
    out: list[list[int]] = []
    for cols in my_pairs:
        st = st0[:]
        flat_step(st, me, cols, front, n, k)
        for i in range(p + 1, n):
            flat_step(st, order[i], others, front, n, k)
        for i in range(n - 1, -1, -1):
            seat = order[i]
            c = st[kept + seat]
            if c >= 0:
                flat_arrest(st, seat, c, front, n, k)
        out.append(st)
    return out


# Bounds prune only options whose value is provably this far below the best
# one: far above float rounding on scores of a few hundred points, far below
# any real difference between scores.
MARGIN: Final = 1e-7


def best_bid(rest: list[int], me: int, places: list[int], values: list[int], colours: list[int], keep: int,
             my_pairs: list[list[int]], others: list[int], front: list[list[int]], base: list[int],
             bonus: tuple[int, ...], bonus_weight: float, needs_positive: bool) -> int:
    """The bid's choice: the index of the best option (-1: none scores above
    -1e9). Option j gives up a card of value ``values[j]`` and colour
    ``colours[j]`` (-1: purple) and puts me at place ``places[j]`` among the
    others in their order of arrests ``rest``; option ``keep`` gives up
    nothing (scored by its place alone). Each place's turn is played out once
    (``flat_turns``: my pairs against rivals holding ``others``) and scored
    (``flat_top``); an option scores the best of its place's end positions
    with its card taken off (``flat_given_up``). A villain given up (value
    x > 0) can only lose me points and bonus cards: it is not scored when
    its place's best less x cannot beat the best so far (``MARGIN``). The
    first of equal options wins. The reference for _flat_core.c's
    ``best_bid``."""
    if core is not None:
        got: int | None = core.best_bid(rest, me, places, values, colours, keep, my_pairs, others, front, base,
                                        bonus, bonus_weight, needs_positive)
        if got is not None:
            return got
    n = len(rest) + 1
    k = len(front)
    exact = exact_scores(bonus_weight, bonus)
    lead = [0] * k  # scratch for the scores
    # per place of mine in the order: the end positions, and the best score,
    # each end position's score and its leaders
    outcomes: list[list[list[int]] | None] = [None] * n
    scored: list[tuple[float, list[float], list[list[int]]] | None] = [None] * n
    best = -1
    best_v = -1e9
    for j in range(len(values)):
        x = values[j]
        p = places[j]
        results = outcomes[p]
        if results is None:
            order = (*rest[:p], me, *rest[p:])
            results = outcomes[p] = flat_turns(order, me, my_pairs, others, front, base)
        if x > 0 or exact or j == keep:
            got_p = scored[p]
            if got_p is None:
                scores: list[float] = []
                leads: list[list[int]] = []
                top = flat_top(me, results, n, k, bonus, bonus_weight, needs_positive, scores, leads)
                got_p = scored[p] = (top, scores, leads)
            top, scores, leads = got_p
            if j == keep:
                v = top
            elif x > 0 and top - x + MARGIN <= best_v + 1e-9:
                continue
            else:
                v = flat_given_up(me, results, n, k, bonus, bonus_weight, needs_positive, lead, colours[j], x,
                                  scores if exact else None, leads)
        else:
            v = flat_given_up(me, results, n, k, bonus, bonus_weight, needs_positive, lead, colours[j], x, None, [])
        if v > best_v + 1e-9:
            best, best_v = j, v
    return best


def flat_leaders(st: list[int], n: int, k: int, needs_positive: bool, lead: list[int]) -> None:
    """``leader`` of every colour of a flat position, into ``lead``."""
    for c in range(k):
        lead[c] = column_leader(st, c * n, n, needs_positive)


def flat_leads(st: list[int], n: int, k: int, me: int, needs_positive: bool) -> tuple[list[int], list[bool]]:
    """Per colour of a flat position, the highest total, and whether I alone
    hold it with a bonus card (above 0 unless ``needs_positive`` is off, F11)."""
    best_total = [0] * k
    leading = [False] * k
    for c in range(k):
        at = c * n
        b = st[at]
        count = 1
        for s in range(1, n):
            t = st[at + s]
            if t > b:
                b, count = t, 1
            elif t == b:
                count += 1
        best_total[c] = b
        leading[c] = st[at + me] == b and count == 1 and (b > 0 or not needs_positive)
    return best_total, leading


def flat_score(me: int, st: list[int], n: int, k: int, bonus: tuple[int, ...], bonus_weight: float,
               needs_positive: bool, lead: list[int]) -> float:
    """``evaluate`` (rival weight 1) of a flat position, to the bit: each seat's
    points as a float, its bonus cards added in colour order, mine less the
    best rival's. ``lead`` gets each colour's leader (``flat_leaders``).

    ``flat_leaders`` then ``led_score``, written out in one loop (the
    look-aheads' most called score): the same leaders, the same float
    operations in the same order."""
    at = k * n
    leaders = 0  # the seats given a bonus card, as bits
    for c in range(k):
        base = c * n
        top = st[base]
        who = 0
        ties = 1
        for s in range(1, n):
            v = st[base + s]
            if v > top:
                top, who, ties = v, s, 1
            elif v == top:
                ties += 1
        if ties == 1 and (top > 0 or not needs_positive):
            lead[c] = who
            leaders |= 1 << who
        else:
            lead[c] = -1
    mine = 0.0
    best = _NEG_INF
    for s in range(n):
        p = float(st[at + s])
        if leaders >> s & 1:
            for c in range(k):
                if lead[c] == s:
                    p += bonus[c] * bonus_weight
        if s == me:
            mine = p
        elif p > best:
            best = p
    return mine - best


def led_score(me: int, st: list[int], n: int, k: int, bonus: tuple[int, ...], bonus_weight: float,
              lead: list[int]) -> float:
    """``flat_score`` with each colour's leader given (``lead``, -1: nobody)."""
    at = k * n
    leaders = 0  # the seats given a bonus card, as bits
    for c in range(k):
        s = lead[c]
        if s >= 0:
            leaders |= 1 << s
    mine = 0.0
    best = _NEG_INF
    for s in range(n):
        p = float(st[at + s])
        if leaders >> s & 1:
            for c in range(k):
                if lead[c] == s:
                    p += bonus[c] * bonus_weight
        if s == me:
            mine = p
        elif p > best:
            best = p
    return mine - best


def flat_top(me: int, states: list[list[int]], n: int, k: int, bonus: tuple[int, ...], bonus_weight: float,
             needs_positive: bool, scores: list[float], leads: list[list[int]]) -> float:
    """``flat_score`` of each state into ``scores`` and its leaders into
    ``leads`` (appended, a new list each); the best score (-1e9 if none).
    The reference for _flat_core.c's ``flat_top``."""
    if core is not None:
        top: float | None = core.flat_top(me, states, n, k, bonus, bonus_weight, needs_positive, scores, leads)
        if top is not None:
            return top
    v = -1e9
    for st in states:
        lead = [0] * k
        sc = flat_score(me, st, n, k, bonus, bonus_weight, needs_positive, lead)
        scores.append(sc)
        leads.append(lead)
        if sc > v:
            v = sc
    return v


def flat_given_up(me: int, states: list[list[int]], n: int, k: int, bonus: tuple[int, ...], bonus_weight: float,
                  needs_positive: bool, lead: list[int], c: int, x: int,
                  scores: list[float] | None, leads: list[list[int]]) -> float:
    """The best ``flat_score`` of ``states`` once my card of colour ``c``
    (-1: purple) and value ``x`` is taken off; -1e9 if there are none. The
    states are left as they were.

    With ``scores`` (``flat_top``'s, given only when scores are exact,
    ``exact_scores``): a state whose bonus cards all stay where they were
    scores exactly its score less x, and only the others are scored again.
    ``lead`` is left as the last state scored anew left it. The reference for
    _flat_core.c's ``flat_given_up``."""
    if core is not None:
        got: float | None = core.flat_given_up(me, states, n, k, bonus, bonus_weight, needs_positive, lead, c, x,
                                               scores, leads)
        if got is not None:
            return got
    v = -1e9
    mi = k * n + me
    ci = c * n + me
    for i in range(len(states)):
        st = states[i]
        if scores is not None and c < 0:
            sc = scores[i] - x
        else:
            if c >= 0:
                st[ci] = st[ci] - x
            now = column_leader(st, c * n, n, needs_positive) if scores is not None else -2
            if scores is not None and now == leads[i][c]:
                sc = scores[i] - x
            else:
                st[mi] = st[mi] - x
                if scores is not None:  # only colour c's leader moved
                    was = leads[i]
                    for j in range(k):
                        lead[j] = was[j]
                    lead[c] = now
                    sc = led_score(me, st, n, k, bonus, bonus_weight, lead)
                else:
                    sc = flat_score(me, st, n, k, bonus, bonus_weight, needs_positive, lead)
                st[mi] = st[mi] + x
            if c >= 0:
                st[ci] = st[ci] + x
        if sc > v:
            v = sc
    return v


def column_leader(st: list[int], base: int, n: int, needs_positive: bool) -> int:
    """``leader`` of the n totals of a flat position from index ``base``."""
    best = st[base]
    at = 0
    ties = 1
    for s in range(1, n):
        v = st[base + s]
        if v > best:
            best, at, ties = v, s, 1
        elif v == best:
            ties += 1
    return at if ties == 1 and (best > 0 or not needs_positive) else -1


def flat_turns_held(order: tuple[int, ...], me: int, my_pairs: list[list[int]], held: list[list[int]],
                    front: list[list[int]], base: list[int]) -> list[list[int]]:
    """``flat_turns`` with each rival holding his own agents (``held[seat]``;
    mine ignored): the flat position each of my pairs leaves.

    The field-agent pick's inner loop: ``flat_step`` and ``flat_arrest``
    written out after my first arrest, which plays exactly as calling them."""
    n = len(order)
    k = len(front)
    p = 0
    while order[p] != me:
        p += 1
    st0 = base
    if p:
        st0 = base[:]
        for i in range(p):
            flat_step(st0, order[i], held[order[i]], front, n, k)
    pts = k * n
    taken = pts + n
    kept = taken + k
    out: list[list[int]] = []
    for cols in my_pairs:
        st = st0[:]
        flat_step(st, me, cols, front, n, k)
        for i in range(p + 1, n):
            seat = order[i]
            ag = held[seat]
            if len(ag) == 2:
                a = ag[0]
                b = ag[1]
                ta = front[a]
                tb = front[b]
                ka = st[taken + a]
                kb = st[taken + b]
                va = ta[ka] if ka < len(ta) else 0
                vb = tb[kb] if kb < len(tb) else 0
                if vb > va:
                    c = b
                    st[kept + seat] = a
                else:
                    c = a
                    st[kept + seat] = b
            elif ag:
                c = ag[0]
            else:
                continue
            t = front[c]
            j = st[taken + c]
            if j < len(t):
                v = t[j]
                st[taken + c] = j + 1
                x = c * n + seat
                st[x] = st[x] + v
                x = pts + seat
                st[x] = st[x] + v
        for i in range(n - 1, -1, -1):
            seat = order[i]
            c = st[kept + seat]
            if c >= 0:
                t = front[c]
                j = st[taken + c]
                if j < len(t):
                    v = t[j]
                    st[taken + c] = j + 1
                    x = c * n + seat
                    st[x] = st[x] + v
                    x = pts + seat
                    st[x] = st[x] + v
        out.append(st)
    return out


def held_scores(order: tuple[int, ...], me: int, my_pairs: list[list[int]], held: list[list[int]],
                front: list[list[int]], base: list[int], bonus: tuple[int, ...], bonus_weight: float,
                needs_positive: bool) -> tuple[float, ...]:
    """``flat_score`` (seat ``me``) of each end position ``flat_turns_held``
    gives: the field-agent pick's scores of one table of rival pairs. The
    reference for _flat_core.c's ``held_scores``."""
    if core is not None:
        got: tuple[float, ...] | None = core.held_scores(order, me, my_pairs, held, front, base, bonus, bonus_weight,
                                                         needs_positive)
        if got is not None:
            return got
    n = len(order)
    k = len(front)
    lead = [0] * k
    ends = flat_turns_held(order, me, my_pairs, held, front, base)
    return tuple([flat_score(me, ends[i], n, k, bonus, bonus_weight, needs_positive, lead) for i in range(len(ends))])


def contest(order: tuple[int, ...], me: int, mine: list[list[int]], cums: list[list[float]],
            memo: dict[int, bytes], samples: int, random: Callable[[], float], front: list[list[int]],
            totals: list[list[int]], points: list[int], bonus: tuple[int, ...], bonus_weight: float,
            needs_positive: bool) -> list[float]:
    """Seat ``me``'s mean end score of each of its candidate pairs ``mine``
    over ``samples`` tables of rival pairs (the field-agent pick): each
    rival's pair (an index into ``mine``) drawn with ``random`` by his
    cumulative chances ``cums[seat]``, every table played out for all the
    candidates (``held_scores``) in the order of arrests ``order`` from the
    colour totals and points. ``memo`` keeps each table's scores by one int
    (me, then each rival's index, base ``len(mine)``; only this function
    fills it), as the bytes of an array of doubles (one object a table, not
    a float each): a table met again is not played again, its scores are
    added as they were. The reference for _flat_core.c's ``contest``."""
    if core is not None:
        got: list[float] | None = core.contest(order, me, mine, cums, memo, samples, random, front, totals, points,
                                               bonus, bonus_weight, needs_positive)
        if got is not None:
            return got
    n = len(order)
    m = len(mine)
    base: list[int] | None = None
    sums = [0.0] * m
    held: list[list[int]] = [[] for _ in range(n)]
    for _ in range(samples):
        key = me
        for s in range(n):
            if s != me:
                d = draw_index(cums[s], random())
                held[s] = mine[d]
                key = key * m + d
        kept = memo.get(key)
        if kept is None:
            if base is None:
                base = flat_position(totals, points)
            scores = array("d", held_scores(order, me, mine, held, front, base, bonus, bonus_weight, needs_positive))
            memo[key] = scores.tobytes()
        else:
            scores = array("d", kept)
        for i in range(m):
            sums[i] += scores[i]
    return [x / samples for x in sums]


def fictitious_play(order: tuple[int, ...], mine: list[list[int]], start: list[float],
                    memo: dict[int, bytes], samples: int, random: Callable[[], float],
                    front: list[list[int]], totals: list[list[int]], points: list[int], bonus: tuple[int, ...],
                    bonus_weight: float, needs_positive: bool, rounds: int, temperature: float,
                    pick_temperature: float, arrest_mix: float) -> tuple[list[list[float]], list[list[float]]]:
    """How every seat of ``order`` picks among the candidate pairs ``mine``:
    ``rounds`` rounds of fictitious play (the field-agent pick's model). Each
    round every seat's mean end score of each candidate (``contest``, the
    memo and ``random`` shared by all its calls) against the others' mixes
    so far (at first the cumulative chances ``start``) is weighed by
    ``softmax_cumulative`` at ``temperature``; a seat's mix is the running
    mean of its rounds' weights. Returns per seat the cumulative weights of
    its mix, and the arrests' odds of its pair: its last round's answer at
    ``pick_temperature`` (normalised), blended with a share ``arrest_mix``
    of its mix (normalised). The reference for _flat_core.c's
    ``fictitious_play``."""
    if core is not None:
        got: tuple[list[list[float]], list[list[float]]] | None = core.fictitious_play(
            order, mine, start, memo, samples, random, front, totals, points, bonus, bonus_weight, needs_positive,
            rounds, temperature, pick_temperature, arrest_mix)
        if got is not None:
            return got
    n = len(order)
    m = len(mine)
    cums = [start] * n
    mean = [[0.0] * m for _ in range(n)]
    picks: list[list[float]] = []
    for r in range(1, rounds + 1):
        for s in range(n):
            values = contest(order, s, mine, cums, memo, samples, random, front, totals, points, bonus,
                             bonus_weight, needs_positive)
            cum = softmax_cumulative(values, temperature)
            if r == rounds:
                picks.append(softmax_cumulative(values, pick_temperature))
            last = 0.0
            row = mean[s]
            for i in range(m):
                row[i] += ((cum[i] - last) / cum[-1] - row[i]) / r
                last = cum[i]
        cums = [_running_total(row) for row in mean]
    odds: list[list[float]] = []
    for s in range(n):
        pick = picks[s]
        mix = cums[s]
        odds.append([(1.0 - arrest_mix) * pick[i] / pick[-1] + arrest_mix * mix[i] / mix[-1] for i in range(m)])
    return cums, odds


def _running_total(weights: list[float]) -> list[float]:
    """Cumulative weights: each the sum of the weights up to it."""
    out: list[float] = []
    total = 0.0
    for w in weights:
        total += w
        out.append(total)
    return out


def first_scores(order: tuple[int, ...], me: int, step: int, firsts: list[int], my_agents: list[int],
                 agents: list[list[int]], front: list[list[int]], totals: list[list[int]], points: list[int],
                 bonus: tuple[int, ...], bonus_weight: float, needs_positive: bool) -> list[float]:
    """My first arrest of a turn (step ``step`` of ``order``), with the
    colour ``firsts[j]`` for each option j: the ``flat_score`` of the end of
    the turn, each seat holding ``agents[seat]`` (I hold the two
    ``my_agents``); the seats before me have played one agent and keep their
    other, ``agents[seat][0]``, for the second round. The reference for
    _flat_core.c's ``first_scores``."""
    if core is not None:
        got: list[float] | None = core.first_scores(order, me, step, firsts, my_agents, agents, front, totals, points,
                                                    bonus, bonus_weight, needs_positive)
        if got is not None:
            return got
    n = len(order)
    k = len(front)
    lead = [0] * k  # scratch
    base = flat_position(totals, points)
    kept = k * n + n + k
    for i in range(step):
        ag = agents[order[i]]
        if ag:
            base[kept + order[i]] = ag[0]
    out: list[float] = []
    for first in firsts:
        st = base[:]
        mine = my_agents[:]
        mine.remove(first)
        st[kept + me] = mine[0]
        flat_arrest(st, me, first, front, n, k)
        for i in range(step + 1, n):
            flat_step(st, order[i], agents[order[i]], front, n, k)
        for i in range(n - 1, -1, -1):
            seat = order[i]
            c = st[kept + seat]
            if c >= 0:
                flat_arrest(st, seat, c, front, n, k)
        out.append(flat_score(me, st, n, k, bonus, bonus_weight, needs_positive, lead))
    return out


def first_sums(order: tuple[int, ...], me: int, step: int, firsts: list[int], my_agents: list[int],
               tables: list[list[list[int]]], front: list[list[int]], totals: list[list[int]], points: list[int],
               bonus: tuple[int, ...], bonus_weight: float, needs_positive: bool) -> list[float]:
    """``first_scores`` of each table of the agents held (``tables``, as
    ``held_tables`` draws them): per first arrest, its end scores summed in
    table order (from 0.0). The reference for _flat_core.c's
    ``first_sums``."""
    if core is not None:
        got: list[float] | None = core.first_sums(order, me, step, firsts, my_agents, tables, front, totals, points,
                                                  bonus, bonus_weight, needs_positive)
        if got is not None:
            return got
    sums = [0.0] * len(firsts)
    for agents in tables:
        scores = first_scores(order, me, step, firsts, my_agents, agents, front, totals, points, bonus, bonus_weight,
                              needs_positive)
        for j in range(len(scores)):
            sums[j] += scores[j]
    return sums


def held_tables(me: int, mine: list[int], choices: list[list[list[int]]], cums: list[list[float]], samples: int,
                random: Callable[[], float]) -> list[list[list[int]]]:
    """``samples`` tables of the agents each seat (of ``cums``) holds in the
    arrests: ``mine`` for seat ``me``; none (a new empty list) for a seat
    whose cumulative chances ``cums[seat]`` are empty; else
    ``choices[seat]``'s list at the index drawn with ``random`` by them
    (``draw_index``), seat after seat. The tables hold the given lists
    themselves, not copies (the arrests' look-aheads read them; a caller
    that changes one copies it first). The reference for _flat_core.c's
    ``held_tables``."""
    if core is not None:
        got: list[list[list[int]]] | None = core.held_tables(me, mine, choices, cums, samples, random)
        if got is not None:
            return got
    out: list[list[list[int]]] = []
    for _ in range(samples):
        agents: list[list[int]] = []
        for s in range(len(cums)):
            if s == me:
                agents.append(mine)
            elif not cums[s]:
                agents.append([])
            else:
                agents.append(choices[s][draw_index(cums[s], random())])
        out.append(agents)
    return out


def softmax_cumulative(values: list[float], temperature: float) -> list[float]:
    """Cumulative weights exp((v - best) / temperature) of ``values`` (a
    draw below the last picks the first index whose weight exceeds it);
    with temperature 0, weight 1 for each best value and 0 for the rest."""
    best = _NEG_INF
    for v in values:
        if v > best:
            best = v
    out: list[float] = []
    total = 0.0
    for v in values:
        if temperature > 0.0:
            total += math.exp((v - best) / temperature)
        elif v >= best:
            total += 1.0
        out.append(total)
    return out


def draw_index(cumulative: list[float], u: float) -> int:
    """The index a uniform draw ``u`` in [0, 1) picks from cumulative weights."""
    x = u * cumulative[-1]
    for i in range(len(cumulative)):
        if x < cumulative[i]:
            return i
    return len(cumulative) - 1
