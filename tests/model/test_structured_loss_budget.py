"""Moving a network rack away pushes one specific channel over its loss budget (issue #18).

The physically real case on a generated cross-connect pod: with NV-STRUCT's figures a multimode
channel through two panels (0.7 dB of MPO pairs of a 1.9 dB limit) reaches the 50 m paneled
reach long before its loss budget (400 m), so the loss binds only on a channel with many patch
points. Here one leaf-to-spine channel runs rack panel (leaf rack A05) - row-end interconnect
(A09, the row's HDA) - the MDA cross-connect (two panels in rack M01, patched) - spine rack
panel (B01): five MPO mated pairs, 1.75 dB, leaving 0.15 dB = 50 m of OM4. Moving the spine
rack 35 m down its row takes that channel over the budget while the pod's two-panel channels
stay within theirs. The link is pinned to SR4 multimode: left to the media choice, a channel
through five patch points gets single-mode (tests/model/test_channel_media.py).
"""

from __future__ import annotations

import math

import msgspec

from model.design.structured_edit import place_panel, route_via
from model.engine.routed_links import RoutedLinks
from model.generators.generate import generate
from model.structured.channel_checks import channel_findings
from model.structured.layout import place_panels, set_cabling, structured_layout
from tests.builders import rack

POD = dict(
    nodes=31, node_type="dgx-h100", switch="qm9700", su_nodes=31, reserve_ports=1, name="pod"
)
MPO_PAIR_DB = 0.35  # NV-STRUCT: MPO mated pair
OM4_DB_PER_KM = 3.0  # NV-STRUCT: MMF at 850 nm
SR4_LIMIT_DB = 1.9  # TIA-FOTC 400GBASE-SR8 OM4, the catalog's SR4 figure (estimate)


def pod_with_an_mda():
    design = generate("rail-optimized", **POD)
    by_name = {r.name: r.id for r in design.racks.values()}
    # A longer hall: the spine row runs on to x = 58 m.
    outline = [(0.0, 0.0), (60.0, 0.0), (60.0, 7.2), (0.0, 7.2)]
    design.set_hall(msgspec.structs.replace(design.hall, outline=outline))
    row_b = design.trays["t-row-B"]
    design.update_trays([msgspec.structs.replace(row_b, points=[(1.8, 4.8), (58.0, 4.8)])])
    rack(design, "m01", 6.9, 4.8, name="M01")  # the MDA rack, in the spine row
    set_cabling(design, "cross-connect")
    place_panels(design)
    hda = place_panel(design, by_name["A09"], "panel-mpo-1u-72")
    mda = [place_panel(design, "m01", "panel-mpo-1u-72") for _ in range(2)]
    leaf, spine = by_name["A05"], by_name["B01"]
    link_id = min(
        lid
        for lid, link in design.links.items()
        if design.devices[link.a.device].rack == leaf
        and design.devices[link.b.device].rack == spine
    )
    ends = []
    for rack_id in (leaf, spine):
        layout = structured_layout(RoutedLinks(design))
        panel = next(
            e.object_id
            for e in layout.channels[link_id].elements
            if e.kind == "panel" and design.devices[e.object_id].rack == rack_id
        )
        ends.append(panel)
    route_via(design, link_id, [ends[0], hda.id, mda[0].id, mda[1].id, ends[1]])
    # Unpinned, the media choice gives a five-point channel single-mode (no panel rule); the
    # user's pin keeps it multimode, and the channel's findings then say why that is wrong.
    link = design.links[link_id]
    design.update_links([msgspec.structs.replace(link, medium="sr4-400g")])
    return design, link_id, spine


def hand_loss_db(channel) -> tuple[int, float, float]:
    """(mated pairs, metres of fibre, dB): 5 MPO pairs + cords and trunks x 3.0 dB/km."""
    pairs = sum(1 for e in channel.elements if e.kind == "panel")
    metres = sum(e.length_m for e in channel.elements if e.kind in ("cord", "trunk"))
    return pairs, metres, pairs * MPO_PAIR_DB + metres * OM4_DB_PER_KM / 1000


def test_moving_the_spine_rack_away_takes_the_five_point_channel_over_its_loss_budget():
    design, link_id, spine = pod_with_an_mda()
    plant = RoutedLinks(design)
    layout = structured_layout(plant)
    channel = layout.channels[link_id]
    pairs, metres, loss = hand_loss_db(channel)
    assert pairs == 5 and loss < SR4_LIMIT_DB  # within, before the move
    before = {f.code for f in channel_findings(layout.channels.values()) if f.objects[0] == link_id}
    assert before == {"CHANNEL_TOO_MANY_PANELS"}  # NV-STRUCT allows 2 for 100G-lane MM
    # Move the spine rack 35 m down its row.
    x, y = design.racks[spine].x, design.racks[spine].y
    design.move_racks({spine: (x + 35.0, y)})
    plant.refresh()
    layout = structured_layout(plant)
    channel = layout.channels[link_id]
    pairs, metres, loss = hand_loss_db(channel)
    assert loss > SR4_LIMIT_DB
    over = [
        f
        for f in channel_findings(layout.channels.values())
        if f.code == "CHANNEL_LOSS_OVER_BUDGET"
    ]
    (finding,) = over  # only this channel: the two-panel ones keep 1.2 dB for fibre
    assert finding.objects == (link_id, *(e.object_id for e in channel.elements))
    assert f"channel loss {loss:.2f} dB" in finding.message
    assert f"5 mated pairs {5 * MPO_PAIR_DB:.2f} dB" in finding.message
    assert f"{metres:g} m fibre {metres * OM4_DB_PER_KM / 1000:.2f} dB" in finding.message
    assert f"by {loss - SR4_LIMIT_DB:.2f} dB" in finding.message
    assert math.isclose(metres, channel.length_m)
    for other_id, other in layout.channels.items():
        if other_id != link_id and other.panels == 2:
            assert 2 * MPO_PAIR_DB + other.length_m * OM4_DB_PER_KM / 1000 < SR4_LIMIT_DB
