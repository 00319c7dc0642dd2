"""An expert FBI player: plays the rest of the turn out in its head.

- Arrest: which colours can the others still take? It plays the rest of the
  turn out for each of its agents (everyone greedy afterwards) against the
  agents the others may still hold on the table as it was when agents were
  chosen (the view's arrests this turn are put back to rebuild it, F6, F7),
  and keeps the better mean end position (below).
- Bid: what is the bid worth against the card's points? For each card it
  could move (or none) it predicts the later bids (rule players dump their
  worst bystander), the order of arrests (F4), and the turn's arrests with
  its best pairs of agents against rule-modelled rivals; a bystander is
  dumped, or a villain given up for a better place, when that is worth more
  than keeping the card.
- Agents: a mixed choice. From the open table alone (the slammers, the
  table, the order of arrests: F2, F4, F6) it models how every seat picks
  its pair by a few rounds of fictitious play (``rounds``) among the
  candidate pairs (the ``agent_pairs`` whose own two arrests score most;
  ``agent_pairs_5`` at 5 players, where more seats contest the colours):
  each round every seat weighs each candidate by exp(its mean end score /
  ``temperature``) over ``samples`` tables of the others' pairs drawn from
  their mixes so far (at first by their pairs' points,
  ``rival_temperature``); a seat's mix is the mean of its rounds. Its own
  pick answers the others' mixes: each candidate's mean end score over
  ``samples`` tables of their pairs drawn with its own stream, and the pair
  drawn with that stream by exp(score / ``pick_temperature``), so a copy of
  it on the same public table knows the odds, never the pick. ``samples`` 0
  picks deterministically by its own two arrests, as if nobody contested
  its colours.
- The agents the others may still hold in the arrests are drawn
  (``samples`` tables, its own stream), among the pairs that hold what each
  has played, from the odds of each one's pick: his answer to the others'
  mixes at ``pick_temperature`` (how a copy of him picks), blended with a
  share ``arrest_mix`` of his mix; an arrest's end score is the mean over
  them.
  With ``samples`` 0, a rival holds the rule player's best pair (or its
  partner of the agent he played).

An end position is scored as its points minus the best rival's, each colour's
bonus card counted for its strict leader (F11): in full on the last turn (F9),
at ``bonus_weight`` before it.
"""

from __future__ import annotations

import random
from typing import Any, ClassVar, Final

try:
    from mypy_extensions import mypyc_attr
except ImportError:  # without mypy installed the module only ever runs as source

    def mypyc_attr(*attrs: str, **kwattrs: object) -> Any:  # type: ignore[misc]
        return lambda cls: cls


from rnsim_strategies.fbi import FbiStrategy
from rnsim_strategies.fbi.model import (
    MARGIN,
    best_bid,
    colour_totals,
    column_leader,
    contest,
    draw_index,
    evaluate,
    exact_scores,
    fictitious_play,
    first_scores,
    first_sums,
    flat_leads,
    flat_position,
    flat_score,
    front_first,
    held_tables,
    led_score,
    pair_colours,
    play_out,
    softmax_cumulative,
    values_of,
)

from rnsim.games.fbi.state import Decision
from rnsim.games.fbi.view import FbiView

NOT_YET: Final = -2
NO_CARD: Final = -1


def legal_pairs(table: list[list[int]], colours: tuple[str, ...], doubler: str, with_doubler: bool) -> list[tuple[str, ...]]:
    legal = [c for c in range(len(colours)) if table[c]]
    out: list[tuple[str, ...]] = []
    for i, a in enumerate(legal):
        for b in legal[i + 1:]:
            out.append((colours[a], colours[b]))
        if with_doubler:
            out.append((colours[a], doubler))
    return out or [(colours[c],) for c in legal]


class _Pairs:
    """The pairs of agents legal on one table (values per colour, as
    ``table_values`` gives them) and what each would arrest if nobody else
    took a card: every seat derives the same from the same table, so the
    experts of a game share one through the caches below."""

    __slots__ = ("values", "front", "legal", "cols", "take", "gains_by", "score", "rule_cols", "top", "partners",
                 "mixes", "kept")

    def __init__(self, values: list[list[int]], comps: Any, stacked: bool, with_doubler: bool) -> None:
        self.values = values  # never changed: look-aheads copy it
        self.front = front_first(values, stacked)
        colours: tuple[str, ...] = comps.colours
        doubler: str = comps.doubler
        self.legal: list[tuple[str, ...]] = []
        self.cols: list[list[int]] = []
        self.score: list[int] = []  # the rule player's score of each pair: its points
        # legal_pairs' pairs in its order, each with its colours (pair_colours)
        legal = [c for c in range(len(colours)) if values[c]]
        top = [0] * len(colours)  # take_value
        second = [0] * len(colours)  # second_value
        for c in legal:
            t = values[c]
            top[c] = t[-1] if stacked else t[0]
            if len(t) > 1:
                second[c] = t[-2] if stacked else t[1]
        self.take = (top, second)
        for i in range(len(legal)):
            a = legal[i]
            for j in range(i + 1, len(legal)):
                b = legal[j]
                self._add((colours[a], colours[b]), [a, b], top[a] + top[b])
            if with_doubler:
                self._add((colours[a], doubler), [a, a], top[a] + second[a])
        if not self.legal:
            for c in legal:
                self._add((colours[c],), [c], top[c])
        # an empty table (late in a turn's arrests) has no pair: only the bid
        # and the agents, asked with cards on the table, use the rule pair
        self.rule_cols = self.cols[self._first_best(range(len(self.legal)))] if self.legal else []
        self.gains_by: dict[tuple[str, ...], tuple[list[tuple[int, int]], int, list[tuple[int, int]]]] | None = None
        self.top: dict[int, list[list[int]]] = {}
        self.partners: dict[int, list[int]] = {}
        self.mixes: dict[float, list[float]] = {}
        self.kept: dict[tuple[int, float], tuple[list[list[int]], list[float]]] = {}

    def _add(self, pair: tuple[str, ...], cols: list[int], total: int) -> None:
        self.legal.append(pair)
        self.cols.append(cols)
        self.score.append(total)

    def gains(self) -> dict[tuple[str, ...], tuple[list[tuple[int, int]], int, list[tuple[int, int]]]]:
        """Per pair: its arrests as (colour, value) (the second of a 2x pair
        takes the colour's next card), their points, the net per colour.
        Built when first asked (only the agents' pick without samples reads
        them)."""
        got = self.gains_by
        if got is None:
            top, second = self.take
            got = {}
            for i in range(len(self.legal)):
                cols = self.cols[i]
                a = cols[0]
                if len(cols) == 2 and cols[1] == a:  # a 2x pair: one colour
                    gains = [(a, top[a]), (a, second[a])]
                    net = [(a, top[a] + second[a])]
                else:
                    gains = [(c, top[c]) for c in cols]
                    net = gains[:]
                got[self.legal[i]] = (gains, self.score[i], net)
            self.gains_by = got
        return got

    def _first_best(self, indices: Any) -> int:
        """``rule_pair``: the first of the best-scoring pairs."""
        best, best_score = -1, -10**9
        for i in indices:
            if self.score[i] > best_score:
                best, best_score = i, self.score[i]
        return best

    def top_index(self, k: int) -> list[int]:
        """The k best-scoring pairs' indices, ties in listed order."""
        return sorted(range(len(self.legal)), key=lambda i: -self.score[i])[:k]

    def top_cols(self, k: int) -> list[list[int]]:
        """``top_pairs``: the k best-scoring pairs' colours, ties in listed order."""
        got = self.top.get(k)
        if got is None:
            order = sorted(range(len(self.legal)), key=lambda i: -self.score[i])[:k]
            got = self.top[k] = [self.cols[i] for i in order]
        return got

    def mix(self, temperature: float) -> list[float]:
        """Cumulative weights over the legal pairs, exp(points / temperature)
        (``softmax_cumulative``): a rival's pick modelled from the open table."""
        got = self.mixes.get(temperature)
        if got is None:
            got = self.mixes[temperature] = softmax_cumulative([float(x) for x in self.score], temperature)
        return got

    def partner_mix(self, played: int, temperature: float) -> tuple[list[list[int]], list[float]]:
        """The partners kept after playing the agent of colour ``played``, one
        per pair that holds it, with cumulative weights exp(points /
        temperature) of those pairs (``mix``); ([], []) if none holds it."""
        key = (played, temperature)
        got = self.kept.get(key)
        if got is None:
            kept: list[list[int]] = []
            pts: list[float] = []
            for i in range(len(self.cols)):
                cols = self.cols[i]
                if played in cols:
                    rest = cols[:]
                    rest.remove(played)
                    kept.append(rest)
                    pts.append(float(self.score[i]))
            got = self.kept[key] = (kept, softmax_cumulative(pts, temperature) if pts else [])
        return got

    def partner(self, played: int, colours: tuple[str, ...]) -> list[int]:
        """The colours a rule player who chose his pair on this table still
        holds after playing the agent of colour ``played`` (his best pair with
        that agent; [] if none holds it)."""
        got = self.partners.get(played)
        if got is None:
            name = colours[played]
            with_p = [i for i, o in enumerate(self.legal) if name in o]
            got = []
            if with_p:
                got = self.cols[self._first_best(with_p)][:]
                got.remove(played)
            self.partners[played] = got
        return got


class _Model:
    """Candidate pairs (indices into a table's legal pairs, and their
    colours) and, per seat, cumulative weights of picking each; ``ends``
    keeps ``_contest``'s scores of one table of rival pairs (by seat and the
    candidates drawn), shared by every model of the same table and
    position; emptied when the next table's model is built (bytes: no work
    for the cyclic collector)."""

    __slots__ = ("index", "cols", "cums", "odds", "ends")

    def __init__(self, index: list[int], cols: list[list[int]], cums: list[list[float]],
                 ends: dict[int, bytes] | None = None, odds: list[list[float]] | None = None) -> None:
        self.index = index
        self.cols = cols
        self.cums = cums
        # per seat, cumulative odds of the pair it holds in the arrests
        # (``_rival_model``); its mix when none are given
        self.odds = cums if odds is None else odds
        self.ends: dict[int, bytes] = {} if ends is None else ends


class _Kit:
    """The fields of one game's components and rules the expert reads, each
    read once: Components and FbiRules are interpreted classes, so every
    ``comps.X`` or ``rules.Y`` is a Python attribute lookup, where a field
    of this (compiled) class is a native read. The experts of a game share
    one (``_kit``), so the caches keyed by it are shared too."""

    __slots__ = ("comps", "rules", "colours", "k", "doubler", "card_colour", "card_value", "bonus", "purple",
                 "stacked", "with_doubler", "needs", "only_purple")

    def __init__(self, comps: Any, rules: Any) -> None:
        self.comps = comps
        self.rules = rules
        self.colours: tuple[str, ...] = comps.colours
        self.k = len(self.colours)
        self.doubler: str = comps.doubler
        self.card_colour: tuple[int, ...] = comps.card_colour
        self.card_value: tuple[int, ...] = comps.card_value
        self.bonus: tuple[int, ...] = comps.bonus
        self.purple: tuple[int, ...] = comps.purple
        self.stacked: bool = rules.stacked
        self.with_doubler: bool = rules.doubler
        self.needs: bool = rules.bonus_needs_positive
        self.only_purple: bool = rules.bid_cards == "purple"


class _LastKit:
    """The kit ``_kit`` handed out last (None before the first)."""

    __slots__ = ("kit",)

    def __init__(self) -> None:
        self.kit: _Kit | None = None


_LAST_KIT: Final = _LastKit()


def _kit(view: FbiView) -> _Kit:
    """The kit of the view's components and rules: the last one while they
    are the same objects (every view of a game holds the state's)."""
    kit = _LAST_KIT.kit
    comps, rules = view.comps, view.rules
    if kit is None or kit.comps is not comps or kit.rules is not rules:
        kit = _LAST_KIT.kit = _Kit(comps, rules)
    return kit


class _LastModel:
    """The model ``_rival_model`` gave last, with what its key in ``_MODELS``
    holds as native fields: the seats that see a table in turn ask for the
    same model, and comparing the fields (the view's tuples by identity: the
    views of a state share them) spares building and hashing the key."""

    __slots__ = ("f", "slammers", "order", "last_turn", "needs", "samples", "rounds", "size", "t", "rival_t",
                 "bonus_weight", "pick_t", "arrest_mix", "model")

    def __init__(self) -> None:
        self.f: _Pairs | None = None
        self.slammers: object = None
        self.order: object = None
        self.last_turn = False
        self.needs = False
        self.samples = -1
        self.rounds = -1
        self.size = -1
        self.t = 0.0
        self.rival_t = 0.0
        self.bonus_weight = 0.0
        self.pick_t = 0.0
        self.arrest_mix = 0.0
        self.model: _Model | None = None

    def holds(self, f: _Pairs, slammers: object, order: object, last_turn: bool, needs: bool, samples: int,
              rounds: int, size: int, expert: ExpertStrategy) -> bool:
        """Whether the kept model is the one of this key (``expert``'s knobs)."""
        return (self.f is f and self.slammers is slammers and self.order is order and self.last_turn == last_turn
                and self.needs == needs and self.samples == samples and self.rounds == rounds
                and self.size == size and self.t == expert._temperature and self.rival_t == expert._rival_t
                and self.bonus_weight == expert._bonus_weight and self.pick_t == expert._pick_t
                and self.arrest_mix == expert._arrest_mix)

    def keep(self, f: _Pairs, slammers: object, order: object, last_turn: bool, needs: bool, samples: int,
             rounds: int, size: int, expert: ExpertStrategy, model: _Model) -> None:
        self.f, self.slammers, self.order, self.last_turn, self.needs = f, slammers, order, last_turn, needs
        self.samples, self.rounds, self.size = samples, rounds, size
        self.t, self.rival_t, self.bonus_weight = expert._temperature, expert._rival_t, expert._bonus_weight
        self.pick_t, self.arrest_mix = expert._pick_t, expert._arrest_mix
        self.model = model


_LAST_MODEL: Final = _LastModel()


# Pure functions of their keys, so a cache changes no choice; emptied when
# full (the keys of one game are never needed by the next). Small: what is
# asked again is asked by the other seats of the same turn, and every entry
# kept longer is objects the cyclic collector walks and the caches hold
# (FBI, 4 experts, benchmarks.compare --against 4923ba0 --cases fbi --modes
# loop --repeat 7 --games 1200: 1.058x the games per CPU-second at 512,
# 1.142x at 64, 1.191x at 16 and at 4).
_FACTS: Final[dict[Any, _Pairs]] = {}  # by card ids
_BY_VALUES: Final[dict[Any, _Pairs]] = {}
_POSITIONS: Final[dict[Any, tuple[list[list[int]], list[int]]]] = {}
_MODELS: Final[dict[Any, _Model]] = {}
_BUILT: Final[list[_Model]] = []  # the model built last: its ``ends`` are kept until the next
_CACHE_SIZE: Final = 16
# The model's fixed stream: the draws of random.Random(0), kept last first
# (every model draws the same sequence from its start: ``_zero_stream``).
_ZERO_DRAWS: Final[list[float]] = []


def _zero_stream(draws: int) -> Any:
    """A stream giving random.Random(0).random()'s first ``draws`` draws (the
    same floats in the same order) without seeding a generator: ``pop`` of a
    copy of the kept draws (last first), extended once when a model needs
    more; a draw beyond ``draws`` raises IndexError."""
    if len(_ZERO_DRAWS) < draws:
        zero = random.Random(0)
        _ZERO_DRAWS[:] = [zero.random() for _ in range(max(draws, 2 * len(_ZERO_DRAWS)))][::-1]
    return _ZERO_DRAWS[len(_ZERO_DRAWS) - draws:].pop


def _pairs(values: list[list[int]], kit: _Kit) -> _Pairs:
    """The pairs on a table given as ``table_values`` gives it (the kit
    stands for the component set and the rules that shape them)."""
    key = (tuple(map(tuple, values)), kit)
    f = _BY_VALUES.get(key)
    if f is None:
        if len(_BY_VALUES) >= _CACHE_SIZE:
            _BY_VALUES.clear()
        f = _BY_VALUES[key] = _Pairs(values, kit.comps, kit.stacked, kit.with_doubler)
    return f


class _Last:
    """The answer ``_facts`` or ``_position`` gave last, with the view's
    tuple and the kit it was for: every view of a state shares the state's
    tuples, so the seats asked in turn about one table or one set of slammers
    hand in the same object, and a check of identity spares hashing it for
    the dict (a tuple of tuples: its hash is not kept). Holding the tuple
    keeps it alive, so its identity cannot be taken by another."""

    __slots__ = ("of", "kit", "got")

    def __init__(self) -> None:
        self.of: object = None
        self.kit: _Kit | None = None
        self.got: Any = None


_LAST_FACTS: Final = _Last()
_LAST_POSITION: Final = _Last()


def _facts(view: FbiView) -> _Pairs:
    """The pairs on the view's table."""
    kit = _kit(view)
    table = view.table
    last = _LAST_FACTS
    if last.of is table and last.kit is kit:
        got: _Pairs = last.got
        return got
    key = (table, kit)
    f = _FACTS.get(key)
    if f is None:
        if len(_FACTS) >= _CACHE_SIZE:
            _FACTS.clear()
        f = _FACTS[key] = _pairs(values_of(table, kit.card_value, kit.stacked), kit)
    last.of, last.kit, last.got = table, kit, f
    return f


# Designers subclass the expert to model play styles, also when it is compiled.
@mypyc_attr(allow_interpreted_subclasses=True)
class ExpertStrategy(FbiStrategy):
    name = "expert"
    AGENTS_RIVAL = 1.0
    PARAMS: ClassVar[dict[str, Any]] = {"bonus_weight": 0.5, "bid_pairs": 4, "samples": 4, "rounds": 3,
                                        "temperature": 1.0, "rival_temperature": 2.0, "agent_pairs": 6,
                                        "agent_pairs_5": 6, "pick_temperature": 0.5,
                                        "arrest_mix": 0.5}
    PARAM_RANGES: ClassVar[dict[str, tuple[type, float | None, float | None]]] = {
        "bonus_weight": (float, 0.0, 1.0),
        "bid_pairs": (int, 1, 15),
        "samples": (int, 0, 64),
        "rounds": (int, 1, 16),
        "temperature": (float, 0.0, 20.0),
        "rival_temperature": (float, 0.0, 20.0),
        "agent_pairs": (int, 1, 15),
        "agent_pairs_5": (int, 1, 15),
        "pick_temperature": (float, 0.0, 20.0),
        "arrest_mix": (float, 0.0, 1.0),
    }

    def candidates(self, players: int) -> int:
        """How many candidate pairs the model of the pick weighs at this
        player count: ``agent_pairs``, or ``agent_pairs_5`` at 5 players,
        where more seats contest the colours and the best answer more often
        lies among pairs whose own two arrests score less."""
        return self._agent_pairs_5 if players >= 5 else self._agent_pairs

    def new_game(self, seat: int, rng: random.Random) -> None:
        super().new_game(seat, rng)
        # the params, typed once a game: compiled, a read is a native field,
        # not a lookup in the params dict
        params = self.params
        self._samples = int(params["samples"])
        self._rounds = int(params["rounds"])
        self._bid_pairs = int(params["bid_pairs"])
        self._temperature = float(params["temperature"])
        self._rival_t = float(params["rival_temperature"])
        self._pick_t = float(params["pick_temperature"])
        self._bonus_weight = float(params["bonus_weight"])
        self._arrest_mix = float(params["arrest_mix"])
        self._agent_pairs = int(params["agent_pairs"])
        self._agent_pairs_5 = int(params["agent_pairs_5"])
        self._model_of: tuple[int, _Model] | None = None  # this turn's model of the pairs (on_agents)
        # the pairs on the table the agents were chosen on (on_agents), with
        # the turn, bids and order that tie them to the turn: ``_then``
        self._then_of: tuple[int, tuple[int, ...], tuple[int, ...], _Pairs] | None = None

    # ------------------------------------------------------------ shared facts

    def _position(self, view: FbiView) -> tuple[list[list[int]], list[int]]:
        """Colour totals (colour-major: totals[colour][seat]) and points per
        seat; the cached lists are shared: copy before changing them. Not
        cached for an arrest: every arrest of a turn sees new slammers."""
        kit = _kit(view)
        slammers = view.slammers
        if view.phase == "arrest":
            return colour_totals(slammers, kit.card_colour, kit.card_value, kit.k)
        last = _LAST_POSITION
        if last.of is slammers and last.kit is kit:
            kept: tuple[list[list[int]], list[int]] = last.got
            return kept
        key = (slammers, kit)
        got = _POSITIONS.get(key)
        if got is None:
            if len(_POSITIONS) >= _CACHE_SIZE:
                _POSITIONS.clear()
            got = _POSITIONS[key] = colour_totals(slammers, kit.card_colour, kit.card_value, kit.k)
        last.of, last.kit, last.got = slammers, kit, got
        return got

    def _weight(self, view: FbiView) -> float:
        return 1.0 if view.last_turn else self._bonus_weight

    def _score(self, view: FbiView, totals: list[list[int]], points: list[int], rival: float = 1.0) -> float:
        kit = _kit(view)
        return evaluate(self.seat, totals, points, kit.bonus, self._weight(view), kit.needs, rival)

    @staticmethod
    def _seq(order: list[int] | tuple[int, ...], start: int) -> list[int]:
        n = len(order)
        return [order[i] if i < n else order[2 * n - 1 - i] for i in range(start, 2 * n)]

    def _turn_value(self, view: FbiView, order: list[int] | tuple[int, ...], table: list[list[int]],
                    totals: list[list[int]], points: list[int], pair: tuple[str, ...],
                    others: list[list[int]]) -> float:
        kit = _kit(view)
        agents = [a[:] for a in others]
        agents[self.seat] = pair_colours(pair, kit.colours, kit.doubler)
        t = [x[:] for x in table]
        tot = [x[:] for x in totals]
        pts = points[:]
        play_out(self._seq(order, 0), agents, t, tot, pts, kit.stacked)
        return self._score(view, tot, pts, self.AGENTS_RIVAL)

    # --------------------------------------------------------------- decisions

    def choose(self, view: Any, decision: Any) -> Any:
        """Strategy.choose for the three decisions of FBI: each goes to its
        ``on_<kind>`` method (a subclass's override of it included: compiled,
        the call goes through the class's method table), without the name and
        bound method Strategy.choose builds for every decision; any other
        kind is Strategy.choose's."""
        kind: str = decision.kind
        if kind == "arrest":
            return self.on_arrest(view, decision)
        if kind == "agents":
            return self.on_agents(view, decision)
        if kind == "bid":
            return self.on_bid(view, decision)
        return super().choose(view, decision)

    def on_agents(self, view: FbiView, decision: Decision) -> Any:
        options = decision.options
        if len(options) == 1:
            return options[0]
        f = _facts(view)
        self._then_of = (view.turn, view.bids, view.order, f)
        totals, points = self._position(view)
        samples = self._samples
        if samples == 0 or len(options) != len(f.legal):
            return self._agents_alone(view, decision, f.values, totals, points)
        model = self._rival_model(view, f, totals, points, samples)
        self._model_of = (view.turn, model)
        values = self._contest(view, self.seat, f, model, totals, points, samples, self.rng)
        cum = softmax_cumulative(values, self._pick_t)
        return options[model.index[draw_index(cum, self.rng.random())]]

    def _rival_model(self, view: FbiView, f: _Pairs, totals: list[list[int]], points: list[int],
                     samples: int) -> _Model:
        """How every seat picks its agents, from the open table alone, by
        ``rounds`` rounds of fictitious play among the candidates (the
        ``agent_pairs`` pairs whose own two arrests score most): each round,
        every seat weighs each candidate by exp(its mean end score /
        ``temperature``) against the others' mixes so far (at first: by
        their pairs' points, ``rival_temperature``); a seat's mix is the mean
        of its rounds' weights. The arrests' odds of each seat's pair
        (``odds``) are its last round's answer at ``pick_temperature``
        (the odds of its pick), with a share ``arrest_mix`` of its mix. The
        same for every seat that sees this table, so computed once (a fixed
        stream draws the samples); each seat answers the others' mixes with
        its own stream (``on_agents``). The rounds: ``fictitious_play``."""
        rounds = self._rounds
        t = self._temperature
        pick_t = self._pick_t
        kit = _kit(view)
        n: int = view.players
        size = self.candidates(n)
        # the pairs ``f`` stand for the table's values, the component set and
        # the knobs that shape them, and the model reads no other rule than
        # bonus_needs_positive: the key hashes one object and a bool where it
        # would hash the table's cards and every field of the rules
        slammers: tuple[tuple[int, ...], ...] = view.slammers
        order: tuple[int, ...] = view.order
        last_turn: bool = view.last_turn
        last = _LAST_MODEL
        kept = last.model
        if kept is not None and last.holds(f, slammers, order, last_turn, kit.needs, samples, rounds, size, self):
            return kept
        key = (f, slammers, order, last_turn, kit.needs, samples, rounds,
               t, self._rival_t, self._bonus_weight, size, pick_t, self._arrest_mix)
        got = _MODELS.get(key)
        if got is not None:
            last.keep(f, slammers, order, last_turn, kit.needs, samples, rounds, size, self, got)
            return got
        if len(_MODELS) >= _CACHE_SIZE:
            _MODELS.clear()
        index = f.top_index(size)
        cols = [f.cols[i] for i in index]
        start = softmax_cumulative([float(f.score[i]) for i in index], self._rival_t)
        ends: dict[int, bytes] = {}
        stream = _zero_stream(rounds * n * samples * (n - 1))  # the draws the rounds make
        cums, odds = fictitious_play(view.order, cols, start, ends, samples, stream, f.front, totals,
                                     points, kit.bonus, self._weight(view), kit.needs,
                                     rounds, t, pick_t, self._arrest_mix)
        belief = _Model(index, cols, cums, ends, odds)
        got = _MODELS[key] = belief
        last.keep(f, slammers, order, last_turn, kit.needs, samples, rounds, size, self, got)
        if _BUILT:
            _BUILT[0].ends.clear()  # pure scores: a model asked again scores anew
            _BUILT[0] = got
        else:
            _BUILT.append(got)
        return got

    def _contest(self, view: FbiView, me: int, f: _Pairs, model: _Model, totals: list[list[int]],
                 points: list[int], samples: int, rng: random.Random) -> list[float]:
        """Seat ``me``'s mean end score of each of the model's candidate
        pairs over ``samples`` tables of rival pairs, each rival's drawn from
        ``rng`` by the model's chances for him. Every sample scores all the
        candidates (paired); the turn plays out in the known order (F4, F5).
        A table of rival pairs already scored for ``me`` (``model.ends``) is
        not played again: its scores are added as they were."""
        kit = _kit(view)
        return contest(view.order, me, model.cols, model.cums, model.ends, samples, rng.random, f.front, totals,
                       points, kit.bonus, self._weight(view), kit.needs)

    def _agents_alone(self, view: FbiView, decision: Decision, table: list[list[int]], totals: list[list[int]],
                      points: list[int]) -> Any:
        """The default (contention 0): each pair scored by its own two arrests.

        A pair's score is at most the score before the arrests, plus their
        points, plus for each colour where they raise my total enough to take
        or share the lead, that colour's bonus card changing hands (to me, and
        away from the best rival). A pair whose bound cannot beat the best so
        far is not scored: it could not have been chosen."""
        me = self.seat
        kit = _kit(view)
        bonus = kit.bonus
        w = self._weight(view)
        needs = kit.needs
        n = len(points)
        k = len(totals)
        flat = flat_position(totals, points)
        base_lead = [0] * k
        base = flat_score(me, flat, n, k, bonus, w, needs, base_lead)
        lead = [0] * k  # scratch
        exact = exact_scores(w, bonus)
        # per colour: the highest total, and whether I alone hold it with a bonus
        best_total, leading = flat_leads(flat, n, k, me, needs)
        gains_of = _facts(view).gains()
        mi = k * n + me
        best, best_v = decision.options[0], -1e9
        for pair in decision.options:
            gains, gain, net = gains_of[pair]
            bound = base + gain
            for c, g in net:
                if g > 0 and not leading[c] and flat[c * n + me] + g >= best_total[c]:
                    bound += abs(bonus[c]) * w * 2.0  # rival weight 1
            if bound + MARGIN <= best_v + 1e-9:
                continue
            moved = not exact
            if exact:
                for c, g in net:
                    i = c * n + me
                    flat[i] = flat[i] + g
                    now = column_leader(flat, c * n, n, needs)
                    flat[i] = flat[i] - g
                    if now != base_lead[c]:
                        moved = True
                        break
            if moved:
                # a bonus card changes hands (or scores are not exact): scored
                # in full, only the colours the pair arrests in can change leader
                for c, g in gains:
                    i = c * n + me
                    flat[i] = flat[i] + g
                flat[mi] = flat[mi] + gain
                for c in range(k):
                    lead[c] = base_lead[c]
                for c, _ in net:
                    lead[c] = column_leader(flat, c * n, n, needs)
                v = led_score(me, flat, n, k, bonus, w, lead)
                for c, g in gains:
                    i = c * n + me
                    flat[i] = flat[i] - g
                flat[mi] = flat[mi] - gain
            else:
                v = base + gain  # every bonus card where it was: the score moves by the points
            if v > best_v + 1e-9:
                best, best_v = pair, v
        return best

    def _then(self, view: FbiView, table: list[list[int]]) -> _Pairs:
        """The pairs on the table as it was when the agents were chosen: this
        turn's arrests put back, last first (restores the stacks exactly, F15;
        without the variant each colour stays sorted best first): the pairs
        ``on_agents`` saw this turn, when it was asked (the same values)."""
        got = self._then_of
        if got is not None and got[0] == view.turn and got[1] == view.bids and got[2] == view.order:
            return got[3]
        kit = _kit(view)
        col = kit.card_colour
        val = kit.card_value
        arrests: tuple[tuple[int, int], ...] = view.arrests
        stacked = kit.stacked
        before = [t[:] for t in table]
        for j in range(len(arrests) - 1, -1, -1):
            card = arrests[j][1]
            if card >= 0:
                stack = before[col[card]]
                v = val[card]
                i = len(stack)
                stack.append(v)
                if not stacked:
                    while i > 0 and stack[i - 1] < v:
                        stack[i] = stack[i - 1]
                        i -= 1
                    stack[i] = v
        return _pairs(before, kit)

    def _agents_held(self, view: FbiView, table: list[list[int]]) -> list[list[int]]:
        """Per seat, the agents it still holds for this turn's arrests: mine;
        none for a seat that has played both; the rule player's best pair on
        the table as it was when the agents were chosen for a seat that has
        played none; the partner it keeps for a seat that has played one."""
        colours = _kit(view).colours
        then = self._then(view, table)
        played_by: tuple[tuple[int, ...], ...] = view.played
        agents: list[list[int]] = []
        for s in range(len(played_by)):
            if s == self.seat:
                agents.append(list(view.my_agents))
                continue
            played = played_by[s]
            if len(played) >= 2:
                agents.append([])
            elif not played:
                agents.append(then.rule_cols[:])
            else:
                # the partner the rule player keeps with the agent he played
                agents.append(then.partner(played[0], colours)[:])
        return agents

    def _held_samples(self, view: FbiView, table: list[list[int]]) -> list[list[list[int]]]:
        """Tables of the agents each seat still holds (as ``_agents_held``),
        ``samples`` of them, each rival's drawn from my stream: by the arrest
        odds ``_rival_model`` gave him when the agents were chosen (the
        pairs' points, ``rival_temperature``, when it gave none), among the pairs
        that hold what he has played; with ``samples`` 0, ``_agents_held``'s
        one table."""
        samples = self._samples
        if samples == 0:
            return [self._agents_held(view, table)]
        then = self._then(view, table)
        model = self._model_of[1] if self._model_of is not None and self._model_of[0] == view.turn else None
        if model is None:
            model = _Model(list(range(len(then.cols))), then.cols, [then.mix(self._rival_t)] * view.players)
        played_by: tuple[tuple[int, ...], ...] = view.played
        choices: list[list[list[int]]] = []
        cums: list[list[float]] = []
        for s in range(len(played_by)):
            kept, cum = self._kept(model, s, played_by[s], then)
            choices.append(kept)
            cums.append(cum)
        return held_tables(self.seat, list(view.my_agents), choices, cums, samples, self.rng.random)

    def _kept(self, model: _Model, seat: int, played: tuple[int, ...], then: _Pairs) -> tuple[list[list[int]], list[float]]:
        """What a rival who has played ``played`` may still hold, with
        cumulative weights by the model's arrest odds (``odds``): the model's
        pairs (all of them when he has played
        none; else those holding his agent, less it; the pairs' points when
        the model holds none); ([], []) once he has played both."""
        if len(played) >= 2:
            return [], []
        cum = model.odds[seat]
        if not played:
            return model.cols, cum
        p = played[0]
        kept: list[list[int]] = []
        weights: list[float] = []
        last = 0.0
        for i in range(len(model.cols)):
            w = cum[i] - last
            last = cum[i]
            if p in model.cols[i]:
                rest = model.cols[i][:]
                rest.remove(p)
                kept.append(rest)
                total = (weights[-1] if weights else 0.0) + w
                weights.append(total)
        if not kept or weights[-1] <= 0.0:
            return then.partner_mix(p, self._rival_t)
        return kept, weights

    def on_arrest(self, view: FbiView, decision: Decision) -> Any:
        kit = _kit(view)
        stacked = kit.stacked
        table = values_of(view.table, kit.card_value, stacked)
        totals, points = self._position(view)
        colours = kit.colours
        options = decision.options
        greedy: Any = None  # the first option whose arrest is worth most now
        greedy_v = 0
        for o in options:
            cards = table[colours.index(o)]
            worth = (cards[-1] if stacked else cards[0]) if cards else 0
            if greedy is None or worth > greedy_v:
                greedy, greedy_v = o, worth
        sums = self._arrest_sums(view, options, table, totals, points)
        best, best_v = options[0], -1e9
        for j in range(len(options)):
            opt = options[j]
            v = sums[j] + (1e-6 if opt == greedy else 0.0)
            if v > best_v:
                best, best_v = opt, v
        return best

    def _arrest_sums(self, view: FbiView, options: list[Any], table: list[list[int]], totals: list[list[int]],
                     points: list[int]) -> list[float]:
        """Each option's end scores summed over the tables of the agents held
        (``_held_samples``): from my first arrest of a turn (``first_scores``;
        the seats before me keep one agent) or, when a seat before me holds
        two, the rest of the turn played out (``_rest_values``). When every
        table is a first arrest's, ``first_sums`` scores them in one call:
        the same sums."""
        step: int = view.step
        order: tuple[int, ...] = view.order
        tables = self._held_samples(view, table)
        first = [step < view.players and len(view.my_agents) == 2] * len(tables)
        for j in range(len(tables)):
            agents = tables[j]
            for i in range(step if first[j] else 0):
                if len(agents[order[i]]) > 1:
                    first[j] = False
                    break
        if tables and all(first):
            firsts, mine, front, w = self._first_inputs(view, options, table)
            kit = _kit(view)
            return first_sums(order, self.seat, step, firsts, mine, tables, front, totals, points, kit.bonus, w,
                              kit.needs)
        sums = [0.0] * len(options)
        inputs: tuple[list[int], list[int], list[list[int]], float] | None = None  # _first_inputs, once
        for j in range(len(tables)):
            if first[j]:
                if inputs is None:
                    inputs = self._first_inputs(view, options, table)
                self._first_values(view, inputs, tables[j], totals, points, sums)
            else:
                self._rest_values(view, options, table, tables[j], totals, points, sums)
        return sums

    def _rest_values(self, view: FbiView, options: list[Any], table: list[list[int]], agents: list[list[int]],
                     totals: list[list[int]], points: list[int], sums: list[float]) -> None:
        """Adds to ``sums`` each option's end score, the rest of the turn
        played out (``play_out``) with these agents held."""
        kit = _kit(view)
        colours = kit.colours
        stacked = kit.stacked
        seq = self._seq(view.order, view.step)
        for j in range(len(options)):
            a = [x[:] for x in agents]
            t = [x[:] for x in table]
            tot = [x[:] for x in totals]
            pts = points[:]
            play_out(seq, a, t, tot, pts, stacked, first=colours.index(options[j]))
            sums[j] += self._score(view, tot, pts)

    def _first_inputs(self, view: FbiView, options: list[Any], table: list[list[int]]) -> tuple[list[int], list[int],
                                                                                         list[list[int]], float]:
        """What ``first_scores`` reads the same for every sample of an
        arrest: each option's colour, my two agents, the front of the table
        and the bonus weight."""
        kit = _kit(view)
        colours = kit.colours
        return ([colours.index(o) for o in options], list(view.my_agents), front_first(table, kit.stacked),
                self._weight(view))

    def _first_values(self, view: FbiView, inputs: tuple[list[int], list[int], list[list[int]], float],
                      agents: list[list[int]], totals: list[list[int]], points: list[int], sums: list[float]) -> None:
        """My first arrest of the turn: the seats before me keep one agent for
        the second round; the rounds play as ``play_out`` would. Adds each
        option's end score to ``sums``; ``inputs``: ``_first_inputs``."""
        firsts, mine, front, w = inputs
        kit = _kit(view)
        scores = first_scores(view.order, self.seat, view.step, firsts, mine, agents, front, totals, points,
                              kit.bonus, w, kit.needs)
        for j in range(len(scores)):
            sums[j] += scores[j]

    def _later_bids(self, view: FbiView) -> list[int]:
        """Per seat, its bid: made, or for a later bidder the rule player's
        (each dumps his worst bystander, the first of equals; ``NO_CARD`` when
        he holds none he may bid); mine ``NOT_YET``."""
        kit = _kit(view)
        val = kit.card_value
        purple = kit.purple
        slammers: tuple[tuple[int, ...], ...] = view.slammers
        out = list(view.bids)
        only_purple = kit.only_purple
        me = self.seat
        for s in range(len(out)):
            if s == me or out[s] != NOT_YET:
                continue
            worst = NO_CARD
            worst_v = 0  # only a bystander (below 0) is dumped
            for c in slammers[s]:
                if only_purple and c not in purple:
                    continue
                if val[c] < worst_v:
                    worst, worst_v = c, val[c]
            out[s] = worst
        return out

    def _my_places(self, view: FbiView, bid_val: list[int], values: list[int]) -> tuple[list[int], list[int]]:
        """The others in their order of arrests (F4: highest bid first, ties
        from the holder; it does not depend on my bid), and for each of my
        bid values the place my bid gives me among them."""
        n: int = view.players
        h: int = view.handcuffs
        me = self.seat
        # (-bid, seats from the holder) as one int: -bid * n + (s - h) % n
        rest: list[int] = []
        keys: list[int] = []
        for s in range(n):
            if s == me:
                continue
            key = -bid_val[s] * n + (s - h) % n
            i = len(rest)
            rest.append(s)
            keys.append(key)
            while i > 0 and keys[i - 1] > key:  # insertion sort: keys are distinct
                rest[i], keys[i] = rest[i - 1], keys[i - 1]
                i -= 1
            rest[i], keys[i] = s, key
        places: list[int] = []
        mine_tie = (me - h) % n
        for x in values:
            mine = -x * n + mine_tie
            p = 0
            while p < n - 1 and keys[p] < mine:
                p += 1
            places.append(p)
        return rest, places

    def on_bid(self, view: FbiView, decision: Decision) -> Any:
        kit = _kit(view)
        # typed once here: compiled, the loops below then index natively
        val = kit.card_value
        colour_of = kit.card_colour
        bids: tuple[int, ...] = view.bids
        n: int = view.players
        me = self.seat
        f = _facts(view)
        totals, points = self._position(view)
        k = len(totals)
        # only the pairs that look best on their own: a bid changes the order,
        # rarely which colours are worth taking
        my_pairs = f.top_cols(self._bid_pairs)
        bid_of = self._later_bids(view)
        base = flat_position(totals, points)
        bid_val = [0] * n
        for s in range(n):
            b = bid_of[s]
            if b >= 0:
                x = val[b]
                bid_val[s] = x
                if s != me and bids[s] == NOT_YET:  # a later bid: the card leaves his slammer
                    base[k * n + s] -= x
                    if colour_of[b] >= 0:
                        base[colour_of[b] * n + s] -= x
        # The arrests add cards whatever the bid removed, so the turn is played
        # out once per distinct order of arrests (my place in it), and every
        # bid with that order is then scored by taking its card off the end
        # positions (``best_bid``).
        options = decision.options
        values = [0 if opt == "none" else val[opt] for opt in options]
        colours = [NO_CARD if opt == "none" else colour_of[opt] for opt in options]
        rest, places = self._my_places(view, bid_val, values)
        j = best_bid(rest, me, places, values, colours, options.index("none") if "none" in options else -1, my_pairs,
                     f.rule_cols, f.front, base, kit.bonus, self._weight(view), kit.needs)
        return "none" if j < 0 else options[j]
