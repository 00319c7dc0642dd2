"""Red Notice's built-in strategies (random, rule-based, expert).

``NATIVE`` tells whether the mypyc-compiled build of the expert strategy is in
use (scripts/build_native.py); it plays identically either way.
"""

from rnsim_strategies.red_notice._native import select as _select

NATIVE = _select()
