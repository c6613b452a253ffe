"""The channel table's arrays (``ChannelTable.derived``) that a layout after a rack move shares
with or patches from the last layout's (model.structured.cords.KeptCords, channel_reuse) are
the arrays of its own columns, bit for bit, and its checks a fresh layout's."""

from __future__ import annotations

import random

import numpy as np
import pytest

from model.engine.routed_links import RoutedLinks
from model.structured.channel_checks import ShapeGroups, _trunk_columns, table_checks
from model.structured.channel_table import LEG_ARRAYS, ROW_ARRAYS
from model.structured.layout import structured_layout
from model.structured.leg_reuse import LegMemo
from tests.model.test_structured_relay import HALLS, _hall, _move_some_racks

_DTYPES = {"leg_cassettes": np.bool_, "cord_a_m": np.float64, "cord_b_m": np.float64}


def _bits(array: np.ndarray) -> tuple:
    return array.dtype.str, array.shape, array.tobytes()


def _same_as_columns(table) -> None:
    """Every array ``table`` holds is the array of its column (trunk columns: as many as its
    legs' longest trunk list, more only as columns of zeros, which add nothing)."""
    for name, made in table.derived.items():
        if name == "trunk_columns":
            fresh = _trunk_columns(table.leg_trunk_m)
            assert [_bits(c) for c in made[: len(fresh)]] == [_bits(c) for c in fresh]
            assert not any(c.any() for c in made[len(fresh) :])
            continue
        assert name in ROW_ARRAYS or name in LEG_ARRAYS
        column = np.asarray(getattr(table, name), dtype=_DTYPES.get(name, np.int64))
        assert _bits(made) == _bits(column), name


@pytest.mark.parametrize("name", [*HALLS, "leaf spilling into a patch rack"])
def test_arrays_kept_across_rack_moves_are_the_columns_arrays(name):
    design = _hall(name)
    plant = RoutedLinks(design)
    memo, kept = LegMemo(), ShapeGroups()
    last = structured_layout(plant, memo=memo).channels
    table_checks(last, kept=kept)  # as the editor's analysis: the checks make the arrays
    rng = random.Random(7)
    shared = patched = 0
    for _ in range(8):
        if not _move_some_racks(design, rng, rng.choice([1, 1, 2])):
            continue
        plant.refresh()
        table = structured_layout(plant, memo=memo).channels
        carried = dict(table.derived)  # what the layout took over, before the checks add any
        shared += any(carried.get(k) is last.derived.get(k) for k in ("legs", "leg_shape"))
        patched += "cord_a_m" in carried and carried["cord_a_m"] is not last.derived["cord_a_m"]
        _same_as_columns(table)
        assert table_checks(table, kept=kept) == table_checks(structured_layout(plant).channels)
        _same_as_columns(table)
        last = table
    assert shared  # some layout shared the last one's arrays (else this compared fresh ones)
    assert patched  # and made its ordered lengths' arrays by patching the last one's
