"""A tray corner dragged by up to 1.5 m, as a user drops it: the random tray edit the
re-routing tests (test_tray_reroute, test_tray_rows, test_retray_copy, test_tray_edit_analysis)
apply and then compare with a fresh routing."""

from __future__ import annotations


def nudged_corner(points, rng) -> list:
    """``points`` with one corner, drawn by ``rng``, moved by up to 1.5 m in x and in y."""
    points = list(points)
    k = rng.randrange(len(points))
    x, y = points[k]
    points[k] = (round(x + rng.uniform(-1.5, 1.5), 3), round(y + rng.uniform(-1.5, 1.5), 3))
    return points


def routed_trays(plant) -> list[str]:
    """The trays some route of ``plant`` follows, sorted (routes named first)."""
    plant.route_keys()
    return sorted({t for k in range(plant.route_count) for t, _, _ in plant.tray_spans(k)})


def corner_moved(design, plant, rng) -> str:
    """A corner of a tray some route follows moved (:func:`nudged_corner`); the tray's id."""
    tray_id = rng.choice(routed_trays(plant))
    design.set_tray_points(tray_id, nudged_corner(design.trays[tray_id].points, rng))
    return tray_id
