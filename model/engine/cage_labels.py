"""Cage labels, plug findings and per-link plug explanations of the per-cage choice.

Read by :mod:`model.plant.physical_plant` (which counts the parts) and by the engine's own
explanations; they need only the cage graph of :mod:`model.engine.cages`, so they live in the
engine and the engine never imports the plant. They turn cage keys into
the words a person reads — ``{rack}-U{u} {device} {group} cage {n}`` labels, the findings of the
plug rules, and why each end of one link holds the plug it holds.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

import numpy as np

from model.catalog.parts import row_number
from model.common.findings import Finding, sort_findings
from model.engine.cages import CAGE_STRIDE, MODULE_KINDS, component_shapes

if TYPE_CHECKING:
    from model.engine.link_table import LinkTable


def cage_labels(plant: LinkTable, dev_ids: list[str], nodes: np.ndarray) -> list[str]:
    """``{rack}-U{u} {device} {group} cage {n}`` for each cage key (:func:`cage_label_array`)."""
    return cage_label_array(plant, dev_ids, nodes).tolist()


def cage_label_array(plant: LinkTable, dev_ids: list[str], nodes: np.ndarray) -> np.ndarray:
    """The labels of :func:`cage_labels` as an object array, built per column: the prefix
    ``{rack}-U{u} {device} `` once per device, the ``{group} cage {n}`` part once per device
    type and breakout, then joined for all cages by one numpy ``+`` of the two object arrays
    (a Python f-string per cage costs ~0.7 s at 460k cages). The label is stripped, as the
    text of a device with no rack or a cage with no group label would otherwise end in a space.
    """
    from model.engine.cages import port_cages

    design = plant.design
    nodes = np.asarray(nodes, dtype=np.int64)
    out = np.empty(len(nodes), dtype=object)
    if not len(nodes):
        return out
    number, cage = np.divmod(nodes, CAGE_STRIDE)
    present, local = np.unique(number, return_inverse=True)
    local = local.reshape(-1)
    prefixes: list[str] = []
    kind_of: list[int] = []
    kinds: dict[tuple, int] = {}
    tables: list[dict[int, str]] = []
    for d in present.tolist():
        device = design.devices.get(dev_ids[d])
        if device is None:
            prefixes.append("")
            kind_of.append(-1)
            continue
        type_key = (device.type, tuple(sorted((device.breakout or {}).items())))
        k = kinds.get(type_key)
        if k is None:
            k = kinds[type_key] = len(tables)
            tables.append(
                {
                    c: label
                    for c, _spec, label in port_cages(
                        design.catalog.device_types[device.type], device.breakout
                    ).values()
                }
            )
        rack = design.racks.get(device.rack)
        where = f"{rack.name}-U{device.u}" if rack else device.name
        prefixes.append(f"{where} {device.name} ")
        kind_of.append(k)
    # The group part of every (device kind, cage number); "" where the table has none.
    width = int(cage.max()) + 1
    for table in tables:
        width = max(width, max(table, default=-1) + 1)
    groups = np.full((max(len(tables), 1), width), "", dtype=object)
    for k, table in enumerate(tables):
        for c, label in table.items():
            groups[k, c] = label
    kind = np.array(kind_of, dtype=np.int64)[local]
    known = kind >= 0
    prefix = np.array(prefixes, dtype=object)
    out[known] = prefix[local[known]] + groups[kind[known], cage[known]]
    # str.strip only where it can change the text: a prefix starting with a space, or a group
    # part that is empty or ends with one.
    lead = np.array([p[:1].isspace() for p in prefixes], dtype=bool)
    trail = np.array([[not g or g[-1].isspace() for g in row] for row in groups], dtype=bool)
    fix = np.flatnonzero(known & (lead[local] | trail[np.maximum(kind, 0), cage]))
    for i in fix.tolist():
        out[i] = out[i].strip()
    for i in np.flatnonzero(~known).tolist():
        out[i] = f"{dev_ids[int(number[i])]} cage {int(cage[i])}"
    return out


def plug_findings(plant, dev_ids, rows, nodes, ia, ib, problem) -> list[Finding]:
    if not problem:
        return []
    by_code: dict[str, list[int]] = defaultdict(list)
    for c, (code, _why) in problem.items():
        by_code[code].append(c)
    labels = cage_labels(plant, dev_ids, nodes[sorted(problem)])
    label_of = dict(zip(sorted(problem), labels, strict=True))
    links_of: dict[int, list[str]] = defaultdict(list)
    wanted = set(problem)
    # Only the rows with an end in a wanted cage, found with numpy (a Python pass over every
    # row was ~0.15 s at XL whenever a single cage had a problem).
    marked = np.zeros(len(nodes), dtype=bool)
    marked[np.fromiter(wanted, np.int64, len(wanted))] = True
    hit = np.flatnonzero(marked[ia] | marked[ib])
    for r, a, b in zip(hit.tolist(), ia[hit].tolist(), ib[hit].tolist(), strict=True):
        for c in (a, b):
            if c in wanted and len(links_of[c]) < 4:
                links_of[c].append(plant.link_ids[rows[r]])
    out = []
    for code, cages in by_code.items():
        for c in sorted(cages, key=label_of.__getitem__):
            device = dev_ids[int(nodes[c]) // CAGE_STRIDE]
            out.append(
                Finding(
                    code=code,
                    severity="error",
                    message=f"cage {label_of[c]}: {problem[c][1]}",
                    objects=(device, *links_of[c]),
                )
            )
    return sort_findings(out)


def cage_reasons(plant: LinkTable, link_id: str) -> tuple[str, str]:
    """Why each end's cage holds the plug it holds, in words (A end, B end).

    For example "cage A01-U2 node01 nic cage 1: ports go to 2 different far cages → twin-port
    module 980-9I51A-00NS00 + 1 MPO-12/APC fibre per link". Reads only the link's component.
    """
    from model.engine.cages import SHAPE_NAMES, cage_view

    view = cage_view(plant)
    r = plant.index[link_id]
    rows = (
        plant.component_of(link_id)
        if hasattr(plant, "component_of")
        else np.flatnonzero(view.component == view.component[r])
    )
    m = int(plant.medium_index[r])
    medium = plant.media[m] if m >= 0 else None
    n = len(rows)
    nodes, inv = np.unique(
        np.concatenate([view.cage_a[rows], view.cage_b[rows]]), return_inverse=True
    )
    ia, ib = inv[:n], inv[n:]
    k = int(np.flatnonzero(rows == r)[0])
    # Only the link's two cages are worded (a label depends on its own cage alone), and the
    # component's shape is found only for the one plug sentence that names it: the inspector,
    # tooltips and links table ask this per link, and a leaf's component holds hundreds of
    # cages (labelling them all was ~45 % of a call).
    labels = cage_labels(plant, view.dev_ids, nodes[[ia[k], ib[k]]])
    out = []
    for end, (mine, spec) in enumerate(
        ((int(ia[k]), int(view.spec_a[r])), (int(ib[k]), int(view.spec_b[r])))
    ):
        at_a, at_b = ia == mine, ib == mine
        far = np.unique(np.concatenate([ib[at_a], ia[at_b]]))
        ports = int(np.count_nonzero(at_a) + np.count_nonzero(at_b))
        where = (
            f"ports go to {len(far)} different far cages"
            if len(far) > 1
            else f"{ports} port(s) to one far cage"
        )
        if medium is None:
            plug = "no medium reaches: no plug"
        elif medium.kind == "backplane":
            plug = "rack backplane (comes with the rack)"
        elif medium.kind in MODULE_KINDS:
            part = view.tables.module(m, spec)
            fibre = view.tables.fibre_of.get(m)
            plug = (
                f"module {row_number(part.part_number)} ({medium.name})"
                if part
                else f"no {medium.name} module"
            ) + (
                f" + {len(far) if len(far) > 1 else ports} {fibre.connector} fibre(s)"
                if fibre
                else ""
            )
        else:
            shape, *_ = component_shapes(np.zeros(n, dtype=np.int64), ia, ib, len(nodes))
            plug = f"one end of a {SHAPE_NAMES[int(shape[0])]} {medium.name}"
        out.append(f"cage {labels[end]}: {where} → {plug}")
    return out[0], out[1]
