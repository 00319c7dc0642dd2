"""A weighted public belief: a probability over the city Angela is in, from
public facts only (R24, R25).

The set-valued belief (:mod:`.belief`) says where she *can* be; this says how
likely each of those cities is, under a stated model of how she moves.

Model and assumptions
---------------------
- **Movement.** Within a movement, the public models Angela as a forger who
  picks uniformly at random among her movement options at each step: every
  open neighbour (barred routes closed, R18), ``stay`` and ``stop``. A path of
  a movement of up to ``steps`` steps therefore has the probability of that
  walk; paths whose radar triggers disagree with the announcement (R14, R15)
  are ruled out and the rest renormalised. Staying is a step and trips the
  radar of her continent like a move does (R14); a white radar is
  deactivated by its first trigger, a black one never (R12). The support is
  exactly the set-valued belief of :func:`.belief.after_movement` (a test checks).
- **Start.** Uniform over the start continent's cities (her start city is
  hidden; only the continent is public).
- **Inspections, captures, cashes, informant** rule cities out or pin her
  down: the weights are restricted and renormalised (Bayes with a 0/1 likelihood).
- **Security spends.** A spend removing a white radar is public. Under the
  uniform-walk model it says nothing about her city. A real forger removes
  the radar she is about to trip, so :func:`after_radar_removal` takes a
  likelihood ratio ``leak``: the removal is ``leak`` times as likely when she
  stands on that continent or next to it as elsewhere (``leak = 1``: no
  information). The expert forger's measured habit (after a removal she is on
  that continent 91% of the time against 48% under the uniform belief) is a
  ratio of about 10.

Weights are lists of floats indexed by city, summing to 1 over the support.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

Weights = list[float]


def uniform(mask: int, n: int) -> Weights:
    """Uniform weights over the cities of ``mask``."""
    k = mask.bit_count()
    if not k:
        raise ValueError("uniform: empty belief")
    p = 1.0 / k
    return [p if mask >> c & 1 else 0.0 for c in range(n)]


def support(w: Sequence[float]) -> int:
    """The set of cities with positive weight, as a bitmask."""
    m = 0
    for c, p in enumerate(w):
        if p > 0.0:
            m |= 1 << c
    return m


def normalised(w: Sequence[float]) -> Weights:
    total = math.fsum(w)
    if total <= 0.0:
        raise ValueError("normalised: every city was ruled out")
    return [p / total for p in w]


def restrict(w: Sequence[float], mask: int) -> Weights:
    """Bayes with a 0/1 likelihood: only the cities of ``mask`` remain
    (failed inspections rule a city out, an informant's answer a region)."""
    return normalised([p if mask >> c & 1 else 0.0 for c, p in enumerate(w)])


def reveal(city: int, n: int) -> Weights:
    """She was seen (a cash, a capture, a Precise Radar city is pinned later)."""
    w = [0.0] * n
    w[city] = 1.0
    return w


def after_radar_removal(w: Sequence[float], near: int, leak: float) -> Weights:
    """A white radar removed by a security spend: the cities ``near`` it (its
    continent and their neighbours) become ``leak`` times as likely."""
    if leak < 0.0:
        raise ValueError(f"after_radar_removal: leak must be >= 0, got {leak}")
    return normalised([p * leak if near >> c & 1 else p for c, p in enumerate(w)])


def entropy_bits(w: Sequence[float]) -> float:
    """The Shannon entropy of the belief, in bits (0 when she is pinned down)."""
    return -math.fsum(p * math.log2(p) for p in w if p > 0.0)


def _trigger_masks(radars: Sequence[int], continent_mask: Sequence[int],
                   announced: Sequence[tuple[int, int]]) -> list[int]:
    """Per number of announced triggers matched so far, the cities whose
    continent still has an active radar (as in :func:`.belief.after_movement`)."""
    on = [r != 0 for r in radars]
    out = []
    for k in range(len(announced) + 1):
        m = 0
        for cont, active in enumerate(on):
            if active:
                m |= continent_mask[cont]
        out.append(m)
        if k < len(announced):
            cont = announced[k][0]
            if radars[cont] == 1:
                on[cont] = False
    return out


def after_movement(
    w: Sequence[float],
    steps: int,
    nbr: Sequence[int],
    radars: Sequence[int],
    continent_mask: Sequence[int],
    announced: Sequence[tuple[int, int]],
    journalist: bool = False,
    stay: float = 1.0,
    stop: float = 1.0,
) -> Weights:
    """Weights after a movement of up to ``steps`` steps with the given
    announcement, under the uniform-walk model (module docstring).

    ``nbr`` are neighbour masks with barred routes removed (for the Journalist,
    who crosses barriers and trips no radar, the full map's and ``announced``
    is empty); ``radars`` as when the movement began, less removals during it;
    ``announced`` the ordered (continent, city or -1) triggers. ``stay`` and
    ``stop`` weigh those options against a move to one neighbour (1.0 each:
    every option equally likely).
    """
    n_cities = len(w)
    n = 0 if journalist else len(announced)
    trig = _trigger_masks(radars, continent_mask, ()) if journalist else _trigger_masks(radars, continent_mask, announced)
    if journalist:
        trig = [0]
    # live[k][c]: probability of being at c, still moving, having matched k triggers.
    live = [[0.0] * n_cities for _ in range(n + 1)]
    live[0] = list(w)
    final = [0.0] * n_cities
    nbr_lists = [[x for x in range(n_cities) if nbr[c] >> x & 1] for c in range(n_cities)]
    for _ in range(steps):
        nxt = [[0.0] * n_cities for _ in range(n + 1)]
        any_live = False
        for k in range(n + 1):
            row = live[k]
            tm = trig[k]
            for c, p in enumerate(row):
                if p == 0.0:
                    continue
                dests = nbr_lists[c]
                share = p / (len(dests) + stay + stop)  # each neighbour, stay, stop
                if k == n:
                    final[c] += share * stop
                for i, x in enumerate((c, *dests)):
                    part = share * stay if i == 0 else share
                    if tm >> x & 1:
                        if k < n:
                            cont, city = announced[k]
                            if continent_mask[cont] >> x & 1 and (city < 0 or city == x):
                                nxt[k + 1][x] += part
                                any_live = True
                        # a trigger that was not announced: this path did not happen
                    else:
                        nxt[k][x] += part
                        any_live = True
        live = nxt
        if not any_live:
            break
    for c, p in enumerate(live[n]):
        final[c] += p  # the steps ran out
    return normalised(final)


class Tracker:
    """Keeps a weighted belief up to date from the successive views of one seat.

    A strategy calls :meth:`observe` with each view it is handed. Between two
    of its views the public events are not listed one by one in a view (issue
    12, item 1), so the tracker infers them from what changed: a belief that
    only shrank (failed inspections, an informant) restricts the weights; a
    new sighting pins her down; a movement is recognised as the number of
    steps, start (the old belief, or a sighting since) and radar and barrier
    state whose set-valued belief is exactly the new public belief, and the
    weights are walked by :func:`after_movement`. When no such movement is
    found (two movements in a row, say) the weights fall back to uniform over
    the public belief: the tracker is never more certain than the public facts.
    A white radar gone with security spent and no announcement is read with
    the likelihood ratio ``leak`` (:func:`after_radar_removal`).
    """

    __slots__ = ("leak", "stay", "stop", "walk", "w", "prev", "n", "fallbacks")

    MAX_STEPS = 5

    def __init__(self, leak: float = 1.0, stay: float = 1.0, stop: float = 1.0, walk: bool = True) -> None:
        self.walk = walk
        self.leak = leak
        self.stay = stay
        self.stop = stop
        self.w: Weights | None = None
        self.prev = None  # the last view observed
        self.n = 0
        self.fallbacks = 0

    def reset(self) -> None:
        self.w = None
        self.prev = None

    def observe(self, view) -> Weights:  # type: ignore[no-untyped-def]
        comps = view.comps
        n = self.n = comps.n_cities
        belief = view.belief
        prev = self.prev
        self.prev = view
        w = self.w
        if w is None or prev is None:
            self.w = uniform(belief, n)
            return self.w
        if belief == prev.belief and view.last_announcement == prev.last_announcement \
                and view.last_seen == prev.last_seen:
            w = self._leak(w, prev, view, comps)
            self.w = w
            return w
        moved = view.last_announcement != prev.last_announcement or view.last_seen != prev.last_seen \
            or bool(belief & ~support(w))
        if not moved:
            self.w = self._leak(restrict(w, belief), prev, view, comps)
            return self.w
        if belief.bit_count() == 1:
            self.w = reveal(belief.bit_length() - 1, n)
            return self.w
        got = self._movement(w, prev, view, comps) if self.walk else uniform(belief, n)
        if got is None:
            self.fallbacks += 1
            got = uniform(belief, n)
        self.w = self._leak(got, prev, view, comps)
        return self.w

    def _leak(self, w: Weights, prev, view, comps) -> Weights:  # type: ignore[no-untyped-def]
        if self.leak == 1.0 or view.security >= prev.security:
            return w
        announced = {k for k, _ in view.last_announcement} if view.last_announcement != prev.last_announcement else set()
        near = 0
        for k, r in enumerate(prev.radars):
            if r == 1 and view.radars[k] == 0 and k not in announced:
                m = comps.continent_mask[k]
                near |= m
                for c in range(comps.n_cities):
                    if m >> c & 1:
                        near |= comps.neighbour_mask[c]
        if not near or not support(w) & near:
            return w
        return after_radar_removal(w, near, self.leak)

    def _movement(self, w: Weights, prev, view, comps) -> Weights | None:  # type: ignore[no-untyped-def]
        from rnsim.games.red_notice.engine import belief as bel

        belief = view.belief
        ann = view.last_announcement
        announced = {k for k, _ in ann}
        starts: list[Weights] = [w]
        seen = view.last_seen
        if seen is not None and seen != prev.last_seen and seen[0] >= 0 and seen[2] == view.round:
            starts.insert(0, reveal(seen[0], comps.n_cities))
        radar_sets = []
        for base in (prev.radars, view.radars):
            r = [x if x else (1 if k in announced and prev.radars[k] == 1 else 0) for k, x in enumerate(base)]
            if tuple(r) not in radar_sets:
                radar_sets.append(tuple(r))
        barrier_sets = [prev.barriers] if prev.barriers == view.barriers else [prev.barriers, view.barriers]
        # An exact match first; else the smallest movement that covers the
        # belief (the rest was ruled out by inspections since).
        covering: tuple[Weights, list[int], tuple[int, ...], int] | None = None
        for start in starts:
            s0 = support(start)
            for bars in barrier_sets:
                masks = bel.open_masks(comps.neighbour_mask, comps.routes, bars)
                for radars in radar_sets:
                    for steps in range(self.MAX_STEPS + 1):
                        cand = bel.after_movement(s0, steps, masks, radars, comps.continent_mask, ann)
                        if cand & belief != belief:
                            continue
                        if cand == belief:
                            return self._walk(start, steps, masks, radars, comps, ann, belief)
                        if covering is None:
                            covering = (start, masks, radars, steps)
                        break
        if covering is not None:
            start, masks, radars, steps = covering
            return self._walk(start, steps, masks, radars, comps, ann, belief)
        return None

    def _walk(self, start: Weights, steps: int, masks: list[int], radars: tuple[int, ...], comps, ann, belief: int  # type: ignore[no-untyped-def]
              ) -> Weights | None:
        try:
            return restrict(after_movement(start, steps, masks, radars, comps.continent_mask, ann,
                                           stay=self.stay, stop=self.stop), belief)
        except ValueError:
            return None
