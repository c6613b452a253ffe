"""Design files: exact round trips, golden files per schema version, clear errors, safe saves."""

from __future__ import annotations

import copy
import json
import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from model.design.design import Design
from model.files import design_file as fileio
from model.files.design_file import (
    DesignFileError,
    design_pieces,
    design_to_bytes,
    load_design,
    read_design_bytes,
    save_design,
)
from model.files.file_content import file_content

DATA = Path(__file__).resolve().parents[1] / "data"
GOLDEN_V1 = DATA / "golden-v1.hall.json"
GOLDEN_V2 = DATA / "golden-v2.hall.json"
GOLDEN_V3 = DATA / "golden-v3.hall.json"
GOLDEN_V4 = DATA / "golden-v4.hall.json"


def test_round_trip_is_byte_identical(pod, tmp_path):
    first = tmp_path / "a.hall.json"
    second = tmp_path / "b.hall.json"
    save_design(pod, first)
    save_design(load_design(first), second)
    assert first.read_bytes() == second.read_bytes()
    assert first.read_bytes() == design_to_bytes(pod)


def test_file_content_encodes_as_the_design_did_when_taken_whatever_the_edits_after():
    """What a worker thread writes (the editor's autosave) is the design at one revision."""
    design = load_design(GOLDEN_V3)
    before, revision = design_to_bytes(design), design.revision
    content = file_content(design)
    design.set_name("Renamed after the snapshot")
    design.move_racks({next(iter(design.racks)): (1.0, 1.0)})
    design.delete([next(iter(design.links)), next(iter(design.trays))])
    assert design_to_bytes(design) != before
    assert content.revision == revision
    assert design_to_bytes(content) == before


@pytest.mark.parametrize("chunk", [1, 2, 5])
def test_the_file_in_pieces_is_the_file(chunk):
    """The pieces a writer thread makes join into the very file, whatever their size."""
    design = load_design(GOLDEN_V4)
    assert b"".join(design_pieces(design, chunk=chunk)) == GOLDEN_V4.read_bytes()
    empty = Design(design.hall)
    assert b"".join(design_pieces(empty, chunk=chunk)) == design_to_bytes(empty)
    assert design_to_bytes(empty).endswith(b'"links": []\n}\n')


@given(st.sets(st.text(alphabet="ab-19Zé", max_size=6)))
def test_records_are_written_shorter_ids_first_then_alphabetical(ids):
    assert fileio._in_record_order(dict.fromkeys(ids)) == sorted(ids, key=lambda i: (len(i), i))


def test_golden_v1_loads_and_migrates_to_v2():
    """The schema-1 golden file keeps loading; the v1 -> v2 step pins its leaves to compute."""
    design = load_design(GOLDEN_V1)
    assert len(design.links) == 32 and design.gpu_count() == 32
    assert design.links["l-1"].a.port == "nic1"
    assert {d.id: d.fabric for d in design.devices.values() if d.role == "leaf"} == {
        "leaf1": "compute",
        "leaf2": "compute",
    }
    assert all(d.fabric is None for d in design.devices.values() if d.role == "gpu-server")
    saved = design_to_bytes(design)
    assert f'"schema_version": {fileio.SCHEMA_VERSION}'.encode() in saved
    assert load_design(GOLDEN_V1).links == read_design_bytes(saved).links


def test_v1_to_v2_step_alone():
    raw = json.loads(GOLDEN_V1.read_text())
    out = fileio.MIGRATIONS[1](raw)
    roles = {d["id"]: d.get("fabric") for d in out["devices"]}
    assert roles["leaf1"] == "compute" and roles["a1"] is None


def test_golden_v2_loads_and_saves_unchanged():
    """The schema-2 golden file (storage and OOB switches, a pinned link) re-saves byte-identical."""
    design = load_design(GOLDEN_V2)
    assert design.devices["sleaf1"].fabric == "storage"
    assert design.links["l-36"].fabric == "storage"
    if fileio.SCHEMA_VERSION == 2:
        assert design_to_bytes(design) == GOLDEN_V2.read_bytes()


def test_golden_v2_migrates_to_v3_unchanged_but_its_version():
    """v3 adds optional link ``via`` and the zones style: a v2 file's records pass as they are."""
    raw = json.loads(GOLDEN_V2.read_text())
    assert fileio.MIGRATIONS[2](json.loads(GOLDEN_V2.read_text())) == raw
    design = load_design(GOLDEN_V2)
    assert all(link.via == () for link in design.links.values())


def test_golden_v3_loads_and_saves_unchanged():
    """The schema-3 golden file (zones style, two placed panels, a link routed via them)."""
    design = load_design(GOLDEN_V3)
    assert design.settings.cabling == "zones"
    assert design.links["l-1"].via == ("pp-1", "pp-2")
    assert design.links_via_panels() == {"l-1"}  # the bulk loader keeps the index too
    assert design.devices["pp-2"].type == "enclosure-1u-4" and design.devices["pp-2"].u == 48
    if fileio.SCHEMA_VERSION == 3:
        assert design_to_bytes(design) == GOLDEN_V3.read_bytes()


def test_golden_v3_migrates_to_v4_unchanged_but_its_version():
    """v4 adds only optional fields (the facility; underlay, obstacle height, NetBox names): a v3
    file re-saves as itself with the new version number."""
    raw = json.loads(GOLDEN_V3.read_text())
    assert fileio.MIGRATIONS[3](json.loads(GOLDEN_V3.read_text())) == raw
    design = load_design(GOLDEN_V3)
    assert design.hall.floor_rating_kg_m2 is None and design.hall.cooling.cdus == ()
    saved = design_to_bytes(design)
    assert saved == GOLDEN_V3.read_bytes().replace(b'"schema_version": 3', b'"schema_version": 4')


def test_golden_v4_loads_and_saves_unchanged():
    """The schema-4 golden file: 2N feeds and busways, a CDU and a CRAH (N+1), a floor rating;
    an underlay DXF beside it, a CRAH obstacle with a height, NetBox names, a dimension line."""
    design = load_design(GOLDEN_V4)
    assert design.hall.floor_rating_kg_m2 == 1200.0
    assert design.hall.cooling.redundancy == "N+1"
    assert [c.capacity_kw for c in design.hall.cooling.cdus] == [100.0]
    assert design.racks["r1"].pdus == ("bus-a", "bus-b")
    assert design.racks["r1"].cooling == ("crah-1",)
    underlay = design.hall.underlay
    assert underlay is not None and underlay.path == "underlay-hall.dxf"
    assert underlay.kind == "dxf" and underlay.scale_m == 0.001
    assert underlay.layers == ("WALLS", "COLUMNS")
    (crah,) = design.hall.obstacles
    assert (crah.kind, crah.height_m) == ("crac", 2.2)
    assert design.settings.netbox_site == "DH1" and design.settings.netbox_tenant == "Research"
    (dimension,) = design.hall.dimensions
    assert (dimension.a, dimension.b) == ((0.0, 8.4), (12.0, 8.4))
    if fileio.SCHEMA_VERSION == 4:
        assert design_to_bytes(design) == GOLDEN_V4.read_bytes()


def test_a_v4_file_is_refused_by_a_v3_reader_by_its_version():
    with pytest.raises(DesignFileError, match="newer than this Hallwright understands"):
        read_design_bytes(GOLDEN_V4.read_bytes(), "v4.hall.json", current_version=3)


def test_newer_schema_is_refused_with_a_sentence():
    raw = json.loads(GOLDEN_V1.read_text())
    raw["schema_version"] = 99
    with pytest.raises(DesignFileError, match="newer than this Hallwright understands") as info:
        read_design_bytes(json.dumps(raw).encode(), "future.hall.json")
    assert info.value.json_path == "$.schema_version"
    assert str(info.value).startswith("future.hall.json: $.schema_version:")


def test_migrations_run_step_by_step():
    raw = json.loads(GOLDEN_V1.read_text())
    raw["title"] = raw.pop("name")  # pretend version 1 called it "title" and version 2 "name"
    steps = {
        1: lambda doc: {**{k: v for k, v in doc.items() if k != "title"}, "name": doc["title"]}
    }
    design = read_design_bytes(json.dumps(raw).encode(), migrations=steps, current_version=2)
    assert design.name == "Test hall"


def test_wrong_type_names_the_json_path():
    raw = json.loads(GOLDEN_V1.read_text())
    raw["racks"][1]["x"] = "left"
    with pytest.raises(DesignFileError) as info:
        read_design_bytes(json.dumps(raw).encode(), "bad.hall.json")
    assert info.value.json_path == "$.racks[1].x"
    assert "Expected `float`" in info.value.problem


def test_dangling_reference_names_the_record():
    raw = json.loads(GOLDEN_V1.read_text())
    raw["links"][3]["b"][0] = "nowhere"
    with pytest.raises(DesignFileError) as info:
        read_design_bytes(json.dumps(raw).encode(), "bad.hall.json")
    assert info.value.json_path == "$.links[3]" and "no device 'nowhere'" in info.value.problem


def test_not_json_and_not_hallwright():
    with pytest.raises(DesignFileError, match="is not valid JSON"):
        read_design_bytes(b'{"format": "hallwright", ', "cut.hall.json")
    with pytest.raises(DesignFileError, match="not a Hallwright design file"):
        read_design_bytes(b'{"format": "visio"}', "other.json")


def test_unreadable_file(tmp_path):
    with pytest.raises(DesignFileError, match="cannot be read"):
        load_design(tmp_path / "missing.hall.json")


def test_failed_save_leaves_the_old_file_intact(pod, tmp_path, monkeypatch):
    target = tmp_path / "pod.hall.json"
    save_design(pod, target)
    before = target.read_bytes()
    pod.move_racks({"r1": (9.0, 3.0)})

    real_fsync = os.fsync

    def disk_full(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(fileio.os, "fsync", disk_full)
    with pytest.raises(DesignFileError, match="No space left on device.*unchanged"):
        save_design(pod, target)
    monkeypatch.setattr(fileio.os, "fsync", real_fsync)
    assert target.read_bytes() == before
    assert [p.name for p in tmp_path.iterdir()] == ["pod.hall.json"]  # no temporary left behind


# ---------------------------------------------------------------------------------- fuzzing


def _paths(value, prefix=()):
    """Every (path, value) inside a JSON document."""
    yield prefix, value
    if isinstance(value, dict):
        for key, child in value.items():
            yield from _paths(child, (*prefix, key))
    elif isinstance(value, list):
        for index, child in enumerate(value):
            yield from _paths(child, (*prefix, index))


GOLDEN_RAW = json.loads(GOLDEN_V1.read_text()) if GOLDEN_V1.exists() else {}
ALL_PATHS = [p for p, _ in _paths(GOLDEN_RAW) if p]

REPLACEMENTS = st.sampled_from(
    [
        "text",
        7,
        -1,
        0,
        1e308,
        -1e308,
        10**30,
        True,
        None,
        [],
        {},
        [1, 2],
        {"x": 1},
        "nan",
        "a1",
        "r1",
        "l-1",
    ]
)  # NaN is not JSON; test_nan_and_huge_numbers_are_refused covers it


def _set(doc, path, value):
    target = doc
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value


def _delete(doc, path):
    target = doc
    for key in path[:-1]:
        target = target[key]
    del target[path[-1]]


@st.composite
def mutated_files(draw):
    doc = json.loads(json.dumps(GOLDEN_RAW))
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p, _ in _paths(doc) if p]
        path = draw(st.sampled_from(paths))
        action = draw(st.sampled_from(["replace", "delete", "duplicate"]))
        try:
            if action == "replace":
                # A copy: the sampled lists and dicts are shared by every example, and a later
                # "duplicate" appending into one of them changed what the next examples drew
                # (Hypothesis: "data generation behaved differently between runs").
                _set(doc, path, copy.deepcopy(draw(REPLACEMENTS)))
            elif action == "delete":
                _delete(doc, path)
            else:
                parent = doc
                for key in path[:-1]:
                    parent = parent[key]
                if isinstance(parent, list):
                    parent.append(json.loads(json.dumps(parent[path[-1]])))
        except (KeyError, IndexError, TypeError):
            pass
    data = json.dumps(doc, allow_nan=True).encode()
    if draw(st.booleans()) and draw(st.integers(0, 4)) == 0:
        data = data[: draw(st.integers(0, len(data)))]
    return data


@settings(
    max_examples=300, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(mutated_files())
def test_loader_raises_only_design_file_error_with_a_path(data):
    try:
        design = read_design_bytes(data, "fuzz.hall.json")
    except DesignFileError as exc:
        assert str(exc).startswith("fuzz.hall.json: ")
        assert exc.problem
        if exc.json_path:
            assert exc.json_path.startswith("$")
    else:
        # Whatever loaded must save and load again identically.
        again = read_design_bytes(design_to_bytes(design))
        assert design_to_bytes(again) == design_to_bytes(design)


def test_nan_and_huge_numbers_are_refused():
    raw = json.loads(GOLDEN_V1.read_text())
    raw["racks"][0]["x"] = 1e308
    with pytest.raises(DesignFileError) as info:
        read_design_bytes(json.dumps(raw).encode(), "n.hall.json")
    assert info.value.json_path == "$.racks[0].x"
    raw["racks"][0]["x"] = float("nan")  # not JSON at all, but Python's json writes it
    with pytest.raises(DesignFileError, match="n.hall.json"):
        read_design_bytes(json.dumps(raw).encode(), "n.hall.json")


def test_saved_file_gets_normal_permissions(pod, tmp_path):
    target = tmp_path / "new.hall.json"
    save_design(pod, target)
    mask = os.umask(0)
    os.umask(mask)
    assert target.stat().st_mode & 0o777 == 0o666 & ~mask
    target.chmod(0o640)
    save_design(pod, target)
    assert target.stat().st_mode & 0o777 == 0o640


def test_a_custom_type_of_no_family_is_saved_as_before_the_field_existed(tmp_path):
    """The plug rules' ``family`` is written only when set: a file whose custom types use no
    family stays readable by a Hallwright without the field; one that sets it keeps it."""
    import msgspec

    from model.catalog.components import CatalogFile, builtin_catalog
    from model.design.design import Design
    from model.design.entities import Hall
    from model.files.design_file import design_to_bytes, load_design, save_design

    q = builtin_catalog().device_types["qm9700"]
    plain = msgspec.structs.replace(q, id="my-switch", family="")
    plain = msgspec.structs.replace(
        plain, port_groups=tuple(msgspec.structs.replace(g, family="") for g in q.port_groups)
    )
    named = msgspec.structs.replace(plain, id="my-switch-2", family="Quantum-2")
    hall = Hall(outline=((0.0, 0.0), (10.0, 0.0), (10.0, 10.0), (0.0, 10.0)))
    for types, expected in (([plain], 0), ([plain, named], 1)):
        design = Design(hall, custom_types=CatalogFile(device_types=types))
        text = design_to_bytes(design)
        assert text.count(b'"family"') == expected
        path = tmp_path / f"custom{expected}.hall.json"
        save_design(design, path)
        back = load_design(path).custom_types.device_types
        assert [t.family for t in back] == [t.family for t in types]
