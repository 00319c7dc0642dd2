"""``search``: the expert, checked by determinized Monte Carlo search (either seat).

At a decision worth searching, the player draws *worlds*:
full game states its seat cannot tell from the real one (``View.worlds``,
i.e. engine/determinize.py: Angela's city from the public belief, the
opponent's hand and tokens from what is unseen, the decks and the future
chance draws re-drawn; never the real hidden facts). In every world it tries
every candidate option and plays the game out to its end with the expert in
both seats. All candidates of one world share that world and the rollout
players' random streams (common random numbers), so the comparison between
two options is paired: the noise of the world and of the rest of the game
cancels, and what is left is the effect of the option.

A rollout is cut short (``horizon``, ``steps``): it stops at the start of
the ``horizon``-th round after the decision's, or after ``steps``
decisions if sooner, and the state it reached is scored by a value model,
a logistic regression of the winner on features of the full state of that
world (money banked and in hand against the target, captures left, where
Angela stands against Jessah and her cashes, the security on the board;
strategies/red_notice/value.py, fitted on expert games by
scripts/fit_value_model.py). Its score is a chance, not a win or a loss,
so ``min_gain`` (the least summed paired gain that overrules the expert)
is in chances; ``horizon = 0`` plays every rollout to the end of the game
(wins, and ``min_gain`` 2: two rollouts). The model reads only the world
drawn from the seat's view, never the real state.

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
decision where no option has changed any rollout's result stops there.
``kinds`` says which decision kinds each seat searches and on how many
worlds (``[angela.|jessah.]kind[:weight]``: ceil(weight x ``iterations``)
worlds), so ``iterations`` scales the whole budget; the default spends it
where measured stakes are highest (docs/strategies.md), and gives Jessah
none: her rollouts cost her points (her rollout players hunt without a
dossier), so by default she is the expert agent on a 1,000-guess dossier, and
searches only the kinds she is given. Forced decisions
(one option), decisions of the kinds its seat does not search, and those
with more than ``max_options`` options are the expert's, with no rollout
(Jessah's security spends, some 80 options, are searched on a shortlist).
Jessah keeps a dossier on Angela (``belief = "dossier"``, the default;
strategies/red_notice/dossier.py): a particle filter over Angela's city and
hand under a model of a forger planning her cashes, read from Jessah's view
and public history only, kept by the expert inside with ``particles``
guesses (the expert agent alone keeps 64). Her movements are the expert's
hunt with each city worth its probability in the dossier
(``Expert.hunt_weights``), and her worlds take Angela's city and hand from
one of its guesses. That was her whole gain over the expert agent before
the expert kept a dossier too (measured: docs/strategies.md, "Jessah's
dossier"); ``belief = "walk"`` or ``"expert"`` instead draw only her
worlds' city, from the weighted public belief or the expert agent's, and
hunt on the bare set (the expert with ``dossier = 0``). Her rollout
players hunt on the bare set too, unless ``rollout_dossier`` > 0: then the
Jessah of each rollout hunts on a clone of her dossier cut to that many
guesses (``Dossier.clone``), as she would; measured, neither way gains her
anything on her cashes, checks, upgrades and setup radars (docs/
strategies.md), so it is off by default. The rollout player
of the searching seat starts from the searcher's own expert memory
(``memory``), so it plays on as the real expert in that seat would. ``avoid`` and ``hunt`` are opponent-model experiments for
Jessah, off by default: measured, they did not help her.

Deterministic for a seed: worlds and rollout streams come from a stream
seeded from the seat's own stream at the start of the game.
"""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar

from rnsim_strategies.red_notice.board import board_for
from rnsim_strategies.red_notice.dossier import stream_from
from rnsim_strategies.red_notice.expert import Expert, play_to_end, play_until
from rnsim_strategies.red_notice.value import ValueModel, shipped

from rnsim.errors import ConfigError
from rnsim.games.red_notice.engine.decision import Decision, Option
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.engine.view import View
from rnsim.games.red_notice.engine.weighted import Tracker
from rnsim.strategy import Strategy

#: decision kinds the player may search, with few options and a lasting effect
SEARCHABLE = (
    "angela_move", "jessah_move", "bank", "check", "joker", "identity", "upgrade", "angela_security",
    "jessah_security",
    "setup_radar", "black_radar", "lawyer_radar", "lawyer_barrier", "destroy_upgrade",
    "remove_black_radar", "remove_black_barrier", "place_token",
)
#: Where the budget goes by default, from the measured stakes (docs/strategies.md,
#: "Where the stakes are"): Angela's movements and bids gain most per rollout, and
#: her cashes (bank) most per decision; Angela's security spends gained nothing
#: measurable for their rollouts, so they are the expert's. Jessah searches
#: nothing by default: her rollout players hunt without a dossier, and her
#: rollouts on cashes, checks, upgrades and the setup radar cost her 2.7 points
#: [0.4, 5.0] against the same agent without them (2,000 paired games);
#: her own kinds can still be given, e.g. "jessah.bank:2".
DEFAULT_KINDS = ("angela.bank:2,angela.check:1.5,angela.upgrade:1.5,angela.identity:1.5,angela.joker,angela.angela_move,"
                 "angela.place_token:0.75")
SEATS = ("angela", "jessah")
#: where Jessah puts Angela, in her hunt and her worlds: the dossier (a particle
#: filter over Angela's city and hand under a model of a planning forger), or
#: only in her worlds: the weighted public belief (a random walk reading the
#: removal leak) or the expert agent's belief
BELIEFS = ("dossier", "walk", "expert")


class _Stream(random.Random):
    """A stream search sets again and again to the same start: a rollout
    player's, started from the world's seed for each option (``restart``),
    and the chance stream of each copy of a world, set to the world's
    (``set_to``). The generator is set again only when it was drawn from
    since it was last set to that start: many rollouts draw nothing from
    some of these streams, and setting a generator costs about as much as a
    short decision. Every draw goes through ``random`` or ``getrandbits``
    (``random.Random``'s other methods are built on these two), so none
    escapes the flag."""

    def __init__(self) -> None:
        super().__init__(0)
        self._start: object = 0  # the seed or state last set
        self._drawn = False

    def restart(self, seed: int) -> None:
        """The stream of ``random.Random(seed)``, from its start."""
        if self._drawn or not (type(self._start) is int and seed == self._start):
            self.seed(seed)
            self._start, self._drawn = seed, False

    def set_to(self, state: tuple[Any, ...]) -> None:
        """``setstate(state)``: ``state`` is kept and not changed by the caller."""
        if self._drawn or state is not self._start:
            self.setstate(state)
            self._start, self._drawn = state, False

    def random(self) -> float:
        self._drawn = True
        return super().random()

    def getrandbits(self, k: int, /) -> int:
        self._drawn = True
        return super().getrandbits(k)


class Search(Strategy):
    """Plays either seat; see the module docstring."""

    name = "search"
    # a Red Notice strategy (it answers through ``choose``, so it is not a RedNoticeStrategy)
    game: ClassVar[str] = "red_notice"
    uses_history = False  # nor do its rollout players
    PARAMS: ClassVar[dict[str, Any]] = {
        "iterations": 2, "max_options": 12, "margin": 1.0, "kinds": DEFAULT_KINDS,
        "first_step": True, "belief": "dossier", "particles": 1000, "leak": 10.0, "avoid": 0.0, "hunt": False, "memory": True, "risk": 0.5, "greed": 0.5,
        "ahead": 0.3, "rollout_dossier": 0, "horizon": 1, "steps": 6, "min_gain": 0.1,
    }
    PARAM_RANGES: ClassVar[dict[str, tuple[type, float | None, float | None]]] = {
        "iterations": (int, 0, 10_000), "max_options": (int, 2, 200), "margin": (float, 0.0, 10.0),
        "leak": (float, 0.0, 1000.0), "avoid": (float, 0.0, 10.0), "particles": (int, 1, 100_000),
        "risk": (float, 0.0, 1.0), "greed": (float, 0.0, 1.0), "ahead": (float, 0.0, 10.0),
        "rollout_dossier": (int, 0, 100_000), "horizon": (int, 0, 1000), "steps": (int, 0, 100_000), "min_gain": (float, 0.0, 100.0),
    }

    def __init__(self, **params: Any) -> None:
        super().__init__(**params)
        kinds = self.params["kinds"]
        if not isinstance(kinds, str):
            raise ConfigError(f"strategy Search: param 'kinds' must be a comma-separated string, got {kinds!r}")
        self.iterations = int(self.params["iterations"])
        # kind -> worlds, per seat: "[angela.|jessah.]kind[:weight]" searches
        # that kind on ceil(weight x iterations) worlds (weight 1 if left out)
        self.budgets: tuple[dict[str, int], dict[str, int]] = ({}, {})
        for item in (k.strip() for k in kinds.split(",")):
            if not item:
                continue
            spec, _, n = item.partition(":")
            seat, _, kind = spec.rpartition(".")
            if kind not in SEARCHABLE:
                raise ConfigError(f"strategy Search: param 'kinds': unknown kind {kind!r}; "
                                  f"allowed: {', '.join(SEARCHABLE)}")
            if seat and seat not in SEATS:
                raise ConfigError(f"strategy Search: param 'kinds': unknown seat {seat!r} in {item!r}; "
                                  "allowed: angela, jessah")
            try:
                weight = float(n) if n else 1.0
            except ValueError:
                weight = -1.0
            if not 0 < weight <= 100:
                raise ConfigError(f"strategy Search: param 'kinds': weight {n!r} in {item!r} must be "
                                  "a number in (0, 100]")
            for i, name in enumerate(SEATS):
                if seat in ("", name):
                    self.budgets[i][kind] = math.ceil(weight * self.iterations)
        if not isinstance(self.params["first_step"], bool):
            raise ConfigError(f"strategy Search: param 'first_step' must be true or false, "
                              f"got {self.params['first_step']!r}")
        self.kinds = frozenset(self.budgets[0]) | frozenset(self.budgets[1])
        self.max_options = int(self.params["max_options"])
        self.margin = float(self.params["margin"])
        self.first_step = bool(self.params["first_step"])
        if not isinstance(self.params["memory"], bool):
            raise ConfigError(f"strategy Search: param 'memory' must be true or false, "
                              f"got {self.params['memory']!r}")
        # The rollout player of the searching seat starts from this player's
        # own expert memory (the leaks it has read so far), so that in the
        # rollouts she plays on as the real expert in her seat would; the
        # opponent's memory is hidden and its rollout player starts blank.
        self.memory = bool(self.params["memory"])
        if not isinstance(self.params["hunt"], bool):
            raise ConfigError(f"strategy Search: param 'hunt' must be true or false, got {self.params['hunt']!r}")
        self.hunt = bool(self.params["hunt"])
        self._search_rng = random.Random(0)
        self._moving = ""
        # Jessah's worlds put Angela where the weighted public belief says
        # she likely is, reading a radar removal as the expert does (`leak`);
        # 0 draws her city uniformly from the set-valued belief.
        # "expert" puts her instead where the expert agent believes she is: the
        # set of cities she can be in, the focus of the last radar removal
        # weighed as the expert weighs it (the better predictor of the expert
        # forger, docs/strategies.md "Other models of where the forger is").
        if self.params["belief"] not in BELIEFS:
            raise ConfigError(f"strategy Search: param 'belief' must be one of {', '.join(BELIEFS)}, "
                              f"got {self.params['belief']!r}")
        self.belief = str(self.params["belief"])
        style = {"risk": self.params["risk"], "greed": self.params["greed"]}
        # Jessah's dossier: where Angela is and what she holds, as a planning
        # forger would explain what Jessah has seen (strategies/red_notice/
        # dossier.py). The expert inside keeps it and hunts on it; it also
        # gives her worlds Angela's city and hand together.
        particles = int(self.params["particles"]) if self.belief == "dossier" else 0
        self.expert = Expert(**style, dossier=particles)
        # Her hunt's look-ahead (Expert.AHEAD; 0: none), the expert's own 0.3:
        # on 1,000 guesses, 0.6 held the expert forger 0.3 points higher
        # ([-0.1, +0.8], 20,000 paired games, master seed 19) and 1.0 6.2
        # points higher (docs/strategies.md); 0.6 is the better on 200.
        self.expert.look_ahead = float(self.params["ahead"])
        # The rollout players: the expert in both seats, re-seeded per world,
        # Jessah without a dossier (one per rollout would cost ten rollouts).
        self._players = (Expert(**style, dossier=0), Expert(**style, dossier=0))
        self._rngs = (_Stream(), _Stream())
        # the chance stream of each copy of a world (_search)
        self._chance = _Stream()
        # ... unless ``rollout_dossier`` > 0: then Jessah's rollout player
        # hunts, as she does, on a copy of her dossier cut to that many
        # guesses, looking as far ahead as she does (her worlds then keep
        # their history, which that copy reads on).
        self.rollout_dossier = int(self.params["rollout_dossier"])
        if self.rollout_dossier:
            self._players[1].look_ahead = self.expert.look_ahead
        self.leak = float(self.params["leak"])
        self._tracker = Tracker(leak=self.leak) if self.leak > 0 and self.belief == "walk" else None
        self._weights: list[float] | None = None
        # The expert forger keeps away from Jessah: her worlds weigh a city of
        # the belief e^(avoid x its distance from Jessah) on top of the
        # weighted belief (0: no such prior).
        self.avoid = float(self.params["avoid"])
        # Each rollout stops at the start of the ``horizon``-th round after the
        # decision's and the state it reached is scored by the value model
        # (strategies/red_notice/value.py: Angela's chance to win); 0 plays
        # every rollout to the end of the game.
        self.horizon = int(self.params["horizon"])
        # ... or after ``steps`` decisions, if sooner (0: no such limit)
        self.steps = int(self.params["steps"]) or 1 << 30
        self._value: ValueModel | None = shipped() if self.horizon else None
        # the least paired gain over the expert's choice, summed over worlds,
        # for which another option is taken (in wins: 2 is two rollouts won)
        self.min_gain = float(self.params["min_gain"])
        self.rollouts = 0  # played so far by this instance (benchmarks read it)
        self.searched = 0  # decisions searched so far
        self.spent: dict[str, int] = {}  # rollouts by decision kind (benchmarks read it)

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        # The search's stream is seeded from the seat stream's state without
        # drawing from it, so the expert inside plays on the very stream it
        # would have alone (iterations = 0 is the expert, decision for decision).
        self._search_rng = stream_from("search", rng)
        self.expert.new_game(seat, rng)
        self._moving = ""
        self._weights = None
        if self._tracker is not None:
            self._tracker.reset()

    def reads_history(self) -> bool:
        # Jessah's dossier (kept by the expert inside) reads the public
        # history; nothing else here does.
        return self.expert.dossier is not None

    def choose(self, view: View, decision: Decision) -> Option:
        # The expert sees every view (it keeps memory between decisions, and
        # as Jessah her dossier, on which she hunts) and its answer is the
        # prior the search must beat.
        pick = self.expert.choose(view, decision)
        if self.expert.dossier is not None:
            self._weights = self.expert.hunt_weights
        elif self._tracker is not None and view.seat == 1 and self.iterations:
            # every view, so that no public event between two searches is missed
            self._weights = self._tracker.observe(view)
        elif self.belief == "expert" and view.seat == 1 and self.iterations:
            self._weights = self._expert_belief(view)
        if self._weights is not None and view.seat == 1 and self.iterations:
            if self.avoid > 0:
                self._weights = self._away_from_jessah(view, self._weights)
        kind = decision.kind
        if self.hunt and kind == "jessah_move" and self._weights is not None:
            pick = self._weighted_hunt(view, decision, pick)
        first = kind != self._moving
        self._moving = kind if kind in ("angela_move", "jessah_move") else ""
        n = self.budgets[view.seat].get(kind, 0)
        if n == 0 or len(decision.options) < 2 or view.worlds is None or (self.first_step and not first):
            return pick
        opts = (self._security_shortlist(view, decision, pick) if kind == "jessah_security"
                else list(decision.options))
        if len(opts) < 2 or len(opts) > self.max_options:
            return pick
        return self._search(view, decision, pick, n, opts)

    def _expert_belief(self, view: View) -> list[float]:
        belief = view.belief
        focus = self.expert._leak_focus & belief
        ratio = self.expert._leak_ratio
        w = [(ratio if focus >> c & 1 else 1.0) if belief >> c & 1 else 0.0 for c in range(view.comps.n_cities)]
        t = sum(w)
        return [x / t for x in w]

    def _away_from_jessah(self, view: View, w: list[float]) -> list[float]:
        row = board_for(view.comps).dist[view.jessah_city]
        z = [p * math.exp(self.avoid * row[c]) if p > 0 else 0.0 for c, p in enumerate(w)]
        t = sum(z)
        return [x / t for x in z]

    def _weighted_hunt(self, view: View, decision: Decision, pick: Option) -> Option:
        """The step that starts the inspection path holding most of the
        weighted belief within the steps left (each step inspects the city
        reached; "inspect" the one she stands on). The expert's step when it
        is as good, or when nothing worth a hunt is in reach (it then holds
        a post)."""
        w = self._weights
        assert w is not None
        b = board_for(view.comps)
        left = int(decision.info.get("left", 1))
        here = view.jessah_city
        best: dict[Option, float] = {}
        # depth-first over paths: (city, inspected mask, depth, first step, mass)
        stack: list[tuple[int, int, int, Option, float]] = [(here, 0, 0, "", 0.0)]
        while stack:
            city, seen, depth, first, got = stack.pop()
            if depth == left:
                continue
            steps: list[tuple[int, Option]] = [(nx, ("move", nx)) for nx in b.nbr[city]]
            if depth == 0:
                steps.append((city, "inspect"))
            for nx, o in steps:
                g = got if seen >> nx & 1 else got + w[nx]
                f = o if depth == 0 else first
                if g > best.get(f, 0.0):
                    best[f] = g
                stack.append((nx, seen | 1 << nx, depth + 1, f, g))
        if not best:
            return pick
        top = max(best.values())
        if top < 0.1 * (1.0 - float(self.params["risk"])) ** 2 or best.get(pick, 0.0) >= top - 1e-9:
            return pick
        return min((o for o, g in best.items() if g >= top - 1e-9), key=repr)

    def _security_shortlist(self, view: View, decision: Decision, pick: Option) -> list[Option]:
        """Jessah's security spend has some 80 options (every barrier on every
        free route): too many to play out. Candidates: the expert's choice,
        passing, a radar on each of the two free continents holding most of
        the belief's weight, and a barrier on each of the three free routes
        whose ends hold most of it (moved from the placed barrier whose ends
        hold least, once the supply is out)."""
        comps = view.comps
        w = self._weights
        if w is None:
            k = view.belief.bit_count() or 1
            w = [1.0 / k if view.belief >> c & 1 else 0.0 for c in range(comps.n_cities)]
        legal = decision.options
        out: list[Option] = [pick]

        def add(o: Option) -> None:
            if o not in out and o in legal:
                out.append(o)

        add("pass")
        mass = [0.0] * len(view.radars)
        for c, p in enumerate(w):
            mass[comps.city_continent[c]] += p
        free_k = [k for k, r in enumerate(view.radars) if not r]
        for k in sorted(free_k, key=lambda k: (-mass[k], k))[:2]:
            if mass[k] > 0:
                add(("radar", k))
        ends = [w[x] + w[y] for x, y in comps.routes]
        free_r = [r for r, b in enumerate(view.barriers) if not b]
        placed = [r for r, b in enumerate(view.barriers) if b]
        worst = min(placed, key=lambda r: (ends[r], r)) if placed else -1
        for r in sorted(free_r, key=lambda r: (-ends[r], r))[:3]:
            if ends[r] > 0:
                if ("barrier", r) in legal:
                    add(("barrier", r))
                elif worst >= 0:
                    add(("move_barrier", worst, r))
        return out

    def _search(self, view: View, decision: Decision, pick: Option, n: int, opts: list[Option]) -> Option:
        me = view.seat
        rng = self._search_rng
        worlds = view.worlds
        assert worlds is not None
        p = opts.index(pick)
        alive = list(range(len(opts)))
        scores: list[list[float]] = [[] for _ in opts]
        dossier = self.expert.dossier if me == 1 else None
        # The rollout players read no history: a world of a game that keeps
        # one (Jessah's dossier reads it) need not copy it on or grow it.
        history = dossier is not None and self.rollout_dossier > 0
        for i in range(n):
            if dossier is not None:
                assert self._weights is not None
                world = worlds.sample(rng, angela=dossier.draw(rng, self._weights), history=history)
            else:
                world = worlds.sample(rng, self._weights if me == 1 else None, history=history)
            # the rollout players' streams: the same for every option of the world
            seeds = (rng.getrandbits(63), rng.getrandbits(63))
            # Each option but the last plays on a copy of the world, its chance
            # stream set to the world's by one generator reused from copy to
            # copy (a copy lives for its rollout only).
            chance = world.rng.getstate()
            for j, k in enumerate(alive):
                if j < len(alive) - 1:
                    self._chance.set_to(chance)
                    state = world.clone(self._chance)
                else:
                    state = world
                scores[k].append(self._rollout(state, opts[k], seeds, me))
            if i + 1 < 2:
                continue
            # Successive elimination on the paired gains against the expert's
            # choice: an option ``min_gain`` behind it is dropped, and once
            # no option differs from it in any world the rest is not worth
            # the rollouts (the choice matters little here).
            base = scores[p]
            gains = {k: sum(a - b for a, b in zip(scores[k], base, strict=False)) for k in alive}
            if all(scores[k] == base[:len(scores[k])] for k in alive):
                break
            alive = [k for k in alive if k == p or gains[k] > -self.min_gain]
            if alive == [p]:
                break
        self.searched += 1
        self.spent[decision.kind] = self.spent.get(decision.kind, 0) + sum(map(len, scores))
        base = scores[p]
        best: list[int] = []
        best_gain = 0.0
        for k in alive:
            diffs = [a - b for a, b in zip(scores[k], base, strict=True)]
            gain = sum(diffs)
            if gain < self.min_gain or gain < self.margin * math.sqrt(sum(d * d for d in diffs)):
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
        1 if ``me`` wins, 0 if the other seat does, 1/2 without a winner; or,
        with a ``horizon``, play up to the start of the ``horizon``-th round
        after this one and return the value model's chance that ``me`` wins
        from there."""
        players = self._players
        rngs = self._rngs
        rngs[0].restart(seeds[0])
        rngs[1].restart(seeds[1])
        players[0].new_game(0, rngs[0])
        players[1].new_game(1, rngs[1])
        dossier = self.expert.dossier
        if me == 1 and self.rollout_dossier and dossier is not None:
            players[1].dossier = dossier.clone(random.Random(seeds[1] ^ 0x5EED), self.rollout_dossier)
        if self.memory:
            players[me].copy_memory_from(self.expert)
        stop = state.round + self.horizon
        state.apply(option)
        self.rollouts += 1
        if self._value is not None:
            play_until(state, players, stop, self.steps)
            p = self._value.angela_wins(state)
            return p if me == 0 else 1.0 - p
        play_to_end(state, players)
        if state.winner is None:
            return 0.5
        return 1.0 if state.winner == me else 0.0
