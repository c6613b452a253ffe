"""SearchIndex: every word must match (any case), racks before devices before links, an exact
name first, and no match across two objects' texts."""

from __future__ import annotations

from model.design.search import SearchIndex, find_objects
from tests.builders import small_pod


def test_words_kinds_and_exact_names():
    design = small_pod()
    index = SearchIndex(design)
    hits = index.find("LEAF1")
    assert hits[0].kind == "device" and hits[0].object_id == "leaf1"
    assert {h.kind for h in hits} == {"device", "link"}
    assert all("leaf1" in h.label for h in hits)
    both = index.find("a1 nic3")
    assert [h.object_id for h in both] == ["l-3"]
    assert index.find("r1")[0] == find_objects(design, "r1")[0]
    assert index.find("R1")[0].kind == "rack"
    # "R1\nN1": the text of one rack ends where the next begins; "1 n" spans no object
    assert [h for h in index.find("r1 r1 n1") if h.kind == "rack"] == []
    assert index.find("   ") == [] and index.find("zzz") == []


def test_an_index_knows_when_the_design_moved_on():
    design = small_pod()
    index = SearchIndex(design)
    assert index.current(design)
    design.remove_links(["l-1"])
    assert not index.current(design)
    assert "l-1" not in {h.object_id for h in SearchIndex(design).find("l-1")}
