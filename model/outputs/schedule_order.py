"""The cabling schedule's rows: which links it lists, their two ends and their order.

Every design link but those on a rack backplane is listed. Each end is a device position and a
port code (the loader's integer codes when the design is unedited since its load); the end that
sorts first by (rack name, U, port) in natural order is the A end, and rows go by A end, then B
end, then link id: one sort of integer keys (natural-order ranks of the distinct names).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import repeat
from operator import attrgetter

import numpy as np

from model.common.natural_sort import natural_key
from model.design.bulk_load import loaded_link_codes
from model.design.design import Design
from model.engine.routed_links import RoutedLinks
from model.outputs.schedule_columns import break_ties_by_id, sorted_by

_A_END, _B_END, _DEVICE, _PORT = (attrgetter(n) for n in ("a", "b", "device", "port"))


@dataclass
class KeptLinks:
    """The links the schedule lists: every design link but those on a rack backplane."""

    ids: list[str]
    recs: list
    keep: np.ndarray  # their positions in design.links
    row: np.ndarray  # their plant rows (-1: not in the plant)
    medium: np.ndarray  # their medium rows (-1: none)


def kept_links(design: Design, plant: RoutedLinks) -> KeptLinks:
    """The design's links but those on a rack backplane, with their plant rows and media."""
    media = plant.media
    all_ids = list(design.links)
    all_recs = list(design.links.values())
    if all_ids == plant.link_ids:
        row_of = np.arange(len(all_ids), dtype=np.int64)
    else:
        index = plant.index
        row_of = np.fromiter(map(index.get, all_ids, repeat(-1)), np.int64, len(all_ids))
    known = row_of >= 0
    medium_all = np.full(len(all_ids), -1, dtype=np.int64)
    medium_all[known] = plant.medium_index[row_of[known]]
    backplane = np.array([m.kind == "backplane" for m in media] + [False])
    keep = np.flatnonzero(~backplane[np.where(medium_all < 0, len(media), medium_all)])
    if len(keep) != len(all_ids):
        ids = [all_ids[k] for k in keep.tolist()]
        recs = [all_recs[k] for k in keep.tolist()]
    else:
        ids, recs = all_ids, all_recs
    return KeptLinks(ids, recs, keep, row_of[keep], medium_all[keep])


@dataclass
class DeviceColumns:
    """Per device of the design, by position: what an end's columns and sort key gather."""

    ids: list[str]
    names: list[str]
    rack_name: list[str]
    rack_rank: np.ndarray  # natural-order rank of the rack name
    u: np.ndarray
    # The drop point of each end (rack and the face its ports are on): cables between the same
    # two drops follow the same trays, so a route's text is made once per pair of drops.
    drop: np.ndarray


def device_columns(design: Design) -> DeviceColumns:
    """Each device's id, name, rack name and rank, U and drop point."""
    racks, types = design.racks, design.catalog.device_types
    dev_objs = list(design.devices.values())
    rack_name = [racks[d.rack].name for d in dev_objs]
    rack_rank_of = _ranks(rack_name)
    rack_no = {rid: k for k, rid in enumerate(dict.fromkeys(d.rack for d in dev_objs))}
    return DeviceColumns(
        list(design.devices),
        [d.name for d in dev_objs],
        rack_name,
        np.array([rack_rank_of[r] for r in rack_name], dtype=np.int64),
        np.array([d.u for d in dev_objs], dtype=np.int64),
        np.array(
            [2 * rack_no[d.rack] + (types[d.type].ports_face == "front") for d in dev_objs],
            dtype=np.int64,
        ),
    )


def schedule_order(
    devs: DeviceColumns, ends: tuple, ids: list[str]
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(swapped, first end, second end, order): the end that sorts first by (rack, U, port)
    is the A end; rows go by A end, then B end, then link id."""
    na, nb, port_list, pca, pcb = ends
    port_rank_of = _ranks(port_list)
    port_rank = np.array([port_rank_of[p] for p in port_list], dtype=np.int64)
    pra, prb = port_rank[pca], port_rank[pcb]
    ka = np.stack([devs.rack_rank[na], devs.u[na], pra])
    kb = np.stack([devs.rack_rank[nb], devs.u[nb], prb])
    # B end first when it sorts first by (rack, U, port): compare the keys lexicographically
    swapped = np.zeros(len(ids), dtype=bool)
    decided = np.zeros(len(ids), dtype=bool)
    for k in range(3):
        swapped |= ~decided & (kb[k] < ka[k])
        decided |= ka[k] != kb[k]
    first = np.where(swapped, nb, na)
    second = np.where(swapped, na, nb)
    k_first, k_second = np.where(swapped, kb, ka), np.where(swapped, ka, kb)
    order = break_ties_by_id(*sorted_by(np.concatenate([k_first, k_second])), ids)
    return swapped, first, second, order


def end_codes(design: Design, recs: list, keep: np.ndarray, device_ids: list[str]) -> tuple:
    """(A device position, B device position, port names, A port code, B port code) of the
    kept links ``recs`` (``keep``: their positions in ``design.links``). A design unedited since
    its load has them as the loader's integer codes (no walk of the records); else they are read
    from the records."""
    codes = loaded_link_codes(design)
    if codes is not None and codes.device_ids == device_ids:
        total = codes.link_count
        return (
            codes.device[:total][keep],
            codes.device[total:][keep],
            list(codes.port_names),
            codes.port[:total][keep],
            codes.port[total:][keep],
        )
    n = len(recs)
    where = {d: k for k, d in enumerate(device_ids)}
    # The ends once, then their fields: two one-level getters beat one two-level getter.
    ends_a, ends_b = list(map(_A_END, recs)), list(map(_B_END, recs))
    na = np.fromiter(map(where.__getitem__, map(_DEVICE, ends_a)), np.int64, n)
    nb = np.fromiter(map(where.__getitem__, map(_DEVICE, ends_b)), np.int64, n)
    ports_a, ports_b = list(map(_PORT, ends_a)), list(map(_PORT, ends_b))
    port_list = list(set(ports_a).union(ports_b))
    port_no = {p: k for k, p in enumerate(port_list)}
    pca = np.fromiter(map(port_no.__getitem__, ports_a), np.int64, n)
    pcb = np.fromiter(map(port_no.__getitem__, ports_b), np.int64, n)
    return na, nb, port_list, pca, pcb


def _ranks(names) -> dict[str, int]:
    """Rank of each distinct name in natural order (names with equal sort keys share a rank)."""
    out: dict[str, int] = {}
    rank, last = -1, None
    for name in sorted(set(names), key=natural_key):
        key = natural_key(name)
        if key != last:
            rank, last = rank + 1, key
        out[name] = rank
    return out
