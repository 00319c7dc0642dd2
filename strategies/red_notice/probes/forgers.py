"""Probe forgers: each exploits one habit of the agent she plays against."""

from __future__ import annotations

import dataclasses
import math
import random
from typing import Any, ClassVar

from rnsim_strategies.red_notice.board import Board
from rnsim_strategies.red_notice.expert import _PROXIMITY, Expert

from rnsim.games.red_notice.engine.belief import after_movement, expand
from rnsim.games.red_notice.engine.decision import (
    AngelaMoveOption,
    AngelaSecurityOption,
    BankOption,
    Decision,
    Option,
    TokenPlacement,
)
from rnsim.games.red_notice.engine.view import View
from rnsim.games.red_notice.rules.components import MOVEMENT, POW

Path = tuple[Option, ...]
Trig = tuple[tuple[int, int], ...]


def expert_inspections(b: Board, belief: int, start: int, steps: int, mix: float = 0.0) -> int:
    """The cities a copy of the expert agent inspects in a movement of
    ``steps`` steps from ``start`` on the public ``belief`` (its hunt only:
    the closing-in walk that follows a failed hunt is left out). With ``mix``
    > 0, also every near-equal first step she may draw instead of the best."""
    key = ("probe_insp", belief, start, steps, mix)
    got = b.memo.get(key)
    if got is not None:
        return got  # type: ignore[no-any-return]
    seen = 0
    city = start
    bel = belief
    for left in range(steps, 0, -1):
        got = Expert._search_path(b, bel, city, left, 0, 0.0, mix)
        p, first = got[0], got[1]
        if p <= 0:
            break
        for f in got[2]:
            seen |= 1 << (city if f == -1 else f)
        city = city if first == -1 else first
        seen |= 1 << city
        bel &= ~(1 << city)  # a failed inspection rules the city out
        if not bel:
            break
    return b.remember(key, seen)  # type: ignore[no-any-return]


class Dodger(Expert):
    """The expert forger, except that each movement is planned whole at its
    first step: every path of the steps she has, grouped by its radar
    announcement, scored on the exact public belief it leaves (its size) and
    on whether a copy of the expert agent would inspect her end city next."""

    name = "dodger"
    uses_history = False
    MIX: ClassVar[float] = 0.0  # the near-equal margin of the agent it predicts
    PARAMS = {**Expert.PARAMS, "dodge": 1.0, "hide": 0.4}
    PARAM_RANGES = {**Expert.PARAM_RANGES, "dodge": (float, 0.0, 10.0), "hide": (float, 0.0, 5.0)}

    def new_game(self, seat: int, rng: Any) -> None:
        super().new_game(seat, rng)
        self._plan: list[Option] = []
        self._plan_left = -1

    def on_angela_move(self, view: View, decision: Decision[AngelaMoveOption]) -> AngelaMoveOption:
        left = int(decision.info.get("left", 1))
        if left == self._plan_left:  # the movement planned at its first step goes on
            if self._plan and self._plan[0] in decision.options:
                self._plan_left = left - 1
                return self._plan.pop(0)
            self._plan, self._plan_left = [], -1
            return "stop" if "stop" in decision.options else super().on_angela_move(view, decision)
        plain = super().on_angela_move(view, decision)
        if plain == "stop" or (isinstance(plain, tuple) and plain[0] != "move"):
            return plain  # the expert's safe stops and security spends
        b = self._b(view)
        path = self._plan_whole(view, b, decision, left)
        if path is None:
            self._plan, self._plan_left = [], -1
            return super().on_angela_move(view, decision)
        if not path:
            return "stop"
        self._plan = list(path[1:])
        self._plan_left = left - 1
        return path[0]

    def _plan_whole(self, view: View, b: Board, decision: Decision, left: int) -> Path | None:
        here = view.angela_city
        first_ok = {o[1] for o in decision.options if isinstance(o, tuple) and o[0] == "move"}
        barriers = view.barriers
        if any(barriers[r] and nx in first_ok for nx, r in b.nbr_routes[here]):
            return None  # the Journalist: her announcement tells nothing; the expert plan is fine
        ends = _reachable_ends(view, b, left)
        return self._best_end(view, b, ends, left, bool(decision.info.get("escape")))

    def _best_end(self, view: View, b: Board, ends: dict[tuple[int, Trig], Path], left: int,
                  escape: bool) -> Path | None:
        """The path to the end (city, announcement) the dodger scores best."""
        masks = b.open_masks(view.barriers)
        targets = self._angela_targets(view, b)
        dt = self._way(view, b, targets) if targets else None
        jc = view.jessah_city
        last = not view.identities_up
        w_danger = (10.0 if last else 5.0) * (1.4 - self.risk) * float(self.params["dodge"])
        hide = float(self.params["hide"])
        w_near = (10.0 if last else 4.0) * (1.4 - self.risk)
        w_way = 0.3 if escape else 1.0
        posts: dict[Trig, int] = {}
        best: Path | None = None
        best_s = -1e18
        for (c, trig), path in ends.items():
            post = posts.get(trig)
            if post is None:
                post = posts[trig] = after_movement(view.belief, left, masks, view.radars, b.cont_mask, trig)
            if not post >> c & 1:
                continue  # cannot happen; kept as a guard against a model slip
            s = hide * math.log2(post.bit_count()) - 0.1 * len(trig)
            if expert_inspections(b, post, jc, 2, self.MIX) >> c & 1:
                s -= w_danger
            elif expert_inspections(b, post, jc, 3, self.MIX) >> c & 1:
                s -= 0.5 * w_danger
            d = b.dist[jc][c]
            if d < len(_PROXIMITY):
                # The expert's own danger term, on the exact belief she leaves.
                crowd = (post & b.ball[jc][d]).bit_count()
                s -= w_near * _PROXIMITY[d] * min(1.0, 2.0 / crowd)
            if dt is not None:
                s -= w_way * min(dt[c], 8)
            if escape:
                s += 0.2 * min(b.dist[jc][c], 5)
            if s > best_s + 1e-9:
                best, best_s = path, s
        return best


def _announced(view: View, b: Board, trig: Trig, nx: int) -> Trig:
    """The radar announcement ``trig`` once the forger enters ``nx``: a
    continent's radar triggers there (a white one once per movement); precise
    radars name the city."""
    k = b.cont[nx]
    rk = view.radars[k]
    if rk == 2 or (rk == 1 and all(k != t[0] for t in trig)):
        return (*trig, (k, nx if "precise_radars" in view.permanents else -1))
    return trig


def _reachable_ends(view: View, b: Board, left: int) -> dict[tuple[int, Trig], Path]:
    """Every (end city, announcement) reachable in ``left`` steps (a step is a
    move along an open route or a stay), with one path to it."""
    barriers = view.barriers
    here = view.angela_city
    ends: dict[tuple[int, Trig], Path] = {(here, ()): ()}
    layer: list[tuple[int, Trig, Path]] = [(here, (), ())]
    for _ in range(left):
        nxt: list[tuple[int, Trig, Path]] = []
        for c, trig, path in layer:
            steps = [(nx, r) for nx, r in b.nbr_routes[c] if not barriers[r]] + [(c, -1)]
            for nx, _r in steps:
                t2 = _announced(view, b, trig, nx)
                key = (nx, t2)
                if key not in ends:
                    p2 = (*path, ("move", nx) if nx != c else "stay")
                    ends[key] = p2
                    nxt.append((nx, t2, p2))
        layer = nxt
    return ends


class MixedDodger(Dodger):
    """The dodger against an agent who draws among near-equal hunts: she
    avoids every city such an agent may inspect first, not only the best one."""

    name = "dodger_mixed"
    uses_history = False
    MIX = 0.5


class SafeCasher(Expert):
    """The expert forger, except that she never cashes (which reveals her
    city) where the agent can reach her next movement, unless it wins."""

    name = "safe_casher"
    uses_history = False
    PARAMS = {**Expert.PARAMS, "reach": 2}
    PARAM_RANGES = {**Expert.PARAM_RANGES, "reach": (int, 0, 6)}

    def on_bank(self, view: View, decision: Decision[BankOption]) -> BankOption:
        if view.seat != 0:
            return super().on_bank(view, decision)
        b = self._b(view)
        cashable = [o for o in decision.options if o != "pass"]
        need = view.rules.money_target - view.cash_total[0]
        if any(b.check_value[c] >= need for c in cashable):
            return super().on_bank(view, decision)
        reach_j = int(self.params["reach"]) + (1 if "private_jet" in view.permanents else 0)
        if b.dist[view.jessah_city][view.angela_city] <= reach_j and "pass" in decision.options:
            return "pass"
        return super().on_bank(view, decision)


class DossierDodger(Dodger):
    """The agent trusts a model of a planning forger (search's Jessah hunts on
    her dossier, strategies/red_notice/dossier.py): this forger keeps the
    same dossier on herself, from the public history as Jessah sees it, and
    among her movement plans scoring within ``margin`` of the expert's best
    takes the one whose end city the dossier will believe least likely
    after the announcement the movement makes."""

    name = "dossier_dodger"
    uses_history = True  # the dossier reads the public history
    # 0.5: of 0, 0.5 and 1 against search's Jessah (200 games each, seed 5),
    # the least bad; 1 gives up too much of her plan (-12 points)
    PARAMS = {**Dodger.PARAMS, "margin": 0.5}
    PARAM_RANGES = {**Dodger.PARAM_RANGES, "margin": (float, 0.0, 10.0)}

    def new_game(self, seat: int, rng: Any) -> None:
        super().new_game(seat, rng)
        from rnsim_strategies.red_notice.dossier import Dossier

        self._dossier = Dossier()
        # its own stream, seeded from the seat's without drawing from it
        self._dossier.reset(random.Random("dossier dodger " + " ".join(map(str, rng.getstate()[1][:8]))))

    def choose(self, view: View, decision: Decision) -> Option:
        if view is not None and view.seat == 0:
            # Jessah's hand is hidden from her: the dossier she keeps counts
            # it as unseen checks, as it counts her own.
            self._dossier.observe(dataclasses.replace(view, hand=()))
        return super().choose(view, decision)

    def _plan_whole(self, view: View, b: Board, decision: Decision, left: int) -> Path | None:
        here = view.angela_city
        first_ok = {o[1] for o in decision.options if isinstance(o, tuple) and o[0] == "move"}
        barriers = view.barriers
        dossier = self._dossier
        if not dossier.started or any(barriers[r] and nx in first_ok for nx, r in b.nbr_routes[here]):
            return None  # before her start, or the Journalist: the expert plan
        escape = bool(decision.info.get("escape"))
        ends = _moved_ends(view, b, left, first_ok)
        # The expert forger's score of each end (the dossier's model of her).
        dossier.jessah, dossier.barriers, dossier.radars = view.jessah_city, tuple(barriers), list(view.radars)
        dossier.pub, dossier.precise = view.belief, "precise_radars" in view.permanents
        dossier.up = len(view.identities_up)
        targets = self._angela_targets(view, b)
        states, scores = dossier.plans(b, here, targets, left, escape, False)
        scored = [(s, c, trig) for (c, trig), s in zip(states, scores, strict=True) if (c, trig) in ends]
        if not scored:
            return None
        return self._least_believed(b, ends, scored, left, escape)

    def _least_believed(self, b: Board, ends: dict[tuple[int, Trig], Path], scored: list[tuple[float, int, Trig]],
                        left: int, escape: bool) -> Path | None:
        """Among the ends scoring within ``margin`` of the best, the path to the
        one the dossier believes least likely after its announcement."""
        dossier = self._dossier
        top = max(s for s, _, _ in scored)
        margin = float(self.params["margin"])
        # The dossier's belief in each near-best end, after its announcement.
        keys: dict[tuple[int, int], float] = {}
        for ci, h, w in zip(dossier.cities, dossier.hands, dossier.w, strict=True):
            k2 = (ci, dossier._targets(b, h))
            keys[k2] = keys.get(k2, 0.0) + w
        best: Path | None = None
        best_key: tuple[float, float] | None = None
        for s, c, trig in scored:
            if s < top - margin:
                continue
            num = den = 0.0
            for (ci, tg), w in keys.items():
                p_ann, got = dossier._movement(b, ci, tg, left, trig, escape, False)
                den += w * p_ann
                num += w * sum(p for x, p in got if x == c)
            post = num / den if den > 0 else 0.0
            key = (post, -s)
            if best_key is None or key < best_key:
                best, best_key = ends[(c, trig)], key
        return best


def _moved_ends(view: View, b: Board, left: int, first_ok: set[int]) -> dict[tuple[int, Trig], Path]:
    """Every (end city, announcement) reachable by moves only (no stay; the
    first step among the decision's moves), with one path to it."""
    barriers = view.barriers
    here = view.angela_city
    ends: dict[tuple[int, Trig], Path] = {(here, ()): ()}
    layer: list[tuple[int, Trig, Path]] = [(here, (), ())]
    for _ in range(left):
        nxt: list[tuple[int, Trig, Path]] = []
        for c, trig, path in layer:
            for nx, r in b.nbr_routes[c]:
                if barriers[r] or (not path and nx not in first_ok):
                    continue
                t2 = _announced(view, b, trig, nx)
                if (nx, t2) not in ends:
                    p2 = (*path, ("move", nx))
                    ends[(nx, t2)] = p2
                    nxt.append((nx, t2, p2))
        layer = nxt
    return ends


class DecoySpender(Expert):
    """The agent reads a white radar removed with no announcement as the
    forger being on its continent or next to it (the expert forger clears the
    radar of the continent she is about to enter): this forger spends her
    security as soon as she has the points, on the white radar whose
    continent and its neighbours cover the most of the public belief while
    leaving her out, so the agent hunts where she is not. Otherwise she
    plays as the expert."""

    name = "decoy_spender"
    uses_history = False

    def _decoy(self, view: View, options: Any) -> Option | None:
        b = self._b(view)
        me = view.angela_city
        best: Option | None = None
        best_n = 0
        for o in options:
            if isinstance(o, tuple) and o[0] == "remove_radar":
                near = expand(b.cont_mask[o[1]], b.nbr_mask)
                n = (near & view.belief).bit_count()
                if not near >> me & 1 and n > best_n:
                    best, best_n = o, n
        return best

    def on_angela_security(self, view: View, decision: Decision[AngelaSecurityOption]) -> AngelaSecurityOption:
        got = self._decoy(view, decision.options)
        if got is not None:
            return got  # type: ignore[return-value]
        return super().on_angela_security(view, decision)

    def on_angela_move(self, view: View, decision: Decision[AngelaMoveOption]) -> AngelaMoveOption:
        got = self._decoy(view, decision.options)  # before a step too (R11)
        if got is not None:
            return got  # type: ignore[return-value]
        return super().on_angela_move(view, decision)


class PowDenier(Expert):
    """Denial in the bidding layer: with her POW! in hand, the forger places
    it facing Jessah's token on a Movement half whenever the card's other
    half is free. POW! cancels the token facing it, which is spent all the
    same (R2): Jessah does not move on that card, and Angela performs both
    halves, her own first (R3). Of several such tokens she denies the
    movement worth most to Jessah (the expert's value of it, which counts
    whether it can reach her city). Otherwise she bids as the expert."""

    name = "pow_denier"
    uses_history = False

    def _denial(self, view: View, decision: Decision[TokenPlacement]) -> TokenPlacement | None:
        b = self._b(view)
        theirs = self._half_values(view, b)[2]
        best: TokenPlacement | None = None
        best_v = -1.0
        for opt in decision.options:
            v, i, half = opt
            facing = view.slots[i][1 - half]
            if v != POW or facing is None or b.halves[view.cards[i]][1 - half][0] != MOVEMENT:
                continue
            worth = theirs[2 * i + 1 - half]  # Jessah's value of her half
            if worth > best_v:
                best, best_v = opt, worth
        return best

    def on_place_token(self, view: View, decision: Decision[TokenPlacement]) -> TokenPlacement:
        got = self._denial(view, decision)
        return got if got is not None else super().on_place_token(view, decision)


class PowRunner(PowDenier):
    """The denier, running while she denies: on the card her POW! took from
    Jessah's movement she performs Jessah's Movement half too (R2, R3), and
    spends its steps getting away from Jessah (the step farthest from her
    city, the expert's choice among the farthest) while Jessah is within 3
    steps; farther off she moves as the expert."""

    name = "pow_runner"
    uses_history = False

    def new_game(self, seat: int, rng: Any) -> None:
        super().new_game(seat, rng)
        self._took = (-1, -1)  # (round, card position) her POW! denied

    def on_place_token(self, view: View, decision: Decision[TokenPlacement]) -> TokenPlacement:
        got = self._denial(view, decision)
        if got is None:
            return super().on_place_token(view, decision)
        self._took = (view.round, got[1])
        return got

    def on_angela_move(self, view: View, decision: Decision[AngelaMoveOption]) -> AngelaMoveOption:
        plain = super().on_angela_move(view, decision)
        b = self._b(view)
        jc = view.jessah_city
        if (view.round, view.resolving) != self._took or b.dist[jc][view.angela_city] > 3:
            return plain
        if isinstance(plain, tuple) and plain[0] != "move":
            return plain  # a security spend first (R11)
        here = view.angela_city

        def far(o: Option) -> int:
            return b.dist[jc][o[1]] if isinstance(o, tuple) else b.dist[jc][here]

        steps = [o for o in decision.options if o in ("stay", "stop") or (isinstance(o, tuple) and o[0] == "move")]
        top = max(far(o) for o in steps)
        return plain if far(plain) == top else next(o for o in steps if far(o) == top)


class PowSeer(PowRunner):
    """Denial joined to a model of the agent's next moves. With her POW! in
    hand she keeps it for her last placement of the round unless a target
    is already there, so that she sees as many of Jessah's tokens as she
    can; then she places it facing the Movement token of Jessah's whose
    inspections (a copy of the expert agent's hunt on the public belief,
    ``expert_inspections``) would find her, else the Movement token worth
    most to Jessah. POW! cancels that token (R2) and Angela performs both
    halves (R3), running on Jessah's Movement half as the runner does."""

    name = "pow_seer"
    uses_history = False

    def _denial(self, view: View, decision: Decision[TokenPlacement]) -> TokenPlacement | None:
        b = self._b(view)
        theirs = self._half_values(view, b)[2]
        jet = 1 if "private_jet" in view.permanents else 0
        here = view.angela_city
        best: TokenPlacement | None = None
        best_v = -1.0
        for opt in decision.options:
            v, i, half = opt
            facing = view.slots[i][1 - half]
            act, icons = b.halves[view.cards[i]][1 - half]
            if v != POW or facing is None or act != MOVEMENT:
                continue
            finds = expert_inspections(b, view.belief, view.jessah_city, icons + jet) >> here & 1
            worth = theirs[2 * i + 1 - half] + 100.0 * finds
            if worth > best_v:
                best, best_v = opt, worth
        return best

    def on_place_token(self, view: View, decision: Decision[TokenPlacement]) -> TokenPlacement:
        if self._denial(view, decision) is None:
            others = [o for o in decision.options if o[0] != POW]
            if others and len(others) < len(decision.options):  # her POW! waits for a target
                decision = Decision(decision.seat, decision.kind, others, decision.info)
        return super().on_place_token(view, decision)
