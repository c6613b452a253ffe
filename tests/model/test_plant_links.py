"""The column-wise per-link parts and cage labels equal the per-link builders they replace (#13).

The old builders are kept here as the reference: ``cage_labels`` (one f-string per cage) and
``_link_parts`` (one tuple per link in a dict) of main at 1e26cb8. They run on generated fabrics
of every template (``--fabrics all``, structured cabling styles) and under every media policy;
the schedule of those fabrics is compared with the row-by-row schedule builder of
``test_export_columns``, including plants that miss links and plain-dict link parts.
"""

from __future__ import annotations

import random

import msgspec
import numpy as np
import pytest

from model.catalog.parts import part_number_for, row_number
from model.design.design import Design
from model.engine.cage_labels import cage_label_array, cage_labels
from model.engine.cages import CAGE_STRIDE, cage_view, port_cages
from model.engine.media import POLICIES
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.outputs.schedule import schedule_rows
from model.outputs.schedule_columns import break_ties_by_id as _break_ties_by_id
from model.outputs.schedule_columns import sorted_by as _sorted_by
from model.plant.links import LinkParts
from model.plant.physical_plant import PhysicalPlant, build_plant, link_plugs
from model.structured.layout import uses_structured
from tests.model.test_export_columns import _old_schedule_rows

FABRICS = {
    "leaf-spine": ("leaf-spine", dict(nodes=48, node_type="dgx-h100", switch="qm9700"), None),
    "fat-tree-k8": ("fat-tree", dict(k=8), None),
    "rail-all": (
        "rail-optimized",
        dict(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, fabrics="all"),
        None,
    ),
    "rail-cross-connect": (
        "rail-optimized",
        dict(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32),
        "cross-connect",
    ),
    "nvl72-all-zones": ("nvl72", dict(racks=4, fabrics="all"), "zones"),
    "nvl72-gb300": ("nvl72", dict(racks=4, platform="gb300"), None),
}


@pytest.fixture(scope="module", params=sorted(FABRICS))
def fabric(request) -> Design:
    template, params, cabling = FABRICS[request.param]
    design = generate(template, **params)
    if cabling:
        apply_cabling(design, cabling)
    return design


# ---- the per-cage and per-link builders this change replaced (main at 1e26cb8)


def _old_cage_labels(plant, dev_ids, nodes) -> list[str]:
    design = plant.design
    out = []
    prefix: dict = {}
    tables: dict = {}
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


def _old_link_parts(
    plant, rows, backplane, labels, ends, module_names, module_of, cables, fibres, with_backplane
) -> dict[str, tuple]:
    link_ids = plant.link_ids
    ia, ib = ends
    comp, comp_rows, cable_of_comp = cables
    fibre_part_of_row, fibre_names, ordered = fibres
    names = [*module_names, ""]
    plug = [names[k] for k in np.where(module_of >= 0, module_of, len(module_names)).tolist()]
    ids = [link_ids[r] for r in rows.tolist()]
    cable_id, part = list(ids), [""] * len(ids)
    for c, (cpart, length) in cable_of_comp.items():
        members = comp_rows[c]
        first = min(ids[x] for x in members)
        name = part_number_for(cpart.part_number, length)
        shared = first if len(members) == 1 else f"{first}+"
        for x in members:
            cable_id[x], part[x] = shared, name
    for r in np.flatnonzero(fibre_part_of_row >= 0).tolist():
        if int(comp[r]) in cable_of_comp:
            continue
        part[r] = part_number_for(fibre_names[int(fibre_part_of_row[r])], float(ordered[r]))
    out = {
        lid: (cid, labels[a], labels[b], plug[a], plug[b], p)
        for lid, cid, a, b, p in zip(ids, cable_id, ia.tolist(), ib.tolist(), part, strict=True)
    }
    if with_backplane:
        for r in np.flatnonzero(backplane).tolist():
            out[link_ids[r]] = ("", "", "", "", "", "rack backplane")
    return out


def _old_plant_link_parts(plant) -> dict[str, tuple]:
    """``build_plant(plant, with_links=True).link_parts`` as main built it, from the same
    count (the tally is unchanged by this change)."""
    from model.plant.tally import cage_graph, tally

    view = cage_view(plant)
    media = list(plant.media)
    medium = np.asarray(plant.medium_index, dtype=np.int64)
    kinds = [m.kind for m in media] + ["none"]
    backplane = np.array([k == "backplane" for k in kinds])[
        np.where(medium < 0, len(media), medium)
    ]
    rows = np.flatnonzero(~backplane)
    if not len(rows):
        return {}
    graph = cage_graph(view, rows)
    ordered = np.asarray(plant.ordered_m)[rows]
    count = tally(
        view.tables, graph, np.arange(len(rows)), medium[rows], ordered, np.zeros(len(rows), int)
    )
    return _old_link_parts(
        plant,
        rows,
        backplane,
        _old_cage_labels(plant, view.dev_ids, graph.nodes),
        (graph.ia, graph.ib),
        [p.part_number for p in count.module_parts],
        count.module_of,
        (graph.comp, count.comp_rows, count.cable_of_comp),
        (count.fibre_part_of_row, [f.part_number for f in count.fibre_parts], ordered),
        True,
    )


# ---- the tests


@pytest.mark.parametrize("policy", POLICIES)
def test_link_parts_equal_the_per_link_builder_in_content_and_order(fabric, policy):
    plant = RoutedLinks(fabric, policy)
    parts = build_plant(plant, with_links=True).link_parts
    old = _old_plant_link_parts(plant)
    assert isinstance(parts, LinkParts)
    assert list(parts.items()) == list(old.items())
    assert list(parts) == list(old) and list(parts.values()) == list(old.values())
    assert parts == old and len(parts) == len(old)
    for link_id in random.Random(7).sample(list(old), 20):
        assert parts[link_id] == old[link_id] and link_id in parts
    assert "no such link" not in parts and parts.get("no such link") is None


def test_cage_labels_equal_the_per_cage_labels_including_odd_names(fabric):
    plant = RoutedLinks(fabric)
    view = cage_view(plant)
    nodes = np.unique(np.concatenate([view.cage_a, view.cage_b]))
    assert cage_labels(plant, view.dev_ids, nodes) == _old_cage_labels(plant, view.dev_ids, nodes)
    # Cage numbers no port group has, a device no longer in the design, names with spaces.
    device_id = view.dev_ids[0]
    odd = fabric.devices[device_id]
    design = fabric
    design.update_devices([msgspec.structs.replace(odd, name=" spaced name ")])
    ids = [*view.dev_ids, "gone-device"]
    keys = np.array(
        [
            0 * CAGE_STRIDE + 0,
            0 * CAGE_STRIDE + CAGE_STRIDE - 1,
            (len(ids) - 1) * CAGE_STRIDE + 3,
            *nodes[:50].tolist(),
        ],
        dtype=np.int64,
    )
    try:
        got = cage_label_array(plant, ids, keys).tolist()
        assert got == _old_cage_labels(plant, ids, keys)
        assert got[2] == "gone-device cage 3"
    finally:
        design.update_devices([odd])


def test_link_parts_are_a_snapshot_of_the_plant_when_built(fabric):
    design = fabric
    plant = RoutedLinks(design)
    parts = build_plant(plant, with_links=True).link_parts
    before = list(parts.items())
    removed = next(iter(parts))
    link = design.links[removed]
    design.remove_links([removed])
    try:
        plant.refresh()  # rows move: the last row fills the hole
        assert list(parts.items()) == before and parts[removed] == before[0][1]
    finally:
        design.add_links([link])


def test_link_plugs_of_single_links_equal_the_whole_plant_parts(fabric):
    plant = RoutedLinks(fabric)
    old = _old_plant_link_parts(plant)
    cabled = [k for k, v in old.items() if v[5] != "rack backplane"]  # the inspector's case
    for link_id in random.Random(3).sample(cabled, 8):
        cable_id, a_cage, b_cage, a_mod, b_mod, part = old[link_id]
        plugs = link_plugs(plant, link_id)
        # part numbers as the BOM lists them ("quote" for a catalog EST- estimate)
        assert (plugs["a_cage"], plugs["b_cage"]) == (a_cage, b_cage)
        assert plugs["part"] == row_number(part)
        assert plugs["a_plug"] == (row_number(a_mod) or ("cable end" if part else ""))


def test_schedule_of_a_plant_missing_links_equals_the_row_builder(fabric):
    design = fabric
    if uses_structured(design):
        pytest.skip("a structured layout needs a plant that knows every link of the design")
    plant = RoutedLinks(design)
    plant.close()  # stops following the design: a link renamed now is unknown to the plant
    first = next(iter(design.links.values()))
    design.remove_links([first.id])
    design.add_links([msgspec.structs.replace(first, id="zz-renamed", label="")])
    try:
        assert "zz-renamed" not in plant.index
        # A link the plant has not routed has no route (the row builder borrowed the route of
        # another link between the same rack faces; main's column-wise table already did not).
        expected = [
            row if row.link_id in plant.index else msgspec.structs.replace(row, route="")
            for row in _old_schedule_rows(design, plant)
        ]
        got = schedule_rows(design, plant, segments=False)
        assert got == expected
        assert [r.medium for r in got if r.link_id == "zz-renamed"] == [""]
    finally:
        design.remove_links(["zz-renamed"])
        design.add_links([first])


def test_schedule_with_plain_dict_link_parts_equals_the_row_builder(fabric):
    plant = RoutedLinks(fabric)
    phys = build_plant(plant, with_links=True)
    as_dict = PhysicalPlant(link_parts=dict(phys.link_parts.items()))
    rows = schedule_rows(fabric, plant, as_dict, segments=False)
    assert (
        rows
        == _old_schedule_rows(fabric, plant)
        == schedule_rows(fabric, plant, phys, segments=False)
    )


@pytest.mark.parametrize("policy", POLICIES)
def test_per_link_schedule_of_every_template_equals_the_row_builder(fabric, policy):
    plant = RoutedLinks(fabric, policy)
    assert schedule_rows(fabric, plant, segments=False) == _old_schedule_rows(fabric, plant)


@pytest.mark.parametrize("seed", range(6))
def test_packed_sort_keys_order_rows_as_a_lexsort(seed):
    rng = np.random.default_rng(seed)
    n = 500
    high = [4, 60, 5000, 2**40][seed % 4]
    keys = rng.integers(0, high, size=(6, n))
    if seed == 5:
        keys[2, 7] = -1  # a negative key: the lexsort path
    order, sorted_keys = _sorted_by(keys)
    expected = np.lexsort(tuple(keys[::-1]))
    assert order.tolist() == expected.tolist()
    ids = [f"l-{rng.integers(0, 10**6)}" for _ in range(n)]
    tied = _break_ties_by_id(order, sorted_keys, ids)
    reference = sorted(range(n), key=lambda k: (*keys[:, k].tolist(), ids[k]))
    assert tied.tolist() == reference
