"""An FBI event log as a readable narrative."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any


def narrate(events: Iterable[Mapping[str, Any]]) -> Iterator[str]:
    for e in events:
        t = str(e.get("t"))
        fn = _LINES.get(t)
        yield fn(e) if fn else f"  [{t}] " + ", ".join(f"{k}={v}" for k, v in e.items() if k not in ("t", "turn"))


def _who(name: Any) -> str:
    return str(name).capitalize()


def _end(e: Mapping[str, Any]) -> str:
    scores = ", ".join(f"{_who(s)} {v}" for s, v in e["scores"].items())
    bonus = ", ".join(f"{c} to {_who(s)}" for c, s in e["bonus"].items() if s) or "none"
    w = e["winners"]
    verdict = f"{_who(w[0])} wins." if len(w) == 1 else "shared win: " + ", ".join(_who(s) for s in w) + "."
    return f"\nGAME OVER after turn {e['turn']}. Bonus cards: {bonus}. Scores: {scores}. {verdict}"


_LINES = {
    "setup": lambda e: "Setup: purple villains " + ", ".join(
        f"{_who(n)} {c.split()[1]}" for n, c in zip(("ann", "bert", "chris", "donna", "emil"), e["purple"], strict=False)
    ) + f"; {_who(e['handcuffs'])} has the highest and takes the handcuffs.",
    "turn": lambda e: f"\n== Turn {e['turn']} == {_who(e['handcuffs'])} holds the handcuffs. Placed: "
    + ", ".join(e["placed"]) + f". Deck: {e['deck']} left" + (" (last turn)." if e["last"] else "."),
    "bid": lambda e: f"  {_who(e['seat'])} moves " + (e["card"] if e["card"] else "no card") + " to the centre.",
    "order": lambda e: "  Order of arrests: " + ", ".join(_who(s) for s in e["order"]) + ".",
    "agents": lambda e: f"  ({_who(e['seat'])} secretly picks {' + '.join(e['agents'])}.)",
    "arrest": lambda e: f"  {_who(e['seat'])} plays {e['agent']}: "
    + (f"arrests {e['card']}." if e["card"] else "nobody to arrest (pass)."),
    "end": _end,
}
