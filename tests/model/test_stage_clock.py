"""The optimiser profile's stage clocks (tests/benchmarks/stage_clock.py) count a stage's CPU
wherever its function is called from, and change no answer."""

from __future__ import annotations

from model.engine import tray_graph, tray_search
from tests.benchmarks import stage_clock


def test_a_clocked_function_counts_its_cpu_through_imported_names_and_answers_the_same():
    legs = [(k % 3, float(k), float(k + 1)) for k in range(200_000)]
    expected = tray_search.merge_legs(legs)
    kept = tray_search.merge_legs, tray_graph.merge_legs
    try:
        spent = stage_clock.install({"merge": ("engine/tray_search.py", "merge_legs")})
        assert tray_graph.merge_legs is tray_search.merge_legs is not kept[0]
        assert spent == {"merge": 0.0}
        assert tray_graph.merge_legs(legs) == expected  # called by the name tray_graph imported
        assert spent["merge"] > 0.0
        missing = stage_clock.install({"absent": ("engine/tray_search.py", "no_such_function")})
        assert missing == {}
    finally:
        tray_search.merge_legs, tray_graph.merge_legs = kept
