"""Built-in FBI strategies: random, rule, expert (any seat, any player count).

``NATIVE`` tells whether the mypyc-compiled build of the expert (model,
expert) is in use (scripts/build_native.py); it plays identically either way.
"""

from rnsim_strategies.fbi._native import select as _select

NATIVE = _select()
