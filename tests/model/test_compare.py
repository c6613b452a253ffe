"""compare: a design against itself is empty; a moved rack lists that rack and its flipped links."""

from __future__ import annotations

import json
import random

import msgspec
import pytest

from cli import run_cli
from model.analysis import analyze
from model.engine.routed_links import RoutedLinks
from model.files.design_file import design_to_bytes, read_design_bytes, save_design
from model.generators.generate import fat_tree, generate, rail_optimized
from model.studies.compare import PhysicalDiff, compare, kpis, physical_diff


def _copy(design):
    return read_design_bytes(design_to_bytes(design), "<copy>")


def _analysed(design):
    plant = RoutedLinks(design)
    plant.refresh()
    return design, plant, analyze(design, plant).to_json()


def test_a_design_compared_with_itself_is_empty():
    a = _analysed(fat_tree(k=4))
    b = _analysed(_copy(a[0]))
    result = compare(*a, *b)
    assert result["identical"]
    assert all(not v for v in result["diff"].values())
    # numbers differ by 0; the word column (bisection method) is alike: no delta
    assert all(row["delta"] in (0, "same") for row in result["kpis"].values())
    assert result["kpis"]["bisection_method"]["delta"] == "same"


def test_a_moved_rack_lists_exactly_that_rack_and_its_flipped_links():
    design, plant, _ = _analysed(fat_tree(k=4))
    moved = _copy(design)
    # A01 is at the end of row A; moving it 2.4 m back lengthens every link leaving the rack.
    # Those already run on modules and fibres (their cages' ports go to different far cages),
    # so the fibres get longer (the BOM changes) and any flip is one of A01's links.
    rack = moved.racks["A01"]
    moved.move_racks({"A01": (rack.x, rack.y + 2.4)})
    plant_b = RoutedLinks(moved)
    plant_b.refresh()
    diff = physical_diff(design, plant, moved, plant_b)
    assert diff.racks_moved == ["A01"]
    assert not (diff.racks_added or diff.racks_removed or diff.links_added or diff.links_removed)
    flipped = {f["link"] for f in diff.media_flipped}
    assert flipped <= design.links_of_racks(["A01"])
    # Links inside A01 stay in the rack and keep their medium.
    inside = {
        lid
        for lid in design.links_of_racks(["A01"])
        if design.devices[design.links[lid].a.device].rack
        == design.devices[design.links[lid].b.device].rack
    }
    assert not flipped & inside
    assert diff.bom_changed


def test_kpis_from_the_analysis():
    _, _, j = _analysed(fat_tree(k=4))
    k = kpis(j)
    assert k["gpus"] == 16
    assert k["cost_per_gpu_usd"] == pytest.approx(j["cost_usd"]["total"] / 16)
    assert k["optics_share_of_it_power"] == pytest.approx(
        j["transceivers"]["power_w"] / j["power_w"]["total"]
    )
    assert k["failures_per_day"] == j["reliability"]["failures_per_day"]


def test_compare_cli(tmp_path, capsys):
    a = tmp_path / "a.hall.json"
    save_design(fat_tree(k=4), a)
    assert run_cli(["compare", str(a), str(a), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["identical"] is True
    assert run_cli(["compare", str(a), str(a)]) == 0
    assert "Physically identical." in capsys.readouterr().out
    assert run_cli(["compare", str(a), str(tmp_path / "missing.hall.json")]) == 2


def _links_by_ends(a, plant_a, b, plant_b):
    """The link half of the physical diff read record by record: each link's two ends as a
    set, a dict per design (the reference the array matching must equal)."""

    def ends(link):
        return frozenset(((link.a.device, link.a.port), (link.b.device, link.b.port)))

    def medium(plant, link_id):
        m = plant.medium(link_id)
        return m.id if m is not None else None

    ends_a = {ends(link): lid for lid, link in a.links.items()}
    ends_b = {ends(link): lid for lid, link in b.links.items()}
    flipped = [
        {"link": lid_b, "from": medium(plant_a, ends_a[key]), "to": medium(plant_b, lid_b)}
        for key, lid_b in ends_b.items()
        if key in ends_a and medium(plant_a, ends_a[key]) != medium(plant_b, lid_b)
    ]
    return (
        sorted(lid for key, lid in ends_b.items() if key not in ends_a),
        sorted(lid for key, lid in ends_a.items() if key not in ends_b),
        sorted(flipped, key=lambda f: f["link"]),
    )


def _edited_pair(seed):
    """A rail-optimized pod and a copy with a rack moved, links removed, renamed and turned."""
    rng = random.Random(seed)
    a = generate(
        "rail-optimized", nodes=64, node_type="hgx-h100-8x400", switch="sn5600", su_nodes=32
    )
    b = _copy(a)
    rack = list(b.racks)[rng.randrange(2)]
    b.move_racks({rack: (b.racks[rack].x, b.racks[rack].y + 80.0)})
    removed = b.remove_links(rng.sample(sorted(b.links), 60)).links
    b.add_links(
        [msgspec.structs.replace(link, id=link.id + "-new") for link in removed[:20]]
        + [
            msgspec.structs.replace(link, id=link.id + "-turned", a=link.b, b=link.a)
            for link in removed[20:40]
        ]
    )  # the last 20 stay removed
    return a, b


@pytest.mark.parametrize("seed", range(4))
def test_links_are_matched_by_their_ends_either_way_round(seed):
    """Links removed, re-added under new ids, re-added with their ends the other way round,
    rewired to other ports, and a rack moved 80 m (its fibres flip from SR4 to DR4): the
    diff names exactly what the per-record reading names."""
    a, b = _edited_pair(seed)
    plant_a, plant_b = RoutedLinks(a), RoutedLinks(b)
    diff = physical_diff(a, plant_a, b, plant_b)
    added, gone, flipped = _links_by_ends(a, plant_a, b, plant_b)
    assert (diff.links_added, diff.links_removed, diff.media_flipped) == (added, gone, flipped)
    assert len(gone) == 20 and not added
    assert flipped and all(f["from"] != f["to"] for f in flipped)
    back = physical_diff(b, plant_b, a, plant_a)  # the other way: the 20 come back as added
    assert back.links_added == gone and not back.links_removed


@pytest.mark.parametrize("seed", range(3))
def test_designs_as_loaded_are_diffed_from_their_end_codes_like_the_records(seed):
    """Both designs straight from their files (the loader's end codes are used, in two
    different code spaces): the same diff as the per-record reading."""
    from model.design.bulk_load import loaded_link_codes

    a, b = (_copy(d) for d in _edited_pair(seed))
    assert loaded_link_codes(a) is not None and loaded_link_codes(b) is not None
    plant_a, plant_b = RoutedLinks(a), RoutedLinks(b)
    diff = physical_diff(a, plant_a, b, plant_b)
    added, gone, flipped = _links_by_ends(a, plant_a, b, plant_b)
    assert (diff.links_added, diff.links_removed, diff.media_flipped) == (added, gone, flipped)
    assert len(gone) == 20 and flipped


def test_end_codes_too_wide_to_pair_are_numbered_densely(monkeypatch):
    """A file with very many devices and port names (lo * span + hi would overflow int64)
    numbers the ends densely first: the limit lowered here to take that path on a small pod."""
    import model.studies.compare

    a, b = _edited_pair(0)
    plant_a, plant_b = RoutedLinks(a), RoutedLinks(b)
    expected = physical_diff(a, plant_a, b, plant_b)
    monkeypatch.setattr(model.studies.compare, "_SPAN_LIMIT", 2)
    assert physical_diff(a, plant_a, b, plant_b) == expected


def test_compare_carries_the_collectives_and_the_bisection_method_of_1_2_and_3_to_1():
    """Issue 37's architect: two SUs of 32 DGX H100 at 1:1, 2:1, 3:1 (32, 16, 12 uplinks per
    rail leaf, 400G). Bisection falls with the ratio (the minimum balanced cut is between the
    SUs: 8 leaves x 32 / 16 / 12 x 400G = 102,400 / 51,200 / 38,400 Gb/s), by max-flow on all
    three; the default job's all-reduce stays within 10 % (its trees cross the uplinks only
    where an edge leaves the SU); the all-to-all, with PXN, sends half of each leaf's bytes up:
    S per uplink at 2:1 (1.016x the NIC-bound 1:1 time), 4/3 S at 3:1 (1.35x)."""
    reports, k = {}, {}
    for ratio in (1, 2, 3):
        design = rail_optimized(
            nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32, oversubscription=ratio
        )
        reports[ratio] = analyze(design).to_json()
        k[ratio] = kpis(reports[ratio])
    assert [k[r]["bisection_gbps"] for r in (1, 2, 3)] == [102_400, 51_200, 38_400]
    assert {k[r]["bisection_method"] for r in (1, 2, 3)} == {"max-flow"}
    for r in (2, 3):
        assert k[r]["allreduce_time_s"] == pytest.approx(k[1]["allreduce_time_s"], rel=0.10)
    a2a = {r: k[r]["alltoall_time_s"] for r in (1, 2, 3)}
    assert a2a[2] / a2a[1] == pytest.approx(512 / 504, rel=0.01)
    assert a2a[3] / a2a[1] == pytest.approx(4 / 3 * 512 / 504, rel=0.01)
    nothing = PhysicalDiff(*([] for _ in range(9)))
    table = compare(None, None, reports[1], None, None, reports[3], diff=nothing)["kpis"]
    assert table["bisection_method"] == {"a": "max-flow", "b": "max-flow", "delta": "same"}
    assert table["bisection_gbps"]["delta"] == 38_400 - 102_400
    assert table["alltoall_time_s"]["delta"] == pytest.approx(a2a[3] - a2a[1])
