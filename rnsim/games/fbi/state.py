"""FbiState: the rules of FBI as an explicit decision machine.

    state = FbiState.new(rules, players, chance_rng)
    while not state.over:
        d = state.pending
        state.apply(choose(view(state, d.seat), d))

Every chance draw happens at setup (the purple deal and the deck shuffle), so
a state holds no random stream and clones are plain copies. A game turn runs
through three phases, each a sequence of decisions indexed by ``step``:

- ``bid``: clockwise from the handcuffs holder, each player moves one slammer
  card (or none) to the centre (F2, F3); ties keep seat order from the holder
  (F4);
- ``agents``: each player secretly picks two field agents (F6); asked in
  arrest order, but no view shows another player's pick until it is played;
- ``arrest``: slammer order, then the reverse (F5); each turn the player plays
  one of his remaining agents and must arrest in its colour if he can (F7, F8).

A decision with a single legal answer is answered by the rules themselves
(no strategy is asked). Ruling ids: F1..F16 (docs/reference/rulings.md) and
FR1.. (our readings, docs/games/fbi.md).

Option encodings (stable; strategies and positions rely on them):

=========  ===================================================================
kind       options
=========  ===================================================================
``bid``    ``"none"`` or a card id in the bidder's slammer (one id per
           distinct colour and value: equal cards are the same bid)
``agents`` a tuple of two agent names in component order, e.g.
           ``("red", "blue")`` or ``("yellow", "2x")``
``arrest`` a colour name among the player's remaining agents (the 2x agent
           counts as its partner's colour)
=========  ===================================================================
"""

from __future__ import annotations

import random
from typing import Any, Final

from rnsim.chance.draws import shuffle
from rnsim.errors import IllegalOption, RulesError
from rnsim.games.fbi.components import MIN_PLAYERS, Components
from rnsim.games.fbi.rules import FbiRules

SEAT_NAMES = ("ann", "bert", "chris", "donna", "emil")  # the rulebook's example players, clockwise (F1, FR1)
# Final: compiled, the phase tests read constants, not module globals
BID: Final = 0
AGENTS: Final = 1
ARREST: Final = 2
OVER: Final = 3
PHASES: Final = ("bid", "agents", "arrest", "over")
NOT_YET: Final = -2  # bids[seat] before bidding
NO_CARD: Final = -1  # bids[seat] after bidding no card


class Decision:
    """A question to one seat. ``options`` is the full list of legal answers."""

    __slots__ = ("seat", "kind", "options", "info")

    def __init__(self, seat: int, kind: str, options: list[Any], info: dict[str, Any] | None = None) -> None:
        self.seat = seat
        self.kind = kind
        self.options = options
        self.info = info if info is not None else {}

    def __repr__(self) -> str:
        return f"Decision({SEAT_NAMES[self.seat]}, {self.kind!r}, {self.options}, {self.info})"

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, Decision)
            and (self.seat, self.kind, self.options, self.info) == (other.seat, other.kind, other.options, other.info)
        )


def check_players(players: Any, comps: Components, source: str = "players") -> int:
    """F16: 3, 4 or 5 players (fewer if a component set supports fewer)."""
    hi = comps.max_players
    if not isinstance(players, int) or isinstance(players, bool) or not MIN_PLAYERS <= players <= hi:
        allowed = ", ".join(str(k) for k in range(MIN_PLAYERS, hi + 1))
        raise RulesError(f"{source}: FBI is played by {allowed} players (F16), got {players!r}")
    return players


def _agent_options(comps: Components, legal: list[int], doubler: bool) -> list[tuple[str, ...]]:
    """F6: the pairs of agents among the colours ``legal`` (on the table), or
    the 2x and one of them; FR5: each colour alone when no pair is legal."""
    names = comps.colours
    opts: list[tuple[str, ...]] = []
    for i, a in enumerate(legal):
        for b in legal[i + 1:]:
            opts.append((names[a], names[b]))
        if doubler:
            opts.append((names[a], comps.doubler))
    if not opts:  # FR5: a single colour on the table and no 2x agent
        opts = [(names[c],) for c in legal]
    return opts


# The agents' options are a pure function of the key (component sets hash by
# identity; the cached tuples hold strings only), so a decision built from
# them is the one built anew; emptied when full. (A bid's options are built
# per decision: each seat bids once a turn, from a slammer the turn changed.)
_AGENT_OPTIONS: Final[dict[tuple[Components, bool, int], tuple[tuple[str, ...], ...]]] = {}
_OPTIONS_CACHE: Final = 4096


def is_option(option: Any, options: list[Any]) -> bool:
    """``option in options``: the very object among the options first (a
    strategy answers with one of them), a comparison with each only if it
    is not there."""
    for o in options:
        if o is option:
            return True
    return option in options


def colour_index(colours: tuple[str, ...], name: Any) -> int:
    """``colours.index(name)`` as a compiled loop (no method call); a name
    not there raises the same ValueError."""
    for i in range(len(colours)):
        if colours[i] == name:
            return i
    return colours.index(name)


def _purple_card(comps: Components, value: int) -> int:
    """``comps.purple_card(value)`` over the typed tuples (compiled: no
    interpreted method call; a set without the card raises there)."""
    purple: tuple[int, ...] = comps.purple
    values: tuple[int, ...] = comps.card_value
    for c in purple:
        if values[c] == value:
            return c
    return comps.purple_card(value)


class FbiState:
    """The full (omniscient) state of one FBI game. Strategies never see it."""

    rules: FbiRules
    comps: Components
    n: int
    seed: int
    log: list[dict[str, Any]] | None
    deck: list[int]  # draw order; hidden
    table: list[list[int]]  # per colour: card ids in placement order (the top is last, F15)
    slammer: list[list[int]]  # per seat: card ids (public)
    released: list[int]  # bid cards, out of the game (F3)
    turn: int
    handcuffs: int
    first_handcuffs: int
    last_turn: bool
    bids: list[int]  # per seat: NOT_YET, NO_CARD or a card id
    order: list[int]  # seats in slammer order (slammer card 1 first)
    pairs: list[tuple[str, ...] | None]  # per seat: the chosen agents (hidden until played)
    agents: list[list[int]]  # per seat: colours of the chosen agents not yet played
    played: list[list[int]]  # per seat: colours played this turn (public)
    arrests: list[tuple[int, int]]  # this turn: (seat, card id or -1 for a pass), public
    phase: int
    step: int
    pending: Decision | None
    over: bool
    scores: list[int]
    bonus_to: list[int]  # per colour: the seat given the bonus card, or -1
    decisions: int
    # The public fields as views hand them out (view.build_view): tuples,
    # built by the first view after a change and shared by the views until
    # the next one; each rule that changes a field drops its tuple (None).
    # A turn's agents decisions change none of them, its bids only the bids.
    shown_table: tuple[tuple[int, ...], ...] | None = None
    shown_slammers: tuple[tuple[int, ...], ...] | None = None
    shown_released: tuple[int, ...] | None = None
    shown_bids: tuple[int, ...] | None = None
    shown_order: tuple[int, ...] | None = None
    shown_played: tuple[tuple[int, ...], ...] | None = None
    shown_arrests: tuple[tuple[int, int], ...] | None = None
    # What the rules read of the rules and the component set at nearly every
    # decision, as the state's own (compiled: native) fields; FbiRules and
    # Components are not compiled, each read of theirs is a Python attribute
    # lookup. Set with rules and comps, by bind() only.
    _card_colour: tuple[int, ...]
    _card_value: tuple[int, ...]
    _colours: tuple[str, ...]
    _purple: tuple[int, ...]
    _doubler_name: str
    _stacked: bool
    _bid_cards: str
    _cards_per_player: int

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(cls, rules: FbiRules, players: Any, chance: random.Random, seed: int = 0,
            log: bool = False, comps: Components | None = None) -> FbiState:
        comps = comps if comps is not None else rules.load_components()
        n = check_players(players, comps)
        s = cls()
        s.bind(rules, comps)
        s.n, s.seed = n, seed
        s.log = [] if log else None
        # Setup: the purple villains 1..n are shuffled and dealt, each with its
        # bystander twin; the other purple cards are set aside.
        villains = list(range(1, n + 1))
        shuffle(chance, villains)
        s.slammer = [[_purple_card(comps, v), _purple_card(comps, -v)] for v in villains]
        s.deck = list(comps.coloured)
        shuffle(chance, s.deck)
        s.table = [[] for _ in comps.colours]
        s.released = []
        s.turn = 0
        # The first handcuffs holder has the highest purple villain (= n).
        s.first_handcuffs = villains.index(n)
        s.handcuffs = s.first_handcuffs
        s.last_turn = False
        s.bids, s.order, s.pairs, s.agents, s.played, s.arrests = [], [], [], [], [], []
        s.phase, s.step = BID, 0
        s.pending, s.over = None, False
        s.scores, s.bonus_to = [], []
        s.decisions = 0
        if s.log is not None:  # no event text to build when nobody logs
            s._event("setup", purple=[comps.card_name(c[0]) for c in s.slammer], handcuffs=SEAT_NAMES[s.handcuffs])
        s._start_turn()
        s._advance()
        return s

    def bind(self, rules: FbiRules, comps: Components) -> None:
        """Set the game's rules and component set (and the fields read of them)."""
        self.rules, self.comps = rules, comps
        self._card_colour, self._card_value = comps.card_colour, comps.card_value
        self._colours, self._purple, self._doubler_name = comps.colours, comps.purple, comps.doubler
        self._stacked, self._bid_cards = rules.stacked, rules.bid_cards
        self._cards_per_player = rules.cards_per_player

    # --------------------------------------------------------------- protocol

    def decision(self) -> Decision:
        if self.pending is None:
            raise RuntimeError("the game is over: there is no decision")
        return self.pending

    def apply(self, option: Any) -> None:
        d = self.pending
        if d is None:
            raise RuntimeError("the game is over: there is no decision to answer")
        if not is_option(option, d.options):
            raise IllegalOption(
                f"illegal option {option!r} for {SEAT_NAMES[d.seat]}'s {d.kind!r} decision "
                f"(turn {self.turn}, game seed {self.seed}); legal options: {d.options}"
            )
        self.pending = None
        self.decisions += 1
        self._answer(d, option)
        self._advance()

    def clone(self) -> FbiState:
        c = FbiState()
        c.bind(self.rules, self.comps)
        c.n, c.seed = self.n, self.seed
        c.log = None if self.log is None else [dict(e) for e in self.log]
        c.deck = self.deck[:]
        c.table = [t[:] for t in self.table]
        c.slammer = [t[:] for t in self.slammer]
        c.released = self.released[:]
        c.turn, c.handcuffs, c.first_handcuffs, c.last_turn = self.turn, self.handcuffs, self.first_handcuffs, self.last_turn
        c.bids = self.bids[:]
        c.order = self.order[:]
        c.pairs = self.pairs[:]
        c.agents = [a[:] for a in self.agents]
        c.played = [p[:] for p in self.played]
        c.arrests = self.arrests[:]
        c.phase, c.step = self.phase, self.step
        c.pending = self.pending  # decisions are never mutated
        c.over = self.over
        c.scores = self.scores[:]
        c.bonus_to = self.bonus_to[:]
        c.decisions = self.decisions
        return c

    @property
    def round(self) -> int:
        """The game turn (the core's "rounds")."""
        return self.turn

    # ------------------------------------------------------------ the machine

    def _advance(self) -> None:
        """Run the rules up to the next decision that needs a strategy."""
        while self.pending is None and not self.over:
            d = self._next_decision()
            if d is None:
                continue
            if len(d.options) == 1:
                self._answer(d, d.options[0])  # FR2: a forced answer needs no strategy
            else:
                self.pending = d

    def _next_decision(self) -> Decision | None:
        """The decision at (phase, step), or None after moving the phase on."""
        n = self.n
        if self.phase == BID:
            if self.step == n:
                self._set_order()
                return None
            seat = (self.handcuffs + self.step) % n
            return Decision(seat, "bid", self.bid_options(seat))
        if self.phase == AGENTS:
            if self.step == n:
                self.phase, self.step = ARREST, 0
                return None
            seat = self.order[self.step]  # FR8: asked in turn, but secret: simultaneous in effect
            return Decision(seat, "agents", self.agent_options())
        if self.phase == ARREST:
            if self.step == 2 * n:
                self._end_turn()
                return None
            seat = self.arrest_seat(self.step)
            opts = self.arrest_options(seat)
            if not opts:  # FR5: no agent left (a single-agent pick without the 2x): a pass
                self._event("arrest", seat=SEAT_NAMES[seat], agent=None, card=None)
                self.arrests.append((seat, -1))
                self.shown_arrests = None
                self.step += 1
                return None
            return Decision(seat, "arrest", opts, {"round": 1 + self.step // n})
        raise AssertionError(f"no decision in phase {PHASES[self.phase]}")

    def arrest_options(self, seat: int) -> list[str]:
        """The colours of the seat's agents not yet played, in colour order,
        each once; a pair (a turn's two agents) without building a set and
        sorting it."""
        names = self._colours
        held = self.agents[seat]
        if len(held) == 2:
            a, b = held[0], held[1]
            if a == b:
                return [names[a]]
            return [names[a], names[b]] if a < b else [names[b], names[a]]
        if len(held) == 1:
            return [names[held[0]]]
        return [names[c] for c in sorted(set(held))]

    def _answer(self, d: Decision, option: Any) -> None:
        if d.kind == "bid":
            self.bids[d.seat] = NO_CARD if option == "none" else option
            self.shown_bids = None
            if self.log is not None:  # no event text to build when nobody logs
                self._event("bid", seat=SEAT_NAMES[d.seat], card=None if option == "none" else self.comps.card_name(option))
        elif d.kind == "agents":
            self._choose_agents(d.seat, option)
        else:
            self._arrest(d.seat, colour_index(self._colours, option))
        self.step += 1

    # ----------------------------------------------------------------- phases

    def _start_turn(self) -> None:
        """Hand out the handcuffs, place character cards (F9)."""
        self.turn += 1
        if self.turn > 1:
            self.handcuffs = (self.handcuffs + 1) % self.n  # to the left (F1)
        k = self._cards_per_player * self.n
        placed, self.deck = self.deck[:k], self.deck[k:]
        colour = self._card_colour
        for card in placed:
            self.table[colour[card]].append(card)
        # F9: the turn that empties the deck is the last one, played in full.
        self.last_turn = not self.deck
        self.bids = [NOT_YET] * self.n
        self.order = []
        self.pairs = [None] * self.n
        self.agents = [[] for _ in range(self.n)]
        self.played = [[] for _ in range(self.n)]
        self.arrests = []
        self.shown_table = self.shown_bids = self.shown_order = None
        self.shown_played = self.shown_arrests = None
        self.phase, self.step = BID, 0
        if self.log is not None:  # no event text to build when nobody logs
            self._event("turn", handcuffs=SEAT_NAMES[self.handcuffs], placed=[self.comps.card_name(c) for c in placed],
                        deck=len(self.deck), last=self.last_turn)

    def bid_options(self, seat: int) -> list[Any]:
        """F3: any slammer card (or per the ``bid_cards`` knob, FR3), one per
        distinct card (FR7): ``Components.bid_options``, written out here
        (compiled, a loop over typed tuples; a slammer holds a few cards, so
        each card is compared with the ones kept instead of hashed)."""
        mode = self._bid_cards
        opts: list[Any] = ["none"]
        if mode == "none":
            return opts
        colour = self._card_colour
        value = self._card_value
        purple = self._purple
        only_purple = mode == "purple"
        kept: list[int] = []
        for card in sorted(self.slammer[seat]):
            if only_purple and card not in purple:
                continue
            c, v = colour[card], value[card]
            for other in kept:
                if colour[other] == c and value[other] == v:
                    break
            else:
                kept.append(card)
                opts.append(card)
        return opts

    def bid_value(self, seat: int) -> int:
        b = self.bids[seat]
        return 0 if b < 0 else self.comps.card_value[b]

    def _set_order(self) -> None:
        """Highest bid first; "none" is 0; ties in seat order from the holder (F4).
        Bid cards leave the game (F3)."""
        n, h = self.n, self.handcuffs
        value = self._card_value
        # sort key (-bid value, seat distance from the holder) as one int:
        # the distances are 0..n-1, each once, so no two keys tie and an
        # insertion sort of the n seats gives sorted()'s order
        keys = [0] * n
        order: list[int] = []
        for s in range(n):
            b = self.bids[s]
            k = keys[s] = (0 if b < 0 else -value[b]) * n + (s - h) % n
            i = len(order)
            while i > 0 and keys[order[i - 1]] > k:
                i -= 1
            order.insert(i, s)
        self.order = order
        for s in range(n):
            b = self.bids[s]
            if b >= 0:
                self.slammer[s].remove(b)
                self.released.append(b)
        self.shown_order = self.shown_slammers = self.shown_released = None
        if self.log is not None:  # no event text to build when nobody logs
            self._event("order", order=[SEAT_NAMES[s] for s in self.order])
        self.phase, self.step = AGENTS, 0

    def agent_options(self) -> list[tuple[str, ...]]:
        """F6: two agents among the colours on the table, or the 2x and one of them.
        Built once per component set, 2x knob and set of colours on the table
        (``_AGENT_OPTIONS``); each decision gets its own list of the shared tuples."""
        comps = self.comps
        table = self.table
        doubler = self.rules.doubler
        mask = 0  # the colours on the table, one bit each
        for c in range(len(table)):
            if table[c]:
                mask |= 1 << c
        key = (comps, doubler, mask)
        got = _AGENT_OPTIONS.get(key)
        if got is None:
            if len(_AGENT_OPTIONS) >= _OPTIONS_CACHE:
                _AGENT_OPTIONS.clear()
            got = _AGENT_OPTIONS[key] = tuple(_agent_options(comps, [c for c in range(len(table)) if table[c]], doubler))
        return list(got)

    def _choose_agents(self, seat: int, pair: tuple[str, ...]) -> None:
        pair = tuple(pair)
        self.pairs[seat] = pair
        colours = self._colours
        doubler = self._doubler_name
        cols = [colour_index(colours, a) for a in pair if a != doubler]
        if len(cols) == 1 and doubler in pair:
            cols = cols * 2  # F6: 2x doubles its partner
        self.agents[seat] = cols
        if self.log is not None:  # no event text to build when nobody logs
            self._event("agents", seat=SEAT_NAMES[seat], agents=list(pair))

    def arrest_seat(self, step: int) -> int:
        """F5: slammer order, then the reverse starting with the last slammer card."""
        n = self.n
        return self.order[step] if step < n else self.order[2 * n - 1 - step]

    def arrest_card(self, colour: int) -> int | None:
        """F8: the most valuable card of the colour; F15 (variant): the top card."""
        cards = self.table[colour]
        if not cards:
            return None
        if self._stacked:
            return cards[-1]
        value = self._card_value
        best = cards[0]
        for c in cards:
            if value[c] > value[best]:
                best = c
        return best

    def _arrest(self, seat: int, colour: int) -> None:
        """F7: the played agent must arrest if its colour is on the table, else it passes."""
        self.agents[seat].remove(colour)
        self.played[seat].append(colour)
        card = self.arrest_card(colour)
        if card is not None:
            self.table[colour].remove(card)
            self.slammer[seat].append(card)
        self.arrests.append((seat, -1 if card is None else card))
        self.shown_table = self.shown_slammers = self.shown_played = self.shown_arrests = None
        if self.log is not None:  # no event text to build when nobody logs
            self._event("arrest", seat=SEAT_NAMES[seat], agent=self.comps.colours[colour],
                        card=None if card is None else self.comps.card_name(card))

    def _end_turn(self) -> None:
        """Agents back to hand, slammer cards aside; the game ends after the turn
        that emptied the deck (F9)."""
        if self.last_turn:
            self._score()
            return
        self._start_turn()

    # ---------------------------------------------------------------- scoring

    def colour_totals(self, seat: int) -> list[int]:
        """F10: the signed sum of each colour's cards in the slammer."""
        tot = [0] * len(self.comps.colours)
        col, val = self.comps.card_colour, self.comps.card_value
        for c in self.slammer[seat]:
            if col[c] >= 0:
                tot[col[c]] += val[c]
        return tot

    def base_score(self, seat: int) -> int:
        """F12 without bonus cards: every slammer card's value, purple included."""
        val = self.comps.card_value
        return sum(val[c] for c in self.slammer[seat])

    def award_bonus(self) -> list[int]:
        """F11: each bonus card to the single highest colour total (above 0
        unless the ``bonus_needs_positive`` knob is off); none on a tie."""
        totals = [self.colour_totals(s) for s in range(self.n)]
        out = []
        for c in range(len(self.comps.colours)):
            best = max(t[c] for t in totals)
            leaders = [s for s in range(self.n) if totals[s][c] == best]
            ok = len(leaders) == 1 and (best > 0 or not self.rules.bonus_needs_positive)
            out.append(leaders[0] if ok else -1)
        return out

    def _score(self) -> None:
        self.bonus_to = self.award_bonus()
        self.scores = [self.base_score(s) for s in range(self.n)]
        for c, s in enumerate(self.bonus_to):
            if s >= 0:
                self.scores[s] += self.comps.bonus[c]
        self.phase, self.step = OVER, 0
        self.over = True
        self.pending = None
        if self.log is None:  # no event text to build when nobody logs
            return
        self._event("end", scores={SEAT_NAMES[s]: self.scores[s] for s in range(self.n)},
                    bonus={self.comps.colours[c]: (SEAT_NAMES[s] if s >= 0 else None) for c, s in enumerate(self.bonus_to)},
                    winners=[SEAT_NAMES[s] for s in self.winners()])

    def winners(self) -> list[int]:
        """F13: every seat with the highest final score (more than one = a shared win)."""
        if not self.scores:
            return []
        best = max(self.scores)
        return [s for s in range(self.n) if self.scores[s] == best]

    def ranks(self) -> list[int]:
        """FR11: 1 + the number of seats with a strictly higher score (tied seats share a rank)."""
        return [1 + sum(o > sc for o in self.scores) for sc in self.scores]

    def _event(self, kind: str, **data: Any) -> None:
        if self.log is not None:
            data["t"] = kind
            data["turn"] = self.turn
            self.log.append(data)
