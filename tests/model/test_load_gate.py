"""The loader is the gate: what a later stage assumes is refused at load, with the JSON path and
the limit, and a refused file lists every problem (up to 20), not only the first."""

from __future__ import annotations

import json

import pytest

from model.design import limits
from model.files.design_file import (
    DesignFileError,
    design_to_bytes,
    read_design_bytes,
    salvage_design_bytes,
)
from tests.builders import small_pod


def pod_doc() -> dict:
    return json.loads(design_to_bytes(small_pod()))


def refused(doc: dict | bytes) -> DesignFileError:
    data = doc if isinstance(doc, bytes) else json.dumps(doc).encode()
    with pytest.raises(DesignFileError) as info:
        read_design_bytes(data, "gate.hall.json")
    return info.value


def paths(error: DesignFileError) -> list[str]:
    return [p.json_path for p in error.problems]


def test_a_file_with_several_problems_lists_them_all_with_their_paths():
    doc = pod_doc()
    doc["racks"][0]["height_u"] = "tall"  # a type error
    doc["racks"][1]["x"] = 1e9  # out of range
    doc["trays"][0]["width_m"] = 5e-324  # below the smallest tray
    doc["devices"][0]["type"] = "no-such-type"  # a reference
    doc["links"][0]["a"].append("extra")  # a link end of three elements
    error = refused(doc)
    found = set(paths(error))
    assert {"$.racks[0].height_u", "$.racks[1].x", "$.links[0].a"} <= found
    text = str(error)
    assert text.startswith("gate.hall.json: ") and "problems:" in text
    for path in ("$.racks[0].height_u", "$.racks[1].x", "$.links[0].a"):
        assert path in text


def test_build_problems_are_all_listed_too():
    doc = pod_doc()
    for device in doc["devices"][:3]:
        device["type"] = "no-such-type"
    error = refused(doc)
    assert paths(error) == ["$.devices[0]", "$.devices[1]", "$.devices[2]"]
    assert all("unknown device type" in p.message for p in error.problems)
    assert error.salvageable


def test_at_most_twenty_problems_are_shown():
    doc = pod_doc()
    for link in doc["links"]:
        link["medium"] = "no-such-medium"
    error = refused(doc)
    assert len(error.problems) == len(doc["links"]) == 32
    text = str(error)
    assert text.count("\n  $.links[") == limits.MAX_REPORTED_PROBLEMS
    assert "… and 12 more" in text


def test_salvage_leaves_out_bad_records_and_what_depends_on_them():
    doc = pod_doc()
    doc["devices"][0]["type"] = "no-such-type"  # device a1 and its 8 links go
    doc["trays"][1]["points"] = [[1.0, 1.0], [1.0, 1.0]]  # a zero-length tray goes
    data = json.dumps(doc).encode()
    salvage = salvage_design_bytes(data, "pod.hall.json")
    dropped = [p.json_path for p in salvage.dropped]
    assert "$.devices[0]" in dropped and "$.trays[1].points[1]" in dropped
    assert sum(p.startswith("$.links[") for p in dropped) == 8
    design = salvage.design
    assert "a1" not in design.devices and len(design.links) == 24 and len(design.trays) == 1
    again = read_design_bytes(design_to_bytes(design))  # what is opened saves and loads back
    assert design_to_bytes(again) == design_to_bytes(design)


def test_salvage_refuses_problems_that_are_not_one_record():
    doc = pod_doc()
    doc["hall"]["outline"] = [[0, 0], [5, 5], [5, 0], [0, 5]]  # a bow tie
    with pytest.raises(DesignFileError) as info:
        salvage_design_bytes(json.dumps(doc).encode())
    assert not info.value.salvageable and info.value.json_path == "$.hall.outline"


@pytest.mark.parametrize(
    ("mutate", "path", "words"),
    [
        (
            lambda d: d["hall"].update(outline=[[0, 0], [5, 5], [5, 0], [0, 5]]),
            "$.hall.outline",
            "not a simple polygon",
        ),
        (
            lambda d: d["hall"].update(outline=[[0, 0], [1, 0], [2, 0]]),
            "$.hall.outline",
            "not a simple polygon",
        ),
        (
            lambda d: d["hall"].update(obstacles=[{"id": "o", "polygon": [[1, 1], [2, 1]]}]),
            "$.hall.obstacles[0].polygon",
            "at least 3 distinct corners",
        ),
        (
            lambda d: d["trays"].append({"id": "t0", "points": [[1, 1], [1, 1]]}),
            "$.trays[2].points[1]",
            "repeats the previous point",
        ),
        (lambda d: d["trays"][0].update(depth_m=5e-324), "$.trays[0].depth_m", "smallest tray"),
        (
            lambda d: d["trays"][0].update(points=[[1 + i * 0.01, 1] for i in range(101)]),
            "$.trays[0].points",
            "more than the limit of 100",
        ),
        (lambda d: d.update(name="N" * 5000), "$.name", "length <= 200"),
        (lambda d: d["links"][0]["b"].append(0), "$.links[0].b", "at most length 2"),
    ],
)
def test_what_later_stages_assume_is_checked_at_load(mutate, path, words):
    doc = pod_doc()
    mutate(doc)
    error = refused(doc)
    assert error.json_path == path, str(error)
    assert words in error.problem, str(error)


def _custom_type(**overrides) -> dict:
    dtype = {
        "id": "fz",
        "vendor": "F",
        "model": "F1",
        "category": "switch",
        "default_role": "leaf",
        "u_height": 1,
        "power_typical_w": 1.0,
        "power_max_w": 1.0,
        "source": "estimate",
        "port_groups": [
            {
                "name": "p",
                "role": "compute",
                "count": 4,
                "speed_gbps": 400.0,
                "lanes": 4,
                "form_factor": "OSFP",
            }
        ],
    }
    dtype.update(overrides)
    return dtype


def test_custom_types_within_limits_and_with_unique_port_names():
    group = _custom_type()["port_groups"][0]
    cases = [
        (_custom_type(u_height=1_000_000), "$.custom_types.device_types[0].u_height"),
        (
            _custom_type(
                port_groups=[dict(group, name=f"g{i}", count=1_000_000) for i in range(5)]
            ),
            "$.custom_types.device_types[0].port_groups",
        ),
        (
            _custom_type(port_groups=[dict(group, count=11), dict(group, name="p1", count=1)]),
            "$.custom_types.device_types[0].port_groups[1].name",
        ),
    ]
    for dtype, path in cases:
        doc = pod_doc()
        doc["custom_types"] = {"device_types": [dtype]}
        error = refused(doc)
        assert error.json_path == path, str(error)
    doc = pod_doc()
    doc["custom_types"] = {"device_types": [_custom_type()]}
    read_design_bytes(json.dumps(doc).encode())  # a sound custom type loads


def test_deep_nesting_is_refused_without_a_traceback():
    text = json.dumps(pod_doc())
    for depth in (50, 1000, 100_000):
        deep = text.replace('"name": "Test hall"', '"name": ' + "[" * depth + "]" * depth, 1)
        error = refused(deep.encode())
        assert error.json_path.startswith("$"), str(error)


def test_header_of_the_wrong_type_is_not_called_invalid_json():
    doc = pod_doc()
    doc["schema_version"] = [1]
    error = refused(doc)
    assert error.json_path == "$.schema_version" and "not valid JSON" not in str(error)


def test_a_utf8_byte_order_mark_is_accepted():
    data = b"\xef\xbb\xbf" + design_to_bytes(small_pod())
    assert len(read_design_bytes(data).links) == 32


def test_malformed_json_names_the_root_path():
    error = refused(b'{"format": "hallwright", ')
    assert error.json_path == "$" and "not valid JSON" in error.problem


def test_limits_are_above_the_bundled_examples():
    from pathlib import Path

    for path in sorted((Path(__file__).parents[2] / "resources" / "examples").glob("*.json")):
        read_design_bytes(path.read_bytes(), path.name)
