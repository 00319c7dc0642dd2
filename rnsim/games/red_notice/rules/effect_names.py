"""The effects a component set may name: the vocabulary of the ``effect`` key
of identities.toml and upgrades.toml, and each upgrade's timing.

The rules own the names; the engine implements one class per name
(rnsim/games/red_notice/engine/effects.py) and refuses to load if it does not
implement exactly these. So the component loader checks a card's effect
without knowing the engine.
"""

from __future__ import annotations

from typing import Final

#: identity effects, in the order the messages list them
IDENTITY_EFFECTS: Final[tuple[str, ...]] = (
    "lawyer", "journalist", "secret_agent", "doctor", "businesswoman", "pilot",
)

#: upgrade effect -> True if the card is permanent (stays in front of Jessah,
#: its while-held hooks apply), False if it applies once, on gain
UPGRADE_PERMANENT: Final[dict[str, bool]] = {
    "precise_radars": True, "permanent_units": True, "private_jet": True, "frozen_accounts": True,
    "bank_alert": True, "wiretap": False, "satellite_sweep": False, "roadblocks": False,
    "rapid_response": False, "informant": False,
}
