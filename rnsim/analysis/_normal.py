"""scipy.stats.norm, imported when first used: importing scipy.stats takes
most of a second, which every `rnsim` command would pay at start-up
(`rnsim --version` included) while most never compute a normal quantile."""

from __future__ import annotations

from typing import Any


class _Norm:
    def __getattr__(self, name: str) -> Any:
        from scipy.stats import norm as scipy_norm

        return getattr(scipy_norm, name)


#: stands in for ``scipy.stats.norm`` (``norm.ppf``, ``norm.sf``, ...)
norm = _Norm()
