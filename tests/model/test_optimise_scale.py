"""The optimiser's temperature and floor follow one movable rack's share of the objective, and
a timed run cools over its time budget: the generated L hall finds its cheaper layouts."""

from __future__ import annotations

import math

import pytest

from model.generators.generate import rail_optimized
from model.optimise.objective import DEFAULT_WEIGHTS
from model.optimise.optimise import optimise
from model.optimise.search import T_END, T_START, _temperature, rack_share


def test_a_rack_share_is_the_objective_over_the_movable_racks():
    assert rack_share(4.65, 56) == pytest.approx(4.65 / 56)
    assert rack_share(-2.0, 4) == pytest.approx(0.5)
    assert rack_share(3.0, 0) == pytest.approx(3.0)  # nothing movable: no division by zero


def test_a_timed_run_cools_over_its_budget_not_only_its_iterations():
    # A 60 s run given 10**9 iterations used to stay at T_START for its whole budget.
    assert _temperature(5, 10**9, 60.0, 60.0) == pytest.approx(T_END)
    assert _temperature(5, 10**9, 30.0, 60.0) == pytest.approx(math.sqrt(T_START * T_END))
    # Whichever ends first sets the pace; untimed runs cool by iterations alone.
    assert _temperature(99, 100, 1.0, 60.0) == pytest.approx(T_END)
    assert _temperature(0, 100, 0.0, None) == pytest.approx(T_START)


def test_the_generated_l_hall_finds_a_cheaper_or_cooler_layout_within_every_limit():
    # 2,048 HGX nodes in 32 SUs (tests/benchmarks/workloads.py's L): with the temperature and
    # floor as shares of the whole hall, 100 moves (seed 0) left it unchanged.
    design = rail_optimized(nodes=2048, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=64)
    result = optimise(design, DEFAULT_WEIGHTS, iterations=100, seed=0)
    assert result.changed, result.sentence  # optimise refuses a result that breaks a limit
    terms = result.report["terms"]
    assert terms["cost_usd"]["delta"] < 0 or terms["optics_power_w"]["delta"] < 0
