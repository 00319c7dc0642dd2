"""The FBI expert strategy's compiled build or its Python source (see
rnsim/compiled.py). Imported by the FBI strategies package first."""

from rnsim.compiled import TARGETS

BUILD = TARGETS["fbi-strategies"]


def select() -> bool:
    """``BUILD.select()``; with the compiled build, the model's flat play-outs
    and scores run in C (``_flat_core.c``, set as ``model.core``)."""
    if not BUILD.select():
        return False
    from rnsim_strategies.fbi import _flat_core, model

    # a 32-bit C long (WIDE 0) cannot hold the core's sums: the source answers
    model.core = _flat_core if _flat_core.WIDE else None
    return True
