"""The event log as a readable narrative (`rnsim replay`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
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
    who = {0: "Angela", 1: "Jessah"}.get(e.seat, "")

    def city(c: int) -> str:
        return comps.cities[c] if c >= 0 else "a hidden city"

    def cont(k: int) -> str:
        return comps.continents[k].id if k >= 0 else "?"

    def chk(c: int) -> str:
        ch = comps.checks[c]
        return f"{comps.continents[ch.continent].colour} ${ch.value // 1000}k"

    def removed() -> str:
        return f"radar on {cont(e.continent)}" if e.name == "radar" else f"barrier on {comps.route_name(e.route)}"

    k = e.kind
    if k == "deal":
        return f"{who} is dealt {e.value} checks" + (f": {', '.join(chk(c) for c in e.items)}" if e.items else "")
    if k in ("jessah_start", "angela_start"):
        where = f"in {city(e.city)}" if e.city >= 0 else f"somewhere in {cont(e.continent)}"
        return f"{who} shows {with_article(chk(e.check))} check and starts {where}"
    if k in ("setup_radar", "radar", "black_radar"):
        return f"Jessah places a {'black ' if k == 'black_radar' else ''}radar on {cont(e.continent)}"
    if k == "round_start":
        return f"Round {e.round} starts, {who} has the initiative; cards {', '.join(str(c) for c in e.items)}"
    if k == "token_placed":
        value = "a face-down token" if e.value < 0 else f"token {'POW' if e.value >= 1000 else e.value}"
        return f"{who} places {value} on card {e.card + 1}, half {'ab'[e.half]}"
    if k == "card":
        tokens = ["-" if x is None else f"{('Angela', 'Jessah')[x[0]]} {'POW' if x[1] >= 1000 else x[1]}"
                  for x in e.items]
        return f"Card {e.card + 1} is revealed: {', '.join(tokens)}"
    if k == "draw":
        return f"{who} draws {e.value} check(s)" + (f": {', '.join(chk(c) for c in e.items)}" if e.items else "")
    if k == "joker":
        return f"{who} uses the joker as {e.name}"
    if k == "cash":
        return f"{who} cashes {with_article(chk(e.check))} check in {city(e.city)}"
    if k in ("barrier", "black_barrier"):
        return f"Jessah places a {'black ' if k == 'black_barrier' else ''}barrier on {comps.route_name(e.route)}"
    if k == "barrier_moved":
        return f"Jessah moves a barrier from {comps.route_name(e.from_route)} to {comps.route_name(e.route)}"
    if k in ("security_gain", "security_set"):
        return f"Angela's security is now {e.value}"
    if k == "security_spent":
        return f"Angela spends security to remove the {removed()}"
    if k in ("lawyer_discard", "black_removed"):
        return f"Angela removes the {removed()}"
    if k == "jessah_move":
        return f"Jessah moves to {city(e.city)}"
    if k == "inspect":
        return f"Jessah inspects {city(e.city)}: {'Angela is there' if e.found else 'nobody'}"
    if k == "angela_step":
        return f"Angela steps to {city(e.city)}"
    if k == "announce":
        trig = ", ".join(cont(t) + ("" if t_city < 0 else f" ({comps.cities[t_city]})") for t, t_city in e.items)
        what = f"{e.name} movement" if e.name else "movement"
        return f"Angela's {what} of up to {e.value} steps ends; radar triggers: {trig or 'none'}"
    if k == "capture":
        return f"Jessah captures Angela in {city(e.city)} (capture {e.value})"
    if k == "identity":
        return f"Angela burns her {e.name} identity"
    if k == "upgrade":
        return f"Jessah gains {e.name} (chosen by {who}); face up now: {', '.join(e.items) or 'none'}"
    if k == "upgrade_destroyed":
        return f"Angela destroys Jessah's {e.name}"
    if k == "no_upgrade_left":
        return "No upgrade left: Jessah gets a Security then a Movement action"
    if k == "wiretap":
        return f"Wiretap: Angela's hand is {', '.join(chk(c) for c in e.items) or 'empty'}"
    if k == "satellite_sweep":
        return f"Satellite Sweep: Angela is in {cont(e.continent)}"
    if k == "informant":
        return f"Informant on {city(e.city)}: {'there or next to it' if e.found else 'not there nor next to it'}"
    if k == "round_end":
        return f"Round {e.round} ends"
    return f"{k} {e}"
