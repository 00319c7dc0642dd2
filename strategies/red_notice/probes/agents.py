"""Probe agents: each exploits one habit of the forger she plays against.

They hunt with the expert agent's code on a sharper belief: the public
belief cut down by what the probe reads into the forger's habits. When the
sharper belief turns out wrong (every city in it inspected) they fall back to
the public one.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from rnsim_strategies.red_notice.board import Board
from rnsim_strategies.red_notice.expert import Expert

from rnsim.games.red_notice.engine.belief import expand
from rnsim.games.red_notice.engine.decision import JESSAH, Decision, Option, TokenPlacement
from rnsim.games.red_notice.engine.view import View
from rnsim.games.red_notice.rules.components import BANK, MOVEMENT, POW


class _Sharpened(Expert):
    def new_game(self, seat: int, rng: Any) -> None:
        super().new_game(seat, rng)
        self._prev: View | None = None
        self._focus = 0  # cities the probe believes she is in (0: no opinion)

    def choose(self, view: View, decision: Decision) -> Option:
        if view is not None and view.seat == JESSAH:
            sharp = self._sharpen(view, self._b(view))
            self._prev = view
            if sharp != view.belief:
                view = dataclasses.replace(view, belief=sharp)
        return super().choose(view, decision)

    def _sharpen(self, view: View, b: Board) -> int:
        return view.belief


def _moved(prev: View, view: View) -> bool:
    """Angela made a movement (or was revealed) since ``prev``: the belief is no
    longer what inspections alone leave of the old one."""
    return bool(view.belief & ~prev.belief) or view.last_announcement != prev.last_announcement


class LeakReader(_Sharpened):
    """Reads a white radar that vanished with no announcement and security
    spent as Angela's continent, and hunts there."""

    name = "leak_reader"
    uses_history = False

    def _leak(self, view: View, b: Board) -> int:
        prev = self._prev
        if prev is None or prev.round > view.round:
            return 0
        if view.security >= prev.security:
            return 0
        announced = {k for k, _ in view.last_announcement} if view.last_announcement != prev.last_announcement else set()
        out = 0
        for k, r in enumerate(prev.radars):
            if r == 1 and view.radars[k] == 0 and k not in announced:
                out |= b.cont_mask[k]
        return out

    def _sharpen(self, view: View, b: Board) -> int:
        belief = view.belief
        leak = self._leak(view, b)
        if leak and belief & leak:
            self._focus = belief & leak
        elif self._focus and self._prev is not None and _moved(self._prev, view):
            self._focus = expand(self._focus, b.open_masks(view.barriers)) & belief
        else:
            self._focus &= belief
        return self._focus or belief


def _nearest_last_seen(view: View, b: Board, belief: int) -> int:
    """The cities of ``belief`` nearest the last sighting (those within one
    step of the nearest), or ``belief`` when nothing was seen."""
    seen = view.last_seen
    if seen is None or belief.bit_count() <= 2:
        return belief
    city, k, _ = seen
    src = b.cont_mask[k] if city < 0 else 1 << city
    d = b.dist_to_mask(src)
    ds = [(d[c], c) for c in range(b.n) if belief >> c & 1]
    lo = min(x for x, _ in ds)
    return sum(1 << c for x, c in ds if x <= lo + 1)


class LeakReaderNear(LeakReader):
    """The leak reader, hunting first the belief cities nearest the last sighting."""

    name = "leak_reader_near"
    uses_history = False

    def _sharpen(self, view: View, b: Board) -> int:
        return _nearest_last_seen(view, b, super()._sharpen(view, b))


class NearHunter(_Sharpened):
    """Hunts first the belief cities nearest the last sighting."""

    name = "near_hunter"
    uses_history = False

    def _sharpen(self, view: View, b: Board) -> int:
        return _nearest_last_seen(view, b, view.belief)


class DossierHunter(Expert):
    """Hunts on a dossier of 200 guesses where the expert keeps 64:
    the forger's movements are read as a planning forger's, and her plans are
    predictable. With the bare public set as its belief, the expert pair lost
    15.8 points of Jessah's to this agent (docs/strategies.md)."""

    name = "dossier_hunter"
    uses_history = True
    PARAMS = {**Expert.PARAMS, "dossier": 200}


class SharpHunter(DossierHunter):
    """The dossier hunter trusting its model of a planning forger more than
    the expert does: a colder choice among her plans (``tau`` 0.15 against
    0.3), fewer off-model moves (``eps`` 0.02 against 0.1) and less mass
    spread over the whole belief (``floor`` 0.05 against 0.15). It gains
    from a forger whose plans are predictable."""

    name = "sharp_hunter"
    uses_history = True
    DOSSIER_MODEL = {"tau": 0.15, "eps": 0.02, "floor": 0.05}


class AheadHunter(DossierHunter):
    """The dossier hunter looking further ahead: a hunting path is worth
    twice the expert's share (``AHEAD`` 0.6 against 0.3) of the dossier's
    mass it can reach once the forger has moved again. The expert pair
    without that look-ahead lost 6.9 points of Jessah's win rate to it, with
    it 3.5, and with 64 guesses where it kept 32, 1.5 (2,000 games, master
    seed 1, docs/strategies.md)."""

    name = "ahead_hunter"
    uses_history = True
    AHEAD = 0.6


class ThousandHunter(Expert):
    """Hunts on a dossier of 1,000 guesses where the expert keeps 64: search's
    Jessah, game for game, as a ten-line plugin could copy her. Against the
    expert forger it held Angela 1.9 points lower than the expert agent does
    (20,000 paired games, master seed 19; docs/strategies.md): the edge of
    search's Jessah that a plugin can take from the expert pair."""

    name = "thousand_hunter"
    uses_history = True
    PARAMS = {**Expert.PARAMS, "dossier": 1000}


class SecurityWeigher(Expert):
    """Places radars and barriers on her dossier's weights (as the expert
    does), barriers weighing three times as much (``SECURITY_WEIGHT`` 30
    against 10). Against an expert pair whose agent placed them on the bare
    public set it gained Jessah 7.5 points (10,000 games, master seed 2;
    docs/strategies.md)."""

    name = "security_weigher"
    uses_history = True
    SECURITY_WEIGHT = 30.0


def denial_chance(view: View) -> float:
    """The chance the opponent's POW! is among the tokens she has still to
    place this round: 0 once it is spent this cycle (spent tokens are public,
    R24), else her tokens left to place over her tokens not yet revealed."""
    left = view.opponent_tokens_left()
    if POW not in left:
        return 0.0
    placed = sum(1 for row in view.slots for x in row if x is not None and x[0] != view.seat)
    to_place = view.rules.tokens_per_round - placed
    return min(1.0, to_place / max(1, len(left) - placed))


class PowWarden(Expert):
    """Guards her movement against denial: a token of hers on a Movement
    half of a card with its other half free can be cancelled by the forger's
    POW! placed facing it (R2). While that is at least as likely as not
    (``denial_chance``), she bids as the expert among the other placements:
    her POW! there (POW! against POW! is a tie, each does her own half,
    R2-R3), a card the forger is already on, or another half; her movement
    waits until the forger's POW! is placed or spent."""

    name = "pow_warden"
    uses_history = False

    def on_place_token(self, view: View, decision: Decision[TokenPlacement]) -> TokenPlacement:
        if view.seat != JESSAH or denial_chance(view) < 0.5:
            return super().on_place_token(view, decision)
        b = self._b(view)
        safe = [o for o in decision.options
                if o[0] == POW or view.slots[o[1]][1 - o[2]] is not None
                or b.halves[view.cards[o[1]]][o[2]][0] != MOVEMENT]
        if not safe or len(safe) == len(decision.options):
            return super().on_place_token(view, decision)
        return super().on_place_token(view, Decision(decision.seat, decision.kind, safe, decision.info))


class PowPinner(Expert):
    """Denial from the agent's side: with her POW! in hand she keeps it for
    her last placement of the round unless a target is already there; then
    she places it facing the forger's token on a Movement or Bank half
    whose other half is free (the forger's way out, or her cash), the one
    the expert agent's model of a forger values most. POW! cancels that
    token (R2): the forger does nothing on that card and Jessah performs
    both halves, her own first (R3)."""

    name = "pow_pinner"
    uses_history = False

    def _target(self, view: View, b: Board, decision: Decision[TokenPlacement]) -> TokenPlacement | None:
        theirs = self._half_values(view, b)[2]
        best: TokenPlacement | None = None
        best_v = -1.0
        for opt in decision.options:
            v, i, half = opt
            if v != POW or view.slots[i][1 - half] is None:
                continue
            if b.halves[view.cards[i]][1 - half][0] not in (MOVEMENT, BANK):
                continue
            worth = theirs[2 * i + 1 - half]
            if worth > best_v:
                best, best_v = opt, worth
        return best

    def on_place_token(self, view: View, decision: Decision[TokenPlacement]) -> TokenPlacement:
        if view.seat != JESSAH:
            return super().on_place_token(view, decision)
        b = self._b(view)
        got = self._target(view, b, decision)
        if got is not None:
            return got
        others = [o for o in decision.options if o[0] != POW]
        if others and len(others) < len(decision.options):  # her POW! waits for a target
            return super().on_place_token(view, Decision(decision.seat, decision.kind, others, decision.info))
        return super().on_place_token(view, decision)
