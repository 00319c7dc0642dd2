"""The registry of tournament backends: name -> "module:Class", and the
optional distribution each needs. A leaf module (it imports nothing of
rnsim's), so the config can validate a backend name without importing the
backends, the worker or the games they play."""

from __future__ import annotations

import importlib.util

#: backend name -> "module:Class" (imported only when chosen)
BACKENDS: dict[str, str] = {
    "process": "rnsim.tournament.backends:ProcessBackend",
    "serial": "rnsim.tournament.backends:SerialBackend",
    "ray": "rnsim.tournament.ray_backend:RayBackend",
}

#: backend name -> (module it needs, how to install it)
REQUIRES: dict[str, tuple[str, str]] = {
    "ray": ("ray", "pip install 'rnsim[ray]'"),
}


def backend_missing(name: str) -> str | None:
    """Why backend ``name`` cannot run here (its extra is not installed), or None."""
    need = REQUIRES.get(name)
    if need is None:
        return None
    module, hint = need
    if importlib.util.find_spec(module) is None:
        return f"backend {name!r} needs the {module} extra, which is not installed: {hint}"
    return None
