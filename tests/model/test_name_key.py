"""Names that display alike are one name: three racks shown as A01 are refused, wherever the
names come from (the edit API, a design file, a NetBox export)."""

from __future__ import annotations

import json
import re
import unicodedata

import msgspec
import pytest
from hypothesis import given
from hypothesis import strategies as st

from model.common.name_key import name_key
from model.design.design import DesignError
from model.design.placement import next_rack_name
from model.files.design_file import DesignFileError, design_to_bytes, read_design_bytes
from tests.builders import small_pod

LOOK_ALIKES = [
    "a01",
    " A01 ",
    "A\u200b01",
    "\uff21\uff10\uff11",
    "A\u00a001".replace("\u00a0", ""),
    "A01\u202e",
]


@pytest.mark.parametrize("name", LOOK_ALIKES)
def test_look_alikes_share_the_key_of_A01(name):
    assert name_key(name) == name_key("A01") == "a01"


def test_different_names_keep_different_keys():
    assert len({name_key(n) for n in ("A01", "A1", "A 01", "A10", "B01", "A０2")}) == 6


def test_a_design_file_with_three_racks_displayed_as_A01_is_refused_with_their_paths():
    doc = json.loads(design_to_bytes(small_pod()))
    for rack, name in zip(doc["racks"], ["A01", "A\u200b01", "\uff21\uff10\uff11"], strict=False):
        rack["name"] = name
    with pytest.raises(DesignFileError) as caught:
        read_design_bytes(json.dumps(doc).encode(), "look.hall.json")
    text = str(caught.value)
    assert "$.racks[1]" in text and "$.racks[2]" in text and "already called A01" in text


def test_renaming_a_rack_to_a_look_alike_is_refused_and_changes_nothing():
    design = small_pod()
    first, second = list(design.racks.values())[:2]
    before = design_to_bytes(design)
    with pytest.raises(DesignError, match="compared as they display"):
        design.update_racks([msgspec.structs.replace(second, name=first.name.upper() + "\u200b")])
    assert design_to_bytes(design) == before


def test_the_next_free_name_skips_look_alikes():
    design = small_pod()
    rack = next(iter(design.racks.values()))
    design.update_racks(
        [msgspec.structs.replace(rack, name="\uff32\uff10\uff11")]
    )  # full-width R01
    name = next_rack_name(design, "R")
    assert name != "R01" and name_key(name) not in {name_key(r.name) for r in design.racks.values()}


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=30))
def test_printable_ascii_names_take_the_same_key_as_through_the_unicode_rules(name):
    """The ASCII shortcut gives what NFKC, the format and control filter, the space folding
    and the case folding give (control characters and tabs go the long way)."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(c for c in text if unicodedata.category(c) not in ("Cf", "Cc") or c in "\t\n")
    assert name_key(name) == re.sub(r"\s+", " ", text).strip().casefold()
