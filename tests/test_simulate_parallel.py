"""Parallel simulation: worker processes and Ray play the deals of a run with the totals of one process, deal for deal;
an interrupted parallel run resumes from its journal. Ray's tests need the `ray` extra (a skip without it, except
under CI=true, where a missing test dependency fails)."""

from __future__ import annotations

import json
import os
import pickle
import sys

import pytest

from kallisti.model.ruleset import load_ruleset
from kallisti.solver.parallel import BackendUnavailable, Parcel, outcomes, play_shard, shards
from kallisti.solver.simulate import Plan, simulate
from test_simulate import THREE_CARDS, interrupt_after, records, run, without_time

# A budget for each way of playing: with these, every deal is the same wherever it is played.
BUDGETS = [("random", {"cap": 300}), ("greedy", {"cap": 300}), ("solver", {"states": 3000})]


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


# -- local worker processes --------------------------------------------------------------------

def test_shards_cover_the_seeds_in_order():
    seeds = list(range(5, 105))
    for workers in (1, 2, 3, 64):
        cut = shards(seeds, workers)
        assert [s for shard in cut for s in shard] == seeds
        assert max(map(len, cut)) <= 16
    assert len(shards(seeds, 2)) == 8  # four runs a worker
    assert all(len(shard) == 1 for shard in shards(seeds, 2, most=1))  # the solver: a deal a task
    assert shards([], 2) == []


def test_a_parcel_pickles_and_a_worker_rebuilds_the_ruleset(three):
    parcel = pickle.loads(pickle.dumps(Parcel.of(three)))
    plan = Plan("greedy")
    assert play_shard(parcel, plan, [1, 2]) == [plan.play(three, 1), plan.play(three, 2)]


@pytest.mark.parametrize("strategy, budget", BUDGETS)
def test_worker_processes_give_the_totals_of_one_process(lucas, strategy, budget):
    alone = simulate(lucas, 10, seed=2, strategy=strategy, **budget)
    spread = simulate(lucas, 10, seed=2, strategy=strategy, jobs=2, **budget)
    assert spread.outcomes == alone.outcomes
    assert without_time(spread) == without_time(alone)


def test_workers_play_a_ruleset_that_is_no_file(three):
    result = simulate(three, 6, seed=1, strategy="solver", jobs=2)
    assert (result.won, result.moves) == (6, 18)


def test_a_deal_that_raises_in_a_worker_stops_the_run(lucas):
    with pytest.raises(RuntimeError, match="deal 3 went wrong"):
        list(outcomes(lucas, FailingPlan("random", cap=50), list(range(1, 9)), jobs=2))


def test_an_interrupted_parallel_run_resumes_with_the_same_totals(tmp_path, lucas):
    whole = simulate(lucas, 12, seed=1, strategy="solver", states=3000)
    path = tmp_path / "run.jsonl"
    with pytest.raises(KeyboardInterrupt):
        simulate(lucas, 12, seed=1, strategy="solver", states=3000, jobs=2, progress=interrupt_after(3), journal=path)
    assert len(records(path)) == 1 + 3  # the deals that finished first, whichever they were
    resumed = simulate(lucas, 12, seed=1, strategy="solver", states=3000, jobs=2, journal=path)
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
