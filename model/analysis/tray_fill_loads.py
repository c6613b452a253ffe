"""A tray's figures at their worst points (:class:`TrayLoad`), and what lets a tray fill be
carried over a tray edit instead of counted again.

A tray edit re-routes on the same rows and drop points: the plant names its routes again in a
new route generation, and a row's route id there is the one it had (a route is its pair of
drops, see :mod:`model.engine.route_renames`). The per-(route, medium) counts then stand but
for the rows whose medium changed; only the routes' intervals are new
(:meth:`~model.analysis.tray_fill.TrayFill.forget_spans`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class TrayLoad:
    """A tray's figures at their worst points: fill, weight against its load class, bend."""

    fill_ratio: float
    load_kg_per_m: float
    load_limit_kg_per_m: float
    load_at: tuple[float, float] | None
    bend_radius_mm: float  # the largest minimum bend radius of a cable turning in this tray
    corner_radius_mm: float

    @property
    def overloaded(self) -> bool:
        return self.load_kg_per_m > self.load_limit_kg_per_m + 1e-12

    @property
    def bend_too_tight(self) -> bool:
        return self.bend_radius_mm > self.corner_radius_mm + 1e-9


def carried_counts(fill, plant, state: tuple) -> bool:
    """Whether ``fill`` (a :class:`~model.analysis.tray_fill.TrayFill`) may keep its counts for
    ``plant`` at ``state`` ((plant identity, route generation, media ids)): the same plant and
    media list, the same rows, and every row's route id as counted. Then ``state`` becomes the
    counted one (the rows whose medium differs are recounted by the caller, as after a move).
    """
    kept = fill._plant_state
    if kept is None or kept[0] != state[0] or kept[2] != state[2]:
        return False
    if len(fill._row_route) != len(plant.link_ids):
        return False
    if not np.array_equal(np.asarray(plant.route_keys()), fill._row_route):
        return False
    fill._plant_state = state
    return True


def in_key_order(
    route: np.ndarray, medium: np.ndarray, count: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The (route, medium, count) rows sorted by (route, medium), as a full count makes them:
    per-route float sums taken in this order are those of a full count, whatever order an
    updated count added its keys in (a no-op, no copy, when they are in order already)."""
    if len(route) < 2:
        return route, medium, count
    code = route * (int(medium.max()) + 1) + medium
    if not (code[1:] < code[:-1]).any():
        return route, medium, count
    order = np.argsort(code, kind="stable")
    return route[order], medium[order], count[order]
