"""The public belief about Angela: the bitmask of cities she can be in, computed
from public facts only (R24, R25).

After one of Angela's movements, the public knows: where she could have started
(the belief), how many steps she had, the barriers, the radars, and her
announcement (R15: the ordered continents, plus cities under Precise Radars).
The belief after the movement is every city at the end of some path of at most
that many steps whose radar triggers produce exactly that announcement. It is
computed by propagating, for each k, the cities reachable having matched the
first k announced triggers.
"""

from __future__ import annotations

from collections.abc import Sequence


def expand(mask: int, nbr: Sequence[int]) -> int:
    """Cities reachable in one step (or by staying) from any city in ``mask``."""
    out = mask
    m = mask
    if isinstance(nbr, list):
        # the same loop, a list's items read without the generic item lookup
        # when compiled (the engine's and the players' maps are lists); typed
        # list[int] so that the items are read as C ints, not objects
        masks: list[int] = nbr
        while m:
            low = m & -m
            out |= masks[low.bit_length() - 1]
            m ^= low
        return out
    while m:
        low = m & -m
        out |= nbr[low.bit_length() - 1]
        m ^= low
    return out


def open_masks(nbr: Sequence[int], routes: Sequence[tuple[int, int]], barriers: Sequence[int]) -> list[int]:
    """Neighbour masks with every barred route removed (barriers block both
    directions, R18): the map Angela moves on."""
    masks = list(nbr)
    for r, b in enumerate(barriers):
        if b:
            x, y = routes[r]
            masks[x] &= ~(1 << y)
            masks[y] &= ~(1 << x)
    return masks


def reach(mask: int, nbr: Sequence[int], steps: int) -> int:
    """Cities reachable in at most ``steps`` steps (stays allowed)."""
    for _ in range(steps):
        nxt = expand(mask, nbr)
        if nxt == mask:
            break
        mask = nxt
    return mask


def after_movement(
    start: int,
    steps: int,
    nbr: Sequence[int],
    radars: Sequence[int],
    continent_mask: Sequence[int],
    announced: Sequence[tuple[int, int]],
) -> int:
    """Belief after a movement of up to ``steps`` steps with the given announcement.

    ``nbr`` are neighbour masks with barred routes already removed; ``radars`` is
    the radar on each continent when the movement began (0 none, 1 white,
    2 black), less any removed by spending security during it; ``announced`` is
    the ordered list of (continent, city or -1) triggers.
    """
    n = len(announced)
    if n == 0:
        return _untriggered(start, steps, nbr, radars, continent_mask)
    # Continents whose radar is still active after the first k triggers: a
    # white radar is deactivated by its trigger, a black one never (R12, R14).
    active: list[int] = []
    on = 0
    for k, r in enumerate(radars):
        if r:
            on |= 1 << k
    for k in range(n + 1):
        active.append(on)
        if k < n:
            cont = announced[k][0]
            if radars[cont] == 1:
                on &= ~(1 << cont)
    trig_mask = []
    for k in range(n + 1):
        m = 0
        a = active[k]
        while a:
            low = a & -a
            m |= continent_mask[low.bit_length() - 1]
            a ^= low
        trig_mask.append(m)
    layers = [0] * (n + 1)
    layers[0] = start
    final = start if n == 0 else 0
    for _ in range(steps):
        new = [0] * (n + 1)
        for k in range(n + 1):
            cur = layers[k]
            if not cur:
                continue
            r = expand(cur, nbr)
            tm = trig_mask[k]
            new[k] |= r & ~tm
            if k < n:
                cont, city = announced[k]
                hit = r & tm & continent_mask[cont]
                if city >= 0:
                    hit &= 1 << city
                new[k + 1] |= hit
        if new == layers:
            break
        layers = new
        final |= layers[n]
    return final


def _untriggered(start: int, steps: int, nbr: Sequence[int], radars: Sequence[int],
                 continent_mask: Sequence[int]) -> int:
    """``after_movement`` with nothing announced, without its per-step lists:
    the cities reached from ``start`` through cities under no radar."""
    barred = 0
    for k, r in enumerate(radars):
        if r:
            barred |= continent_mask[k]
    cur = final = start
    for _ in range(steps):
        nxt = expand(cur, nbr) & ~barred
        if nxt == cur:
            break
        cur = nxt
        final |= cur
    return final


def adjacent_or_same(city: int, nbr: Sequence[int]) -> int:
    return nbr[city] | (1 << city)
