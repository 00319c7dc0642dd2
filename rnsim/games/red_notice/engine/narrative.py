"""The event log as a readable narrative (`rnsim replay`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any


def narrate(events: Iterable[dict[str, Any]]) -> Iterator[str]:
    for e in events:
        t = e.get("t")
        fn = _LINES.get(str(t))
        yield fn(e) if fn else f"  [{t}] " + ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("t", "round"))


def _who(e: dict[str, Any]) -> str:
    return {"angela": "Angela", "jessah": "Jessah"}.get(e.get("seat", ""), str(e.get("seat")))


_LINES = {
    "setup": lambda e: f"Setup: Angela's identities are {', '.join(e['identities'])}; "
    f"upgrades on offer: {', '.join(e['upgrades_face_up'])}.",
    "jessah_start": lambda e: f"Jessah shows a {e['shown']} check and starts in {e['city']}.",
    "setup_radar": lambda e: f"Jessah places a radar on {e['continent']}.",
    "angela_start": lambda e: f"Angela shows a {e['shown']} check: she starts somewhere in {e['continent']} "
    f"(secretly {e['city']}).",
    "round_start": lambda e: f"\n== Round {e['round']} ({e['initiative']} has the initiative) == cards: "
    + "  ".join("|".join(c) for c in e["cards"]),
    "token_placed": lambda e: f"  {_who(e)} places a token ({e['value']}) on card {e['card'] + 1}, half {'ab'[e['half']]}.",
    "card": lambda e: f" Card {e['card'] + 1}: "
    + ("no tokens." if not e["tokens"] else "tokens " + ", ".join(
        "-" if x is None else f"{x[0]} {x[1]}" for x in e["tokens"])),
    "draw": lambda e: f"  {_who(e)} draws {e['n']} check(s).",
    "joker": lambda e: f"  {_who(e)} uses the joker as {e['choice']}.",
    "cash": lambda e: f"  {_who(e)} cashes a {e['check']} check in {e['city']}.",
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
