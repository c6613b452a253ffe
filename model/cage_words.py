"""Why each cage holds its plug, in words, for many links at once (the ``routes`` report).

:func:`model.plant.cage_reasons` explains one link's two cages from that link's component; this
gives the same two sentences for every link asked for, from one pass over the whole cage graph:
the number of link ends in each cage and of distinct far cages it connects to, each component's
shape, each cage's label, and the plug wording once per (medium, cage spec, count, shape). A
cage's component is the connected part of the cage graph, so counting over the whole graph gives
each cage the figures its own component gives it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from model.cages import MODULE_KINDS, SHAPE_NAMES, cage_view, component_shapes

if TYPE_CHECKING:
    from model.cabling import CablePlant


def cage_reason_columns(plant: CablePlant, rows: np.ndarray) -> tuple[list[str], list[str]]:
    """(A end, B end) sentences of :func:`model.plant.cage_reasons` for each of ``rows``."""
    from model.plant_cages import cage_labels

    view = cage_view(plant)
    n = len(plant.link_ids)
    nodes, inv = np.unique(np.concatenate([view.cage_a, view.cage_b]), return_inverse=True)
    inv = inv.reshape(-1)
    ia, ib = inv[:n], inv[n:]
    ports = np.bincount(inv, minlength=len(nodes))
    pairs = np.unique(np.concatenate([ia * len(nodes) + ib, ib * len(nodes) + ia]))
    far = np.bincount(pairs // len(nodes), minlength=len(nodes))
    _, comp = np.unique(view.component, return_inverse=True)
    comp = comp.reshape(-1)
    shape = component_shapes(comp, ia, ib, len(nodes))[0]
    # Only the cages of the rows asked for need a label
    wanted = np.unique(np.concatenate([ia[rows], ib[rows]]))
    label_of = dict(
        zip(wanted.tolist(), cage_labels(plant, view.dev_ids, nodes[wanted]), strict=True)
    )
    count = np.where(far > 1, far, ports)
    where_of = {
        node: f"cage {label_of[node]}: "
        + (
            f"ports go to {count[node]} different far cages"
            if far[node] > 1
            else f"{count[node]} port(s) to one far cage"
        )
        + " → "
        for node in wanted.tolist()
    }
    # The plug wording of each end, once per (medium, cage spec, count, component shape)
    media, tables = plant.media, view.tables
    m = plant.medium_index[rows].astype(np.int64)
    c_shape = shape[comp[rows]].astype(np.int64)
    out = []
    for ends, specs in ((ia[rows], view.spec_a[rows]), (ib[rows], view.spec_b[rows])):
        key = np.stack([m, specs, count[ends], c_shape], axis=1)
        keys, inverse = np.unique(key, axis=0, return_inverse=True)
        plugs = [_plug(media, tables, *map(int, k)) for k in keys.tolist()]
        out.append(
            [
                where_of[e] + plugs[k]
                for e, k in zip(ends.tolist(), inverse.reshape(-1).tolist(), strict=True)
            ]
        )
    return out[0], out[1]


def _plug(media, tables, m: int, spec: int, count: int, shape: int) -> str:
    medium = media[m] if m >= 0 else None
    if medium is None:
        return "no medium reaches: no plug"
    if medium.kind == "backplane":
        return "rack backplane (comes with the rack)"
    if medium.kind in MODULE_KINDS:
        part = tables.module(m, spec)
        fibre = tables.fibre_of.get(m)
        return (
            f"module {part.part_number} ({medium.name})" if part else f"no {medium.name} module"
        ) + (f" + {count} {fibre.connector} fibre(s)" if fibre else "")
    return f"one end of a {SHAPE_NAMES[shape]} {medium.name}"
