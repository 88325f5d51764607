"""Parallel simulation: worker processes and Ray play the deals of a run with the totals of one process, deal for deal;
forked workers play the ruleset compiled in the main process, spawned ones compile their own; an interrupted parallel
run resumes from its journal. Ray's tests need the `ray` extra (a skip without it, except under CI=true, where a
missing test dependency fails)."""

from __future__ import annotations

import json
import multiprocessing
import os
import pickle
import sys
import threading

import pytest

from kallisti.model.ruleset import load_ruleset
from kallisti.solver import parallel
from kallisti.solver.parallel import BackendUnavailable, Parcel, outcomes, play_shard, shards, start_method
from kallisti.solver.simulate import Plan, simulate
from test_simulate import THREE_CARDS, interrupt_after, records, run, without_time

# A budget for each way of playing: with these, every deal is the same wherever it is played.
BUDGETS = [("random", {"cap": 300}), ("greedy", {"cap": 300}), ("solver", {"states": 3000})]
# How the tests of totals start their workers: forked where the platform can (at once, where a spawned worker first
# imports kallisti and compiles the ruleset), whatever else runs in the test process. The start chosen by default,
# and spawned workers, have tests of their own.
QUICK = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
needs_fork = pytest.mark.skipif(QUICK != "fork", reason="this platform cannot fork")
# Under pytest-xdist the test process runs a thread of its own (its messages to the controller), so Python 3.12+ warns
# at every fork; the forked workers only play deals and never touch what that thread holds.
pytestmark = pytest.mark.filterwarnings("ignore:.*multi-threaded, use of fork:DeprecationWarning")


@pytest.fixture(scope="module")
def lucas():
    return load_ruleset("lucas")


@pytest.fixture(scope="module")
def three():
    return load_ruleset("three-cards.yaml", text=THREE_CARDS)  # a ruleset with no file: workers get its data


class FailingPlan(Plan):
    """A plan whose deal 3 raises, as a fault in a ruleset might (module level, so that workers can unpickle it)."""

    def play(self, rules, seed):
        if seed == 3:
            raise RuntimeError("deal 3 went wrong")
        return super().play(rules, seed)


class InheritedPlan(Plan):
    """A plan that plays a deal only with the very ruleset object `parent` names (its id in the main process, which a
    forked worker shares with it and a spawned worker does not), and only in a worker."""

    parent: tuple[int, int] | None = None  # (the main process's id, the id of its compiled ruleset), set by the test

    def play(self, rules, seed):
        if self.parent is None or os.getpid() == self.parent[0] or id(rules) != self.parent[1]:
            raise RuntimeError(f"deal {seed} was not played with the main process's compiled ruleset in a worker")
        return super().play(rules, seed)


# -- local worker processes --------------------------------------------------------------------

def test_shards_cover_the_seeds_in_order():
    seeds = list(range(5, 105))
    for workers in (1, 2, 3, 64):
        cut = shards(seeds, workers)
        assert [s for shard in cut for s in shard] == seeds
        assert max(map(len, cut)) <= 16
        assert all(len(a) >= len(b) for a, b in zip(cut, cut[1:]))  # never longer than the run before
    assert all(len(shard) == 1 for shard in shards(seeds, 2, most=1))  # the solver: a deal a task
    assert shards([], 2) == []


def test_shards_shrink_so_that_no_worker_ends_alone_with_a_long_run():
    cut = [len(shard) for shard in shards(list(range(400)), 2)]
    assert cut[:22] == [16] * 22  # long runs while much is left: a task's cost is small against its deals
    assert cut[22:] == [12, 9, 7, 5, 4, 3, 2, 2, 1, 1, 1, 1]  # half an even share of what is left, down to single deals
    assert [len(shard) for shard in shards(list(range(10)), 2)] == [3, 2, 2, 1, 1, 1]


def test_a_parcel_pickles_and_a_worker_rebuilds_the_ruleset(three):
    parcel = pickle.loads(pickle.dumps(Parcel.of(three)))
    plan = Plan("greedy")
    assert play_shard(parcel, plan, [1, 2]) == [plan.play(three, 1), plan.play(three, 2)]


@pytest.mark.parametrize("strategy, budget", BUDGETS)
def test_worker_processes_give_the_totals_of_one_process(lucas, strategy, budget):
    alone = simulate(lucas, 10, seed=2, strategy=strategy, **budget)
    spread = simulate(lucas, 10, seed=2, strategy=strategy, jobs=2, worker_start=QUICK, **budget)
    assert spread.outcomes == alone.outcomes
    assert without_time(spread) == without_time(alone)


@needs_fork
def test_forked_workers_play_the_ruleset_compiled_in_the_main_process(monkeypatch, lucas, three):
    monkeypatch.setattr(InheritedPlan, "parent", (os.getpid(), id(lucas)))
    monkeypatch.setattr(Parcel, "compile", None)  # a worker that compiled a parcel would fail: a fork inherits this
    seeds = list(range(1, 9))
    spread = list(outcomes(lucas, InheritedPlan("greedy", cap=300), seeds, jobs=2, start="fork"))
    assert sorted(spread, key=lambda o: o.seed) == [Plan("greedy", cap=300).play(lucas, seed) for seed in seeds]
    with pytest.raises(RuntimeError, match="not played with the main process's compiled ruleset"):  # the check bites
        list(outcomes(three, InheritedPlan("greedy", cap=300), seeds, jobs=2, start="fork"))


@pytest.mark.parametrize("start", ["fork", "spawn"])
def test_workers_play_a_ruleset_that_is_no_file(three, start):
    if start not in multiprocessing.get_all_start_methods():
        pytest.skip(f"this platform cannot start workers by {start}")
    result = simulate(three, 6, seed=1, strategy="solver", jobs=2, worker_start=start)  # spawned: compiled from data
    assert (result.won, result.moves) == (6, 18)


def test_workers_are_forked_only_where_it_is_safe(monkeypatch):
    threads = parallel._threads
    monkeypatch.delenv(parallel.SPAWN_VARIABLE, raising=False)
    monkeypatch.setattr(parallel, "_threads", lambda: 1)
    assert start_method() == QUICK  # forked wherever the platform can fork, when no other thread runs
    monkeypatch.setenv(parallel.SPAWN_VARIABLE, "1")
    assert start_method() == "spawn"
    assert start_method("spawn") == "spawn"
    if QUICK == "fork":
        assert start_method("fork") == "fork"  # asked for, a fork is made whatever the variable says
    monkeypatch.setenv(parallel.SPAWN_VARIABLE, "0")
    assert start_method() == QUICK
    monkeypatch.delenv(parallel.SPAWN_VARIABLE)
    monkeypatch.setattr(parallel, "_threads", threads)
    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert start_method() == "spawn"  # forking a process that runs another thread could deadlock the copy
    finally:
        stop.set()
        other.join()
    with pytest.raises(ValueError, match="unknown start method 'thread'; choose from fork, spawn"):
        start_method("thread")


def test_a_deal_that_raises_in_a_worker_stops_the_run(lucas):
    with pytest.raises(RuntimeError, match="deal 3 went wrong"):
        list(outcomes(lucas, FailingPlan("random", cap=50), list(range(1, 9)), jobs=2, start=QUICK))


def test_an_interrupted_parallel_run_resumes_with_the_same_totals(tmp_path, lucas):
    whole = simulate(lucas, 8, seed=1, strategy="solver", states=3000)
    path = tmp_path / "run.jsonl"
    with pytest.raises(KeyboardInterrupt):
        simulate(lucas, 8, seed=1, strategy="solver", states=3000, jobs=2, worker_start=QUICK,
                 progress=interrupt_after(3), journal=path)
    assert len(records(path)) == 1 + 3  # the deals that finished first, whichever they were
    resumed = simulate(lucas, 8, seed=1, strategy="solver", states=3000, jobs=2, worker_start=QUICK, journal=path)
    assert resumed.resumed == 3
    assert resumed.outcomes == whole.outcomes
    assert without_time(resumed) == without_time(whole)


def test_the_command_with_jobs_agrees_with_one_process():
    args = ("lucas", "--deals", 8, "--seed", 3, "--strategy", "greedy", "--cap", 300, "--format", "json")
    alone, spread = run(*args), run(*args, "--jobs", 2)
    assert spread.exit_code == 0, spread.output
    assert without_time(json.loads(spread.stdout)) == without_time(json.loads(alone.stdout))


# -- Ray -----------------------------------------------------------------------------------------

def ray_or_skip():
    """The ray module; a skip when it is missing, except under CI=true, where a missing test dependency fails."""
    try:
        import ray
    except ImportError:
        if os.environ.get("CI") == "true":
            pytest.fail("ray is not installed (CI=true: a missing test dependency fails; pip install '.[test]')")
        pytest.skip("ray is not installed (pip install 'kallisti[ray]')")
    return ray


def test_without_ray_the_ray_backend_says_how_to_install_it(monkeypatch, lucas):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` fails
    with pytest.raises(BackendUnavailable, match=r"pip install 'kallisti\[ray\]'"):
        simulate(lucas, 2, seed=1, strategy="random", backend="ray")
    result = run("lucas", "--deals", 2, "--backend", "ray")
    assert result.exit_code == 2
    assert "pip install 'kallisti[ray]'" in result.output


def test_the_command_starts_and_stops_a_local_ray_instance(monkeypatch):
    ray = ray_or_skip()
    assert not ray.is_initialized()
    monkeypatch.delenv("RAY_USAGE_STATS_ENABLED", raising=False)
    args = ("lucas", "--deals", 6, "--strategy", "solver", "--states", 3000, "--format", "json")
    on_ray = run(*args, "--backend", "ray", "--jobs", 2)
    assert on_ray.exit_code == 0, on_ray.output
    assert os.environ["RAY_USAGE_STATS_ENABLED"] == "0"  # no usage statistics from an instance it starts
    assert not ray.is_initialized()
    assert without_time(json.loads(on_ray.stdout)) == without_time(json.loads(run(*args).stdout))


@pytest.fixture(scope="module")
def ray_instance():
    """A local Ray instance of two CPUs, usage statistics off, shared by the tests below."""
    ray = ray_or_skip()
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


@pytest.mark.parametrize("strategy, budget", BUDGETS)
def test_ray_gives_the_totals_of_a_local_run(ray_instance, lucas, strategy, budget):
    local = simulate(lucas, 10, seed=2, strategy=strategy, **budget)
    on_ray = simulate(lucas, 10, seed=2, strategy=strategy, backend="ray", **budget)
    assert on_ray.outcomes == local.outcomes
    assert without_time(on_ray) == without_time(local)
    assert ray_instance.is_initialized()  # an instance it did not start is left running


def test_ray_plays_a_ruleset_that_is_no_file(ray_instance, three):
    result = simulate(three, 5, seed=1, strategy="greedy", backend="ray")
    assert (result.won, result.moves) == (5, 15)


def test_an_interrupted_ray_run_resumes_with_the_same_totals(ray_instance, tmp_path, lucas):
    whole = simulate(lucas, 10, seed=1, strategy="solver", states=3000)
    path = tmp_path / "run.jsonl"
    with pytest.raises(KeyboardInterrupt):
        simulate(lucas, 10, seed=1, strategy="solver", states=3000, backend="ray", progress=interrupt_after(3),
                 journal=path)
    resumed = simulate(lucas, 10, seed=1, strategy="solver", states=3000, backend="ray", journal=path)
    assert resumed.resumed == 3
    assert resumed.outcomes == whole.outcomes
    assert without_time(resumed) == without_time(whole)
