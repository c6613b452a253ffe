"""The media choice refuses a medium whose channel needs a trunk longer than any stock trunk of
its mode (#43 item 2: XL with every network, zoned, had 119 OM4 trunks of 100.9 m)."""

from __future__ import annotations

import numpy as np

from model.engine.cage_choice import _trunk_lengths
from model.engine.patch_points import ChannelPieces


def test_a_trunk_run_past_the_longest_stock_trunk_of_a_mode_is_unorderable_in_it():
    pieces = ChannelPieces(
        cord_a_m=np.full(4, 2.0),
        cord_b_m=np.full(4, 2.0),
        trunk_m=np.array([99.5, 100.9, 100.9, 250.0]),
        trunks=np.array([1, 1, 0, 2]),  # the third is direct: no trunk to order
        typed=np.zeros(4, dtype=bool),
    )
    mmf, smf = _trunk_lengths("mmf"), _trunk_lengths("smf")
    assert mmf[-1] == 100.0 and smf[-1] == 200.0  # the catalog's OM4 and OS2 trunks
    assert pieces.trunk_unorderable(mmf).tolist() == [False, True, False, True]
    assert pieces.trunk_unorderable(smf).tolist() == [False, False, False, True]
    assert not pieces.trunk_unorderable(np.zeros(0)).any()  # a mode without trunks: no rule
