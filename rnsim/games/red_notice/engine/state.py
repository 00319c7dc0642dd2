"""GameState: the rules of Red Notice as an explicit decision machine.

The state is plain mutable data. Resolution is a stack of pending frames
(round -> card -> action -> movement step -> capture -> escape -> ...), never
a Python call stack, so a state can be cloned at every decision:

    state = GameState.new(rules, chance_rng)
    while not state.over:
        d = state.decision()
        state.apply(choose(view_for(d.seat), d))

Frames are typed objects with named fields, one class per kind
(rnsim/games/red_notice/engine/frames.py); cloning copies the few that change
and shares the rest. Each kind has a ``_s_<name>`` step handler (advance, or
return a Decision) and, if it asks, an ``_a_<name>`` answer handler.
Ruling ids (R1..R27) are those of docs/reference/rulings.md.
"""

from __future__ import annotations

import random
from typing import Any, Final, cast

from rnsim.chance.draws import shuffle, take
from rnsim.errors import IllegalOption
from rnsim.games.red_notice.engine import belief as bel
from rnsim.games.red_notice.engine import frames as fr
from rnsim.games.red_notice.engine.decision import ANGELA, JESSAH, SEATS, Decision, JessahSecurityOptions, Option
from rnsim.games.red_notice.engine.frames import (
    KINDS,
    M_CARD,
    M_ESCAPE,
    M_JOURNALIST,
    P_END,
    P_PLACE,
    P_RESOLVE,
    P_START,
    AngelaSecurity,
    AngelaStart,
    Bank,
    BurnIdentity,
    Capture,
    Card,
    CheckAction,
    Draw,
    Frame,
    GainUpgrade,
    JessahSecurity,
    JessahStart,
    Joker,
    Move,
    Place,
    Round,
    SetupRadar,
)
from rnsim.games.red_notice.engine.history import Record
from rnsim.games.red_notice.engine.registry import FRAME_HANDLERS, IDENTITY_EFFECTS, UPGRADE_EFFECTS, UpgradeEffect
from rnsim.games.red_notice.rules.components import BANK as _BANK
from rnsim.games.red_notice.rules.components import BLACK as _BLACK
from rnsim.games.red_notice.rules.components import CHECK as _CHECK
from rnsim.games.red_notice.rules.components import MOVEMENT as _MOVEMENT
from rnsim.games.red_notice.rules.components import POW as _POW
from rnsim.games.red_notice.rules.components import SECURITY as _SECURITY
from rnsim.games.red_notice.rules.components import WHITE as _WHITE
from rnsim.games.red_notice.rules.components import Components
from rnsim.games.red_notice.rules.ruleset import RuleSet

# Final copies of the components' constants (an uncompiled module): compiled
# code reads them from C statics, not the module's dict.
BANK: Final[int] = _BANK
BLACK: Final[int] = _BLACK
CHECK: Final[int] = _CHECK
MOVEMENT: Final[int] = _MOVEMENT
POW: Final[int] = _POW
SECURITY: Final[int] = _SECURITY
WHITE: Final[int] = _WHITE
# the frame kinds _step and _answer call directly (frames.py's are not Final)
F_BANK: Final[int] = fr.F_BANK
F_CAPTURE: Final[int] = fr.F_CAPTURE
F_CARD: Final[int] = fr.F_CARD
F_CHECK: Final[int] = fr.F_CHECK
F_J_SECURITY: Final[int] = fr.F_J_SECURITY
F_MOVE: Final[int] = fr.F_MOVE
F_PLACE: Final[int] = fr.F_PLACE
F_ROUND: Final[int] = fr.F_ROUND

JOKER_CHOICES = ("check", "bank", "security", "movement", "pass")
_JOKER_ACTION = {"check": CHECK, "bank": BANK, "security": SECURITY, "movement": MOVEMENT}


# the (seat, half) pairs of performances(), at 2 * seat + half (items typed
# Any: compiled code hands the tuples on as they are, not rebuilt from C ints)
_PAIRS: Final[tuple[Any, ...]] = ((0, 0), (0, 1), (1, 0), (1, 1))


def performances(a: tuple[int, int] | None, b: tuple[int, int] | None,
                 initiative: int) -> tuple[tuple[int, int], ...]:
    """Who performs which half of a card, in order, as (seat, half) pairs
    (R1-R3), from the tokens revealed on its halves (``(seat, value)`` or
    None) and the seat with the initiative. Public: a strategy reading the
    history's ``card`` events can work it out as the engine does."""
    # Fields read by index and (seat, half) pairs from _PAIRS: unpacking
    # optional tuples and building the pairs cost more than the rule itself.
    if a is None:
        if b is None:
            return ()
        sb = 2 * b[0]
        return (_PAIRS[sb + 1], _PAIRS[sb])
    sa = 2 * a[0]
    if b is None:
        return (_PAIRS[sa], _PAIRS[sa + 1])
    va = a[1]
    sb = 2 * b[0]
    vb = b[1]
    if va == vb:  # tie (POW! vs POW! too): each her own half, initiative first
        return (_PAIRS[sa], _PAIRS[sb + 1]) if a[0] == initiative else (_PAIRS[sb + 1], _PAIRS[sa])
    if va == POW or vb == POW:  # POW! cancels the opposing token (R2)
        return (_PAIRS[sa], _PAIRS[sa + 1]) if va == POW else (_PAIRS[sb + 1], _PAIRS[sb])
    if va > vb:
        return (_PAIRS[sa], _PAIRS[sa + 1], _PAIRS[sb + 1])
    return (_PAIRS[sb + 1], _PAIRS[sb], _PAIRS[sa])


class PublicSets:
    """Public facts of a state as its views show them (``GameState.public_sets``)."""

    __slots__ = ("cashed", "identities_up", "identities_down", "permanents", "upgrades_face_up")

    def __init__(self, cashed: tuple[tuple[int, ...], tuple[int, ...]], identities_up: tuple[str, ...],
                 identities_down: tuple[str, ...], permanents: tuple[str, ...],
                 upgrades_face_up: tuple[str, ...]) -> None:
        self.cashed = cashed
        self.identities_up = identities_up
        self.identities_down = identities_down
        self.permanents = permanents
        self.upgrades_face_up = upgrades_face_up


class SeatSets:
    """This round's cards and tokens as one seat's views show them
    (``GameState.seat_sets``): the slots with the opponent's face-down
    tokens shown as -1, the cards revealed (bit i: card i), the round's
    cards, the seat's own tokens in hand and in its pool (sorted), and the
    tokens revealed this cycle per seat; and what changed since they were
    last brought up to date (``stale``: bit i, card i's slots; the tokens;
    the tokens spent: ``GameState._card_changed``)."""

    __slots__ = ("slots", "shown", "cards", "tokens", "pool", "spent", "stale", "stale_tokens", "stale_spent")

    def __init__(self, slots: tuple[tuple[tuple[int, int] | None, ...], ...], shown: int, cards: tuple[int, ...],
                 tokens: tuple[int, ...], pool: tuple[int, ...],
                 spent: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
        self.slots = slots
        self.shown = shown
        self.cards = cards
        self.tokens = tokens
        self.pool = pool
        self.spent = spent
        self.stale = 0
        self.stale_tokens = False
        self.stale_spent = False


class RoundDeal:
    """The round's cards and each seat's token pool (sorted) as tuples,
    built once per deal (``GameState.seat_sets``)."""

    __slots__ = ("cards", "pools")

    def __init__(self, cards: tuple[int, ...], pools: list[tuple[int, ...]]) -> None:
        self.cards = cards
        self.pools = pools


def _slot_seen(s: tuple[int, int] | None, seat: int, revealed: bool) -> tuple[int, int] | None:
    """A slot as ``seat`` sees it: an opponent's face-down token shows no value."""
    if s is None or s[0] == seat or revealed:
        return s
    return (s[0], -1)


class GameState:
    """The full (omniscient) state of one game. Strategies never see it."""

    rules: RuleSet
    comps: Components
    rng: random.Random
    seed: int
    log: list[dict[str, Any]] | None
    angela_city: int
    jessah_city: int
    radars: list[int]
    n_radars: int
    barriers: list[int]
    n_barriers: int
    radar_pending: int
    deck: list[int]
    hands: list[list[int]]
    cashed: list[list[int]]
    cash_total: list[int]
    security: int
    identities_up: list[int]
    identities_down: list[int]
    captures: int
    upgrade_deck: list[int]
    upgrades_face_up: list[int]
    permanents: list[int]
    upgrades_gone: list[int]
    round: int
    initiative: int
    action_deck: list[int]
    round_cards: list[int]
    token_pool: list[list[int]]
    token_hand: list[list[int]]
    slots: list[list[Any]]
    revealed: list[bool]
    spent: list[list[int]]
    stack: list[Frame]
    pending: Decision | None
    over: bool
    winner: int | None
    end_reason: str | None
    belief: int
    last_seen: tuple[int, int, int] | None
    last_announcement: tuple[tuple[int, int], ...]
    revealed_hand: tuple[int, tuple[int, ...]] | None
    stats: dict[str, int]
    cash_by_round: list[list[int]]
    captures_by_round: list[int]
    upgrade_rounds: dict[str, int]
    burnt: list[str]
    history: list[list[Record]]
    recording: bool
    # The board as tuples, built on first use after a change and shared by
    # every view and movement until the next change (public facts only):
    # set to None by each method that changes ``radars`` or ``barriers``.
    _radars_t: tuple[int, ...] | None = None
    _barriers_t: tuple[int, ...] | None = None
    # the neighbour masks with barred routes removed (R18), for the barriers
    # of ``_barriers_t``; None with it
    _open_t: list[int] | None = None
    # the public sets as views show them (``public_sets``); set to None by
    # each method that changes ``cashed``, the identities or the upgrades
    _public_t: PublicSets | None = None
    # this round's cards and tokens as each seat's views show them
    # (``seat_sets``); set to None by each method that changes
    # ``round_cards``, ``slots``, ``revealed``, ``token_pool``,
    # ``token_hand`` or ``spent``, and not copied by ``clone`` (a copy's
    # tokens may be re-dealt in place: engine/determinize.py)
    _seat_t: list[SeatSets | None] | None = None
    # the round's cards and each seat's pool (sorted) as tuples: set to None
    # with the round's deal, not copied by ``clone`` either
    _deal_t: RoundDeal | None = None

    # ------------------------------------------------------------------ setup

    @classmethod
    def new(
        cls,
        rules: RuleSet,
        rng: random.Random,
        identities: tuple[str, ...] | None = None,
        comps: Components | None = None,
        seed: int = 0,
        log: bool = False,
    ) -> GameState:
        """A new game, ready for its first decision (Jessah's start, R19)."""
        s = cls()
        comps = comps if comps is not None else rules.load_components()
        s.rules, s.comps, s.rng, s.seed = rules, comps, rng, seed
        s.log = [] if log else None
        # Chance draws in a fixed order, all of them always made, so the same
        # seed gives the same deal whatever the identity pair (R20). A set
        # derived by the component knobs draws as its original set does
        # (identity_draw, upgrade_draw), so its game i is dealt like the
        # original's game i wherever the knobs allow.
        ident_map = comps.identity_draw
        n_ident = len(comps.identities) if ident_map is None else len(ident_map)
        drawn = rng.sample(range(n_ident), rules.identities_per_game)
        if ident_map is not None:
            drawn = _mapped_identities(ident_map, drawn, len(comps.identities), rng)
        if identities is not None:
            if len(identities) != rules.identities_per_game:
                raise ValueError(
                    f"identities: Angela gets {rules.identities_per_game} identities, got {list(identities)}"
                )
            chosen = sorted(comps.identity_index(x) for x in identities)
            if len(set(chosen)) != len(chosen):
                raise ValueError(f"identities: the same identity twice in {list(identities)}")
        else:
            chosen = sorted(drawn)
        deck = list(range(len(comps.checks)))
        rng.shuffle(deck)  # top of the deck is the end of the list
        up_map = comps.upgrade_draw
        upgrades = list(range(len(comps.upgrade_cards))) if up_map is None else list(up_map)
        rng.shuffle(upgrades)
        if up_map is not None:
            upgrades = [u for u in upgrades if u >= 0]

        s.angela_city = -1
        s.jessah_city = -1
        s.radars = [0] * comps.n_continents
        s.n_radars = 0
        s.barriers = [0] * len(comps.routes)
        s.n_barriers = 0
        s.radar_pending = 0
        s.hands = [[], []]
        for _ in range(rules.starting_checks):  # dealt alternately, Angela first
            for seat in (ANGELA, JESSAH):
                s.hands[seat].append(deck.pop())
        s.deck = deck
        s.cashed = [[], []]
        s.cash_total = [0, 0]
        s.security = rules.security_start
        s.identities_up = chosen
        s.identities_down = []
        s.captures = 0
        s.upgrade_deck = upgrades
        s.upgrades_face_up = []
        s.permanents = []
        s.upgrades_gone = []
        s._reveal_upgrades()
        s.round = 1
        s.initiative = ANGELA if rules.initiative_first == "angela" else JESSAH
        s.action_deck = []
        s.round_cards = []
        s.token_pool = [[], []]
        s.token_hand = [[], []]
        s.slots = []
        s.revealed = []
        s.spent = [[], []]
        s.pending = None
        s.over = False
        s.winner = None
        s.end_reason = None
        s.belief = (1 << comps.n_cities) - 1
        s.last_seen = None
        s.last_announcement = ()
        s.revealed_hand = None
        s.stats = {
            "radar_triggers": 0, "radars_placed": 0, "barriers_placed": 0, "barriers_moved": 0,
            "security_spent": 0, "inspections": 0, "checks_cashed_angela": 0, "checks_cashed_jessah": 0,
            "checks_drawn_angela": 0, "checks_drawn_jessah": 0,
        }
        s.cash_by_round = [[], []]
        s.captures_by_round = []
        s.upgrade_rounds = {}
        s.burnt = []
        s.history = [[], []]
        s.recording = True
        for seat in (ANGELA, JESSAH):  # each seat sees its own hand, and the other's size
            full: Record = ("deal", s.round, seat, len(s.hands[seat]), -1, -1, tuple(s.hands[seat]))
            s._secret(full, ("deal", s.round, seat, len(s.hands[seat]), -1, -1, ()))
        s.stack = [Round(P_START, 0), AngelaStart()]
        s.stack.extend(SetupRadar() for _ in range(rules.radars_at_setup))
        s.stack.append(JessahStart())
        if s.log is not None:
            s._event("setup", identities=[comps.identities[i].id for i in chosen],
                     hands=[[s._check_name(c) for c in h] for h in s.hands],
                     upgrades_face_up=[comps.upgrade_cards[u].id for u in s.upgrades_face_up])
        s._advance()
        return s

    # --------------------------------------------------------------- protocol

    def decision(self) -> Decision:
        """The pending decision (the game must not be over)."""
        if self.pending is None:
            raise RuntimeError("the game is over: there is no decision")
        return self.pending

    def apply(self, option: Option) -> None:
        """Answer the pending decision. An illegal option raises IllegalOption."""
        d = self.pending
        if d is None:
            raise RuntimeError("the game is over: there is no decision to answer")
        if not _offers(d.options, _options(self.comps).canonical(option)):
            shown = d.options if len(d.options) <= 12 else [*d.options[:12], f"... {len(d.options)} in all"]
            raise IllegalOption(
                f"illegal option {option!r} for {SEATS[d.seat]}'s {d.kind!r} decision "
                f"(round {self.round}, game seed {self.seed}); legal options: {shown}"
            )
        self.pending = None
        self._answer(self.stack[-1], option)
        self._advance()

    def clone(self, rng: random.Random | None = None) -> GameState:
        """A copy to play on. Its chance stream is a copy of this state's, or
        ``rng`` if given: a generator the caller has set to this state's
        (``rng.setstate(state)`` from one ``getstate()`` of this state's
        stream), for copies made by the dozen, e.g. search's rollouts (a
        fresh generator seeds itself from the system's entropy, and each
        ``getstate()`` allocates 625 ints)."""
        c = GameState()
        c.rules = self.rules
        c.comps = self.comps
        c.seed = self.seed
        c.angela_city = self.angela_city
        c.jessah_city = self.jessah_city
        c.n_radars = self.n_radars
        c.n_barriers = self.n_barriers
        c.radar_pending = self.radar_pending
        c.security = self.security
        c.captures = self.captures
        c.round = self.round
        c.initiative = self.initiative
        c.pending = self.pending
        c.over = self.over
        c.winner = self.winner
        c.end_reason = self.end_reason
        c.belief = self.belief
        c.last_seen = self.last_seen
        c.last_announcement = self.last_announcement
        c.revealed_hand = self.revealed_hand
        if rng is None:
            rng = random.Random()
            rng.setstate(self.rng.getstate())
        c.rng = rng
        c.log = None if self.log is None else list(self.log)
        c.radars = self.radars[:]
        c.barriers = self.barriers[:]
        c._radars_t = self._radars_t  # immutable, the same content
        c._barriers_t = self._barriers_t
        c._open_t = self._open_t  # never changed once built
        c._public_t = self._public_t
        c.deck = self.deck[:]
        c.hands = [self.hands[0][:], self.hands[1][:]]
        c.cashed = [self.cashed[0][:], self.cashed[1][:]]
        c.cash_total = self.cash_total[:]
        c.identities_up = self.identities_up[:]
        c.identities_down = self.identities_down[:]
        c.upgrade_deck = self.upgrade_deck[:]
        c.upgrades_face_up = self.upgrades_face_up[:]
        c.permanents = self.permanents[:]
        c.upgrades_gone = self.upgrades_gone[:]
        c.action_deck = self.action_deck[:]
        c.round_cards = self.round_cards[:]
        c.token_pool = [self.token_pool[0][:], self.token_pool[1][:]]
        c.token_hand = [self.token_hand[0][:], self.token_hand[1][:]]
        c.slots = [s[:] for s in self.slots]
        c.revealed = self.revealed[:]
        c.spent = [self.spent[0][:], self.spent[1][:]]
        c.stack = [f.copy() for f in self.stack]
        c.stats = dict(self.stats)
        c.cash_by_round = [self.cash_by_round[0][:], self.cash_by_round[1][:]]
        c.captures_by_round = self.captures_by_round[:]
        c.upgrade_rounds = dict(self.upgrade_rounds)
        c.burnt = self.burnt[:]
        # Records are immutable tuples: the lists are copied, the records shared.
        c.history = [self.history[0][:], self.history[1][:]]
        c.recording = self.recording
        return c

    # ------------------------------------------------------------ the machine

    def _advance(self) -> None:
        stack = self.stack
        while self.pending is None and not self.over:
            frame = stack[-1]
            d = self._step(frame)
            if d is not None:
                if len(d.options) == 1 and d.kind not in _ALWAYS_ASK:
                    # A forced answer needs no strategy.
                    self._answer(frame, d.options[0])
                else:
                    self.pending = d

    def _step(self, frame: Frame) -> Decision | None:
        """The frame's step handler (``_STEP``): the kinds stepped in every
        round called directly (a native call when compiled), the rest
        through the table."""
        kind = frame.kind
        if kind == F_CARD:
            return self._s_card(cast(Card, frame))
        if kind == F_MOVE:
            return self._s_move(cast(Move, frame))
        if kind == F_ROUND:
            return self._s_round(cast(Round, frame))
        if kind == F_PLACE:
            return self._s_place(cast(Place, frame))
        if kind == F_CHECK:
            return self._s_check(cast(CheckAction, frame))
        if kind == F_BANK:
            return self._s_bank(cast(Bank, frame))
        if kind == F_J_SECURITY:
            return self._s_j_security(cast(JessahSecurity, frame))
        if kind == F_CAPTURE:
            return self._s_capture(cast(Capture, frame))
        return _STEP[kind](self, frame)  # type: ignore[no-any-return]

    def _answer(self, frame: Frame, option: Option) -> None:
        """The frame's answer handler (``_ANSWER``), the kinds answered in
        every round called directly, as in :meth:`_step`."""
        kind = frame.kind
        if kind == F_PLACE:
            self._a_place(cast(Place, frame), option)
        elif kind == F_MOVE:
            self._a_move(cast(Move, frame), option)
        elif kind == F_CHECK:
            self._a_check(cast(CheckAction, frame), option)
        elif kind == F_J_SECURITY:
            self._a_j_security(cast(JessahSecurity, frame), option)
        elif kind == F_BANK:
            self._a_bank(cast(Bank, frame), option)
        else:
            _ANSWER[kind](self, frame, option)

    def _event(self, kind: str, **data: Any) -> None:
        if self.log is not None:
            data["t"] = kind
            data["round"] = self.round
            self.log.append(data)

    def stop_history(self) -> None:
        """Record no history from now on (its lists are emptied): for games in
        which no strategy reads a view (rnsim.play.run_game), so that they do
        not pay for it. Views of such a game refuse to show a history."""
        self.recording = False
        self.history = [[], []]

    def _seen(self, kind: str, seat: int, a: Any = -1, b: Any = -1, c: Any = -1, items: tuple[Any, ...] = ()) -> None:
        """Record a public event in both seats' histories (engine/history.py)."""
        if not self.recording:
            return
        e = (kind, self.round, seat, a, b, c, items)
        self.history[0].append(e)
        self.history[1].append(e)

    def _secret(self, full: Record, masked: Record | None) -> None:
        """Record an event of seat full[2]: in full for her, ``masked`` (or
        nothing) for the other seat."""
        if not self.recording:
            return
        seat = full[2]
        self.history[seat].append(full)
        if masked is not None:
            self.history[1 - seat].append(masked)

    def _end(self, winner: int | None, reason: str) -> None:
        self.over = True
        self.winner = winner
        self.end_reason = reason
        self.pending = None
        self.stack = []
        self._close_round_stats()
        if self.log is not None:
            self._event("game_end", winner=None if winner is None else SEATS[winner], reason=reason)

    def _close_round_stats(self) -> None:
        if len(self.captures_by_round) < self.round:
            self.cash_by_round[0].append(self.cash_total[0])
            self.cash_by_round[1].append(self.cash_total[1])
            self.captures_by_round.append(self.captures)

    # names for the log
    def _city_name(self, c: int) -> str:
        return self.comps.cities[c]

    def _check_name(self, c: int) -> str:
        ch = self.comps.checks[c]
        return f"{self.comps.continents[ch.continent].colour} ${ch.value // 1000}k"

    # ---------------------------------------------------------------- setup

    def _start_options(self, seat: int) -> list[Option]:
        opts: list[Option] = []
        comps = self.comps
        cm = comps.continents
        n = comps.n_cities
        seen: set[int] = set()  # chk * n + city of the options so far (each once)
        for chk in self.hands[seat]:
            for city in cm[comps.checks[chk].continent].cities:
                key = chk * n + city
                if key not in seen:
                    seen.add(key)
                    opts.append((chk, city))
        return opts

    def _s_j_start(self, frame: JessahStart) -> Decision:
        return Decision(JESSAH, "start", self._start_options(JESSAH))

    def _a_j_start(self, frame: JessahStart, opt: tuple[int, int]) -> None:
        chk, city = opt
        self.stack.pop()
        self.hands[JESSAH].remove(chk)
        self.deck.insert(0, chk)  # shown, then placed beneath the deck (R19)
        self.jessah_city = city
        self._seen("jessah_start", JESSAH, city, chk)
        if self.log is not None:
            self._event("jessah_start", city=self._city_name(city), shown=self._check_name(chk))

    def _s_setup_radar(self, frame: SetupRadar) -> Decision | None:
        opts = [k for k, r in enumerate(self.radars) if not r]
        if not opts or self.n_radars >= self.comps.radar_supply:
            self.stack.pop()
            return None
        return Decision(JESSAH, "setup_radar", opts)

    def _a_setup_radar(self, frame: SetupRadar, k: int) -> None:
        self.stack.pop()
        self._place_radar(k, WHITE)
        self._seen("setup_radar", JESSAH, k)
        if self.log is not None:
            self._event("setup_radar", continent=self.comps.continents[k].id)

    def _s_a_start(self, frame: AngelaStart) -> Decision:
        return Decision(ANGELA, "start", self._start_options(ANGELA))

    def _a_a_start(self, frame: AngelaStart, opt: tuple[int, int]) -> None:
        chk, city = opt
        self.stack.pop()
        self.hands[ANGELA].remove(chk)
        self.deck.insert(0, chk)
        self.angela_city = city
        k = self.comps.city_continent[city]
        self.belief = self.comps.continent_mask[k]  # her continent is public, not her city
        self.last_seen = (-1, k, 0)
        self._secret(("angela_start", self.round, ANGELA, k, chk, city, ()),
                     ("angela_start", self.round, ANGELA, k, chk, -1, ()))
        if self.log is not None:
            self._event("angela_start", city=self._city_name(city), continent=self.comps.continents[k].id,
                        shown=self._check_name(chk))

    # ---------------------------------------------------------------- rounds

    def _s_round(self, frame: Round) -> Decision | None:
        phase = frame.phase
        rules = self.rules
        if phase == P_START:
            if (self.round - 1) % rules.reset_every_rounds == 0:
                # Reset: all tokens back, action deck reshuffled (R21).
                self.token_pool = [list(self.comps.tokens), list(self.comps.tokens)]
                self.spent = [[], []]
                self.action_deck = list(range(len(self.comps.cards)))
                shuffle(self.rng, self.action_deck)
            n = rules.cards_per_round
            self.round_cards = [self.action_deck.pop() for _ in range(n)]
            self.slots = [[None, None] for _ in range(n)]
            self.revealed = [False] * n
            for seat in (ANGELA, JESSAH):
                hand = take(self.rng, self.token_pool[seat], rules.tokens_per_round)
                hand.sort()
                self.token_hand[seat] = hand
            self._seat_t = None
            self._deal_t = None
            if self.recording:
                self._seen("round_start", self.initiative, items=tuple(self.round_cards))
            if self.log is not None:
                self._event("round_start", initiative=SEATS[self.initiative],
                            cards=[[h.label() for h in self.comps.cards[c]] for c in self.round_cards],
                            tokens=[list(self.token_hand[0]), list(self.token_hand[1])])
            frame.phase = P_PLACE
            self.stack.append(Place(0))
            return None
        if phase == P_PLACE:
            frame.phase = P_RESOLVE
            frame.next_card = 0
            return None
        if phase == P_RESOLVE:
            i = frame.next_card
            if i < len(self.round_cards):
                frame.next_card = i + 1
                self.stack.append(Card(i, None, 0))
                return None
            frame.phase = P_END
            return None
        # P_END: prepare the next round
        self._close_round_stats()
        self._seen("round_end", -1)
        if self.log is not None:
            self._event("round_end", cashed=list(self.cash_total), captures=self.captures)
        self.initiative = 1 - self.initiative
        if self.round >= rules.max_rounds:
            self._end(None, "timeout")  # R23
            return None
        self.round += 1
        frame.phase = P_START
        return None

    def _s_place(self, frame: Place) -> Decision | None:
        k = frame.placed
        if k >= 2 * self.rules.tokens_per_round:
            self.stack.pop()
            return None
        seat = self.initiative if k % 2 == 0 else 1 - self.initiative
        hand = self.token_hand[seat]
        # sorted(set(hand)), read off the hand the engine keeps sorted
        values: list[int] = []
        for v in hand:
            if not values or v > values[-1]:
                values.append(v)
            elif v < values[-1]:
                values = sorted(set(hand))
                break
        slots = self.slots
        table = _options(self.comps)
        rows = [table.placements(v, len(slots)) for v in values]
        opts: list[Any] = []
        for i in range(len(slots)):
            pair = slots[i]
            a = pair[0]
            b = pair[1]
            if (a is not None and a[0] == seat) or (b is not None and b[0] == seat):
                continue  # never two own tokens on one card (R1)
            if a is None:
                for row in rows:
                    opts.append(row[2 * i])
            if b is None:
                for row in rows:
                    opts.append(row[2 * i + 1])
        return Decision(seat, "place_token", opts)

    def _a_place(self, frame: Place, opt: tuple[int, int, int]) -> None:
        v, i, half = opt
        seat = self.initiative if frame.placed % 2 == 0 else 1 - self.initiative
        self.token_hand[seat].remove(v)
        self.slots[i][half] = (seat, v)
        self._card_changed(i, seat)
        frame.placed += 1
        if self.recording:
            self._secret(("token_placed", self.round, seat, i, half, v, ()),
                         ("token_placed", self.round, seat, i, half, -1, ()))
        if self.log is not None:
            self._event("token_placed", seat=SEATS[seat], card=i, half=half, value=_token_name(v))

    # ----------------------------------------------------------------- cards

    def _s_card(self, frame: Card) -> Decision | None:
        i = frame.card
        seq = frame.performances
        if seq is None:
            seq = frame.performances = self._card_performances(i)
        j = frame.next
        if j >= len(seq):
            self.stack.pop()
            return None
        frame.next = j + 1
        seat, half = seq[j]
        action, icons = _options(self.comps).halves[self.round_cards[i]][half]
        self._push_action(seat, action, icons, M_CARD)
        return None

    def _card_performances(self, i: int) -> tuple[tuple[int, int], ...]:
        """Who performs which half, in order (R1-R3)."""
        a, b = self.slots[i]
        self.revealed[i] = True
        for s in (a, b):
            if s is not None:
                self.spent[s[0]].append(s[1])
        self._card_changed(i, -1)
        self._seen("card", -1, i, items=(a, b))  # slots hold immutable (seat, value) tuples
        if a is None and b is None:
            if self.log is not None:
                self._event("card", card=i, tokens=None)
            return ()
        if self.log is not None:
            self._event("card", card=i, tokens=[None if s is None else [SEATS[s[0]], _token_name(s[1])] for s in (a, b)])
        return performances(a, b, self.initiative)

    # --------------------------------------------------------------- actions

    def _push_action(self, seat: int, action: int, icons: int, mode: int) -> None:
        st = self.stack
        if action == CHECK:
            st.append(CheckAction(seat, icons))
        elif action == BANK:
            st.append(Bank(seat))
        elif action == SECURITY:
            st.append(JessahSecurity(seat, icons) if seat == JESSAH else AngelaSecurity(seat, icons))
        elif action == MOVEMENT:
            steps = icons
            if self.permanents:
                for e in self._held_effects():
                    steps += e.movement_bonus(self, seat, mode)
            self._push_move(seat, steps, mode)
        else:
            st.append(Joker(seat))

    # check
    def _s_check(self, frame: CheckAction) -> Decision | None:
        seat = frame.seat
        if frame.left <= 0 or not self.deck or len(self.hands[seat]) >= self.rules.hand_limit:
            # No icon left, an empty deck (R6) or a full hand: nothing more
            # could be drawn, so there is no choice to make.
            self._end_check(frame)
            return None
        return Decision(seat, "check", ["draw", "pass"], {"left": frame.left, "drawn": frame.drawn})

    def _a_check(self, frame: CheckAction, opt: str) -> None:
        # R26: one check per icon. "pass" declines this icon and the rest:
        # declining one icon and drawing the next would draw the same check as
        # drawing now and stopping, so one answer per outcome (0, 1 or 2) keeps
        # the decision tree free of duplicate paths.
        if opt == "pass":
            self._end_check(frame)
            return
        frame.left -= 1
        frame.drawn += 1
        self.hands[frame.seat].append(self.deck.pop())
        self.stats["checks_drawn_" + SEATS[frame.seat]] += 1

    def _end_check(self, frame: CheckAction) -> None:
        self.stack.pop()
        if frame.drawn and self.recording:
            seat = frame.seat
            self._secret(("draw", self.round, seat, frame.drawn, -1, -1, tuple(self.hands[seat][-frame.drawn:])),
                         ("draw", self.round, seat, frame.drawn, -1, -1, ()))
        # One event per Check action, with the number drawn, as for the
        # Doctor's draw: the log reads "draws 2", not "draws 1" twice.
        if frame.drawn and self.log is not None:
            self._event("draw", seat=SEATS[frame.seat], n=frame.drawn)

    def _draw(self, seat: int, n: int) -> None:
        got = 0
        for _ in range(n):
            if not self.deck or len(self.hands[seat]) >= self.rules.hand_limit:
                break  # a full hand does not draw; an empty deck draws nothing (R6)
            self.hands[seat].append(self.deck.pop())
            got += 1
        self.stats["checks_drawn_" + SEATS[seat]] += got
        if self.recording:
            self._secret(("draw", self.round, seat, got, -1, -1, tuple(self.hands[seat][len(self.hands[seat]) - got:])),
                         ("draw", self.round, seat, got, -1, -1, ()))
        if self.log is not None:
            self._event("draw", seat=SEATS[seat], n=got)

    # joker
    def _s_joker(self, frame: Joker) -> Decision:
        return Decision(frame.seat, "joker", list(JOKER_CHOICES))

    def _a_joker(self, frame: Joker, opt: str) -> None:
        self.stack.pop()
        self._seen("joker", frame.seat, opt)
        if self.log is not None:
            self._event("joker", seat=SEATS[frame.seat], choice=opt)
        if opt != "pass":
            self._push_action(frame.seat, _JOKER_ACTION[opt], 1, M_CARD)  # R4

    # bank
    def _city_of(self, seat: int) -> int:
        return self.angela_city if seat == ANGELA else self.jessah_city

    def _s_bank(self, frame: Bank) -> Decision | None:
        seat = frame.seat
        k = self.comps.city_continent[self._city_of(seat)]
        checks = self.comps.checks
        opts: list[Option] = [c for c in self.hands[seat] if checks[c].continent == k]
        if not opts:
            self.stack.pop()
            return None
        opts.append("pass")
        return Decision(seat, "bank", opts)

    def _a_bank(self, frame: Bank, opt: Option) -> None:
        self.stack.pop()
        if opt != "pass":
            self._cash(frame.seat, opt)

    def _cash(self, seat: int, chk: int) -> None:
        rules = self.rules
        value = self.comps.checks[chk].value
        self.hands[seat].remove(chk)
        self.cashed[seat].append(chk)
        self._public_t = None
        self.cash_total[seat] += value
        self.stats["checks_cashed_" + SEATS[seat]] += 1
        city = self._city_of(seat)
        self._seen("cash", seat, chk, city)
        if self.log is not None:
            self._event("cash", seat=SEATS[seat], check=self._check_name(chk), city=self._city_name(city))
        if seat == ANGELA:
            self._reveal_angela(city)  # R8
            if self.cash_total[ANGELA] >= rules.money_target:
                self._end(ANGELA, "million")  # R22
                return
        # What follows the cash runs in this order (pushed in reverse): the
        # bonus movement, Jessah's upgrade, then what her permanent upgrades
        # add or cancel (effects.py: Frozen Accounts, Bank Alert).
        later: list[tuple[str, int, int]] = []
        if value == rules.bonus_move_check_value and rules.bonus_move_steps > 0:
            later.append(("bonus", seat, rules.bonus_move_steps))
        if value == rules.upgrade_check_value:
            later.append(("upgrade", seat, 0))
        if self.permanents:
            for e in self._held_effects():
                e.on_cash(self, seat, value, later)
        for what, who, n in reversed(later):
            if what == "upgrade":
                self.stack.append(GainUpgrade(who))
            else:
                self._push_move(who, n, 0)

    def _reveal_angela(self, city: int) -> None:
        self.belief = 1 << city
        self.last_seen = (city, self.comps.city_continent[city], self.round)

    # -------------------------------------------------------------- security

    def _s_j_security(self, frame: JessahSecurity) -> Decision | None:
        if frame.left <= 0:
            self.stack.pop()
            return None
        return Decision(JESSAH, "jessah_security", self._j_security_options(), {"left": frame.left})

    def _j_security_options(self) -> JessahSecurityOptions:
        radars = [k for k, r in enumerate(self.radars) if not r] if self.n_radars < self.comps.radar_supply else []
        free: list[int] = []
        placed: list[int] = []
        board = self.barriers_tuple()
        for r in range(len(board)):
            if board[r]:
                placed.append(r)
            else:
                free.append(r)
        return JessahSecurityOptions(radars, free, self.n_barriers < self.comps.barrier_supply, placed, board)

    def _a_j_security(self, frame: JessahSecurity, opt: Option) -> None:
        frame.left -= 1
        self._jessah_security(opt)

    def _jessah_security(self, opt: Option) -> None:
        if opt == "pass":
            return
        if opt[0] == "radar":
            self._place_radar(opt[1], WHITE)
            self.stats["radars_placed"] += 1
            self._seen("radar", JESSAH, opt[1])
            if self.log is not None:
                self._event("radar", continent=self.comps.continents[opt[1]].id)
        elif opt[0] == "barrier":
            self._place_barrier(opt[1], WHITE)
            self.stats["barriers_placed"] += 1
            self._seen("barrier", JESSAH, opt[1])
            if self.log is not None:
                self._event("barrier", route=self.comps.route_name(opt[1]))
        else:
            _, frm, to = opt
            self.barriers[to] = self.barriers[frm]  # a moved barrier keeps its side
            self.barriers[frm] = 0
            self._barriers_t = self._open_t = None
            self.stats["barriers_moved"] += 1
            self._seen("barrier_moved", JESSAH, frm, to)
            if self.log is not None:
                self._event("barrier_moved", frm=self.comps.route_name(frm), to=self.comps.route_name(to))

    def _place_radar(self, k: int, side: int) -> None:
        if not self.radars[k]:
            self.n_radars += 1
        self.radars[k] = side
        self._radars_t = None

    def _place_barrier(self, r: int, side: int) -> None:
        if not self.barriers[r]:
            self.n_barriers += 1
        self.barriers[r] = side
        self._barriers_t = self._open_t = None

    def _remove_radar(self, k: int) -> None:
        if self.radars[k]:
            self.n_radars -= 1
        self.radars[k] = 0
        self._radars_t = None

    def _remove_barrier(self, r: int) -> None:
        if self.barriers[r]:
            self.n_barriers -= 1
        self.barriers[r] = 0
        self._barriers_t = self._open_t = None

    def public_sets(self) -> PublicSets:
        """The checks cashed per seat, the identities face up and burnt (ids)
        and the upgrades permanent and face up (ids), as tuples: built once per
        change of them and shared by the views until the next one."""
        t = self._public_t
        if t is None:
            ids = self.comps.identity_ids
            cards = self.comps.upgrade_card_ids
            t = self._public_t = PublicSets(
                (tuple(self.cashed[0]), tuple(self.cashed[1])),
                tuple([ids[i] for i in self.identities_up]),
                tuple([ids[i] for i in self.identities_down]),
                tuple([cards[u] for u in self.permanents]),
                tuple([cards[u] for u in self.upgrades_face_up]))
        return t

    def seat_sets(self, seat: int) -> SeatSets:
        """This round's cards and tokens as ``seat``'s views show them, built
        once per round and brought up to date when a card's slots changed
        since the seat's last view (``_card_changed``), shared by its views
        until then (a seat is asked several times between two placements
        or reveals)."""
        t = self._seat_t
        if t is None:
            t = self._seat_t = [None, None]
        ss = t[seat]
        if ss is None:
            ss = t[seat] = self._build_seat_sets(seat)
        elif ss.stale:
            self._refresh_seat_sets(ss, seat)
        return ss

    def _card_changed(self, i: int, placed: int) -> None:
        """Card ``i``'s slots changed: a token placed on it by seat
        ``placed``, or (``placed`` -1) its tokens revealed. The seats' sets
        already built are marked, and brought up to date at the seat's next
        view (``_refresh_seat_sets``): one update per view after any
        number of changes, none for a seat not asked meanwhile."""
        t = self._seat_t
        if t is None:
            return
        for seat in range(2):
            ss = t[seat]
            if ss is None:
                continue
            ss.stale |= 1 << i
            if seat == placed:
                ss.stale_tokens = True
            if placed < 0:
                ss.stale_spent = True

    def _refresh_seat_sets(self, ss: SeatSets, seat: int) -> None:
        """The marked parts of ``ss`` rebuilt as ``_build_seat_sets`` builds
        them, in place (the tuples earlier views hold stay as they are)."""
        stale = ss.stale
        slots = list(ss.slots)
        revealed = self.revealed
        shown = ss.shown
        for i in range(len(slots)):
            if stale >> i & 1:
                pair = self.slots[i]
                rev = revealed[i]
                if rev:
                    shown |= 1 << i
                if len(pair) == 2:
                    slots[i] = (_slot_seen(pair[0], seat, rev), _slot_seen(pair[1], seat, rev))
                else:
                    slots[i] = tuple([_slot_seen(x, seat, rev) for x in pair])
        ss.slots = tuple(slots)
        ss.shown = shown
        ss.stale = 0
        if ss.stale_tokens:
            ss.tokens = tuple(self.token_hand[seat])
            ss.stale_tokens = False
        if ss.stale_spent:
            ss.spent = (tuple(self.spent[0]), tuple(self.spent[1]))
            ss.stale_spent = False

    def _build_seat_sets(self, seat: int) -> SeatSets:
        slots: list[tuple[tuple[int, int] | None, ...]] = []
        revealed = self.revealed
        shown = 0
        for i, pair in enumerate(self.slots):
            rev = revealed[i]
            if rev:
                shown |= 1 << i
            if len(pair) == 2:
                slots.append((_slot_seen(pair[0], seat, rev), _slot_seen(pair[1], seat, rev)))
            else:
                slots.append(tuple([_slot_seen(x, seat, rev) for x in pair]))
        deal = self._deal_t
        if deal is None:
            pools = self.token_pool
            deal = self._deal_t = RoundDeal(tuple(self.round_cards), [tuple(sorted(pools[0])), tuple(sorted(pools[1]))])
        return SeatSets(tuple(slots), shown, deal.cards, tuple(self.token_hand[seat]), deal.pools[seat],
                        (tuple(self.spent[0]), tuple(self.spent[1])))

    def radars_tuple(self) -> tuple[int, ...]:
        """``tuple(self.radars)``, built once per change of the radars and
        shared (views, movements) until the next one."""
        t = self._radars_t
        if t is None:
            t = self._radars_t = tuple(self.radars)
        return t

    def barriers_tuple(self) -> tuple[int, ...]:
        """``tuple(self.barriers)``, shared as ``radars_tuple``."""
        t = self._barriers_t
        if t is None:
            t = self._barriers_t = tuple(self.barriers)
        return t

    def _removal_options(self) -> list[Option]:
        """Angela's security spends (R11): white, not-yet-announced tokens."""
        if self.security < self.rules.security_removal_cost:
            return []
        table = _options(self.comps)
        radars = self.radars
        pending = self.radar_pending
        opts: list[Option] = [table.remove_radar[k] for k in range(len(radars))
                              if radars[k] == WHITE and not pending >> k & 1]
        barriers = self.barriers
        for r in range(len(barriers)):
            if barriers[r] == WHITE:
                opts.append(table.remove_barrier[r])
        return opts

    def _spend(self, opt: tuple[str, int]) -> None:
        self.security -= self.rules.security_removal_cost
        self.stats["security_spent"] += self.rules.security_removal_cost
        if opt[0] == "remove_radar":
            self._remove_radar(opt[1])
            self._seen("security_spent", ANGELA, "radar", opt[1], -1)
            if self.log is not None:
                self._event("security_spent", removed="radar", continent=self.comps.continents[opt[1]].id)
        else:
            self._remove_barrier(opt[1])
            self._seen("security_spent", ANGELA, "barrier", -1, opt[1])
            if self.log is not None:
                self._event("security_spent", removed="barrier", route=self.comps.route_name(opt[1]))
        # The public knows the token is gone; a movement in progress is judged
        # without it (see _finish_angela_move).
        if opt[0] == "remove_radar":
            for f in self.stack:
                if isinstance(f, Move) and f.seat == ANGELA and f.radars is not None:
                    snap = list(f.radars)
                    snap[opt[1]] = 0
                    f.radars = tuple(snap)

    def _s_a_security(self, frame: AngelaSecurity) -> Decision | None:
        if frame.left <= 0:
            self.stack.pop()
            return None
        opts: list[Option] = ["gain", "pass"]
        opts.extend(self._removal_options())
        return Decision(ANGELA, "angela_security", opts, {"left": frame.left})

    def _a_a_security(self, frame: AngelaSecurity, opt: Option) -> None:
        if opt == "gain":
            frame.left -= 1
            self.security = min(self.rules.security_cap, self.security + 1)  # excess lost (R11)
            self._seen("security_gain", ANGELA, self.security)
            if self.log is not None:
                self._event("security_gain", security=self.security)
        elif opt == "pass":
            frame.left -= 1
        else:
            self._spend(opt)  # the same icon is offered again after a spend

    # -------------------------------------------------------------- movement

    def _push_move(self, seat: int, steps: int, mode: int) -> None:
        self.stack.append(Move(seat, steps, mode, (), None, 0, steps))

    def _s_move(self, frame: Move) -> Decision | None:
        seat, left = frame.seat, frame.left
        if frame.radars is None:
            # The movement starts now (see frames.Move).
            frame.radars = self.radars_tuple()
            frame.belief = self.belief
        if left <= 0:
            self.stack.pop()
            if seat == ANGELA:
                self._finish_angela_move(frame)
            return None
        table = _options(self.comps)
        if seat == JESSAH:
            opts: list[Option] = list(table.steps[self.jessah_city])
            opts.append("inspect")
            opts.append("stop")
            return Decision(JESSAH, "jessah_move", opts, {"left": left})
        here = self.angela_city
        if frame.mode & M_JOURNALIST:
            opts = list(table.steps[here])
        else:
            bars = self.barriers
            steps = table.steps[here]
            routes = table.step_routes[here]
            opts = [steps[j] for j in range(len(steps)) if not bars[routes[j]]]
        opts.append("stay")
        opts.append("stop")
        opts.extend(self._removal_options())
        return Decision(ANGELA, "angela_move", opts, {"left": left, "escape": bool(frame.mode & M_ESCAPE)})

    def _a_move(self, frame: Move, opt: Option) -> None:
        seat = frame.seat
        if opt == "stop":
            frame.left = 0
            return
        if seat == JESSAH:
            frame.left -= 1
            city = self.jessah_city if opt == "inspect" else opt[1]
            if city != self.jessah_city:
                self._seen("jessah_move", JESSAH, city)
                if self.log is not None:
                    self._event("jessah_move", to=self._city_name(city))
            self.jessah_city = city
            self._inspect(city)
            return
        if opt[0] in ("remove_radar", "remove_barrier"):
            self._spend(opt)
            return
        frame.left -= 1
        city = self.angela_city if opt == "stay" else opt[1]
        self.angela_city = city
        if self.recording:
            self._secret(("angela_step", self.round, ANGELA, city, -1, -1, ()), None)
        if self.log is not None:
            self._event("angela_step", to=self._city_name(city))
        if frame.mode & M_JOURNALIST:
            return
        k = self.comps.city_continent[city]
        r = self.radars[k]
        if r == BLACK or (r == WHITE and not self.radar_pending >> k & 1):
            # Every step that ends on a radar continent triggers it (R14).
            if r == WHITE:
                self.radar_pending |= 1 << k
            shown = -1  # the announcement names the continent only (R15)
            if self.permanents:
                for e in self._held_effects():
                    shown = e.on_trigger(self, k, city, shown)
            frame.triggered = frame.triggered + ((k, shown),)
            self.stats["radar_triggers"] += 1

    def _finish_angela_move(self, frame: Move) -> None:
        """End of one of Angela's movements: announce the triggers (R15), return
        triggered white radars, and update the public belief."""
        triggered = frame.triggered
        for k, _ in triggered:
            if self.radar_pending >> k & 1:
                self._remove_radar(k)
        self.radar_pending = 0
        self.last_announcement = triggered
        comps = self.comps
        mode = frame.mode
        self._seen("announce", ANGELA, frame.steps,
                   "journalist" if mode & M_JOURNALIST else "escape" if mode & M_ESCAPE else "", -1, triggered)
        if self.log is not None:
            self._event("announce", triggers=[
                comps.continents[k].id + ("" if c < 0 else f" ({comps.cities[c]})") for k, c in triggered])
        steps = frame.steps
        if frame.mode & M_JOURNALIST:
            self.belief = bel.reach(frame.belief, comps.neighbour_mask, steps)
        else:
            radars = frame.radars
            assert radars is not None, "a movement ends only after it started"
            self.belief = bel.after_movement(
                frame.belief, steps, self._open_neighbour_masks(), radars, comps.continent_mask, triggered)
        if triggered:
            self.last_seen = (triggered[-1][1], triggered[-1][0], self.round)
        assert self.belief >> self.angela_city & 1, "public belief lost Angela"

    def _open_neighbour_masks(self) -> list[int]:
        """The map Angela moves on (R18), built once per change of the
        barriers (never changed: belief.after_movement only reads it)."""
        m = self._open_t
        if m is None:
            m = self._open_t = bel.open_masks(self.comps.neighbour_mask, self.comps.routes, self.barriers)
        return m

    def _inspect(self, city: int) -> None:
        self.stats["inspections"] += 1
        self._seen("inspect", JESSAH, city, self.angela_city == city)
        if self.angela_city == city:
            if self.log is not None:
                self._event("inspect", city=self._city_name(city), found=True)
            # A capture ends Jessah's current movement (R17).
            self.stack.pop()
            self.stack.append(Capture(city))
        else:
            if self.log is not None:
                self._event("inspect", city=self._city_name(city), found=False)
            self.belief &= ~(1 << city)

    # --------------------------------------------------------------- capture

    def _s_capture(self, frame: Capture) -> Decision | None:
        city = frame.city
        self.captures += 1
        self._reveal_angela(city)
        self._seen("capture", JESSAH, city, self.captures)
        if self.log is not None:
            self._event("capture", city=self._city_name(city), captures=self.captures)
        self.stack.pop()
        if not self.identities_up:
            self._end(JESSAH, "arrest")  # R22
            return None
        self.stack.append(BurnIdentity())
        return None

    def _s_identity(self, frame: BurnIdentity) -> Decision:
        ids = self.comps.identities
        return Decision(ANGELA, "identity", [ids[i].id for i in self.identities_up])

    def _a_identity(self, frame: BurnIdentity, opt: str) -> None:
        self.stack.pop()
        i = self.comps.identity_index(opt)
        self.identities_up.remove(i)
        self.identities_down.append(i)
        self._public_t = None
        self.burnt.append(opt)
        self._seen("identity", ANGELA, opt)
        ident = self.comps.identities[i]
        if self.log is not None:
            self._event("identity", identity=opt)
        IDENTITY_EFFECTS[ident.effect].on_escape(self, ident)

    # -------------------------------------------------------------- upgrades

    def _held_effects(self) -> list[UpgradeEffect]:
        """The effects of Jessah's permanent upgrades, each once (a second copy
        of a card adds nothing), in the order she gained them."""
        cards = self.comps.upgrade_cards
        out: list[UpgradeEffect] = []
        for u in self.permanents:
            e = UPGRADE_EFFECTS[cards[u].effect]
            if e not in out:
                out.append(e)
        return out

    def _reveal_upgrades(self) -> None:
        while len(self.upgrades_face_up) < self.rules.upgrades_face_up and self.upgrade_deck:
            self.upgrades_face_up.append(self.upgrade_deck.pop())
        self._public_t = None

    def _s_upgrade(self, frame: GainUpgrade) -> Decision | None:
        if not self.upgrades_face_up:
            # R9: no upgrade left: 1 Security action, then 1 Movement action.
            self.stack.pop()
            self._seen("no_upgrade_left", JESSAH)
            if self.log is not None:
                self._event("no_upgrade_left")
            self._push_move(JESSAH, 1, 0)
            self.stack.append(JessahSecurity(JESSAH, 1))
            return None
        cards = self.comps.upgrade_cards
        opts: list[str] = []
        for u in self.upgrades_face_up:
            if cards[u].id not in opts:
                opts.append(cards[u].id)
        return Decision(frame.chooser, "upgrade", opts)

    def _a_upgrade(self, frame: GainUpgrade, opt: str) -> None:
        self.stack.pop()
        cards = self.comps.upgrade_cards
        chosen = next(u for u in self.upgrades_face_up if cards[u].id == opt)
        self.upgrades_face_up.remove(chosen)
        self.upgrades_gone.extend(self.upgrades_face_up)  # the other leaves the game
        self.upgrades_face_up = []
        self._reveal_upgrades()
        card = cards[chosen]
        self.upgrade_rounds.setdefault(card.id, self.round)
        if self.recording:
            self._seen("upgrade", frame.chooser, card.id, items=tuple([cards[u].id for u in self.upgrades_face_up]))
        if self.log is not None:
            self._event("upgrade", chooser=SEATS[frame.chooser], upgrade=card.id,
                        face_up=[cards[u].id for u in self.upgrades_face_up])
        if card.kind == "permanent":
            self.permanents.append(chosen)
        else:
            self.upgrades_gone.append(chosen)
        self._public_t = None
        UPGRADE_EFFECTS[card.effect].on_gain(self)

    def _s_draw(self, frame: Draw) -> None:
        self.stack.pop()
        self._draw(frame.seat, frame.n)

    def _a_never(self, frame: Frame, opt: Option) -> None:  # pragma: no cover
        raise AssertionError("this frame never asks")


def _offers(options: Any, option: Option) -> bool:
    """``option in options``: the very object among a list's items first
    (the options' shared tuples, ``_Options.canonical``), a comparison with
    each item only if it is not there (``in`` compares item by item until
    it meets one equal to it, itself included)."""
    if isinstance(options, list):
        for o in options:
            if o is option:
                return True
    return option in options


class _Options:
    """The movement options, built once per component set and handed out
    again (tuples: no strategy can change them): a step ``("move", city)``
    per route out of each city, in the order of ``comps.neighbours``, and
    the route it takes; the placements ``(value, card, half)`` of each token
    value (``placements``); and each action card's halves as (action, icons),
    read per performance (the component classes are not compiled: each field
    is a Python attribute lookup)."""

    __slots__ = ("comps", "steps", "step_routes", "halves", "move", "remove_radar", "remove_barrier", "_placements")

    # The options are typed Any: compiled code then hands the tuples on as
    # they are (a typed tuple read out of a list is unpacked to C values and
    # rebuilt where it is stored).
    def __init__(self, comps: Components) -> None:
        self.comps = comps
        self.move: list[Any] = [("move", c) for c in range(comps.n_cities)]
        self.steps: list[tuple[Any, ...]] = [tuple([self.move[c] for c, _ in nb]) for nb in comps.neighbours]
        self.step_routes: list[tuple[int, ...]] = [tuple([r for _, r in nb]) for nb in comps.neighbours]
        self.halves: list[tuple[tuple[int, int], ...]] = [tuple([(h.action, h.icons) for h in card])
                                                           for card in comps.cards]
        self.remove_radar: list[Any] = [("remove_radar", k) for k in range(comps.n_continents)]
        self.remove_barrier: list[Any] = [("remove_barrier", r) for r in range(len(comps.routes))]
        self._placements: dict[int, list[Any]] = {}

    def canonical(self, option: Option) -> Option:
        """The shared tuple equal to ``option`` (a placement, a step, a
        removal) if there is one, else ``option``: the options a decision
        offers are these shared tuples, so an answer is found among them by
        identity (``_offers``), not compared with each."""
        if type(option) is not tuple:
            return option
        if len(option) == 3:
            v, i, h = option[0], option[1], option[2]
            if type(v) is int and type(i) is int and type(h) is int and i >= 0 and (h == 0 or h == 1):
                row = self._placements.get(v)
                if row is not None and 2 * i + h < len(row):
                    return row[2 * i + h]
            return option
        if len(option) == 2:
            tag, x = option[0], option[1]
            if type(tag) is str and type(x) is int and x >= 0:
                table = self.move if tag == "move" else self.remove_radar if tag == "remove_radar" else \
                    self.remove_barrier if tag == "remove_barrier" else None
                if table is not None and x < len(table):
                    return table[x]
        return option

    def placements(self, v: int, n: int) -> list[Any]:
        """The placements of a token of value ``v`` on ``n`` cards, card by
        card, half 0 then 1 (index ``2 * card + half``), shared by every
        decision that offers them: a decision's options hold no tuple of
        their own to build and free."""
        row = self._placements.get(v)
        if row is None or len(row) < 2 * n:
            row = self._placements[v] = [(v, i, h) for i in range(n) for h in (0, 1)]
        return row


# The _Options of the component set of the last state that asked (a run's
# games share one set; Final: compiled code reads it as a constant).
_OPTIONS: Final[list[_Options]] = []


def _options(comps: Components) -> _Options:
    if _OPTIONS:
        t = _OPTIONS[0]
        if t.comps is comps:
            return t
        t = _OPTIONS[0] = _Options(comps)
        return t
    t = _Options(comps)
    _OPTIONS.append(t)
    return t


def _token_name(v: int) -> int | str:
    return "POW" if v == POW else v


def _handlers(name: str) -> tuple[Any, Any]:
    """The step and answer handlers of the frame kind ``name``: GameState's
    ``_s_<name>``/``_a_<name>``, or those of the one card that pushes it
    (registry.FRAME_HANDLERS, filled by engine/effects.py). A frame that never asks answers with _a_never."""
    step = getattr(GameState, f"_s_{name}", None)
    if step is not None:
        return step, getattr(GameState, f"_a_{name}", GameState._a_never)
    step, answer = FRAME_HANDLERS[name]
    return step, answer if answer is not None else GameState._a_never


# Final: compiled code reads them from a C static, not the module's dict.
_STEP: Final = tuple(_handlers(k.NAME)[0] for k in KINDS)
_ANSWER: Final = tuple(_handlers(k.NAME)[1] for k in KINDS)
# Decisions asked even with a single option (none today: a forced answer is
# applied by the engine and logged like any other).
_ALWAYS_ASK: frozenset[str] = frozenset()


def _mapped_identities(ident_map: tuple[int, ...], drawn: list[int], n_allowed: int,
                       rng: random.Random) -> list[int]:
    """The identities drawn from the original set, mapped into a set derived
    by the component knobs. An excluded identity is replaced by one drawn
    uniformly from the allowed ones not yet dealt (so the deal stays uniform
    over the allowed sets), from a stream derived from the chance stream's
    state without advancing it: the rest of the deal stays the original's."""
    kept = [ident_map[d] for d in drawn if ident_map[d] >= 0]
    missing = len(drawn) - len(kept)
    if missing:
        aux = random.Random(repr(rng.getstate()))
        kept += aux.sample([i for i in range(n_allowed) if i not in kept], missing)
    return kept
