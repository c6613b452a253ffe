"""Impossible or unreasonable requests are refused with a sentence, before anything is allocated."""

from __future__ import annotations

import tracemalloc

import pytest

from model.catalog.components import builtin_catalog
from model.generators.generate import GenerateError, generate, preview

BAD = [
    # a switch with too few ports for the requested nodes (3 tiers of 64 ports hold 64 pods)
    (
        "rail-optimized",
        dict(nodes=100_000, node_type="dgx-h100", switch="qm9700", su_nodes=32),
        "three tiers of 64-port switches hold at most 64 pods",
    ),
    (
        "rail-optimized",
        dict(nodes=512, node_type="dgx-h100", switch="qm9700", su_nodes=32, tiers="2"),
        "use --tiers 3",
    ),
    (
        "leaf-spine",
        dict(nodes=2000, node_type="dgx-h100", switch="qm9700"),
        "ask for at most 256 nodes",
    ),
    (
        "leaf-spine",
        dict(
            nodes=10, node_type="dgx-h100", switch="qm9700", oversubscription=15, reserve_ports=60
        ),
        "reserve fewer ports",
    ),
    ("fat-tree", dict(k=16, switch="mgmt-switch-48x1g"), "not a fabric switch"),
    ("fat-tree", dict(k=80, switch="qm9700"), "fewer than k = 80"),
    # an oversubscription that leaves no uplink
    (
        "rail-optimized",
        dict(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=64),
        "leaves no uplink on a 64-port",
    ),
    (
        "leaf-spine",
        dict(nodes=64, node_type="dgx-h100", switch="qm9700", oversubscription=0),
        "at least 1",
    ),
    # a node type without compute NICs
    (
        "rail-optimized",
        dict(nodes=8, node_type="gb200-nvlink-switch-tray", switch="qm9700", su_nodes=8),
        "no compute NICs",
    ),
    ("leaf-spine", dict(nodes=8, node_type="patch-panel-48lc", switch="qm9700"), "no compute NICs"),
    ("leaf-spine", dict(nodes=10**9, node_type="sn5400", switch="qm9700"), "no compute NICs"),
    # more than ~1M GPUs
    (
        "rail-optimized",
        dict(nodes=200_000, node_type="dgx-h100", switch="qm9700", su_nodes=32),
        "1,600,000 GPUs",
    ),
    ("fat-tree", dict(k=200), "2,000,000 GPUs"),
    ("nvl72", dict(racks=20_000), "1,440,000 GPUs"),
    # speeds, names, shapes
    (
        "rail-optimized",
        dict(nodes=8, node_type="dgx-b300", switch="qm9700", su_nodes=8),
        "not at the 800G of the nodes' NICs",
    ),
    (
        "rail-optimized",
        dict(nodes=8, node_type="no-such-node", switch="qm9700", su_nodes=8),
        "not in the catalog",
    ),
    ("fat-tree", dict(k=5), "needs an even k"),
    (
        "rail-optimized",
        dict(nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8, tiers="4"),
        "--tiers must be auto, 2, 3 or rail-only",
    ),
    (
        "rail-optimized",
        dict(nodes=8, node_type="dgx-h100", switch="qm9700", su_nodes=8, placement="sideways"),
        "--placement",
    ),
    # InfiniBand runs ConnectX-8 whole: already split over planes, the way out is not to split
    (
        "rail-optimized",
        dict(nodes=32, node_type="dgx-b300", switch="q3400", su_nodes=32, planes=2),
        "or run each NIC whole",
    ),
    ("mesh", dict(nodes=8), "unknown template 'mesh'"),
    ("fat-tree", dict(k=4, nodes=8), "fat-tree does not take those options"),
]


@pytest.mark.parametrize("template,params,words", BAD)
def test_impossible_requests_are_refused_with_a_sentence(template, params, words):
    with pytest.raises(GenerateError, match=words) as info:
        generate(template, **params)
    message = str(info.value)
    assert message.count(";") <= 1 and "\n" not in message
    if "placement" not in params:
        with pytest.raises(GenerateError, match=words):
            preview(template, **params)


def test_huge_requests_are_refused_before_allocating():
    builtin_catalog()
    tracemalloc.start()
    try:
        for template, params in (
            (
                "rail-optimized",
                dict(nodes=10**9, node_type="dgx-h100", switch="qm9700", su_nodes=32),
            ),
            ("fat-tree", dict(k=10**6)),
            ("nvl72", dict(racks=10**8)),
            ("leaf-spine", dict(nodes=10**7, node_type="dgx-h100", switch="qm9700")),
            ("leaf-spine", dict(nodes=10**9, node_type="qm9700", switch="qm9700")),
        ):
            with pytest.raises(GenerateError):
                generate(template, **params)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 2_000_000


def test_generate_error_is_a_value_error():
    assert issubclass(GenerateError, ValueError)


def test_generated_links_are_read_checked_and_an_unfit_one_is_refused_with_a_sentence():
    """The generator reads its links in one checked conversion (model.generators.generate):
    fit rows give the Links the edit API's own check gives; an unfit field (an id longer than
    a design file allows) leaves them unchecked for add_links to refuse with its sentence."""
    from model.design.entities import Link, PortRef
    from model.design.records import DesignError, fit_fields
    from model.generators.generate import _checked_links
    from tests.builders import small_pod

    rows = [{"id": "l-1", "a": ("a1", "nic1"), "b": ("leaf1", "p60"), "fabric": "storage"}]
    links, checked = _checked_links(rows)
    given = [Link(id="l-1", a=PortRef("a1", "nic1"), b=PortRef("leaf1", "p60"), fabric="storage")]
    assert checked and links == fit_fields(given, "link")
    rows = [{**rows[0], "id": "l-" + "9" * 300, "fabric": None}]
    links, checked = _checked_links(rows)
    assert not checked and links[0].id == rows[0]["id"]
    with pytest.raises(DesignError, match="characters"):
        small_pod().add_links(links, fields_checked=checked)
