"""Element polarity recorded on a link's channel: the mismatch it makes, the fix, the file."""

from __future__ import annotations

import pytest

from model.design.design import DesignError
from model.engine.routed_links import RoutedLinks
from model.files.design_file import DesignFileError, design_to_bytes, load_design
from model.structured.channel_checks import channel_findings
from model.structured.layout import structured_layout
from model.structured.link_polarity import (
    element_key,
    fix_polarity,
    parse_polarity_text,
    polarity_fix,
    polarity_text,
    set_polarity,
    set_polarity_record,
)
from model.structured.polarity import check_polarity
from tests.model.test_structured_layout import two_rack_hall


def channel(design, plant, link_id="l-1"):
    plant.refresh()
    return structured_layout(plant).channels[link_id]


def test_a_type_a_trunk_installed_breaks_the_channel_and_the_fix_names_and_mends_it():
    design = two_rack_hall(12.0, "sr4-400g")
    plant = RoutedLinks(design)
    before = channel(design, plant)
    assert [element_key(before, i) for i in range(5)] == [*("cord-1", "", "trunk-1", "", "cord-2")]
    old = set_polarity(design, "l-1", "trunk-1", "A")  # a Type A trunk was delivered
    assert old.polarity == {}
    broken = channel(design, plant)
    assert broken.elements[2].polarity == "A"
    # MPO-12 SR4: Tx 1-4 must land on Rx 12-9. Cord B (i -> 13-i), trunk A (i -> i), cord B:
    # two flips, so Tx 1 lands on 1, not 12 (hand-traced).
    (finding,) = channel_findings([broken])
    assert finding.code == "POLARITY_MISMATCH"
    assert "position 1" in finding.message and "expected Rx position 12" in finding.message
    assert finding.objects == ("l-1", "l-1:cord-a")  # the cheapest change: the A-end cord
    assert polarity_fix(broken) == ("cord-1", "A", "change cord l-1:cord-a from Type B to A")
    fix_polarity(design, broken)
    assert design.links["l-1"].polarity == {"trunk-1": "A", "cord-1": "A"}
    mended = channel(design, plant)
    assert check_polarity(mended).ok and channel_findings([mended]) == []
    assert polarity_fix(mended) is None
    with pytest.raises(DesignError, match="no single polarity change"):
        fix_polarity(design, mended)
    design.update_links([old])  # the undo of both edits
    assert check_polarity(channel(design, plant)).ok


def test_duplex_cords_and_cassette_ports_are_fixed_where_the_check_says():
    design = two_rack_hall(12.0, "fr4-400g", nics=2)
    plant = RoutedLinks(design)
    set_polarity(design, "l-1", "cord-2", "AA")  # an A-to-A duplex cord at the leaf
    broken = channel(design, plant)
    key, value, words = polarity_fix(broken)
    assert (key, value) in {("cord-1", "AA"), ("cord-2", "AB")}
    fix_polarity(design, broken)
    assert check_polarity(channel(design, plant)).ok
    # A cassette plugged at the wrong LC port: the fibre is lost; the fix moves it back.
    good = channel(design, plant, "l-2")
    port = good.elements[3].port
    set_polarity(design, "l-2", "cassette-2", f"A@{port % 6 + 1}")
    broken = channel(design, plant, "l-2")
    assert broken.elements[3].port == port % 6 + 1
    (finding,) = channel_findings([broken])
    assert finding.code == "POLARITY_MISMATCH" and "lost" in finding.message
    key, value, words = polarity_fix(broken)
    assert (key, value) == ("cassette-2", f"A@{port}") and f"port {port}" in words
    fix_polarity(design, broken)
    assert check_polarity(channel(design, plant, "l-2")).ok


def test_bad_polarity_edits_are_refused_and_change_nothing():
    design = two_rack_hall(12.0, "sr4-400g")
    for key, value, words in (
        ("trunk-0", "A", "names no channel element"),
        ("panel-1", "A", "names no channel element"),
        ("trunk-1", "D", "is no polarity"),
        ("trunk-1", "A@2", "only a cassette has a port"),
    ):
        with pytest.raises(DesignError, match=words):
            set_polarity(design, "l-1", key, value)
    with pytest.raises(DesignError, match="no link"):
        set_polarity(design, "l-9", "trunk-1", "A")
    assert design.links["l-1"].polarity == {}


def test_the_record_round_trips_and_a_bad_one_in_a_file_is_refused(tmp_path):
    design = two_rack_hall(12.0, "sr4-400g")
    plain = design_to_bytes(design)
    assert b'"polarity"' not in plain  # no record, nothing written: older files unchanged
    set_polarity(design, "l-1", "trunk-1", "C")
    path = tmp_path / "p.hall.json"
    path.write_bytes(design_to_bytes(design))
    assert load_design(path).links["l-1"].polarity == {"trunk-1": "C"}
    path.write_bytes(design_to_bytes(design).replace(b'"C"', b'"Z"'))
    with pytest.raises(DesignFileError, match=r"\$\.links\[0\]\.polarity"):
        load_design(path)  # what and where, no traceback


def test_the_inspector_text_of_a_record_parses_back_and_bad_text_is_refused():
    record = {"trunk-1": "A", "cord-2": "AA", "cassette-2": "A@3"}
    text = polarity_text(record)
    assert text == "cord-2 AA, cassette-2 A@3, trunk-1 A"
    assert parse_polarity_text("l-1", text) == record
    assert parse_polarity_text("l-1", "trunk-1=b; cord-1 ab") == {"trunk-1": "B", "cord-1": "AB"}
    assert parse_polarity_text("l-1", "  ") == {}
    for bad, words in (("trunk-1", "e.g. trunk-1 A"), ("fibre-1 A", "names no channel element")):
        with pytest.raises(DesignError, match=words):
            parse_polarity_text("l-1", bad)
    design = two_rack_hall(12.0, "sr4-400g")
    old = set_polarity_record(design, "l-1", {"trunk-1": "C"})
    assert design.links["l-1"].polarity == {"trunk-1": "C"} and old.polarity == {}
    with pytest.raises(DesignError):
        set_polarity_record(design, "l-1", {"trunk-1": "C", "cord-1": "A@2"})
    assert design.links["l-1"].polarity == {"trunk-1": "C"}


def _traced_one_by_one(channel):
    """The check as it was before results were kept per shape: every channel traced itself."""
    from msgspec.structs import replace

    from model.structured.polarity import MODULE_LANES, PolarityResult, _alternatives, _wrong

    if channel.connector not in MODULE_LANES:
        return PolarityResult(True, (), None)
    wrong = _wrong(channel)
    if not wrong:
        return PolarityResult(True, (), None)
    order = {"cord": 0, "cassette": 1, "trunk": 2, "panel": 3}
    indices = sorted(range(len(channel.elements)), key=lambda i: order[channel.elements[i].kind])
    for i in indices:
        for alt in _alternatives(channel.elements[i]):
            elements = list(channel.elements)
            elements[i] = alt
            if not _wrong(replace(channel, elements=tuple(elements))):
                return PolarityResult(False, wrong, (i, alt))
    return PolarityResult(False, wrong, None)


@pytest.mark.parametrize("connector", ["MPO-12/APC", "MPO-16/APC", "LC duplex"])
def test_the_result_kept_per_shape_is_each_channel_s_own(connector):
    """Every polarity and port of a cord-cassette-trunk-panel-cassette-cord channel (and the
    MPO cord-panel-trunk-panel-cord one): the same result, the fix naming the channel's own
    element (its id, part and length kept), as tracing each channel by itself."""
    import itertools

    from model.structured.channels import Channel, Element

    lc = connector == "LC duplex"
    cords = ("AB", "AA") if lc else ("A", "B", "C")
    checked, seen = 0, set()
    for n, (ca, trunk, cb, pa, pb, port) in enumerate(
        itertools.product(cords, "ABC", cords, "AB", "AB", (1, 2, 6))
    ):
        if lc:
            middle = (
                Element("cassette", f"cas-a{n}", "cas", 0.0, pa, port),
                Element("trunk", f"trunk-{n}", "t12", 30.0 + n, trunk),
                Element("cassette", f"cas-b{n}", "cas", 0.0, pb, 7 - port, reverse=True),
            )
        else:
            if (pa, pb, port) != ("A", "A", 1):
                continue
            middle = (
                Element("panel", f"pp-a{n}", "mpo"),
                Element("trunk", f"trunk-{n}", "t12", 30.0 + n, trunk),
                Element("panel", f"pp-b{n}", "mpo"),
            )
        elements = (
            Element("cord", f"l-{n}:cord-a", "f1", 2.0 + n, ca),
            *middle,
            Element("cord", f"l-{n}:cord-b", "f2", 3.0, cb),
        )
        channel = Channel(f"l-{n}", "sr4-400g", "mmf", connector, elements)
        result = check_polarity(channel)
        assert result == _traced_one_by_one(channel)
        if result.fix:
            assert result.fix[1].object_id == elements[result.fix[0]].object_id
        seen.add("ok" if result.ok else "fixed" if result.fix else "unfixable")
        checked += 1
    assert checked >= 18 and {"ok", "fixed"} <= seen
