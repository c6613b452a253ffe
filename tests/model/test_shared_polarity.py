"""Links without a polarity record share one immutable empty record (entities.NO_POLARITY).

What a caller sees is unchanged: the record reads as ``{}``, a link's record is replaced, not
changed, and a design saves as before, with no ``"polarity"`` for a link without a record,
however the empty record came to it (the file, an edit, a copy).
"""

from __future__ import annotations

import copy
import pickle

import msgspec
import pytest

from model.design.entities import NO_POLARITY, Link, plain_links, share_empty_polarity
from model.files.design_file import design_to_bytes, parse_document, read_design_bytes
from model.structured.link_polarity import set_polarity
from tests.builders import server_and_leaf


def test_a_link_without_a_record_reads_as_an_empty_dict_that_refuses_changes():
    record = server_and_leaf().links["l-1"].polarity
    assert record is NO_POLARITY
    assert record == {} and isinstance(record, dict) and not record
    with pytest.raises(TypeError):
        record["cord-1"] = "AB"
    with pytest.raises(TypeError):
        record.update({"cord-1": "AB"})
    assert record == {}


def test_copies_and_pickles_keep_the_shared_record():
    one = server_and_leaf().links["l-1"]
    for again in (copy.copy(one), copy.deepcopy(one), pickle.loads(pickle.dumps(one))):
        assert again.polarity is NO_POLARITY
        # (a pickled link's "auto" is another string object, so that field is written: msgspec
        # omits a default by identity, as it always did; the record is left out)
        assert b'"polarity"' not in msgspec.json.encode(again)


def test_a_files_empty_record_is_left_out_on_save_as_before():
    design = server_and_leaf()
    data = design_to_bytes(design)
    doc = msgspec.json.decode(data)
    doc["links"][0]["polarity"] = {}
    typed = msgspec.json.encode(doc)
    assert b'"polarity"' in typed
    assert design_to_bytes(read_design_bytes(typed)) == data
    assert parse_document(typed).links[0].polarity is NO_POLARITY


def test_an_edit_that_empties_a_record_saves_as_a_link_that_never_had_one():
    design = server_and_leaf()
    before = design_to_bytes(design)
    set_polarity(design, "l-1", "cord-1", "AA")
    assert design.links["l-1"].polarity == {"cord-1": "AA"}
    assert b'"polarity"' in design_to_bytes(design)
    set_polarity(design, "l-1", "cord-1", None)
    assert design.links["l-1"].polarity is NO_POLARITY
    assert design_to_bytes(design) == before
    emptied = msgspec.structs.replace(design.links["l-2"], polarity={})
    design.update_links([emptied])
    assert design.links["l-2"].polarity is NO_POLARITY
    assert design_to_bytes(design) == before


def test_share_empty_polarity_replaces_only_other_empty_records():
    design = server_and_leaf()
    plain = list(design.links.values())
    assert share_empty_polarity(plain) is plain
    a, b = plain
    mixed = [
        msgspec.structs.replace(a, polarity={}),
        msgspec.structs.replace(b, polarity={"cord-1": "AA"}),
    ]
    shared = share_empty_polarity(mixed)
    assert shared[0].polarity is NO_POLARITY and shared[0] == a
    assert shared[1] is mixed[1]
    assert isinstance(shared[0], Link)


@pytest.mark.parametrize(
    "fields",
    [
        {"medium": "dac-800g-osfp"},
        {"label": "to leaf"},
        {"via": ("pp-1",)},
        {"polarity": {"cord-1": "AA"}},
        {"polarity": {}},  # not the shared record: the file gate still has to replace it
        {"as_built_pieces_m": (1.0, 2.0, 1.0)},
    ],
    ids=lambda f: next(iter(f)),
)
def test_plain_links_is_false_when_one_link_has_an_entry_the_loader_checks(fields):
    links = list(server_and_leaf().links.values())
    assert plain_links(links)
    links[1] = msgspec.structs.replace(links[1], **fields)
    assert not plain_links(links)


def test_a_plain_file_and_one_with_entries_load_to_what_they_hold():
    design = server_and_leaf()
    set_polarity(design, "l-2", "cord-1", "AA")
    design.update_links([msgspec.structs.replace(design.links["l-1"], label="spare")])
    data = design_to_bytes(design)
    again = read_design_bytes(data)
    assert design_to_bytes(again) == data
    assert again.links["l-1"].label == "spare"
    assert again.links["l-2"].polarity == {"cord-1": "AA"}
