"""The FBI expert that picks its field agents by its own two arrests alone
(``samples`` 0: no rival contests its colours, no draw from its stream), for
measuring the expert against it in mixed tables:

    rnsim exploit --game fbi --setup 4 --probes none --level expert \\
        --probe ann=benchmarks.fbi_pure_expert:PureExpert

plays it in every seat in turn among experts, against the expert in the same
seat on the same deals (its gain: its seat's share of the games won minus the
expert's); ``--level expert@samples=0`` seats it among copies of itself. :class:`PureReader` is ``pair_reader``
reading a table of them.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rnsim_strategies.fbi.expert import ExpertStrategy
from rnsim_strategies.fbi.probes.readers import PairReader


class PureExpert(ExpertStrategy):
    """The expert with ``samples`` 0: its pair of agents a function of the open table."""

    name = "pure_expert"
    base = "expert"
    PARAMS: ClassVar[dict[str, Any]] = {**ExpertStrategy.PARAMS, "samples": 0}


class PureReader(PairReader):
    """``pair_reader`` with a copy of :class:`PureExpert` to predict the
    others: at a table of pure experts it knows every rival's pair (the
    exploit the expert's mixed pick closes)."""

    name = "pure_reader"

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        self._model = PureExpert()
        self._model.new_game(seat, random.Random(0))
