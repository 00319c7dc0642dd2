"""Jessah's dossier on the forger: a particle filter over Angela's city and
hand, from Jessah's view and public history only (R24, R25).

The set-valued public belief says where Angela *can* be; the weighted belief
(engine/weighted.py) spreads it as a random walk. Neither knows that a
forger goes somewhere for a reason: to cash the checks in her hand, away
from Jessah. The dossier keeps ``particles`` guesses of her (city, hand),
each weighted by how well it explains what Jessah has seen, under this
model of the forger:

- **Start.** Her two kept checks are any two Jessah has not seen, equally
  likely; her start city, on the continent she showed, is chosen as a
  planner would choose it: near the cities where her hand cashes, away from
  Jessah, off a radar's continent (R19).
- **Movement.** A movement of up to n steps ends in one of the states
  (end city, ordered radar triggers) reachable from her city, with barriers
  and radars as at its start (R13-R15, R18). Each state is scored as a
  forger planning a cashing route scores it: minus the steps from the end
  to the nearest city where her hand cashes (counting a city next to Jessah
  as farther: cashing reveals her, R8), minus the danger of ending near
  Jessah where few other cities could hide her, minus a little per radar
  tripped. She picks a state with probability proportional to
  e^(score / ``tau``), except that with probability ``eps`` she picks any
  state at random. The announcement's probability under this model weighs
  each guess; her new city is drawn among the states that give it.
- **Bank declined.** A Bank she performs with no cash (public: the card's
  tokens say who performs which half, R1-R3) means she could not cash where
  she stands, or chose not to: a guess that could have cashed keeps
  ``decline`` of its weight (1 when the guess is on her last identity next
  to Jessah, where a forger would rather not show herself).
- **Security spends.** A white radar she removes (R11) weighs the guesses
  on its continent or next to it ``leak`` times more. The expert forger
  spends her points as soon as she has them, on a radar drawn at random,
  so by default (``leak`` 1) a removal says nothing. Against a forger who
  keeps her points for the radar she is about to trip, ``leak`` 10 fits;
  but a forger who spends hers at once on radars away from her then sends
  such an agent the wrong way (docs/strategies.md).
- **Checks.** A draw adds checks Jessah has not seen to each guess's hand;
  a check Jessah draws leaves every guess's hand; a cash of check x keeps
  the guesses that held x (the others keep 5% of their weight and lose a
  check at random); Wiretap shows the hand.
- **Facts.** A failed inspection rules a city out, a cash or capture pins
  her down, Informant and Satellite Sweep restrict: Bayes with a 0/1
  likelihood (R16, R17, R8).

Guesses are resampled when their weights degenerate. If every guess is
ruled out (she played as the model never would), the dossier starts over,
uniformly over the public belief. Its answer, :meth:`Dossier.observe`, is a
probability over cities: ``(1 - floor)`` times the guesses' weight plus
``floor`` spread uniformly over the public belief, so no city the public
facts allow is ever ruled out by the model, and a forger who plays unlike
it costs the dossier at most that floor's worth of mass.

The model mirrors the expert forger's planning (strategies/red_notice/
expert.py, ``_plan_move``) with its default ``risk``; it is an opponent
model, a prior over the forger's policy, and says so: measured in
docs/strategies.md. Deterministic for its stream: every draw comes from the
``rng`` given to :meth:`Dossier.reset`.
"""

from __future__ import annotations

import math
import random
from bisect import bisect
from collections.abc import Callable, Sequence
from itertools import accumulate
from typing import Any, Final

from rnsim_strategies.red_notice.board import BANK, MOVEMENT, Board, bits, board_for

from rnsim.games.red_notice.engine.belief import after_movement, expand, reach
from rnsim.games.red_notice.engine.decision import ANGELA
from rnsim.games.red_notice.engine.history import _NO_CARD, Record
from rnsim.games.red_notice.engine.state import performances
from rnsim.games.red_notice.engine.view import View

# How quickly Jessah can be on a city at distance d: the expert forger's table.
# (Final, and typed as a tuple of any length: compiled code then indexes the
# tuple itself rather than rebuilding it from unboxed fields at each read)
_PROXIMITY: Final[tuple[float, ...]] = (1.0, 0.7, 0.35, 0.12, 0.03)
# A guess whose hand lacked the check she cashed keeps this much weight.
_HAND_MISS: Final = 0.05
# math.fsum, bound once: compiled code would look it up on the module per call
_fsum: Final = math.fsum
# The kinds of history record the dossier reads, as small ints: its dispatch
# compares ints, not strings. Grouped by the method that reads them (the
# _*_END bounds); the kinds not listed (token_placed, security_gain,
# security_set, no_upgrade_left, angela_step: a quarter of the records) are
# _SKIP and read nothing.
_DEAL: Final = 0
_JESSAH_START: Final = 1
_RADAR: Final = 2
_BLACK_RADAR: Final = 3
_ANGELA_START: Final = 4
_SETUP_END: Final = 5
_ROUND_START: Final = 5
_CARD: Final = 6
_ROUND_OVER: Final = 7
_ROUND_END: Final = 8
_JESSAH_MOVE: Final = 8
_BARRIER: Final = 9
_BLACK_BARRIER: Final = 10
_BARRIER_MOVED: Final = 11
_REMOVED: Final = 12
_UPGRADE: Final = 13
_UPGRADE_DESTROYED: Final = 14
_IDENTITY: Final = 15
_BOARD_END: Final = 16
_ANNOUNCE: Final = 16
_INSPECT: Final = 17
_DRAW: Final = 18
_CASH: Final = 19
_CAPTURE: Final = 20
_JOKER: Final = 21
_WIRETAP: Final = 22
_SWEEP: Final = 23
_INFORMANT: Final = 24
_SKIP: Final = 25
# engine/history.py's _NO_CARD (the kinds outside a round's cards: the card
# in resolution is none after them), held here: compiled code reads a
# Final of its own module as a constant, one of another module's by name.
_NO_CARD_KINDS: Final = frozenset(_NO_CARD)
_CODE: Final[dict[str, int]] = {
    "deal": _DEAL, "jessah_start": _JESSAH_START, "setup_radar": _RADAR, "radar": _RADAR,
    "black_radar": _BLACK_RADAR, "angela_start": _ANGELA_START,
    "round_start": _ROUND_START, "card": _CARD, "round_end": _ROUND_OVER,
    "jessah_move": _JESSAH_MOVE, "barrier": _BARRIER, "black_barrier": _BLACK_BARRIER,
    "barrier_moved": _BARRIER_MOVED, "security_spent": _REMOVED, "lawyer_discard": _REMOVED,
    "black_removed": _REMOVED, "upgrade": _UPGRADE, "upgrade_destroyed": _UPGRADE_DESTROYED,
    "identity": _IDENTITY,
    "announce": _ANNOUNCE, "inspect": _INSPECT, "draw": _DRAW, "cash": _CASH, "capture": _CAPTURE,
    "joker": _JOKER, "wiretap": _WIRETAP, "satellite_sweep": _SWEEP, "informant": _INFORMANT,
}

State = tuple[int, tuple[tuple[int, int], ...]]  # (end city, triggers)

#: The dossier's inner loops in C (strategies/red_notice/_dossier_core.c),
#: set by the package when the compiled build is in use; None: the Python
#: source. With it the guesses live in one C object (``core.guesses``, kept
#: in ``Dossier.g``) whose methods are the twins of Dossier._read_guesses,
#: _answer, _settle, _draw_each, _jessah_drew, _cash_each, _fit_each,
#: _reveal_each and _decline_each, reading and writing its arrays in place (boxing the
#: guesses' ints and floats at every call cost a third of the dossier);
#: _start_guesses and _systematic are C functions on lists.
core: Any = None


def _tables(b: Board) -> Any:
    """The map's tables for the C loops, built once per board; False when
    the map is too big for them (more than 64 cities)."""
    t = b.native
    if t is None:
        t = b.native = core.tables(b.n, b.nbr_routes, b.cont, b.dist, b.ball, b.cont_mask, b.check_mask) or False
    return t


def state_words(rng: random.Random, k: int) -> tuple[int, ...]:
    """``rng.getstate()[1][:k]``: the first ``k`` words of the stream's
    Mersenne Twister state. The C code reads them in place from a
    random.Random (getstate() builds a tuple of 625 ints to be cut to k);
    any other stream is asked its getstate()."""
    if core is not None:
        got: tuple[int, ...] | None = core.state_words(rng, k)
        if got is not None:
            return got
    return rng.getstate()[1][:k]  # type: ignore[no-any-return]


def stream_from(name: str, rng: random.Random) -> random.Random:
    """A stream of its own for ``name``, seeded from ``rng``'s state without
    drawing from it: ``random.Random(name + " " + the state's first 16
    words, joined by spaces)``."""
    return random.Random(name + " " + " ".join(map(str, state_words(rng, 16))))


def _below(getrandbits: Callable[[int], int], n: int) -> int:
    """``rng.randrange(n)`` for n > 0, drawn as CPython's Random draws it
    (getrandbits(n.bit_length()) until one is below n), without the Python-
    level argument checks that cost more than the draw in compiled code.
    Takes the stream's bound ``getrandbits``, looked up once by the caller:
    looking the method up on the stream cost more than the draw."""
    k = n.bit_length()
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def _sample(rng: random.Random, pool: list[int], k: int) -> list[int]:
    """``rng.sample(pool, k)``, drawn as CPython's Random draws it: for at
    most 5 of at most 21 (always so for a hand from the unseen checks), its
    list path (one _randbelow per pick, the picked slot refilled from the
    end) without its Python-level checks; anything else by rng.sample."""
    n = len(pool)
    if k > 5 or n > 21 or k < 0 or k > n:
        return rng.sample(pool, k)
    rest = list(pool)
    out: list[int] = []
    getrandbits = rng.getrandbits
    for i in range(k):
        j = _below(getrandbits, n - i)
        out.append(rest[j])
        rest[j] = rest[n - i - 1]
    return out


def _pick(rng: random.Random, items: list[int], cum: list[float]) -> int:
    """``rng.choices(items, cum_weights=cum)[0]``, drawn as CPython's Random
    draws it (one random(), bisected), without its argument checks."""
    return items[bisect(cum, rng.random() * (cum[-1] + 0.0), 0, len(items) - 1)]


def _matching(states: list[State], ann: tuple[tuple[int, int], ...]) -> tuple[list[int], list[tuple[int, list[int]]]]:
    """The indices of the plans that give ``ann``, in order, and the same
    grouped by end city, in first-seen order, as positions in that list."""
    match: list[int] = []
    ends: list[tuple[int, list[int]]] = []
    slot: dict[int, int] = {}
    for i, (c, trig) in enumerate(states):
        if trig == ann:
            j = slot.get(c)
            if j is None:
                slot[c] = len(ends)
                ends.append((c, [len(match)]))
            else:
                ends[j][1].append(len(match))
            match.append(i)
    return match, ends


def _mask(checks: list[int]) -> int:
    """The checks as a bitmask (check ``x`` is bit ``1 << x``)."""
    m = 0
    for x in checks:
        m |= 1 << x
    return m


def _systematic(rng: random.Random, w: list[float], n: int) -> list[int]:
    """Systematic resampling: ``n`` indices of ``w`` (weights summing to 1),
    each about n x its weight times, from one draw of ``rng``."""
    if core is not None:
        return core.systematic(w, n, rng.random)  # type: ignore[no-any-return]
    u = rng.random() / n
    keep: list[int] = []
    last = len(w) - 1
    acc = w[0]
    i = 0
    for k in range(n):
        x = u + k / n
        while x > acc and i < last:
            i += 1
            acc += w[i]
        keep.append(i)
    return keep


class _Place:
    """One city's part in reading an announcement: its plans (``states``),
    their hand-free score (``danger``), the indices of the plans that give
    the announcement (``match``), those grouped by end city in first-seen
    order as positions in ``match`` (``ends``), those end cities alone
    (``to``), and the outcome per hand's targets once computed
    (``outcomes``: :meth:`Dossier._chances`, per city of ``to``)."""

    __slots__ = ("states", "danger", "match", "ends", "to", "outcomes")

    def __init__(self, states: list[State], danger: list[float], match: list[int],
                 ends: list[tuple[int, list[int]]]) -> None:
        self.states = states
        self.danger = danger
        self.match = match
        self.ends = ends
        self.to = [c for c, _ in ends]
        self.outcomes: dict[int, tuple[float, list[float]]] = {}


class Dossier:
    """A particle filter over Angela's (city, hand); see the module doc."""

    __slots__ = (
        "particles", "tau", "eps", "leak", "decline", "floor", "rng", "seen", "_c", "_h", "_w", "g",
        "started", "restarts", "b", "bottom", "jessah", "radars", "barriers", "bkey", "bkey_of", "pub", "round_cards",
        "initiative", "pending_bank", "cashed_on", "precise", "up", "dealt", "fitted", "comps_of",
    )

    def __init__(self, particles: int = 200, tau: float = 0.3, eps: float = 0.1, leak: float = 1.0,
                 decline: float = 0.15, floor: float = 0.15) -> None:
        if particles < 1:
            raise ValueError(f"Dossier: particles must be >= 1, got {particles}")
        if tau <= 0:
            raise ValueError(f"Dossier: tau must be > 0, got {tau}")
        for name, x in (("eps", eps), ("decline", decline), ("floor", floor)):
            if not 0.0 <= x <= 1.0:
                raise ValueError(f"Dossier: {name} must be in 0..1, got {x}")
        if leak < 0:
            raise ValueError(f"Dossier: leak must be >= 0, got {leak}")
        self.particles = particles
        self.tau = tau
        self.eps = eps
        self.leak = leak
        self.decline = decline
        self.floor = floor
        self.reset(random.Random(0))

    def reset(self, rng: random.Random) -> None:
        """A new game: forget everything; draw from ``rng`` from now on."""
        self.rng = rng
        self.seen = 0  # history events read so far
        # The guesses: Angela's city, hand and weight per guess. In the C
        # object ``g`` when there is one (compiled build, cities and checks
        # 0..63: the lists are then stale), else in the lists.
        self._c: list[int] = []
        self._h: list[list[int]] = []
        self._w: list[float] = []
        self.g: Any = None
        self.started = False
        self.restarts = 0  # times every guess was ruled out (benchmarks read it)
        self.bottom: set[int] = set()  # the checks shown at setup, beneath the deck (R19)
        self.pending_bank: tuple[int, int, bool] | None = None
        self.cashed_on: set[tuple[int, int]] = set()
        self.round_cards: tuple[int, ...] = ()
        self.initiative = ANGELA
        self.up = 0
        self.dealt = 0
        # (Angela's hand size, Jessah's hand) when every guess last fitted
        # them; None once a guess's hand may have changed since.
        self.fitted: tuple[int, tuple[int, ...]] | None = None
        self.bkey_of: tuple[int, ...] = ()  # the barriers self.bkey was taken of
        self.comps_of: object = None  # the component set self.b was taken of
        self.bkey = b""

    @property
    def cities(self) -> list[int]:
        """Each guess's city (a copy while the C object holds the guesses)."""
        return self._lists()[0]

    @cities.setter
    def cities(self, v: list[int]) -> None:
        self._pull()
        self._c = v

    @property
    def hands(self) -> list[list[int]]:
        """Each guess's hand (copies while the C object holds the guesses)."""
        return self._lists()[1]

    @hands.setter
    def hands(self, v: list[list[int]]) -> None:
        self._pull()
        self._h = v

    @property
    def w(self) -> list[float]:
        """Each guess's weight (a copy while the C object holds the guesses)."""
        return self._lists()[2]

    @w.setter
    def w(self, v: list[float]) -> None:
        self._pull()
        self._w = v

    def _lists(self) -> tuple[list[int], list[list[int]], list[float]]:
        g = self.g
        if g is not None:
            return g.lists()  # type: ignore[no-any-return]
        return self._c, self._h, self._w

    def _pull(self) -> None:
        """The guesses back into the lists, for the Python source's loops."""
        g = self.g
        if g is not None:
            self._c, self._h, self._w = g.lists()
            self.g = None

    def _push(self) -> None:
        """The guesses into one C object (compiled build, a map of at most
        64 cities and checks 0..63); else they stay in the lists."""
        if core is not None and _tables(self.b):
            self.g = core.guesses(self._c, self._h, self._w)

    # ------------------------------------------------------------ answers

    def observe(self, view: View) -> list[float]:
        """Read what is new in Jessah's ``view`` and return the probability of
        each city (0 outside the public belief). Call it with every view
        Jessah is handed, in order."""
        # Each field of the view is read once: the view's class is compiled
        # apart from this one, so every read is a Python attribute lookup.
        comps = view.comps
        if comps is not self.comps_of:  # the board's tables, looked up once per component set
            self.comps_of = comps
            self.b = board_for(comps)
        b = self.b
        jessah = view.jessah_city
        radars = view.radars
        barriers = view.barriers
        belief = view.belief
        up = len(view.identities_up)
        if self.seen == 0:
            self.jessah = jessah
            self.radars = list(radars)
            self.barriers = tuple(barriers)
            self.pub = belief
            self.up = up
        self.precise = "precise_radars" in view.permanents
        history = view.history
        records, card = history.raw(self.seen)
        self.seen = max(self.seen, len(history))
        for r in records:
            kind = r[0]
            if kind == "card":  # the card in resolution, as History decodes it
                card = r[3]
            elif kind in _NO_CARD_KINDS:
                card = -1
            self._event(view, r, card, b)
        # What the view says wins over what the events were read to say.
        self.jessah = jessah
        self.radars = list(radars)
        # The view's own tuple, even when equal to the one the events made:
        # views share the state's tuple until a barrier moves, and the expert
        # asks the board about view.barriers, the dossier about its own, so
        # the board's last answer (Board.open_masks) settles by identity.
        if barriers is not self.barriers:
            self.barriers = tuple(barriers)
        self.pub = belief
        self.up = up
        n = b.n  # comps.n_cities (a property of an uncompiled class)
        k = belief.bit_count()
        if not self.started or not k:
            return [1.0 / k if belief >> c & 1 else 0.0 for c in range(n)] if k else [0.0] * n
        self._fit_hands(view)
        g = self.g
        got = g.answer(belief, n, self.floor) if g is not None else self._answer(belief, n)
        if got is None:
            self._restart(view, belief)
            return [1.0 / k if belief >> c & 1 else 0.0 for c in range(n)]
        return got

    def _answer(self, belief: int, n: int) -> list[float] | None:
        """Each city's probability: ``(1 - floor)`` times the guesses' weight
        there plus ``floor`` spread over the ``belief``'s cities; None when no
        guess in the belief has weight. The reference for _dossier_core.c's
        ``answer``."""
        mass = [0.0] * n
        cities = self._c
        ws = self._w
        for i in range(len(cities)):
            c = cities[i]
            if belief >> c & 1:
                mass[c] = mass[c] + ws[i]  # unboxed, unlike +=
        total = _fsum(mass)
        if total <= 0:
            return None
        fl = self.floor
        k = belief.bit_count()
        return [((1 - fl) * mass[c] / total + fl / k) if belief >> c & 1 else 0.0 for c in range(n)]

    def draw(self, rng: random.Random, weights: Sequence[float]) -> tuple[int, tuple[int, ...]] | None:
        """One (city, hand) for a search world, after :meth:`observe`: a guess
        drawn by weight, its city replaced with probability ``floor`` by one
        drawn uniformly from the public belief (the floor's share of
        ``weights``, what observe returned). None before Angela's start."""
        belief_cities = [c for c, p in enumerate(weights) if p > 0]
        cities, hands, ws = self._lists()
        live = [i for i, c in enumerate(cities) if weights[c] > 0] if self.started else []
        if not live:
            return None
        i = rng.choices(live, weights=[ws[j] for j in live])[0] if sum(ws[j] for j in live) > 0 \
            else rng.choice(live)
        city = cities[i]
        if rng.random() < self.floor:
            city = rng.choice(belief_cities)
        return city, tuple(sorted(hands[i]))

    def clone(self, rng: random.Random, particles: int) -> Dossier:
        """A copy that reads on from here with ``particles`` guesses, drawn
        from this one's by weight (systematic resampling, from ``rng``), and
        draws from ``rng`` from now on: a search rollout's Jessah hunts on
        it, as the real one hunts on this. After :meth:`observe`."""
        c = Dossier(particles, self.tau, self.eps, self.leak, self.decline, self.floor)
        c.rng = rng
        c.seen = self.seen
        c.started = self.started
        c.bottom = set(self.bottom)
        c.pending_bank = self.pending_bank
        c.cashed_on = set(self.cashed_on)
        c.round_cards = self.round_cards
        c.initiative = self.initiative
        c.up = self.up
        c.dealt = self.dealt
        c.b = self.b
        c.jessah = self.jessah
        c.radars = list(self.radars)
        c.barriers = self.barriers
        c.pub = self.pub
        c.precise = self.precise
        cities, hands, ws = self._lists()
        if cities:
            t = _fsum(ws)
            w = [x / t for x in ws] if t > 0 else [1.0 / len(ws)] * len(ws)
            keep = _systematic(rng, w, particles)
            c._c = [cities[i] for i in keep]
            c._h = [list(hands[i]) for i in keep]
            c._w = [1.0 / particles] * particles
            c.fitted = self.fitted
            c._push()
        return c

    # ------------------------------------------------------------ particles

    def _unseen(self, view: View) -> list[int]:
        """Checks that may be in Angela's hand: not in Jessah's, not cashed, not
        one of the two shown at setup while they are surely beneath the deck."""
        out = (1 << len(view.comps.checks)) - 1  # as a bitmask: cheaper than a set
        for x in view.hand:
            out &= ~(1 << x)
        for side in view.cashed:
            for x in side:
                out &= ~(1 << x)
        if view.check_deck_size >= len(self.bottom):
            for x in self.bottom:
                out &= ~(1 << x)
        return bits(out)

    def _start(self, view: View, b: Board, cont: int) -> None:
        pool = self._unseen(view)
        cities = bits(b.cont_mask[cont])
        radar = 1.5 if self.radars[cont] else 0.0
        self.fitted = None
        size = min(len(pool), max(0, self.dealt - 1))  # she kept all but the check she showed
        got: tuple[list[int], list[list[int]]] | None = None
        if core is not None and _tables(b):
            got = core.start(_tables(b), pool, size, cities, self.jessah, radar, self.particles, self.tau, self.eps,
                             self.rng.getrandbits, self.rng.random)
        if got is None:
            got = self._start_guesses(b, pool, size, cities, radar)
        self._c, self._h = got
        self._w = [1.0] * self.particles
        self.g = None
        self._push()
        self.started = True

    def _start_guesses(self, b: Board, pool: list[int], size: int, cities: list[int],
                       radar: float) -> tuple[list[int], list[list[int]]]:
        """Each guess's hand, ``size`` checks of ``pool``, and its start city
        among ``cities``, chosen as a planner would for where that hand
        cashes. The reference for _dossier_core.c's ``start``."""
        dj = b.dist[self.jessah]
        rng = self.rng
        out_c: list[int] = []
        out_h: list[list[int]] = []
        # The start's odds depend on the hand only through where it cashes:
        # computed once per such set, as cumulative weights (_pick).
        odds: dict[int, list[float]] = {}
        for _ in range(self.particles):
            hand = _sample(rng, pool, size)
            targets = self._targets(b, hand)
            cum = odds.get(targets)
            if cum is None:
                d = b.dist_to_mask(targets)
                sc = [-1.0 * min(d[c], 4) + 0.6 * min(dj[c], 4) - radar for c in cities]
                cum = odds[targets] = list(accumulate(self._choice(sc)))
            out_c.append(_pick(rng, cities, cum))
            out_h.append(hand)
        return out_c, out_h

    def _choice(self, scores: list[float]) -> list[float]:
        """The model's choice among scored options: softmax at ``tau``, mixed
        with a uniform pick at ``eps``."""
        ex, t = self._softmax(scores)
        k = len(ex)
        eps = self.eps
        return [(1 - eps) * p / t + eps / k for p in ex]

    def _softmax(self, scores: list[float]) -> tuple[list[float], float]:
        """e^((score - top) / tau) per option, and their sum."""
        top = scores[0]
        for x in scores:
            if x > top:
                top = x
        tau = self.tau
        ex = [math.exp((x - top) / tau) for x in scores]
        return ex, _fsum(ex)

    @staticmethod
    def _targets(b: Board, hand: list[int]) -> int:
        m = 0
        for c in hand:
            m |= b.check_mask[c]
        return m

    def _restart(self, view: View, belief: int) -> None:
        """Every guess was ruled out: start over, uniformly over the public belief."""
        self.restarts += 1
        pool = self._unseen(view)
        cities = bits(belief)
        size = min(len(pool), view.hand_sizes[ANGELA])
        rng = self.rng
        self._c = [rng.choice(cities) for _ in range(self.particles)]
        self._h = [rng.sample(pool, size) for _ in range(self.particles)]
        self.fitted = None
        self._w = [1.0] * self.particles
        self.g = None
        self._push()

    def _fit_hands(self, view: View) -> None:
        """Each guess holds as many checks as Angela does (public), none Jessah holds."""
        size = view.hand_sizes[ANGELA]
        key = (size, tuple(view.hand))
        if key == self.fitted:
            return  # every guess fits these already: nothing to draw
        mine = 0  # Jessah's checks as a bitmask: cheaper to test than a set
        for c in view.hand:
            mine |= 1 << c
        fit = self._fit_each(size, mine, None)
        if fit == -1:  # some hand needs a check from the unseen ones
            fit = self._fit_each(size, mine, self._unseen(view))
        self.fitted = key if fit == 1 else None

    def _fit_each(self, size: int, mine: int, pool: list[int] | None) -> int:
        """Each hand that does not hold ``size`` checks, or holds one of
        ``mine`` (a bitmask), loses those, then checks drawn at random down to
        ``size``, then draws up to it from ``pool``. 1 when every hand then
        fits, 0 when some cannot; -1, touching nothing, when a hand needs
        fixing and ``pool`` is None. The reference for _dossier_core.c's
        ``fit``."""
        getrandbits = self.rng.getrandbits
        g = self.g
        if g is not None:
            got: int = g.fit(size, mine, pool, getrandbits)
            if got != -2:  # -2: a check past 63, which only Python handles
                return got
            self._pull()
        need = [h for h in self._h if len(h) != size or _mask(h) & mine]
        if not need:
            return 1
        if pool is None:
            return -1
        for h in need:
            h[:] = [c for c in h if not mine >> c & 1]
            while len(h) > size:
                h.pop(_below(getrandbits, len(h)))
            held = _mask(h)
            free = [c for c in pool if not held >> c & 1]
            while len(h) < size and free:
                h.append(free.pop(_below(getrandbits, len(free))))
        return 1 if all(len(h) == size for h in self._h) else 0

    def _normalise(self, view: View, keep: int | None = None) -> None:
        """Settle the weights after an event (:meth:`_settle`; ``keep``: the
        cities still possible, a bitmask, None for all); start over when no
        guess keeps any weight."""
        g = self.g
        if g is not None:
            if not g.settle(self.particles, keep, self.rng.random):
                self._restart(view, self.pub or view.belief)
            return
        got = self._settle(keep)
        if got is None:
            self._restart(view, self.pub or view.belief)
            return
        self._c, self._h, self._w = got

    def _settle(self, keep: int | None) -> tuple[list[int], list[list[int]], list[float]] | None:
        """(cities, hands, weights) after an event: the guesses outside the
        cities of ``keep`` (a bitmask; None: none) lose their weight (Bayes
        with a 0/1 likelihood), the weights are normalised, and when they
        have degenerated the guesses are resampled (:meth:`_weigh`,
        :meth:`_resampled`); None when no weight is left. Lists left as they
        were are the dossier's own. The reference for _dossier_core.c's
        ``settle``."""
        w = self._w
        if keep is not None:
            cities = self._c
            w = [w[i] if keep >> cities[i] & 1 else 0.0 for i in range(len(cities))]
        got = self._weigh(w)
        if got is None:
            return None
        w, resample = got
        if resample:
            return self._resampled(w)
        return self._c, self._h, w

    def _weigh(self, w: list[float]) -> tuple[list[float], bool] | None:
        """The weights ``w`` normalised (the same list when they sum to 1),
        and whether they have degenerated (resample them); None when they
        sum to 0."""
        total = _fsum(w)
        if total <= 0:
            return None
        if total != 1.0:  # x / 1.0 is x, bit for bit: nothing to divide then
            w = [x / total for x in w]
        # The effective sample size, 1 / sum(w^2), against half the guesses.
        # Summed plainly, n non-negative terms are off by at most ~n ulps of
        # the sum; only a size that close to the threshold needs fsum's
        # exact sum to decide.
        sq = 0.0
        for x in w:
            sq += x * x
        ess = 1.0 / sq
        half = self.particles / 2
        if abs(ess - half) <= 1e-9 * half:
            ess = 1.0 / _fsum([x * x for x in w])
        return w, ess < half

    def _resampled(self, w: list[float]) -> tuple[list[int], list[list[int]], list[float]]:
        """Systematic resampling by the normalised weights ``w``: each guess
        is copied about n x its weight times, every copy weighing 1 / n."""
        n = self.particles
        keep = _systematic(self.rng, w, n)
        cities = [self._c[i] for i in keep]
        # keep is non-decreasing: a guess's first copy may take its hand
        # itself (the old list of hands is dropped); the next ones copy it.
        hands = self._h
        out: list[list[int]] = []
        prev = -1
        for i in keep:
            out.append(list(hands[i]) if i == prev else hands[i])
            prev = i
        return cities, out, [1.0 / n] * n

    def _restrict(self, view: View, keep: int) -> None:
        """Bayes with a 0/1 likelihood: the guesses outside the cities of
        ``keep`` (a bitmask) lose their weight."""
        self._normalise(view, keep)

    def _reveal(self, view: View, city: int) -> None:
        """She is seen in ``city`` (a cash, a capture): the guesses that had her
        there keep their weight; every guess now has her there."""
        self.pub = 1 << city
        g = self.g
        if g is not None:
            g.reveal(city)
        else:
            self._reveal_each(city)
        self._normalise(view)

    def _reveal_each(self, city: int) -> None:
        """The guesses outside ``city`` lose their weight, unless that
        leaves none; every guess then has her in ``city``. The reference
        for the C guesses' ``reveal``."""
        w = [w if c == city else 0.0 for c, w in zip(self._c, self._w)]
        if _fsum(w) > 0:
            self._w = w
        self._c = [city] * self.particles

    # ------------------------------------------------------------ events

    def _event(self, view: View, r: Record, card: int, b: Board) -> None:
        """Read one history record (engine/history.py: ``(kind, round, seat,
        a, b, c, items)``, the fields per kind in ``FIELDS``) that belongs
        to ``card``."""
        code = _CODE.get(r[0], _SKIP)
        if code < _SETUP_END:
            self._setup_event(view, code, r, b)
        elif code < _ROUND_END:
            self._round_event(view, code, r, card, b)
        elif code < _BOARD_END:
            self._board_event(view, code, r, b)
        elif code < _SKIP and self.started:
            self._evidence(view, code, r, card, b)

    def _setup_event(self, view: View, code: int, r: Record, b: Board) -> None:
        """The deal, the starting places and the radars."""
        if code == _DEAL:
            if r[2] == ANGELA:
                self.dealt = r[3]
        elif code == _JESSAH_START:
            self.bottom.add(r[4])
            self.jessah = r[3]
        elif code == _RADAR:
            self.radars[r[3]] = 1
        elif code == _BLACK_RADAR:
            self.radars[r[3]] = 2
        else:  # _ANGELA_START
            self.bottom.add(r[4])
            cont: int = r[3]
            self.pub = b.cont_mask[cont]
            self._start(view, b, cont)

    def _round_event(self, view: View, code: int, r: Record, card: int, b: Board) -> None:
        """A round's start and end and its action cards (each settles a bank
        declined before it)."""
        self._bank_declined(view)
        if code == _ROUND_START:
            self.round_cards = tuple(r[6])
            self.initiative = r[2]
        elif code == _CARD:
            self._card(r[1], r[3], r[6], b)

    def _board_event(self, view: View, code: int, r: Record, b: Board) -> None:
        """Jessah's moves, barriers, removals, upgrades and identities."""
        if code == _JESSAH_MOVE:
            self.jessah = r[3]
        elif code == _BARRIER:
            self._set_barrier(r[3], 1)
        elif code == _BLACK_BARRIER:
            self._set_barrier(r[3], 2)
        elif code == _BARRIER_MOVED:
            was = self.barriers[r[3]]
            self._set_barrier(r[3], 0)
            self._set_barrier(r[4], was)
        elif code == _REMOVED:
            self._removed(view, r[0], r[3], r[4], r[5], b)
        elif code == _UPGRADE:
            if r[3] == "precise_radars":
                self.precise = True
        elif code == _UPGRADE_DESTROYED:
            if r[3] == "precise_radars":
                self.precise = False
        else:  # _IDENTITY
            self.up -= 1

    def _removed(self, view: View, kind: str, name: str, continent: int, route: int, b: Board) -> None:
        """A radar or barrier taken off the board. A radar Angela spends
        security on is evidence that she is near it (``leak``)."""
        if name != "radar":
            self._set_barrier(route, 0)
            return
        self.radars[continent] = 0
        lk = self.leak
        if kind == "security_spent" and self.started and lk != 1.0:  # 1: no evidence
            near = expand(b.cont_mask[continent], b.nbr_mask)
            self._pull()
            self._w = [w * lk if near >> c & 1 else w for c, w in zip(self._c, self._w)]
            self._push()
            self._normalise(view)

    def _evidence(self, view: View, code: int, r: Record, card: int, b: Board) -> None:
        """What says where she is or what she holds (once she has started)."""
        if code == _ANNOUNCE:
            if self.pending_bank is not None and self.pending_bank[2]:
                self._bank_declined(view)
            self._announce(view, r[3], r[4], r[6], b)
        elif code == _INSPECT:
            if not r[4]:
                x: int = r[3]
                self.pub &= ~(1 << x)
                self._restrict(view, b.all_mask & ~(1 << x))
        elif code == _DRAW:
            self._draw(view, r[2], r[3], r[6])
        elif code == _CASH:
            if r[2] == ANGELA:
                self._cashed(view, r[1], card, r[3], r[4])
        elif code == _CAPTURE:
            self._reveal(view, r[3])
        elif code == _JOKER:
            if r[2] == ANGELA and r[3] == "bank":
                self._bank_declined(view)
                self.pending_bank = (r[1], card, True)
        else:
            self._facts(view, code, r, b)

    def _cashed(self, view: View, rnd: int, card: int, check: int, city: int) -> None:
        """Angela cashed ``check`` in ``city`` (R8)."""
        self.cashed_on.add((rnd, card))
        self._reveal(view, city)
        self.fitted = None
        g = self.g
        if g is not None:
            g.cash(check, _HAND_MISS, self.rng.getrandbits)
        else:
            self._cash_each(check)
        self._normalise(view)

    def _facts(self, view: View, code: int, r: Record, b: Board) -> None:
        """Wiretap, Satellite Sweep and Informant (R16, R17)."""
        if code == _WIRETAP:
            self._pull()
            self._h = [list(r[6]) for _ in self._h]
            self._push()
            self.fitted = None
        elif code == _SWEEP:
            m = b.cont_mask[r[3]]
            self.pub &= m
            self._restrict(view, m)
        else:  # _INFORMANT
            city: int = r[3]
            m = b.nbr_mask[city] | (1 << city)
            yes = bool(r[4])
            self.pub &= m if yes else ~m
            self._restrict(view, m if yes else b.all_mask & ~m)

    def _set_barrier(self, r: int, x: int) -> None:
        bl = list(self.barriers)
        bl[r] = x
        self.barriers = tuple(bl)

    def _bkey(self) -> bytes:
        """``barriers`` as bytes (one per route, 0 to 2), for the memo keys:
        bytes hash once and remember it, where a tuple of every route would
        be hashed again at each lookup. Taken again whenever ``barriers`` is
        another tuple (anyone may set it: a probe scoring plans does)."""
        if self.bkey_of is not self.barriers:
            self.bkey_of = self.barriers
            self.bkey = bytes(self.barriers)
        return self.bkey

    def _draw(self, view: View, seat: int, drawn: int, items: tuple[Any, ...]) -> None:
        getrandbits = self.rng.getrandbits
        self.fitted = None
        # A hand is tested as a bitmask of its checks (cheaper than `in` on
        # the list); the mask is taken afresh whenever the hand changed.
        if seat == ANGELA:
            pool = self._unseen(view)
            g = self.g
            if g is None or not g.draw(pool, drawn, getrandbits):
                self._pull()
                self._draw_each(pool, drawn)
                self._push()
            return
        got = 0  # Jessah's own draw: those checks were in the deck
        for c in items:
            got |= 1 << c
        if not got:
            return
        pool = [c for c in self._unseen(view) if not got >> c & 1]
        g = self.g
        if g is None or not g.replace(got, pool, getrandbits):
            self._pull()
            self._jessah_drew(got, pool)
            self._push()

    def _jessah_drew(self, got: int, pool: list[int]) -> None:
        """Each check of ``got`` (a bitmask: Jessah drew them) in a hand is
        replaced by one of ``pool`` the hand does not hold. The reference for
        the C guesses' ``replace``."""
        getrandbits = self.rng.getrandbits
        for h in self._h:
            for i in range(len(h)):
                if got >> h[i] & 1:
                    held = _mask(h)
                    free = [x for x in pool if not held >> x & 1]
                    if free:
                        h[i] = free[_below(getrandbits, len(free))]

    def _draw_each(self, pool: list[int], drawn: int) -> None:
        """Angela drew ``drawn`` checks: each guess's hand draws them from the
        checks of ``pool`` it does not hold. The reference for
        _dossier_core.c's ``draw``."""
        getrandbits = self.rng.getrandbits
        for h in self._h:
            held = _mask(h)
            free = [c for c in pool if not held >> c & 1]
            for _ in range(drawn):
                if free:
                    h.append(free.pop(_below(getrandbits, len(free))))

    def _cash_each(self, x: int) -> None:
        """Angela cashed check ``x``: each hand that held it gives it up; the
        others keep ``_HAND_MISS`` of their weight and lose a check drawn at
        random. In place. The reference for _dossier_core.c's ``cash``."""
        getrandbits = self.rng.getrandbits
        w = self._w
        for i, h in enumerate(self._h):
            if x in h:
                h.remove(x)
            else:
                w[i] *= _HAND_MISS
                if h:
                    h.pop(_below(getrandbits, len(h)))

    def _card(self, rnd: int, card: int, items: tuple[Any, ...], b: Board) -> None:
        """Note a Bank half Angela performs on ``card`` (its ``items``: per
        half, who performs it), and whether one of her movements follows it
        on the same card."""
        if not self.round_cards:
            return
        a, x = items
        halves = b.halves[self.round_cards[card]]
        seq = performances(a, x, self.initiative)
        for j, (seat, half) in enumerate(seq):
            if seat == ANGELA and halves[half][0] == BANK:
                before = any(s == ANGELA and halves[h][0] == MOVEMENT for s, h in seq[j + 1:])
                self.pending_bank = (rnd, card, before)

    def _bank_declined(self, view: View) -> None:
        pb = self.pending_bank
        if pb is None:
            return
        self.pending_bank = None
        if (pb[0], pb[1]) in self.cashed_on or not self.started:
            return
        g = self.g
        if g is not None:
            g.decline(_tables(self.b), self.b.check_cont, self.jessah, self.up == 0, self.decline)
        else:
            self._decline_each()
        self._normalise(view)

    def _decline_each(self) -> None:
        """A Bank she performed without cashing: each guess whose hand could
        cash where it stands keeps ``decline`` of its weight, unless she is
        on her last identity next to Jessah. The reference for the C
        guesses' ``decline``."""
        b = self.b
        cc = b.check_cont
        cont = b.cont
        dj = b.dist[self.jessah]
        last = self.up == 0
        d = self.decline
        for i, (c, h) in enumerate(zip(self._c, self._h)):
            k = cont[c]
            if any(cc[x] == k for x in h) and not (last and dj[c] <= 1):
                self._w[i] *= d

    # ------------------------------------------------------------ movement

    def _announce(self, view: View, steps: int, name: str, items: tuple[Any, ...], b: Board) -> None:
        journalist = name == "journalist"
        escape = name == "escape"
        ann: tuple[tuple[int, int], ...] = () if journalist else tuple(items)
        # The model's plans from a city, and their danger, are the same for
        # every guess there; only the way to the cashes differs by hand. A
        # city none of whose plans gives the announcement rules its guesses
        # out before anything is scored. The C reading takes _reach's part
        # from the public belief itself.
        g = self.g
        if g is not None and g.announce(_tables(b), ann, steps, journalist, escape, self.pub, self.jessah,
                                        self.up, self.radars, self.barriers, self.precise,
                                        self.rng.random, self.tau, self.eps) is None:
            self._pull()  # a reading the C code leaves to the Python source
        if self.g is None:
            wide, quiet = self._reach(b, steps, journalist)
            self._c, self._w = self._read_guesses(b, steps, journalist, escape, ann, wide, quiet)
        if journalist:
            self.pub = reach(self.pub, b.nbr_mask, steps)
        else:
            self.pub = after_movement(self.pub, steps, b.open_masks(self.barriers), self.radars, b.cont_mask, ann)
        for k, _ in ann:
            if self.radars[k] == 1:
                self.radars[k] = 0  # a white radar is returned when triggered (R14)
        self._normalise(view)

    def _read_guesses(self, b: Board, steps: int, journalist: bool, escape: bool, ann: tuple[tuple[int, int], ...],
                      wide: int, quiet: int) -> tuple[list[int], list[float]]:
        """Each guess's new city, drawn among the ends of the plans that give
        the announcement, and its weight times the announcement's probability
        (before normalising). The reference for _dossier_core.c's ``announce``."""
        places: list[_Place | None] = [None] * b.n  # by city
        tried = 0  # the cities whose entry in places is computed (None: ruled out)
        ways: dict[int, list[int]] = {}
        rand = self.rng.random
        check_mask = b.check_mask
        hands = self._h
        old = self._w
        cities: list[int] = []
        w: list[float] = []
        # Copies of a guess sit side by side after a resampling (about half
        # the guesses): one with the previous guess's city and targets takes
        # its place and outcome without looking them up.
        last_c = -1
        last_t = -1
        last_place: _Place | None = None
        last_got: tuple[float, list[float]] | None = None
        for i, c in enumerate(self._c):
            targets = 0  # _targets, inline
            for x in hands[i]:
                targets |= check_mask[x]
            if c == last_c and targets == last_t:
                place = last_place
                got = last_got
            else:
                if tried >> c & 1:
                    place = places[c]
                else:
                    place = places[c] = self._place(b, c, steps, journalist, ann, wide, quiet)
                    tried |= 1 << c
                got = None
                if place is not None:
                    got = place.outcomes.get(targets)
                    if got is None:
                        way: list[int] | None = None
                        if targets:
                            way = ways.get(targets)
                            if way is None:
                                way = ways[targets] = self._way(b, targets)
                        scores = self._scores(b, c, place.states, place.danger, way, escape)
                        got = place.outcomes[targets] = self._chances(scores, place.match, place.ends)
                last_c, last_t, last_place, last_got = c, targets, place, got
            if place is None or got is None:  # got is None only when place is
                cities.append(c)
                w.append(0.0)
                continue
            p_ann, qs = got
            if p_ann <= 0:
                cities.append(c)
                w.append(0.0)
                continue
            r = rand() * p_ann
            to = place.to
            pick = to[-1]
            acc = 0.0
            for j in range(len(qs)):
                acc += qs[j]
                if r <= acc:
                    pick = to[j]
                    break
            cities.append(pick)
            w.append(old[i] * p_ann)
        return cities, w

    def _place(self, b: Board, here: int, steps: int, journalist: bool, ann: tuple[tuple[int, int], ...],
               wide: int, quiet: int) -> _Place | None:
        """The plans from ``here`` and the ones among them that give ``ann``;
        None when none does."""
        states = self._states(b, here, steps, journalist)
        match, ends = _matching(states, ann)
        if not match:
            return None
        return _Place(states, self._danger(b, states, wide, quiet), match, ends)

    def _movement(self, b: Board, here: int, targets: int, steps: int, ann: tuple[tuple[int, int], ...],
                  escape: bool, journalist: bool) -> tuple[float, list[tuple[int, float]]]:
        """(the announcement's probability, [(end city, probability)]) for a
        forger in ``here`` whose hand cashes in ``targets``."""
        states, scores = self.plans(b, here, targets, steps, escape, journalist)
        return self._outcome(states, scores, ann)

    def _outcome(self, states: list[State], scores: list[float],
                 ann: tuple[tuple[int, int], ...]) -> tuple[float, list[tuple[int, float]]]:
        # _choice's probabilities, computed only for the plans that give ``ann``
        match, ends = _matching(states, ann)
        return self._given(scores, match, ends)

    def _given(self, scores: list[float], match: list[int],
               ends: list[tuple[int, list[int]]]) -> tuple[float, list[tuple[int, float]]]:
        """(the announcement's probability, [(end city, probability)]) from
        the plans' scores and those that give it (:func:`_matching`)."""
        p_ann, qs = self._chances(scores, match, ends)
        return p_ann, [(ends[i][0], qs[i]) for i in range(len(qs))]

    def _chances(self, scores: list[float], match: list[int],
                 ends: list[tuple[int, list[int]]]) -> tuple[float, list[float]]:
        """:meth:`_given` with the probabilities alone, in the order of
        ``ends``' cities (no (city, probability) pair built per end)."""
        ex, t = self._softmax(scores)
        k = len(ex)
        eps = self.eps
        ps = [(1 - eps) * ex[i] / t + eps / k for i in match]
        p_ann = 0.0
        for p in ps:
            p_ann += p
        qs: list[float] = []
        for _, js in ends:
            q = 0.0
            for j in js:
                q += ps[j]
            qs.append(q)
        return p_ann, qs

    def plans(self, b: Board, here: int, targets: int, steps: int, escape: bool,
              journalist: bool) -> tuple[list[State], list[float]]:
        """Every (end city, triggers) of a movement from ``here`` and the
        model's score of each, for a forger whose hand cashes in ``targets``
        (the public facts as last read)."""
        wide, quiet = self._reach(b, steps, journalist)
        states = self._states(b, here, steps, journalist)
        danger = self._danger(b, states, wide, quiet)
        way = self._way(b, targets) if targets else None
        return states, self._scores(b, here, states, danger, way, escape)

    def _danger(self, b: Board, states: list[State], wide: int, quiet: int) -> list[float]:
        """The part of each plan's score that does not depend on her hand: a
        little per radar tripped, and the danger of ending near Jessah where
        few other cities could hide her (``wide`` and ``quiet`` from
        :meth:`_reach`)."""
        djrow = b.dist[self.jessah]
        ball = b.ball[self.jessah]
        w_danger = (10.0 if self.up == 0 else 4.0) * 0.9  # the expert's (1.4 - risk) at risk 0.5
        out: list[float] = []
        for c, trig in states:
            s = -0.1 * float(len(trig))  # the same product, without boxing the int
            d = djrow[c]
            if d < len(_PROXIMITY):
                if trig:
                    k, tc = trig[-1]
                    seen_by = b.ball[tc][1] if tc >= 0 else b.cont_mask[k]
                    hide = (seen_by & wide) | (1 << c)
                else:
                    hide = quiet | (1 << c)
                crowd = (hide & ball[d]).bit_count()
                share = 2.0 / crowd
                s -= w_danger * _PROXIMITY[d] * (share if share < 1.0 else 1.0)
            out.append(s)
        return out

    def _scores(self, b: Board, here: int, states: list[State], danger: list[float], way: list[int] | None,
                escape: bool) -> list[float]:
        """The model's score of each plan: its danger (:meth:`_danger`), then
        minus the steps left to a cash (``way``), plus, on an escape, the
        distance from Jessah; staying put breaks ties."""
        djrow = b.dist[self.jessah]
        w_way = 0.3 if escape else 1.0
        scores: list[float] = []
        for (c, trig), s in zip(states, danger):
            if way is not None:
                x = way[c]
                s -= w_way * (x if x < 8 else 8)
            if escape:
                d = djrow[c]
                s += 0.2 * (d if d < 5 else 5)
            if c == here and not trig:
                s += 0.01
            scores.append(s)
        return scores

    def _states(self, b: Board, here: int, steps: int, journalist: bool) -> list[State]:
        """Every (end city, triggers) of a movement of up to ``steps`` steps."""
        key = ("dossier states", here, steps, self._bkey(), tuple(self.radars), self.precise, journalist)
        got = b.memo.get(key)
        if got is not None:
            return got  # type: ignore[no-any-return]
        cont = b.cont
        radars = self.radars
        barriers = self.barriers
        precise = self.precise
        seen: set[State] = {(here, ())}
        layer: list[State] = [(here, ())]
        for _ in range(steps):
            nxt: list[State] = []
            for c, trig in layer:
                for nx, r in b.nbr_routes[c]:
                    if barriers[r] and not journalist:
                        continue
                    t2 = trig
                    if not journalist:
                        k = cont[nx]
                        rk = radars[k]
                        if rk == 2 or (rk == 1 and all(k != t[0] for t in trig)):
                            t2 = (*trig, (k, nx if precise else -1))
                    st = (nx, t2)
                    if st not in seen:
                        seen.add(st)
                        nxt.append(st)
            layer = nxt
            if not layer:
                break
        return b.remember(key, sorted(seen))  # type: ignore[no-any-return]

    def _way(self, b: Board, targets: int) -> list[int]:
        """Per city, the steps (barriers closed) to the nearest city where the
        hand cashes, a city next to Jessah counting up to 3 more (the expert
        forger's cash penalty)."""
        key = ("dossier way", targets, self._bkey(), self.jessah)
        got = b.memo.get(key)
        if got is not None:
            return got  # type: ignore[no-any-return]
        # the targets by their penalty: 3 on Jessah, 2 next to her, 1 two
        # steps away, 0 farther (ball[d]: the cities within d steps of her)
        ball = b.ball[self.jessah]
        b0, b1, b2 = ball[0], ball[1], ball[2]
        starts = [targets & ~b2, targets & b2 & ~b1, targets & b1 & ~b0, targets & b0]
        d = b.staggered_dist(starts, self.barriers)
        return b.remember(key, d)  # type: ignore[no-any-return]

    def _reach(self, b: Board, steps: int, journalist: bool) -> tuple[int, int]:
        """Where the public can place her after the movement (``wide``), and
        the part of it she can reach without tripping a radar (``quiet``)."""
        key = ("dossier reach", self.pub, steps, None if journalist else self._bkey(), tuple(self.radars))
        got: Any = b.memo.get(key)
        if got is None:
            masks = b.nbr_mask if journalist else b.open_masks(self.barriers)
            wide = self.pub
            for _ in range(steps):
                wide = expand(wide, masks)
            watched = 0
            if not journalist:
                for k, rk in enumerate(self.radars):
                    if rk:
                        watched |= b.cont_mask[k]
            got = b.remember(key, (wide, (wide & ~watched) | self.pub))
        return got  # type: ignore[no-any-return]
