"""Deals played in parallel: in local worker processes or as Ray tasks, each worker compiling the ruleset itself.

A compiled Ruleset holds closures and does not pickle; its resolved data and sources do, so that is what a worker
receives (a Parcel), and it compiles the ruleset once (a ruleset file need not exist where a worker runs). Workers
are started by spawning, never forking, so the same code runs on every platform and on a cluster. Each deal depends
only on its seed and the plan, so where it is played changes nothing but the time.
"""

from __future__ import annotations

import logging
import math
import multiprocessing
import os
import signal
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from dataclasses import dataclass
from typing import Iterator

from kallisti.interpreter.save import ruleset_hash

BACKENDS = ("local", "ray")
RAY_MISSING = "the Ray backend needs Ray: pip install 'kallisti[ray]'"


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


_built: dict = {}  # in a worker: the parcel's key -> its compiled Ruleset (the last one only)


def play_shard(parcel: Parcel, plan, seeds: list[int]) -> list:
    """In a worker: play the deals `seeds` by `plan` (kallisti.solver.simulate.Plan) and return their outcomes."""
    rules = _built.get(parcel.key)
    if rules is None:
        from kallisti.model.ruleset import Ruleset

        _built.clear()
        rules = _built[parcel.key] = Ruleset(parcel.data, parcel.sources)
    return [plan.play(rules, seed) for seed in seeds]


def shards(seeds: list[int], workers: int, most: int = 16) -> list[list[int]]:
    """The seeds cut into runs of consecutive deals, about four a worker and at most `most` deals each, so that every
    worker stays busy to the end and finished deals reach the journal early."""
    size = max(1, min(most, math.ceil(len(seeds) / (4 * max(1, workers)))))
    return [seeds[i:i + size] for i in range(0, len(seeds), size)]


def outcomes(rules, plan, seeds: list[int], jobs: int | None = None, backend: str = "local",
             address: str | None = None) -> Iterator:
    """The outcomes of the deals `seeds` played by `plan`, as they finish (not in seed order when in parallel).

    Locally: one after another in this process (`jobs` 1, the default), or in `jobs` worker processes. With Ray:
    on a local Ray instance of `jobs` CPUs (all of the machine's by default), or on the cluster at `address`.
    """
    if backend == "ray":
        return _ray(_import_ray(), Parcel.of(rules), plan, seeds, jobs, address)
    if backend != "local":
        raise ValueError(f"unknown backend {backend!r}; choose from {', '.join(BACKENDS)}")
    if (jobs or 1) == 1 or len(seeds) < 2:
        return (plan.play(rules, seed) for seed in seeds)
    return _pool(Parcel.of(rules), plan, seeds, jobs)


def _pool(parcel: Parcel, plan, seeds: list[int], jobs: int) -> Iterator:
    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_ignore_interrupts)
    finished = False
    try:
        pending = {pool.submit(play_shard, parcel, plan, shard) for shard in shards(seeds, jobs, plan.per_task)}
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


def _ignore_interrupts() -> None:
    """In a worker: leave ^C to the main process, which ends the workers itself."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
        for ref in pending:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
