"""The cable plant's whole-array build (a loaded design's link ends read from the loader's
integer codes, every column filled at once) gives the same plant, array by array, as reading
every link record and as the per-link path that edits take (links appended batch by batch)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from model.design.bulk_load import loaded_link_codes
from model.engine.cages import CAGE_STRIDE
from model.engine.link_table import INPUT_COLUMNS, OUTPUT_COLUMNS
from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes, read_design_bytes
from model.generators.generate import GenerateError, rail_optimized
from tests.benchmarks.workloads import build

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "resources" / "examples").glob("*.json"))
# Numberings internal to one plant (port classes, cage specs, device numbers in cage keys,
# component labels, route ids) are compared by what they stand for, not by number.
_NUMBERED = {"class_a", "class_b", "spec_a", "spec_b", "cage_a", "cage_b", "component"}


def _first_seen(labels: np.ndarray) -> np.ndarray:
    """Labels renumbered in order of first appearance (-1 kept): equal partitions compare equal."""
    out = np.full(len(labels), -1, dtype=np.int64)
    seen: dict[int, int] = {}
    for k, v in enumerate(labels.tolist()):
        if v >= 0:
            out[k] = seen.setdefault(v, len(seen))
    return out


def _meaning(plant: RoutedLinks) -> dict:
    """Every per-link array, the numbered ones translated to what their numbers stand for."""
    out = {n: getattr(plant, n) for n in {**INPUT_COLUMNS, **OUTPUT_COLUMNS} if n not in _NUMBERED}
    for end in ("a", "b"):
        out[f"class_{end}"] = [plant.port_classes[c] for c in getattr(plant, f"class_{end}")]
        out[f"spec_{end}"] = [plant.parts.specs[s] for s in getattr(plant, f"spec_{end}")]
        out[f"cage_{end}"] = [
            (plant.cage_device_ids[k // CAGE_STRIDE], k % CAGE_STRIDE)
            for k in getattr(plant, f"cage_{end}").tolist()
        ]
    out["component"] = _first_seen(plant.component)
    keys = np.array(plant.route_keys())
    out["route"] = _first_seen(keys)
    out["spans"] = [plant.tray_spans(k) if k >= 0 else () for k in keys.tolist()]
    out["reasons"] = plant.reasons(np.arange(len(plant.link_ids)))
    out["link_ids"] = plant.link_ids
    return out


def _assert_same(one: dict, other: dict) -> None:
    assert one.keys() == other.keys()
    for name, value in one.items():
        if isinstance(value, np.ndarray):
            assert value.dtype == other[name].dtype, name
            assert np.array_equal(value, other[name], equal_nan=value.dtype.kind == "f"), name
        else:
            assert value == other[name], name


def _three_ways(data: bytes, batches: int = 3) -> tuple[dict, dict, dict]:
    """(codes path, record path, per-link path) of the design in ``data``."""
    fast = read_design_bytes(data)
    assert loaded_link_codes(fast) is not None  # the whole-array path is the one under test
    by_codes = RoutedLinks(fast)
    walked = read_design_bytes(data)
    walked._loaded_codes = None
    by_records = RoutedLinks(walked)
    growing = read_design_bytes(data)
    links = list(growing.links.values())
    growing.remove_links([lk.id for lk in links])
    plant = RoutedLinks(growing)
    step = max(1, -(-len(links) // batches))
    for start in range(0, len(links), step):
        growing.add_links(links[start : start + step])
        plant.refresh()
    return _meaning(by_codes), _meaning(by_records), _meaning(plant)


def _with_pins_and_lengths(data: bytes, seed: int) -> bytes:
    """The file with some links pinned to a medium (fitting or not) and some lengths set."""
    rng = np.random.default_rng(seed)
    doc = msgspec.json.decode(data)
    media = ["auto", "dac-400g", "dr4-400g", "dac-800g", "sr8-800g", "aoc-200g", "utp-1g"]
    known = set(read_design_bytes(data).catalog.media_types)
    for link in doc["links"]:
        roll = rng.random()
        if roll < 0.15:
            pick = media[int(rng.integers(len(media)))]
            if pick in known:
                link["medium"] = pick
        elif roll < 0.25:
            link["length_override_m"] = round(float(rng.uniform(0.5, 60)), 2)
        elif roll < 0.3:
            link["as_built_m"] = round(float(rng.uniform(0.5, 60)), 2)
    return msgspec.json.encode(doc)


@pytest.mark.parametrize("size", ["S", "L"])
def test_whole_build_equals_record_and_per_link_paths_on_generated_fabrics(size):
    by_codes, by_records, per_link = _three_ways(design_to_bytes(build(size)))
    _assert_same(by_codes, by_records)
    _assert_same(by_codes, per_link)


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_whole_build_equals_record_and_per_link_paths_on_bundled_examples(path):
    by_codes, by_records, per_link = _three_ways(path.read_bytes())
    _assert_same(by_codes, by_records)
    _assert_same(by_codes, per_link)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    nodes=st.integers(1, 48),
    node_type=st.sampled_from(["dgx-h100", "dgx-b200", "hgx-h100-8x400"]),
    switch=st.sampled_from(["qm9700", "sn5600", "q3400"]),
    su_nodes=st.integers(1, 16),
    placement=st.sampled_from(["middle-of-row", "end-of-row"]),
    seed=st.integers(0, 2**16),
    batches=st.integers(1, 5),
)
def test_whole_build_equals_per_link_path_on_random_small_designs(
    nodes, node_type, switch, su_nodes, placement, seed, batches
):
    try:
        design = rail_optimized(
            nodes=nodes, node_type=node_type, switch=switch, su_nodes=su_nodes, placement=placement
        )
    except GenerateError:
        assume(False)  # a request the generator refuses (no medium joins NIC and switch)
    data = _with_pins_and_lengths(design_to_bytes(design), seed)
    by_codes, by_records, per_link = _three_ways(data, batches)
    _assert_same(by_codes, by_records)
    _assert_same(by_codes, per_link)


def test_the_loaders_codes_go_with_the_first_edit(pod):
    data = design_to_bytes(pod)
    design = read_design_bytes(data)
    assert loaded_link_codes(design) is not None
    link = next(iter(design.links.values()))
    design.update_links([msgspec.structs.replace(link, label="relabelled")])
    assert loaded_link_codes(design) is None  # an edited design's plant reads its records
    _assert_same(_meaning(RoutedLinks(design)), _meaning(RoutedLinks(read_design_bytes(data))))
    design.remove_links([link.id])
    assert loaded_link_codes(design) is None
    assert RoutedLinks(design).link_ids == list(design.links)
