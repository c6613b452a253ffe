"""The media choice sees each link's channel: a medium whose panel rule its channel breaks
(NV-STRUCT: 100G-lane multimode through at most two patch points) is not chosen for it, and the
twin-port cage it shares moves with it; and a generated structured hall has no channel finding."""

from __future__ import annotations

import msgspec
import numpy as np
import pytest

from model.analysis.analyzer import analyze
from model.engine.patch_points import rack_patch_points
from model.engine.routed_links import RoutedLinks
from model.generators.generate import apply_cabling, generate
from model.structured.channel_view import channel_view
from model.structured.channels import loss_budget
from model.structured.layout import structured_layout
from tests.builders import device, empty_hall, link, rack


def _zoned_pair(cabling: str):
    """GPU server g1 (rack b2) with its first twin-port NIC cage cabled to switch s2 in rack b1
    (its zone's distribution rack: two patch points) and to switch s1 in rack a1 (another zone:
    b2's rack panel, b1's, a1's: three patch points under ``zones``)."""
    design = empty_hall(20.0, 12.0)
    rack(design, "a1", 2.0, 2.0)
    rack(design, "b1", 2.0, 6.0)
    rack(design, "b2", 2.6, 6.0)
    device(design, "s1", "a1", 20, "qm9700")
    device(design, "s2", "b1", 20, "qm9700")
    device(design, "g1", "b2", 10, "dgx-h100")
    link(design, "near", ("g1", "nic1"), ("s2", "p1"), length_override_m=20.0)
    link(design, "far", ("g1", "nic2"), ("s1", "p1"), length_override_m=20.0)
    design.set_settings(msgspec.structs.replace(design.settings, cabling=cabling))
    return design


def _kinds(plant: RoutedLinks) -> dict[str, str]:
    return {lid: plant.medium(lid).kind for lid in ("near", "far")}


def test_a_three_patch_point_channel_forces_single_mode_on_both_ports_of_its_cage():
    design = _zoned_pair("zones")
    plant = RoutedLinks(design)
    index = plant._rack_row
    points = rack_patch_points(
        design, index, np.array([index["b2"], index["b2"]]), np.array([index["b1"], index["a1"]])
    )
    assert points.tolist() == [2, 3]
    # The far link's channel rules multimode out, and the near link shares its NIC cage.
    assert _kinds(plant) == {"near": "smf", "far": "smf"}
    # Rack panel to rack panel (two patch points each): multimode, the cheaper, is allowed.
    assert _kinds(RoutedLinks(_zoned_pair("cross-connect"))) == {"near": "mmf", "far": "mmf"}


_TEMPLATES = {
    "leaf-spine": ("leaf-spine", dict(nodes=16, node_type="dgx-h100", switch="qm9700")),
    "rail-optimized": (
        "rail-optimized",
        dict(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32),
    ),
    # The 127-node pod with every network: 548 CHANNEL_TOO_MANY_PANELS zoned before.
    "rail-b200-all": (
        "rail-optimized",
        dict(nodes=127, node_type="dgx-b200", switch="qm9700", su_nodes=32, fabrics="all"),
    ),
    "fat-tree": ("fat-tree", dict(k=8)),
    "nvl72": ("nvl72", dict(racks=8)),  # one GB200 SU: 259 findings zoned before
}


@pytest.mark.parametrize("style", ["direct", "cross-connect", "zones"])
@pytest.mark.parametrize("case", sorted(_TEMPLATES))
def test_a_generated_design_has_no_warning_or_error_in_any_cabling_style(case, style):
    template, params = _TEMPLATES[case]
    design = apply_cabling(generate(template, **params), style)
    plant = RoutedLinks(design)
    plant.refresh()
    found = [w for w in analyze(design, plant).warnings if w.severity in ("warning", "error")]
    assert not found, [f"{w.code}: {w.message}" for w in found[:5]]


def test_a_typed_length_is_its_channels_length_loss_and_cords():
    """A 49 m override on a cross-connected leaf-spine link: its cords carry what its trunks
    leave of 49 m, so the channel's length and loss follow, and the view says which length."""
    design = apply_cabling(
        generate("rail-optimized", nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32),
        "cross-connect",
    )
    plant = RoutedLinks(design)
    layout = structured_layout(plant)
    link_id = min(lid for lid, c in layout.channels.items() if c.panels == 2)
    before = layout.channels[link_id]
    assert "as laid" in channel_view(design, before, layout=layout).length_text
    link = design.links[link_id]
    design.update_links([msgspec.structs.replace(link, length_override_m=49.0)])
    plant.refresh()
    layout = structured_layout(plant)
    after = layout.channels[link_id]
    trunks_m = sum(e.length_m for e in after.elements if e.kind == "trunk")
    cords_m = [e.length_m for e in after.elements if e.kind == "cord"]
    # Cords at stock lengths covering what the trunks leave of 49 m: at most one stock step over.
    assert 49.0 <= after.length_m == trunks_m + sum(cords_m)
    assert after.length_m > before.length_m + 10.0
    assert loss_budget(after).loss_db > loss_budget(before).loss_db
    words = channel_view(design, after, layout=layout).length_text
    assert "override length 49 m" in words
