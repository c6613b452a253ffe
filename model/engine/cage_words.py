"""Why each cage holds its plug, in words, for many links at once (the ``routes`` report).

:func:`model.engine.cage_labels.cage_reasons` explains one link's two cages from that link's component; this
gives the same two sentences for every link asked for, from one pass over the whole cage graph:
the number of link ends in each cage and of distinct far cages it connects to, each component's
shape, each cage's label, and the plug wording once per (medium, cage spec, count, shape). A
cage's component is the connected part of the cage graph, so counting over the whole graph gives
each cage the figures its own component gives it.

The sentences come as pieces (:mod:`model.common.text_columns`): "cage ", the label in two pieces (the
device's part, worded once per device, and the cage's part, once per device type and cage) and
the rest of the sentence, worded once per distinct (medium, spec, count, shape).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from model.catalog.parts import row_number
from model.common.arrays import unique_sorted
from model.common.text_columns import codes, formatted, join_rows
from model.engine.cages import CAGE_STRIDE, MODULE_KINDS, SHAPE_NAMES, cage_view, component_shapes

if TYPE_CHECKING:
    from model.engine.link_table import LinkTable


def cage_reason_columns(plant: LinkTable, rows: np.ndarray) -> tuple[list[str], list[str]]:
    """(A end, B end) sentences of :func:`model.engine.cage_labels.cage_reasons` for each of ``rows``."""
    ends = cage_word_columns(plant, rows)
    return join_rows(len(rows), ["cage ", *ends[0]]), join_rows(len(rows), ["cage ", *ends[1]])


def cage_word_columns(plant: LinkTable, rows: np.ndarray) -> tuple[list, list]:
    """:func:`cage_reason_columns` as columns of pieces (A end, B end), each sentence "cage "
    and its three pieces: the label's two and the rest."""
    rows = np.asarray(rows, dtype=np.int64)
    view = cage_view(plant)
    n = len(plant.link_ids)
    graph = getattr(plant, "cage_graph", None)  # None: a stand-in plant without one
    if graph is not None and len(graph[1]) == n:
        comp, ia, ib, n_nodes = graph  # the plant's cage graph (cages numbered in key order)
    else:
        nodes, inv = np.unique(np.concatenate([view.cage_a, view.cage_b]), return_inverse=True)
        inv = inv.reshape(-1)
        ia, ib, n_nodes = inv[:n], inv[n:], len(nodes)
        comp = codes(view.component)[1]
    ports = np.bincount(np.concatenate([ia, ib]), minlength=n_nodes)
    pairs = unique_sorted(np.concatenate([ia * n_nodes + ib, ib * n_nodes + ia]))
    far = np.bincount(pairs // n_nodes, minlength=n_nodes)
    shape = component_shapes(comp, ia, ib, n_nodes)[0]
    count = np.where(far > 1, far, ports)
    m = plant.medium_index[rows].astype(np.int64)
    c_shape = shape[comp[rows]].astype(np.int64)
    k = len(rows)
    # Both ends' labels in one pass (a device is worded once however many ends it has)
    left, right = cage_label_pieces(
        plant, view.dev_ids, np.concatenate([view.cage_a[rows], view.cage_b[rows]])
    )
    out = []
    for side, (ends, specs) in enumerate(
        ((ia[rows], view.spec_a[rows]), (ib[rows], view.spec_b[rows]))
    ):
        tail = _tails(plant, view.tables, m, specs, count[ends], far[ends] > 1, c_shape)
        out.append([left[side * k : (side + 1) * k], right[side * k : (side + 1) * k], tail])
    return out[0], out[1]


def cage_label_pieces(
    plant: LinkTable, dev_ids: list[str], keys: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """(left, right) object arrays whose concatenation is
    :func:`model.engine.cage_labels.cage_labels` of each cage key: the device's words
    ``{rack}-U{u} {device} `` worded once per device, the cage's label once per device type,
    breakout and cage number (the stripped label is the left part stripped on the left and the
    right part on the right, or the device's words stripped whole when the cage has no label)."""
    from model.engine.cages import port_cages

    design = plant.design
    keys = np.asarray(keys, dtype=np.int64)
    numbers, of_key = codes(keys // CAGE_STRIDE)
    cage = keys % CAGE_STRIDE
    kinds: dict[tuple, int] = {}
    cage_tables: list[dict[int, str]] = []
    kind_of = np.full(len(numbers), -1, dtype=np.int64)
    lstripped = np.empty(len(numbers), dtype=object)
    stripped = np.empty(len(numbers), dtype=object)
    for k, number in enumerate(numbers.tolist()):
        device = design.devices.get(dev_ids[number])
        if device is None:
            lstripped[k] = stripped[k] = f"{dev_ids[number]} cage "
            continue
        kind = (device.type, tuple(sorted((device.breakout or {}).items())))
        if kind not in kinds:
            kinds[kind] = len(cage_tables)
            cage_tables.append(
                {
                    c: label
                    for c, _spec, label in port_cages(
                        design.catalog.device_types[device.type], device.breakout
                    ).values()
                }
            )
        kind_of[k] = kinds[kind]
        rack = design.racks.get(device.rack)
        where = f"{rack.name}-U{device.u}" if rack else device.name
        words = f"{where} {device.name} "
        lstripped[k], stripped[k] = words.lstrip(), words.strip()
    dev_kind = kind_of[of_key]
    known = dev_kind >= 0
    pairs, of_pair = codes(np.where(known, dev_kind * CAGE_STRIDE + cage, -1))
    suffix_r, suffix_s = np.empty(len(pairs), dtype=object), np.empty(len(pairs), dtype=object)
    for p, pair in enumerate(pairs.tolist()):
        label = cage_tables[pair // CAGE_STRIDE].get(pair % CAGE_STRIDE, "") if pair >= 0 else ""
        suffix_r[p], suffix_s[p] = label.rstrip(), label.strip()
    right_r, right_s = suffix_r[of_pair], suffix_s[of_pair]
    device_blank = (lstripped == "")[of_key]
    no_label = right_r == ""
    left = np.where(no_label, stripped[of_key], lstripped[of_key])
    right = np.where(device_blank, right_s, right_r)
    if not known.all():  # a device the design no longer has: "{id} cage {n}", unstripped
        gone = np.flatnonzero(~known)
        left[gone] = lstripped[of_key[gone]]
        right[gone] = formatted(cage[gone], str)
    return left, right


def _tails(plant, tables, m, specs, count, spread, shape) -> np.ndarray:
    """``": {where} → {plug}"`` per row, worded once per (medium, spec, count, spread, shape)."""
    n_specs = int(specs.max(initial=0)) + 2
    n_count = int(count.max(initial=0)) + 1
    key = ((m + 1) * n_specs + specs + 1) * 8 + shape.astype(np.int64) * 2 + spread
    distinct, inverse = codes(key * n_count + count)
    texts = np.empty(len(distinct), dtype=object)
    for k, value in enumerate(distinct.tolist()):
        rest, c = divmod(value, n_count)
        rest, spread_bit = divmod(rest, 2)
        rest, shape_k = divmod(rest, 4)
        medium, spec = divmod(rest, n_specs)
        where = (
            f"ports go to {c} different far cages" if spread_bit else f"{c} port(s) to one far cage"
        )
        texts[k] = f": {where} → {_plug(plant.media, tables, medium - 1, spec - 1, c, shape_k)}"
    return texts[inverse]


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
            f"module {row_number(part.part_number)} ({medium.name})"
            if part
            else f"no {medium.name} module"
        ) + (f" + {count} {fibre.connector} fibre(s)" if fibre else "")
    return f"one end of a {SHAPE_NAMES[shape]} {medium.name}"
