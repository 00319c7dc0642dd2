"""Map tables the heuristic strategies share, computed once per component set.

Everything here depends only on the (immutable) :class:`Components`, so it is
built the first time a strategy meets a component set and cached by the
object's id; no table is rebuilt per decision. Sets of cities are int bitmasks
as in the engine (city ``c`` is bit ``1 << c``).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from typing import Any, Final

from rnsim.games.red_notice.engine.belief import open_masks
from rnsim.games.red_notice.rules.components import BANK, CHECK, JOKER, MOVEMENT, SECURITY, Components

__all__ = ["Board", "board_for", "BANK", "CHECK", "JOKER", "MOVEMENT", "SECURITY"]

FAR: Final = 99
# Entries kept in Board.memo per process (a few kB each at most).
MEMO_SIZE = 30_000



def _layered_dist(n: int, starts: Sequence[int], masks: list[int]) -> list[int]:
    """Per city of ``n``, the least k + steps from a city of ``starts[k]``
    over the neighbour bitmasks ``masks`` (FAR if none): one breadth-first
    search on bitmasks, the cities of ``starts[k]`` joining at layer k
    (``masks`` a list: compiled, its items are read as machine ints)."""
    d = [FAR] * n
    late = len(starts)
    reached = 0
    frontier = 0
    dist = 0
    while frontier or dist < late:
        if dist < late:
            frontier |= starts[dist] & ~reached
        reached |= frontier
        nxt = 0
        m = frontier
        while m:
            low = m & -m
            x = low.bit_length() - 1
            d[x] = dist
            nxt |= masks[x]
            m ^= low
        frontier = nxt & ~reached
        dist += 1
    return d

class Board:
    """Distances, neighbour lists and masks of one component set."""

    __slots__ = (
        "comps", "n", "nbr", "nbr_mask", "nbr_routes", "cont", "cont_mask", "dist", "dist_to_mask_cache",
        "check_cont", "check_mask", "check_value", "halves", "centrality", "route_ends", "degree", "all_mask",
        "open_dist_cache", "ball", "open_masks_cache", "memo", "native", "_barred_of", "_barred", "_masks_of",
        "_masks",
    )

    def __init__(self, comps: Components) -> None:
        self.comps = comps
        n = self.n = comps.n_cities
        self.all_mask = (1 << n) - 1
        self.nbr: tuple[tuple[int, ...], ...] = tuple(tuple(c for c, _ in comps.neighbours[x]) for x in range(n))
        self.nbr_routes: tuple[tuple[tuple[int, int], ...], ...] = comps.neighbours
        self.nbr_mask = comps.neighbour_mask
        self.cont = comps.city_continent
        self.cont_mask = comps.continent_mask
        self.route_ends = comps.routes
        self.degree = tuple(len(x) for x in self.nbr)
        self.dist: tuple[tuple[int, ...], ...] = tuple(tuple(self._bfs(s)) for s in range(n))
        self.check_cont = tuple(c.continent for c in comps.checks)
        # per check, the cities where it cashes (its continent's)
        self.check_mask = tuple(self.cont_mask[k] for k in self.check_cont)
        self.check_value = tuple(c.value for c in comps.checks)
        # (action, icons) per card half, by card id
        self.halves = tuple(tuple((h.action, h.icons) for h in card) for card in comps.cards)
        # Mean distance to every city: low is central (a good hunting post).
        self.centrality = tuple(sum(row) / n for row in self.dist)
        self.dist_to_mask_cache: dict[int, tuple[int, ...]] = {}
        # ball[c][d]: the cities within d steps of c (d past the diameter: all).
        span = max(max(r) for r in self.dist) + 1
        self.ball: tuple[tuple[int, ...], ...] = tuple(
            tuple(sum(1 << x for x in range(n) if self.dist[c][x] <= d) for d in range(span + 1)) for c in range(n))
        # keyed by (targets, barred(barriers)): an int hashes in a few
        # instructions, a tuple of every route's barrier in a thousand
        self.open_dist_cache: dict[tuple[int, int], list[int]] = {}
        self.open_masks_cache: dict[tuple[int, ...], list[int]] = {}
        # The last barriers asked of barred() and open_masks(), and the
        # answers: a game asks about one tuple of barriers (the state's,
        # shared by its views) again and again, and holding the tuple keeps
        # its identity from being reused, so ``is`` finds it without a hash.
        self._barred_of: tuple[int, ...] | None = None
        self._barred = 0
        self._masks_of: tuple[int, ...] | None = None
        self._masks: list[int] = []
        # Free for strategies: results that depend on the map only.
        self.memo: dict[Any, Any] = {}
        # The tables of the dossier's C reading (dossier.core.tables), built on
        # first use; False when the map is too big for it.
        self.native: Any = None

    def _bfs(self, src: int) -> list[int]:
        d = [FAR] * self.n
        d[src] = 0
        q = deque([src])
        while q:
            x = q.popleft()
            for y in self.nbr[x]:
                if d[y] == FAR:
                    d[y] = d[x] + 1
                    q.append(y)
        return d

    def cash_targets(self, hand: Sequence[int], shown: int = -1) -> int:
        """The cities where the checks of ``hand`` can be cashed, leaving out one
        copy of ``shown`` (the check a start decision puts under the deck)."""
        rest = list(hand)
        if shown >= 0:
            rest.remove(shown)
        targets = 0
        for c in rest:
            targets |= self.check_mask[c]
        return targets

    def dist_to_mask(self, mask: int) -> tuple[int, ...]:
        """Per city, the distance (barriers ignored) to the nearest city of ``mask``."""
        got = self.dist_to_mask_cache.get(mask)
        if got is not None:
            return got
        # from every city of the mask at once: the least of their distances
        d = _layered_dist(self.n, (mask,), list(self.nbr_mask))
        out = tuple(d)
        if len(self.dist_to_mask_cache) < 4096:
            self.dist_to_mask_cache[mask] = out
        return out

    def open_dist_from(self, targets: int, barriers: tuple[int, ...]) -> list[int]:
        """Distance to the nearest city of ``targets`` when barred routes are
        closed (cached: the same question comes back all round long)."""
        key = (targets, self.barred(barriers))
        got = self.open_dist_cache.get(key)
        if got is not None:
            return got
        if len(self.open_dist_cache) > 20000:
            self.open_dist_cache.clear()
        got = self.open_dist_cache[key] = self._open_dist_from(targets, barriers)
        return got

    def _open_dist_from(self, targets: int, barriers: Sequence[int]) -> list[int]:
        d = [FAR] * self.n
        q: deque[int] = deque()
        for c in bits(targets):
            d[c] = 0
            q.append(c)
        nr = self.nbr_routes
        while q:
            x = q.popleft()
            dx = d[x] + 1
            for y, r in nr[x]:
                if d[y] == FAR and not barriers[r]:
                    d[y] = dx
                    q.append(y)
        return d

    def barred(self, barriers: tuple[int, ...]) -> int:
        """The routes with a barrier (white or black), route ``r`` as bit
        ``1 << r``: what a walk on open routes depends on, as a cheap key."""
        if barriers is self._barred_of:
            return self._barred
        m = 0
        for r in range(len(barriers)):
            if barriers[r]:
                m |= 1 << r
        self._barred_of = barriers
        self._barred = m
        return m

    def open_masks(self, barriers: tuple[int, ...]) -> list[int]:
        """Neighbour masks with barred routes closed (cached; do not mutate)."""
        last = self._masks_of
        if barriers is last or barriers == last:  # a copy compares in half a hash's time
            return self._masks
        got = self.open_masks_cache.get(barriers)
        if got is None:
            if len(self.open_masks_cache) > 4096:
                self.open_masks_cache.clear()
            got = self.open_masks_cache[barriers] = self._open_masks(barriers)
        self._masks_of = barriers
        self._masks = got
        return got

    def staggered_dist(self, starts: Sequence[int], barriers: tuple[int, ...]) -> list[int]:
        """Per city, min over k and the cities t of ``starts[k]`` of k + the
        steps from t over routes without a barrier (FAR if none): a
        breadth-first search from every start at once, those of ``starts[k]``
        joining at layer k."""
        return _layered_dist(self.n, starts, self.open_masks(barriers))

    def remember(self, key: Any, value: Any) -> Any:
        """Store a map-only result in ``memo`` (bounded: cleared when full)."""
        if len(self.memo) >= MEMO_SIZE:
            self.memo.clear()
        self.memo[key] = value
        return value

    def dist_sum(self, c: int, mask: int) -> int:
        """Sum of the distances from ``c`` to every city of ``mask``."""
        row = self.dist[c]
        total = 0
        while mask:  # each city of the mask (compiled: machine ints, no bit_count method call)
            low = mask & -mask
            total += row[low.bit_length() - 1]
            mask ^= low
        return total

    def _open_masks(self, barriers: Sequence[int]) -> list[int]:
        return open_masks(self.nbr_mask, self.route_ends, barriers)


def bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


_BOARDS: dict[int, Board] = {}


def board_for(comps: Components) -> Board:
    """The cached tables of a component set (keyed by the object's id, which is
    safe because the cache also holds the object and so keeps the id alive)."""
    b = _BOARDS.get(id(comps))
    if b is None or b.comps is not comps:
        b = Board(comps)
        _BOARDS[id(comps)] = b
    return b
