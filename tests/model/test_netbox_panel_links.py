"""The panels' links read from the schedule's codes (model/outputs/netbox/panel_links.py) are
those read link by link from the design: the same flipped rows, the same device and interface
names at each link's A and B ends, the same media; and the NetBox export from a schedule of
rows (read link by link) is the export from the schedule's columns (read as codes)."""

from __future__ import annotations

import numpy as np
import pytest

from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.outputs.netbox.export import netbox_files, netbox_tables
from model.outputs.netbox.panel_legs import _medium_rows
from model.outputs.netbox.panel_links import (
    ScheduleLinks,
    _flipped_by_ends,
    ends_by_codes,
    ends_by_link,
    schedule_links,
)
from model.outputs.schedule import schedule_table

DESIGNS = {
    "zones-all": lambda: _generated(
        "rail-optimized",
        dict(nodes=32, node_type="dgx-h100", switch="qm9700", su_nodes=16, fabrics="all"),
        "zones",
    ),
    "cross-connect": lambda: _generated("nvl72", dict(racks=2), "cross-connect"),
}


def _generated(template, params, cabling):
    design = generate(template, **params)
    apply_cabling(design, cabling)
    return design


@pytest.fixture(scope="module", params=sorted(DESIGNS))
def design(request):
    return DESIGNS[request.param]()


def _texts(field) -> tuple[list, list]:
    texts, a, b = field
    return [texts[k] for k in a.tolist()], [texts[k] for k in b.tolist()]


def test_flipped_rows_and_ends_by_codes_are_those_found_link_by_link(design):
    plant = RoutedLinks(design)
    table = schedule_table(design, plant, segments=False)
    links = schedule_links(design, table)
    assert links.table is table
    assert links.flipped.tolist() == _flipped_by_ends(design, table.columns).tolist()
    _, turned = table.codes("turned")
    assert turned.any()  # the schedule lists some links from their B end
    names = {d: f"nb-{d}" for d in design.devices}
    rows = np.arange(len(links.ids))[::-1]  # any order of rows
    order = [links.ids[k] for k in rows.tolist()]
    got = ends_by_codes(table, rows, names, plant)
    assert got is not None
    device, port = ends_by_link(design, order, names)
    assert _texts(got[0]) == _texts(device)
    assert _texts(got[1]) == _texts(port)
    assert got[2].tolist() == _medium_rows(plant, order).tolist()


def test_the_export_from_rows_is_the_export_from_the_schedules_codes(design):
    plant = RoutedLinks(design)
    table = schedule_table(design, plant, segments=False)
    by_rows = netbox_files(netbox_tables(design, table.rows(), plant))
    assert netbox_files(netbox_tables(design, table, plant)) == by_rows


@pytest.mark.parametrize(
    "labels",
    [
        ["b", "a", "d", "c", "e"],  # unique: one sort by label
        ["x", "a", "x", "a", "b"],  # shared: ties go by link id
        ["", "k", "", "a", "k"],  # none: the link's own label or its id
    ],
)
def test_label_order_is_label_then_link_id(labels):
    from model.outputs.netbox.panel_records import LinkFacts
    from model.outputs.netbox.panels import _label_order

    class _Link:
        label = ""

    class _Design:
        links = {i: _Link() for i in ("l9", "l3", "l7", "l1", "l5")}

    ids = list(_Design.links)
    links = ScheduleLinks(ids, labels, np.zeros(len(ids), dtype=bool), None)
    at = np.array([0, 1, 2, 3, 4])
    order, rows, got = _label_order(links, at, LinkFacts(_Design(), None, {}))
    named = [label or i for i, label in zip(ids, labels, strict=True)]
    want = sorted(zip(named, ids, range(len(ids)), strict=True))
    assert order == [i for _, i, _ in want]
    assert rows.tolist() == [k for *_, k in want]
    assert got == [label for label, *_ in want]
