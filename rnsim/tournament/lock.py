"""One invocation (one `rnsim run` command) at a time in a run directory.

Two ``rnsim run`` on the same directory would both play every missing game and
overwrite each other's manifest. The guard is an OS lock (``flock``) on a file
in the directory: the kernel drops it when its process ends, however it ends,
so a SIGKILLed run never leaves a stale lock. The file itself stays (removing
it would race with a process about to lock it); only the lock on it matters.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from rnsim.errors import RnsimError

LOCK = ".rnsim.lock"


class RunDirBusy(RnsimError):
    """Another live process holds the run directory."""


def _holder(path: Path) -> str:
    try:
        text = path.read_text(encoding="utf-8", errors="replace").strip()
    except OSError:
        return ""
    return f" ({text})" if text else ""


@contextmanager
def run_lock(run_dir: Path, what: str = "rnsim run") -> Iterator[None]:
    """Hold ``run_dir``'s lock for the body; raise RunDirBusy at once if another process
    holds it. Creates the directory when missing, and removes it again if the body fails
    and leaves nothing but the lock file in it (an error creates nothing)."""
    if run_dir.exists() and not run_dir.is_dir():
        raise RnsimError(f"run.out: {run_dir} exists and is not a directory")
    for parent in run_dir.parents:
        if parent.exists():
            if not parent.is_dir():
                raise RnsimError(f"run.out: {run_dir} is under {parent}, which is a file, not a folder")
            break
    created = not run_dir.exists()
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise RnsimError(f"run.out: cannot create {run_dir}: {e.strerror or e}") from None
    path = run_dir / LOCK
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        if created:
            run_dir.rmdir()
        raise RnsimError(f"run.out: cannot write in {run_dir}: {e.strerror or e}") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            raise RunDirBusy(
                f"run.out: {run_dir} is in use by another live invocation{_holder(path)}; wait for it to end "
                "(it is resumed by running the same command again) or choose another --out"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, f"{what}, pid {os.getpid()}, since {datetime.now(UTC).isoformat(timespec='seconds')}".encode())
        ok = False
        try:
            yield
            ok = True
        finally:
            if not ok and created and [p.name for p in run_dir.iterdir()] == [LOCK]:
                path.unlink()
                run_dir.rmdir()
    finally:
        os.close(fd)  # closing the last descriptor releases the lock
