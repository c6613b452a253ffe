"""A routed length explained in words, piece by piece, for installers who distrust opaque
numbers: which face each device's ports are on, where the cable drops, which trays it follows.

Example: "hop B: rear drop of N1 to the tray, 0.30 m". The figures are the engine's
(``LinkRoute``); this module only names them. :func:`route_word_columns` gives the one-line
``LinkRoute.describe()`` of many links at once, as pieces (each length formatted once per
distinct value).
"""

from __future__ import annotations

import numpy as np

from model.common.text_columns import Columns, fixed
from model.design.design import Design
from model.engine.geometry import METHOD_SAME_RACK, METHOD_TRAY, LinkRoute


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


def route_word_columns(
    method: np.ndarray,
    vertical_a: np.ndarray,
    hop_a: np.ndarray,
    tray: np.ndarray,
    hop_b: np.ndarray,
    vertical_b: np.ndarray,
    floor: np.ndarray,
    slack: np.ndarray,
    total: np.ndarray,
    end: str = "",
) -> Columns:
    """``LinkRoute.describe() + end`` of each row as 7 columns of pieces
    (:mod:`model.common.text_columns`), from the engine's per-link length arrays (m) and ``METHOD_*``
    codes: each figure worded with the label before it (which depends on the method), once
    per distinct value."""
    n = len(method)
    method = np.asarray(method, dtype=np.int64)
    same, on_tray = method == METHOD_SAME_RACK, method == METHOD_TRAY
    on_floor = ~same & ~on_tray
    first = _labelled(
        n,
        (vertical_a, same, "in rack "),
        (vertical_a, on_tray, "vertical A "),
        (vertical_a, on_floor, "down A "),
    )
    x1 = _labelled(n, (hop_a, on_tray, " + hop A "), (floor, on_floor, " + floor "))
    x2 = _labelled(n, (tray, on_tray, " + tray "), (vertical_b, on_floor, " + up B "))
    x3 = _labelled(n, (hop_b, on_tray, " + hop B "))
    x4 = _labelled(n, (vertical_b, on_tray, " + vertical B "))
    slack_words = fixed(slack, 2, " + slack ")
    last = fixed(total, 2, " = ", f" m{end}")
    return [first, x1, x2, x3, x4, slack_words, last]


def _labelled(n: int, *cases: tuple[np.ndarray, np.ndarray, str]) -> np.ndarray | str:
    """``f"{label}{v:.2f}"`` of ``values`` on the rows of each (values, mask, label) case, ""
    elsewhere (just "" when no row has one)."""
    out: np.ndarray | None = None
    for values, mask, label in cases:
        if mask.all():
            return fixed(values, 2, label)
        where = np.flatnonzero(mask)
        if len(where):
            if out is None:
                out = np.full(n, "", dtype=object)
            out[where] = fixed(values[where], 2, label)
    return "" if out is None else out
