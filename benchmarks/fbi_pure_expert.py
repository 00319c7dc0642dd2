"""The FBI expert that picks its field agents by its own two arrests alone
(``samples`` 0: no rival contests its colours, no draw from its stream), for
measuring the expert against it in mixed tables:

    rnsim exploit --game fbi --setup 4 --probes none --level expert \\
        --probe ann=benchmarks.fbi_pure_expert:PureExpert

plays it in every seat in turn among experts, against the expert in the same
seat on the same deals (its gain: its seat's share of the games won minus the
expert's); ``--level expert@samples=0`` seats it among copies of itself. :class:`PureReader` is ``pair_reader``
reading a table of them. :class:`MixExpert` is the expert of commit
c01cc5a (its arrests drawing the rivals' pairs from the model's mixes, 6
candidate pairs at every player count), for measuring the expert against it
the same way (``--probe ann=benchmarks.fbi_pure_expert:MixExpert``, and
``--level benchmarks.fbi_pure_expert:MixExpert`` for a table of them).
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from rnsim_strategies.fbi.expert import ExpertStrategy, _Model, _Pairs
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


class MixExpert(ExpertStrategy):
    """The expert of commit c01cc5a: ``agent_pairs`` candidates at every
    player count, and in its arrests each rival's pair drawn from the
    model's mix for him (the mean of the fictitious play's rounds), not from
    the odds of his pick."""

    name = "mix_expert"
    base = "expert"
    PARAMS: ClassVar[dict[str, Any]] = {**ExpertStrategy.PARAMS, "agent_pairs_5": ExpertStrategy.PARAMS["agent_pairs"]}

    def _kept(self, model: _Model, seat: int, played: tuple[int, ...], then: _Pairs) -> tuple[list[list[int]], list[float]]:
        return super()._kept(_Model(model.index, model.cols, model.cums), seat, played, then)
