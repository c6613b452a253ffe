"""Cage labels, plug findings and per-link plug explanations of the physical plant.

Split out of :mod:`model.plant` (which counts the parts): these turn the plant's cage keys into
the words a person reads — ``{rack}-U{u} {device} {group} cage {n}`` labels, the findings of the
plug rules, and why each end of one link holds the plug it holds.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING

import numpy as np

from model.cages import CAGE_STRIDE, MODULE_KINDS, component_shapes
from model.findings import Finding, sort_findings

if TYPE_CHECKING:
    from model.cabling import CablePlant


def cage_labels(plant: CablePlant, dev_ids: list[str], nodes: np.ndarray) -> list[str]:
    """``{rack}-U{u} {device} {group} cage {n}`` for each cage key (worked out once per device
    and per device type and breakout, then filled in per cage)."""
    from model.cages import port_cages

    design = plant.design
    out = []
    prefix: dict[int, tuple[str, dict[int, str]] | None] = {}
    tables: dict[tuple, dict[int, str]] = {}
    for key in nodes.tolist():
        number, cage = divmod(key, CAGE_STRIDE)
        known = prefix.get(number, False)
        if known is False:
            device = design.devices.get(dev_ids[number])
            if device is None:
                known = None
            else:
                kind = (device.type, tuple(sorted((device.breakout or {}).items())))
                table = tables.get(kind)
                if table is None:
                    table = tables[kind] = {
                        c: label
                        for c, _spec, label in port_cages(
                            design.catalog.device_types[device.type], device.breakout
                        ).values()
                    }
                rack = design.racks.get(device.rack)
                where = f"{rack.name}-U{device.u}" if rack else device.name
                known = (f"{where} {device.name} ", table)
            prefix[number] = known
        if known is None:
            out.append(f"{dev_ids[number]} cage {cage}")
        else:
            out.append(f"{known[0]}{known[1].get(cage, '')}".strip())
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
    for r, (a, b) in enumerate(zip(ia.tolist(), ib.tolist(), strict=True)):
        for c in (a, b):
            if c in wanted and len(links_of[c]) < 4:
                links_of[c].append(plant.link_ids[rows[r]])
    out = []
    for code, cages in by_code.items():
        for c in sorted(cages, key=label_of.get):
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


def cage_reasons(plant: CablePlant, link_id: str) -> tuple[str, str]:
    """Why each end's cage holds the plug it holds, in words (A end, B end).

    For example "cage A01-U2 node01 nic cage 1: ports go to 2 different far cages → twin-port
    module 980-9I51A-00NS00 + 1 MPO-12/APC fibre per link". Reads only the link's component.
    """
    from model.cages import SHAPE_NAMES, cage_view

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
    shape, *_ = component_shapes(np.zeros(n, dtype=np.int64), ia, ib, len(nodes))
    labels = cage_labels(plant, view.dev_ids, nodes)
    k = int(np.flatnonzero(rows == r)[0])
    out = []
    for mine, spec in ((int(ia[k]), int(view.spec_a[r])), (int(ib[k]), int(view.spec_b[r]))):
        far = {int(b) for a, b in zip(ia.tolist(), ib.tolist(), strict=True) if a == mine} | {
            int(a) for a, b in zip(ia.tolist(), ib.tolist(), strict=True) if b == mine
        }
        ports = int(np.sum(ia == mine) + np.sum(ib == mine))
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
                f"module {part.part_number} ({medium.name})" if part else f"no {medium.name} module"
            ) + (
                f" + {len(far) if len(far) > 1 else ports} {fibre.connector} fibre(s)"
                if fibre
                else ""
            )
        else:
            plug = f"one end of a {SHAPE_NAMES[int(shape[0])]} {medium.name}"
        out.append(f"cage {labels[nodes.tolist().index(int(nodes[mine]))]}: {where} → {plug}")
    return out[0], out[1]
