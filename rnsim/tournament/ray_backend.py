"""The ``ray`` backend: the same chunks as the process backend, played on a Ray
cluster (an existing one, or a local one started for the run).

Semantics are the process backend's: a chunk is a remote task that returns the
chunk's Parquet bytes; the driver receives finished chunks as they complete
(``ray.wait``) and hands them to ``on_result``, which writes the shards, so
resume, progress and results are unchanged. The plan is shipped once
(``ray.put``); each Ray worker process builds its :class:`WorkerState` on its
first chunk and keeps it for every later chunk of the run, which costs what an
actor pool would without losing Ray's task retries.

A task whose worker process or node dies is retried by Ray (``max_retries``);
an exception raised by a chunk is not retried (a game that raises is already an
error row, so a raising chunk is a bug that would raise again) and stops the
run, resumable, like the process backend.

Every node must run the driver's rnsim: the first chunk on each worker checks
the rnsim version, a hash of its game code and of the strategies' modules,
and the rules hash of every variant against the driver's, and fails with a
message naming the node when they differ.

``ray`` is imported only when this backend is chosen (``pip install 'rnsim[ray]'``).
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import inspect
import logging
import os
import signal
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from rnsim.errors import ConfigError, RnsimError
from rnsim.tournament.backends import MAX_ATTEMPTS, RunnerError, Terminated
from rnsim.tournament.schedule import Chunk
from rnsim.tournament.worker import ChunkOutput, Plan, WorkerState, play_chunk

INSTALL_HINT = "pip install 'rnsim[ray]'"
MISSING_MESSAGE = f"backend 'ray' needs the ray extra, which is not installed: {INSTALL_HINT}"

# Tasks in flight per cluster CPU: enough that a CPU never waits for the
# driver, few enough that Ctrl-C cancels little and results do not pile up in
# the object store.
INFLIGHT_PER_CPU = 2
# How often the driver re-reads the cluster's CPU count to size the above.
RESIZE_SECONDS = 10.0


def ray_installed() -> bool:
    try:
        import_ray()
    except ConfigError:
        return False
    return True


def import_ray() -> Any:
    """The ``ray`` module, or a ConfigError with the install command."""
    try:
        import ray
    except ImportError:
        raise ConfigError(MISSING_MESSAGE) from None
    return ray


class ClusterMismatch(RnsimError):
    """A Ray worker runs a different rnsim, strategy code or component data than the driver."""


# ------------------------------------------------------------ code fingerprint


def _hash_files(h: Any, root: Path, files: Sequence[Path]) -> None:
    for f in files:
        h.update(f.relative_to(root).as_posix().encode())
        h.update(b"\0")
        h.update(f.read_bytes())
        h.update(b"\0")


# What a game's row depends on, under rnsim/: the engine and rules, play,
# seeding, the strategy base class and the worker that builds the rows. (Not
# analysis, report or CLI code, which a node never runs for a chunk.)
GAME_CODE = ("engine", "rules", "play.py", "seeding.py", "strategy.py", "errors.py",
             "tournament/worker.py", "tournament/shards.py", "tournament/schedule.py")


def _rnsim_source_hash() -> str:
    import rnsim

    root = Path(inspect.getfile(rnsim)).parent
    files: list[Path] = []
    for part in GAME_CODE:
        p = root / part
        if p.is_dir():
            files.extend(sorted(x for x in p.rglob("*.py") if "__pycache__" not in x.parts))
        elif p.is_file():
            files.append(p)
    h = hashlib.sha256()
    _hash_files(h, root, files)
    return h.hexdigest()[:16]


def _source_file(module: Any) -> Path:
    """The Python source of a module, also when a compiled build (mypyc .so)
    is what was imported: nodes that compiled the same source separately
    produce different binaries but play identical games. Found from the
    module's name under its top-level package (a compiled module's __file__
    is not always where the binary lies)."""
    name = module.__name__
    top = importlib.import_module(name.partition(".")[0])
    if hasattr(top, "__path__"):
        base = Path(inspect.getfile(top)).parent
        parts = name.split(".")[1:]
        source = base.joinpath(*parts).with_suffix(".py") if parts else base / "__init__.py"
        if source.is_file():
            return source
    return Path(inspect.getfile(module))


def _strategy_source_hash(ref: str, game: str | None = None) -> str:
    """Hash of the source a strategy reference runs: its module's file and the
    files of the modules of its own top-level package that it uses (e.g.
    ``rnsim_strategies.red_notice.board`` for ``rnsim_strategies.red_notice.rules_based``). Not the whole package:
    an unrelated strategy beside it may change without changing these games."""
    from rnsim.games import DEFAULT_GAME
    from rnsim.strategy import load_strategy

    cls = type(load_strategy(ref, None, game or DEFAULT_GAME))
    mod = importlib.import_module(cls.__module__)
    top = mod.__name__.partition(".")[0]
    names = {mod.__name__}
    for obj in vars(mod).values():
        used = obj.__name__ if inspect.ismodule(obj) else getattr(obj, "__module__", None)
        if isinstance(used, str) and (used == top or used.startswith(top + ".")):
            names.add(used)
    files = sorted({_source_file(importlib.import_module(n)) for n in names})
    h = hashlib.sha256()
    _hash_files(h, Path(inspect.getfile(importlib.import_module(top))).parent, files)
    return h.hexdigest()[:16]


def code_fingerprint(plan: Plan) -> dict[str, str]:
    """What must be equal on the driver and on every worker for the rows to be
    the driver's: rnsim's version and game code, and each strategy's source.
    Read from disk each time (a few milliseconds): a worker imports what is on
    disk when it starts, so that is what the driver compares against."""
    from rnsim import __version__

    out = {"rnsim": __version__, "rnsim source": _rnsim_source_hash()}
    for spec in (s for specs in plan.strategies for s in specs):
        out[f"strategy {spec.ref}"] = _strategy_source_hash(spec.ref, plan.game)
    return out


def check_worker(plan: Plan, expected: dict[str, str], where: str) -> None:
    """Raise ClusterMismatch when this process would not play the driver's games."""
    problems: list[str] = []
    try:
        here = code_fingerprint(plan)
    except Exception as e:  # e.g. a strategy module missing on this node
        raise ClusterMismatch(
            f"{where} cannot load the run's code: {type(e).__name__}: {e}. Every node needs the driver's "
            f"rnsim and strategy modules installed (a shared image, or a Ray runtime_env)"
        ) from None
    for key in expected:
        if here.get(key) != expected[key]:
            problems.append(f"{key}: {here.get(key)} here, {expected[key]} on the driver")
    for v in plan.variants:
        try:
            digest = v.rules.digest()
        except Exception as e:
            problems.append(f"variant {v.name!r}: its components cannot be loaded here ({type(e).__name__}: {e})")
            continue
        if digest != v.digest:
            problems.append(f"variant {v.name!r}: rules hash {digest} here, {v.digest} on the driver "
                            "(different component data)")
    if problems:
        raise ClusterMismatch(
            f"{where} does not run the driver's rnsim ({'; '.join(problems)}). Install the same rnsim "
            "(and strategy modules) on every node: a shared image, or a Ray runtime_env"
        )


# ----------------------------------------------------------------- the task

# One per Ray worker process: the plan's ObjectRef id -> its WorkerState, built
# on the first chunk of a run that this process plays.
_STATE: dict[str, WorkerState] = {}


def _play_remote(boxed_plan: list[Any], expected: dict[str, str], chunk: Chunk) -> ChunkOutput:
    # The plan's ref is boxed in a list so Ray does not fetch and unpickle the
    # plan for every task: only a process's first chunk of the run does.
    ref = boxed_plan[0]
    ws = _STATE.get(ref.hex())
    if ws is None:
        import ray

        plan: Plan = ray.get(ref)
        where = f"Ray node {ray.util.get_node_ip_address()} (worker pid {os.getpid()})"
        check_worker(plan, expected, where)
        ws = WorkerState(plan)
        _STATE.clear()  # a process serves one run at a time; drop an earlier run's state
        _STATE[ref.hex()] = ws
    return play_chunk(ws, chunk)


# ------------------------------------------------------------------ backend


@contextlib.contextmanager
def _signals_deferred(ray: Any) -> Iterator[list[int]]:
    """Hold Ctrl-C and SIGTERM while Ray starts. Interrupting ``ray.init`` half
    way leaves Ray's agent processes orphaned, and ``ray.init`` replaces the
    SIGTERM handler with one that exits at once (the runner's, which records an
    interrupted, resumable invocation, is put back). The signals caught are
    yielded; the caller stops once the cluster is up."""
    if threading.current_thread() is not threading.main_thread():
        yield []
        return
    caught: list[int] = []
    old = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    utils = getattr(getattr(ray, "_private", None), "utils", None)
    ray_setter = getattr(utils, "set_sigterm_handler", None)
    for s in old:
        signal.signal(s, lambda signum, frame: caught.append(signum))
    if ray_setter is not None:
        utils.set_sigterm_handler = lambda handler: None  # type: ignore[union-attr]
    try:
        yield caught
    finally:
        if ray_setter is not None:
            utils.set_sigterm_handler = ray_setter  # type: ignore[union-attr]
        for s, h in old.items():
            if h is not None:
                signal.signal(s, h)


class RayBackend:
    """Chunks as Ray tasks (one CPU each) on the cluster at ``address`` (or
    ``RAY_ADDRESS``), else on a local cluster of ``workers`` CPUs started for
    the run. When Ray is already initialised in this process (a notebook, a
    test), that connection is used and left open."""

    name = "ray"

    def __init__(self, workers: int, address: str | None = None) -> None:
        import_ray()  # fail at construction, before any game, when the extra is missing
        self.workers = workers
        self.address = address or os.environ.get("RAY_ADDRESS") or None
        self.replaced = 0  # Ray retries lost tasks itself; the driver never sees a dead worker
        self.info: dict[str, Any] = {}
        self._connection: tuple[Any, bool, list[Any], dict[str, str], Any] | None = None

    def _connect(self) -> tuple[Any, bool]:
        ray = import_ray()
        if ray.is_initialized():
            return ray, False
        try:
            with _signals_deferred(ray) as caught:
                if self.address:
                    ray.init(address=self.address, log_to_driver=False, logging_level=logging.WARNING)
                else:
                    # "local": a new cluster for this run, even if `ray start` left one on this machine.
                    ray.init(address="local", num_cpus=self.workers, include_dashboard=False, log_to_driver=False,
                             logging_level=logging.ERROR)
        except Exception as e:
            ray.shutdown()
            where = f"the Ray cluster at {self.address!r}" if self.address else "a local Ray cluster"
            hint = ""
            if self.address and "RAY_AUTH_MODE" not in os.environ:
                hint = ("; if the cluster uses token authentication, set RAY_AUTH_MODE=token and give this "
                        "machine the cluster's token (~/.ray/auth_token)")
            raise RunnerError(f"cannot start or connect to {where}: {type(e).__name__}: {e}{hint}") from None
        if caught:  # Ctrl-C or SIGTERM while the cluster started: stop it, the run is interrupted
            ray.shutdown()
            raise Terminated if signal.SIGTERM in caught else KeyboardInterrupt
        return ray, True

    def describe(self, ray: Any, startup: float) -> dict[str, Any]:
        resources = ray.cluster_resources()
        nodes = [n for n in ray.nodes() if n.get("Alive")]
        return {
            "ray_version": ray.__version__,
            "address": self.address or "local",
            "nodes": len(nodes),
            "cluster_resources": {k: v for k, v in sorted(resources.items()) if not k.startswith("node:")},
            "startup_seconds": round(startup, 3),
        }

    def open(self, plan: Plan) -> None:
        """Connect (or start a local cluster) once for several batches: the drift
        gate and the ladder play many small ones, and a local cluster takes
        seconds to start."""
        t0 = time.perf_counter()
        ray, owned = self._connect()
        try:
            self.info = self.describe(ray, time.perf_counter() - t0)
            if int(self.info["cluster_resources"].get("CPU", 0)) < 1:
                raise RunnerError(f"the Ray cluster at {self.info['address']} has no CPUs to play games on "
                                  "(add worker nodes with `ray start --address=HEAD_IP:PORT`)")
            expected = code_fingerprint(plan)
            task = ray.remote(_play_remote).options(
                num_cpus=1, max_retries=MAX_ATTEMPTS - 1, retry_exceptions=False, name="rnsim-chunk"
            )
        except BaseException:
            if owned:
                ray.shutdown()
            raise
        self._connection = (ray, owned, [ray.put(plan)], expected, task)

    def play(self, chunks: Sequence[Chunk], on_result: Callable[[ChunkOutput], None]) -> None:
        connection = self._connection
        assert connection is not None, "open() first"
        ray, _, boxed, expected, task = connection
        inflight: dict[Any, Chunk] = {}
        try:
            pending: deque[Chunk] = deque(chunks)
            limit = INFLIGHT_PER_CPU * max(1, int(ray.cluster_resources().get("CPU", 0)))
            sized = time.monotonic()

            def submit() -> None:
                nonlocal limit, sized
                if time.monotonic() - sized > RESIZE_SECONDS:  # nodes may join (or leave) during a long run
                    sized = time.monotonic()
                    limit = INFLIGHT_PER_CPU * max(1, int(ray.cluster_resources().get("CPU", 0)))
                while pending and len(inflight) < limit:
                    c = pending.popleft()
                    inflight[task.remote(boxed, expected, c)] = c

            submit()
            while inflight:
                ready, _ = ray.wait(list(inflight), num_returns=1)
                for ref in ready:
                    chunk = inflight.pop(ref)
                    out = self._result(ray, ref, chunk)
                    submit()  # keep the cluster busy while the driver writes the shard
                    on_result(out)
        except BaseException:
            for ref in inflight:
                ray.cancel(ref, force=True)
            raise

    def close(self) -> None:
        connection, self._connection = self._connection, None
        if connection is not None and connection[1]:
            connection[0].shutdown()

    def run(self, plan: Plan, chunks: Sequence[Chunk], on_result: Callable[[ChunkOutput], None]) -> None:
        self.open(plan)
        try:
            self.play(chunks, on_result)
        finally:
            self.close()

    def _result(self, ray: Any, ref: Any, chunk: Chunk) -> ChunkOutput:
        exc = ray.exceptions
        try:
            out: ChunkOutput = ray.get(ref)
            return out
        except exc.RayTaskError as e:
            if isinstance(e.cause, ClusterMismatch):
                raise RunnerError(str(e.cause)) from None
            raise RunnerError(f"a Ray worker failed in chunk {chunk.name}:\n{e}") from None
        except (exc.WorkerCrashedError, exc.NodeDiedError, exc.ObjectLostError, exc.OutOfMemoryError) as e:
            raise RunnerError(
                f"chunk {chunk.name} (cell {chunk.cell}, games {chunk.start}..{chunk.stop - 1}) lost its Ray worker "
                f"{MAX_ATTEMPTS} times ({type(e).__name__}); run it with backend = \"serial\" to debug:\n{e}"
            ) from None
