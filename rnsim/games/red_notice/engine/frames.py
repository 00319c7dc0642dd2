"""The resolution frames of the engine's stack, one class per kind.

The engine resolves a round as a stack of pending frames (round -> card ->
action -> movement step -> capture -> escape -> ...); the top frame is the
next thing to resolve. Each class below is one kind of frame with named
fields. ``NAME`` is the kind's name in a saved position and ``FIELDS`` the
order of its fields there (rnsim/games/red_notice/engine/position.py reads
and writes them by these names).

Cloning a state copies its stack with ``copy()``: frames whose fields never
change once pushed return themselves and are shared between clones; the
others (``MUTABLE``) copy their fields, which are all immutable values
(ints, None, tuples).

``kind`` is the frame's index in ``KINDS``: the engine dispatches on it to
its ``_s_<name>`` (step) and ``_a_<name>`` (answer) handlers.
"""

from __future__ import annotations

from typing import ClassVar, Final

# Final: compiled code reads these as constants, not from the module's dict.
# movement modes (bit flags of Move.mode)
M_CARD: Final = 1  # a Movement action from a card half or joker (Private Jet applies)
M_JOURNALIST: Final = 2  # ignores barriers, triggers no radar
M_ESCAPE: Final = 4

# Round.phase
P_START: Final = 0
P_PLACE: Final = 1
P_RESOLVE: Final = 2
P_END: Final = 3

# Card performances: who performs which half, in order, as (seat, half) pairs.
Performances = tuple[tuple[int, int], ...]
# Move.triggered: the radars a movement triggered, as (continent, city or -1).
Triggers = tuple[tuple[int, int], ...]

(
    F_J_START,
    F_SETUP_RADAR,
    F_A_START,
    F_ROUND,
    F_PLACE,
    F_CARD,
    F_CHECK,
    F_JOKER,
    F_BANK,
    F_J_SECURITY,
    F_A_SECURITY,
    F_MOVE,
    F_CAPTURE,
    F_IDENTITY,
    F_UPGRADE,
    F_BLACK_RADAR,
    F_BLACK_BARRIER,
    F_INFORMANT,
    F_DESTROY,
    F_REMOVE_BLACK_RADAR,
    F_REMOVE_BLACK_BARRIER,
    F_LAWYER_BARRIER,
    F_LAWYER_RADAR,
    F_SECURITY_TO_CAP,
    F_DRAW,
) = range(25)


class Frame:
    """One pending step of resolution."""

    __slots__ = ("kind",)
    kind: int
    NAME: ClassVar[str] = ""
    FIELDS: ClassVar[tuple[str, ...]] = ()
    MUTABLE: ClassVar[bool] = False

    def copy(self) -> Frame:
        """The frame for a clone of the state (itself when it never changes)."""
        return self

    def __repr__(self) -> str:
        return f"{type(self).__name__}({', '.join(f'{n}={getattr(self, n)!r}' for n in self.FIELDS)})"


# ------------------------------------------------------------------ setup


class JessahStart(Frame):
    """Jessah shows a check and starts in a city of its colour (R19)."""

    __slots__ = ()
    NAME = "j_start"

    def __init__(self) -> None:
        self.kind = F_J_START


class SetupRadar(Frame):
    """Jessah places one of the setup radars."""

    __slots__ = ()
    NAME = "setup_radar"

    def __init__(self) -> None:
        self.kind = F_SETUP_RADAR


class AngelaStart(Frame):
    """Angela shows a check and starts, in secret, in a city of its colour."""

    __slots__ = ()
    NAME = "a_start"

    def __init__(self) -> None:
        self.kind = F_A_START


# ------------------------------------------------------------------ rounds


class Round(Frame):
    """The round in progress: its phase, and in P_RESOLVE the next card to resolve."""

    __slots__ = ("phase", "next_card")
    NAME = "round"
    FIELDS = ("phase", "next_card")
    MUTABLE = True

    def __init__(self, phase: int, next_card: int) -> None:
        self.kind = F_ROUND
        self.phase = phase
        self.next_card = next_card

    def copy(self) -> Round:
        return Round(self.phase, self.next_card)


class Place(Frame):
    """Token placement: ``placed`` tokens are down, the players alternate."""

    __slots__ = ("placed",)
    NAME = "place"
    FIELDS = ("placed",)
    MUTABLE = True

    def __init__(self, placed: int) -> None:
        self.kind = F_PLACE
        self.placed = placed

    def copy(self) -> Place:
        return Place(self.placed)


class Card(Frame):
    """One action card of the round being resolved: ``performances`` (worked
    out when the card is revealed, None before) and the next one to run."""

    __slots__ = ("card", "performances", "next")
    NAME = "card"
    FIELDS = ("card", "performances", "next")
    MUTABLE = True

    def __init__(self, card: int, performances: Performances | None, next: int) -> None:
        self.kind = F_CARD
        self.card = card
        self.performances = performances
        self.next = next

    def copy(self) -> Card:
        return Card(self.card, self.performances, self.next)


# ----------------------------------------------------------------- actions


class CheckAction(Frame):
    """A Check action, taken icon by icon (R26): ``seat`` may still draw
    ``left`` checks and has drawn ``drawn`` so far in this action."""

    __slots__ = ("seat", "left", "drawn")
    NAME = "check"
    FIELDS = ("seat", "left", "drawn")
    MUTABLE = True

    def __init__(self, seat: int, left: int, drawn: int = 0) -> None:
        self.kind = F_CHECK
        self.seat = seat
        self.left = left
        self.drawn = drawn

    def copy(self) -> CheckAction:
        return CheckAction(self.seat, self.left, self.drawn)


class Joker(Frame):
    """A Joker half: ``seat`` picks the action it stands for (R4)."""

    __slots__ = ("seat",)
    NAME = "joker"
    FIELDS = ("seat",)

    def __init__(self, seat: int) -> None:
        self.kind = F_JOKER
        self.seat = seat


class Bank(Frame):
    """A Bank action: ``seat`` may cash a check of her continent's colour."""

    __slots__ = ("seat",)
    NAME = "bank"
    FIELDS = ("seat",)

    def __init__(self, seat: int) -> None:
        self.kind = F_BANK
        self.seat = seat


class JessahSecurity(Frame):
    """Jessah's Security action with ``left`` icons still to use."""

    __slots__ = ("seat", "left")
    NAME = "j_security"
    FIELDS = ("seat", "left")
    MUTABLE = True

    def __init__(self, seat: int, left: int) -> None:
        self.kind = F_J_SECURITY
        self.seat = seat
        self.left = left

    def copy(self) -> JessahSecurity:
        return JessahSecurity(self.seat, self.left)


class AngelaSecurity(Frame):
    """Angela's Security action with ``left`` icons still to use (R11)."""

    __slots__ = ("seat", "left")
    NAME = "a_security"
    FIELDS = ("seat", "left")
    MUTABLE = True

    def __init__(self, seat: int, left: int) -> None:
        self.kind = F_A_SECURITY
        self.seat = seat
        self.left = left

    def copy(self) -> AngelaSecurity:
        return AngelaSecurity(self.seat, self.left)


class Move(Frame):
    """A movement of ``seat``: ``left`` of its ``steps`` steps to go.

    ``mode`` is a set of M_* flags. ``radars`` (the radars on the board) and
    ``belief`` (the public belief) are taken when the movement starts, None
    and 0 until then: other effects, like the Lawyer's discards, may run
    between the push and the start. ``triggered`` collects Angela's radar
    triggers, announced when the movement ends (R15).
    """

    __slots__ = ("seat", "left", "mode", "triggered", "radars", "belief", "steps")
    NAME = "move"
    FIELDS = ("seat", "left", "mode", "triggered", "radars", "belief", "steps")
    MUTABLE = True

    def __init__(self, seat: int, left: int, mode: int, triggered: Triggers, radars: tuple[int, ...] | None,
                 belief: int, steps: int) -> None:
        self.kind = F_MOVE
        self.seat = seat
        self.left = left
        self.mode = mode
        self.triggered = triggered
        self.radars = radars
        self.belief = belief
        self.steps = steps

    def copy(self) -> Move:
        return Move(self.seat, self.left, self.mode, self.triggered, self.radars, self.belief, self.steps)


class Draw(Frame):
    """``seat`` draws ``n`` checks, no choice (the Doctor's escape)."""

    __slots__ = ("seat", "n")
    NAME = "draw"
    FIELDS = ("seat", "n")

    def __init__(self, seat: int, n: int) -> None:
        self.kind = F_DRAW
        self.seat = seat
        self.n = n


# --------------------------------------------------------- capture, escape


class Capture(Frame):
    """Jessah has found Angela in ``city`` (R17)."""

    __slots__ = ("city",)
    NAME = "capture"
    FIELDS = ("city",)

    def __init__(self, city: int) -> None:
        self.kind = F_CAPTURE
        self.city = city


class BurnIdentity(Frame):
    """Angela turns one of her identities face down and escapes with it."""

    __slots__ = ()
    NAME = "identity"

    def __init__(self) -> None:
        self.kind = F_IDENTITY


class LawyerBarrier(Frame):
    """The Lawyer's escape: Angela discards a white barrier."""

    __slots__ = ()
    NAME = "lawyer_barrier"

    def __init__(self) -> None:
        self.kind = F_LAWYER_BARRIER


class LawyerRadar(Frame):
    """The Lawyer's escape: Angela discards a white radar."""

    __slots__ = ()
    NAME = "lawyer_radar"

    def __init__(self) -> None:
        self.kind = F_LAWYER_RADAR


class SecurityToCap(Frame):
    """The Secret Agent's escape: Angela's security goes to the cap."""

    __slots__ = ()
    NAME = "security_to_cap"

    def __init__(self) -> None:
        self.kind = F_SECURITY_TO_CAP


class DestroyUpgrade(Frame):
    """The Businesswoman's escape: Angela destroys one of Jessah's permanent upgrades."""

    __slots__ = ()
    NAME = "destroy"

    def __init__(self) -> None:
        self.kind = F_DESTROY


class RemoveBlackRadar(Frame):
    """Permanent Units destroyed: Angela removes a black radar."""

    __slots__ = ()
    NAME = "remove_black_radar"

    def __init__(self) -> None:
        self.kind = F_REMOVE_BLACK_RADAR


class RemoveBlackBarrier(Frame):
    """Permanent Units destroyed: Angela removes a black barrier."""

    __slots__ = ()
    NAME = "remove_black_barrier"

    def __init__(self) -> None:
        self.kind = F_REMOVE_BLACK_BARRIER


# ---------------------------------------------------------------- upgrades


class GainUpgrade(Frame):
    """Jessah gains an upgrade; ``chooser`` (who cashed the check) picks it."""

    __slots__ = ("chooser",)
    NAME = "upgrade"
    FIELDS = ("chooser",)

    def __init__(self, chooser: int) -> None:
        self.kind = F_UPGRADE
        self.chooser = chooser


class BlackRadar(Frame):
    """Permanent Units: Jessah places or flips a radar black side up."""

    __slots__ = ()
    NAME = "black_radar"

    def __init__(self) -> None:
        self.kind = F_BLACK_RADAR


class BlackBarrier(Frame):
    """Permanent Units: Jessah places or flips a barrier black side up."""

    __slots__ = ()
    NAME = "black_barrier"

    def __init__(self) -> None:
        self.kind = F_BLACK_BARRIER


class Informant(Frame):
    """The Informant: Jessah names a city; is Angela in or next to it?"""

    __slots__ = ()
    NAME = "informant"

    def __init__(self) -> None:
        self.kind = F_INFORMANT


# Every frame class, at the index of its kind.
KINDS: tuple[type[Frame], ...] = (
    JessahStart, SetupRadar, AngelaStart, Round, Place, Card, CheckAction, Joker, Bank, JessahSecurity,
    AngelaSecurity, Move, Capture, BurnIdentity, GainUpgrade, BlackRadar, BlackBarrier, Informant,
    DestroyUpgrade, RemoveBlackRadar, RemoveBlackBarrier, LawyerBarrier, LawyerRadar, SecurityToCap, Draw,
)
