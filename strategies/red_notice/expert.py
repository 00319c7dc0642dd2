"""The expert player, for both seats: the top rung of the ladder.

Jessah (the agent) hunts with the public belief, the bitmask of cities Angela
can be in: her movements pick the path that inspects the most belief cities,
else close in on the belief; radars go where they split Angela's likely next
cities best, barriers cut the exits of the belief; she draws and cashes checks
for the upgrades and picks the upgrade that helps the hunt most right now.

Angela (the forger) plans a cashing route over the cities of her hand's
colours, weighing each city's distance against Jessah's reach (her own city
less than the cities next to her: OWN_CITY_DANGER) and the radars it would
trip; she cashes whenever she can, spends her security as
soon as she has the points on a white radar drawn at random (SPEND_AT_ONCE),
unless a barrier on a route out of her city is worth removing first (UNBOX,
OPEN_GAIN), clears barriers from her path, picks the identity that escapes best and
hands Jessah the least useful upgrade.

Both bid tokens from the value of each card half to each side and the tokens
the opponent has left (spent tokens are public).

Jessah keeps a dossier on the forger (strategies/red_notice/dossier.py): a
particle filter over Angela's city and hand, read from her view and the
public history, under a model of a forger planning her cashes. Her hunt
weighs each city of the public belief by its probability there, so she
reads what Angela's movements say about where she is going, not only where
she can be: an agent who hunts on the bare set is exploitable by one who
reads the forger's goals (docs/strategies.md, "Jessah's dossier").
Her security goes on the same weights (SECURITY_WEIGHT): a
barrier on the exits of the cities she weighs most, a radar where her
weight two steps on splits best.
``dossier = 0`` hunts and places security on the bare set.

Jessah hunting on the bare set (``dossier = 0``) also reads the leak of a
radar removal (a white radar gone with security spent and no announcement
weighs its continent and the cities next to it LEAK times), and both seats
pick at random, from their own stream,
among near-equal hunts and movement plans (HUNT_MIX, PLAN_MIX), so that a
copy of the player cannot predict its next move.

Params: ``risk`` (0..1) is Angela's appetite for cashing and walking near
Jessah, and Jessah's taste for chasing thin leads over holding a central post
(she chases a lead of at least 10% * (1 - risk)^2);
``greed`` (0..1) is Angela's preference for $200k checks over $100k ones;
``dossier`` (0..100000) is the number of guesses in Jessah's dossier (0: none;
64 by default: against a hunter keeping 200 and looking farther, 32 guesses
gave up 3.5 points of the forger's win rate and 64 gave up 1.5, for about
1.2x the time of a game; docs/strategies.md).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, ClassVar, Final

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # without mypy installed the module only ever runs as source

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls


from rnsim_strategies.red_notice import dossier as _dossier
from rnsim_strategies.red_notice.base import RedNoticeStrategy as Strategy
from rnsim_strategies.red_notice.board import BANK as _BANK
from rnsim_strategies.red_notice.board import CHECK as _CHECK
from rnsim_strategies.red_notice.board import JOKER as _JOKER
from rnsim_strategies.red_notice.board import MOVEMENT as _MOVEMENT
from rnsim_strategies.red_notice.board import SECURITY as _SECURITY
from rnsim_strategies.red_notice.board import Board, bits, board_for
from rnsim_strategies.red_notice.dossier import Dossier

from rnsim.games.red_notice.engine.belief import expand
from rnsim.games.red_notice.engine.decision import (
    ANGELA,
    AngelaMoveOption,
    AngelaSecurityOption,
    BankOption,
    CheckOption,
    City,
    Continent,
    Decision,
    IdentityId,
    JessahMoveOption,
    JessahSecurityOption,
    JokerOption,
    Option,
    Route,
    StartOption,
    TokenPlacement,
    UpgradeId,
)
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import View, build_view
from rnsim.games.red_notice.rules.components import POW as _POW
from rnsim.games.red_notice.rules.components import Identity

# Final copies of the card actions and POW!'s value (defined in an uncompiled
# module): compiled code reads them from C statics, not the module's dict.
BANK: Final[int] = _BANK
CHECK: Final[int] = _CHECK
JOKER: Final[int] = _JOKER
MOVEMENT: Final[int] = _MOVEMENT
SECURITY: Final[int] = _SECURITY
POW: Final[int] = _POW

# How much an upgrade helps Jessah, in general (situational terms are added).
_UPGRADE_HELP: Final = {
    "private_jet": 5.0,
    "bank_alert": 4.5,
    "precise_radars": 4.0,
    "permanent_units": 3.0,
    "frozen_accounts": 2.5,
    "rapid_response": 1.5,
    "informant": 1.5,
    "satellite_sweep": 1.5,
    "wiretap": 1.0,
    "roadblocks": 1.5,
}
# How quickly Jessah can be on a city at distance d (the danger of standing there).
_PROXIMITY: Final = (1.0, 0.7, 0.35, 0.12, 0.03)


# The value tables of the bids: a half's value by action * 4 + icons (actions
# 0-4, icons 1-3; 0.0 where a half has no value), read by index rather than
# through a dict keyed by (action, icons) tuples, which hashes a new tuple
# per read. _HALF_KEYS are the halves a table values, for the dict views.
_HALF_KEYS: Final = ((BANK, 1), (MOVEMENT, 1), (MOVEMENT, 2), (MOVEMENT, 3), (CHECK, 1), (CHECK, 2), (CHECK, 3),
                     (SECURITY, 1), (SECURITY, 2), (SECURITY, 3), (JOKER, 1))
# a Joker's actions after Bank, in the order a tie goes to the first
_JOKER_ACTIONS: Final[tuple[tuple[int, JokerOption], ...]] = (
    (MOVEMENT, "movement"), (CHECK, "check"), (SECURITY, "security"))


def _half_index(half: tuple[int, int]) -> int:
    """``half``'s index in a value table, or -1 for a half out of its range."""
    a, n = half
    return a * 4 + n if 0 <= a < 5 and 0 <= n < 4 else -1


def _best_of(a: float, b: float, c: float, d: float) -> float:
    """max(a, b, c, d) on floats: the first of equals."""
    if b > a:
        a = b
    if c > a:
        a = c
    if d > a:
        a = d
    return a


def _table_dict(t: list[float]) -> dict[tuple[int, int], float]:
    """The value table ``t`` as a dict keyed by (action, icons)."""
    return {key: t[key[0] * 4 + key[1]] for key in _HALF_KEYS}


def _generic_angela_table() -> list[float]:
    """What Jessah assumes a half is worth to Angela (her hand is hidden)."""
    t = [0.0] * 20
    t[BANK * 4 + 1] = 1.8
    t[JOKER * 4 + 1] = 1.8
    for n in range(1, 4):
        t[MOVEMENT * 4 + n] = 0.7 * n
        t[CHECK * 4 + n] = 0.35 * n
        t[SECURITY * 4 + n] = 0.2 * n
    return t


_GENERIC_ANGELA: Final = tuple(_generic_angela_table())


def _token_odds(tokens: tuple[int, ...], spent: tuple[int, ...]) -> tuple[list[float], list[float], int, bool]:
    """Expert._count_odds's answer for the token set ``tokens`` with ``spent``
    revealed: the chances to win and to tie of each token value (lists by
    value, POW!'s last), the opponent's unrevealed tokens, and whether her
    POW! is among them (shared lists: do not mutate)."""
    top = 0
    for v in tokens:
        if v != POW and v > top:
            top = v
    pow_j = top + 1
    left = [0] * (top + 2)
    for v in tokens:
        j = pow_j if v == POW else v
        left[j] = left[j] + 1
    for v in spent:
        j = pow_j if v == POW else v
        left[j] = left[j] - 1
    n_left = len(tokens) - len(spent)
    n_opp = max(1, n_left)
    win = [0.0] * (top + 2)
    tie = [0.0] * (top + 2)
    below = 0  # her tokens of a lower value than j
    for j in range(top + 2):
        same = left[j]
        if j == pow_j:
            p_tie = same / n_opp
            win[j] = 1.0 - p_tie
            tie[j] = p_tie
        else:
            win[j] = below / n_opp
            tie[j] = same / n_opp
        below += same
    return win, tie, n_left, left[pow_j] > 0


class _OddsMemo:
    """_token_odds's answers by the spent tokens (sorted), for the token set ``tokens``."""

    def __init__(self) -> None:
        self.tokens: tuple[int, ...] | None = None
        self.memo: dict[tuple[int, ...], tuple[list[float], list[float], int, bool]] = {}


_ODDS: Final = _OddsMemo()


class _LastBoard:
    """The board Expert._b handed out last (None before the first)."""

    def __init__(self) -> None:
        self.board: Board | None = None


_LAST_BOARD: Final = _LastBoard()
# sqrt(k) for k = max(1, min(cities in the belief, 4)), as the Python ** gives it
_ROOTS: Final = tuple(max(1, k) ** 0.5 for k in range(5))


def _mass(belief: int, weights: list[float]) -> float:
    """The weight of the belief's cities, summed lowest city first."""
    total = 0.0
    for c in bits(belief):
        total += weights[c]
    return total


def _spread_move(after: list[float], belief: int, wn: list[float], open_masks: Sequence[int]) -> None:
    """Adds to ``after`` each belief city's mass ``wn`` spread evenly over it
    and its neighbours in ``open_masks``: where she may be once she has moved
    again."""
    for c in bits(belief):
        m = open_masks[c] | (1 << c)
        share = wn[c] / m.bit_count()
        while m:  # each city of m, lowest first (no list: bits)
            low = m & -m
            y = low.bit_length() - 1
            after[y] += share
            m ^= low


def _mass_within(ball: tuple[int, ...], reach: int, after: list[float]) -> float:
    """The mass of ``after`` within ``reach`` steps of a city (``ball`` is
    its row of ``Board.ball``), summed lowest city first."""
    v = 0.0
    m = ball[min(reach, len(ball) - 1)]
    while m:  # each city within reach, lowest first
        low = m & -m
        v += after[low.bit_length() - 1]
        m ^= low
    return v


def _open_dist(b: Board, targets: int, barriers: tuple[int, ...]) -> list[int]:
    """``b.open_dist_from(targets, barriers)``, from the same cache (do not
    mutate): per city, the steps to the nearest city of ``targets`` over
    routes without a barrier (FAR if none). A question not yet cached is
    answered on bitmasks (``Board.staggered_dist`` with every target at
    step 0: the same breadth-first distances, without a queue)."""
    cache = b.open_dist_cache
    key = (targets, b.barred(barriers))
    got = cache.get(key)
    if got is None:
        if len(cache) > 20000:
            cache.clear()
        got = cache[key] = b.staggered_dist((targets,), barriers)
    return got


def _belief_reach(b: Board, belief: int, left: int, barriers: tuple[int, ...], radars: tuple[int, ...],
                  journalist: bool) -> tuple[int, int]:
    """Where she may be after ``left`` steps from the belief, and the part of
    it a quiet movement leaves possible (no radar tripped: the cities off the
    radars' continents, or the belief itself). The Journalist crosses
    barriers and trips no radar. Not remembered: the same question seldom
    comes back (1 time in 20 in expert games), and a few expansions cost
    less than a key of the barriers and a dict's upkeep."""
    masks = b.open_masks(barriers) if not journalist else b.nbr_mask
    reach = belief
    for _ in range(left):
        reach = expand(reach, masks)
    radar_cities = 0
    if not journalist:
        for k, rk in enumerate(radars):
            if rk:
                radar_cities |= b.cont_mask[k]
    return reach, (reach & ~radar_cities) | belief


def _walk_masks(b: Board, barriers: tuple[int, ...], radars: tuple[int, ...], journalist: bool,
                first_ok: set[int]) -> tuple[int, int, int]:
    """A movement's walk as bitmasks: the routes it cannot take after its
    first step (the barred ones; none for the Journalist), the cities its
    first step may enter, and the cities where a step may trip a radar
    (those of a continent with one; none for the Journalist)."""
    ok = 0
    for c in first_ok:
        ok |= 1 << c
    if journalist:
        return 0, ok, 0
    on_radar = 0
    for k in range(len(radars)):
        if radars[k]:
            on_radar |= b.cont_mask[k]
    return b.barred(barriers), ok, on_radar


def _total(w: list[float]) -> float:
    """``sum(w)``: the same additions in the same order, on machine floats
    when compiled (no call of the builtin)."""
    t = 0.0
    for x in w:
        t += x
    return t


def _popcount(x: int) -> int:
    """``x.bit_count()`` of a non-negative ``x``: compiled, a few operations
    on machine ints cost less than the method call. Below 2**62 (where a
    compiled int is a machine int: every mask of a map of up to 62 cities)
    the bits are summed in parallel, by pairs, nibbles and bytes; above,
    one at a time."""
    if x >> 62:
        n = 0
        while x:
            x &= x - 1
            n += 1
        return n
    x -= (x >> 1) & 0x1555555555555555
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    x += x >> 8
    x += x >> 16
    x += x >> 32
    return x & 0x7F


class _Ends:
    """Where a movement's walk (``_walk``) reports each end it meets."""

    __slots__ = ()

    def end(self, c: int, n_trig: int, seen_by: int, j: int) -> None:
        """An end: its city, its radar triggers, the cities its last trigger
        points at and its first step's index in the walk's first steps."""
        raise NotImplementedError


def _walk(b: Board, here: int, left: int, barriers: tuple[int, ...], radars: tuple[int, ...],
          precise: bool, journalist: bool, first_ok: set[int], sink: _Ends) -> list[Option]:
    """Walks the states of a movement of up to ``left`` steps from ``here``
    breadth-first, reports each end to ``sink`` in the order met, and
    returns the first steps ("stop", then each move out of ``here`` that
    ``first_ok`` allows, in the order met). Only the states a further
    layer expands are kept: the last layer's go to ``sink`` alone."""
    cont = b.cont
    n = b.n
    ball = b.ball
    cont_mask = b.cont_mask
    nbr_routes = b.nbr_routes
    firsts: list[Option] = ["stop"]
    sink.end(here, 0, 0, 0)
    # A state is (city, triggers announced so far). The triggers are an
    # int, one digit per trigger in base ``base``: (continent, city it
    # points at or -1) as continent * (n + 1) + city + 2 (at least 1),
    # so that two sequences never share a code; the state's key is
    # code * n + city. Beside it: the continents tripped (bits), the
    # number of triggers, the cities the last one points at, the first step.
    base = len(cont_mask) * (n + 1) + 2
    # The states without a trigger are their city alone: a bitmask of
    # them spares the set its hashing on the common walk.
    seen0 = 1 << here
    seen: set[int] = set()
    bar, ok, on_radar = _walk_masks(b, barriers, radars, journalist, first_ok)
    # The states to expand, in the order met: a layer is a run of them.
    cities = [here]
    codes = [0]
    trippeds = [0]
    trigs = [0]
    seen_bys = [0]
    first = [0]
    lo = 0
    for step in range(left):
        keep = step + 1 < left  # a further layer expands this one's states
        hi = len(cities)
        for i in range(lo, hi):
            c = cities[i]
            code = codes[i]
            tripped = trippeds[i]
            n_trig = trigs[i]
            seen_by = seen_bys[i]
            j = first[i]
            start = j == 0
            for nx, r in nbr_routes[c]:
                if start:
                    if not ok >> nx & 1:
                        continue
                elif bar >> r & 1:
                    continue
                code2 = code
                tripped2 = tripped
                n2 = n_trig
                seen2 = seen_by
                if on_radar >> nx & 1:
                    k = cont[nx]
                    rk = radars[k]
                    if rk == 2 or (rk == 1 and not tripped >> k & 1):
                        tc = nx if precise else -1
                        code2 = code * base + k * (n + 1) + tc + 2
                        tripped2 = tripped | 1 << k
                        n2 = n_trig + 1
                        seen2 = ball[tc][1] if tc >= 0 else cont_mask[k]
                if code2 == 0:
                    if seen0 >> nx & 1:
                        continue
                    seen0 |= 1 << nx
                else:
                    key = code2 * n + nx
                    if key in seen:
                        continue
                    seen.add(key)
                j2 = j
                if start:
                    j2 = len(firsts)
                    firsts.append(("move", nx))
                sink.end(nx, n2, seen2, j2)
                if keep:
                    cities.append(nx)
                    codes.append(code2)
                    trippeds.append(tripped2)
                    trigs.append(n2)
                    seen_bys.append(seen2)
                    first.append(j2)
        if len(cities) == hi:
            break
        lo = hi
    return firsts


class _Plan(_Ends):
    """The ends of a movement of up to ``left`` steps from ``here``, as
    flat lists in the order a breadth-first walk over its states
    (``_walk``) meets them: per end its city, its radar triggers, the
    cities its last trigger points at and its first step's index in
    ``firsts`` ("stop", then each move out of ``here`` that ``first_ok``
    allows)."""

    __slots__ = ("cities", "trigs", "seen_by", "first", "firsts")

    def __init__(self, b: Board, here: int, left: int, barriers: tuple[int, ...], radars: tuple[int, ...],
                 precise: bool, journalist: bool, first_ok: set[int]) -> None:
        self.cities: list[int] = []
        self.trigs: list[int] = []
        self.seen_by: list[int] = []
        self.first: list[int] = []
        self.firsts = _walk(b, here, left, barriers, radars, precise, journalist, first_ok, self)

    def end(self, c: int, n_trig: int, seen_by: int, j: int) -> None:
        self.cities.append(c)
        self.trigs.append(n_trig)
        self.seen_by.append(seen_by)
        self.first.append(j)

    def ends(self) -> list[tuple[int, int, int, Option]]:
        """(end city, radar triggers, cities the last trigger points at, first step) per end."""
        return [(self.cities[e], self.trigs[e], self.seen_by[e], self.firsts[self.first[e]])
                for e in range(len(self.cities))]


class _PlanScores(_Ends):
    """The scores of a movement's ends as ``Expert._plan_scores`` weighs
    them, taken as the walk meets them (no list of the ends): per first
    step its best score (``by``), and the first end that scores best."""

    __slots__ = ("djrow", "ball", "reach", "quiet", "w_danger", "own", "prox", "dt", "w_way", "escape", "by",
                 "best_j", "best_s")

    def __init__(self, djrow: tuple[int, ...], ball: tuple[int, ...], reach: int, quiet: int, w_danger: float,
                 own: float, prox: tuple[float, ...], dt: list[int] | None, w_way: float, escape: bool) -> None:
        self.djrow = djrow
        self.ball = ball
        self.reach = reach
        self.quiet = quiet
        self.w_danger = w_danger
        self.own = own
        self.prox = prox
        self.dt = dt
        self.w_way = w_way
        self.escape = escape
        self.by: list[float] = []
        self.best_j = 0
        self.best_s = -1e18

    def end(self, c: int, n_trig: int, seen_by: int, j: int) -> None:
        s = -0.1 * n_trig
        d = self.djrow[c]
        prox = self.prox
        if d < len(prox):
            # Jessah searches the belief cities nearest her first; she
            # finds Angela if few of them are at least as near as her city.
            bp = ((seen_by & self.reach) if n_trig else self.quiet) | (1 << c)
            crowd = _popcount(bp & self.ball[d])
            s -= self.w_danger * (self.own if d == 0 else prox[d]) * min(1.0, 2.0 / crowd)
        dt = self.dt
        if dt is not None:
            s -= self.w_way * min(dt[c], 8)
        if self.escape:
            s += 0.2 * min(d, 5)
        if j == 0:  # "stop"
            s += 0.01
        by = self.by
        if j == len(by):  # the first end through this first step (s is finite)
            by.append(s)
        elif s > by[j]:
            by[j] = s
        if s > self.best_s + 1e-9:
            self.best_j = j
            self.best_s = s


# Designers subclass the expert to model play styles, also when it is compiled.
@mypyc_attr(allow_interpreted_subclasses=True)
class Expert(Strategy):
    """Plays either seat; see the module docstring."""

    name = "expert"
    uses_history = False  # it keeps its own memory of what it saw
    uses_worlds = False  # it plans on its view and its dossier alone
    PARAMS = {"risk": 0.5, "greed": 0.5, "dossier": 64}
    PARAM_RANGES = {"risk": (float, 0.0, 1.0), "greed": (float, 0.0, 1.0), "dossier": (int, 0, 100_000)}
    # Bidding: the price of a token per point of strength (POW! counts 6), and
    # the chance the opponent contests a card she is not on yet, per token she
    # still has to place per free card.
    TOKEN_COST: ClassVar[float] = 0.07
    CONTEST: ClassVar[float] = 0.6
    # Denial in the bidding (R2, R3): a POW! facing a token cancels it, so
    # the POW!'s owner performs both halves and the other does nothing. A
    # token on a half whose other half is free risks the opponent's POW!
    # there: her best reply is to deny the exposed half she gains most on,
    # and she does with DENY x the chance her POW! is among the tokens she
    # still has to place (0: the threat is not priced). Her own POW! facing
    # a token counts what it takes away from her (her half, cancelled).
    DENY: ClassVar[float] = 0.5
    # The forger's bids see the order of a card's halves (R1, R3): alone on
    # a card, or winning it, she performs the half she is on first, then the
    # other. A Bank half is worth its cash only where she can cash by then:
    # in her city, or after the Movement she performs first on that card
    # (her cashes within reach), or after a Check that may draw a check of
    # her city's colour; before any movement of hers this round, and with no
    # check cashable here, it is worth BANK_EARLY (False: every Bank half is
    # worth the same wherever it is performed).
    BID_ORDER: ClassVar[bool] = True
    BANK_EARLY: ClassVar[float] = 0.2
    # ... and with a check cashable in her city, a Bank cashes one check
    # (rulebook, Bank): once her tokens sit on as many Bank halves as she
    # has checks to cash here, another Bank half is worth BANK_EARLY and a
    # Joker half its best other action (R4) (False: every Bank half her cash).
    BANK_SPARE: ClassVar[bool] = True
    # Jessah without a dossier reads a white radar removed by a security
    # spend (no announcement) as Angela being on that continent or next to
    # it, LEAK times as likely as elsewhere (a forger who clears the radar
    # on her way leaks about 10; the expert forger draws the radar at random,
    # SPEND_AT_ONCE, and the dossier reads nothing).
    LEAK: ClassVar[float] = 10.0
    # Angela spends her security as soon as she has the points, on a white
    # radar drawn at random from her stream (a removal then says nothing of
    # where she is), rather than keeping them for the radar on her way or
    # until her cap (False). Plugins spending at once gained +4.4 points over
    # that habit against an agent who ignored removals, +5.9 against one who
    # read them as the forger being near (docs/strategies.md).
    SPEND_AT_ONCE: ClassVar[bool] = True
    # ... unless Jessah's barriers close at least half the routes out of her
    # city: then, as a movement starts, she removes the one that opens her
    # best way out (Expert._unbox; False: the random radar all the same).
    UNBOX: ClassVar[bool] = True
    # ... and when fewer are closed, she removes a barrier on a route out of
    # her city if her best movement with it gone scores OPEN_GAIN more (in
    # steps of her way to her cashes; Expert._open_way; 0: never).
    OPEN_GAIN: ClassVar[float] = 1.0
    # The danger of ending a movement in Jessah's own city, against 0.7 next
    # to her: she inspects the city she stands in only by spending a step
    # that moves her nowhere (rulebook, Movement; R16).
    OWN_CITY_DANGER: ClassVar[float] = 0.2
    # With no identity left a capture ends the game, and a cash reveals her
    # city (rulebook, Bank). Declining it in Jessah's city or next to it
    # (True) keeps the city hidden but leaves her there all the same, a
    # check further from the win; she cashes (False) and her movement plan
    # weighs the danger. Cashing there gained +1.03 [+0.58, +1.47] points
    # against the expert agent, +1.40 [+0.51, +2.29] against search's
    # (docs/explanation/player-evidence.md).
    LAST_CASH_PASS: ClassVar[bool] = False
    # The forger's Joker (R4) performed as a Bank cashes a check of her
    # city's colour then and there (rulebook, Bank), and a Bank half of hers
    # later this round, before any movement of hers, cashes it all the same
    # (R1, R3): with nothing to cash here, or no more checks cashable here
    # than such Banks to come, the Joker's Bank is worth nothing and she
    # takes its best other action (False: the Bank at its value in her
    # bids, wherever she performs it).
    JOKER_ROUND: ClassVar[bool] = True
    # Options scoring within these margins of the best are near-equal: the
    # player picks among them at random (its seat's stream), since a player
    # whose every choice can be predicted is easy to exploit. HUNT_MIX is in
    # belief cities inspected, PLAN_MIX in Angela's movement score. With the
    # dossier's private stream she is hard to predict anyway: at HUNT_MIX 0.5
    # a hunter who did not mix at all took 2.9 points from her, at 0.3 it
    # takes 1.0 and no dodger gains.
    HUNT_MIX: ClassVar[float] = 0.3
    PLAN_MIX: ClassVar[float] = 0.25
    # Jessah's hunt on her dossier also weighs where a path leaves her: AHEAD
    # times the dossier's mass she could reach within AHEAD_REACH steps after
    # Angela's next movement, for the mass the path leaves unfound (0: only
    # what the path inspects, nearest end breaking ties).
    AHEAD: ClassVar[float] = 0.3
    AHEAD_REACH: ClassVar[int] = 2
    # Jessah with a dossier places her security on its weights rather than on
    # the bare public set: a radar where the weight she may carry in two
    # steps splits best, a barrier on the exits of the heavy cities, a
    # barrier scoring SECURITY_WEIGHT x the weight it cuts off (0: the bare
    # set's scores). Plugins doing so against the bare-set expert gained
    # Jessah +3.4 points at weight 3, +8.1 at 10, +7.8 at 15, +7.5 at 30
    # (10,000 games, master seed 2).
    SECURITY_WEIGHT: ClassVar[float] = 10.0
    # Jessah's dossier's model terms (Dossier's keyword arguments: tau, eps,
    # leak, decline, floor); empty: its defaults.
    DOSSIER_MODEL: ClassVar[dict[str, float]] = {}

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        # A plugin that declares its own PARAMS without these (e.g. written
        # before ``dossier`` existed) gets the expert's defaults.
        defaults = Expert.PARAMS
        self.risk = float(self.params.get("risk", defaults["risk"]))
        self.greed = float(self.params.get("greed", defaults["greed"]))
        # Read through the type so a subclass's constants count, compiled or not.
        self._token_cost = float(getattr(type(self), "TOKEN_COST"))  # noqa: B009
        self._contest = float(getattr(type(self), "CONTEST"))  # noqa: B009
        self._deny = float(getattr(type(self), "DENY"))  # noqa: B009
        self._bid_order = bool(getattr(type(self), "BID_ORDER"))  # noqa: B009
        self._bank_early = float(getattr(type(self), "BANK_EARLY"))  # noqa: B009
        self._bank_spare = bool(getattr(type(self), "BANK_SPARE"))  # noqa: B009
        self._order_round = -1
        self._order_ctx: tuple[bool, float, float, float, float, float, float] = (
            True, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        self._leak_ratio = float(getattr(type(self), "LEAK"))  # noqa: B009
        self._spend_at_once = bool(getattr(type(self), "SPEND_AT_ONCE"))  # noqa: B009
        self._unbox_on = bool(getattr(type(self), "UNBOX"))  # noqa: B009
        self._open_gain = float(getattr(type(self), "OPEN_GAIN"))  # noqa: B009
        self._move_left = 1
        self._own_city_danger = float(getattr(type(self), "OWN_CITY_DANGER"))  # noqa: B009
        self._last_cash_pass = bool(getattr(type(self), "LAST_CASH_PASS"))  # noqa: B009
        self._joker_round = bool(getattr(type(self), "JOKER_ROUND"))  # noqa: B009
        self._hunt_mix = float(getattr(type(self), "HUNT_MIX"))  # noqa: B009
        self._plan_mix = float(getattr(type(self), "PLAN_MIX"))  # noqa: B009
        # public: search sets its own for the Jessah it wraps
        self.look_ahead = float(getattr(type(self), "AHEAD"))  # noqa: B009
        self._ahead_reach = int(getattr(type(self), "AHEAD_REACH"))  # noqa: B009
        self._leak_focus = 0
        self._w_radars: tuple[int, ...] = ()
        self._w_security = -1
        self._w_ann: tuple[tuple[int, int], ...] = ()
        self._w_belief = 0
        self._values_round = -1
        self._odds_round = -1
        # the chances to win and to tie of each token value, POW!'s last (_count_odds)
        self._odds_win: list[float] = []
        self._odds_tie: list[float] = []
        # the opponent's tokens not yet revealed this cycle, and whether her POW! is among them
        self._opp_unrevealed = 0
        self._opp_has_pow = False
        self._values: tuple[list[float], list[float]] = ([], [])
        # _half_values's: the value table and cards it was computed from, and its answer
        self._hv_src: list[float] | None = None
        self._hv_cards: tuple[int, ...] = ()
        self._hv: tuple[list[float], list[float], list[float]] = ([], [], [])
        # kind -> the class's handler, looked up once (search's rollouts ask
        # the expert ~80 questions a game; a subclass's override is what is
        # found). Unbound, so that a copy of the player calls its own.
        self._handlers: dict[str, Any] = {}
        # Jessah's hunt weighs each city of the belief by a probability over
        # where Angela is: her dossier's, refreshed before each of her
        # decisions; None: every belief city counts 1.
        self.hunt_weights: list[float] | None = None
        self._particles = int(self.params.get("dossier", defaults["dossier"]))
        self.dossier: Dossier | None = None

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        self._values_round = -1
        self._odds_round = -1
        self._order_round = -1
        self._leak_focus = 0
        self._w_radars = ()
        self._w_security = -1
        self._w_ann = ()
        self._w_belief = 0
        self.hunt_weights = None
        if seat != ANGELA and self._particles > 0:
            if self.dossier is None:
                model: dict[str, float] = getattr(type(self), "DOSSIER_MODEL")  # noqa: B009
                self.dossier = Dossier(particles=self._particles, **model)
            # Its own stream, seeded from the seat's without drawing from it,
            # so the rest of her play draws what it drew without a dossier.
            self.dossier.reset(_dossier.stream_from("dossier", rng))
        else:
            self.dossier = None

    def reads_history(self) -> bool:
        # The dossier reads the public history; a subclass that does not say
        # otherwise may read it too (Strategy.reads_history).
        return self.dossier is not None or super().reads_history()

    def copy_memory_from(self, other: Expert) -> None:
        """Take ``other``'s memory of the game so far (what it read from the
        views it was handed, and its once-a-round caches), not its stream:
        a player continuing a game ``other`` has played, e.g. a search
        player's rollouts, then plays as ``other`` would. Only between two
        players of the same seat: the memory is that seat's knowledge. The
        dossier is not copied: a rollout player hunts on the bare set, since
        a dossier of its own would cost several times the rollout (search's
        ``rollout_dossier`` gives its rollouts' Jessah a smaller clone)."""
        self._leak_focus = other._leak_focus
        self._w_radars = other._w_radars
        self._w_security = other._w_security
        self._w_ann = other._w_ann
        self._w_belief = other._w_belief
        self._values_round = other._values_round
        self._values = other._values
        self._order_round = other._order_round
        self._order_ctx = other._order_ctx
        self._odds_round = other._odds_round
        self._odds_win = other._odds_win
        self._odds_tie = other._odds_tie
        self._opp_unrevealed = other._opp_unrevealed
        self._opp_has_pow = other._opp_has_pow

    def choose(self, view: View, decision: Decision) -> Option:
        if view is not None and view.seat != ANGELA:
            self._watch(view)
            if self.dossier is not None:
                # every view, so that no public event is missed
                self.hunt_weights = self.dossier.observe(view)
        # The frequent kinds by native method calls (compiled, a call through
        # the class's table: a subclass's override is what runs), not through
        # a handler object and its argument parsing; the rest by the class's
        # handler, looked up once.
        kind = decision.kind
        if kind == "place_token":
            return self.on_place_token(view, decision)
        if kind == "angela_move":
            return self.on_angela_move(view, decision)
        if kind == "jessah_move":
            return self.on_jessah_move(view, decision)
        if kind == "jessah_security":
            return self.on_jessah_security(view, decision)
        if kind == "angela_security":
            return self.on_angela_security(view, decision)
        if kind == "check":
            return self.on_check(view, decision)
        handler = self._handlers.get(kind)
        if handler is None:
            handler = getattr(type(self), "on_" + kind, None) or type(self).default
            self._handlers[kind] = handler
        return handler(self, view, decision)

    def _watch(self, view: View) -> None:
        """Jessah's reading of the leaks between two of her decisions: a white
        radar gone with security spent and no announcement of it puts Angela
        on its continent or next to it (the focus, weighed LEAK times); after
        she moves the focus spreads one step, and inspections thin it."""
        belief = view.belief
        focus = self._leak_focus
        moved = bool(belief & ~self._w_belief) or view.last_announcement != self._w_ann
        if focus:
            if moved:
                focus = expand(focus, self._b(view).open_masks(view.barriers))
            focus &= belief
        if 0 <= view.security < self._w_security:
            fresh = view.last_announcement != self._w_ann
            b = self._b(view)
            for k, r in enumerate(self._w_radars):
                if r == 1 and not view.radars[k] and not (fresh and any(t[0] == k for t in view.last_announcement)):
                    near = expand(b.cont_mask[k], b.nbr_mask) & belief
                    if near:
                        focus = near
        self._leak_focus = 0 if focus == belief else focus
        self._w_radars = view.radars
        self._w_security = view.security
        self._w_ann = view.last_announcement
        self._w_belief = belief

    # ------------------------------------------------------------- shared

    @staticmethod
    def _b(view: View) -> Board:
        # A game's views all hold one component set: the board asked for
        # last is kept, so a decision reads it without board_for's dict of
        # boxed ids (one lookup and an int made per call).
        comps = view.comps
        last = _LAST_BOARD
        b = last.board
        if b is None or b.comps is not comps:
            b = board_for(comps)
            last.board = b
        return b

    def on_check(self, view: View, decision: Decision[CheckOption]) -> CheckOption:
        # Angela wants colours; Jessah takes checks out of Angela's reach and
        # may cash them for upgrades.
        return "draw"

    def on_start(self, view: View, decision: Decision[StartOption]) -> StartOption:
        b = self._b(view)
        if view.seat != ANGELA:
            # A central post, showing the check whose colour is the least
            # useful to keep; ties: the lowest (check, city).
            post = decision.options[0]
            for o in decision.options:
                c_o = b.centrality[o[1]]
                c_p = b.centrality[post[1]]
                v_o = b.check_value[o[0]]
                v_p = b.check_value[post[0]]
                if c_o < c_p or (c_o == c_p and (v_o > v_p or (v_o == v_p and (
                        o[0] < post[0] or (o[0] == post[0] and o[1] < post[1]))))):
                    post = o
            return post
        best, best_key = decision.options[0], None
        # her cashes' distances by the check shown (the options pair each with many cities)
        dists: dict[int, tuple[int, ...]] = {}
        for chk, city in decision.options:
            dm = dists.get(chk)
            if dm is None:
                dm = dists[chk] = b.dist_to_mask(b.cash_targets(view.hand, shown=chk))
            d = dm[city]
            dj = b.dist[view.jessah_city][city]
            radar = 1.5 if view.radars[b.cont[city]] else 0.0
            score = -1.0 * min(d, 4) + 0.6 * min(dj, 4) - radar - 0.3 * (b.check_value[chk] > 100_000)
            key = (score, -chk, -city)
            if best_key is None or key > best_key:
                best, best_key = (chk, city), key
        return best

    def on_setup_radar(self, view: View, decision: Decision[Continent]) -> Continent:
        # Angela's start continent is one of her checks' colours; the big,
        # central continents hold most of her options.
        b = self._b(view)
        # the continents' keys depend on the map only: kept with the board
        keys = b.memo.get("setup_radar")
        if keys is None:
            keys = b.remember("setup_radar", tuple(
                (b.cont_mask[k].bit_count(), -sum(b.centrality[c] for c in cont.cities), -k)
                for k, cont in enumerate(view.comps.continents)))
        best = decision.options[0]
        for k in decision.options:
            if keys[k] > keys[best]:
                best = k
        return best

    # ------------------------------------------------------------- tokens

    def _angela_targets(self, view: View, b: Board) -> int:
        m = 0
        for c in view.hand:
            m |= b.cont_mask[b.check_cont[c]]
        return m

    def _angela_half_values(self, view: View, b: Board) -> dict[tuple[int, int], float]:
        """Angela's value of each (action, icons) this round, from her view."""
        return _table_dict(self._angela_half_table(view, b))

    def _angela_half_table(self, view: View, b: Board) -> list[float]:
        """_angela_half_values's as a value table (by action * 4 + icons)."""
        here = view.angela_city
        hand = view.hand
        targets = self._angela_targets(view, b)
        here_cont = b.cont[here]
        rules = view.rules
        need = rules.money_target - view.cash_total[ANGELA]
        can_cash = False
        win_now = False
        for c in hand:
            if b.check_cont[c] == here_cont:
                can_cash = True
                if b.check_value[c] >= need:
                    win_now = True
        # her steps to a cash over open routes, capped at 3 (all the table
        # reads: no movement of a round goes farther), by expanding from her
        # city rather than every city's distance
        d_open = 3
        if targets:
            om = b.open_masks(view.barriers)
            w = 1 << here
            for d in range(3):
                if w & targets:
                    d_open = d
                    break
                w = expand(w, om)
        dj = b.dist[view.jessah_city][here]
        threat = _PROXIMITY[dj] if dj < len(_PROXIMITY) else 0.0
        t = [0.0] * 20
        bank = (12.0 if win_now else 3.0) if can_cash else (1.2 if d_open <= 2 else 0.2)
        t[BANK * 4 + 1] = bank
        room = rules.hand_limit - len(hand)
        check_w = 1.0 if (not hand or d_open >= 3) else 0.35
        security_w = 0.1 if view.security >= rules.security_cap else 0.25
        for n in range(1, 4):
            if can_cash:
                mv = 0.3 * n + 1.5 * threat * n
            elif targets:
                mv = 1.0 * min(n, d_open) + 0.2 + 1.2 * threat
            else:
                mv = 0.4 * n + 1.2 * threat
            t[MOVEMENT * 4 + n] = mv
            t[CHECK * 4 + n] = 0.0 if room <= 0 else check_w * min(n, room)
            t[SECURITY * 4 + n] = security_w * n
        t[JOKER * 4 + 1] = _best_of(bank, t[MOVEMENT * 4 + 1], t[CHECK * 4 + 1], t[SECURITY * 4 + 1])
        return t

    def _jessah_half_values(self, view: View, b: Board, angela_city: int) -> dict[tuple[int, int], float]:
        """Jessah's value of each (action, icons). ``angela_city`` >= 0 when the
        caller (Angela) knows where she is; otherwise the belief is used."""
        return _table_dict(self._jessah_half_table(view, b, angela_city))

    def _jessah_half_table(self, view: View, b: Board, angela_city: int) -> list[float]:
        """_jessah_half_values's as a value table (by action * 4 + icons)."""
        here = view.jessah_city
        jet = 1 if "private_jet" in view.permanents else 0
        cap_w = 6.0 if len(view.identities_up) == 0 else 4.0
        t = [0.0] * 20
        d = b.dist[here][angela_city] if angela_city >= 0 else 0
        root = _ROOTS[min(view.belief.bit_count(), 4)] if angela_city >= 0 else 1.0
        for n in range(1, 4):
            steps = n + jet
            if angela_city >= 0:
                p = 1.0 if d <= steps else 0.0
                p /= root
            else:
                p = self._capture_bound(view, b, steps)
            t[MOVEMENT * 4 + n] = cap_w * p + 0.35 * steps
        rules = view.rules
        security_w = 0.55 if view.radar_supply + view.barrier_supply else 0.25
        room = rules.hand_limit - view.hand_sizes[1]
        deck = view.check_deck_size
        for n in range(1, 3):
            t[SECURITY * 4 + n] = security_w * n
            t[CHECK * 4 + n] = 0.3 * min(n, room) if deck else 0.0
        t[SECURITY * 4 + 3] = 0.5 * 3
        t[CHECK * 4 + 3] = 0.3 * 3
        if view.seat != ANGELA:
            # the best of her checks cashable here (0.0: none)
            upgrade_value = rules.upgrade_check_value
            here_cont = b.cont[here]
            bank = 0.0
            for c in view.hand:
                if b.check_cont[c] == here_cont:
                    x = 1.6 if b.check_value[c] == upgrade_value else 0.8
                    if x > bank:
                        bank = x
        else:
            bank = 0.2  # Angela does not know Jessah's hand
        t[BANK * 4 + 1] = bank
        t[JOKER * 4 + 1] = _best_of(bank, t[MOVEMENT * 4 + 1], t[SECURITY * 4 + 1], t[CHECK * 4 + 1])
        return t

    @staticmethod
    def _generic_angela_values() -> dict[tuple[int, int], float]:
        """What Jessah assumes a half is worth to Angela (her hand is hidden)."""
        return _table_dict(list(_GENERIC_ANGELA))

    def _placement_values(self, view: View, b: Board) -> tuple[list[float], list[float]]:
        """(mine, theirs): the value tables of the halves to each side this
        round (by action * 4 + icons). Nothing is resolved while tokens are
        placed, so they are computed once per round."""
        if self._values_round == view.round:
            return self._values
        if view.seat == ANGELA:
            mine = self._angela_half_table(view, b)
            theirs = self._jessah_half_table(view, b, view.angela_city)
        else:
            mine = self._jessah_half_table(view, b, -1)
            theirs = list(_GENERIC_ANGELA)
        self._values_round = view.round
        self._values = (mine, theirs)
        return self._values

    def _odds(self, view: View) -> dict[int, tuple[float, float, int]]:
        """Per token value: (chance to win, chance to tie, strength) against a
        token the opponent has not revealed yet (spent tokens are public).
        Nothing is revealed while tokens are placed: once per round."""
        if self._odds_round != view.round:
            self._count_odds(view)
        win = self._odds_win
        tie = self._odds_tie
        pow_j = len(win) - 1
        odds: dict[int, tuple[float, float, int]] = {}
        for v in view.comps.tokens:
            j = pow_j if v == POW else v
            odds[v] = (win[j], tie[j], 6 if v == POW else v)
        return odds

    def _count_odds(self, view: View) -> None:
        """_odds's chances for this round, as lists by token value (POW!'s
        last), from how many of the opponent's unrevealed tokens have each
        value: her set less the tokens she has spent this cycle (as
        View.opponent_tokens_left). Remembered by the tokens spent, in
        order of value (the counts do not depend on the order they came in),
        for the token set they were counted on: the same few come back in
        every game, to both seats."""
        tokens = view.comps.tokens
        key = tuple(sorted(view.spent[1 - view.seat]))
        odds = _ODDS
        if tokens is not odds.tokens or len(odds.memo) >= 4096:
            odds.tokens = tokens
            odds.memo = {}
        got = odds.memo.get(key)
        if got is None:
            got = odds.memo[key] = _token_odds(tokens, key)
        self._odds_round = view.round
        self._odds_win, self._odds_tie, self._opp_unrevealed, self._opp_has_pow = got

    def _half_values(self, view: View, b: Board) -> tuple[list[float], list[float], list[float]]:
        """Per half of this round's cards (card * 2 + half): my value of it, my
        value of the card's other half, and the opponent's value of it. The
        cards and the values hold for the whole round: computed once for them."""
        mine, theirs = self._placement_values(view, b)
        cards = view.cards
        # by identity of the table (mypyc hands a fixed-size tuple back as a new object)
        if self._hv_src is mine and self._hv_cards == cards:
            return self._hv
        # The tables' float objects are shared, not read as doubles and boxed
        # again (typed Any, compiled code copies the references).
        my_t: list[Any] = mine
        their_t: list[Any] = theirs
        zero: Any = 0.0
        m_h: list[Any] = []
        m_o: list[Any] = []
        o_h: list[Any] = []
        halves = b.halves
        for c in cards:
            card = halves[c]
            k0 = _half_index(card[0])
            k1 = _half_index(card[1])
            v0 = my_t[k0] if k0 >= 0 else zero
            v1 = my_t[k1] if k1 >= 0 else zero
            m_h.append(v0)
            m_o.append(v1)
            o_h.append(their_t[k0] if k0 >= 0 else zero)
            m_h.append(v1)
            m_o.append(v0)
            o_h.append(their_t[k1] if k1 >= 0 else zero)
        self._hv_src = mine
        self._hv_cards = cards
        self._hv = (m_h, m_o, o_h)
        return self._hv

    @staticmethod
    def _denial_stakes(slots: tuple[tuple[tuple[int, int] | None, ...], ...], me: int, m_h: list[float],
                       m_o: list[float], o_h: list[float]) -> float:
        """The most the opponent's POW! takes by denying one of my placed
        tokens whose card's other half is free: she performs both halves
        (R2, R3) and I perform nothing."""
        top = 0.0
        for i, row in enumerate(slots):
            for half in range(2):
                x = row[half]
                if x is not None and x[0] == me and row[1 - half] is None:
                    k = 2 * i + half
                    g = m_h[k] + m_o[k] + o_h[k] + o_h[k ^ 1]
                    if g > top:
                        top = g
        return top

    @staticmethod
    def _opponent_room(slots: tuple[tuple[tuple[int, int] | None, ...], ...], me: int,
                       o_h: list[float]) -> tuple[int, int, float, float, int]:
        """(her tokens placed this round, the cards she is not on, and of the
        cards nobody is on her two best pairs of halves and the card of the
        best): a POW! there is her alternative to a denial."""
        placed_opp = 0
        opp_free_cards = 0
        alt1 = 0.0
        alt2 = 0.0
        alt_card = -1
        for i, row in enumerate(slots):
            there = 0
            for x in row:
                if x is not None and x[0] != me:
                    there += 1
            placed_opp += there
            if not there:
                opp_free_cards += 1
                if row[0] is None and row[1] is None:
                    pair = o_h[2 * i] + o_h[2 * i + 1]
                    if pair > alt1:
                        alt1, alt2, alt_card = pair, alt1, i
                    elif pair > alt2:
                        alt2 = pair
        return placed_opp, opp_free_cards, alt1, alt2, alt_card

    def on_place_token(self, view: View, decision: Decision[TokenPlacement]) -> TokenPlacement:
        b = self._b(view)
        me = view.seat
        m_h, m_o, o_h = self._bid_values(view, b)
        # Opponent placements still to come this round, and the cards they may use.
        slots = view.slots
        placed_opp, opp_free_cards, alt1, alt2, alt_card = self._opponent_room(slots, me, o_h)
        opp_left = view.rules.tokens_per_round - placed_opp
        q = min(1.0, opp_left / opp_free_cards) * self._contest if opp_free_cards else 0.0
        not_q = 1 - q
        if self._odds_round != view.round:
            self._count_odds(view)
        win = self._odds_win
        tie = self._odds_tie
        pow_j = len(win) - 1
        cost = self._token_cost
        # Her POW!: the chance it is one of the tokens she has still to place
        # (any of her unrevealed tokens is as likely to be it), and the chance
        # her token already facing a half is it.
        n_opp = max(1, self._opp_unrevealed)
        pow_left = min(1.0, opp_left / n_opp) if self._opp_has_pow else 0.0
        pow_facing = 1.0 / n_opp if self._opp_has_pow else 0.0
        threat = pow_left * self._deny
        # What my POW! takes from her half, counted where her values are known:
        # Angela knows what a half is worth to Jessah (her city and the
        # belief are public, R24); Jessah's values for Angela are generic
        # (Angela's hand and city are hidden): an agent counting them won
        # 1.8 points [-3.3, -0.3] fewer of the forger's games than the
        # bidding without denial (4,000 paired games, master seed 31).
        use = 1.0 if me == ANGELA else 0.0
        exposed = self._denial_stakes(slots, me, m_h, m_o, o_h) if threat > 0.0 else 0.0
        # The score of a token on a free half (card * 2 + half) is
        # a + bw * p_win + ct * p_tie - cost * strength, less what her POW!
        # facing it would take. The options come by half, each half's tokens
        # together: a half's terms are read once for them.
        options = decision.options
        best = 0  # the best option's position in the options
        best_s = -1e18
        best_st = 0
        best_i = 0
        best_half = 0
        cur = -1
        mh = mo = oh = oo = 0.0
        faced = False
        denied = False
        for n, opt in enumerate(options):
            v, i, half = opt
            k = 2 * i + half
            if k != cur:
                cur = k
                mh = m_h[k]
                mo = m_o[k]
                oh = o_h[k]
                oo = o_h[k ^ 1]
                faced = slots[i][1 - half] is not None  # the opponent is already there
                # her best reply: her POW! where it takes most, facing this
                # half's token if it takes more than facing another of mine
                # or than her POW! on her best other free card
                stakes = mh + mo + oh + oo
                denied = (not faced and threat > 0.0 and stakes >= exposed
                          and stakes >= (alt2 if alt_card == i else alt1))
            j = pow_j if v == POW else v
            p_win = win[j]
            p_tie = tie[j]
            strength = 6 if v == POW else v
            if faced:
                if v == POW:  # R2: her token is cancelled unless it is her POW! too
                    score = mh + (mo + oh + use * oo) * p_win + oh * p_tie
                else:  # her POW! there cancels mine
                    score = mh * (1.0 - pow_facing) + (mo + oh) * p_win + oh * p_tie
            else:
                score = mh + mo * not_q + mo * q * p_win
                if denied and v != POW:
                    score -= threat * (score + oh)
            score -= cost * strength
            # ties: the weakest token, then the earliest card and half
            if score > best_s or (score == best_s and (
                    strength < best_st or (strength == best_st and (i < best_i or (i == best_i and half < best_half))))):
                best = n
                best_s = score
                best_st = strength
                best_i = i
                best_half = half
        return options[best]

    def _bid_values(self, view: View, b: Board) -> tuple[list[float], list[float], list[float]]:
        """_half_values's, with the forger's Bank halves valued where she
        performs them (BID_ORDER)."""
        m_h, m_o, o_h = self._half_values(view, b)
        if view.seat == ANGELA and self._bid_order:
            m_h, m_o = self._angela_ordered(view, b, m_h, m_o)
        return m_h, m_o, o_h

    def _angela_ordered(self, view: View, b: Board, m_h: list[float],
                        m_o: list[float]) -> tuple[list[float], list[float]]:
        """``m_h`` and ``m_o`` (her value of each half and of its card's other
        half) with every Bank half valued where she performs it: on the half
        she is on (first) or after the other half (R1, R3)."""
        if self._order_round != view.round:
            self._order_round = view.round
            self._order_ctx = self._bank_reach(view, b)
        cash_here, early, after_move1, after_move2, after_move3, after_check1, after_check2 = self._order_ctx
        if cash_here:  # a Bank half is her cash wherever she performs it
            return self._spare_banks(view, b, m_h, m_o) if self._bank_spare else (m_h, m_o)
        bank = self._values[0][BANK * 4 + 1]
        h = m_h
        o = m_o
        copied = False
        moved = False  # a token of hers on an earlier card with a Movement or Joker half
        halves = b.halves
        slots = view.slots
        for i, c in enumerate(view.cards):
            card = halves[c]
            a0 = card[0][0]
            a1 = card[1][0]
            if a0 == BANK or a1 == BANK:
                if not copied:
                    h = list(m_h)
                    o = list(m_o)
                    copied = True
                for half in range(2):
                    a, n = card[half]
                    k = 2 * i + half
                    base = bank if moved else early
                    if a == BANK:
                        h[k] = base
                    elif a == MOVEMENT or a == JOKER:
                        steps = n if a == MOVEMENT else 1
                        o[k] = max(base, after_move1 if steps <= 1 else after_move2 if steps == 2 else after_move3)
                    elif a == CHECK:
                        p = after_check1 if n <= 1 else after_check2
                        o[k] = p * 3.0 + (1.0 - p) * base
                    else:
                        o[k] = base
            if a0 == MOVEMENT or a0 == JOKER or a1 == MOVEMENT or a1 == JOKER:
                for x in slots[i]:
                    if x is not None and x[0] == ANGELA:
                        moved = True
        return h, o

    def _spare_banks(self, view: View, b: Board, m_h: list[float],
                     m_o: list[float]) -> tuple[list[float], list[float]]:
        """With a check of her hand cashable in her city (BANK_SPARE): once
        her tokens sit on as many Bank halves as she has such checks, each
        free Bank half is worth BANK_EARLY (a Bank cashes one check, rulebook
        Bank) and each Joker half its best other action (R4). A check that
        wins the game keeps every Bank half at its value."""
        n_cash = self._cashable_here(view, b)
        if n_cash < 0:
            return m_h, m_o
        halves = b.halves
        cards = view.cards
        on_bank = 0
        for i, row in enumerate(view.slots):
            for half in range(2):
                x = row[half]
                if x is not None and x[0] == ANGELA and halves[cards[i]][half][0] == BANK:
                    on_bank += 1
        if on_bank < n_cash:
            return m_h, m_o
        vals = self._values[0]
        spare = min(vals[BANK * 4 + 1], self._bank_early)
        joker = _best_of(spare, vals[MOVEMENT * 4 + 1], vals[CHECK * 4 + 1], vals[SECURITY * 4 + 1])
        h = list(m_h)
        o = list(m_o)
        for i, c in enumerate(cards):
            card = halves[c]
            for half in range(2):
                a = card[half][0]
                if a == BANK or a == JOKER:
                    v = spare if a == BANK else joker
                    h[2 * i + half] = v
                    o[2 * i + 1 - half] = v
        return h, o

    def _bank_reach(self, view: View, b: Board) -> tuple[bool, float, float, float, float, float, float]:
        """For the round's bids (her hand, city and the barriers hold while
        tokens are placed): whether a check of her hand cashes in her city;
        a Bank half's value before anything that helps (BANK_EARLY, at most
        her Bank value); after a movement of 1, 2, 3 steps (her best cash
        within reach: 12 if it wins, 3 otherwise; 0 out of reach); the
        chance that a Check of 1 or 2 draws one of her city's colour."""
        here = view.angela_city
        here_cont = b.cont[here]
        need = view.rules.money_target - view.cash_total[ANGELA]
        cash_here = False
        reach = [0.0, 0.0, 0.0, 0.0]
        # w0 to w3: the cities within 0 to 3 steps of hers over routes
        # without a barrier; a check's way is the first d whose cities it
        # cashes in (4: farther, where no movement of this round reaches)
        om = b.open_masks(view.barriers)
        w0 = 1 << here
        w1 = expand(w0, om)
        w2 = expand(w1, om)
        w3 = expand(w2, om)
        for c in view.hand:
            if b.check_cont[c] == here_cont:
                cash_here = True
            m = b.check_mask[c]
            d = 0 if m & w0 else 1 if m & w1 else 2 if m & w2 else 3 if m & w3 else 4
            v = 12.0 if b.check_value[c] >= need else 3.0
            for steps in range(max(1, d), 4):
                if v > reach[steps]:
                    reach[steps] = v
        early = min(self._values[0][BANK * 4 + 1], self._bank_early)
        room = view.rules.hand_limit - len(view.hand)
        same = 0
        for k in b.check_cont:
            if k == here_cont:
                same += 1
        f = same / max(1, len(b.check_cont))
        p1 = 1.0 - (1.0 - f) ** min(1, room) if room > 0 else 0.0
        p2 = 1.0 - (1.0 - f) ** min(2, room) if room > 0 else 0.0
        return cash_here, early, reach[1], reach[2], reach[3], p1, p2

    # ------------------------------------------------------------ Jessah

    @staticmethod
    def _capture_bound(view: View, b: Board, steps: int) -> float:
        """A quick estimate of the capture chance for bidding: a movement of
        ``steps`` steps inspects at most ``steps`` cities (an inspection on
        the spot is a step too), all of them within ``steps`` of her."""
        belief = view.belief
        size = belief.bit_count()
        if not size:
            return 0.0
        ball = b.ball[view.jessah_city]
        near = (belief & ball[min(steps, len(ball) - 1)]).bit_count()
        return min(near, steps) / size

    def _capture_chance(self, view: View, b: Board, steps: int) -> float:
        """Best chance of a capture within ``steps`` steps from Jessah's city
        (uniform over the belief)."""
        return self._best_path(view, b, view.jessah_city, steps)[0]

    def _best_path(self, view: View, b: Board, start: int, steps: int) -> tuple[float, int, tuple[int, ...]]:
        """(capture chance, first step, near-equal first steps) of the best
        inspection path; a first step is a city, or -1 for "inspect here", or
        -2 when nothing is in reach. The chance weighs the leak's focus."""
        belief = view.belief
        weights = self.hunt_weights
        if weights is not None and view.seat != ANGELA:
            om = b.open_masks(view.barriers) if self.look_ahead > 0 else ()
            core = _dossier.core  # with the compiled build, _weighted_path in C (its twin)
            if core is not None and _dossier._tables(b):
                got = core.hunt(_dossier._tables(b), belief, start, steps, weights, self._hunt_mix, self.look_ahead,
                                self._ahead_reach, om)
                if got is not None:
                    return got  # type: ignore[no-any-return]
            return self._weighted_path(b, belief, start, steps, weights, self._hunt_mix, self.look_ahead,
                                       self._ahead_reach, om)
        focus = self._leak_focus & belief if view.seat != ANGELA else 0
        extra = self._leak_ratio - 1.0 if focus else 0.0
        key = (belief, start, steps, focus, extra, self._hunt_mix)
        # The answer depends on the map only, so it is shared by every game
        # (the same beliefs come back: a continent, a revealed city, ...).
        memo = b.memo
        got = memo.get(key)
        if got is None:
            got = b.remember(key, self._search_path(b, belief, start, steps, focus, extra, self._hunt_mix))
        return got  # type: ignore[no-any-return]

    @staticmethod
    def _search_path(b: Board, belief: int, start: int, steps: int, focus: int = 0, extra: float = 0.0,
                     mix: float = 0.0) -> tuple[float, int, tuple[int, ...]]:
        size = belief.bit_count()
        if size == 0 or steps <= 0:
            return 0.0, -2, ()
        # Nothing to find within reach: skip the search.
        ball = b.ball[start]
        if not belief & ball[min(steps, len(ball) - 1)]:
            return 0.0, -2, ()
        nbr = b.nbr
        # Where she may be after her next movement: ties between paths that
        # inspect as many belief cities go to the one ending closest to it.
        spread = expand(belief, b.nbr_mask)
        scale = 0.01 / spread.bit_count()
        md: dict[int, float] = {}

        def pos(c: int) -> float:
            v = md.get(c)
            if v is None:
                v = md[c] = scale * b.dist_sum(c, spread)
            return v

        best_s = 0.0
        best_first = -2
        best_got = 0.0
        by_first: dict[int, float] = {}
        # DFS over paths; value = number of distinct belief cities inspected
        # (a city of the focus counts 1 + extra).
        balls = b.ball
        stack: list[tuple[int, int, int, int]] = [(start, 0, 0, -3)]
        while stack:
            city, seen, depth, first = stack.pop()
            if depth == steps:
                continue
            # inspect here (only useful as a first step, before moving on)
            if depth == 0 and belief >> city & 1:
                s2 = seen | (1 << city)
                got = (s2 & belief).bit_count() + extra * (s2 & focus).bit_count()
                sc = got - pos(city)
                if sc > by_first.get(-1, 0.0):
                    by_first[-1] = sc
                if sc > best_s:
                    best_s, best_first, best_got = sc, -1, got
                stack.append((city, s2, depth + 1, -1))
            more = steps - depth - 1  # steps left after the next one
            for nx in nbr[city]:
                s2 = seen | (1 << nx)
                got = (s2 & belief).bit_count() + extra * (s2 & focus).bit_count()
                f = nx if first == -3 else first
                if got:
                    sc = got - pos(nx)
                    if sc > by_first.get(f, 0.0):
                        by_first[f] = sc
                    if sc > best_s:
                        best_s, best_first, best_got = sc, f, got
                # go on only if a city not yet inspected is still in reach
                if more and belief & ~s2 & balls[nx][min(more, len(balls[nx]) - 1)]:
                    stack.append((nx, s2, depth + 1, f))
        alts = tuple(sorted(f for f, sc in by_first.items() if sc >= best_s - mix)) if mix > 0 else ()
        return best_got / (size + extra * focus.bit_count()), best_first, alts

    @staticmethod
    def _weighted_path(b: Board, belief: int, start: int, steps: int, weights: list[float], mix: float,
                       ahead: float = 0.0, reach: int = 2,
                       open_masks: Sequence[int] = ()) -> tuple[float, int, tuple[int, ...]]:
        """:meth:`_search_path` with city ``c`` of the belief worth
        ``weights[c]`` (a probability) instead of 1: the chance is the
        probability mass the path inspects.

        With ``ahead`` > 0 it looks one movement of Angela's ahead: a path
        scores the mass it inspects plus ``ahead`` times the mass left
        unfound times the mass within ``reach`` steps of where it ends once
        Angela has moved again (each city's mass spread evenly over it and
        its neighbours in ``open_masks``), and goes on past its last find so
        that its end can be chosen: a hunt that, failing now, leaves her close
        to where the forger will be. With 0, the nearest end breaks ties."""
        size = belief.bit_count()
        ball = b.ball[start]
        if size == 0 or steps <= 0 or not belief & ball[min(steps, len(ball) - 1)]:
            return 0.0, -2, ()
        total = _mass(belief, weights)
        if total <= 0.0:
            return 0.0, -2, ()
        n = b.n
        # On the scale of _search_path's counts: mean 1 over the belief.
        wn = [weights[c] * size / total if belief >> c & 1 else 0.0 for c in range(n)]
        look = ahead > 0.0
        after = [0.0] * n  # with look: the mass once she has moved again
        near = [-1.0] * n  # with look, per end city: the mass of ``after`` within reach
        spread = 0
        scale = 0.0
        if look:
            _spread_move(after, belief, wn, open_masks)
        else:
            spread = expand(belief, b.nbr_mask)
            scale = 0.01 / spread.bit_count()
        best_s, best_first, best_got = 0.0, -2, 0.0
        by_first: dict[int, float] = {}
        stack: list[tuple[int, int, int, int, float]] = [(start, 0, 0, -3, 0.0)]
        nbr = b.nbr
        balls = b.ball
        while stack:
            city, seen, depth, first, got0 = stack.pop()
            if depth == steps:
                continue
            nbrs = nbr[city]
            more = steps - depth - 1
            # k = -1: inspect where she stands, as a first step only; then
            # each neighbour in turn (no list of moves per node)
            k = -1 if depth == 0 and belief >> city & 1 else 0
            while k < len(nbrs):
                if k < 0:
                    nx, f, here = city, -1, True
                else:
                    nx = nbrs[k]
                    f = nx if first == -3 else first
                    here = False
                k += 1
                s2 = seen | (1 << nx)
                got = got0 if seen >> nx & 1 else got0 + wn[nx]
                if got:
                    if look:
                        v = near[nx]
                        if v < 0.0:
                            v = near[nx] = _mass_within(balls[nx], reach, after)
                        sc = got + ahead * (size - got) / size * v
                    else:
                        sc = got - scale * b.dist_sum(nx, spread)
                    if sc > by_first.get(f, 0.0):
                        by_first[f] = sc
                    if sc > best_s:
                        best_s, best_first, best_got = sc, f, got
                # go on while she may still be found further on, or (looking
                # ahead) once some mass is found, since the end then counts
                if here or (more and ((look and got) or belief & ~s2 & balls[nx][min(more, len(balls[nx]) - 1)])):
                    stack.append((nx, s2, depth + 1, f, got))
        alts = tuple(sorted(f for f, sc in by_first.items() if sc >= best_s - mix)) if mix > 0 else ()
        return best_got / size, best_first, alts

    def on_jessah_move(self, view: View, decision: Decision[JessahMoveOption]) -> JessahMoveOption:
        b = self._b(view)
        left = decision.info.get("left", 1)
        p, first, alts = self._best_path(view, b, view.jessah_city, left)
        # A cautious agent holds a central post rather than chase a lead
        # thinner than 10% * (1 - risk)^2 (risk 1: she chases any lead).
        if p > 0 and p >= 0.1 * (1.0 - self.risk) ** 2:
            if len(alts) > 1:  # near-equal hunts: keep her unpredictable
                first = alts[self.rng.randrange(len(alts))]
            return "inspect" if first == -1 else ("move", first)
        belief = view.belief or (1 << view.jessah_city)
        # Close in on where Angela can be next: the belief one step on.
        grown = expand(belief, b.nbr_mask) if belief.bit_count() < 12 else belief
        n = grown.bit_count()
        here = view.jessah_city
        best: Option = "stop"
        best_d = b.dist_sum(here, grown) / n - 0.05
        for o in decision.options:
            if isinstance(o, tuple):
                d = b.dist_sum(o[1], grown) / n
                if d < best_d - 1e-9:
                    best, best_d = o, d
        return best

    def _best_radar(self, view: View, b: Board) -> tuple[int, float]:
        """The free continent where a radar scores best, and its score."""
        key = ("radar", view.belief, view.barriers, view.radars)
        got = b.memo.get(key)
        if got is None:
            nxt = self._likely_next(view, b)
            best, best_s = -1, -1.0
            for k in range(len(view.radars)):
                if not view.radars[k]:
                    sc = self._radar_score(view, b, k, nxt)
                    if sc > best_s:
                        best, best_s = k, sc
            got = b.remember(key, (best, best_s))
        return got  # type: ignore[no-any-return]

    def _likely_next(self, view: View, b: Board) -> int:
        """Cities Angela may stand in after her next movement (two steps)."""
        masks = b.open_masks(view.barriers)
        m = expand(view.belief, masks)
        return expand(m, masks)

    def _radar_score(self, view: View, b: Board, k: int, nxt: int) -> float:
        total = nxt.bit_count() or 1
        inside = (nxt & b.cont_mask[k]).bit_count()
        here = (view.belief & b.cont_mask[k]).bit_count()
        # A radar splits best when it covers about half of where she can go;
        # on the continent she stands on, any step she takes trips it.
        split = min(inside, total - inside) / total
        return 2.0 * split + 1.5 * here / max(1, view.belief.bit_count()) + 0.3 * inside / total

    def _barrier_scores(self, view: View, b: Board) -> list[float]:
        """How well a barrier on each route cuts the exits of the belief."""
        key = ("barriers", view.belief, view.barriers)
        got = b.memo.get(key)
        if got is None:
            got = b.remember(key, self._compute_barrier_scores(view, b))
        return got  # type: ignore[no-any-return]

    @staticmethod
    def _compute_barrier_scores(view: View, b: Board) -> list[float]:
        masks = b.open_masks(view.barriers)
        belief = view.belief
        near = expand(belief, b.nbr_mask)
        norm = max(1.0, belief.bit_count() ** 0.5)
        out = []
        cont = b.cont
        for x, y in b.route_ends:
            s = 0.0
            # from x to y, then from y to x
            if belief >> x & 1 and not belief >> y & 1:
                exits = masks[x].bit_count() or 1
                s += (1.0 + 0.5 * (cont[x] != cont[y])) / exits
            if belief >> y & 1 and not belief >> x & 1:
                exits = masks[y].bit_count() or 1
                s += (1.0 + 0.5 * (cont[y] != cont[x])) / exits
            if not s and (near >> x & 1 or near >> y & 1):
                s = 0.1
            out.append(s / norm)
        return out

    @staticmethod
    def _spread(w: list[float], masks: list[int], steps: int) -> list[float]:
        """``w`` after ``steps`` steps of a walker who stays or takes an open
        route, each with the same chance (``masks``: each city's open routes)."""
        cur = list(w)
        n = len(cur)
        for _ in range(steps):
            out = [0.0] * n
            for c in range(n):
                p = cur[c]
                if p > 0:
                    m = masks[c] | (1 << c)
                    share = p / m.bit_count()
                    while m:
                        low = m & -m
                        x = low.bit_length() - 1
                        out[x] = out[x] + share
                        m ^= low
            cur = out
        return cur

    def _weighted_radar(self, view: View, b: Board, w: list[float], masks: list[int]) -> tuple[int, float]:
        """:meth:`_best_radar` on the dossier's weights ``w``: the share of her
        weight two steps on that a radar's continent holds replaces the share
        of the cities she may reach, and the weight she has on it now the
        share of the belief's cities (``masks``: b.open_masks of the view's
        barriers)."""
        core = _dossier.core  # with the compiled build, _spread in C (its twin)
        got = core.spread(w, masks, 2) if core is not None else None
        nxt: list[float] = got if got is not None else self._spread(w, masks, 2)
        # each free continent's sums, its cities in order, in local floats
        radars = view.radars
        cont_mask = b.cont_mask
        best, best_s = -1, -1.0
        for k in range(len(radars)):
            if radars[k]:
                continue
            inside = 0.0
            on = 0.0
            m = cont_mask[k]
            while m:
                low = m & -m
                c = low.bit_length() - 1
                inside += nxt[c]
                on += w[c]
                m ^= low
            sc = 2.0 * min(inside, 1.0 - inside) + 1.5 * on + 0.3 * inside
            if sc > best_s:
                best, best_s = k, sc
        return best, best_s

    def _weighted_barriers(self, b: Board, w: list[float], masks: list[int]) -> list[float]:
        """:meth:`_compute_barrier_scores` on the dossier's weights ``w``: a
        route out of the belief scores SECURITY_WEIGHT x the weight of the
        city it leaves, over that city's open exits (half again across an
        ocean)."""
        cont = b.cont
        scale = self.SECURITY_WEIGHT
        held = 0  # the cities with weight, as a bitmask: most routes join two of them or none
        for c in range(len(w)):
            if w[c] > 0:
                held |= 1 << c
        out: list[float] = []
        for x, y in b.route_ends:
            hx = held >> x & 1
            if hx == held >> y & 1:
                out.append(0.0)
                continue
            s = 0.0
            if hx:
                s += w[x] * (1.0 + 0.5 * (cont[x] != cont[y])) / (masks[x].bit_count() or 1)
            else:
                s += w[y] * (1.0 + 0.5 * (cont[y] != cont[x])) / (masks[y].bit_count() or 1)
            out.append(scale * s)
        return out

    @staticmethod
    def _best_free(barriers: tuple[int, ...], scores: list[float]) -> int:
        """The free route with the best score, the lowest among equals (-1: none free)."""
        target = -1
        best = 0.0  # scores[target]
        for r in range(len(barriers)):
            if not barriers[r]:
                sc = scores[r]
                if target < 0 or sc > best:
                    target = r
                    best = sc
        return target

    def on_jessah_security(self, view: View, decision: Decision[JessahSecurityOption]) -> JessahSecurityOption:
        b = self._b(view)
        opts = decision.options
        best: Option = "pass"
        best_s = 0.02
        # the dossier's weights, when she places her security on them
        w = self.hunt_weights if self.SECURITY_WEIGHT > 0 else None
        if w is not None and not _total(w) > 0:
            w = None
        masks = b.open_masks(view.barriers) if w is not None else []
        if view.radar_supply:
            radar, s = self._weighted_radar(view, b, w, masks) if w is not None else self._best_radar(view, b)
            if radar >= 0 and s > best_s and ("radar", radar) in opts:
                best, best_s = ("radar", radar), s
        if w is not None:
            core = _dossier.core  # with the compiled build, _weighted_barriers in C (its twin)
            got = core.barriers(_dossier._tables(b), w, masks, len(b.route_ends), self.SECURITY_WEIGHT) \
                if core is not None and _dossier._tables(b) else None
            scores = got if got is not None else self._weighted_barriers(b, w, masks)
            target = self._best_free(view.barriers, scores)
        else:
            scores = self._barrier_scores(view, b)
            key = ("target", view.belief, view.barriers)
            got = b.memo.get(key)
            if got is None:
                got = b.remember(key, self._best_free(view.barriers, scores))
            target = got
        if target < 0:
            return best
        if view.barrier_supply:
            o = ("barrier", target)
            if scores[target] > best_s and o in opts:
                best, best_s = o, scores[target]
        else:
            placed = [r for r, x in enumerate(view.barriers) if x]
            # the lowest score, the lowest route among equals
            worst = placed[0]
            for r in placed:
                if scores[r] < scores[worst]:
                    worst = r
            o2 = ("move_barrier", worst, target)
            gain = scores[target] - scores[worst] - 0.1
            if gain > best_s and o2 in opts:
                best, best_s = o2, gain
        return best

    def on_black_radar(self, view: View, decision: Decision[Continent]) -> Continent:
        b = self._b(view)
        nxt = self._likely_next(view, b)
        return max(decision.options, key=lambda k: (self._radar_score(view, b, k, nxt), -k))

    def on_black_barrier(self, view: View, decision: Decision[Route]) -> Route:
        scores = self._barrier_scores(view, self._b(view))
        return max(decision.options, key=lambda r: (scores[r], -r))

    def on_informant(self, view: View, decision: Decision[City]) -> City:
        b = self._b(view)
        belief = view.belief
        size = belief.bit_count()

        def split(c: int) -> tuple[int, int]:
            near = (b.nbr_mask[c] | (1 << c)) & belief
            return (abs(2 * near.bit_count() - size), c)

        return min(decision.options, key=split)

    def _jessah_upgrade_value(self, view: View, b: Board, u: str) -> float:
        v = _UPGRADE_HELP.get(u, 1.0)
        size = view.belief.bit_count()
        if u == "rapid_response":
            v += 4.0 * self._capture_chance(view, b, 2)
        elif u == "informant":
            v += 1.5 if 3 <= size <= 16 else -1.0
        elif u == "satellite_sweep":
            conts = {b.cont[c] for c in bits(view.belief)}
            v += 1.5 if len(conts) > 1 else -1.5
        elif u == "wiretap":
            v += 0.5
        elif u == "frozen_accounts" and "frozen_accounts" in view.permanents:
            v = 0.0
        return v

    def _angela_upgrade_harm(self, view: View, b: Board, u: str) -> float:
        """How much handing Jessah ``u`` hurts Angela now (she knows her city)."""
        v = _UPGRADE_HELP.get(u, 1.0)
        here = view.angela_city
        dj = b.dist[view.jessah_city][here]
        size = view.belief.bit_count()
        if u == "rapid_response":
            v = 0.5 + (8.0 if dj <= 2 else 0.0)
        elif u == "informant":
            v = 0.3 if size <= 1 else 2.0
        elif u == "satellite_sweep":
            v = 0.2 if size <= 1 or len({b.cont[c] for c in bits(view.belief)}) == 1 else 2.0
        elif u == "roadblocks":
            v = 1.0 + (1.0 if size <= 3 else 0.0)
        elif u == "wiretap":
            v = 1.2
        elif u == "frozen_accounts":
            v = 2.0 if any(b.check_value[c] == view.rules.bonus_move_check_value for c in view.hand) else 1.5
        elif u == "bank_alert":
            v = 4.5 + (1.0 if dj <= 2 else 0.0)
        return v

    def on_upgrade(self, view: View, decision: Decision[UpgradeId]) -> UpgradeId:
        b = self._b(view)
        if view.seat == ANGELA:
            return min(decision.options, key=lambda u: (self._angela_upgrade_harm(view, b, u), u))
        return max(decision.options, key=lambda u: (self._jessah_upgrade_value(view, b, u), u))

    def on_joker(self, view: View, decision: Decision[JokerOption]) -> JokerOption:
        b = self._b(view)
        if view.seat == ANGELA:
            t = self._angela_half_table(view, b)  # a fresh table: changed here only
            if self._joker_round and self._joker_bank_spare(view, b):
                t[BANK * 4 + 1] = 0.0
        else:
            t = self._jessah_half_table(view, b, -1)
        # the first of the best, in this order (R4: a Joker is one icon of any action)
        best: JokerOption = "bank"
        top = t[BANK * 4 + 1]
        for a, name in _JOKER_ACTIONS:
            if t[a * 4 + 1] > top:
                best, top = name, t[a * 4 + 1]
        return best if best in decision.options else decision.options[0]

    @staticmethod
    def _cashable_here(view: View, b: Board) -> int:
        """The checks of the forger's hand a Bank in her city cashes (their
        colour is her city's, rulebook Bank), or -1 when one of them wins
        the game."""
        here_cont = b.cont[view.angela_city]
        need = view.rules.money_target - view.cash_total[ANGELA]
        n = 0
        for c in view.hand:
            if b.check_cont[c] == here_cont:
                if b.check_value[c] >= need:
                    return -1
                n += 1
        return n

    def _joker_bank_spare(self, view: View, b: Board) -> bool:
        """Whether the forger's Joker performed as a Bank now cashes nothing
        a later Bank of hers would not (JOKER_ROUND): no check of her hand
        has her city's colour, or no more do than the Bank halves she is
        sure to perform later this round before any movement of hers (her
        token on a Bank half nobody faces, or on the other half of a card
        whose Bank half is free; R1, R3). A check that wins the game is
        cashed at once."""
        cashable = self._cashable_here(view, b)
        if cashable < 0:
            return False
        if not cashable:
            return True
        halves = b.halves
        i = view.resolving
        if 0 <= i < len(view.cards):
            card = halves[view.cards[i]]
            for seat, half in view.performances[view.performed:]:
                if seat == ANGELA and card[half][0] in (MOVEMENT, JOKER):
                    return False
        banks = 0
        for j in range(max(0, i + 1), len(view.cards)):
            card = halves[view.cards[j]]
            row = view.slots[j]
            for half in (0, 1):
                x = row[half]
                if x is None or x[0] != ANGELA:
                    continue
                # her half, then the other when nobody faces her (her only token on the card, R1)
                mine = (card[half][0], card[1 - half][0]) if row[1 - half] is None else (card[half][0],)
                for a in mine:
                    if a == MOVEMENT or a == JOKER:
                        return banks >= cashable
                    if a == BANK and len(mine) == 2:
                        banks += 1
        return banks >= cashable

    def on_bank(self, view: View, decision: Decision[BankOption]) -> BankOption:
        # The best check by a loop (ties: the lowest id), not max() with a key
        # function and a tuple per check.
        b = self._b(view)
        cashable = [o for o in decision.options if isinstance(o, int)]
        best = cashable[0]
        if view.seat != ANGELA:
            # Jessah cashes for the effects: an upgrade of her choice, or a move.
            top = b.check_value[best]
            for c in cashable:
                val = b.check_value[c]
                if val > top or (val == top and c < best):
                    best, top = c, val
            return best
        need = view.rules.money_target - view.cash_total[ANGELA]
        for c in cashable:
            if b.check_value[c] >= need:
                return c
        here = view.angela_city
        dj = b.dist[view.jessah_city][here]
        last = not view.identities_up
        # Cashing reveals her city (LAST_CASH_PASS: not next to Jessah with no identity left).
        if self._last_cash_pass and last and dj <= 1 and self.risk < 0.9:
            return "pass"
        bonus = view.rules.bonus_move_check_value
        upgrade = view.rules.upgrade_check_value
        frozen = "frozen_accounts" in view.permanents
        near = _PROXIMITY[dj] if dj < len(_PROXIMITY) else 0.0
        top_s = 0.0
        for n, c in enumerate(cashable):
            val = b.check_value[c]
            s = val / 100_000 * (0.5 + self.greed)
            if val == bonus and not frozen:
                s += 1.5 * near + 0.2
            if val == upgrade:
                s -= 0.4
            if n == 0 or s > top_s or (s == top_s and c < best):
                best, top_s = c, s
        return best

    # ------------------------------------------------------------ Angela

    def on_angela_move(self, view: View, decision: Decision[AngelaMoveOption]) -> AngelaMoveOption:
        b = self._b(view)
        here = view.angela_city
        opts = decision.options
        targets = self._angela_targets(view, b)
        dt = self._way(view, b, targets) if targets else None
        # the steps of this movement, for _open_way (0: an escape, which keeps the barriers)
        self._move_left = 0 if decision.info.get("escape") else int(decision.info.get("left", 1))
        # Removals are offered only when she can pay for one (R11): without
        # the points neither spend below can find an option (nor draws).
        if view.security >= view.rules.security_removal_cost:
            spend = self._unbox(view, b, opts, dt)
            if spend is None:
                spend = self._radar_to_clear(opts)
            if spend is not None:
                return spend  # type: ignore[return-value]
        escape = bool(decision.info.get("escape"))
        if not escape and dt is not None and dt[here] == 0 and b.dist[view.jessah_city][here] >= len(_PROXIMITY):
            return "stop"  # where she can cash, out of Jessah's reach: the plan below says the same
        # Security: clear a barrier that lengthens the way to her cities.
        if not escape and dt is not None and view.security >= view.rules.security_removal_cost:
            free = b.dist_to_mask(targets)
            if dt[here] >= free[here] + 2 + self._cash_penalty(b, view.jessah_city, here) and dt[here] > 0:
                for o in opts:
                    if isinstance(o, tuple) and o[0] == "remove_barrier":
                        x, y = b.route_ends[o[1]]
                        if free[x] != free[y]:
                            return o
        best = self._plan_move(view, b, decision, dt, escape)
        # Clear a white radar rather than trip it, when that is affordable.
        if isinstance(best, tuple) and view.radars[b.cont[best[1]]] == 1:
            k = b.cont[best[1]]
            if ("remove_radar", k) in opts:
                return ("remove_radar", k)
        return best

    def _cash_penalty(self, b: Board, jessah: int, city: int) -> int:
        """Extra steps a cashing city is worth avoiding for: cashing reveals
        her city, so one next to Jessah is a trap."""
        return self._penalty_at(b.dist[jessah][city])

    def _penalty_at(self, d: int) -> int:
        """_cash_penalty of a city ``d`` steps from Jessah."""
        pen = 3 if d == 0 else 2 if d == 1 else 1 if d == 2 else 0
        return max(0, pen - (1 if self.risk >= 0.75 else 0))

    def _way(self, view: View, b: Board, targets: int, barriers: tuple[int, ...] | None = None) -> list[int]:
        """Per city, the steps (barriers closed: the board's, or ``barriers``)
        to the nearest city where she can cash, plus that city's cash penalty."""
        if barriers is None:
            barriers = view.barriers
        near_jessah = b.ball[view.jessah_city][2]
        if not targets & near_jessah:
            return _open_dist(b, targets, barriers)  # no penalty anywhere
        key = ("way", targets, b.barred(barriers), view.jessah_city, self.risk >= 0.75)
        memo = b.memo
        got = memo.get(key)
        if got is not None:
            return got  # type: ignore[no-any-return]
        starts = [0, 0, 0, 0]  # the targets by their penalty (at most 3)
        rings = b.ball[view.jessah_city]
        inner = 0
        for d in range(3):  # the targets d steps from Jessah, then those farther
            starts[self._penalty_at(d)] |= targets & rings[d] & ~inner
            inner = rings[d]
        starts[self._penalty_at(3)] |= targets & ~inner
        dist = b.staggered_dist(starts, barriers)
        return b.remember(key, dist)  # type: ignore[no-any-return]

    @staticmethod
    def _movement_ends(b: Board, here: int, left: int, barriers: tuple[int, ...], radars: tuple[int, ...],
                       precise: bool, journalist: bool, first_ok: set[int]) -> list[tuple[int, int, int, Option]]:
        """Every (end city, radar triggers, cities the last trigger points at,
        first step) of a movement of up to ``left`` steps from ``here``, in
        the order a breadth-first walk over its states meets them (_Plan)."""
        return _Plan(b, here, left, barriers, radars, precise, journalist, first_ok).ends()

    def _plan_move(self, view: View, b: Board, decision: Decision, dt: list[int] | None, escape: bool) -> Option:
        """The first step of the best movement: every end city reachable in the
        steps left, scored by the way to her cities and by Jessah's chance of
        finding her there, given what the movement's radar announcement tells."""
        here = view.angela_city
        opts = decision.options
        left = int(decision.info.get("left", 1))
        barriers = view.barriers
        first_ok = {o[1] for o in opts if isinstance(o, tuple) and o[0] == "move"}
        # The Journalist crosses barriers and trips no radar: seen in the options.
        journalist = False
        for nx, r in b.nbr_routes[here]:
            if barriers[r] and nx in first_ok:
                journalist = True
                break
        best, best_s, by_first = self._plan_scores(view, b, left, barriers, first_ok, journalist, dt, escape)
        mix = self._plan_mix
        if mix > 0:
            # Near-equal plans, in the (deterministic) order the ends were found.
            near = [f for f, sc in by_first.items() if sc >= best_s - mix]
            if len(near) > 1:
                return near[self.rng.randrange(len(near))]
        return best

    def _plan_scores(self, view: View, b: Board, left: int, barriers: tuple[int, ...], first_ok: set[int],
                     journalist: bool, dt: list[int] | None,
                     escape: bool) -> tuple[Option, float, dict[Option, float]]:
        """The best first step of a movement of up to ``left`` steps on these
        barriers, its score, and the best score of each first step (in the
        order the ends were found)."""
        here = view.angela_city
        radars = view.radars
        precise = "precise_radars" in view.permanents
        reach, quiet = _belief_reach(b, view.belief, left, barriers, radars, journalist)
        jc = view.jessah_city
        last = not view.identities_up
        w_danger = (10.0 if last else 4.0) * (1.4 - self.risk)
        w_way = 0.3 if escape else 1.0
        # Bound once: compiled code rebuilds a Final tuple at each use.
        prox: tuple[float, ...] = _PROXIMITY
        scores = _PlanScores(b.dist[jc], b.ball[jc], reach, quiet, w_danger, self._own_city_danger, prox, dt, w_way,
                             escape)
        firsts = _walk(b, here, left, barriers, radars, precise, journalist, first_ok, scores)
        by = scores.by
        by_first: dict[Option, float] = {}
        for j in range(len(firsts)):
            by_first[firsts[j]] = by[j]
        return firsts[scores.best_j], scores.best_s, by_first

    def _unbox(self, view: View, b: Board, opts: Sequence[Option], dt: list[int] | None) -> Option | None:
        """A white barrier to remove (R11) when Jessah's barriers close at
        least half the routes out of her city (UNBOX; R18: she can never take
        a barrier's route): the one whose other end is nearest her cashes,
        then farthest from Jessah. None when there is none to remove."""
        if not self._unbox_on:
            return None
        here = view.angela_city
        barriers = view.barriers
        exits = b.nbr_routes[here]
        closed = 0
        for _, r in exits:
            if barriers[r]:
                closed += 1
        if 2 * closed < len(exits):
            return self._open_way(view, b, opts, dt) if closed and self._open_gain > 0 and self._move_left else None
        djrow = b.dist[view.jessah_city]
        best: Option | None = None
        best_key = (0, 0, 0)
        for nx, r in exits:
            o = ("remove_barrier", r)
            if barriers[r] == 1 and o in opts:
                key = (min(dt[nx], 8) if dt is not None else 0, -djrow[nx], r)
                if best is None or key < best_key:
                    best, best_key = o, key
        return best

    def _open_way(self, view: View, b: Board, opts: Sequence[Option], dt: list[int] | None) -> Option | None:
        """A white barrier on a route out of her city to remove (R11, R18)
        when her best movement with it gone scores OPEN_GAIN more than her
        best movement with it standing (the way to her cashes and Jessah's
        reach, as ``_plan_move`` weighs them); the one that gains most.
        None when no barrier gains that much."""
        here = view.angela_city
        barriers = view.barriers
        cands = [(nx, r) for nx, r in b.nbr_routes[here] if barriers[r] == 1 and ("remove_barrier", r) in opts]
        if not cands:
            return None
        targets = self._angela_targets(view, b)
        decision_left = self._move_left
        first_ok = {nx for nx, r in b.nbr_routes[here] if not barriers[r]}
        _, base, _ = self._plan_scores(view, b, decision_left, barriers, first_ok, False, dt, False)
        best: Option | None = None
        best_gain = self._open_gain
        for nx, r in cands:
            o = ("remove_barrier", r)
            opened = barriers[:r] + (0,) + barriers[r + 1:]
            dt2 = self._way(view, b, targets, opened) if targets else None
            _, s, _ = self._plan_scores(view, b, decision_left, opened, first_ok | {nx}, False, dt2, False)
            if s - base > best_gain:
                best, best_gain = o, s - base
        return best

    def _radar_to_clear(self, options: Sequence[Option]) -> Option | None:
        """With SPEND_AT_ONCE, a white radar to remove now, drawn at random
        from her stream among those she can afford to remove (R11); None
        when there is none."""
        if not self._spend_at_once:
            return None
        radars = [o for o in options if isinstance(o, tuple) and o[0] == "remove_radar"]
        if not radars:
            return None
        return radars[self.rng.randrange(len(radars))]

    def on_angela_security(self, view: View, decision: Decision[AngelaSecurityOption]) -> AngelaSecurityOption:
        spend = self._radar_to_clear(decision.options)
        if spend is not None:
            return spend  # type: ignore[return-value]
        opts = decision.options
        spends = [o for o in opts if isinstance(o, tuple)]
        if spends and view.security >= view.rules.security_cap:
            # Spend before gaining so the point is not lost (R11): a radar on
            # her continent first, else the barrier nearest to her.
            b = self._b(view)
            k = b.cont[view.angela_city]
            if ("remove_radar", k) in opts:
                return ("remove_radar", k)
            bars = [o for o in spends if o[0] == "remove_barrier"]
            if bars:
                return min(bars, key=lambda o: (min(b.dist[view.angela_city][e] for e in b.route_ends[o[1]]), o[1]))
        return "gain"

    def on_identity(self, view: View, decision: Decision[IdentityId]) -> IdentityId:
        b = self._b(view)
        ids = {x.id: x for x in view.comps.identities}
        return max(decision.options, key=lambda i: (self._identity_value(view, b, ids[i]), i))

    def _identity_value(self, view: View, b: Board, x: Identity) -> float:
        """What escaping with identity ``x`` is worth now: its movements, and
        its power on this board (the Journalist by the radars around her, the
        Lawyer by the white radars and barriers, the Businesswoman by the
        most harmful permanent upgrade)."""
        v = float(x.moves)
        if x.effect == "journalist":
            here = view.angela_city
            v += 0.4 + 0.4 * sum(1 for c in bits(expand(1 << here, b.nbr_mask)) if view.radars[b.cont[c]])
        elif x.effect == "lawyer":
            white = sum(1 for r in view.radars if r == 1) + sum(1 for r in view.barriers if r == 1)
            v += 0.2 * min(white, 2)
        elif x.effect == "secret_agent":
            v += 0.15 * (view.rules.security_cap - view.security)
        elif x.effect == "doctor":
            v += 0.35 * min(x.checks, view.rules.hand_limit - len(view.hand))
        elif x.effect == "businesswoman":
            v += 0.25 * max((_UPGRADE_HELP.get(u, 1.0) for u in view.permanents), default=0.0)
        return v

    def on_destroy_upgrade(self, view: View, decision: Decision[UpgradeId]) -> UpgradeId:
        return max(decision.options, key=lambda u: (_UPGRADE_HELP.get(u, 1.0), u))

    def _nearest_route(self, view: View, b: Board, routes: Sequence[int]) -> int:
        here = view.angela_city
        return min(routes, key=lambda r: (min(b.dist[here][e] for e in b.route_ends[r]), r))

    def on_lawyer_barrier(self, view: View, decision: Decision[Route]) -> Route:
        return self._nearest_route(view, self._b(view), decision.options)

    def on_remove_black_barrier(self, view: View, decision: Decision[Route]) -> Route:
        return self._nearest_route(view, self._b(view), decision.options)

    def on_lawyer_radar(self, view: View, decision: Decision[Continent]) -> Continent:
        b = self._b(view)
        here = view.angela_city
        return min(decision.options, key=lambda k: (min(b.dist[here][c] for c in view.comps.continents[k].cities), k))

    def on_remove_black_radar(self, view: View, decision: Decision[Continent]) -> Continent:
        return self.on_lawyer_radar(view, decision)


def play_to_end(state: GameState, players: Sequence[Expert]) -> None:
    """Play ``state`` to its end, each decision by its seat's player: search's
    rollouts. Compiled with the expert, the loop costs no interpreter time."""
    while not state.over:
        d = state.pending
        assert d is not None
        state.apply(players[d.seat].choose(build_view(state, d.seat, False), d))


def play_until(state: GameState, players: Sequence[Expert], stop: int, steps: int) -> None:
    """Play ``state`` on until the start of round ``stop`` or for ``steps``
    decisions, whichever comes first (or its end): search's cut rollouts.
    The players' views have no worlds (they do not search)."""
    while not state.over and state.round < stop and steps:
        steps -= 1
        d = state.pending
        assert d is not None
        state.apply(players[d.seat].choose(build_view(state, d.seat, False), d))
