"""A link's via and polarity entries the editor refuses are refused by the loader too (#44).

One test per rule: each file is written by a design the edit API accepted, then one entry is
changed by hand to what only a hand (or a fuzzer) writes; the loader names the JSON path, the
salvage drops only that link, and the edit API refuses the same entry with the same words.
"""

from __future__ import annotations

import msgspec
import pytest

from model.analysis import analyze
from model.design.design import DesignError
from model.design.structured_edit import panels_in_rack, place_panel, route_via
from model.engine.routed_links import RoutedLinks
from model.files.design_file import (
    DesignFileError,
    design_to_bytes,
    read_design_bytes,
    salvage_design_bytes,
)
from model.structured.link_polarity import set_polarity, set_polarity_record
from tests.builders import link, server_and_leaf


def _hall():
    """Two racks with a DGX H100 and a QM9700, one link routed via a panel in each rack."""
    design = server_and_leaf()
    p1 = place_panel(design, "r1", "panel-mpo-1u-72").id
    p2 = place_panel(design, "r2", "panel-mpo-1u-72").id
    route_via(design, "l-1", [p1, p2])
    set_polarity(design, "l-1", "trunk-1", "B")
    return design, p1, p2


def _with(design, link_id: str, **fields) -> bytes:
    """The design's file with one link's fields replaced as a hand would type them."""
    doc = msgspec.json.decode(design_to_bytes(design))
    (entry,) = [x for x in doc["links"] if x["id"] == link_id]
    entry.update(fields)
    return msgspec.json.encode(doc)


def _index(data: bytes, link_id: str) -> int:
    links = msgspec.json.decode(data)["links"]
    return next(i for i, x in enumerate(links) if x["id"] == link_id)


def test_the_edited_hall_itself_loads():
    design, _, _ = _hall()
    again = read_design_bytes(design_to_bytes(design))
    assert again.links["l-1"].via == design.links["l-1"].via
    assert again.links["l-1"].polarity == {"trunk-1": "B"}


def test_a_panel_named_twice_in_a_route_is_refused_with_its_path():
    design, p1, p2 = _hall()
    data = _with(design, "l-1", via=[p1, p2, p1])
    with pytest.raises(DesignFileError) as err:
        read_design_bytes(data)
    assert err.value.json_path == f"$.links[{_index(data, 'l-1')}].via"
    assert f"panel {p1!r} appears twice in its route" in str(err.value)
    salvage = salvage_design_bytes(data)  # the file's other links still open
    assert "l-1" not in salvage.design.links and "l-2" in salvage.design.links
    with pytest.raises(DesignError, match="appears twice"):  # the editor's own refusal
        route_via(design, "l-1", [p1, p2, p1])
    with pytest.raises(DesignError, match="appears twice"):  # and any link edit's
        design.update_links([msgspec.structs.replace(design.links["l-1"], via=(p1, p1))])


def test_a_port_on_a_trunk_or_cord_is_refused_with_its_path():
    design, _, _ = _hall()
    data = _with(design, "l-1", polarity={"trunk-1": "A@3"})  # the file's pattern allows it
    with pytest.raises(DesignFileError) as err:
        read_design_bytes(data)
    assert err.value.json_path == f"$.links[{_index(data, 'l-1')}].polarity.trunk-1"
    assert "only a cassette has a port" in str(err.value)
    with pytest.raises(DesignError, match="only a cassette has a port"):
        set_polarity(design, "l-1", "cord-1", "AB@2")


def test_a_cassette_port_past_six_is_refused_with_its_path():
    design, _, _ = _hall()
    data = _with(design, "l-1", polarity={"cassette-1": "B@7"})
    with pytest.raises(DesignFileError) as err:
        read_design_bytes(data)
    assert err.value.json_path == f"$.links[{_index(data, 'l-1')}].polarity.cassette-1"
    assert "(1-6)" in str(err.value)
    assert read_design_bytes(_with(design, "l-1", polarity={"cassette-1": "B@6"}))  # the last
    with pytest.raises(DesignError, match=r"\(1-6\)"):
        set_polarity_record(design, "l-1", {"cassette-2": "A@12"})
    with pytest.raises(DesignError, match=r"\(1-6\)"):  # a link added with it, too
        link(design, "l-3", ("s1", "nic3"), ("leaf1", "p3"), polarity={"cassette-1": "A@9"})


def test_a_via_naming_a_device_that_is_no_panel_loads_with_a_warning():
    """The file is still usable (the channel skips the entry); the editor shows the warning."""
    design, p1, p2 = _hall()
    again = read_design_bytes(_with(design, "l-1", via=[p1, "leaf1", p2]))
    assert again.links["l-1"].via == (p1, "leaf1", p2)
    plant = RoutedLinks(again)
    plant.refresh()
    found = [w for w in analyze(again, plant).warnings if w.code == "VIA_PANEL_MISSING"]
    assert [w.objects for w in found] == [("l-1",)] and "leaf1" in found[0].message
    with pytest.raises(DesignError, match="is not a patch panel"):  # the editor refuses it
        route_via(design, "l-1", [p1, "leaf1", p2])
    assert len(panels_in_rack(again, "r1")) == 1
