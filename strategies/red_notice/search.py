"""``search``: the expert, checked by determinized Monte Carlo search (either seat).

At a decision worth searching, the player draws ``iterations`` *worlds*:
full game states its seat cannot tell from the real one (``View.worlds``,
i.e. engine/determinize.py: Angela's city from the public belief, the
opponent's hand and tokens from what is unseen, the decks and the future
chance draws re-drawn; never the real hidden facts). In every world it tries
every candidate option and plays the game out to its end with the expert in
both seats. All candidates of one world share that world and the rollout
players' random streams (common random numbers), so the comparison between
two options is paired: the noise of the world and of the rest of the game
cancels, and what is left is the effect of the option.

This is determinized flat Monte Carlo ("perfect information Monte Carlo"),
the one-level case of single-observer ISMCTS (Cowling, Powley & Whitehouse
2012): with the few rollouts a tournament can afford per decision, a deeper
tree would have one or two visits per node and learn nothing.

The expert is the prior: the player keeps the expert's choice unless another
option wins more rollouts than it by a clear paired margin (``margin``
standard errors of the paired difference, and at least two rollouts). Among
options tied at the top it draws at random from its own stream, so it is
not predictable. The budget goes where the choice matters: after two
worlds, an option two rollouts behind the expert's choice is dropped, and a
decision where no option has changed any rollout's result stops there
(``iterations`` is the most worlds per decision). Forced decisions (one option), decisions of the kinds it
does not search, and those with more than ``max_options`` options are the
expert's, with no rollout.

Deterministic for a seed: worlds and rollout streams come from a stream
seeded from the seat's own stream at the start of the game.
"""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar

from rnsim_strategies.red_notice.expert import Expert

from rnsim.errors import ConfigError
from rnsim.games.red_notice.engine.decision import Decision, Option
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import View, build_view
from rnsim.strategy import Strategy

#: decision kinds the player may search, with few options and a lasting effect
SEARCHABLE = (
    "angela_move", "jessah_move", "bank", "check", "joker", "identity", "upgrade", "angela_security",
    "setup_radar", "black_radar", "lawyer_radar", "lawyer_barrier", "destroy_upgrade",
    "remove_black_radar", "remove_black_barrier",
)
DEFAULT_KINDS = "bank,check,joker,identity,upgrade,angela_security,angela_move,jessah_move"


class Search(Strategy):
    """Plays either seat; see the module docstring."""

    name = "search"
    PARAMS: ClassVar[dict[str, Any]] = {
        "iterations": 2, "max_options": 8, "margin": 1.0, "kinds": DEFAULT_KINDS,
        "first_step": True, "risk": 0.5, "greed": 0.5,
    }
    PARAM_RANGES: ClassVar[dict[str, tuple[type, float | None, float | None]]] = {
        "iterations": (int, 0, 10_000), "max_options": (int, 2, 200), "margin": (float, 0.0, 10.0),
        "risk": (float, 0.0, 1.0), "greed": (float, 0.0, 1.0),
    }

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        kinds = self.params["kinds"]
        if not isinstance(kinds, str):
            raise ConfigError(f"strategy Search: param 'kinds' must be a comma-separated string, got {kinds!r}")
        chosen = tuple(k.strip() for k in kinds.split(",") if k.strip())
        bad = [k for k in chosen if k not in SEARCHABLE]
        if bad:
            raise ConfigError(f"strategy Search: param 'kinds': unknown kind {bad[0]!r}; "
                              f"allowed: {', '.join(SEARCHABLE)}")
        if not isinstance(self.params["first_step"], bool):
            raise ConfigError(f"strategy Search: param 'first_step' must be true or false, "
                              f"got {self.params['first_step']!r}")
        self.kinds = frozenset(chosen)
        self.iterations = int(self.params["iterations"])
        self.max_options = int(self.params["max_options"])
        self.margin = float(self.params["margin"])
        self.first_step = bool(self.params["first_step"])
        style = {"risk": self.params["risk"], "greed": self.params["greed"]}
        self.expert = Expert(**style)
        # The rollout players: the expert in both seats, re-seeded per world.
        self._players = (Expert(**style), Expert(**style))
        self._search_rng = random.Random(0)
        self._moving = ""
        self.rollouts = 0  # played so far by this instance (benchmarks read it)
        self.searched = 0  # decisions searched so far

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        # The search's stream is seeded from the seat stream's state without
        # drawing from it, so the expert inside plays on the very stream it
        # would have alone (iterations = 0 is the expert, decision for decision).
        self._search_rng = random.Random("search " + " ".join(map(str, rng.getstate()[1][:16])))
        self.expert.new_game(seat, rng)
        self._moving = ""

    def choose(self, view: View, decision: Decision) -> Option:
        # The expert sees every view (it keeps memory between decisions) and
        # its answer is the prior the search must beat.
        pick = self.expert.choose(view, decision)
        kind = decision.kind
        first = kind != self._moving
        self._moving = kind if kind in ("angela_move", "jessah_move") else ""
        opts = decision.options
        if (self.iterations == 0 or len(opts) < 2 or len(opts) > self.max_options or kind not in self.kinds
                or view.worlds is None or (self.first_step and not first)):
            return pick
        return self._search(view, decision, pick)

    def _search(self, view: View, decision: Decision, pick: Option) -> Option:
        opts = list(decision.options)
        me = view.seat
        rng = self._search_rng
        worlds = view.worlds
        assert worlds is not None
        p = opts.index(pick)
        alive = list(range(len(opts)))
        scores: list[list[float]] = [[] for _ in opts]
        for i in range(self.iterations):
            world = worlds.sample(rng)
            seeds = (rng.getrandbits(63), rng.getrandbits(63))
            for j, k in enumerate(alive):
                scores[k].append(self._rollout(world if j == len(alive) - 1 else world.clone(), opts[k], seeds, me))
            if i + 1 < 2:
                continue
            # Successive elimination on the paired gains against the expert's
            # choice: an option two rollouts behind it is dropped, and once
            # no option differs from it in any world the rest is not worth
            # the rollouts (the choice matters little here).
            base = scores[p]
            gains = {k: sum(a - b for a, b in zip(scores[k], base, strict=False)) for k in alive}
            if all(scores[k] == base[:len(scores[k])] for k in alive):
                break
            alive = [k for k in alive if k == p or gains[k] > -2]
            if alive == [p]:
                break
        self.searched += 1
        base = scores[p]
        best: list[int] = []
        best_gain = 0.0
        for k in alive:
            diffs = [a - b for a, b in zip(scores[k], base, strict=True)]
            gain = sum(diffs)
            if gain < 2 or gain < self.margin * math.sqrt(sum(d * d for d in diffs)):
                continue  # not clearly better than the expert's choice
            if gain > best_gain:
                best, best_gain = [k], gain
            elif gain == best_gain:
                best.append(k)
        if not best:
            return pick
        return opts[best[0] if len(best) == 1 else best[rng.randrange(len(best))]]

    def _rollout(self, state: GameState, option: Option, seeds: tuple[int, int], me: int) -> float:
        """Play ``option`` in ``state`` and the rest of the game expert vs expert:
        1 if ``me`` wins, 0 if the other seat does, 1/2 without a winner."""
        players = self._players
        players[0].new_game(0, random.Random(seeds[0]))
        players[1].new_game(1, random.Random(seeds[1]))
        state.apply(option)
        while not state.over:
            d = state.pending
            assert d is not None
            state.apply(players[d.seat].choose(build_view(state, d.seat), d))
        self.rollouts += 1
        if state.winner is None:
            return 0.5
        return 1.0 if state.winner == me else 0.0
