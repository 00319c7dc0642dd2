"""Red Notice's built-in strategies (random, rule-based, expert).

``NATIVE`` tells whether the mypyc-compiled build of the expert strategy is in
use (scripts/build_native.py), with the inner loops of Jessah's dossier
in C (``_dossier_core.c``); it plays identically either way.
"""

from rnsim_strategies.red_notice._native import select as _select

NATIVE = _select()
if NATIVE:  # the dossier's inner loops in C go with the compiled build
    from rnsim_strategies.red_notice import _dossier_core, dossier

    dossier.core = _dossier_core
