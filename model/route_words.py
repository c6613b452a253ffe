"""A routed length explained in words, piece by piece, for installers who distrust opaque
numbers: which face each device's ports are on, where the cable drops, which trays it follows.

Example: "hop B: rear drop of N1 to the tray, 0.30 m". The figures are the engine's
(``LinkRoute``); this module only names them. :func:`route_word_table` gives the one-line
``LinkRoute.describe()`` of many links at once, as pieces (each length formatted once per
distinct value).
"""

from __future__ import annotations

import numpy as np

from model.design import Design
from model.geometry import METHOD_SAME_RACK, METHOD_TRAY, LinkRoute
from model.text_columns import formatted, lookup, piece_table


def port_face(design: Design, device_id: str) -> str:
    """ "front" or "rear": the face of its rack a device's ports are on (its catalog type's)."""
    return design.device_type(design.devices[device_id]).ports_face


def explain_route(design: Design, link_id: str, route: LinkRoute) -> list[str]:
    """One line per piece of ``route`` (the link's routed length), in cable order, then the
    total."""
    link = design.links[link_id]
    a, b = design.devices[link.a.device], design.devices[link.b.device]
    rack_a, rack_b = design.racks[a.rack].name, design.racks[b.rack].name
    face_a, face_b = port_face(design, a.id), port_face(design, b.id)
    lines: list[str] = []
    if route.method == "same-rack":
        lines.append(
            f"in rack {rack_a}: {a.name}:{link.a.port} ({face_a}, U{a.u}) to "
            f"{b.name}:{link.b.port} ({face_b}, U{b.u}), {route.vertical_a_m:.2f} m"
            + (" round the side" if face_a != face_b else "")
        )
    elif route.method == "tray":
        trays = ", ".join(design.trays[t].name or t for t in route.tray_ids if t in design.trays)
        lines += [
            f"vertical A: from {a.name}:{link.a.port} ({face_a}, U{a.u}) to the tray, "
            f"{route.vertical_a_m:.2f} m",
            f"hop A: {face_a} drop of {rack_a} to the tray, {route.hop_a_m:.2f} m",
            f"tray: along {trays or 'the trays'}, {route.tray_m:.2f} m",
            f"hop B: {face_b} drop of {rack_b} to the tray, {route.hop_b_m:.2f} m",
            f"vertical B: from the tray to {b.name}:{link.b.port} ({face_b}, U{b.u}), "
            f"{route.vertical_b_m:.2f} m",
        ]
    else:
        lines += [
            f"down A: from {a.name}:{link.a.port} ({face_a}) to the floor, "
            f"{route.vertical_a_m:.2f} m",
            f"floor: no tray path, along the floor from {rack_a} to {rack_b}, "
            f"{route.floor_m:.2f} m",
            f"up B: from the floor to {b.name}:{link.b.port} ({face_b}), "
            f"{route.vertical_b_m:.2f} m",
        ]
    s = design.settings
    lines.append(
        f"slack: {s.slack_per_end_m:g} m per end + {s.slack_pct:g} % of the run, "
        f"{route.slack_m:.2f} m"
    )
    lines.append(f"= {route.total_m:.2f} m routed")
    return lines


def _two_places(value: float) -> str:
    return f"{value:.2f}"


# The labels before the second to fifth figure of a route line, per method (METHOD_*)
_LABELS = {
    METHOD_SAME_RACK: ("in rack ", "", "", "", ""),
    METHOD_TRAY: ("vertical A ", " + hop A ", " + tray ", " + hop B ", " + vertical B "),
}
_FLOOR_LABELS = ("down A ", " + floor ", " + up B ", "", "")


def route_word_table(
    method: np.ndarray,
    vertical_a: np.ndarray,
    hop_a: np.ndarray,
    tray: np.ndarray,
    hop_b: np.ndarray,
    vertical_b: np.ndarray,
    floor: np.ndarray,
    slack: np.ndarray,
    total: np.ndarray,
) -> np.ndarray:
    """``LinkRoute.describe()`` of each row as a piece table (:mod:`model.text_columns`), from
    the engine's per-link length arrays (m) and ``METHOD_*`` codes: 15 pieces per row, labels
    chosen by method, each length worded to two places once per distinct value."""
    n = len(method)
    method = np.asarray(method, dtype=np.int64)
    kinds = np.where(method == METHOD_SAME_RACK, 0, np.where(method == METHOD_TRAY, 1, 2))
    tables = list(zip(_LABELS[METHOD_SAME_RACK], _LABELS[METHOD_TRAY], _FLOOR_LABELS, strict=True))
    labels = [lookup(t, kinds) for t in tables]
    va, ha, tr, hb, vb, fl = (
        formatted(v, _two_places) for v in (vertical_a, hop_a, tray, hop_b, vertical_b, floor)
    )
    on_tray, on_floor = kinds == 1, kinds == 2
    x1 = np.where(on_tray, ha, np.where(on_floor, fl, ""))
    x2 = np.where(on_tray, tr, np.where(on_floor, vb, ""))
    x3 = np.where(on_tray, hb, "")
    x4 = np.where(on_tray, vb, "")
    return piece_table(
        n,
        [
            labels[0],
            va,
            labels[1],
            x1,
            labels[2],
            x2,
            labels[3],
            x3,
            labels[4],
            x4,
            " + slack ",
            formatted(slack, _two_places),
            " = ",
            formatted(total, _two_places),
            " m",
        ],
    )
