"""Decisions: what the engine asks a seat, and the legal answers.

Option encodings (stable; strategies and positions rely on them):

=====================  ======================================================
kind                   options
=====================  ======================================================
``start``              ``(check_id, city)``: the check shown and the start city
``setup_radar``        ``continent``: where a setup radar goes
``place_token``        ``(value, card, half)``: token value (POW = 1000), card
                       position in this round (0 = resolved first), half 0/1
``check``              ``"draw"`` (one check, for one icon; asked again while
                       icons are left, R26) or ``"pass"`` (draw no more);
                       info: ``left`` icons, ``drawn`` so far
``joker``              ``"check"``, ``"bank"``, ``"security"``, ``"movement"``, ``"pass"``
``bank``               ``check_id`` to cash, or ``"pass"``
``upgrade``            an upgrade id among the face-up ones
``jessah_security``    ``("radar", continent)``, ``("barrier", route)``,
                       ``("move_barrier", from_route, to_route)``, ``"pass"``
``angela_security``    ``"gain"``, ``"pass"``, ``("remove_radar", continent)``,
                       ``("remove_barrier", route)`` (spending security, R11)
``angela_move``        ``("move", city)``, ``"stay"``, ``"stop"``, and the two
                       ``remove_*`` options above (R11: before each step)
``jessah_move``        ``("move", city)``, ``"inspect"`` (stay and inspect), ``"stop"``
``identity``           an identity id among Angela's face-up identities
``lawyer_barrier``     ``route`` (a white barrier to discard)
``lawyer_radar``       ``continent`` (a white radar to discard)
``destroy_upgrade``    an upgrade id among Jessah's permanent upgrades
``remove_black_radar`` ``continent``; ``remove_black_barrier``: ``route``
``black_radar``        ``continent`` (place or flip a radar black side up)
``black_barrier``      ``route`` (place or flip a barrier black side up)
``informant``          ``city`` (Jessah names a city)
=====================  ======================================================
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import islice
from typing import Any, Final, Generic, Literal, TypeAlias, TypeVar

SEATS = ("angela", "jessah")
# Final: compiled code reads these as constants, not from the module's dict.
ANGELA: Final = 0
JESSAH: Final = 1

# Typed options: one alias per decision kind, as in the table above. A
# strategy's ``on_<kind>`` handler takes a ``Decision[<alias>]`` and returns
# the alias, so a type checker catches an answer of the wrong shape (a bare
# city where ``("move", city)`` is due) before a game does. OPTION_TYPES maps
# each kind to its alias; a test holds every option the engine offers to it.
Pass: TypeAlias = Literal["pass"]
Continent: TypeAlias = int  # index into comps.continents
City: TypeAlias = int  # index into comps.cities
Route: TypeAlias = int  # index into comps.routes
CheckId: TypeAlias = int  # index into comps.checks
UpgradeId: TypeAlias = str  # an upgrade's id, e.g. "bank_alert"
IdentityId: TypeAlias = str  # an identity's id, e.g. "pilot"
StartOption: TypeAlias = tuple[CheckId, City]  # the check shown, the start city
TokenPlacement: TypeAlias = tuple[int, int, int]  # (value or POW, card position, half)
CheckOption: TypeAlias = Literal["draw", "pass"]
JokerOption: TypeAlias = Literal["check", "bank", "security", "movement", "pass"]
BankOption: TypeAlias = CheckId | Pass
RadarPlacement: TypeAlias = tuple[Literal["radar"], Continent]
BarrierPlacement: TypeAlias = tuple[Literal["barrier"], Route]
BarrierMove: TypeAlias = tuple[Literal["move_barrier"], Route, Route]
JessahSecurityOption: TypeAlias = RadarPlacement | BarrierPlacement | BarrierMove | Pass
RemoveRadar: TypeAlias = tuple[Literal["remove_radar"], Continent]  # R11
RemoveBarrier: TypeAlias = tuple[Literal["remove_barrier"], Route]  # R11
AngelaSecurityOption: TypeAlias = Literal["gain", "pass"] | RemoveRadar | RemoveBarrier
Step: TypeAlias = tuple[Literal["move"], City]
AngelaMoveOption: TypeAlias = Step | Literal["stay", "stop"] | RemoveRadar | RemoveBarrier
JessahMoveOption: TypeAlias = Step | Literal["inspect", "stop"]

#: the option type of every decision kind the engine asks
OPTION_TYPES: dict[str, Any] = {
    "start": StartOption, "setup_radar": Continent, "place_token": TokenPlacement,
    "check": CheckOption, "joker": JokerOption, "bank": BankOption, "upgrade": UpgradeId,
    "jessah_security": JessahSecurityOption, "angela_security": AngelaSecurityOption,
    "angela_move": AngelaMoveOption, "jessah_move": JessahMoveOption, "identity": IdentityId,
    "lawyer_barrier": Route, "lawyer_radar": Continent, "destroy_upgrade": UpgradeId,
    "remove_black_radar": Continent, "remove_black_barrier": Route,
    "black_radar": Continent, "black_barrier": Route, "informant": City,
}

#: an answer of any kind: where code handles every kind at once (a
#: strategy's ``choose``, the engine's ``apply``, which checks the answer
#: against the decision's legal options at run time)
Option: TypeAlias = Any

OptionT = TypeVar("OptionT")


class Decision(Generic[OptionT]):
    """A question to one seat. ``options`` is the full list of legal answers,
    of the kind's type (``Decision[BankOption]`` for a ``bank`` decision)."""

    __slots__ = ("seat", "kind", "options", "info")

    def __init__(self, seat: int, kind: str, options: Sequence[OptionT], info: dict[str, Any] | None = None) -> None:
        self.seat = seat
        self.kind = kind
        self.options = options
        self.info = info if info is not None else {}

    def __repr__(self) -> str:
        opts = self.options if len(self.options) <= 8 else [*self.options[:8], "..."]
        return f"Decision({SEATS[self.seat]}, {self.kind!r}, {opts}, {self.info})"


class JessahSecurityOptions(Sequence[JessahSecurityOption]):
    """The options of a ``jessah_security`` decision, without building them.

    There can be ~200 of them (every barrier to every free route), and most
    decisions only need a random index or a membership test, so they are
    computed on demand, in this order: radars on free continents, new barriers
    on free routes, moves of a placed barrier to a free route, then ``"pass"``.
    """

    __slots__ = ("radars", "free", "new_barriers", "placed", "_board", "_nf", "_nnew")

    def __init__(self, radars: list[int], free: list[int], new_barriers: bool, placed: list[int],
                 board: tuple[int, ...] | None = None) -> None:
        self.radars = radars  # continents where a radar may go (empty if none in supply)
        self.free = free  # routes without a barrier
        self.new_barriers = new_barriers  # a barrier is left in the supply
        self.placed = placed  # routes holding a barrier
        # the barriers per route that ``free`` and ``placed`` were read from
        # (0: none), if given: a membership test reads a route's entry there
        # instead of searching the lists
        self._board = board
        self._nf = len(free)
        self._nnew = len(free) if new_barriers else 0

    def _is_free(self, r: object) -> bool:
        board = self._board
        if board is not None and type(r) is int and 0 <= r < len(board):
            return not board[r]
        return r in self.free

    def _is_placed(self, r: object) -> bool:
        board = self._board
        if board is not None and type(r) is int and 0 <= r < len(board):
            return board[r] != 0
        return r in self.placed

    def __len__(self) -> int:
        return len(self.radars) + self._nnew + len(self.placed) * self._nf + 1

    def __getitem__(self, i: Any) -> Any:  # type: ignore[override]  # an option, or a list for a slice
        if isinstance(i, slice):
            return list(islice(iter(self), *i.indices(len(self))))
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError(i)
        nr = len(self.radars)
        if i < nr:
            return ("radar", self.radars[i])
        i -= nr
        if i < self._nnew:
            return ("barrier", self.free[i])
        i -= self._nnew
        nf = self._nf
        if i < len(self.placed) * nf:
            return ("move_barrier", self.placed[i // nf], self.free[i % nf])
        return "pass"

    def __iter__(self) -> Iterator[JessahSecurityOption]:
        for k in self.radars:
            yield ("radar", k)
        if self.new_barriers:
            for r in self.free:
                yield ("barrier", r)
        for b in self.placed:
            for t in self.free:
                yield ("move_barrier", b, t)
        yield "pass"

    def __contains__(self, opt: object) -> bool:
        if opt == "pass":
            return True
        if not isinstance(opt, tuple) or not opt:
            return False
        if opt[0] == "radar" and len(opt) == 2:
            return opt[1] in self.radars
        if opt[0] == "barrier" and len(opt) == 2:
            return self.new_barriers and self._is_free(opt[1])
        if opt[0] == "move_barrier" and len(opt) == 3:
            return self._is_placed(opt[1]) and self._is_free(opt[2])
        return False

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Sequence) and not isinstance(other, str) and list(self) == list(other)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"JessahSecurityOptions({len(self)} options)"
