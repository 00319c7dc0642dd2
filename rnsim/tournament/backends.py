"""Where chunks are played. A backend takes the plan and the chunks still to
play and hands every finished :class:`ChunkOutput` to ``on_result`` in the
parent process, in any order. Results never depend on the backend.

Backends are registered by name -> "module:Class" so optional ones (a cluster
backend such as ``ray``) import their dependencies only when chosen.
"""

from __future__ import annotations

import importlib
import signal
import sys
import traceback
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from rnsim.errors import ConfigError, RnsimError
from rnsim.tournament.backend_registry import BACKENDS, backend_missing
from rnsim.tournament.schedule import Chunk
from rnsim.tournament.worker import ChunkOutput, Plan, WorkerState, play_chunk

__all__ = ["BACKENDS", "Backend", "Pool", "ProcessBackend", "RunnerError", "SerialBackend", "Terminated", "get_backend",
           "open_pool", "spawn_worker"]

# A chunk whose worker dies this many times is not tried again: the run stops
# (resumable) and names the chunk, rather than looping forever.
MAX_ATTEMPTS = 3


class Terminated(KeyboardInterrupt):
    """SIGTERM, handled like Ctrl-C (stop, keep every finished shard), but told
    apart from it: the command exits 143 for SIGTERM, 130 for Ctrl-C."""


class RunnerError(RnsimError):
    """The run cannot go on (a worker cannot start, or a chunk keeps killing workers)."""


class Backend(Protocol):
    name: str

    def __init__(self, workers: int) -> None: ...

    def run(self, plan: Plan, chunks: Sequence[Chunk], on_result: Callable[[ChunkOutput], None]) -> None: ...


def get_backend(name: str, workers: int, address: str | None = None) -> Backend:
    """The backend ``name``; ``address`` (a cluster to connect to) only for cluster backends.
    Raises ConfigError when the backend's optional extra is not installed."""
    ref = BACKENDS.get(name)
    if ref is None:
        raise ConfigError(f"unknown backend {name!r}; backends: {', '.join(BACKENDS)}")
    missing = backend_missing(name)
    if missing:
        raise ConfigError(missing)
    mod, _, cls = ref.partition(":")
    factory = getattr(importlib.import_module(mod), cls)
    backend: Backend = factory(workers, address=address) if address is not None else factory(workers)
    return backend


class Pool:
    """A backend kept open for several batches of chunks (the drift gate's many
    small batches, the ladder): workers start once, not once per batch.
    Backends with ``open``/``play``/``close`` keep their workers; any other
    backend (a cluster) plays each batch as one ``run``. Every path plays the
    same chunks with ``play_chunk``, so results never depend on it."""

    def __init__(self, backend: Backend, plan: Plan) -> None:
        self.backend: Any = backend
        self.plan = plan
        opener = getattr(backend, "open", None)
        self._open = opener is not None
        if opener is not None:
            opener(plan)

    def play(self, chunks: Sequence[Chunk], on_result: Callable[[ChunkOutput], None]) -> None:
        if not chunks:
            return
        if self._open:
            self.backend.play(chunks, on_result)
        else:
            self.backend.run(self.plan, chunks, on_result)

    def close(self) -> None:
        if self._open:
            self.backend.close()
            self._open = False

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def open_pool(plan: Plan, name: str, workers: int, address: str | None = None) -> Pool:
    """Backend ``name`` with ``workers`` workers, open for ``plan`` until closed."""
    return Pool(get_backend(name, workers, address), plan)


class SerialBackend:
    """Every chunk in this process, in order: for debugging and profiling."""

    name = "serial"

    def __init__(self, workers: int = 1) -> None:
        self.workers = 1
        self._state: WorkerState | None = None

    def open(self, plan: Plan) -> None:
        self._state = WorkerState(plan)

    def play(self, chunks: Sequence[Chunk], on_result: Callable[[ChunkOutput], None]) -> None:
        assert self._state is not None, "open() first"
        for c in chunks:
            on_result(play_chunk(self._state, c))

    def close(self) -> None:
        self._state = None

    def run(self, plan: Plan, chunks: Sequence[Chunk], on_result: Callable[[ChunkOutput], None]) -> None:
        self.open(plan)
        try:
            self.play(chunks, on_result)
        finally:
            self.close()


def _worker_main(conn: Any, plan: Plan) -> None:
    # Ctrl-C goes to the whole process group; the parent decides what to do.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        ws = WorkerState(plan)
    except BaseException:
        conn.send(("fatal", None, traceback.format_exc()))
        return
    conn.send(("ready",))
    while True:
        try:
            chunk = conn.recv()
        except (EOFError, OSError):  # the parent is gone
            return
        if chunk is None:
            return
        try:
            out = play_chunk(ws, chunk)
        except BaseException:
            conn.send(("fatal", chunk, traceback.format_exc()))
            return
        try:
            conn.send(("done", out))
        except (BrokenPipeError, OSError):
            return


def _needs_main(plan: Plan) -> bool:
    return any(s.ref.startswith("__main__:") for specs in plan.strategies for s in specs)


@contextmanager
def _main_module_hidden(hide: bool) -> Iterator[None]:
    """Start workers without re-running the parent's main module.

    A spawned child normally imports the parent's ``__main__`` again: for the
    ``rnsim`` CLI that is every command's imports (scipy, matplotlib: about a
    second and 70 MB per worker) and for a script without an
    ``if __name__ == "__main__":`` guard it is a crash. Workers need only
    rnsim's code and the strategies' modules, which they import by reference,
    so the main module is hidden while the child's start-up data is taken
    (as multiprocessing does for an interactive session). Kept when a strategy
    lives in ``__main__``."""
    main = sys.modules.get("__main__")
    if not hide or main is None:
        yield
        return
    saved: dict[str, Any] = {k: main.__dict__[k] for k in ("__spec__", "__file__") if k in main.__dict__}
    main.__dict__["__spec__"] = None
    main.__dict__.pop("__file__", None)
    try:
        yield
    finally:
        main.__dict__.pop("__spec__", None)
        main.__dict__.update(saved)


def spawn_worker(ctx: Any, target: Callable[[Any, Plan], None], plan: Plan) -> tuple[Any, Any]:
    """A started worker process running ``target(conn, plan)`` and the
    parent's end of its pipe: spawned from ``ctx`` with the parent's main
    module hidden (unless a strategy lives in it), as every worker of the
    process backend is."""
    parent_end, child_end = ctx.Pipe()
    p = ctx.Process(target=target, args=(child_end, plan), daemon=True)
    with _main_module_hidden(not _needs_main(plan)):
        p.start()
    child_end.close()
    return p, parent_end


class _Slot:
    __slots__ = ("proc", "conn", "chunk", "retired", "ready")

    def __init__(self, proc: Any, conn: Any) -> None:
        self.proc = proc
        self.conn = conn
        self.chunk: Chunk | None = None
        self.retired = False
        self.ready = False


def _feed(s: _Slot, pending: deque[Chunk]) -> None:
    """Hands an idle worker the next chunk of the queue, if any."""
    if pending and s.chunk is None:
        s.chunk = pending.popleft()
        try:
            s.conn.send(s.chunk)
        except OSError:
            pass  # the worker is gone: its sentinel fires and the chunk goes back to the queue


def _handle(s: _Slot, msg: Any, pending: deque[Chunk], on_result: Callable[[ChunkOutput], None]) -> None:
    """One message of a worker: ready, failed (stops the run), or a chunk's
    result (the worker gets its next chunk before the result is written)."""
    if msg[0] == "ready":
        s.ready = True
        return
    if msg[0] == "fatal":
        where = f" in chunk {msg[1].name}" if msg[1] is not None else " while starting"
        raise RunnerError(f"a worker failed{where}:\n{msg[2]}")
    out: ChunkOutput = msg[1]
    s.chunk = None
    _feed(s, pending)  # keep the worker busy while the parent writes the shard
    on_result(out)


def _collect(s: _Slot, ready: set[Any], pending: deque[Chunk], on_result: Callable[[ChunkOutput], None]) -> bool:
    """Handles what worker ``s`` has sent, when ``wait`` found its pipe or its
    sentinel ready; True when it died."""
    alive_msg = s.conn in ready
    died = s.proc.sentinel in ready
    if alive_msg or died:
        # A result may sit in the pipe of a worker that died just after sending it.
        while s.chunk is not None:
            try:
                if not s.conn.poll():
                    break
                msg = s.conn.recv()
            except (EOFError, OSError):
                died = True
                break
            # Outside the try: an error of the parent's own (writing the shard in
            # on_result) is not the worker's death and must stop the run, not replay.
            _handle(s, msg, pending, on_result)
    return died


class ProcessBackend:
    """A pool of ``workers`` processes (multiprocess, spawn start), one chunk in
    flight per worker. A worker that dies (crash, os._exit, SIGKILL) is
    replaced and its chunk played again. ``open``/``play``/``close`` keep the
    workers across batches; ``run`` is one batch."""

    name = "process"

    def __init__(self, workers: int) -> None:
        self.workers = workers
        self.replaced = 0
        self._plan: Plan | None = None
        self._ctx: Any = None
        self._slots: list[_Slot] = []
        self._start_failures = 0

    def run(self, plan: Plan, chunks: Sequence[Chunk], on_result: Callable[[ChunkOutput], None]) -> None:
        self.open(plan)
        try:
            self.play(chunks, on_result)
        finally:
            self.close()

    def open(self, plan: Plan) -> None:
        import multiprocess as mp

        # spawn, not fork: the parent has Polars' thread pool running, and a
        # forked child of a threaded process can deadlock.
        self._ctx = mp.get_context("spawn")
        self._plan = plan
        self._slots = []
        self._start_failures = 0

    def _start(self) -> _Slot:
        assert self._plan is not None, "open() first"
        return _Slot(*spawn_worker(self._ctx, _worker_main, self._plan))

    def play(self, chunks: Sequence[Chunk], on_result: Callable[[ChunkOutput], None]) -> None:
        from multiprocess.connection import wait

        pending: deque[Chunk] = deque(chunks)
        attempts: dict[Chunk, int] = {}
        # workers kept from the previous batch, if still alive; new ones up to the need
        slots = self._slots = [s for s in self._slots if not s.retired and s.proc.is_alive()]
        for _ in range(min(self.workers, len(pending)) - len(slots)):
            slots.append(self._start())
        for s in slots:
            _feed(s, pending)
        while any(s.chunk is not None for s in slots):
            live = [s for s in slots if not s.retired]
            ready = set(wait([s.conn for s in live if s.chunk is not None] + [s.proc.sentinel for s in live]))
            for n, s in enumerate(slots):
                if s.retired:
                    continue
                died = _collect(s, ready, pending, on_result)
                if died or not s.proc.is_alive():
                    if s.chunk is None and not pending:
                        s.retired = True  # nothing left for it to do
                        continue
                    self._replace(n, pending, attempts)

    def _replace(self, n: int, pending: deque[Chunk], attempts: dict[Chunk, int]) -> None:
        """Worker ``n`` is dead: its chunk goes back to the front of the queue
        and a new worker takes its place. A chunk that has killed its worker
        ``MAX_ATTEMPTS`` times, or workers that keep dying before they are
        ready, stop the run."""
        s = self._slots[n]
        lost = s.chunk
        s.conn.close()
        s.proc.join(timeout=1)
        if not s.ready:
            self._start_failures += 1
            if self._start_failures >= MAX_ATTEMPTS:
                raise RunnerError(
                    f"worker processes die while starting (exit code {s.proc.exitcode}). Workers are "
                    "started with 'spawn', which imports the main module again: a script that "
                    "starts a run must do so under `if __name__ == \"__main__\":`"
                )
        if lost is not None and s.ready:
            attempts[lost] = attempts.get(lost, 0) + 1
            if attempts[lost] >= MAX_ATTEMPTS:
                raise RunnerError(
                    f"chunk {lost.name} (cell {lost.cell}, games {lost.start}..{lost.stop - 1}) "
                    f"killed its worker {MAX_ATTEMPTS} times (exit code {s.proc.exitcode}); "
                    "run it with backend = \"serial\" to debug"
                )
        if lost is not None:
            pending.appendleft(lost)
        self.replaced += 1
        self._slots[n] = self._start()
        _feed(self._slots[n], pending)

    def close(self) -> None:
        slots, self._slots = self._slots, []
        for s in slots:
            try:
                s.conn.send(None)
            except (OSError, ValueError):
                pass
        for s in slots:
            s.proc.join(timeout=2)
            if s.proc.is_alive():
                s.proc.terminate()
                s.proc.join(timeout=2)
            try:
                s.conn.close()
            except OSError:
                pass
