"""The event log as a readable narrative (`rnsim replay`)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any


def narrate(events: Iterable[dict[str, Any]]) -> Iterator[str]:
    for e in events:
        t = e.get("t")
        fn = _LINES.get(str(t))
        yield fn(e) if fn else f"  [{t}] " + ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("t", "round"))


# Words that start with a vowel letter but a consonant sound ("a uniform",
# "a one-off", "a European"), and the reverse ("an hour"): component names are
# a designer's data, so the article is chosen from the word, not hard-coded.
_CONSONANT_SOUND = ("uni", "use", "usu", "uti", "one", "once", "eu", "ewe")
_VOWEL_SOUND = ("hour", "honest", "honour", "honor", "heir")


def with_article(phrase: str) -> str:
    """``phrase`` after "a" or "an", as its first word is spoken:
    "an orange $100k", "a red $200k", "a uniform", "an hour"."""
    word = phrase.lstrip().lower()
    vowel = word[:1] in ("a", "e", "i", "o", "u")
    if vowel and word.startswith(_CONSONANT_SOUND):
        vowel = False
    elif not vowel and word.startswith(_VOWEL_SOUND):
        vowel = True
    return f"{'an' if vowel else 'a'} {phrase}"


def _who(e: dict[str, Any]) -> str:
    return {"angela": "Angela", "jessah": "Jessah"}.get(e.get("seat", ""), str(e.get("seat")))


_LINES = {
    "setup": lambda e: f"Setup: Angela's identities are {', '.join(e['identities'])}; "
    f"upgrades on offer: {', '.join(e['upgrades_face_up'])}.",
    "jessah_start": lambda e: f"Jessah shows {with_article(e['shown'])} check and starts in {e['city']}.",
    "setup_radar": lambda e: f"Jessah places a radar on {e['continent']}.",
    "angela_start": lambda e: f"Angela shows {with_article(e['shown'])} check: she starts somewhere in {e['continent']} "
    f"(secretly {e['city']}).",
    "round_start": lambda e: f"\n== Round {e['round']} ({e['initiative']} has the initiative) == cards: "
    + "  ".join("|".join(c) for c in e["cards"]),
    "token_placed": lambda e: f"  {_who(e)} places a token ({e['value']}) on card {e['card'] + 1}, half {'ab'[e['half']]}.",
    "card": lambda e: f" Card {e['card'] + 1}: "
    + ("no tokens." if not e["tokens"] else "tokens " + ", ".join(
        "-" if x is None else f"{x[0]} {x[1]}" for x in e["tokens"])),
    "draw": lambda e: f"  {_who(e)} draws {e['n']} check(s).",
    "joker": lambda e: f"  {_who(e)} uses the joker as {e['choice']}.",
    "cash": lambda e: f"  {_who(e)} cashes {with_article(e['check'])} check in {e['city']}.",
    "radar": lambda e: f"  Jessah places a radar on {e['continent']}.",
    "barrier": lambda e: f"  Jessah places a barrier on {e['route']}.",
    "barrier_moved": lambda e: f"  Jessah moves a barrier from {e['frm']} to {e['to']}.",
    "security_gain": lambda e: f"  Angela's security rises to {e['security']}.",
    "security_spent": lambda e: f"  Angela spends security to remove the {e['removed']} on "
    f"{e.get('continent') or e.get('route')}.",
    "jessah_move": lambda e: f"  Jessah moves to {e['to']}.",
    "inspect": lambda e: f"  Jessah inspects {e['city']}: " + ("ANGELA IS THERE!" if e["found"] else "nobody."),
    "angela_step": lambda e: f"  (Angela, hidden: steps to {e['to']})",
    "announce": lambda e: "  Angela announces radar triggers: " + (", ".join(e["triggers"]) or "none") + ".",
    "capture": lambda e: f"  CAPTURE in {e['city']} (capture {e['captures']}).",
    "identity": lambda e: f"  Angela burns her {e['identity']} identity to escape.",
    "upgrade": lambda e: f"  Jessah gains the {e['upgrade']} upgrade (chosen by {e['chooser']}).",
    "no_upgrade_left": lambda e: "  No upgrade left: Jessah gains 1 Security and 1 Movement.",
    "wiretap": lambda e: f"  Wiretap: Angela's hand is {', '.join(e['hand']) or 'empty'}.",
    "satellite_sweep": lambda e: f"  Satellite Sweep: Angela is in {e['continent']}.",
    "informant": lambda e: f"  Informant on {e['city']}: " + ("yes, there or next to it." if e["answer"] else "no."),
    "round_end": lambda e: f" End of round {e['round']}: cashed ${e['cashed'][0]:,} / ${e['cashed'][1]:,}, "
    f"captures {e['captures']}.",
    "game_end": lambda e: f"\nGAME OVER in round {e['round']}: "
    + (f"{e['winner']} wins ({e['reason']})." if e["winner"] else f"no winner ({e['reason']})."),
}


# ------------------------------------------------- one seat's history, in words


def describe(e: Any, comps: Any) -> str:
    """One event of ``View.history`` (engine/history.Event) as a line of text,
    as the seat that holds it saw it: what was hidden from it reads
    "a hidden ..." (for debugging a strategy: what did it know?)."""
    line = _SEEN.get(e.kind)
    return f"{e.kind} {e}" if line is None else line(e, _Words(e, comps))


class _Words:
    """How one event's cities, continents, checks and seat read."""

    def __init__(self, e: Any, comps: Any) -> None:
        self.e, self.comps = e, comps
        self.who = {0: "Angela", 1: "Jessah"}.get(e.seat, "")

    def city(self, c: int) -> str:
        return self.comps.cities[c] if c >= 0 else "a hidden city"

    def cont(self, k: int) -> str:
        return self.comps.continents[k].id if k >= 0 else "?"

    def chk(self, c: int) -> str:
        ch = self.comps.checks[c]
        return f"{self.comps.continents[ch.continent].colour} ${ch.value // 1000}k"

    def checks(self, items: Any) -> str:
        return ", ".join(self.chk(c) for c in items)

    def route(self, r: int) -> str:
        return str(self.comps.route_name(r))

    def removed(self) -> str:
        e = self.e
        return f"radar on {self.cont(e.continent)}" if e.name == "radar" else f"barrier on {self.route(e.route)}"


def _token(v: int) -> str:
    return "POW" if v >= 1000 else str(v)


def _start(e: Any, w: _Words) -> str:
    where = f"in {w.city(e.city)}" if e.city >= 0 else f"somewhere in {w.cont(e.continent)}"
    return f"{w.who} shows {with_article(w.chk(e.check))} check and starts {where}"


def _announce(e: Any, w: _Words) -> str:
    trig = ", ".join(w.cont(t) + ("" if t_city < 0 else f" ({w.comps.cities[t_city]})") for t, t_city in e.items)
    what = f"{e.name} movement" if e.name else "movement"
    return f"Angela's {what} of up to {e.value} steps ends; radar triggers: {trig or 'none'}"


def _card(e: Any, w: _Words) -> str:
    tokens = ["-" if x is None else f"{('Angela', 'Jessah')[x[0]]} {_token(x[1])}" for x in e.items]
    return f"Card {e.card + 1} is revealed: {', '.join(tokens)}"


def _radar(e: Any, w: _Words) -> str:
    return f"Jessah places a {'black ' if e.kind == 'black_radar' else ''}radar on {w.cont(e.continent)}"


def _barrier(e: Any, w: _Words) -> str:
    return f"Jessah places a {'black ' if e.kind == 'black_barrier' else ''}barrier on {w.route(e.route)}"


#: each event kind as the seat that holds it reads it
_SEEN: dict[str, Callable[[Any, _Words], str]] = {
    "deal": lambda e, w: f"{w.who} is dealt {e.value} checks" + (f": {w.checks(e.items)}" if e.items else ""),
    "jessah_start": _start,
    "angela_start": _start,
    "setup_radar": _radar,
    "radar": _radar,
    "black_radar": _radar,
    "round_start": lambda e, w: (f"Round {e.round} starts, {w.who} has the initiative; "
                                 f"cards {', '.join(str(c) for c in e.items)}"),
    "token_placed": lambda e, w: (f"{w.who} places {'a face-down token' if e.value < 0 else f'token {_token(e.value)}'}"
                                  f" on card {e.card + 1}, half {'ab'[e.half]}"),
    "card": _card,
    "draw": lambda e, w: f"{w.who} draws {e.value} check(s)" + (f": {w.checks(e.items)}" if e.items else ""),
    "joker": lambda e, w: f"{w.who} uses the joker as {e.name}",
    "cash": lambda e, w: f"{w.who} cashes {with_article(w.chk(e.check))} check in {w.city(e.city)}",
    "barrier": _barrier,
    "black_barrier": _barrier,
    "barrier_moved": lambda e, w: f"Jessah moves a barrier from {w.route(e.from_route)} to {w.route(e.route)}",
    "security_gain": lambda e, w: f"Angela's security is now {e.value}",
    "security_set": lambda e, w: f"Angela's security is now {e.value}",
    "security_spent": lambda e, w: f"Angela spends security to remove the {w.removed()}",
    "lawyer_discard": lambda e, w: f"Angela removes the {w.removed()}",
    "black_removed": lambda e, w: f"Angela removes the {w.removed()}",
    "jessah_move": lambda e, w: f"Jessah moves to {w.city(e.city)}",
    "inspect": lambda e, w: f"Jessah inspects {w.city(e.city)}: {'Angela is there' if e.found else 'nobody'}",
    "angela_step": lambda e, w: f"Angela steps to {w.city(e.city)}",
    "announce": _announce,
    "capture": lambda e, w: f"Jessah captures Angela in {w.city(e.city)} (capture {e.value})",
    "identity": lambda e, w: f"Angela burns her {e.name} identity",
    "upgrade": lambda e, w: f"Jessah gains {e.name} (chosen by {w.who}); face up now: {', '.join(e.items) or 'none'}",
    "upgrade_destroyed": lambda e, w: f"Angela destroys Jessah's {e.name}",
    "no_upgrade_left": lambda e, w: "No upgrade left: Jessah gets a Security then a Movement action",
    "wiretap": lambda e, w: f"Wiretap: Angela's hand is {w.checks(e.items) or 'empty'}",
    "satellite_sweep": lambda e, w: f"Satellite Sweep: Angela is in {w.cont(e.continent)}",
    "informant": lambda e, w: (f"Informant on {w.city(e.city)}: "
                               f"{'there or next to it' if e.found else 'not there nor next to it'}"),
    "round_end": lambda e, w: f"Round {e.round} ends",
}
