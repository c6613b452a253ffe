"""NetBox modules: a transceiver per used cage in a module bay its device type declares."""

from __future__ import annotations

import csv
import io
from collections import Counter
from pathlib import Path

import pytest

from model.catalog.parts import orderable_number
from model.engine.cages import port_cages
from model.engine.routed_links import RoutedLinks
from model.files.design_file import load_design
from model.outputs.netbox import export as nb
from model.outputs.netbox.export import CABLE_HEADER, DEVICE_HEADER, netbox_files, netbox_tables
from model.outputs.netbox.modules import (
    ASSET_TAG_MAX,
    MODULE_HEADER,
    MODULES_STEM,
    PART_NUMBER_MAX,
    device_asset_tag,
)
from model.outputs.schedule import schedule_rows
from model.plant.physical_plant import build_plant
from tests.model.test_netbox import _read_block_yaml
from tests.model.test_plant_rules import connect, one_rack

EXAMPLES = Path(__file__).resolve().parents[2] / "resources" / "examples"
# devicetype-library schema/moduletype.json: required keys and every key it allows.
MODULE_TYPE_REQUIRED = {"manufacturer", "model"}
MODULE_TYPE_KEYS = {
    "manufacturer",
    "model",
    "part_number",
    "weight",
    "weight_unit",
    "console-ports",
    "console-server-ports",
    "power-ports",
    "power-outlets",
    "interfaces",
    "front-ports",
    "rear-ports",
    "module-bays",
    "description",
    "comments",
}


@pytest.fixture(scope="module")
def superpod():
    design = load_design(EXAMPLES / "superpod-4su.hall.json")
    plant = RoutedLinks(design)
    return design, plant, netbox_tables(design, schedule_rows(design, plant), plant)


def _csv(data: bytes) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(data.decode("utf-8"))))


def _modules(files: dict[str, bytes]) -> list[dict[str, str]]:
    rows = []
    for path in sorted(p for p in files if p.startswith(f"site/{MODULES_STEM}")):
        rows.extend(_csv(files[path]))
    return rows


def test_module_count_is_the_plant_modules_total_of_analyze(superpod):
    design, plant, export = superpod
    total = build_plant(plant).summary()["modules"]["total"]
    assert total > 0
    assert len(export.rows(MODULES_STEM)) == total
    assert len(_modules(netbox_files(export))) == total


def test_every_module_sits_in_a_bay_its_device_type_declares_once(superpod):
    design, plant, export = superpod
    files = netbox_files(export)
    devices = {
        r["asset_tag"]: r
        for p in sorted(files)
        if p.startswith("site/07_devices")
        for r in _csv(files[p])
    }
    bays = {v.model: {b["name"]: b for b in v.module_bays()} for v in export.device_types}
    types = {t.model: t for t in export.module_types}
    modules = _modules(files)
    assert modules and tuple(modules[0]) == MODULE_HEADER
    placed = Counter((m["device.asset_tag"], m["module_bay"]) for m in modules)
    assert max(placed.values()) == 1  # one plug per cage
    for m in modules:
        device_type = devices[m["device.asset_tag"]]["device_type"]
        bay = bays[device_type][m["module_bay"]]  # KeyError = a bay NetBox would not find
        mtype = types[m["module_type"]]
        assert bay["description"] == f"{mtype.first.form_factor} cage"
        assert m["status"] == "planned"


def test_cages_of_integrated_cables_hold_no_module_and_module_cages_do():
    # Leaf cage p1+p2 to two HGX NICs at 2.5 m: one DAC splitter (no module at any end); leaf
    # cage p3+p4 to a third HGX and a fourth at 20 m: modules and fibres (a module per cage).
    design = one_rack(*(["qm9700"] + ["hgx-h100-8x400"] * 4))
    connect(
        design, [("s1", ("d1", "p1"), ("d2", "nic1")), ("s2", ("d1", "p2"), ("d3", "nic1"))], 2.5
    )
    connect(
        design, [("f1", ("d1", "p3"), ("d4", "nic1")), ("f2", ("d1", "p4"), ("d5", "nic1"))], 20
    )
    plant = RoutedLinks(design)
    assert plant.medium("s1").kind == "dac" and plant.medium("f1").kind in ("mmf", "smf")
    export = netbox_tables(design, schedule_rows(design, plant), plant)
    placed = sorted((r[0], r[1]) for r in export.rows(MODULES_STEM))
    tag = {d: device_asset_tag(export.site, d) for d in ("d1", "d4", "d5")}
    assert placed == [(tag["d1"], "p cage 2"), (tag["d4"], "nic cage 1"), (tag["d5"], "nic cage 1")]
    assert len(placed) == build_plant(plant).summary()["modules"]["total"]
    # The splitter is one cable row per link, its ends are the cable's plugs.
    labels = {r[CABLE_HEADER.index("label")] for r in export.rows("08_cables")}
    assert len(labels) == 4


def test_backplane_cages_hold_no_module():
    design = load_design(EXAMPLES / "nvl72-su.hall.json")
    plant = RoutedLinks(design)
    export = netbox_tables(design, schedule_rows(design, plant), plant)
    at, tag_at = DEVICE_HEADER.index("description"), DEVICE_HEADER.index("asset_tag")
    name_of = {
        row[at].removeprefix("Hallwright "): row[tag_at] for row in export.rows("07_devices")
    }
    placed = {(r[0], r[1]) for r in export.rows(MODULES_STEM)}
    backplane = [x for x in design.links if plant.medium(x).kind == "backplane"]
    assert backplane
    for link_id in backplane:
        link = design.links[link_id]
        for end in (link.a, link.b):
            device = design.devices[end.device]
            table = port_cages(design.catalog.device_types[device.type], device.breakout)
            assert (name_of[end.device], table[end.port][2]) not in placed
    assert len(placed) == build_plant(plant).summary()["modules"]["total"] > 0


def test_module_type_yaml_has_the_fields_the_library_format_requires(superpod):
    yaml = pytest.importorskip("yaml")
    _design, _plant, export = superpod
    files = netbox_files(export)
    paths = sorted(p for p in files if p.startswith("shared/03_module_types/"))
    assert len(paths) == len(export.module_types) >= 1
    manufacturers = {r["name"] for r in _csv(files["shared/01_manufacturers.csv"])}
    used = {r["module_type"] for r in _modules(files)}
    models = set()
    for path in paths:
        text = files[path].decode("utf-8")
        doc = yaml.safe_load(text)
        assert doc == _read_block_yaml(text)
        assert MODULE_TYPE_REQUIRED <= set(doc) <= MODULE_TYPE_KEYS, path
        assert doc["manufacturer"] in manufacturers
        # the vendor's number, the catalog's kept as the model; none for an EST- estimate
        if doc["model"].startswith("EST-"):
            assert "part_number" not in doc, path
        else:
            assert 1 <= len(doc["part_number"]) <= PART_NUMBER_MAX
            assert doc["part_number"] == orderable_number(doc["model"])
        assert "interfaces" not in doc
        models.add(doc["model"])
    assert models == used  # every type used, every module's type exported


def test_modules_are_chunked_below_1000_rows(monkeypatch, superpod):
    _design, _plant, export = superpod
    total = len(export.rows(MODULES_STEM))
    monkeypatch.setattr(nb, "CHUNK_ROWS", 300)
    files = netbox_files(export)
    parts = sorted(p for p in files if p.startswith(f"site/{MODULES_STEM}"))
    assert parts == [f"site/{name}" for name in nb.chunk_names(MODULES_STEM, total)]
    assert len(parts) == -(-total // 300) > 1
    counts = [len(_csv(files[p])) for p in parts]
    assert all(1 <= c <= 300 for c in counts) and sum(counts) == total


def test_readme_says_where_modules_go_and_that_cables_are_not_modules(superpod):
    readme = netbox_files(superpod[2])["README.txt"].decode()
    assert "03_module_types/*.yaml" in readme and "10_modules*.csv" in readme
    assert readme.index("07_devices") < readme.index("10_modules")
    assert "integrated cable" in readme and "has no module" in readme


def test_asset_tags_find_devices_across_sites_whose_names_repeat():
    from model.generators.generate import generate

    tags = []
    for name in ("Pod A", "Pod B"):
        design = generate("leaf-spine", nodes=4, node_type="dgx-h100", switch="qm9700")
        design.name = name
        plant = RoutedLinks(design)
        export = netbox_tables(design, schedule_rows(design, plant), plant)
        at = DEVICE_HEADER.index("asset_tag")
        tags.append([row[at] for row in export.rows("07_devices")])
        module_tags = {row[0] for row in export.rows(MODULES_STEM)}
        assert module_tags and module_tags <= set(tags[-1])
    everything = tags[0] + tags[1]
    assert len(set(everything)) == len(everything)  # NetBox: asset tags unique in all sites
    assert all(1 <= len(t) <= ASSET_TAG_MAX for t in everything)
    long = device_asset_tag("S" * 100, "d" * 64)
    assert len(long) == ASSET_TAG_MAX and long != device_asset_tag("S" * 99 + "T", "d" * 64)
