"""Bulk load (model.design.bulk_load) builds the same design and refuses the same files, with the
same messages and JSON paths, as adding the links one at a time through ``Design.add_links``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from model.design.design import DesignError
from model.design.entities import Link
from model.files.design_file import (
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
    assert bulk._port_table() == single._port_table()
    assert bulk._device_table() == single._device_table()
    assert list(bulk.links) == list(single.links)
    assert bulk.revision == single.revision == 0


def test_lookup_tables_left_for_first_use_answer_edits_like_add_links(pod):
    """A loaded design builds its port and device tables on first use; every query and edit
    that reads them answers as on a design whose links were added one at a time."""
    data = design_to_bytes(pod)
    designs = [build_design(parse_document(data), bulk=b) for b in (True, False)]
    assert designs[0]._port_links is None and designs[0]._device_links is None
    link = next(iter(pod.links.values()))
    device_id = link.a.device
    answers = []
    for design in designs:
        taken = Link(id="new-link", a=link.a, b=link.b)
        with pytest.raises(DesignError) as refused:
            design.add_links([taken])
        removed = design.remove_devices([device_id])
        answers.append(
            (
                str(refused.value),
                sorted(lk.id for lk in removed.links),
                design.link_at_port(link.b.device, link.b.port),
                design.free_ports(link.b.device),
                design_to_bytes(design),
            )
        )
    assert answers[0] == answers[1]
    assert answers[0][1] and answers[0][2] is None  # the device's links went with it


def _mutate(doc):
    links = doc["links"]
    return {
        "duplicate link id": lambda: links[1].__setitem__("id", links[0]["id"]),
        "link id of a rack": lambda: links[2].__setitem__("id", doc["racks"][0]["id"]),
        "link id of a dimension line": lambda: doc["hall"].__setitem__(
            "dimensions", [{"id": links[4]["id"], "a": [0.0, 0.0], "b": [1.0, 0.0]}]
        ),
        "unknown device": lambda: links[1]["a"].__setitem__(0, "no-such-device"),
        "port used twice": lambda: links[3].__setitem__("b", list(links[0]["a"])),
        "unknown port": lambda: links[2]["b"].__setitem__(1, "zz99"),
        "unknown medium": lambda: links[1].__setitem__("medium", "no-such-cable"),
    }


def _errors_both_paths(data: bytes) -> tuple[DesignFileError, DesignFileError]:
    """The refusal of ``data`` by the bulk load and by the one-at-a-time load."""
    errors = []
    for bulk in (True, False):
        with pytest.raises(DesignFileError) as caught:
            build_design(parse_document(data), bulk=bulk)
        errors.append(caught.value)
    return errors[0], errors[1]


@pytest.mark.parametrize("case", list(_mutate({"links": [{}], "racks": [{}], "hall": {}})))
def test_bad_file_gives_the_same_error_through_both_paths(pod, case):
    doc = json.loads(design_to_bytes(pod))
    _mutate(doc)[case]()
    data = json.dumps(doc).encode()
    bulk_error, single_error = _errors_both_paths(data)
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


def _mutate_devices(doc):
    devices = doc["devices"]
    return {
        "duplicate device id": lambda: devices[1].__setitem__("id", devices[0]["id"]),
        "device id of a rack": lambda: devices[2].__setitem__("id", doc["racks"][0]["id"]),
        "unknown rack": lambda: devices[1].__setitem__("rack", "no-such-rack"),
        "unknown type": lambda: devices[3].__setitem__("type", "no-such-type"),
        "one U taken twice": lambda: devices[1].update(
            rack=devices[0]["rack"], u=devices[0]["u"] + 1
        ),
        "unknown breakout group": lambda: devices[4].__setitem__("breakout", {"zz": 2}),
    }


@pytest.mark.parametrize("case", list(_mutate_devices({"devices": [{}], "racks": [{}]})))
def test_bad_device_gives_the_same_error_through_both_paths(pod, case):
    doc = json.loads(design_to_bytes(pod))
    _mutate_devices(doc)[case]()
    data = json.dumps(doc).encode()
    bulk_error, single_error = _errors_both_paths(data)
    assert bulk_error.problems == single_error.problems
    assert bulk_error.json_path.startswith("$.devices[")
    # The salvage path drops the same devices (and, with them, the links they held).
    salvaged = salvage_design_bytes(data)
    dropped = [p.json_path for p in salvaged.dropped if p.json_path.startswith("$.devices[")]
    assert dropped == [p.json_path for p in single_error.problems]


def test_devices_stacked_without_a_gap_load_through_both_paths(pod):
    """A device whose bottom U is the U above another's top takes no U of it."""
    doc = json.loads(design_to_bytes(pod))
    low, high = doc["devices"][0], doc["devices"][1]
    assert low["rack"] == high["rack"]
    height = pod.device_type(low["id"]).u_height
    high["u"] = low["u"] + height
    bulk, single = _both(json.dumps(doc).encode())
    assert bulk == single
    assert json.loads(bulk)["devices"][1]["u"] == low["u"] + height
