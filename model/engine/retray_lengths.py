"""Routed lengths after a tray edit that moved only hops and tray pieces: the other pieces kept.

A corner dragged on the busiest tray of the XL hall re-routes ~190k links; almost all of them
keep both drops' reach and elevation (a tray tilted by its corner moves the hops of the racks
along it, not their vertical runs) and stay on the trays: only their hops and the tray
distance between their drops change. For those rows :func:`reroute_lengths` reads the
vertical runs and floor piece the last routing wrote (a pure function of the kept reach and
elevation and the rows' inputs), takes the hops from the new attachments and adds the pieces
up again in :func:`~model.engine.geometry.compose_lengths`' order, so every float is the bit
it would give; the other rows are routed whole (``plant._route``).
"""

from __future__ import annotations

import numpy as np


def reroute_lengths(plant, rows: np.ndarray, tray_only: tuple | None) -> None:
    """``plant._route(rows)`` of a tray edit's rows (plant rows, ascending); ``tray_only``
    (whether each run of rows between one pair of drops kept both drops' reach and elevation
    and is on the trays before and after, the new tray distance per run, the run of each plant
    row) lets the rows of those runs take their new hops and tray piece alone
    (:func:`_tray_piece`). None: every row routed whole."""
    if tray_only is None:
        plant._route(rows)
        return
    kept_runs, tray_m, run_of = tray_only
    runs = run_of[rows]
    quick = kept_runs[runs] & ~plant._same_rack[rows]  # one rack's links read no tray
    if quick.all():  # a corner drag at XL: every row (~190k), not picked out three times over
        plant._route(rows[:0])
        _tray_piece(plant, rows, tray_m[runs])
        return
    plant._route(rows[~quick])
    _tray_piece(plant, rows[quick], tray_m[runs[quick]])


def _tray_piece(plant, rows: np.ndarray, tray_m: np.ndarray) -> None:
    """Rows routed along the trays before and after, both drops' reach and elevation as
    before: the new hops (the plant's attachments) and tray piece ``tray_m``, slack, routed
    and effective lengths. What ``_route`` writes besides (method, status, vertical runs,
    floor) is what it wrote last; it also marks the rows' route names stale, which the tray
    edit did for every row."""
    settings, att = plant.design.settings, plant._att
    ha, hb = att.hop[plant.drop_a[rows]], att.hop[plant.drop_b[rows]]
    # RoutePieces.total's order, va + ha + tray + hb + vb + floor + slack, summed left to right
    # in place: the run is that sum's first six terms, so total = run + slack is the same float
    run = plant._vertical_a[rows]
    run += ha
    run += tray_m
    run += hb
    run += plant._vertical_b[rows]
    run += plant._floor[rows]
    slack = run * (settings.slack_pct / 100.0)
    slack += 2 * settings.slack_per_end_m  # a + b is b + a in floats: compose_lengths' slack
    plant._hop_a[rows], plant._tray[rows], plant._hop_b[rows] = ha, tray_m, hb
    plant._slack[rows] = slack
    total = np.add(run, slack, out=run)  # the run is not read again: its buffer takes the total
    plant.routed_m[rows] = total
    as_built, override = plant._as_built[rows], plant._override[rows]
    typed_by_hand, measured = ~np.isnan(override), ~np.isnan(as_built)
    if typed_by_hand.any() or measured.any():  # a typed length wins, a measured one over it
        total[typed_by_hand] = override[typed_by_hand]
        total[measured] = as_built[measured]
    plant.length_m[rows] = total
