"""Decisions: what the engine asks a seat, and the legal answers.

Option encodings (stable; strategies and positions rely on them):

=====================  ======================================================
kind                   options
=====================  ======================================================
``start``              ``(check_id, city)``: the check shown and the start city
``setup_radar``        ``continent``: where a setup radar goes
``place_token``        ``(value, card, half)``: token value (POW = 1000), card
                       position in this round (0 = resolved first), half 0/1
``check``              ``"draw"`` or ``"pass"``
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

from typing import Any

SEATS = ("angela", "jessah")
ANGELA, JESSAH = 0, 1

Option = Any


class Decision:
    """A question to one seat. ``options`` is the full list of legal answers."""

    __slots__ = ("seat", "kind", "options", "info")

    def __init__(self, seat: int, kind: str, options: list[Option], info: dict[str, Any] | None = None) -> None:
        self.seat = seat
        self.kind = kind
        self.options = options
        self.info = info if info is not None else {}

    def __repr__(self) -> str:
        opts = self.options if len(self.options) <= 8 else [*self.options[:8], "..."]
        return f"Decision({SEATS[self.seat]}, {self.kind!r}, {opts}, {self.info})"
