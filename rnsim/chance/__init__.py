"""The games' chance draws (draws.py): random.Random's own draws, draw for
draw, without its Python-level frames, for every engine to share.

``NATIVE`` tells whether its mypyc-compiled build is in use (rnsim/compiled.py,
target ``chance``); the draws are the same either way. Selected here, before
anything imports draws.
"""

from rnsim.compiled import TARGETS

NATIVE = TARGETS["chance"].select()
