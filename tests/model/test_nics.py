"""NICs and DPUs as port-carrying catalog objects (issue 39, item 2): ConnectX-8 is one 800G
XDR InfiniBand port or 2 x 400GbE, never one 800GbE port (domain-facts §9, NV-CX8-FW)."""

from __future__ import annotations

import msgspec
import pytest

from model.analysis import analyze
from model.analysis.nic_modes import nic_mode_findings
from model.catalog.components import Catalog, CatalogError, CatalogFile, builtin_catalog
from model.catalog.nics import link_mode_problem
from model.generators.generate import GenerateError, generate
from tests.builders import device, empty_hall, link, rack


def test_connectx8_modes():
    cx8 = builtin_catalog().nic_types["connectx-8"]
    assert link_mode_problem(cx8, 800, "infiniband") == ""
    assert link_mode_problem(cx8, 400, "ethernet") == ""
    why = link_mode_problem(cx8, 800, "ethernet")
    assert "no 800G ethernet port" in why and "2 x 400G" in why
    cx9 = builtin_catalog().nic_types["connectx-9"]
    assert link_mode_problem(cx9, 800, "ethernet") == ""  # the Vera Rubin RA's Spectrum-X


def test_server_types_are_built_from_their_nics():
    cat = builtin_catalog()
    families = {n.family: n.id for n in cat.nic_types.values()}
    for dtype in cat.device_types.values():
        for group in dtype.port_groups:
            if group.family in families:
                assert group.nic == families[group.family], (dtype.id, group.name)
    b300 = cat.device_types["dgx-b300"].port_group("nic")
    assert (b300.nic, b300.count, b300.speed_gbps) == ("connectx-8", 8, 800)


def test_catalog_refuses_a_port_group_no_nic_mode_has():
    cat = builtin_catalog()
    b300 = cat.device_types["dgx-b300"]
    nic = b300.port_group("nic")
    wrong = msgspec.structs.replace(nic, speed_gbps=1600, lanes=8, breakouts=())
    custom = msgspec.structs.replace(b300, id="my-b300", port_groups=(wrong, *b300.port_groups[1:]))
    with pytest.raises(CatalogError, match="my-b300.*1600G ports, which is no mode of ConnectX-8"):
        cat.extended(CatalogFile(device_types=[custom]))
    unknown = msgspec.structs.replace(nic, nic="connectx-99")
    odd = msgspec.structs.replace(b300, id="odd", port_groups=(unknown,))
    with pytest.raises(CatalogError, match="unknown NIC 'connectx-99'"):
        Catalog([odd], [], cat.media_types.values(), cat.parts_file())


def test_connectx8_at_800g_on_ethernet_is_reported():
    # Cabled by hand (the generators refuse it, below): a DGX B300's 800G ConnectX-8 port on
    # a Tomahawk-6 port split to 800G.
    design = empty_hall()
    rack(design, "r1", 2.1, 3.0)
    device(design, "dgx", "r1", 1, "dgx-b300")
    device(design, "th6", "r1", 30, "tomahawk6-64x1600", role="leaf", breakout={"p": 2})
    link(design, "x1", ("dgx", "nic1"), ("th6", "p1/1"))
    link(design, "x2", ("dgx", "nic2"), ("th6", "p1/2"))
    (finding,) = nic_mode_findings(design)
    assert finding.code == "NIC_MODE_UNSUPPORTED" and finding.severity == "error"
    assert finding.message.startswith("2 link(s) from ConnectX-8")
    assert "break the port out" in finding.message
    assert finding.objects == ("x1", "x2")
    assert "NIC_MODE_UNSUPPORTED" in {w.code for w in analyze(design).warnings}


def test_generators_refuse_connectx8_at_800g_on_ethernet():
    with pytest.raises(GenerateError, match="no 800G ethernet port.*--planes 2"):
        generate("leaf-spine", nodes=4, node_type="dgx-b300", switch="tomahawk6-64x1600")


@pytest.mark.parametrize(
    "params",
    [
        {"template": "leaf-spine", "nodes": 4, "node_type": "dgx-b300", "switch": "q3400"},
        {"template": "nvl72", "racks": 1, "platform": "gb300", "planes": 2},
    ],
)
def test_reference_fabrics_run_connectx8_in_its_modes(params):
    params = dict(params)
    design = generate(params.pop("template"), **params)
    assert nic_mode_findings(design) == []
