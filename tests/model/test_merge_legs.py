"""merge_legs keeps the interval it grows in locals: the same intervals as joining them in the
output list (the earlier implementation, kept here as the oracle), ties and tolerances included."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from model.engine.tray_search import merge_legs


def merge_legs_in_list(legs):
    out: list[list] = []
    for tray, s0, s1 in legs:
        lo, hi = (s0, s1) if s0 <= s1 else (s1, s0)
        if hi - lo <= 1e-9:
            continue
        if (
            out
            and out[-1][0] == tray
            and (abs(out[-1][2] - lo) <= 1e-9 or abs(out[-1][1] - hi) <= 1e-9)
        ):
            out[-1][1], out[-1][2] = min(out[-1][1], lo), max(out[-1][2], hi)
        else:
            out.append([tray, lo, hi])
    return tuple((t, lo, hi) for t, lo, hi in out)


# Positions on a coarse grid, nudged by less and by more than the 1e-9 tolerance, so runs
# touch, nearly touch, overlap, repeat and shrink to nothing.
position = st.builds(
    lambda k, nudge: k * 0.5 + nudge,
    st.integers(0, 8),
    st.sampled_from([0.0, 0.0, 4e-10, -4e-10, 3e-9, -0.0]),
)
leg = st.tuples(st.integers(-1, 2), position, position)


@given(st.lists(leg, max_size=12))
def test_merge_legs_equals_merging_in_the_output_list(legs):
    assert merge_legs(legs) == merge_legs_in_list(legs)


def test_runs_along_one_tray_join_and_turns_stay_apart():
    legs = [(3, 0.0, 5.0), (3, 5.0, 8.0), (4, 2.0, 3.0), (3, 8.0, 10.0), (3, 12.0, 10.0)]
    assert merge_legs(legs) == ((3, 0.0, 8.0), (4, 2.0, 3.0), (3, 8.0, 12.0))
    assert merge_legs([(5, 1.0, 1.0)]) == ()  # an empty run is no interval
