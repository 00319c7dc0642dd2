"""Running rnsim as an unprivileged user (tests of permission errors run as
root, so they drop privileges with setpriv)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys

SETPRIV = ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "--inh-caps=-all", "--bounding-set=-all"]

REASON = "needs root, setpriv, and a checkout the unprivileged user can read (e.g. not cloned under a 0700 folder)"


@functools.cache
def unprivileged() -> list[str] | None:
    """The command prefix that runs as ``nobody``, or None where that cannot
    run rnsim: not root, no setpriv, or a checkout ``nobody`` cannot read."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return None
    probe = subprocess.run([*SETPRIV, sys.executable, "-c", "import rnsim"], capture_output=True)
    return SETPRIV if probe.returncode == 0 else None
