"""Bulk load (model.bulk_load) builds the same design and refuses the same files, with the
same messages and JSON paths, as adding the links one at a time through ``Design.add_links``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from model.fileio import (
    DesignFileError,
    build_design,
    design_to_bytes,
    parse_document,
    read_design_bytes,
    salvage_design_bytes,
)
from tests.benchmarks.workloads import build

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "resources" / "examples").glob("*.json"))


def _both(data: bytes) -> tuple[bytes, bytes]:
    bulk = design_to_bytes(build_design(parse_document(data), bulk=True))
    single = design_to_bytes(build_design(parse_document(data), bulk=False))
    return bulk, single


@pytest.mark.parametrize("size", ["S", "L"])
def test_bulk_equals_one_at_a_time_on_generated_designs(size):
    data = design_to_bytes(build(size))
    bulk, single = _both(data)
    assert bulk == single == data


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_bulk_equals_one_at_a_time_on_bundled_examples(path):
    bulk, single = _both(path.read_bytes())
    assert bulk == single


def test_bulk_fills_the_lookup_tables_like_add_links(pod):
    data = design_to_bytes(pod)
    bulk = build_design(parse_document(data), bulk=True)
    single = build_design(parse_document(data), bulk=False)
    assert bulk._port_links == single._port_links
    assert bulk._device_links == single._device_links
    assert list(bulk.links) == list(single.links)
    assert bulk.revision == single.revision == 0


def _mutate(doc):
    links = doc["links"]
    return {
        "duplicate link id": lambda: links[1].__setitem__("id", links[0]["id"]),
        "link id of a rack": lambda: links[2].__setitem__("id", doc["racks"][0]["id"]),
        "unknown device": lambda: links[1]["a"].__setitem__(0, "no-such-device"),
        "port used twice": lambda: links[3].__setitem__("b", list(links[0]["a"])),
        "unknown port": lambda: links[2]["b"].__setitem__(1, "zz99"),
        "unknown medium": lambda: links[1].__setitem__("medium", "no-such-cable"),
    }


@pytest.mark.parametrize("case", list(_mutate({"links": [{}], "racks": [{}]})))
def test_bad_file_gives_the_same_error_through_both_paths(pod, case):
    doc = json.loads(design_to_bytes(pod))
    _mutate(doc)[case]()
    data = json.dumps(doc).encode()
    errors = []
    for bulk in (True, False):
        with pytest.raises(DesignFileError) as caught:
            build_design(parse_document(data), bulk=bulk)
        errors.append(caught.value)
    bulk_error, single_error = errors
    assert str(bulk_error) == str(single_error)
    assert bulk_error.json_path == single_error.json_path
    assert bulk_error.json_path.startswith("$.links[")
    assert bulk_error.problems == single_error.problems
    with pytest.raises(DesignFileError) as through_loader:
        read_design_bytes(data)
    assert through_loader.value.problems == single_error.problems
    # The salvage path (open without the bad links) drops the same records either way.
    salvaged = salvage_design_bytes(data)
    assert [p.json_path for p in salvaged.dropped] == [p.json_path for p in single_error.problems]
