"""Deals played in parallel: in local worker processes, which receive the compiled ruleset once, or as Ray tasks.

Local workers are forked where the platform can fork (Linux, macOS) and this process runs no other thread: a forked
worker starts as a copy of this process, the compiled ruleset and the imported modules included, so it plays its first
deal at once, where a spawned worker would first spend about half a CPU second importing kallisti and compiling the
ruleset again (against a few seconds of deals in a typical run, that start-up is what kept `--jobs 2` from being twice
as fast). Forking a process that runs other threads can deadlock the copy (a lock held by a thread that the copy does
not have), so then, on Windows (which cannot fork), and when KALLISTI_SPAWN_WORKERS is set, workers are spawned: each
starts a fresh interpreter and receives the ruleset's resolved data and sources (a Parcel: a compiled Ruleset holds
closures and does not pickle), which it compiles once. Ray's tasks receive the Parcel too (a ruleset file need not
exist where a worker runs), each Ray worker compiling it once. Each deal depends only on its seed and the plan, so
where it is played changes nothing but the time.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import signal
import threading
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Iterator

from kallisti.interpreter.save import ruleset_hash

BACKENDS = ("local", "ray")
RAY_MISSING = "the Ray backend needs Ray: pip install 'kallisti[ray]'"
STARTS = ("fork", "spawn")  # how local workers may be started (multiprocessing's start methods)
SPAWN_VARIABLE = "KALLISTI_SPAWN_WORKERS"  # set to anything but "" or "0" to spawn workers even where they could fork


class BackendUnavailable(RuntimeError):
    """The backend asked for cannot run here (Ray is not installed)."""


@dataclass(frozen=True)
class Parcel:
    """A ruleset as a worker receives it: its resolved data and sources (which pickle), under a key for the cache."""

    key: str
    data: object
    sources: list

    @classmethod
    def of(cls, rules) -> Parcel:
        return cls(ruleset_hash(rules.plain()), rules.data, list(rules.sources))

    def compile(self):
        """The compiled Ruleset."""
        from kallisti.model.ruleset import Ruleset

        return Ruleset(self.data, self.sources)


_built: dict = {}  # in a worker: the parcel's key -> its compiled Ruleset (the last one only)


def play_shard(parcel: Parcel, plan, seeds: list[int]) -> list:
    """In a worker: play the deals `seeds` by `plan` (kallisti.solver.simulate.Plan) and return their outcomes."""
    rules = _built.get(parcel.key)
    if rules is None:
        _built.clear()
        rules = _built[parcel.key] = parcel.compile()
    return [plan.play(rules, seed) for seed in seeds]


def shards(seeds: list[int], workers: int, most: int = 16) -> list[list[int]]:
    """The seeds cut into runs of consecutive deals, in order, at most `most` deals each and shrinking towards the end.

    Each run is half an even share of the deals still left (a worker takes the next run when it finishes one), so the
    runs are long while much is left, which keeps a task's cost small against its deals, and short at the end: when
    the last run is handed out the other workers are busy with runs about as short, so they all finish together
    instead of one worker playing a long run alone. At most `most` deals a run also brings finished deals to the
    journal early.
    """
    cut, start, share = [], 0, 2 * max(1, workers)
    while start < len(seeds):
        size = max(1, min(most, math.ceil((len(seeds) - start) / share)))
        cut.append(seeds[start:start + size])
        start += size
    return cut


def start_method(asked: str | None = None) -> str:
    """How local workers are started: `asked` (one of STARTS), else spawned when KALLISTI_SPAWN_WORKERS is set, when
    the platform cannot fork (Windows), or when this process runs other threads (forking it could deadlock the copy),
    else forked."""
    if asked is not None:
        if asked not in STARTS:
            raise ValueError(f"unknown start method {asked!r}; choose from {', '.join(STARTS)}")
        if asked not in multiprocessing.get_all_start_methods():
            raise ValueError(f"this platform cannot start workers by {asked}; choose from "
                             f"{', '.join(m for m in STARTS if m in multiprocessing.get_all_start_methods())}")
        return asked
    if os.environ.get(SPAWN_VARIABLE, "") not in ("", "0") or "fork" not in multiprocessing.get_all_start_methods():
        return "spawn"
    return "fork" if _threads() == 1 else "spawn"


def _threads() -> int:
    """The threads this process runs: the system's count where it gives one (so that threads started outside Python
    count too, as Python 3.12's warning on forking counts them), else Python's."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return threading.active_count()


def outcomes(rules, plan, seeds: list[int], jobs: int | None = None, backend: str = "local",
             address: str | None = None, start: str | None = None) -> Iterator:
    """The outcomes of the deals `seeds` played by `plan`, as they finish (not in seed order when in parallel).

    Locally: one after another in this process (`jobs` 1, the default), or in `jobs` worker processes, started as
    `start` says (`fork` or `spawn`; by default as `start_method` chooses). With Ray: on a local Ray instance of `jobs`
    CPUs (all of the machine's by default), or on the cluster at `address`.
    """
    if backend == "ray":
        return _ray(_import_ray(), Parcel.of(rules), plan, seeds, jobs, address)
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    method = start_method(start)  # an unknown or impossible start is refused even when no worker is needed
    if (jobs or 1) == 1 or len(seeds) < 2:
        return (plan.play(rules, seed) for seed in seeds)
    return _pool(rules, plan, seeds, jobs, method)


def _pool(rules, plan, seeds: list[int], jobs: int, method: str) -> Iterator:
    """The deals in `jobs` worker processes started by `method`, a shard of seeds a task."""
    cut = shards(seeds, jobs, plan.per_task)
    # A forked worker is handed the compiled ruleset itself: the fork copies it and nothing is pickled (a fork pool
    # forks all its workers at the first submit, before it starts a thread of its own). A spawned worker is handed the
    # parcel it compiles from, once.
    ruleset = rules if method == "fork" else Parcel.of(rules)
    pool = ProcessPoolExecutor(min(jobs, len(cut)), mp_context=multiprocessing.get_context(method),
                               initializer=_receive, initargs=(ruleset,))
    finished = False
    try:
        pending = {pool.submit(_play, plan, shard) for shard in cut}
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for future in done:
                yield from future.result()
        finished = True
    finally:
        if finished:
            pool.shutdown()
        else:
            _stop(pool)


_rules = None  # in a local worker: the compiled ruleset it plays


def _receive(ruleset) -> None:
    """In a local worker, as it starts: keep the ruleset it plays (compiling a parcel), and leave ^C to the main
    process, which ends the workers itself."""
    global _rules
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _rules = ruleset.compile() if isinstance(ruleset, Parcel) else ruleset


def _play(plan, seeds: list[int]) -> list:
    """In a local worker: play the deals `seeds` by `plan` and return their outcomes."""
    return [plan.play(_rules, seed) for seed in seeds]


def _stop(pool: ProcessPoolExecutor) -> None:
    """End the workers at once (an interrupt, or a deal that raised): the deals they were playing are dropped."""
    workers = list((getattr(pool, "_processes", None) or {}).values())  # no public way to do this before Python 3.14
    pool.shutdown(wait=False, cancel_futures=True)
    for worker in workers:
        worker.terminate()


def _import_ray():
    try:
        import ray
    except ImportError:
        raise BackendUnavailable(RAY_MISSING) from None
    return ray


def _ray(ray, parcel: Parcel, plan, seeds: list[int], jobs: int | None, address: str | None) -> Iterator:
    """The deals as Ray tasks, a shard of seeds each; a Ray instance this starts is shut down at the end."""
    started = not ray.is_initialized()
    if started and address is None:
        os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")  # no usage statistics sent from a local instance
        ray.init(num_cpus=jobs, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
    elif started:
        ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
    pending = []
    try:
        task, ruleset = ray.remote(play_shard), ray.put(parcel)
        cpus = int(ray.cluster_resources().get("CPU", 1))
        pending = [task.remote(ruleset, plan, shard) for shard in shards(seeds, cpus, plan.per_task)]
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            yield from ray.get(done[0])
    finally:
        for ref in pending:  # a task still running is interrupted, not its worker killed: the next run finds it warm
            ray.cancel(ref)
        if started:
            ray.shutdown()
