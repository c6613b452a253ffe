"""Entries a file may hold but no hall has (a cable of millimetres, a rack narrower than a
19-inch frame, a GPU server in a switch role) are named by a warning; generated designs carry
none, and an edit that fixes the entry clears it."""

from __future__ import annotations

import msgspec
import pytest

from model.analysis import analyze
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from tests.builders import small_pod

CODES = {"LENGTH_IMPLAUSIBLE", "RACK_IMPLAUSIBLE_SIZE", "ROLE_CONTRADICTS_TYPE"}


def _codes(design) -> dict[str, str]:
    plant = RoutedLinks(design)
    report = analyze(design, plant).to_json()
    plant.close()
    return {w["code"]: w["message"] for w in report["warnings"] if w["code"] in CODES}


def test_a_clean_pod_has_none():
    assert _codes(small_pod()) == {}


def test_each_slip_is_named_and_fixing_it_clears_it():
    design = small_pod()
    link = next(iter(design.links.values()))
    rack = list(design.racks.values())[1]
    server = next(d for d in design.devices.values() if d.role == "gpu-server")
    design.update_links([msgspec.structs.replace(link, length_override_m=0.0005)])
    design.update_racks([msgspec.structs.replace(rack, width_m=0.05)])
    design.update_devices([msgspec.structs.replace(server, role="spine")])
    found = _codes(design)
    assert set(found) == CODES
    assert "typed 0.0005 m" in found["LENGTH_IMPLAUSIBLE"]
    assert f"{rack.name} (0.05 x" in found["RACK_IMPLAUSIBLE_SIZE"]
    assert (
        f"{server.name} (" in found["ROLE_CONTRADICTS_TYPE"]
        and "as spine" in found["ROLE_CONTRADICTS_TYPE"]
    )
    design.update_links([msgspec.structs.replace(link, length_override_m=0.5)])
    design.update_racks([msgspec.structs.replace(rack, width_m=0.6)])
    design.update_devices([msgspec.structs.replace(server, role="gpu-server")])
    assert _codes(design) == {}


@pytest.mark.parametrize(
    "template, options",
    [
        (
            "rail-optimized",
            {"nodes": 64, "node_type": "dgx-h100", "switch": "qm9700", "su_nodes": 32},
        ),
        ("nvl72", {"racks": 2}),
    ],
)
def test_generated_designs_carry_none(template, options):
    assert _codes(generate(template, **options)) == {}


def test_a_measured_slip_is_named_beside_a_typed_one():
    """Links with only a measured length, or with both, are looked at like typed ones."""
    from model.analysis.entry_checks import entry_findings

    design = small_pod()
    first, second, *_ = design.links.values()
    design.update_links(
        [
            msgspec.structs.replace(first, as_built_m=0.02),
            msgspec.structs.replace(second, length_override_m=0.03, as_built_m=0.04),
        ]
    )
    (finding,) = [f for f in entry_findings(design) if f.code == "LENGTH_IMPLAUSIBLE"]
    assert finding.objects == (first.id, second.id)
    assert "3 link lengths" in finding.message
    assert "measured 0.02 m" in finding.message and "typed 0.03 m" in finding.message
