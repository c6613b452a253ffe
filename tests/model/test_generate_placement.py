"""Generated fabrics are placed validly: rows, aisles, racks within budget, trays joined, and
the design file round-trips byte for byte."""

from __future__ import annotations

from collections import defaultdict

import pytest

from model.files.design_file import design_to_bytes, load_design, save_design
from model.generators.generate import generate
from tests.model.generate_checks import assert_placement_valid

CASES = {
    "superpod-4su": (
        "rail-optimized",
        dict(nodes=128, node_type="dgx-h100", switch="qm9700", su_nodes=32),
    ),
    "superpod-end-of-row": (
        "rail-optimized",
        dict(nodes=127, node_type="dgx-h100", switch="qm9700", su_nodes=32, placement="end-of-row"),
    ),
    "b300-xdr": (
        "rail-optimized",
        dict(nodes=72, node_type="dgx-b300", switch="q3400", su_nodes=72),
    ),
    "three-tier": (
        "rail-optimized",
        dict(nodes=600, node_type="dgx-h100", switch="qm9700", su_nodes=32),
    ),
    "leaf-spine-3to1": (
        "leaf-spine",
        dict(nodes=100, node_type="dgx-h100", switch="qm9700", oversubscription=3),
    ),
    "fat-tree": ("fat-tree", dict(k=8)),
    "nvl72": ("nvl72", dict(racks=10)),
}


def _build(case: str):
    template, params = CASES[case]
    return generate(template, **params)


@pytest.fixture(scope="module", params=sorted(CASES))
def generated(request):
    template, params = CASES[request.param]
    return request.param, generate(template, **params)


def test_placement_is_valid(generated):
    _, design = generated
    assert_placement_valid(design)


def test_rows_alternate_so_fronts_share_cold_aisles(generated):
    _, design = generated
    by_y = defaultdict(set)
    for rack in design.racks.values():
        by_y[rack.y].add(rack.rotation)
    ys = sorted(by_y)
    for i, y in enumerate(ys):
        assert by_y[y] == {0 if i % 2 == 0 else 180}
    # rows are 2 tiles of rack + 2 tiles of aisle apart
    assert all(abs((b - a) - 2.4) < 1e-6 for a, b in zip(ys, ys[1:], strict=False))


def test_rack_names_read_as_rows_and_positions(generated):
    _, design = generated
    for rack in design.racks.values():
        assert rack.name[0].isalpha() and rack.name[-2:].isdigit()
    rows = defaultdict(list)
    for rack in design.racks.values():
        rows[rack.y].append(rack)
    for racks in rows.values():
        racks.sort(key=lambda r: r.x)
        letters = {r.name.rstrip("0123456789") for r in racks}
        assert len(letters) == 1
        numbers = [int(r.name[len(r.name.rstrip("0123456789")) :]) for r in racks]
        assert numbers == list(range(1, len(racks) + 1))


def test_generated_file_round_trips_byte_identically(generated, tmp_path):
    name, design = generated
    path = tmp_path / f"{name}.hall.json"
    save_design(design, path)
    first = path.read_bytes()
    loaded = load_design(path)
    assert design_to_bytes(loaded) == first
    save_design(loaded, path)
    assert path.read_bytes() == first


def test_dgx_h100_racks_hold_four_servers_within_45_kw():
    design = _build("superpod-4su")
    per_rack = defaultdict(int)
    for device in design.devices.values():
        if device.type == "dgx-h100":
            per_rack[device.rack] += 1
    assert set(per_rack.values()) == {4}  # 4 x 10.2 kW = 40.8 kW <= 45 kW, 5 would be 51 kW
    assert len(per_rack) == 32


def test_leaves_stand_in_the_middle_of_their_su_row_or_at_its_end():
    for placement, where in (("middle-of-row", "middle"), ("end-of-row", "end")):
        design = generate(
            "rail-optimized",
            nodes=64,
            node_type="dgx-h100",
            switch="qm9700",
            su_nodes=32,
            placement=placement,
        )
        for su in ("su1", "su2"):
            leaf_rack = design.racks[design.devices[f"{su}-leaf-rail1"].rack]
            assert {design.devices[f"{su}-leaf-rail{r}"].rack for r in range(1, 9)} == {
                leaf_rack.id
            }
            server_racks = {
                design.devices[d].rack for d in design.devices if d.startswith(f"{su}-node")
            }
            xs = sorted(design.racks[r].x for r in server_racks)
            assert all(design.racks[r].y == leaf_rack.y for r in server_racks)
            if where == "middle":
                assert xs[0] < leaf_rack.x < xs[-1]
                assert max(abs(x - leaf_rack.x) for x in xs) <= 4 * 0.6 + 1e-9
            else:
                assert leaf_rack.x > xs[-1] or leaf_rack.x < xs[0]


def test_spines_and_cores_are_grouped_centrally():
    design = _build("three-tier")
    ys = sorted({r.y for r in design.racks.values()})
    core_rows = {design.racks[d.rack].y for d in design.devices.values() if d.role == "core"}
    middle = (ys[0] + ys[-1]) / 2
    assert all(abs(y - middle) <= (ys[-1] - ys[0]) / 4 + 2.4 for y in core_rows)
    # a pod's spines stand among that pod's SU rows
    pod1_spine_y = {
        design.racks[d.rack].y for d in design.devices.values() if d.id.startswith("pod1-spine")
    }
    pod1_node_y = {
        design.racks[d.rack].y
        for d in design.devices.values()
        if d.role == "gpu-server" and int(d.id.split("-")[0][2:]) <= 4
    }
    assert min(pod1_node_y) <= min(pod1_spine_y) and max(pod1_spine_y) <= max(pod1_node_y)


def test_nvl72_racks_hold_their_whole_nvlink_domain():
    design = _build("nvl72")
    for rack in (r for r in design.racks.values() if r.type == "rack-nvl72"):
        kinds = [d.type for d in design.devices_in_rack(rack.id)]
        assert kinds.count("gb200-compute-tray") == 18
        assert kinds.count("gb200-nvlink-switch-tray") == 9
