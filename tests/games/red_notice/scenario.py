"""Rule cases as positions: build a game at a chosen decision from a compact,
rulebook-like description, then drive it with scripted answers.

    s = scenario(angela="Cape Town", radars="AF SA", then=[move("angela", 2)])
    play(s, "Santiago", "Caracas")
    assert announced(s) == ["SA"]

Everything goes through rnsim.games.red_notice.engine.position.load_position, so a scenario is
an ordinary saved position: whatever is not described gets a plain default
(checks not in a hand are in the deck, tokens not in hand are in the pool,
round 3 so the next round starts a fresh reset cycle).

Answers given to :func:`play` are written in the game's words and translated
to the engine's option encoding (rnsim/games/red_notice/engine/decision.py): a city name for a
movement step, ``"radar AF"``, ``"barrier Helsinki|Ulaanbaatar"``,
``"remove radar AF"``, ``"red 100k"`` for a check, an identity or upgrade id,
``(value, card, half)`` for a token with ``"POW"`` allowed. Anything else is
passed through unchanged.
"""

from __future__ import annotations

import random
from typing import Any

from rnsim.games.red_notice.engine import frames as fr
from rnsim.games.red_notice.engine.position import frame_fields, load_position
from rnsim.games.red_notice.engine.state import GameState
from rnsim.games.red_notice.rules.components import POW, Components
from rnsim.games.red_notice.rules.ruleset import RuleSet

SEAT = {"angela": 0, "jessah": 1}
CLASSIC = RuleSet()


# ------------------------------------------------------------- pending frames
# Each helper returns one frame of the engine's stack in position form, its
# fields given by name (rnsim/games/red_notice/engine/frames.py).


def frame(kind: str, **fields: Any) -> dict:
    return {"frame": kind, "fields": frame_fields(kind, **fields)}


def move(seat: str, steps: int, *, journalist: bool = False, escape: bool = False, card: bool = True) -> dict:
    """A movement of up to ``steps`` steps (a Movement action from a card by default)."""
    mode = (fr.M_CARD if card else 0) | (fr.M_JOURNALIST if journalist else 0) | (fr.M_ESCAPE if escape else 0)
    return frame("move", seat=SEAT[seat], left=steps, mode=mode, triggered=(), radars=None, belief=0, steps=steps)


def security(seat: str, icons: int) -> dict:
    return frame("a_security" if seat == "angela" else "j_security", seat=SEAT[seat], left=icons)


def check(seat: str, icons: int) -> dict:
    """A Check action of ``icons`` icons, none drawn yet (taken icon by icon, R26)."""
    return frame("check", seat=SEAT[seat], left=icons, drawn=0)


def bank(seat: str) -> dict:
    return frame("bank", seat=SEAT[seat])


def joker(seat: str) -> dict:
    return frame("joker", seat=SEAT[seat])


def upgrade(chooser: str) -> dict:
    """Jessah gains an upgrade, chosen by ``chooser`` (who cashed the $200k check)."""
    return frame("upgrade", chooser=SEAT[chooser])


def capture(city: str) -> dict:
    """Jessah has just found Angela in ``city``."""
    return frame("capture", city=CLASSIC.load_components().city(city))


# ------------------------------------------------------------------ positions


def chk(spec: str) -> dict[str, Any]:
    """``"red 100k"`` -> a check in position form."""
    colour, value = spec.split()
    return {"colour": colour, "value": int(value.rstrip("k")) * 1000}


def _tok(v: Any) -> Any:
    return "POW" if v == POW else v


def scenario(
    *,
    angela: str = "Cape Town",
    jessah: str = "Paris",
    radars: str | dict[str, str] = "",
    barriers: str | dict[str, str] = "",
    security: int = 2,
    identities: str = "journalist pilot",
    identities_down: str = "",
    captures: int = 0,
    angela_hand: tuple[str, ...] = (),
    jessah_hand: tuple[str, ...] = (),
    angela_cashed: tuple[str, ...] = (),
    jessah_cashed: tuple[str, ...] = (),
    check_deck: tuple[str, ...] | None = None,
    upgrades_face_up: str = "precise_radars wiretap",
    permanents: str = "",
    upgrades_gone: str | None = None,
    upgrade_deck: str | None = None,
    belief: str | list[str] | None = None,
    round: int = 3,
    initiative: str = "angela",
    cards: tuple[str, ...] | None = None,
    slots: list[list[Any]] | None = None,
    tokens: dict[str, list[Any]] | None = None,
    phase: str = "then",
    then: list[dict] | None = None,
    rules: RuleSet = CLASSIC,
    seed: int = 7,
) -> GameState:
    """A game at the first decision of ``then`` (frames in the order they run).

    ``phase="place"`` starts at token placement for ``cards`` with ``tokens``
    (per seat, the tokens in hand); ``phase="resolve"`` resolves ``cards`` with
    ``slots`` (per card ``[half 0, half 1]``, each ``None`` or ``("angela", 3)``).
    ``belief`` is the public belief as city names or ``"all"``; by default
    every city.
    """
    data = position_data(**locals())
    return load_position(data, rules=rules, log=True)


def position_data(**kw: Any) -> dict[str, Any]:
    """The position dict behind :func:`scenario` (same arguments)."""
    rules: RuleSet = kw["rules"]
    comps: Components = rules.load_components()

    def sided(x: str | dict[str, str], sep: str | None) -> dict[str, str]:
        # "AF SA" or "Helsinki|Ulaanbaatar, Los Angeles|Beijing": white side up;
        # a dict gives each token's side.
        if isinstance(x, dict):
            return dict(x)
        return {name.strip(): "white" for name in x.split(sep) if name.strip()}

    hands = [list(kw["angela_hand"]), list(kw["jessah_hand"])]
    cashed = [list(kw["angela_cashed"]), list(kw["jessah_cashed"])]
    every = [f"{comps.continents[c.continent].colour} {c.value // 1000}k" for c in comps.checks]
    for spec in [*hands[0], *hands[1], *cashed[0], *cashed[1]]:
        every.remove(spec)
    deck = list(kw["check_deck"]) if kw["check_deck"] is not None else every

    face_up = kw["upgrades_face_up"].split()
    perms = kw["permanents"].split()
    ups_left = [u.id for u in comps.upgrade_cards]
    for u in face_up + perms:
        ups_left.remove(u)
    if kw["upgrade_deck"] is not None:
        up_deck = kw["upgrade_deck"].split()
        for u in up_deck:
            ups_left.remove(u)
        gone = ups_left if kw["upgrades_gone"] is None else kw["upgrades_gone"].split()
    else:
        gone = [] if kw["upgrades_gone"] is None else kw["upgrades_gone"].split()
        for u in gone:
            ups_left.remove(u)
        up_deck = ups_left

    labels = [f"{a.label()}|{b.label()}" for a, b in comps.cards]
    round_cards = list(kw["cards"] or ())
    action_deck = list(labels)
    for c in round_cards:
        action_deck.remove(c)
    n = len(round_cards)
    raw_slots = kw["slots"] or [[None, None] for _ in range(n)]
    slots = [[None if x is None else {"seat": x[0], "value": _tok(x[1])} for x in pair] for pair in raw_slots]
    phase = kw["phase"]
    revealed = [False] * n
    tokens: dict[str, Any] = {}
    for name in ("angela", "jessah"):
        hand = [_tok(v) for v in (kw["tokens"] or {}).get(name, [])]
        on_board = [x["value"] for pair in slots for x in pair if x is not None and x["seat"] == name]
        pool = [_tok(v) for v in comps.tokens]
        for v in hand + on_board:
            pool.remove(v)
        tokens[name] = {"pool": pool, "hand": hand, "spent": []}

    belief = kw["belief"]
    if belief is None or belief == "all":
        belief_cities = list(comps.cities)
    elif isinstance(belief, str):
        belief_cities = [b.strip() for b in belief.split(",")]
    else:
        belief_cities = list(belief)

    if phase == "place":
        placed = sum(1 for pair in slots for x in pair if x is not None)
        stack = [frame("round", phase=fr.P_PLACE, next_card=0), frame("place", placed=placed)]
    elif phase == "resolve":
        stack = [frame("round", phase=fr.P_RESOLVE, next_card=0)]
    else:
        # After the scripted frames the round ends and play goes on normally.
        stack = [frame("round", phase=fr.P_RESOLVE, next_card=n), *reversed(kw["then"] or [])]
    return {
        "rules": rules.to_dict(),
        "seed": kw["seed"],
        "round": kw["round"],
        "initiative": kw["initiative"],
        "angela": {
            "city": kw["angela"], "hand": [chk(x) for x in hands[0]], "cashed": [chk(x) for x in cashed[0]],
            "security": kw["security"], "identities_up": kw["identities"].split(),
            "identities_down": kw["identities_down"].split(), "captures": kw["captures"],
            "burnt": kw["identities_down"].split(),
        },
        "jessah": {"city": kw["jessah"], "hand": [chk(x) for x in hands[1]], "cashed": [chk(x) for x in cashed[1]]},
        "board": {"radars": sided(kw["radars"], None), "barriers": sided(kw["barriers"], ",")},
        "check_deck": [chk(x) for x in deck],
        "upgrades": {"deck": up_deck, "face_up": face_up, "permanent": perms, "gone": gone},
        "action_cards": {"deck": action_deck, "round": round_cards, "slots": slots, "revealed": revealed},
        "tokens": tokens,
        "public": {"belief": belief_cities},
        "stack": stack,
        "rng": _rng_state(kw["seed"]),
    }


def _rng_state(seed: int) -> list[Any]:
    r = random.Random(seed)
    v, internal, gauss = r.getstate()
    return [v, list(internal), gauss]


# -------------------------------------------------------------------- driving


def option(state: GameState, answer: Any) -> Any:
    """Translate an answer in the game's words to the pending decision's option."""
    d = state.decision()
    comps = state.comps
    if d.kind == "place_token" and isinstance(answer, tuple):
        v, card, half = answer
        return (POW if v == "POW" else v, card, half)
    if not isinstance(answer, str):
        return answer
    words = answer.split()
    if d.kind in ("angela_move", "jessah_move", "informant") and answer in comps.city_index:
        c = comps.city_index[answer]
        return c if d.kind == "informant" else ("move", c)
    if words[0] == "remove" and len(words) >= 3:
        what = words[1]
        target = " ".join(words[2:])
        return (f"remove_{what}", comps.continent_of_id(target) if what == "radar" else comps.route(*target.split("|")))
    if d.kind == "jessah_security" and words[0] in ("radar", "barrier", "move"):
        if words[0] == "radar":
            return ("radar", comps.continent_of_id(words[1]))
        if words[0] == "barrier":
            return ("barrier", comps.route(*" ".join(words[1:]).split("|")))
        frm, to = " ".join(words[2:]).split(" to ")
        return ("move_barrier", comps.route(*frm.split("|")), comps.route(*to.split("|")))
    if d.kind in ("lawyer_radar", "remove_black_radar", "black_radar", "setup_radar"):
        return comps.continent_of_id(answer)
    if d.kind in ("lawyer_barrier", "remove_black_barrier", "black_barrier"):
        return comps.route(*answer.split("|"))
    if d.kind == "bank" and answer != "pass":
        want = chk(answer)
        for o in d.options:
            c = comps.checks[o] if isinstance(o, int) else None
            if c is not None and comps.continents[c.continent].colour == want["colour"] and c.value == want["value"]:
                return o
        raise AssertionError(f"no {answer} among the bank options {d.options}")
    return answer


def play(state: GameState, *answers: Any) -> None:
    """Answer the pending decisions in turn (each must be legal)."""
    for a in answers:
        assert not state.over, f"the game is over ({state.end_reason}) before answer {a!r}"
        state.apply(option(state, a))


def events(state: GameState, kind: str | None = None) -> list[dict]:
    log = state.log or []
    return [e for e in log if kind is None or e["t"] == kind]


def announced(state: GameState) -> list[str]:
    """The last radar announcement, as continent ids (with the city under Precise Radars)."""
    comps = state.comps
    return [comps.continents[k].id + ("" if c < 0 else f" {comps.cities[c]}") for k, c in state.last_announcement]


def belief_cities(state: GameState) -> set[str]:
    return {state.comps.cities[c] for c in range(state.comps.n_cities) if state.belief >> c & 1}


def city(state: GameState, name: str) -> int:
    return state.comps.city(name)


def kind(state: GameState) -> str:
    return state.decision().kind


def options(state: GameState) -> list[Any]:
    return list(state.decision().options)
