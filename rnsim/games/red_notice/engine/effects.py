"""Identity and upgrade effects: one class per effect, found by the card's name.

A component set names each card's effect (``effect = "lawyer"`` in
identities.toml, ``effect = "bank_alert"`` in upgrades.toml); that name is
the ``NAME`` of one class below, and all of the card's rules live in that
class: its hooks, and the handlers of any decision only that card asks.
Each class registers one instance in engine/registry.py, where the state
finds it by name. The
names, and whether each upgrade is permanent, are the rules' vocabulary
(rnsim/games/red_notice/rules/effect_names.py, which the component loader
checks a card against); this module refuses to load unless it implements
exactly that vocabulary.

Hooks, called by the engine (rnsim/games/red_notice/engine/state.py):

identities
    ``on_escape``      Angela burns the identity after a capture (R22): push
                       her escape on the stack (the last frame pushed runs first).
upgrades
    ``on_gain``        Jessah takes the card.
    ``on_destroy``     the Businesswoman destroys the (permanent) card.
    ``movement_bonus`` extra steps for a Movement action, while held.
    ``on_cash``        someone cashed a check, while held: add, or cancel,
                       what follows the cash.
    ``on_trigger``     Angela triggered a radar, while held: what city the
                       announcement names.

A permanent card's hooks run once per effect however many copies Jessah
holds. Ruling ids (R1..R27) are those of docs/reference/rulings.md.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from rnsim.games.red_notice.engine import belief as bel
from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH, Decision
from rnsim.games.red_notice.engine.frames import (
    M_CARD,
    M_ESCAPE,
    M_JOURNALIST,
    BlackBarrier,
    BlackRadar,
    DestroyUpgrade,
    Draw,
    Informant,
    JessahSecurity,
    LawyerBarrier,
    LawyerRadar,
    RemoveBlackBarrier,
    RemoveBlackRadar,
    SecurityToCap,
)
from rnsim.games.red_notice.engine.registry import (
    FRAME_HANDLERS,
    IDENTITY_EFFECTS,
    UPGRADE_EFFECTS,
    IdentityEffect,
    Later,
    UpgradeEffect,
)
from rnsim.games.red_notice.rules import effect_names as names
from rnsim.games.red_notice.rules.components import BLACK as _BLACK
from rnsim.games.red_notice.rules.components import WHITE as _WHITE
from rnsim.games.red_notice.rules.components import Identity

if TYPE_CHECKING:
    from rnsim.games.red_notice.engine.state import GameState

# Final copies of the components' radar and barrier colours (an uncompiled
# module): compiled code reads them from C statics, not the module's dict.
BLACK: Final[int] = _BLACK
WHITE: Final[int] = _WHITE



# ================================================================ identities


class Pilot(IdentityEffect):
    """The Pilot: just the escape movement (a long one)."""

    NAME = "pilot"


class Journalist(IdentityEffect):
    """The Journalist: the escape ignores barriers and triggers no radar; the
    public only learns she is within its reach."""

    NAME = "journalist"

    def on_escape(self, s: GameState, ident: Identity) -> None:
        s._push_move(ANGELA, ident.moves, M_ESCAPE | M_JOURNALIST)


class SecretAgent(IdentityEffect):
    """The Secret Agent: the escape movement, then Angela's security goes to the cap."""

    NAME = "secret_agent"

    def on_escape(self, s: GameState, ident: Identity) -> None:
        s.stack.append(SecurityToCap())
        s._push_move(ANGELA, ident.moves, M_ESCAPE)


def _s_security_to_cap(s: GameState, frame: SecurityToCap) -> None:
    s.stack.pop()
    s.security = s.rules.security_cap
    s._seen("security_set", ANGELA, s.security)
    if s.log is not None:
        s._event("security_set", security=s.security)


FRAME_HANDLERS["security_to_cap"] = (_s_security_to_cap, None)


class Doctor(IdentityEffect):
    """The Doctor: Angela draws ``checks`` checks, then the escape movement."""

    NAME = "doctor"

    def on_escape(self, s: GameState, ident: Identity) -> None:
        s._push_move(ANGELA, ident.moves, M_ESCAPE)
        s.stack.append(Draw(ANGELA, ident.checks))


class Lawyer(IdentityEffect):
    """The Lawyer: Angela discards a white barrier, then a white radar, then
    the escape movement."""

    NAME = "lawyer"

    def on_escape(self, s: GameState, ident: Identity) -> None:
        s._push_move(ANGELA, ident.moves, M_ESCAPE)
        s.stack.append(LawyerRadar())
        s.stack.append(LawyerBarrier())


def _s_lawyer_barrier(s: GameState, frame: LawyerBarrier) -> Decision | None:
    opts = [r for r, b in enumerate(s.barriers) if b == WHITE]
    if not opts:
        s.stack.pop()
        return None
    return Decision(ANGELA, "lawyer_barrier", opts)


def _a_lawyer_barrier(s: GameState, frame: LawyerBarrier, r: int) -> None:
    s.stack.pop()
    s._remove_barrier(r)
    s._seen("lawyer_discard", ANGELA, "barrier", -1, r)
    if s.log is not None:
        s._event("lawyer_discard", barrier=s.comps.route_name(r))


def _s_lawyer_radar(s: GameState, frame: LawyerRadar) -> Decision | None:
    opts = [k for k, r in enumerate(s.radars) if r == WHITE]
    if not opts:
        s.stack.pop()
        return None
    return Decision(ANGELA, "lawyer_radar", opts)


def _a_lawyer_radar(s: GameState, frame: LawyerRadar, k: int) -> None:
    s.stack.pop()
    s._remove_radar(k)
    s._seen("lawyer_discard", ANGELA, "radar", k)
    if s.log is not None:
        s._event("lawyer_discard", radar=s.comps.continents[k].id)


FRAME_HANDLERS["lawyer_barrier"] = (_s_lawyer_barrier, _a_lawyer_barrier)
FRAME_HANDLERS["lawyer_radar"] = (_s_lawyer_radar, _a_lawyer_radar)


class Businesswoman(IdentityEffect):
    """The Businesswoman: Angela destroys one of Jessah's permanent upgrades
    (its ``on_destroy`` runs), then the escape movement."""

    NAME = "businesswoman"

    def on_escape(self, s: GameState, ident: Identity) -> None:
        s._push_move(ANGELA, ident.moves, M_ESCAPE)
        s.stack.append(DestroyUpgrade())


def _s_destroy(s: GameState, frame: DestroyUpgrade) -> Decision | None:
    if not s.permanents:
        s.stack.pop()
        return None
    cards = s.comps.upgrade_cards
    opts: list[str] = []
    for u in s.permanents:
        if cards[u].id not in opts:
            opts.append(cards[u].id)
    return Decision(ANGELA, "destroy_upgrade", opts)


def _a_destroy(s: GameState, frame: DestroyUpgrade, opt: str) -> None:
    s.stack.pop()
    cards = s.comps.upgrade_cards
    u = next(x for x in s.permanents if cards[x].id == opt)
    s.permanents.remove(u)
    s._public_t = None  # the views' copy of the upgrades (GameState.public_sets)
    s.upgrades_gone.append(u)
    s._seen("upgrade_destroyed", ANGELA, opt)
    if s.log is not None:
        s._event("upgrade_destroyed", upgrade=opt)
    UPGRADE_EFFECTS[cards[u].effect].on_destroy(s)


FRAME_HANDLERS["destroy"] = (_s_destroy, _a_destroy)


# ================================================================== upgrades


# ---------------------------------------------------------- permanent cards


class PreciseRadars(UpgradeEffect):
    """Precise Radars: every announced radar trigger also names the city."""

    NAME = "precise_radars"
    PERMANENT = True

    def on_trigger(self, s: GameState, continent: int, city: int, shown: int) -> int:
        return city


class PermanentUnits(UpgradeEffect):
    """Permanent Units: Jessah puts a radar, then a barrier, black side up
    (black tokens are never returned nor removed by Angela's security). If
    the card is destroyed, Angela removes a black radar, then a black barrier."""

    NAME = "permanent_units"
    PERMANENT = True

    def on_gain(self, s: GameState) -> None:
        s.stack.append(BlackBarrier())
        s.stack.append(BlackRadar())

    def on_destroy(self, s: GameState) -> None:
        s.stack.append(RemoveBlackBarrier())
        s.stack.append(RemoveBlackRadar())


def _s_black_radar(s: GameState, frame: BlackRadar) -> Decision | None:
    supply_left = s.n_radars < s.comps.radar_supply
    opts = [k for k, r in enumerate(s.radars) if r == WHITE or (r == 0 and supply_left)]
    if not opts:
        s.stack.pop()
        return None
    return Decision(JESSAH, "black_radar", opts)


def _a_black_radar(s: GameState, frame: BlackRadar, k: int) -> None:
    s.stack.pop()
    s._place_radar(k, BLACK)
    s._seen("black_radar", JESSAH, k)
    if s.log is not None:
        s._event("black_radar", continent=s.comps.continents[k].id)


def _s_black_barrier(s: GameState, frame: BlackBarrier) -> Decision | None:
    supply_left = s.n_barriers < s.comps.barrier_supply
    opts = [r for r, b in enumerate(s.barriers) if b == WHITE or (b == 0 and supply_left)]
    if not opts:
        s.stack.pop()
        return None
    return Decision(JESSAH, "black_barrier", opts)


def _a_black_barrier(s: GameState, frame: BlackBarrier, r: int) -> None:
    s.stack.pop()
    s._place_barrier(r, BLACK)
    s._seen("black_barrier", JESSAH, r)
    if s.log is not None:
        s._event("black_barrier", route=s.comps.route_name(r))


def _s_remove_black_radar(s: GameState, frame: RemoveBlackRadar) -> Decision | None:
    opts = [k for k, r in enumerate(s.radars) if r == BLACK]
    if not opts:
        s.stack.pop()
        return None
    return Decision(ANGELA, "remove_black_radar", opts)


def _a_remove_black_radar(s: GameState, frame: RemoveBlackRadar, k: int) -> None:
    s.stack.pop()
    s._remove_radar(k)
    s._seen("black_removed", ANGELA, "radar", k)
    if s.log is not None:
        s._event("black_removed", radar=s.comps.continents[k].id)


def _s_remove_black_barrier(s: GameState, frame: RemoveBlackBarrier) -> Decision | None:
    opts = [r for r, b in enumerate(s.barriers) if b == BLACK]
    if not opts:
        s.stack.pop()
        return None
    return Decision(ANGELA, "remove_black_barrier", opts)


def _a_remove_black_barrier(s: GameState, frame: RemoveBlackBarrier, r: int) -> None:
    s.stack.pop()
    s._remove_barrier(r)
    s._seen("black_removed", ANGELA, "barrier", -1, r)
    if s.log is not None:
        s._event("black_removed", barrier=s.comps.route_name(r))


FRAME_HANDLERS["black_radar"] = (_s_black_radar, _a_black_radar)
FRAME_HANDLERS["black_barrier"] = (_s_black_barrier, _a_black_barrier)
FRAME_HANDLERS["remove_black_radar"] = (_s_remove_black_radar, _a_remove_black_radar)
FRAME_HANDLERS["remove_black_barrier"] = (_s_remove_black_barrier, _a_remove_black_barrier)


class PrivateJet(UpgradeEffect):
    """Private Jet: +1 step on each of Jessah's Movement actions from a card
    half or a joker (not on bonus or upgrade movements)."""

    NAME = "private_jet"
    PERMANENT = True

    def movement_bonus(self, s: GameState, seat: int, mode: int) -> int:
        return 1 if seat == JESSAH and mode & M_CARD else 0


class FrozenAccounts(UpgradeEffect):
    """Frozen Accounts: Angela's checks of the bonus-move value ($100k in the
    classic rules) no longer give her the bonus movement."""

    NAME = "frozen_accounts"
    PERMANENT = True

    def on_cash(self, s: GameState, seat: int, value: int, later: Later) -> None:
        if seat == ANGELA:
            later[:] = [x for x in later if not (x[0] == "bonus" and x[1] == ANGELA)]


class BankAlert(UpgradeEffect):
    """Bank Alert: each time Angela cashes a check, Jessah then moves 1 step."""

    NAME = "bank_alert"
    PERMANENT = True

    def on_cash(self, s: GameState, seat: int, value: int, later: Later) -> None:
        if seat == ANGELA:
            later.append(("move", JESSAH, 1))


# ---------------------------------------------------------- immediate cards


class Wiretap(UpgradeEffect):
    """Wiretap: Angela's hand is revealed."""

    NAME = "wiretap"

    def on_gain(self, s: GameState) -> None:
        s.revealed_hand = (s.round, tuple(s.hands[ANGELA]))
        s._seen("wiretap", JESSAH, items=s.revealed_hand[1])
        if s.log is not None:
            s._event("wiretap", hand=[s._check_name(c) for c in s.hands[ANGELA]])


class SatelliteSweep(UpgradeEffect):
    """Satellite Sweep: Angela's continent is revealed."""

    NAME = "satellite_sweep"

    def on_gain(self, s: GameState) -> None:
        k = s.comps.city_continent[s.angela_city]
        s.belief &= s.comps.continent_mask[k]
        s.last_seen = (-1, k, s.round)
        s._seen("satellite_sweep", JESSAH, k)
        if s.log is not None:
            s._event("satellite_sweep", continent=s.comps.continents[k].id)


class Roadblocks(UpgradeEffect):
    """Roadblocks: Jessah performs a Security action of 2 icons."""

    NAME = "roadblocks"

    def on_gain(self, s: GameState) -> None:
        s.stack.append(JessahSecurity(JESSAH, 2))


class RapidResponse(UpgradeEffect):
    """Rapid Response: Jessah moves up to 2 steps."""

    NAME = "rapid_response"

    def on_gain(self, s: GameState) -> None:
        s._push_move(JESSAH, 2, 0)


class InformantEffect(UpgradeEffect):
    """The Informant: Jessah names a city and learns whether Angela is in it
    or next to it."""

    NAME = "informant"

    def on_gain(self, s: GameState) -> None:
        s.stack.append(Informant())


def _s_informant(s: GameState, frame: Informant) -> Decision:
    return Decision(JESSAH, "informant", list(range(s.comps.n_cities)))


def _a_informant(s: GameState, frame: Informant, city: int) -> None:
    s.stack.pop()
    near = bel.adjacent_or_same(city, s.comps.neighbour_mask)
    yes = bool(near >> s.angela_city & 1)
    s.belief = s.belief & near if yes else s.belief & ~near
    s._seen("informant", JESSAH, city, yes)
    if s.log is not None:
        s._event("informant", city=s._city_name(city), answer=yes)


FRAME_HANDLERS["informant"] = (_s_informant, _a_informant)


# ================================================================ registries

_IDENTITIES: list[IdentityEffect] = [Lawyer(), Journalist(), SecretAgent(), Doctor(), Businesswoman(), Pilot()]
_UPGRADES: list[UpgradeEffect] = [
    PreciseRadars(), PermanentUnits(), PrivateJet(), FrozenAccounts(), BankAlert(),
    Wiretap(), SatelliteSweep(), Roadblocks(), RapidResponse(), InformantEffect(),
]
IDENTITY_EFFECTS.update({e.NAME: e for e in _IDENTITIES})
UPGRADE_EFFECTS.update({e.NAME: e for e in _UPGRADES})


def _check_vocabulary() -> None:
    """The classes registered above are exactly the effects the rules name."""
    ours = (tuple(IDENTITY_EFFECTS), {k: e.PERMANENT for k, e in UPGRADE_EFFECTS.items()})
    if ours != (names.IDENTITY_EFFECTS, dict(names.UPGRADE_PERMANENT)):
        raise ImportError(f"engine effects {ours} differ from the rules' vocabulary "
                          "(rnsim/games/red_notice/rules/effect_names.py)")


_check_vocabulary()
