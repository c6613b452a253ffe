"""Each rack type's own power parts in the facility BOM (issue 39): the GB300 rack's 8 x 33 kW
shelves, the Vera Rubin NVL72 rack's 110 kW shelves on 160 A tap-offs, a Kyber rack's 800 V DC
feeds on DC tap-offs (no AC shelves, no PDUs), a Helios rack's Open Rack shelves, not PDUs."""

from __future__ import annotations

from collections import Counter

import pytest

from model.catalog.components import CatalogError, builtin_catalog
from model.facility.parts import facility_items
from model.generators.facility_plan import rack_pdu_count
from model.generators.generate import generate


def _parts_of(design, rack_type: str) -> tuple[int, Counter]:
    """(racks of ``rack_type``, the facility part ids of the design's items)."""
    racks = sum(1 for r in design.racks.values() if r.type == rack_type)
    return racks, Counter({p.part_id: p.quantity for p in facility_items(design)})


@pytest.mark.parametrize(
    ("template", "params", "rack_type", "shelf", "per_rack", "tap"),
    [
        # GB300: 8 x 33 kW shelves, ~142 kW (NV-BCM-PSHELF); a 33 kW shelf on a 63 A tap.
        ("nvl72", {"racks": 2, "platform": "gb300"}, "rack-gb300-nvl72", "gb300-power-shelf",
         8, "busway-tap-off"),
        # Vera Rubin: 3-4 x 110 kW shelves, N+1 (TV-VR-PT5): 4; 153 A at 415 V: 160 A tap.
        ("nvl72", {"racks": 2, "platform": "vera-rubin"}, "rack-vr-nvl72",
         "vr-nvl72-power-shelf", 4, "busway-tap-off-160a"),
        # Kyber: 800 V DC (TOMS-KYBER): two DC feeds (A, B) on 800 A DC tap-offs.
        ("nvl72", {"racks": 1, "platform": "rubin-ultra"}, "rack-kyber-nvl576",
         "kyber-800vdc-feed", 2, "busway-tap-off-800vdc"),
        # Helios on Open Rack Wide (ETN-ORW-HELIOS): 240 kW / 33 kW = 8, plus one.
        ("helios", {"racks": 2}, "rack-helios", "orw-power-shelf-33kw", 9, "busway-tap-off"),
        # MI355X 128-GPU ORv3 rack: an Open Rack's busbar shelves, 230 kW / 33 kW = 7, plus one.
        ("rail-optimized", {"nodes": 32, "node_type": "mi355x-dlc-orv3",
         "switch": "tomahawk5-64x800", "su_nodes": 16}, "rack-mi355x-orv3-dlc",
         "orw-power-shelf-33kw", 8, "busway-tap-off"),
    ],
)  # fmt: skip
def test_each_platform_s_rack_gets_its_own_power_parts(
    template, params, rack_type, shelf, per_rack, tap
):
    design = generate(template, **params)
    racks, parts = _parts_of(design, rack_type)
    assert racks and all(
        rack_pdu_count(design, r) == per_rack for r in design.racks.values() if r.type == rack_type
    )
    assert parts[shelf] == racks * per_rack
    assert parts["nvl72-power-shelf"] == 0  # GB200's shelf only in GB200 racks
    # The platform racks' own tap-offs; the generic network racks keep their PDUs and 63 A taps.
    others = sum(len(r.pdus) for r in design.racks.values() if r.type != rack_type)
    if tap == "busway-tap-off":
        assert parts[tap] == racks * per_rack + others
    else:
        assert parts[tap] == racks * per_rack and parts["busway-tap-off"] == others
    pdus = sum(max(0, len(r.pdus)) for r in design.racks.values() if r.type == "rack-48u-600x1200")
    assert parts["rack-pdu-3ph-415v"] == pdus  # no rack PDU in a platform rack


def test_gb200_racks_keep_the_gb200_shelf():
    design = generate("nvl72", racks=2)
    racks, parts = _parts_of(design, "rack-nvl72")
    assert parts["nvl72-power-shelf"] == racks * 8


def test_the_shelf_parts_carry_their_sourced_figures():
    parts = builtin_catalog().facility_parts
    assert "110 kW" in parts["vr-nvl72-power-shelf"].description
    assert "TV-VR-PT5" in parts["vr-nvl72-power-shelf"].source
    assert "33 kW" in parts["gb300-power-shelf"].description
    assert parts["kyber-800vdc-feed"].kind == "rack-dc-feed"
    assert "800 V DC" in parts["busway-tap-off-800vdc"].description
    for part in parts.values():
        assert part.part_number.startswith("EST-")  # none published: the BOM says quote


def test_a_rack_type_naming_an_unknown_power_part_is_refused():
    catalog = builtin_catalog()
    bad = catalog.rack_types["rack-helios"].__class__(
        **{
            **{f: getattr(catalog.rack_types["rack-helios"], f) for f in ("id", "model")},
            "width_m": 1.2,
            "depth_m": 1.2,
            "height_u": 48,
            "power_budget_kw": 240,
            "source": "estimate",
            "power_part": "no-such-shelf",
        }
    )
    with pytest.raises(CatalogError, match="no-such-shelf"):
        type(catalog)(
            device_types=list(catalog.device_types.values()),
            rack_types=[*(r for r in catalog.rack_types.values() if r.id != bad.id), bad],
            media_types=list(catalog.media_types.values()),
            parts=catalog.parts_file(),
        )


@pytest.mark.parametrize(
    ("params", "model"),
    [
        ({"racks": 1}, "NVL72 power shelf"),  # GB200: the shelf NetBox held before
        ({"racks": 1, "platform": "gb300"}, "GB300 NVL72 rack power shelf"),
        ({"racks": 1, "platform": "vera-rubin"}, "Vera Rubin NVL72 rack power shelf"),
    ],
)
def test_netbox_names_each_platform_s_shelf_as_the_bom_does(params, model):
    """The NetBox power export's shelf devices take the rack type's own shelf part (the one the
    BOM counts), not one "NVL72 power shelf" type for every platform."""
    from model.outputs.netbox.power import power_export

    design = generate("nvl72", facility="yes", **params)
    names = {r.id: r.id for r in design.racks.values()}
    out = power_export(design, "site", "hall", names, set())
    shelves = [d for d in out.devices if d["name"].split()[-1].startswith("PS")]
    assert shelves and {d["device_type"] for d in shelves} == {model}
    assert model in {doc["model"] for _slug, doc in out.device_types}


def _catalog_with_parts(catalog, facility_parts):
    import msgspec

    return type(catalog)(
        device_types=list(catalog.device_types.values()),
        rack_types=list(catalog.rack_types.values()),
        media_types=list(catalog.media_types.values()),
        parts=msgspec.structs.replace(catalog.parts_file(), facility_parts=facility_parts),
    )


def test_netbox_takes_the_part_s_model_not_its_description():
    """The NetBox type of a rack's shelves is the catalog part's ``model`` field: a new
    description (a figure corrected) leaves the NetBox type as it was."""
    import msgspec

    from model.outputs.netbox.power import power_export

    design = generate("nvl72", facility="yes", racks=1, platform="gb300")
    parts = dict(design.catalog.facility_parts)
    parts["gb300-power-shelf"] = msgspec.structs.replace(
        parts["gb300-power-shelf"], description="Power shelf, 34 kW (revised)", model="GB300 PS-X"
    )
    design.catalog = _catalog_with_parts(design.catalog, list(parts.values()))
    names = {r.id: r.id for r in design.racks.values()}
    out = power_export(design, "site", "hall", names, set())
    shelves = {d["device_type"] for d in out.devices if d["name"].split()[-1].startswith("PS")}
    assert shelves == {"GB300 PS-X"}


def test_a_kyber_rack_s_dc_feeds_are_its_feed_part_in_netbox():
    """A Kyber rack's Rack.pdus entries are 800 V DC feeds in the BOM; NetBox names them so,
    not as generic rack PDUs."""
    from model.outputs.netbox.power import power_export

    design = generate("nvl72", facility="yes", racks=1, platform="rubin-ultra")
    names = {r.id: r.id for r in design.racks.values()}
    out = power_export(design, "site", "hall", names, set())
    kyber = {r.id for r in design.racks.values() if r.type == "rack-kyber-nvl576"}
    types = {d["device_type"] for d in out.devices if d["description"].split()[1] in kyber}
    assert types == {"Kyber 800 V DC feed"}


def test_every_built_in_power_part_names_its_netbox_model():
    """NetBox names a rack's PDU, shelf or DC feed device type by the part's ``model``: every
    built-in part of those kinds carries one (the description is free to change)."""
    from model.catalog.parts import NETBOX_DEVICE_KINDS

    parts = builtin_catalog().facility_parts.values()
    missing = [p.id for p in parts if p.kind in NETBOX_DEVICE_KINDS and not p.model.strip()]
    assert missing == []


def test_a_design_s_own_pdu_without_a_model_still_loads_and_is_named_by_its_description():
    """A design file written before facility parts carried a model (its own rack PDU in
    custom_types) opens as before, and its NetBox type takes the description's first clause,
    the name such types had then (it was refused on load: the file would not open)."""
    import json

    import msgspec

    from model.design.design import Design
    from model.design.entities import Hall
    from model.files.design_file import design_to_bytes, read_design_bytes

    pdu = next(p for p in builtin_catalog().facility_parts.values() if p.kind == "rack-pdu")
    own = msgspec.to_builtins(pdu)
    own["id"] = "my-pdu"
    own["description"] = "Metered PDU, 3-phase 32 A (site standard)"
    own.pop("model", None)
    hall = Hall(outline=[(0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)])
    data = json.loads(design_to_bytes(Design(hall, name="x")))
    data["custom_types"]["facility_parts"] = [own]
    design = read_design_bytes(json.dumps(data).encode())
    assert design.catalog.facility_parts["my-pdu"].netbox_model == "Metered PDU"
