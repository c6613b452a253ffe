"""Failure analysis: a core of a fat tree, a rail leaf, trays, --n-1 and the CLI contract."""

from __future__ import annotations

import json

import numpy as np
import pytest

from cli import run_cli
from model.analysis import analyze
from model.analysis.n_minus_one import n_minus_one
from model.analysis.whatif import WhatIf, what_if
from model.engine.routed_links import RoutedLinks
from model.files.design_file import save_design
from model.generators.generate import fat_tree, rail_optimized


def test_one_core_of_a_k8_fat_tree_leaves_15_16_of_the_bisection():
    k = 8
    design = fat_tree(k=k)
    core = next(d.id for d in design.devices.values() if d.role == "core")
    r = what_if(design, None, [core])
    # Bisection of a k-ary fat tree = hosts/2 x link speed, carried by (k/2)^2 cores alike:
    # losing one leaves ((k/2)^2 - 1) / (k/2)^2 of it.
    cores = (k // 2) ** 2
    full = k**3 / 4 / 2 * 400
    assert r["before"]["bisection_gbps"] == full
    assert r["after"]["bisection_gbps"] == pytest.approx(full * (cores - 1) / cores)
    assert r["after"]["bisection_gbps"] / r["before"]["bisection_gbps"] == pytest.approx(15 / 16)
    assert r["gpus_disconnected"] == 0
    assert r["after"]["scale_out_per_gpu_gbps"] == {"min": 400.0, "mean": 400.0}


def test_one_rail_leaf_cuts_off_exactly_its_rail_in_its_su():
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    whatif = WhatIf(design)
    failed = whatif.resolve(["su2-leaf-rail3"])
    _after, per_gpu = whatif.after(failed)
    servers = [d.id for d in design.devices.values() if d.role == "gpu-server"]
    index = whatif.topo.device_index
    expected = {
        int(whatif.ports.gpu_offset[index[s]]) + 2  # rail 3 = the third NIC = GPU 3 of 8
        for s in servers
        if s.startswith("su2-")
    }
    assert set(np.flatnonzero(per_gpu == 0).tolist()) == expected
    r = whatif.run(["su2-leaf-rail3"])
    assert r["gpus_disconnected"] == 32
    assert r["after"]["gpus"] == r["before"]["gpus"] == 512
    assert r["after"]["scale_out_per_gpu_gbps"]["min"] == 0
    assert r["after"]["scale_out_per_gpu_gbps"]["mean"] == pytest.approx(400 * (1 - 32 / 512))
    assert sorted(r["blast_radius"]["servers_cut_off"]) == sorted(
        s for s in servers if s.startswith("su2-")
    )


def test_a_rack_fails_with_every_device_in_it_and_a_server_loses_its_gpus():
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    node = design.devices["su1-node01"]
    in_rack = [d for d in design.devices.values() if d.rack == node.rack]
    gpus = sum(design.device_type(d).gpu_count for d in in_rack)
    r = what_if(design, None, [node.rack])
    assert sorted(r["failed_devices"]) == sorted(d.id for d in in_rack)
    assert r["after"]["gpus"] == 512 - gpus
    assert r["gpus_disconnected"] == gpus


def test_before_matches_analyze_where_the_keys_overlap():
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    j = analyze(design).to_json()
    before = what_if(design, None, ["spine01"])["before"]
    for key in ("gpus", "bisection_gbps", "bisection_method", "hops", "bandwidth_per_gpu_gbps"):
        assert before[key] == j[key], key
    assert before["oversubscription"] == j["oversubscription"]


def test_a_tray_segment_fails_the_links_routed_along_it():
    design = fat_tree(k=4)
    plant = RoutedLinks(design)
    plant.refresh()
    whatif = WhatIf(design, plant)
    tray = next(iter(design.trays.values()))
    on_tray = {
        lid for lid in design.links if any(s[0] == tray.id for s in plant.link_tray_spans(lid))
    }
    failed = whatif.resolve([tray.id])
    assert {whatif.topo.link_ids[i] for i in np.flatnonzero(failed.links)} == on_tray
    segment = whatif.resolve([f"{tray.id}#1"])
    assert 0 < segment.link_count <= failed.link_count


def test_n_minus_one_ranks_each_tier_and_the_leaf_is_worst_on_a_rail_fabric():
    design = rail_optimized(nodes=64, node_type="dgx-h100", switch="qm9700", su_nodes=32)
    result = n_minus_one(WhatIf(design))
    tiers = {t["tier"]: t for t in result["tiers"]}
    assert {"leaf", "spine", "rack", "link server-leaf"} <= set(tiers)
    assert tiers["leaf"]["candidates"] == 16
    assert tiers["leaf"]["worst"]["gpus_disconnected"] == 32
    assert tiers["spine"]["worst"]["gpus_disconnected"] == 0
    # Every spine is alike: one class stands for all of them.
    assert tiers["spine"]["worst"]["equivalent"] == tiers["spine"]["candidates"]


def test_whatif_cli_json_shape_and_refusals(tmp_path, capsys):
    path = tmp_path / "ft.hall.json"
    save_design(fat_tree(k=4), path)
    assert run_cli(["whatif", str(path), "--fail", "core01", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert {"before", "after", "gpus_disconnected", "failed"} <= set(out)
    assert out["failed"] == ["core01"]
    assert run_cli(["whatif", str(path), "--fail", "core01"]) == 0
    assert "GPUs cut off from the scale-out fabric: 0" in capsys.readouterr().out
    assert run_cli(["whatif", str(path), "--fail", "no-such"]) == 2
    assert "no-such" in capsys.readouterr().err
    assert run_cli(["whatif", str(path)]) == 2
    assert run_cli(["whatif", str(path), "--n-1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tiers"]
